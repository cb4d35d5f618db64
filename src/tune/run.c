/* run.c - gk_tune_run: the search.
 *
 * For each kernel: enumerate its space and drop what the constraints exclude
 * for this device; measure every remaining configuration when there are few
 * (exhaustive), else a random sample refined by local search around the best
 * (one parameter one step at a time) while the budget lasts.  Candidates are
 * compiled by NVRTC in parallel threads here, validated against the CPU and
 * timed in the worker process on the smallest size class; the best few and the
 * default are then timed on each larger class, and each class's winner is
 * verified again at that size before it goes into the cache.  What gk runs
 * now (the user's cache entry, the shipped table's) is measured on each
 * class as well, so the winner is never one measured slower than what it
 * replaces.  Every result is appended to a journal first, so an
 * interrupted run resumes.
 *
 * Everything in the cache directory is read and written by the rules of
 * cachefs.c; a damaged cache or journal is moved aside (.bad) and said in
 * the run's note (gk__tune_note), one that gk must not touch (a link, a
 * FIFO, another user's file) stops the run.  An interruption
 * (gk_tune_interrupt) abandons the measurement in flight: its worker is
 * killed at once, and nothing half-measured is recorded. */
#include "tune/worker.h"
#include "core/io.h"
#include "core/rng.h"
#ifdef GK_HAVE_CUDA
#include "gpu/gpu.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EXHAUSTIVE_MAX 40      /* spaces this small are measured whole */
#define SAMPLE 24              /* initial random sample otherwise */
#define TOP_K 4                /* carried to the larger size classes */
#define MEASURE_TIMEOUT_S 180.0

/* gk_tune_interrupt's request: process-wide by design (a signal handler
 * knows no run), so it stops every gk_tune_run of the process.  A lock-free
 * atomic: set from a handler or another thread, read by the compile
 * threads, without a data race. */
static atomic_int stop_flag;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "gk_tune_interrupt must be async-signal-safe");

void gk_tune_interrupt(void)
{
    atomic_store(&stop_flag, 1);
    gk__worker_wake();             /* a wait on the worker returns now */
}

/* What the last run dropped, and why (one line; "" when nothing). */
static _Thread_local char run_note[1024];

const char *gk__tune_note(void) { return run_note; }

static void add_note(const char *text)
{
    size_t l = strlen(run_note);
    const char *parts[2] = { l ? "; " : "", text };
    for (int k = 0; k < 2; k++)        /* cut at the buffer's end */
        for (const char *p = parts[k]; *p && l + 1 < sizeof run_note; p++)
            run_note[l++] = *p;
    run_note[l] = '\0';
}

/* "fail interrupted": the worker's answer to a request cut short. */
static int interrupted(const char *answer)
{
    return !strncmp(answer, "fail interrupted", 16);
}

typedef struct meas {
    char kernel[16];
    int64_t size;
    char cfg[512];
    char status[16];           /* ok, compile, launch, wrong, fault, timeout, error */
    double med, min;
    int resumed;
} meas;

typedef struct tuner {
    const gk_tune_options *o;
    gk_tune_report *rep;
    gk_worker w;
    gk_device_info dev;
    char key[512], dir[4096], journal[4200], tmpdir[4200];
    const char *data_dir;          /* the shipped tables (NULL: none) */
    FILE *jf;
    meas *m;
    int nm, cap;
    double t0, budget;
    int done, total;
    uint64_t rng;
} tuner;

/* ---------------------------------------------------------------- journal */

static meas *find(tuner *T, const char *kernel, int64_t size, const char *cfg)
{
    for (int i = 0; i < T->nm; i++)
        if (T->m[i].size == size && !strcmp(T->m[i].kernel, kernel) && !strcmp(T->m[i].cfg, cfg))
            return &T->m[i];
    return NULL;
}

static meas *add(tuner *T, const meas *x)
{
    if (T->nm == T->cap) {
        int cap = T->cap ? 2 * T->cap : 256;
        meas *m = realloc(T->m, (size_t)cap * sizeof *m);
        if (!m) return NULL;
        T->m = m;
        T->cap = cap;
    }
    T->m[T->nm] = *x;
    return &T->m[T->nm++];
}

static void journal_append(tuner *T, const meas *x, const char *detail)
{
    char d[512];
    size_t j = 0;
    for (size_t i = 0; detail[i] && j + 1 < sizeof d; i++)
        d[j++] = detail[i] == '"' ? '\'' : detail[i];
    d[j] = '\0';
    fprintf(T->jf, "%s,%lld,\"%s\",%s,%.6f,%.6f,\"%s\"\n", x->kernel, (long long)x->size, x->cfg,
            x->status, x->med, x->min, d);
    fflush(T->jf);
    fsync(fileno(T->jf));
}

/* A damaged file of the cache directory (gk_last_error() says why) moved
 * aside to path.bad, and said in the run's note. */
