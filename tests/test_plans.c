/* test_plans.c - the library entry points of issue 23: plans made once and
 * executed many times (each result against an independent reference: a
 * naive loop in this file), the struct_size rule, the versions, and every
 * bad argument refused by name: a NULL or wrong-kind pointer, a leading
 * dimension below the row, a plan used with another context, device memory
 * or a stream on a CPU context.  With a usable GPU: every kernel on device
 * memory with leading dimensions or pitches (the padding around the
 * problem left untouched), on the caller's stream, ordered with the
 * caller's own copies on it; host and device pointers swapped are refused.
 * The GPU part SKIPs without a GPU. */
#include "config.h"

#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_stencil_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef GK_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static double unit(void) { return (double)(next() >> 11) * 0x1p-53; }

/* A random APSP matrix: about half the pairs edges, weights 0..99. */
static void apsp_random(int32_t *d, int64_t V, int64_t ld)
{
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = 0; j < V; j++)
            d[i * ld + j] = i == j ? 0 : next() % 2 ? (int32_t)(next() % 100) : GK_APSP_INF;
}

/* The naive k-i-j Floyd-Warshall with the same no-overflow cap. */
static void apsp_ref(int32_t *d, int64_t V, int64_t ld)
{
    for (int64_t k = 0; k < V; k++)
        for (int64_t i = 0; i < V; i++)
            for (int64_t j = 0; j < V; j++) {
                int64_t s = (int64_t)d[i * ld + k] + d[k * ld + j];
                if (s < d[i * ld + j]) d[i * ld + j] = (int32_t)s;
            }
}

static int same_i32(const int32_t *a, const int32_t *b, int64_t rows, int64_t cols, int64_t lda, int64_t ldb)
{
    for (int64_t i = 0; i < rows; i++)
        if (memcmp(a + i * lda, b + i * ldb, (size_t)cols * sizeof *a))
            return 0;
    return 1;
}

/* C = A B in double, and |A| |B| for the bound of gk/gemm.h. */
static void gemm_ref(const float *a, const float *b, double *c, double *ab, int64_t m, int64_t n, int64_t k,
                     int64_t lda, int64_t ldb)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0, t = 0;
            for (int64_t p = 0; p < k; p++) {
                s += (double)a[i * lda + p] * b[p * ldb + j];
                t += fabs((double)a[i * lda + p] * b[p * ldb + j]);
            }
            c[i * n + j] = s;
            ab[i * n + j] = t;
        }
}

static int gemm_within(const float *c, int64_t ldc, const double *ref, const double *ab, int64_t m, int64_t n,
                       int64_t k)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            if (!(fabs(c[i * ldc + j] - ref[i * n + j]) <= gk_gemm_tolerance(k, ab[i * n + j])))
                return 0;
    return 1;
}

static void rand_f32(float *a, int64_t n)
{
    for (int64_t i = 0; i < n; i++) a[i] = (float)(2 * unit() - 1);
}

/* ------------------------------------------------------------------ CPU */

static void versions(void)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", GK_VERSION_MAJOR, GK_VERSION_MINOR, GK_VERSION_PATCH);
    ok(gk_version_number() == GK_VERSION_NUMBER && !strcmp(gk_version(), GK_VERSION_STRING)
       && !strcmp(gk_version(), want), "gk_version %s, gk_version_number %d: the header's", gk_version(),
       gk_version_number());
    gk_free(NULL);
    ok(1, "gk_free(NULL) is harmless");
    ok(gk_dtype_size(GK_DTYPE_INT32) == 4 && gk_dtype_size(GK_DTYPE_FLOAT64) == 8 && !gk_dtype_name((gk_dtype)9)
       && !strcmp(gk_memory_name(GK_MEMORY_DEVICE), "device"), "dtype sizes and names");
}

