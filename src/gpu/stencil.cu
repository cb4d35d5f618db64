// stencil.cu - the 27-point fp64 stencil on the GPU.  Kernels only.
//
// Buffers are padded (see stencil_gpu.c): the pointers the kernels get point
// at interior point (0,0,0); x pitch px, y pitch py; the one-point halo
// (index -1 and n on each axis) holds zeros that no kernel ever writes, and
// every address a tile reads further out (up to 4 points, and a partial
// tile's width and height past the far edge) is inside the allocation, so
// no load tests its index.  Every output is the FMA chain t = c0*v0,
// t = fma(ci, vi, t) for i = 1..26 in index order (dz, dy, dx), the CPU's
// order, so the backends agree to the bit.
//
// Four kernels, all built from one set of parameters:
//   gk_stencil_naive   one point per thread, 27 global loads (the baseline)
//   gk_stencil_tile    DESIGN 0: a block owns a BX x (BY*RY) tile and a z
//                      chunk; a ring of 4 planes (tile + halo) in shared
//                      memory; each point reads its 27 neighbours from it
//   gk_stencil_stream  DESIGN 1: 2.5D z-streaming; one plane (tile + halo)
//                      at a time in shared memory (double-buffered, the next
//                      plane prefetched into registers while the current one
//                      is used); each thread reads 3x(RY+2) values per plane
//                      and keeps the partial sums of three output planes
//                      per point in registers
//   gk_stencil_temporalN DESIGN 2: temporal blocking, N = TSTEPS steps per
//                      pass (N = 1..4 are all built: the host runs the
//                      remainder of a step count with a smaller N).  The
//                      2.5D stream of DESIGN 1 with N pipeline stages: the
//                      block's BX x BY*RY threads cover an extended tile,
//                      stage s reads stage s-1's newest plane from shared
//                      memory (3 x (RY+2) values per thread), keeps the
//                      partial sums of three output planes in registers and
//                      writes its finished plane to shared memory (stage N:
//                      to the grid).  The valid region shrinks by one point
//                      per stage on each side in x and y (halos recomputed by
//                      the neighbouring tiles: overlapped tiles), so a block
//                      stores (BX-2N+2) x (BY*RY-2N+2) points; z is streamed
//                      with N extra planes each side of the chunk.  Stage s
//                      at iteration k reads the plane stage s-1 finished at
//                      iteration k-1 (double-buffered), so one barrier per
//                      iteration serves all stages.  Values outside the
//                      grid are stored as 0 at every stage: the zero halo of
//                      every intermediate step.
//   gk_stencil_fma_ceiling  chains of independent fp64 FMAs: the arithmetic
//                      ceiling measured in the same run as the benchmark

// Two options of DESIGN 1 and 2 (the tile of DESIGN 0 takes RX too):
//   RX = 2  each thread owns two adjacent x columns: the tile is 2*BX wide,
//           a thread reads its 4-wide window of a row with two 16-byte
//           shared loads (2 values per output instead of 3) and carries
//           2*RY independent chains per stage
//   ASYNC   the planes go from global to shared memory with cp.async
//           into a ring of PREFETCH+1 input planes:
//           PREFETCH planes are in flight while one is used, no register
//           holds them and no thread stores them before the barrier
// Neither changes any output's FMA chain: every point still takes the 27
// terms in the CPU's order.

// The tunable parameters: their ranges, defaults and candidate values are
// described once, in src/core/space_stencil.c; the build and NVRTC pass every
// one of them as -DNAME=VALUE, so none has a default here.
//   BX      threads along x (tile width BX*RX)
//   BY      threads along y
//   RY      outputs per thread along y (tile height BY*RY)
//   RX      outputs per thread along x (1 or 2)
//   ZC      z planes per block (z chunk)
//   UNROLL  unroll of the z loop
//   DESIGN  which kernel the host launches (0 tile, 1 stream, 2 temporal);
//           all are built
//   TSTEPS  steps per pass of DESIGN 2 (1..4; the host picks the kernel)
//   PREFETCH planes loaded ahead (into registers, or with ASYNC into the
//           shared ring) by DESIGN 1 and 2 (1 or 2)
//   ASYNC   0 = register prefetch, 1 = cp.async ring (DESIGN 1 and 2)
//   MINB    blocks per SM the compiler must fit (__launch_bounds__: caps
//           the registers per thread at 65536 / (MINB * BX * BY)); 0 = no
//           minimum (the compiler's choice, not the same as 1)
//   RING    DESIGN 2 tiling: 0 = overlapped tiles (above: a block stores
//           (BX*RX-2N+2) x (BY*RY-2N+2) points), 1 = exact tiles (below:
//           a block stores BX*RX x BY*RY points; the halos of the
//           intermediate stages are computed by ring points; needs ASYNC;
//           on sm_90 and later one thread copies each input plane with
//           the TMA instead of every thread's cp.async, when the tile's
//           box allows it: ring_geo)
#ifndef BX
#error "BX must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef BY
#error "BY must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef RY
#error "RY must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef RX
#error "RX must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef ZC
#error "ZC must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef UNROLL
#error "UNROLL must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef DESIGN
#error "DESIGN must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef TSTEPS
#error "TSTEPS must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef PREFETCH
#error "PREFETCH must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef ASYNC
#error "ASYNC must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef MINB
#error "MINB must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef RING
#error "RING must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef SPLIT
#error "SPLIT must be defined (gk passes every parameter of the kernel's space)"
#endif
#if TSTEPS < 1 || TSTEPS > 4
#error "TSTEPS must be 1..4 (gk_stencil_temporal1..4 are built)"
#endif
#if RX != 1 && RX != 2
#error "RX must be 1 or 2"
#endif

#define GK_PRAGMA_(x) _Pragma(#x)
#define GK_UNROLL_(n) GK_PRAGMA_(unroll n)