static gk_status drop(const char *path, const char *what)
{
    char why[1024], bad[4300], note[1024];
    snprintf(why, sizeof why, "%s", gk_last_error());
    gk_status st = gk__cache_set_aside(path, bad, sizeof bad);
    if (st) return st;
    snprintf(note, sizeof note, "dropped %s (%.500s); it is kept as %.400s", what, why, bad);
    add_note(note);
    gk__clear_error();
    return GK_OK;
}

/* Reads back a journal of the same key; another key's journal is dropped. */
static gk_status journal_open(tuner *T)
{
    char keyline[800];
    /* the key plus the kernel sources: a journal of changed kernels is stale */
    int len = snprintf(keyline, sizeof keyline, "# key: %s sources=", T->key);
    for (int i = 0; i < gk__tunable_count() && len > 0 && len < (int)sizeof keyline; i++)
        len += snprintf(keyline + len, sizeof keyline - (size_t)len, "%s%s:%016llx", i ? "," : "",
                        gk__tunable_get(i)->kernel, (unsigned long long)gk__tunable_source_hash(gk__tunable_get(i)));
    char *text = NULL;
    size_t tlen = 0;
    int fresh = 1, torn = 0;
    int r = gk__cache_read_all(T->journal, 1, GK_JOURNAL_MAX_BYTES, &text, &tlen);
    if (r == GK_CFILE_TOOBIG) {
        gk_status st = drop(T->journal, "the tuner's journal");
        if (st) return st;
    } else if (r != GK_CFILE_OK && r != GK_CFILE_ABSENT) {
        return GK_ECACHE;                          /* a link, a FIFO, another user's: refused */
    } else if (r == GK_CFILE_OK) {
        /* its lines (a NUL ends a line's text: such a line is no record) */
        int first = 1, same = 0, ends_line = tlen && text[tlen - 1] == '\n';
        for (char *line = text, *end = text + tlen; line < end;) {
            char *nl = memchr(line, '\n', (size_t)(end - line));
            char *next = nl ? nl + 1 : end;
            if (nl) *nl = '\0';
            else *end = '\0';                      /* (text has a NUL after its end) */
            if (first) {
                same = !strcmp(line, keyline);
                first = 0;
                if (!same) break;
            } else {
                meas x = { 0 };
                gk_journal_rec jr;
                if (strlen(line) < 2048 && gk__journal_parse_line(line, &jr)) {
                    memcpy(x.kernel, jr.kernel, sizeof x.kernel);
                    memcpy(x.cfg, jr.cfg, sizeof x.cfg);
                    memcpy(x.status, jr.status, sizeof x.status);
                    x.size = jr.size;
                    x.med = jr.med;
                    x.min = jr.min;
                    x.resumed = 1;
                    meas *old = find(T, x.kernel, x.size, x.cfg);
                    if (old) *old = x; else add(T, &x);
                }                                      /* else a header or a torn last line */
            }
            line = next;
        }
        if (same) {
            fresh = 0;
            torn = !ends_line;
        } else {
            unlink(T->journal);                     /* another key's (unlink follows no link) */
        }
    }
    free(text);
    gk__clear_error();
    int fd;
    gk_status st = gk__cache_open_write(T->journal, O_WRONLY | O_APPEND, &fd);
    if (st) return st;
    if (!(T->jf = fdopen(fd, "a"))) {
        close(fd);
        return gk__fail(GK_ECACHE, "%s: %s", T->journal, strerror(errno));
    }
    if (fresh)
        fprintf(T->jf, "%s\nkernel,size,config,status,median_ms,min_ms,detail\n", keyline);
    else if (torn)                     /* a torn last line: end it, so the next record stands alone */
        fputc('\n', T->jf);
    fflush(T->jf);
    return GK_OK;
}

/* ---------------------------------------------------------------- compile */

/* Where the cubin of kernel with configuration text cfg is kept during a run. */
static void cubin_path(const tuner *T, const char *kernel, const char *cfg, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s-%016llx.cubin", T->tmpdir, kernel, (unsigned long long)gk__fnv1a64(cfg, strlen(cfg)));
}

typedef struct compile_job {
    tuner *T;
    const gk_tunable *t;
    gk_config *cfgs;
    char (*paths)[4300];
    gk_status *st;
    char (*msg)[512];
    int n;
    int next;
    pthread_mutex_t lock;
} compile_job;