static void struct_sizes(gk_context *ctx)
{
    int32_t d[4] = { 0, 5, 7, 0 };
    gk_apsp_problem p;
    gk_apsp_options o;
    gk_report r;
    gk_apsp_problem_init(&p, 2);
    gk_apsp_options_init(&o);
    gk_report_init(&r);
    o.struct_size = 0;
    ok(gk_apsp_run(ctx, &p, d, &o, NULL) == GK_EINVAL && strstr(gk_last_error(), "gk_apsp_options: struct_size is 0"),
       "options with struct_size 0: %s", gk_last_error());
    gk_apsp_options_init(&o);
    p.struct_size = 0;
    ok(gk_apsp_run(ctx, &p, d, &o, NULL) == GK_EINVAL && strstr(gk_last_error(), "gk_apsp_problem"),
       "a problem with struct_size 0: %s", gk_last_error());
    gk_apsp_problem_init(&p, 2);
    r.struct_size = 0;
    ok(gk_apsp_run(ctx, &p, d, &o, &r) == GK_EINVAL && strstr(gk_last_error(), "gk_report"),
       "a report with struct_size 0: %s", gk_last_error());
    r.struct_size = 3;
    ok(gk_apsp_run(ctx, &p, d, &o, &r) == GK_EINVAL && strstr(gk_last_error(), "below"),
       "a report smaller than the first release's: %s", gk_last_error());
    /* a program built against a newer gk.h: larger structs are fine while
     * the fields this libgk does not know are 0, refused otherwise */
    struct { gk_apsp_options o; char later[16]; } big;
    memset(&big, 0, sizeof big);
    gk_apsp_options_init(&big.o);
    big.o.struct_size = sizeof big;
    ok(gk_apsp_run(ctx, &p, d, &big.o, NULL) == GK_OK && d[1] == 5, "a larger options struct, new fields 0: accepted");
    big.later[3] = 1;
    ok(gk_apsp_run(ctx, &p, d, &big.o, NULL) == GK_EINVAL && strstr(gk_last_error(), "newer gk.h"),
       "a larger options struct with unknown fields set: %s", gk_last_error());
    /* an older program's smaller report is filled up to its size only */
    struct { gk_report r; unsigned char guard[64]; } small;
    memset(&small, 0xa5, sizeof small);
    gk_report_init(&small.r);
    small.r.struct_size = sizeof small.r;
    ok(gk_apsp_run(ctx, &p, d, NULL, &small.r) == GK_OK && small.r.backend == GK_BACKEND_CPU
       && small.guard[0] == 0xa5 && small.guard[63] == 0xa5, "the report is written up to its struct_size");
    gk_context_options co;
    gk_context *c2 = NULL;
    gk_context_options_init(&co);
    co.struct_size = 0;
    ok(gk_context_create(&c2, &co) == GK_EINVAL && !c2, "context options with struct_size 0: %s", gk_last_error());
    gk_comm comm;
    gk_context_options_init(&co);
    memset(&comm, 0, sizeof comm);
    co.comm = &comm;
    ok(gk_context_create(&c2, &co) == GK_EINVAL && strstr(gk_last_error(), "gk_comm"),
       "a communicator with struct_size 0: %s", gk_last_error());
}

