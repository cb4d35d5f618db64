/* bench/apsp-cpu-types.c - the CPU APSP backend per element type: the
 * blocked code (gk__apsp_cpu_run; int32 without negatives is gk__apsp_cpu)
 * with and without predecessors against the plain k-i-j loop
 * (gk__apsp_cpu_plain), on a random graph made in memory (each pair an edge
 * with probability 0.3; weights 0..1000, integral for the integer types,
 * k/7 for the floats; NEG=1: minus a random potential difference, negative
 * weights and no negative cycle).  Prints wall seconds and the process's
 * CPU seconds of each (CPU time: other processes on a shared machine do not
 * count), G min-plus/s = n^3 / wall seconds, and whether the blocked result
 * equals the plain loop's (integers: equal; floats: within 2 (n-1)^2 u
 * max|w|).  Build and run from a build directory (bench/apsp-cpu-types.sh
 * does it):
 *   gcc -O2 -fopenmp -I../src -I../include -I. ../bench/apsp-cpu-types.c \
 *       .libs/libgk_impl.a -lm -o apsp-cpu-types && ./apsp-cpu-types 3000 float64
 * -DINT32_ONLY builds the int32 rows alone (gk__apsp_cpu, gk__apsp_cpu16,
 * gk__apsp_cpu_simple), so
 * that a library from before the typed backend can be measured the same
 * way. */
#include "cpu/apsp_cpu.h"

#ifndef GK_APSP_INF64
#define GK_APSP_INF64 INT64_C(4611686018427387903)   /* a library from before the typed backend */
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static uint64_t rs = 12345;
static uint32_t rnd(void)
{
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rs >> 33);
}

static gk_dtype parse_type(const char *s)
{
    return !strcmp(s, "int64") ? GK_DTYPE_INT64 : !strcmp(s, "float32") ? GK_DTYPE_FLOAT32
         : !strcmp(s, "float64") ? GK_DTYPE_FLOAT64 : GK_DTYPE_INT32;
}

/* the graph, in type t */
static void *graph(int n, gk_dtype t, int neg)
{
    size_t es = t == GK_DTYPE_INT64 || t == GK_DTYPE_FLOAT64 ? 8 : 4;
    char *m = malloc((size_t)n * n * es);
    double *h = malloc((size_t)n * sizeof *h);
    for (int i = 0; i < n; i++) h[i] = neg ? rnd() % 500 : 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            int edge = i == j || rnd() % 10 < 3;
            double w = i == j ? 0 : (t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64 ? (rnd() % 7001) / 7.0 : rnd() % 1001)
                                    + h[i] - h[j];
            void *e = m + (i * n + j) * (int64_t)es;
            switch (t) {
            case GK_DTYPE_INT32: *(int32_t *)e = edge ? (int32_t)w : GK_APSP_INF; break;
            case GK_DTYPE_INT64: *(int64_t *)e = edge ? (int64_t)w : GK_APSP_INF64; break;
            case GK_DTYPE_FLOAT32: *(float *)e = edge ? (float)w : INFINITY; break;
            case GK_DTYPE_FLOAT64: *(double *)e = edge ? w : INFINITY; break;
            }
        }
    free(h);
    return m;
}

typedef struct timing { double wall, cpu; } timing;
#define TIME(tm, stmt) do { double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID); \
    if ((stmt) != GK_OK) { fprintf(stderr, "%s\n", gk_last_error()); exit(1); }                   \
    (tm).cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0; (tm).wall = now(CLOCK_MONOTONIC) - w0; } while (0)

static void row(const char *what, int n, timing t)
{
    printf("  %-26s %6d  %9.3f  %9.3f  %8.2f\n", what, n, t.wall, t.cpu, (double)n * n * n / t.wall / 1e9);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3000;
    gk_dtype t = parse_type(argc > 2 ? argv[2] : "int32");
    int neg = getenv("NEG") && atoi(getenv("NEG"));
    size_t es = t == GK_DTYPE_INT64 || t == GK_DTYPE_FLOAT64 ? 8 : 4, bytes = (size_t)n * n * es;
    printf("  %-26s %6s  %9s  %9s  %8s\n", "", "n", "wall s", "cpu s", "G/s");
    char *init = graph(n, t, neg), *a = malloc(bytes);
    timing tm;
#ifdef INT32_ONLY
    (void)neg;
    memcpy(a, init, bytes);
    TIME(tm, gk__apsp_cpu((int32_t *)a, n, GK_CPU_ISA_AUTO));
    row("int32 blocked", n, tm);
    uint16_t *m16 = malloc((size_t)n * n * 2);
    TIME(tm, gk__apsp_cpu16((int32_t *)init, m16, n, GK_CPU_ISA_AUTO));
    row("int32 16-bit", n, tm);
    free(m16);
    if (!getenv("NOPLAIN")) {
        memcpy(a, init, bytes);
        TIME(tm, gk__apsp_cpu_simple((int32_t *)a, n));
        row("int32 plain loop", n, tm);
    }
#else
    char *b = malloc(bytes);
    int32_t *p = malloc((size_t)n * n * 4);
    char name[64];
    memcpy(a, init, bytes);
    TIME(tm, gk__apsp_cpu_run(a, n, t, NULL, GK_CPU_ISA_AUTO, NULL));
    snprintf(name, sizeof name, "%s%s blocked", gk_dtype_name(t), neg ? " neg" : "");
    row(name, n, tm);
    memcpy(b, init, bytes);
    gk__apsp_pred_init(b, n, n, t, p, n);
    TIME(tm, gk__apsp_cpu_run(b, n, t, p, GK_CPU_ISA_AUTO, NULL));
    snprintf(name, sizeof name, "%s%s blocked + pred", gk_dtype_name(t), neg ? " neg" : "");
    row(name, n, tm);
    int same_pred = !memcmp(a, b, bytes);
    if (!getenv("NOPLAIN")) {
        memcpy(b, init, bytes);
        TIME(tm, gk__apsp_cpu_plain(b, n, t, NULL, NULL));
        snprintf(name, sizeof name, "%s%s plain loop", gk_dtype_name(t), neg ? " neg" : "");
        row(name, n, tm);
        double maxw = 0, u = t == GK_DTYPE_FLOAT32 ? ldexp(1, -24) : ldexp(1, -53), worst = 0;
        int same = 1;
        for (int64_t i = 0; i < (int64_t)n * n; i++) {
            if (t == GK_DTYPE_FLOAT64 || t == GK_DTYPE_FLOAT32) {
                double x = t == GK_DTYPE_FLOAT64 ? ((double *)a)[i] : ((float *)a)[i];
                double y = t == GK_DTYPE_FLOAT64 ? ((double *)b)[i] : ((float *)b)[i];
                double w = t == GK_DTYPE_FLOAT64 ? ((double *)init)[i] : ((float *)init)[i];
                if (isfinite(w) && fabs(w) > maxw) maxw = fabs(w);
                if (x != y && fabs(x - y) > worst) worst = fabs(x - y);
                same &= x == y || fabs(x - y) <= 2.0 * (n - 1) * (n - 1) * u * 1001;
            } else
                same &= !memcmp(a + i * es, b + i * es, es);
        }
        printf("  blocked vs plain: %s (largest difference %.3g, tolerance %.3g)\n", same ? "same" : "DIFFERENT", worst,
               2.0 * (n - 1) * (n - 1) * u * maxw);
    }
    printf("  distances with predecessors == without: %s\n", same_pred ? "yes" : "NO");
    free(b);
    free(p);
#endif
    free(a);
    free(init);
    return 0;
}
