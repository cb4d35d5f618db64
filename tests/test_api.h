/* test_api.h - the tests' shorthands for gk's one-call jobs: each builds the
 * problem (dense, host memory) and the options with their _init functions
 * (struct_size set), so that a test reads as the job it checks. */
#ifndef GK_TEST_API_H
#define GK_TEST_API_H

#include "gk.h"

static inline gk_report t_report(void)
{
    gk_report r;
    gk_report_init(&r);
    return r;
}

static inline gk_apsp_options t_apsp_opts(int check, const char *config, int precision)
{
    gk_apsp_options o;
    gk_apsp_options_init(&o);
    o.check = check;
    o.config = config;
    o.precision = precision;
    return o;
}

static inline gk_stencil_options t_stencil_opts(int check, const char *config)
{
    gk_stencil_options o;
    gk_stencil_options_init(&o);
    o.check = check;
    o.config = config;
    return o;
}

static inline gk_gemm_options t_gemm_opts(int check, const char *config)
{
    gk_gemm_options o;
    gk_gemm_options_init(&o);
    o.check = check;
    o.config = config;
    return o;
}

static inline gk_elementwise_options t_elementwise_opts(int check, const char *config)
{
    gk_elementwise_options o;
    gk_elementwise_options_init(&o);
    o.check = check;
    o.config = config;
    return o;
}

/* gk_gpu_info into an initialised struct. */
static inline gk_status t_gpu_info(int ordinal, gk_device_info *d)
{
    gk_device_info_init(d);
    return gk_gpu_info(ordinal, d);
}

/* gk_apsp_run on a dense host V x V matrix. */
static inline gk_status t_apsp_solve(gk_context *ctx, int32_t *dist, int64_t V, const gk_apsp_options *o,
                                     gk_report *rep)
{
    gk_apsp_problem p;
    gk_apsp_problem_init(&p, V);
    return gk_apsp_run(ctx, &p, dist, o, rep);
}

static inline gk_status t_stencil_run(gk_context *ctx, double *grid, int64_t nx, int64_t ny, int64_t nz,
                                      const double *coeffs, int64_t steps, const gk_stencil_options *o,
                                      gk_report *rep)
{
    gk_stencil_problem p;
    gk_stencil_problem_init(&p, nx, ny, nz);
    p.coeffs = coeffs;
    return gk_stencil_run(ctx, &p, grid, steps, o, rep);
}

static inline gk_status t_gemm_run(gk_context *ctx, const float *a, const float *b, float *c, int64_t m, int64_t n,
                                   int64_t k, const gk_gemm_options *o, gk_report *rep)
{
    gk_gemm_problem p;
    gk_gemm_problem_init(&p, m, n, k);
    return gk_gemm_run(ctx, &p, a, b, c, o, rep);
}

static inline gk_status t_elementwise_run(gk_context *ctx, float *a, int64_t dimx, int64_t dimy, int64_t niter,
                                          const gk_elementwise_options *o, gk_report *rep)
{
    gk_elementwise_problem p;
    gk_elementwise_problem_init(&p, dimx, dimy);
    return gk_elementwise_run(ctx, &p, a, niter, o, rep);
}

#endif /* GK_TEST_API_H */
