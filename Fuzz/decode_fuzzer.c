// libFuzzer target for the C door to the codecs (Sources/CImageCodecs): the shims are
// called as ImageLoader calls them (header, size check, DCT scale, decode to gray), under
// AddressSanitizer and UndefinedBehaviorSanitizer. Built and run by Benchmarks/fuzz.sh.
#include "CImageCodecs.h"

#include <stdint.h>
#include <stdlib.h>

// ImageLoader refuses larger headers before any pixel buffer exists; the fuzzer keeps
// a lower limit so each input stays fast.
#define FUZZ_MAX_PIXELS (4u * 1024u * 1024u)

static void fuzz_jpeg(const uint8_t *data, size_t size) {
    sr_status status;
    uint32_t width = 0, height = 0, out_w = 0, out_h = 0;
    sr_jpeg_color color;
    int progressive = 0;
    sr_jpeg_decoder *d = sr_jpeg_open(data, size, &width, &height, &color, &progressive, &status);
    if (!d) return;
    unsigned denominator = 1u << (size % 4);   // 1, 2, 4, 8 as the working size asks
    if ((uint64_t)width * height <= FUZZ_MAX_PIXELS && width > 0 && height > 0 &&
        sr_jpeg_set_scale(d, denominator, &out_w, &out_h, &status)) {
        sr_jpeg_set_memory_limit(d, 256u << 20);
        (void)sr_jpeg_working_bytes(d);
        size_t count = (size_t)out_w * out_h;
        uint8_t *pixels = malloc(count ? count : 1);
        if (pixels) {
            sr_jpeg_decode_gray(d, pixels, count, &status);
            free(pixels);
        }
    }
    sr_jpeg_close(d);
}

static void fuzz_png(const uint8_t *data, size_t size) {
    sr_status status;
    uint32_t width = 0, height = 0;
    int depth = 0, type = 0, interlaced = 0;
    sr_png_decoder *d = sr_png_open(data, size, &width, &height, &depth, &type, &interlaced, &status);
    if (!d) return;
    if ((uint64_t)width * height <= FUZZ_MAX_PIXELS && width > 0 && height > 0) {
        size_t count = (size_t)width * height;
        uint8_t *pixels = malloc(count);
        if (pixels) {
            sr_png_decode_gray(d, pixels, count, &status);
            free(pixels);
        }
    }
    sr_png_close(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8) fuzz_jpeg(data, size);
    else if (size >= 8 && data[0] == 0x89 && data[1] == 'P') fuzz_png(data, size);
    return 0;
}
