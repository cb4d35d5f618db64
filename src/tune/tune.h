/* tune.h - the tuner's internals: cache key, cache file, lock, journal,
 * the registry of tunable kernels, and the worker protocol. */
#ifndef GK_TUNE_INTERNAL_H
#define GK_TUNE_INTERNAL_H

#include "core/space.h"

#define GK_CACHE_VERSION 1
#define GK_CACHE_MAX_ENTRIES 64

/* What changes the answer: device name, compute capability, SM count,
 * driver and runtime versions, gk version.  (The kernel-source hash is kept
 * per entry, so one kernel's change re-tunes that kernel only.) */
void gk__tune_key(const gk_device_info *d, char *buf, size_t n);
/* 1 if the comma-separated list (--kernels) names kernel. */
int gk__tune_named(const char *list, const char *kernel);
uint64_t gk__tune_key_hash(const char *key);
/* The device model of a key as a file name: "nvidia-h200-sm90". */
void gk__tune_model(const char *key, char *buf, size_t n);
/* Explain how two keys differ ("driver 13000 -> 13010"), for messages. */
void gk__tune_key_diff(const char *want, const char *have, char *buf, size_t n);

typedef struct gk_cache_entry {
    char kernel[16];
    int64_t size;
    uint64_t source;            /* FNV-1a of the kernel source it was tuned with */
    double ms, default_ms;
    gk_config cfg;              /* complete configuration */
    char when[32];              /* UTC, ISO 8601 */
} gk_cache_entry;

typedef struct gk_cache {
    char key[512];
    int n;
    gk_cache_entry e[GK_CACHE_MAX_ENTRIES];
} gk_cache;

/* dir/tune-<model>.txt: one file per device model, so that a driver, CUDA or
 * gk upgrade finds the old file, reports it stale and re-tunes over it. */
void gk__cache_path(const char *dir, const char *key, char *path, size_t n);

/* ---- the cache directory's files (cachefs.c; the rules: its comment and
 * doc/gktune.1, SECURITY) ---- */
/* The largest files read: a cache or shipped table (64 entries of at most
 * 2 KiB, comments), the journal, a compiled kernel. */
#define GK_CACHE_MAX_BYTES ((int64_t)1 << 20)
#define GK_JOURNAL_MAX_BYTES ((int64_t)64 << 20)
#define GK_CUBIN_MAX_BYTES ((int64_t)256 << 20)
/* What opening or loading a file in the cache directory found. */
enum { GK_CFILE_OK, GK_CFILE_ABSENT, GK_CFILE_REFUSED, GK_CFILE_TOOBIG, GK_CFILE_ERROR, GK_CFILE_DAMAGED };
/* dir, checked (created first, with its missing parents, 0700, when
 * create): a directory, with every directory above it (links resolved)
 * belonging to the user or root; not writable by group or others (one above
 * it may be if it is sticky).  Its resolved path in real[0..n): what the
 * callers use from then on.  GK_EIO when it does not exist, else GK_ECACHE
 * naming dir and what is wrong. */
gk_status gk__cache_dir_check(const char *dir, int create, char *real, size_t n);
/* A directory of the user's inside the cache directory (created 0700; not a
 * link, not writable by others). */
gk_status gk__cache_subdir(const char *path);
/* path opened for reading without following a final link or blocking (a
 * FIFO is refused, not waited on): a regular file (the user's when own) of
 * at most max bytes (max < 0: any), checked before reading; *fd blocks
 * again.  GK_CFILE_OK, or another GK_CFILE_* and one line naming path in
 * gk_last_error(). */
int gk__cache_open_read(const char *path, int own, int64_t max, int *fd, int64_t *size);
/* The whole file by the same rules, NUL-terminated, in *buf (malloc'ed). */
int gk__cache_read_all(const char *path, int own, int64_t max, char **buf, size_t *len);
/* path opened (created 0600) with flags (O_WRONLY, O_RDWR, O_APPEND...),
 * not through a link, not blocking, only if it is a regular file of the
 * user's. */
