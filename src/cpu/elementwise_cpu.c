/* elementwise_cpu.c - the CPU elementwise backend and its reference loop. */
#include "cpu/elementwise_cpu.h"
#include "core/elementwise.h"

#include <string.h>

#define CHUNK 64                 /* elements per class per chunk: 4 x 64 columns */

/* One class's run: niter steps of each of its n elements, stopped when a
 * step moved none of them: each is then NaN or a fixed point of the step (a
 * pure function of the value), so every later step would return it again.
 * The cos and sin runs stop after about 10 steps from [1, 2), the tan runs
 * once all are NaN; the bits are those of all niter steps. */
#define RUN(F)                                                                  \
    for (int64_t it = 0; it < niter; it++) {                                    \
        int moved = 0;                                                          \
        _Pragma("omp simd reduction(|:moved)")                                  \
        for (int j = 0; j < n; j++) {                                           \
            float a_ = (float)F((double)v[j]);                                  \
            float b_ = a_ + 1.0f;                                               \
            float n_ = v[j] + sqrtf(b_);                                        \
            moved |= (n_ != v[j]) & (n_ == n_);                                 \
            v[j] = n_;                                                          \
        }                                                                       \
        if (!moved) break;                                                      \
    }

static void run_class(float *v, int n, int cls, int64_t niter)
{
    switch (cls) {
    case 0: RUN(log) break;
    case 1: RUN(cos) break;
    case 2: RUN(sin) break;
    default: RUN(tan) break;
    }
}

gk_status gk__elementwise_cpu(float *a, int64_t dimx, int64_t dimy, int64_t niter)
{
    if (dimx < 1 || dimy < 1 || niter < 0)
        return gk__fail(GK_EINVAL, "elementwise: matrix %lldx%lld, %lld iterations", (long long)dimx,
                        (long long)dimy, (long long)niter);
    if (niter == 0)
        return GK_OK;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int64_t y = 0; y < dimy; y++) {
        float *row = a + y * dimx;
        float v[4][CHUNK];
        for (int64_t x0 = 0; x0 < dimx; x0 += 4 * CHUNK) {
            int64_t w = dimx - x0 < 4 * CHUNK ? dimx - x0 : 4 * CHUNK;
            int cnt[4] = { 0, 0, 0, 0 };
            /* x0 is a multiple of 4: column x0 + j has class j % 4 */
            for (int j = 0; j < (int)w; j++)
                v[j & 3][cnt[j & 3]++] = row[x0 + j];
            for (int c = 0; c < 4; c++)
                if (cnt[c])
                    run_class(v[c], cnt[c], c, niter);
            for (int c = 0; c < 4; c++)
                cnt[c] = 0;
            for (int j = 0; j < (int)w; j++)
                row[x0 + j] = v[j & 3][cnt[j & 3]++];
        }
    }
    return GK_OK;
}

gk_status gk__elementwise_cpu_reference(float *a, int64_t dimx, int64_t dimy, int64_t niter)
{
    if (dimx < 1 || dimy < 1 || niter < 0)
        return gk__fail(GK_EINVAL, "elementwise: matrix %lldx%lld, %lld iterations", (long long)dimx,
                        (long long)dimy, (long long)niter);
    for (int64_t y = 0; y < dimy; y++)
        for (int64_t x = 0; x < dimx; x++) {
            float v = a[y * dimx + x];
            for (int64_t it = 0; it < niter; it++)
                v = gk__ew_step(v, (int)(x % 4));
            a[y * dimx + x] = v;
        }
    return GK_OK;
}

/* The CPU backend's per-iteration check: out (niter iterations from in)
 * against one step of its own niter - 1 result, and its one-iteration
 * result against one step of in. */
gk_status gk__elementwise_cpu_check(const float *in, const float *out, int64_t dimx, int64_t dimy, int niter, float *tmp,
                           gk__elementwise_diff *d)
{
    static const int ulps[4] = GK_ELEMENTWISE_CPU_ULPS;
    size_t n = (size_t)(dimx * dimy);
    gk_status st;
    if (niter == 0) {
        d->n += (int64_t)n;
        if (memcmp(in, out, n * sizeof *in)) {
            d->outside++;
            return gk__fail(GK_EMISMATCH, "elementwise: 0 iterations changed the matrix");
        }
        return GK_OK;
    }
    memcpy(tmp, in, n * sizeof *tmp);
    if ((st = gk__elementwise_cpu(tmp, dimx, dimy, 1)) || (st = gk__elementwise_step_check(in, tmp, dimx, dimy, ulps, d)))
        return st;
    if (niter == 1)
        return gk__elementwise_step_check(in, out, dimx, dimy, ulps, d);
    memcpy(tmp, in, n * sizeof *tmp);
    if ((st = gk__elementwise_cpu(tmp, dimx, dimy, niter - 1)))
        return st;
    return gk__elementwise_step_check(tmp, out, dimx, dimy, ulps, d);
}