static void apsp_plans(gk_context *ctx, gk_context *other)
{
    const int64_t V = 70;
    int32_t *d = malloc(V * V * sizeof *d), *ref = malloc(V * V * sizeof *ref);
    gk_apsp_problem p;
    gk_apsp_plan *plan = NULL;
    gk_apsp_problem_init(&p, V);
    ok(gk_apsp_plan_create(ctx, &p, NULL, &plan) == GK_OK && plan, "an APSP plan on the CPU");
    for (int r = 0; r < 3; r++) {
        apsp_random(d, V, V);
        memcpy(ref, d, V * V * sizeof *d);
        apsp_ref(ref, V, V);
        gk_report rep = t_report();
        ok(gk_apsp_plan_execute(ctx, plan, d, &rep) == GK_OK && same_i32(d, ref, V, V, V, V)
           && rep.memory == GK_MEMORY_HOST && rep.compute >= 0,
           "APSP plan, execution %d of 3 on a new matrix == the naive loop", r + 1);
    }
    /* entries outside [-INF, INF] (negative weights are legal since 1.2):
       refused, naming the first in row-major order */
    apsp_random(d, V, V);
    d[5 * V + 7] = -GK_APSP_INF - 1;
    d[40 * V + 2] = GK_APSP_INF + 1;
    d[69 * V + 69] = -3;
    ok(gk_apsp_plan_execute(ctx, plan, d, NULL) == GK_EINVAL && strstr(gk_last_error(), "entry (5, 7) = -1073741824"),
       "entries outside [-INF, INF]: the first named: %s", gk_last_error());
    ok(gk_apsp_plan_execute(other, plan, d, NULL) == GK_EINVAL && strstr(gk_last_error(), "another context"),
       "a plan used with another context: %s", gk_last_error());
    ok(gk_apsp_plan_execute(ctx, plan, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "dist is NULL"),
       "a NULL matrix: %s", gk_last_error());
    ok(gk_apsp_plan_execute(ctx, NULL, d, NULL) == GK_EINVAL && strstr(gk_last_error(), "plan is NULL"),
       "no plan: %s", gk_last_error());
    gk_apsp_plan_destroy(plan);
    gk_apsp_plan_destroy(NULL);
    plan = (gk_apsp_plan *)&p;
    p.ld = V - 1;
    ok(gk_apsp_plan_create(ctx, &p, NULL, &plan) == GK_EINVAL && !plan && strstr(gk_last_error(), "problem.ld"),
       "ld below the row: %s", gk_last_error());
    p.ld = V + 3;
    ok(gk_apsp_plan_create(ctx, &p, NULL, &plan) == GK_EINVAL && strstr(gk_last_error(), "dense"),
       "a host matrix with ld > n (dense in this release): %s", gk_last_error());
    gk_apsp_problem_init(&p, V);
    p.dtype = (gk_dtype)7;
    ok(gk_apsp_plan_create(ctx, &p, NULL, &plan) == GK_EINVAL && strstr(gk_last_error(), "not a gk_dtype"),
       "a problem.dtype that is no gk_dtype: %s", gk_last_error());
    gk_apsp_problem_init(&p, V);
    p.memory = GK_MEMORY_DEVICE;
    ok(gk_apsp_plan_create(ctx, &p, NULL, &plan) == GK_EINVAL && strstr(gk_last_error(), "CPU"),
       "device memory on a CPU context: %s", gk_last_error());
    gk_apsp_problem_init(&p, 0);
    ok(gk_apsp_plan_create(ctx, &p, NULL, &plan) == GK_EINVAL && strstr(gk_last_error(), "problem.n"),
       "n = 0: %s", gk_last_error());
    gk_apsp_problem_init(&p, V);
    ok(gk_apsp_plan_create(ctx, &p, NULL, NULL) == GK_EINVAL, "nowhere to put the plan: %s", gk_last_error());
    free(d);
    free(ref);
}

static void stencil_plans(gk_context *ctx, gk_context *other)
{
    const int nx = 13, ny = 9, nz = 7;
    const size_t n = (size_t)nx * ny * nz;
    double *g = malloc(n * sizeof *g), *ref = malloc(n * sizeof *ref), c[27];
    for (int i = 0; i < 27; i++) c[i] = 2 * unit() - 1;
    gk_stencil_problem p;
    gk_stencil_plan *plan = NULL;
    double c0[27];
    int steps[] = { 1, 4, 0 };
    memcpy(c0, c, sizeof c0);
    gk_stencil_problem_init(&p, nx, ny, nz);
    p.coeffs = c;
    ok(gk_stencil_plan_create(ctx, &p, NULL, &plan) == GK_OK, "a stencil plan on the CPU");
    for (int i = 0; i < 27; i++) c[i] = 7;   /* the plan copied them: must not matter */
    for (int r = 0; r < 3; r++) {
        for (size_t i = 0; i < n; i++) g[i] = ref[i] = 2 * unit() - 1;
        t_reference(ref, nx, ny, nz, c0, steps[r]);
        gk_report rep = t_report();
        int exact;
        gk_status st = gk_stencil_plan_execute(ctx, plan, g, steps[r], &rep);
        double diff = t_maxdiff(g, ref, n, &exact);
        ok(st == GK_OK && exact, "stencil plan, execution %d: %d steps, bit-exact against the naive loop (%.3g)",
           r + 1, steps[r], diff);
    }
    ok(gk_stencil_plan_execute(other, plan, g, 1, NULL) == GK_EINVAL && strstr(gk_last_error(), "another context"),
       "a stencil plan used with another context: %s", gk_last_error());
    ok(gk_stencil_plan_execute(ctx, plan, g, -1, NULL) == GK_EINVAL, "negative steps: %s", gk_last_error());
    void *own = NULL;
    int64_t oy = 0, oz = 0;
    ok(gk_stencil_plan_grid(plan, &own, &oy, &oz) == GK_EINVAL && !own && strstr(gk_last_error(), "host memory"),
       "gk_stencil_plan_grid of a host-memory plan: %s", gk_last_error());
    ok(gk_stencil_plan_grid(plan, NULL, &oy, &oz) == GK_EINVAL && strstr(gk_last_error(), "grid is NULL"),
       "gk_stencil_plan_grid without grid: %s", gk_last_error());
    ok(gk_stencil_plan_grid(NULL, &own, &oy, &oz) == GK_EINVAL && strstr(gk_last_error(), "plan is NULL"),
       "gk_stencil_plan_grid without a plan: %s", gk_last_error());
    gk_stencil_plan_destroy(plan);
    plan = NULL;
    gk_stencil_problem_init(&p, nx, ny, nz);
    p.pitch_y = nx - 1;
    ok(gk_stencil_plan_create(ctx, &p, NULL, &plan) == GK_EINVAL && strstr(gk_last_error(), "pitch_y"),
       "pitch_y below the row: %s", gk_last_error());
    gk_stencil_problem_init(&p, nx, ny, nz);
    p.pitch_z = (int64_t)nx * ny - 1;
    ok(gk_stencil_plan_create(ctx, &p, NULL, &plan) == GK_EINVAL && strstr(gk_last_error(), "pitch_z"),
       "overlapping planes: %s", gk_last_error());
    double bad[27];
    memcpy(bad, gk_stencil_default_coeffs, sizeof bad);
    bad[13] = NAN;
    gk_stencil_problem_init(&p, nx, ny, nz);
    p.coeffs = bad;
    ok(gk_stencil_plan_create(ctx, &p, NULL, &plan) == GK_EINVAL && strstr(gk_last_error(), "coeffs[13]"),
       "a NaN coefficient: %s", gk_last_error());
    free(g);
    free(ref);
}

