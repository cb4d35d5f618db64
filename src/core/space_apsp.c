/* space_apsp.c - the APSP GPU kernel's tunable parameters (the one
 * description: apsp.cu has no defaults, the fatbin is built from these) and
 * the rules that exclude impossible combinations before any compile
 * (compiled in every build). */
#include "core/space.h"
#include "core/apsp_types.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Defaults: APSP_BK=16, APSP_UNROLL=16 since phases 3-5 run in gk_apsp_mp3
 * (cp.async stages, a whole chunk unrolled: 124 registers, no spills; 14.92 T/s
 * at n = 25000 on the H200 against 14.70 for BK=8, UNROLL=8,
 * `git log -p -- bench/apsp-speed-results.md`).
 * Candidate values: wide enough to hold every configuration that came within
 * 5 % of the best in the H200 sweeps (bench/apsp-results.md and a first
 * 103-variant gktune run), small enough (432 combinations) that
 * `gktune --exhaustive` checks the budgeted search in minutes.  --config
 * takes any value the ranges and the constraints allow, listed or not. */
static const gk_param_def apsp_params[] = {
    { "APSP_TILE", 128, 32, 256, 2, { 64, 128 }, "tile edge (output tile per block, pivot tile)" },
    { "APSP_TM", 8, 4, 32, 2, { 4, 8 }, "output rows per thread (multiple of 4)" },
    { "APSP_TN", 8, 4, 32, 2, { 4, 8 }, "output columns per thread (multiple of 4)" },
    { "APSP_BK", 16, 4, 256, 3, { 8, 16, 32 }, "k chunk per shared-memory stage" },
    { "APSP_UNROLL", 16, 1, 64, 3, { 4, 8, 16 }, "unroll of the k loop inside a chunk" },
    { "APSP_MINB", 2, 1, 32, 2, { 1, 2 }, "minimum blocks per SM (__launch_bounds__)" },
    { "MAXRREG", 0, 0, 255, 3, { 0, 96, 168 }, "--maxrregcount (0: none)" },
    /* the exact 16-bit path's kernel (128-wide tiles, two columns per
     * 32-bit word); one candidate each: the tuner measures the int32 kernel */
    { "APSP16_TM", 8, 4, 16, 1, { 8 }, "16-bit kernel: output rows per thread (multiple of 4)" },
    { "APSP16_TW", 4, 4, 16, 1, { 4 }, "16-bit kernel: output words (2 columns each) per thread (multiple of 4)" },
    { "APSP16_BK", 16, 8, 64, 1, { 16 }, "16-bit kernel: k chunk per shared-memory stage (multiple of 8)" },
    /* the typed kernels' product (apsp.cu's "typed" section, issue 24):
     * TM x TN outputs per thread of a 64-wide tile (GK_APSP_ORDER_TILE:
     * fixed, it decides the bits; the shape does not).  Defaults, measured
     * on the H200 (bench/apsp-results.md, 2026-11-28): every type with
     * predecessors 4 x 4 (gktune's apspx_p winner, 1.76x and 1.88x the 8 x 4
     * before at 4096 and 16384), float64 4 x 4 (98 % of its ceiling),
     * float32 and int32 with predecessors 8 x 8: apspx_f32's 8 x 4 won on
     * the sum of the two types (1.01x at 16384) but took float32 alone from
     * 91.2 % of its ceiling to 83.7 %, below issue 24's 90 %.  Defaults,
     * not only shipped entries: a configuration that is not the built-in
     * one loads an NVRTC variant of the module.  int64 distances
     * without predecessors keep a fixed 8 x 4: a configuration holds at most
     * GK_CONFIG_MAX = 16 parameters and apsp has them all now.  One
     * candidate each here: the apsp tunable measures the int32 kernel; the
     * apspx_* tunables below search them (their winners are written over
     * these when gk picks apsp's configuration: src/tune/select.c). */
    { "APSPX_F32_TM", 8, 4, 64, 1, { 8 }, "typed kernel, float32 distances, int32 with negative weights or predecessors: output rows per thread" },
    { "APSPX_F32_TN", 8, 4, 64, 1, { 8 }, "typed kernel, float32 distances, int32 with negative weights or predecessors: output columns per thread" },
    { "APSPX_F64_TM", 4, 4, 64, 1, { 4 }, "typed kernel, float64 distances: output rows per thread" },
    { "APSPX_F64_TN", 4, 4, 64, 1, { 4 }, "typed kernel, float64 distances: output columns per thread" },
    { "APSPX_P_TM", 4, 4, 64, 1, { 4 }, "typed kernel, any type with predecessors: output rows per thread" },
    { "APSPX_P_TN", 4, 4, 64, 1, { 4 }, "typed kernel, any type with predecessors: output columns per thread" },
};

