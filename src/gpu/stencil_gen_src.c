/* stencil_gen_src.c - the CUDA source of one stencil description, written
 * at run time for NVRTC (plain C: built in every build, so the tests read
 * the text without a GPU).
 *
 * What the kernels do (DESIGN=0, every description; DESIGN=1 and 2 below):
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
 * is unrolled, so every index is a constant and the queues stay in
 * registers).  Iteration k takes input row ys + k; stage s then computes
 * its row ys + k - s*r from rows ys + k - (s+1)*r .. ys + k - (s-1)*r of
 * stage s-1, the x neighbours outside the lane's PX columns taken from the
 * next lanes with __shfl_up_sync/__shfl_down_sync (PX >= r: one lane away;
 * else column h beyond the lane's comes from ceil(h/PX) lanes away).  The
 * input rows are loaded PF rows ahead (PF = 1: the next row) into a queue
 * of D0 = a multiple of 2r+1 >= 2r+1+PF slots: each load has PF
 * iterations of arithmetic to arrive under; the loop is unrolled by D0.
 * Neighbouring strips overlap by T*r columns a side: the edge lanes' halo
 * results (wrong: their neighbour lane does not exist) shrink by r per
 * stage and are never stored.  Same chain, same boundaries as above.
 * SK = 1 runs stage s a further s-1 rows behind, so that no stage of an
 * iteration waits for another (T*PX independent chains instead of a chain
 * of T stages; measured: the stars from radius 2 gain, radius 1 in float32
 * loses).  PL = 1 compiles the stream twice: a warp whose strip and rows
 * (with their T*r halo) lie r from every face takes a copy without the
 * boundary's per-point selects and tests (about a third of the radius-1
 * star's PTX instructions), the others the general one; the kernel's
 * registers are the larger copy's, which the long chains of the large
 * boxes pay for.  AC = 1 turns each stage around (register accumulation,
 * warp_acc_body): instead of a queue of its input rows, from which every
 * output gathers its window (a box's row has its x halo shuffled 2r+1
 * times, once per output row that reads it), a stage keeps the partial
 * sums of the 2r+1 output rows an arriving row touches; the row's halo is
 * shuffled once and its terms added to each (same order of terms, same
 * bits), and the output row that took its last row goes on to the next
 * stage.  AC = 2 is the same with a stream loop of one row (the
 * accumulators renamed after each row): about 2r+1 times less code.
 *
 * The third design, DESIGN=2 (3D only; temporal blocking after this
 * paragraph, at put_z_kernel): z-streaming
 * with register accumulation, the hand-written 27-point kernel's stream
 * design (src/gpu/stencil.cu) for any description.  A block owns a TX x TY
 * output tile of ZC planes; its NT = (TX/RX)*(TY/RY) threads each own RX
 * consecutive columns and RY consecutive rows of it.  The block streams
 * input planes z0-r .. z0+ZC-1+r: each goes to shared memory once (the
 * tile and r of halo in x and y; two buffers), and each thread reads the
 * (RX+2r) x (RY+2r) window of it that its outputs need ONCE, in ascending
 * (y, x) (RX even: a row's used column pairs in one 2-wide load each),
 * adding each value to every accumulator whose chain has it: the
 * partial sums of the 2r+1 output planes p-r..p+r the plane touches, per
 * output point, (2r+1)*RX*RY registers, a queue indexed by the output
 * plane modulo 2r+1.  The stream loop is unrolled 2r+1 times, so every
 * slot is a constant; a description too large for that (points x RX*RY x
 * (2r+1) > GK__SGZ_UNROLL_TERMS: box r >= 3 at the defaults) keeps one copy
 * of its terms and moves the queue down one slot per plane instead.
 * Output plane q is complete once plane q+r has arrived and is stored
 * then.  Iteration k loads plane k+1 into registers (its latency under the
 * arithmetic), adds plane k's terms from buffer k&1, stores the output
 * completed, writes plane k+1 into buffer (k+1)&1 (last read in iteration
 * k-1, before the previous barrier): one barrier per plane.  With PF >= 2
 * (the default, 3) the input planes are copied asynchronously instead
 * (cp.async, no registers) into a ring of PF+1 shared planes, PF in flight:
 * iteration k waits for plane k's copies, passes the barrier (which ends
 * iteration k-1 too: plane k-1's slot is free) and issues plane k+PF's
 * into that slot.  What a thread's loads and stores need of x and y
 * (addresses, in-grid masks) is computed once before the stream (sgz_xy).
 *   Why faster than the ring in 3D: the ring reads all (2r+1)^3 (box) or
 * 6r+1 (star) values of every point from shared memory; here a plane's
 * window costs ((RX+2r)(RY+2r))/(RX*RY) shared loads per output (box r=1,
 * RX=1, RY=4: 4.5 against 27), and the plane's ring of 2r+2 planes shrinks
 * to two (more blocks per SM).
 *   The chain: planes arrive in ascending z, so an output's terms of plane
 * q-r come first; within a plane the window is read in ascending (y, x),
 * i.e. ascending (dy, dx) for each output; the description's point 0 (its
 * first in the contract's order) is w0*v0, every later one an fma: the
 * CPU's chain to the bit (an accumulator's value before its point 0 is
 * never used).  Boundaries: zero and periodic at the load (0 outside; the
 * index wrapped, once, within the T*r of halo a tile reads); fixed at the
 * store (a point within r of a face stores its input value, read from the
 * input grid). */
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

/* DESIGN=2's end of an iteration, at indentation ind: the plane prefetched
 * into registers (ld) goes to the other shared buffer, then the barrier
 * (the rotating and the unrolled queue write the same lines). */
