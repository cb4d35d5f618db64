/* stencil_gen_src.c - the CUDA source of one stencil description, written
 * at run time for NVRTC (plain C: built in every build, so the tests read
 * the text without a GPU).
 *
 * What the kernels do (one design, every description):
 *
 * A 2D grid is run as a 3D one of one row per plane: its rows are the
 * planes (the streamed axis), each plane a single row (TY = 1, no y halo),
 * and its offsets (dx, dy) become (dx, 0, dz = dy), which keeps the
 * evaluation order (ascending dy, dx = ascending dz, dx).
 *
 * A block owns an output tile of TX x TY points of ZC consecutive planes and
 * streams through them along z (2.5D).  With T steps per pass (temporal
 * blocking) it keeps T rings of D = 2r+2 planes in shared memory: ring 0
 * holds the input planes (the tile plus T*r points of halo on each side of
 * x and y), ring s the planes of step s, each a halo of r smaller per side
 * (overlapped tiles: the neighbours recompute the halos).  Iteration k
 * loads input plane zs + k into ring 0 and lets stage s (1..T) compute its
 * plane q = zs + k - s*(r+1) from the 2r+1 planes q-r..q+r of ring s-1,
 * writing ring s (stage T: the grid).  Stage s-1 writes plane q+r+1 in the
 * same iteration, into the slot of plane q-r-1: no plane being read is
 * written, so one barrier per iteration serves every stage.
 *
 * Every point is the contract's chain: t = w0*v0, t = fma(wi, vi, t) in
 * ascending (dz, dy, dx), the weights hexadecimal literals (exact), so the
 * result is the CPU's to the bit.
 *
 * Boundaries, at every stage (so T steps per pass = T single steps):
 *   zero      a point outside the grid is 0 (loaded as 0, stored as 0)
 *   periodic  every index is taken modulo its extent: the tile's halo
 *             points are the wrapped points, computed like any other
 *   fixed     a point within r of a face (in 2D: of the x faces and of the
 *             first and last r rows) keeps its value (the stage copies it
 *             from the previous one); points outside the grid are 0 and
 *             only feed points that are not stored. */
#include "gpu/stencil_gen.h"

#include <stdarg.h>
#include <stdlib.h>

typedef struct sbuf { char *p; size_t n, cap; int bad; } sbuf;

static void put(sbuf *b, const char *fmt, ...) GK_PRINTF(2, 3);
static void put(sbuf *b, const char *fmt, ...)
{
    if (b->bad) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k < 0) { b->bad = 1; return; }
        if ((size_t)k < b->cap - b->n) { b->n += (size_t)k; return; }
        size_t cap = (b->cap + (size_t)k + 1) * 2;
        char *q = realloc(b->p, cap);
        if (!q) { b->bad = 1; return; }
        b->p = q;
        b->cap = cap;
    }
}

/* The generic part: the stage pipeline (see the comment above). */
static const char body[] =
"typedef long long i64;\n"
"#define D (2 * R + 2)\n"
"#define PWT(T) (TX + 2 * (T) * R)\n"
"#define PHT(T) (TY + 2 * (T) * HY)\n"
"\n"
"__device__ __forceinline__ int sg_wrap(int i, int n) { i %= n; return i < 0 ? i + n : i; }\n"
"\n"
"template <int T>\n"
"__device__ __forceinline__ void sg_body(const real *__restrict__ in, real *__restrict__ out,\n"
"                                        int nx, int ny, int nz, i64 sy, i64 sz, real *ring)\n"
"{\n"
"    constexpr int PW = PWT(T), PLANE = PWT(T) * PHT(T);\n"
"    const int tid = threadIdx.x;\n"
"    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * TY, z0 = blockIdx.z * ZC;\n"
"    const int zend = min(z0 + ZC, nz);\n"
"    const int zs = z0 - T * R;\n"
"    const int nload = (zend - z0) + 2 * T * R;\n"
"    const int K = nload + T;\n"
"    for (int k = 0; k < K; k++) {\n"
"#pragma unroll\n"
"        for (int s = 1; s <= T; s++) {\n"
"            const int kq = k - s * (R + 1), q = zs + kq;\n"
"            if (kq < s * R || q >= zend + (T - s) * R)\n"
"                continue;\n"
"            const real *prev = ring + (s - 1) * D * PLANE;\n"
"            const real *pl[2 * R + 1];\n"
"#pragma unroll\n"
"            for (int d = 0; d <= 2 * R; d++)\n"
"                pl[d] = prev + ((kq - R + d) % D) * PLANE;\n"
"            real *dst = ring + (s < T ? s : 0) * D * PLANE + (kq % D) * PLANE;\n"
"            const int RW = TX + 2 * (T - s) * R, RH = TY + 2 * (T - s) * HY;\n"
"#if BND != 1\n"
"            const bool zin = q >= 0 && q < nz;\n"
"#endif\n"
"#if BND == 2\n"
"            const bool zband = q < R || q >= nz - R;\n"
"#endif\n"
"            const bool zout = q >= z0 && q < zend;\n"
"#if BND == 1\n"
"            const int qw = sg_wrap(q, nz);\n"
"            (void)qw;\n"
"#endif\n"
"            for (int idx = tid; idx < RW * RH; idx += NT) {\n"
"                const int ly = s * HY + idx / RW, lx = s * R + idx % RW;\n"
"                const int gx = x0 - T * R + lx, gy = y0 - T * HY + ly;\n"
"                const int p = ly * PW + lx;\n"
"                real v;\n"
"#if BND == 1\n"
"                v = sg_apply<PW>(pl, p);\n"
"                const bool inside = gx < nx && gy < ny;   /* stage T: gx, gy >= 0 */\n"
"#else\n"
"                const bool inside = zin && gx >= 0 && gx < nx && gy >= 0 && gy < ny;\n"
"                if (!inside)\n"
"                    v = (real)0;\n"
"#if BND == 2\n"
"                else if (zband || gx < R || gx >= nx - R || gy < HY || gy >= ny - HY)\n"
"                    v = pl[R][p];\n"
"#endif\n"
"                else\n"
"                    v = sg_apply<PW>(pl, p);\n"
"#endif\n"
"                if (s < T)\n"
"                    dst[p] = v;\n"
"                else if (inside && zout)\n"
"                    out[(i64)q * sz + (i64)gy * sy + gx] = v;\n"
"            }\n"
"        }\n"
"        if (k < nload) {\n"
"            const int q = zs + k;\n"
"            real *dst = ring + (k % D) * PLANE;\n"
"#if BND == 1\n"
"            const real *src = in + (i64)sg_wrap(q, nz) * sz;\n"
"#else\n"
"            const bool zin = q >= 0 && q < nz;\n"
"            const real *src = in + (i64)q * sz;\n"
"#endif\n"
"            for (int idx = tid; idx < PLANE; idx += NT) {\n"
"                const int ly = idx / PW, lx = idx % PW;\n"
"                const int gx = x0 - T * R + lx, gy = y0 - T * HY + ly;\n"
"#if BND == 1\n"
"                dst[idx] = src[(i64)sg_wrap(gy, ny) * sy + sg_wrap(gx, nx)];\n"
"#else\n"
"                dst[idx] = zin && gx >= 0 && gx < nx && gy >= 0 && gy < ny ? src[(i64)gy * sy + gx] : (real)0;\n"
"#endif\n"
"            }\n"
"        }\n"
"        __syncthreads();\n"
"    }\n"
"}\n";

