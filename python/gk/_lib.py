"""ctypes bindings of libgk's public C API (include/gk/*.h).

Why ctypes and not a C extension: no compile step at install time, no
Python headers needed, one module for every Python 3 version, and the C API
already takes plain pointers and sizes.  ctypes.CDLL releases the GIL for the
duration of every foreign call, so a long gk_apsp_run or gk_stencil_run
does not block other Python threads.

The structures below mirror the C ones field by field; tests/python/test_gk.py
compares their sizes and offsets with what the C compiler says
(tests/test_python_layout.c).

Where libgk comes from: $GK_LIBRARY (a path; the build tree's `make check`
sets it to .libs/libgk.so.1), else the libgk next to this file (what `pip
install .` bundles: setup.py), else the directory `make install` put it in
(_config.LIBDIR), else the dynamic linker's search path.
"""

import ctypes
import ctypes.util
import os

c_int, c_int32, c_int64, c_uint64, c_double, c_char_p, c_size_t = (
    ctypes.c_int, ctypes.c_int32, ctypes.c_int64, ctypes.c_uint64, ctypes.c_double,
    ctypes.c_char_p, ctypes.c_size_t)

# gk/common.h, gk/context.h, gk/apsp.h, gk/stencil.h
STATUS_NAMES = ("ok", "EINVAL", "EIO", "EFORMAT", "ENOMEM", "ENODEV", "ECUDA", "ECOMPILE",
                "EMISMATCH", "ECACHE", "EINTERNAL", "ENEGCYCLE")
GK_OK, GK_EINVAL, GK_EIO, GK_EFORMAT, GK_ENOMEM, GK_ENODEV, GK_ECUDA, GK_ECOMPILE, \
    GK_EMISMATCH, GK_ECACHE, GK_EINTERNAL, GK_ENEGCYCLE = range(12)
GK_BACKEND_AUTO, GK_BACKEND_CPU, GK_BACKEND_GPU = range(3)
GK_FORMAT_AUTO, GK_FORMAT_NTHU, GK_FORMAT_GR, GK_FORMAT_MTX, GK_FORMAT_EDGES, GK_FORMAT_NPY = range(6)
CONFIG_SOURCES = ("none", "default", "shipped", "cache", "user")
GK_MAX_GPUS = 64
GK_APSP_INF = 1073741823
GK_APSP_MAX_WEIGHT = 1073741822
GK_APSP_INF64 = 4611686018427387903     # (1.2) 2^62 - 1: unreachable in int64 matrices
GK_APSP_NO_PRED = -1                    # (1.2) a predecessor matrix's "none"
GK_DTYPE_INT32, GK_DTYPE_INT64, GK_DTYPE_FLOAT32, GK_DTYPE_FLOAT64 = 1, 2, 3, 4
DTYPE_NAMES = {GK_DTYPE_INT32: "int32", GK_DTYPE_INT64: "int64", GK_DTYPE_FLOAT32: "float32",
               GK_DTYPE_FLOAT64: "float64"}
GK_STENCIL_NCOEFFS = 27
GK_STENCIL_BOX, GK_STENCIL_STAR, GK_STENCIL_MASK = 1, 2, 3
GK_BOUNDARY_ZERO, GK_BOUNDARY_PERIODIC, GK_BOUNDARY_FIXED = 0, 1, 2
GK_STENCIL_MAX_RADIUS = 4


# Every struct a caller allocates begins with size_t struct_size (the ABI
# rule of gk/common.h); new() fills it through the struct's C _init function
# so that the defaults are libgk's own.
class ContextOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("backend", c_int), ("ngpus", c_int),
                ("gpus", c_int * GK_MAX_GPUS), ("threads", c_int), ("cache_dir", c_char_p),
                ("data_dir", c_char_p), ("no_tuned", c_int), ("comm", ctypes.c_void_p),
                ("cpu_isa", c_int), ("apsp_stage_bytes", c_int64), ("apsp_no_lookahead", c_int),
                ("apsp_no_mp3", c_int)]


