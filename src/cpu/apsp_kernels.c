/* apsp_kernels.c - the tile operations of the CPU blocked Floyd-Warshall,
 * written once as templates and instantiated per element type (int32,
 * int64, float32, float64, and the unsigned 16-bit lanes of the exact
 * 16-bit path) and per instruction set (AVX-512, AVX2, the baseline).
 *
 * Floats: the update is an IEEE addition in the element type, then a
 * compare and select that keeps the incumbent unless the candidate is
 * strictly smaller (the x86 min instructions do exactly that with the
 * candidate first).  There is no multiplication (nothing to contract into
 * an FMA) and the build has no -ffast-math, so the compiler may not
 * reassociate: every backend with the same tile gives the same bits. */
#include "cpu/apsp_tile.h"

#include <string.h>

#define B GK__APSP_B

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GK_X86_DISPATCH 1
#include <immintrin.h>
#endif

/* ------------------------------------------------------------------
 * Phase 1: the k-i-j loop inside the pivot tile (kk outermost), with the
 * options of the element types (predecessors, the clamp at LO), the
 * branches outside the vectorised j loops.  c[i][kk] is read once per row
 * (it changes in step kk only when c[kk][kk] < 0: a negative cycle, which
 * stops the run).  ISNEG(x): x < 0 for the signed types. */
#define DEFINE_CLOSE_T(NAME, ET, PT, LO, ISNEG)                                     \
GK_CLONES static int NAME(void *cv, void *pcv, int clamp)                             \
{                                                                                     \
    ET *c = cv;                                                                       \
    PT *p = pcv;                                                                      \
    const ET lo = (LO);                                                               \
    for (int kk = 0; kk < B; kk++)                                                    \
        for (int i = 0; i < B; i++) {                                                 \
            const ET a = c[i * B + kk];                                               \
            ET *ci = c + i * B;                                                       \
            const ET *ck = c + kk * B;                                                \
            if (p) {                                                                  \
                PT *pi = p + i * B;                                                   \
                const PT *pk = p + kk * B;                                            \
                if (clamp) {                                                          \
                    _Pragma("omp simd")                                               \
                    for (int j = 0; j < B; j++) {                                     \
                        ET v = (ET)(a + ck[j]);                                       \
                        if (v < ci[j]) { ci[j] = v < lo ? lo : v; pi[j] = pk[j]; }     \
                    }                                                                 \
                } else {                                                              \
                    _Pragma("omp simd")                                               \
                    for (int j = 0; j < B; j++) {                                     \
                        ET v = (ET)(a + ck[j]);                                       \
                        if (v < ci[j]) { ci[j] = v; pi[j] = pk[j]; }                  \
                    }                                                                 \
                }                                                                     \
            } else if (clamp) {                                                       \
                _Pragma("omp simd")                                                   \
                for (int j = 0; j < B; j++) {                                         \
                    ET v = (ET)(a + ck[j]);                                           \
                    ci[j] = v < ci[j] ? (v < lo ? lo : v) : ci[j];                    \
                }                                                                     \
            } else {                                                                  \
                _Pragma("omp simd")                                                   \
                for (int j = 0; j < B; j++) {                                         \
                    ET v = (ET)(a + ck[j]);                                           \
                    ci[j] = v < ci[j] ? v : ci[j];                                    \
                }                                                                     \
            }                                                                         \
        }                                                                             \
    for (int kk = 0; kk < B; kk++)                                                    \
        if (ISNEG(c[kk * B + kk]))                                                    \
            return kk;                                                                \
    return -1;                                                                        \
}

/* ------------------------------------------------------------------
 * The micro-kernel, c = min(c, a (min,+) b) for B x B tiles, written once
 * with GCC vector types of W lanes of ET: RR rows x NQ vectors of the output
 * stay in registers while k runs over the tile (ascending), one column
 * block of NQ * W at a time.  A vector type wider than the target's
 * registers would be split through memory, so each instruction set gets
 * its own width and blocking.  VMIN(incumbent, candidate) keeps the
 * incumbent unless the candidate is strictly smaller. */
