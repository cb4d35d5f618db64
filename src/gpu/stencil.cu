// stencil.cu - the 27-point fp64 stencil on the GPU.  Kernels only.
//
// Buffers are padded (see stencil_gpu.c): the pointers the kernels get point
// at interior point (0,0,0); x pitch px, y pitch py; every index from -1 to n
// along each axis is inside the allocation and the halo holds zeros that no
// kernel ever writes.  Every output is the FMA chain t = c0*v0,
// t = fma(ci, vi, t) for i = 1..26 in index order (dz, dy, dx), the CPU's
// order, so the backends agree to the bit.
//
// Three kernels, all built from one set of parameters:
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

// The tunable parameters: their ranges, defaults and candidate values are
// described once, in src/core/space_stencil.c; the build and NVRTC pass every
// one of them as -DNAME=VALUE, so none has a default here.
//   BX      threads along x = tile width
//   BY      threads along y
//   RY      outputs per thread along y (tile height BY*RY)
//   ZC      z planes per block (z chunk)
//   UNROLL  unroll of the z loop
//   DESIGN  which kernel the host launches (0 tile, 1 stream); both are built
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

__device__ __forceinline__ void load_plane(plane_regs &v, const double *__restrict__ in,
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
        if (ly < TH && zok && gx <= nx && gy <= ny)
            v.in[j] = __ldg(p + (i64)gy * px + gx);
    }
#pragma unroll
    for (int j = 0; j < NH; j++) {
        int i = tid + j * TPB;
        int ly = i >> 1, hx = i & 1 ? x0 + BX : x0 - 1, gy = y0 - 1 + ly;
        v.h[j] = 0.0;
        if (i < 2 * TH && zok && hx <= nx && gy <= ny)
            v.h[j] = __ldg(p + (i64)gy * px + hx);
    }
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
    plane_regs v;
#pragma unroll
    for (int r = 0; r < RY; r++)
        a0[r] = a1[r] = 0.0;
    load_plane(v, in, x0, y0, z0 - 1, nx, ny, nz, px, plane, tx, ty, tid);
    // Plane k (k = z0-1 .. z1) is in buffer (k - z0 + 1) & 1.
    GK_UNROLL_(UNROLL)
    for (int k = z0 - 1; k <= z1; k++) {
        double *s = smem + ((k - z0 + 1) & 1) * TW * TH;
        store_plane(s, v, tx, ty, tid);
        __syncthreads();
        // The other buffer was last read before this barrier: refill the
        // registers with the next plane while this one is used.
        if (k < z1)
            load_plane(v, in, x0, y0, k + 1, nx, ny, nz, px, plane, tx, ty, tid);
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
