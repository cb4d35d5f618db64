// stencil.cu - the 27-point fp64 stencil on the GPU.  Kernels only.
//
// Buffers are padded (see stencil_gpu.c): the pointers the kernels get point
// at interior point (0,0,0); x pitch px, y pitch py; every index from -1 to n
// along each axis is inside the allocation and the halo holds zeros that no
// kernel ever writes.  Every output is the FMA chain t = c0*v0,
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

// The tunable parameters: their ranges, defaults and candidate values are
// described once, in src/core/space_stencil.c; the build and NVRTC pass every
// one of them as -DNAME=VALUE, so none has a default here.
//   BX      threads along x = tile width
//   BY      threads along y
//   RY      outputs per thread along y (tile height BY*RY)
//   ZC      z planes per block (z chunk)
//   UNROLL  unroll of the z loop
//   DESIGN  which kernel the host launches (0 tile, 1 stream, 2 temporal);
//           all are built
//   TSTEPS  steps per pass of DESIGN 2 (1..4; the host picks the kernel)
//   PREFETCH planes loaded ahead into registers by DESIGN 1 and 2 (1 or 2)
#ifndef BX
#error "BX must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef BY
#error "BY must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef RY
#error "RY must be defined (gk passes every parameter of the kernel's space)"
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
#if TSTEPS < 1 || TSTEPS > 4
#error "TSTEPS must be 1..4 (gk_stencil_temporal1..4 are built)"
#endif

#define GK_PRAGMA_(x) _Pragma(#x)
#define GK_UNROLL_(n) GK_PRAGMA_(unroll n)

#define TW (BX + 2)
#define TH (BY * RY + 2)
#define TPB (BX * BY)

struct gk_stencil_coeffs { double c[27]; };

typedef long long i64;

// A plane of the tile is loaded in two parts so that the big one is
// coalesced and aligned: the BX interior columns of each of the TH rows
// (thread (tx, ty) takes column tx of rows ty, ty+BY, ...), and the two halo
// columns x0-1 and x0+BX (threads tid < 2*TH).  Values outside [-1, n] are
// read as 0 (they only feed outputs that are not stored).
#define NI ((TH + BY - 1) / BY)
#define NH ((2 * TH + TPB - 1) / TPB)

struct plane_regs { double in[NI]; double h[NH]; };

// LOW: the tile may start left of or above the grid (DESIGN 2): indices
// below -1 read as 0 too.  zmax: planes above it are not needed (read as 0).
template <bool LOW>
__device__ __forceinline__ void load_plane_(plane_regs &v, const double *__restrict__ in,
                                            int x0, int y0, int z, int nx, int ny, int nz,
                                            int px, i64 plane, int tx, int ty, int tid)
{
    bool zok = z >= -1 && z <= nz;
    const double *p = in + (i64)z * plane;
    int gx = x0 + tx;
#pragma unroll
    for (int j = 0; j < NI; j++) {
        int ly = ty + j * BY, gy = y0 - 1 + ly;
        v.in[j] = 0.0;
        if (ly < TH && zok && gx <= nx && gy <= ny && (!LOW || (gx >= -1 && gy >= -1)))
            v.in[j] = __ldg(p + (i64)gy * px + gx);
    }
#pragma unroll
    for (int j = 0; j < NH; j++) {
        int i = tid + j * TPB;
        int ly = i >> 1, hx = i & 1 ? x0 + BX : x0 - 1, gy = y0 - 1 + ly;
        v.h[j] = 0.0;
        if (i < 2 * TH && zok && hx <= nx && gy <= ny && (!LOW || (hx >= -1 && gy >= -1)))
            v.h[j] = __ldg(p + (i64)gy * px + hx);
    }
}

__device__ __forceinline__ void load_plane(plane_regs &v, const double *__restrict__ in,
                                           int x0, int y0, int z, int nx, int ny, int nz,
                                           int px, i64 plane, int tx, int ty, int tid)
{
    load_plane_<false>(v, in, x0, y0, z, nx, ny, nz, px, plane, tx, ty, tid);
}

