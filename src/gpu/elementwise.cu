// elementwise.cu - v = v + sqrtf(f(v) + 1.f), f = logf, cosf, sinf, tanf by
// column % 4, niter times per element of a row-major float matrix.  Kernels
// only: the host side is elementwise_gpu.c.  Accurate libm: no fast math
// (nvcc and NVRTC defaults: IEEE sqrtf and +; include/gk/elementwise.h says
// what the check allows).
//
// The tunable parameters (ranges, defaults, candidates: src/core/space_elementwise.c;
// every one is passed as -DNAME=VALUE, none has a default here):
//   VEC     float4s per thread of the tuned kernel (independent chains)
//   BX, BY  threads per block of the tuned kernel (x along a row)
//   UNROLL  unroll of its iteration loop
//   GRID    0: one block per tile; g > 0: the host launches g blocks per SM
//           and the rows are strided (the kernel loops over rows either way)
//   SKIP    1: stop stepping a lane once its step returned its own value (a
//           fixed point of the deterministic step: every later step returns
//           it too) or NaN (NaN stays NaN): the same bits, less work where
//           cos and sin columns have converged and tan columns are NaN
#ifndef VEC
#error "VEC must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef BX
#error "BX must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef BY
#error "BY must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef UNROLL
#error "UNROLL must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef GRID
#error "GRID must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef SKIP
#error "SKIP must be defined (gk passes every parameter of the kernel's space)"
#endif

static_assert(VEC >= 1 && BX * BY >= 1 && UNROLL >= 1 && GRID >= 0 && (SKIP == 0 || SKIP == 1), "parameters out of range");

typedef unsigned long long u64;

__device__ __forceinline__ float st_log(float v) { return v + sqrtf(logf(v) + 1.f); }
__device__ __forceinline__ float st_cos(float v) { return v + sqrtf(cosf(v) + 1.f); }
__device__ __forceinline__ float st_sin(float v) { return v + sqrtf(sinf(v) + 1.f); }
__device__ __forceinline__ float st_tan(float v) { return v + sqrtf(tanf(v) + 1.f); }

// Columns 4q .. 4q+3: the lanes' classes are 0, 1, 2, 3.
__device__ __forceinline__ void step4(float4 &v)
{
    v.x = st_log(v.x);
    v.y = st_cos(v.y);
    v.z = st_sin(v.z);
    v.w = st_tan(v.w);
}

// step4 for the lanes still live (bit c of live: lane c); a lane whose
// step returns its own value or NaN leaves live (SKIP = 1).
#define GK_EW_LANE(c, F, bit)                                   \
    if (live & (bit)) {                                         \
        float n_ = F(v.c);                                      \
        if (n_ == v.c || n_ != n_) live &= ~(unsigned)(bit);    \
        v.c = n_;                                               \
    }
__device__ __forceinline__ void step4_live(float4 &v, unsigned &live)
{
    GK_EW_LANE(x, st_log, 1u)
    GK_EW_LANE(y, st_cos, 2u)
    GK_EW_LANE(z, st_sin, 4u)
    GK_EW_LANE(w, st_tan, 8u)
}

// The float4 of columns 4q .. 4q+3 of a row (a vector load when every row
// starts 16-byte aligned, i.e. dimx % 4 == 0); lanes past the row's end are
// 1 (computed, never stored).
__device__ __forceinline__ float4 load4(const float *row, int q, int nq, int dimx, bool aligned)
{
    float4 v = make_float4(1.f, 1.f, 1.f, 1.f);
    if (q >= nq) return v;
    int c = 4 * q;
    if (aligned) return reinterpret_cast<const float4 *>(row)[q];
    v.x = row[c];
    if (c + 1 < dimx) v.y = row[c + 1];
    if (c + 2 < dimx) v.z = row[c + 2];
    if (c + 3 < dimx) v.w = row[c + 3];
    return v;
}

__device__ __forceinline__ void store4(float *row, int q, int nq, int dimx, bool aligned, float4 v)
{
    if (q >= nq) return;
    int c = 4 * q;
    if (aligned) { reinterpret_cast<float4 *>(row)[q] = v; return; }
    row[c] = v.x;
    if (c + 1 < dimx) row[c + 1] = v.y;
    if (c + 2 < dimx) row[c + 2] = v.z;
    if (c + 3 < dimx) row[c + 3] = v.w;
}

// The report's baseline: one element per thread, 2D blocks (x along a row),
// a switch on the column's class inside the iteration loop.
extern "C" __global__ void gk_ew_baseline(float *a, int dimx, int dimy, int niter)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dimx || y >= dimy) return;
    u64 i = (u64)y * (u64)dimx + (u64)x;
    float v = a[i];
    for (int it = 0; it < niter; it++) {
        switch (x % 4) {
        case 0: v += sqrtf(logf(v) + 1.f); break;
        case 1: v += sqrtf(cosf(v) + 1.f); break;
        case 2: v += sqrtf(sinf(v) + 1.f); break;
        default: v += sqrtf(tanf(v) + 1.f); break;
        }
    }
    a[i] = v;
}