#define DEFINE_MINPLUS_T(NAME, ET, VT, W, RR, NQ, ATTR, VMIN)                      \
ATTR static void NAME(void *cv, const void *av, const void *bv)                      \
{                                                                                    \
    ET *c = cv;                                                                      \
    const ET *a = av, *b = bv;                                                       \
    for (int j0 = 0; j0 < B; j0 += (NQ) * (W))                                       \
        for (int i0 = 0; i0 < B; i0 += (RR)) {                                       \
            VT acc[RR][NQ];                                                          \
            _Pragma("GCC unroll 8") for (int r = 0; r < (RR); r++)                  \
            _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++)                  \
                memcpy(&acc[r][q], c + (i0 + r) * B + j0 + (W) * q, sizeof(VT));     \
            for (int k = 0; k < B; k++) {                                            \
                VT bk[NQ];                                                           \
                _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++)              \
                    memcpy(&bk[q], b + k * B + j0 + (W) * q, sizeof(VT));            \
                _Pragma("GCC unroll 8") for (int r = 0; r < (RR); r++) {            \
                    const ET s = a[(i0 + r) * B + k];                                \
                    _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++)          \
                        acc[r][q] = VMIN(acc[r][q], bk[q] + s);                      \
                }                                                                    \
            }                                                                        \
            _Pragma("GCC unroll 8") for (int r = 0; r < (RR); r++)                  \
            _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++)                  \
                memcpy(c + (i0 + r) * B + j0 + (W) * q, &acc[r][q], sizeof(VT));     \
        }                                                                            \
}

/* The micro-kernel with predecessors: VP is the integer vector of VT's
 * shape (the predecessors' lanes); where the candidate is strictly
 * smaller, its predecessor pb[k][j] replaces the incumbent's. */
#define DEFINE_MINPLUS_PRED_T(NAME, ET, PT, VT, VP, W, RR, NQ, ATTR, VMIN)         \
ATTR static void NAME(void *cv, void *pcv, const void *av, const void *bv, const void *pbv) \
{                                                                                    \
    ET *c = cv;                                                                      \
    PT *pc = pcv;                                                                    \
    const ET *a = av, *b = bv;                                                       \
    const PT *pb = pbv;                                                              \
    for (int j0 = 0; j0 < B; j0 += (NQ) * (W))                                       \
        for (int i0 = 0; i0 < B; i0 += (RR)) {                                       \
            VT acc[RR][NQ];                                                          \
            VP pacc[RR][NQ];                                                         \
            _Pragma("GCC unroll 8") for (int r = 0; r < (RR); r++)                  \
            _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++) {                \
                memcpy(&acc[r][q], c + (i0 + r) * B + j0 + (W) * q, sizeof(VT));     \
                memcpy(&pacc[r][q], pc + (i0 + r) * B + j0 + (W) * q, sizeof(VP));   \
            }                                                                        \
            for (int k = 0; k < B; k++) {                                            \
                VT bk[NQ];                                                           \
                VP pk[NQ];                                                           \
                _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++) {            \
                    memcpy(&bk[q], b + k * B + j0 + (W) * q, sizeof(VT));            \
                    memcpy(&pk[q], pb + k * B + j0 + (W) * q, sizeof(VP));           \
                }                                                                    \
                _Pragma("GCC unroll 8") for (int r = 0; r < (RR); r++) {            \
                    const ET s = a[(i0 + r) * B + k];                                \
                    _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++) {        \
                        VT v = bk[q] + s;                                            \
                        VP lt = (VP)(v < acc[r][q]);                                 \
                        pacc[r][q] = (pk[q] & lt) | (pacc[r][q] & ~lt);              \
                        acc[r][q] = VMIN(acc[r][q], v);                              \
                    }                                                                \
                }                                                                    \
            }                                                                        \
            _Pragma("GCC unroll 8") for (int r = 0; r < (RR); r++)                  \
            _Pragma("GCC unroll 8") for (int q = 0; q < (NQ); q++) {                \
                memcpy(c + (i0 + r) * B + j0 + (W) * q, &acc[r][q], sizeof(VT));     \
                memcpy(pc + (i0 + r) * B + j0 + (W) * q, &pacc[r][q], sizeof(VP));   \
            }                                                                        \
        }                                                                            \
}

/* The portable min (a compare and a blend; SSE2 has no pminsd, no 64-bit
 * compare): the candidate where it is strictly smaller. */
