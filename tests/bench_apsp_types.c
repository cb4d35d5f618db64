/* bench_apsp_types.c - the speed rows of issue 24 on one GPU (not a test:
 * built by `make check`, run by hand; bench/apsp-results.md has its rows):
 *   bench_apsp_types N...
 * for each n, on the random matrix of `gk bench apsp` (density 0.3, weights
 * <= 1000, seed 20261122) as each element type: the int32 distances
 * (the tuned kernels), int32 with predecessors, float32, float64 and int64
 * distances: the rounds' time, T updates/s (n^3 / s) and the type's
 * min-plus ceiling measured in the same run (chains of the same add + min),
 * and int32 with predecessors against int32 alone; float32 and float64 also
 * with another thread shape of the space (APSPX_F32_TN=4: 8 x 4,
 * APSPX_F64_TM=8: 8 x 4; an NVRTC compile).  The int32 distances with and
 * without predecessors must agree, and each float type's two shapes (checked:
 * exit 1 if not). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GK_HAVE_CUDA
#include "gpu/apsp_gpu.h"

static void *as_type(const int32_t *m, int64_t n, gk_dtype t)
{
    void *o = malloc((size_t)(n * n) * gk_dtype_size(t));
    if (!o) return NULL;
    for (int64_t i = 0; i < n * n; i++) {
        const int inf = m[i] == GK_APSP_INF;
        switch (t) {
        case GK_DTYPE_INT32: ((int32_t *)o)[i] = m[i]; break;
        case GK_DTYPE_INT64: ((int64_t *)o)[i] = inf ? INT64_C(4611686018427387903) : m[i]; break;
        case GK_DTYPE_FLOAT32: ((float *)o)[i] = inf ? 1.0f / 0.0f : (float)m[i]; break;
        default: ((double *)o)[i] = inf ? 1.0 / 0.0 : (double)m[i]; break;
        }
    }
    return o;
}

/* one timed run (after an untimed one) of type t; out: the result (may be NULL) */
static gk_status one(const gk_device_info *dev, int32_t n, const int32_t *m, gk_dtype t, int pred, int alt,
                     double *sec, double *ceil, void *out, int32_t *pout)
{
    gk_apsp_gpu *c = NULL;
    void *x = as_type(m, n, t);
    float ms = 0;
    gk_config cfg;
    gk__config_clear(&cfg);
    if (alt)
        gk__config_parse("APSPX_F32_TN=4,APSPX_F64_TM=8", &cfg);
    gk_status st = x ? GK_OK : GK_ENOMEM;
    if (!st && !(st = gk__apsp_gpu_open_typed(&c, dev, NULL, n, t, pred, &cfg)) && pred && alt)
        gk__apsp_gpu_set_packed(c, 0);   /* int32 + pred "alt": the general product */
    if (!st && !(st = gk__apsp_gpu_upload_typed(c, x, NULL)) && !(st = gk__apsp_gpu_run_typed(c, NULL))
        && !(st = gk__apsp_gpu_upload_typed(c, x, NULL)) && !(st = gk__apsp_gpu_run_typed(c, &ms))
        && !(st = gk__apsp_gpu_ceiling_typed(c, t, ceil)) && out)
        st = gk__apsp_gpu_download_typed(c, out, pred ? pout : NULL, NULL);
    gk__apsp_gpu_close(c);
    free(x);
    *sec = ms * 1e-3;
    return st;
}
#endif

