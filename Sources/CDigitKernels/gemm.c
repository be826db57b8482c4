#include "digit_kernels.h"

#include <stdlib.h>
#include <string.h>

enum { LAYOUT_ROWS_1, LAYOUT_ROWS_32, LAYOUT_PACKED };

#if defined(__x86_64__) || defined(__i386__)
#define ISA_NAME(x) avx512_##x
#define TARGET_ATTR __attribute__((target("avx512f")))
#define VW 16
#define RMAX 14
#include "kernel_body.inc"
#undef ISA_NAME
#undef TARGET_ATTR
#undef VW
#undef RMAX

#define ISA_NAME(x) avx2_##x
#define TARGET_ATTR __attribute__((target("avx2,fma")))
#define VW 8
#define RMAX 6
#include "kernel_body.inc"
#undef ISA_NAME
#undef TARGET_ATTR
#undef VW
#undef RMAX
#endif

#define ISA_NAME(x) portable_##x
#define TARGET_ATTR
#define VW 4
#define RMAX 6
#include "kernel_body.inc"
#undef ISA_NAME
#undef TARGET_ATTR
#undef VW
#undef RMAX

typedef void (*panel_fn)(int, int, const float *, int, int, ptrdiff_t, const float *,
                         const float *, int, float *, ptrdiff_t);

typedef struct {
    const char *name;
    int panel_width;  // 2 vectors
    int rows;         // rows per block
    panel_fn panel;
} isa_kernels;

static const isa_kernels kernels[] = {
    [DK_PORTABLE] = {"portable", 8, 6, portable_panel},
#if defined(__x86_64__) || defined(__i386__)
    [DK_AVX2] = {"avx2", 16, 6, avx2_panel},
    [DK_AVX512] = {"avx512", 32, 14, avx512_panel},
#else
    [DK_AVX2] = {"avx2", 16, 6, 0},
    [DK_AVX512] = {"avx512", 32, 14, 0},
#endif
};

int dk_isa_supported(dk_isa isa) {
    switch (isa) {
    case DK_PORTABLE: return 1;
#if defined(__x86_64__) || defined(__i386__)
    case DK_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case DK_AVX512: return __builtin_cpu_supports("avx512f");
#endif
    default: return 0;
    }
}

dk_isa dk_best_isa(void) {
    if (dk_isa_supported(DK_AVX512)) return DK_AVX512;
    if (dk_isa_supported(DK_AVX2)) return DK_AVX2;
    return DK_PORTABLE;
}

const char *dk_isa_name(dk_isa isa) { return kernels[isa].name; }

int dk_panel_width(dk_isa isa) { return kernels[isa].panel_width; }

static int padded(dk_isa isa, int n) {
    int w = kernels[isa].panel_width;
    return (n + w - 1) / w * w;
}

size_t dk_packed_size(dk_isa isa, int k, int n) { return (size_t)k * (size_t)padded(isa, n); }

void dk_pack_b(dk_isa isa, const float *b, int k, int n, float *packed) {
    int w = kernels[isa].panel_width;
    for (int p = 0; p < padded(isa, n); p += w) {
        float *panel = packed + (size_t)p * k;
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < w; j++) {
                panel[(size_t)i * w + j] = p + j < n ? b[(size_t)i * n + p + j] : 0.0f;
            }
        }
    }
}

int dk_gemm(dk_isa isa, int rows, int n, const float *a, dk_a_layout layout,
            const float *packed_b, const float *bias, int relu, float *c, ptrdiff_t ldc) {
    const isa_kernels *cpu = &kernels[isa];
    const int w = cpu->panel_width, block = cpu->rows, k = layout.segments * layout.segment_length;
    const int kind = layout.row_stride == 1 ? LAYOUT_ROWS_1
                   : layout.row_stride == 32 ? LAYOUT_ROWS_32 : LAYOUT_PACKED;
    const int panels = padded(isa, n) / w;
    if (kind != LAYOUT_PACKED) {
        for (int p = 0; p < panels; p++) {
            for (int r = 0; r < rows; r += block) {
                int m = rows - r < block ? rows - r : block;
                cpu->panel(m, kind, a + r * layout.row_stride, layout.segments,
                           layout.segment_length, layout.segment_jump,
                           packed_b + (size_t)p * w * k, bias + p * w, relu,
                           c + r * ldc + p * w, ldc);
            }
        }
        return 0;
    }
    // Rows far apart: copy every block k-major once, then run each panel of B over all
    // blocks, so a panel is fetched from memory once and reused from cache.
    const int blocks = (rows + block - 1) / block;
    float *scratch = malloc(sizeof(float) * (size_t)k * (size_t)blocks * block);
    if (!scratch) return -1;
    for (int r = 0; r < rows; r += block) {
        int m = rows - r < block ? rows - r : block;
        float *packed_a = scratch + (size_t)(r / block) * k * block;
        for (int i = 0; i < m; i++) {
            for (int s = 0; s < layout.segments; s++) {
                const float *src = a + (r + i) * layout.row_stride + s * layout.segment_jump;
                float *dst = packed_a + (size_t)s * layout.segment_length * m + i;
                for (int j = 0; j < layout.segment_length; j++) dst[(size_t)j * m] = src[j];
            }
        }
    }
    for (int p = 0; p < panels; p++) {
        for (int r = 0; r < rows; r += block) {
            int m = rows - r < block ? rows - r : block;
            cpu->panel(m, kind, scratch + (size_t)(r / block) * k * block, 1, k, 0,
                       packed_b + (size_t)p * w * k, bias + p * w, relu, c + r * ldc + p * w, ldc);
        }
    }
    free(scratch);
    return 0;
}