#define GMIN(VT, VI) gmin_##VT
#define DEFINE_GMIN(VT, VI)                                                           \
    static inline VT gmin_##VT(VT c, VT v)                                            \
    {                                                                                 \
        VI lt = (VI)(v < c);                                                          \
        return (VT)(((VI)v & lt) | ((VI)c & ~lt));                                    \
    }

#define NEG_SIGNED(x) ((x) < 0)
#define NEG_NEVER(x) ((void)(x), 0)

/* ---- one type: its phase 1, and its micro-kernels for each instruction
 * set (the x86 ones by hand, under GK_X86_DISPATCH) ---- */

/* int32: the generic, AVX2 and AVX-512 kernels of earlier releases */
typedef int32_t i32x4 __attribute__((vector_size(16)));
DEFINE_GMIN(i32x4, i32x4)
DEFINE_CLOSE_T(close_i32, int32_t, int32_t, -GK_APSP_INF, NEG_SIGNED)
DEFINE_MINPLUS_T(minplus_i32_generic, int32_t, i32x4, 4, 4, 2, , gmin_i32x4)            /* 8 of 16 xmm */
DEFINE_MINPLUS_PRED_T(minplusp_i32_generic, int32_t, int32_t, i32x4, i32x4, 4, 2, 2, , gmin_i32x4)
/* int64 */
typedef int64_t i64x2 __attribute__((vector_size(16)));
DEFINE_GMIN(i64x2, i64x2)
DEFINE_CLOSE_T(close_i64, int64_t, int64_t, -GK_APSP_INF64, NEG_SIGNED)
DEFINE_MINPLUS_T(minplus_i64_generic, int64_t, i64x2, 2, 4, 2, , gmin_i64x2)
DEFINE_MINPLUS_PRED_T(minplusp_i64_generic, int64_t, int64_t, i64x2, i64x2, 2, 2, 2, , gmin_i64x2)
/* float32 */
typedef float f32x4 __attribute__((vector_size(16)));
DEFINE_GMIN(f32x4, i32x4)
DEFINE_CLOSE_T(close_f32, float, int32_t, 0, NEG_SIGNED)
DEFINE_MINPLUS_T(minplus_f32_generic, float, f32x4, 4, 4, 2, , gmin_f32x4)
DEFINE_MINPLUS_PRED_T(minplusp_f32_generic, float, int32_t, f32x4, i32x4, 4, 2, 2, , gmin_f32x4)
/* float64 */
typedef double f64x2 __attribute__((vector_size(16)));
DEFINE_GMIN(f64x2, i64x2)
DEFINE_CLOSE_T(close_f64, double, int64_t, 0, NEG_SIGNED)
DEFINE_MINPLUS_T(minplus_f64_generic, double, f64x2, 2, 4, 2, , gmin_f64x2)
DEFINE_MINPLUS_PRED_T(minplusp_f64_generic, double, int64_t, f64x2, i64x2, 2, 2, 2, , gmin_f64x2)
/* uint16 (the exact 16-bit path: no predecessors, no clamp, never negative) */
typedef uint16_t u16x8 __attribute__((vector_size(16)));
DEFINE_GMIN(u16x8, u16x8)
DEFINE_CLOSE_T(close_u16, uint16_t, uint16_t, 0, NEG_NEVER)
DEFINE_MINPLUS_T(minplus_u16_generic, uint16_t, u16x8, 8, 4, 2, , gmin_u16x8)         /* 8 of 16 xmm */

#ifdef GK_X86_DISPATCH
#define AVX2 __attribute__((target("avx2")))
#define AVX512 __attribute__((target("avx512f")))
#define AVX512BW __attribute__((target("avx512f,avx512bw")))
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef int32_t i32x16 __attribute__((vector_size(64)));
typedef int64_t i64x4 __attribute__((vector_size(32)));
typedef int64_t i64x8 __attribute__((vector_size(64)));
typedef float f32x8 __attribute__((vector_size(32)));
typedef float f32x16 __attribute__((vector_size(64)));
typedef double f64x4 __attribute__((vector_size(32)));
typedef double f64x8 __attribute__((vector_size(64)));
typedef uint16_t u16x16 __attribute__((vector_size(32)));
typedef uint16_t u16x32 __attribute__((vector_size(64)));
/* the x86 min instructions return their second operand unless the first
 * is strictly smaller: the candidate goes first */
