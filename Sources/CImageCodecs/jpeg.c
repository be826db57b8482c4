// libjpeg-turbo behind setjmp: no exit(), no stderr, no longjmp past this file.
#include "CImageCodecs.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

_Static_assert(sizeof(JSAMPLE) == 1, "ScanReader expects 8-bit libjpeg samples");
_Static_assert(BITS_IN_JSAMPLE == 8, "ScanReader expects 8-bit libjpeg samples");

// A progressive JPEG has about ten scans per component; each scan is a pass over the
// whole coefficient buffer, so a file of thousands of tiny valid scans would take minutes.
// Past this many the file is refused, as djpeg -maxscans does: libjpeg writes 10 scans
// for a colour image, mozjpeg about as many; 100 leaves room and bounds the work.
#define SR_MAX_SCANS 100

struct sr_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr err;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    sr_status *status;   // where the handlers write; set by each entry point
    int header_read;
};

static void sr_set(sr_status *status, sr_status_code code, const char *message) {
    if (!status) return;
    status->code = code;
    snprintf(status->message, SR_MESSAGE_CAPACITY, "%s", message);
}

static void sr_jpeg_fail(j_common_ptr cinfo) {
    struct sr_jpeg_decoder *d = (struct sr_jpeg_decoder *)cinfo->client_data;
    char text[JMSG_LENGTH_MAX];
    cinfo->err->format_message(cinfo, text);
    int code = cinfo->err->msg_code;
    sr_status_code kind = SR_CORRUPT;
    if (code == JERR_OUT_OF_MEMORY) kind = SR_OUT_OF_MEMORY;
    else if (code == JERR_CONVERSION_NOTIMPL || code == JERR_BAD_PRECISION ||
             code == JERR_NOT_COMPILED || code == JERR_NO_ARITH_TABLE)
        kind = SR_UNSUPPORTED;
    sr_set(d->status, kind, text);
    longjmp(d->jump, 1);
}

// Warnings (msg_level -1) that mean the pixels are not what the file meant are errors:
// a half-grey image must never pass as whole. Benign ones are ignored.
static void sr_jpeg_message(j_common_ptr cinfo, int level) {
    if (level != -1) return;   // trace messages
    switch (cinfo->err->msg_code) {
    case JWRN_EXTRANEOUS_DATA:  // stray bytes before a marker: common in camera files
    case JWRN_ADOBE_XFORM:
    case JWRN_JFIF_MAJOR:
    case JWRN_BOGUS_ICC:
        return;
    default:
        sr_jpeg_fail(cinfo);
    }
}

static void sr_jpeg_silent(j_common_ptr cinfo) { (void)cinfo; }

// Called by libjpeg as it consumes input: stops a file with too many scans.
static void sr_jpeg_progress(j_common_ptr cinfo) {
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->input_scan_number > SR_MAX_SCANS) {
        struct sr_jpeg_decoder *d = (struct sr_jpeg_decoder *)cinfo->client_data;
        char text[SR_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "more than %d scans (a progressive JPEG has a few dozen at most)",
                 SR_MAX_SCANS);
        sr_set(d->status, SR_CORRUPT, text);
        longjmp(d->jump, 1);
    }
}

sr_jpeg_decoder *sr_jpeg_open(const uint8_t *data, size_t size, uint32_t *width,
                              uint32_t *height, sr_jpeg_color *color, int *progressive,
                              sr_status *status) {
    sr_set(status, SR_OK, "");
    sr_jpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) { sr_set(status, SR_OUT_OF_MEMORY, "out of memory"); return NULL; }
    d->status = status;
    d->cinfo.err = jpeg_std_error(&d->err);
    d->err.error_exit = sr_jpeg_fail;
    d->err.emit_message = sr_jpeg_message;
    d->err.output_message = sr_jpeg_silent;
    d->cinfo.client_data = d;
    if (setjmp(d->jump)) {
        jpeg_destroy_decompress(&d->cinfo);
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->progress.progress_monitor = sr_jpeg_progress;
    d->cinfo.progress = &d->progress;
    jpeg_mem_src(&d->cinfo, data, (unsigned long)size);
    jpeg_read_header(&d->cinfo, TRUE);
    d->header_read = 1;
    *width = d->cinfo.image_width;
    *height = d->cinfo.image_height;
    *progressive = jpeg_has_multiple_scans(&d->cinfo) ? 1 : 0;
    switch (d->cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: *color = SR_JPEG_GRAY; break;
    case JCS_YCbCr: *color = SR_JPEG_YCBCR; break;
    case JCS_RGB: *color = SR_JPEG_RGB; break;
    case JCS_CMYK: *color = SR_JPEG_CMYK; break;
    case JCS_YCCK: *color = SR_JPEG_YCCK; break;
    default: *color = SR_JPEG_OTHER; break;
    }
    return d;
}

