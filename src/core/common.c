/* common.c - version, backend names and choice, the wall clock. */
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *gk_version(void) { return PACKAGE_VERSION; }

gk_status gk_backend_parse(const char *text, gk_backend *out)
{
    if (!strcmp(text, "auto")) *out = GK_BACKEND_AUTO;
    else if (!strcmp(text, "cpu")) *out = GK_BACKEND_CPU;
    else if (!strcmp(text, "gpu")) *out = GK_BACKEND_GPU;
    else return gk__fail(GK_EINVAL, "unknown device '%s' (want auto, cpu or gpu)", text);
    return GK_OK;
}

const char *gk_backend_name(gk_backend b)
{
    return b == GK_BACKEND_CPU ? "cpu" : b == GK_BACKEND_GPU ? "gpu" : "auto";
}

gk_status gk_backend_resolve(gk_backend want, gk_backend *got)
{
    char why[512];
    if (want == GK_BACKEND_CPU) { *got = GK_BACKEND_CPU; return GK_OK; }
    if (gk_gpu_usable(why, sizeof why)) { *got = GK_BACKEND_GPU; return GK_OK; }
    if (want == GK_BACKEND_GPU)
        return gk__fail(GK_ENODEV, "--device=gpu but no GPU is usable: %s", why);
    *got = GK_BACKEND_CPU;
    return GK_OK;
}

int gk_gpu_ordinal(void)
{
    const char *env = getenv("GK_DEVICE");
    return env && *env ? atoi(env) : 0;
}

double gk_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t gk__phys_mem_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    return pages > 0 && psize > 0 ? (uint64_t)pages * (uint64_t)psize : 0;
}

gk_status gk_host_memory_check(uint64_t bytes, const char *what)
{
    uint64_t have = gk__phys_mem_bytes();
    if (have == 0)
        return GK_OK; /* unknown: let the allocation decide */
    if (bytes > have) {
        char b1[32], b2[32];
        return gk__fail(GK_ENOMEM, "%s needs %s of host memory, this machine has %s", what,
                        gk__human_bytes((double)bytes, b1, sizeof b1),
                        gk__human_bytes((double)have, b2, sizeof b2));
    }
    return GK_OK;
}