#ifdef GK_HAVE_CUDA
static void *compile_thread(void *arg)
{
    compile_job *J = arg;
    for (;;) {
        pthread_mutex_lock(&J->lock);
        int i = J->next++;
        pthread_mutex_unlock(&J->lock);
        if (i >= J->n || stop_flag)
            return NULL;
        void *cubin = NULL;
        size_t size = 0;
        gk_config mc;          /* what the image is compiled with (apspx_*: apsp's configuration) */
        J->st[i] = gk__tunable_module_config(J->t, &J->cfgs[i], &mc);
        if (J->st[i] == GK_OK)
            J->st[i] = gk__nvrtc_compile(J->t->image, J->t->space, &mc, J->T->dev.cc_major,
                                         J->T->dev.cc_minor, &cubin, &size, NULL, 0);
        if (J->st[i] == GK_OK) {
            J->st[i] = gk__cache_write_atomic(J->paths[i], cubin, size);
            free(cubin);
        }
        if (J->st[i]) snprintf(J->msg[i], sizeof J->msg[i], "%s", gk_last_error());
    }
}
#endif

/* Compile the configurations not yet measured, in parallel; failures are
 * recorded (status "compile") at once.  paths[i] = "" for the default and
 * for those not compiled. */
static void compile_batch(tuner *T, const gk_tunable *t, gk_config *cfgs, int n, int64_t size,
                          char (*paths)[4300])
{
    compile_job J = { T, t, NULL, NULL, NULL, NULL, 0, 0, PTHREAD_MUTEX_INITIALIZER };
    int *map = malloc((size_t)n * sizeof *map);
    J.cfgs = malloc((size_t)n * sizeof *J.cfgs);
    J.paths = malloc((size_t)n * sizeof *J.paths);
    J.st = calloc((size_t)n, sizeof *J.st);
    J.msg = calloc((size_t)n, sizeof *J.msg);
    for (int i = 0; i < n; i++) {
        char c[512];
        paths[i][0] = '\0';
        gk__config_format(&cfgs[i], c, sizeof c);
        if (!map || !J.cfgs || !J.paths || !J.st || !J.msg || gk__space_is_default(t->space, &cfgs[i])
            || find(T, t->kernel, size, c))
            continue;
        cubin_path(T, t->kernel, c, paths[i], sizeof paths[i]);
        struct stat sb;
        if (lstat(paths[i], &sb) == 0 && S_ISREG(sb.st_mode))
            continue;                                  /* compiled for another class */
        map[J.n] = i;
        J.cfgs[J.n] = cfgs[i];
        snprintf(J.paths[J.n], sizeof J.paths[J.n], "%s", paths[i]);
        J.n++;
    }
#ifdef GK_HAVE_CUDA
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int nth = ncpu > 1 ? (int)(ncpu < 32 ? ncpu : 32) : 1;
    pthread_t th[32];
    int started = 0;
    for (int k = 0; k < nth && k < J.n; k++)
        started += pthread_create(&th[started], NULL, compile_thread, &J) == 0;
    if (!started) compile_thread(&J);
    for (int k = 0; k < started; k++)
        pthread_join(th[k], NULL);
#endif
    for (int j = 0; j < J.n; j++) {
        if (J.st[j] == GK_OK && !stop_flag)
            continue;
        int i = map[j];
        meas x = { 0 };
        snprintf(x.kernel, sizeof x.kernel, "%s", t->kernel);
        x.size = size;
        gk__config_format(&cfgs[i], x.cfg, sizeof x.cfg);
        paths[i][0] = '\0';
        if (stop_flag && J.st[j] == GK_OK) continue;   /* not compiled: measure later */
        snprintf(x.status, sizeof x.status, "%s", J.st[j] == GK_ECOMPILE ? "compile" : "error");
        if (add(T, &x)) journal_append(T, &x, J.msg[j]);
    }
    free(map); free(J.cfgs); free(J.paths); free(J.st); free(J.msg);
}

/* ---------------------------------------------------------------- measure */

static void progress(tuner *T, const gk_tunable *t, int64_t size)
{
    if (!T->o->progress) return;
    gk_tune_progress p = { sizeof p, t->kernel, size, T->done, T->total, 0, gk__wtime() - T->t0, 0 };
    for (int i = 0; i < T->nm; i++)
        if (T->m[i].size == size && !strcmp(T->m[i].kernel, t->kernel) && !strcmp(T->m[i].status, "ok")
            && (p.best_ms == 0 || T->m[i].med < p.best_ms))
            p.best_ms = T->m[i].med;
    double per = T->done ? p.elapsed_s / T->done : 1.0;
    p.left_s = (T->total - T->done) * per;
    if (!T->o->exhaustive && p.left_s > T->budget - p.elapsed_s) p.left_s = fmax(0, T->budget - p.elapsed_s);
    T->o->progress(T->o->user, &p);
}

