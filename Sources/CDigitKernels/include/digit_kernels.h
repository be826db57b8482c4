// Single-precision matrix products for the digit CNN, written for its shapes.
//
// C = A · B (+ bias, optionally ReLU), where B is packed once (dk_pack_b) and A is read
// in place: a convolution's input image is addressed as its own im2col matrix, so no
// patch matrix is ever built. Each call names its instruction set (AVX-512, AVX2+FMA
// or portable vectors; dk_best_isa() picks from the CPU) and B must have been packed
// for the same one. Every function is reentrant and starts no threads.
#ifndef DIGIT_KERNELS_H
#define DIGIT_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How A's elements are found. Row r, column k = s * segment_length + j lies at
/// a[s * segment_jump + r * row_stride + j]. A plain row-major matrix with K columns is
/// one segment of length K and row_stride K; a 5×5 convolution over a padded HWC image
/// is 5 segments (kernel rows) of 5 × channels values.
typedef struct {
    ptrdiff_t row_stride;
    int segments;
    int segment_length;
    ptrdiff_t segment_jump;
} dk_a_layout;

/// The kernels' instruction sets.
typedef enum { DK_PORTABLE = 0, DK_AVX2 = 1, DK_AVX512 = 2 } dk_isa;

/// The fastest instruction set this CPU runs.
dk_isa dk_best_isa(void);

/// Whether this CPU (and this build) runs `isa`.
int dk_isa_supported(dk_isa isa);

/// Its name: "avx512", "avx2" or "portable".
const char *dk_isa_name(dk_isa isa);

/// Columns per packed panel (32, 16 or 8). Output widths are padded to it.
int dk_panel_width(dk_isa isa);

/// Floats needed to pack a k×n matrix: k × n rounded up to the panel width.
size_t dk_packed_size(dk_isa isa, int k, int n);

/// Packs row-major B (k×n, leading dimension n) into panels of dk_panel_width(isa)
/// columns, zero-padded; `packed` holds dk_packed_size(isa, k, n) floats.
void dk_pack_b(dk_isa isa, const float *b, int k, int n, float *packed);

/// C (rows × padded n) = A · B + bias (B packed for `isa`, which must be supported), with ReLU when `relu` is nonzero. `bias` holds
/// n rounded up to the panel width values (zero-padded); C's rows are `ldc` floats
/// apart, ldc ≥ padded n. Returns 0, or -1 when scratch memory could not be had.
int dk_gemm(dk_isa isa, int rows, int n, const float *a, dk_a_layout layout, const float *packed_b,
            const float *bias, int relu, float *c, ptrdiff_t ldc);

#ifdef __cplusplus
}
#endif

#endif