#define P(name) ((int64_t)gk__param(cfg, name))

size_t gk__apsp_stage_smem(const gk_config *cfg)
{
    return (size_t)(2 * P("APSP_BK") * (2 * P("APSP_TILE") + 4)) * sizeof(int);
}

size_t gk__apsp_pivot_smem(const gk_config *cfg)
{
    return (size_t)(P("APSP_TILE") * P("APSP_TILE")) * sizeof(int);
}

int64_t gk__apsp_threads(const gk_config *cfg)
{
    int64_t tm = P("APSP_TM"), tn = P("APSP_TN");
    return tm > 0 && tn > 0 ? (P("APSP_TILE") / tm) * (P("APSP_TILE") / tn) : 0;
}

int64_t gk__apsp16_threads(const gk_config *cfg)
{
    int64_t tm = P("APSP16_TM"), tw = P("APSP16_TW");
    return tm > 0 && tw > 0 ? (128 / tm) * (64 / tw) : 0;
}

size_t gk__apsp16_smem(const gk_config *cfg)
{
    return (size_t)(2 * P("APSP16_BK") * (128 + 4 + 64)) * sizeof(int);
}

/* The typed kernels' shapes (apsp.cu: xshape_of) */
void gk__apsp_typed_shape(const gk_config *cfg, gk_dtype t, int pred, int *tm, int *tn)
{
    if (pred) {
        *tm = P("APSPX_P_TM"), *tn = P("APSPX_P_TN");
    } else if (t == GK_DTYPE_FLOAT64) {
        *tm = P("APSPX_F64_TM"), *tn = P("APSPX_F64_TN");
    } else if (t == GK_DTYPE_INT64) {
        *tm = GK_APSPX_I64_TM, *tn = GK_APSPX_I64_TN;
    } else {
        *tm = P("APSPX_F32_TM"), *tn = P("APSPX_F32_TN");
    }
}

/* The rules of one typed shape: xshape of apsp.cu (4-wide vector loads,
 * whole warps: the predecessor search is a warp-wide ballot over 32 k's,
 * at most 1024 threads) and an estimate of its registers (accumulators of
 * esize bytes, their copy and predecessors with pred, the fragments). */
static int typed_reject(const char *what, int64_t tm, int64_t tn, int64_t esize, int pred, char *why, size_t n)
{
    const int64_t T = GK_APSP_ORDER_TILE, w = esize / 4;
    if (tm % 4 || tn % 4 || T % tm || T % tn) {
        snprintf(why, n, "%s: %lldx%lld outputs per thread: each must be a multiple of 4 dividing the tile %lld",
                 what, (long long)tm, (long long)tn, (long long)T);
        return 1;
    }
    const int64_t threads = (T / tm) * (T / tn);
    if (threads < 32 || threads % 32 || threads > 1024) {
        snprintf(why, n, "%s: %lld threads is not a multiple of 32 in [32, 1024]", what, (long long)threads);
        return 1;
    }
    const int64_t regs = tm * tn * w * (pred ? 2 : 1) + (pred ? tm * tn : 0) + (tm + tn) * w + 24;
    if (regs > 255) {
        snprintf(why, n, "%s: %lldx%lld outputs per thread need about %lld registers", what, (long long)tm,
                 (long long)tn, (long long)regs);
        return 1;
    }
    return 0;
}