static void gemm_plans(gk_context *ctx)
{
    const int64_t m = 37, n = 29, k = 41;
    float *a = malloc(m * k * 4), *b = malloc(k * n * 4), *c = malloc(m * n * 4);
    double *ref = malloc(m * n * 8), *ab = malloc(m * n * 8);
    gk_gemm_problem p;
    gk_gemm_plan *plan = NULL;
    gk_gemm_problem_init(&p, m, n, k);
    ok(gk_gemm_plan_create(ctx, &p, NULL, &plan) == GK_OK, "a gemm plan on the CPU");
    for (int r = 0; r < 2; r++) {
        rand_f32(a, m * k);
        rand_f32(b, k * n);
        gemm_ref(a, b, ref, ab, m, n, k, k, n);
        ok(gk_gemm_plan_execute(ctx, plan, a, b, c, NULL) == GK_OK && gemm_within(c, n, ref, ab, m, n, k),
           "gemm plan, execution %d: within the bound of the double loop", r + 1);
    }
    ok(gk_gemm_plan_execute(ctx, plan, a, NULL, c, NULL) == GK_EINVAL && strstr(gk_last_error(), "b is NULL"),
       "gemm: a NULL B: %s", gk_last_error());
    {   /* A and B side by side in one buffer; C placed over one of them */
        float *both = malloc((m * k + k * n) * 4), *a2 = both, *b2 = both + m * k;
        rand_f32(both, m * k + k * n);
        ok(gk_gemm_plan_execute(ctx, plan, a2, b2, a2 + 5, NULL) == GK_EINVAL
           && strstr(gk_last_error(), "c overlaps a"), "gemm: c inside a: %s", gk_last_error());
        ok(gk_gemm_plan_execute(ctx, plan, a2, b2, b2 + 2, NULL) == GK_EINVAL
           && strstr(gk_last_error(), "c overlaps b"), "gemm: c inside b: %s", gk_last_error());
        ok(gk_gemm_plan_execute(ctx, plan, a2, b2, c, NULL) == GK_OK, "gemm: a and b adjacent, c apart: run");
        free(both);
    }
    gk_gemm_plan_destroy(plan);
    plan = NULL;
    p.lda = k - 1;
    ok(gk_gemm_plan_create(ctx, &p, NULL, &plan) == GK_EINVAL && strstr(gk_last_error(), "lda"),
       "gemm: lda below the row: %s", gk_last_error());
    free(a); free(b); free(c); free(ref); free(ab);
}

/* One step of the elementwise kernel as gk/elementwise.h defines it, with
 * f in double rounded once (the CPU backend's contract: bit-identical). */
static float ew_step(float v, int x)
{
    double f = x % 4 == 0 ? log(v) : x % 4 == 1 ? cos(v) : x % 4 == 2 ? sin(v) : tan(v);
    return v + sqrtf((float)f + 1.0f);
}

