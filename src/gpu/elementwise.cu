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
//           cos and sin columns have converged and tan columns are NaN.
//           2: the same, and once no cos or sin lane of the block is live,
//           the block's tan lanes still live (a few: most are NaN after 3
//           steps, some take 40) go to a queue in shared memory, one per
//           thread, so that they fill a few warps instead of keeping every
//           warp stepping tan for its slowest lane; the owners read the
//           results back at the end (the same bits again)
//
// The log step of the tuned kernel and of the ceiling: where a thread's log
// values all lie in [1, FLT_MAX] (they stay there: the step only adds
// sqrtf(logf(v) + 1) >= 1, and below half an ulp of FLT_MAX), it runs
// st_log_ge1: logf's own code for a positive normal argument (its
// polynomial, constants and operations) without the branches and selects
// that logf needs for zero, denormals, infinities and NaN, and sqrtf's fast
// path (MUFU.RSQ and one Newton correction) without its range check (the
// argument is in [1, 90)).  The same bits as st_log: gk_ew_selftest checks
// every float in [1, FLT_MAX] (tests/test_elementwise_gpu.c), and there the
// log is within 1 ulp of the exact logarithm (the check allows 1.5).
// Threads with any other log value run st_log (logf, sqrtf).
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

static_assert(VEC >= 1 && BX * BY >= 1 && UNROLL >= 1 && GRID >= 0 && SKIP >= 0 && SKIP <= 2, "parameters out of range");

typedef unsigned long long u64;

__device__ __forceinline__ float st_log(float v) { return v + sqrtf(logf(v) + 1.f); }
__device__ __forceinline__ float st_cos(float v) { return v + sqrtf(cosf(v) + 1.f); }
__device__ __forceinline__ float st_sin(float v) { return v + sqrtf(sinf(v) + 1.f); }
__device__ __forceinline__ float st_tan(float v) { return v + sqrtf(tanf(v) + 1.f); }

// logf(v) for a positive normal float v (gk uses it on [1, FLT_MAX]):
// CUDA's logf without its special cases: v = 2^e m, m in [2/3, 4/3),
// log1p(m - 1) by the same polynomial, + e log 2.  (logf computes e log 2 as
// fma(e', ln2, p) with e' = (float)(e << 23) * 2^-23 = e; here (float)(e <<
// 23) times ln2 * 2^-23, the same exact product: ln2 * 2^-23 is a float.)
__device__ __forceinline__ float log_pos_normal(float v)
{
    int b = __float_as_int(v);
    int e = (b - 0x3f2aaaab) & (int)0xff800000;
    float f = __int_as_float(b - e) - 1.0f;
    float i = (float)e;
    float r = fmaf(__int_as_float(0xbe055027), f, __int_as_float(0x3e1039f6));
    r = fmaf(r, f, __int_as_float(0xbdf8cdcc));
    r = fmaf(r, f, __int_as_float(0x3e0f2955));
    r = fmaf(r, f, __int_as_float(0xbe2ad8b9));
    r = fmaf(r, f, __int_as_float(0x3e4ced0b));
    r = fmaf(r, f, __int_as_float(0xbe7fff22));
    r = fmaf(r, f, __int_as_float(0x3eaaaa78));
    r = fmaf(r, f, -0.5f);
    r = __fmul_rn(f, r);
    r = fmaf(r, f, f);
    return fmaf(i, __int_as_float(0x33b17218), r);      // ln2 (0x3f317218) * 2^-23
}

// sqrtf(b) for b in [1, 2^64): sqrtf's fast path (the reciprocal square
// root's approximation, then one correction, rounded once) without the
// range test that sends zero, denormals, huge values, infinities and NaN to
// its slow path.
__device__ __forceinline__ float sqrt_ge1(float b)
{
    float r;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(b));
    float s = __fmul_rn(b, r), h = __fmul_rn(r, 0.5f);
    return fmaf(fmaf(-s, s, b), h, s);
}

// st_log for v in [1, FLT_MAX] (logf(v) + 1 is then in [1, 90)).
__device__ __forceinline__ float st_log_ge1(float v) { return v + sqrt_ge1(log_pos_normal(v) + 1.f); }