static int apsp_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    if (gk__space_check_ranges(&gk__space_apsp, cfg, why, n))
        return 1;
    int64_t tile = P("APSP_TILE"), tm = P("APSP_TM"), tn = P("APSP_TN"), bk = P("APSP_BK");
    int64_t un = P("APSP_UNROLL"), minb = P("APSP_MINB"), rr = P("MAXRREG");
#define NO(...) do { snprintf(why, n, __VA_ARGS__); return 1; } while (0)
#define L(x) ((long long)(x))
    if (tile % 32) NO("tile %lld is not a multiple of 32 (the pivot kernel's 32 x 32 threads)", L(tile));
    if (tm % 4 || tn % 4) NO("APSP_TM %lld and APSP_TN %lld must be multiples of 4", L(tm), L(tn));
    if (tile % tm || tile % tn) NO("tile %lld is not a multiple of the thread tile %lldx%lld", L(tile), L(tm), L(tn));
    if (tile % bk || bk % 4) NO("APSP_BK %lld must be a multiple of 4 dividing the tile %lld", L(bk), L(tile));
    if (bk % un) NO("APSP_UNROLL %lld does not divide APSP_BK %lld", L(un), L(bk));
    int64_t threads = gk__apsp_threads(cfg);
    if (threads > 1024) NO("threads %lld > 1024", L(threads));
    if (threads < 32 || threads % 32) NO("threads %lld is not a positive multiple of 32", L(threads));
    if ((bk * tile / 4) % threads) NO("a %lldx%lld chunk does not split into 16-byte loads over %lld threads", L(tile), L(bk), L(threads));
    if (tm * tn > 144) NO("%lldx%lld outputs per thread do not fit in registers", L(tm), L(tn));
    /* accumulators, fragments, the next chunk in flight, addressing */
    int64_t regs = tm * tn + tm + tn + 2 * 4 * (bk * tile / 4 / threads) + 24;
    if (rr > 0 && rr < tm * tn + 16) NO("MAXRREG %lld < the %lld accumulators", L(rr), L(tm * tn));
    if (regs > 255) NO("needs about %lld registers per thread", L(regs));
    if (threads * minb * (regs < 64 ? 64 : regs) > 65536)
        NO("%lld blocks of %lld threads with ~%lld registers each exceed an SM", L(minb), L(threads), L(regs));
    int64_t tm16 = P("APSP16_TM"), tw16 = P("APSP16_TW"), bk16 = P("APSP16_BK"), th16 = gk__apsp16_threads(cfg);
    if (tm16 % 4 || tw16 % 4 || 128 % tm16 || 64 % tw16)
        NO("APSP16_TM %lld must be a multiple of 4 dividing 128, APSP16_TW %lld one dividing 64", L(tm16), L(tw16));
    if (bk16 % 8 || 128 % bk16) NO("APSP16_BK %lld must be a multiple of 8 dividing 128", L(bk16));
    if (th16 < 32 || th16 > 1024 || (16 * bk16) % th16)
        NO("the 16-bit kernel's %lld threads do not split a 128x%lld chunk into 16-byte loads", L(th16), L(bk16));
    if (tm16 * tw16 + tm16 + tw16 + 40 > 255) NO("the 16-bit kernel's %lldx%lld words do not fit in registers", L(tm16), L(tw16));
    if (rr > 0 && rr < tm16 * tw16 + 16) NO("MAXRREG %lld < the 16-bit kernel's %lld accumulators", L(rr), L(tm16 * tw16));
    if (typed_reject("APSPX_F32_TM/TN (float32 distances)", P("APSPX_F32_TM"), P("APSPX_F32_TN"), 4, 0, why, n)
        || typed_reject("APSPX_F64_TM/TN (float64 distances)", P("APSPX_F64_TM"), P("APSPX_F64_TN"), 8, 0, why, n)
        || typed_reject("APSPX_P_TM/TN (with predecessors)", P("APSPX_P_TM"), P("APSPX_P_TN"), 8, 1, why, n))
        return 1;
    if (dev) {
        if (gk__apsp16_smem(cfg) > dev->smem_per_block_optin)
            NO("16-bit shared memory %zu > %zu per block", gk__apsp16_smem(cfg), dev->smem_per_block_optin);
        if (gk__apsp_stage_smem(cfg) > dev->smem_per_block_optin)
            NO("shared memory %zu > %zu per block", gk__apsp_stage_smem(cfg), dev->smem_per_block_optin);
        if (gk__apsp_pivot_smem(cfg) > dev->smem_per_block_optin)
            NO("pivot tile %zu bytes > %zu of shared memory per block", gk__apsp_pivot_smem(cfg), dev->smem_per_block_optin);
        if (threads > dev->max_threads_per_block)
            NO("threads %lld > %d", L(threads), dev->max_threads_per_block);
    }
