/* tunable_elementwise.c - the elementwise kernel as a tunable kernel
 * (worker side): timing of GK_EW_TUNE_ITERS iterations on a random square
 * matrix, validation by the per-iteration check on an awkward shape, and
 * verification of a winner the same way at its target size. */
#include "tune/tunables.h"
#include "gpu/elementwise_gpu.h"

#include <stdlib.h>
#include <string.h>

/* The random input stays between requests: the worker measures many
 * configurations of one size in a row.  Process-wide on purpose: the
 * worker process (gktune --worker, one request at a time on one thread)
 * alone calls the measure/validate/verify functions (see device.c). */
static struct { float *a; int64_t n; uint64_t seed; } input;

static gk_status random_matrix(int64_t n, uint64_t seed, const float **out)
{
    if (!input.a || input.n != n || input.seed != seed) {
        free(input.a);
        input.a = NULL;
        gk_status st = gk__xmalloc((void **)&input.a, (size_t)(n * n) * sizeof(float), "the tuning matrix");
        if (st) return st;
        gk_elementwise_random(input.a, n, n, seed);
        input.n = n;
        input.seed = seed;
    }
    *out = input.a;
    return GK_OK;
}

static gk_status gk__elementwise_tune_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps,
                                              double *med, double *min)
{
    const float *in;
    gk_elementwise_gpu *g = NULL;
    double ms[64];
    if (reps < 1 || reps > 64) reps = 3;
    gk_status st = random_matrix(size, seed, &in);
    if (!st) st = gk__elementwise_gpu_open(&g, gk__tune_device(), NULL, size, size, cfg);
    for (int r = -1; r < reps && !st; r++) {       /* r = -1: warm-up; every run from the same input */
        float t;
        st = gk__elementwise_gpu_upload(g, in, NULL);
        if (!st) st = gk__elementwise_gpu_run(g, GK_EW_TUNED, GK_EW_TUNE_ITERS, &t);
        if (!st && r >= 0) ms[r] = t;
    }
    gk__elementwise_gpu_close(g);
    if (!st) *med = gk__median(ms, reps, min);
    return st;
}

static gk_status checked(int64_t dimx, int64_t dimy, int niter, const gk_config *cfg, uint64_t seed)
{
    size_t n = (size_t)(dimx * dimy);
    float *in = NULL, *out = NULL;
    gk_elementwise_gpu *g = NULL;
    gk__elementwise_diff d;
    memset(&d, 0, sizeof d);
    gk_status st = gk__xmalloc((void **)&in, 2 * n * sizeof *in, "elementwise validation");
    if (st) return st;
    out = in + n;
    gk_elementwise_random(in, dimx, dimy, seed);
    st = gk__elementwise_gpu_open(&g, gk__tune_device(), NULL, dimx, dimy, cfg);
    if (!st) st = gk__elementwise_gpu_upload(g, in, NULL);
    if (!st) st = gk__elementwise_gpu_run(g, GK_EW_TUNED, niter, NULL);
    if (!st) st = gk__elementwise_gpu_download(g, out, NULL);
    if (!st) st = gk__elementwise_gpu_check(g, GK_EW_TUNED, in, out, niter, &d);
    gk__elementwise_gpu_close(g);
    free(in);
    return st;
}

static gk_status gk__elementwise_tune_validate(const gk_config *cfg, uint64_t seed)
{
    /* 1031 columns (prime: a partial float4 and no tile divides it), 37 rows;
     * 7 iterations: UNROLL's remainder loop runs for every UNROLL > 1 */
    return checked(1031, 37, 7, cfg, seed ^ 0xe1e3e47);
}

static gk_status gk__elementwise_tune_verify(int64_t size, const gk_config *cfg, uint64_t seed)
{
    return checked(size, size, GK_EW_TUNE_ITERS, cfg, seed);
}

/* The registry's entry (src/tune/registry.c, declared in tunables.h):
 * kernel, space, image, image name, size classes and their unit, hidden. */
const gk_tunable gk__tunable_elementwise = {
    "elementwise", &gk__space_elementwise, &gk__image_elementwise, "elementwise", 1,
    { 8192 }, "columns = rows", 0,
    gk__elementwise_tune_measure, gk__elementwise_tune_validate, gk__elementwise_tune_verify
};
