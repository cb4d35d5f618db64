/* gk/tune.h - the tuning cache and the choice of kernel configurations. */
#ifndef GK_TUNE_H
#define GK_TUNE_H

#include <gk/common.h>
#include <gk/config.h>
#include <gk/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The default tuning cache directory from the environment: $GK_CACHE_DIR,
 * else $XDG_CACHE_HOME/gk, else ~/.cache/gk (what
 * gk_context_options_from_env uses). */
GK_API gk_status gk_cache_dir(char *buf, size_t n);


/* The configuration a job of `kernel` ("apsp", "stencil") at problem size
 * `size` (APSP: vertices; stencil: points along the largest axis) runs with
 * on the context's first GPU: the user cache, else a shipped table, else the
 * built-in defaults (empty cfg).  Never fails for lack of a cache; *src says
 * which was used and, if detail != NULL, detail says why (e.g. "cache stale:
 * driver changed").  On a CPU context: empty cfg, GK_CONFIG_NONE. */
GK_API gk_status gk_tune_select(gk_context *ctx, const char *kernel, int64_t size, gk_config *cfg,
                         gk_config_source *src, char *detail, size_t n);

/* Check a configuration text against a kernel's tunable description: known
 * names, values in range, the device-independent constraints.  GK_EINVAL
 * naming what is wrong.  full (may be NULL) receives the complete
 * configuration (defaults for what text does not name). */
GK_API gk_status gk_config_validate(const char *kernel, const char *text, gk_config *full);

/* One line of text per cache entry of the current device, and whether the
 * cache is usable ("none yet", "3 entries", "stale: driver changed", ...),
 * for `gk info`.  lines may be NULL. */
GK_API gk_status gk_tune_cache_describe(gk_context *ctx, char *state, size_t n, char *lines, size_t ln);

/* ---- gktune ---------------------------------------------------------- */

typedef struct gk_tune_progress {
    const char *kernel;
    int64_t size;
    int done, total;            /* measurements of this run so far / planned */
    double best_ms;             /* best valid time so far for kernel/size (0: none) */
    double elapsed_s, left_s;   /* wall time so far, estimate of what is left */
} gk_tune_progress;

typedef struct gk_tune_options {
    const char *kernels;        /* "apsp,stencil"; NULL: all */
    const char *sizes;          /* "apsp=4096,16384;stencil=256,512"; NULL: defaults */
    double budget_s;            /* wall-clock budget for the whole run (<= 0: 120) */
    int exhaustive;             /* measure every valid configuration, ignore budget */
    uint64_t seed;              /* random inputs and sampling */
    const char *csv_path;       /* also copy every measurement here; NULL: none */
    char *const *worker_argv;   /* command that runs gk_tune_worker_main (e.g.
                                   {"/proc/self/exe", "--worker", NULL}) */
    void (*progress)(void *user, const gk_tune_progress *p);
    void *user;
} gk_tune_options;

#define GK_TUNE_MAX_RESULTS 16

typedef struct gk_tune_result {
    char kernel[16];
    int64_t size;               /* size class */
    gk_config best;             /* complete configuration */
    double best_ms, default_ms, second_ms;
    int space_size;             /* all combinations of the parameter values */
    int excluded;               /* excluded by constraints before compiling */
    int measured;               /* measured this run or resumed from the journal */
    int resumed;                /* of which from the journal */
    int failed_compile, failed_launch, failed_wrong, failed_fault, failed_timeout;
    char strategy[32];          /* "exhaustive" or "sampled+refined" */
} gk_tune_result;

typedef struct gk_tune_report {
    int n;
    gk_tune_result r[GK_TUNE_MAX_RESULTS];
    char device[256];
    char cache_file[4096];
    char csv_file[4096];
    double seconds;
    int interrupted;
} gk_tune_report;

/* Check the options' kernels, size classes and budget without tuning
 * (GK_EINVAL naming the option): what gk_tune_run checks first. */
GK_API gk_status gk_tune_check_options(const gk_tune_options *o);

/* Tune, validate, and write the winners to the cache.  Fails with GK_ENODEV
 * when there is no GPU, GK_ECACHE when the cache is locked by another run.
 * Runs worker processes (o->worker_argv) and sets SIGPIPE to ignored, so that
 * a worker that dies is reported instead of killing the caller. */
GK_API gk_status gk_tune_run(gk_context *ctx, const gk_tune_options *o, gk_tune_report *rep);

/* Ask a running gk_tune_run to stop after the current measurement (signal
 * safe); the journal keeps what was measured. */
GK_API void gk_tune_interrupt(void);

/* The measuring process, on the context's first GPU (a context without one
 * answers every request with the reason): reads requests on in_fd, answers
 * on out_fd.  The worker command of gk_tune_options runs this, with a context
 * made the same way as the tuning run's. */
GK_API int gk_tune_worker_main(gk_context *ctx, int in_fd, int out_fd);

/* The search spaces as text (for `gktune --list`; needs no GPU): of the
 * kernels the comma-separated list names (as gk_tune_options.kernels), or
 * of every kernel (test kernels marked) when it is NULL or empty. */
GK_API gk_status gk_tune_list_spaces(const char *kernels, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GK_TUNE_H */
