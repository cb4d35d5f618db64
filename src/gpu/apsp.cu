// apsp.cu - blocked Floyd-Warshall kernels.  Kernels only: the host code is
// src/gpu/apsp_gpu.c.
//
// The matrix lives on the device padded to Np = a multiple of APSP_TILE, row
// pitch Np, INF in the padding (so padded vertices add no path).  For each
// pivot tile k:
//   gk_apsp_pivot    (phase 1) closes the pivot tile in shared memory;
//   gk_apsp_minplus  (phase 2, grid nt x 2) pivot row and column tiles:
//                    C = min(C, P (min,+) C) and C = min(C, C (min,+) P);
//   gk_apsp_minplus  (phase 3, grid nt x nt) every other tile:
//                    C = min(C, D[i][k] (min,+) D[k][j]).
// With the lookahead (src/gpu/apsp_gpu.c) phase 3 of round k runs in two
// parts: phase 4 (grid nt x 2) the tiles of row and column k + 1, on a
// high-priority stream, followed there by phases 1 and 2 of round k + 1,
// while phase 5 (grid (nt - 2) x (nt - 2)) updates the rest on the main
// stream.  Every tile gets the same updates in the same order.  On one GPU
// phases 3 to 5 run in gk_apsp_mp3 (the same product, its A tiles read from
// the column panel's transpose that phase 2 writes, chunks copied with
// cp.async); gk_apsp_minplus keeps phase 2 and the row-block path.
// Once the pivot is closed, phase 2 is a plain min-plus product too, so one
// register-tiled kernel (an SGEMM in the (min,+) semiring) does phases 2 and
// 3: each thread owns APSP_TM x APSP_TN outputs in registers, A and B stream
// through shared memory APSP_BK columns/rows at a time (double-buffered, the
// next chunk loaded into registers while this one is used), 16-byte shared
// loads, and one __viaddmin_s32 (min(a + b, c): one VIADDMNMX on sm_90) per
// output per k.  Values stay in [0, INF]: min(a + b, c) <= c, and
// INF + INF = 2^31 - 2 does not overflow.
//
// Also here: the classic course design kept as the benchmark's baseline
// (64 x 64 tiles, 32 x 32 threads, three phases in shared memory), the
// ceiling micro-benchmark and a fill kernel for the padding.

// The tunable parameters: their ranges, defaults and candidate values are
// described once, in src/core/space_apsp.c; the build and NVRTC pass every
// one of them as -DNAME=VALUE, so none has a default here.
//   APSP_TILE    tile edge (output tile of a block; pivot tile)
//   APSP_TM      output rows per thread (multiple of 4)
//   APSP_TN      output columns per thread (multiple of 4)
//   APSP_BK      k chunk held in shared memory per stage
//   APSP_UNROLL  unroll of the k loop inside a chunk
//   APSP_MINB    __launch_bounds__ minimum blocks per SM
#ifndef APSP_TILE
#error "APSP_TILE must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSP_TM
#error "APSP_TM must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSP_TN
#error "APSP_TN must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSP_BK
#error "APSP_BK must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSP_UNROLL
#error "APSP_UNROLL must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSP_MINB
#error "APSP_MINB must be defined (gk passes every parameter of the kernel's space)"
#endif
// The typed kernels' thread shapes (the "typed" section below):
//   APSPX_F32_TM, APSPX_F32_TN  float32 (and negative int32) distances
//   APSPX_F64_TM, APSPX_F64_TN  float64 distances
//   APSPX_P_TM, APSPX_P_TN      any type with predecessors
#ifndef APSPX_F32_TM
#error "APSPX_F32_TM must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSPX_F32_TN
#error "APSPX_F32_TN must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSPX_F64_TM
#error "APSPX_F64_TM must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSPX_F64_TN
#error "APSPX_F64_TN must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSPX_P_TM
#error "APSPX_P_TM must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSPX_P_TN
#error "APSPX_P_TN must be defined (gk passes every parameter of the kernel's space)"
#endif

#define INF 1073741823

#define TX (APSP_TILE / APSP_TN)            // threads along a row
#define TY (APSP_TILE / APSP_TM)            // threads along a column
#define NTHREADS (TX * TY)
#define RG (APSP_TM / 4)                    // groups of 4 rows per thread
#define CG (APSP_TN / 4)                    // groups of 4 columns per thread
#define RSLAB (APSP_TILE / RG)              // rows between a thread's row groups
#define CSLAB (APSP_TILE / CG)
#define LDA (APSP_TILE + 4)                 // A^T chunk row pitch (padded: fewer store conflicts)
#define LDB (APSP_TILE)

#if APSP_TILE % 32 || APSP_TM % 4 || APSP_TN % 4 || APSP_TILE % APSP_TM || APSP_TILE % APSP_TN || APSP_TILE % APSP_BK \
    || APSP_BK % APSP_UNROLL || APSP_BK % 4 || (APSP_BK * APSP_TILE / 4) % NTHREADS
#error "inconsistent APSP_* parameters"
#endif

#define GK_PRAGMA(x) _Pragma(#x)
#define GK_UNROLL(n) GK_PRAGMA(unroll n)
// The k chunk of the register-staged kernels (gk_apsp_minplus: phase 2,
// and phase 3 without gk_apsp_mp3; gk_apsp_rows past one GPU): at most 8,
// where a tile of 8 rows still splits into 16-byte loads over the threads.
// Their next chunk waits in registers, and at APSP_BK = 16 (the default,
// for gk_apsp_mp3's cp.async stages) that spilled: 48 and 104 bytes.  The
// chunk only groups the k's: the updates and their order are the same.
#define RBK (APSP_BK > 8 && (8 * APSP_TILE / 4) % NTHREADS == 0 ? 8 : APSP_BK)

static __device__ __forceinline__ int vmin(int a, int b) { return a < b ? a : b; }

// The C tile (bi, bj) of a block of gk_apsp_minplus / gk_apsp16_minplus in
// round k; 0: the block has nothing to do.  The A and B tiles are (bi, k)
// and (k, bj) in every phase.
//   2: blockIdx.y = 0: row tile (k, x); 1: column tile (x, k); x != k
//   3: (y, x), neither in row or column k
//   4: phase 3's tiles of row k + 1 (y = 0: (k + 1, x), x != k) and of
//      column k + 1 (y = 1: (x, k + 1), x != k, k + 1)
//   5: phase 3's tiles outside rows and columns k and k + 1: grid
//      (nt - 2) x (nt - 2), indices k and k + 1 skipped
static __device__ __forceinline__ int tile_of(int phase, int k, int *bi, int *bj)
{
    const int x = blockIdx.x, y = blockIdx.y;
    switch (phase) {
    case 2:
        if (x == k) return 0;
        if (y == 0) { *bi = k; *bj = x; } else { *bi = x; *bj = k; }
        return 1;
    case 4:
        if (x == k) return 0;
        if (y == 0) { *bi = k + 1; *bj = x; return 1; }
        if (x == k + 1) return 0;
        *bi = x; *bj = k + 1;
        return 1;
    case 5:
        *bi = y < k ? y : y + 2;
        *bj = x < k ? x : x + 2;
        return 1;
    default:
        *bi = y; *bj = x;
        return y != k && x != k;
    }
}

// Phase 1: Floyd-Warshall inside the pivot tile (k, k), 32 x TYN threads,
// each owning T / TYN x T / 32 cells in registers.  Step kk reads row kk and
// column kk from shared memory; afterwards only the cells of row and column
// kk + 1 are published there, for the next step.  Row and column kk
// themselves do not change in step kk (d[kk][kk] >= 0) and are never written
// while read, so one barrier per step suffices.  min(a + b, c) in int for
// both widths (16-bit values: no overflow either).
template <typename E, int T, int TYN>
static __device__ __forceinline__ void pivot_tile(E *d, long long pitch, int k)
{
    constexpr int RA = T / TYN, RB = T / 32;
    extern __shared__ __align__(16) unsigned char pivot_smem[];
    E *s = (E *)pivot_smem;
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    E *base = d + (long long)k * T * pitch + (long long)k * T;
    int r[RA][RB];
#pragma unroll
    for (int a = 0; a < RA; a++)
#pragma unroll
        for (int b = 0; b < RB; b++) {
            r[a][b] = base[(long long)(ty + TYN * a) * pitch + tx + 32 * b];
            s[(ty + TYN * a) * T + tx + 32 * b] = (E)r[a][b];
        }
    __syncthreads();
#pragma unroll 4
    for (int kk = 0; kk < T; kk++) {
        int av[RA], bv[RB];
#pragma unroll
        for (int a = 0; a < RA; a++) av[a] = s[(ty + TYN * a) * T + kk];
#pragma unroll
        for (int b = 0; b < RB; b++) bv[b] = s[kk * T + tx + 32 * b];
        const int nk = kk + 1;
#pragma unroll
        for (int a = 0; a < RA; a++)
#pragma unroll
            for (int b = 0; b < RB; b++) {
                const int i = ty + TYN * a, j = tx + 32 * b;
                r[a][b] = __viaddmin_s32(av[a], bv[b], r[a][b]);
                if ((i == nk || j == nk) && i != kk && j != kk)
                    s[i * T + j] = (E)r[a][b];
            }
        __syncthreads();
    }
#pragma unroll
    for (int a = 0; a < RA; a++)
#pragma unroll
        for (int b = 0; b < RB; b++)
            base[(long long)(ty + TYN * a) * pitch + tx + 32 * b] = (E)r[a][b];
}

extern "C" __global__ void __launch_bounds__(1024) gk_apsp_pivot(int *d, long long pitch, int k)
{
    pivot_tile<int, APSP_TILE, 32>(d, pitch, k);
}