static void put_next_plane(sbuf *b, const char *ind)
{
    put(b, "%sif (more) {\n"
           "%s    real *dst = sg_buf + ((k + 1) & 1) * PLANE;\n"
           "#pragma unroll\n"
           "%s    for (int j = 0; j < NL; j++)\n"
           "%s        if (SGZ_MINE(tid, j)) dst[tid + j * NT] = ld[j];\n"
           "%s}\n"
           "%s__syncthreads();\n", ind, ind, ind, ind, ind, ind);
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
"/* input row gy of the lane's P columns (0 outside the grid; periodic: wrapped).\n"
"   PL (a plain strip, below): every column in the grid, and a row past the\n"
"   grid only below the rows any stored point needs: its address clamped,\n"
"   its value not used */\n"
"template <bool PL>\n"
"__device__ __forceinline__ void sgw_load(real (&v)[P], const real *__restrict__ in, int gy, int ny, i64 sy,\n"
"                                         const int (&cx)[P], const bool (&cin)[P])\n"
"{\n"
"    if (PL) {\n"
"        const real *src = in + (i64)min(gy, ny - 1) * sy;\n"
"#pragma unroll\n"
"        for (int j = 0; j < P; j++)\n"
"            v[j] = src[cx[j]];\n"
"        return;\n"
"    }\n"
"#if BND == 1\n"
"    const real *src = in + (i64)sg_wrap(gy, ny) * sy;\n"
"#pragma unroll\n"
"    for (int j = 0; j < P; j++)\n"
"        v[j] = src[cx[j]];\n"
"#else\n"
"    const bool rin = gy >= 0 && gy < ny;\n"
"    const real *src = in + (i64)(rin ? gy : 0) * sy;\n"
"#if PF == 0\n"
"    /* the row is used right away: a load only where the point is in the\n"
"       grid (fewer registers than below; measured faster on the large\n"
"       boxes in float64) */\n"
"#pragma unroll\n"
"    for (int j = 0; j < P; j++)\n"
"        v[j] = rin && cin[j] ? src[cx[j]] : (real)0;\n"
"#else\n"
"    /* rows ahead: every address valid (row and columns clamped in the\n"
"       grid), the load unconditional and the value selected, no branch\n"
"       around each load (the compiler may issue them early) */\n"
"#pragma unroll\n"
"    for (int j = 0; j < P; j++) {\n"
"        const real x = src[cx[j]];\n"
"        v[j] = rin && cin[j] ? x : (real)0;\n"
"    }\n"
"#endif\n"
"#endif\n"
"    (void)cin;\n"
"}\n"
"\n"
"#if ST == 2\n"
"/* ST = 2: the rows in flight in shared memory, not in registers: row gy\n"
"   copied by cp.async into the warp's ring slot (P values a lane, [j][lane]:\n"
"   consecutive lanes, consecutive words), 0 where sgw_load gives 0 (the\n"
"   copy's source size 0), one commit group a row; sgw_take waits until\n"
"   at most PF newer rows are in flight and reads the lane's own values\n"
"   (no other lane's: no barrier) */\n"
"__device__ __forceinline__ void sgw_cp(real *dst, const real *src, bool ok)\n"
"{\n"
"    asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2, %3;\\n\" :: \"r\"((unsigned)__cvta_generic_to_shared(dst)),\n"
"                 \"l\"(src), \"n\"((int)sizeof(real)), \"r\"(ok ? (int)sizeof(real) : 0) : \"memory\");\n"
"}\n"
"\n"
"template <bool PL>\n"
"__device__ __forceinline__ void sgw_issue(real *slot, const real *__restrict__ in, int gy, int ny, i64 sy,\n"
"                                          const int (&cx)[P], const bool (&cin)[P])\n"
"{\n"
"    const int lane = threadIdx.x & 31;\n"
"    if (PL) {\n"
"        const real *src = in + (i64)min(gy, ny - 1) * sy;\n"
"#pragma unroll\n"
"        for (int j = 0; j < P; j++)\n"
"            sgw_cp(slot + j * 32 + lane, src + cx[j], true);\n"
"    } else {\n"
"#if BND == 1\n"
"        const real *src = in + (i64)sg_wrap(gy, ny) * sy;\n"
"#pragma unroll\n"
"        for (int j = 0; j < P; j++)\n"
"            sgw_cp(slot + j * 32 + lane, src + cx[j], true);\n"
"#else\n"
"        const bool rin = gy >= 0 && gy < ny;\n"
"        const real *src = in + (i64)(rin ? gy : 0) * sy;\n"
"#pragma unroll\n"
"        for (int j = 0; j < P; j++)\n"
"            sgw_cp(slot + j * 32 + lane, src + cx[j], rin && cin[j]);\n"
"#endif\n"
"    }\n"
"    asm volatile(\"cp.async.commit_group;\\n\" ::: \"memory\");\n"
"    (void)cin;\n"
"}\n"
"\n"
"__device__ __forceinline__ void sgw_take(real (&v)[P], const real *slot)\n"
"{\n"
"    const int lane = threadIdx.x & 31;\n"
"    asm volatile(\"cp.async.wait_group %0;\\n\" :: \"n\"(PF) : \"memory\");\n"
"#pragma unroll\n"
"    for (int j = 0; j < P; j++)\n"
"        v[j] = slot[j * 32 + lane];\n"
"}\n"
"#define SGW_RING real *ring\n"
"#else\n"
"#define SGW_RING real *\n"
"#endif\n"
"/* XH = 1: the block's NT/32 warps side by side, one strip of NT*P columns\n"
"   (SGW_SW) whose T*R halo columns a side are the block's, not each\n"
"   warp's; the x halo of a stage's centre row read from the block's shared\n"
"   rows (written by sgw_xput, read in sgw_apply), a barrier per row.\n"
"   XH = 0: each warp a strip of 32*P columns, the halo from the warp's\n"
"   lanes (shuffles) */\n"
"#if XH\n"
"#define SGW_SW (NT * P)\n"
"#define SGW_LANE ((int)threadIdx.x)\n"
"#define SGW_XB real *xb\n"
"__device__ __forceinline__ void sgw_xput(real *row, const real (&v)[P])\n"
"{\n"
"#pragma unroll\n"
"    for (int j = 0; j < P; j++)\n"
"        row[j * XL] = v[j];\n"
"}\n"
"#else\n"
"#define SGW_SW (32 * P)\n"
"#define SGW_LANE ((int)threadIdx.x & 31)\n"
"#define SGW_XB real *\n"
"#endif\n"
"\n"
"/* the lane's P columns, computed once per warp: the first (gx0), their\n"
"   addresses (clamped into the grid, or wrapped), which lie in the grid,\n"
"   which the strip stores (not the T*R halo columns a side) and (fixed)\n"
"   which lie in the band of R columns at a face */\n"
"template <int T>\n"
"__device__ __forceinline__ void sgw_cols(int xs, int nx, int &gx0, int (&cx)[P], bool (&cin)[P], bool (&cst)[P],\n"
"                                         bool (&cband)[P])\n"
"{\n"
"    const int lane = SGW_LANE;                      /* XH: the block's thread */\n"
"    gx0 = xs - T * R + lane * P;\n"
"#pragma unroll\n"
"    for (int j = 0; j < P; j++) {\n"
"        const int gx = gx0 + j, c = lane * P + j;\n"
"        cin[j] = gx >= 0 && gx < nx;\n"
"#if BND == 1\n"
"        cx[j] = sg_wrap(gx, nx);\n"
"#else\n"
"        cx[j] = cin[j] ? gx : 0;\n"
"#endif\n"
"        cband[j] = gx < R || gx >= nx - R;\n"
"        cst[j] = c >= T * R && c < SGW_SW - T * R && gx < nx;\n"
"    }\n"
"}\n";

/* DESIGN=1, AC = 0: each stage's rows kept in a queue, each output point
 * gathering its window (each row's x halo shuffled once per row that
 * reads it: 2r+1 times in a box) */
static const char warp_gather_body[] =
"#if XH\n"
"#define SGW_XC(s, sl) , xb + ((s) * D + (sl)) * XS\n"
"#else\n"
"#define SGW_XC(s, sl)\n"
"#endif\n"
"/* PL (with PLAIN = 1, the parameter PL: a second copy of the stream in\n"
"   the kernel, which costs registers and code where the chain is long):\n"
"   the strip of columns xs-T*R .. xs-T*R+32*P-1 and the rows y0-T*R ..\n"
"   yend+T*R-1 (every point a stored one depends on) lie at least R from\n"
"   every face (not periodic): no point needs the boundary's zero or its\n"
"   kept value, so the stages store what they compute, without the\n"
"   per-point tests of the general case (most warps of a large grid) */\n"
"template <int T, bool PL>\n"
"__device__ __forceinline__ void sgw_body(const real *__restrict__ in, real *__restrict__ out, int nx, int ny, i64 sy,\n"
"                                         int xs, int y0, int yend, SGW_RING, SGW_XB)\n"
"{\n"
"    /* the input's queue: the D rows stage 1 reads and PF rows in flight,\n"
"       a multiple of D (the unrolled loop's slots are constants); ST = 1:\n"
"       the D rows only, the PF rows in flight in qf (moved into the queue\n"
"       when used: P moves per row and step ahead, for (D0 - D - PF) * P\n"
"       fewer registers and half the unrolled code) */\n"
"#if ST == 2\n"
"    constexpr int D0 = D;\n"
"    int wslot = PF, rslot = 0;                      /* the ring's slots of rows k + PF and k */\n"
"#elif ST\n"
"    constexpr int D0 = D;\n"
"    real qf[PF + 1][P];\n"
"#else\n"
"    constexpr int D0 = D * (1 + (PF + D - 1) / D);\n"
"#endif\n"
"    const int ys = y0 - T * R;\n"
"    /* SK = 1: stage s runs SK*(s-1) rows behind (below), so the last\n"
"       stage ends SK*(T-1) iterations later */\n"
"    const int K = (yend - y0) + 2 * T * R + SK * (T - 1);\n"
"    int gx0, cx[P];\n"
"    bool cin[P], cst[P], cband[P];\n"
"    sgw_cols<T>(xs, nx, gx0, cx, cin, cst, cband);\n"
"    real q0[D0][P];                                 /* input row k in slot k mod D0 */\n"
"    real q[T + 1][D][P];                            /* stage s (1..T-1): row k in slot k mod D */\n"
"#pragma unroll\n"
"    for (int d = 0; d < D0; d++)\n"
"#pragma unroll\n"
"        for (int j = 0; j < P; j++)\n"
"            q0[d][j] = (real)0;\n"
"#pragma unroll\n"
"    for (int s = 0; s <= T; s++)\n"
"#pragma unroll\n"
"        for (int d = 0; d < D; d++)\n"
"#pragma unroll\n"
"            for (int j = 0; j < P; j++)\n"
"                q[s][d][j] = (real)0;\n"
"    /* the loads are unconditional: past the chunk they read rows no one\n"
"       uses (0 outside the grid), and a slot that kept its old row on\n"
"       some path would keep every old row live in registers */\n"
"#pragma unroll\n"
"    for (int i = 0; i < PF; i++)                    /* the first PF rows in flight */\n"
"#if ST == 2\n"
"        sgw_issue<PL>(ring + i * P * 32, in, ys + i, ny, sy, cx, cin);\n"
"#elif ST\n"
"        sgw_load<PL>(qf[i], in, ys + i, ny, sy, cx, cin);\n"
"#else\n"
"        sgw_load<PL>(q0[i], in, ys + i, ny, sy, cx, cin);\n"
"#endif\n"
"    for (int kb = 0; kb < K; kb += D0) {\n"
"#pragma unroll\n"
"        for (int i = 0; i < D0; i++) {\n"
"            const int k = kb + i;\n"
"            if (k >= K)\n"
"                break;\n"
"            /* row k (loaded PF iterations ago) is used now; row k + PF\n"
"               goes into the slot of row k + PF - D0 <= k - D, read by no one */\n"
"#if ST == 2\n"
"            sgw_issue<PL>(ring + wslot * P * 32, in, ys + k + PF, ny, sy, cx, cin);\n"
"            sgw_take(q0[i], ring + rslot * P * 32);\n"
"            wslot = wslot == PF ? 0 : wslot + 1;\n"
"            rslot = rslot == PF ? 0 : rslot + 1;\n"
"#elif ST\n"
"            if (PF) {\n"
"#pragma unroll\n"
"                for (int j = 0; j < P; j++)\n"
"                    q0[i][j] = qf[0][j];\n"
"#pragma unroll\n"
"                for (int f = 0; f + 1 < PF; f++)\n"
"#pragma unroll\n"
"                    for (int j = 0; j < P; j++)\n"
"                        qf[f][j] = qf[f + 1][j];\n"
"            }\n"
"            sgw_load<PL>(PF ? qf[PF ? PF - 1 : 0] : q0[i], in, ys + k + PF, ny, sy, cx, cin);\n"
"#else\n"
"            sgw_load<PL>(q0[(i + PF) % D0], in, ys + k + PF, ny, sy, cx, cin);\n"
"#endif\n"
"#if XH\n"
"            sgw_xput(xb + (i % D) * XS, q0[i]);          /* row k of stage 0 */\n"
"#endif\n"
"#pragma unroll\n"
"            for (int si = 1; si <= T; si++) {\n"
"                /* SK = 0: stage s computes row kq = k - s*R from the row stage\n"
"                   s-1 computed just before, in this iteration: a chain of T\n"
"                   dependent stages.  SK = 1: stage s runs s-1 rows further\n"
"                   behind, kq = k - s*R - (s-1), so its newest input row is the\n"
"                   one stage s-1 computed in the previous iteration: the T\n"
"                   stages of an iteration are independent (T*P chains in\n"
"                   flight), and run from the last down, so that no stage\n"
"                   overwrites a slot a later one still reads.  Row kq goes to\n"
"                   slot kq mod D; its window kq-R..kq+R of stage s-1 starts at\n"
"                   slot (kq - R) mod D (D0 for the input) */\n"
"                const int s = SK ? T + 1 - si : si;\n"
"                const int lag = SK * (s - 1);\n"
"                const int cs = (i - s * R - lag + (T + 2) * D) % D;\n"
"                const int gy = ys + k - s * R - lag;\n"
"                real o[P];\n"
"                /* XH: the window's centre row kq of stage s-1, slot cs (stage\n"
"                   0: row k - R), written R + SK iterations ago */\n"
"                if (s == 1)\n"
"                    sgw_apply(q0, (i - 2 * R + D0) % D0, o SGW_XC(0, (i - R + D0) % D));\n"
"                else\n"
"                    sgw_apply(q[s - 1], (i - (s + 1) * R - lag + (T + 2) * D) % D, o SGW_XC(s - 1, cs));\n"
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
"                    if (!PL && !(rin && cin[j])) v = (real)0;\n"
"#elif BND == 2\n"
"                    if (!PL) {\n"
"                        if (!(rin && cin[j])) v = (real)0;\n"
"                        else if (rband || cband[j]) v = s == 1 ? q0[(i - R + D0) % D0][j] : q[s - 1][cs][j];\n"
"                    }\n"
"#endif\n"
"                    if (s < T)\n"
"                        q[s][cs][j] = v;\n"
"                    else if (gy >= y0 && gy < yend && cst[j])\n"
"                        out[(i64)gy * sy + gx0 + j] = v;\n"
"                }\n"
"#if XH\n"
"                if (s < T)\n"
"                    sgw_xput(xb + (s * D + cs) * XS, q[s][cs]);\n"
"#endif\n"
"            }\n"
"#if XH\n"
"            /* the rows of this iteration visible to the block's other warps\n"
"               (read from the next iteration on; every warp of the block runs\n"
"               the same K iterations) */\n"
"            __syncthreads();\n"
"#endif\n"
"        }\n"
"    }\n"
"}\n";

/* DESIGN=1, AC = 1 and 2: register accumulation along y (DESIGN=2's
 * idea in 2D).  Each stage keeps the partial sums of the 2r+1 output rows
 * a new row touches; a row of stage s-1 arrives, its x halo is shuffled
 * ONCE (sga_halo), and its terms go into every accumulator whose chain has
 * it (sga_add), in the description's point order: rows arrive in
 * ascending dy, so each output's chain is the gather's, bit for bit.
 * Output row m - R is then complete (sga_done): its boundary value is set
 * and it goes on to the next stage at once (SK = 0) or in the next
 * iteration (SK = 1: the stages run from the last down, each reading the
 * row the one before left in pend[] the iteration before).  A point in
 * the fixed boundary's band keeps its value through every step, so its
 * value is the pass input's (a load, in the edge warps only).
 *   AC = 1 unrolls the stream by D0 rows, so that each accumulator keeps
 * its slot (output row mod D) and no value moves: D0 copies of T stages
 * of the description's terms.  AC = 2 keeps one row per loop iteration
 * and renames the slots after each row (slot c: the output c rows below
 * the one completing; the moves are register renames at best): D0 times
 * less code, which the large boxes need -- their unrolled streams are
 * tens of kilobytes of instructions per warp. */
static const char warp_acc_body[] =
"template <int T, bool PL>\n"
"__device__ __forceinline__ void sga_done(const real (&o)[P], real (&next)[P], int s, int gy,\n"
"                                         const real *__restrict__ in, real *__restrict__ out, int ny, i64 sy,\n"
"                                         int y0, int yend, int gx0, const int (&cx)[P], const bool (&cin)[P],\n"
"                                         const bool (&cst)[P], const bool (&cband)[P])\n"
"{\n"
"#if BND != 1\n"
"    const bool rin = gy >= 0 && gy < ny;\n"
"#endif\n"
"#if BND == 2\n"
"    const bool rband = gy < R || gy >= ny - R;\n"
"    const real *row = in + (i64)(rin ? gy : 0) * sy;\n"
"#endif\n"
"#pragma unroll\n"
"    for (int j = 0; j < P; j++) {\n"
"        real v = o[j];\n"
"#if BND == 0\n"
"        if (!PL && !(rin && cin[j])) v = (real)0;\n"
"#elif BND == 2\n"
"        if (!PL) {\n"
"            if (!(rin && cin[j])) v = (real)0;\n"
"            else if (rband || cband[j]) v = row[cx[j]];\n"
"        }\n"
"#endif\n"
"        if (s < T)\n"
"            next[j] = v;\n"
"        else if (gy >= y0 && gy < yend && cst[j])\n"
"            out[(i64)gy * sy + gx0 + j] = v;\n"
"    }\n"
"    (void)in; (void)cx; (void)cin; (void)cband;\n"
"}\n"
"\n"
"template <int T, bool PL>\n"
"__device__ __forceinline__ void sgw_body(const real *__restrict__ in, real *__restrict__ out, int nx, int ny, i64 sy,\n"
"                                         int xs, int y0, int yend, SGW_RING, SGW_XB)\n"
"{\n"
"#if AC == 1\n"
"    /* the input's rows in flight: row k in slot k mod D0, D0 a multiple\n"
"       of D (the accumulators' slots are constants in the unrolled loop) */\n"
"    constexpr int D0 = D * (1 + (PF + D - 1) / D);\n"
"#elif ST == 2\n"
"    constexpr int D0 = 1;                           /* row k; k + 1 .. k + PF in the ring */\n"
"    int wslot = PF, rslot = 0;\n"
"#else\n"
"    constexpr int D0 = PF + 1;                      /* q0[j]: row k + j */\n"
"#endif\n"
"    const int ys = y0 - T * R;\n"
"    const int K = (yend - y0) + 2 * T * R + SK * (T - 1);\n"
"    int gx0, cx[P];\n"
"    bool cin[P], cst[P], cband[P];\n"
"    sgw_cols<T>(xs, nx, gx0, cx, cin, cst, cband);\n"
"    real q0[D0][P];\n"
"    real acc[T + 1][D][P];                          /* AC=1: output row o in slot o mod D */\n"
"    real pend[T + 1][P];                            /* stage s's newest complete row */\n"
"#pragma unroll\n"
"    for (int d = 0; d < D0; d++)\n"
"#pragma unroll\n"
"        for (int j = 0; j < P; j++)\n"
"            q0[d][j] = (real)0;\n"
"#pragma unroll\n"
"    for (int s = 0; s <= T; s++)\n"
"#pragma unroll\n"
"        for (int j = 0; j < P; j++) {\n"
"            pend[s][j] = (real)0;\n"
"#pragma unroll\n"
"            for (int d = 0; d < D; d++)\n"
"                acc[s][d][j] = (real)0;\n"
"        }\n"
"#pragma unroll\n"
"    for (int i = 0; i < PF; i++)\n"
"#if ST == 2\n"
"        sgw_issue<PL>(ring + i * P * 32, in, ys + i, ny, sy, cx, cin);\n"
"#else\n"
"        sgw_load<PL>(q0[i], in, ys + i, ny, sy, cx, cin);\n"
"#endif\n"
"#if AC == 1\n"
"    for (int kb = 0; kb < K; kb += D0) {\n"
"#pragma unroll\n"
"        for (int i = 0; i < D0; i++) {\n"
"            const int k = kb + i;\n"
"            if (k >= K)\n"
"                break;\n"
"            sgw_load<PL>(q0[(i + PF) % D0], in, ys + k + PF, ny, sy, cx, cin);\n"
"#else\n"
"#pragma unroll 1\n"
"    for (int k = 0; k < K; k++) {\n"
"        {\n"
"            const int i = 0;\n"
"#if ST == 2\n"
"            sgw_issue<PL>(ring + wslot * P * 32, in, ys + k + PF, ny, sy, cx, cin);\n"
"            sgw_take(q0[0], ring + rslot * P * 32);\n"
"            wslot = wslot == PF ? 0 : wslot + 1;\n"
"            rslot = rslot == PF ? 0 : rslot + 1;\n"
"#else\n"
"            sgw_load<PL>(q0[PF], in, ys + k + PF, ny, sy, cx, cin);\n"
"#endif\n"
"#endif\n"
"#pragma unroll\n"
"            for (int si = 1; si <= T; si++) {\n"
"                /* stage s takes row m = k - (s-1)*R - lag of stage s-1 (the\n"
"                   input for s = 1) and completes its row m - R */\n"
"                const int s = SK ? T + 1 - si : si;\n"
"                const int lag = SK * (s - 1);\n"
"                const int gy = ys + k - s * R - lag;\n"
"                real e[P + 2 * R];\n"
"                sga_halo(s == 1 ? q0[i % D0] : pend[s - 1], e);\n"
"#if AC == 1\n"
"                const int ms = (i - (s - 1) * R - lag + (T + 2) * D) % D;\n"
"                sga_add(e, ms, acc[s]);\n"
"                sga_done<T, PL>(acc[s][(ms - R + D) % D], pend[s], s, gy, in, out, ny, sy, y0, yend, gx0, cx, cin,\n"
"                                cst, cband);\n"
"#else\n"
"                /* m = R: slot c holds output m - R + c, the row completing in 0 */\n"
"                sga_add(e, R, acc[s]);\n"
"                sga_done<T, PL>(acc[s][0], pend[s], s, gy, in, out, ny, sy, y0, yend, gx0, cx, cin, cst, cband);\n"
"#pragma unroll\n"
"                for (int c = 1; c < D; c++)\n"
"#pragma unroll\n"
"                    for (int j = 0; j < P; j++)\n"
"                        acc[s][c - 1][j] = acc[s][c][j];\n"
"#endif\n"
"            }\n"
"#if AC == 2 && ST != 2\n"
"#pragma unroll\n"
"            for (int d = 0; d < PF; d++)\n"
"#pragma unroll\n"
"                for (int j = 0; j < P; j++)\n"
"                    q0[d][j] = q0[d + 1][j];\n"
"#endif\n"
"        }\n"
"    }\n"
"}\n";

/* DESIGN=1: the kernel's warp, its strip and chunk, and the choice of the
 * stream (plain or general) */
static const char warp_run[] =
"template <int T>\n"
"__device__ __forceinline__ void sgw_run(const real *__restrict__ in, real *__restrict__ out, int nx, int ny, i64 sy)\n"
"{\n"
"    constexpr int W = SGW_SW - 2 * T * R;          /* the columns a strip stores */\n"
"#if XH\n"
"    const int xs = ORX + blockIdx.x * W;            /* the block's strip */\n"
"    if (xs >= nx - ORX)\n"
"        return;                                     /* the whole block */\n"
"    /* the stages' rows, T * D of XS values; zeroed once (the padding is\n"
"       read, never stored; a row before the chunk's first is read by\n"
"       points never stored): no value of another block's run is read */\n"
"    extern __shared__ real sgw_xs[];\n"
"    for (int e = threadIdx.x; e < T * D * XS; e += NT)\n"
"        sgw_xs[e] = (real)0;\n"
"    __syncthreads();\n"
"    real *xb = sgw_xs + R + threadIdx.x;            /* the thread's column of lanes */\n"
"#else\n"
"    const int xs = ORX + (blockIdx.x * (NT / 32) + (threadIdx.x >> 5)) * W;\n"
"    if (xs >= nx - ORX)\n"
"        return;                                     /* a whole warp: no barrier anywhere */\n"
"    real *xb = nullptr;\n"
"#endif\n"
"    const int y0 = OR + blockIdx.y * ZC, yend = min(y0 + ZC, ny - OR);\n"
"#if ST == 2\n"
"    __shared__ real sgw_rings[NT / 32][(PF + 1) * P * 32];  /* a warp's ring of PF + 1 rows */\n"
"    real *ring = sgw_rings[threadIdx.x >> 5];\n"
"#else\n"
"    real *ring = nullptr;\n"
"#endif\n"
"    if (PLAIN && BND != 1 && xs - T * R >= R && xs - T * R + SGW_SW <= nx - R && y0 - T * R >= R\n"
"        && yend + T * R <= ny - R)\n"
"        sgw_body<T, true>(in, out, nx, ny, sy, xs, y0, yend, ring, xb);  /* uniform: the whole warp (XH: block) */\n"
"    else\n"
"        sgw_body<T, false>(in, out, nx, ny, sy, xs, y0, yend, ring, xb);\n"
"#if ST == 2\n"
"    /* the last PF rows issued (past the chunk, never read) still in flight:\n"
"       drained before the warp exits, whose block's shared memory the next\n"
"       block gets (the PTX ISA does not say that an exit waits for the\n"
"       thread's pending cp.async) */\n"
"    asm volatile(\"cp.async.wait_all;\\n\" ::: \"memory\");\n"
"#endif\n"
"}\n";

/* DESIGN=1: the x halo of a row: E[R - h] (h = 1..-lo) and E[R + P - 1 + h]
 * (h = 1..hi) from the lanes holding those columns of the row V (the
 * lane's P columns): column h to the left of the lane's first is in lane
 * - m, m = ceil(h/P), its value m*P - h; to the right of its last in lane
 * + m, value h - 1 - (m-1)*P (PX >= r: always the next lane). */
static void put_halo_shuffles(sbuf *b, const char *ind, const char *e, const char *v, int lo, int hi)
{
    if (lo < 0)
        put(b, "#pragma unroll\n%sfor (int h = 1; h <= %d; h++) %s[R - h] = __shfl_up_sync(0xffffffffu, "
               "%s[((h + P - 1) / P) * P - h], (h + P - 1) / P);\n", ind, -lo, e, v);
    if (hi > 0)
        put(b, "#pragma unroll\n%sfor (int h = 1; h <= %d; h++) %s[R + P - 1 + h] = "
               "__shfl_down_sync(0xffffffffu, %s[h - 1 - ((h + P - 1) / P - 1) * P], (h + P - 1) / P);\n", ind, hi,
            e, v);
}

/* DESIGN=1, XH = 1: the centre row's x halo from the block's shared row
 * XC (the lane's own column j at XC[j * XL]; the lane m to the left or
 * right at -m or +m), the columns as put_halo_shuffles takes them */
static void put_halo_shared(sbuf *b, const char *ind, const char *e, int lo, int hi)
{
    if (lo < 0)
        put(b, "#pragma unroll\n%sfor (int h = 1; h <= %d; h++) %s[R - h] = xc[(((h + P - 1) / P) * P - h) * XL - "
               "(h + P - 1) / P];\n", ind, -lo, e);
    if (hi > 0)
        put(b, "#pragma unroll\n%sfor (int h = 1; h <= %d; h++) %s[R + P - 1 + h] = xc[(h - 1 - ((h + P - 1) / P - 1) "
               "* P) * XL + (h + P - 1) / P];\n", ind, hi, e);
}

/* DESIGN=1: the chain of every point of a lane's PX columns, from the
 * 2r+1 rows of the previous stage (slot (s0 + d) mod D holds row dy = d -
 * R); each row's x halo from the neighbour lanes, only as wide as the
 * description uses it in that row.  XH = 1: only the centre row may have
 * points off the centre column (a star), its halo from the shared row xc. */
static gk_status put_warp_apply(sbuf *b, const gk__stencil_spec *s, int f32, int xh)
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
    for (int d = 0; d <= 2 * r; d++)
        if (xh && d != r && (lo[d] || hi[d]))
            return gk__fail(GK_EINVAL, "stencil %s: XH=1 takes only the centre row's x halo from shared memory, but "
                            "row dy=%d has points off the centre column (XH=1 is for stars)", s->key, d - r);
    put(b, "template <int L>\n__device__ __forceinline__ void sgw_apply(const real (&v)[L][P], int s0, real (&o)[P]%s)\n{\n",
        xh ? ", const real *xc" : "");
    if (xh)
        put(b, "    (void)xc;\n");
    for (int d = 0; d <= 2 * r; d++) {
        if (!used[d]) continue;
        put(b, "    real e%d[P + 2 * R];\n    {\n        const int sl = (s0 + %d) %% L;\n", d, d);
        put(b, "#pragma unroll\n        for (int j = 0; j < P; j++) e%d[R + j] = v[sl][j];\n", d);
        char e[8];
        snprintf(e, sizeof e, "e%d", d);
        if (xh)
            put_halo_shared(b, "        ", e, lo[d], hi[d]);
        else
            put_halo_shuffles(b, "        ", e, "v[sl]", lo[d], hi[d]);
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
    return GK_OK;
}

/* DESIGN=1, AC = 1 and 2: sga_halo, a row of the lane's PX columns with the x
 * halo of every row of the description (shuffled once), and sga_add, its
 * terms into the accumulators: row dy of an output's window is the input
 * row m, so output m - dy (slot (m - dy) mod D) takes the description's
 * points of row dy, in their order; the first point of all starts the
 * chain (a product), as in the gather. */
static void put_warp_acc(sbuf *b, const gk__stencil_spec *s, int f32)
{
    int r = s->radius, lo = 0, hi = 0;
    for (int i = 0; i < s->npoints; i++) {
        if (s->dx[i] < lo) lo = s->dx[i];
        if (s->dx[i] > hi) hi = s->dx[i];
    }
    put(b, "__device__ __forceinline__ void sga_halo(const real (&v)[P], real (&e)[P + 2 * R])\n{\n");
    put(b, "#pragma unroll\n    for (int j = 0; j < P; j++) e[R + j] = v[j];\n");
    put(b, "#pragma unroll\n    for (int h = 1; h <= R; h++) e[R - h] = e[R + P - 1 + h] = (real)0;\n");
    put_halo_shuffles(b, "    ", "e", "v", lo, hi);
    put(b, "}\n\n__device__ __forceinline__ void sga_add(const real (&e)[P + 2 * R], int m, real (&a)[D][P])\n{\n");
    for (int d = 0; d <= 2 * r; d++) {
        int any = 0;
        for (int i = 0; i < s->npoints; i++) {
            if (s->dy[i] + r != d) continue;
            char lit[64];
            snprintf(lit, sizeof lit, f32 ? "%af" : "%a", s->w[i]);
            if (!any)
                put(b, "    {\n        real (&o)[P] = a[(m + %d) %% D];\n#pragma unroll\n        for (int j = 0; j < P; j++) {\n",
                    2 * r + 1 + r - d);
            any = 1;
            if (i == 0)
                put(b, "            o[j] = %s(%s, e[R + j + (%d)]);\n", f32 ? "__fmul_rn" : "__dmul_rn", lit, s->dx[i]);
            else
                put(b, "            o[j] = %s(%s, e[R + j + (%d)], o[j]);\n", f32 ? "fmaf" : "fma", lit, s->dx[i]);
        }
        if (any)
            put(b, "        }\n    }\n");
    }
    put(b, "}\n\n");
}

/* DESIGN=1 and 2: where the tiles start, OR in y and z (2D: y), ORX in x
 * (gk__stencil_gen_origin: r with the fixed boundary, x with OX=1) */
static void put_origins(sbuf *b, const gk__stencil_spec *s, const gk_config *cfg)
{
    put(b, "#define OR %d\n#define ORX %d\n", gk__stencil_gen_origin(cfg, (int)s->boundary, s->radius),
        gk__stencil_gen_origin_x(cfg, (int)s->boundary, s->radius));
}

static gk_status warp_source(const gk__stencil_spec *s, const gk_config *cfg, int tmax, char **src)
{
    int f32 = s->dtype == GK_DTYPE_FLOAT32, px = gk__config_get(cfg, "PX", 4), ac = gk__config_get(cfg, "AC", 0);
    if (s->dims != 2 || px < 1 || px > 8)
        return gk__fail(GK_EINVAL, "stencil_gen: DESIGN=1 needs a 2D description and PX in 1..8 (%s, PX=%d)",
                        s->key, px);
    sbuf b = { 0 };
    put(&b, "// generated by gk for %s, DESIGN=1 (src/gpu/stencil_gen_src.c: the design)\n", s->key);
    put(&b, "typedef %s real;\n", f32 ? "float" : "double");
    put(&b, "#define R %d\n#define BND %d\n#define P %d\n#define NT %d\n#define ZC %d\n#define PF %d\n#define SK %d\n"
                "#define PLAIN %d\n",
        s->radius, (int)s->boundary, px, gk__param(cfg, "NT"), gk__param(cfg, "ZC"), gk__config_get(cfg, "PF", 1),
        gk__config_get(cfg, "SK", 0) ? 1 : 0, gk__config_get(cfg, "PL", 0) ? 1 : 0);
    int xh = gk__stencil_gen_xh(cfg);
    put(&b, "#define D (2 * R + 1)\n#define AC %d\n#define ST %d\n#define XH %d\n", ac, gk__stencil_gen_st(cfg), xh);
    /* XH = 1: a stage's row in shared memory, P values a lane, [j][R + NT +
     * R] (consecutive threads, consecutive words: no bank conflict), R
     * lanes of padding a side (the block's halo columns read them; their
     * values are never stored); D rows a stage (row k in slot k mod D, read
     * R to R + 1 iterations after it is written) */
    if (xh)
        put(&b, "#define XL (NT + 2 * R)\n#define XS (P * XL)\n");
    put_origins(&b, s, cfg);
    /* MB > 0: the registers capped for MB blocks of NT threads per SM */
    char mb[16] = "";
    if (gk__config_get(cfg, "MB", 0) > 0)
        snprintf(mb, sizeof mb, ", %d", gk__config_get(cfg, "MB", 0));
    if (ac)
        put_warp_acc(&b, s, f32);
    else if (put_warp_apply(&b, s, f32, xh)) {
        free(b.p);
        return GK_EINVAL;
    }
    put(&b, "%s\n%s\n%s\n", warp_body, ac ? warp_acc_body : warp_gather_body, warp_run);
    for (int t = 1; t <= tmax; t++)
        put(&b, "extern \"C\" __global__ void __launch_bounds__(NT%s) gk_sg_t%d(const real *__restrict__ in, "
                "real *__restrict__ out, int nx, int ny, int nz, i64 sy, i64 sz)\n"
                "{\n    (void)ny; (void)sy;\n    sgw_run<%d>(in, out, nx, nz, sz);\n}\n", mb, t, t);
    if (b.bad) {
        free(b.p);
        return gk__fail(GK_ENOMEM, "out of host memory for the generated stencil source");
    }
    *src = b.p;
    return GK_OK;
}

/* DESIGN=2 (3D only): the generic part (see the comment at the top).  The
 * generator writes sgz_load (below, generic) and sgz_p<i> (one per queue
 * phase i = k mod DQ: the plane's terms into the accumulators, slots as
 * constants) and the kernel's stream loop, unrolled by DQ. */
static const char z_body[] =
"typedef long long i64;\n"
"#define PW (TX + 2 * R)\n"
"#define PH (TY + 2 * R)\n"
"#define PLANE (PW * PH)\n"
"#define NL ((PLANE + NT - 1) / NT)\n"
"/* thread tid (< NT) has point tid + j*NT of a plane: always below the\n"
"   last j (NL - 1 whole rounds of NT fit in the plane), and in the last\n"
"   when NT divides the plane; a compile-time true after unrolling, not a\n"
"   test and a branch per copy */\n"
"#define SGZ_MINE(tid, j) ((j) < NL - 1 || PLANE % NT == 0 || (tid) + (j) * NT < PLANE)\n"
"#define DQ (2 * R + 1)\n"
"#if RX * RY > 32\n"
"typedef unsigned long long sgz_mask;\n"
"#else\n"
"typedef unsigned sgz_mask;\n"
"#endif\n"
"static_assert(RX * RY <= 64, \"a bit per output of a thread (the rules' registers keep RX*RY <= 53)\");\n"
"\n"
"/* i within one period of [0, n) for -n <= i < 2n (a tile's halo is T*R\n"
"   and the host keeps T*R <= every extent: a precondition of the address's\n"
"   safety); beyond n + T*R only points that are never stored read it: any\n"
"   index in the grid does (no division in the load) */\n"
"__device__ __forceinline__ int sgz_wrap(int i, int n) { i = i < 0 ? i + n : i >= n ? i - n : i; return min(i, n - 1); }\n"
"\n"
"/* What a thread's loads and stores need of x and y, computed once before\n"
"   the stream (the same in every plane; only the plane's offset changes):\n"
"   the loads, the thread's points tid, tid + NT, ... of the tile's plane\n"
"   (plus R of halo): src[j] their address in plane 0 (periodic: wrapped),\n"
"   bit j % 32 of lok[j / 32] set when the point is in the grid (zero and\n"
"   fixed; outside, 0 is loaded; NL passes 32 when RX*RY nears 32: a word\n"
"   per 32 points, j a constant after unrolling); the stores, the thread's\n"
"   RY x RX outputs: o the offset of its first in a plane, bit jy*RX+jx of\n"
"   smask set when that output is stored (in the grid, and H or more inside\n"
"   the tile), of gmask when it is in the grid, of bmask when it is in the\n"
"   grid and within R of an x or y face (fixed: it keeps its value), band\n"
"   when one of them is within R of an x or y face.\n"
"   Without this each plane redid the divisions, wraps, compares and 64-bit\n"
"   products of every point: most of the instructions of a star's plane */\n"
"struct sgz_xy {\n"
"    const real *src[NL];\n"
"    unsigned lok[(NL + 31) / 32];\n"
"    i64 o;\n"
"    sgz_mask smask, gmask, bmask;\n"
"    bool band;\n"
"};\n"
"\n"
"template <int H>\n"
"__device__ __forceinline__ void sgz_xy_init(sgz_xy &t, const real *__restrict__ in, int lx0, int ly0, int x0, int y0,\n"
"                                            int nx, int ny, i64 sy)\n"
"{\n"
"#pragma unroll\n"
"    for (int w = 0; w < (NL + 31) / 32; w++)\n"
"        t.lok[w] = 0;\n"
"#pragma unroll\n"
"    for (int j = 0; j < NL; j++) {\n"
"        const int idx = threadIdx.x + j * NT;\n"
"        const int ly = idx / PW, lx = idx % PW;\n"
"        const int gx = x0 - R + lx, gy = y0 - R + ly;\n"
"#if BND == 1\n"
"        t.src[j] = in + (i64)sgz_wrap(gy, ny) * sy + sgz_wrap(gx, nx);\n"
"#else\n"
"        const bool ok = gx >= 0 && gx < nx && gy >= 0 && gy < ny;\n"
"        t.src[j] = ok ? in + (i64)gy * sy + gx : in;\n"
"        if (ok) t.lok[j / 32] |= 1u << (j % 32);\n"
"#endif\n"
"    }\n"
"    t.o = (i64)(y0 + ly0) * sy + (x0 + lx0);\n"
"    t.smask = 0;\n"
"    t.gmask = 0;\n"
"    t.bmask = 0;\n"
"#pragma unroll\n"
"    for (int jy = 0; jy < RY; jy++)\n"
"#pragma unroll\n"
"        for (int jx = 0; jx < RX; jx++) {\n"
"            const int lx = lx0 + jx, ly = ly0 + jy, gx = x0 + lx, gy = y0 + ly;\n"
"            const bool g = gx >= 0 && gx < nx && gy >= 0 && gy < ny;\n"
"            if (g) t.gmask |= (sgz_mask)1 << (jy * RX + jx);\n"
"            if (g && (gx < R || gx >= nx - R || gy < R || gy >= ny - R)) t.bmask |= (sgz_mask)1 << (jy * RX + jx);\n"
"            if (g && (H == 0 || (lx >= H && lx < TX - H && ly >= H && ly < TY - H)))\n"
"                t.smask |= (sgz_mask)1 << (jy * RX + jx);\n"
"        }\n"
"    t.band = x0 + lx0 < R || y0 + ly0 < R || x0 + lx0 + RX > nx - R || y0 + ly0 + RY > ny - R;\n"
"}\n"
"\n"
"/* plane p of the block's tile (plus R of halo in x and y) into ld: the\n"
"   thread's points tid, tid + NT, ... of the plane */\n"
"__device__ __forceinline__ void sgz_load(const sgz_xy &t, int p, int nz, i64 sz, real (&ld)[NL])\n"
"{\n"
"#if BND == 1\n"
"    const i64 po = (i64)sgz_wrap(p, nz) * sz;\n"
"#else\n"
"    const bool zin = p >= 0 && p < nz;\n"
"    const i64 po = (i64)(zin ? p : 0) * sz;\n"
"#endif\n"
"#pragma unroll\n"
"    for (int j = 0; j < NL; j++)\n"
"        if (SGZ_MINE(threadIdx.x, j)) {\n"
"#if BND == 1\n"
"            ld[j] = t.src[j][po];\n"
"#else\n"
"            ld[j] = zin && (t.lok[j / 32] >> (j % 32) & 1) ? t.src[j][po] : (real)0;\n"
"#endif\n"
"        }\n"
"}\n"
"\n"
"/* PF >= 2: plane p of the tile (as sgz_load) copied into the shared plane\n"
"   dst without passing through registers (cp.async: the copies of PF planes\n"
"   in flight at once, where the register prefetch has one); a point outside\n"
"   the grid is written 0 by the copy itself (source size 0).  Before sm_80,\n"
"   a plain load and store (correct, synchronous) */\n"
"__device__ __forceinline__ void sgz_cp(real *dst, const real *src, bool ok)\n"
"{\n"
"#if __CUDA_ARCH__ >= 800\n"
"    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);\n"
"    asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2, %3;\\n\" :: \"r\"(d), \"l\"(src), \"n\"((int)sizeof(real)),\n"
"                 \"r\"(ok ? (int)sizeof(real) : 0) : \"memory\");\n"
"#else\n"
"    *dst = ok ? *src : (real)0;\n"
"#endif\n"
"}\n"
"\n"
"/* the copies issued since the last commit form one group */\n"
"__device__ __forceinline__ void sgz_commit()\n"
"{\n"
"#if __CUDA_ARCH__ >= 800\n"
"    asm volatile(\"cp.async.commit_group;\\n\" ::: \"memory\");\n"
"#endif\n"
"}\n"
"\n"
"/* this thread's copies done except those of the last N groups */\n"
"template <int N>\n"
"__device__ __forceinline__ void sgz_wait()\n"
"{\n"
"#if __CUDA_ARCH__ >= 800\n"
"    asm volatile(\"cp.async.wait_group %0;\\n\" :: \"n\"(N) : \"memory\");\n"
"#endif\n"
"}\n"
"\n"
"__device__ __forceinline__ void sgz_copy(const sgz_xy &t, int p, int nz, i64 sz, real *dst)\n"
"{\n"
"#if BND == 1\n"
"    const i64 po = (i64)sgz_wrap(p, nz) * sz;\n"
"#else\n"
"    const bool zin = p >= 0 && p < nz;\n"
"    const i64 po = (i64)(zin ? p : 0) * sz;\n"
"#endif\n"
"#pragma unroll\n"
"    for (int j = 0; j < NL; j++)\n"
"        if (SGZ_MINE(threadIdx.x, j)) {\n"
"#if BND == 1\n"
"            sgz_cp(dst + threadIdx.x + j * NT, t.src[j] + po, true);\n"
"#else\n"
"            const bool ok = zin && (t.lok[j / 32] >> (j % 32) & 1);\n"
"            sgz_cp(dst + threadIdx.x + j * NT, t.src[j] + po, ok);\n"
"#endif\n"
"        }\n"
"}\n"
"\n"
"/* plane q of a stage from the accumulators a[slot]: the thread's RY x RX\n"
"   points (tile-local lx0.., ly0..; the tile's origin x0, y0 in the grid).\n"
"   LAST: to the grid, the points H or more inside the tile (H = (T-1)*R:\n"
"   the halo the earlier stages computed for it) and in the grid.  Else to\n"
"   the next stage's shared plane dst, the boundary applied: zero, a point\n"
"   outside the grid is 0; periodic, as computed (its halo points are the\n"
"   wrapped points); fixed, a point within R of a face keeps its value (the\n"
"   input's: it never changes; points outside the grid feed only those, so\n"
"   they stay as computed).  The fixed band is tested per thread first\n"
"   (a branch, divergent only in the warps at a face): the threads away from\n"
"   the faces, nearly all, never load from the input here (a predicated load in the store path\n"
"   cost up to 30 percent on an H200).  The band's points are the masks'\n"
"   (sgz_xy), not compares of every point: those the compiler hoisted out\n"
"   of the stream, 34 registers more (the float32 star, RX=2 x RY=4, T=3) */\n"
"template <bool LAST, int H>\n"
"__device__ __forceinline__ void sgz_out(const sgz_xy &t, const real *__restrict__ in, real *__restrict__ out,\n"
"                                        real *dst, const real (&a)[RY][RX], int q, int lx0, int ly0, int x0, int y0,\n"
"                                        int nx, int ny, int nz, i64 sy, i64 sz)\n"
"{\n"
"    (void)nz; (void)out; (void)dst; (void)in; (void)x0; (void)y0; (void)nx; (void)ny;\n"
"#if BND == 2\n"
"    if (q < R || q >= nz - R || t.band) {\n"
"        const bool zin = q >= 0 && q < nz, zband = q < R || q >= nz - R;\n"
"        /* kept: in the grid, and in a z band plane or an x or y band */\n"
"        const sgz_mask keep = zin ? (zband ? t.gmask : t.bmask) : (sgz_mask)0;\n"
"        const i64 qo = (i64)q * sz + t.o;\n"
"#pragma unroll\n"
"        for (int jy = 0; jy < RY; jy++) {\n"
"            const int ly = ly0 + jy;\n"
"#pragma unroll\n"
"            for (int jx = 0; jx < RX; jx++) {\n"
"                const int lx = lx0 + jx;\n"
"                const i64 o = qo + jy * sy + jx;\n"
"                real v = a[jy][jx];\n"
"                if (keep >> (jy * RX + jx) & 1) v = in[o];\n"
"                if (!LAST)\n"
"                    dst[(ly + R) * PW + lx + R] = v;\n"
"                else if (t.smask >> (jy * RX + jx) & 1)\n"
"                    out[o] = v;\n"
"            }\n"
"        }\n"
"        return;\n"
"    }\n"
"#else\n"
"    const bool zin = q >= 0 && q < nz;\n"
"    (void)zin;\n"
"#endif\n"
"    const i64 qo = (i64)q * sz + t.o;\n"
"#pragma unroll\n"
"    for (int jy = 0; jy < RY; jy++) {\n"
"        const int ly = ly0 + jy;\n"
"#pragma unroll\n"
"        for (int jx = 0; jx < RX; jx++) {\n"
"            const int lx = lx0 + jx;\n"
"            real v = a[jy][jx];\n"
"            if (LAST) {\n"
"                if (t.smask >> (jy * RX + jx) & 1)\n"
"                    out[qo + jy * sy + jx] = v;\n"
"            } else {\n"
"#if BND == 0\n"
"                if (!(zin && (t.gmask >> (jy * RX + jx) & 1))) v = (real)0;\n"
"#endif\n"
"                dst[(ly + R) * PW + lx + R] = v;\n"
"            }\n"
"        }\n"
"    }\n"
"}\n";

/* DESIGN=2: sgz_p<i>, the terms of the plane just loaded (window origin
 * sp: the thread's first output's (x - R, y - R)) for queue phase i.  An
 * output at (jy, jx) of the thread whose plane is dz away from the loaded
 * one lives in slot (i - dz) mod DQ (output index k - dz, k the plane's).
 * The window's values are read once each, in ascending (y, x), and each is
 * added to every accumulator whose chain has it: for one accumulator the
 * terms come in ascending (dy, dx) within the plane, the planes in
 * ascending dz, the first point of the description (index 0) as w0*v0, so
 * the chain is the contract's. */
/* 1 if column wx of window row wy holds a point of some output's chain
 * (put_z_plane's window: RX + 2r columns, RY + 2r rows) */
static int z_column_used(const gk__stencil_spec *s, int rx, int ry, int wy, int wx, const short *at)
{
    int r = s->radius, n = 2 * r + 1;
    for (int dz = -r; dz <= r; dz++)
        for (int jy = 0; jy < ry; jy++)
            for (int jx = 0; jx < rx; jx++) {
                int dy = wy - r - jy, dx = wx - r - jx;
                if (dy >= -r && dy <= r && dx >= -r && dx <= r && at[((dz + r) * n + dy + r) * n + dx + r] >= 0)
                    return 1;
            }
    return 0;
}

static void put_z_plane(sbuf *b, const gk__stencil_spec *s, int f32, int rx, int ry, int i, int rot, const short *at)
{
    int r = s->radius, n = 2 * r + 1, wxn = rx + 2 * r, wyn = ry + 2 * r;
    if (rot)
        put(b, "__device__ __forceinline__ void sgz_r(const real *__restrict__ sp, real (&a)[DQ][RY][RX])\n{\n"
               "    real v;\n");
    else
        put(b, "__device__ __forceinline__ void sgz_p%d(const real *__restrict__ sp, real (&a)[DQ][RY][RX])\n{\n"
               "    real v;\n", i);
    if (rx % 2 == 0)
        put(b, "    sgz_v2 v2;\n");
    for (int wy = 0; wy < wyn; wy++)
        for (int wx = 0; wx < wxn; wx++) {
            if (!z_column_used(s, rx, ry, wy, wx, at))
                continue;
            /* RX even: the window's columns wx, wx+1 (wx even) are one
             * aligned pair (sp, the planes and PW are even: sgz_v2), read
             * by one 2-wide load where both are used (a window row of a
             * box: half the loads).  Only the loads move: every chain
             * keeps its order (the terms below, column by column) */
            if (rx % 2 == 0 && wx % 2 == 0 && wx + 1 < wxn && z_column_used(s, rx, ry, wy, wx + 1, at))
                put(b, "    v2 = *reinterpret_cast<const sgz_v2 *>(sp + %d * PW + %d);\n    v = v2.x;\n", wy, wx);
            else if (rx % 2 == 0 && wx % 2 == 1 && z_column_used(s, rx, ry, wy, wx - 1, at))
                put(b, "    v = v2.y;\n");
            else
                put(b, "    v = sp[%d * PW + %d];\n", wy, wx);
            for (int dz = -r; dz <= r; dz++)
                for (int jy = 0; jy < ry; jy++)
                    for (int jx = 0; jx < rx; jx++) {
                        int dy = wy - r - jy, dx = wx - r - jx;
                        if (dy < -r || dy > r || dx < -r || dx > r)
                            continue;
                        int k = at[((dz + r) * n + dy + r) * n + dx + r];
                        if (k < 0)
                            continue;
                        char lit[64];
                        snprintf(lit, sizeof lit, f32 ? "%af" : "%a", s->w[k]);
                        int slot = rot ? r + dz : ((i - dz) % n + n) % n;
                        if (k == 0)
                            put(b, "    a[%d][%d][%d] = %s(%s, v);\n", slot, jy, jx, f32 ? "__fmul_rn" : "__dmul_rn",
                                lit);
                        else
                            put(b, "    a[%d][%d][%d] = %s(%s, v, a[%d][%d][%d]);\n", slot, jy, jx,
                                f32 ? "fmaf" : "fma", lit, slot, jy, jx);
                    }
        }
    put(b, "}\n\n");
}

/* DESIGN=2: the kernel of t steps per pass (the stages 1..t; see the
 * comment at the top).  The stream: stage 0's plane k (k = 0..NLOAD-1, grid
 * plane zs + k, zs = z0 - t*R) is in shared buffer k&1 during iteration k;
 * iteration k prefetches plane k+1 into registers and writes it into
 * buffer (k+1)&1 at its end (last read in iteration k-1, before the
 * previous barrier).  PF >= 2: plane k is in slot k mod (PF+1) of the
 * input's ring, and the barrier moves to the start of iteration k (after
 * the wait for plane k's copies); the stages' buffers follow the ring
 * (NS = PF+1 planes in) and keep the order below: each is written and
 * read on either side of one barrier.  Stage s in iteration k adds the
 * terms of plane c = k - (s-1)(R+1) of stage s-1 (stage 0: buffer k&1; stage s-1 >= 1:
 * its buffer (k-1)&1, written in iteration k-1) to its queue, and once
 * plane c - R is complete writes it into its own buffer k&1 (stage t: the
 * grid); stage s+1 reads that buffer in iteration k+1, and read the one
 * written now in iteration k-1.  So one barrier per iteration serves every
 * stage.  Stage s's planes are valid from zs + s*R (the chain needs R
 * valid planes of stage s-1 on each side), so it waits until c >= (s-1)R
 * and writes from c >= (s+1)R; stage t's first plane is then z0 and its
 * last zend - 1, and each stage stops after the last plane stage t needs.
 * In x and y a thread's points are tile points: stage 1 is valid on the
 * whole TX x TY tile (stage 0 loads R of halo around it), stage s >= 2 on
 * all but its outer (s-1)R (the padding of a stage's plane is 0, never
 * written); the block stores the inner (TX - 2H) x (TY - 2H), H = (t-1)R,
 * and the tiles overlap by 2H (the halos are computed by both). */
static void put_z_kernel(sbuf *b, int t, int r, int rot, int pf)
{
    int n = 2 * r + 1, h = (t - 1) * r;
    put(b, "extern \"C\" __global__ void __launch_bounds__(NT) gk_sg_t%d(const real *__restrict__ in, "
           "real *__restrict__ out, int nx, int ny, int nz, i64 sy, i64 sz)\n{\n"
           "    extern __shared__ __align__(16) real sg_buf[];\n"
           "    constexpr int T = %d, H = %d;\n"
           "    const int tid = threadIdx.x, lx0 = tid %% (TX / RX) * RX, ly0 = tid / (TX / RX) * RY;\n"
           "    const int x0 = ORX + blockIdx.x * (TX - 2 * H) - H, y0 = OR + blockIdx.y * (TY - 2 * H) - H;\n"
           "    const int z0 = OR + blockIdx.z * ZC, zend = min(z0 + ZC, nz - OR), zs = z0 - T * R;\n"
           "    const int NLOAD = zend - z0 + 2 * T * R, K = NLOAD + (T - 1) * (R + 1) - (T - 1) * R;\n"
           "    const int off = ly0 * PW + lx0;\n"
           "    sgz_xy xy;\n"
           "    sgz_xy_init<H>(xy, in, lx0, ly0, x0, y0, nx, ny, sy);\n", t, t, h);
    if (pf == 1)
        put(b, "    real ld[NL];\n");
    else
        put(b, "    int cur = 0;                  /* the ring's slot of input plane k: k mod NS */\n");
    /* K: stage t's last plane zend - 1 comes when c = NLOAD - (t-1)R - 1,
     * i.e. k = c + (t-1)(R+1) */
    for (int st = 1; st <= t; st++)
        put(b, "    real a%d[DQ][RY][RX];\n"
               "#pragma unroll\n    for (int d = 0; d < DQ; d++)\n"
               "#pragma unroll\n        for (int jy = 0; jy < RY; jy++)\n"
               "#pragma unroll\n            for (int jx = 0; jx < RX; jx++)\n"
               "                a%d[d][jy][jx] = (real)0;\n", st, st);
    if (t > 1)
        put(b, "    for (int j = tid; j < 2 * (T - 1) * PLANE; j += NT)   /* the stages' planes: padding 0 */\n"
               "        sg_buf[NS * PLANE + j] = (real)0;\n");
    if (pf == 1)
        put(b, "    sgz_load(xy, zs, nz, sz, ld);\n"
               "#pragma unroll\n    for (int j = 0; j < NL; j++)\n"
               "        if (SGZ_MINE(tid, j)) sg_buf[tid + j * NT] = ld[j];\n"
               "    __syncthreads();\n");
    else                /* planes 0..PF-1 in flight, a group each (the loop's wait counts groups) */
        put(b, "#pragma unroll\n    for (int p = 0; p < PF; p++) {\n"
               "        if (p < NLOAD) sgz_copy(xy, zs + p, nz, sz, sg_buf + p * PLANE);\n"
               "        sgz_commit();\n    }\n");
    const char *ind = rot ? "        " : "            ";
    if (rot)
        put(b, "#pragma unroll 1\n    for (int k = 0; k < K; k++) {\n");
    else
        put(b, "    for (int kb = 0; kb < K; kb += DQ) {\n");
    for (int i = 0; i < (rot ? 1 : n); i++) {
        if (!rot)
            put(b, "        {\n            const int k = kb + %d;\n            if (k >= K) break;\n", i);
        if (pf == 1)
            put(b, "%sconst bool more = k + 1 < NLOAD;\n"
                   "%sif (more) sgz_load(xy, zs + k + 1, nz, sz, ld);\n", ind, ind);
        else            /* plane k landed (this thread's copies, then everyone's: the barrier, which
                           also ends iteration k-1: its slot, (k + PF) mod NS, is free) */
            put(b, "%ssgz_wait<PF - 1>();\n"
                   "%s__syncthreads();\n"
                   "%sif (k + PF < NLOAD)\n"
                   "%s    sgz_copy(xy, zs + k + PF, nz, sz, sg_buf + (cur == 0 ? NS - 1 : cur - 1) * PLANE);\n"
                   "%ssgz_commit();\n", ind, ind, ind, ind, ind);
        for (int st = 1; st <= t; st++) {
            int ph = ((i - (st - 1) * (r + 1)) % n + n) % n, slot = rot ? 2 * r : ((ph - r) % n + n) % n;
            put(b, "%s{   /* stage %d */\n"
                   "%s    const int c = k - %d;\n"
                   "%s    if (c >= %d && c < NLOAD - %d) {\n", ind, st, ind, (st - 1) * (r + 1), ind, (st - 1) * r,
                (st - 1) * r);
            if (st == 1)
                put(b, "%s        const real *src = sg_buf + %s * PLANE;\n", ind, pf == 1 ? "(k & 1)" : "cur");
            else
                put(b, "%s        const real *src = sg_buf + (NS + %d + ((k - 1) & 1)) * PLANE;\n", ind, 2 * (st - 2));
            if (rot)
                put(b, "%s        sgz_r(src + off, a%d);\n", ind, st);
            else
                put(b, "%s        sgz_p%d(src + off, a%d);\n", ind, ph, st);
            if (st < t)
                put(b, "%s        if (c >= %d) sgz_out<false, H>(xy, in, out, sg_buf + (NS + %d + (k & 1)) * PLANE, a%d[%d], "
                       "zs + c - R, lx0, ly0, x0, y0, nx, ny, nz, sy, sz);\n", ind, (st + 1) * r, 2 * (st - 1), st, slot);
            else
                put(b, "%s        if (c >= %d) sgz_out<true, H>(xy, in, out, nullptr, a%d[%d], zs + c - R, lx0, ly0, x0, "
                       "y0, nx, ny, nz, sy, sz);\n", ind, (st + 1) * r, st, slot);
            if (rot)
                put(b, "#pragma unroll\n%s        for (int d = 2 * R; d > 0; d--)\n"
                       "#pragma unroll\n%s            for (int jy = 0; jy < RY; jy++)\n"
                       "#pragma unroll\n%s                for (int jx = 0; jx < RX; jx++)\n"
                       "%s                    a%d[d][jy][jx] = a%d[d - 1][jy][jx];\n", ind, ind, ind, ind, st, st);
            put(b, "%s    }\n%s}\n", ind, ind);
        }
        if (pf == 1)
            put_next_plane(b, ind);
        else
            put(b, "%scur = cur + 1 == NS ? 0 : cur + 1;\n", ind);
        if (!rot)
            put(b, "        }\n");
    }
    put(b, "    }\n}\n");
}

/* DESIGN=2: the most terms (points x outputs per thread x 2r+1 phases)
 * written unrolled; beyond, the rotating queue */
#define GK__SGZ_UNROLL_TERMS 4096

static gk_status z_source(const gk__stencil_spec *s, const gk_config *cfg, int tmax, char **src)
{
    int f32 = s->dtype == GK_DTYPE_FLOAT32, r = s->radius, n = 2 * r + 1;
    int tx = gk__param(cfg, "TX"), ty = gk__param(cfg, "TY"), nt = gk__param(cfg, "NT");
    int rx = gk__config_get(cfg, "RX", 1), ry = gk__config_get(cfg, "RY", 1), pf = gk__config_get(cfg, "PF", 1);
    if (pf < 1 || pf > 4)
        return gk__fail(GK_EINVAL, "stencil_gen: DESIGN=2 takes PF=1..4, not %d (%s)", pf, s->key);
    if (s->dims != 3 || rx < 1 || ry < 1 || tx % rx || ty % ry || (tx / rx) * (ty / ry) != nt
        || tx - 2 * (tmax - 1) * r < 1 || ty - 2 * (tmax - 1) * r < 1)
        return gk__fail(GK_EINVAL, "stencil_gen: DESIGN=2 needs a 3D description, RX | TX, RY | TY, "
                        "NT = (TX/RX)*(TY/RY) and TX, TY > 2(TSTEPS-1)r (%s, TX=%d TY=%d RX=%d RY=%d NT=%d TSTEPS=%d)", s->key, tx, ty, rx, ry,
                        nt, tmax);
    /* at[(dz+r, dy+r, dx+r)]: the point's index in the chain, -1 if none */
    short at[9 * 9 * 9];
    for (int j = 0; j < n * n * n; j++)
        at[j] = -1;
    for (int k = 0; k < s->npoints; k++)
        at[((s->dz[k] + r) * n + s->dy[k] + r) * n + s->dx[k] + r] = (short)k;
    sbuf b = { 0 };
    put(&b, "// generated by gk for %s, DESIGN=2 (src/gpu/stencil_gen_src.c: the design)\n", s->key);
    put(&b, "typedef %s real;\n", f32 ? "float" : "double");
    /* two neighbouring values of a shared plane, one load (put_z_plane, RX
     * even: TX, PW = TX + 2R, PLANE and a thread's first column are even,
     * so a window's even column is 2-value aligned; sg_buf is 16 bytes) */
    put(&b, "struct __align__(%d) sgz_v2 { real x, y; };\n", f32 ? 8 : 16);
    put(&b, "#define R %d\n#define BND %d\n#define TX %d\n#define TY %d\n#define NT %d\n#define ZC %d\n"
            "#define RX %d\n#define RY %d\n#define PF %d\n#define NS %d\n", r, (int)s->boundary, tx, ty, nt,
        gk__param(cfg, "ZC"), rx, ry, pf, pf > 1 ? pf + 1 : 2);
    put_origins(&b, s, cfg);
    put(&b, "%s\n", z_body);
    /* a description too large to unroll 2r+1 times per stage (ptxas then
     * keeps a stack frame and spills: box r=4 fp64) rotates its queues
     * instead: one copy of the plane's terms (sgz_r), slot r + dz, the
     * accumulators moved down one slot per plane ((2r+1)*RX*RY moves
     * against npoints*RX*RY FMAs).  Decided per kernel (t stages). */
    int terms = s->npoints * rx * ry * n;     /* per stage; t stages rotate past GK__SGZ_UNROLL_TERMS */
    if (terms * 1 <= GK__SGZ_UNROLL_TERMS)     /* the one-step kernel, at least, unrolled */
        for (int i = 0; i < n; i++)
            put_z_plane(&b, s, f32, rx, ry, i, 0, at);
    if (terms * tmax > GK__SGZ_UNROLL_TERMS)   /* the tmax-step kernel, at least, rotating */
        put_z_plane(&b, s, f32, rx, ry, 0, 1, at);
    for (int t = 1; t <= tmax; t++)
        put_z_kernel(&b, t, r, terms * t > GK__SGZ_UNROLL_TERMS, pf);
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
    if (s->npoints < 1 || s->npoints > GK_STENCIL_MAX_POINTS || r < 1 || r > 4 || tmax < 1 || tmax > GK__SG_TMAX)
        return gk__fail(GK_EINVAL, "stencil_gen: bad description or configuration for %s", s->key);
    if (gk__config_get(cfg, "DESIGN", 0) == 1)
        return warp_source(s, cfg, tmax, src);
    if (gk__config_get(cfg, "DESIGN", 0) == 2)
        return z_source(s, cfg, tmax, src);
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