class Report(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("backend", c_int), ("device", ctypes.c_char * 256),
                ("backend_note", ctypes.c_char * 256), ("config", ctypes.c_char * 256),
                ("config_source", c_int), ("config_detail", ctypes.c_char * 512),
                ("config_ignored", c_int), ("h2d", c_double), ("compute", c_double),
                ("d2h", c_double), ("check", c_double), ("checked", c_int),
                ("check_against", ctypes.c_char * 64), ("check_max_abs", c_double),
                ("check_max_rel", c_double), ("check_tolerance", c_double),
                ("precision", c_int), ("precision_detail", ctypes.c_char * 128),
                ("memory", c_int), ("dtype", c_int), ("cycle_vertex", c_int64)]


class ApspProblem(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("n", c_int64), ("ld", c_int64), ("dtype", c_int),
                ("memory", c_int)]


class ApspOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("check", c_int), ("config", c_char_p),
                ("precision", c_int), ("exchange", c_int),
                ("predecessors", c_int), ("negative", c_int)]        # 1.2


class StencilProblem(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("nx", c_int64), ("ny", c_int64), ("nz", c_int64),
                ("pitch_y", c_int64), ("pitch_z", c_int64), ("coeffs", ctypes.c_void_p),
                ("dtype", c_int), ("memory", c_int), ("desc", ctypes.c_void_p)]


class StencilDesc(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("dims", c_int), ("shape", c_int), ("radius", c_int),
                ("boundary", c_int), ("weights", ctypes.c_void_p)]


class StencilOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("check", c_int), ("config", c_char_p),
                ("exchange", c_int)]


class GemmProblem(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("m", c_int64), ("n", c_int64), ("k", c_int64),
                ("lda", c_int64), ("ldb", c_int64), ("ldc", c_int64), ("dtype", c_int),
                ("memory", c_int)]


class GemmOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("check", c_int), ("config", c_char_p)]


class BuildInfo(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("version", c_char_p), ("cc", c_char_p),
                ("configure_args", c_char_p), ("openmp", c_char_p), ("hwloc", c_char_p),
                ("cuda", c_char_p), ("cuda_archs", c_char_p), ("nvrtc", c_char_p),
                ("has_openmp", c_int), ("has_hwloc", c_int), ("has_cuda", c_int),
                ("has_nvrtc", c_int)]


class CpuTopology(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("from_hwloc", c_int), ("packages", c_int),
                ("numa_nodes", c_int), ("cores", c_int), ("pus", c_int),
                ("omp_max_threads", c_int), ("model", ctypes.c_char * 128)]


class DeviceInfo(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("ordinal", c_int), ("name", ctypes.c_char * 256),
                ("cc_major", c_int), ("cc_minor", c_int), ("sm_count", c_int),
                ("total_mem", c_size_t), ("clock_khz", c_int), ("mem_clock_khz", c_int),
                ("mem_bus_bits", c_int), ("smem_per_block", c_size_t),
                ("smem_per_block_optin", c_size_t), ("smem_per_sm", c_size_t),
                ("regs_per_sm", c_int), ("max_threads_per_block", c_int), ("l2_bytes", c_int),
                ("driver_version", c_int), ("runtime_version", c_int),
                ("pci_bus_id", ctypes.c_char * 32), ("local_cpus", ctypes.c_char * 256)]


# gk/sssp.h (1.2: shortest paths from chosen sources of a sparse graph)
GK_SSSP_AUTO, GK_SSSP_FW, GK_SSSP_DIJKSTRA, GK_SSSP_JOHNSON, GK_SSSP_BELLMAN_FORD = range(5)


class SsspOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("algorithm", c_int), ("min_only", c_int),
                ("limit", c_double), ("predecessors", c_int), ("config", c_char_p),
                ("chunk_rows", c_int64)]


