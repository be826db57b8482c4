// CImageCodecs: the C side of ScanReader's image loading.
//
// Every function here returns a status and fills a message; none of them exits, prints
// or lets a longjmp escape: libjpeg's and libpng's error handlers jump back into the
// shim function that called the library, never across a Swift frame.
#ifndef SCANREADER_CIMAGECODECS_H
#define SCANREADER_CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

#define SR_MESSAGE_CAPACITY 256

/// Outcome of a shim call.
typedef enum {
    SR_OK = 0,
    SR_CORRUPT = 1,       ///< the data is damaged or truncated
    SR_UNSUPPORTED = 2,   ///< valid data of a kind we cannot decode
    SR_OUT_OF_MEMORY = 3,
} sr_status_code;

/// A status code and a human-readable message (empty on success).
typedef struct {
    sr_status_code code;
    char message[SR_MESSAGE_CAPACITY];
} sr_status;

/// JPEG colour spaces as reported by the header (mirrors libjpeg's J_COLOR_SPACE subset).
typedef enum {
    SR_JPEG_GRAY = 1, SR_JPEG_YCBCR = 2, SR_JPEG_RGB = 3, SR_JPEG_CMYK = 4, SR_JPEG_YCCK = 5,
    SR_JPEG_OTHER = 0,
} sr_jpeg_color;

/// An open JPEG decoder over caller-owned bytes (the bytes must outlive it).
typedef struct sr_jpeg_decoder sr_jpeg_decoder;

/// Reads the JPEG header. Returns NULL on failure (status says why).
/// The full-size dimensions and colour space are written to the out-parameters.
sr_jpeg_decoder *sr_jpeg_open(const uint8_t *data, size_t size, uint32_t *width,
                              uint32_t *height, sr_jpeg_color *color, int *progressive,
                              sr_status *status);

/// Chooses DCT scaling 1/denominator (1, 2, 4 or 8) and reports the output size.
int sr_jpeg_set_scale(sr_jpeg_decoder *decoder, unsigned denominator, uint32_t *out_width,
                      uint32_t *out_height, sr_status *status);

/// Bytes the decoder will allocate while decoding, beyond the output pixels: for a
/// progressive file the whole image's DCT coefficients (2 bytes each), otherwise a few
/// rows. Valid after sr_jpeg_set_scale.
size_t sr_jpeg_working_bytes(const sr_jpeg_decoder *decoder);

/// Caps the memory libjpeg's whole-image buffers may take (libjpeg's max_memory_to_use;
/// beyond it decoding fails instead of allocating).
void sr_jpeg_set_memory_limit(sr_jpeg_decoder *decoder, size_t bytes);

/// Decodes into `pixels` (out_width x out_height 8-bit luminance, row stride = out_width).
/// Any libjpeg warning that means damaged data (premature end included) is an error.
int sr_jpeg_decode_gray(sr_jpeg_decoder *decoder, uint8_t *pixels, size_t capacity,
                        sr_status *status);

/// As sr_jpeg_decode_gray, and for a YCbCr file also its colour: the blue- and
/// red-difference planes (Cb, Cr; 128 for grey), each sample the mean over a square of
/// `block` x `block` output pixels (partial squares at the right and bottom averaged over
/// what they hold), written to `cb` and `cr` (ceil(out_width / block) x
/// ceil(out_height / block), row stride the plane's width; `chroma_capacity` bytes each).
/// `*has_chroma` is 1 when the planes were written, 0 for a file with no colour
/// (grayscale, CMYK, RGB-coded).
int sr_jpeg_decode_gray_chroma(sr_jpeg_decoder *decoder, uint8_t *pixels, size_t capacity,
                               unsigned block, uint8_t *cb, uint8_t *cr, size_t chroma_capacity,
                               int *has_chroma, sr_status *status);

/// Frees the decoder. Safe on NULL.
void sr_jpeg_close(sr_jpeg_decoder *decoder);

/// An open PNG decoder over caller-owned bytes.
typedef struct sr_png_decoder sr_png_decoder;

/// Reads the PNG signature and IHDR (and every chunk up to the image data).
sr_png_decoder *sr_png_open(const uint8_t *data, size_t size, uint32_t *width,
                            uint32_t *height, int *bit_depth, int *color_type,
                            int *interlaced, sr_status *status);

/// Decodes to 8-bit luminance: palette and tRNS expanded, alpha composited over white,
/// 16-bit scaled to 8, Adam7 de-interlaced pass by pass (one row of memory, interlaced or
/// not). Luma = (299 R + 587 G + 114 B) / 1000.
int sr_png_decode_gray(sr_png_decoder *decoder, uint8_t *pixels, size_t capacity,
                       sr_status *status);

/// As sr_png_decode_gray, and for a colour file (RGB, RGBA, palette) also its colour
/// composited over white: Cb and Cr (Rec. 601, 128 for grey) of the mean over squares of
/// `block` x `block` pixels, as sr_jpeg_decode_gray_chroma. `*has_chroma` is 1 when the
/// planes were written, 0 for a gray file.
int sr_png_decode_gray_chroma(sr_png_decoder *decoder, uint8_t *pixels, size_t capacity,
                              unsigned block, uint8_t *cb, uint8_t *cr, size_t chroma_capacity,
                              int *has_chroma, sr_status *status);

/// Frees the decoder. Safe on NULL.
void sr_png_close(sr_png_decoder *decoder);

/// Encodes 8-bit gray (channels 1) or RGB (channels 3) pixels as PNG. On success
/// *out points to malloc'd bytes the caller frees with sr_free, *out_size their count.
int sr_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                  uint8_t **out, size_t *out_size, sr_status *status);

/// Frees memory returned by the shims.
void sr_free(void *memory);

#endif