static const meas *measure(tuner *T, const gk_tunable *t, int64_t size, const gk_config *cfg,
                           const char *cubin, int validate)
{
    meas x = { 0 };
    snprintf(x.kernel, sizeof x.kernel, "%s", t->kernel);
    x.size = size;
    gk__config_format(cfg, x.cfg, sizeof x.cfg);
    meas *old = find(T, t->kernel, size, x.cfg);
    if (old) return old;
    if (stop_flag) return NULL;
    char req[2048], ans[2048];
    int reps = size == t->classes[0] ? 5 : 3;
    snprintf(req, sizeof req, "measure %s %lld %d %llu %d %s %s", t->kernel, (long long)size, reps,
             (unsigned long long)T->o->seed, validate, x.cfg[0] ? x.cfg : "-", cubin && *cubin ? cubin : "-");
    if (gk__worker_request(&T->w, req, MEASURE_TIMEOUT_S, ans, sizeof ans) || interrupted(ans))
        return NULL;                   /* (interrupted: nothing half-measured is recorded) */
    const char *detail = "";
    if (sscanf(ans, "ok %lf %lf", &x.med, &x.min) == 2) {
        snprintf(x.status, sizeof x.status, "ok");
    } else if (sscanf(ans, "fail %15s", x.status) == 1) {
        detail = ans + 5 + strlen(x.status);
        detail += *detail == ' ';
    } else {
        snprintf(x.status, sizeof x.status, "error");
        detail = ans;
    }
    meas *m = add(T, &x);
    if (m) journal_append(T, m, detail);
    T->done++;
    progress(T, t, size);
    return m;
}

/* Compile then measure a list of complete configurations at size. */
static void measure_list(tuner *T, const gk_tunable *t, gk_config *cfgs, int n, int64_t size, int validate)
{
    char (*paths)[4300] = malloc((size_t)(n ? n : 1) * sizeof *paths);
    if (!paths) return;
    compile_batch(T, t, cfgs, n, size, paths);
    for (int i = 0; i < n && !stop_flag; i++)
        measure(T, t, size, &cfgs[i], paths[i], validate);
    free(paths);
}

static int cmp_meas(const void *a, const void *b)
{
    const meas *x = *(const meas *const *)a, *y = *(const meas *const *)b;
    return (x->med > y->med) - (x->med < y->med);
}

/* The valid measurements of kernel at size, fastest first; returns count. */
static int ranking(tuner *T, const char *kernel, int64_t size, const meas **out, int max)
{
    int n = 0;
    for (int i = 0; i < T->nm && n < max; i++)
        if (T->m[i].size == size && !strcmp(T->m[i].kernel, kernel) && !strcmp(T->m[i].status, "ok"))
            out[n++] = &T->m[i];
    qsort(out, (size_t)n, sizeof *out, cmp_meas);
    return n;
}

/* ---------------------------------------------------------------- a kernel */

/* 1 if c is among list[0..n-1]. */
static int listed(const gk_config *list, int n, const gk_config *c)
{
    for (int i = 0; i < n; i++)
        if (!memcmp(&list[i], c, sizeof *c))
            return 1;
    return 0;
}

/* The stored configurations gk would run t at size with (gk__tune_stored)
 * that are not among have[0..nhave-1], appended at have[nhave]; returns
 * how many (0..2).  Each is completed with the space's defaults first, as
 * gk completes it before it runs: an entry may name fewer parameters than
 * the space has (one written before a parameter was added, its source
 * hash then moved with cubins shown identical), and the candidates are
 * compiled here as they are listed (an incomplete one failed to compile:
 * the kernel has no defaults of its own). */
static int stored_candidates(tuner *T, const gk_tunable *t, int64_t size, gk_config *have, int nhave)
{
    gk_config now[2], full;
    int n = gk__tune_stored(&T->dev, T->dir, T->data_dir, t->kernel, size, now), added = 0;
    for (int i = 0; i < n; i++)
        if (gk__space_complete(t->space, &now[i], &full) == GK_OK && !listed(have, nhave + added, &full))
            have[nhave + added++] = full;
    gk__clear_error();
    return added;
}

