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

static int sr_png_decode(sr_png_decoder *d, uint8_t *pixels, size_t capacity,
                         unsigned block, uint8_t *cb, uint8_t *cr, size_t chroma_capacity,
                         int *has_chroma, sr_status *status);

// Adds a row of `cols` pixels (composited over white) to the colour sums of the squares
// of `block` pixels they fall in: the pixel at c sits at image column column_of(c), row y.
static void sr_row_to_colour(const png_byte *in, png_uint_32 cols, int channels, png_uint_32 y,
                             png_uint_32 first, png_uint_32 spacing, unsigned block, size_t squares,
                             uint32_t *sums) {
    uint32_t *row = sums + 3 * (size_t)(y / block) * squares;
    for (png_uint_32 c = 0; c < cols; c++, in += channels) {
        unsigned a = channels == 4 ? in[3] : 255, white = 255 * (255 - a);
        uint32_t *s = row + 3 * ((first + c * spacing) / block);
        s[0] += (in[0] * a + white + 127) / 255;
        s[1] += (in[1] * a + white + 127) / 255;
        s[2] += (in[2] * a + white + 127) / 255;
    }
}

int sr_png_decode_gray_chroma(sr_png_decoder *d, uint8_t *pixels, size_t capacity,
                              unsigned block, uint8_t *cb, uint8_t *cr, size_t chroma_capacity,
                              int *has_chroma, sr_status *status) {
    *has_chroma = 0;
    return sr_png_decode(d, pixels, capacity, block, cb, cr, chroma_capacity, has_chroma, status);
}

int sr_png_decode_gray(sr_png_decoder *d, uint8_t *pixels, size_t capacity,
                       sr_status *status) {
    int none = 0;
    return sr_png_decode(d, pixels, capacity, 0, NULL, NULL, 0, &none, status);
}

static int sr_png_decode(sr_png_decoder *d, uint8_t *pixels, size_t capacity,
                         unsigned block, uint8_t *cb, uint8_t *cr, size_t chroma_capacity,
                         int *has_chroma, sr_status *status) {
    sr_set(status, SR_OK, "");
    d->status = status;
    png_bytep volatile buffer = NULL;       // read after a longjmp: must be volatile
    uint8_t *volatile row = NULL;
    uint32_t *volatile sums = NULL;
    if (setjmp(png_jmpbuf(d->png))) { free(buffer); free(row); free(sums); return 0; }
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
    // colour: the sums of R, G and B over each square, read off at the end
    int colour = block > 0 && channels >= 3;
    size_t squares = colour ? (w + block - 1) / block : 0, squareRows = colour ? (h + block - 1) / block : 0;
    if (colour && squares * squareRows > chroma_capacity) {
        sr_set(status, SR_CORRUPT, "chroma buffer smaller than the image");
        return 0;
    }
    buffer = malloc(rowbytes);
    row = malloc(w);
    sums = colour ? calloc(3 * squares * squareRows, sizeof(uint32_t)) : NULL;
    if (!buffer || !row || (colour && !sums)) {
        sr_set(status, SR_OUT_OF_MEMORY, "out of memory");
        free(buffer); free(row); free(sums);
        return 0;
    }
    if (!interlaced) {
        for (png_uint_32 y = 0; y < h; y++) {
            png_read_row(d->png, buffer, NULL);
            sr_row_to_gray(buffer, pixels + (size_t)y * w, w, channels);
            if (colour) sr_row_to_colour(buffer, w, channels, y, 0, 1, block, squares, sums);
        }
    } else {
        for (int pass = 0; pass < 7; pass++) {
            png_uint_32 cols = PNG_PASS_COLS(w, pass), rows_in_pass = PNG_PASS_ROWS(h, pass);
            if (cols == 0 || rows_in_pass == 0) continue;   // libpng skips empty passes too
            for (png_uint_32 r = 0; r < rows_in_pass; r++) {
                png_read_row(d->png, buffer, NULL);
                sr_row_to_gray(buffer, row, cols, channels);
                png_uint_32 y = PNG_ROW_FROM_PASS_ROW(r, pass);
                if (colour)
                    sr_row_to_colour(buffer, cols, channels, y, PNG_COL_FROM_PASS_COL(0, pass),
                                     PNG_COL_FROM_PASS_COL(1, pass) - PNG_COL_FROM_PASS_COL(0, pass), block, squares, sums);
                uint8_t *dst = pixels + (size_t)y * w;
                for (png_uint_32 c = 0; c < cols; c++) dst[PNG_COL_FROM_PASS_COL(c, pass)] = row[c];
            }
        }
    }
    png_read_end(d->png, NULL);      // a file cut before IEND is truncated
    if (colour) {
        // the mean colour of each square, its Cb and Cr (Rec. 601, as JPEG's YCbCr)
        for (size_t k = 0; k < squareRows; k++) {
            size_t rows = k + 1 < squareRows || h % block == 0 ? block : h % block;
            for (size_t l = 0; l < squares; l++) {
                size_t columns = l + 1 < squares || w % block == 0 ? block : w % block;
                const uint32_t *s = sums + 3 * (k * squares + l);
                double n = (double)(rows * columns), r = s[0] / n, g = s[1] / n, b = s[2] / n;
                double blue = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
                double red = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
                cb[k * squares + l] = (uint8_t)(blue < 0 ? 0 : blue > 255 ? 255 : blue + 0.5);
                cr[k * squares + l] = (uint8_t)(red < 0 ? 0 : red > 255 ? 255 : red + 0.5);
            }
        }
        *has_chroma = 1;
    }
    free(buffer);
    free(row);
    free(sums);
    return 1;
}

void sr_png_close(sr_png_decoder *d) {
    if (!d) return;
    png_destroy_read_struct(&d->png, d->info ? &d->info : NULL, NULL);
    free(d);
}