static void elementwise_plans(gk_context *ctx)
{
    const int64_t dx = 19, dy = 5;
    float *a = malloc(dx * dy * 4), *ref = malloc(dx * dy * 4);
    gk_elementwise_problem p;
    gk_elementwise_plan *plan = NULL;
    gk_elementwise_problem_init(&p, dx, dy);
    ok(gk_elementwise_plan_create(ctx, &p, NULL, &plan) == GK_OK, "an elementwise plan on the CPU");
    for (int r = 0; r < 2; r++) {
        for (int64_t i = 0; i < dx * dy; i++) a[i] = ref[i] = (float)(1 + unit());
        int niter = 3 + r;
        for (int it = 0; it < niter; it++)
            for (int64_t i = 0; i < dx * dy; i++) ref[i] = ew_step(ref[i], (int)(i % dx));
        ok(gk_elementwise_plan_execute(ctx, plan, a, niter, NULL) == GK_OK && !memcmp(a, ref, dx * dy * 4),
           "elementwise plan, execution %d: %d iterations, bit-identical to the formula", r + 1, niter);
    }
    gk_elementwise_plan_destroy(plan);
    free(a);
    free(ref);
}

static void cpu_context_rules(gk_context *ctx)
{
    ok(gk_context_set_stream(ctx, (void *)0x1) == GK_ENODEV && strstr(gk_last_error(), "CPU"),
       "a stream on a CPU context: %s", gk_last_error());
    ok(gk_context_stream(ctx) == NULL, "a CPU context has no stream");
    ok(gk_context_cpu_isa(ctx) != GK_CPU_ISA_AUTO && gk_cpu_isa_supported(gk_context_cpu_isa(ctx)),
       "the context's instruction set is resolved: %s", gk_cpu_isa_name(gk_context_cpu_isa(ctx)));
}

/* ------------------------------------------------------------------ GPU */

#ifdef GK_HAVE_CUDA
#define CU(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
        printf("Bail out! %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

static void gpu_apsp(gk_context *ctx, cudaStream_t s, int64_t V, int64_t ld)
{
    size_t bytes = (size_t)(V * ld) * sizeof(int32_t);
    int32_t *h = malloc(bytes), *ref = malloc(bytes), *back = malloc(bytes), *dev = NULL;
    apsp_random(h, V, ld);
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = V; j < ld; j++) h[i * ld + j] = -12345;     /* the padding: must stay */
    memcpy(ref, h, bytes);
    apsp_ref(ref, V, ld);
    CU(cudaMalloc((void **)&dev, bytes));
    gk_apsp_problem p;
    gk_apsp_plan *plan = NULL;
    gk_apsp_problem_init(&p, V);
    p.ld = ld;
    p.memory = GK_MEMORY_DEVICE;
    gk_status st = gk_apsp_plan_create(ctx, &p, NULL, &plan);
    for (int r = 0; r < 2 && !st; r++) {
        /* the input goes up on the caller's stream and comes back on it:
           only the stream's order makes the result right */
        CU(cudaMemcpyAsync(dev, h, bytes, cudaMemcpyHostToDevice, s));
        gk_report rep = t_report();
        st = gk_apsp_plan_execute(ctx, plan, dev, &rep);
        CU(cudaMemcpyAsync(back, dev, bytes, cudaMemcpyDeviceToHost, s));
        CU(cudaStreamSynchronize(s));
        int pad = 1;
        for (int64_t i = 0; i < V; i++)
            for (int64_t j = V; j < ld; j++) pad &= back[i * ld + j] == -12345;
        ok(st == GK_OK && same_i32(back, ref, V, V, ld, ld) && pad && rep.memory == GK_MEMORY_DEVICE
           && rep.compute == -1, "APSP on device memory, V = %lld, ld = %lld, execution %d: == the naive loop, "
           "padding untouched %s", (long long)V, (long long)ld, r + 1, st ? gk_last_error() : "");
    }
    if (st)
        ok(0, "APSP device plan V = %lld: %s", (long long)V, gk_last_error());
    /* host memory where device memory was promised */
    ok(gk_apsp_plan_execute(ctx, plan, h, NULL) == GK_EINVAL && strstr(gk_last_error(), "host memory"),
       "APSP: a host pointer for a device problem: %s", gk_last_error());
    gk_apsp_plan_destroy(plan);
    /* and the other way round */
    gk_apsp_problem_init(&p, V);
    ok(t_apsp_solve(ctx, (int32_t *)dev, V, NULL, NULL) == GK_EINVAL && strstr(gk_last_error(), "device memory"),
       "APSP: a device pointer for a host problem: %s", gk_last_error());
    p.memory = GK_MEMORY_DEVICE;
    gk_apsp_options o = t_apsp_opts(0, NULL, 16);
    ok(gk_apsp_plan_create(ctx, &p, &o, &plan) == GK_EINVAL && strstr(gk_last_error(), "precision 16"),
       "APSP: 16-bit lanes on device memory are refused: %s", gk_last_error());
    o = t_apsp_opts(1, NULL, 0);
    ok(gk_apsp_plan_create(ctx, &p, &o, &plan) == GK_EINVAL && strstr(gk_last_error(), "check"),
       "APSP: the check on device memory is refused: %s", gk_last_error());
    cudaFree(dev);
    free(h); free(ref); free(back);
}

