/* gemm_cpu.c - the CPU matrix multiply (see gemm_cpu.h).
 *
 * The backend follows the GotoBLAS/BLIS scheme: for each NC-column block of
 * B and KC-deep slice of k, B's slice is packed into NR-wide panels (row p of
 * a panel: NR consecutive floats, zero past N), shared by the threads; the
 * threads then take MC-row blocks of A, pack each into MR-tall panels
 * (column p of a panel: MR consecutive floats, zero past M) and run the
 * micro-kernel over every MR x NR tile: KC rank-1 updates of MR x NR
 * accumulators held in vector registers (AVX-512: 12 x 32 in 24 zmm; AVX2:
 * 6 x 16 in 12 ymm).  A B panel (KC x NR) stays in L1 while the A panels of
 * the block stream from L2.  Tiles that cross C's edge are computed into a
 * local tile and copied. */
#include "cpu/gemm_cpu.h"
#include "core/rng.h"

#include <dlfcn.h>
#include <pthread.h>
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define KC 256
#define MC_PANELS 12           /* MR panels per A block */
#define NC 4096
#define MR_MAX 12
#define NR_MAX 32

typedef void (*ukernel)(int kc, const float *ap, const float *bp, float *c, int64_t ldc, int acc);

/* ------------------------------------------------------------ micro-kernels */

static void uk_generic(int kc, const float *ap, const float *bp, float *c, int64_t ldc, int acc)
{
    enum { MR = 4, NR = 16 };
    float t[MR][NR];
    memset(t, 0, sizeof t);
    for (int p = 0; p < kc; p++)
        for (int i = 0; i < MR; i++)
            for (int j = 0; j < NR; j++)
                t[i][j] += ap[p * MR + i] * bp[p * NR + j];
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NR; j++)
            c[i * ldc + j] = acc ? c[i * ldc + j] + t[i][j] : t[i][j];
}

__attribute__((target("avx2,fma")))
static void uk_avx2(int kc, const float *ap, const float *bp, float *c, int64_t ldc, int acc)
{
    __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00,
           c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
    for (int p = 0; p < kc; p++, ap += 6, bp += 16) {
        __m256 b0 = _mm256_loadu_ps(bp), b1 = _mm256_loadu_ps(bp + 8), a;
#define ROW(i) a = _mm256_broadcast_ss(ap + i); \
        c##i##0 = _mm256_fmadd_ps(a, b0, c##i##0); c##i##1 = _mm256_fmadd_ps(a, b1, c##i##1);
        ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5)
#undef ROW
    }
