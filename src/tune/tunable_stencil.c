/* tunable_stencil.c - the stencil as a tunable kernel (worker side): timing
 * of STEPS sweeps on a random grid (reported per step), validation against
 * the CPU on an odd-sized grid, and verification of a winner against the CPU
 * at its target size (five steps: a full pass and a remainder of any
 * TSTEPS). */
#include "tune/tunables.h"
#include "gpu/stencil_gpu.h"
#include "cpu/stencil_cpu.h"
#include "core/stencil_core.h"

#include <stdlib.h>
#include <string.h>

#define STEPS 12              /* a multiple of every TSTEPS (1..4): whole passes */

/* The random input stays between requests: the worker measures many
 * configurations of one size in a row.  Process-wide on purpose: the
 * worker process (gktune --worker, one request at a time on one thread)
 * alone calls the measure/validate/verify functions (see device.c). */
static struct { double *g; int n; uint64_t seed; } input;

static gk_status random_grid(int n, uint64_t seed, const double **out)
{
    if (!input.g || input.n != n || input.seed != seed) {
        free(input.g);
        input.g = NULL;
        gk_status st = gk__xmalloc((void **)&input.g, (size_t)n * n * n * sizeof(double), "the tuning grid");
        if (st) return st;
        gk_grid_random(input.g, n, n, n, seed);
        input.n = n;
        input.seed = seed;
    }
    *out = input.g;
    return GK_OK;
}

static gk_status gk__stencil_tune_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps,
                                          double *med, double *min)
{
    const double *in;
    gk_stencil_gpu *ctx = NULL;
    double ms[64];
    int n = (int)size;
    if (reps < 1 || reps > 64) reps = 3;
    gk_status st = random_grid(n, seed, &in);
    if (!st) st = gk__stencil_gpu_open(&ctx, gk__tune_device(), NULL, n, n, n, gk_stencil_default_coeffs, cfg);
    if (!st) { float up; st = gk__stencil_gpu_upload(ctx, in, &up); }
    for (int r = -1; r < reps && !st; r++) {       /* r = -1: warm-up */
        float run;
        st = gk__stencil_gpu_run(ctx, STEPS, &run);
        if (!st && r >= 0) ms[r] = run / STEPS;
    }
    gk__stencil_gpu_close(ctx);
    if (!st) *med = gk__median(ms, reps, min);
    return st;
}

/* GPU (cfg) and CPU on the same grid, `steps` steps, compared. */
static gk_status against_cpu(int nx, int ny, int nz, int steps, const gk_config *cfg, uint64_t seed)
{
    size_t n = (size_t)nx * ny * nz;
    double *a = NULL, *b = NULL;
    gk_stencil_gpu *ctx = NULL;
    gk__stencil_diff d;
    float ms;
    gk_status st = gk__xmalloc((void **)&a, 2 * n * sizeof *a, "stencil validation");
    if (st) return st;
    b = a + n;
    gk_grid_random(a, nx, ny, nz, seed);
    memcpy(b, a, n * sizeof *a);
    double scale = gk__grid_max_abs(a, (int64_t)n);
    st = gk__stencil_gpu_open(&ctx, gk__tune_device(), NULL, nx, ny, nz, gk_stencil_default_coeffs, cfg);
    if (!st) st = gk__stencil_gpu_upload(ctx, a, &ms);
    if (!st) st = gk__stencil_gpu_run(ctx, steps, &ms);
    if (!st) st = gk__stencil_gpu_download(ctx, a, &ms);
    gk__stencil_gpu_close(ctx);
    if (!st) st = gk__stencil_cpu(b, nx, ny, nz, gk_stencil_default_coeffs, steps, GK_CPU_ISA_AUTO);
    if (!st) st = gk__stencil_compare(a, b, (int64_t)n, steps, scale, &d);
    free(a);
    return st;
}

static gk_status gk__stencil_tune_validate(const gk_config *cfg, uint64_t seed)
{
    return against_cpu(37, 29, 23, 5, cfg, seed ^ 0x57e9c11);
}

static gk_status gk__stencil_tune_verify(int64_t size, const gk_config *cfg, uint64_t seed)
{
    return against_cpu((int)size, (int)size, (int)size, 5, cfg, seed);   /* TSTEPS 4: a pass + a remainder */
}

/* The registry's entry (src/tune/registry.c, declared in tunables.h):
 * kernel, space, image, image name, size classes and their unit, hidden. */
const gk_tunable gk__tunable_stencil = {
    "stencil", &gk__space_stencil, &gk__image_stencil, "stencil", 2, { 256, 512 },
    "points per axis", 0,
    gk__stencil_tune_measure, gk__stencil_tune_validate, gk__stencil_tune_verify
};