#define TI (BX * RX)                 // interior width of the tile
#define TW (TI + 2)
#define TH (BY * RY + 2)
#define TPB (BX * BY)
#if MINB > 0
#define GK_BOUNDS_ __launch_bounds__(TPB, MINB)
#else
#define GK_BOUNDS_ __launch_bounds__(TPB)
#endif
// input planes in shared memory of DESIGN 1 and 2 (the ring)
#define NIN (ASYNC ? PREFETCH + 1 : 2)

struct gk_stencil_coeffs { double c[27]; };

typedef long long i64;

// A plane of the tile is loaded in two parts so that the big one is
// coalesced and aligned: the TI interior columns of each of the TH rows
// (thread (tx, ty) takes columns tx, tx+BX, ... of rows ty, ty+BY, ...), and
// the two halo columns x0-1 and x0+TI (threads tid < 2*TH).  No index is
// tested: outside the grid and its one-point halo a tile reads whatever the
// padding (or the next row) holds, every address inside the allocation
// (stencil_gpu.c), and those values only feed points outside the grid,
// which no kernel stores (DESIGN 2 stores 0 for its intermediate stages'
// points outside the grid).  So a load is one pointer step and no predicate.
#define NI ((TH + BY - 1) / BY)
#define NH ((2 * TH + TPB - 1) / TPB)

struct plane_regs { double in[NI][RX]; double h[NH]; };

// Visits every element of plane z this thread loads: f(j, c, mine, smem
// index, global pointer); j < 0 for the halo columns; not mine: the thread
// has no element there (its row or halo index is past the tile).
template <class F>
__device__ __forceinline__ void plane_elems(F f, const double *__restrict__ in, int x0, int y0, int z,
                                            int px, i64 plane, int tx, int ty, int tid)
{
    const double *row = in + (i64)z * plane + (i64)(y0 - 1) * px;
    const double *p = row + (i64)ty * px + x0 + tx;
    const i64 step = (i64)BY * px;
#pragma unroll
    for (int j = 0; j < NI; j++, p += step) {
        const int ly = ty + j * BY;
#pragma unroll
        for (int c = 0; c < RX; c++)
            f(j, c, ly < TH, ly * TW + tx + c * BX + 1, p + c * BX);
    }
#pragma unroll
    for (int j = 0; j < NH; j++) {
        const int i = tid + j * TPB, ly = i >> 1;
        f(-1 - j, 0, i < 2 * TH, ly * TW + (i & 1 ? TI + 1 : 0), row + (i64)ly * px + (i & 1 ? x0 + TI : x0 - 1));
    }
}

__device__ __forceinline__ void load_plane(plane_regs &v, const double *__restrict__ in,
                                           int x0, int y0, int z, int px, i64 plane, int tx, int ty, int tid)
{
    plane_elems([&](int j, int c, bool mine, int, const double *g) {
        const double x = mine ? __ldg(g) : 0.0;
        if (j >= 0) v.in[j][c] = x; else v.h[-1 - j] = x;
    }, in, x0, y0, z, px, plane, tx, ty, tid);
}

__device__ __forceinline__ void store_plane(double *s, const plane_regs &v, int tx, int ty, int tid)
{
#pragma unroll
    for (int j = 0; j < NI; j++) {
        int ly = ty + j * BY;
#pragma unroll
        for (int c = 0; c < RX; c++)
            if (ly < TH)
                s[ly * TW + tx + c * BX + 1] = v.in[j][c];
    }
#pragma unroll
    for (int j = 0; j < NH; j++) {
        int i = tid + j * TPB;
        if (i < 2 * TH)
            s[(i >> 1) * TW + (i & 1 ? TI + 1 : 0)] = v.h[j];
    }
}

// cp.async (sm_80 and later; a plain load and store before): one 8-byte
// copy from global to shared memory.  L2::128B: the miss brings the whole
// 128-byte line into L2 (the next lanes' and the neighbouring tiles'
// copies hit it; +0.7 % for the one-step kernel at 512^3 on the H200,
// bench/stencil_results.md)
__device__ __forceinline__ void cp8(double *dst, const double *src)
{
#if __CUDA_ARCH__ >= 800
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 8;\n" ::"r"(d), "l"(src) : "memory");
#else
    *dst = __ldg(src);
#endif
}

__device__ __forceinline__ void cp_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// wait until at most N of this thread's groups are pending
template <int N>
__device__ __forceinline__ void cp_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// The tensor memory accelerator (TMA, sm_90 and later) for RING=1: one
// thread copies a whole input plane of the tile (its halo included) into
// shared memory with one instruction, and an mbarrier counts its bytes;
// the per-thread cp.async copies and their address arithmetic leave the
// plane loop (the SASS of temporal2 spent about 60 of its ~430 non-FP64
// instructions per plane on them: bench/stencil-results.md, "TMA").  The
// box must start 16 bytes aligned in the grid, even outside it (an odd
// double index faults: an illegal instruction), so the TMA layout's x
// offset is even (ring_geo).  The map is the host's CUtensorMap
// (cuTensorMapEncodeTiled, stencil_gpu.c): 128 opaque bytes passed as a
// __grid_constant__ parameter.
struct __align__(64) gk_tmap { unsigned long long v[16]; };

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GK_HAVE_TMA_ 1
#else
#define GK_HAVE_TMA_ 0
#endif

__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

#if GK_HAVE_TMA_
__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}

// the barrier's phase completes when `bytes` have arrived (this thread's
// arrival is the one the barrier counts)
__device__ __forceinline__ void mbar_expect(unsigned long long *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes)
                 : "memory");
}

// this thread's arrival (release: its shared-memory writes before it are
// seen by the threads its phase's completion lets through)
__device__ __forceinline__ void mbar_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}