#define OUT(i) { float *r = c + i * ldc; \
        if (acc) { c##i##0 = _mm256_add_ps(c##i##0, _mm256_loadu_ps(r)); \
                   c##i##1 = _mm256_add_ps(c##i##1, _mm256_loadu_ps(r + 8)); } \
        _mm256_storeu_ps(r, c##i##0); _mm256_storeu_ps(r + 8, c##i##1); }
    OUT(0) OUT(1) OUT(2) OUT(3) OUT(4) OUT(5)
#undef OUT
}

__attribute__((target("avx512f")))
static void uk_avx512(int kc, const float *ap, const float *bp, float *c, int64_t ldc, int acc)
{
    __m512 c00 = _mm512_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00,
           c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00,
           c60 = c00, c61 = c00, c70 = c00, c71 = c00, c80 = c00, c81 = c00,
           c90 = c00, c91 = c00, cA0 = c00, cA1 = c00, cB0 = c00, cB1 = c00;
    for (int p = 0; p < kc; p++, ap += 12, bp += 32) {
        __m512 b0 = _mm512_loadu_ps(bp), b1 = _mm512_loadu_ps(bp + 16), a;
        _mm_prefetch((const char *)(bp + 32 * 8), _MM_HINT_T0);
#define ROW(i, o) a = _mm512_set1_ps(ap[o]); \
        c##i##0 = _mm512_fmadd_ps(a, b0, c##i##0); c##i##1 = _mm512_fmadd_ps(a, b1, c##i##1);
        ROW(0, 0) ROW(1, 1) ROW(2, 2) ROW(3, 3) ROW(4, 4) ROW(5, 5)
        ROW(6, 6) ROW(7, 7) ROW(8, 8) ROW(9, 9) ROW(A, 10) ROW(B, 11)
#undef ROW
    }
#define OUT(i, o) { float *r = c + o * ldc; \
        if (acc) { c##i##0 = _mm512_add_ps(c##i##0, _mm512_loadu_ps(r)); \
                   c##i##1 = _mm512_add_ps(c##i##1, _mm512_loadu_ps(r + 16)); } \
        _mm512_storeu_ps(r, c##i##0); _mm512_storeu_ps(r + 16, c##i##1); }
    OUT(0, 0) OUT(1, 1) OUT(2, 2) OUT(3, 3) OUT(4, 4) OUT(5, 5)
    OUT(6, 6) OUT(7, 7) OUT(8, 8) OUT(9, 9) OUT(A, 10) OUT(B, 11)
#undef OUT
}

static const struct { int mr, nr; ukernel f; const char *name; } isas[] = {
    { 4, 16, uk_generic, "generic" }, { 6, 16, uk_avx2, "AVX2+FMA" }, { 12, 32, uk_avx512, "AVX-512" } };

/* The row of isas[] for the caller's instruction set (the context's
 * cpu_isa, passed down by the front doors: no process-wide choice, so that
 * threads with contexts of different sets run at once); AUTO: the best
 * this CPU has. */
static int isa_row(gk_cpu_isa isa)
{
    if (isa == GK_CPU_ISA_AUTO) isa = gk__cpu_isa_best();
    return isa == GK_CPU_ISA_AVX512 ? 2 : isa == GK_CPU_ISA_AVX2 ? 1 : 0;
}

const char *gk__gemm_cpu_isa_name(gk_cpu_isa isa)
{
    return isas[isa_row(isa)].name;
}

void gk__gemm_cpu_describe(gk_cpu_isa want, char *buf, size_t n)
{
    int isa = isa_row(want);
    snprintf(buf, n, "%s, packed panels, %dx%d micro-tiles, k chunks of %d", isas[isa].name, isas[isa].mr,
             isas[isa].nr, KC);
}

/* ------------------------------------------------------------ packing */

/* B[pc.., jc..] (kc x nc) into NR-wide panels: panel q, row p at q*kc*NR + p*NR. */
static void pack_b(const float *b, int n, int pc, int kc, int jc, int nc, int nr, float *bp)
{
    int np = (nc + nr - 1) / nr;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (int q = 0; q < np; q++) {
        float *dst = bp + (size_t)q * kc * nr;
        int j0 = jc + q * nr, w = nc - q * nr < nr ? nc - q * nr : nr;
        for (int p = 0; p < kc; p++) {
            const float *src = b + (size_t)(pc + p) * n + j0;
            int j = 0;
            for (; j < w; j++) dst[p * nr + j] = src[j];
            for (; j < nr; j++) dst[p * nr + j] = 0.f;
        }
    }
}

/* A[ic.., pc..] (mc x kc) into MR-tall panels: panel q, column p at q*kc*MR + p*MR. */
static void pack_a(const float *a, int k, int ic, int mc, int pc, int kc, int mr, float *ap)
{
    for (int q = 0; q * mr < mc; q++) {
        float *dst = ap + (size_t)q * kc * mr;
        int h = mc - q * mr < mr ? mc - q * mr : mr;
        for (int i = 0; i < h; i++) {
            const float *src = a + (size_t)(ic + q * mr + i) * k + pc;
            for (int p = 0; p < kc; p++) dst[p * mr + i] = src[p];
        }
        for (int i = h; i < mr; i++)
            for (int p = 0; p < kc; p++) dst[p * mr + i] = 0.f;
    }
}

gk_status gk__gemm_cpu(const float *a, const float *b, float *c, int m, int n, int k, gk_cpu_isa want)
{
    if ((unsigned)want > GK_CPU_ISA_AVX512 || !gk_cpu_isa_supported(want))
        return gk__fail(GK_ENODEV, "CPU gemm: this CPU cannot run the micro-kernels of instruction set %d (%s)",
                        (int)want, gk_cpu_isa_name(want));
    int isa = isa_row(want);
    int mr = isas[isa].mr, nr = isas[isa].nr, mc = MC_PANELS * mr;
    ukernel uk = isas[isa].f;
    int ncb = n < NC ? (n + nr - 1) / nr * nr : NC;
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    float *bp = NULL, *apall = NULL;
    gk_status st = gk__xmalloc((void **)&bp, (size_t)KC * ncb * sizeof(float), "the gemm B panels");
    if (st) return st;
    if ((st = gk__xmalloc((void **)&apall, (size_t)threads * mc * KC * sizeof(float), "the gemm A panels"))) {
        free(bp);
        return st;
    }
    for (int jc = 0; jc < n; jc += NC) {
        int nc = n - jc < NC ? n - jc : NC;
        for (int pc = 0; pc < k; pc += KC) {
            int kc = k - pc < KC ? k - pc : KC;
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
#endif
            {
                int t = 0;
#ifdef _OPENMP
                t = omp_get_thread_num();
#endif
                float *ap = apall + (size_t)t * mc * KC;
                float tile[MR_MAX * NR_MAX];
                pack_b(b, n, pc, kc, jc, nc, nr, bp);      /* omp for: ends with a barrier */
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
                for (int ic = 0; ic < m; ic += mc) {
                    int mcb = m - ic < mc ? m - ic : mc;
                    pack_a(a, k, ic, mcb, pc, kc, mr, ap);
                    for (int jr = 0; jr < nc; jr += nr) {
                        const float *bq = bp + (size_t)(jr / nr) * kc * nr;
                        int w = nc - jr < nr ? nc - jr : nr;
                        for (int ir = 0; ir < mcb; ir += mr) {
                            int h = mcb - ir < mr ? mcb - ir : mr;
                            float *cc = c + (size_t)(ic + ir) * n + jc + jr;
                            const float *aq = ap + (size_t)(ir / mr) * kc * mr;
                            if (h == mr && w == nr) {
                                uk(kc, aq, bq, cc, n, pc > 0);
                            } else {
                                uk(kc, aq, bq, tile, nr, 0);
                                for (int i = 0; i < h; i++)
                                    for (int j = 0; j < w; j++)
                                        cc[(size_t)i * n + j] = pc > 0 ? cc[(size_t)i * n + j] + tile[i * nr + j]
                                                                       : tile[i * nr + j];
                            }
                        }
                    }
                }
            }
        }
    }
    free(bp);
    free(apall);
    return GK_OK;
}

void gk__gemm_cpu_reference(const float *a, const float *b, double *ref, double *abs_ab, int m, int n, int k)
{
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int i = 0; i < m; i++) {
        double *r = ref + (size_t)i * n, *s = abs_ab ? abs_ab + (size_t)i * n : NULL;
        for (int j = 0; j < n; j++) {
            r[j] = 0;
            if (s) s[j] = 0;
        }
        for (int p = 0; p < k; p++) {
            double x = a[(size_t)i * k + p];
            const float *brow = b + (size_t)p * n;
            for (int j = 0; j < n; j++)
                r[j] += x * (double)brow[j];
            if (s) {
                double ax = x < 0 ? -x : x;
                for (int j = 0; j < n; j++)
                    s[j] += ax * (brow[j] < 0 ? -(double)brow[j] : (double)brow[j]);
            }
        }
    }
}

/* ------------------------------------------------------------ OpenBLAS */

typedef void (*sgemm_fn)(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda,
                         const float *b, int ldb, float beta, float *c, int ldc);
/* Opened once per process (pthread_once: contexts on several threads may
 * ask at once), kept until exit. */
static struct { void *so; sgemm_fn sgemm; void (*set_threads)(int); char *(*config)(void); char why[160]; } ob;
static pthread_once_t ob_once = PTHREAD_ONCE_INIT;

static void openblas_open(void)
{
    static const char *tries[] = { "libopenblas.so.0", "libopenblas.so" };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0] && !ob.so; i++)
        ob.so = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
    if (!ob.so) {
        snprintf(ob.why, sizeof ob.why, "OpenBLAS not found (libopenblas.so.0; Debian: libopenblas-dev)");
        return;
    }
    *(void **)&ob.sgemm = dlsym(ob.so, "cblas_sgemm");
    *(void **)&ob.set_threads = dlsym(ob.so, "openblas_set_num_threads");
    *(void **)&ob.config = dlsym(ob.so, "openblas_get_config");
    if (!ob.sgemm) {
        snprintf(ob.why, sizeof ob.why, "libopenblas has no cblas_sgemm");
        dlclose(ob.so);
        ob.so = NULL;
    }
}