class SsspReport(ctypes.Structure):
    _fields_ = [("struct_size", c_size_t), ("run", Report), ("algorithm", c_int),
                ("why", ctypes.c_char * 512), ("predicted", c_double * 5), ("sources", c_int64),
                ("relaxations", c_int64), ("setup", c_double)]


STRUCTS = {"gk_context_options": ContextOptions, "gk_report": Report,
           "gk_apsp_problem": ApspProblem, "gk_apsp_options": ApspOptions,
           "gk_stencil_problem": StencilProblem, "gk_stencil_options": StencilOptions,
           "gk_stencil_desc": StencilDesc,
           "gk_gemm_problem": GemmProblem, "gk_gemm_options": GemmOptions,
           "gk_build_info": BuildInfo, "gk_cpu_topology": CpuTopology,
           "gk_device_info": DeviceInfo, "gk_sssp_options": SsspOptions,
           "gk_sssp_report": SsspReport}

P = ctypes.POINTER
_i32p = P(c_int32)
_ctxp = ctypes.c_void_p
_vp = ctypes.c_void_p

# name: (restype, argtypes)
_PROTOS = {
    "gk_strerror": (c_char_p, [c_int]),
    "gk_last_error": (c_char_p, []),
    "gk_version": (c_char_p, []),
    "gk_free": (None, [_vp]),
    "gk_backend_parse": (c_int, [c_char_p, P(c_int)]),
    "gk_report_init": (None, [P(Report)]),
    "gk_context_options_init": (None, [P(ContextOptions)]),
    "gk_context_options_from_env": (c_int, [P(ContextOptions)]),
    "gk_context_options_set_gpus": (c_int, [P(ContextOptions), c_char_p]),
    "gk_context_create": (c_int, [P(_ctxp), P(ContextOptions)]),
    "gk_context_destroy": (None, [_ctxp]),
    "gk_context_backend": (c_int, [_ctxp]),
    "gk_context_backend_note": (c_char_p, [_ctxp]),
    "gk_context_data_dir": (c_char_p, [_ctxp]),
    "gk_apsp_problem_init": (None, [P(ApspProblem), c_int64]),
    "gk_apsp_options_init": (None, [P(ApspOptions)]),
    "gk_apsp_run": (c_int, [_ctxp, P(ApspProblem), _vp, P(ApspOptions), P(Report)]),
    "gk_apsp_read_format": (c_int, [c_char_p, c_int, c_int, c_int64, P(_i32p), P(c_int64),
                                    P(c_int64), P(c_int32)]),
    "gk_apsp_write_format": (c_int, [c_char_p, c_int, _vp, c_int64]),
    "gk_graph_convert": (c_int, [c_char_p, c_int, c_char_p, c_int, c_int, c_int64, P(c_int64),
                                 P(c_int64), P(c_int64)]),
    "gk_format_parse": (c_int, [c_char_p, P(c_int)]),
    "gk_stencil_problem_init": (None, [P(StencilProblem), c_int64, c_int64, c_int64]),
    "gk_stencil_options_init": (None, [P(StencilOptions)]),
    "gk_stencil_run": (c_int, [_ctxp, P(StencilProblem), _vp, c_int64, P(StencilOptions),
                               P(Report)]),
    "gk_stencil_check_size": (c_int, [c_int64, c_int64, c_int64, c_int64]),
    "gk_stencil_desc_init": (None, [P(StencilDesc)]),
    "gk_build_info_get": (P(BuildInfo), []),
    "gk_cpu_topology_init": (None, [P(CpuTopology)]),
    "gk_cpu_topology_get": (c_int, [P(CpuTopology)]),
    "gk_gpu_count": (c_int, [P(c_int)]),
    "gk_device_info_init": (None, [P(DeviceInfo)]),
    "gk_gpu_info": (c_int, [c_int, P(DeviceInfo)]),
    "gk_gpu_usable": (c_int, [ctypes.c_char_p, c_size_t]),
    "gk_gemm_problem_init": (None, [P(GemmProblem), c_int64, c_int64, c_int64]),
    "gk_gemm_options_init": (None, [P(GemmOptions)]),
    "gk_gemm_run": (c_int, [_ctxp, P(GemmProblem), _vp, _vp, _vp, P(GemmOptions), P(Report)]),
    "gk_gemm_check_size": (c_int, [c_int64, c_int64, c_int64]),
    # 1.2 (issue 24: weight types, negative weights, predecessors)
    "gk_apsp_run_paths": (c_int, [_ctxp, P(ApspProblem), _vp, _vp, P(ApspOptions), P(Report)]),
    # 1.2 (issue 26: sparse graphs, shortest paths from chosen sources)
    "gk_graph_from_csr": (c_int, [c_int64, _vp, _vp, _vp, c_int, c_int, P(_vp)]),
    "gk_graph_destroy": (None, [_vp]),
    "gk_graph_info": (None, [_vp, P(c_int64), P(c_int64), P(c_int), P(c_int)]),
    "gk_sssp_options_init": (None, [P(SsspOptions)]),
    "gk_sssp_report_init": (None, [P(SsspReport)]),
    "gk_sssp_algorithm_name": (c_char_p, [c_int]),
    "gk_sssp_run": (c_int, [_ctxp, _vp, _vp, c_int64, P(SsspOptions), _vp, _vp, _vp, P(SsspReport)]),
}