// The log step of a thread whose log values are in [1, FLT_MAX] (FAST) or not.
template <bool FAST> __device__ __forceinline__ float lstep(float v) { return FAST ? st_log_ge1(v) : st_log(v); }

// Whether v stays where st_log_ge1 applies.
__device__ __forceinline__ bool log_fast_ok(float v) { return v >= 1.f && v <= 3.40282347e38f; }

// Columns 4q .. 4q+3: the lanes' classes are 0, 1, 2, 3.
__device__ __forceinline__ void step4(float4 &v)
{
    v.x = st_log(v.x);
    v.y = st_cos(v.y);
    v.z = st_sin(v.z);
    v.w = st_tan(v.w);
}

template <bool FAST> __device__ __forceinline__ void step4f(float4 &v)
{
    v.x = lstep<FAST>(v.x);
    v.y = st_cos(v.y);
    v.z = st_sin(v.z);
    v.w = st_tan(v.w);
}

// A step of the lanes still live (bit c of live: lane c) of the cos, sin
// and tan classes; a lane whose step returns its own value or NaN leaves
// live (SKIP = 1).  The log lane always steps: a log value that is NaN or
// at a fixed point returns itself, so no test is needed.
#define GK_EW_LANE(c, F, bit)                                   \
    if (live & (bit)) {                                         \
        float n_ = F(v.c);                                      \
        if (n_ == v.c || n_ != n_) live &= ~(unsigned)(bit);    \
        v.c = n_;                                               \
    }
template <bool FAST> __device__ __forceinline__ void step4_live(float4 &v, unsigned &live)
{
    v.x = lstep<FAST>(v.x);
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

#if SKIP == 2
// SKIP = 2: the iterations of a block, each thread's VEC float4s.  Every
// thread of the block calls it (the same niter; FAST the same for the
// block: __syncthreads inside).  qv: BX * BY floats of shared memory, qn:
// a shared counter set to 0 before the call (and a __syncthreads since).
template <bool FAST> __device__ __forceinline__ void block_iters(float4 (&v)[VEC], int niter, float *qv, int *qn)
{
    int it = 0;
    unsigned live[VEC];
#pragma unroll
    for (int k = 0; k < VEC; k++)
        live[k] = 14u;
    // (1) every class while a cos or sin lane of the block is live
    for (bool any = true; any && it + UNROLL <= niter; it += UNROLL) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
#pragma unroll
            for (int k = 0; k < VEC; k++)
                step4_live<FAST>(v[k], live[k]);
        unsigned a = 0;
#pragma unroll
        for (int k = 0; k < VEC; k++)
            a |= live[k] & 6u;
        any = __syncthreads_or(a != 0) != 0;
    }
    // (2) the tan lanes still live go to the queue (while it has room; the
    // others stay with their threads), entry i to thread i
    int tid = threadIdx.y * BX + threadIdx.x, qp[VEC];
#pragma unroll
    for (int k = 0; k < VEC; k++) {
        qp[k] = -1;
        if (live[k] & 8u) {
            int p = atomicAdd(qn, 1);
            if (p < BX * BY) {
                qv[p] = v[k].w;
                qp[k] = p;
                live[k] &= ~8u;
            }
        }
    }
    __syncthreads();
    int nq = min(*qn, BX * BY);
    bool ql = tid < nq;
    float q = ql ? qv[tid] : 0.f;
    // (3) the log lanes, any lane still live (a tan lane the queue had no
    // room for; cos and sin where niter ended (1)), the queue entry (all
    // entries are at the same iteration: `it` is the block's); once no
    // thread of the warp has either, the log lanes only
#define GK_EW_BLOCK_STEP                                                        \
    {                                                                           \
        _Pragma("unroll") for (int k = 0; k < VEC; k++)                         \
            if (live[k]) step4_live<FAST>(v[k], live[k]);                       \
            else v[k].x = lstep<FAST>(v[k].x);                                  \
        if (ql) {                                                               \
            float n_ = st_tan(q);                                               \
            if (n_ == q || n_ != n_) ql = false;                                \
            q = n_;                                                             \
        }                                                                       \
    }
    for (bool any = true; any && it + UNROLL <= niter; it += UNROLL) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            GK_EW_BLOCK_STEP
        unsigned a = ql;
#pragma unroll
        for (int k = 0; k < VEC; k++)
            a |= live[k];
        any = __any_sync(__activemask(), a != 0);
    }
    for (; it + UNROLL <= niter; it += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
#pragma unroll
            for (int k = 0; k < VEC; k++)
                v[k].x = lstep<FAST>(v[k].x);
    for (; it < niter; it++)
        GK_EW_BLOCK_STEP
#undef GK_EW_BLOCK_STEP
    // (4) the queue's results back to their owners
    if (tid < nq) qv[tid] = q;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < VEC; k++)
        if (qp[k] >= 0) v[k].w = qv[qp[k]];
}
#endif