// One k of the register-tiled (min,+) product, shared by gk_apsp_minplus,
// gk_apsp_mp3 and the row blocks: the thread's APSP_TM values of column k of
// A (at a_row: the chunk's A^T row k) and APSP_TN values of row k of B (at
// b_row), then APSP_TM x APSP_TN updates.  The kernels differ only in where
// their chunks lie.
static __device__ __forceinline__ void mp_k(int (&acc)[APSP_TM][APSP_TN], const int *a_row, const int *b_row,
                                            int tx, int ty)
{
    int a[APSP_TM], b[APSP_TN];
#pragma unroll
    for (int g = 0; g < RG; g++) {
        int4 v = *(const int4 *)(a_row + g * RSLAB + ty * 4);
        a[g * 4 + 0] = v.x; a[g * 4 + 1] = v.y; a[g * 4 + 2] = v.z; a[g * 4 + 3] = v.w;
    }
#pragma unroll
    for (int h = 0; h < CG; h++) {
        int4 v = *(const int4 *)(b_row + h * CSLAB + tx * 4);
        b[h * 4 + 0] = v.x; b[h * 4 + 1] = v.y; b[h * 4 + 2] = v.z; b[h * 4 + 3] = v.w;
    }
#pragma unroll
    for (int r = 0; r < APSP_TM; r++)
#pragma unroll
        for (int c = 0; c < APSP_TN; c++)
            acc[r][c] = __viaddmin_s32(a[r], b[c], acc[r][c]);
}

// Phases 2 and 3 (and the lookahead's 4 and 5): tile_of says which tile.
// Only the first kend columns of A and rows of B take part (kend < tile in
// the last round when V is not a multiple of the tile: the rest is the
// padding, INF, and min(c, a + INF) = c).
extern "C" __global__ void __launch_bounds__(NTHREADS, APSP_MINB)
gk_apsp_minplus(int *d, long long pitch, int k, int phase, int kend, int *at)
{
    extern __shared__ __align__(16) int smem[];
    int bi, bj, ai, aj, bri, brj;   // C tile (bi, bj) = A tile (ai, aj) x B tile (bri, brj)
    if (!tile_of(phase, k, &bi, &bj)) return;
    ai = bi; aj = k; bri = k; brj = bj;

    const int tid = threadIdx.x;
    const int tx = tid % TX, ty = tid / TX;
    int *cbase = d + (long long)bi * APSP_TILE * pitch + (long long)bj * APSP_TILE;
    const int *abase = d + (long long)ai * APSP_TILE * pitch + (long long)aj * APSP_TILE;
    const int *bbase = d + (long long)bri * APSP_TILE * pitch + (long long)brj * APSP_TILE;

    int acc[APSP_TM][APSP_TN];
#pragma unroll
    for (int g = 0; g < RG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < CG; h++) {
                int4 v = *(const int4 *)(cbase + (long long)(g * RSLAB + ty * 4 + r) * pitch + h * CSLAB + tx * 4);
                acc[g * 4 + r][h * 4 + 0] = v.x; acc[g * 4 + r][h * 4 + 1] = v.y;
                acc[g * 4 + r][h * 4 + 2] = v.z; acc[g * 4 + r][h * 4 + 3] = v.w;
            }

    // Chunk loads: A is read as int4 along k (row-major tile) and stored
    // transposed (As[kk][i]); B rows are copied as they are (Bs[kk][j]).
    constexpr int AV = RBK * APSP_TILE / 4 / NTHREADS;   // int4 per thread per chunk
    int4 ra[AV], rb[AV];
    // stage s: A^T at smem + s * STAGE, B after it (no pointer arrays: a
    // run-time index into one would put it in local memory)
    constexpr int STAGE = RBK * (LDA + LDB);
#define As(s) (smem + (s) * STAGE)
#define Bs(s) (smem + (s) * STAGE + RBK * LDA)

#define LOAD_CHUNK(k0) do { \
        _Pragma("unroll") for (int q = 0; q < AV; q++) { \
            int e = tid + q * NTHREADS; \
            int ar = e / (RBK / 4), ac = (e % (RBK / 4)) * 4; \
            ra[q] = *(const int4 *)(abase + (long long)ar * pitch + (k0) + ac); \
            int br = e / (APSP_TILE / 4), bc = (e % (APSP_TILE / 4)) * 4; \
            rb[q] = *(const int4 *)(bbase + (long long)((k0) + br) * pitch + bc); \
        } } while (0)
#define STORE_CHUNK(buf) do { \
        _Pragma("unroll") for (int q = 0; q < AV; q++) { \
            int e = tid + q * NTHREADS; \
            int ar = e / (RBK / 4), ac = (e % (RBK / 4)) * 4; \
            As(buf)[(ac + 0) * LDA + ar] = ra[q].x; As(buf)[(ac + 1) * LDA + ar] = ra[q].y; \
            As(buf)[(ac + 2) * LDA + ar] = ra[q].z; As(buf)[(ac + 3) * LDA + ar] = ra[q].w; \
            int br = e / (APSP_TILE / 4), bc = (e % (APSP_TILE / 4)) * 4; \
            *(int4 *)(Bs(buf) + br * LDB + bc) = rb[q]; \
        } } while (0)

    LOAD_CHUNK(0);
    STORE_CHUNK(0);
    __syncthreads();
    // kend: the pivot tile's vertices (past them, padding: INF adds nothing)
    const int NCHUNK = (kend + RBK - 1) / RBK;
#pragma unroll 1
    for (int ch = 0; ch < NCHUNK; ch++) {
        const int cur = ch & 1;
        if (ch + 1 < NCHUNK)
            LOAD_CHUNK((ch + 1) * RBK);
        const int *as = As(cur), *bs = Bs(cur);
        GK_UNROLL(APSP_UNROLL)
        for (int kk = 0; kk < RBK; kk++)
            mp_k(acc, as + kk * LDA, bs + kk * LDB, tx, ty);
        if (ch + 1 < NCHUNK) {
            STORE_CHUNK(cur ^ 1);
            __syncthreads();
        }
    }
#undef LOAD_CHUNK
#undef As
#undef Bs
#undef STORE_CHUNK

#pragma unroll
    for (int g = 0; g < RG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < CG; h++) {
                int4 v;
                v.x = acc[g * 4 + r][h * 4 + 0]; v.y = acc[g * 4 + r][h * 4 + 1];
                v.z = acc[g * 4 + r][h * 4 + 2]; v.w = acc[g * 4 + r][h * 4 + 3];
                *(int4 *)(cbase + (long long)(g * RSLAB + ty * 4 + r) * pitch + h * CSLAB + tx * 4) = v;
            }
    // at (phase 2, column tiles): the tile transposed into panel k & 1 of
    // the column panels' transposes, for gk_apsp_mp3 (AT_PANEL below)
    if (at && phase == 2 && blockIdx.y == 1) {
        int *t = at + (long long)(k & 1) * APSP_TILE * pitch + (long long)bi * APSP_TILE;
#pragma unroll
        for (int g = 0; g < RG; g++)
#pragma unroll
            for (int h = 0; h < CG; h++)
#pragma unroll
                for (int c = 0; c < 4; c++) {
                    int4 v;
                    v.x = acc[g * 4 + 0][h * 4 + c]; v.y = acc[g * 4 + 1][h * 4 + c];
                    v.z = acc[g * 4 + 2][h * 4 + c]; v.w = acc[g * 4 + 3][h * 4 + c];
                    *(int4 *)(t + (long long)(h * CSLAB + tx * 4 + c) * pitch + g * RSLAB + ty * 4) = v;
                }
    }
}

// Phases 3, 4 and 5 with the A tiles read from the column panel's transpose
// (written by phase 2, gk_apsp_minplus with at): panel p = k & 1 of at
// holds AT[kk][i] = D[i][k * APSP_TILE + kk] at at + p * APSP_TILE * pitch +
// kk * pitch + i (two panels: round k + 1's phase 2 writes the other one
// while round k's phase 3 reads this one).  A^T and B chunks are then both
// APSP_BK rows of APSP_TILE contiguous ints: copied global -> shared with
// cp.async (no staging registers, no transposing stores), MP_STAGES deep.
// The same updates, in the same order, as gk_apsp_minplus.
#define MP_STAGES ((6 * APSP_BK * APSP_TILE * 4) <= 110592 ? 3 : 2)
// cp.async is sm_80 and later: before, a plain 16-byte copy (done when the
// thread goes on, so the waits have nothing to wait for; the block's
// barriers order the copies with the reads as they do the async ones)
static __device__ __forceinline__ void cp_async16(void *smem_dst, const void *gsrc)
{
#if __CUDA_ARCH__ >= 800
    const unsigned s = (unsigned)__cvta_generic_to_shared(smem_dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gsrc));
#else
    *reinterpret_cast<int4 *>(smem_dst) = *reinterpret_cast<const int4 *>(gsrc);
#endif
}
static __device__ __forceinline__ void cp_async_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N> static __device__ __forceinline__ void cp_async_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

extern "C" __global__ void __launch_bounds__(NTHREADS, APSP_MINB)
gk_apsp_mp3(int *d, long long pitch, int k, int phase, int kend, const int *at)
{
    extern __shared__ __align__(16) int smem[];
    int bi, bj;
    if (!tile_of(phase, k, &bi, &bj)) return;
    const int tid = threadIdx.x;
    const int tx = tid % TX, ty = tid / TX;
    int *cbase = d + (long long)bi * APSP_TILE * pitch + (long long)bj * APSP_TILE;
    const int *abase = at + (long long)(k & 1) * APSP_TILE * pitch + (long long)bi * APSP_TILE;
    const int *bbase = d + (long long)k * APSP_TILE * pitch + (long long)bj * APSP_TILE;
    constexpr int S = MP_STAGES;
    constexpr int CH = APSP_BK * APSP_TILE;                   // ints per operand chunk
    constexpr int AV = APSP_BK * APSP_TILE / 4 / NTHREADS;    // int4 per thread per operand chunk
    const int nchunk = (kend + APSP_BK - 1) / APSP_BK;
#define MP_ISSUE(ch) do { \
        int *sa = smem + ((ch) % S) * 2 * CH, *sb = sa + CH; \
        _Pragma("unroll") for (int q = 0; q < AV; q++) { \
            const int e = tid + q * NTHREADS, r = e / (APSP_TILE / 4), c = (e % (APSP_TILE / 4)) * 4; \
            const long long g = (long long)((ch) * APSP_BK + r) * pitch + c; \
            cp_async16(sa + r * APSP_TILE + c, abase + g); \
            cp_async16(sb + r * APSP_TILE + c, bbase + g); \
        } } while (0)