#undef L
#undef NO
    return 0;
}

const gk_space gk__space_apsp = { "apsp", (int)(sizeof apsp_params / sizeof apsp_params[0]), apsp_params, apsp_reject };

/* ---- the typed kernels' shapes as tunables of their own (issue 24) ----
 *
 * Why apart from apsp: the apsp tunable measures the int32 kernel, whose
 * search, entries and speed stay as they were; the typed kernels' best
 * shapes depend on the element type, not on the int32 kernel's parameters
 * (their tile is GK_APSP_ORDER_TILE whatever APSP_TILE is), so each shape is
 * a tiny space of its own, measured whole on its own type.  They are no
 * `gk` command and have no image of their own (hence no line in
 * src/kernels.def): a candidate is compiled as the apsp module's
 * configuration, apsp's defaults with the candidate's two parameters written
 * over them (gk__tunable_module_config, src/tune/registry.c); gk runs the
 * typed kernels with apsp's configuration with the winners' shapes written
 * over it (gk__apspx_apply).  No MAXRREG of their own: --maxrregcount is one
 * flag for the whole module, the int32 kernel's choice (the apsp entries at
 * 16384 vertices and above have none, and apspx is measured with none). */
#define SHAPE_VALUES 2, { 4, 8 }
static const gk_param_def apspx_f32_params[] = {
    { "APSPX_F32_TM", 8, 4, 64, SHAPE_VALUES, "float32 distances, int32 with negative weights or predecessors: output rows per thread" },
    { "APSPX_F32_TN", 8, 4, 64, SHAPE_VALUES, "float32 distances, int32 with negative weights or predecessors: output columns per thread" },
};
static const gk_param_def apspx_f64_params[] = {
    { "APSPX_F64_TM", 4, 4, 64, SHAPE_VALUES, "float64 distances: output rows per thread" },
    { "APSPX_F64_TN", 4, 4, 64, SHAPE_VALUES, "float64 distances: output columns per thread" },
};
static const gk_param_def apspx_p_params[] = {
    { "APSPX_P_TM", 4, 4, 64, SHAPE_VALUES, "any type with predecessors: output rows per thread" },
    { "APSPX_P_TN", 4, 4, 64, SHAPE_VALUES, "any type with predecessors: output columns per thread" },
};
#undef SHAPE_VALUES

/* One shape's rules: its ranges, the typed rules (the same function apsp's
 * reject applies to the merged configuration) and the device's threads. */
static int shape_reject(const gk_space *s, const char *what, int64_t esize, int pred, const gk_config *cfg,
                        const gk_device_info *dev, char *why, size_t n)
{
    if (gk__space_check_ranges(s, cfg, why, n))
        return 1;
    const int64_t tm = P(s->params[0].name), tn = P(s->params[1].name);
    if (typed_reject(what, tm, tn, esize, pred, why, n))
        return 1;
    const int64_t threads = (GK_APSP_ORDER_TILE / tm) * (GK_APSP_ORDER_TILE / tn);
    if (dev && threads > dev->max_threads_per_block) {
        snprintf(why, n, "%s: threads %lld > %d", what, (long long)threads, dev->max_threads_per_block);
        return 1;
    }
    return 0;
}

