/* core/elementwise.h - the elementwise kernel's step, as every backend must
 * compute it, and the enclosure the check uses (include/gk/elementwise.h
 * says what is checked and why). */
#ifndef GK_CORE_ELEMENTWISE_H
#define GK_CORE_ELEMENTWISE_H

#include "core/internal.h"

#include <math.h>

/* f of column class cls (x % 4: log, cos, sin, tan), in double. */
static inline double gk__ew_f(double v, int cls)
{
    switch (cls & 3) {
    case 0: return log(v);
    case 1: return cos(v);
    case 2: return sin(v);
    default: return tan(v);
    }
}

/* One step with f evaluated in double and rounded once to float (the
 * correctly rounded f but for double-rounding cases of probability ~2^-29),
 * then +1, sqrt and + in float, IEEE round to nearest. */
static inline float gk__ew_step(float v, int cls)
{
    float a = (float)gk__ew_f((double)v, cls);
    float b = a + 1.0f;
    return v + sqrtf(b);
}

/* The floats one step of x may give with an f within `ulps` ulps of the
 * correctly rounded one (include/gk/elementwise.h). */
typedef struct gk__ew_box {
    float lo, hi;        /* the interval for a number result (when !nan_req) */
    int nan_req;         /* every such f gives NaN */
    int nan_ok;          /* NaN is one of the possible results */
} gk__ew_box;

void gk__ew_enclose(float x, int cls, int ulps, gk__ew_box *b);

/* Largest element count: the bytes (x 4) fit in one object, and each axis
 * fits in an int (the GPU kernels index with 32-bit rows and columns). */
#define GK_EW_MAX_AXIS 0x7fffffff

/* Iterations of the benchmark and of gktune's timings: 100 makes the kernel
 * compute-bound (on the H200, 8192 x 8192: about 0.13 ms of memory traffic
 * against milliseconds of steps), as in the report, while a baseline run
 * stays well under a second (bench/elementwise-results.md). */
#define GK_EW_TUNE_ITERS 100

/* The check's counts. */
typedef struct gk__elementwise_diff {
    int64_t n;             /* elements checked */
    int64_t outside;       /* outside their enclosure (or NaN where NaN is not allowed, or a
                              number where NaN is required) */
    int64_t first;         /* the first such element (of the first failing call) when outside > 0 */
    int64_t nan;           /* NaN results of the last call (the result it checked) */
    int64_t nan_allowed;   /* elements whose enclosure allows NaN and a number */
    double max_ulp;        /* largest |result - the correctly rounded step| in ulps (numbers only) */
} gk__elementwise_diff;

/* The per-iteration check: out[i] against E_u(in[i]) for every element,
 * u = ulps[x % 4].  Accumulates into *d (zero it first); GK_EMISMATCH with
 * the first offending element (row, column, values, enclosure) when any is
 * outside. */
gk_status gk__elementwise_step_check(const float *in, const float *out, int64_t dimx, int64_t dimy,
                                           const int ulps[4], gk__elementwise_diff *d);

#endif /* GK_CORE_ELEMENTWISE_H */