#pragma unroll
    for (int s = 0; s < S - 1; s++) {
        if (s < nchunk) MP_ISSUE(s);
        cp_async_commit();
    }
    int acc[APSP_TM][APSP_TN];
#pragma unroll
    for (int g = 0; g < RG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < CG; h++) {
                int4 v = *(const int4 *)(cbase + (long long)(g * RSLAB + ty * 4 + r) * pitch + h * CSLAB + tx * 4);
                acc[g * 4 + r][h * 4 + 0] = v.x; acc[g * 4 + r][h * 4 + 1] = v.y;
                acc[g * 4 + r][h * 4 + 2] = v.z; acc[g * 4 + r][h * 4 + 3] = v.w;
            }
#pragma unroll 1
    for (int ch = 0; ch < nchunk; ch++) {
        cp_async_wait<S - 2>();   // this thread's copies of chunk ch have landed
        __syncthreads();          // everyone's; and chunk ch - 1's stage is free
        if (ch + S - 1 < nchunk) MP_ISSUE(ch + S - 1);
        cp_async_commit();
        const int *as = smem + (ch % S) * 2 * CH, *bs = as + CH;
        GK_UNROLL(APSP_UNROLL)
        for (int kk = 0; kk < APSP_BK; kk++)
            mp_k(acc, as + kk * APSP_TILE, bs + kk * APSP_TILE, tx, ty);
    }
#undef MP_ISSUE
    cp_async_wait<0>();
#pragma unroll
    for (int g = 0; g < RG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < CG; h++) {
                int4 v;
                v.x = acc[g * 4 + r][h * 4 + 0]; v.y = acc[g * 4 + r][h * 4 + 1];
                v.z = acc[g * 4 + r][h * 4 + 2]; v.w = acc[g * 4 + r][h * 4 + 3];
                *(int4 *)(cbase + (long long)(g * RSLAB + ty * 4 + r) * pitch + h * CSLAB + tx * 4) = v;
            }
}

// Fill n ints with v (the padding of the device matrix).
extern "C" __global__ void gk_apsp_fill(int *d, long long n, int v)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        d[i] = v;
}

// ---------------------------------------------------------------- baseline
// The classic design of the course reports: 64 x 64 tiles, 32 x 32 threads
// each owning 2 x 2 cells, three phases, every update from shared memory.
#define BT 64
#define BH 32

extern "C" __global__ void __launch_bounds__(1024) gk_apsp_base_p1(int *d, long long pitch, int k)
{
    __shared__ int s[BT][BT];
    int tx = threadIdx.x, ty = threadIdx.y;
    int *b = d + (long long)k * BT * pitch + k * BT;
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++)
            s[ty + y * BH][tx + x * BH] = b[(long long)(ty + y * BH) * pitch + tx + x * BH];
    __syncthreads();
    for (int kk = 0; kk < BT; kk++) {
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++) {
                int v = s[ty + y * BH][kk] + s[kk][tx + x * BH];
                if (v < s[ty + y * BH][tx + x * BH]) s[ty + y * BH][tx + x * BH] = v;
            }
        __syncthreads();
    }
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++)
            b[(long long)(ty + y * BH) * pitch + tx + x * BH] = s[ty + y * BH][tx + x * BH];
}

extern "C" __global__ void __launch_bounds__(1024) gk_apsp_base_p2(int *d, long long pitch, int k)
{
    __shared__ int piv[BT][BT], own[BT][BT];
    if ((int)blockIdx.x == k) return;
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y == 0;
    int bi = row ? k : blockIdx.x, bj = row ? blockIdx.x : k;
    int *p = d + (long long)k * BT * pitch + k * BT;
    int *o = d + (long long)bi * BT * pitch + (long long)bj * BT;
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++) {
            piv[ty + y * BH][tx + x * BH] = p[(long long)(ty + y * BH) * pitch + tx + x * BH];
            own[ty + y * BH][tx + x * BH] = o[(long long)(ty + y * BH) * pitch + tx + x * BH];
        }
    __syncthreads();
    for (int kk = 0; kk < BT; kk++) {
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++) {
                int i = ty + y * BH, j = tx + x * BH;
                int v = row ? piv[i][kk] + own[kk][j] : own[i][kk] + piv[kk][j];
                if (v < own[i][j]) own[i][j] = v;
            }
        __syncthreads();
    }
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++)
            o[(long long)(ty + y * BH) * pitch + tx + x * BH] = own[ty + y * BH][tx + x * BH];
}

extern "C" __global__ void __launch_bounds__(1024) gk_apsp_base_p3(int *d, long long pitch, int k)
{
    __shared__ int sa[BT][BT], sb[BT][BT];
    int bi = blockIdx.y, bj = blockIdx.x;
    if (bi == k || bj == k) return;
    int tx = threadIdx.x, ty = threadIdx.y;
    int *a = d + (long long)bi * BT * pitch + k * BT;
    int *b = d + (long long)k * BT * pitch + (long long)bj * BT;
    int *c = d + (long long)bi * BT * pitch + (long long)bj * BT;
    int r[2][2];
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++) {
            sa[ty + y * BH][tx + x * BH] = a[(long long)(ty + y * BH) * pitch + tx + x * BH];
            sb[ty + y * BH][tx + x * BH] = b[(long long)(ty + y * BH) * pitch + tx + x * BH];
            r[y][x] = c[(long long)(ty + y * BH) * pitch + tx + x * BH];
        }
    __syncthreads();
#pragma unroll 16
    for (int kk = 0; kk < BT; kk++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++)
                r[y][x] = vmin(r[y][x], sa[ty + y * BH][kk] + sb[kk][tx + x * BH]);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++)
            c[(long long)(ty + y * BH) * pitch + tx + x * BH] = r[y][x];
}

// ---------------------------------------------------------------- ceiling
// CEIL_CHAINS independent min(a + b, c) per thread per step (each reads the
// last step's values of two chains, so no step can be folded away).
#define CEIL_CHAINS 16
extern "C" __global__ void __launch_bounds__(256) gk_apsp_ceiling(int *out, int iters, int seed)
{
    int acc[CEIL_CHAINS];
    int b = (threadIdx.x & 7) + seed;
#pragma unroll
    for (int c = 0; c < CEIL_CHAINS; c++)
        acc[c] = INF - c - threadIdx.x;
#pragma unroll 1
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int c = 0; c < CEIL_CHAINS; c++)
            acc[c] = __viaddmin_s32(acc[c], b, acc[(c + 1) % CEIL_CHAINS]);
    int s = 0;
#pragma unroll
    for (int c = 0; c < CEIL_CHAINS; c++)
        s ^= acc[c];
    if (s == 0x7fffffff)
        out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// ---------------------------------------------------------------- 16 bits
// The exact 16-bit path (why it is exact: src/cpu/apsp_cpu.h).  The matrix
// is uint16, row pitch Np16 (a multiple of H_TILE), every entry clamped to
// H_CAP = 32767 and the padding at H_CAP, so a + b <= 65534 never wraps a
// lane.  The same three phases as above; phases 2 and 3 keep two columns per
// 32-bit register and do two updates per __viaddmin_u16x2 (one VIADDMNMX
// .U16x2 on sm_90): A^T is stored in shared memory with each value in both
// halves of a word, B as it is (pairs of columns), so a thread's inner loop
// is APSP16_TM x H_TW packed updates on shared-memory words.
// Its parameters (src/core/space_apsp.c; the tile is fixed at 128, mirrored
// as GK_APSP16_TILE in src/gpu/apsp_gpu.h):
//   APSP16_TM    output rows per thread
//   APSP16_TW    output words (2 columns each) per thread
//   APSP16_BK    k chunk per shared-memory stage
#ifndef APSP16_TM
#error "APSP16_TM must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSP16_TW
#error "APSP16_TW must be defined (gk passes every parameter of the kernel's space)"
#endif
#ifndef APSP16_BK
#error "APSP16_BK must be defined (gk passes every parameter of the kernel's space)"
#endif
#define H_CAP 32767
#define H_TILE 128                    // tile edge (elements)
#define H_TM APSP16_TM
#define H_TW APSP16_TW
#define H_BK APSP16_BK
#define H_WORDS (H_TILE / 2)          // words per tile row
#define H_TX (H_WORDS / H_TW)         // 16 threads along a row
#define H_TY (H_TILE / H_TM)          // 16 along a column
#define H_NT (H_TX * H_TY)            // 256 threads
#define H_RG (H_TM / 4)
#define H_CG (H_TW / 4)
#define H_RSLAB (H_TILE / H_RG)
#define H_CSLAB (H_WORDS / H_CG)
#define H_LDA (H_TILE + 4)            // words: A^T chunk row (duplicated values)
#define H_LDB (H_WORDS)               // words: B chunk row
#define H_STAGE (H_BK * (H_LDA + H_LDB))
#if H_TM % 4 || H_TW % 4 || H_TILE % H_TM || H_WORDS % H_TW || (H_TILE * H_BK / 8) % H_NT || H_BK % 8 \
    || H_TILE % H_BK
#error "inconsistent 16-bit parameters"
#endif
#define H_MINB (H_NT >= 512 ? 1 : 2)