static void gpu_stencil(gk_context *ctx, cudaStream_t s, int nx, int ny, int nz, int64_t py, int64_t pz)
{
    size_t n = (size_t)nx * ny * nz, total = (size_t)(pz * nz);
    double *h = malloc(total * 8), *ref = malloc(n * 8), *back = malloc(total * 8), *dev = NULL;
    for (size_t i = 0; i < total; i++) h[i] = -777;                  /* padding */
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                h[z * pz + y * py + x] = ref[((size_t)z * ny + y) * nx + x] = 2 * unit() - 1;
    const int steps = 5;
    t_reference(ref, nx, ny, nz, gk_stencil_default_coeffs, steps);
    CU(cudaMalloc((void **)&dev, total * 8));
    CU(cudaMemcpyAsync(dev, h, total * 8, cudaMemcpyHostToDevice, s));
    gk_stencil_problem p;
    gk_stencil_plan *plan = NULL;
    gk_stencil_problem_init(&p, nx, ny, nz);
    p.pitch_y = py;
    p.pitch_z = pz;
    p.memory = GK_MEMORY_DEVICE;
    gk_status st = gk_stencil_plan_create(ctx, &p, NULL, &plan);
    if (!st)
        st = gk_stencil_plan_execute(ctx, plan, dev, steps, NULL);
    CU(cudaMemcpyAsync(back, dev, total * 8, cudaMemcpyDeviceToHost, s));
    CU(cudaStreamSynchronize(s));
    int exact = 1, pad = 1;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                exact &= back[z * pz + y * py + x] == ref[((size_t)z * ny + y) * nx + x];
    for (size_t i = 0; i < total; i++) {
        size_t z = i / (size_t)pz, r = i % (size_t)pz, y = r / (size_t)py, x = r % (size_t)py;
        if (!(z < (size_t)nz && y < (size_t)ny && x < (size_t)nx)) pad &= back[i] == -777;
    }
    ok(st == GK_OK && exact && pad, "stencil on device memory %dx%dx%d, pitches %lld, %lld: bit-exact, padding "
       "untouched %s", nx, ny, nz, (long long)py, (long long)pz, st ? gk_last_error() : "");
    /* the plan's own grid (gk_stencil_plan_grid): the input written there,
       the steps in two executions (3 + 2: the grid may move between them),
       the result read where the plan says it is now */
    void *g0 = NULL, *g1 = NULL, *g2 = NULL;
    int64_t gy = 0, gz = 0, gy2 = 0, gz2 = 0;
    int own = 0;
    if (!st && !(st = gk_stencil_plan_grid(plan, &g0, &gy, &gz)) && gy >= nx && gz >= gy * ny) {
        for (int z = 0; z < nz; z++)
            CU(cudaMemcpy2DAsync((double *)g0 + z * gz, (size_t)gy * 8, h + z * pz, (size_t)py * 8, (size_t)nx * 8,
                                 (size_t)ny, cudaMemcpyHostToDevice, s));
        if (!(st = gk_stencil_plan_execute(ctx, plan, g0, 3, NULL)) && !(st = gk_stencil_plan_grid(plan, &g1, &gy2, &gz2))
            && !(st = gk_stencil_plan_execute(ctx, plan, g1, 2, NULL)) && !(st = gk_stencil_plan_grid(plan, &g2, &gy2, &gz2))) {
            for (int z = 0; z < nz; z++)
                CU(cudaMemcpy2DAsync(back + (size_t)z * nx * ny, (size_t)nx * 8, (double *)g2 + z * gz2, (size_t)gy2 * 8,
                                     (size_t)nx * 8, (size_t)ny, cudaMemcpyDeviceToHost, s));
            CU(cudaStreamSynchronize(s));
            own = !memcmp(back, ref, n * 8) && gy2 == gy && gz2 == gz;
        }
    }
    ok(st == GK_OK && own, "stencil %dx%dx%d on the plan's own grid (pitches %lld, %lld), 3 + 2 steps: bit-exact, "
       "read where the plan says it is %s", nx, ny, nz, (long long)gy, (long long)gz,
       st ? gk_last_error() : "");
    gk_stencil_plan_destroy(plan);
    cudaFree(dev);
    free(h); free(ref); free(back);
}

