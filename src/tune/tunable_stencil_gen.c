/* tunable_stencil_gen.c - tuning the generated stencil engine for one
 * description (`gktune --stencil=DESC`): a coordinate search over its space
 * (steps per pass, tile, threads, z chunk; in 2D also the warp design's
 * steps, points per lane, warps per block, rows per warp, in 3D the
 * z-streaming design's thread layouts and z chunk, the faster design
 * winning), every candidate checked bit for
 * bit against the CPU reference on an odd-sized grid before it may win, and
 * the winners kept in the cache directory, keyed by the description's shape
 * key (the spec key without its weight hash: shapes tune the same whatever
 * the coefficients) and the grid size.
 *
 * In-process (unlike the fixed kernels' tuner, which measures in a worker
 * process): the generated kernels index only inside their tile and grid, and
 * every candidate is validated before it is timed at size.  The file is
 * CACHE_DIR/stencil-gen-<model>.txt, written atomically by the cache
 * directory's rules (cachefs.c); a file of another device key is replaced. */
#include "tune/stencil_gen_tune.h"
#include "tune/stencil_gen_store.h"
#include "tune/tune.h"
#include "gpu/gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STEPS 12                 /* about this many steps per timed run, whole passes (below) */

static void grid_fill(void *g, size_t n, int f32, uint64_t seed)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        double v = (double)(s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        if (f32) ((float *)g)[i] = (float)v; else ((double *)g)[i] = v;
    }
}

void gk__sg_check_grid(const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz, int64_t *cx, int64_t *cy,
                       int64_t *cz)
{
    /* odd sizes that divide no tile; never larger than the grid itself.
     * 2D: 601 x 557, so that the warp design's plain warps (PL=1: a strip
     * and a row chunk r from every face, T*r of halo included) run too: the
     * second chunk of ZC = 256 rows (a shorter ZC: a later one; ZC = 512:
     * none) and a strip of up to 32*8 columns */
    int64_t wx = s->dims == 3 ? 37 : 601, wy = s->dims == 3 ? 29 : 557, wz = s->dims == 3 ? 23 : 1;
    *cx = nx < wx ? nx : wx;
    *cy = ny < wy ? ny : wy;
    *cz = nz < wz ? nz : wz;
}

int gk__sg_check_steps(const gk_config *cfg)
{
    int t = gk__config_get(cfg, "TSTEPS", 1);
    return t + 1 > 5 ? t + 1 : 5;
}

gk_status gk__sg_validate(const gk_device_info *dev, const gk__stencil_spec *s, const gk_config *cfg,
                          int64_t nx, int64_t ny, int64_t nz, int steps, uint64_t seed,
                          const gk__sg_cubin_store *store, char *why, size_t n)
{
    size_t es = s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8, pts = (size_t)nx * (size_t)ny * (size_t)nz;
    unsigned char *a = malloc(pts * es), *b = malloc(pts * es);
    gk_stencil_gen *g = NULL;
    gk_status st = a && b ? GK_OK : gk__fail(GK_ENOMEM, "out of host memory for the stencil check");
    if (!st) {
        grid_fill(a, pts, es == 4, seed);
        memcpy(b, a, pts * es);
        st = gk__sg_reference(s, b, nx, ny, nz, steps);
    }
    if (!st) st = gk__stencil_gen_open(&g, dev, NULL, s, nx, ny, nz, cfg, store);
    if (!st) st = gk__stencil_gen_upload(g, a, NULL);
    if (!st) st = gk__stencil_gen_run(g, steps, NULL);
    if (!st) st = gk__stencil_gen_download(g, a, NULL);
    if (!st) {
        size_t bad = 0;
        for (size_t i = 0; i < pts; i++)
            bad += memcmp(a + i * es, b + i * es, es) != 0;
        if (bad)
            st = gk__fail(GK_EMISMATCH, "stencil %s with %s: %zu of %zu points differ from the CPU after %d steps",
                          s->key, gk__stencil_gen_config(g), bad, pts, steps);
        if (why && bad)
            snprintf(why, n, "FAIL: %zu points differ", bad);
        else if (why)
            snprintf(why, n, "ok (bit-exact, %lldx%lldx%lld)", (long long)nx, (long long)ny, (long long)nz);
    }
    gk__stencil_gen_close(g);
    free(a);
    free(b);
    return st;
}