// Phase 1 in 16 bits: pivot_tile, values widened to int in registers.
extern "C" __global__ void __launch_bounds__(1024) gk_apsp16_pivot(unsigned short *d, long long pitch, int k)
{
    pivot_tile<unsigned short, H_TILE, 32>(d, pitch, k);
}

// Phases 2 to 5 in 16 bits: the grids and roles of gk_apsp_minplus (tile_of).
extern "C" __global__ void __launch_bounds__(H_NT, H_MINB)
gk_apsp16_minplus(unsigned short *d, long long pitch, int k, int phase, int kend)
{
    extern __shared__ __align__(16) unsigned int hsm[];
    int bi, bj;
    if (!tile_of(phase, k, &bi, &bj)) return;
    const int tid = threadIdx.x;
    const int tx = tid % H_TX, ty = tid / H_TX;
    unsigned short *cbase = d + (long long)bi * H_TILE * pitch + (long long)bj * H_TILE;
    const unsigned short *abase = d + (long long)bi * H_TILE * pitch + (long long)k * H_TILE;
    const unsigned short *bbase = d + (long long)k * H_TILE * pitch + (long long)bj * H_TILE;

    unsigned int acc[H_TM][H_TW];
#pragma unroll
    for (int g = 0; g < H_RG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < H_CG; h++) {
                uint4 v = *(const uint4 *)((const unsigned int *)(cbase + (long long)(g * H_RSLAB + ty * 4 + r) * pitch)
                                           + h * H_CSLAB + tx * 4);
                acc[g * 4 + r][h * 4 + 0] = v.x; acc[g * 4 + r][h * 4 + 1] = v.y;
                acc[g * 4 + r][h * 4 + 2] = v.z; acc[g * 4 + r][h * 4 + 3] = v.w;
            }

    // A: H_TILE rows x H_BK values = H_BK / 8 uint4 per row; B: H_BK rows x
    // H_TILE values = H_TILE / 8 uint4 per row.
    constexpr int AV = H_TILE * H_BK / 8 / H_NT;
    constexpr int BV = H_BK * H_TILE / 8 / H_NT;
    uint4 ra[AV], rb[BV];
#define HAs(s) (hsm + (s) * H_STAGE)
#define HBs(s) (hsm + (s) * H_STAGE + H_BK * H_LDA)
#define HLOAD(k0) do { \
        _Pragma("unroll") for (int q = 0; q < AV; q++) { \
            int e = tid + q * H_NT; \
            int ar = e / (H_BK / 8), ac = (e % (H_BK / 8)) * 8; \
            ra[q] = *(const uint4 *)(abase + (long long)ar * pitch + (k0) + ac); \
        } \
        _Pragma("unroll") for (int q = 0; q < BV; q++) { \
            int e = tid + q * H_NT; \
            int br = e / (H_TILE / 8), bc = (e % (H_TILE / 8)) * 8; \
            rb[q] = *(const uint4 *)(bbase + (long long)((k0) + br) * pitch + bc); \
        } } while (0)
#define HDUP(w, lo) ((lo) ? (((w) & 0xffffu) | ((w) << 16)) : (((w) >> 16) | ((w) & 0xffff0000u)))
#define HSTORE(buf) do { \
        _Pragma("unroll") for (int q = 0; q < AV; q++) { \
            int e = tid + q * H_NT; \
            int ar = e / (H_BK / 8), ac = (e % (H_BK / 8)) * 8; \
            unsigned int *at = HAs(buf) + ac * H_LDA + ar; \
            at[0 * H_LDA] = HDUP(ra[q].x, 1); at[1 * H_LDA] = HDUP(ra[q].x, 0); \
            at[2 * H_LDA] = HDUP(ra[q].y, 1); at[3 * H_LDA] = HDUP(ra[q].y, 0); \
            at[4 * H_LDA] = HDUP(ra[q].z, 1); at[5 * H_LDA] = HDUP(ra[q].z, 0); \
            at[6 * H_LDA] = HDUP(ra[q].w, 1); at[7 * H_LDA] = HDUP(ra[q].w, 0); \
        } \
        _Pragma("unroll") for (int q = 0; q < BV; q++) { \
            int e = tid + q * H_NT; \
            int br = e / (H_TILE / 8), bc = (e % (H_TILE / 8)) * 4; \
            *(uint4 *)(HBs(buf) + br * H_LDB + bc) = rb[q]; \
        } } while (0)

    HLOAD(0);
    HSTORE(0);
    __syncthreads();
    const int NCH = (kend + H_BK - 1) / H_BK;   // kend: as gk_apsp_minplus
#pragma unroll 1
    for (int ch = 0; ch < NCH; ch++) {
        const int cur = ch & 1;
        if (ch + 1 < NCH)
            HLOAD((ch + 1) * H_BK);
        const unsigned int *as = HAs(cur), *bs = HBs(cur);
#pragma unroll 8
        for (int kk = 0; kk < H_BK; kk++) {
            unsigned int a[H_TM], b[H_TW];
#pragma unroll
            for (int g = 0; g < H_RG; g++) {
                uint4 v = *(const uint4 *)(as + kk * H_LDA + g * H_RSLAB + ty * 4);
                a[g * 4 + 0] = v.x; a[g * 4 + 1] = v.y; a[g * 4 + 2] = v.z; a[g * 4 + 3] = v.w;
            }
#pragma unroll
            for (int h = 0; h < H_CG; h++) {
                uint4 v = *(const uint4 *)(bs + kk * H_LDB + h * H_CSLAB + tx * 4);
                b[h * 4 + 0] = v.x; b[h * 4 + 1] = v.y; b[h * 4 + 2] = v.z; b[h * 4 + 3] = v.w;
            }
#pragma unroll
            for (int r = 0; r < H_TM; r++)
#pragma unroll
                for (int c = 0; c < H_TW; c++)
                    acc[r][c] = __viaddmin_u16x2(a[r], b[c], acc[r][c]);
        }
        if (ch + 1 < NCH) {
            HSTORE(cur ^ 1);
            __syncthreads();
        }
    }
#undef HLOAD
#undef HSTORE
#undef HDUP
#undef HAs
#undef HBs
#pragma unroll
    for (int g = 0; g < H_RG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < H_CG; h++) {
                uint4 v;
                v.x = acc[g * 4 + r][h * 4 + 0]; v.y = acc[g * 4 + r][h * 4 + 1];
                v.z = acc[g * 4 + r][h * 4 + 2]; v.w = acc[g * 4 + r][h * 4 + 3];
                *(uint4 *)((unsigned int *)(cbase + (long long)(g * H_RSLAB + ty * 4 + r) * pitch) + h * H_CSLAB + tx * 4) = v;
            }
}

// Entries of the V x V part at the cap.
extern "C" __global__ void gk_apsp16_count(const unsigned short *h, long long pitch, int V, unsigned long long *count)
{
    const long long n = (long long)V * V;
    unsigned long long c = 0;
    for (long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x; x < n; x += (long long)gridDim.x * blockDim.x)
        c += h[(x / V) * pitch + x % V] == H_CAP;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        c += __shfl_down_sync(0xffffffffu, c, o);
    if ((threadIdx.x & 31) == 0 && c)
        atomicAdd(count, c);
}

// The packed 16-bit rate: chains of independent __viaddmin_u16x2 (two
// updates each), as gk_apsp_ceiling.
extern "C" __global__ void __launch_bounds__(256) gk_apsp16_ceiling(unsigned int *out, int iters, int seed)
{
    unsigned int acc[CEIL_CHAINS];
    unsigned int b = (unsigned int)((threadIdx.x & 7) + seed) * 0x10001u;
#pragma unroll
    for (int c = 0; c < CEIL_CHAINS; c++)
        acc[c] = (unsigned int)(H_CAP - c - (int)(threadIdx.x & 255)) * 0x10001u;
#pragma unroll 1
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int c = 0; c < CEIL_CHAINS; c++)
            acc[c] = __viaddmin_u16x2(acc[c], b, acc[(c + 1) % CEIL_CHAINS]);
    unsigned int s = 0;
#pragma unroll
    for (int c = 0; c < CEIL_CHAINS; c++)
        s ^= acc[c];
    if (s == 0x7fffffffu)
        out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// ---------------------------------------------------------------- row blocks
// Past one GPU (host side: src/gpu/apsp_multi.c).  A GPU or rank owns a block
// of whole tile rows of the padded matrix (pitch Np) and nothing else; the
// pivot-row panel of round k (APSP_TILE rows x Np, pitch Np) arrives in a
// separate buffer.  The owner of round k closes the pivot tile and its panel
// with gk_apsp_pivot and gk_apsp_minplus (phase 2, grid nt x 1) on its block,
// called with a base pointer moved so that its first tile row sits at its
// global index.  gk_apsp_rows updates local tile rows r0 + blockIdx.y (local
// indices), skipping skip1 and skip2 (-1: none):
//   phase 2 (grid 1 x rows):  C(i, k) = min(C, C(i, k) (min,+) panel(k))
//   phase 3 (grid nt x rows): C(i, j) = min(C, C(i, k) (min,+) panel(j)), j != k.
// The tile product is the same register-tiled scheme as gk_apsp_minplus.
static __device__ __forceinline__ void mp_tile(int *cbase, const int *abase, const int *bbase, long long pitch)
{
    extern __shared__ __align__(16) int mp_smem[];
    const int tid = threadIdx.x;
    const int tx = tid % TX, ty = tid / TX;
    int acc[APSP_TM][APSP_TN];
#pragma unroll
    for (int g = 0; g < RG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < CG; h++) {
                int4 v = *(const int4 *)(cbase + (long long)(g * RSLAB + ty * 4 + r) * pitch + h * CSLAB + tx * 4);
                acc[g * 4 + r][h * 4 + 0] = v.x; acc[g * 4 + r][h * 4 + 1] = v.y;
                acc[g * 4 + r][h * 4 + 2] = v.z; acc[g * 4 + r][h * 4 + 3] = v.w;
            }
    constexpr int AV = RBK * APSP_TILE / 4 / NTHREADS;
    int4 ra[AV], rb[AV];
    constexpr int STAGE = RBK * (LDA + LDB);
#define As(s) (mp_smem + (s) * STAGE)
#define Bs(s) (mp_smem + (s) * STAGE + RBK * LDA)
#define LOAD_CHUNK(k0) do { \
        _Pragma("unroll") for (int q = 0; q < AV; q++) { \
            int e = tid + q * NTHREADS; \
            int ar = e / (RBK / 4), ac = (e % (RBK / 4)) * 4; \
            ra[q] = *(const int4 *)(abase + (long long)ar * pitch + (k0) + ac); \
            int br = e / (APSP_TILE / 4), bc = (e % (APSP_TILE / 4)) * 4; \
            rb[q] = *(const int4 *)(bbase + (long long)((k0) + br) * pitch + bc); \
        } } while (0)