static gk_status tune_kernel(tuner *T, const gk_tunable *t, const int64_t *classes, int nclasses, int kernels_left)
{
    const gk_space *s = t->space;
    long N = gk__space_count(s);
    long *valid = malloc((size_t)N * sizeof *valid);
    gk_config *list = malloc((size_t)(N + 3) * sizeof *list);
    const meas **rank = malloc((size_t)(N + 8) * sizeof *rank);
    int nvalid = 0, nlist = 0;
    gk_status st = GK_OK;
    if (!valid || !list || !rank) { st = gk__fail(GK_ENOMEM, "tuner: out of memory"); goto out; }
    char why[256];
    for (long i = 0; i < N; i++) {
        gk_config c;
        gk__space_at(s, i, &c);
        if (!s->reject || !s->reject(&c, &T->dev, why, sizeof why))
            valid[nvalid++] = i;
    }
    gk_config def;
    gk__space_complete(s, NULL, &def);
    int exhaustive = T->o->exhaustive || nvalid <= EXHAUSTIVE_MAX;
    /* This kernel's share of what is left; the search proper gets 60% of it,
     * the rest is for the larger size classes and the verification. */
    double now = gk__wtime(), share = (T->t0 + T->budget - now) / kernels_left;
    double kbudget_end = now + 0.6 * (share > 0 ? share : 0);
    int64_t c0 = classes[0];

    /* 1. the first (smallest) class: default, what gk runs now, and all or
     * a sample */
    list[nlist++] = def;
    nlist += stored_candidates(T, t, c0, list, nlist);
    if (exhaustive) {
        for (int i = 0; i < nvalid; i++) gk__space_at(s, valid[i], &list[nlist++]);
    } else {
        long *pool = malloc((size_t)nvalid * sizeof *pool);
        if (!pool) { st = gk__fail(GK_ENOMEM, "tuner: out of memory"); goto out; }
        memcpy(pool, valid, (size_t)nvalid * sizeof *pool);
        for (int i = 0; i < SAMPLE && i < nvalid; i++) {      /* partial Fisher-Yates */
            long j = i + (long)gk__rand_below(T->o->seed ^ 0x5a5a, T->rng++, (uint64_t)(nvalid - i));
            long tmp = pool[i]; pool[i] = pool[j]; pool[j] = tmp;
            gk__space_at(s, pool[i], &list[nlist++]);
        }
        free(pool);
    }
    T->total += nlist + (nclasses - 1) * (TOP_K + 1);
    measure_list(T, t, list, nlist, c0, 1);

    /* 2. local refinement around the best three */
    while (!exhaustive && !stop_flag && gk__wtime() < kbudget_end) {
        int nr = ranking(T, t->kernel, c0, rank, (int)N + 8);
        nlist = 0;
        for (int r = 0; r < nr && r < 3; r++) {
            gk_config base;
            if (gk__config_parse(rank[r]->cfg, (gk__config_clear(&base), &base))) continue;
            long bi = gk__space_index(s, &base);
            if (bi < 0) continue;
            long mul = 1;
            for (int j = 0; j < s->nparams; j++) {
                int nv = s->params[j].nvalues;
                long k = (bi / mul) % nv;
                for (int d = -1; d <= 1; d += 2) {
                    if (k + d < 0 || k + d >= nv) continue;
                    long ni = bi + d * mul;
                    gk_config c;
                    char cs[512];
                    gk__space_at(s, ni, &c);
                    gk__config_format(&c, cs, sizeof cs);
                    if (find(T, t->kernel, c0, cs) || (s->reject && s->reject(&c, &T->dev, why, sizeof why)))
                        continue;
                    if (!listed(list, nlist, &c) && nlist < (int)N) list[nlist++] = c;
                }
                mul *= nv;
            }
        }
        if (!nlist) break;
        T->total += nlist;
        measure_list(T, t, list, nlist, c0, 1);
    }

    /* 3. the best few and the default on the larger classes */
    int nr = ranking(T, t->kernel, c0, rank, (int)N + 8);
    nlist = 0;
    list[nlist++] = def;
    for (int r = 0; r < nr && nlist <= TOP_K; r++) {
        gk_config c;
        gk__config_clear(&c);
        if (gk__config_parse(rank[r]->cfg, &c) == GK_OK && memcmp(&c, &def, sizeof c))
            list[nlist++] = c;
    }
    for (int ci = 1; ci < nclasses && !stop_flag; ci++) {
        measure_list(T, t, list, nlist, classes[ci], 0);
        gk_config cur[2];
        int nn = stored_candidates(T, t, classes[ci], cur, 0);
        T->total += nn;
        measure_list(T, t, cur, nn, classes[ci], 1);   /* (one measured already is not measured again) */
    }

    /* 4. per class: the winner, verified at that size, into the report */
    for (int ci = 0; ci < nclasses && !stop_flag && T->rep->n < GK_TUNE_MAX_RESULTS; ci++) {
        int64_t size = classes[ci];
        gk_tune_result *R = &T->rep->r[T->rep->n];
        memset(R, 0, sizeof *R);
        snprintf(R->kernel, sizeof R->kernel, "%s", t->kernel);
        snprintf(R->strategy, sizeof R->strategy, "%s", exhaustive ? "exhaustive" : "sampled+refined");
        R->size = size;
        R->space_size = (int)N;
        R->excluded = (int)(N - nvalid);
        for (int i = 0; i < T->nm; i++) {
            const meas *m = &T->m[i];
            if (m->size != size || strcmp(m->kernel, t->kernel)) continue;
            R->measured++;
            R->resumed += m->resumed;
            R->failed_compile += !strcmp(m->status, "compile");
            R->failed_launch += !strcmp(m->status, "launch") || !strcmp(m->status, "error");
            R->failed_wrong += !strcmp(m->status, "wrong");
            R->failed_fault += !strcmp(m->status, "fault");
            R->failed_timeout += !strcmp(m->status, "timeout");
        }
        char dcfg[512];
        gk__config_format(&def, dcfg, sizeof dcfg);
        const meas *dm = find(T, t->kernel, size, dcfg);
        R->default_ms = dm && !strcmp(dm->status, "ok") ? dm->med : 0;
        nr = ranking(T, t->kernel, size, rank, (int)N + 8);
        for (int r = 0; r < nr; r++) {
            char req[2048], ans[2048];
            snprintf(req, sizeof req, "verify %s %lld %llu %s", t->kernel, (long long)size,
                     (unsigned long long)T->o->seed + 1, rank[r]->cfg);
            gk_status vs = gk__worker_request(&T->w, req, MEASURE_TIMEOUT_S, ans, sizeof ans);
            if (vs == GK_OK && interrupted(ans))
                break;
            if (vs == GK_OK && !strncmp(ans, "ok", 2)) {
                snprintf(R->best, sizeof R->best, "%s", rank[r]->cfg);
                R->best_ms = rank[r]->med;
                R->second_ms = r + 1 < nr ? rank[r + 1]->med : 0;
                break;
            }
            R->failed_wrong++;
        }
        if (R->best_ms > 0) T->rep->n++;
    }
out:
    free(valid); free(list); free(rank);
    return st;
}