gk_status gk__cache_open_write(const char *path, int flags, int *fd);
/* data into a temp file beside path (O_CREAT | O_EXCL | O_NOFOLLOW, 0600),
 * synced, then renamed onto path (a link there is replaced, not followed). */
gk_status gk__cache_write_atomic(const char *path, const void *data, size_t n);
/* path (a damaged file) renamed to path.bad, its name in bad[0..n). */
gk_status gk__cache_set_aside(const char *path, char *bad, size_t n);
/* Removes the temp files of writes in progress (async-signal-safe: for a
 * command that must end now). */
void gk__cache_remove_temps(void);

/* A cache or shipped table at path (own: must be the user's), by the rules
 * above, parsed into *c: GK_CFILE_OK, ABSENT, REFUSED (a link, a FIFO,
 * another owner...), TOOBIG (over GK_CACHE_MAX_BYTES, not read), DAMAGED
 * (not a cache of this version: corrupt, truncated, too many entries) or
 * ERROR; the message (naming path) in gk_last_error(). */
int gk__cache_read(const char *path, int own, gk_cache *c);
/* The user's cache: GK_OK; GK_EIO: no file; GK_ECACHE: refused or
 * corrupt (the message says which and where). */
gk_status gk__cache_load(const char *path, gk_cache *c);
/* Atomic (gk__cache_write_atomic); the directory must exist. */
gk_status gk__cache_save(const char *path, const gk_cache *c);
/* Add or replace the entry for (kernel, size). */
void gk__cache_put(gk_cache *c, const gk_cache_entry *e);
/* The entry of kernel whose size is nearest to size (in log scale) among
 * those with this source hash; NULL if none. */
const gk_cache_entry *gk__cache_nearest(const gk_cache *c, const char *kernel, int64_t size, uint64_t source);
/* Exclusive lock on dir/tune.lock (flock; a regular file of the user's,
 * not a link).  GK_ECACHE when another gktune holds it. */
gk_status gk__cache_lock(const char *dir, int *fd);
void gk__cache_unlock(int fd);

/* ---- configuration choice (select.c) ---- */
/* The configuration of `kernel` at `size` on dev: the cache in cache_dir
 * (NULL: none), else the table shipped in data_dir, else defaults; see
 * gk_tune_select. */
gk_status gk__tune_select(const gk_device_info *dev, const char *cache_dir, const char *data_dir,
                          const char *kernel, int64_t size, gk_config *cfg,
                          gk_config_source *src, char *detail, size_t n);
/* The same without the typed shapes: "apsp" is its int32 entry alone (an
 * int32 plan's: apspx winners would make it load an NVRTC variant of the
 * module for kernels it may never launch); other kernels as above. */
gk_status gk__tune_select_int32(const gk_device_info *dev, const char *cache_dir, const char *data_dir,
                                const char *kernel, int64_t size, gk_config *cfg,
                                gk_config_source *src, char *detail, size_t n);
/* What gk would run kernel at size with on dev, short of the built-in
 * default: the entry of the cache in cache_dir and that of the table
 * shipped in data_dir (each when current and usable; either dir may be
 * NULL), distinct, into out; returns how many (0..2).  gktune measures
 * them beside its own candidates, so its winner is never one it measured
 * slower than what it replaces. */
int gk__tune_stored(const gk_device_info *dev, const char *cache_dir, const char *data_dir, const char *kernel,
                    int64_t size, gk_config out[2]);
/* See gk__tune_cache_text; dev NULL: no GPU. */
gk_status gk__tune_cache_describe(const gk_device_info *dev, const char *cache_dir,
                                  char *state, size_t n, char *lines, size_t ln);
/* See gk__tune_options_check. */
gk_status gk__tune_check_options(const gk_tune_options *o);
/* See gk_tune_run: the cache in cache_dir; the shipped tables in data_dir
 * (their entries are candidates too). */
gk_status gk__tune_run(const char *cache_dir, const char *data_dir, const gk_tune_options *o, gk_tune_report *rep);
/* What the calling thread's last gk__tune_run dropped from the cache
 * directory, and why (a damaged cache or journal moved aside to .bad): one
 * line, "" when nothing. */