__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity)
{
    asm volatile("{\n\t.reg .pred p;\n"
                 "GK_MBAR_WAIT_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
                 "@!p bra GK_MBAR_WAIT_%=;\n}\n" ::"r"(smem_u32(bar)), "r"(parity) : "memory");
}

// box of the map at (x, y, z) into dst (128-byte aligned); outside the
// grid the TMA writes zeros
__device__ __forceinline__ void tma_load(double *dst, const gk_tmap *map, int x, int y, int z,
                                         unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(smem_u32(dst)), "l"(map), "r"(x), "r"(y), "r"(z),
                 "r"(smem_u32(bar)) : "memory");
}

// orders this thread's shared-memory writes before the TMA's accesses
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
#endif

// Starts the copy of plane z of the tile at (x0, y0) into s (ASYNC).
__device__ __forceinline__ void issue_plane(double *s, const double *__restrict__ in, int x0, int y0, int z,
                                            int px, i64 plane, int tx, int ty, int tid)
{
    plane_elems([&](int, int, bool mine, int si, const double *g) {
        if (mine)
            cp8(s + si, g);
    }, in, x0, y0, z, px, plane, tx, ty, tid);
}

// The thread's window of a plane: rows ty*RY .. ty*RY+RY+1 of the tile,
// columns tx*RX .. tx*RX+RX+1 (RX = 2: two 16-byte loads per row; TW is
// even, so every row starts 16-byte aligned).
__device__ __forceinline__ void read_window(double (&w)[RY + 2][RX + 2], const double *src, int tx, int ty)
{
#pragma unroll
    for (int r = 0; r < RY + 2; r++) {
        const double *row = src + (ty * RY + r) * TW + tx * RX;
#if RX == 2
        double2 a = *reinterpret_cast<const double2 *>(row), b = *reinterpret_cast<const double2 *>(row + 2);
        w[r][0] = a.x; w[r][1] = a.y; w[r][2] = b.x; w[r][3] = b.y;
#else
#pragma unroll
        for (int d = 0; d < 3; d++)
            w[r][d] = row[d];
#endif
    }
}

// One plane of the 2.5D stream for output (r, c) of the thread: output k-1
// gets its last nine terms (dz = +1) and is returned, output k the middle
// nine (dz = 0) in a1, output k+1 its first nine (dz = -1) in a0.
template <int WR, int WC>
__device__ __forceinline__ double stream_point(const double (&w)[WR][WC], const gk_stencil_coeffs &c,
                                               double &a0, double &a1, int r, int x)
{
    double t2 = a1, t1 = a0;
#pragma unroll
    for (int j = 0; j < 9; j++)
        t2 = fma(c.c[18 + j], w[r + j / 3][x + j % 3], t2);
#pragma unroll
    for (int j = 0; j < 9; j++)
        t1 = fma(c.c[9 + j], w[r + j / 3][x + j % 3], t1);
    double t0 = c.c[0] * w[r][x];
#pragma unroll
    for (int j = 1; j < 9; j++)
        t0 = fma(c.c[j], w[r + j / 3][x + j % 3], t0);
    a1 = t1;
    a0 = t0;
    return t2;
}

extern "C" __global__ void __launch_bounds__(256)
gk_stencil_naive(const double *__restrict__ in, double *__restrict__ out, int nx, int ny, int nz,
                 int px, int py, gk_stencil_coeffs c)
{
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, z = blockIdx.z;
    if (x >= nx || y >= ny)
        return;
    i64 plane = (i64)px * py;
    const double *p = in + (i64)z * plane + (i64)y * px + x;
    double t = c.c[0] * p[-plane - px - 1];
#pragma unroll
    for (int k = 1; k < 27; k++) {
        int dz = k / 9 - 1, dy = k / 3 % 3 - 1, dx = k % 3 - 1;
        t = fma(c.c[k], p[dz * plane + dy * px + dx], t);
    }
    out[(i64)z * plane + (i64)y * px + x] = t;
}

extern "C" __global__ void GK_BOUNDS_
gk_stencil_tile(const double *__restrict__ in, double *__restrict__ out, int nx, int ny, int nz,
                int px, int py, gk_stencil_coeffs c)
{
    extern __shared__ __align__(16) double smem[];   // 4 planes of TW x TH
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const i64 plane = (i64)px * py;
    const int x0 = blockIdx.x * TI, y0 = blockIdx.y * (BY * RY), z0 = blockIdx.z * ZC;
    const int z1 = min(z0 + ZC, nz);
    plane_regs v;
    // planes z0-1 and z0 first; plane k lives in slot (k+4) & 3
    load_plane(v, in, x0, y0, z0 - 1, px, plane, tx, ty, tid);
    store_plane(smem + ((z0 + 3) & 3) * TW * TH, v, tx, ty, tid);
    load_plane(v, in, x0, y0, z0, px, plane, tx, ty, tid);
    store_plane(smem + (z0 & 3) * TW * TH, v, tx, ty, tid);
    GK_UNROLL_(UNROLL)
    for (int z = z0; z < z1; z++) {
        // Slot (z+1)&3 held plane z-3, which nobody reads any more: every
        // thread passed the barrier after the reads of plane z-1's step.
        load_plane(v, in, x0, y0, z + 1, px, plane, tx, ty, tid);
        store_plane(smem + ((z + 1) & 3) * TW * TH, v, tx, ty, tid);
        __syncthreads();
        const double *sm = smem + ((z + 3) & 3) * TW * TH, *s0 = smem + (z & 3) * TW * TH,
                     *sp = smem + ((z + 1) & 3) * TW * TH;
#pragma unroll
        for (int cx = 0; cx < RX; cx++) {
            const int lx = tx + cx * BX + 1, x = x0 + lx - 1;
#pragma unroll
            for (int r = 0; r < RY; r++) {
                int ly = ty * RY + r + 1;
                const double *q[3] = { sm, s0, sp };
                double t = c.c[0] * sm[(ly - 1) * TW + lx - 1];
#pragma unroll
                for (int k = 1; k < 27; k++)
                    t = fma(c.c[k], q[k / 9][(ly + k / 3 % 3 - 1) * TW + lx + k % 3 - 1], t);
                int y = y0 + ty * RY + r;
                if (x < nx && y < ny)
                    out[(i64)z * plane + (i64)y * px + x] = t;
            }
        }
    }
}

