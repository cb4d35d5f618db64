/* gk/tune.h - the tuning cache and the choice of kernel configurations. */
#ifndef GK_TUNE_H
#define GK_TUNE_H

#include <gk/common.h>
#include <gk/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tuning cache directory: $GK_CACHE_DIR, else $XDG_CACHE_HOME/gk, else
 * ~/.cache/gk. */
gk_status gk_cache_dir(char *buf, size_t n);

/* The directory of the shipped tuning tables (tuned/<model>.txt): $GK_DATA_DIR, else the installed $(pkgdatadir). */
const char *gk_data_dir(void);

/* Where a configuration came from. */
typedef enum gk_config_source {
    GK_CONFIG_DEFAULT = 0,   /* built-in defaults of the kernel source */
    GK_CONFIG_SHIPPED,       /* a table shipped in data/ for this device */
    GK_CONFIG_CACHE,         /* the user's tuning cache (gktune) */
    GK_CONFIG_USER           /* --config on the command line */
} gk_config_source;

const char *gk_config_source_name(gk_config_source s);

/* The configuration gk uses for `kernel` ("apsp", "stencil") at problem size
 * `size` (APSP: vertices; stencil: points along the largest axis) on the
 * current GPU: user cache, else shipped table, else built-in defaults (empty
 * cfg).  Never fails for lack of a cache; *src says which was used and, if
 * detail != NULL, detail says why (e.g. "cache stale: driver changed"). */
gk_status gk_tune_select(const char *kernel, int64_t size, gk_config *cfg,
                         gk_config_source *src, char *detail, size_t n);

/* One line of text per cache entry of the current device, and whether the
 * cache is usable ("none yet", "3 entries", "stale: driver changed", ...),
 * for `gk info`.  lines may be NULL. */
gk_status gk_tune_cache_describe(char *state, size_t n, char *lines, size_t ln);

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

/* Tune, validate, and write the winners to the cache.  Fails with GK_ENODEV
 * when there is no GPU, GK_ECACHE when the cache is locked by another run.
 * Runs worker processes (o->worker_argv) and sets SIGPIPE to ignored, so that
 * a worker that dies is reported instead of killing the caller. */
gk_status gk_tune_run(const gk_tune_options *o, gk_tune_report *rep);

/* Ask a running gk_tune_run to stop after the current measurement (signal
 * safe); the journal keeps what was measured. */
void gk_tune_interrupt(void);

/* The measuring process: reads requests on in_fd, answers on out_fd. */
int gk_tune_worker_main(int in_fd, int out_fd);

/* The search spaces as text (for `gktune --list`; needs no GPU). */
gk_status gk_tune_list_spaces(char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* GK_TUNE_H */