#define STORE_CHUNK(buf) do { \
        _Pragma("unroll") for (int q = 0; q < AV; q++) { \
            int e = tid + q * NTHREADS; \
            int ar = e / (RBK / 4), ac = (e % (RBK / 4)) * 4; \
            As(buf)[(ac + 0) * LDA + ar] = ra[q].x; As(buf)[(ac + 1) * LDA + ar] = ra[q].y; \
            As(buf)[(ac + 2) * LDA + ar] = ra[q].z; As(buf)[(ac + 3) * LDA + ar] = ra[q].w; \
            int br = e / (APSP_TILE / 4), bc = (e % (APSP_TILE / 4)) * 4; \
            *(int4 *)(Bs(buf) + br * LDB + bc) = rb[q]; \
        } } while (0)
    LOAD_CHUNK(0);
    STORE_CHUNK(0);
    __syncthreads();
    constexpr int NCHUNK = APSP_TILE / RBK;
#pragma unroll 1
    for (int ch = 0; ch < NCHUNK; ch++) {
        const int cur = ch & 1;
        if (ch + 1 < NCHUNK)
            LOAD_CHUNK((ch + 1) * RBK);
        const int *as = As(cur), *bs = Bs(cur);
        GK_UNROLL(APSP_UNROLL)
        for (int kk = 0; kk < RBK; kk++)
            mp_k(acc, as + kk * LDA, bs + kk * LDB, tx, ty);
        if (ch + 1 < NCHUNK) {
            STORE_CHUNK(cur ^ 1);
            __syncthreads();
        }
    }
#undef LOAD_CHUNK
#undef As
#undef Bs
#undef STORE_CHUNK
#pragma unroll
    for (int g = 0; g < RG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < CG; h++) {
                int4 v;
                v.x = acc[g * 4 + r][h * 4 + 0]; v.y = acc[g * 4 + r][h * 4 + 1];
                v.z = acc[g * 4 + r][h * 4 + 2]; v.w = acc[g * 4 + r][h * 4 + 3];
                *(int4 *)(cbase + (long long)(g * RSLAB + ty * 4 + r) * pitch + h * CSLAB + tx * 4) = v;
            }
}

extern "C" __global__ void __launch_bounds__(NTHREADS, APSP_MINB)
gk_apsp_rows(int *d, long long pitch, const int *panel, int k, int r0, int skip1, int skip2, int phase)
{
    const int li = r0 + (int)blockIdx.y;
    if (li == skip1 || li == skip2) return;
    int *row = d + (long long)li * APSP_TILE * pitch;
    if (phase == 2) {
        int *c = row + (long long)k * APSP_TILE;
        mp_tile(c, c, panel + (long long)k * APSP_TILE, pitch);
    } else {
        const int bj = blockIdx.x;
        if (bj == k) return;
        mp_tile(row + (long long)bj * APSP_TILE, row + (long long)k * APSP_TILE,
                panel + (long long)bj * APSP_TILE, pitch);
    }
}

// A row block's initial matrix: INF everywhere but 0 on the diagonal of the
// vertices (global row row0 + r, r < nrows; padding rows and columns INF).
extern "C" __global__ void gk_apsp_init_rows(int *d, long long pitch, long long nrows, long long row0, int V)
{
    for (long long r = blockIdx.x; r < nrows; r += gridDim.x) {
        const long long g = row0 + r;
        for (long long c = threadIdx.x; c < pitch; c += blockDim.x)
            d[r * pitch + c] = (c == g && g < V) ? 0 : INF;
    }
}

// Edges (src, dst, w) of the block's rows: the smallest weight of each pair
// wins, self-loops are ignored.
extern "C" __global__ void gk_apsp_scatter(int *d, long long pitch, const int *e, long long m, long long row0)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (long long)gridDim.x * blockDim.x) {
        const int s = e[3 * i], t = e[3 * i + 1], w = e[3 * i + 2];
        if (s != t)
            atomicMin(d + (s - row0) * pitch + t, w);
    }
}

// The benchmark's random matrix, rows row0 .. row0 + nrows - 1 of it, the
// same values as gk_apsp_random_matrix (src/core/rng.h's counter-based
// stream): an edge where the low word of rand64(seed, i * V + j) is below
// cut, weight from its high word.
static __device__ __forceinline__ unsigned long long mix64(unsigned long long z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
extern "C" __global__ void gk_apsp_random_rows(int *d, long long pitch, long long nrows, long long row0, int V,
                                               unsigned long long seed, unsigned long long cut, int maxw)
{
    const unsigned long long ms = mix64(seed);
    for (long long r = blockIdx.x; r < nrows; r += gridDim.x) {
        const long long i = row0 + r;
        for (long long j = threadIdx.x; j < pitch; j += blockDim.x) {
            int v = INF;
            if (i < V && j < V) {
                unsigned long long u = mix64(ms ^ mix64((unsigned long long)(i * V + j) * 0x2545f4914f6cdd1dull + 1));
                int w = (int)(((u >> 32) * ((unsigned long long)maxw + 1)) >> 32);
                v = i == j ? 0 : (u & 0xffffffffull) < cut ? w : INF;
            }
            d[r * pitch + j] = v;
        }
    }
}

// ---------------------------------------------------------------- the
// initial matrix built on the device from the edge list (gk_apsp_solve_graph_write:
// no V x V matrix on the host).  The same matrix as the host readers make:
// INF everywhere (the cap in 16 bits: h(x) = min(x, cap) of it), 0 on the
// diagonal of the V vertices, the smallest weight of each (src, dst) pair,
// self-loops ignored; padding rows and columns stay INF (the cap).
extern "C" __global__ void gk_apsp_build_init(void *d, int bits, long long np, int V)
{
    for (long long r = blockIdx.x; r < np; r += gridDim.x) {
        if (bits == 16) {
            unsigned short *row = (unsigned short *)d + r * np;
            for (long long c = threadIdx.x; c < np; c += blockDim.x)
                row[c] = (c == r && r < V) ? 0 : H_CAP;
        } else {
            int *row = (int *)d + r * np;
            for (long long c = threadIdx.x; c < np; c += blockDim.x)
                row[c] = (c == r && r < V) ? 0 : INF;
        }
    }
}

// min(*cell, v) on one 16-bit entry (a compare-and-swap on its 32-bit word).
static __device__ __forceinline__ void atomic_min_u16(unsigned short *cell, unsigned int v)
{
    unsigned int *word = (unsigned int *)((unsigned long long)cell & ~3ull);
    const unsigned int shift = ((unsigned long long)cell & 2ull) ? 16u : 0u;
    unsigned int old = *word;
    while (v < ((old >> shift) & 0xffffu)) {
        const unsigned int next = (old & ~(0xffffu << shift)) | (v << shift);
        const unsigned int seen = atomicCAS(word, old, next);
        if (seen == old) break;
        old = seen;
    }
}

// m validated edges (src, dst, w): each pair keeps its smallest weight
// (clamped to the cap in 16 bits: min commutes with h), self-loops ignored;
// undirected: both ways.
extern "C" __global__ void gk_apsp_build_scatter(void *d, int bits, long long pitch, const int *e, long long m,
                                                 int undirected)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += (long long)gridDim.x * blockDim.x) {
        const int s = e[3 * i], t = e[3 * i + 1], w = e[3 * i + 2];
        if (s == t) continue;
        if (bits == 16) {
            const unsigned int v = w < H_CAP ? (unsigned int)w : H_CAP;
            atomic_min_u16((unsigned short *)d + (long long)s * pitch + t, v);
            if (undirected) atomic_min_u16((unsigned short *)d + (long long)t * pitch + s, v);
        } else {
            atomicMin((int *)d + (long long)s * pitch + t, w);
            if (undirected) atomicMin((int *)d + (long long)t * pitch + s, w);
        }
    }
}

// Rows r0 .. r0 + m - 1 of the 16-bit result widened to int32 (the cap as
// INF: only for a result with no entry at the cap left unsettled), packed
// V per row, for the download.
extern "C" __global__ void gk_apsp16_widen(int *out, const unsigned short *h, long long pitch, long long r0,
                                           long long m, int V)
{
    for (long long r = blockIdx.x; r < m; r += gridDim.x) {
        const unsigned short *x = h + (r0 + r) * pitch;
        int *o = out + r * (long long)V;
        for (long long c = threadIdx.x; c < V; c += blockDim.x)
            o[c] = x[c] == H_CAP ? INF : (int)x[c];
    }
}