__device__ __forceinline__ void store_plane(double *s, const plane_regs &v, int tx, int ty, int tid)
{
#pragma unroll
    for (int j = 0; j < NI; j++) {
        int ly = ty + j * BY;
        if (ly < TH)
            s[ly * TW + tx + 1] = v.in[j];
    }
#pragma unroll
    for (int j = 0; j < NH; j++) {
        int i = tid + j * TPB;
        if (i < 2 * TH)
            s[(i >> 1) * TW + (i & 1 ? BX + 1 : 0)] = v.h[j];
    }
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

extern "C" __global__ void __launch_bounds__(TPB)
gk_stencil_tile(const double *__restrict__ in, double *__restrict__ out, int nx, int ny, int nz,
                int px, int py, gk_stencil_coeffs c)
{
    extern __shared__ double smem[];           // 4 planes of TW x TH
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int x0 = blockIdx.x * BX, y0 = blockIdx.y * (BY * RY), z0 = blockIdx.z * ZC;
    const int z1 = min(z0 + ZC, nz);
    const i64 plane = (i64)px * py;
    plane_regs v;
    // planes z0-1 and z0 first; plane k lives in slot (k+4) & 3
    load_plane(v, in, x0, y0, z0 - 1, nx, ny, nz, px, plane, tx, ty, tid);
    store_plane(smem + ((z0 + 3) & 3) * TW * TH, v, tx, ty, tid);
    load_plane(v, in, x0, y0, z0, nx, ny, nz, px, plane, tx, ty, tid);
    store_plane(smem + (z0 & 3) * TW * TH, v, tx, ty, tid);
    const int x = x0 + tx;
    GK_UNROLL_(UNROLL)
    for (int z = z0; z < z1; z++) {
        // Slot (z+1)&3 held plane z-3, which nobody reads any more: every
        // thread passed the barrier after the reads of plane z-1's step.
        load_plane(v, in, x0, y0, z + 1, nx, ny, nz, px, plane, tx, ty, tid);
        store_plane(smem + ((z + 1) & 3) * TW * TH, v, tx, ty, tid);
        __syncthreads();
        const double *sm = smem + ((z + 3) & 3) * TW * TH, *s0 = smem + (z & 3) * TW * TH,
                     *sp = smem + ((z + 1) & 3) * TW * TH;
#pragma unroll
        for (int r = 0; r < RY; r++) {
            int ly = ty * RY + r + 1, lx = tx + 1;
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

extern "C" __global__ void __launch_bounds__(TPB)
gk_stencil_stream(const double *__restrict__ in, double *__restrict__ out, int nx, int ny, int nz,
                  int px, int py, gk_stencil_coeffs c)
{
    extern __shared__ double smem[];           // 2 planes of TW x TH
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int x0 = blockIdx.x * BX, y0 = blockIdx.y * (BY * RY), z0 = blockIdx.z * ZC;
    const int z1 = min(z0 + ZC, nz);
    const i64 plane = (i64)px * py;
    const int x = x0 + tx;
    double a0[RY], a1[RY];                     // partial sums of outputs k+1, k
    plane_regs v, v2;                          // planes k+1 (and k+2: PREFETCH 2)
#pragma unroll
    for (int r = 0; r < RY; r++)
        a0[r] = a1[r] = 0.0;
    load_plane(v, in, x0, y0, z0 - 1, nx, ny, nz, px, plane, tx, ty, tid);
    if (PREFETCH == 2)
        load_plane(v2, in, x0, y0, z0, nx, ny, nz, px, plane, tx, ty, tid);
    // Plane k (k = z0-1 .. z1) is in buffer (k - z0 + 1) & 1.
    GK_UNROLL_(UNROLL)
    for (int k = z0 - 1; k <= z1; k++) {
        double *s = smem + ((k - z0 + 1) & 1) * TW * TH;
        store_plane(s, v, tx, ty, tid);
        __syncthreads();
        // The other buffer was last read before this barrier: refill the
        // registers with the next plane while this one is used.
        if (PREFETCH == 2) {
            v = v2;
            if (k + 1 < z1)
                load_plane(v2, in, x0, y0, k + 2, nx, ny, nz, px, plane, tx, ty, tid);
        } else if (k < z1) {
            load_plane(v, in, x0, y0, k + 1, nx, ny, nz, px, plane, tx, ty, tid);
        }
        double w[RY + 2][3];
#pragma unroll
        for (int r = 0; r < RY + 2; r++)
#pragma unroll
            for (int d = 0; d < 3; d++)
                w[r][d] = s[(ty * RY + r) * TW + tx + d];
#pragma unroll
        for (int r = 0; r < RY; r++) {
            // output k-1 gets its last nine terms (dz = +1) and is done
            double t2 = a1[r];
            double t1 = a0[r];
#pragma unroll
            for (int j = 0; j < 9; j++)
                t2 = fma(c.c[18 + j], w[r + j / 3][j % 3], t2);
            // output k: the middle nine (dz = 0)
#pragma unroll
            for (int j = 0; j < 9; j++)
                t1 = fma(c.c[9 + j], w[r + j / 3][j % 3], t1);
            // output k+1: the first nine (dz = -1)
            double t0 = c.c[0] * w[r][0];
#pragma unroll
            for (int j = 1; j < 9; j++)
                t0 = fma(c.c[j], w[r + j / 3][j % 3], t0);
            int y = y0 + ty * RY + r;
            if (k - 1 >= z0 && x < nx && y < ny)
                out[(i64)(k - 1) * plane + (i64)y * px + x] = t2;
            a1[r] = t1;
            a0[r] = t0;
        }
    }
}

// DESIGN 2 with NS steps per pass (see the top of the file).  Shared memory:
// 2*NS planes of TW x TH: buffer (s, parity) = stage s's planes of that
// parity (s = 0: the input).
template <int NS>
__device__ __forceinline__ void temporal(const double *__restrict__ in, double *__restrict__ out,
                                         int nx, int ny, int nz, int px, int py,
                                         const gk_stencil_coeffs &c, double *smem)
{
    constexpr int PL = TW * TH;
    constexpr int OW = BX - 2 * (NS - 1), OH = BY * RY - 2 * (NS - 1);
    static_assert(OW >= 1 && OH >= 1, "tile too small for NS steps (space_stencil.c rejects it)");
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    // global coordinates of thread column 0 / row 0 of the extended tile
    const int X0 = blockIdx.x * OW - (NS - 1), Y0 = blockIdx.y * OH - (NS - 1);
    const int z0 = blockIdx.z * ZC, z1 = min(z0 + ZC, nz);
    const i64 plane = (i64)px * py;
    const int x = X0 + tx;
    const bool xin = x >= 0 && x < nx;
    // the output columns: stage NS is valid on tx in [NS-1, BX-NS]
    const bool xout = tx >= NS - 1 && tx <= BX - NS && xin;
    for (int i = tid; i < 2 * NS * PL; i += TPB)
        smem[i] = 0.0;                           // the never-written edges
    __syncthreads();
    double a0[NS][RY], a1[NS][RY];
#pragma unroll
    for (int s = 0; s < NS; s++)
#pragma unroll
        for (int r = 0; r < RY; r++)
            a0[s][r] = a1[s][r] = 0.0;
    // Stage s (1..NS) is needed on planes [z0-(NS-s), z1-1+(NS-s)]; at
    // iteration k it reads plane k-2(s-1) of stage s-1 and finishes the
    // plane below it.  The input (stage 0) is needed on [z0-NS, z1+NS-1].
    const int kbeg = z0 - NS, klast = z1 + NS - 1, kend = z1 + 2 * NS - 2;
    plane_regs v, v2;                            // planes k+1 (and k+2: PREFETCH 2)
    load_plane_<true>(v, in, X0, Y0, kbeg, nx, ny, nz, px, plane, tx, ty, tid);
    if (PREFETCH == 2)
        load_plane_<true>(v2, in, X0, Y0, kbeg + 1, nx, ny, nz, px, plane, tx, ty, tid);
    GK_UNROLL_(UNROLL)
    for (int k = kbeg; k <= kend; k++) {
        store_plane(smem + (k & 1) * PL, v, tx, ty, tid);
        __syncthreads();
        // every buffer written below was last read before this barrier
        if (PREFETCH == 2) {
            v = v2;
            if (k + 1 < klast)
                load_plane_<true>(v2, in, X0, Y0, k + 2, nx, ny, nz, px, plane, tx, ty, tid);
        } else if (k < klast) {
            load_plane_<true>(v, in, X0, Y0, k + 1, nx, ny, nz, px, plane, tx, ty, tid);
        }
#pragma unroll
        for (int s = 1; s <= NS; s++) {
            const int rp = k - 2 * (s - 1), f = rp - 1;   // plane read, plane finished
            if (rp < z0 - (NS - s) - 1 || rp > z1 + (NS - s))
                continue;                                 // uniform over the block
            const double *src = smem + (2 * (s - 1) + (rp & 1)) * PL;
            double w[RY + 2][3];
#pragma unroll
            for (int r = 0; r < RY + 2; r++)
#pragma unroll
                for (int d = 0; d < 3; d++)
                    w[r][d] = src[(ty * RY + r) * TW + tx + d];
            double *dst = smem + (2 * s + (f & 1)) * PL;
            const bool fin = f >= 0 && f < nz;
#pragma unroll
            for (int r = 0; r < RY; r++) {
                double t2 = a1[s - 1][r];
                double t1 = a0[s - 1][r];
#pragma unroll
                for (int j = 0; j < 9; j++)
                    t2 = fma(c.c[18 + j], w[r + j / 3][j % 3], t2);
#pragma unroll
                for (int j = 0; j < 9; j++)
                    t1 = fma(c.c[9 + j], w[r + j / 3][j % 3], t1);
                double t0 = c.c[0] * w[r][0];
#pragma unroll
                for (int j = 1; j < 9; j++)
                    t0 = fma(c.c[j], w[r + j / 3][j % 3], t0);
                a1[s - 1][r] = t1;
                a0[s - 1][r] = t0;
                const int ly = ty * RY + r, y = Y0 + ly;
                const bool yin = y >= 0 && y < ny;
                if (s < NS) {
                    dst[(ly + 1) * TW + tx + 1] = fin && xin && yin ? t2 : 0.0;
                } else if (f >= z0 && xout && yin && ly >= NS - 1 && ly <= BY * RY - NS) {
                    out[(i64)f * plane + (i64)y * px + x] = t2;
                }
            }
        }
    }
}

#define GK_TEMPORAL_KERNEL(N)                                                              \
    extern "C" __global__ void __launch_bounds__(TPB)                                      \
    gk_stencil_temporal##N(const double *__restrict__ in, double *__restrict__ out, int nx, \
                           int ny, int nz, int px, int py, gk_stencil_coeffs c)            \
    {                                                                                      \
        extern __shared__ double smem[];                                                   \
        temporal<N>(in, out, nx, ny, nz, px, py, c, smem);                                 \
    }

#define GK_FITS_(N) (BX - 2 * ((N) - 1) >= 1 && BY * RY - 2 * ((N) - 1) >= 1)
// a kernel whose tile would be empty is built as a stub the host never runs
#define GK_TEMPORAL_STUB(N)                                                                \
    extern "C" __global__ void gk_stencil_temporal##N(const double *in, double *out, int nx,\
                           int ny, int nz, int px, int py, gk_stencil_coeffs c) {}

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
