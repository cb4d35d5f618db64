/* module.c - load a kernel image (embedded fatbin or NVRTC cubin) with the
 * CUDA runtime's library management and launch kernels by handle from C. */
#include "gpu/gpu.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Process-wide, and locked (cache_lock): contexts on several threads load
 * modules at once.
 *
 * A cubin compiled ahead (the tuner compiles variants in parallel in its
 * parent process and hands them to the measuring process): used once by the
 * next load of the same image and configuration. */
static struct { char image[32]; char cfg[1024]; void *cubin; size_t size; } offered;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

void gk__gpu_cubin_offer(const char *image, const gk_config *full, const void *cubin, size_t size)
{
    void *copy = cubin ? malloc(size) : NULL;
    if (copy)
        memcpy(copy, cubin, size);
    pthread_mutex_lock(&cache_lock);
    free(offered.cubin);
    offered.cubin = copy;
    offered.size = size;
    snprintf(offered.image, sizeof offered.image, "%s", image);
    gk__config_format(full, offered.cfg, sizeof offered.cfg);
    pthread_mutex_unlock(&cache_lock);
}

static void *take_offered(const char *image, const gk_config *full, size_t *size)
{
    char cfg[1024];
    void *c = NULL;
    gk__config_format(full, cfg, sizeof cfg);
    pthread_mutex_lock(&cache_lock);
    if (offered.cubin && !strcmp(offered.image, image) && !strcmp(offered.cfg, cfg)) {
        c = offered.cubin;
        *size = offered.size;
        offered.cubin = NULL;
    }
    pthread_mutex_unlock(&cache_lock);
    return c;
}

/* The cubins NVRTC compiled in this process, by image, configuration and
 * architecture: a process that opens the same variant several times (one
 * per GPU of a multi-GPU run, the stencil's boundary slabs) compiles it
 * once.  A few entries, the oldest replaced; kept until exit. */
#define CACHED 8
static struct cached { char image[32]; char cfg[1024]; int arch; void *cubin; size_t size; } cache[CACHED];
static unsigned cache_next;

/* A copy of the cached cubin (the caller frees it), or NULL. */
static void *cache_find(const char *image, const char *cfg, int arch, size_t *size)
{
    void *c = NULL;
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHED && !c; i++)
        if (cache[i].cubin && cache[i].arch == arch && !strcmp(cache[i].image, image) && !strcmp(cache[i].cfg, cfg)
            && (c = malloc(cache[i].size))) {
            memcpy(c, cache[i].cubin, cache[i].size);
            *size = cache[i].size;
        }
    pthread_mutex_unlock(&cache_lock);
    return c;
}

static void cache_add(const char *image, const char *cfg, int arch, const void *cubin, size_t size)
{
    void *c = malloc(size);
    if (!c)
        return;                      /* a cache, not a requirement */
    memcpy(c, cubin, size);
    pthread_mutex_lock(&cache_lock);
    struct cached *e = &cache[cache_next++ % CACHED];
    free(e->cubin);
    snprintf(e->image, sizeof e->image, "%s", image);
    snprintf(e->cfg, sizeof e->cfg, "%s", cfg);
    e->arch = arch;
    e->cubin = c;
    e->size = size;
    pthread_mutex_unlock(&cache_lock);
}

gk_status gk__gpu_module_load(const gk_kernel_image *img, const gk_space *space,
                              const gk_config *cfg, gk_gpu_module *m)
{
    gk_config full;
    gk_status st;
    memset(m, 0, sizeof *m);
    if ((st = gk__space_complete(space, cfg, &full)))
        return st;
    if (gk__space_is_default(space, &full)) {
        GK_CUDA_TRY(cudaLibraryLoadData(&m->lib, img->fatbin, NULL, NULL, 0, NULL, NULL, 0));
        return GK_OK;
    }
    int dev;
    struct cudaDeviceProp p;
    GK_CUDA_TRY(cudaGetDevice(&dev));
    GK_CUDA_TRY(cudaGetDeviceProperties(&p, dev));
    size_t size = 0;
    char key[1024];
    gk__config_format(&full, key, sizeof key);
    int arch = 10 * p.major + p.minor;
    void *cubin = take_offered(img->name, &full, &size);
    if (!cubin)
        cubin = cache_find(img->name, key, arch, &size);
    if (!cubin) {
        st = gk__nvrtc_compile(img, space, &full, p.major, p.minor, &cubin, &size, m->log, sizeof m->log);
        if (st) return st;
        cache_add(img->name, key, arch, cubin, size);
    }
    cudaError_t e = cudaLibraryLoadData(&m->lib, cubin, NULL, NULL, 0, NULL, NULL, 0);
    free(cubin);
    if (e != cudaSuccess)
        return gk__cuda_fail(e, "cudaLibraryLoadData(NVRTC cubin)");
    m->from_nvrtc = 1;
    return GK_OK;
}

void gk__gpu_module_unload(gk_gpu_module *m)
{
    if (m->lib)
        cudaLibraryUnload(m->lib);
    m->lib = NULL;
}

gk_status gk__gpu_kernel(gk_gpu_module *m, const char *name, cudaKernel_t *k)
{
    cudaError_t e = cudaLibraryGetKernel(k, m->lib, name);
    if (e != cudaSuccess)
        return gk__fail(GK_ECUDA, "CUDA: kernel '%s' not found in image: %s", name, cudaGetErrorString(e));
    return GK_OK;
}

gk_status gk__gpu_launch(cudaKernel_t k, dim3 grid, dim3 block, size_t smem,
                         cudaStream_t stream, void **args)
{
    if (smem > 48 * 1024)
        GK_CUDA_TRY(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    GK_CUDA_TRY(cudaLaunchKernel((const void *)k, grid, block, args, smem, stream));
    GK_CUDA_TRY(cudaGetLastError());
    return GK_OK;
}