// The iterations of the tuned design on a thread's VEC float4s.  SKIP = 1:
// all four classes while a cos, sin or tan lane of the warp is live (the
// warp leaves this loop as one: __any_sync), then the log lanes only.
template <bool FAST> __device__ __forceinline__ void tuned_iters(float4 (&v)[VEC], int niter)
{
    int it = 0;
#if SKIP
    unsigned live[VEC];
#pragma unroll
    for (int k = 0; k < VEC; k++)
        live[k] = 14u;
    for (bool any = true; any && it + UNROLL <= niter; it += UNROLL) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
#pragma unroll
            for (int k = 0; k < VEC; k++)
                step4_live<FAST>(v[k], live[k]);
        unsigned a = 0;
#pragma unroll
        for (int k = 0; k < VEC; k++)
            a |= live[k];
        any = __any_sync(__activemask(), a != 0);
    }
    // Here either no cos, sin or tan lane of this thread is live (the
    // vote included it), or fewer than UNROLL iterations are left: the log
    // lanes only, then the remainder.
    for (; it + UNROLL <= niter; it += UNROLL)
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
#pragma unroll
            for (int k = 0; k < VEC; k++)
                v[k].x = lstep<FAST>(v[k].x);
    for (; it < niter; it++)
#pragma unroll
        for (int k = 0; k < VEC; k++)
            step4_live<FAST>(v[k], live[k]);
#else
    for (; it + UNROLL <= niter; it += UNROLL) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
#pragma unroll
            for (int k = 0; k < VEC; k++)
                step4f<FAST>(v[k]);
    }
    for (; it < niter; it++)
#pragma unroll
        for (int k = 0; k < VEC; k++)
            step4f<FAST>(v[k]);
#endif
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
#if SKIP == 2
    // every thread of the block goes round the loop the same number of
    // times (the block synchronises); a thread past the last row steps
    // ones and stores nothing
    __shared__ float qv[BX * BY];
    __shared__ int qn;
    for (int y0 = blockIdx.y * BY; y0 < dimy; y0 += ystride) {
        int y = y0 + threadIdx.y;
        bool in = y < dimy;
        float *row = a + (u64)(in ? y : 0) * (u64)dimx;
        float4 v[VEC];
        bool fast = true;
#pragma unroll
        for (int k = 0; k < VEC; k++) {
            v[k] = load4(row, in ? q0 + k * BX : nq, nq, dimx, aligned);
            fast = fast && log_fast_ok(v[k].x);
        }
        if (threadIdx.x == 0 && threadIdx.y == 0) qn = 0;
        if (__syncthreads_and(fast))
            block_iters<true>(v, niter, qv, &qn);
        else
            block_iters<false>(v, niter, qv, &qn);
        if (in)
#pragma unroll
            for (int k = 0; k < VEC; k++)
                store4(row, q0 + k * BX, nq, dimx, aligned, v[k]);
        __syncthreads();        // qn and qv are the next row's
    }