int sr_jpeg_set_scale(sr_jpeg_decoder *d, unsigned denominator, uint32_t *out_width,
                      uint32_t *out_height, sr_status *status) {
    sr_set(status, SR_OK, "");
    d->status = status;
    if (setjmp(d->jump)) return 0;
    if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) {
        sr_set(status, SR_UNSUPPORTED, "DCT scale denominator must be 1, 2, 4 or 8");
        return 0;
    }
    d->cinfo.scale_num = 1;
    d->cinfo.scale_denom = denominator;
    switch (d->cinfo.jpeg_color_space) {
    case JCS_GRAYSCALE: case JCS_YCbCr: case JCS_RGB:
        d->cinfo.out_color_space = JCS_GRAYSCALE;   // luminance straight from the decoder
        break;
    case JCS_CMYK: case JCS_YCCK:
        d->cinfo.out_color_space = JCS_CMYK;        // converted to luminance below
        break;
    default:
        sr_set(status, SR_UNSUPPORTED, "unsupported JPEG colour space");
        return 0;
    }
    d->cinfo.dct_method = JDCT_ISLOW;
    jpeg_calc_output_dimensions(&d->cinfo);
    *out_width = d->cinfo.output_width;
    *out_height = d->cinfo.output_height;
    return 1;
}

size_t sr_jpeg_working_bytes(const sr_jpeg_decoder *d) {
    const struct jpeg_decompress_struct *c = &d->cinfo;
    size_t total = 0;
    int max_v = 1;
    for (int i = 0; i < c->num_components; i++) {
        const jpeg_component_info *comp = &c->comp_info[i];
        if (comp->v_samp_factor > max_v) max_v = comp->v_samp_factor;
        // a progressive (or multi-scan) file keeps every coefficient of the whole image
        // until its last scan: 64 coefficients of 2 bytes per block
        if (jpeg_has_multiple_scans((j_decompress_ptr)c)) {
            size_t rows = (size_t)comp->height_in_blocks + (size_t)comp->v_samp_factor;
            total += (size_t)comp->width_in_blocks * rows * 64 * sizeof(JCOEF);
        }
        // one iMCU row of samples per component, twice (context rows for upsampling)
        total += 2 * (size_t)comp->width_in_blocks * 8 * (size_t)comp->v_samp_factor * 8;
    }
    // colour conversion and the CMYK row, a few output rows wide
    total += (size_t)c->image_width * 4 * (size_t)max_v * 8;
    return total + 65536;   // tables, Huffman state, the decoder itself
}

void sr_jpeg_set_memory_limit(sr_jpeg_decoder *d, size_t bytes) {
    d->cinfo.mem->max_memory_to_use = bytes > (size_t)LONG_MAX ? LONG_MAX : (long)bytes;
}