// The store of the RX outputs of row y of a one-step kernel (x: the first;
// x is even when RX = 2, so a pair inside the grid is one 16-byte store).
__device__ __forceinline__ void store_row(double *__restrict__ o, int x, int nx, const double (&t)[RX])
{
#if RX == 2
    if (x + 1 < nx) {
        *reinterpret_cast<double2 *>(o) = make_double2(t[0], t[1]);
        return;
    }
#endif
    if (x < nx)
        o[0] = t[0];
}

extern "C" __global__ void GK_BOUNDS_
gk_stencil_stream(const double *__restrict__ in, double *__restrict__ out, int nx, int ny, int nz,
                  int px, int py, gk_stencil_coeffs c)
{
    extern __shared__ __align__(16) double smem[];   // NIN planes of TW x TH
    constexpr int PL = TW * TH;
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const i64 plane = (i64)px * py;
    const int x0 = blockIdx.x * TI, y0 = blockIdx.y * (BY * RY), z0 = blockIdx.z * ZC;
    const int z1 = min(z0 + ZC, nz);
    const int x = x0 + tx * RX;                // the thread's first column
    double a0[RY][RX], a1[RY][RX];             // partial sums of outputs k+1, k
#pragma unroll
    for (int r = 0; r < RY; r++)
#pragma unroll
        for (int cx = 0; cx < RX; cx++)
            a0[r][cx] = a1[r][cx] = 0.0;
#if ASYNC
    // Plane k (k = z0-1 .. z1) goes to slot (k - z0 + 1) % NIN; PREFETCH
    // groups of copies are in flight (one group per plane, empty past z1).
#pragma unroll
    for (int i = 0; i < PREFETCH; i++) {
        if (z0 - 1 + i <= z1)
            issue_plane(smem + i * PL, in, x0, y0, z0 - 1 + i, px, plane, tx, ty, tid);
        cp_commit();
    }
    int rs = 0;                                // slot of plane k
#else
    plane_regs v, v2;                          // planes k+1 (and k+2: PREFETCH 2)
    load_plane(v, in, x0, y0, z0 - 1, px, plane, tx, ty, tid);
    if (PREFETCH == 2)
        load_plane(v2, in, x0, y0, z0, px, plane, tx, ty, tid);
#endif
    GK_UNROLL_(UNROLL)
    for (int k = z0 - 1; k <= z1; k++) {
#if ASYNC
        cp_wait<PREFETCH - 1>();               // this thread's copies of plane k
        __syncthreads();                       // everyone's; slot rs-1 is free
        {
            int ws = rs == 0 ? NIN - 1 : rs - 1;
            if (k + PREFETCH <= z1)
                issue_plane(smem + ws * PL, in, x0, y0, k + PREFETCH, px, plane, tx, ty, tid);
            cp_commit();
        }
        const double *s = smem + rs * PL;
        rs = rs == NIN - 1 ? 0 : rs + 1;
#else
        double *s = smem + ((k - z0 + 1) & 1) * PL;
        store_plane(s, v, tx, ty, tid);
        __syncthreads();
        // The other buffer was last read before this barrier: refill the
        // registers with the next plane while this one is used.
        if (PREFETCH == 2) {
            v = v2;
            if (k + 1 < z1)
                load_plane(v2, in, x0, y0, k + 2, px, plane, tx, ty, tid);
        } else if (k < z1) {
            load_plane(v, in, x0, y0, k + 1, px, plane, tx, ty, tid);
        }
#endif
        double w[RY + 2][RX + 2];
        read_window(w, s, tx, ty);
#pragma unroll
        for (int r = 0; r < RY; r++) {
            double t[RX];
#pragma unroll
            for (int cx = 0; cx < RX; cx++)
                t[cx] = stream_point(w, c, a0[r][cx], a1[r][cx], r, cx);
            int y = y0 + ty * RY + r;
            if (k - 1 >= z0 && y < ny)
                store_row(out + (i64)(k - 1) * plane + (i64)y * px + x, x, nx, t);
        }
    }
}

