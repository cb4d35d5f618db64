/* bench/stencil-cpu-micro.c - the micro-benchmarks behind the CPU stencil's
 * design (`git log -p -- bench/stencil_results.md`, "CPU, issue 13"): what one core's FMA
 * pipes give, what the AVX-512 row kernel gives on rows in L2 and in L3, and
 * one thread's sweeps (T = 1..4 steps per pass) at 256^3, by CPU time (so
 * that other processes on a shared machine do not count).  x86-64 with
 * AVX-512 only.  Build and run from a build directory (bench/stencil-cpu.sh
 * does it with MICRO=1):
 *   gcc -O2 -fopenmp -I../src -I../include -I. ../bench/stencil-cpu-micro.c \
 *       .libs/libgk_impl.a -lm -o stencil-cpu-micro && ./stencil-cpu-micro
 * It includes the backend's source to reach its static row kernels. */
#include "cpu/stencil_cpu.c"

#include <stdio.h>
#include <time.h>

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* N independent chains of dependent 512-bit FMAs (named variables: an
 * array would live on the stack; the chains past N fold away) */
#define F1(x) do { x = _mm512_fmadd_pd(x, b, c); OPQ(x); } while (0)
#define FMA_CHAINS(N)                                                                    \
    __attribute__((target("avx512f"), noinline)) static double fma_chains##N(long it)    \
    {                                                                                    \
        __m512d b = _mm512_set1_pd(0.999999), c = _mm512_set1_pd(1e-9);                  \
        __m512d a0 = _mm512_set1_pd(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;     \
        __m512d a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;                  \
        for (long i = 0; i < it; i++) {                                                  \
            F1(a0);                                                                      \
            if (N > 1) { F1(a1); F1(a2); F1(a3); }                                       \
            if (N > 4) { F1(a4); F1(a5); F1(a6); F1(a7); }                               \
            if (N > 8) { F1(a8); F1(a9); F1(a10); F1(a11); }                             \
        }                                                                                \
        __m512d s = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(a0, a1), _mm512_add_pd(a2, a3)), \
                                  _mm512_add_pd(_mm512_add_pd(a4, a5), _mm512_add_pd(a6, a7))); \
        s = _mm512_add_pd(s, _mm512_add_pd(_mm512_add_pd(a8, a9), _mm512_add_pd(a10, a11))); \
        return _mm512_reduce_add_pd(s);                                                  \
    }
FMA_CHAINS(1)
FMA_CHAINS(4)
FMA_CHAINS(8)
FMA_CHAINS(12)

static void fma_rate(double (*f)(long), int n)
{
    long it = 400000000L / n;
    double best = 1e9, sink = 0;
    for (int r = 0; r < 3; r++) {
        double t0 = cpu_now();
        sink += f(it);
        double t = cpu_now() - t0;
        if (t < best) best = t;
    }
    printf("  %2d chains: %5.2f G FMA instructions/s = %5.1f G double FMAs/s%s\n", n, it * (double)n / best * 1e-9,
           it * (double)n * 8 / best * 1e-9, sink == 12345 ? " " : "");
}

/* the row kernel on `sets` different plane triples of nrows+2 rows of 256
 * (cycled: 1 set stays in L2, 30 come from L3) */
static void rows_rate(int nrows, int sets)
{
    int nx = 256;
    int64_t px = nx + 8, pst = (int64_t)(nrows + 2) * px * 2 + 64;
    size_t tot = (size_t)pst * 3 * sets + 64;
    double *buf, *out;
    if (posix_memalign((void **)&buf, 64, tot * 8) ||
        posix_memalign((void **)&out, 64, (size_t)(nrows + 2) * px * 8 * sets))
        return;
    for (size_t i = 0; i < tot; i++) buf[i] = (double)(i % 17) * 0.1 - 0.8;
    rows_fn f = pick_rows(GK_CPU_ISA_AVX512);
    long reps = 100000000L / (nx * nrows);
    double best = 1e9;
    for (int t = 0; t < 3; t++) {
        double t0 = cpu_now();
        for (long r = 0; r < reps; r++) {
            int s = (int)(r % sets);
            const double *pl[3] = { buf + px + 8 + 3 * s * pst, buf + px + 8 + (3 * s + 1) * pst,
                                    buf + px + 8 + (3 * s + 2) * pst };
            f(out + 8 + s * (nrows + 2) * px, pl, px, gk_stencil_default_coeffs, nx, nrows, 0, NULL, 0);
        }
        double dt = cpu_now() - t0;
        if (dt < best) best = dt;
    }
    printf("  %d rows x 256, %2d set%s (%5.0f KB): %.2f GStencil/s\n", nrows, sets, sets > 1 ? "s" : " ",
           sets * 3.0 * (nrows + 2) * px * 8 / 1024, (double)reps * nx * nrows / best * 1e-9);
    free(buf);
    free(out);
}

int main(void)
{
    if (!gk_cpu_isa_supported(GK_CPU_ISA_AVX512)) {
        printf("no AVX-512 on this CPU\n");
        return 0;
    }
    printf("512-bit FMA chains, one core:\n");
    fma_rate(fma_chains1, 1);
    fma_rate(fma_chains4, 4);
    fma_rate(fma_chains8, 8);
    fma_rate(fma_chains12, 12);
    printf("AVX-512 row kernel, one core, 27 FMAs a point:\n");
    rows_rate(32, 1);
    rows_rate(32, 30);
    printf("one thread, 256^3, 8 steps (CPU time):\n");
    int n = 256;
    double *grid = malloc((size_t)n * n * n * 8);
    gk_stencil_cpu *g;
    if (!grid || gk__stencil_cpu_open(&g, n, n, n, gk_stencil_default_coeffs, GK_CPU_ISA_AVX512))
        return 1;
    for (size_t i = 0; i < (size_t)n * n * n; i++) grid[i] = (double)(i % 17) * 0.1 - 0.8;
    gk__stencil_cpu_load(g, grid);
    for (int T = 1; T <= 4; T++) {
        double best = 1e9;
        gk__stencil_cpu_steps(g, T, T);
        for (int r = 0; r < 3; r++) {
            double t0 = cpu_now();
            gk__stencil_cpu_steps(g, 8, T);
            double t = cpu_now() - t0;
            if (t < best) best = t;
        }
        printf("  T=%d: %.2f GStencil/s\n", T, (double)n * n * n * 8 / best * 1e-9);
    }
    gk__stencil_cpu_close(g);
    free(grid);
    return 0;
}