#define VMIN_I32_AVX2(c, v) ((i32x8)_mm256_min_epi32((__m256i)(c), (__m256i)(v)))
#define VMIN_I32_AVX512(c, v) ((i32x16)_mm512_min_epi32((__m512i)(c), (__m512i)(v)))
#define VMIN_I64_AVX512(c, v) ((i64x8)_mm512_min_epi64((__m512i)(c), (__m512i)(v)))
#define VMIN_F32_AVX2(c, v) ((f32x8)_mm256_min_ps((__m256)(v), (__m256)(c)))
#define VMIN_F32_AVX512(c, v) ((f32x16)_mm512_min_ps((__m512)(v), (__m512)(c)))
#define VMIN_F64_AVX2(c, v) ((f64x4)_mm256_min_pd((__m256d)(v), (__m256d)(c)))
#define VMIN_F64_AVX512(c, v) ((f64x8)_mm512_min_pd((__m512d)(v), (__m512d)(c)))
#define VMIN_U16_AVX2(c, v) ((u16x16)_mm256_min_epu16((__m256i)(c), (__m256i)(v)))
#define VMIN_U16_AVX512(c, v) ((u16x32)_mm512_min_epu16((__m512i)(c), (__m512i)(v)))
/* AVX2 has no 64-bit integer min: the compare and blend */
AVX2 static inline i64x4 vmin_i64_avx2(i64x4 c, i64x4 v) { i64x4 lt = v < c; return (v & lt) | (c & ~lt); }

DEFINE_MINPLUS_T(minplus_i32_avx2, int32_t, i32x8, 8, 4, 2, AVX2, VMIN_I32_AVX2)              /* 8 of 16 ymm */
DEFINE_MINPLUS_T(minplus_i32_avx512, int32_t, i32x16, 16, 4, 4, AVX512, VMIN_I32_AVX512)      /* 16 of 32 zmm */
DEFINE_MINPLUS_PRED_T(minplusp_i32_avx2, int32_t, int32_t, i32x8, i32x8, 8, 2, 2, AVX2, VMIN_I32_AVX2)
DEFINE_MINPLUS_PRED_T(minplusp_i32_avx512, int32_t, int32_t, i32x16, i32x16, 16, 4, 2, AVX512, VMIN_I32_AVX512)
DEFINE_MINPLUS_T(minplus_i64_avx2, int64_t, i64x4, 4, 4, 2, AVX2, vmin_i64_avx2)
DEFINE_MINPLUS_T(minplus_i64_avx512, int64_t, i64x8, 8, 4, 4, AVX512, VMIN_I64_AVX512)
DEFINE_MINPLUS_PRED_T(minplusp_i64_avx2, int64_t, int64_t, i64x4, i64x4, 4, 2, 2, AVX2, vmin_i64_avx2)
DEFINE_MINPLUS_PRED_T(minplusp_i64_avx512, int64_t, int64_t, i64x8, i64x8, 8, 4, 2, AVX512, VMIN_I64_AVX512)
DEFINE_MINPLUS_T(minplus_f32_avx2, float, f32x8, 8, 4, 2, AVX2, VMIN_F32_AVX2)
DEFINE_MINPLUS_T(minplus_f32_avx512, float, f32x16, 16, 4, 4, AVX512, VMIN_F32_AVX512)
DEFINE_MINPLUS_PRED_T(minplusp_f32_avx2, float, int32_t, f32x8, i32x8, 8, 2, 2, AVX2, VMIN_F32_AVX2)
DEFINE_MINPLUS_PRED_T(minplusp_f32_avx512, float, int32_t, f32x16, i32x16, 16, 4, 2, AVX512, VMIN_F32_AVX512)
DEFINE_MINPLUS_T(minplus_f64_avx2, double, f64x4, 4, 4, 2, AVX2, VMIN_F64_AVX2)
DEFINE_MINPLUS_T(minplus_f64_avx512, double, f64x8, 8, 4, 4, AVX512, VMIN_F64_AVX512)
DEFINE_MINPLUS_PRED_T(minplusp_f64_avx2, double, int64_t, f64x4, i64x4, 4, 2, 2, AVX2, VMIN_F64_AVX2)
DEFINE_MINPLUS_PRED_T(minplusp_f64_avx512, double, int64_t, f64x8, i64x8, 8, 4, 2, AVX512, VMIN_F64_AVX512)
DEFINE_MINPLUS_T(minplus_u16_avx2, uint16_t, u16x16, 16, 2, 4, AVX2, VMIN_U16_AVX2)           /* 8 of 16 ymm */
DEFINE_MINPLUS_T(minplus_u16_avx512, uint16_t, u16x32, 32, 8, 2, AVX512BW, VMIN_U16_AVX512)   /* 16 of 32 zmm */
#endif

