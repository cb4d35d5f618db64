/* common.c - versions, the names of the API's enumerations, gk_free, the
 * struct_size rule, the wall clock, the host memory check. */
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *gk_version(void) { return PACKAGE_VERSION; }
int gk_version_number(void) { return GK_VERSION_NUMBER; }

void gk_free(void *p) { free(p); }

#ifdef GK_SYMVER
/* gk_report grew in 1.2 (dtype, cycle_vertex): programs built from now on
 * get gk_report_init@@GK_1.2 (this one), programs built against 1.0 and 1.1
 * keep @GK_1.0 (below: it fills their smaller struct, not past it). */
GK_API void gk__report_init_1_2(gk_report *r);
__asm__(".symver gk__report_init_1_2, gk_report_init@@GK_1.2");
#define gk_report_init gk__report_init_1_2
#endif
void gk_report_init(gk_report *r)
{
    memset(r, 0, sizeof *r);
    r->struct_size = sizeof *r;
    r->h2d = r->compute = r->d2h = r->check = -1;
    r->cycle_vertex = -1;
}
#ifdef GK_SYMVER
#undef gk_report_init
GK_API void gk__report_init_1_0(gk_report *r);
void gk__report_init_1_0(gk_report *r)
{
    memset(r, 0, GK__REPORT_1_0_SIZE);
    r->struct_size = GK__REPORT_1_0_SIZE;
    r->h2d = r->compute = r->d2h = r->check = -1;
}
__asm__(".symver gk__report_init_1_0, gk_report_init@GK_1.0");
#endif

const char *gk_memory_name(gk_memory m)
{
    return m == GK_MEMORY_HOST ? "host" : m == GK_MEMORY_DEVICE ? "device" : "unknown";
}

const char *gk_dtype_name(gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return "int32";
    case GK_DTYPE_INT64: return "int64";
    case GK_DTYPE_FLOAT32: return "float32";
    case GK_DTYPE_FLOAT64: return "float64";
    }
    return NULL;
}

size_t gk_dtype_size(gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: case GK_DTYPE_FLOAT32: return 4;
    case GK_DTYPE_INT64: case GK_DTYPE_FLOAT64: return 8;
    }
    return 0;
}

gk_status gk__struct_in(void *local, size_t local_size, const void *given, size_t min_size, const char *what)
{
    size_t n;
    memcpy(&n, given, sizeof n);               /* struct_size, the first member of every such struct */
    if (n == 0)
        return gk__fail(GK_EINVAL, "%s: struct_size is 0 (initialise it with its _init function)", what);
    if (n < min_size)
        return gk__fail(GK_EINVAL, "%s: struct_size %zu is below the smallest this libgk knows (%zu)", what, n,
                        min_size);
    if (n > local_size) {
        /* built against a newer gk.h: fine while the fields this libgk does
           not know are left at their defaults (0) */
        const unsigned char *b = given;
        for (size_t i = local_size; i < n; i++)
            if (b[i])
                return gk__fail(GK_EINVAL, "%s: struct_size %zu with fields this libgk %s does not know set "
                                "(it knows %zu bytes): built against a newer gk.h?", what, n, PACKAGE_VERSION,
                                local_size);
        n = local_size;
    }
    memcpy(local, given, n);
    memcpy(local, &local_size, sizeof local_size);
    return GK_OK;
}

gk_status gk__struct_out(void *given, const void *local, size_t local_size, size_t min_size, const char *what)
{
    size_t n;
    memcpy(&n, given, sizeof n);
    if (n == 0)
        return gk__fail(GK_EINVAL, "%s: struct_size is 0 (initialise it with its _init function)", what);
    if (n < min_size)
        return gk__fail(GK_EINVAL, "%s: struct_size %zu is below the smallest this libgk knows (%zu)", what, n,
                        min_size);
    if (n > local_size)
        n = local_size;                        /* the caller's newer fields stay as they are */
    memcpy((char *)given + sizeof n, (const char *)local + sizeof n, n - sizeof n);
    return GK_OK;
}

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

gk_status gk_exchange_parse(const char *text, gk_exchange *out)
{
    if (!strcmp(text, "auto")) *out = GK_EXCHANGE_AUTO;
    else if (!strcmp(text, "device")) *out = GK_EXCHANGE_DEVICE;
    else if (!strcmp(text, "host")) *out = GK_EXCHANGE_HOST;
    else return gk__fail(GK_EINVAL, "'%s' is not an exchange (want auto, device or host)", text);
    return GK_OK;
}

const char *gk_exchange_name(gk_exchange e)
{
    return e == GK_EXCHANGE_DEVICE ? "device" : e == GK_EXCHANGE_HOST ? "host" : "auto";
}

gk_status gk_cpu_isa_parse(const char *text, gk_cpu_isa *out)
{
    if (!strcmp(text, "auto")) *out = GK_CPU_ISA_AUTO;
    else if (!strcmp(text, "generic")) *out = GK_CPU_ISA_GENERIC;
    else if (!strcmp(text, "avx2")) *out = GK_CPU_ISA_AVX2;
    else if (!strcmp(text, "avx512")) *out = GK_CPU_ISA_AVX512;
    else return gk__fail(GK_EINVAL, "unknown instruction set '%s' (want auto, generic, avx2 or avx512)", text);
    return GK_OK;
}

const char *gk_cpu_isa_name(gk_cpu_isa isa)
{
    switch (isa) {
    case GK_CPU_ISA_AUTO: return "auto";
    case GK_CPU_ISA_GENERIC: return "generic";
    case GK_CPU_ISA_AVX2: return "avx2";
    case GK_CPU_ISA_AVX512: return "avx512";
    }
    return "unknown";
}

/* What every kernel's code for the set needs: AVX2 with FMA (the stencil's
 * and gemm's); AVX-512 F and BW (the APSP micro-kernels' byte and word
 * minima). */
int gk_cpu_isa_supported(gk_cpu_isa isa)
{
    switch (isa) {
    case GK_CPU_ISA_AUTO: case GK_CPU_ISA_GENERIC: return 1;
#if defined(__x86_64__) || defined(__i386__)
    case GK_CPU_ISA_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case GK_CPU_ISA_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#endif
    default: return 0;
    }
}

gk_cpu_isa gk__cpu_isa_best(void)
{
    return gk_cpu_isa_supported(GK_CPU_ISA_AVX512) ? GK_CPU_ISA_AVX512
           : gk_cpu_isa_supported(GK_CPU_ISA_AVX2) ? GK_CPU_ISA_AVX2 : GK_CPU_ISA_GENERIC;
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

double gk__wtime(void)
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

gk_status gk__host_memory_check(uint64_t bytes, const char *what)
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