static void gpu_gemm(gk_context *ctx, cudaStream_t s, int64_t m, int64_t n, int64_t k, int64_t pad)
{
    const int64_t lda = k + pad, ldb = n + pad, ldc = n + pad;
    float *a = malloc(m * lda * 4), *b = malloc(k * ldb * 4), *c = malloc(m * ldc * 4);
    double *ref = malloc(m * n * 8), *ab = malloc(m * n * 8);
    float *da, *db, *dc;
    rand_f32(a, m * lda);
    rand_f32(b, k * ldb);
    for (int64_t i = 0; i < m * ldc; i++) c[i] = -5;
    gemm_ref(a, b, ref, ab, m, n, k, lda, ldb);
    CU(cudaMalloc((void **)&da, m * lda * 4));
    CU(cudaMalloc((void **)&db, k * ldb * 4));
    CU(cudaMalloc((void **)&dc, m * ldc * 4));
    CU(cudaMemcpyAsync(da, a, m * lda * 4, cudaMemcpyHostToDevice, s));
    CU(cudaMemcpyAsync(db, b, k * ldb * 4, cudaMemcpyHostToDevice, s));
    CU(cudaMemcpyAsync(dc, c, m * ldc * 4, cudaMemcpyHostToDevice, s));
    gk_gemm_problem p;
    gk_gemm_plan *plan = NULL;
    gk_gemm_problem_init(&p, m, n, k);
    p.lda = lda; p.ldb = ldb; p.ldc = ldc;
    p.memory = GK_MEMORY_DEVICE;
    gk_status st = gk_gemm_plan_create(ctx, &p, NULL, &plan);
    if (!st)
        st = gk_gemm_plan_execute(ctx, plan, da, db, dc, NULL);
    CU(cudaMemcpyAsync(c, dc, m * ldc * 4, cudaMemcpyDeviceToHost, s));
    CU(cudaStreamSynchronize(s));
    int padok = 1;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = n; j < ldc; j++) padok &= c[i * ldc + j] == -5;
    ok(st == GK_OK && gemm_within(c, ldc, ref, ab, m, n, k) && padok, "gemm on device memory %lldx%lldx%lld, "
       "leading dimensions + %lld: within the bound, padding untouched %s", (long long)m, (long long)n, (long long)k,
       (long long)pad, st ? gk_last_error() : "");
    gk_gemm_plan_destroy(plan);
    cudaFree(da); cudaFree(db); cudaFree(dc);
    free(a); free(b); free(c); free(ref); free(ab);
}

/* The device path against the host path of the same GPU kernel: the same
 * bits (the plumbing of leading dimensions is what differs). */