int main(int argc, char **argv)
{
#ifndef GK_HAVE_CUDA
    (void)argc; (void)argv;
    fprintf(stderr, "bench_apsp_types: built without CUDA\n");
    return 77;
#else
    gk_device_info dev;
    int prev;
    gk_device_info_init(&dev);
    if (argc < 2 || gk_gpu_info(0, &dev) || gk__gpu_enter(0, &prev)) {
        fprintf(stderr, "usage: bench_apsp_types N... (needs a GPU): %s\n", gk_last_error());
        return 2;
    }
    int rc = 0;
    printf("device: %s\n", dev.name);
    printf("%7s %-14s %9s %9s %9s %7s\n", "n", "type", "seconds", "T/s", "ceiling", "%ceil");
    for (int a = 1; a < argc; a++) {
        const int32_t n = atoi(argv[a]);
        const size_t nn = (size_t)n * n;
        int32_t *m = malloc(nn * 4), *r32 = malloc(nn * 4), *rp = malloc(nn * 4), *rg = malloc(nn * 4);
        int32_t *pp = malloc(nn * 4), *pg = malloc(nn * 4);
        float *f32 = malloc(nn * 4), *f32a = malloc(nn * 4);
        double *f64 = malloc(nn * 8), *f64a = malloc(nn * 8);
        if (!m || !r32 || !rp || !rg || !pp || !pg || !f32 || !f32a || !f64 || !f64a || gk_apsp_random_matrix(m, n, 0.3, 20261122, 1000)) {
            fprintf(stderr, "n = %d: %s\n", n, gk_last_error());
            return 1;
        }
        const struct { gk_dtype t; int pred, alt; const char *name; void *out; int32_t *pout; } rows[] = {
            { GK_DTYPE_INT32, 0, 0, "int32", r32, NULL }, { GK_DTYPE_INT32, 1, 0, "int32+pred", rp, pp },
            { GK_DTYPE_INT32, 1, 1, "int32+pred gen", rg, pg },
            { GK_DTYPE_FLOAT32, 0, 0, "float32", f32, NULL }, { GK_DTYPE_FLOAT32, 0, 1, "float32 alt", f32a, NULL },
            { GK_DTYPE_FLOAT64, 0, 0, "float64", f64, NULL }, { GK_DTYPE_FLOAT64, 0, 1, "float64 alt", f64a, NULL },
            { GK_DTYPE_INT64, 0, 0, "int64", NULL, NULL }, { GK_DTYPE_FLOAT32, 1, 0, "float32+pred", NULL, NULL },
        };
        double t32 = 0;
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            double s = 0, ceil = 0;
            gk_status st = one(&dev, n, m, rows[r].t, rows[r].pred, rows[r].alt, &s, &ceil, rows[r].out, rows[r].pout);
            if (st) {
                printf("%7d %-14s failed: %s\n", n, rows[r].name, gk_last_error());
                rc = 1;
                continue;
            }
            const double tps = (double)n * n * n / s / 1e12;
            printf("%7d %-14s %9.3f %9.2f %9.2f %6.1f%%", n, rows[r].name, s, tps, ceil / 1e12, 100 * tps / (ceil / 1e12));
            if (r == 0) t32 = s;
            else if (rows[r].t == GK_DTYPE_INT32) printf("  %.2fx int32's time", s / t32);
            printf("\n");
            fflush(stdout);
        }
        int same = memcmp(r32, rp, (size_t)n * n * 4) == 0;
        printf("%7d int32 distances with and without predecessors: %s\n", n, same ? "identical" : "DIFFER");
        rc |= !same;
        int samep = memcmp(rp, rg, nn * 4) == 0 && memcmp(pp, pg, nn * 4) == 0;
        printf("%7d int32+pred packed and general products (distances, predecessors): %s\n", n,
               samep ? "identical" : "DIFFER");
        rc |= !samep;
        /* the two shapes give the same bits */
        int same32 = memcmp(f32, f32a, nn * 4) == 0, same64 = memcmp(f64, f64a, nn * 8) == 0;
        printf("%7d float32 both shapes: %s; float64 both shapes: %s\n", n, same32 ? "identical" : "DIFFER",
               same64 ? "identical" : "DIFFER");
        rc |= !same32 || !same64;
        free(m); free(r32); free(rp); free(rg); free(pp); free(pg); free(f32); free(f32a); free(f64); free(f64a);
    }
    return rc;
#endif
}