int gk__openblas_available(char *what, size_t n)
{
    pthread_once(&ob_once, openblas_open);
    if (!ob.so) {
        snprintf(what, n, "%s", ob.why);
        return 0;
    }
    const char *cfg = ob.config ? ob.config() : "OpenBLAS";
    /* "OpenBLAS 0.3.21 NO_AFFINITY ..." -> the first two words */
    const char *sp = strchr(cfg, ' ');
    sp = sp ? strchr(sp + 1, ' ') : NULL;
    snprintf(what, n, "%.*s", sp ? (int)(sp - cfg) : 40, cfg);
    return 1;
}

/* openblas_set_num_threads is OpenBLAS's own process-wide setting: the
 * benchmark's comparison row only, never a context's job. */
void gk__openblas_sgemm(const float *a, const float *b, float *c, int m, int n, int k, int threads)
{
    if (ob.set_threads) ob.set_threads(threads);
    ob.sgemm(101 /* CblasRowMajor */, 111 /* CblasNoTrans */, 111, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}

/* ------------------------------------------------------------ row checks */

gk_status gk__gemm_check_rows(const float *a, const float *b, const float *c, int m, int n, int k, int nsample,
                              uint64_t seed, gk__gemm_diff *d)
{
    int all = m <= nsample + 2, nr = all ? m : nsample + 2;
    int *rows = NULL;
    double *ref = NULL;
    float *got = NULL;
    gk_status st = gk__xmalloc((void **)&rows, (size_t)nr * sizeof *rows, "the gemm check's rows");
    if (!st) st = gk__xmalloc((void **)&ref, (size_t)nr * n * 2 * sizeof *ref, "the gemm check's reference");
    if (!st) st = gk__xmalloc((void **)&got, (size_t)nr * n * sizeof *got, "the gemm check's rows");
    if (st) goto out;
    for (int r = 0; r < nr; r++)
        rows[r] = all ? r : r == 0 ? 0 : r == 1 ? m - 1 : (int)gk__rand_below(seed, (uint64_t)r, (uint64_t)m);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int r = 0; r < nr; r++) {
        double *rr = ref + (size_t)r * n, *aa = ref + (size_t)nr * n + (size_t)r * n;
        gk__gemm_cpu_reference(a + (size_t)rows[r] * k, b, rr, aa, 1, n, k);
        memcpy(got + (size_t)r * n, c + (size_t)rows[r] * n, (size_t)n * sizeof *got);
    }
    st = gk__gemm_compare(got, ref, ref + (size_t)nr * n, nr, n, k, d);
    if (st == GK_EMISMATCH && !all) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", gk_last_error());
        int r = (int)(d->worst >= 0 ? d->worst / n : 0);
        st = gk__fail(GK_EMISMATCH, "%s (sampled row %d is row %d of C)", msg, r, rows[r]);
    }
out:
    free(rows);
    free(ref);
    free(got);
    return st;
}