// DESIGN 2 with NS steps per pass (see the top of the file).  Shared memory:
// NIN input planes (the ring), then 2 planes per intermediate stage
// s = 1..NS-1 (by parity of the plane) of TW x TH.
template <int NS>
__device__ __forceinline__ void temporal(const double *__restrict__ in, double *__restrict__ out,
                                         int nx, int ny, int nz, int px, int py,
                                         const gk_stencil_coeffs &c, double *smem,
                                         const gk_tmap *)                     // RING=1's map
{
    constexpr int PL = TW * TH;
    constexpr int OW = TI - 2 * (NS - 1), OH = BY * RY - 2 * (NS - 1);
    static_assert(OW >= 1 && OH >= 1, "tile too small for NS steps (space_stencil.c rejects it)");
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const i64 plane = (i64)px * py;
    for (int i = tid; i < (NIN + 2 * (NS - 1)) * PL; i += TPB)
        smem[i] = 0.0;                           // the never-written edges
    __syncthreads();
    // global coordinates of column 0 / row 0 of the extended tile
    const int X0 = blockIdx.x * OW - (NS - 1), Y0 = blockIdx.y * OH - (NS - 1);
    const int z0 = blockIdx.z * ZC, z1 = min(z0 + ZC, nz);
    bool xin[RX], xout[RX];
#pragma unroll
    for (int cx = 0; cx < RX; cx++) {
        const int lx = tx * RX + cx, x = X0 + lx;
        xin[cx] = x >= 0 && x < nx;
        // the output columns: stage NS is valid on lx in [NS-1, TI-NS]
        xout[cx] = lx >= NS - 1 && lx <= TI - NS && xin[cx];
    }
    double a0[NS][RY][RX], a1[NS][RY][RX];
#pragma unroll
    for (int s = 0; s < NS; s++)
#pragma unroll
        for (int r = 0; r < RY; r++)
#pragma unroll
            for (int cx = 0; cx < RX; cx++)
                a0[s][r][cx] = a1[s][r][cx] = 0.0;
    // Stage s (1..NS) is needed on planes [z0-(NS-s), z1-1+(NS-s)]; at
    // iteration k it reads plane k-2(s-1) of stage s-1 and finishes the
    // plane below it.  The input (stage 0) is needed on [z0-NS, z1+NS-1].
    const int kbeg = z0 - NS, klast = z1 + NS - 1, kend = z1 + 2 * NS - 2;
#if ASYNC
#pragma unroll
    for (int i = 0; i < PREFETCH; i++) {
        if (kbeg + i <= klast)
            issue_plane(smem + i * PL, in, X0, Y0, kbeg + i, px, plane, tx, ty, tid);
        cp_commit();
    }
    int rs = 0;                                  // slot of input plane k
#else
    plane_regs v, v2;                            // planes k+1 (and k+2: PREFETCH 2)
    load_plane(v, in, X0, Y0, kbeg, px, plane, tx, ty, tid);
    if (PREFETCH == 2)
        load_plane(v2, in, X0, Y0, kbeg + 1, px, plane, tx, ty, tid);
#endif
    GK_UNROLL_(UNROLL)
    for (int k = kbeg; k <= kend; k++) {
#if ASYNC
        cp_wait<PREFETCH - 1>();
        __syncthreads();
        // every buffer written below was last read before this barrier
        {
            int ws = rs == 0 ? NIN - 1 : rs - 1;
            if (k + PREFETCH <= klast)
                issue_plane(smem + ws * PL, in, X0, Y0, k + PREFETCH, px, plane, tx, ty, tid);
            cp_commit();
        }
        const double *inp = smem + rs * PL;
        rs = rs == NIN - 1 ? 0 : rs + 1;
#else
        store_plane(smem + (k & 1) * PL, v, tx, ty, tid);
        __syncthreads();
        // every buffer written below was last read before this barrier
        if (PREFETCH == 2) {
            v = v2;
            if (k + 1 < klast)
                load_plane(v2, in, X0, Y0, k + 2, px, plane, tx, ty, tid);
        } else if (k < klast) {
            load_plane(v, in, X0, Y0, k + 1, px, plane, tx, ty, tid);
        }
        const double *inp = smem + (k & 1) * PL;
#endif
#pragma unroll
        for (int s = 1; s <= NS; s++) {
            const int rp = k - 2 * (s - 1), f = rp - 1;   // plane read, plane finished
            if (rp < z0 - (NS - s) - 1 || rp > z1 + (NS - s))
                continue;                                 // uniform over the block
            const double *src = s == 1 ? inp : smem + (NIN + 2 * (s - 2) + (rp & 1)) * PL;
            double w[RY + 2][RX + 2];
            read_window(w, src, tx, ty);
            double *dst = smem + (NIN + 2 * (s - 1) + (f & 1)) * PL;
            const bool fin = f >= 0 && f < nz;
#pragma unroll
            for (int r = 0; r < RY; r++) {
                const int ly = ty * RY + r, y = Y0 + ly;
                const bool yin = y >= 0 && y < ny;
#pragma unroll
                for (int cx = 0; cx < RX; cx++) {
                    double t2 = stream_point(w, c, a0[s - 1][r][cx], a1[s - 1][r][cx], r, cx);
                    const int lx = tx * RX + cx;
                    if (s < NS) {
                        dst[(ly + 1) * TW + lx + 1] = fin && xin[cx] && yin ? t2 : 0.0;
                    } else if (f >= z0 && xout[cx] && yin && ly >= NS - 1 && ly <= BY * RY - NS) {
                        out[(i64)f * plane + (i64)y * px + X0 + lx] = t2;
                    }
                }
            }
        }
    }
}

#if RING
// DESIGN 2 with RING=1 (exact tiles), NS steps per pass.  A block stores
// the TI x H points of its tile (TI = BX*RX, H = BY*RY): stage NS computes
// exactly them, stage s < NS the tile and a ring of NS-s points around it
// (stage s+1's halo).  Each thread keeps its RX x RY tile points of every
// stage in registers as in DESIGN 2 above, and the ring points of stage s
// are spread over the threads in order (thread tid takes ring points tid,
// tid + TPB, ...: the first warps, whole), each a 3x3 window and the same
// three partial sums per plane.  Every plane (input and stage) is stored
// with the same geometry: XW x YH, point (x0+lx, y0+ly) at (ly+NS)*XW +
// lx+OFF; OFF is odd for cp.async, so that every thread's window starts
// 16-byte aligned, and even for the TMA (ring_geo below).
// At 512 a 64 x 32 tile divides the grid (overlapped tiles at T = 2: 9 x 18
// tiles of 62 x 30), and the ring costs stage 1 one point per thread for
// 196 of 256 threads.
template <int NS> struct ring_geo {
    // the TMA's boxes: at most 256 per dimension, rows a multiple of 16
    // bytes, starting 16 bytes aligned (an even x offset; stencil_gpu.c
    // builds its maps on the same test)
    static constexpr int H = BY * RY, OFFT = NS + (NS & 1);
    static constexpr bool TMA = GK_HAVE_TMA_ && TI + 2 * OFFT <= 256 && H + 2 * NS <= 256 && TI % 2 == 0;
    // x offset: odd for cp.async (a thread's window then starts 16-byte
    // aligned: two 16-byte loads per row), even for the TMA (the window
    // takes 8 + 16 + 8 bytes)
    static constexpr int OFF = TMA ? OFFT : NS | 1, XW = TI + 2 * OFF, YH = H + 2 * NS, PL0 = XW * YH;
    // planes start 128-byte aligned (the TMA's rule), PL doubles apart
    // whatever the offset (gk__stencil_smem_cfg in space_stencil.c counts
    // the same: rows of TI + 2(NS+1), rounded up to 16 doubles), then the
    // input ring's mbarriers
    static constexpr int PL = ((TI + 2 * (NS + 1)) * YH + 15) / 16 * 16;
    // ring points of width m, and per thread
    __host__ __device__ static constexpr int count(int m) { return (TI + 2 * m) * (H + 2 * m) - TI * H; }
    __host__ __device__ static constexpr int per(int m) { return m <= 0 ? 0 : (count(m) + TPB - 1) / TPB; }
    static constexpr int NR = per(NS - 1);       // the most (stage 1)
    // input plane: rows of TI interior columns, then 2*NS halo columns per row
    static constexpr int NIR = (YH + BY - 1) / BY, NHR = (2 * NS * YH + TPB - 1) / TPB;
};