// ---------------------------------------------------------------- typed
// The element types of issue 24 (/work/shared/DESIGN.md, "APSP weight
// types"): int32 with negative weights or predecessors, int64, float32 and
// float64, each with or without predecessors.  ONE template for all of them
// (xpivot, xmp below), over an "ops" policy per element type:
//   upd(a, b, c)  min(a + b, c), the incumbent kept on ties (its bits: no
//                 -0.0 ever arises, so fminf's choice between equals is moot)
//   add(a, b)     the addition alone (IEEE, _rn: never contracted)
//   clamp(v)      phase 1 of the integer types: max(v, -INF), so a negative
//                 cycle cannot overflow before the round's check
// The tile is fixed at X_T = 64 (GK_APSP_ORDER_TILE): with the same tile
// every backend evaluates the same fixed candidate sets, so float results
// and predecessors are bit-identical to the CPU's.  Phases as above: xpivot
// closes the pivot tile (phase 1) k-sequentially, one barrier-separated
// step per kk (each step reads row and column kk as they were before it);
// xmp does phases 2 to 5 (tile_of) as one min-plus product per output tile:
// A (transposed), B and B's predecessors held whole in shared memory, read
// before any write (phase 2's row and column tiles read themselves: X0 and
// Y0 of the contract), each thread owning X_TM x xTN outputs in registers.
// Predecessors: a candidate STRICTLY below the output replaces it and takes
// pred of B's row kk, candidates in ascending kk.  The products run the fast
// upd over a chunk of xKC k's; an output that changed in the chunk then finds
// its winner again: the first kk of the chunk whose candidate equals the new
// value (the last strict improvement of an ascending scan is the first kk
// reaching the final minimum), so the common case costs one compare per
// output per chunk instead of a compare and two selects per update.
// Devices words flags[0] (1: some weight is negative, set by the scan or the
// host) and flags[1] (atomicMin of the vertices whose diagonal entry is
// negative after phase 1: the smallest vertex of the first round with one,
// as rounds go up in vertex order; INT_MAX: none).
#define X_T 64
#define X_INF64 4611686018427387903LL

struct xops_i32 {
    typedef int E;
    static constexpr bool packed = false;
    static __device__ __forceinline__ E upd(E a, E b, E c) { return __viaddmin_s32(a, b, c); }
    static __device__ __forceinline__ E add(E a, E b) { return (int)((unsigned)a + (unsigned)b); }
    static __device__ __forceinline__ E clamp(E v) { return v > -INF ? v : -INF; }
    static __device__ __forceinline__ E inf() { return INF; }
};
struct xops_i64 {
    static constexpr bool packed = false;
    typedef long long E;
    static __device__ __forceinline__ E add(E a, E b) { return (long long)((unsigned long long)a + (unsigned long long)b); }
    static __device__ __forceinline__ E upd(E a, E b, E c) { E s = add(a, b); return s < c ? s : c; }
    static __device__ __forceinline__ E clamp(E v) { return v > -X_INF64 ? v : -X_INF64; }
    static __device__ __forceinline__ E inf() { return X_INF64; }
};
struct xops_f32 {
    static constexpr bool packed = false;
    typedef float E;
    static __device__ __forceinline__ E add(E a, E b) { return __fadd_rn(a, b); }
    static __device__ __forceinline__ E upd(E a, E b, E c) { return fminf(__fadd_rn(a, b), c); }
    static __device__ __forceinline__ E clamp(E v) { return v; }
    static __device__ __forceinline__ E inf() { return __int_as_float(0x7f800000); }
};
struct xops_f64 {
    static constexpr bool packed = false;
    typedef double E;
    static __device__ __forceinline__ E add(E a, E b) { return __dadd_rn(a, b); }
    static __device__ __forceinline__ E upd(E a, E b, E c) { return fmin(__dadd_rn(a, b), c); }
    static __device__ __forceinline__ E clamp(E v) { return v; }
    static __device__ __forceinline__ E inf() { return __longlong_as_double(0x7ff0000000000000LL); }
};

// int32 with predecessors and non-negative weights: the "packed" product.
// Distances are capped at XP_CAP = 2^24 - 1 (h(x) = min(x, XP_CAP); the
// cap argument of the exact 16-bit path, src/cpu/apsp_cpu.h, holds for
// any cap) and held shifted left by 7 in unsigned words whose low 7 bits
// say who won: 0 the incumbent, kk + 1 the candidate of the tile's row kk.
// A^T holds h(a) << 7, B holds (h(b) << 7) | (kk + 1), so one
// __viaddmin_u32 (one VIADDMNMX, the int32 kernel's instruction) is the
// whole update: the smaller distance wins, on equal distances the
// incumbent (low bits 0) and then the smallest kk -- exactly the strict,
// ascending rule of the other types, whose last improvement is the first kk
// reaching the final minimum.  No compare, select or search per update: the
// winner is read off the low bits once per output per tile.  Sums stay
// below 2 * XP_CAP << 7 + 64 < 2^32.  Why entries below the cap are exact,
// predecessors included: every update, in any phase, either has both terms
// below the cap (then it is the unbounded update, same comparison, same
// source predecessor) or a candidate at or above the cap, which never
// replaces an incumbent below it; so an entry whose final distance is below
// the cap saw the same last strict improvement as unbounded arithmetic.
// Entries at the cap (stored as INF) are unreachable or farther than the
// cap: the host counts them (gk_apspx_atcap_i32) and, unless V times the
// largest weight is below the cap, reruns the general product.
#define XP_CAP 16777215u
struct xops_i32pk {
    typedef int E;
    static constexpr bool packed = true;
    static __device__ __forceinline__ E upd(E a, E b, E c)
    {
        return (int)__viaddmin_u32((unsigned)a, (unsigned)b, (unsigned)c);
    }
    static __device__ __forceinline__ E add(E a, E b) { return (int)((unsigned)a + (unsigned)b); }
    static __device__ __forceinline__ E clamp(E v) { return v; }
    static __device__ __forceinline__ E inf() { return INF; }
    // global value -> A^T / incumbent word; -> B word of row kk
    static __device__ __forceinline__ E in(E v) { return (int)(min((unsigned)v, XP_CAP) << 7); }
    static __device__ __forceinline__ E in_b(E v, int kk) { return in(v) | (kk + 1); }
    static __device__ __forceinline__ E out(E w)
    {
        const unsigned d = (unsigned)w >> 7;
        return d >= XP_CAP ? INF : (int)d;
    }
};

// The shape of xmp: TM x TN outputs per thread (the thread count and
// shared memory are mirrored by xmp_shape in src/gpu/apsp_gpu.c).  The
// shapes are parameters of the space (src/core/space_apsp.c, its rules
// there): APSPX_F32_* for 4-byte distances alone (float32, int32 with
// negative weights), APSPX_F64_* for float64 distances, APSPX_P_* for every
// type with predecessors; int64 distances alone keep 8 x 4
// (GK_APSPX_I64_TM/TN of src/core/space.h: a configuration has no room
// left for them).  Any shape gives the same bits: the tile (X_T) decides
// the candidate sets.  B's rows are padded like A^T's (the predecessor
// search reads a column of each).
template <typename E, bool PRED, int TM, int TN> struct xshape {
    static constexpr int xTM = TM;
    static constexpr int xTN = TN;
    static constexpr int xTX = X_T / xTN, xTY = X_T / xTM, xNT = xTX * xTY;
    static constexpr int xRG = xTM / 4, xCG = xTN / 4, xRSLAB = X_T / xRG, xCSLAB = X_T / xCG;
    static constexpr int xVE = 16 / (int)sizeof(E);        // elements per 16 bytes
    static constexpr int xLDA = X_T + xVE;                  // A^T and B row pitch (fewer conflicts)
    static constexpr int xKC = PRED ? 32 : 8;              // k chunk (PRED: one k per lane in the search)
    static_assert(TM % 4 == 0 && TN % 4 == 0 && X_T % TM == 0 && X_T % TN == 0, "APSPX shape: multiples of 4 dividing 64");
    static_assert(xNT % 32 == 0 && xNT >= 32 && xNT <= 1024, "APSPX shape: whole warps, at most 1024 threads");
};
template <typename E, bool P> struct xshape_of {          // with predecessors
    static constexpr int tm = APSPX_P_TM, tn = APSPX_P_TN;
};
template <> struct xshape_of<int, false> {
    static constexpr int tm = APSPX_F32_TM, tn = APSPX_F32_TN;
};
template <> struct xshape_of<float, false> {
    static constexpr int tm = APSPX_F32_TM, tn = APSPX_F32_TN;
};
template <> struct xshape_of<long long, false> {
    static constexpr int tm = 8, tn = 4;
};
template <> struct xshape_of<double, false> {
    static constexpr int tm = APSPX_F64_TM, tn = APSPX_F64_TN;
};

// Four consecutive elements (16-byte aligned) in and out of registers.
template <typename E> static __device__ __forceinline__ void x_ld4(E *o, const E *p)
{
    union { uint4 u[sizeof(E) / 4]; E e[4]; } x;
#pragma unroll
    for (int i = 0; i < (int)(sizeof(E) / 4); i++) x.u[i] = ((const uint4 *)p)[i];
#pragma unroll
    for (int i = 0; i < 4; i++) o[i] = x.e[i];
}
template <typename E> static __device__ __forceinline__ void x_st4(E *p, const E *o)
{
    union { uint4 u[sizeof(E) / 4]; E e[4]; } x;
#pragma unroll
    for (int i = 0; i < 4; i++) x.e[i] = o[i];
#pragma unroll
    for (int i = 0; i < (int)(sizeof(E) / 4); i++) ((uint4 *)p)[i] = x.u[i];
}

