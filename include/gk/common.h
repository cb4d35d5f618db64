/* gk/common.h - status codes, errors, versions, the kinds of memory and
 * element types a job takes, and the report every job fills.
 *
 * Conventions of the whole API (gk(3) says more):
 * - Every function that can fail returns a gk_status; on failure
 *   gk_last_error() holds a one-line message for the calling thread that
 *   names the argument or file at fault.  The library never prints and never
 *   exits.
 * - Sizes, counts and leading dimensions are int64_t.
 * - A struct the caller allocates and hands to gk begins with a size_t
 *   struct_size, set by its _init function (gk_report_init,
 *   gk_apsp_options_init, ...).  A later release may append fields: gk
 *   reads and writes only the first struct_size bytes, so a program built
 *   against an older gk.h keeps working with a newer libgk.  A struct_size of
 *   0 (a struct that was not initialised) is refused with GK_EINVAL.
 * - Memory that gk allocates for the caller is released with gk_free().
 */
#ifndef GK_COMMON_H
#define GK_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <gk/version.h>

/* GK_API marks the documented entry points: libgk is built with
 * -fvisibility=hidden and a version script, so these and nothing else are
 * exported. */
#if defined(GK_BUILDING_LIBGK) && defined(__GNUC__)
#define GK_API __attribute__((visibility("default")))
#else
#define GK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gk_status {
    GK_OK = 0,
    GK_EINVAL,       /* bad argument or option value */
    GK_EIO,          /* a file could not be opened, read or written */
    GK_EFORMAT,      /* an input file breaks the format's rules */
    GK_ENOMEM,       /* memory (host or device) could not be had */
    GK_ENODEV,       /* no usable GPU (no driver, no device, CPU-only build) */
    GK_ECUDA,        /* the CUDA runtime reported an error */
    GK_ECOMPILE,     /* run-time compilation (NVRTC) failed */
    GK_EMISMATCH,    /* a result differs from its reference */
    GK_ECACHE,       /* the tuning cache is unusable (stale, corrupt, locked) */
    GK_EINTERNAL,    /* a bug in gk */
    GK_ENEGCYCLE     /* (1.2) the graph has a cycle of negative length: no shortest
                        paths; gk_report.cycle_vertex names a vertex on one */
} gk_status;

/* A short name for a status ("invalid argument", ...). */
GK_API const char *gk_strerror(gk_status st);

/* The message of the last failure in the calling thread ("" if none). */
GK_API const char *gk_last_error(void);

/* The library's version: "1.0.0", and GK_VERSION_NUMBER's encoding of it
 * (10000 * major + 100 * minor + patch).  A program may compare the latter
 * with the GK_VERSION_NUMBER it was compiled with. */
GK_API const char *gk_version(void);
GK_API int gk_version_number(void);

/* Release memory that gk allocated for the caller (gk_apsp_read_format's
 * matrix, ...).  NULL is fine. */
GK_API void gk_free(void *p);

/* Where a kernel runs. */
typedef enum gk_backend {
    GK_BACKEND_AUTO = 0,  /* the GPU when one is usable, else the CPU */
    GK_BACKEND_CPU,
    GK_BACKEND_GPU
} gk_backend;

/* Parse "auto", "cpu" or "gpu". */
GK_API gk_status gk_backend_parse(const char *text, gk_backend *out);
GK_API const char *gk_backend_name(gk_backend b);

/* Where the data of a job lives.  HOST: ordinary (or pinned) host memory;
 * the call returns when the result is in place.  DEVICE: memory of the
 * context's GPU (cudaMalloc, or managed); the call enqueues the work on the
 * context's stream (gk_context_set_stream) and returns: the result is ready
 * when that stream says so. */
typedef enum gk_memory {
    GK_MEMORY_HOST = 0,
    GK_MEMORY_DEVICE = 1
} gk_memory;

GK_API const char *gk_memory_name(gk_memory m);

/* Element types.  Each job says which it takes (its problem's dtype). */
typedef enum gk_dtype {
    GK_DTYPE_INT32 = 1,
    GK_DTYPE_INT64 = 2,
    GK_DTYPE_FLOAT32 = 3,
    GK_DTYPE_FLOAT64 = 4
} gk_dtype;

/* "int32", "int64", "float32", "float64" (NULL for another value), and the
 * bytes of one element (0 for another value). */
GK_API const char *gk_dtype_name(gk_dtype t);
GK_API size_t gk_dtype_size(gk_dtype t);

/* Where a kernel configuration came from. */
typedef enum gk_config_source {
    GK_CONFIG_NONE = 0,      /* no GPU kernel ran (a CPU run) */
    GK_CONFIG_DEFAULT,       /* built-in defaults of the kernel's tunable description */
    GK_CONFIG_SHIPPED,       /* a table shipped in data/ for this device */
    GK_CONFIG_CACHE,         /* the user's tuning cache (gktune) */
    GK_CONFIG_USER           /* given by the caller (options.config) */
} gk_config_source;

GK_API const char *gk_config_source_name(gk_config_source s);

/* What a job did, filled by every entry point that takes one (may be NULL
 * there).  Initialise it with gk_report_init. */
typedef struct gk_report {
    size_t struct_size;          /* sizeof(gk_report) (gk_report_init) */
    gk_backend backend;          /* where it ran: GK_BACKEND_CPU or GK_BACKEND_GPU */
    char device[256];            /* "GPU 0: NVIDIA H200" or "CPU: <model> (N threads)" */
    char backend_note[256];      /* why the CPU ran when AUTO found no usable GPU, else "" */
    char config[256];            /* the complete GPU configuration that ran (CPU: its kernel) */
    gk_config_source config_source;
    char config_detail[512];     /* which file or rule it came from */
    int config_ignored;          /* 1: a configuration was given but the job ran on the CPU */
    /* Phase times in seconds (CUDA events on the GPU, the wall clock on the
     * CPU).  A phase that does not exist on the backend that ran (host<->device
     * copies on the CPU), or that was not measured (work on device memory is
     * enqueued, not waited for), holds -1: report it as not applicable, never
     * as 0. */
    double h2d, compute, d2h;
    double check;                /* the reference recomputation (-1: no check) */
    int checked;                 /* 1: compared against an independent reference, equal */
    char check_against[64];      /* "the CPU backend", "the plain CPU loop", ... */
    double check_max_abs, check_max_rel, check_tolerance;   /* stencil; 0 for exact kernels */
    int precision;               /* APSP: the lane width whose result was returned (16 or 32); 0: n/a */
    char precision_detail[128];  /* APSP: why ("16-bit, exact: no distance reached the cap ...") */
    gk_memory memory;            /* where the job's data lived */
    /* Added in 1.2 (read only when struct_size covers them). */
    gk_dtype dtype;              /* the element type the job computed in (APSP: the distance
                                    type that ran); 0: n/a */
    int64_t cycle_vertex;        /* APSP, GK_ENEGCYCLE: a vertex on a negative cycle; else -1 */
} gk_report;

GK_API void gk_report_init(gk_report *r);

/* Remove the temporary files of outputs being written (gk writes a temp
 * file, unnamed where the filesystem allows, else PATH.tmp.X, and renames
 * it onto PATH only when complete).  Async-signal-safe: meant for a
 * SIGINT/SIGTERM handler, so an interrupted program leaves nothing behind. */
GK_API void gk_remove_partial_outputs(void);

#ifdef __cplusplus
}
#endif
#endif /* GK_COMMON_H */