/* ---------------------------------------------------------------- sizes */

/* "apsp=4096,16384;stencil=256" -> the classes given for kernel, sorted. */
static gk_status parse_sizes(const char *spec, const gk_tunable *t, int64_t *out, int *n)
{
    *n = 0;
    if (spec && *spec) {
        const char *p = spec;
        size_t kl = strlen(t->kernel);
        while (*p) {
            const char *end = strchr(p, ';');
            if (!end) end = p + strlen(p);
            if ((size_t)(end - p) > kl && !strncmp(p, t->kernel, kl) && p[kl] == '=') {
                const char *q = p + kl + 1;
                while (q < end) {
                    char *e;
                    long long v = strtoll(q, &e, 10);
                    if (e == q || v < 1 || (*e != ',' && e != end) || *n == 4)
                        return gk__fail(GK_EINVAL, "--sizes: bad list for %s (at most 4 positive sizes)", t->kernel);
                    for (int k = 0; k < *n; k++)
                        if (out[k] == v)
                            return gk__fail(GK_EINVAL, "--sizes: %s lists %lld twice", t->kernel, v);
                    out[(*n)++] = v;
                    q = *e == ',' ? e + 1 : e;
                }
            }
            p = *end ? end + 1 : end;
        }
    }
    if (!*n) { memcpy(out, t->classes, sizeof t->classes); *n = t->nclasses; }
    for (int i = 1; i < *n; i++)                  /* insertion sort */
        for (int j = i; j > 0 && out[j] < out[j - 1]; j--) { int64_t x = out[j]; out[j] = out[j - 1]; out[j - 1] = x; }
    return GK_OK;
}

/* Every KERNEL=LIST of the spec names a tunable kernel and parses. */
static gk_status check_sizes(const char *spec)
{
    for (const char *p = spec; p && *p;) {
        const char *end = strchr(p, ';'), *eq = strchr(p, '=');
        if (!end) end = p + strlen(p);
        char name[32];
        if (!eq || eq > end || eq - p >= (long)sizeof name)
            return gk__fail(GK_EINVAL, "--sizes: bad item '%.*s' (want KERNEL=N,N,...)", (int)(end - p), p);
        snprintf(name, sizeof name, "%.*s", (int)(eq - p), p);
        const gk_tunable *t = gk__tunable_find(name);
        if (!t)
            return gk__fail(GK_EINVAL, "--sizes: no tunable kernel '%s'", name);
        int64_t c[4];
        int n;
        gk_status st = parse_sizes(spec, t, c, &n);
        if (st) return st;
        p = *end ? end + 1 : end;
    }
    return GK_OK;
}

int gk__tune_named(const char *list, const char *kernel)
{
    size_t kl = strlen(kernel);
    for (const char *p = list; (p = strstr(p, kernel)); p += kl)
        if ((p == list || p[-1] == ',') && (p[kl] == ',' || p[kl] == '\0'))
            return 1;
    return 0;
}

static int wanted(const char *list, const gk_tunable *t)
{
    return !list || !*list ? !t->hidden : gk__tune_named(list, t->kernel);
}

/* 1 if t's search may need the budget: more combinations than are always
 * measured whole (before the constraints, which need the device). */
static int budgeted(const gk_tunable *t)
{
    return gk__space_count(t->space) > EXHAUSTIVE_MAX;
}

/* ---------------------------------------------------------------- run */