// Phase 1: 1024 threads, 2 x 2 cells each, the tile (and its predecessors)
// in shared memory; then the round's negative-cycle check.
template <class O, bool PRED>
static __device__ __forceinline__ void xpivot(typename O::E *d, long long pitch, int k, int *pred, long long ppitch,
                                              int V, int *flags)
{
    typedef typename O::E E;
    extern __shared__ __align__(16) unsigned char xsm[];
    E *s = (E *)xsm;
    int *ps = (int *)(s + X_T * X_T);
    const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
    E *base = d + (long long)k * X_T * pitch + (long long)k * X_T;
    int *pbase = PRED ? pred + (long long)k * X_T * ppitch + (long long)k * X_T : NULL;
#pragma unroll
    for (int a = 0; a < 2; a++)
#pragma unroll
        for (int b = 0; b < 2; b++) {
            const int i = ty + 32 * a, j = tx + 32 * b;
            s[i * X_T + j] = base[(long long)i * pitch + j];
            if (PRED) ps[i * X_T + j] = pbase[(long long)i * ppitch + j];
        }
    __syncthreads();
#pragma unroll 1
    for (int kk = 0; kk < X_T; kk++) {
        E av[2], bv[2];
        int pv[2];
#pragma unroll
        for (int a = 0; a < 2; a++) av[a] = s[(ty + 32 * a) * X_T + kk];
#pragma unroll
        for (int b = 0; b < 2; b++) {
            bv[b] = s[kk * X_T + tx + 32 * b];
            if (PRED) pv[b] = ps[kk * X_T + tx + 32 * b];
        }
        __syncthreads();
#pragma unroll
        for (int a = 0; a < 2; a++)
#pragma unroll
            for (int b = 0; b < 2; b++) {
                const int i = ty + 32 * a, j = tx + 32 * b;
                const E v = O::clamp(O::add(av[a], bv[b]));
                if (v < s[i * X_T + j]) {
                    s[i * X_T + j] = v;
                    if (PRED) ps[i * X_T + j] = pv[b];
                }
            }
        __syncthreads();
    }
#pragma unroll
    for (int a = 0; a < 2; a++)
#pragma unroll
        for (int b = 0; b < 2; b++) {
            const int i = ty + 32 * a, j = tx + 32 * b;
            base[(long long)i * pitch + j] = s[i * X_T + j];
            if (PRED) pbase[(long long)i * ppitch + j] = ps[i * X_T + j];
            if (i == j && (long long)k * X_T + i < V && s[i * X_T + j] < (E)0)
                atomicMin(flags + 1, k * X_T + i);
        }
}

// Phases 2 to 5 (tile_of); kend as gk_apsp_minplus.
template <class O, bool PRED, int TM, int TN>
static __device__ __forceinline__ void xmp(typename O::E *d, long long pitch, int k, int phase, int kend, int *pred,
                                           long long ppitch)
{
    typedef typename O::E E;
    constexpr bool PK = O::packed;             // the packed product (PRED, int32)
    constexpr bool SEARCH = PRED && !PK;       // winners found again per chunk
    static_assert(!PK || PRED, "the packed product carries predecessors");
    typedef xshape<E, SEARCH, TM, TN> S;
    constexpr int xTM = S::xTM, xTN = S::xTN, xVE = S::xVE, xLDA = S::xLDA, xKC = S::xKC;
    extern __shared__ __align__(16) unsigned char xsm[];
    E *As = (E *)xsm;
    E *Bs = As + X_T * xLDA;
    int *Ps = (int *)(Bs + X_T * xLDA);
    int bi, bj;
    if (!tile_of(phase, k, &bi, &bj)) return;
    const int tid = threadIdx.x, tx = tid % S::xTX, ty = tid / S::xTX;
    E *cbase = d + (long long)bi * X_T * pitch + (long long)bj * X_T;
    const E *abase = d + (long long)bi * X_T * pitch + (long long)k * X_T;
    const E *bbase = d + (long long)k * X_T * pitch + (long long)bj * X_T;
    for (int e = tid; e < X_T * X_T / xVE; e += S::xNT) {
        const int r = e / (X_T / xVE), c = (e % (X_T / xVE)) * xVE;
        union { uint4 u; E v[xVE]; } x;
        x.u = *(const uint4 *)(abase + (long long)r * pitch + c);
        if constexpr (PK) {
#pragma unroll
            for (int v = 0; v < xVE; v++) As[(c + v) * xLDA + r] = O::in(x.v[v]);
            x.u = *(const uint4 *)(bbase + (long long)r * pitch + c);
#pragma unroll
            for (int v = 0; v < xVE; v++) x.v[v] = O::in_b(x.v[v], r);
            *(uint4 *)(Bs + r * xLDA + c) = x.u;
        } else {
#pragma unroll
            for (int v = 0; v < xVE; v++) As[(c + v) * xLDA + r] = x.v[v];
            *(uint4 *)(Bs + r * xLDA + c) = *(const uint4 *)(bbase + (long long)r * pitch + c);
        }
    }
    if (PRED) {
        const int *pb = pred + (long long)k * X_T * ppitch + (long long)bj * X_T;
        for (int e = tid; e < X_T * X_T / 4; e += S::xNT) {
            const int r = e / (X_T / 4), c = (e % (X_T / 4)) * 4;
            *(int4 *)(Ps + r * X_T + c) = *(const int4 *)(pb + (long long)r * ppitch + c);
        }
    }
    E acc[xTM][xTN];
    int pacc[SEARCH ? xTM : 1][SEARCH ? xTN : 1];
    int *pc = PRED ? pred + (long long)bi * X_T * ppitch + (long long)bj * X_T : NULL;
#pragma unroll
    for (int g = 0; g < S::xRG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < S::xCG; h++) {
                const int i = g * S::xRSLAB + ty * 4 + r, j = h * S::xCSLAB + tx * 4;
                x_ld4(&acc[g * 4 + r][h * 4], cbase + (long long)i * pitch + j);
                if constexpr (PK) {
#pragma unroll
                    for (int q = 0; q < 4; q++) acc[g * 4 + r][h * 4 + q] = O::in(acc[g * 4 + r][h * 4 + q]);
                }
                if (SEARCH) x_ld4(&pacc[g * 4 + r][h * 4], pc + (long long)i * ppitch + j);
            }
    __syncthreads();
    const int nch = (kend + xKC - 1) / xKC;
#pragma unroll 1
    for (int ch = 0; ch < nch; ch++) {
        E old[SEARCH ? xTM : 1][SEARCH ? xTN : 1];
        if (SEARCH) {
#pragma unroll
            for (int r = 0; r < xTM; r++)
#pragma unroll
                for (int c = 0; c < xTN; c++) old[r][c] = acc[r][c];
        }
#pragma unroll
        for (int q = 0; q < xKC; q++) {
            const int kk = ch * xKC + q;
            E a[xTM], b[xTN];
#pragma unroll
            for (int g = 0; g < S::xRG; g++) x_ld4(a + g * 4, As + kk * xLDA + g * S::xRSLAB + ty * 4);
#pragma unroll
            for (int h = 0; h < S::xCG; h++) x_ld4(b + h * 4, Bs + kk * xLDA + h * S::xCSLAB + tx * 4);
#pragma unroll
            for (int r = 0; r < xTM; r++)
#pragma unroll
                for (int c = 0; c < xTN; c++) acc[r][c] = O::upd(a[r], b[c], acc[r][c]);
        }
        if (SEARCH) {
            // the outputs that changed in this chunk, found by the whole
            // warp: one per pass, one candidate kk per lane (xKC = 32), the
            // first lane whose candidate equals the new value wins
            bool any = false;
#pragma unroll
            for (int r = 0; r < xTM; r++)
#pragma unroll
                for (int c = 0; c < xTN; c++) any |= acc[r][c] != old[r][c];
            if (__any_sync(0xffffffffu, any)) {
                const int lane = tid & 31, kk = ch * xKC + lane;
#pragma unroll
                for (int r = 0; r < xTM; r++)
#pragma unroll
                    for (int c = 0; c < xTN; c++) {
                        unsigned m = __ballot_sync(0xffffffffu, acc[r][c] != old[r][c]);
                        while (m) {
                            const int L = __ffs(m) - 1;
                            m &= m - 1;
                            const E nv = __shfl_sync(0xffffffffu, acc[r][c], L);
                            const int lt = (tid & ~31) + L, ltx = lt % S::xTX, lty = lt / S::xTX;
                            const int i = (r / 4) * S::xRSLAB + lty * 4 + r % 4;
                            const int j = (c / 4) * S::xCSLAB + ltx * 4 + c % 4;
                            const unsigned eq = __ballot_sync(0xffffffffu, O::add(As[kk * xLDA + i], Bs[kk * xLDA + j]) == nv);
                            const int win = ch * xKC + __ffs(eq) - 1;
                            if (lane == L) pacc[r][c] = Ps[win * X_T + j];
                        }
                    }
            }
        }
    }
#pragma unroll
    for (int g = 0; g < S::xRG; g++)
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int h = 0; h < S::xCG; h++) {
                const int i = g * S::xRSLAB + ty * 4 + r, j = h * S::xCSLAB + tx * 4;
                if constexpr (PK) {
                    // the winners' predecessors (only where a candidate won:
                    // the others keep theirs in memory), then the distances
#pragma unroll
                    for (int q = 0; q < 4; q++) {
                        const int w = acc[g * 4 + r][h * 4 + q] & 127;
                        if (w) pc[(long long)i * ppitch + j + q] = Ps[(w - 1) * X_T + j + q];
                        acc[g * 4 + r][h * 4 + q] = O::out(acc[g * 4 + r][h * 4 + q]);
                    }
                }
                x_st4(cbase + (long long)i * pitch + j, &acc[g * 4 + r][h * 4]);
                if (SEARCH) x_st4(pc + (long long)i * ppitch + j, &pacc[g * 4 + r][h * 4]);
            }
}

// Chains of the type's upd, as gk_apsp_ceiling.
template <class O> static __device__ __forceinline__ void xceil(int *out, int iters, int seed)
{
    typedef typename O::E E;
    E acc[CEIL_CHAINS];
    const E b = (E)((int)(threadIdx.x & 7) + seed);
#pragma unroll
    for (int c = 0; c < CEIL_CHAINS; c++)
        acc[c] = (E)(1000000 - c - (int)threadIdx.x);
#pragma unroll 1
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int c = 0; c < CEIL_CHAINS; c++)
            acc[c] = O::upd(acc[c], b, acc[(c + 1) % CEIL_CHAINS]);
    E s = 0;