#else
    for (int y = blockIdx.y * BY + threadIdx.y; y < dimy; y += ystride) {
        float *row = a + (u64)y * (u64)dimx;
        float4 v[VEC];
        bool fast = true;
#pragma unroll
        for (int k = 0; k < VEC; k++) {
            v[k] = load4(row, q0 + k * BX, nq, dimx, aligned);
            fast = fast && log_fast_ok(v[k].x);
        }
        if (fast)
            tuned_iters<true>(v, niter);
        else
            tuned_iters<false>(v, niter);
#pragma unroll
        for (int k = 0; k < VEC; k++)
            store4(row, q0 + k * BX, nq, dimx, aligned, v[k]);
    }
#endif
}

// The ceiling: the four steps (as the tuned kernel computes them: its log
// step where the log values allow it) on every element, at the device's
// full occupancy and without memory traffic in the loop: the matrix seen as
// n4 float4s (a lane's class is its position in the float4: the same mix of
// functions), 2 float4 chains per thread, 256 threads, grid-strided over
// the whole matrix (the host launches 8 blocks per SM).  A ceiling for the
// full work only: SKIP = 1 does less work (the same bits) and passes it.
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
        bool fast = true;
#pragma unroll
        for (int k = 0; k < CEIL_CHAINS; k++)
            fast = fast && log_fast_ok(v[k].x);
        if (fast)
            for (int it = 0; it < niter; it++)
#pragma unroll
                for (int k = 0; k < CEIL_CHAINS; k++)
                    step4f<true>(v[k]);
        else
            for (int it = 0; it < niter; it++)
#pragma unroll
                for (int k = 0; k < CEIL_CHAINS; k++)
                    step4(v[k]);
#pragma unroll
        for (int k = 0; k < CEIL_CHAINS; k++)
            if (t + k * T < n4) a[t + k * T] = v[k];
    }
}

// The self-test of the tuned kernel's log step (tests/test_elementwise_gpu.c):
// for the floats with bits first .. first + count - 1 (grid-strided), each
// v >= 1 and finite: cnt[0] += log_pos_normal(v) != logf(v) (bits),
// cnt[1] += st_log_ge1(v) != st_log(v) (bits), cnt[2] += sqrt_ge1(v) !=
// sqrtf(v) for v < 2^64; cnt[3] = the largest distance of log_pos_normal(v)
// from the exact log (double log), in float ulps of the exact value, times
// 2^20, rounded up (atomicMax).
extern "C" __global__ void gk_ew_selftest(unsigned first, unsigned count, unsigned long long *cnt)
{
    unsigned n0 = 0, n1 = 0, n2 = 0, worst = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        float v = __uint_as_float(first + i);
        if (!log_fast_ok(v)) continue;
        float l = log_pos_normal(v);
        n0 += __float_as_uint(l) != __float_as_uint(logf(v));
        n1 += __float_as_uint(st_log_ge1(v)) != __float_as_uint(st_log(v));
        if (v < 1.8446744e19f)
            n2 += __float_as_uint(sqrt_ge1(v)) != __float_as_uint(sqrtf(v));
        double x = log((double)v), d = fabs((double)l - x);
        double u = x == 0 ? 1.4012984643248171e-45 : ldexp(1.0, ilogb(x) - 23);   // 2^-149 at 0
        double q = ceil(d / u * 1048576.0);
        unsigned w = q > 4e9 ? 4000000000u : (unsigned)q;
        worst = w > worst ? w : worst;
    }
    for (int o = 16; o > 0; o >>= 1) {
        n0 += __shfl_xor_sync(0xffffffffu, n0, o);
        n1 += __shfl_xor_sync(0xffffffffu, n1, o);
        n2 += __shfl_xor_sync(0xffffffffu, n2, o);
        unsigned w = __shfl_xor_sync(0xffffffffu, worst, o);
        worst = w > worst ? w : worst;
    }
    if ((threadIdx.x & 31) == 0) {
        if (n0) atomicAdd(&cnt[0], (unsigned long long)n0);
        if (n1) atomicAdd(&cnt[1], (unsigned long long)n1);
        if (n2) atomicAdd(&cnt[2], (unsigned long long)n2);
        atomicMax(&cnt[3], (unsigned long long)worst);
    }
}