// Ring point i of width m: local (lx, ly) relative to the tile origin; the
// top m rows, the bottom m rows (TI+2m wide), then the 2m side columns of
// the H middle rows.
template <int NS>
__device__ __forceinline__ void ring_pos(int i, int m, int &lx, int &ly)
{
    constexpr int H = ring_geo<NS>::H;
    const int W = TI + 2 * m;
    if (i < m * W) {
        ly = -m + i / W;
        lx = -m + i % W;
    } else if ((i -= m * W) < m * W) {
        ly = H + i / W;
        lx = -m + i % W;
    } else {
        i -= m * W;
        ly = i / (2 * m);
        const int cc = i % (2 * m);
        lx = cc < m ? -m + cc : TI + cc - m;
    }
}

// Starts the copy of input plane z (tile origin x0, y0; NS halo points
// each side) into s; no index tested (see plane_elems).
template <int NS>
__device__ __forceinline__ void issue_plane_ring(double *s, const double *__restrict__ in, int x0, int y0, int z,
                                                 int px, i64 plane, int tx, int ty, int tid)
{
    typedef ring_geo<NS> G;
    const double *row = in + (i64)z * plane + (i64)(y0 - NS) * px + x0;
    const double *p = row + (i64)ty * px + tx;
    const i64 step = (i64)BY * px;
#pragma unroll
    for (int j = 0; j < G::NIR; j++, p += step) {
        const int ly = ty + j * BY;
#pragma unroll
        for (int cc = 0; cc < RX; cc++)
            if (ly < G::YH)
                cp8(s + ly * G::XW + tx + cc * BX + G::OFF, p + cc * BX);
    }
#pragma unroll
    for (int j = 0; j < G::NHR; j++) {
        const int i = tid + j * TPB, ly = i / (2 * NS), cc = i % (2 * NS);
        const int lx = cc < NS ? cc - NS : TI + cc - NS;
        if (i < 2 * NS * G::YH)
            cp8(s + ly * G::XW + lx + G::OFF, row + (i64)ly * px + lx);
    }
}

// One row of CC+2 values at src (CC = 2: two 16-byte loads, src 16-byte
// aligned; WIN8: src 8 bytes past it, 8 + 16 + 8 bytes).
template <int CC, bool WIN8 = false>
__device__ __forceinline__ void read_row(double (&w)[CC + 2], const double *src)
{
    if (CC == 2 && WIN8) {                       // src 8 bytes past a 16-byte boundary
        double2 m = *reinterpret_cast<const double2 *>(src + 1);
        w[0] = src[0]; w[1] = m.x; w[2] = m.y; w[3] = src[3];
    } else if (CC == 2) {
        double2 a = *reinterpret_cast<const double2 *>(src), b = *reinterpret_cast<const double2 *>(src + 2);
        w[0] = a.x; w[1] = a.y; w[2] = b.x; w[3] = b.y;
    } else {
#pragma unroll
        for (int d = 0; d < CC + 2; d++)
            w[d] = src[d];
    }
}

