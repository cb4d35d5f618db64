/* stencil_device.cu - libgk in a CUDA program whose data stays on the GPU.
 *
 * The program owns two pitched device grids and two streams of its own.
 * gk runs on the first (gk_context_set_stream), a plan made once sweeps the
 * grid of batch b there, and the program's own kernels run
 *   - on gk's stream, after gk's work and without waiting for it on the
 *     host: a checksum of gk's result (stream order), and the copy of the
 *     result to the host;
 *   - on the second stream, at the same time as gk: the input of batch
 *     b + 1, written into the other grid (double buffering; events order the
 *     two streams, so that a grid is refilled only once gk and the copy are
 *     done with it).
 * Then every batch is verified on the host against a reference sweep
 * written here, with gk's documented tolerance, and so are the checksums;
 * the rows' padding must be untouched.  The program prints what ran when
 * (CUDA events), and whether the preparation overlapped gk's work.
 *
 *   make stencil_device && ./stencil_device      (examples/Makefile: nvcc, pkg-config gk)
 *
 * Exit status: 0 verified, 1 a failure, 77 no usable GPU (nothing to show). */
#include <gk.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

enum { NX = 72, NY = 40, NZ = 36, PY = NX + 8, PZ = PY * NY, STEPS = 4, BATCHES = 6 };
static const double PAD = 1e300;      /* the rows' padding: gk must neither read nor write it */

#define CUDA(call)                                                                              \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "stencil_device: %s: %s\n", #call, cudaGetErrorString(e_));         \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static void gk_fail(const char *what)
{
    fprintf(stderr, "stencil_device: %s: %s\n", what, gk_last_error());
    exit(1);
}

/* Batch b's input at (x, y, z): exact doubles in [-1, 1], the same on the
 * host and the device (integer arithmetic, one correctly rounded division). */
__host__ __device__ static double input_value(int b, int x, int y, int z)
{
    unsigned h = (unsigned)x * 73856093u ^ (unsigned)y * 19349663u ^ (unsigned)z * 83492791u ^ (unsigned)b * 2654435761u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return (double)(h % 20001u) / 10000.0 - 1.0;
}

/* The program's own kernel on its own stream: batch b's input into g,
 * padding included. */
__global__ void prepare(double *g, int b)
{
    long long n = (long long)PZ * NZ;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        int x = (int)(i % PY), y = (int)(i / PY % NY), z = (int)(i / PZ);
        g[i] = x < NX ? input_value(b, x, y, z) : PAD;
    }
}

/* The program's own kernel on gk's stream: it runs after gk's sweeps
 * (stream order) and reads their result. */
__global__ void checksum(const double *g, double *sum)
{
    double s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < NX * NY * NZ; i += gridDim.x * blockDim.x)
        s += g[(long long)(i / (NX * NY)) * PZ + (i / NX % NY) * PY + i % NX];
    atomicAdd(sum, s);
}

/* The reference: one sweep of gk's stencil, in gk's order of operations
 * (gk/stencil.h), zero halo. */
static void sweep(const double *in, double *out, const double *c)
{
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                double v[27];
                int i = 0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++, i++) {
                            int xx = x + dx, yy = y + dy, zz = z + dz;
                            int inside = xx >= 0 && xx < NX && yy >= 0 && yy < NY && zz >= 0 && zz < NZ;
                            v[i] = inside ? in[((size_t)zz * NY + yy) * NX + xx] : 0.0;
                        }
                double t = c[0] * v[0];
                for (i = 1; i < 27; i++)
                    t = std::fma(c[i], v[i], t);
                out[((size_t)z * NY + y) * NX + x] = t;
            }
}