static gk_status worker_info(tuner *T)
{
    char ans[2048];
    gk_status st = gk__worker_request(&T->w, "info", 60, ans, sizeof ans);
    if (st) return st;
    if (interrupted(ans))
        return gk__fail(GK_ENODEV, "interrupted");
    gk_device_info *d = &T->dev;
    int off = 0;
    memset(d, 0, sizeof *d);
    if (sscanf(ans, "info %d %d %d %d %d %zu %zu %zu %d %d %d %zu %n", &d->cc_major, &d->cc_minor, &d->sm_count,
               &d->driver_version, &d->runtime_version, &d->smem_per_block, &d->smem_per_block_optin,
               &d->smem_per_sm, &d->regs_per_sm, &d->max_threads_per_block, &d->l2_bytes, &d->total_mem, &off) < 12 || !off) {
        const char *m = !strncmp(ans, "fail nodev ", 11) ? ans + 11 : ans;
        return gk__fail(GK_ENODEV, "no GPU to tune: %s", m);
    }
    snprintf(d->name, sizeof d->name, "%s", ans + off);
    return GK_OK;
}

static gk_status save_cache(tuner *T, int from)
{
    char path[4200];
    gk_cache c;
    gk__cache_path(T->dir, T->key, path, sizeof path);
    int r = gk__cache_read(path, 1, &c);
    if (r == GK_CFILE_REFUSED || r == GK_CFILE_ERROR)
        return GK_ECACHE;                 /* a link, a FIFO, another user's file: not replaced */
    if (r == GK_CFILE_DAMAGED || r == GK_CFILE_TOOBIG) {
        gk_status st = drop(path, "the tuning cache");
        if (st) return st;
    }
    gk__clear_error();
    if (r != GK_CFILE_OK || strcmp(c.key, T->key)) {
        memset(&c, 0, sizeof c);
        snprintf(c.key, sizeof c.key, "%s", T->key);
    }
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    for (int i = from; i < T->rep->n; i++) {
        const gk_tune_result *R = &T->rep->r[i];
        gk_cache_entry e = { 0 };
        snprintf(e.kernel, sizeof e.kernel, "%s", R->kernel);
        e.size = R->size;
        e.source = gk__tunable_source_hash(gk__tunable_find(R->kernel));
        e.ms = R->best_ms;
        e.default_ms = R->default_ms;
        gk__config_clear(&e.cfg);
        gk__config_parse(R->best, &e.cfg);
        strftime(e.when, sizeof e.when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        gk__cache_put(&c, &e);
    }
    snprintf(T->rep->cache_file, sizeof T->rep->cache_file, "%.4000s", path);
    return gk__cache_save(path, &c);
}

/* The cache file as the run finds it: a damaged one (corrupt, truncated,
 * over the size limit, another format version) is moved aside and said in
 * the note, before any tuning; one gk must not touch (a link, a FIFO,
 * another user's file) stops the run, naming it.  A stale one (another
 * driver, CUDA or gk) is replaced at the end, as always. */
static gk_status cache_check(tuner *T)
{
    char path[4200];
    gk_cache *c = malloc(sizeof *c);
    if (!c)
        return gk__fail(GK_ENOMEM, "tuner: out of memory");
    gk__cache_path(T->dir, T->key, path, sizeof path);
    int r = gk__cache_read(path, 1, c);
    free(c);
    if (r == GK_CFILE_DAMAGED || r == GK_CFILE_TOOBIG)
        return drop(path, "the tuning cache");
    if (r != GK_CFILE_OK && r != GK_CFILE_ABSENT)
        return GK_ECACHE;
    gk__clear_error();
    return GK_OK;
}

gk_status gk__tune_check_options(const gk_tune_options *o)
{
    if (o->kernels && *o->kernels) {           /* unknown names are an error, not a no-op */
        char tmp[256];
        if (strlen(o->kernels) >= sizeof tmp)
            return gk__fail(GK_EINVAL, "--kernels: list too long");
        snprintf(tmp, sizeof tmp, "%s", o->kernels);
        for (char *save = NULL, *k = strtok_r(tmp, ",", &save); k; k = strtok_r(NULL, ",", &save))
            if (!gk__tunable_find(k))
                return gk__fail(GK_EINVAL, "--kernels: no tunable kernel '%s'", k);
    }
    if (o->budget_s < 0 || o->budget_s != o->budget_s)
        return gk__fail(GK_EINVAL, "--budget: must be positive");
    return check_sizes(o->sizes);
}

gk_status gk__tune_run(const char *cache_dir, const char *data_dir, const gk_tune_options *o, gk_tune_report *rep)
{
    tuner T;
    int lockfd = -1, have_csv = 0;
    gk_outfile csv;
    memset(&T, 0, sizeof T);
    memset(rep, 0, sizeof *rep);
    T.o = o;
    T.rep = rep;
    T.t0 = gk__wtime();
    T.budget = o->budget_s > 0 ? o->budget_s : 120;
    T.data_dir = data_dir;
    run_note[0] = '\0';
    stop_flag = 0;                     /* (first: a signal from now on is kept by the pipe) */
    gk__worker_init(&T.w, o->worker_argv);

    gk_status st = gk__worker_wake_reset();
    if (st)
        return st;
    if (!cache_dir || !*cache_dir)
        return gk__fail(GK_ECACHE, "no tuning cache directory: set GK_CACHE_DIR or HOME");
    if (strlen(cache_dir) >= sizeof T.dir)
        return gk__fail(GK_ECACHE, "tuning cache directory name too long");
    snprintf(T.dir, sizeof T.dir, "%s", cache_dir);
    if ((st = gk__tune_check_options(o)))
        return st;
    if (o->csv_path && (st = gk__out_open(&csv, o->csv_path)))   /* fail now, not after tuning */
        return st;
    have_csv = o->csv_path != NULL;
    if ((st = worker_info(&T))) goto out;
    snprintf(rep->device, sizeof rep->device, "%s", T.dev.name);
    gk__tune_key(&T.dev, T.key, sizeof T.key);
    /* the directory checked (and made, 0700) once; its resolved path from
     * now on (no link in the path is followed again) */
    char real[sizeof T.dir];
    if ((st = gk__cache_dir_check(T.dir, 1, real, sizeof real))) goto out;
    snprintf(T.dir, sizeof T.dir, "%s", real);
    if ((st = gk__cache_lock(T.dir, &lockfd))) goto out;
    if ((st = cache_check(&T))) goto out;
    unsigned long long h = (unsigned long long)gk__tune_key_hash(T.key);
    snprintf(T.journal, sizeof T.journal, "%s/journal-%016llx.csv", T.dir, h);
    snprintf(T.tmpdir, sizeof T.tmpdir, "%s/cubins-%016llx", T.dir, h);
    if ((st = gk__cache_subdir(T.tmpdir)) || (st = journal_open(&T))) goto out;

    /* The budget is split between the kernels that search within it; one
     * whose space is small enough to be measured whole (the apspx_* shapes,
     * vadd) takes no share: adding one leaves the others' searches as they
     * were. */
    int kernels = 0;
    for (int i = 0; i < gk__tunable_count(); i++)
        kernels += wanted(o->kernels, gk__tunable_get(i)) && budgeted(gk__tunable_get(i));
    for (int i = 0; i < gk__tunable_count() && !stop_flag && st == GK_OK; i++) {
        const gk_tunable *t = gk__tunable_get(i);
        int64_t classes[4];
        int nc;
        if (!wanted(o->kernels, t)) continue;
        if ((st = parse_sizes(o->sizes, t, classes, &nc))) break;
        int from = rep->n;
        st = tune_kernel(&T, t, classes, nc, kernels > 0 ? kernels : 1);
        kernels -= budgeted(t);
        if (st == GK_OK && rep->n > from)
            st = save_cache(&T, from);
    }
out:
    gk__worker_stop(&T.w);
    rep->interrupted = stop_flag;
    rep->seconds = gk__wtime() - T.t0;
    if (T.jf) {
        fclose(T.jf);
        if (st == GK_OK && !stop_flag) {        /* complete: the journal becomes the run's CSV */
            snprintf(rep->csv_file, sizeof rep->csv_file, "%.4000s/tune-%016llx.csv", T.dir,
                     (unsigned long long)gk__tune_key_hash(T.key));
            if (rename(T.journal, rep->csv_file) != 0) rep->csv_file[0] = '\0';
            if (have_csv && rep->csv_file[0]) {
                int in = -1;
                char buf[65536];
                ssize_t r = 0;
                gk_status ws = gk__cache_open_read(rep->csv_file, 1, -1, &in, NULL) == GK_CFILE_OK ? GK_OK : GK_ECACHE;
                while (!ws && ((r = read(in, buf, sizeof buf)) > 0 || (r < 0 && errno == EINTR)))
                    if (r > 0) ws = gk__out_write(&csv, buf, (size_t)r);
                if (!ws && r < 0)
                    ws = gk__fail(GK_EIO, "%s: read failed: %s", rep->csv_file, strerror(errno));
                if (in >= 0) close(in);
                have_csv = 0;
                st = gk__out_close(&csv, ws);
                if (st == GK_OK) snprintf(rep->csv_file, sizeof rep->csv_file, "%s", o->csv_path);
            }
            /* the cubins were only for this run */
            for (int i = 0; i < T.nm; i++) {
                char p[4400];
                cubin_path(&T, T.m[i].kernel, T.m[i].cfg, p, sizeof p);
                unlink(p);
            }
            rmdir(T.tmpdir);
        }
    }
    if (have_csv)                  /* failed or interrupted: no partial CSV */
        gk__out_close(&csv, st ? st : GK_EINTERNAL);
    gk__cache_unlock(lockfd);
    free(T.m);
    return st;
}
