// gemm.cu - fp32 matrix multiply C = A B on the GPU (A: M x K, B: K x N,
// C: M x N, all row-major).  Kernels only.  Every multiply-add is an fp32
// FFMA (no TF32, no tensor cores).
//
//   gk_gemm_naive     one output per thread, K global loads of A and B each
//                     (the course's starting point)
//   gk_gemm_tile      the course's 2D shared-memory tiles: 32 x 32 block
//                     tile, one output per thread, A and B tiles of 32 x 32
//                     in shared memory
//   gk_gemm_ilp       the course's next step (instruction-level
//                     parallelism): 64 x 64 block tile, 16 x 16 threads, 4 x 4
//                     outputs per thread from 64 x 16 tiles of A and B
//   gk_gemm_tuned     the tuned design: a BM x BN block tile, BM/TM x BN/TN
//                     threads, each owning TM x TN outputs in registers
//                     (groups of 4 rows and 4 columns strided over the tile,
//                     so that shared memory is read as float4 without bank
//                     conflicts); k in chunks of BK; A's chunk stored
//                     transposed in shared memory (As[k][m]); global loads of
//                     VEC floats; STAGES = 2: the next chunk is loaded into
//                     registers while the current one is used from the other
//                     shared buffer (one barrier per chunk).  Blocks inside
//                     C take a branch-free path (unguarded vector loads and
//                     float4 stores) over the full k chunks; blocks on C's
//                     edges and the k remainder take the guarded path.
//   gk_gemm_tuned_unaligned  the same, every load guarded and scalar: the
//                     host launches it when K or N is not a multiple of VEC
//                     or a pointer is not VEC-aligned
//   gk_gemm_fma_ceiling  chains of independent fp32 FMAs: the device's FP32
//                     ceiling, measured in the same run as the benchmark
//
// The tunable parameters: their ranges, defaults and candidate values are
// described once, in src/core/space_gemm.c; the build and NVRTC pass every
// one of them as -DNAME=VALUE, so none has a default here.
//   BM, BN   block tile (rows of C, columns of C)
//   BK       k chunk
//   TM, TN   outputs per thread (multiples of 4)
//   VEC      floats per global load (1, 2 or 4)
//   STAGES   shared buffers (1: load, barrier, compute, barrier; 2: double buffering)
//   UNROLL   unroll of the loop over a k chunk
//   MINB     minimum resident blocks per SM (__launch_bounds__)
#ifndef BM
#error "BM must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef BN
#error "BN must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef BK
#error "BK must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef TM
#error "TM must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef TN
#error "TN must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef VEC
#error "VEC must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef STAGES
#error "STAGES must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef UNROLL
#error "UNROLL must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef MINB
#error "MINB must be defined (gk passes every parameter of the kernel's space)"
#endif

#define THREADS ((BM / TM) * (BN / TN))
#define APAD 4                         /* As rows of BM + 4: conflict-free transposed stores */
#define A_LOADS (BM * BK / (THREADS * VEC))   /* vectors of A per thread per chunk */
#define B_LOADS (BK * BN / (THREADS * VEC))

#if TM % 4 || TN % 4 || (BM * BK) % (THREADS * VEC) || (BK * BN) % (THREADS * VEC) || BK % VEC || BN % VEC
#error "gemm: TM, TN multiples of 4 and whole vectors per thread (the space's reject() says why)"
#endif
#if BK % UNROLL
#error "gemm: UNROLL must divide BK"
#endif

typedef unsigned long long u64;
static constexpr int kUnroll = UNROLL;     /* #pragma unroll takes a constant, not a macro */

// ---------------------------------------------------------------- baselines

extern "C" __global__ void gk_gemm_naive(const float *__restrict__ A, const float *__restrict__ B,
                                         float *__restrict__ C, int M, int N, int K)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    float acc = 0.f;
    for (int k = 0; k < K; k++)
        acc = fmaf(A[(u64)row * K + k], B[(u64)k * N + col], acc);
    C[(u64)row * N + col] = acc;
}