#pragma unroll
    for (int c = 0; c < CEIL_CHAINS; c++)
        s += acc[c];
    if (s == (E)-1)
        out[blockIdx.x * blockDim.x + threadIdx.x] = (int)s;
}

// The padded matrix's n entries at INF.
template <class O> static __device__ __forceinline__ void xfill(typename O::E *d, long long n)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        d[i] = O::inf();
}

// Predecessors of the np x np padded matrix (section 1 of the contract):
// i where i != j and d[i][j] is not INF (vertices only), else -1.
template <class O>
static __device__ __forceinline__ void xpinit(const typename O::E *d, long long pitch, int *pred, long long ppitch,
                                              int V, long long np)
{
    for (long long r = blockIdx.x; r < np; r += gridDim.x)
        for (long long c = threadIdx.x; c < np; c += blockDim.x)
            pred[r * ppitch + c] = (r < V && c < V && r != c && d[r * pitch + c] != O::inf()) ? (int)r : -1;
}

// flags[0] = 1 when an entry of the V x V matrix is negative.
template <class O>
static __device__ __forceinline__ void xscan(const typename O::E *d, long long pitch, int V, int *flags)
{
    const long long n = (long long)V * V;
    int neg = 0;
    for (long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x; x < n; x += (long long)gridDim.x * blockDim.x)
        neg |= d[(x / V) * pitch + x % V] < 0;
    if (__any_sync(0xffffffffu, neg) && (threadIdx.x & 31) == 0)
        flags[0] = 1;
}

// Integer types with negative weights (flags[0]): every entry > INF / 2
// becomes INF after the last round, and its predecessor (pred: same pitch;
// NULL: none) -1: the pair is unreachable.
template <class O>
static __device__ __forceinline__ void xclean(typename O::E *d, int *pred, long long n, const int *flags)
{
    typedef typename O::E E;
    if (!flags[0]) return;
    const E half = O::inf() >> 1;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        if (d[i] > half) {
            d[i] = O::inf();
            if (pred) pred[i] = -1;
        }
}

// The instances: gk_apspx_<what>_<type>[_p] (_p: with predecessors).  Every
// round kernel takes the same arguments (run_rounds of apsp_gpu.c passes
// one list to all): d, pitch, k, phase, kend, pred, ppitch, V, flags.
#define XROUNDS(S, O, P, SUF) \
    extern "C" __global__ void __launch_bounds__(1024) \
    gk_apspx_pivot_##S##SUF(O::E *d, long long pitch, int k, int phase, int kend, int *pred, long long ppitch, int V, \
                            int *flags) \
    { (void)phase; (void)kend; xpivot<O, P>(d, pitch, k, pred, ppitch, V, flags); } \
    XMP(S##SUF, O, P, (xshape_of<O::E, P>::tm), (xshape_of<O::E, P>::tn))
#define XMP(NAME, O, P, TM, TN) \
    extern "C" __global__ void __launch_bounds__(xshape<O::E, P, TM, TN>::xNT) \
    gk_apspx_mp_##NAME(O::E *d, long long pitch, int k, int phase, int kend, int *pred, long long ppitch, int V, \
                       int *flags) \
    { (void)V; (void)flags; xmp<O, P, TM, TN>(d, pitch, k, phase, kend, pred, ppitch); }
#define XTYPE(S, O) \
    XROUNDS(S, O, false, ) \
    XROUNDS(S, O, true, _p) \
    extern "C" __global__ void __launch_bounds__(256) gk_apspx_ceil_##S(int *out, int iters, int seed) \
    { xceil<O>(out, iters, seed); } \
    extern "C" __global__ void gk_apspx_fill_##S(O::E *d, long long n) { xfill<O>(d, n); } \
    extern "C" __global__ void gk_apspx_pinit_##S(const O::E *d, long long pitch, int *pred, long long ppitch, int V, \
                                                  long long np) \
    { xpinit<O>(d, pitch, pred, ppitch, V, np); } \
    extern "C" __global__ void gk_apspx_scan_##S(const O::E *d, long long pitch, int V, int *flags) \
    { xscan<O>(d, pitch, V, flags); }
XTYPE(i32, xops_i32)
XTYPE(i64, xops_i64)
XTYPE(f32, xops_f32)
XTYPE(f64, xops_f64)
// int32 with predecessors, non-negative weights: the packed product (the
// distances-alone shape: it holds no more registers), its pivot is
// gk_apspx_pivot_i32_p; and the count of entries at the cap.
XMP(i32_pk, xops_i32pk, true, APSPX_F32_TM, APSPX_F32_TN)
extern "C" __global__ void gk_apspx_atcap_i32(const int *d, long long pitch, int V, unsigned long long *count)
{
    const long long n = (long long)V * V;
    unsigned long long c = 0;
    for (long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x; x < n; x += (long long)gridDim.x * blockDim.x)
        c += (unsigned)d[(x / V) * pitch + x % V] >= XP_CAP;
    for (int o = 16; o; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);
    if ((threadIdx.x & 31) == 0 && c) atomicAdd(count, c);
}
// The smallest entry of the V x V matrix and its largest finite one
// (out[0], out[1]: both start at 0): may the packed product run?
extern "C" __global__ void gk_apspx_range_i32(const int *d, long long pitch, int V, int *out)
{
    const long long n = (long long)V * V;
    int lo = 0, hi = 0;
    for (long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x; x < n; x += (long long)gridDim.x * blockDim.x) {
        const int v = d[(x / V) * pitch + x % V];
        lo = min(lo, v);
        if (v != INF) hi = max(hi, v);
    }
    for (int o = 16; o; o >>= 1) {
        lo = min(lo, __shfl_down_sync(0xffffffffu, lo, o));
        hi = max(hi, __shfl_down_sync(0xffffffffu, hi, o));
    }
    if ((threadIdx.x & 31) == 0) {
        if (lo < 0) atomicMin(out, lo);
        if (hi > 0) atomicMax(out + 1, hi);
    }
}
extern "C" __global__ void gk_apspx_clean_i32(int *d, int *pred, long long n, const int *flags)
{
    xclean<xops_i32>(d, pred, n, flags);
}
extern "C" __global__ void gk_apspx_clean_i64(long long *d, int *pred, long long n, const int *flags)
{
    xclean<xops_i64>(d, pred, n, flags);
}

// ---- typed rounds on row blocks (several GPUs)
// src/gpu/apsp_multi.c: a GPU (or rank) holds whole tile rows of the padded
// matrix; in round k the owner of tile row k closes the pivot tile and its
// row with gk_apspx_pivot_* and gk_apspx_mp_* above (on its block shifted to
// its global rows), and every block updates its other rows from that panel,
// which is not in the block's own array: these kernels, one per type.  The
// same candidate sets as xmp (HACKING.md, "APSP element types"): phase 2 on
// the pivot column, Y = min(Y0, Y0 (min,+) P*), Y0 read whole before any
// write; phase 3, C = min(C, Y (min,+) X) over all 64 kk.  So the bits are
// those of one GPU and of the CPU, whatever the order inside.  No
// predecessors.  256 threads, 4 x 4 outputs each (rows ty + 16 i, columns
// tx + 16 j), A^T and B in shared memory (2 x 64 x (64 + 16 / size) E).
// Grid and arguments as gk_apsp_rows: blockIdx.y the local tile row r0 + y
// (skip1, skip2 skipped), blockIdx.x the column tile in phase 3.
#define XR_NT 256
template <class O>
static __device__ __forceinline__ void xrows(typename O::E *d, long long pitch, const typename O::E *panel, int k,
                                             int r0, int skip1, int skip2, int phase)
{
    typedef typename O::E E;
    constexpr int LD = X_T + 16 / (int)sizeof(E);
    const int li = r0 + (int)blockIdx.y;
    if (li == skip1 || li == skip2) return;
    const int bj = phase == 2 ? k : (int)blockIdx.x;
    if (phase != 2 && bj == k) return;
    extern __shared__ __align__(16) unsigned char xrsm[];
    E *As = (E *)xrsm;             // As[kk * LD + i] = A[i][kk]
    E *Bs = As + X_T * LD;         // Bs[kk * LD + j] = B[kk][j]
    E *row = d + (long long)li * X_T * pitch;
    E *c = row + (long long)bj * X_T;
    const E *a = row + (long long)k * X_T;
    const E *b = panel + (long long)bj * X_T;
    for (int e = threadIdx.x; e < X_T * X_T; e += XR_NT) {
        const int r = e / X_T, q = e % X_T;
        As[q * LD + r] = a[(long long)r * pitch + q];
        Bs[r * LD + q] = b[(long long)r * pitch + q];
    }
    __syncthreads();
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    E acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) acc[i][j] = c[(long long)(ty + 16 * i) * pitch + tx + 16 * j];
#pragma unroll 4
    for (int kk = 0; kk < X_T; kk++) {
        E av[4], bv[4];
#pragma unroll
        for (int i = 0; i < 4; i++) av[i] = As[kk * LD + ty + 16 * i];
#pragma unroll
        for (int j = 0; j < 4; j++) bv[j] = Bs[kk * LD + tx + 16 * j];
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int j = 0; j < 4; j++) acc[i][j] = O::upd(av[i], bv[j], acc[i][j]);
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) c[(long long)(ty + 16 * i) * pitch + tx + 16 * j] = acc[i][j];
}
#define XROWS(S, O) \
    extern "C" __global__ void __launch_bounds__(XR_NT) \
    gk_apspx_rows_##S(O::E *d, long long pitch, const O::E *panel, int k, int r0, int skip1, int skip2, int phase) \
    { xrows<O>(d, pitch, panel, k, r0, skip1, skip2, phase); }
XROWS(i32, xops_i32)
XROWS(i64, xops_i64)
XROWS(f32, xops_f32)
XROWS(f64, xops_f64)