static void gpu_elementwise(gk_context *ctx, cudaStream_t s, int64_t dx, int64_t dy, int64_t ld)
{
    float *h = malloc(dy * ld * 4), *want = malloc(dx * dy * 4), *back = malloc(dy * ld * 4), *dev;
    for (int64_t i = 0; i < dy * ld; i++) h[i] = -3;
    for (int64_t y = 0; y < dy; y++)
        for (int64_t x = 0; x < dx; x++) h[y * ld + x] = want[y * dx + x] = (float)(1 + unit());
    gk_status st = t_elementwise_run(ctx, want, dx, dy, 7, NULL, NULL);
    CU(cudaMalloc((void **)&dev, dy * ld * 4));
    CU(cudaMemcpyAsync(dev, h, dy * ld * 4, cudaMemcpyHostToDevice, s));
    gk_elementwise_problem p;
    gk_elementwise_plan *plan = NULL;
    gk_elementwise_problem_init(&p, dx, dy);
    p.ld = ld;
    p.memory = GK_MEMORY_DEVICE;
    if (!st) st = gk_elementwise_plan_create(ctx, &p, NULL, &plan);
    if (!st) st = gk_elementwise_plan_execute(ctx, plan, dev, 7, NULL);
    CU(cudaMemcpyAsync(back, dev, dy * ld * 4, cudaMemcpyDeviceToHost, s));
    CU(cudaStreamSynchronize(s));
    int same = 1, pad = 1;
    for (int64_t y = 0; y < dy; y++)
        for (int64_t x = 0; x < ld; x++) {
            if (x < dx) same &= !memcmp(&back[y * ld + x], &want[y * dx + x], 4);
            else pad &= back[y * ld + x] == -3;
        }
    ok(st == GK_OK && same && pad, "elementwise on device memory %lldx%lld, ld %lld: the host path's bits, padding "
       "untouched %s", (long long)dx, (long long)dy, (long long)ld, st ? gk_last_error() : "");
    gk_elementwise_plan_destroy(plan);
    cudaFree(dev);
    free(h); free(want); free(back);
}

static void gpu_part(void)
{
    gk_context_options o;
    gk_context *ctx;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_GPU;
    if (gk_context_create(&ctx, &o)) {
        printf("Bail out! GPU context: %s\n", gk_last_error());
        exit(1);
    }
    cudaStream_t s;
    CU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    ok(gk_context_set_stream(ctx, s) == GK_OK && gk_context_stream(ctx) == (void *)s, "the caller's stream is the "
       "context's");
    gpu_apsp(ctx, s, 300, 300);      /* V not a multiple of the tile: through the padded matrix */
    gpu_apsp(ctx, s, 300, 333);      /* and a leading dimension */
    gpu_apsp(ctx, s, 512, 512);      /* a multiple of every tile: in place */
    gpu_stencil(ctx, s, 37, 29, 11, 37, 37 * 29);             /* dense */
    gpu_stencil(ctx, s, 37, 29, 11, 40, 40 * 31);             /* pitches: one 3D copy */
    gpu_stencil(ctx, s, 37, 29, 11, 41, 41 * 29 + 5);         /* a plane pitch that is no row multiple */
    gpu_gemm(ctx, s, 128, 96, 64, 0);                         /* dense: in place */
    gpu_gemm(ctx, s, 77, 53, 45, 3);                          /* leading dimensions: copies */
    gpu_elementwise(ctx, s, 1000, 37, 1000);
    gpu_elementwise(ctx, s, 1001, 37, 1003);
    int n = 0;
    if (gk_gpu_count(&n) == GK_OK && n > 1) {
        cudaStream_t s1;
        int cur;
        cudaGetDevice(&cur);
        CU(cudaSetDevice(1));
        CU(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
        CU(cudaSetDevice(cur));
        ok(gk_context_set_stream(ctx, s1) == GK_EINVAL && strstr(gk_last_error(), "belongs to GPU 1"),
           "a stream of another GPU: %s", gk_last_error());
        cudaStreamDestroy(s1);
    } else {
        skip("one GPU", "a stream of another GPU");
    }
    ok(gk_context_set_stream(ctx, NULL) == GK_OK && gk_context_stream(ctx) != (void *)s,
       "NULL: gk's own stream again");
    gk_context_destroy(ctx);
    cudaStreamDestroy(s);
}
#endif

int main(void)
{
    gk_context_options o;
    gk_context *ctx, *other;
    no_plan();
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_CPU;
    if (gk_context_create(&ctx, &o) || gk_context_create(&other, &o)) {
        printf("Bail out! CPU context: %s\n", gk_last_error());
        return 1;
    }
    versions();
    struct_sizes(ctx);
    apsp_plans(ctx, other);
    stencil_plans(ctx, other);
    gemm_plans(ctx);
    elementwise_plans(ctx);
    cpu_context_rules(ctx);
    gk_context_destroy(ctx);
    gk_context_destroy(other);
    char why[256];
    if (!gk_gpu_usable(why, sizeof why)) {
        skip(why, "GPU: device memory, streams");
        return done_testing();
    }
#ifdef GK_HAVE_CUDA
    gpu_part();
#endif
    return done_testing();
}