# libgk's soname: libtool's -version-info CURRENT - AGE in Makefile.am
# (tests/python/test_gk.py checks it against the library make check loads).
SONAME = "libgk.so.1"
HERE = os.path.dirname(os.path.abspath(__file__))
# The tuning tables a pip-built package ships (setup.py copies data/tuned):
# the context's data directory unless GK_DATA_DIR names another.
BUNDLED_DATA_DIR = os.path.join(HERE, "data")


def _candidates():
    env = os.environ.get("GK_LIBRARY")
    if env:
        return [env]
    out = [os.path.join(HERE, SONAME)]          # pip install: bundled
    try:
        from . import _config                   # make install: its libdir
        for name in (SONAME, "libgk.so", "libgk.1.dylib", "libgk.dylib"):
            out.append(os.path.join(_config.LIBDIR, name))
    except ImportError:
        pass
    found = ctypes.util.find_library("gk")
    out.append(found or SONAME)
    return out


def load():
    """Open libgk and declare its functions; OSError naming what was tried."""
    tried = []
    lib = None
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (missing)")
            continue
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    if lib is None:
        raise OSError("gk: cannot load libgk: tried " + "; ".join(tried) +
                      " (set GK_LIBRARY to the library's path)")
    for name, (res, args) in _PROTOS.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


lib = load()
default_coeffs = (c_double * GK_STENCIL_NCOEFFS).in_dll(lib, "gk_stencil_default_coeffs")


def new(cls, *args):
    """An instance of a public struct with struct_size and the defaults set by
    its C _init function (gk_<name>_init), e.g. new(ApspProblem, V)."""
    inits = {ContextOptions: lib.gk_context_options_init, Report: lib.gk_report_init,
             ApspProblem: lib.gk_apsp_problem_init, ApspOptions: lib.gk_apsp_options_init,
             StencilProblem: lib.gk_stencil_problem_init,
             StencilOptions: lib.gk_stencil_options_init,
             StencilDesc: lib.gk_stencil_desc_init,
             GemmProblem: lib.gk_gemm_problem_init, GemmOptions: lib.gk_gemm_options_init,
             CpuTopology: lib.gk_cpu_topology_init, DeviceInfo: lib.gk_device_info_init,
             SsspOptions: lib.gk_sssp_options_init, SsspReport: lib.gk_sssp_report_init}
    x = cls()
    inits[cls](ctypes.byref(x), *args)
    return x