/* Median ms per step of 3 runs of about STEPS steps after a warm-up: a
 * whole number of passes of the configuration's TSTEPS (a remainder pass
 * of fewer steps would count against T = 5, 7, 8). */
static gk_status measure(const gk_device_info *dev, const gk__stencil_spec *s, const gk_config *cfg,
                         const void *grid, int64_t nx, int64_t ny, int64_t nz, const gk__sg_cubin_store *store,
                         double *ms_step)
{
    gk_stencil_gen *g = NULL;
    double ms[3];
    float t;
    int T = gk__param(cfg, "TSTEPS"), steps = T * ((STEPS + T - 1) / T);   /* cfg complete: T >= 1 */
    gk_status st = gk__stencil_gen_open(&g, dev, NULL, s, nx, ny, nz, cfg, store);
    if (!st) st = gk__stencil_gen_upload(g, grid, NULL);
    if (!st) st = gk__stencil_gen_run(g, steps, &t);
    for (int r = 0; r < 3 && !st; r++) {
        st = gk__stencil_gen_run(g, steps, &t);
        ms[r] = t / steps;
    }
    gk__stencil_gen_close(g);
    if (!st) *ms_step = gk__median(ms, 3, NULL);
    return st;
}

/* ---- the file ---- */
static void file_path(const char *dir, const char *key, char *path, size_t n)
{
    char model[300];
    gk__tune_model(key, model, sizeof model);
    if (snprintf(path, n, "%s/stencil-gen-%s.txt", dir, model) >= (int)n)
        path[0] = '\0';              /* too long: no file */
}

/* The entries of the file for this device key (none when absent, of
 * another key or unreadable): lines "SHAPE SIZE CONFIG MS DEFAULT_MS". */
#define MAX_LINES 256
typedef struct sg_line { char shape[96]; long long size; char cfg[160]; double ms, def_ms; } sg_line;

static int read_file(const char *dir, const char *key, sg_line *L)
{
    char path[4096], *buf = NULL;
    size_t len = 0;
    file_path(dir, key, path, sizeof path);
    if (gk__cache_read_all(path, 1, GK_CACHE_MAX_BYTES, &buf, &len) != GK_CFILE_OK) {
        gk__clear_error();
        free(buf);
        return 0;
    }
    int n = 0, keyed = 0;
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "key ", 4)) { keyed = !strcmp(line + 4, key); continue; }
        if (line[0] == '#' || !keyed || n == MAX_LINES) continue;
        sg_line *l = &L[n];
        if (sscanf(line, "%95s %lld %159s %lf %lf", l->shape, &l->size, l->cfg, &l->ms, &l->def_ms) == 5)
            n++;
    }
    free(buf);
    return n;
}

static gk_status save(const char *dir, const char *key, const sg_line *add)
{
    static __thread sg_line L[MAX_LINES];       /* per thread: two contexts may tune at once */
    char real[4096], path[4200];
    gk_status st = gk__cache_dir_check(dir, 1, real, sizeof real);
    if (st) return st;
    int n = read_file(real, key, L), i;
    for (i = 0; i < n; i++)
        if (!strcmp(L[i].shape, add->shape) && L[i].size == add->size)
            break;
    if (i == n && n == MAX_LINES)
        i = 0;                        /* full: the oldest goes */
    L[i] = *add;
    if (i == n) n++;
    size_t cap = 256 + (size_t)n * 300, len = 0;
    char *text = malloc(cap);
    if (!text) return gk__fail(GK_ENOMEM, "out of host memory for the stencil tuning file");
    len += (size_t)snprintf(text + len, cap - len, "# gk: configurations of the generated stencil engine "
                            "(gktune --stencil): shape size config ms default_ms\nkey %s\n", key);
    for (int j = 0; j < n; j++)
        len += (size_t)snprintf(text + len, cap - len, "%s %lld %s %.6g %.6g\n", L[j].shape, L[j].size, L[j].cfg,
                                L[j].ms, L[j].def_ms);
    file_path(real, key, path, sizeof path);
    st = gk__cache_write_atomic(path, text, len);
    free(text);
    return st;
}