static int apspx_f32_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    return shape_reject(&gk__space_apspx_f32, "APSPX_F32_TM/TN (float32 distances)", 4, 0, cfg, dev, why, n);
}
static int apspx_f64_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    return shape_reject(&gk__space_apspx_f64, "APSPX_F64_TM/TN (float64 distances)", 8, 0, cfg, dev, why, n);
}
static int apspx_p_reject(const gk_config *cfg, const gk_device_info *dev, char *why, size_t n)
{
    return shape_reject(&gk__space_apspx_p, "APSPX_P_TM/TN (with predecessors)", 8, 1, cfg, dev, why, n);
}

const gk_space gk__space_apspx_f32 = { "apspx_f32", 2, apspx_f32_params, apspx_f32_reject };
const gk_space gk__space_apspx_f64 = { "apspx_f64", 2, apspx_f64_params, apspx_f64_reject };
const gk_space gk__space_apspx_p = { "apspx_p", 2, apspx_p_params, apspx_p_reject };

/* What each shape runs.  float32 distances take APSPX_F32, and so do
 * int32 distances with negative weights (checked here on a reweighted
 * graph) and int32 with predecessors and non-negative weights (apsp.cu's
 * packed product: timed beside float32, the two targets on this
 * shape); predecessors of every other kind take APSPX_P (timed on the two
 * float types, checked on int32 with negative weights too). */
const gk_apspx_kind gk__apspx_kinds[GK_APSPX_NKINDS] = {
    { &gk__space_apspx_f32, 2, { { GK_DTYPE_FLOAT32, 0, 0 }, { GK_DTYPE_INT32, 1, 0 } },
      3, { { GK_DTYPE_FLOAT32, 0, 0 }, { GK_DTYPE_INT32, 0, 1 }, { GK_DTYPE_INT32, 1, 0 } } },
    { &gk__space_apspx_f64, 1, { { GK_DTYPE_FLOAT64, 0, 0 } }, 2, { { GK_DTYPE_FLOAT64, 0, 0 }, { GK_DTYPE_FLOAT64, 0, 1 } } },
    { &gk__space_apspx_p, 2, { { GK_DTYPE_FLOAT32, 1, 0 }, { GK_DTYPE_FLOAT64, 1, 0 } },
      4, { { GK_DTYPE_INT32, 1, 0 }, { GK_DTYPE_INT32, 1, 1 }, { GK_DTYPE_FLOAT32, 1, 0 }, { GK_DTYPE_FLOAT64, 1, 0 } } },
};

const gk_space *gk__apspx_space(const char *kernel)
{
    for (int k = 0; k < GK_APSPX_NKINDS; k++)
        if (kernel && !strcmp(gk__apspx_kinds[k].space->kernel, kernel))
            return gk__apspx_kinds[k].space;
    return NULL;
}

int gk__apspx_apply(gk_config *apsp, const gk_config *const shapes[GK_APSPX_NKINDS], const gk_device_info *dev,
                    char *why, size_t n)
{
    gk_config merged = *apsp;
    gk_status st = GK_OK;
    if (why && n) why[0] = '\0';
    for (int k = 0; k < GK_APSPX_NKINDS && !st; k++) {
        const gk_space *s = gk__apspx_kinds[k].space;
        for (int j = 0; shapes[k] && j < s->nparams && !st; j++)
            st = gk__config_set(&merged, s->params[j].name, gk__config_get(shapes[k], s->params[j].name, s->params[j].def));
    }
    if (!st && (st = gk__space_check(&gk__space_apsp, &merged, dev, NULL)) == GK_OK) {
        *apsp = merged;
        return 1;
    }
    if (why && n) snprintf(why, n, "%s", gk_last_error());
    gk__clear_error();
    return 0;
}