#define T1 32
extern "C" __global__ void __launch_bounds__(T1 * T1) gk_gemm_tile(const float *__restrict__ A,
        const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[T1][T1 + 1], Bs[T1][T1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T1 + ty, col = blockIdx.x * T1 + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += T1) {
        As[ty][tx] = row < M && k0 + tx < K ? A[(u64)row * K + k0 + tx] : 0.f;
        Bs[ty][tx] = k0 + ty < K && col < N ? B[(u64)(k0 + ty) * N + col] : 0.f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T1; k++)
            acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N)
        C[(u64)row * N + col] = acc;
}

#define T2 64          /* block tile */
#define K2 16          /* k chunk */
extern "C" __global__ void __launch_bounds__(256) gk_gemm_ilp(const float *__restrict__ A,
        const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[K2][T2 + 1], Bs[K2][T2];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    int m0 = blockIdx.y * T2, n0 = blockIdx.x * T2;
    float acc[4][4] = { { 0.f } };
    for (int k0 = 0; k0 < K; k0 += K2) {
        for (int i = tid; i < T2 * K2; i += 256) {
            int r = i / K2, k = i % K2;           /* A: T2 rows x K2 */
            As[k][r] = m0 + r < M && k0 + k < K ? A[(u64)(m0 + r) * K + k0 + k] : 0.f;
            int kb = i / T2, c = i % T2;          /* B: K2 rows x T2 */
            Bs[kb][c] = k0 + kb < K && n0 + c < N ? B[(u64)(k0 + kb) * N + n0 + c] : 0.f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < K2; k++) {
            float a[4], b[4];
#pragma unroll
            for (int i = 0; i < 4; i++) { a[i] = As[k][ty + 16 * i]; b[i] = Bs[k][tx + 16 * i]; }
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int r = m0 + ty + 16 * i, c = n0 + tx + 16 * j;
            if (r < M && c < N) C[(u64)r * N + c] = acc[i][j];
        }
}

// ---------------------------------------------------------------- tuned

template <int W> struct vec;
template <> struct vec<1> { typedef float t; };
template <> struct vec<2> { typedef float2 t; };
template <> struct vec<4> { typedef float4 t; };
typedef vec<VEC>::t vec_t;

// Component j of a vector (j a constant after unrolling: no local memory).
__device__ __forceinline__ float &comp(float &v, int) { return v; }
__device__ __forceinline__ float &comp(float2 &v, int j) { return j ? v.y : v.x; }
__device__ __forceinline__ float &comp(float4 &v, int j) { return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w; }

// One chunk's global loads into registers.  Thread tid's A vectors: row
// (tid + i*THREADS) / (BK/VEC) of the block tile, k offset ((tid + ...) %
// (BK/VEC)) * VEC; B vectors: k row (tid + i*THREADS) / (BN/VEC), column
// ((...) % (BN/VEC)) * VEC.  The fast path reads through pointers set once
// per block (pa, pb: the thread's vectors of chunk 0) advanced by k0; the
// guarded path checks element by element against M, N, K (zero outside).
__device__ __forceinline__ void load_fast(const float *const *pa, const float *const *pb, int k0, int N,
                                          vec_t *ra, vec_t *rb)
{
#pragma unroll
    for (int i = 0; i < A_LOADS; i++)
        ra[i] = *(const vec_t *)(pa[i] + k0);
#pragma unroll
    for (int i = 0; i < B_LOADS; i++)
        rb[i] = *(const vec_t *)(pb[i] + (u64)k0 * N);
}

__device__ __forceinline__ void load_guarded(const float *__restrict__ A, const float *__restrict__ B, int M,
                                             int N, int K, int m0, int n0, int k0, int tid, vec_t *ra, vec_t *rb)
{
#pragma unroll
    for (int i = 0; i < A_LOADS; i++) {
        int e = tid + i * THREADS, r = e / (BK / VEC), k = (e % (BK / VEC)) * VEC;
#pragma unroll
        for (int j = 0; j < VEC; j++)
            comp(ra[i], j) = m0 + r < M && k0 + k + j < K ? A[(u64)(m0 + r) * K + k0 + k + j] : 0.f;
    }
#pragma unroll
    for (int i = 0; i < B_LOADS; i++) {
        int e = tid + i * THREADS, kr = e / (BN / VEC), c = (e % (BN / VEC)) * VEC;
#pragma unroll
        for (int j = 0; j < VEC; j++)
            comp(rb[i], j) = k0 + kr < K && n0 + c + j < N ? B[(u64)(k0 + kr) * N + n0 + c + j] : 0.f;
    }
}

__device__ __forceinline__ void store_chunk(float *As, float *Bs, int tid, vec_t *ra, vec_t *rb)
{
#pragma unroll
    for (int i = 0; i < A_LOADS; i++) {
        int e = tid + i * THREADS, r = e / (BK / VEC), k = (e % (BK / VEC)) * VEC;
#pragma unroll
        for (int j = 0; j < VEC; j++)
            As[(k + j) * (BM + APAD) + r] = comp(ra[i], j);
    }
#pragma unroll
    for (int i = 0; i < B_LOADS; i++) {
        int e = tid + i * THREADS, kr = e / (BN / VEC), c = (e % (BN / VEC)) * VEC;
        *(vec_t *)&Bs[kr * BN + c] = rb[i];
    }
}

// The thread's TM x TN products of one chunk held in shared memory.
__device__ __forceinline__ void compute_chunk(const float *As, const float *Bs, int tx, int ty,
                                              float (*acc)[TN])
{
#pragma unroll kUnroll
    for (int k = 0; k < BK; k++) {
        float a[TM], b[TN];
#pragma unroll
        for (int g = 0; g < TM / 4; g++) {
            float4 v = *(const float4 *)&As[k * (BM + APAD) + g * (4 * BM / TM) + ty * 4];
            a[4 * g] = v.x; a[4 * g + 1] = v.y; a[4 * g + 2] = v.z; a[4 * g + 3] = v.w;
        }
#pragma unroll
        for (int g = 0; g < TN / 4; g++) {
            float4 v = *(const float4 *)&Bs[k * BN + g * (4 * BN / TN) + tx * 4];
            b[4 * g] = v.x; b[4 * g + 1] = v.y; b[4 * g + 2] = v.z; b[4 * g + 3] = v.w;
        }
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
                acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
}

// nchunks chunks of the block's k range from kbase; the last one may be
// partial (GUARD then).  Dynamic shared memory: STAGES stages of BK x
// (BM+APAD) floats of A (transposed) then BK x BN of B.
#define STAGE_FLOATS (BK * (BM + APAD) + BK * BN)
template <bool GUARD>
__device__ __forceinline__ void chunks(const float *__restrict__ A, const float *__restrict__ B, int M, int N,
                                       int K, int m0, int n0, int kbase, int nchunks, int tid, int tx, int ty,
                                       float *smem, float (*acc)[TN])
{
    vec_t ra[A_LOADS], rb[B_LOADS];
    const float *pa[A_LOADS], *pb[B_LOADS];
    if (!GUARD) {
#pragma unroll
        for (int i = 0; i < A_LOADS; i++) {
            int e = tid + i * THREADS, r = e / (BK / VEC), k = (e % (BK / VEC)) * VEC;
            pa[i] = A + (u64)(m0 + r) * K + k;
        }
#pragma unroll
        for (int i = 0; i < B_LOADS; i++) {
            int e = tid + i * THREADS, kr = e / (BN / VEC), c = (e % (BN / VEC)) * VEC;
            pb[i] = B + (u64)kr * N + n0 + c;
        }
    }
#define LOAD(k0) do { if (GUARD) load_guarded(A, B, M, N, K, m0, n0, (k0), tid, ra, rb); \
                      else load_fast(pa, pb, (k0), N, ra, rb); } while (0)
    if (nchunks <= 0) return;
#if STAGES == 2
    LOAD(kbase);
    store_chunk(smem, smem + BK * (BM + APAD), tid, ra, rb);
    __syncthreads();
    for (int c = 0; c < nchunks; c++) {
        float *cur = smem + (c & 1) * STAGE_FLOATS, *nxt = smem + ((c & 1) ^ 1) * STAGE_FLOATS;
        if (c + 1 < nchunks)
            LOAD(kbase + (c + 1) * BK);
        compute_chunk(cur, cur + BK * (BM + APAD), tx, ty, acc);
        if (c + 1 < nchunks)
            store_chunk(nxt, nxt + BK * (BM + APAD), tid, ra, rb);
        __syncthreads();
    }
#else
    for (int c = 0; c < nchunks; c++) {
        LOAD(kbase + c * BK);
        store_chunk(smem, smem + BK * (BM + APAD), tid, ra, rb);
        __syncthreads();
        compute_chunk(smem, smem + BK * (BM + APAD), tx, ty, acc);
        __syncthreads();
    }
#endif
#undef LOAD
}

template <bool ALIGNED>
__device__ __forceinline__ void tuned(const float *__restrict__ A, const float *__restrict__ B,
                                      float *__restrict__ C, int M, int N, int K)
{
    extern __shared__ float4 smem4[];
    float *smem = (float *)smem4;
    int tid = threadIdx.x, tx = tid % (BN / TN), ty = tid / (BN / TN);
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.f;
    int full = ALIGNED && m0 + BM <= M && n0 + BN <= N;
    int kfull = K / BK, krem = K % BK;
    if (full) {
        chunks<false>(A, B, M, N, K, m0, n0, 0, kfull, tid, tx, ty, smem, acc);
        if (krem)   /* the partial chunk: guarded */
            chunks<true>(A, B, M, N, K, m0, n0, kfull * BK, 1, tid, tx, ty, smem, acc);
    } else {
        chunks<true>(A, B, M, N, K, m0, n0, 0, kfull + (krem > 0), tid, tx, ty, smem, acc);
    }
    // rows g*(4*BM/TM) + ty*4 + r, columns h*(4*BN/TN) + tx*4 + c
#pragma unroll
    for (int g = 0; g < TM / 4; g++)
#pragma unroll
        for (int r = 0; r < 4; r++) {
            int row = m0 + g * (4 * BM / TM) + ty * 4 + r;
#pragma unroll
            for (int h = 0; h < TN / 4; h++) {
                int col = n0 + h * (4 * BN / TN) + tx * 4;
                const float *v = &acc[4 * g + r][4 * h];
                if (full && !(N & 3)) {
                    *(float4 *)&C[(u64)row * N + col] = make_float4(v[0], v[1], v[2], v[3]);
                } else if (row < M) {
#pragma unroll
                    for (int c = 0; c < 4; c++)
                        if (col + c < N) C[(u64)row * N + col + c] = v[c];
                }
            }
        }
}

extern "C" __global__ void __launch_bounds__(THREADS, MINB)
gk_gemm_tuned(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K)
{
    tuned<true>(A, B, C, M, N, K);
}

extern "C" __global__ void __launch_bounds__(THREADS, MINB)
gk_gemm_tuned_unaligned(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                        int M, int N, int K)
{
    tuned<false>(A, B, C, M, N, K);
}

// ---------------------------------------------------------------- ceiling

#define CEIL_CHAINS 8
extern "C" __global__ void gk_gemm_fma_ceiling(float *out, int iters, float a, float b)
{
    float x[CEIL_CHAINS];
#pragma unroll
    for (int c = 0; c < CEIL_CHAINS; c++) x[c] = threadIdx.x + c;
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int c = 0; c < CEIL_CHAINS; c++) x[c] = fmaf(x[c], a, b);
    float s = 0.f;
#pragma unroll
    for (int c = 0; c < CEIL_CHAINS; c++) s += x[c];
    out[(u64)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