template <int NS>
__device__ __forceinline__ void temporal_ring(const double *__restrict__ in, double *__restrict__ out,
                                              int nx, int ny, int nz, int px, int py,
                                              const gk_stencil_coeffs &c, double *smem,
                                              const gk_tmap *tin)
{
    typedef ring_geo<NS> G;
    constexpr int NRIN = PREFETCH + 1;           // the input ring (cp.async or TMA)
    constexpr int PL = G::PL, XW = G::XW, OFF = G::OFF, NR = G::NR > 0 ? G::NR : 1;
    constexpr bool TMA = G::TMA, WIN8 = (OFF & 1) == 0;  // even offset: windows start 8 bytes off
    // SPLIT (TMA, NS >= 2): no block barrier in the plane loop.  Stage 1
    // reads only the input plane (its mbarrier says it has arrived); the
    // later stages read what the stages before them finished at the last
    // iteration.  So each thread arrives on the mbarrier `done` after an
    // iteration's last stage and waits for every thread's arrival only
    // before the next iteration's stage 2, with stage 1 in between: warps
    // drift apart by up to a stage instead of meeting at every plane.
    // Stage 1 writes its plane before that wait, over the plane stage 2
    // read two iterations before (three planes, not two, so that every
    // thread has finished reading it).  The next input plane goes into the
    // slot stage 1 read at the last iteration: each thread arrives on
    // `used` after its stage 1 and waits for all of them at the top of the
    // next iteration (a stage of slack), so that the fetch stays a whole
    // iteration ahead (a fetch after the wait on `done`, half an iteration
    // ahead at T=2, ran the 128 x 32 tile at 252 GStencil/s instead of
    // 385: bench/stencil-results.md).
    constexpr bool SPL = SPLIT && TMA && NS >= 2;
    constexpr int S1 = SPL ? 3 : 2, NSP = NS >= 2 ? S1 + 2 * (NS - 2) : 0;  // stage 1's planes, all stages'
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const i64 plane = (i64)px * py;
    unsigned long long *const bar = reinterpret_cast<unsigned long long *>(smem + (NRIN + NSP) * PL);
    (void)bar;                                   // (used by the TMA only)
    (void)TMA;
    for (int i = tid; i < (NRIN + NSP) * PL; i += TPB)
        smem[i] = 0.0;
#if GK_HAVE_TMA_
    if (TMA) {
        if (tid == 0) {
#pragma unroll
            for (int i = 0; i < NRIN; i++)
                mbar_init(bar + i, 1);
            if (SPL) {
                mbar_init(bar + NRIN, TPB);      // done
                mbar_init(bar + NRIN + 1, TPB);  // used
            }
            asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        }
        fence_async();                           // the zeros before the TMA's writes
    }
#endif
    __syncthreads();
#if GK_HAVE_TMA_
    unsigned dph = 0, uph = 0;                   // SPLIT: the parities of done's and used's next phases
    if (SPL) {                                   // phase 0: iteration kbeg waits for nothing
        mbar_arrive(bar + NRIN);
        mbar_arrive(bar + NRIN + 1);
    }
#endif
    const int x0 = blockIdx.x * TI, y0 = blockIdx.y * G::H;
    const int z0 = blockIdx.z * ZC, z1 = min(z0 + ZC, nz);
    const int xt = x0 + tx * RX;                 // the thread's first column
    // ring points, per stage: 2 * plane offset + (inside the grid), or -1
    // when the thread has none (one register each)
    int rofs[NS][NR];
#pragma unroll
    for (int s = 1; s < NS; s++)
#pragma unroll
        for (int j = 0; j < NR; j++) {
            const int i = tid + j * TPB;
            int lx = 0, ly = 0;
            if (j < G::per(NS - s) && i < G::count(NS - s))
                ring_pos<NS>(i, NS - s, lx, ly);
            const bool inside = x0 + lx >= 0 && x0 + lx < nx && y0 + ly >= 0 && y0 + ly < ny;
            rofs[s - 1][j] = j < G::per(NS - s) && i < G::count(NS - s)
                                 ? 2 * ((ly + NS) * XW + lx + OFF) + (inside ? 1 : 0) : -1;
        }
    double a0[NS][RY][RX], a1[NS][RY][RX], ra0[NS][NR], ra1[NS][NR];
#pragma unroll
    for (int s = 0; s < NS; s++) {
#pragma unroll
        for (int r = 0; r < RY; r++)
#pragma unroll
            for (int cx = 0; cx < RX; cx++)
                a0[s][r][cx] = a1[s][r][cx] = 0.0;
#pragma unroll
        for (int j = 0; j < NR; j++)
            ra0[s][j] = ra1[s][j] = 0.0;
    }
    // input plane z into slot `slot` of the ring: the TMA (one thread; the
    // slot's mbarrier counts the bytes) or every thread's cp.async (one
    // group per plane, also when there is nothing to copy)
    auto fetch = [&](int slot, int z, bool any) {
#if GK_HAVE_TMA_
        if (TMA) {
            if (any && tid == 0) {
                mbar_expect(bar + slot, G::PL0 * (unsigned)sizeof(double));
                tma_load(smem + slot * PL, tin, x0 - OFF, y0 - NS, z, bar + slot);
            }
            return;
        }
#endif
        if (any)
            issue_plane_ring<NS>(smem + slot * PL, in, x0, y0, z, px, plane, tx, ty, tid);
        cp_commit();
    };
    const int kbeg = z0 - NS, klast = z1 + NS - 1, kend = z1 + 2 * NS - 2;
#pragma unroll
    for (int i = 0; i < PREFETCH; i++)
        fetch(i, kbeg + i, kbeg + i <= klast);
    int rs = 0;
#if GK_HAVE_TMA_
    unsigned phase = 0;                          // TMA: bit i, the parity slot i waits for
#endif
    GK_UNROLL_(UNROLL)
    for (int k = kbeg; k <= kend; k++) {
#if GK_HAVE_TMA_
        if (TMA) {
            if (k <= klast) {
                mbar_wait(bar + rs, (phase >> rs) & 1);
                phase ^= 1u << rs;
            }
        } else
#endif
            cp_wait<PREFETCH - 1>();
        if (!SPL)
            __syncthreads();
#if GK_HAVE_TMA_
        else {
            // every thread has read input plane k-1 (all threads wait: a
            // wait by the fetching thread alone took 10 registers more,
            // and spilled, with 512 threads)
            mbar_wait(bar + NRIN + 1, uph);
            uph ^= 1;
        }
#endif
        fetch(rs == 0 ? NRIN - 1 : rs - 1, k + PREFETCH, k + PREFETCH <= klast);
        const double *inp = smem + rs * PL;
        rs = rs == NRIN - 1 ? 0 : rs + 1;
#pragma unroll
        for (int s = 1; s <= NS; s++) {
            const int rp = k - 2 * (s - 1), f = rp - 1;
#if GK_HAVE_TMA_
            if (SPL && s == 2) {
                mbar_arrive(bar + NRIN + 1);     // this thread is done with input plane k
                mbar_wait(bar + NRIN, dph);      // every thread is past iteration k-1
                dph ^= 1;
            }
#endif
            if (rp < z0 - (NS - s) - 1 || rp > z1 + (NS - s))
                continue;                                 // uniform over the block
            // the stages' planes: two per stage, plane p in slot p mod 2;
            // SPLIT: three for stage 1 (slot (p + 6) mod 3; p >= -5)
            const double *src = s == 1   ? inp
                              : !SPL     ? smem + (NRIN + 2 * (s - 2) + (rp & 1)) * PL
                              : s == 2   ? smem + (NRIN + (rp + 6) % 3) * PL
                                         : smem + (NRIN + 3 + 2 * (s - 3) + (rp & 1)) * PL;
            double *dst = !SPL   ? smem + (NRIN + 2 * (s - 1) + (f & 1)) * PL
                        : s == 1 ? smem + (NRIN + (f + 6) % 3) * PL
                                 : smem + (NRIN + 3 + 2 * (s - 2) + (f & 1)) * PL;
            const bool fin = f >= 0 && f < nz;
            // the window row by row: rows r..r+2 feed output row r; loaded
            // just before it, so that fewer rows are live at once (RING=1
            // needs the registers)
            const double *wsrc = src + (ty * RY + NS - 1) * XW + tx * RX + OFF - 1;
            double w[RY + 2][RX + 2];
            read_row<RX, WIN8>(w[0], wsrc);
            read_row<RX, WIN8>(w[1], wsrc + XW);
#pragma unroll
            for (int r = 0; r < RY; r++) {
                const int ly = ty * RY + r, y = y0 + ly;
                read_row<RX, WIN8>(w[r + 2], wsrc + (r + 2) * XW);
                double t[RX];
#pragma unroll
                for (int cx = 0; cx < RX; cx++)
                    t[cx] = stream_point(w, c, a0[s - 1][r][cx], a1[s - 1][r][cx], r, cx);
                if (s < NS) {
                    double *o = dst + (ly + NS) * XW + tx * RX + OFF;
                    if (RX == 2 && WIN8) {       // o 16-byte aligned
                        const bool ok = fin && y < ny;
                        *reinterpret_cast<double2 *>(o) = make_double2(ok && xt < nx ? t[0] : 0.0,
                                                                       ok && xt + 1 < nx ? t[RX - 1] : 0.0);
                    } else {
#pragma unroll
                        for (int cx = 0; cx < RX; cx++)
                            o[cx] = fin && xt + cx < nx && y < ny ? t[cx] : 0.0;
                    }
                } else if (f >= z0 && y < ny) {
                    store_row(out + (i64)f * plane + (i64)y * px + xt, xt, nx, t);
                }
            }
            if (s < NS) {
                // j over all NR (a constant bound: every j unrolled, the
                // ring sums stay in registers; a bound that depends on s
                // left the loop rolled and the sums in local memory at
                // T >= 3)
#pragma unroll
                for (int j = 0; j < NR; j++) {
                    const int code = rofs[s - 1][j], o = code >> 1;
                    if (j < G::per(NS - s) && code >= 0) {
                        double w3[3][3];
#pragma unroll
                        for (int r = 0; r < 3; r++)
#pragma unroll
                            for (int d = 0; d < 3; d++)
                                w3[r][d] = src[o + (r - 1) * XW + d - 1];
                        double t2 = stream_point(w3, c, ra0[s - 1][j], ra1[s - 1][j], 0, 0);
                        dst[o] = fin && (code & 1) ? t2 : 0.0;
                    }
                }
            }
        }
#if GK_HAVE_TMA_
        if (SPL)
            mbar_arrive(bar + NRIN);             // this thread is done with iteration k
#endif
    }
}
#define GK_TEMPORAL_(N) temporal_ring<N>
#else
#define GK_TEMPORAL_(N) temporal<N>
#endif