gk_status gk__stencil_gen_source(const gk__stencil_spec *s, const gk_config *cfg, char **src)
{
    *src = NULL;
    int f32 = s->dtype == GK_DTYPE_FLOAT32, r = s->radius, d3 = s->dims == 3;
    int tmax = gk__param(cfg, "TSTEPS");
    if (s->npoints < 1 || s->npoints > GK_STENCIL_MAX_POINTS || r < 1 || r > 4 || tmax < 1 || tmax > 4)
        return gk__fail(GK_EINVAL, "stencil_gen: bad description or configuration for %s", s->key);
    sbuf b = { 0 };
    put(&b, "// generated by gk for %s (src/gpu/stencil_gen_src.c: the design)\n", s->key);
    put(&b, "typedef %s real;\n", f32 ? "float" : "double");
    put(&b, "#define R %d\n#define HY %d\n#define BND %d\n", r, d3 ? r : 0, (int)s->boundary);
    put(&b, "#define TX %d\n#define TY %d\n#define NT %d\n#define ZC %d\n", gk__param(cfg, "TX"),
        d3 ? gk__param(cfg, "TY") : 1, gk__param(cfg, "NT"), gk__param(cfg, "ZC"));
    /* the chain: pl[dz + R] is plane q + dz of the previous stage, p the
     * point's index in it, PW the plane's width */
    put(&b, "template <int PW>\n__device__ __forceinline__ real sg_apply(const real *const *pl, int p)\n{\n"
            "    real t;\n");
    for (int i = 0; i < s->npoints; i++) {
        /* 2D: the rows are the planes (dz <- dy) */
        int dz = d3 ? s->dz[i] : s->dy[i], dy = d3 ? s->dy[i] : 0, dx = s->dx[i];
        char lit[64];
        snprintf(lit, sizeof lit, f32 ? "%af" : "%a", s->w[i]);
        if (i == 0)
            put(&b, "    t = %s(%s, pl[%d][p + (%d * PW + %d)]);\n", f32 ? "__fmul_rn" : "__dmul_rn", lit, dz + r,
                dy, dx);
        else
            put(&b, "    t = %s(%s, pl[%d][p + (%d * PW + %d)], t);\n", f32 ? "fmaf" : "fma", lit, dz + r, dy, dx);
    }
    put(&b, "    return t;\n}\n\n%s\n", body);
    for (int t = 1; t <= tmax; t++)
        put(&b, "extern \"C\" __global__ void __launch_bounds__(NT) gk_sg_t%d(const real *__restrict__ in, "
                "real *__restrict__ out, int nx, int ny, int nz, i64 sy, i64 sz)\n"
                "{\n    extern __shared__ real sg_ring[];\n    sg_body<%d>(in, out, nx, ny, nz, sy, sz, sg_ring);\n}\n",
            t, t);
    if (b.bad) {
        free(b.p);
        return gk__fail(GK_ENOMEM, "out of host memory for the generated stencil source");
    }
    *src = b.p;
    return GK_OK;
}