static float ms_between(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    CUDA(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

int main(void)
{
    int ndev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        printf("stencil_device: SKIP: no usable GPU (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "no device");
        return 77;
    }
    gk_context_options copt;
    gk_context *ctx = NULL;
    gk_context_options_init(&copt);
    copt.backend = GK_BACKEND_GPU;               /* this program is about device memory */
    if (gk_context_options_from_env(&copt) != GK_OK)
        gk_fail("environment");
    gk_status st = gk_context_create(&ctx, &copt);
    if (st == GK_ENODEV) {
        printf("stencil_device: SKIP: gk has no usable GPU (%s)\n", gk_last_error());
        return 77;
    }
    if (st != GK_OK)
        gk_fail("gk_context_create");
    gk_device_info info;
    gk_device_info_init(&info);
    if (gk_context_gpu_info(ctx, 0, &info) != GK_OK)
        gk_fail("gk_context_gpu_info");
    CUDA(cudaSetDevice(info.ordinal));          /* the context's GPU: our memory and streams go there */
    printf("stencil_device: gk %s on GPU %d (%s), grid %dx%dx%d (rows padded to %d), %d batches of %d steps\n",
           gk_version(), info.ordinal, info.name, NX, NY, NZ, PY, BATCHES, STEPS);

    cudaStream_t s_gk, s_prep;
    CUDA(cudaStreamCreateWithFlags(&s_gk, cudaStreamNonBlocking));
    CUDA(cudaStreamCreateWithFlags(&s_prep, cudaStreamNonBlocking));
    if (gk_context_set_stream(ctx, s_gk) != GK_OK)
        gk_fail("gk_context_set_stream");

    const size_t grid_elems = (size_t)PZ * NZ, dense = (size_t)NX * NY * NZ;
    double *buf[2], *d_sums, *h_res, h_sums[BATCHES];
    CUDA(cudaMalloc((void **)&buf[0], grid_elems * sizeof(double)));
    CUDA(cudaMalloc((void **)&buf[1], grid_elems * sizeof(double)));
    CUDA(cudaMalloc((void **)&d_sums, BATCHES * sizeof(double)));
    CUDA(cudaMallocHost((void **)&h_res, BATCHES * dense * sizeof(double)));
    CUDA(cudaMemsetAsync(d_sums, 0, BATCHES * sizeof(double), s_gk));

    /* the plan: pitched grids in device memory, made once */
    gk_stencil_problem prob;
    gk_stencil_plan *plan = NULL;
    gk_stencil_problem_init(&prob, NX, NY, NZ);
    prob.pitch_y = PY;
    prob.pitch_z = PZ;
    prob.memory = GK_MEMORY_DEVICE;
    if (gk_stencil_plan_create(ctx, &prob, NULL, &plan) != GK_OK)
        gk_fail("gk_stencil_plan_create");

    cudaEvent_t t0, prepared[2], consumed[2], prep_start[BATCHES], prep_end[BATCHES], gk_start[BATCHES],
        gk_end[BATCHES];
    CUDA(cudaEventCreate(&t0));
    for (int j = 0; j < 2; j++) {
        CUDA(cudaEventCreateWithFlags(&prepared[j], cudaEventDisableTiming));
        CUDA(cudaEventCreateWithFlags(&consumed[j], cudaEventDisableTiming));
    }
    for (int b = 0; b < BATCHES; b++) {
        CUDA(cudaEventCreate(&prep_start[b]));
        CUDA(cudaEventCreate(&prep_end[b]));
        CUDA(cudaEventCreate(&gk_start[b]));
        CUDA(cudaEventCreate(&gk_end[b]));
    }

    /* batch 0's input, then the pipeline; the host never waits in the loop */
    CUDA(cudaEventRecord(t0, s_prep));
    CUDA(cudaEventRecord(prep_start[0], s_prep));
    prepare<<<64, 256, 0, s_prep>>>(buf[0], 0);
    CUDA(cudaGetLastError());
    CUDA(cudaEventRecord(prep_end[0], s_prep));
    CUDA(cudaEventRecord(prepared[0], s_prep));
    for (int b = 0; b < BATCHES; b++) {
        int j = b % 2, k = 1 - j;
        /* gk's stream: wait for the input, sweep, then our checksum and the copy out */
        CUDA(cudaStreamWaitEvent(s_gk, prepared[j], 0));
        CUDA(cudaEventRecord(gk_start[b], s_gk));
        if (gk_stencil_plan_execute(ctx, plan, buf[j], STEPS, NULL) != GK_OK)
            gk_fail("gk_stencil_plan_execute");
        CUDA(cudaEventRecord(gk_end[b], s_gk));
        checksum<<<32, 256, 0, s_gk>>>(buf[j], d_sums + b);
        CUDA(cudaGetLastError());
        CUDA(cudaMemcpy2DAsync(h_res + (size_t)b * dense, NX * sizeof(double), buf[j], PY * sizeof(double),
                               NX * sizeof(double), (size_t)NY * NZ, cudaMemcpyDeviceToHost, s_gk));
        CUDA(cudaEventRecord(consumed[j], s_gk));
        /* our stream, meanwhile: the next input into the other grid, once
         * gk's stream is done with it (the batch before this one) */
        if (b + 1 < BATCHES) {
            if (b >= 1)
                CUDA(cudaStreamWaitEvent(s_prep, consumed[k], 0));
            CUDA(cudaEventRecord(prep_start[b + 1], s_prep));
            prepare<<<64, 256, 0, s_prep>>>(buf[k], b + 1);
            CUDA(cudaGetLastError());
            CUDA(cudaEventRecord(prep_end[b + 1], s_prep));
            CUDA(cudaEventRecord(prepared[k], s_prep));
        }
    }
    CUDA(cudaMemcpyAsync(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost, s_gk));
    CUDA(cudaStreamSynchronize(s_gk));
    CUDA(cudaStreamSynchronize(s_prep));

    /* what ran when */
    int overlapped = 0;
    for (int b = 0; b < BATCHES; b++) {
        float g0 = ms_between(t0, gk_start[b]), g1 = ms_between(t0, gk_end[b]);
        printf("  batch %d: gk %8.3f .. %8.3f ms on the program's stream", b, g0, g1);
        if (b + 1 < BATCHES) {
            float p0 = ms_between(t0, prep_start[b + 1]), p1 = ms_between(t0, prep_end[b + 1]);
            int both = p0 < g1 && g0 < p1;
            overlapped += both;
            printf("; input %d prepared %8.3f .. %8.3f ms on the other stream%s", b + 1, p0, p1,
                   both ? " (overlapped)" : "");
        }
        printf("\n");
    }

    /* the padding of the last grid is as the program left it */
    std::vector<double> last(grid_elems);
    CUDA(cudaMemcpy(last.data(), buf[(BATCHES - 1) % 2], grid_elems * sizeof(double), cudaMemcpyDeviceToHost));
    size_t pad_changed = 0;
    for (size_t i = 0; i < grid_elems; i++)
        pad_changed += i % PY >= NX && last[i] != PAD;

    /* every batch against the host reference */
    const double *c = gk_stencil_default_coeffs;
    std::vector<double> a(dense), bb(dense);
    double worst = 0, worst_tol = 0;
    int bad = 0, sums_bad = 0;
    for (int b = 0; b < BATCHES; b++) {
        for (int z = 0; z < NZ; z++)
            for (int y = 0; y < NY; y++)
                for (int x = 0; x < NX; x++)
                    a[((size_t)z * NY + y) * NX + x] = input_value(b, x, y, z);
        double scale = 0;
        for (size_t i = 0; i < dense; i++) scale = std::fmax(scale, std::fabs(a[i]));
        for (int s = 0; s < STEPS; s++) {
            sweep(a.data(), bb.data(), c);
            a.swap(bb);
        }
        double diff = 0, sum = 0, sum_abs = 0;
        for (size_t i = 0; i < dense; i++) {
            scale = std::fmax(scale, std::fabs(a[i]));
            double d = std::fabs(h_res[(size_t)b * dense + i] - a[i]);
            if (!(d <= diff)) diff = d;               /* NaN counts */
            sum += a[i];
            sum_abs += std::fabs(a[i]);
        }
        double tol = gk_stencil_tolerance(STEPS, scale);
        if (!(diff <= tol)) bad++;
        if (!(std::fabs(h_sums[b] - sum) <= 1e-12 * sum_abs * dense + 1e-300)) sums_bad++;
        if (diff > worst) worst = diff;
        worst_tol = std::fmax(worst_tol, tol);
    }
    printf("  the program's input kernel overlapped gk's sweeps in %d of %d batches (timing-dependent; not checked)\n",
           overlapped, BATCHES - 1);
    printf("  max |gk - host reference| = %.3g (tolerance %.3g); checksums on gk's stream: %s; padding untouched: %s\n",
           worst, worst_tol, sums_bad ? "WRONG" : "agree", pad_changed ? "NO" : "yes");

    gk_stencil_plan_destroy(plan);
    gk_context_destroy(ctx);
    for (int b = 0; b < BATCHES; b++) {
        cudaEventDestroy(prep_start[b]);
        cudaEventDestroy(prep_end[b]);
        cudaEventDestroy(gk_start[b]);
        cudaEventDestroy(gk_end[b]);
    }
    for (int j = 0; j < 2; j++) {
        cudaEventDestroy(prepared[j]);
        cudaEventDestroy(consumed[j]);
    }
    cudaEventDestroy(t0);
    cudaFree(buf[0]);
    cudaFree(buf[1]);
    cudaFree(d_sums);
    cudaFreeHost(h_res);
    cudaStreamDestroy(s_gk);
    cudaStreamDestroy(s_prep);
    if (bad || sums_bad || pad_changed) {
        fprintf(stderr, "stencil_device: %d batches differ from the host reference, %d checksums differ, "
                "%zu padding values changed\n", bad, sums_bad, pad_changed);
        return 1;
    }
    printf("stencil_device: all %d batches verified against the host reference\n", BATCHES);
    return 0;
}
