/* runtime.c - CUDA devices, errors and timing for libgk (static runtime). */
#include "gpu/gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gk_status gk__cuda_fail(cudaError_t e, const char *what)
{
    return gk__fail(GK_ECUDA, "CUDA: %s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

static gk_status count_devices(int *count)
{
    *count = 0;
    cudaError_t e = cudaGetDeviceCount(count);
    if (e == cudaSuccess && *count > 0)
        return GK_OK;
    *count = 0;
    if (e == cudaErrorInsufficientDriver)
        return gk__fail(GK_ENODEV, "no CUDA driver (or one older than CUDA %s): %s",
                        GK_CUDA_VERSION_STR, cudaGetErrorString(e));
    if (e == cudaSuccess || e == cudaErrorNoDevice)
        return gk__fail(GK_ENODEV, "no CUDA device found");
    return gk__fail(GK_ENODEV, "CUDA devices unavailable: %s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
}

gk_status gk_gpu_count(int *count) { return count_devices(count); }

int gk_gpu_usable(char *why, size_t n)
{
    int count;
    if (count_devices(&count) == GK_OK)
        return 1;
    if (why) snprintf(why, n, "%s", gk_last_error());
    return 0;
}

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = 0;
    return cudaDeviceGetAttribute(&v, a, dev) == cudaSuccess ? v : 0;
}

void gk_device_info_init(gk_device_info *info)
{
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
}

gk_status gk_gpu_info(int ordinal, gk_device_info *out)
{
    gk_device_info whole;
    if (!out)
        return gk__fail(GK_EINVAL, "gk_gpu_info: info is NULL");
    gk_status st = gk__gpu_info(ordinal, &whole);
    if (st)
        return st;
    return GK__STRUCT_OUT(out, whole, "gk_device_info");
}

gk_status gk__gpu_info(int ordinal, gk_device_info *info)
{
    int count;
    gk_status st = count_devices(&count);
    if (st) return st;
    if (ordinal < 0 || ordinal >= count)
        return gk__fail(GK_EINVAL, "no CUDA device %d (there are %d)", ordinal, count);
    struct cudaDeviceProp p;
    GK_CUDA_TRY(cudaGetDeviceProperties(&p, ordinal));
    gk_device_info_init(info);
    info->ordinal = ordinal;
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->cc_major = p.major;
    info->cc_minor = p.minor;
    info->sm_count = p.multiProcessorCount;
    info->total_mem = p.totalGlobalMem;
    info->clock_khz = attr(cudaDevAttrClockRate, ordinal);
    info->mem_clock_khz = attr(cudaDevAttrMemoryClockRate, ordinal);
    info->mem_bus_bits = p.memoryBusWidth;
    info->smem_per_block = p.sharedMemPerBlock;
    info->smem_per_block_optin = p.sharedMemPerBlockOptin;
    info->smem_per_sm = p.sharedMemPerMultiprocessor;
    info->regs_per_sm = p.regsPerMultiprocessor;
    info->max_threads_per_block = p.maxThreadsPerBlock;
    info->l2_bytes = p.l2CacheSize;
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
    if (cudaDeviceGetPCIBusId(info->pci_bus_id, (int)sizeof info->pci_bus_id, ordinal) != cudaSuccess)
        snprintf(info->pci_bus_id, sizeof info->pci_bus_id, "unknown");
    gk__pci_local_cpus(info->pci_bus_id, info->local_cpus, sizeof info->local_cpus);
    return GK_OK;
}

gk_status gk__gpu_enter(int ordinal, int *prev)
{
    *prev = -1;
    if (cudaGetDevice(prev) != cudaSuccess)
        *prev = -1;
    GK_CUDA_TRY(cudaSetDevice(ordinal));
    return GK_OK;
}

void gk__gpu_leave(int prev)
{
    if (prev >= 0)
        cudaSetDevice(prev);
}

gk_status gk__gpu_stream_create(cudaStream_t *s)
{
    *s = NULL;
    GK_CUDA_TRY(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
    return GK_OK;
}

void gk__gpu_stream_destroy(cudaStream_t s)
{
    if (s) cudaStreamDestroy(s);
}

gk_status gk__gpu_stream_device(void *stream, int *device)
{
    *device = -1;
#if CUDART_VERSION >= 12080
    GK_CUDA_TRY(cudaStreamGetDevice((cudaStream_t)stream, device));
#else
    (void)stream;              /* not asked: the stream is taken on trust */
#endif
    return GK_OK;
}

gk_status gk__gpu_pointer_kind(const void *p, int *device_memory, int *device)
{
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    *device_memory = 0;
    *device = -1;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    if (e == cudaErrorInvalidValue) {       /* older drivers: memory CUDA does not know */
        cudaGetLastError();
        return GK_OK;
    }
    if (e != cudaSuccess)
        return gk__cuda_fail(e, "cudaPointerGetAttributes");
    *device_memory = a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
    *device = a.device;
    return GK_OK;
}

gk_status gk__gpu_timer_init(gk_gpu_timer *t)
{
    t->start = t->stop = NULL;
    GK_CUDA_TRY(cudaEventCreate(&t->start));
    GK_CUDA_TRY(cudaEventCreate(&t->stop));
    return GK_OK;
}

gk_status gk__gpu_timer_start(gk_gpu_timer *t, cudaStream_t s)
{
    GK_CUDA_TRY(cudaEventRecord(t->start, s));
    return GK_OK;
}

gk_status gk__gpu_timer_stop(gk_gpu_timer *t, cudaStream_t s, float *ms)
{
    float f;
    GK_CUDA_TRY(cudaEventRecord(t->stop, s));
    GK_CUDA_TRY(cudaEventSynchronize(t->stop));
    GK_CUDA_TRY(cudaEventElapsedTime(&f, t->start, t->stop));
    if (ms) *ms = f;
    return GK_OK;
}

void gk__gpu_timer_free(gk_gpu_timer *t)
{
    if (t->start) cudaEventDestroy(t->start);
    if (t->stop) cudaEventDestroy(t->stop);
    t->start = t->stop = NULL;
}

gk_status gk__gpu_copy_bandwidth(size_t bytes, int reps, double *bytes_per_s)
{
    gk_status st = GK_OK;
    void *a = NULL, *b = NULL;
    gk_gpu_timer t = { 0 };
    double ms[64];
    if (reps < 1 || reps > 64) reps = 9;
    GK_CUDA_GOTO(cudaMalloc(&a, bytes), st, out);
    GK_CUDA_GOTO(cudaMalloc(&b, bytes), st, out);
    GK_CUDA_GOTO(cudaMemset(a, 0x5a, bytes), st, out);
    if ((st = gk__gpu_timer_init(&t))) goto out;
    GK_CUDA_GOTO(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), st, out); /* warm-up */
    for (int r = 0; r < reps; r++) {
        if ((st = gk__gpu_timer_start(&t, 0))) goto out;
        GK_CUDA_GOTO(cudaMemcpyAsync(r & 1 ? a : b, r & 1 ? b : a, bytes, cudaMemcpyDeviceToDevice, 0), st, out);
        float f;
        if ((st = gk__gpu_timer_stop(&t, 0, &f))) goto out;
        ms[r] = f;
    }
    *bytes_per_s = 2.0 * (double)bytes / (gk__median(ms, reps, NULL) * 1e-3);
out:
    gk__gpu_timer_free(&t);
    cudaFree(a);
    cudaFree(b);
    return st;
}

int gk__gpu_healthy(void)
{
    void *p = NULL;
    if (cudaDeviceSynchronize() != cudaSuccess || cudaMalloc(&p, 256) != cudaSuccess)
        return 0;
    cudaFree(p);
    return cudaGetLastError() == cudaSuccess;
}

gk_status gk__gpu_alloc(void **p, size_t bytes)
{
    *p = NULL;
    GK_CUDA_TRY(cudaMalloc(p, bytes));
    return GK_OK;
}

void gk__gpu_free(void *p)
{
    if (p) cudaFree(p);
}

gk_status gk__gpu_copy(void *dst, const void *src, size_t bytes, int to_device)
{
    GK_CUDA_TRY(cudaMemcpy(dst, src, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
    return GK_OK;
}

gk_status gk__gpu_stream_wait(void *stream)
{
    GK_CUDA_TRY(cudaStreamSynchronize((cudaStream_t)stream));
    return GK_OK;
}

gk_status gk__gpu_span_begin(gk__gpu_span *t, void *stream)
{
    cudaEvent_t a = NULL, b = NULL;
    t->start = t->stop = NULL;
    GK_CUDA_TRY(cudaEventCreate(&a));
    t->start = a;
    GK_CUDA_TRY(cudaEventCreate(&b));
    t->stop = b;
    GK_CUDA_TRY(cudaEventRecord(a, (cudaStream_t)stream));
    return GK_OK;
}

gk_status gk__gpu_span_end(gk__gpu_span *t, void *stream, double *ms)
{
    float f = 0;
    cudaError_t e = cudaEventRecord((cudaEvent_t)t->stop, (cudaStream_t)stream);
    if (e == cudaSuccess) e = cudaEventSynchronize((cudaEvent_t)t->stop);
    if (e == cudaSuccess) e = cudaEventElapsedTime(&f, (cudaEvent_t)t->start, (cudaEvent_t)t->stop);
    cudaEventDestroy((cudaEvent_t)t->start);
    cudaEventDestroy((cudaEvent_t)t->stop);
    t->start = t->stop = NULL;
    if (e != cudaSuccess)
        return gk__cuda_fail(e, "timing a span of the stream");
    *ms = f;
    return GK_OK;
}
