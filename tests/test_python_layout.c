/* test_python_layout.c - print the size and field offsets of each public
 * structure the Python module mirrors with ctypes, and the constants it
 * copies, one "NAME VALUE" line each; tests/python/test_gk.py compares them
 * with python/gk/_lib.py (not a TAP test itself). */
#include "gk.h"

#include <stddef.h>
#include <stdio.h>

#define S(T) printf("%s sizeof %zu\n", #T, sizeof(T))
#define F(T, f) printf("%s %s %zu\n", #T, #f, offsetof(T, f))
#define C(X) printf("const %s %lld\n", #X, (long long)(X))

int main(void)
{
    S(gk_context_options);
    F(gk_context_options, struct_size);
    F(gk_context_options, backend); F(gk_context_options, ngpus); F(gk_context_options, gpus);
    F(gk_context_options, threads); F(gk_context_options, cache_dir); F(gk_context_options, data_dir);
    F(gk_context_options, no_tuned);
    F(gk_context_options, comm); F(gk_context_options, cpu_isa);
    F(gk_context_options, apsp_stage_bytes); F(gk_context_options, apsp_no_lookahead);
    F(gk_context_options, apsp_no_mp3);
    S(gk_report);
    F(gk_report, struct_size);
    F(gk_report, backend); F(gk_report, device); F(gk_report, backend_note); F(gk_report, config);
    F(gk_report, config_source); F(gk_report, config_detail); F(gk_report, config_ignored);
    F(gk_report, h2d); F(gk_report, compute); F(gk_report, d2h); F(gk_report, check);
    F(gk_report, checked); F(gk_report, check_against); F(gk_report, check_max_abs);
    F(gk_report, check_max_rel); F(gk_report, check_tolerance);
    F(gk_report, precision); F(gk_report, precision_detail); F(gk_report, memory);
    F(gk_report, dtype); F(gk_report, cycle_vertex);
    S(gk_apsp_problem);
    F(gk_apsp_problem, struct_size); F(gk_apsp_problem, n); F(gk_apsp_problem, ld);
    F(gk_apsp_problem, dtype); F(gk_apsp_problem, memory);
    S(gk_apsp_options);
    F(gk_apsp_options, struct_size); F(gk_apsp_options, check); F(gk_apsp_options, config);
    F(gk_apsp_options, precision); F(gk_apsp_options, exchange);
    F(gk_apsp_options, predecessors); F(gk_apsp_options, negative);
    C(GK_APSP_INF64); C(GK_APSP_NO_PRED);
    S(gk_stencil_problem);
    F(gk_stencil_problem, struct_size); F(gk_stencil_problem, nx); F(gk_stencil_problem, ny);
    F(gk_stencil_problem, nz); F(gk_stencil_problem, pitch_y); F(gk_stencil_problem, pitch_z);
    F(gk_stencil_problem, coeffs); F(gk_stencil_problem, dtype); F(gk_stencil_problem, memory);
    F(gk_stencil_problem, desc);
    S(gk_stencil_desc);
    F(gk_stencil_desc, struct_size); F(gk_stencil_desc, dims); F(gk_stencil_desc, shape);
    F(gk_stencil_desc, radius); F(gk_stencil_desc, boundary); F(gk_stencil_desc, weights);
    S(gk_stencil_options);
    F(gk_stencil_options, struct_size); F(gk_stencil_options, check); F(gk_stencil_options, config);
    F(gk_stencil_options, exchange);
    S(gk_gemm_problem);
    F(gk_gemm_problem, struct_size); F(gk_gemm_problem, m); F(gk_gemm_problem, n);
    F(gk_gemm_problem, k); F(gk_gemm_problem, lda); F(gk_gemm_problem, ldb);
    F(gk_gemm_problem, ldc); F(gk_gemm_problem, dtype); F(gk_gemm_problem, memory);
    S(gk_gemm_options);
    F(gk_gemm_options, struct_size); F(gk_gemm_options, check); F(gk_gemm_options, config);
    S(gk_build_info);
    F(gk_build_info, struct_size);
    F(gk_build_info, version); F(gk_build_info, cc); F(gk_build_info, configure_args);
    F(gk_build_info, openmp); F(gk_build_info, hwloc); F(gk_build_info, cuda);
    F(gk_build_info, cuda_archs); F(gk_build_info, nvrtc); F(gk_build_info, has_openmp);
    F(gk_build_info, has_hwloc); F(gk_build_info, has_cuda); F(gk_build_info, has_nvrtc);
    S(gk_cpu_topology);
    F(gk_cpu_topology, struct_size);
    F(gk_cpu_topology, from_hwloc); F(gk_cpu_topology, packages); F(gk_cpu_topology, numa_nodes);
    F(gk_cpu_topology, cores); F(gk_cpu_topology, pus); F(gk_cpu_topology, omp_max_threads);
    F(gk_cpu_topology, model);
    S(gk_device_info);
    F(gk_device_info, struct_size);
    F(gk_device_info, ordinal); F(gk_device_info, name); F(gk_device_info, cc_major);
    F(gk_device_info, cc_minor); F(gk_device_info, sm_count); F(gk_device_info, total_mem);
    F(gk_device_info, clock_khz); F(gk_device_info, mem_clock_khz); F(gk_device_info, mem_bus_bits);
    F(gk_device_info, smem_per_block); F(gk_device_info, smem_per_block_optin);
    F(gk_device_info, smem_per_sm); F(gk_device_info, regs_per_sm);
    F(gk_device_info, max_threads_per_block); F(gk_device_info, l2_bytes);
    F(gk_device_info, driver_version); F(gk_device_info, runtime_version);
    F(gk_device_info, pci_bus_id); F(gk_device_info, local_cpus);
    S(gk_sssp_options);
    F(gk_sssp_options, struct_size); F(gk_sssp_options, algorithm); F(gk_sssp_options, min_only);
    F(gk_sssp_options, limit); F(gk_sssp_options, predecessors); F(gk_sssp_options, config);
    F(gk_sssp_options, chunk_rows);
    S(gk_sssp_report);
    F(gk_sssp_report, struct_size); F(gk_sssp_report, run); F(gk_sssp_report, algorithm);
    F(gk_sssp_report, why); F(gk_sssp_report, predicted); F(gk_sssp_report, sources);
    F(gk_sssp_report, relaxations); F(gk_sssp_report, setup);
    C(GK_SSSP_AUTO); C(GK_SSSP_FW); C(GK_SSSP_DIJKSTRA); C(GK_SSSP_JOHNSON); C(GK_SSSP_BELLMAN_FORD);
    C(GK_MAX_GPUS); C(GK_APSP_INF); C(GK_APSP_MAX_WEIGHT); C(GK_STENCIL_NCOEFFS);
    C(GK_OK); C(GK_EINVAL); C(GK_EIO); C(GK_EFORMAT); C(GK_ENOMEM); C(GK_ENODEV); C(GK_ECUDA);
    C(GK_ECOMPILE); C(GK_EMISMATCH); C(GK_ECACHE); C(GK_EINTERNAL); C(GK_ENEGCYCLE);
    C(GK_BACKEND_AUTO); C(GK_BACKEND_CPU); C(GK_BACKEND_GPU);
    C(GK_FORMAT_AUTO); C(GK_FORMAT_NTHU); C(GK_FORMAT_GR); C(GK_FORMAT_MTX); C(GK_FORMAT_EDGES);
    C(GK_FORMAT_NPY);
    C(GK_STENCIL_BOX); C(GK_STENCIL_STAR); C(GK_STENCIL_MASK); C(GK_STENCIL_MAX_RADIUS);
    C(GK_BOUNDARY_ZERO); C(GK_BOUNDARY_PERIODIC); C(GK_BOUNDARY_FIXED);
    C(GK_DTYPE_INT32); C(GK_DTYPE_INT64); C(GK_DTYPE_FLOAT32); C(GK_DTYPE_FLOAT64);
    return 0;
}
