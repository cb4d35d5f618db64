/* gk/common.h - status codes, errors, version, backend choice, timing. */
#ifndef GK_COMMON_H
#define GK_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* GK_API marks the documented entry points: libgk is built with
 * -fvisibility=hidden, so these and nothing else are exported. */
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
    GK_EINTERNAL     /* a bug in gk */
} gk_status;

/* A short name for a status ("invalid argument", ...). */
GK_API const char *gk_strerror(gk_status st);

/* The message of the last failure in the calling thread ("" if none). */
GK_API const char *gk_last_error(void);

/* The package version, e.g. "0.1.0". */
GK_API const char *gk_version(void);

/* Where a kernel runs. */
typedef enum gk_backend {
    GK_BACKEND_AUTO = 0,  /* the GPU when one is usable, else the CPU */
    GK_BACKEND_CPU,
    GK_BACKEND_GPU
} gk_backend;

/* Parse "auto", "cpu" or "gpu". */
GK_API gk_status gk_backend_parse(const char *text, gk_backend *out);
GK_API const char *gk_backend_name(gk_backend b);

/* GK_ENOMEM ("WHAT needs N GiB of host memory, this machine has M GiB")
 * when bytes exceed the machine's physical memory: with overcommit a malloc
 * that large may "succeed" and the process be killed later instead. */
GK_API gk_status gk_host_memory_check(uint64_t bytes, const char *what);

/* Remove the temporary files of outputs being written (gk writes a temp
 * file, unnamed where the filesystem allows, else PATH.tmp.X, and renames
 * it onto PATH only when complete).  Async-signal-safe: meant for
 * a SIGINT/SIGTERM handler, so an interrupted run leaves nothing behind. */
GK_API void gk_remove_partial_outputs(void);

/* Check, before any work, that OUT can be written: GK_OK, or a failure
 * naming OUT.  "-" is standard output (fine when open for writing); a
 * device or FIFO is written in place and must be writable; a symlink is
 * checked at the file it points to (which a dangling link may create);
 * otherwise the target's directory must exist and be writable, since a
 * regular output is replaced through a temp file there.  A directory is
 * refused, and so is the input file IN (same device and inode, symlinks
 * followed; "-" means standard input), unless both are one character
 * device such as /dev/null.  IN may be NULL. */
GK_API gk_status gk_output_check(const char *out, const char *in);

/* Monotonic wall clock in seconds. */
GK_API double gk_wtime(void);

/* Where a kernel configuration came from. */
typedef enum gk_config_source {
    GK_CONFIG_NONE = 0,      /* no GPU kernel ran (a CPU run) */
    GK_CONFIG_DEFAULT,       /* built-in defaults of the kernel's tunable description */
    GK_CONFIG_SHIPPED,       /* a table shipped in data/ for this device */
    GK_CONFIG_CACHE,         /* the user's tuning cache (gktune) */
    GK_CONFIG_USER           /* given by the caller (gk --config) */
} gk_config_source;

GK_API const char *gk_config_source_name(gk_config_source s);

/* What a job did, filled by every one-call-per-job entry point
 * (gk_apsp_solve, gk_stencil_run, ...). */
typedef struct gk_report {
    gk_backend backend;          /* where it ran: GK_BACKEND_CPU or GK_BACKEND_GPU */
    char device[256];            /* "GPU 0: NVIDIA H200" or "CPU: <model> (N threads)" */
    char backend_note[256];      /* why the CPU ran when AUTO found no usable GPU, else "" */
    char config[256];            /* the complete GPU configuration that ran (CPU: its kernel) */
    gk_config_source config_source;
    char config_detail[512];     /* which file or rule it came from */
    int config_ignored;          /* 1: a configuration was given but the job ran on the CPU */
    /* Phase times in seconds (CUDA events on the GPU, the wall clock on the
     * CPU).  A phase that does not exist on the backend that ran (host<->device
     * copies on the CPU) holds -1: report it as not applicable, never as 0. */
    double h2d, compute, d2h;
    double check;                /* the reference recomputation (-1: no check) */
    int checked;                 /* 1: compared against an independent reference, equal */
    char check_against[64];      /* "the CPU backend", "the plain CPU loop", ... */
    double check_max_abs, check_max_rel, check_tolerance;   /* stencil; 0 for exact kernels */
    int precision;               /* APSP: the lane width whose result was returned (16 or 32); 0: n/a */
    char precision_detail[128];  /* APSP: why ("16-bit, exact: no distance reached the cap ...") */
} gk_report;

#ifdef __cplusplus
}
#endif
#endif /* GK_COMMON_H */
