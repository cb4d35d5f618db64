// cuda-startup.cu - what a gk process pays CUDA outside its phases: the
// driver's start (cuInit), the device's properties, the primary context, a
// 2.5 GB device matrix, two 32 MiB pinned buffers, the first launch, and
// the exit (the parent script times the whole process; the difference to
// the last line printed here is the exit).  Run by bench/cuda-startup.sh.
//   cuda-startup MODE [BYTES]   MODE: free (free all, return), keep (return
//   without freeing), reset (cudaDeviceReset, return), quick (_exit(0)
//   without freeing anything)
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

__global__ void touch(int *p) { p[threadIdx.x] = threadIdx.x; }

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "free";
    size_t bytes = argc > 2 ? strtoull(argv[2], 0, 10) : (size_t)25088 * 25088 * 4;
    double t0 = now(), t;
    int n;
    CK(cudaGetDeviceCount(&n));
    t = now(); printf("cuInit (cudaGetDeviceCount)   %.4f s\n", t - t0); t0 = t;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    t = now(); printf("cudaGetDeviceProperties       %.4f s\n", t - t0); t0 = t;
    CK(cudaSetDevice(0));
    CK(cudaFree(0));
    t = now(); printf("primary context (cudaFree(0)) %.4f s\n", t - t0); t0 = t;
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *d;
    CK(cudaMalloc(&d, bytes));
    t = now(); printf("stream + cudaMalloc %zu B    %.4f s\n", bytes, t - t0); t0 = t;
    void *h[2];
    CK(cudaHostAlloc(&h[0], 32 << 20, cudaHostAllocDefault));
    CK(cudaHostAlloc(&h[1], 32 << 20, cudaHostAllocDefault));
    t = now(); printf("cudaHostAlloc 2 x 32 MiB      %.4f s\n", t - t0); t0 = t;
    touch<<<1, 32, 0, s>>>(d);
    CK(cudaStreamSynchronize(s));
    t = now(); printf("first launch                  %.4f s\n", t - t0); t0 = t;
    CK(cudaMemsetAsync(d, 0, bytes, s));
    CK(cudaStreamSynchronize(s));
    t = now(); printf("memset of the matrix          %.4f s\n", t - t0); t0 = t;
    if (!strcmp(mode, "free") || !strcmp(mode, "reset")) {
        CK(cudaFreeHost(h[0])); CK(cudaFreeHost(h[1])); CK(cudaFree(d)); CK(cudaStreamDestroy(s));
        t = now(); printf("freeing it all                %.4f s\n", t - t0); t0 = t;
    }
    if (!strcmp(mode, "reset")) {
        CK(cudaDeviceReset());
        t = now(); printf("cudaDeviceReset               %.4f s\n", t - t0); t0 = t;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    printf("leaving main at %ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
    fflush(stdout);
    if (!strcmp(mode, "quick"))
        _exit(0);
    return 0;
}