int gk__stencil_gen_tuned(const gk_device_info *dev, const char *cache_dir, const gk__stencil_spec *s,
                          int64_t size, gk_config *cfg)
{
    static __thread sg_line L[MAX_LINES];
    char key[512], shape[96];
    if (!cache_dir || !dev) return 0;
    gk__tune_key(dev, key, sizeof key);
    gk__sg_shape_key(s, shape, sizeof shape);
    int n = read_file(cache_dir, key, L), best = -1;
    double bd = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(L[i].shape, shape) || L[i].size < 1) continue;
        double d = fabs(log((double)L[i].size / (double)(size > 0 ? size : 1)));
        if (best < 0 || d < bd) { best = i; bd = d; }
    }
    if (best < 0) return 0;
    gk_config c;
    gk__config_clear(&c);
    char why[256];
    size_t es = s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8;
    gk_config full;
    if (gk__config_parse(L[best].cfg, &c) || gk__space_complete(&gk__space_stencil_gen, &c, &full)
        || gk__stencil_gen_reject(&full, s->dims, s->radius, es, dev, why, sizeof why)) {
        gk__clear_error();
        return 0;                     /* unusable here: the defaults */
    }
    *cfg = full;
    return 1;
}

/* ---- the search ---- */
typedef struct search {
    const gk_device_info *dev;
    const gk__stencil_spec *s;
    int64_t nx, ny, nz, cx, cy, cz;
    void *grid;
    double t0, budget;
    gk_config best;
    double best_ms;
    gk__sg_tune_result *res;
    uint64_t seed;
    const gk__sg_cubin_store *store;   /* the cache directory's compiled kernels */
} search;

/* Validates and times cfg; keeps it when it beats the best. */
static void try_cfg(search *S, const gk_config *cfg)
{
    char why[256];
    size_t es = S->s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8;
    gk_config full;
    if (gk__space_complete(&gk__space_stencil_gen, cfg, &full)
        || gk__stencil_gen_reject(&full, S->s->dims, S->s->radius, es, S->dev, why, sizeof why)) {
        gk__clear_error();
        S->res->excluded++;
        return;
    }
    if (gk__wtime() - S->t0 > S->budget) { S->res->skipped++; return; }
    double ms;
    if (gk__sg_validate(S->dev, S->s, &full, S->cx, S->cy, S->cz, gk__sg_check_steps(&full), S->seed, S->store, NULL, 0)
        || measure(S->dev, S->s, &full, S->grid, S->nx, S->ny, S->nz, S->store, &ms)) {
        S->res->failed++;
        snprintf(S->res->last_failure, sizeof S->res->last_failure, "%s", gk_last_error());
        gk__clear_error();
        return;
    }
    S->res->measured++;
    if (S->best_ms <= 0 || ms < S->best_ms) {
        S->best_ms = ms;
        S->best = full;
    }
}

/* Another design's search o: its winner becomes S's when faster. */
static void keep_faster(search *S, const search *o)
{
    if (o->best_ms > 0 && o->best_ms < S->best_ms) {
        S->best_ms = o->best_ms;
        S->best = o->best;
    }
}

/* The best configuration with parameter name set to each of vals in turn. */
static void sweep(search *S, const char *name, const int *vals, int nv)
{
    gk_config base = S->best;
    for (int i = 0; i < nv; i++) {
        if (gk__param(&base, name) == vals[i]) continue;
        gk_config c = base;
        gk__config_set(&c, name, vals[i]);
        /* an ST the kernel does not take with this AC: base's kernel again */
        if (!strcmp(name, "ST") && gk__stencil_gen_st(&c) == gk__stencil_gen_st(&base)) continue;
        /* an XH the kernel does not take (AC=1, 2): the same */
        if (!strcmp(name, "XH") && gk__stencil_gen_xh(&c) == gk__stencil_gen_xh(&base)) continue;
        try_cfg(S, &c);
    }
}

