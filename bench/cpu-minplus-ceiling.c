/* bench/cpu-minplus-ceiling.c - the most float64 (and float32) min-plus
 * updates per second this CPU can issue: chains of c = min(c + b, y) on
 * whole vector registers, many independent chains per thread so that the
 * latency of the add and of the min is hidden, nothing else in the loop
 * (an add, then a min on its result: a Floyd-Warshall update is one such
 * add and one such min), so n^3 / this rate is a floor under the time of any CPU Floyd-Warshall of n vertices
 * (bench/python-results.md uses it for the 2-core development machine).
 *
 * Each thread's rate is taken from its own CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so other processes on a shared machine lower
 * the wall-clock figure but not this one; "machine" = per-thread rate x
 * threads, the rate when every core runs it alone.
 *
 *   gcc -O2 -march=native -fopenmp bench/cpu-minplus-ceiling.c -o /tmp/ceil && /tmp/ceil [N]
 *
 * N (default 3000): also print n^3 / the float64 rate, the least time of a
 * float64 Floyd-Warshall of N vertices on this machine. */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHAINS 24        /* independent accumulators: > latency x issue width */
#define ITERS 20000000L  /* per chain and thread */

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* lanes x CHAINS x ITERS updates; returns updates per CPU second */
#if defined(__AVX512F__)
#define VEC "AVX-512"
static double run_f64(int seed, double *sink)
{
    __m512d acc[CHAINS], b = _mm512_set1_pd(1.0 + seed * 1e-9), y = _mm512_set1_pd(2e9);
    for (int c = 0; c < CHAINS; c++) acc[c] = _mm512_set1_pd(1e9 - c);
    double t0 = cpu_now();
    for (long i = 0; i < ITERS; i++)
        for (int c = 0; c < CHAINS; c++) acc[c] = _mm512_min_pd(_mm512_add_pd(acc[c], b), y);
    double t = cpu_now() - t0;
    double s = 0;
    for (int c = 0; c < CHAINS; c++) s += _mm512_reduce_add_pd(acc[c]);
    *sink = s;
    return 8.0 * CHAINS * ITERS / t;
}
static double run_f32(int seed, double *sink)
{
    __m512 acc[CHAINS], b = _mm512_set1_ps(1.0f + seed * 1e-6f), y = _mm512_set1_ps(2e9f);
    for (int c = 0; c < CHAINS; c++) acc[c] = _mm512_set1_ps(1e9f - c);
    double t0 = cpu_now();
    for (long i = 0; i < ITERS; i++)
        for (int c = 0; c < CHAINS; c++) acc[c] = _mm512_min_ps(_mm512_add_ps(acc[c], b), y);
    double t = cpu_now() - t0;
    double s = 0;
    for (int c = 0; c < CHAINS; c++) s += _mm512_reduce_add_ps(acc[c]);
    *sink = s;
    return 16.0 * CHAINS * ITERS / t;
}
#elif defined(__AVX2__)
#define VEC "AVX2"
static double run_f64(int seed, double *sink)
{
    __m256d acc[CHAINS], b = _mm256_set1_pd(1.0 + seed * 1e-9), y = _mm256_set1_pd(2e9);
    for (int c = 0; c < CHAINS; c++) acc[c] = _mm256_set1_pd(1e9 - c);
    double t0 = cpu_now();
    for (long i = 0; i < ITERS; i++)
        for (int c = 0; c < CHAINS; c++) acc[c] = _mm256_min_pd(_mm256_add_pd(acc[c], b), y);
    double t = cpu_now() - t0, s = 0, l[4];
    for (int c = 0; c < CHAINS; c++) { _mm256_storeu_pd(l, acc[c]); s += l[0] + l[1] + l[2] + l[3]; }
    *sink = s;
    return 4.0 * CHAINS * ITERS / t;
}
static double run_f32(int seed, double *sink)
{
    __m256 acc[CHAINS], b = _mm256_set1_ps(1.0f + seed * 1e-6f), y = _mm256_set1_ps(2e9f);
    for (int c = 0; c < CHAINS; c++) acc[c] = _mm256_set1_ps(1e9f - c);
    double t0 = cpu_now();
    for (long i = 0; i < ITERS; i++)
        for (int c = 0; c < CHAINS; c++) acc[c] = _mm256_min_ps(_mm256_add_ps(acc[c], b), y);
    double t = cpu_now() - t0, s = 0;
    float l[8];
    for (int c = 0; c < CHAINS; c++) { _mm256_storeu_ps(l, acc[c]); for (int k = 0; k < 8; k++) s += l[k]; }
    *sink = s;
    return 8.0 * CHAINS * ITERS / t;
}
#else
#error "build with -march=native on an AVX2 or AVX-512 machine"
#endif

int main(int argc, char **argv)
{
    const double n = argc > 1 ? atof(argv[1]) : 3000;
    const int T = omp_get_max_threads();
    double r64 = 1e30, r32 = 1e30, sink = 0;
#pragma omp parallel reduction(min : r64, r32) reduction(+ : sink)
    {
        double s1 = 0, s2 = 0;
        r64 = run_f64(omp_get_thread_num(), &s1);   /* each thread: its own rate */
        r32 = run_f32(omp_get_thread_num(), &s2);
        sink = s1 + s2;
    }
    printf("%s, %d threads (each timed on its own CPU time; the slowest thread's rate)\n", VEC, T);
    printf("float64 min-plus: %.2f G updates/s per thread, %.2f G/s machine\n", r64 / 1e9, T * r64 / 1e9);
    printf("float32 min-plus: %.2f G updates/s per thread, %.2f G/s machine\n", r32 / 1e9, T * r32 / 1e9);
    printf("float64 Floyd-Warshall, n = %.0f: at least %.3f s on this machine (n^3 / the machine rate)\n", n,
           n * n * n / (T * r64));
    return sink == 42.0;   /* keeps the chains alive */
}
