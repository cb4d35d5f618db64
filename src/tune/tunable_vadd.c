/* tunable_vadd.c - the vector add as a (hidden) tunable kernel: the smallest
 * end-to-end exercise of gktune's machinery (NVRTC variants, the measuring
 * worker, validation, the cache) for tests. */
#include "tune/tunables.h"

#include <stdlib.h>
#include <string.h>

static gk_status gk__vadd_measure(int64_t size, const gk_config *cfg, uint64_t seed, int reps, double *med, double *min)
{
    double ms[64];
    if (reps < 1 || reps > 64) reps = 5;
    gk_status st = gk__vadd_run(gk__tune_device(), (size_t)size, cfg, seed, reps, ms, NULL);
    if (st) return st;
    *med = gk__median(ms, reps, min);
    return GK_OK;
}

static gk_status gk__vadd_validate(const gk_config *cfg, uint64_t seed)
{
    size_t n = 100003;
    float *check;
    double ms;
    gk_status st = gk__xmalloc((void **)&check, n * sizeof *check, "vadd check");
    if (st) return st;
    st = gk__vadd_run(gk__tune_device(), n, cfg, seed, 1, &ms, check);
    free(check);
    return st;
}

static gk_status gk__vadd_verify(int64_t size, const gk_config *cfg, uint64_t seed)
{
    float *check;
    double ms;
    gk_status st = gk__xmalloc((void **)&check, (size_t)size * sizeof *check, "vadd check");
    if (st) return st;
    st = gk__vadd_run(gk__tune_device(), (size_t)size, cfg, seed, 1, &ms, check);
    free(check);
    return st;
}

/* The registry's entry (src/tune/registry.c, declared in tunables.h):
 * kernel, space, image, image name, size classes and their unit, hidden. */
const gk_tunable gk__tunable_vadd = {
    "vadd", &gk__space_vadd, &gk__image_vadd, "vadd", 1, { 1 << 24 }, "floats", 1,
    gk__vadd_measure, gk__vadd_validate, gk__vadd_verify
};