const char *gk__tune_note(void);

/* ---- the worker's device (device.c) ---- */
/* Select device `ordinal` for this (worker) process and remember its info. */
gk_status gk__tune_set_device(int ordinal);
const gk_device_info *gk__tune_device(void);
/* The worker's compiled variant of the request in progress (the tuner's
 * parent compiles candidates ahead) offered again to the next module load
 * (an offer is used once): a measure or validate function that loads its
 * configuration more than once (one context per element type or size)
 * calls it before each load, else the worker compiles the variant again.
 * Nothing when the request came without one. */
void gk__tune_offer_again(void);
/* The measuring process on device `ordinal` (< 0: none; every request then
 * fails with the reason `why`): reads requests on in_fd, answers on out_fd. */
int gk__tune_worker(int ordinal, const char *why, int in_fd, int out_fd);

/* ---- tunable kernels ---- */
typedef struct gk_tunable {
    const char *kernel;
    const gk_space *space;
    const struct gk_kernel_image *image;   /* kernel source (its hash keys the cache) */
    const char *image_name;                /* the image's name (for offered cubins) */
    int nclasses;
    int64_t classes[4];         /* default size classes */
    const char *size_unit;      /* "vertices", "points per axis" */
    int hidden;                 /* not tuned unless asked for by name */
    /* Worker side: random input of `size`, warm-up, `reps` timed runs; the
     * median and the minimum in ms. */
    gk_status (*measure)(int64_t size, const gk_config *cfg, uint64_t seed, int reps,
                         double *median_ms, double *min_ms);
    /* Worker side: a small odd-sized problem against the CPU reference;
     * GK_EMISMATCH and the reason in gk_last_error() when wrong. */
    gk_status (*validate)(const gk_config *cfg, uint64_t seed);
    /* Worker side: the winner again at the target size: its output on a
     * fresh random input against a trusted result (the CPU where affordable,
     * else the built-in default kernel, itself validated against the CPU). */
    gk_status (*verify)(int64_t size, const gk_config *cfg, uint64_t seed);
} gk_tunable;

int gk__tunable_count(void);
const gk_tunable *gk__tunable_get(int i);
const gk_tunable *gk__tunable_find(const char *kernel);
uint64_t gk__tunable_source_hash(const gk_tunable *t);
/* The configuration t's image is compiled and loaded with for t's
 * complete configuration cfg: cfg itself, or for a tunable of another
 * kernel's image (apspx_*: apsp's) that image's space's defaults with cfg
 * written over them (GK_EINVAL when cfg does not fit that space). */
gk_status gk__tunable_module_config(const gk_tunable *t, const gk_config *cfg, gk_config *module);
/* 1 if a stored configuration (cache line, shipped table) may be used on d:
 * gk__space_check passes; else 0 and the reason in why (select.c). */
int gk__tune_usable(const gk_space *s, const gk_config *cfg, const gk_device_info *d, char *why, size_t n);


/* ---- the tuner's journal ---- */
/* One record: kernel,size,"config",status,median_ms,min_ms,"detail". */
typedef struct gk_journal_rec {
    char kernel[16];
    int64_t size;
    char cfg[512];
    char status[16];           /* ok, compile, launch, wrong, fault, timeout, error */
    double med, min;
} gk_journal_rec;
/* 1 and *r when line is a whole record (up to its detail), 0 for the
 * header lines and for torn or corrupt lines (*r untouched). */
int gk__journal_parse_line(const char *line, gk_journal_rec *r);

/* ---- configuration enumeration ---- */
/* Number of combinations of the space's values (before constraints). */
long gk__space_count(const gk_space *s);
/* The idx-th combination (mixed radix), complete. */
void gk__space_at(const gk_space *s, long idx, gk_config *out);
/* Index of a complete configuration, or -1 if a value is not in the lists. */
long gk__space_index(const gk_space *s, const gk_config *c);


#endif /* GK_TUNE_INTERNAL_H */