#define GK_TEMPORAL_KERNEL(N)                                                              \
    extern "C" __global__ void GK_BOUNDS_                                      \
    gk_stencil_temporal##N(const double *__restrict__ in, double *__restrict__ out, int nx, \
                           int ny, int nz, int px, int py, gk_stencil_coeffs c,            \
                           const __grid_constant__ gk_tmap tin)                            \
    {                                                                                      \
        extern __shared__ __align__(128) double gk_tsmem[];                                \
        GK_TEMPORAL_(N)(in, out, nx, ny, nz, px, py, c, gk_tsmem, &tin);                   \
    }

#define GK_FITS_(N) (RING || (TI - 2 * ((N) - 1) >= 1 && BY * RY - 2 * ((N) - 1) >= 1))
// a kernel whose tile would be empty is built as a stub the host never runs
#define GK_TEMPORAL_STUB(N)                                                                \
    extern "C" __global__ void gk_stencil_temporal##N(const double *in, double *out, int nx,\
                           int ny, int nz, int px, int py, gk_stencil_coeffs c,            \
                           const __grid_constant__ gk_tmap tin) {}

#if GK_FITS_(1)
GK_TEMPORAL_KERNEL(1)
#else
GK_TEMPORAL_STUB(1)
#endif
#if GK_FITS_(2)
GK_TEMPORAL_KERNEL(2)
#else
GK_TEMPORAL_STUB(2)
#endif
#if GK_FITS_(3)
GK_TEMPORAL_KERNEL(3)
#else
GK_TEMPORAL_STUB(3)
#endif
#if GK_FITS_(4)
GK_TEMPORAL_KERNEL(4)
#else
GK_TEMPORAL_STUB(4)
#endif

// The fp64 FMA ceiling: CEIL_CHAINS independent chains per thread, iters
// FMAs each; the sum is stored so that nothing is optimised away.
#define CEIL_CHAINS 8
extern "C" __global__ void __launch_bounds__(256)
gk_stencil_fma_ceiling(double *out, int iters, double a, double b)
{
    double x[CEIL_CHAINS];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < CEIL_CHAINS; j++)
        x[j] = 1e-3 * (i + j);
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int j = 0; j < CEIL_CHAINS; j++)
            x[j] = fma(x[j], a, b);
    double t = 0;
#pragma unroll
    for (int j = 0; j < CEIL_CHAINS; j++)
        t += x[j];
    out[i] = t;
}