/* The instruction set of the micro-kernels: the caller's (the context's
 * cpu_isa, passed down by the front doors: no process-wide choice, so that
 * threads with contexts of different sets run at once), AUTO meaning the
 * best this CPU has.  gk_cpu_isa_supported's AVX512 is AVX-512 F and BW,
 * what these kernels need. */
enum { ISA_GENERIC, ISA_AVX2, ISA_AVX512, ISA_N };

static int pick_isa(gk_cpu_isa isa)
{
    if (isa == GK_CPU_ISA_AUTO) isa = gk__cpu_isa_best();
    return isa == GK_CPU_ISA_AVX512 ? ISA_AVX512 : isa == GK_CPU_ISA_AVX2 ? ISA_AVX2 : ISA_GENERIC;
}

const char *gk__apsp_cpu_kernel_name(gk_cpu_isa isa)
{
    switch (pick_isa(isa)) {
    case ISA_AVX512: return "AVX-512 micro-kernels, 64x64 tiles";
    case ISA_AVX2: return "AVX2 micro-kernels, 64x64 tiles";
    default: return "generic micro-kernels, 64x64 tiles";
    }
}

#ifdef GK_X86_DISPATCH
#define PER_ISA(T) { minplus_##T##_generic, minplus_##T##_avx2, minplus_##T##_avx512 }
#define PER_ISA_P(T) { minplusp_##T##_generic, minplusp_##T##_avx2, minplusp_##T##_avx512 }
#else
#define PER_ISA(T) { minplus_##T##_generic, minplus_##T##_generic, minplus_##T##_generic }
#define PER_ISA_P(T) { minplusp_##T##_generic, minplusp_##T##_generic, minplusp_##T##_generic }
#endif

typedef struct type_ops {
    int type;
    size_t es;
    int is_float;
    int (*close)(void *, void *, int);
    void (*minplus[ISA_N])(void *, const void *, const void *);
    void (*minplus_pred[ISA_N])(void *, void *, const void *, const void *, const void *);
} type_ops;

static const type_ops ops[] = {
    { GK_DTYPE_INT32, 4, 0, close_i32, PER_ISA(i32), PER_ISA_P(i32) },
    { GK_DTYPE_INT64, 8, 0, close_i64, PER_ISA(i64), PER_ISA_P(i64) },
    { GK_DTYPE_FLOAT32, 4, 1, close_f32, PER_ISA(f32), PER_ISA_P(f32) },
    { GK_DTYPE_FLOAT64, 8, 1, close_f64, PER_ISA(f64), PER_ISA_P(f64) },
    { GK__APSP_U16, 2, 0, close_u16, PER_ISA(u16), { NULL, NULL, NULL } },
};

gk_status gk__apsp_cpu_tiles(gk_cpu_isa isa, int type, gk__apsp_tiles *o, const char *who)
{
    if ((unsigned)isa > GK_CPU_ISA_AVX512 || !gk_cpu_isa_supported(isa))
        return gk__fail(GK_ENODEV, "%s: this CPU cannot run the APSP micro-kernels for instruction set %d (%s)", who,
                        (int)isa, gk_cpu_isa_name(isa));
    int x = pick_isa(isa);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ops[i].type == type) {
            o->type = type;
            o->es = o->ps = ops[i].es;
            o->is_float = ops[i].is_float;
            o->close = ops[i].close;
            o->minplus = ops[i].minplus[x];
            o->minplus_pred = ops[i].minplus_pred[x];
            return GK_OK;
        }
    return gk__fail(GK_EINVAL, "%s: no APSP element type %d", who, type);
}
