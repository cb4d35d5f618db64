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
 *             only feed points that are not stored.
 *
 * The second design, DESIGN=1 (2D only): warp streaming with register
 * queues ("software systolic", cf. Chen et al., SC'19), no shared memory
 * and no block barrier.  Each warp owns a strip of 32*PX columns (PX
 * consecutive columns per lane) and streams a chunk of ZC rows along y,
 * starting T*r rows above it (recomputed halo).  Each lane keeps, for the
 * input and for each stage s = 1..T, the 2r+1 most recent rows of its PX
 * columns in registers (queues indexed by row modulo 2r+1; the stream loop
 * is unrolled by 2r+1, so every index is a constant and the queues stay in
 * registers).  Iteration k loads input row ys + k; stage s then computes
 * its row ys + k - s*r from rows ys + k - (s+1)*r .. ys + k - (s-1)*r of
 * stage s-1, the x neighbours outside the lane's PX columns taken from the
 * next lanes with __shfl_up_sync/__shfl_down_sync (PX >= r: one lane away).
 * Neighbouring strips overlap by T*r columns a side: the edge lanes' halo
 * results (wrong: their neighbour lane does not exist) shrink by r per
 * stage and are never stored.  Same chain, same boundaries as above. */
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

/* DESIGN=1: the generic part (see the comment at the top).  The kernel's
 * arguments are the ring's (nz: the rows, sz: the row stride). */
static const char warp_body[] =
"typedef long long i64;\n"
"\n"
"__device__ __forceinline__ int sg_wrap(int i, int n) { i %= n; return i < 0 ? i + n : i; }\n"
"\n"
"template <int T>\n"
"__device__ __forceinline__ void sgw_body(const real *__restrict__ in, real *__restrict__ out, int nx, int ny, i64 sy)\n"
"{\n"
"    constexpr int W = 32 * P - 2 * T * R;          /* the columns a strip stores */\n"
"    const int lane = threadIdx.x & 31;\n"
"    const int xs = (blockIdx.x * (NT / 32) + (threadIdx.x >> 5)) * W;\n"
"    if (xs >= nx)\n"
"        return;                                     /* a whole warp: no barrier anywhere */\n"
"    const int y0 = blockIdx.y * ZC, yend = min(y0 + ZC, ny), ys = y0 - T * R;\n"
"    const int K = (yend - y0) + 2 * T * R;\n"
"    const int gx0 = xs - T * R + lane * P;          /* the lane's first column */\n"
"    int cx[P];\n"
"    bool cin[P], cst[P];\n"
"#if BND == 2\n"
"    bool cband[P];\n"
"#endif\n"
"#pragma unroll\n"
"    for (int j = 0; j < P; j++) {\n"
"        const int gx = gx0 + j, c = lane * P + j;\n"
"        cin[j] = gx >= 0 && gx < nx;\n"
"#if BND == 1\n"
"        cx[j] = sg_wrap(gx, nx);\n"
"#else\n"
"        cx[j] = cin[j] ? gx : 0;\n"
"#endif\n"
"#if BND == 2\n"
"        cband[j] = gx < R || gx >= nx - R;\n"
"#endif\n"
"        cst[j] = c >= T * R && c < 32 * P - T * R && gx < nx;\n"
"    }\n"
"    real q[T + 1][D][P];\n"
"#pragma unroll\n"
"    for (int s = 0; s <= T; s++)\n"
"#pragma unroll\n"
"        for (int d = 0; d < D; d++)\n"
"#pragma unroll\n"
"            for (int j = 0; j < P; j++)\n"
"                q[s][d][j] = (real)0;\n"
"    for (int kb = 0; kb < K; kb += D) {\n"
"#pragma unroll\n"
"        for (int i = 0; i < D; i++) {\n"
"            const int k = kb + i;\n"
"            if (k >= K)\n"
"                break;\n"
"            {   /* input row ys + k into slot i (= k mod D) */\n"
"                const int gy = ys + k;\n"
"#if BND == 1\n"
"                const real *src = in + (i64)sg_wrap(gy, ny) * sy;\n"
"#pragma unroll\n"
"                for (int j = 0; j < P; j++)\n"
"                    q[0][i][j] = src[cx[j]];\n"
"#else\n"
"                const bool rin = gy >= 0 && gy < ny;\n"
"                const real *src = in + (i64)(rin ? gy : 0) * sy;\n"
"#pragma unroll\n"
"                for (int j = 0; j < P; j++)\n"
"                    q[0][i][j] = rin && cin[j] ? src[cx[j]] : (real)0;\n"
"#endif\n"
"            }\n"
"#pragma unroll\n"
"            for (int s = 1; s <= T; s++) {\n"
"                /* row kq = k - s*R of stage s, in slot kq mod D; its window\n"
"                   kq-R..kq+R of stage s-1 starts at slot (kq - R) mod D */\n"
"                const int cs = (i - s * R + (T + 2) * D) % D, s0 = (i - (s + 1) * R + (T + 2) * D) % D;\n"
"                const int gy = ys + k - s * R;\n"
"                real o[P];\n"
"                sgw_apply(q[s - 1], s0, o);\n"
"#if BND != 1\n"
"                const bool rin = gy >= 0 && gy < ny;\n"
"#endif\n"
"#if BND == 2\n"
"                const bool rband = gy < R || gy >= ny - R;\n"
"#endif\n"
"#pragma unroll\n"
"                for (int j = 0; j < P; j++) {\n"
"                    real v = o[j];\n"
"#if BND == 0\n"
"                    if (!(rin && cin[j])) v = (real)0;\n"
"#elif BND == 2\n"
"                    if (!(rin && cin[j])) v = (real)0;\n"
"                    else if (rband || cband[j]) v = q[s - 1][cs][j];\n"
"#endif\n"
"                    if (s < T)\n"
"                        q[s][cs][j] = v;\n"
"                    else if (gy >= y0 && gy < yend && cst[j])\n"
"                        out[(i64)gy * sy + gx0 + j] = v;\n"
"                }\n"
"            }\n"
"        }\n"
"    }\n"
"}\n";

/* DESIGN=1: the chain of every point of a lane's PX columns, from the
 * 2r+1 rows of the previous stage (slot (s0 + d) mod D holds row dy = d -
 * R); each row's x halo from the neighbour lanes, only as wide as the
 * description uses it in that row. */
static void put_warp_apply(sbuf *b, const gk__stencil_spec *s, int f32)
{
    int r = s->radius, lo[9], hi[9], used[9];
    for (int d = 0; d <= 2 * r; d++)
        lo[d] = hi[d] = used[d] = 0;
    for (int i = 0; i < s->npoints; i++) {
        int d = s->dy[i] + r;
        used[d] = 1;
        if (s->dx[i] < lo[d]) lo[d] = s->dx[i];
        if (s->dx[i] > hi[d]) hi[d] = s->dx[i];
    }
    put(b, "__device__ __forceinline__ void sgw_apply(const real (&v)[D][P], int s0, real (&o)[P])\n{\n");
    for (int d = 0; d <= 2 * r; d++) {
        if (!used[d]) continue;
        put(b, "    real e%d[P + 2 * R];\n    {\n        const int sl = (s0 + %d) %% D;\n", d, d);
        put(b, "#pragma unroll\n        for (int j = 0; j < P; j++) e%d[R + j] = v[sl][j];\n", d);
        if (lo[d] < 0)
            put(b, "#pragma unroll\n        for (int h = 1; h <= %d; h++) e%d[R - h] = __shfl_up_sync(0xffffffffu, "
                   "v[sl][P - h], 1);\n", -lo[d], d);
        if (hi[d] > 0)
            put(b, "#pragma unroll\n        for (int h = 1; h <= %d; h++) e%d[R + P - 1 + h] = "
                   "__shfl_down_sync(0xffffffffu, v[sl][h - 1], 1);\n", hi[d], d);
        put(b, "    }\n");
    }
    put(b, "#pragma unroll\n    for (int j = 0; j < P; j++) {\n        real t;\n");
    for (int i = 0; i < s->npoints; i++) {
        char lit[64];
        snprintf(lit, sizeof lit, f32 ? "%af" : "%a", s->w[i]);
        if (i == 0)
            put(b, "        t = %s(%s, e%d[R + j + (%d)]);\n", f32 ? "__fmul_rn" : "__dmul_rn", lit, s->dy[i] + r,
                s->dx[i]);
        else
            put(b, "        t = %s(%s, e%d[R + j + (%d)], t);\n", f32 ? "fmaf" : "fma", lit, s->dy[i] + r, s->dx[i]);
    }
    put(b, "        o[j] = t;\n    }\n}\n\n");
}

static gk_status warp_source(const gk__stencil_spec *s, const gk_config *cfg, int tmax, char **src)
{
    int f32 = s->dtype == GK_DTYPE_FLOAT32, px = gk__config_get(cfg, "PX", 4);
    if (s->dims != 2 || px < s->radius || px > 8)
        return gk__fail(GK_EINVAL, "stencil_gen: DESIGN=1 needs a 2D description and PX in radius..8 (%s, PX=%d)",
                        s->key, px);
    sbuf b = { 0 };
    put(&b, "// generated by gk for %s, DESIGN=1 (src/gpu/stencil_gen_src.c: the design)\n", s->key);
    put(&b, "typedef %s real;\n", f32 ? "float" : "double");
    put(&b, "#define R %d\n#define BND %d\n#define P %d\n#define NT %d\n#define ZC %d\n", s->radius,
        (int)s->boundary, px, gk__param(cfg, "NT"), gk__param(cfg, "ZC"));
    put(&b, "#define D (2 * R + 1)\n");
    put_warp_apply(&b, s, f32);
    put(&b, "%s\n", warp_body);
    for (int t = 1; t <= tmax; t++)
        put(&b, "extern \"C\" __global__ void __launch_bounds__(NT) gk_sg_t%d(const real *__restrict__ in, "
                "real *__restrict__ out, int nx, int ny, int nz, i64 sy, i64 sz)\n"
                "{\n    (void)ny; (void)sy;\n    sgw_body<%d>(in, out, nx, nz, sz);\n}\n", t, t);
    if (b.bad) {
        free(b.p);
        return gk__fail(GK_ENOMEM, "out of host memory for the generated stencil source");
    }
    *src = b.p;
    return GK_OK;
}

gk_status gk__stencil_gen_source(const gk__stencil_spec *s, const gk_config *cfg, char **src)
{
    *src = NULL;
    int f32 = s->dtype == GK_DTYPE_FLOAT32, r = s->radius, d3 = s->dims == 3;
    int tmax = gk__param(cfg, "TSTEPS");
    if (s->npoints < 1 || s->npoints > GK_STENCIL_MAX_POINTS || r < 1 || r > 4 || tmax < 1 || tmax > 4)
        return gk__fail(GK_EINVAL, "stencil_gen: bad description or configuration for %s", s->key);
    if (gk__config_get(cfg, "DESIGN", 0) == 1)
        return warp_source(s, cfg, tmax, src);
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
