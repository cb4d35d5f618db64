/* gk/info.h - what was built, the CPU topology and the CUDA devices. */
#ifndef GK_INFO_H
#define GK_INFO_H

#include <gk/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Library-owned (gk_build_info_get): struct_size says which fields this
 * libgk has (a later release may append some). */
typedef struct gk_build_info {
    size_t struct_size;          /* sizeof(gk_build_info) of the running libgk */
    const char *version;
    const char *cc;              /* C compiler, first line of --version */
    const char *configure_args;
    const char *openmp;          /* "yes (-fopenmp)" or "no" */
    const char *hwloc;           /* "yes (2.9.0)" or "no (...)" */
    const char *cuda;            /* toolkit version, or "no" */
    const char *cuda_archs;      /* "sm_90 + PTX compute_90 (detected)" */
    const char *nvrtc;           /* NVRTC library opened at run time, or "no" */
    int has_openmp, has_hwloc, has_cuda, has_nvrtc;
} gk_build_info;

GK_API const gk_build_info *gk_build_info_get(void);

/* Caller-allocated: set struct_size with gk_cpu_topology_init. */
typedef struct gk_cpu_topology {
    size_t struct_size;
    int from_hwloc;              /* 1: counted by hwloc; 0: from the OS */
    int packages, numa_nodes, cores, pus;
    int omp_max_threads;         /* what an OpenMP parallel region gets */
    char model[128];             /* CPU model name, "" if unknown */
} gk_cpu_topology;

GK_API void gk_cpu_topology_init(gk_cpu_topology *topo);
GK_API gk_status gk_cpu_topology_get(gk_cpu_topology *topo);

/* Caller-allocated: set struct_size with gk_device_info_init. */
typedef struct gk_device_info {
    size_t struct_size;
    int ordinal;
    char name[256];
    int cc_major, cc_minor;
    int sm_count;
    size_t total_mem;            /* bytes */
    int clock_khz;               /* SM clock */
    int mem_clock_khz;
    int mem_bus_bits;
    size_t smem_per_block;       /* default limit */
    size_t smem_per_block_optin; /* with cudaFuncAttributeMaxDynamicSharedMemorySize */
    size_t smem_per_sm;
    int regs_per_sm;
    int max_threads_per_block;
    int l2_bytes;
    int driver_version;          /* e.g. 13000 */
    int runtime_version;
    char pci_bus_id[32];
    char local_cpus[256];        /* CPUs close to the device, e.g. "0-15" */
} gk_device_info;

/* Number of CUDA devices.  Without a driver, a GPU or CUDA support this
 * returns GK_ENODEV (count = 0) and gk_last_error() says which. */
GK_API gk_status gk_gpu_count(int *count);
GK_API void gk_device_info_init(gk_device_info *info);
GK_API gk_status gk_gpu_info(int ordinal, gk_device_info *info);

/* 1 if a GPU can run kernels now; otherwise 0 and, if why != NULL, the
 * reason in why[0..n). */
GK_API int gk_gpu_usable(char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GK_INFO_H */
