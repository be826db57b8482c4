// PNG encoding for debug images and galleries, behind setjmp like the decoders.
#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

typedef struct {
    uint8_t *bytes;
    size_t size, capacity;
    sr_status *status;
} sr_png_sink;

static void sr_sink_fail(png_structp png, png_const_charp message) {
    sr_png_sink *sink = png_get_error_ptr(png);
    sink->status->code = SR_CORRUPT;
    snprintf(sink->status->message, SR_MESSAGE_CAPACITY, "PNG encoder: %s", message);
    png_longjmp(png, 1);
}

static void sr_sink_warn(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void sr_sink_write(png_structp png, png_bytep data, size_t length) {
    sr_png_sink *sink = png_get_io_ptr(png);
    if (sink->size + length > sink->capacity) {
        size_t capacity = (sink->capacity + length) * 2;
        uint8_t *grown = realloc(sink->bytes, capacity);
        if (!grown) png_error(png, "out of memory");
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->bytes + sink->size, data, length);
    sink->size += length;
}

static void sr_sink_flush(png_structp png) { (void)png; }

int sr_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                  uint8_t **out, size_t *out_size, sr_status *status) {
    status->code = SR_OK;
    status->message[0] = 0;
    sr_png_sink sink = {NULL, 0, 0, status};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, sr_sink_fail,
                                              sr_sink_warn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, NULL);
        status->code = SR_OUT_OF_MEMORY;
        snprintf(status->message, SR_MESSAGE_CAPACITY, "out of memory");
        return 0;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(sink.bytes);
        return 0;
    }
    png_set_write_fn(png, &sink, sr_sink_write, sr_sink_flush);
    png_set_compression_level(png, 3);   // debug output: fast over small
    png_set_IHDR(png, info, width, height, 8,
                 channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++)
        png_write_row(png, pixels + (size_t)y * width * channels);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = sink.bytes;
    *out_size = sink.size;
    return 1;
}

void sr_free(void *memory) { free(memory); }