// The report's float4 design: one float4 (4 consecutive columns) per
// thread, so the class is fixed per lane and the switch is gone; 1D blocks
// along a row, blockIdx.y (strided) over the rows.
extern "C" __global__ void gk_ew_float4(float *a, int dimx, int dimy, int niter)
{
    int nq = (dimx + 3) >> 2;
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    bool aligned = (dimx & 3) == 0;
    if (q >= nq) return;
    for (int y = blockIdx.y; y < dimy; y += gridDim.y) {
        float *row = a + (u64)y * (u64)dimx;
        float4 v = load4(row, q, nq, dimx, aligned);
        for (int it = 0; it < niter; it++)
            step4(v);
        store4(row, q, nq, dimx, aligned, v);
    }
}

// The tuned design: VEC float4s per thread (columns q0 + k*BX of a row, so
// a warp's loads stay contiguous), BX x BY threads, the iteration loop in
// registers unrolled UNROLL times, rows strided over the grid.
extern "C" __global__ void __launch_bounds__(BX * BY) gk_ew_tuned(float *a, int dimx, int dimy, int niter)
{
    int nq = (dimx + 3) >> 2;
    int q0 = blockIdx.x * (BX * VEC) + threadIdx.x;
    bool aligned = (dimx & 3) == 0;
    // GRID = 0: one row per thread unless dimy > 65535 * BY; GRID > 0: the
    // host sized the grid to GRID blocks per SM, several rows per thread
    int ystride = gridDim.y * BY;
    for (int y = blockIdx.y * BY + threadIdx.y; y < dimy; y += ystride) {
        float *row = a + (u64)y * (u64)dimx;
        float4 v[VEC];
#pragma unroll
        for (int k = 0; k < VEC; k++)
            v[k] = load4(row, q0 + k * BX, nq, dimx, aligned);
        int it = 0;
#if SKIP
        unsigned live[VEC], any = 1;
#pragma unroll
        for (int k = 0; k < VEC; k++)
            live[k] = 15u;
        for (; any && it + UNROLL <= niter; it += UNROLL) {
#pragma unroll
            for (int u = 0; u < UNROLL; u++)
#pragma unroll
                for (int k = 0; k < VEC; k++)
                    step4_live(v[k], live[k]);
            any = 0;
#pragma unroll
            for (int k = 0; k < VEC; k++)
                any |= live[k] & 14u;
        }
        // No cos, sin or tan lane is live any more (or fewer than UNROLL
        // iterations are left): only the log lanes step, without the live
        // tests (a log lane that is NaN or at a fixed point returns itself:
        // the same bits either way), then the remainder.
        for (; it + UNROLL <= niter; it += UNROLL)
#pragma unroll
            for (int u = 0; u < UNROLL; u++)
#pragma unroll
                for (int k = 0; k < VEC; k++)
                    if (!(live[k] & 14u)) v[k].x = st_log(v[k].x); else step4_live(v[k], live[k]);
        for (; it < niter; it++)
#pragma unroll
            for (int k = 0; k < VEC; k++)
                step4_live(v[k], live[k]);
#else
        for (; it + UNROLL <= niter; it += UNROLL) {
#pragma unroll
            for (int u = 0; u < UNROLL; u++)
#pragma unroll
                for (int k = 0; k < VEC; k++)
                    step4(v[k]);
        }
        for (; it < niter; it++)
#pragma unroll
            for (int k = 0; k < VEC; k++)
                step4(v[k]);
#endif
#pragma unroll
        for (int k = 0; k < VEC; k++)
            store4(row, q0 + k * BX, nq, dimx, aligned, v[k]);
    }
}

// The ceiling: the four steps at the device's full occupancy and without
// memory traffic in the loop: the matrix seen as n4 float4s (a lane's class
// is its position in the float4: the same mix of functions), 2 float4
// chains per thread, 256 threads, grid-strided over the whole matrix (the
// host launches 8 blocks per SM, all resident at <= 32 registers).
#define CEIL_CHAINS 2
// 8 blocks of 256 fill an SM of 2048 threads (sm_70/80/87/90/100); asking
// for 8 where an SM holds fewer threads makes ptxas warn and ignore it, so
// those architectures ask for what they hold.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define CEIL_MINB 4
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
#define CEIL_MINB 6
#else
#define CEIL_MINB 8
#endif
extern "C" __global__ void __launch_bounds__(256, CEIL_MINB) gk_ew_ceiling(float4 *a, u64 n4, int niter)
{
    u64 T = (u64)gridDim.x * blockDim.x;
    for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < n4; t += CEIL_CHAINS * T) {
        float4 v[CEIL_CHAINS];
#pragma unroll
        for (int k = 0; k < CEIL_CHAINS; k++)
            v[k] = t + k * T < n4 ? a[t + k * T] : make_float4(1.f, 1.f, 1.f, 1.f);
        for (int it = 0; it < niter; it++)
#pragma unroll
            for (int k = 0; k < CEIL_CHAINS; k++)
                step4(v[k]);
#pragma unroll
        for (int k = 0; k < CEIL_CHAINS; k++)
            if (t + k * T < n4) a[t + k * T] = v[k];
    }
}