gk_status gk__stencil_gen_tune(const gk_device_info *dev, const char *cache_dir, const gk__stencil_spec *s,
                               int64_t size, double budget_s, uint64_t seed, gk__sg_tune_result *res)
{
    memset(res, 0, sizeof *res);
    gk__sg_shape_key(s, res->shape, sizeof res->shape);
    int d3 = s->dims == 3;
    if (size < 2 * s->radius + 1 || size > (d3 ? 2048 : 65536))
        return gk__fail(GK_EINVAL, "--stencil: size %lld outside %d..%d for %s", (long long)size,
                        2 * s->radius + 1, d3 ? 2048 : 65536, res->shape);
    res->size = size;
    search S = { 0 };
    gk__sg_cubin_store store;                     /* this call's: cache_dir's kernels */
    gk__stencil_gen_disk_store(cache_dir, &store);
    S.dev = dev; S.s = s; S.res = res; S.seed = seed; S.store = &store;
    S.nx = size; S.ny = size; S.nz = d3 ? size : 1;
    gk__sg_check_grid(s, S.nx, S.ny, S.nz, &S.cx, &S.cy, &S.cz);
    size_t es = s->dtype == GK_DTYPE_FLOAT32 ? 4 : 8, pts = (size_t)S.nx * (size_t)S.ny * (size_t)S.nz;
    gk_status st = gk__host_memory_check((uint64_t)pts * es, "the stencil tuning grid");
    if (!st) st = gk__xmalloc(&S.grid, pts * es, "the stencil tuning grid");
    if (st) return st;
    grid_fill(S.grid, pts, es == 4, seed);
    S.t0 = gk__wtime();
    S.budget = budget_s;
    /* the default first: the reference point, and the winner if nothing beats it */
    gk_config def, full;
    gk__stencil_gen_default_design(s->dims, s->radius, gk__stencil_gen_points(s), es, -1, &def);
    gk__stencil_gen_default_fit(s->dims, s->radius, es, dev, &def);   /* as gk runs them on dev */
    gk__space_complete(&gk__space_stencil_gen, &def, &full);
    try_cfg(&S, &full);
    if (S.best_ms <= 0) {
        free(S.grid);
        return gk__fail(GK_EMISMATCH, "--stencil %s: the default configuration failed: %s", res->shape,
                        res->last_failure);
    }
    res->default_ms = S.best_ms;
    if (!d3) {
        /* 2D: the default is the warp design's (searched below); the ring's
           search starts from the ring's defaults */
        gk_config ring;
        gk__stencil_gen_default(s->dims, s->radius, &def);
        gk__space_complete(&gk__space_stencil_gen, &def, &ring);
        S.best_ms = 0;
        try_cfg(&S, &ring);
        if (S.best_ms <= 0) {                 /* the ring failed here: the warp search decides */
            S.best = full;
            S.best_ms = res->default_ms;
        }
    }
    /* coordinate search: steps per pass, then the tile, threads, z chunk;
     * then the steps per pass once more for the final shape */
    static const int ts[] = { 1, 2, 3, 4 };
    static const int tx3[] = { 32, 64 }, ty3[] = { 4, 8, 16 }, nt3[] = { 128, 256, 512 }, zc3[] = { 32, 64, 128, 256 };
    static const int tx2[] = { 128, 256, 512, 1024 }, nt2[] = { 128, 256, 512, 1024 }, zc2[] = { 64, 128, 256, 512 };
    sweep(&S, "TSTEPS", ts, 4);
    if (d3) {
        sweep(&S, "TX", tx3, 2);
        sweep(&S, "TY", ty3, 3);
        sweep(&S, "NT", nt3, 3);
        sweep(&S, "ZC", zc3, 4);
    } else {
        sweep(&S, "TX", tx2, 4);
        sweep(&S, "NT", nt2, 4);
        sweep(&S, "ZC", zc2, 4);
    }
    sweep(&S, "TSTEPS", ts, 4);
    if (!d3) {
        /* the second design (warp streaming) from its own defaults, its
         * own coordinates; the faster of the two designs wins */
        search W = S;
        W.best_ms = 0;
        static const int px[] = { 2, 4, 8 }, ntw[] = { 64, 128, 256 }, zcw[] = { 128, 256, 512 };
        static const int tsw[] = { 1, 2, 3, 4, 5, 6, 7, 8 }, pfw[] = { 0, 1, 2, 3, 4 }, skw[] = { 0, 1 };
        static const int acw[] = { 0, 1, 2 }, mbw[] = { 0, 4 };
        gk_config wdef, wfull;
        gk__stencil_gen_default_design(2, s->radius, gk__stencil_gen_points(s), es, 1, &wdef);
        gk__stencil_gen_default_fit(2, s->radius, es, dev, &wdef);   /* as gk runs them on dev */
        if (!gk__space_complete(&gk__space_stencil_gen, &wdef, &wfull)) {
            try_cfg(&W, &wfull);
            if (W.best_ms > 0) {
                sweep(&W, "AC", acw, 3);
                sweep(&W, "ST", acw, 3);        /* where the rows in flight wait: 0-2 */
                sweep(&W, "TSTEPS", tsw, 8);
                sweep(&W, "PX", px, 3);
                sweep(&W, "PF", pfw, 5);
                sweep(&W, "SK", skw, 2);
                if (s->boundary != GK_BOUNDARY_PERIODIC)   /* no plain warps there: PL unused */
                    sweep(&W, "PL", skw, 2);
                if (s->boundary == GK_BOUNDARY_FIXED)      /* the x origin: unused elsewhere */
                    sweep(&W, "OX", skw, 2);
                if (gk__stencil_gen_centre_row_only(s))                   /* the shared x halo: stars' (AC=0) */
                    sweep(&W, "XH", skw, 2);
                sweep(&W, "NT", ntw, 3);
                sweep(&W, "MB", mbw, 2);
                sweep(&W, "ZC", zcw, 3);
                sweep(&W, "TSTEPS", tsw, 8);
            }
        }
        gk__clear_error();
        keep_faster(&S, &W);
    }
    if (d3) {
        /* the third design (z-streaming with register accumulation) from
         * its own defaults: thread layouts (TX, TY, RX, RY, NT =
         * (TX/RX)*(TY/RY); the rules drop those over a radius's registers or
         * code), each at 1 and 2 steps per pass, then the planes in flight
         * (PF), the z chunk, the steps per pass; the faster design wins */
        search Z = S;
        Z.best_ms = 0;
        static const int zlay[][5] = { { 32, 32, 1, 4, 256 }, { 32, 16, 1, 2, 256 }, { 32, 16, 1, 4, 128 },
                                       { 32, 64, 1, 8, 256 }, { 64, 16, 1, 4, 256 }, { 32, 8, 1, 1, 256 },
                                       { 64, 32, 2, 4, 256 }, { 32, 32, 1, 8, 128 }, { 32, 32, 2, 2, 256 },
                                       { 32, 16, 2, 2, 128 } };
        static const int zcz[] = { 32, 64, 128, 256 };
        gk_config zdef, zfull;
        gk__stencil_gen_default_design(3, s->radius, gk__stencil_gen_points(s), es, 2, &zdef);
        gk__stencil_gen_default_fit(3, s->radius, es, dev, &zdef);   /* as gk runs them on dev */
        if (!gk__space_complete(&gk__space_stencil_gen, &zdef, &zfull)) {
            try_cfg(&Z, &zfull);
            for (size_t i = 0; i < sizeof zlay / sizeof zlay[0]; i++) {
                gk_config c = zfull;
                gk__config_set(&c, "TX", zlay[i][0]);
                gk__config_set(&c, "TY", zlay[i][1]);
                gk__config_set(&c, "RX", zlay[i][2]);
                gk__config_set(&c, "RY", zlay[i][3]);
                gk__config_set(&c, "NT", zlay[i][4]);
                gk__config_set(&c, "TSTEPS", 1);
                try_cfg(&Z, &c);
                gk__config_set(&c, "TSTEPS", 2);    /* temporal blocking favours larger tiles */
                try_cfg(&Z, &c);
            }
            if (Z.best_ms > 0) {
                static const int pfz[] = { 1, 2, 3, 4 };
                sweep(&Z, "PF", pfz, 4);
                if (s->boundary == GK_BOUNDARY_FIXED) {
                    static const int oxz[] = { 0, 1 };
                    sweep(&Z, "OX", oxz, 2);
                }
                sweep(&Z, "ZC", zcz, 4);
                sweep(&Z, "TSTEPS", ts, 4);
            }
        }
        gk__clear_error();
        keep_faster(&S, &Z);
    }
    free(S.grid);
    res->best_ms = S.best_ms;
    gk__config_format(&S.best, res->best, sizeof res->best);
    res->seconds = gk__wtime() - S.t0;
    if (cache_dir) {
        char key[512];
        gk__tune_key(dev, key, sizeof key);
        sg_line l;
        memset(&l, 0, sizeof l);
        snprintf(l.shape, sizeof l.shape, "%s", res->shape);
        l.size = size;
        snprintf(l.cfg, sizeof l.cfg, "%s", res->best);
        l.ms = res->best_ms;
        l.def_ms = res->default_ms;
        if ((st = save(cache_dir, key, &l)))
            return st;
        char real[4096];
        if (!gk__cache_dir_check(cache_dir, 0, real, sizeof real))
            file_path(real, key, res->file, sizeof res->file);
    }
    return GK_OK;
}
