/* gk/tune.h - the tuning cache and the choice of kernel configurations. */
#ifndef GK_TUNE_H
#define GK_TUNE_H

#include <gk/common.h>
#include <gk/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The default tuning cache directory from the environment: $GK_CACHE_DIR,
 * else $XDG_CACHE_HOME/gk, else ~/.cache/gk (what
 * gk_context_options_from_env uses). */
GK_API gk_status gk_cache_dir(char *buf, size_t n);


/* A kernel configuration is text: "NAME=VALUE,..." (the kernel source's
 * macros; the pseudo-parameter MAXRREG is passed to the compiler as
 * --maxrregcount, 0 = no limit).  A parameter that is absent takes the
 * kernel's built-in default. */

/* The configuration a job of `kernel` ("apsp", "stencil", "gemm",
 * "elementwise") at problem size `size` (APSP: vertices; stencil: points
 * along the largest axis; gemm: the largest of m, n, k; elementwise: the
 * element count) runs with on the context's first GPU: the user cache, else
 * a shipped table, else the built-in defaults (""), as text in config[0..n).
 * Never fails for lack of a cache; *src says which was used and, if detail
 * != NULL, detail[0..dn) says why (e.g. "cache stale: driver changed").  On
 * a CPU context: "", GK_CONFIG_NONE. */
GK_API gk_status gk_tune_select(gk_context *ctx, const char *kernel, int64_t size, char *config, size_t n,
                                gk_config_source *src, char *detail, size_t dn);

/* Check a configuration text against a kernel's tunable description: known
 * names, values in range, the device-independent constraints.  GK_EINVAL
 * naming what is wrong.  full (may be NULL) receives the complete
 * configuration (defaults for what text does not name) in full[0..n). */
GK_API gk_status gk_config_validate(const char *kernel, const char *text, char *full, size_t n);

/* ---- gktune ---------------------------------------------------------- */

/* Passed to the progress callback (library-owned; struct_size: the running
 * libgk's). */
typedef struct gk_tune_progress {
    size_t struct_size;
    const char *kernel;
    int64_t size;
    int done, total;            /* measurements of this run so far / planned */
    double best_ms;             /* best valid time so far for kernel/size (0: none) */
    double elapsed_s, left_s;   /* wall time so far, estimate of what is left */
} gk_tune_progress;

typedef struct gk_tune_options {
    size_t struct_size;         /* sizeof(gk_tune_options) (gk_tune_options_init) */
    const char *kernels;        /* "apsp,stencil"; NULL: all */
    const char *sizes;          /* "apsp=4096,16384;stencil=256,512"; NULL: defaults */
    double budget_s;            /* wall-clock budget for the whole run (<= 0: 120) */
    int exhaustive;             /* measure every valid configuration, ignore budget */
    uint64_t seed;              /* random inputs and sampling */
    const char *csv_path;       /* also copy every measurement here; NULL: none */
    char *const *worker_argv;   /* the command that runs the measuring process (each
                                   measurement runs in a process of its own, so that a
                                   kernel that faults cannot take the tuner down):
                                   {"gktune", "--worker", NULL} with the path of the
                                   installed gktune; NULL: that, from gk's bindir */
    void (*progress)(void *user, const gk_tune_progress *p);
    void *user;
} gk_tune_options;

GK_API void gk_tune_options_init(gk_tune_options *o);

#define GK_TUNE_MAX_RESULTS 16

typedef struct gk_tune_result {
    char kernel[16];
    int64_t size;               /* size class */
    char best[512];             /* the complete configuration */
    double best_ms, default_ms, second_ms;
    int space_size;             /* all combinations of the parameter values */
    int excluded;               /* excluded by constraints before compiling */
    int measured;               /* measured this run or resumed from the journal */
    int resumed;                /* of which from the journal */
    int failed_compile, failed_launch, failed_wrong, failed_fault, failed_timeout;
    char strategy[32];          /* "exhaustive" or "sampled+refined" */
} gk_tune_result;

typedef struct gk_tune_report {
    size_t struct_size;         /* sizeof(gk_tune_report) (gk_tune_report_init) */
    int n;
    gk_tune_result r[GK_TUNE_MAX_RESULTS];
    char device[256];
    char cache_file[4096];
    char csv_file[4096];
    double seconds;
    int interrupted;
} gk_tune_report;

GK_API void gk_tune_report_init(gk_tune_report *r);

/* Tune, validate, and write the winners to the cache.  Checks the options
 * first (GK_EINVAL naming the kernel, size class or budget at fault).  Fails
 * with GK_ENODEV when there is no GPU, GK_ECACHE when the cache is locked by
 * another run or unsafe (a directory others can write, a link, a FIFO or
 * another user's file in it: see gktune(1), SECURITY).  A damaged cache is
 * moved aside to FILE.bad and replaced.
 * Runs worker processes (o->worker_argv) and sets SIGPIPE to ignored, so that
 * a worker that dies is reported instead of killing the caller. */
GK_API gk_status gk_tune_run(gk_context *ctx, const gk_tune_options *o, gk_tune_report *rep);

/* Ask a running gk_tune_run to stop now (async-signal-safe, or from
 * another thread): the measurement in progress is abandoned and its worker
 * process killed (compiles already started finish first); the journal keeps
 * what was measured, and the report says interrupted.  Process-wide (a
 * signal handler knows no context): it stops every gk_tune_run running in
 * the process, and the next gk_tune_run starts afresh. */
GK_API void gk_tune_interrupt(void);

/* The search spaces as text (for `gktune --list`; needs no GPU): of the
 * kernels the comma-separated list names (as gk_tune_options.kernels), or
 * of every kernel (test kernels marked) when it is NULL or empty. */
GK_API gk_status gk_tune_list_spaces(const char *kernels, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GK_TUNE_H */
