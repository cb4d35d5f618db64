/* common.c - version, backend and configuration-source names, the wall
 * clock, the host memory check. */
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

const char *gk_config_source_name(gk_config_source s)
{
    switch (s) {
    case GK_CONFIG_NONE:    return "none (CPU)";
    case GK_CONFIG_DEFAULT: return "built-in default";
    case GK_CONFIG_SHIPPED: return "shipped table";
    case GK_CONFIG_CACHE:   return "tuning cache";
    case GK_CONFIG_USER:    return "--config";
    }
    return "unknown";
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