// Adobe writes CMYK inverted (0 = full ink); others store ink directly.
static void sr_cmyk_row_to_gray(const JSAMPLE *in, uint8_t *out, JDIMENSION width,
                                int inverted) {
    for (JDIMENSION x = 0; x < width; x++, in += 4) {
        unsigned c = in[0], m = in[1], y = in[2], k = in[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        // now 255 = no ink: R = (255 - C_ink)(255 - K_ink) / 255, likewise G, B
        unsigned r = c * k, g = m * k, b = y * k;                 // scaled by 255
        out[x] = (uint8_t)((r * 299 + g * 587 + b * 114 + 127500) / 255000);
    }
}

int sr_jpeg_decode_gray(sr_jpeg_decoder *d, uint8_t *pixels, size_t capacity,
                        sr_status *status) {
    sr_set(status, SR_OK, "");
    d->status = status;
    JSAMPLE *volatile row = NULL;   // read after a longjmp: must be volatile
    if (setjmp(d->jump)) { free(row); return 0; }
    jpeg_start_decompress(&d->cinfo);
    JDIMENSION w = d->cinfo.output_width, h = d->cinfo.output_height;
    if ((size_t)w * h > capacity) {
        sr_set(status, SR_CORRUPT, "output buffer smaller than the image");
        jpeg_abort_decompress(&d->cinfo);
        return 0;
    }
    int cmyk = d->cinfo.out_color_space == JCS_CMYK;
    if (cmyk) {
        row = malloc((size_t)w * 4);
        if (!row) { sr_set(status, SR_OUT_OF_MEMORY, "out of memory"); return 0; }
    }
    while (d->cinfo.output_scanline < h) {
        uint8_t *dst = pixels + (size_t)d->cinfo.output_scanline * w;
        JSAMPROW target = cmyk ? row : dst;
        if (jpeg_read_scanlines(&d->cinfo, &target, 1) != 1) {
            sr_set(status, SR_CORRUPT, "decoder returned no scanline");
            free(row);
            return 0;
        }
        if (cmyk) sr_cmyk_row_to_gray(row, dst, w, d->cinfo.saw_Adobe_marker);
    }
    // Stops at the first image's EOI: an MPO's later images are never read.
    jpeg_finish_decompress(&d->cinfo);
    free(row);
    return 1;
}

// The chroma planes' running sums: one row of squares at a time, summed first down the
// columns of samples (a loop the compiler vectorizes), then across each square.
typedef struct {
    unsigned block;
    size_t width, height;       // squares across and down
    uint8_t *cb, *cr;           // the planes written
    uint32_t *columns;          // per chroma sample: blue sums, then red sums
    size_t samples, per;        // samples in a row; samples to a square
    uint32_t rows;              // rows summed into the current square row
    long row;                   // the square row being summed, -1 before the first
} sr_chroma_sums;

static void sr_chroma_flush(sr_chroma_sums *c) {
    if (c->row >= 0 && (size_t)c->row < c->height && c->rows > 0) {
        size_t out = (size_t)c->row * c->width, x = 0;
        const uint32_t *blue = c->columns, *red = c->columns + c->samples;
        for (size_t k = 0; k < c->width && x < c->samples; k++) {
            size_t end = k + 1 == c->width || x + c->per > c->samples ? c->samples : x + c->per;
            uint32_t b = 0, r = 0, n = (uint32_t)(end - x) * c->rows;
            for (; x < end; x++) { b += blue[x]; r += red[x]; }
            c->cb[out + k] = (uint8_t)((b + n / 2) / n);
            c->cr[out + k] = (uint8_t)((r + n / 2) / n);
        }
    }
    memset(c->columns, 0, 2 * c->samples * sizeof(uint32_t));
    c->rows = 0;
}

// Adds one row of chroma samples lying at output row `y`.
static void sr_chroma_add(sr_chroma_sums *c, JDIMENSION y, const JSAMPLE *blue, const JSAMPLE *red) {
    long row = (long)(y / c->block);
    if (row != c->row) { sr_chroma_flush(c); c->row = row; }
    uint32_t *bs = c->columns, *rs = c->columns + c->samples;
    for (size_t x = 0; x < c->samples; x++) { bs[x] += blue[x]; rs[x] += red[x]; }
    c->rows += 1;
}

int sr_jpeg_decode_gray_chroma(sr_jpeg_decoder *d, uint8_t *pixels, size_t capacity,
                               unsigned block, uint8_t *cb, uint8_t *cr, size_t chroma_capacity,
                               int *has_chroma, sr_status *status) {
    *has_chroma = 0;
    struct jpeg_decompress_struct *c = &d->cinfo;
    // the planes as coded (raw data: no upsampling, no colour conversion): luminance at
    // full sampling, both chroma components alike, each sample inside one square
    int raw = c->jpeg_color_space == JCS_YCbCr && c->num_components == 3 && block > 0
        && c->comp_info[0].h_samp_factor == c->max_h_samp_factor
        && c->comp_info[0].v_samp_factor == c->max_v_samp_factor
        && c->comp_info[1].h_samp_factor == c->comp_info[2].h_samp_factor
        && c->comp_info[1].v_samp_factor == c->comp_info[2].v_samp_factor;
    unsigned sx = 0, sy = 0;
    sr_set(status, SR_OK, "");
    d->status = status;
    JSAMPLE *volatile store = NULL;      // read after a longjmp: must be volatile
    uint32_t *volatile sums = NULL;
    if (setjmp(d->jump)) { free(store); free(sums); return 0; }
    if (raw) {
        c->out_color_space = JCS_YCbCr;
        c->raw_data_out = TRUE;
        jpeg_calc_output_dimensions(c);
        // output pixels per chroma sample (the decoder may scale chroma less than
        // luminance, sparing itself the upsampling)
        const jpeg_component_info *blue = &c->comp_info[1];
        unsigned across = (unsigned)(blue->h_samp_factor * blue->DCT_scaled_size);
        unsigned down = (unsigned)(blue->v_samp_factor * blue->DCT_scaled_size);
        unsigned luma = (unsigned)c->min_DCT_scaled_size;
        raw = across && down && (c->max_h_samp_factor * luma) % across == 0 && (c->max_v_samp_factor * luma) % down == 0
            && c->comp_info[0].DCT_scaled_size == c->min_DCT_scaled_size;
        if (raw) {
            sx = c->max_h_samp_factor * luma / across;
            sy = c->max_v_samp_factor * luma / down;
            raw = block % sx == 0 && block % sy == 0;
        }
        if (!raw) {   // luminance only, as sr_jpeg_set_scale left it
            c->out_color_space = JCS_GRAYSCALE;
            c->raw_data_out = FALSE;
            jpeg_calc_output_dimensions(c);
        }
    }
    if (!raw) return sr_jpeg_decode_gray(d, pixels, capacity, status);
    jpeg_start_decompress(c);
    JDIMENSION w = c->output_width, h = c->output_height;
    sr_chroma_sums chroma = { block, (w + block - 1) / block, (h + block - 1) / block, cb, cr, NULL, 0, 0, 0, -1 };
    if ((size_t)w * h > capacity || chroma.width * chroma.height > chroma_capacity) {
        sr_set(status, SR_CORRUPT, "output buffer smaller than the image");
        jpeg_abort_decompress(c);
        return 0;
    }
    // one call's rows of each component
    int lines = c->max_v_samp_factor * c->min_DCT_scaled_size;
    size_t rows[3], widths[3], total = 0;
    for (int k = 0; k < 3; k++) {
        rows[k] = (size_t)c->comp_info[k].v_samp_factor * c->comp_info[k].DCT_scaled_size;
        widths[k] = (size_t)c->comp_info[k].width_in_blocks * c->comp_info[k].DCT_scaled_size;
        total += rows[k] * widths[k];
    }
    size_t samples = c->comp_info[1].downsampled_width;
    total = (total + sizeof(JSAMPROW) - 1) / sizeof(JSAMPROW) * sizeof(JSAMPROW);   // the row pointers follow
    store = malloc(total + (rows[0] + rows[1] + rows[2]) * sizeof(JSAMPROW));
    sums = calloc(2 * samples, sizeof(uint32_t));
    if (!store || !sums) {
        sr_set(status, SR_OUT_OF_MEMORY, "out of memory");
        free(store); free(sums);
        return 0;
    }
    chroma.columns = sums;
    chroma.samples = samples;
    chroma.per = block / sx;
    JSAMPROW *pointers = (JSAMPROW *)(store + total);
    JSAMPARRAY planes[3];
    JSAMPLE *next = store;
    for (int k = 0, p = 0; k < 3; k++) {
        planes[k] = pointers + p;
        for (size_t r = 0; r < rows[k]; r++, p++) { pointers[p] = next; next += widths[k]; }
    }
    while (c->output_scanline < h) {
        JDIMENSION y0 = c->output_scanline;
        if (jpeg_read_raw_data(c, planes, (JDIMENSION)lines) != (JDIMENSION)lines) {
            sr_set(status, SR_CORRUPT, "decoder returned no rows");
            free(store); free(sums);
            return 0;
        }
        for (int r = 0; r < lines && y0 + (JDIMENSION)r < h; r++)
            memcpy(pixels + (size_t)(y0 + r) * w, planes[0][r], w);
        for (size_t r = 0; r < rows[1] && y0 + r * sy < h; r++)
            sr_chroma_add(&chroma, y0 + (JDIMENSION)(r * sy), planes[1][r], planes[2][r]);
    }
    sr_chroma_flush(&chroma);
    jpeg_finish_decompress(c);
    free(store); free(sums);
    *has_chroma = 1;
    return 1;
}

void sr_jpeg_close(sr_jpeg_decoder *d) {
    if (!d) return;
    jpeg_destroy_decompress(&d->cinfo);
    free(d);
}
