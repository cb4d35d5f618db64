/* gk/common.h - status codes, errors, version, backend choice, timing. */
#ifndef GK_COMMON_H
#define GK_COMMON_H

#include <stddef.h>
#include <stdint.h>

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
const char *gk_strerror(gk_status st);

/* The message of the last failure in the calling thread ("" if none). */
const char *gk_last_error(void);

/* The package version, e.g. "0.1.0". */
const char *gk_version(void);

/* Where a kernel runs. */
typedef enum gk_backend {
    GK_BACKEND_AUTO = 0,  /* the GPU when one is usable, else the CPU */
    GK_BACKEND_CPU,
    GK_BACKEND_GPU
} gk_backend;

/* Parse "auto", "cpu" or "gpu". */
gk_status gk_backend_parse(const char *text, gk_backend *out);
const char *gk_backend_name(gk_backend b);

/* Resolve AUTO: GPU if gk_gpu_usable(), else CPU.  Asking for GPU where none
 * is usable fails with GK_ENODEV and the reason. */
gk_status gk_backend_resolve(gk_backend want, gk_backend *got);

/* GK_ENOMEM ("WHAT needs N GiB of host memory, this machine has M GiB")
 * when bytes exceed the machine's physical memory: with overcommit a malloc
 * that large may "succeed" and the process be killed later instead. */
gk_status gk_host_memory_check(uint64_t bytes, const char *what);

/* Remove the temporary files of outputs being written (gk writes a temp
 * file, unnamed where the filesystem allows, else PATH.tmp.X, and renames
 * it onto PATH only when complete).  Async-signal-safe: meant for
 * a SIGINT/SIGTERM handler, so an interrupted run leaves nothing behind. */
void gk_remove_partial_outputs(void);

/* Check, before any work, that OUT can be written: GK_OK, or a failure
 * naming OUT.  "-" is standard output (fine when open for writing); a
 * device or FIFO is written in place and must be writable; a symlink is
 * checked at the file it points to (which a dangling link may create);
 * otherwise the target's directory must exist and be writable, since a
 * regular output is replaced through a temp file there.  A directory is
 * refused, and so is the input file IN (same device and inode, symlinks
 * followed; "-" means standard input), unless both are one character
 * device such as /dev/null.  IN may be NULL. */
gk_status gk_output_check(const char *out, const char *in);

/* Monotonic wall clock in seconds. */
double gk_wtime(void);

#ifdef __cplusplus
}
#endif
#endif /* GK_COMMON_H */
