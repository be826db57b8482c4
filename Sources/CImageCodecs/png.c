// libpng 1.6 behind setjmp: errors come back as a status, warnings are ignored.
#include "CImageCodecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

_Static_assert(sizeof(png_byte) == 1, "png_byte must be one byte");

struct sr_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size, offset;
    sr_status *status;
};

static void sr_set(sr_status *status, sr_status_code code, const char *message) {
    if (!status) return;
    status->code = code;
    snprintf(status->message, SR_MESSAGE_CAPACITY, "%s", message);
}

static void sr_png_fail(png_structp png, png_const_charp message) {
    struct sr_png_decoder *d = png_get_error_ptr(png);
    int oom = strstr(message, "memory") != NULL;
    sr_set(d->status, oom ? SR_OUT_OF_MEMORY : SR_CORRUPT, message);
    png_longjmp(png, 1);
}

static void sr_png_warn(png_structp png, png_const_charp message) {
    (void)png; (void)message;   // e.g. "known incorrect sRGB profile": harmless
}

static void sr_png_read(png_structp png, png_bytep out, size_t length) {
    struct sr_png_decoder *d = png_get_io_ptr(png);
    if (length > d->size - d->offset) png_error(png, "file ends early (truncated)");
    memcpy(out, d->data + d->offset, length);
    d->offset += length;
}

sr_png_decoder *sr_png_open(const uint8_t *data, size_t size, uint32_t *width,
                            uint32_t *height, int *bit_depth, int *color_type,
                            int *interlaced, sr_status *status) {
    sr_set(status, SR_OK, "");
    sr_png_decoder *d = calloc(1, sizeof *d);
    if (!d) { sr_set(status, SR_OUT_OF_MEMORY, "out of memory"); return NULL; }
    d->data = data; d->size = size; d->status = status;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, d, sr_png_fail, sr_png_warn);
    if (!d->png) { free(d); sr_set(status, SR_OUT_OF_MEMORY, "out of memory"); return NULL; }
    d->info = png_create_info_struct(d->png);
    if (!d->info) {
        sr_set(status, SR_OUT_OF_MEMORY, "out of memory");
        sr_png_close(d);
        return NULL;
    }
    if (setjmp(png_jmpbuf(d->png))) {
        sr_png_close(d);
        return NULL;
    }
    png_set_read_fn(d->png, d, sr_png_read);
    png_read_info(d->png, d->info);
    png_uint_32 w, h;
    int depth, type, interlace;
    png_get_IHDR(d->png, d->info, &w, &h, &depth, &type, &interlace, NULL, NULL);
    *width = w; *height = h; *bit_depth = depth; *color_type = type;
    *interlaced = interlace != PNG_INTERLACE_NONE;
    return d;
}

// Composite over white, then Rec. 601 luma, as the JPEG path's Y channel.
static void sr_row_to_gray(const png_byte *in, uint8_t *out, png_uint_32 width,
                           int channels) {
    for (png_uint_32 x = 0; x < width; x++, in += channels) {
        unsigned r, g, b, a = 255;
        if (channels <= 2) { r = g = b = in[0]; if (channels == 2) a = in[1]; }
        else { r = in[0]; g = in[1]; b = in[2]; if (channels == 4) a = in[3]; }
        unsigned luma = r * 299 + g * 587 + b * 114;               // scaled by 1000
        out[x] = (uint8_t)((luma * a + 255000u * (255 - a) + 127500) / 255000);
    }
}

int sr_png_decode_gray(sr_png_decoder *d, uint8_t *pixels, size_t capacity,
                       sr_status *status) {
    sr_set(status, SR_OK, "");
    d->status = status;
    png_bytep volatile buffer = NULL;       // read after a longjmp: must be volatile
    uint8_t *volatile row = NULL;
    if (setjmp(png_jmpbuf(d->png))) { free(buffer); free(row); return 0; }
    png_uint_32 w = png_get_image_width(d->png, d->info);
    png_uint_32 h = png_get_image_height(d->png, d->info);
    if ((size_t)w * h > capacity) {
        sr_set(status, SR_CORRUPT, "output buffer smaller than the image");
        return 0;
    }
    png_set_expand(d->png);          // palette -> RGB, low-bit gray -> 8, tRNS -> alpha
    png_set_scale_16(d->png);        // 16-bit -> 8, rounded
    // No interlace handling: an Adam7 file's seven passes come as seven small images,
    // row by row, and each row's pixels are put in their places here, so memory stays at
    // one row whether or not the file is interlaced.
    int interlaced = png_get_interlace_type(d->png, d->info) == PNG_INTERLACE_ADAM7;
    png_read_update_info(d->png, d->info);
    int channels = png_get_channels(d->png, d->info);
    size_t rowbytes = png_get_rowbytes(d->png, d->info);
    if (channels < 1 || channels > 4 || rowbytes < (size_t)w * channels) {
        sr_set(status, SR_UNSUPPORTED, "unexpected PNG layout after expansion");
        return 0;
    }
    buffer = malloc(rowbytes);
    row = malloc(w);
    if (!buffer || !row) {
        sr_set(status, SR_OUT_OF_MEMORY, "out of memory");
        free(buffer); free(row);
        return 0;
    }
    if (!interlaced) {
        for (png_uint_32 y = 0; y < h; y++) {
            png_read_row(d->png, buffer, NULL);
            sr_row_to_gray(buffer, pixels + (size_t)y * w, w, channels);
        }
    } else {
        for (int pass = 0; pass < 7; pass++) {
            png_uint_32 cols = PNG_PASS_COLS(w, pass), rows_in_pass = PNG_PASS_ROWS(h, pass);
            if (cols == 0 || rows_in_pass == 0) continue;   // libpng skips empty passes too
            for (png_uint_32 r = 0; r < rows_in_pass; r++) {
                png_read_row(d->png, buffer, NULL);
                sr_row_to_gray(buffer, row, cols, channels);
                uint8_t *dst = pixels + (size_t)PNG_ROW_FROM_PASS_ROW(r, pass) * w;
                for (png_uint_32 c = 0; c < cols; c++) dst[PNG_COL_FROM_PASS_COL(c, pass)] = row[c];
            }
        }
    }
    png_read_end(d->png, NULL);      // a file cut before IEND is truncated
    free(buffer);
    free(row);
    return 1;
}

void sr_png_close(sr_png_decoder *d) {
    if (!d) return;
    png_destroy_read_struct(&d->png, d->info ? &d->info : NULL, NULL);
    free(d);
}
