/* tunable_gemm.c - the matrix multiply as a tunable kernel (worker side):
 * timing of C = A B at M = N = K = size on random matrices, validation
 * against the plain CPU reference on awkward shapes (no dimension a
 * multiple of any tile, K below and above a k chunk, N odd: the unaligned
 * kernel), and verification of a winner at its target size against the
 * reference on sampled rows. */
#include "tune/tunables.h"
#include "gpu/gemm_gpu.h"
#include "cpu/gemm_cpu.h"

#include <stdlib.h>
#include <string.h>

/* The random input stays between requests: the worker measures many
 * configurations of one size in a row.  Process-wide on purpose: the
 * worker process (gktune --worker, one request at a time on one thread)
 * alone calls the measure/validate/verify functions (see device.c). */
static struct { float *a, *b; int n; uint64_t seed; } input;

static gk_status random_input(int n, uint64_t seed)
{
    if (!input.a || input.n != n || input.seed != seed) {
        free(input.a);
        input.a = NULL;
        gk_status st = gk__xmalloc((void **)&input.a, (size_t)n * n * 2 * sizeof(float), "the tuning matrices");
        if (st) return st;
        input.b = input.a + (size_t)n * n;
        gk_matrix_random(input.a, n, n, seed);
        gk_matrix_random(input.b, n, n, seed ^ 0xb);
        input.n = n;
        input.seed = seed;
    }
    return GK_OK;
}

static gk_status gk__gemm_tune_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps, double *med,
                                       double *min)
{
    gk_gemm_gpu *g = NULL;
    double ms[64];
    int n = (int)size;
    if (reps < 1 || reps > 64) reps = 3;
    gk_status st = random_input(n, seed);
    if (!st) st = gk__gemm_gpu_open(&g, gk__tune_device(), NULL, n, n, n, cfg, 1);
    if (!st) st = gk__gemm_gpu_upload(g, input.a, input.b, NULL);
    for (int r = -1; r < reps && !st; r++) {      /* r = -1: warm-up */
        float t;
        st = gk__gemm_gpu_run(g, GK_GEMM_TUNED, &t);
        if (!st && r >= 0) ms[r] = t;
    }
    gk__gemm_gpu_close(g);
    if (!st) *med = gk__median(ms, reps, min);
    return st;
}

/* GPU (cfg) on an m x n x k problem against the reference (nsample rows). */
static gk_status against_cpu(int m, int n, int k, const gk_config *cfg, uint64_t seed, int nsample)
{
    float *a = NULL;
    gk_gemm_gpu *g = NULL;
    gk__gemm_diff d;
    gk_status st = gk__xmalloc((void **)&a, ((size_t)m * k + (size_t)k * n + (size_t)m * n) * sizeof *a,
                               "gemm validation");
    if (st) return st;
    float *b = a + (size_t)m * k, *c = b + (size_t)k * n;
    gk_matrix_random(a, m, k, seed);
    gk_matrix_random(b, k, n, seed ^ 0xb);
    st = gk__gemm_gpu_open(&g, gk__tune_device(), NULL, m, n, k, cfg, 1);
    if (!st) st = gk__gemm_gpu_upload(g, a, b, NULL);
    if (!st) st = gk__gemm_gpu_run(g, GK_GEMM_TUNED, NULL);
    if (!st) st = gk__gemm_gpu_download(g, c, NULL);
    gk__gemm_gpu_close(g);
    if (!st) st = gk__gemm_check_rows(a, b, c, m, n, k, nsample, seed, &d);
    free(a);
    return st;
}

static gk_status gk__gemm_tune_validate(const gk_config *cfg, uint64_t seed)
{
    gk_status st;
    seed ^= 0x6e33;
    /* odd everywhere (the unaligned kernel), then aligned with edge blocks
     * and a k remainder (the fast path and the guarded path together) */
    if ((st = against_cpu(263, 331, 97, cfg, seed, 1 << 30)))
        return st;
    return against_cpu(300, 520, 268, cfg, seed + 1, 1 << 30);
}

static gk_status gk__gemm_tune_verify(int64_t size, const gk_config *cfg, uint64_t seed)
{
    return against_cpu((int)size, (int)size, (int)size, cfg, seed, 64);
}

/* The registry's entry (src/tune/registry.c, declared in tunables.h):
 * kernel, space, image, image name, size classes and their unit, hidden. */
const gk_tunable gk__tunable_gemm = {
    "gemm", &gk__space_gemm, &gk__image_gemm, "gemm", 2, { 4096, 8192 }, "M = N = K", 0,
    gk__gemm_tune_measure, gk__gemm_tune_validate, gk__gemm_tune_verify
};
