/* test_stencil_gen.c - the generated GPU stencil engine against a naive loop
 * written here (the contract's chain, taken straight from the (2r+1)^d
 * weight array, independent of the engine's point list), bit for bit, on
 * small odd-sized grids: 2D and 3D, star, box and mask, radius 1, 2, 3 and
 * 4, float32 and float64, the three boundaries, T = 1..4 steps per pass
 * with step counts that leave a remainder, z chunks and tiles that do not
 * divide the grid, a pitched device grid.  Without a GPU: the generated
 * source and the configuration rules only. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "gpu/stencil_gen.h"
#include "tune/stencil_gen_store.h"
#include "core/rng.h"
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef GK_HAVE_CUDA
#include "gpu/gpu.h"
#include "tune/stencil_gen_tune.h"
#include "tune/tune.h"
#include <pthread.h>
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tcase {
    int dims;
    gk_stencil_shape shape;
    int r;
    gk_boundary b;
    gk_dtype t;
    const char *cfg;
    int nx, ny, nz, steps;
} tcase;

static double urand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* A seed whose mask has no point in the rows dy = d - r of the bits d
 * set in rows (make_weights): masks whose first point is not at dy = -r
 * or with rows of the window empty, which random masks almost never are. */
#define EMPTY_ROWS(rows) (0xe7ULL << 56 | (uint64_t)(rows) << 40)

/* The weights of a case: random in the shape (a star: 0 off the axes; a
 * mask: about half of the cube zero; EMPTY_ROWS: those rows too). */
static void make_weights(const tcase *c, uint64_t seed, double *w)
{
    unsigned empty = seed >> 56 == 0xe7 ? (unsigned)(seed >> 40) & 0x1ffu : 0;
    int k = 2 * c->r + 1, n = c->dims == 3 ? k * k * k : k * k;
    for (int i = 0; i < n; i++) {
        int dx = i % k - c->r, dy = (i / k) % k - c->r, dz = c->dims == 3 ? i / (k * k) - c->r : 0;
        int axes = (dx != 0) + (dy != 0) + (dz != 0);
        double v = urand(&seed) / (double)n * 2.0;
        if (c->shape == GK_STENCIL_STAR && axes > 1) v = 0;
        if (c->shape == GK_STENCIL_MASK && urand(&seed) < 0) v = 0;
        if (c->shape == GK_STENCIL_MASK && (empty >> (dy + c->r) & 1)) v = 0;
        w[i] = v;
    }
}

static int64_t wrap(int64_t i, int64_t n) { i %= n; return i < 0 ? i + n : i; }

/* One step of the naive loop, double or float arithmetic by t. */
static void naive_step(const tcase *c, const double *w, const void *in, void *out)
{
    int64_t nx = c->nx, ny = c->ny, nz = c->dims == 3 ? c->nz : 1;
    int r = c->r, k = 2 * r + 1, zr = c->dims == 3 ? r : 0, f32 = c->t == GK_DTYPE_FLOAT32;
    for (int64_t z = 0; z < nz; z++)
        for (int64_t y = 0; y < ny; y++)
            for (int64_t x = 0; x < nx; x++) {
                int64_t at = (z * ny + y) * nx + x;
                int band = x < r || x >= nx - r || y < r || y >= ny - r || (zr && (z < r || z >= nz - r));
                if (c->b == GK_BOUNDARY_FIXED && band) {
                    if (f32) ((float *)out)[at] = ((const float *)in)[at];
                    else ((double *)out)[at] = ((const double *)in)[at];
                    continue;
                }
                double td = 0;
                float tf = 0;
                int first = 1;
                for (int dz = -zr; dz <= zr; dz++)
                    for (int dy = -r; dy <= r; dy++)
                        for (int dx = -r; dx <= r; dx++) {
                            int idx = c->dims == 3 ? ((dz + r) * k + dy + r) * k + dx + r : (dy + r) * k + dx + r;
                            int axes = (dx != 0) + (dy != 0) + (dz != 0);
                            if (c->shape == GK_STENCIL_STAR && axes > 1) continue;
                            if (c->shape == GK_STENCIL_MASK && w[idx] == 0) continue;
                            int64_t X = x + dx, Y = y + dy, Z = z + dz;
                            int outside = X < 0 || X >= nx || Y < 0 || Y >= ny || Z < 0 || Z >= nz;
                            double vd = 0;
                            float vf = 0;
                            if (c->b == GK_BOUNDARY_PERIODIC) {
                                X = wrap(X, nx); Y = wrap(Y, ny); Z = wrap(Z, nz);
                                outside = 0;
                            }
                            if (!outside) {
                                int64_t j = (Z * ny + Y) * nx + X;
                                if (f32) vf = ((const float *)in)[j]; else vd = ((const double *)in)[j];
                            }
                            if (f32) {
                                float wf = (float)w[idx];
                                tf = first ? wf * vf : fmaf(wf, vf, tf);
                            } else {
                                td = first ? w[idx] * vd : fma(w[idx], vd, td);
                            }
                            first = 0;
                        }
                if (f32) ((float *)out)[at] = tf; else ((double *)out)[at] = td;
            }
}

static const char *const bnds[] = { "zero", "periodic", "fixed" };   /* names of gk_boundary */

#ifdef GK_HAVE_CUDA
static const char *const shapes[] = { "", "box", "star", "mask" };

/* A case with its kernels from and into store (NULL: the process's cache
 * only). */
static void run_case_in(const gk_device_info *dev, const tcase *c, uint64_t seed, const gk__sg_cubin_store *store)
{
    char name[160];
    snprintf(name, sizeof name, "%dd-%s-r%d-%s-%s %dx%dx%d %d steps [%s]", c->dims, shapes[c->shape], c->r,
             c->t == GK_DTYPE_FLOAT32 ? "f32" : "f64", bnds[c->b], c->nx, c->ny, c->nz, c->steps, c->cfg);
    double w[729];
    make_weights(c, seed, w);
    gk__stencil_spec s;
    if (!ok(gk__sg_spec_build(c->dims, c->shape, c->r, c->b, c->t, w, &s) == GK_OK, "%s: spec (%s)", name,
            gk_last_error()))
        return;
    size_t n = (size_t)c->nx * c->ny * c->nz, es = c->t == GK_DTYPE_FLOAT32 ? 4 : 8;
    unsigned char *a = malloc(n * es), *b = malloc(n * es), *tmp = malloc(n * es);
    uint64_t g = seed ^ 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < n; i++) {
        double v = urand(&g);
        if (es == 4) ((float *)a)[i] = (float)v; else ((double *)a)[i] = v;
    }
    memcpy(b, a, n * es);
    for (int st = 0; st < c->steps; st++) {
        naive_step(c, w, b, tmp);
        memcpy(b, tmp, n * es);
    }
    gk_config cfg;
    gk__config_clear(&cfg);
    gk__config_parse(c->cfg, &cfg);
    gk_stencil_gen *e = NULL;
    gk_status st = gk__stencil_gen_open(&e, dev, NULL, &s, c->nx, c->ny, c->nz, &cfg, store);
    if (!st) st = gk__stencil_gen_upload(e, a, NULL);
    if (!st) st = gk__stencil_gen_run(e, c->steps, NULL);
    if (!st) st = gk__stencil_gen_download(e, tmp, NULL);
    if (ok(st == GK_OK, "%s runs (%s)", name, st ? gk_last_error() : gk__stencil_gen_config(e))) {
        size_t bad = 0, first = n;
        for (size_t i = 0; i < n; i++)
            if (memcmp(tmp + i * es, b + i * es, es)) { bad++; if (first == n) first = i; }
        if (!ok(bad == 0, "%s: bit-identical to the naive loop", name)) {
            double got = es == 4 ? ((float *)tmp)[first] : ((double *)tmp)[first];
            double want = es == 4 ? ((float *)b)[first] : ((double *)b)[first];
            diag("%zu points differ; first at %zu: %.17g, want %.17g", bad, first, got, want);
        }
        /* a second run from the result on the device: the pass loop carries on */
        if (c->steps > 1) {
            st = gk__stencil_gen_upload(e, a, NULL);
            if (!st) st = gk__stencil_gen_run(e, 1, NULL);
            if (!st) st = gk__stencil_gen_run(e, c->steps - 1, NULL);
            if (!st) st = gk__stencil_gen_download(e, tmp, NULL);
            ok(st == GK_OK && !memcmp(tmp, b, n * es), "%s: 1 + %d steps = %d steps", name, c->steps - 1, c->steps);
        }
    }
    gk__stencil_gen_close(e);
    free(a); free(b); free(tmp);
}

/* The cases of the long loops run as a batch: queued (run_case while
 * queuing), their kernels compiled in parallel into a disk store (NVRTC,
 * a thread per core: the compiles, one after another, were most of this
 * test's time), then run in order, each loading its kernels from there. */
typedef struct qcase { tcase c; char cfg[192]; uint64_t seed; } qcase;
static struct {
    int queuing;
    qcase *q;
    size_t n, cap, next;
    const gk_device_info *dev;
    gk__sg_cubin_store store;
    pthread_mutex_t lock;
} batch = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void run_case(const gk_device_info *dev, const tcase *c, uint64_t seed)
{
    if (!batch.queuing) {
        run_case_in(dev, c, seed, NULL);
        return;
    }
    if (batch.n == batch.cap) {
        size_t cap = batch.cap ? 2 * batch.cap : 256;
        qcase *q = realloc(batch.q, cap * sizeof *q);
        if (!q) { ok(0, "queue a case: out of memory"); return; }
        batch.q = q;
        batch.cap = cap;
    }
    qcase *e = &batch.q[batch.n++];
    e->c = *c;
    snprintf(e->cfg, sizeof e->cfg, "%s", c->cfg);
    e->seed = seed;
}

/* a batch thread: open (compile, store) and close each case's kernels */
static void *batch_compile(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&batch.lock);
        size_t i = batch.next++;
        pthread_mutex_unlock(&batch.lock);
        if (i >= batch.n)
            return NULL;
        const qcase *e = &batch.q[i];
        int seen = 0;                /* the same kernels queued before (another grid) */
        for (size_t j = 0; j < i && !seen; j++) {
            const qcase *f = &batch.q[j];
            seen = f->seed == e->seed && f->c.dims == e->c.dims && f->c.shape == e->c.shape && f->c.r == e->c.r
                   && f->c.b == e->c.b && f->c.t == e->c.t && !strcmp(f->cfg, e->cfg);
        }
        if (seen)
            continue;
        double w[729];
        make_weights(&e->c, e->seed, w);
        gk__stencil_spec s;
        gk_config cfg;
        gk__config_clear(&cfg);
        gk_stencil_gen *g = NULL;
        if (!gk__sg_spec_build(e->c.dims, e->c.shape, e->c.r, e->c.b, e->c.t, w, &s) && !gk__config_parse(e->cfg, &cfg)
            && !gk__stencil_gen_open(&g, batch.dev, NULL, &s, e->c.nx, e->c.ny, e->c.nz, &cfg, &batch.store))
            gk__stencil_gen_close(g);
        gk__clear_error();           /* a case that cannot open says so when it runs */
    }
}

static void batch_run(void)
{
    batch.queuing = 0;
    char dir[] = "/tmp/gk-sg-batch-XXXXXX", sub[64], path[600];
    int have = mkdtemp(dir) != NULL;
    if (have) {
        gk__stencil_gen_disk_store(dir, &batch.store);
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        int nt = nc < 1 ? 1 : nc > 16 ? 16 : (int)nc, made = 0;
        pthread_t th[16];
        batch.next = 0;
        for (int i = 0; i < nt; i++)
            made += pthread_create(&th[made], NULL, batch_compile, NULL) == 0;
        for (int i = 0; i < made; i++)
            pthread_join(th[i], NULL);
    }
    for (size_t i = 0; i < batch.n; i++) {
        batch.q[i].c.cfg = batch.q[i].cfg;
        run_case_in(batch.dev, &batch.q[i].c, batch.q[i].seed, have ? &batch.store : NULL);
    }
    if (have) {
        snprintf(sub, sizeof sub, "%s/stencil-gen-cubins", dir);
        DIR *d = opendir(sub);
        for (struct dirent *e; d && (e = readdir(d));)
            if (e->d_name[0] != '.') {
                snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
                unlink(path);
            }
        if (d) closedir(d);
        rmdir(sub);
        rmdir(dir);
    }
    free(batch.q);
    batch.q = NULL;
    batch.n = batch.cap = 0;
}

/* exec_device on a pitched grid: the interior as the naive loop, the
 * padding untouched. */
static void pitched_case(const gk_device_info *dev, uint64_t seed)
{
    tcase c = { 3, GK_STENCIL_STAR, 2, GK_BOUNDARY_ZERO, GK_DTYPE_FLOAT64, "DESIGN=0,TSTEPS=2", 17, 11, 9, 3 };
    double w[125];
    make_weights(&c, seed, w);
    gk__stencil_spec s;
    gk__sg_spec_build(3, c.shape, c.r, c.b, c.t, w, &s);
    int64_t py = c.nx + 3, pz = py * (c.ny + 2), total = pz * c.nz;
    size_t n = (size_t)c.nx * c.ny * c.nz;
    double *h = malloc((size_t)total * 8), *d = malloc(n * 8), *tmp = malloc(n * 8);
    uint64_t g = seed;
    for (int64_t i = 0; i < total; i++) h[i] = 1000 + i;
    for (int z = 0; z < c.nz; z++)
        for (int y = 0; y < c.ny; y++)
            for (int x = 0; x < c.nx; x++)
                h[z * pz + y * py + x] = d[((size_t)z * c.ny + y) * c.nx + x] = urand(&g);
    for (int st = 0; st < c.steps; st++) {
        naive_step(&c, w, d, tmp);
        memcpy(d, tmp, n * 8);
    }
    void *dev_grid = NULL;
    gk_stencil_gen *e = NULL;
    gk_config cfg;
    gk__config_clear(&cfg);
    gk__config_parse(c.cfg, &cfg);
    gk_status st = gk__gpu_alloc(&dev_grid, (size_t)total * 8);
    if (!st) st = gk__gpu_copy(dev_grid, h, (size_t)total * 8, 1);
    if (!st) st = gk__stencil_gen_open(&e, dev, NULL, &s, c.nx, c.ny, c.nz, &cfg, NULL);
    if (!st) st = gk__stencil_gen_exec_device(e, dev_grid, py, pz, c.steps);
    double *back = malloc((size_t)total * 8);
    if (!st) st = gk__gpu_copy(back, dev_grid, (size_t)total * 8, 0);
    if (ok(st == GK_OK, "pitched exec_device runs (%s)", st ? gk_last_error() : "ok")) {
        int bad_in = 0, bad_pad = 0;
        for (int64_t i = 0; i < total; i++) {
            int64_t z = i / pz, y = (i % pz) / py, x = i % py;
            if (x < c.nx && y < c.ny && z < c.nz)
                bad_in += memcmp(&back[i], &d[((size_t)z * c.ny + y) * c.nx + x], 8) != 0;
            else
                bad_pad += back[i] != h[i];
        }
        ok(bad_in == 0, "pitched: interior bit-identical (%d differ)", bad_in);
        ok(bad_pad == 0, "pitched: padding untouched (%d changed)", bad_pad);
    }
    ok(e && gk__stencil_gen_exec_device(e, dev_grid, c.nx - 1, pz, 1) == GK_EINVAL, "a pitch below nx is refused");
    gk__stencil_gen_close(e);
    gk__gpu_free(dev_grid);
    free(h); free(d); free(tmp); free(back);
}
#endif

/* The configuration text over the defaults of design (as
 * gk__stencil_gen_open takes a configuration naming its design), complete
 * in *full; nonzero when a name or a value is out of its range. */
static int sg_cfg(int dims, int r, size_t es, int design, const char *text, gk_config *full)
{
    gk_config c, u;
    gk__stencil_gen_default_design(dims, r, 0, es, design, &c);
    gk__config_clear(&u);
    gk__config_parse(text, &u);
    for (int k = 0; k < u.n; k++)
        gk__config_set(&c, u.p[k].name, u.p[k].value);
    return gk__space_complete(&gk__space_stencil_gen, &c, full) != GK_OK;
}

/* Without a GPU: the generated text and the configuration rules. */
/* DESIGN=2 (3D z-streaming with register accumulation) without a GPU:
 * its defaults pass the rules for every radius and element size, the
 * rules refuse it in 2D, with a tile too small for its TSTEPS, with a
 * thread layout that does not cover the tile and beyond the register or code bounds; its source
 * has the contract's chain and the unrolled or rotating queue. */
static void design2_checks(void)
{
    char why[256] = "";
    gk_config d, c;
    for (int r = 1; r <= 4; r++)
        for (size_t es = 4; es <= 8; es += 4) {
            gk__stencil_gen_default_design(3, r, 0, es, 2, &d);
            is_int(gk__config_get(&d, "DESIGN", -1), 2, "DESIGN=2 defaults name it (r=%d, %zu-byte)", r, es);
            gk__space_complete(&gk__space_stencil_gen, &d, &c);
            ok(!gk__stencil_gen_reject(&c, 3, r, es, NULL, why, sizeof why), "DESIGN=2 defaults r=%d %zu-byte "
               "accepted (%s)", r, es, why);
            is_int(gk__param(&c, "NT"), (gk__param(&c, "TX") / gk__param(&c, "RX")) *
                   (gk__param(&c, "TY") / gk__param(&c, "RY")), "DESIGN=2 defaults: NT covers the tile (r=%d)", r);
        }
    gk__stencil_gen_default_design(3, 2, 0, 8, -1, &d);
    is_int(gk__config_get(&d, "DESIGN", -1), 2, "the 3D default design is z-streaming (DESIGN=2)");
    /* 2D: refused by name, whatever the tile */
    gk__stencil_gen_default_design(2, 1, 0, 8, 2, &d);
    gk__config_set(&d, "DESIGN", 2);
    gk__space_complete(&gk__space_stencil_gen, &d, &c);
    ok(gk__stencil_gen_reject(&c, 2, 1, 8, NULL, why, sizeof why) && strstr(why, "DESIGN=2") && strstr(why, "3D"),
       "DESIGN=2 in 2D refused: %s", why);
    gk__config_set(&c, "TY", 4);
    ok(gk__stencil_gen_reject(&c, 2, 1, 8, NULL, why, sizeof why) && strstr(why, "3D"),
       "DESIGN=2 in 2D with TY=4 refused as 2D: %s", why);
    /* temporal blocking: TSTEPS stages, each recomputing (TSTEPS-1)*r of halo */
    sg_cfg(3, 1, 8, 2, "TSTEPS=2,TY=16,RY=2,PF=1", &c);
    ok(!gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why), "DESIGN=2 with TSTEPS=2 accepted (%s)", why);
    is_int((long long)gk__stencil_gen_smem(&c, 3, 1, 8, 2), 4LL * (32 + 2) * (16 + 2) * 8,
           "DESIGN=2 TSTEPS=2 PF=1 shared memory: two planes per stage 0..1");
    /* PF >= 2: the input's ring of PF+1 planes, two per stage 1..T-1 */
    sg_cfg(3, 1, 8, 2, "TSTEPS=3,TY=16,RY=2,PF=3", &c);
    is_int((long long)gk__stencil_gen_smem(&c, 3, 1, 8, 3), (4LL + 4) * (32 + 2) * (16 + 2) * 8,
           "DESIGN=2 TSTEPS=3 PF=3 shared memory: a ring of 4 input planes, 2 per stage 1..2");
    is_int((long long)gk__stencil_gen_smem(&c, 3, 1, 8, 1), 4LL * (32 + 2) * (16 + 2) * 8,
           "DESIGN=2 one step PF=3 shared memory: the ring of 4 input planes");
    ok(!sg_cfg(3, 1, 8, 2, "PF=0", &c) && gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why)
       && strstr(why, "PF=0"), "DESIGN=2 PF=0 (the warp design's) refused: %s", why);
    ok(sg_cfg(3, 1, 8, 2, "PF=5", &c) && strstr(gk_last_error(), "PF"), "DESIGN=2 PF=5 out of range: %s",
       gk_last_error());
    gk__clear_error();
    sg_cfg(3, 1, 8, 2, "TSTEPS=4,TY=6,RY=1,NT=192", &c);
    ok(gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why) && strstr(why, "no output"),
       "DESIGN=2 TSTEPS=4 with TY=6 (no inner tile) refused: %s", why);
    sg_cfg(3, 1, 8, 2, "TSTEPS=4,TY=7,RY=1,NT=224", &c);
    ok(!gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why), "DESIGN=2 TSTEPS=4 with TY=7 accepted (%s)", why);
    /* registers: 4 stages of 3 planes of RY=8 fp64 outputs = 192 registers */
    sg_cfg(3, 1, 8, 2, "TSTEPS=4,TY=64,RY=8", &c);
    ok(gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why) && strstr(why, "registers"),
       "DESIGN=2 TSTEPS=4 RY=8 fp64 refused for its registers: %s", why);
    /* the thread layout */
    sg_cfg(3, 1, 4, 2, "RY=3", &c);
    ok(gk__stencil_gen_reject(&c, 3, 1, 4, NULL, why, sizeof why) && strstr(why, "multiple"),
       "DESIGN=2 with RY not dividing TY refused: %s", why);
    sg_cfg(3, 1, 4, 2, "RX=1,NT=128", &c);
    ok(gk__stencil_gen_reject(&c, 3, 1, 4, NULL, why, sizeof why) && strstr(why, "needs NT=256"),
       "DESIGN=2 with NT not (TX/RX)*(TY/RY) refused: %s", why);
    sg_cfg(3, 1, 4, 2, "RX=1,NT=128,TY=16,RY=4", &c);
    ok(!gk__stencil_gen_reject(&c, 3, 1, 4, NULL, why, sizeof why), "DESIGN=2 TX=32 TY=16 RY=4 NT=128 accepted (%s)",
       why);
    /* registers: r=4 fp64, 9 planes of 16 outputs = 288 registers */
    sg_cfg(3, 4, 8, 2, "RY=16,TY=16,NT=32", &c);
    ok(gk__stencil_gen_reject(&c, 3, 4, 8, NULL, why, sizeof why) && strstr(why, "registers"),
       "DESIGN=2 r=4 fp64 RY=16 refused for its registers: %s", why);
    /* code: r=4, 6 outputs per thread of 729 terms */
    sg_cfg(3, 4, 4, 2, "RX=2,RY=3,TX=32,TY=12,NT=64", &c);
    ok(gk__stencil_gen_reject(&c, 3, 4, 4, NULL, why, sizeof why) && strstr(why, "4096"),
       "DESIGN=2 r=4 RX*RY=6 refused for its code size: %s", why);
    /* the defaults on smaller GPUs than the H200 they were measured on:
     * sm_75 lets a block 64 KiB of shared memory, sm_6x 48 KiB; radius 1
     * float64 (TSTEPS=3, PF=3: 8 planes of 34x34 doubles, 72 KiB) is
     * refused there as it stands and fitted (fewer steps, then fewer planes
     * in flight) until the device's rules accept it; on the H200 unchanged */
    {
        static const size_t optin[3] = { 48 * 1024, 64 * 1024, 227 * 1024 };
        for (int di = 0; di < 3; di++)
            for (int r = 1; r <= 4; r++)
                for (size_t es = 4; es <= 8; es += 4) {
                    gk_device_info small;
                    memset(&small, 0, sizeof small);
                    small.smem_per_block_optin = optin[di];
                    gk__stencil_gen_default_design(3, r, 0, es, -1, &d);
                    gk__space_complete(&gk__space_stencil_gen, &d, &c);
                    gk_config f = c;
                    gk__stencil_gen_default_fit(3, r, es, &small, &f);
                    why[0] = 0;
                    ok(!gk__stencil_gen_reject(&f, 3, r, es, &small, why, sizeof why),
                       "DESIGN=2 defaults fitted to %zu KiB: r=%d %zu-byte accepted (TSTEPS=%d PF=%d) %s",
                       optin[di] / 1024, r, es, gk__config_get(&f, "TSTEPS", -1), gk__config_get(&f, "PF", -1), why);
                    int same = gk__config_get(&f, "TSTEPS", -1) == gk__config_get(&c, "TSTEPS", -2)
                               && gk__config_get(&f, "PF", -1) == gk__config_get(&c, "PF", -2);
                    int fits = !gk__stencil_gen_reject(&c, 3, r, es, &small, why, sizeof why);
                    ok(same == fits, "DESIGN=2 defaults r=%d %zu-byte on %zu KiB: %s", r, es, optin[di] / 1024,
                       fits ? "kept as they are" : "changed, as they did not fit");
                }
        gk__stencil_gen_default_design(3, 1, 0, 8, -1, &d);
        gk__space_complete(&gk__space_stencil_gen, &d, &c);
        gk_device_info t4;
        memset(&t4, 0, sizeof t4);
        t4.smem_per_block_optin = 64 * 1024;
        ok(gk__stencil_gen_reject(&c, 3, 1, 8, &t4, why, sizeof why) && strstr(why, "shared memory"),
           "DESIGN=2 r=1 float64 defaults as they stand refused on 64 KiB: %s", why);
    }
    /* before sm_80 (a T4, sm_75: 64 KiB a block) no cp.async: ST=2 and
     * DESIGN=2's PF >= 2 refused there, naming it; every default of both
     * designs fitted (ST=0, PF=1, then fewer rows ahead, XH=0, fewer
     * steps) until the device's rules accept it */
    {
        gk_device_info t75;
        memset(&t75, 0, sizeof t75);
        t75.cc_major = 7;
        t75.cc_minor = 5;
        t75.smem_per_block_optin = 64 * 1024;
        int good = 1;
        for (int dims = 2; dims <= 3; dims++)
            for (int r = 1; r <= 4; r++)
                for (size_t es = 4; es <= 8; es += 4)
                    for (int box = 0; box <= 1; box++) {
                        int np = box ? (dims == 2 ? (2 * r + 1) * (2 * r + 1) : (2 * r + 1) * (2 * r + 1) * (2 * r + 1))
                                     : (dims == 2 ? 4 * r + 1 : 6 * r + 1);
                        gk__stencil_gen_default_design(dims, r, np, es, -1, &d);
                        gk__space_complete(&gk__space_stencil_gen, &d, &c);
                        gk__stencil_gen_default_fit(dims, r, es, &t75, &c);
                        why[0] = 0;
                        if (gk__stencil_gen_reject(&c, dims, r, es, &t75, why, sizeof why)
                            || (dims == 2 && gk__stencil_gen_st(&c) == 2)
                            || (dims == 3 && gk__config_get(&c, "PF", 1) > 1)) {
                            good = 0;
                            diag("sm_75 defaults %dD r=%d %zu-byte %s: %s", dims, r, es, box ? "box" : "star", why);
                        }
                    }
        ok(good, "every 2D and 3D default fitted to sm_75 (64 KiB, no cp.async): accepted, no ST=2, no PF >= 2");
        /* as gk fits them (src/gpu/stencil_gen.c, gk__stencil_gen_choose):
           the defaults as default_design gives them, not completed (the
           warp design's name no RX, RY); on an H200 every one unchanged,
           on sm_75 accepted once completed.  (cea2a07 fitted the warp
           defaults' incomplete configuration: refused for RX, every 2D
           default fell to TSTEPS=1 on the GPU) */
        gk_device_info h200;
        memset(&h200, 0, sizeof h200);
        h200.cc_major = 9;
        h200.smem_per_block_optin = 227 * 1024;
        int kept = 1, fits = 1;
        for (int dims = 2; dims <= 3; dims++)
            for (int r = 1; r <= 4; r++)
                for (size_t es = 4; es <= 8; es += 4)
                    for (int box = 0; box <= 1; box++) {
                        int np = box ? (2 * r + 1) * (2 * r + 1) * (dims == 3 ? 2 * r + 1 : 1)
                                     : (dims == 2 ? 4 * r + 1 : 6 * r + 1);
                        gk_config raw, fit;
                        gk__stencil_gen_default_design(dims, r, np, es, -1, &raw);
                        fit = raw;
                        gk__stencil_gen_default_fit(dims, r, es, &h200, &fit);
                        char a[256], b[256];
                        gk__config_format(&raw, a, sizeof a);
                        gk__config_format(&fit, b, sizeof b);
                        if (strcmp(a, b)) {
                            kept = 0;
                            diag("H200 fit changed %dD r=%d %zu-byte %s: %s -> %s", dims, r, es, box ? "box" : "star",
                                 a, b);
                        }
                        fit = raw;
                        t75.cc_major = 7;
                        t75.cc_minor = 5;
                        gk__stencil_gen_default_fit(dims, r, es, &t75, &fit);
                        gk__space_complete(&gk__space_stencil_gen, &fit, &c);
                        if (gk__stencil_gen_reject(&c, dims, r, es, &t75, why, sizeof why)
                            || gk__config_get(&c, "TSTEPS", 0) < (dims == 2 && r <= 2 ? 2 : 1)) {
                            fits = 0;
                            diag("sm_75 fit of the raw defaults %dD r=%d %zu-byte %s: TSTEPS=%d %s", dims, r, es,
                                 box ? "box" : "star", gk__config_get(&c, "TSTEPS", 0), why);
                        }
                    }
        ok(kept, "the defaults as gk fits them (not completed): on an H200 every one unchanged");
        ok(fits, "and on sm_75 accepted, the 2D ones of radius 1-2 with 2 steps per pass or more");
        sg_cfg(2, 3, 4, 1, "PX=3,TSTEPS=2,ST=2,PF=4,XH=0", &c);
        ok(gk__stencil_gen_reject(&c, 2, 3, 4, &t75, why, sizeof why) && strstr(why, "cp.async")
           && strstr(why, "7.5"), "ST=2 refused on sm_75: %s", why);
        sg_cfg(3, 1, 8, 2, "PF=3,TSTEPS=1", &c);
        ok(gk__stencil_gen_reject(&c, 3, 1, 8, &t75, why, sizeof why) && strstr(why, "cp.async"),
           "DESIGN=2 PF=3 refused on sm_75: %s", why);
        t75.cc_major = 8;
        t75.cc_minor = 0;
        sg_cfg(2, 3, 4, 1, "PX=3,TSTEPS=2,ST=2,PF=4,XH=0", &c);
        ok(!gk__stencil_gen_reject(&c, 2, 3, 4, &t75, why, sizeof why), "ST=2 accepted on sm_80 (%s)", why);
    }
    /* shared memory: two planes of (TX+2r) x (TY+2r) */
    sg_cfg(3, 1, 8, 2, "TX=1024,TY=16,RX=8,RY=16,NT=128,PF=1", &c);
    is_int((long long)gk__stencil_gen_smem(&c, 3, 1, 8, 1), 2LL * 1026 * 18 * 8, "DESIGN=2 PF=1 shared memory: two planes");
    ok(gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why), "DESIGN=2 TX=1024 RX=8 RY=16 refused: %s", why);
    /* the source */
    gk__stencil_spec s;
    double w[27];
    for (int i = 0; i < 27; i++)
        w[i] = (i == 4 || i == 10 || i == 12 || i == 13 || i == 14 || i == 16 || i == 22) ? 0.125 * (i + 1) : 0;
    w[4] = 0.25;
    if (ok(gk__sg_spec_build(3, GK_STENCIL_STAR, 1, GK_BOUNDARY_FIXED, GK_DTYPE_FLOAT64, w, &s) == GK_OK,
           "3D star spec")) {
        char *src = NULL;
        gk__stencil_gen_default_design(3, 1, 0, 8, 2, &d);
        gk__config_set(&d, "TSTEPS", 1);
        gk__space_complete(&gk__space_stencil_gen, &d, &c);
        ok(gk__stencil_gen_source(&s, &c, &src) == GK_OK && src, "DESIGN=2 source generated");
        if (src) {
            ok(strstr(src, "sgz_p0") && strstr(src, "sgz_p2") && !strstr(src, "sgz_p3"),
               "DESIGN=2 r=1: the queue unrolled 3 times");
            /* plane k's dz = -1 term of output k+1 (slot 1 in phase 0) is its first: w0*v0 */
            ok(strstr(src, "a[1][0][0] = __dmul_rn(0x1p-2, v);") != NULL, "DESIGN=2: chain starts with w0*v0");
            ok(strstr(src, "gk_sg_t1") && !strstr(src, "gk_sg_t2"), "DESIGN=2: one kernel (T=1)");
            ok(strstr(src, "__syncthreads") && strstr(src, "__shared__"), "DESIGN=2: shared planes and a barrier");
            ok(!strstr(src, "v2 = *reinterpret_cast"), "DESIGN=2 RX=1: one load per window point");
            free(src);
        }
        /* RX=2: a row's used column pairs (wx even) come in one 2-wide
         * load; the star's rows above and below the thread's (one used
         * column of each pair) and RX=1 keep one load per point.  Star
         * r1, RX=2 x RY=2: window 4 x 4, rows 1-2 two pairs each, rows 0
         * and 3 columns 1 and 2 alone */
        gk_config c2 = c;
        gk__config_set(&c2, "TX", 32);
        gk__config_set(&c2, "RX", 2);
        gk__config_set(&c2, "RY", 2);
        gk__config_set(&c2, "TY", 16);
        gk__config_set(&c2, "NT", 128);
        gk__config_set(&c2, "TSTEPS", 1);
        if (ok(gk__stencil_gen_source(&s, &c2, &src) == GK_OK && src, "DESIGN=2 RX=2 source generated")) {
            const char *p0 = strstr(src, "void sgz_p0("), *p1 = p0 ? strstr(p0, "void sgz_p1(") : NULL;
            int pairs = 0, singles = 0;
            for (const char *q = p0; q && (q = strstr(q, "v2 = *reinterpret_cast<const sgz_v2 *>(sp + ")) && q < p1; q++)
                pairs++;
            for (const char *q = p0; q && (q = strstr(q, "v = sp[")) && q < p1; q++)
                singles++;
            is_int(pairs, 4, "DESIGN=2 RX=2 star: 4 pair loads per plane (rows 1-2)");
            is_int(singles, 4, "DESIGN=2 RX=2 star: 4 single loads per plane (rows 0, 3)");
            ok(strstr(src, "v2 = *reinterpret_cast<const sgz_v2 *>(sp + 1 * PW + 0);\n    v = v2.x;\n") != NULL
                   && strstr(src, "struct __align__(16) sgz_v2") != NULL,
               "DESIGN=2 RX=2: the pair at an even column, 16-byte aligned");
            free(src);
        }
        gk__config_set(&c, "TSTEPS", 3);
        ok(gk__stencil_gen_source(&s, &c, &src) == GK_OK && src, "DESIGN=2 source with TSTEPS=3 generated");
        if (src) {
            ok(strstr(src, "gk_sg_t1") && strstr(src, "gk_sg_t2") && strstr(src, "gk_sg_t3") && !strstr(src, "gk_sg_t4"),
               "DESIGN=2 TSTEPS=3: kernels of 1, 2 and 3 steps");
            ok(strstr(src, "/* stage 3 */") && strstr(src, "sgz_out<true, H>") && strstr(src, "sgz_out<false, H>"),
               "DESIGN=2 TSTEPS=3: stages to shared memory, the last to the grid");
            free(src);
        }
        gk__config_set(&c, "TY", 4);
        gk__config_set(&c, "RY", 1);
        gk__config_set(&c, "NT", 128);
        ok(gk__stencil_gen_source(&s, &c, &src) == GK_EINVAL && !src,
           "DESIGN=2 source with TSTEPS=3 and TY=4 (no inner tile) refused");
        gk__stencil_gen_default_design(3, 1, 0, 8, 2, &d);
        gk__space_complete(&gk__space_stencil_gen, &d, &c);
        gk__config_set(&c, "NT", 64);
        ok(gk__stencil_gen_source(&s, &c, &src) == GK_EINVAL && !src, "DESIGN=2 source with a bad NT refused");
        /* RX*RY = 32 in float32: accepted, and each thread loads
         * ceil(34*66/64) = 36 points of a plane, more than a 32-bit mask
         * holds: the in-grid flags take a word per 32 points (one word
         * shifted by 32..35 dropped those points: zeros in place of grid
         * values) */
        if (!sg_cfg(3, 1, 4, 2, "TX=32,TY=64,RX=2,RY=16,NT=64,TSTEPS=1", &c)) {
            why[0] = 0;
            ok(!gk__stencil_gen_reject(&c, 3, 1, 4, NULL, why, sizeof why), "DESIGN=2 RX*RY=32 float32 accepted (%s)",
               why);
            gk__stencil_spec s4;
            if (!gk__sg_spec_build(3, GK_STENCIL_STAR, 1, GK_BOUNDARY_ZERO, GK_DTYPE_FLOAT32, NULL, &s4)
                && !gk__stencil_gen_source(&s4, &c, &src) && src) {
                ok(strstr(src, "unsigned lok[(NL + 31) / 32];") && strstr(src, "t.lok[j / 32] |= 1u << (j % 32);")
                   && !strstr(src, "1u << j"), "DESIGN=2: a word of in-grid flags per 32 of a thread's loads");
                free(src);
                src = NULL;
            } else
                ok(0, "DESIGN=2 RX*RY=32 source: %s", gk_last_error());
        } else
            ok(0, "DESIGN=2 RX*RY=32 configuration: %s", gk_last_error());
    }
    if (ok(gk__sg_spec_build(3, GK_STENCIL_BOX, 4, GK_BOUNDARY_ZERO, GK_DTYPE_FLOAT64, NULL, &s) == GK_OK,
           "3D box r=4 spec")) {
        char *src = NULL;
        gk__stencil_gen_default_design(3, 4, 0, 8, 2, &d);
        gk__space_complete(&gk__space_stencil_gen, &d, &c);
        ok(gk__stencil_gen_source(&s, &c, &src) == GK_OK && src, "DESIGN=2 box r=4 source generated");
        if (src) {
            ok(strstr(src, "sgz_r(") && !strstr(src, "sgz_p0") && strstr(src, "a1[d][jy][jx] = a1[d - 1][jy][jx]"),
               "DESIGN=2 box r=4: one copy of the terms, the queue rotated");
            ok(strstr(src, "a[0][0][0] = __dmul_rn(") != NULL, "DESIGN=2 box r=4: its chain starts with w0*v0");
            free(src);
        }
    }
}

/* The window loads of a generated DESIGN=2 source with RX even
 * (put_z_plane): each 2-wide load at an even column, its x half taken at
 * once and its y half by the next load (the column after it); no two
 * one-wide loads of an even column and the next in one row (a pair
 * missed); the pairs counted in *pairs.  0 when one of them fails. */
static int z_pairs_well_formed(const char *src, int *pairs)
{
    int n = 0, want_y = 0, ly = -1, lx = -1;
    for (const char *l = src; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        int y, x;
        if (sscanf(l, " v2 = *reinterpret_cast<const sgz_v2 *>(sp + %d * PW + %d);", &y, &x) == 2) {
            const char *nl = strchr(l, '\n');
            if (want_y || x % 2 || !nl || strncmp(nl + 1, "    v = v2.x;\n", 14))
                return 0;
            want_y = 1;
            n++;
            l = nl + 1;              /* past its x half */
            ly = lx = -1;
        } else if (!strncmp(l, "    v = v2.y;\n", 14)) {
            if (!want_y)
                return 0;
            want_y = 0;
        } else if (sscanf(l, " v = sp[%d * PW + %d];", &y, &x) == 2) {
            if (want_y || (y == ly && x == lx + 1 && lx % 2 == 0))
                return 0;
            ly = y;
            lx = x;
        } else if (!strncmp(l, "}", 1)) {
            if (want_y)
                return 0;
            ly = lx = -1;
        }
    }
    *pairs = n;
    return !want_y;
}

/* DESIGN=2 with RX even, without a GPU: over stars, boxes and masks of
 * radius 1-3, float32 and float64, RX=2 and 4 (the unrolled and the
 * rotating queues), every pair load well formed (z_pairs_well_formed), a
 * box's every window row in pairs, the pair type aligned to two values
 * and the shared planes to 16 bytes; and the defaults: float32 at radius
 * 1 RX=2 x RY=4 of a 32x32 tile, NT=128, the boxes (more than the star's
 * 6r+1 points) at TSTEPS=2, the stars at 3; float64 and radius 2 RX=1 */
static void design2_pair_checks(void)
{
    static const char *const lay[] = { "TX=32,TY=16,RX=2,RY=2,NT=128,TSTEPS=1",
                                       "TX=64,TY=16,RX=4,RY=2,NT=128,TSTEPS=2" };
    static const gk_stencil_shape shp[] = { GK_STENCIL_STAR, GK_STENCIL_BOX, GK_STENCIL_MASK };
    int good = 1, checked = 0;
    for (int r = 1; r <= 3; r++)
        for (int f = 0; f < 2; f++)
            for (int sh = 0; sh < 3; sh++)
                for (int li = 0; li < 2; li++) {
                    int k = 2 * r + 1, rx = li ? 4 : 2, ry = 2;
                    double w[343];
                    for (int i = 0; i < k * k * k; i++) {
                        int dx = i % k - r, dy = i / k % k - r, dz = i / (k * k) - r;
                        int axes = (dx != 0) + (dy != 0) + (dz != 0);
                        int off = (shp[sh] == GK_STENCIL_STAR && axes > 1)
                                  || (shp[sh] == GK_STENCIL_MASK && (i * 7 + r) % 3 == 0);
                        w[i] = off ? 0 : 0.125 + 0.001 * i;
                    }
                    gk__stencil_spec s;
                    gk_config c;
                    char *src = NULL;
                    int pairs = -1;
                    gk__config_clear(&c);
                    if (gk__sg_spec_build(3, shp[sh], r, GK_BOUNDARY_ZERO, f ? GK_DTYPE_FLOAT64 : GK_DTYPE_FLOAT32, w,
                                          &s)
                        || sg_cfg(3, r, f ? 8 : 4, 2, lay[li], &c) || gk__stencil_gen_source(&s, &c, &src) || !src) {
                        good = 0;
                        diag("RX=%d r=%d %s shape %d: no source (%s)", rx, r, f ? "f64" : "f32", sh, gk_last_error());
                        continue;
                    }
                    int wanted = shp[sh] == GK_STENCIL_BOX ? (rx + 2 * r) * (ry + 2 * r) / 2 : -1;
                    int fns = 0;
                    for (const char *q = strstr(src, "void sgz_"); q; q = strstr(q + 1, "void sgz_"))
                        fns += !strncmp(q, "void sgz_p", 10) || !strncmp(q, "void sgz_r(", 11);
                    if (!z_pairs_well_formed(src, &pairs) || pairs < 1 || (wanted > 0 && pairs != wanted * fns)
                        || !strstr(src, f ? "struct __align__(16) sgz_v2 { real x, y; };"
                                          : "struct __align__(8) sgz_v2 { real x, y; };")
                        || !strstr(src, "extern __shared__ __align__(16) real sg_buf[];")) {
                        good = 0;
                        diag("RX=%d r=%d %s shape %d: %d pair loads in %d plane functions (box: %d each)", rx, r,
                             f ? "f64" : "f32", sh, pairs, fns, wanted);
                    }
                    checked++;
                    free(src);
                }
    ok(good && checked == 36, "DESIGN=2 RX=2, 4: every pair load at an even column, both halves used, no pair missed "
       "(%d sources: stars, boxes, masks r=1-3, f32, f64)", checked);
    /* float32 at radius 1 the pair layout (OX=0), the boxes at T=2 and the
     * stars (at most 6r+1 points; 0, unknown, a star) at T=3; float64 the
     * layout of before (OX=0 for its stars); each accepted by the rules */
    static const struct { int r, np; size_t es; int tx, ty, rx, ry, nt, ts, ox; } zd[] = {
        { 1, 27, 4, 32, 32, 2, 4, 128, 2, 0 }, { 1, 8, 4, 32, 32, 2, 4, 128, 2, 0 },
        { 1, 7, 4, 32, 32, 2, 4, 128, 3, 0 },  { 1, 0, 4, 32, 32, 2, 4, 128, 3, 0 },
        { 1, 27, 8, 32, 32, 1, 4, 256, 3, 1 }, { 1, 7, 8, 32, 32, 1, 4, 256, 3, 0 },
        { 1, 0, 8, 32, 32, 1, 4, 256, 3, 0 },  { 2, 125, 4, 32, 16, 1, 2, 256, 1, 1 } };
    for (size_t i = 0; i < sizeof zd / sizeof zd[0]; i++) {
        gk_config d, full;
        char why[256] = "";
        gk__stencil_gen_default_design(3, zd[i].r, zd[i].np, zd[i].es, -1, &d);
        int accepted = !gk__space_complete(&gk__space_stencil_gen, &d, &full)
                       && !gk__stencil_gen_reject(&full, 3, zd[i].r, zd[i].es, NULL, why, sizeof why);
        ok(accepted && gk__config_get(&d, "TX", 0) == zd[i].tx && gk__config_get(&d, "TY", 0) == zd[i].ty
               && gk__config_get(&d, "RX", 0) == zd[i].rx && gk__config_get(&d, "RY", 0) == zd[i].ry
               && gk__config_get(&d, "NT", 0) == zd[i].nt && gk__config_get(&d, "TSTEPS", 0) == zd[i].ts
               && gk__config_get(&d, "OX", -1) == zd[i].ox && gk__config_get(&d, "PF", 0) == 3
               && gk__config_get(&d, "DESIGN", 0) == 2,
           "DESIGN=2 defaults r=%d, %d points, %zu-byte: TX=%d TY=%d RX=%d RY=%d NT=%d TSTEPS=%d OX=%d PF=3, "
           "accepted (%s)", zd[i].r, zd[i].np, zd[i].es, zd[i].tx, zd[i].ty, zd[i].rx, zd[i].ry, zd[i].nt,
           zd[i].ts, zd[i].ox, why);
    }
}

/* every WHAT of a generated DESIGN=1 source lies under the directive U1
   or U2 (the nearest directive before it); the count of them, -1 if one
   lies elsewhere */
static int only_under(const char *src, const char *what, const char *u1, const char *u2)
{
    int n = 0;
    for (const char *p = strstr(src, what); p; p = strstr(p + 1, what), n++) {
        const char *d = p;
        while (d > src && !(d[-1] == '\n' && d[0] == '#'))
            d--;
        if (strncmp(d, u1, strlen(u1)) && (!u2 || strncmp(d, u2, strlen(u2))))
            return -1;
    }
    return n;
}

/* shared memory only for the rings of ST=2 ("#if ST == 2", a warp's own)
   and the rows of XH=1 ("#if XH"), and at least one */
static int shared_only_at_st2(const char *src)
{
    return only_under(src, "__shared__", "#if ST == 2\n", "#if XH\n") > 0;
}

/* no barrier but XH=1's (the block's warps share their rows) */
static int barrier_only_at_xh(const char *src)
{
    return only_under(src, "__syncthreads", "#if XH\n", NULL) >= 0;
}

static void source_checks(void)
{
    double w[9] = { 0, 0.25, 0, 0.125, -0.5, 0.125, 0, 1.0 / 3.0, 0 };
    gk__stencil_spec s;
    ok(gk__sg_spec_build(2, GK_STENCIL_STAR, 1, GK_BOUNDARY_FIXED, GK_DTYPE_FLOAT32, w, &s) == GK_OK, "2D star spec");
    is_int(s.npoints, 5, "a 2D star of radius 1 has 5 points");
    ok(!strncmp(s.key, "2d-star-r1-f32-fixed-", 21), "key %s", s.key);
    char shape[96];
    gk__sg_shape_key(&s, shape, sizeof shape);
    ok(!strcmp(shape, "2d-star-r1-f32-fixed"), "shape key %s", shape);
    ok(s.w[4] == (double)(float)(1.0 / 3.0), "float32 weights rounded to float once");
    gk_config c;
    gk__stencil_gen_default(2, 1, &c);
    gk__config_set(&c, "TSTEPS", 3);
    char *src = NULL;
    ok(gk__stencil_gen_source(&s, &c, &src) == GK_OK && src, "source generated");
    if (src) {
        char lit[64];
        snprintf(lit, sizeof lit, "%af", (double)(float)(1.0 / 3.0));
        ok(strstr(src, lit) != NULL, "the weight %s is an exact literal", lit);
        ok(strstr(src, "__fmul_rn(0x1p-2f, pl[0][p + (0 * PW + 0)])") != NULL, "chain starts with w0*v0 at dy=-1");
        ok(strstr(src, "gk_sg_t3") && !strstr(src, "gk_sg_t4"), "kernels for T = 1..3");
        ok(strstr(src, "#define BND 2") != NULL, "fixed boundary");
        free(src);
    }
    /* the second design: warp streaming, no shared memory, no barrier */
    gk_config w1;
    gk__stencil_gen_default_design(2, 1, 0, 4, 1, &w1);
    is_int(gk__config_get(&w1, "DESIGN", -1), 1, "the warp design's defaults name it");
    src = NULL;
    ok(gk__stencil_gen_source(&s, &w1, &src) == GK_OK && src, "DESIGN=1 source generated");
    if (src) {
        ok(strstr(src, "__shfl_up_sync") && strstr(src, "__shfl_down_sync"), "DESIGN=1: x neighbours by shuffles");
        /* shared memory only for the rows in flight of ST=2 (a warp's own
           ring, no barrier), which the star r1 does not take */
        ok(barrier_only_at_xh(src) && strstr(src, "#define ST 0\n") && strstr(src, "#define XH 0\n")
           && shared_only_at_st2(src), "DESIGN=1: no barrier, no shared memory at ST=0 and XH=0");
        ok(strstr(src, "__fmul_rn(0x1p-2f, e0[R + j + (0)])") != NULL, "DESIGN=1: chain starts with w0*v0 at dy=-1");
        /* radius 1 float32: 8 steps per pass by default, a kernel each */
        is_int(gk__config_get(&w1, "TSTEPS", 0), 8, "DESIGN=1 r=1 float32: 8 steps per pass by default");
        ok(strstr(src, "gk_sg_t1(") && strstr(src, "gk_sg_t8(") && !strstr(src, "gk_sg_t9"),
           "DESIGN=1: kernels for T = 1..8");
        /* a star's rows off the centre need no x halo: one shuffle loop pair */
        const char *a = strstr(src, "__shfl_up_sync"), *b2 = a ? strstr(a + 1, "__shfl_up_sync") : NULL;
        ok(a && !b2, "DESIGN=1: a star shuffles its centre row only");
        free(src);
    }
    /* GK_STENCIL_GEN_DUMP=DIR: the sources of every 2D star/box, both
     * designs (their defaults), and every 3D one (DESIGN=0 and 2), written
     * there to be compiled with nvcc where there is no GPU (HACKING.md) */
    const char *dump = getenv("GK_STENCIL_GEN_DUMP");
    for (int sh = 1; dump && sh <= 2; sh++)
        for (int r = 1; r <= 4; r++)
            for (int ty = 0; ty < 2; ty++)
                for (int design = 0; design <= 1; design++) {
                    gk__stencil_spec ds;
                    gk_dtype t = ty ? GK_DTYPE_FLOAT64 : GK_DTYPE_FLOAT32;
                    gk_boundary bd = (gk_boundary)((r + ty + sh) % 3);
                    if (gk__sg_spec_build(2, (gk_stencil_shape)sh, r, bd, t, NULL, &ds)) continue;
                    gk_config dc, full;
                    gk__stencil_gen_default_design(2, r, ds.npoints, ty ? 8 : 4, design, &dc);
                    char *text = NULL, path[512];
                    if (gk__space_complete(&gk__space_stencil_gen, &dc, &full)
                        || gk__stencil_gen_source(&ds, &full, &text))
                        continue;
                    snprintf(path, sizeof path, "%s/%s-design%d.cu", dump, ds.key, design);
                    FILE *f = fopen(path, "w");
                    if (f) { fputs(text, f); fclose(f); }
                    free(text);
                }
    /* and every 3D star and box, DESIGN=0 and 2 (its defaults: PF=3); design
     * 3 here: DESIGN=2 with temporal blocking, 4 steps per pass at radius 1,
     * else 2, the input planes through registers (PF=1); design 4: the same
     * with the planes copied asynchronously (PF=3) */
    for (int sh = 1; dump && sh <= 2; sh++)
        for (int r = 1; r <= 4; r++)
            for (int ty = 0; ty < 2; ty++)
                for (int design = 0; design <= 4; design += design == 0 ? 2 : 1) {
                    gk__stencil_spec ds;
                    gk_dtype t = ty ? GK_DTYPE_FLOAT64 : GK_DTYPE_FLOAT32;
                    gk_boundary bd = (gk_boundary)((r + ty + sh) % 3);
                    if (gk__sg_spec_build(3, (gk_stencil_shape)sh, r, bd, t, NULL, &ds)) continue;
                    gk_config dc, full;
                    gk__stencil_gen_default_design(3, r, ds.npoints, ty ? 8 : 4, design > 2 ? 2 : design, &dc);
                    if (design >= 3)
                        gk__config_set(&dc, "TSTEPS", r == 1 ? 4 : 2);
                    if (design >= 3)            /* the defaults' PF is 3: design 3 the register prefetch */
                        gk__config_set(&dc, "PF", design == 3 ? 1 : 3);
                    char *text = NULL, path[512];
                    if (gk__space_complete(&gk__space_stencil_gen, &dc, &full)
                        || gk__stencil_gen_source(&ds, &full, &text))
                        continue;
                    snprintf(path, sizeof path, "%s/%s-design%d.cu", dump, ds.key, design);
                    FILE *f = fopen(path, "w");
                    if (f) { fputs(text, f); fclose(f); }
                    free(text);
                }
    /* the rules */
    char why[256] = "";
    gk__stencil_gen_default(3, 1, &c);
    ok(!gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why), "3D defaults accepted");
    gk__stencil_gen_default(2, 4, &c);
    ok(!gk__stencil_gen_reject(&c, 2, 4, 8, NULL, why, sizeof why), "2D defaults accepted");
    gk__config_set(&c, "TY", 4);
    ok(gk__stencil_gen_reject(&c, 2, 4, 8, NULL, why, sizeof why) && strstr(why, "TY"), "2D TY=4 refused: %s", why);
    gk__stencil_gen_default(3, 4, &c);
    gk__config_set(&c, "TSTEPS", 4);
    gk__config_set(&c, "TY", 16);
    ok(gk__stencil_gen_reject(&c, 3, 4, 8, NULL, why, sizeof why) && strstr(why, "shared memory"),
       "too much shared memory refused: %s", why);
    gk__stencil_gen_default(3, 1, &c);
    gk__config_set(&c, "NT", 100);
    ok(gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why), "NT=100 refused: %s", why);
    /* an accepted configuration has no reason: the refusal's before it
       was left in why, and the tests below printed "DESIGN=1 defaults ...
       accepted (NT=100 is not a multiple of 32)" */
    gk__stencil_gen_default(3, 1, &c);
    ok(!gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why) && why[0] == '\0',
       "accepted after a refusal: why is empty ('%s')", why);
    gk_config wf;
    for (int r = 1; r <= 4; r++)
        for (size_t es = 4; es <= 8; es += 4)
            for (int np = 0; np <= 2; np++) {     /* unknown, the star's 4r+1 points, the box's */
                int npoints = np == 0 ? 0 : np == 1 ? 4 * r + 1 : (2 * r + 1) * (2 * r + 1);
                gk__stencil_gen_default_design(2, r, npoints, es, 1, &wf);
                gk__space_complete(&gk__space_stencil_gen, &wf, &c);
                ok(!gk__stencil_gen_reject(&c, 2, r, es, NULL, why, sizeof why), "DESIGN=1 defaults r=%d %zu-byte "
                   "%d points accepted (%s)", r, es, npoints, why);
            }
    /* the shape matters: at radius 3 in float32 the star's defaults take
       PX=3 and plain warps, the box's (a long chain) PX=4 and one stream */
    gk_config wstar, wbox;
    gk__stencil_gen_default_design(2, 3, 13, 4, 1, &wstar);
    gk__stencil_gen_default_design(2, 3, 49, 4, 1, &wbox);
    ok(gk__config_get(&wstar, "PX", 0) == 3 && gk__config_get(&wstar, "PL", 0) == 1
       && gk__config_get(&wstar, "AC", 1) == 0 && gk__config_get(&wbox, "PX", 0) == 4
       && gk__config_get(&wbox, "PL", 0) == 1 && gk__config_get(&wbox, "AC", 0) == 2
       && gk__config_get(&wstar, "ST", 0) == 2 && gk__config_get(&wbox, "ST", 1) == 0,
       "2D r3 f32 defaults: star PX=3 PL=1 AC=0 ST=2, box PX=4 PL=1 AC=2 ST=0");
    /* XH=1 by default for the stars from radius 2 (bench/stencil-2d-xh2.txt),
       not at radius 1 nor for the boxes; the float64 stars' layouts with it */
    {
        int good = 1;
        for (int r = 1; r <= 4; r++)
            for (size_t es = 4; es <= 8; es += 4) {
                gk_config st_, bx;
                gk__stencil_gen_default_design(2, r, 4 * r + 1, es, -1, &st_);
                gk__stencil_gen_default_design(2, r, (2 * r + 1) * (2 * r + 1), es, -1, &bx);
                if (gk__config_get(&st_, "XH", -1) != (r >= 2) || gk__config_get(&bx, "XH", -1) != 0)
                    good = 0;
            }
        ok(good, "2D defaults: XH=1 for the stars of radius 2-4, XH=0 at radius 1 and for the boxes");
        gk_config b3d, b3f, b2d;
        gk__stencil_gen_default_design(2, 3, 49, 8, -1, &b3d);
        gk__stencil_gen_default_design(2, 3, 49, 4, -1, &b3f);
        gk__stencil_gen_default_design(2, 2, 25, 8, -1, &b2d);
        ok(gk__config_get(&b3d, "NT", 0) == 64 && gk__config_get(&b3f, "NT", 0) == 128
           && gk__config_get(&b2d, "NT", 0) == 128, "2D defaults: NT=64 for the float64 box r3 only");
        gk_config f2, f3, f4;
        gk__stencil_gen_default_design(2, 2, 9, 8, -1, &f2);
        gk__stencil_gen_default_design(2, 3, 13, 8, -1, &f3);
        gk__stencil_gen_default_design(2, 4, 17, 8, -1, &f4);
        ok(gk__config_get(&f2, "TSTEPS", 0) == 6 && gk__config_get(&f2, "PX", 0) == 2
           && gk__config_get(&f3, "TSTEPS", 0) == 3 && gk__config_get(&f3, "PX", 0) == 3
           && gk__config_get(&f4, "TSTEPS", 0) == 3 && gk__config_get(&f4, "PX", 0) == 2,
           "2D float64 stars with XH=1: r2 T=6 PX=2, r3 T=3 PX=3, r4 T=3 PX=2");
    }
    /* the points the defaults count: a 2D mask with x offsets off the
       centre row is box-like however few its points (XH=1 cannot run
       it); a star, a mask like one and a 3D mask count as they are */
    {
        static const int8_t mdx[5] = { -1, 0, -2, 2, 0 }, mdy[5] = { -1, -2, 0, 0, 2 };
        gk__stencil_spec ms;
        memset(&ms, 0, sizeof ms);
        ms.dims = 2;
        ms.radius = 2;
        ms.npoints = 5;
        for (int i = 0; i < 5; i++) {
            ms.dx[i] = mdx[i];
            ms.dy[i] = mdy[i];
        }
        int diag_points = gk__stencil_gen_points(&ms), diag_row = gk__stencil_gen_centre_row_only(&ms);
        ms.dx[0] = 0;                 /* (0, -1): the mask now like a star */
        int star_points = gk__stencil_gen_points(&ms), star_row = gk__stencil_gen_centre_row_only(&ms);
        ms.dims = 3;
        ms.dx[0] = -1;
        ms.dz[0] = 0;
        int d3_points = gk__stencil_gen_points(&ms);
        ok(diag_points == 10 && !diag_row && star_points == 5 && star_row && d3_points == 5,
           "defaults' points: a 2D r2 mask of 5 with a diagonal counts 10 (box-like), like a star 5, in 3D 5 "
           "(%d %d %d)", diag_points, star_points, d3_points);
        gk_config md;
        gk__stencil_gen_default_design(2, 2, diag_points, 4, -1, &md);
        ok(gk__config_get(&md, "XH", -1) == 0, "that mask's defaults: XH=0");
    }
    /* what ST and MB generate: the ring and its cp.async at ST=2 (AC=0 and
       2), ST forced to 0 where the design has no such queue (ST=1 and 2 with
       AC=1, ST=1 with AC=2), MB in the launch bounds */
    {
        static const struct { const char *cfg; int st, mb; } g[] = {
            { "DESIGN=1,PX=3,TSTEPS=3,PF=4,AC=0,ST=2,MB=4", 2, 4 },
            { "DESIGN=1,PX=3,TSTEPS=3,PF=0,AC=2,ST=2,MB=0", 2, 0 },
            { "DESIGN=1,PX=3,TSTEPS=3,PF=2,AC=0,ST=1,MB=0", 1, 0 },
            { "DESIGN=1,PX=3,TSTEPS=3,PF=2,AC=1,ST=2,MB=0", 0, 0 },
            { "DESIGN=1,PX=3,TSTEPS=3,PF=2,AC=1,ST=1,MB=0", 0, 0 },
            { "DESIGN=1,PX=3,TSTEPS=3,PF=2,AC=2,ST=1,MB=4", 0, 4 },
        };
        ok(!shared_only_at_st2("#if ST == 2\n#endif\n__shared__ int x;") && !shared_only_at_st2("#if ST\n__shared__")
           && !shared_only_at_st2("no ring") && shared_only_at_st2("#if ST == 2\n__shared__ int x;"),
           "shared_only_at_st2 refuses a __shared__ outside \"#if ST == 2\"");
        ok(shared_only_at_st2("#if XH\nextern __shared__ real x[];") && !shared_only_at_st2("#if XH2\n__shared__")
           && barrier_only_at_xh("none") && barrier_only_at_xh("#if XH\n__syncthreads();")
           && !barrier_only_at_xh("#if XH\n#endif\n__syncthreads();"),
           "shared_only_at_st2 takes XH's rows; barrier_only_at_xh refuses a barrier outside \"#if XH\"");
        gk__stencil_spec gs;
        ok(!gk__sg_spec_build(2, GK_STENCIL_STAR, 3, GK_BOUNDARY_FIXED, GK_DTYPE_FLOAT32, NULL, &gs),
           "star r3 f32 description for the ST/MB sources");
        for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
            gk_config gc;
            char *gsrc = NULL, def[32], lb[48];
            int built = !gk__stencil_gen_config_user(g[i].cfg, "2d-star-r3", 2, 3, 13, 4, NULL, &gc)
                        && gk__stencil_gen_source(&gs, &gc, &gsrc) == GK_OK && gsrc;
            snprintf(def, sizeof def, "#define ST %d\n", g[i].st);
            if (g[i].mb)
                snprintf(lb, sizeof lb, "__launch_bounds__(NT, %d) gk_sg_t1(", g[i].mb);
            else
                snprintf(lb, sizeof lb, "__launch_bounds__(NT) gk_sg_t1(");
            ok(built && strstr(gsrc, def) && strstr(gsrc, lb) && shared_only_at_st2(gsrc),
               "%s: ST %d generated, %s", g[i].cfg, g[i].st, lb);
            free(gsrc);
        }
        /* XH=1: the centre row's x halo read from the shared rows, no
           shuffle; the rows' size; refused for boxes, with AC, past the
           shared memory, and with no column left to store */
        gk_config xc;
        char *xsrc = NULL;
        int xbuilt = !gk__stencil_gen_config_user("DESIGN=1,XH=1,PX=3,TSTEPS=3,NT=128", "2d-star-r3", 2, 3, 13, 4, NULL,
                                                  &xc)
                     && gk__stencil_gen_source(&gs, &xc, &xsrc) == GK_OK && xsrc;
        ok(xbuilt && strstr(xsrc, "#define XH 1\n") && strstr(xsrc, "#define XL (NT + 2 * R)\n")
           && strstr(xsrc, "e3[R - h] = xc[") && strstr(xsrc, "e3[R + P - 1 + h] = xc[") && !strstr(xsrc, "__shfl_")
           && shared_only_at_st2(xsrc) && barrier_only_at_xh(xsrc),
           "XH=1: the star's centre row (e3) from the shared row, no shuffle");
        free(xsrc);
        is_int((long long)gk__stencil_gen_smem(&xc, 2, 3, 4, 3), 3 * 7 * 3 * (128 + 6) * 4,
               "XH=1 shared rows: T*(2r+1) rows of PX*(NT+2r) values");
        gk__stencil_spec xbox;
        xsrc = NULL;
        ok(!gk__sg_spec_build(2, GK_STENCIL_BOX, 3, GK_BOUNDARY_FIXED, GK_DTYPE_FLOAT32, NULL, &xbox)
           && !gk__stencil_gen_config_user("DESIGN=1,XH=1,PX=3,TSTEPS=2,AC=0", "2d-box-r3", 2, 3, 49, 4, NULL, &xc)
           && gk__stencil_gen_source(&xbox, &xc, &xsrc) == GK_EINVAL && !xsrc
           && strstr(gk_last_error(), "XH=1") && strstr(gk_last_error(), "stars"),
           "XH=1 on a box: refused when generated (%s)", gk_last_error());
        gk__clear_error();
        static const struct { const char *cfg; int r; size_t es; const char *why; } xr[] = {
            { "DESIGN=1,XH=1,PX=8,TSTEPS=8,NT=1024,ST=0", 4, 8, "XH=1: shared memory" },
            { "DESIGN=1,XH=1,PX=1,TSTEPS=8,NT=32", 2, 4, "block strip" },
        };
        for (size_t i = 0; i < sizeof xr / sizeof xr[0]; i++) {
            gk_config xf;
            gk_status xst = gk__stencil_gen_config_user(xr[i].cfg, "2d-star", 2, xr[i].r, 4 * xr[i].r + 1, xr[i].es,
                                                        NULL, &xf);
            ok(xst == GK_EINVAL && strstr(gk_last_error(), xr[i].why), "%s refused: %s", xr[i].cfg, gk_last_error());
            gk__clear_error();
        }
        /* XH=1 is the gather's: with AC=1 or 2 the kernel is AC's (as
           ST), so a star's defaults (XH=1) with AC named run */
        gk_config xa;
        char *asrc = NULL;
        ok(!gk__stencil_gen_config_user("AC=2", "2d-star-r3", 2, 3, 13, 4, NULL, &xa)
           && gk__config_get(&xa, "XH", 0) == 1 && !gk__stencil_gen_xh(&xa)
           && gk__stencil_gen_source(&gs, &xa, &asrc) == GK_OK && asrc && strstr(asrc, "#define XH 0\n")
           && strstr(asrc, "__shfl_") && gk__stencil_gen_smem(&xa, 2, 3, 4, 3) == 0,
           "AC=2 over a star's defaults: XH=1 named by them, not used (XH 0 generated, no shared rows)");
        free(asrc);
        gk__clear_error();
        /* a block strip with columns left where a warp's has none */
        gk_config xw;
        ok(!gk__stencil_gen_config_user("DESIGN=1,XH=1,PX=1,TSTEPS=8,NT=128,PF=0,ST=0", "2d-star-r2", 2, 2, 9, 4,
                                        NULL, &xw),
           "XH=1 PX=1 T=8 r=2: 128 columns less 32 a side accepted (a warp's 32 would leave none)");
        gk__clear_error();
        /* the XH=1 rule counts the dynamic rows and the ST=2 rings (static)
           together, as the launch needs them: on 64 KiB the rows of r2 f64
           T=6 PX=2 NT=128 (6*5*2*132*8 = 63360 bytes) fit alone, not with
           the rings of PF=4 (4*5*2*32*8 = 10240) */
        gk_device_info d64;
        memset(&d64, 0, sizeof d64);
        d64.smem_per_block_optin = 64 * 1024;
        char xwhy[256] = "", x2why[256] = "";
        gk_config xs2, xs0;
        int r2 = !gk__stencil_gen_config_user("DESIGN=1,XH=1,PX=2,TSTEPS=6,NT=128,PF=4,ST=2", "2d-star-r2", 2, 2, 9, 8,
                                              NULL, &xs2);
        int r0 = !gk__stencil_gen_config_user("DESIGN=1,XH=1,PX=2,TSTEPS=6,NT=128,PF=4,ST=0", "2d-star-r2", 2, 2, 9, 8,
                                              NULL, &xs0);
        ok(r2 && r0 && gk__stencil_gen_smem(&xs2, 2, 2, 8, 6) == 63360
           && gk__stencil_gen_reject(&xs2, 2, 2, 8, &d64, x2why, sizeof x2why) && strstr(x2why, "73600")
           && strstr(x2why, "ST=2 rings") && !gk__stencil_gen_reject(&xs0, 2, 2, 8, &d64, xwhy, sizeof xwhy),
           "XH=1 on 64 KiB: rows of 63360 bytes and rings of 10240 refused together (%s), the rows alone (ST=0) "
           "accepted %s", x2why, xwhy);
        gk__clear_error();
        /* the 2D defaults (XH=1 on the stars from radius 2, with ST=2's
           rings) fit the 99 KiB of sm_86, sm_89 and sm_120 as they stand (the
           largest: r3 f64, 3*7*3*134*8 + 4*5*3*32*8 = 82896 bytes); below
           sm_80 ST=2's cp.async does not compile anyway */
        gk_device_info d99;
        memset(&d99, 0, sizeof d99);
        d99.smem_per_block_optin = 99 * 1024;
        int fit99 = 1;
        for (int r = 1; r <= 4; r++)
            for (size_t es = 4; es <= 8; es += 4)
                for (int box = 0; box <= 1; box++) {
                    gk_config dd, df;
                    gk__stencil_gen_default_design(2, r, box ? (2 * r + 1) * (2 * r + 1) : 4 * r + 1, es, -1, &dd);
                    gk__space_complete(&gk__space_stencil_gen, &dd, &df);
                    if (gk__stencil_gen_reject(&df, 2, r, es, &d99, xwhy, sizeof xwhy)) {
                        diag("2D defaults r=%d %zu-byte %s refused on 99 KiB: %s", r, es, box ? "box" : "star", xwhy);
                        fit99 = 0;
                    }
                }
        ok(fit99, "the 2D defaults (XH=1 on the stars from radius 2) accepted on 99 KiB of shared memory");
    }
    /* the tiles' origin: y and z (2D: y) from r with the fixed boundary in
       DESIGN=1 and 2, x from r only with OX=1; 0 for the other boundaries
       (OX named or not) */
    {
        static const struct { int dims, bnd; const char *cfg; int o, ox; } g[] = {
            { 2, GK_BOUNDARY_FIXED, "DESIGN=1,OX=1", 3, 3 },
            { 2, GK_BOUNDARY_FIXED, "DESIGN=1,OX=0", 3, 0 },
            { 2, GK_BOUNDARY_ZERO, "DESIGN=1,OX=1", 0, 0 },
            { 2, GK_BOUNDARY_PERIODIC, "DESIGN=1,OX=1", 0, 0 },
            { 3, GK_BOUNDARY_FIXED, "DESIGN=2,OX=1", 3, 3 },
            { 3, GK_BOUNDARY_FIXED, "DESIGN=2,OX=0", 3, 0 },
            { 3, GK_BOUNDARY_PERIODIC, "DESIGN=2,OX=1", 0, 0 },
            { 3, GK_BOUNDARY_ZERO, "DESIGN=2,OX=1", 0, 0 },
        };
        for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
            gk__stencil_spec os;
            gk_config oc;
            char *osrc = NULL, want[48];
            int built = !gk__sg_spec_build(g[i].dims, GK_STENCIL_STAR, 3, (gk_boundary)g[i].bnd, GK_DTYPE_FLOAT64,
                                           NULL, &os)
                        && !gk__stencil_gen_config_user(g[i].cfg, os.key, g[i].dims, 3, g[i].dims == 2 ? 13 : 19, 8,
                                                        NULL, &oc)
                        && gk__stencil_gen_source(&os, &oc, &osrc) == GK_OK && osrc;
            snprintf(want, sizeof want, "#define OR %d\n#define ORX %d\n", g[i].o, g[i].ox);
            ok(built && strstr(osrc, want), "%dD %s %s: tiles from y/z %d, x %d", g[i].dims, bnds[g[i].bnd], g[i].cfg,
               g[i].o, g[i].ox);
            free(osrc);
        }
        gk_config od;
        gk__stencil_gen_default_design(3, 2, 13, 8, -1, &od);
        int s2 = gk__config_get(&od, "OX", -1);
        gk__stencil_gen_default_design(3, 3, 19, 8, -1, &od);
        int s3 = gk__config_get(&od, "OX", -1);
        gk__stencil_gen_default_design(3, 2, 125, 8, -1, &od);
        int b2 = gk__config_get(&od, "OX", -1);
        gk__stencil_gen_default_design(2, 1, 5, 4, -1, &od);
        int ow1 = gk__config_get(&od, "OX", -1);
        gk__stencil_gen_default_design(2, 1, 5, 8, -1, &od);
        int ow1d = gk__config_get(&od, "OX", -1);
        ok(s2 == 0 && s3 == 1 && b2 == 1 && ow1 == 1 && ow1d == 0,
           "OX defaults: 3D star r2 f64 %d, r3 %d, box r2 f64 %d; 2D star r1 f32 %d, f64 %d", s2, s3, b2, ow1, ow1d);
    }
    /* AC when nobody names it: a --config without AC takes the
       description's default (the box r3 f32: AC=2, its star: 0), a named AC
       wins, and a tuned entry (written before AC existed) runs the gather */
    {
        gk_config full;
        int ok1 = !gk__stencil_gen_config_user("DESIGN=1,PX=4,TSTEPS=2", "2d-box-r3", 2, 3, 49, 4, NULL, &full);
        int a1 = gk__config_get(&full, "AC", -1);
        int ok2 = !gk__stencil_gen_config_user("DESIGN=1,PX=4,TSTEPS=2,AC=1", "2d-box-r3", 2, 3, 49, 4, NULL, &full);
        int a2 = gk__config_get(&full, "AC", -1);
        int ok3 = !gk__stencil_gen_config_user("DESIGN=1,PX=3,TSTEPS=2", "2d-star-r3", 2, 3, 13, 4, NULL, &full);
        int a3 = gk__config_get(&full, "AC", -1);
        ok(ok1 && a1 == 2 && ok2 && a2 == 1 && ok3 && a3 == 0,
           "--config without AC: the description's default (box r3 f32 AC=%d, star AC=%d); AC=1 named: AC=%d", a1, a3,
           a2);
    }
#ifdef GK_HAVE_CUDA
    {
        char dir[] = "/tmp/gk-sg-ac-XXXXXX", key[512], model[300], path[700], skey[96];
        gk__stencil_spec sp;
        gk_device_info di;
        gk_config tc;
        memset(&di, 0, sizeof di);
        snprintf(di.name, sizeof di.name, "Test GPU");
        gk__config_clear(&tc);
        int got = -1, ac = -1, px = -1, st = -1, mb = -1, ox = -1, xh = -1, sgot = -1;
        if (mkdtemp(dir) && !gk__sg_spec_build(2, GK_STENCIL_BOX, 3, GK_BOUNDARY_FIXED, GK_DTYPE_FLOAT32, NULL, &sp)) {
            gk__tune_key(&di, key, sizeof key);
            gk__tune_model(key, model, sizeof model);
            gk__sg_shape_key(&sp, skey, sizeof skey);
            snprintf(path, sizeof path, "%s/stencil-gen-%s.txt", dir, model);
            FILE *f = fopen(path, "w");
            if (f) {
                /* a complete configuration of before AC, as gktune wrote it */
                fprintf(f, "key %s\n%s 4096 TX=512,TY=1,NT=128,ZC=256,TSTEPS=2,DESIGN=1,PX=3,RX=1,RY=4,PF=0,SK=1,"
                        "PL=1 1.0 2.0\n", key, skey);
                fclose(f);
                got = gk__stencil_gen_tuned(&di, dir, &sp, 4096, &tc);
                ac = gk__config_get(&tc, "AC", -1);
                px = gk__config_get(&tc, "PX", -1);
            }
            /* the same for ST and MB, on the star r3 f32 (whose defaults
               are ST=2 MB=4): an entry of before them runs 0 */
            gk__stencil_spec ss;
            char sskey[96];
            f = gk__sg_spec_build(2, GK_STENCIL_STAR, 3, GK_BOUNDARY_FIXED, GK_DTYPE_FLOAT32, NULL, &ss) ? NULL
                                                                                                      : fopen(path, "w");
            if (f) {
                gk__sg_shape_key(&ss, sskey, sizeof sskey);
                fprintf(f, "key %s\n%s 4096 TX=512,TY=1,NT=128,ZC=256,TSTEPS=4,DESIGN=1,PX=3,RX=1,RY=4,PF=2,SK=1,"
                        "PL=1,AC=0 1.0 2.0\n", key, sskey);
                fclose(f);
                gk__config_clear(&tc);
                sgot = gk__stencil_gen_tuned(&di, dir, &ss, 4096, &tc);
                st = gk__config_get(&tc, "ST", -1);
                mb = gk__config_get(&tc, "MB", -1);
                ox = gk__config_get(&tc, "OX", -1);
                xh = gk__config_get(&tc, "XH", -1);
            }
            unlink(path);
            rmdir(dir);
        }
        ok(got == 1 && px == 3 && ac == 0, "a tuned entry without AC runs the gather (read: %d, PX=%d, AC=%d)", got, px,
           ac);
        ok(sgot == 1 && st == 0 && mb == 0, "a tuned entry without ST and MB runs them at 0 (read: %d, ST=%d, MB=%d)",
           sgot, st, mb);
        ok(sgot == 1 && ox == 0, "a tuned entry without OX runs OX=0, x tiles from column 0 (read: %d, OX=%d)", sgot, ox);
        /* that star's defaults are XH=1 now: an entry of before XH runs the
           kernel it was measured with (XH=0) */
        ok(sgot == 1 && xh == 0, "a tuned entry without XH runs XH=0, the warps' own strips (read: %d, XH=%d)", sgot,
           xh);
    }
#endif
    gk__stencil_gen_default_design(2, 3, 0, 8, -1, &wf);
    is_int(gk__config_get(&wf, "DESIGN", -1), 1, "the 2D default design is warp streaming");
    gk__stencil_gen_default_design(3, 3, 0, 8, -1, &wf);
    is_int(gk__config_get(&wf, "DESIGN", -1), 2, "the 3D default design is z-streaming");
    gk__stencil_gen_default_design(3, 1, 0, 8, 1, &wf);
    is_int(gk__config_get(&wf, "DESIGN", 0), 0, "3D has the ring design only");
    gk__config_set(&wf, "DESIGN", 1);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(gk__stencil_gen_reject(&c, 3, 1, 8, NULL, why, sizeof why) && strstr(why, "2D"), "DESIGN=1 in 3D refused: %s",
       why);
    /* PX < r: a lane's x neighbours from lanes further away (the GPU cases
     * below run it) */
    gk__stencil_gen_default_design(2, 3, 0, 4, 1, &wf);
    gk__config_set(&wf, "PX", 2);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(!gk__stencil_gen_reject(&c, 2, 3, 4, NULL, why, sizeof why), "PX=2 < r=3 accepted (%s)", why);
    /* more than 4 steps per pass: the warp design's only */
    gk__stencil_gen_default_design(2, 1, 0, 4, 1, &wf);
    gk__config_set(&wf, "TSTEPS", 8);
    gk__config_set(&wf, "PF", 2);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(!gk__stencil_gen_reject(&c, 2, 1, 4, NULL, why, sizeof why), "DESIGN=1 TSTEPS=8 r=1 f32 accepted (%s)", why);
    gk__config_set(&c, "TSTEPS", 9);
    ok(gk__space_check_ranges(&gk__space_stencil_gen, &c, why, sizeof why) && strstr(why, "TSTEPS"),
       "TSTEPS=9 outside the range: %s", why);
    gk__config_set(&c, "TSTEPS", 8);
    gk__config_set(&c, "PX", 8);     /* (8*3+2)*8 = 208 registers of queues */
    ok(gk__stencil_gen_reject(&c, 2, 1, 4, NULL, why, sizeof why) && strstr(why, "208"),
       "TSTEPS=8 PX=8 PF=2 r=1 f32: 208 registers refused: %s", why);
#ifdef GK_HAVE_CUDA
    /* the bench's and the tuner's bit-for-bit check runs the T-step kernel
     * and a remainder: 5 steps up to T = 4, T + 1 above (5 steps of T = 8
     * would run only the 5-step kernel) */
    for (int t = 1; t <= GK__SG_TMAX; t++) {
        gk__config_set(&c, "TSTEPS", t);
        int cs = gk__sg_check_steps(&c);
        ok(cs >= t + 1 && (t > 4 || cs == 5), "TSTEPS=%d checked over %d steps (a pass and a remainder)", t, cs);
    }
    gk__config_set(&c, "TSTEPS", 8);
#endif
    for (int d = 0; d <= 2; d += 2) {
        gk__stencil_gen_default_design(2 + (d == 2), 1, 0, 4, d, &wf);
        gk__config_set(&wf, "TSTEPS", 5);
        gk__space_complete(&gk__space_stencil_gen, &wf, &c);
        ok(gk__stencil_gen_reject(&c, 2 + (d == 2), 1, 4, NULL, why, sizeof why) && strstr(why, "warp design"),
           "DESIGN=%d TSTEPS=5 refused: %s", d, why);
    }
    gk__stencil_gen_default_design(2, 4, 0, 8, 1, &wf);
    gk__config_set(&wf, "TSTEPS", 4);
    gk__config_set(&wf, "PX", 4);
    gk__config_set(&wf, "PF", 2);   /* (4*9+2)*4 doubles: 304 registers */
    gk__config_set(&wf, "ST", 0);   /* the rows in flight in the register queue */
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(gk__stencil_gen_reject(&c, 2, 4, 8, NULL, why, sizeof why) && strstr(why, "304"),
       "register queues too large refused: %s", why);
    gk__stencil_gen_default_design(2, 4, 0, 4, 1, &wf);
    gk__config_set(&wf, "PX", 6);
    gk__config_set(&wf, "PF", 1);
    gk__config_set(&wf, "TSTEPS", 4);
    gk__config_set(&wf, "ST", 0);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(gk__stencil_gen_reject(&c, 2, 4, 4, NULL, why, sizeof why) && strstr(why, "222"),
       "TSTEPS=4 r=4 PX=6 PF=1 f32: (4*9+1)*6 = 222 registers refused: %s", why);
    /* ST=2: the rows in flight in shared memory, not counted */
    gk__config_set(&wf, "ST", 2);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(gk__stencil_gen_reject(&c, 2, 4, 4, NULL, why, sizeof why) && strstr(why, "216"),
       "TSTEPS=4 r=4 PX=6 PF=1 ST=2 f32: 4*9*6 = 216 registers refused: %s", why);
    gk__config_set(&wf, "TSTEPS", 3);
    gk__config_set(&wf, "PF", 4);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(!gk__stencil_gen_reject(&c, 2, 4, 4, NULL, why, sizeof why),
       "TSTEPS=3 r=4 PX=6 PF=4 ST=2 f32: 3*9*6 = 162 registers accepted (%s)", why);
    /* ... and its rings: NT/32 warps x (PF+1) rows x 32*PX values */
    gk__config_set(&wf, "NT", 256);
    gk__config_set(&wf, "PX", 8);
    gk__config_set(&wf, "TSTEPS", 1);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(gk__stencil_gen_reject(&c, 2, 4, 8, NULL, why, sizeof why) && strstr(why, "81920"),
       "ST=2, NT=256, PF=4, PX=8 f64: rings of 8*5*256*8 = 81920 bytes refused: %s", why);
    /* 48 KiB exactly is what static shared memory allows (ptxas: 0xc000 max) */
    gk__config_set(&wf, "PF", 2);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(!gk__stencil_gen_reject(&c, 2, 4, 8, NULL, why, sizeof why),
       "ST=2, NT=256, PF=2, PX=8 f64: rings of 8*3*256*8 = 49152 bytes accepted (%s)", why);
    gk__config_set(&wf, "NT", 288);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(gk__stencil_gen_reject(&c, 2, 4, 8, NULL, why, sizeof why) && strstr(why, "55296"),
       "ST=2, NT=288, PF=2, PX=8 f64: rings of 9*3*256*8 = 55296 bytes refused: %s", why);
    gk__stencil_gen_default_design(2, 1, 0, 4, 1, &wf);
    gk__config_set(&wf, "PX", 1);
    gk__config_set(&wf, "TSTEPS", 4);
    gk__space_complete(&gk__space_stencil_gen, &wf, &c);
    ok(!gk__stencil_gen_reject(&c, 2, 1, 4, NULL, why, sizeof why), "PX=1 r=1 T=4: 24 output columns, accepted (%s)",
       why);
    design2_checks();
    design2_pair_checks();
    ok(gk__sg_spec_build(3, GK_STENCIL_BOX, 5, GK_BOUNDARY_ZERO, GK_DTYPE_FLOAT64, NULL, &s) == GK_EINVAL,
       "radius 5 refused");
    double bad[9] = { 1, 1, 0, 1, 1, 1, 0, 1, 0 };
    ok(gk__sg_spec_build(2, GK_STENCIL_STAR, 1, GK_BOUNDARY_ZERO, GK_DTYPE_FLOAT64, bad, &s) == GK_EINVAL,
       "a star weight off the axes refused");
}

/* The engine's CPU reference (the tuner's and the bench's check until the
 * CPU backend's is merged) against the naive loop here. */
#ifdef GK_HAVE_CUDA
/* The copies after a host write of planes [p0, p1): each inside the grid,
 * no width over its pitch, no 2D copy with a pitch over maxpitch (the
 * device's limit), and together exactly the band cells of those planes
 * (within r of a face; a plane without interior, all of it): the cells the
 * kernels never write with the fixed boundary.  NULL map: the limits only
 * (grids too large to mark). */
static int band_plan_ok(int dims, int64_t mx, int64_t my, int64_t mz, int64_t r, size_t es, size_t maxpitch, int64_t p0,
                        int64_t p1, char *why, size_t nwhy, unsigned char *map)
{
    size_t n = gk__stencil_gen_band_copies(dims, mx, my, mz, r, es, maxpitch, p0, p1, NULL, 0);
    size_t (*c)[4] = malloc((n ? n : 1) * sizeof *c), total = (size_t)mx * (size_t)my * (size_t)mz * es;
    int ok = c != NULL;
    why[0] = '\0';
    if (ok && gk__stencil_gen_band_copies(dims, mx, my, mz, r, es, maxpitch, p0, p1, c, n) != n) {
        snprintf(why, nwhy, "count changed");
        ok = 0;
    }
    if (map)
        memset(map, 0, total);
    for (size_t i = 0; ok && i < n; i++) {
        size_t off = c[i][0], pitch = c[i][1], width = c[i][2], height = c[i][3];
        if (!width || !height || width > pitch || (height > 1 && pitch > maxpitch)
            || off + (height - 1) * pitch + width > total) {
            snprintf(why, nwhy, "copy %zu: offset %zu pitch %zu width %zu height %zu", i, off, pitch, width, height);
            ok = 0;
        }
        for (size_t h = 0; ok && map && h < height; h++)
            memset(map + off + h * pitch, 1, width);
    }
    for (int64_t z = 0; ok && map && z < mz; z++)
        for (int64_t y = 0; ok && y < my; y++)
            for (int64_t x = 0; ok && x < mx; x++) {
                int band = z < r || z >= mz - r || x < r || x >= mx - r || (dims == 3 && (y < r || y >= my - r));
                int want = band && z >= p0 && z < p1;
                size_t at = (((size_t)z * (size_t)my + (size_t)y) * (size_t)mx + (size_t)x) * es;
                for (size_t b = 0; ok && b < es; b++)
                    if (map[at + b] != want) {
                        snprintf(why, nwhy, "cell (%lld, %lld, %lld) %s", (long long)x, (long long)y, (long long)z,
                                 want ? "not copied" : "copied, not band");
                        ok = 0;
                    }
            }
    free(c);
    return ok;
}

static void band_checks(void)
{
    /* as run: 2D is mx = nx, my = 1, mz = ny */
    static const struct { int dims; int64_t mx, my, mz, r; size_t es; } g[] = {
        { 3, 12, 9, 10, 2, 8 }, { 3, 7, 5, 6, 1, 4 }, { 3, 3, 3, 3, 1, 8 },  /* one interior point */
        { 3, 4, 9, 8, 2, 4 },   /* no interior in x: every plane all band */
        { 3, 9, 4, 8, 2, 8 },   /* none in y */
        { 3, 9, 9, 4, 2, 4 },   /* none in z */
        { 2, 11, 1, 9, 3, 8 }, { 2, 3, 1, 3, 1, 4 }, { 2, 6, 1, 12, 3, 4 }, { 2, 13, 1, 5, 2, 8 },
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        const int64_t mx = g[i].mx, my = g[i].my, mz = g[i].mz, r = g[i].r;
        const size_t row = (size_t)mx * g[i].es, plane = row * (size_t)my;
        unsigned char *map = malloc(plane * (size_t)mz);
        /* the device's pitch, then pitches shorter than a plane and than a row
           (the fallback of planes and rows beyond 2^31 - 1 bytes, at a size
           that can be marked) */
        const size_t mp[3] = { (size_t)INT32_MAX, plane - 1, row - 1 };
        /* the whole grid (an upload), the first and the last r + 1 planes,
           one plane inside, a range across the band's edge (a slab's halo
           planes) */
        const int64_t rg[5][2] = { { 0, mz }, { 0, r + 1 < mz ? r + 1 : mz }, { mz - r - 1 > 0 ? mz - r - 1 : 0, mz },
                                   { mz / 2, mz / 2 + 1 }, { r > 1 ? r - 1 : 0, mz - r + 1 < mz ? mz - r + 1 : mz } };
        int all = map != NULL;
        char why[160] = "", what[200] = "";
        for (int m = 0; m < 3 && all; m++)
            for (int k = 0; k < 5 && all; k++)
                if (!band_plan_ok(g[i].dims, mx, my, mz, r, g[i].es, mp[m], rg[k][0], rg[k][1], why, sizeof why,
                                  map)) {
                    all = 0;
                    snprintf(what, sizeof what, "max pitch %zu, planes [%lld, %lld): %s", mp[m], (long long)rg[k][0],
                             (long long)rg[k][1], why);
                }
        ok(all, "band copies of a %dD %lldx%lldx%lld grid, r=%lld, %zu-byte: exactly the band, pitches in limits%s%s",
           g[i].dims, (long long)mx, (long long)my, (long long)mz, (long long)r, g[i].es, all ? "" : ": ", what);
        free(map);
    }
    /* planes of 2 GiB and more (16384^2 float64), rows of 2 GiB (2D, 2^28
       float64): no 2D copy with a pitch the device refuses */
    char why[160];
    int big = band_plan_ok(3, 16384, 16384, 6, 2, 8, (size_t)INT32_MAX, 0, 6, why, sizeof why, NULL)
              && band_plan_ok(3, 16384, 16384, 6, 2, 8, (size_t)INT32_MAX, 2, 4, why, sizeof why, NULL);
    ok(big, "band copies of 16384x16384x6 float64 (planes of 2 GiB): every pitch <= 2^31 - 1%s%s", big ? "" : ": ",
       why);
    big = band_plan_ok(2, (int64_t)1 << 28, 1, 6, 1, 8, (size_t)INT32_MAX, 0, 6, why, sizeof why, NULL);
    ok(big, "band copies of a 2D 2^28 x 6 float64 grid (rows of 2 GiB): every pitch <= 2^31 - 1%s%s",
       big ? "" : ": ", why);
}
#endif

static void reference_checks(void)
{
    const tcase cases[] = {
        { 3, GK_STENCIL_BOX, 2, GK_BOUNDARY_PERIODIC, GK_DTYPE_FLOAT32, "", 11, 9, 7, 3 },
        { 3, GK_STENCIL_STAR, 3, GK_BOUNDARY_FIXED, GK_DTYPE_FLOAT64, "", 13, 9, 8, 2 },
        { 2, GK_STENCIL_MASK, 4, GK_BOUNDARY_ZERO, GK_DTYPE_FLOAT64, "", 23, 17, 1, 3 },
        { 2, GK_STENCIL_STAR, 1, GK_BOUNDARY_FIXED, GK_DTYPE_FLOAT32, "", 23, 17, 1, 4 },
    };
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const tcase *c = &cases[ci];
        double w[729];
        make_weights(c, 99 + ci, w);
        gk__stencil_spec s;
        gk__sg_spec_build(c->dims, c->shape, c->r, c->b, c->t, w, &s);
        size_t n = (size_t)c->nx * c->ny * c->nz, es = c->t == GK_DTYPE_FLOAT32 ? 4 : 8;
        unsigned char *a = malloc(n * es), *b = malloc(n * es), *tmp = malloc(n * es);
        uint64_t g = 7 + ci;
        for (size_t i = 0; i < n; i++) {
            double v = urand(&g);
            if (es == 4) ((float *)a)[i] = (float)v; else ((double *)a)[i] = v;
        }
        memcpy(b, a, n * es);
        for (int st = 0; st < c->steps; st++) {
            naive_step(c, w, b, tmp);
            memcpy(b, tmp, n * es);
        }
        ok(gk__sg_reference(&s, a, c->nx, c->ny, c->nz, c->steps) == GK_OK && !memcmp(a, b, n * es),
           "reference %s = the naive loop, bit for bit", s.key);
        free(a); free(b); free(tmp);
    }
}

#ifdef GK_HAVE_CUDA
/* The ELF cubins in DIR/stencil-gen-cubins (-1: another file there), each
 * removed, then the subdirectory. */
static int count_elf(const char *dir)
{
    char sub[128], path[512];
    snprintf(sub, sizeof sub, "%s/stencil-gen-cubins", dir);
    DIR *d = opendir(sub);
    int n = 0, other = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
        FILE *f = fopen(path, "rb");
        char m[4] = { 0 };
        if (f && fread(m, 1, 4, f) == 4 && !memcmp(m, "\177ELF", 4)) n++; else other++;
        if (f) fclose(f);
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(sub);
    return other ? -1 : n;
}

typedef struct other_arg { const gk_device_info *dev; const char *dir; } other_arg;

/* Another thread (another context's call): its own directory, its own
 * kernel compiled there. */
static void *other_thread(void *p)
{
    const other_arg *a = p;
    int prev;
    if (gk__gpu_enter(0, &prev))
        return NULL;
    gk__sg_cubin_store st;
    gk__stencil_gen_disk_store(a->dir, &st);
    tcase c = { 3, GK_STENCIL_BOX, 1, GK_BOUNDARY_FIXED, GK_DTYPE_FLOAT32, "TSTEPS=1", 15, 11, 9, 2 };
    run_case_in(a->dev, &c, 0xd15c0002, &st);
    gk__gpu_leave(prev);
    return NULL;
}
#endif

/* Every build: the store of compiled kernels is a value made from one
 * cache directory; two stores of two directories each read and write only
 * their own (what two contexts' plans pass to the engine). */
static void store_checks(void)
{
    char x[] = "/tmp/gk-sg-sx-XXXXXX", y[] = "/tmp/gk-sg-sy-XXXXXX", path[256];
    if (!ok(mkdtemp(x) != NULL && mkdtemp(y) != NULL, "store: two temporary cache directories"))
        return;
    gk__sg_cubin_store sx, sy, none;
    gk__stencil_gen_disk_store(x, &sx);
    gk__stencil_gen_disk_store(y, &sy);
    ok(!strcmp(sx.where, x) && !strcmp(sy.where, y) && sx.load && sx.save, "store: each holds its own directory");
    gk__stencil_gen_disk_store(NULL, &none);
    ok(!none.load && !none.save && !none.where[0], "store: no cache directory, no store");
    gk__stencil_gen_disk_store("", &none);
    ok(!none.load && !none.save, "store: an empty cache directory, no store");
    char *longdir = malloc(5000);
    memset(longdir, 'a', 4999);
    longdir[0] = '/';
    longdir[4999] = '\0';
    gk__stencil_gen_disk_store(longdir, &none);
    ok(!none.load && !none.where[0], "store: a directory name too long to hold, no store (not a truncated one)");
    free(longdir);
    unsigned char elf[64], back_ok = 0;
    for (int i = 0; i < 64; i++) elf[i] = (unsigned char)(i * 7 + 1);
    memcpy(elf, "\177ELF", 4);
    const char *name = "sm90-rt12080-00000000000000aa-100";
    sx.save(&sx, name, elf, sizeof elf);
    snprintf(path, sizeof path, "%s/stencil-gen-cubins/%s.cubin", x, name);
    struct stat sb;
    ok(stat(path, &sb) == 0 && sb.st_size == 64, "store X: the kernel saved in X's stencil-gen-cubins/");
    snprintf(path, sizeof path, "%s/stencil-gen-cubins/%s.cubin", y, name);
    ok(stat(path, &sb) != 0, "store X: nothing in Y");
    void *data = NULL;
    size_t size = 0;
    ok(sy.load(&sy, name, &data, &size) == 0 && !data, "store Y does not find X's kernel");
    if (sx.load(&sx, name, &data, &size) == 1) {
        back_ok = size == sizeof elf && !memcmp(data, elf, size);
        free(data);
    }
    ok(back_ok, "store X loads its kernel back, byte for byte");
    /* not an ELF image: ignored (it would be compiled again) */
    sy.save(&sy, "junk", "not an ELF image", 16);
    data = NULL;
    ok(sy.load(&sy, "junk", &data, &size) == 0 && !data, "store Y: a file that is not an ELF image is not loaded");
    const char *dirs[2] = { x, y }, *names[2] = { name, "junk" };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/stencil-gen-cubins/%s.cubin", dirs[i], names[i]);
        unlink(path);
        snprintf(path, sizeof path, "%s/stencil-gen-cubins", dirs[i]);
        rmdir(path);
        rmdir(dirs[i]);
    }
}

int main(void)
{
    no_plan();
    source_checks();
#ifdef GK_HAVE_CUDA
    band_checks();
#endif
    reference_checks();
    store_checks();
    char why[512];
    if (!gk_gpu_usable(why, sizeof why) || !gk_build_info_get()->has_nvrtc) {
        skip("no CUDA device or no NVRTC", "the GPU cases");
        return done_testing();
    }
#ifdef GK_HAVE_CUDA
    gk_device_info dev;
    int prev;
    if (t_gpu_info(0, &dev) || gk__gpu_enter(0, &prev)) {
        printf("Bail out! GPU: %s\n", gk_last_error());
        return 1;
    }
    const gk_stencil_shape B = GK_STENCIL_BOX, S = GK_STENCIL_STAR, M = GK_STENCIL_MASK;
    const gk_boundary Z = GK_BOUNDARY_ZERO, P = GK_BOUNDARY_PERIODIC, F = GK_BOUNDARY_FIXED;
    const gk_dtype D = GK_DTYPE_FLOAT64, E = GK_DTYPE_FLOAT32;
    batch.dev = &dev;
    batch.queuing = 1;              /* the loops below queue their cases: batch_run */
    const tcase cases[] = {
        { 3, S, 1, Z, D, "", 19, 13, 11, 3 },
        { 3, B, 1, Z, D, "DESIGN=0,TSTEPS=4,ZC=5", 19, 13, 11, 7 },
        { 3, B, 1, P, E, "DESIGN=0,TSTEPS=2,TX=16,TY=4,NT=128", 19, 13, 11, 5 },
        { 3, S, 2, F, D, "DESIGN=0,TSTEPS=3,ZC=4", 19, 13, 11, 5 },
        { 3, B, 2, Z, D, "DESIGN=0,TSTEPS=2,TX=16,TY=4,ZC=3", 21, 17, 13, 5 },
        { 3, B, 2, F, E, "", 21, 17, 13, 2 },
        { 3, M, 3, Z, D, "DESIGN=0,TSTEPS=2,TY=4", 23, 15, 13, 3 },
        { 3, S, 4, F, E, "DESIGN=0,TSTEPS=2,TY=4", 23, 19, 17, 3 },
        { 3, S, 4, P, D, "ZC=7", 23, 19, 17, 2 },
        { 3, S, 4, Z, E, "DESIGN=0,TSTEPS=2,TX=16,TY=4,NT=512", 23, 19, 17, 5 },
        { 3, S, 2, Z, E, "DESIGN=0,TSTEPS=4,TX=16,TY=4,NT=128", 23, 19, 17, 6 },
        { 2, S, 4, Z, E, "DESIGN=0,TSTEPS=4,TX=32,NT=64", 77, 45, 1, 5 },
        { 3, B, 1, F, D, "DESIGN=0,TSTEPS=2", 19, 13, 11, 5 },
        { 3, S, 1, P, D, "DESIGN=0,TSTEPS=4", 5, 3, 3, 6 },                     /* periodic, extents 2r+1..: T*r > n */
        { 2, S, 1, Z, E, "DESIGN=0,TSTEPS=4,TX=64,ZC=9", 101, 37, 1, 7 },
        { 2, S, 1, F, D, "DESIGN=0", 101, 37, 1, 3 },
        { 2, B, 2, P, D, "DESIGN=0,TSTEPS=3,TX=32,NT=64", 67, 41, 1, 5 },
        { 2, B, 2, F, E, "DESIGN=0,TSTEPS=2", 67, 41, 1, 5 },
        { 2, S, 4, F, D, "DESIGN=0,TSTEPS=2,ZC=16", 77, 45, 1, 3 },
        { 2, B, 4, Z, E, "DESIGN=0", 77, 45, 1, 2 },
        { 2, B, 4, P, D, "DESIGN=0,TSTEPS=2,TX=32,NT=32", 77, 45, 1, 3 },
        { 2, M, 3, Z, D, "DESIGN=0,TSTEPS=3", 63, 29, 1, 4 },
        { 2, S, 2, Z, D, "DESIGN=0,TSTEPS=2", 7, 5, 1, 3 },                     /* smaller than a tile */
        { 2, S, 1, F, D, "", 101, 37, 1, 3 },                          /* the 2D default: the warp design */
        { 2, B, 4, Z, E, "", 77, 45, 1, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&dev, &cases[i], 0x5eed0000ULL + i);
    /* DESIGN=1 (warp streaming) on every 2D star and box, radius 1-4,
     * float32 and float64, the three boundaries: the steps per pass as high
     * as the registers allow, then lower by the case number; PX from r up;
     * grids of several strips and row chunks that divide nothing, step
     * counts that leave a remainder pass */
    {
        int ci = 0;
        for (int sh = 1; sh <= 2; sh++)
            for (int r = 1; r <= 4; r++)
                for (int ty = 0; ty < 2; ty++)
                    for (int bd = 0; bd < 3; bd++, ci++) {
                        size_t es = ty ? 8 : 4;
                        /* PX: below the radius (neighbours from lanes further
                           away), the radius, above it, 1; PF 1-3 rows ahead */
                        int pxs[4] = { r > 1 ? r / 2 : 2, r, r + 1, 1 }, px = pxs[ci % 4], pf = ci % 4 == 3 ? 0 : 1 + ci % 3;
                        int nt = 32 << (ci % 3), zc = 5 + 4 * (ci % 4), sk = (ci / 4) % 2, pl = ci % 5 != 2, t;
                        /* AC by a period of 7 (prime to the others): each
                           of 0-2 meets every shape, radius, type, boundary,
                           PX, PF, SK and PL of the loop */
                        int ac = ci % 7 % 3;
                        /* where the rows in flight wait (ST 0-2) by a period
                           of 11, and the registers capped for 4 blocks (MB)
                           in two cases of 13 */
                        int st = ci % 11 % 3, mb = ci % 13 == 5 || ci % 13 == 11 ? 4 : 0;
                        /* the fixed boundary's x origin (OX) every other
                           time a shape and radius come round */
                        int ox = (ci / 3) % 2;
                        char cfgtext[128], rwhy[256];
                        gk_config full;
                        for (t = 8 - ci % 5;; t--) {    /* T = 1 unchecked: the last resort */
                            snprintf(cfgtext, sizeof cfgtext,
                                     "DESIGN=1,PX=%d,TSTEPS=%d,NT=%d,ZC=%d,PF=%d,SK=%d,PL=%d,AC=%d,ST=%d,MB=%d,OX=%d,XH=0", px,
                                     t, nt, zc, pf, sk, pl, ac, st, mb, ox);
                            if (t == 1 || (!sg_cfg(2, r, es, 1, cfgtext, &full)
                                           && !gk__stencil_gen_reject(&full, 2, r, es, &dev, rwhy, sizeof rwhy)))
                                break;
                        }
                        /* several strips (a periodic grid at least 2r+1 wide) */
                        int w = 32 * px - 2 * t * r, nx = w + w / 2 + 3 + ci % 5;
                        if (nx < 2 * r + 1 + ci % 3)
                            nx = 2 * r + 1 + ci % 3;
                        tcase c1 = { 2, sh == 1 ? B : S, r, (gk_boundary)bd, ty ? D : E, cfgtext,
                                     nx, 3 * zc + 2 + r, 1, t + 1 + ci % 2 };
                        static char texts[64][128];
                        snprintf(texts[ci % 64], sizeof texts[0], "%s", cfgtext);
                        c1.cfg = texts[ci % 64];
                        run_case(&dev, &c1, 0x3a7b0000ULL + (uint64_t)ci);
                        /* the same kernels on a grid with plain warps: a strip
                           (kw) and a row chunk (m) whose every point needed lies
                           at least r from the faces, which skip the boundary's
                           tests (src/gpu/stencil_gen_src.c, sgw_run) */
                        if (bd != 1) {
                            tcase c2 = c1;
                            int kw = ((t + 1) * r + w - 1) / w, m = ((t + 1) * r + zc - 1) / zc;
                            c2.nx = kw * w - t * r + 32 * px + r + 3 + ci % 3;
                            c2.ny = (m + 1) * zc + (t + 1) * r + 1 + ci % 3;
                            run_case(&dev, &c2, 0x3a7b0000ULL + (uint64_t)ci);
                        }
                    }
        const tcase wcases[] = {
            { 2, S, 1, Z, E, "DESIGN=1", 301, 157, 1, 9 },               /* the warp defaults */
            { 2, B, 2, F, D, "DESIGN=1", 301, 157, 1, 5 },
            { 2, S, 4, P, E, "DESIGN=1", 263, 300, 1, 3 },
            { 2, M, 3, Z, D, "DESIGN=1,TSTEPS=2,ZC=9", 99, 41, 1, 5 },   /* a mask */
            { 2, M, 2, F, E, "DESIGN=1,TSTEPS=3,PX=2,NT=64", 77, 45, 1, 4 },
            { 2, B, 4, P, D, "DESIGN=1,TSTEPS=1", 9, 9, 1, 3 },          /* periodic at 2r+1: halo > grid */
            { 2, S, 1, P, E, "DESIGN=1,TSTEPS=4,PX=1", 3, 5, 1, 6 },
            { 2, B, 1, Z, D, "DESIGN=1,TSTEPS=3", 7, 5, 1, 4 },          /* smaller than a strip */
            { 2, S, 2, F, E, "DESIGN=1,PX=8,TSTEPS=3,ZC=1", 300, 23, 1, 5 },  /* one row per warp */
            /* deep passes, rows in flight, lanes narrower than the radius */
            { 2, S, 1, F, E, "DESIGN=1,TSTEPS=8,PF=2", 1001, 300, 1, 17 },   /* two passes and a remainder */
            { 2, B, 1, Z, D, "DESIGN=1,TSTEPS=6,PF=3", 401, 200, 1, 13 },
            { 2, S, 1, P, E, "DESIGN=1,TSTEPS=7,PF=4,ZC=3", 67, 21, 1, 8 },  /* PF past the chunk */
            { 2, S, 4, F, D, "DESIGN=1,PX=2,TSTEPS=2,PF=2", 301, 157, 1, 5 }, /* neighbours 2 lanes away */
            { 2, B, 3, P, E, "DESIGN=1,PX=1,TSTEPS=2", 97, 41, 1, 3 },        /* 3 lanes away, wrapped */
            { 2, B, 4, Z, D, "DESIGN=1,PX=3,TSTEPS=1,PF=3", 257, 99, 1, 2 },
            { 2, M, 4, F, E, "DESIGN=1,PX=1,TSTEPS=3,PF=1", 70, 40, 1, 4 },   /* a mask, 4 lanes away */
            { 2, B, 3, F, D, "DESIGN=1,PX=4,TSTEPS=2,PF=0", 301, 157, 1, 5 },  /* each row where first used */
            { 2, S, 2, P, E, "DESIGN=1,PX=2,TSTEPS=5,PF=0,ZC=7", 99, 40, 1, 11 },
            /* the stages one row apart (SK=1): deep passes, rows ahead or
               not, chunks of one row and shorter than the lag, far lanes */
            { 2, S, 1, F, E, "DESIGN=1,TSTEPS=8,PF=2,SK=1", 1001, 300, 1, 17 },
            { 2, B, 1, Z, D, "DESIGN=1,PX=2,TSTEPS=6,PF=3,SK=1", 401, 200, 1, 13 },
            { 2, S, 1, P, E, "DESIGN=1,TSTEPS=7,PF=4,ZC=3,SK=1", 67, 21, 1, 8 },
            { 2, S, 2, F, D, "DESIGN=1,PX=2,TSTEPS=3,PF=2,SK=1,ZC=1", 300, 23, 1, 7 },
            { 2, B, 3, F, D, "DESIGN=1,PX=4,TSTEPS=2,PF=0,SK=1", 301, 157, 1, 5 },
            { 2, S, 4, P, E, "DESIGN=1,PX=2,TSTEPS=4,PF=1,SK=1,NT=64", 263, 300, 1, 9 },
            { 2, M, 3, Z, D, "DESIGN=1,PX=1,TSTEPS=2,SK=1", 99, 41, 1, 5 },
            /* plain warps (strips and chunks away from the faces) next to
               the others, deep passes */
            { 2, S, 1, F, E, "DESIGN=1,TSTEPS=8,PF=2,ZC=37,PL=1", 1001, 300, 1, 17 },
            { 2, B, 2, Z, D, "DESIGN=1,PX=2,TSTEPS=4,PF=2,SK=1,ZC=29,PL=1", 517, 211, 1, 9 },
            { 2, S, 4, F, E, "DESIGN=1,TSTEPS=2,PF=0,SK=1,ZC=19,PL=1", 613, 157, 1, 5 },
            { 2, B, 3, F, D, "DESIGN=1,TSTEPS=2,PF=0,ZC=23,PL=0", 613, 157, 1, 5 },
            /* register accumulation (AC=1): each shape's long chains,
               deep passes, rows ahead or not, stages apart, plain warps,
               far lanes, one-row chunks, masks (rows without points:
               mcases below),
               periodic grids smaller than the halo */
            { 2, B, 2, F, E, "DESIGN=1,PX=3,TSTEPS=3,PF=0,SK=1,PL=1,AC=1,ZC=29", 517, 211, 1, 7 },
            { 2, B, 3, Z, D, "DESIGN=1,PX=4,TSTEPS=2,PF=0,SK=1,PL=1,AC=1,ZC=23", 613, 157, 1, 5 },
            { 2, B, 4, F, D, "DESIGN=1,PX=4,TSTEPS=2,PF=2,AC=1,ZC=19", 613, 157, 1, 3 },
            { 2, B, 1, F, E, "DESIGN=1,TSTEPS=8,PF=2,PL=1,AC=1,ZC=37", 1001, 300, 1, 17 },
            { 2, S, 1, Z, D, "DESIGN=1,PX=2,TSTEPS=6,PF=3,SK=1,AC=1", 401, 200, 1, 13 },
            { 2, S, 3, F, E, "DESIGN=1,PX=3,TSTEPS=3,PF=2,SK=1,PL=1,AC=1,ZC=31", 700, 200, 1, 7 },
            { 2, B, 3, P, E, "DESIGN=1,PX=1,TSTEPS=2,AC=1", 97, 41, 1, 3 },
            { 2, S, 2, F, D, "DESIGN=1,PX=2,TSTEPS=3,PF=2,SK=1,ZC=1,AC=1", 300, 23, 1, 7 },
            { 2, M, 4, F, E, "DESIGN=1,PX=1,TSTEPS=3,PF=1,AC=1", 70, 40, 1, 4 },
            { 2, M, 3, Z, D, "DESIGN=1,PX=2,TSTEPS=2,SK=1,PL=1,AC=1,ZC=13", 301, 157, 1, 5 },
            { 2, B, 4, P, D, "DESIGN=1,TSTEPS=1,AC=1", 9, 9, 1, 3 },
            { 2, S, 1, P, E, "DESIGN=1,TSTEPS=7,PF=4,ZC=3,SK=1,AC=1", 67, 21, 1, 8 },
            { 2, B, 2, Z, E, "DESIGN=1,PX=2,TSTEPS=3,PF=1,PL=0,AC=1,ZC=17", 301, 157, 1, 5 },
            /* the same with a loop of one row (AC=2) */
            { 2, B, 2, F, E, "DESIGN=1,PX=3,TSTEPS=3,PF=0,SK=1,PL=1,AC=2,ZC=29", 517, 211, 1, 7 },
            { 2, B, 3, Z, D, "DESIGN=1,PX=4,TSTEPS=2,PF=0,SK=1,PL=1,AC=2,ZC=23", 613, 157, 1, 5 },
            { 2, B, 4, F, E, "DESIGN=1,PX=4,TSTEPS=3,PF=2,AC=2,ZC=19", 613, 157, 1, 4 },
            { 2, B, 1, F, D, "DESIGN=1,PX=2,TSTEPS=8,PF=3,SK=1,PL=1,AC=2,ZC=37", 1001, 300, 1, 17 },
            { 2, S, 2, F, E, "DESIGN=1,PX=3,TSTEPS=6,PF=2,SK=1,PL=1,AC=2,ZC=31", 700, 200, 1, 13 },
            { 2, B, 3, P, E, "DESIGN=1,PX=1,TSTEPS=2,AC=2", 97, 41, 1, 3 },
            { 2, S, 4, F, D, "DESIGN=1,PX=2,TSTEPS=3,PF=4,ZC=1,AC=2", 300, 23, 1, 7 },
            { 2, M, 4, Z, E, "DESIGN=1,PX=1,TSTEPS=3,PF=1,AC=2", 70, 40, 1, 4 },
            { 2, M, 2, F, D, "DESIGN=1,PX=3,TSTEPS=4,SK=1,PL=1,AC=2,ZC=13", 301, 157, 1, 9 },
            { 2, B, 4, P, D, "DESIGN=1,TSTEPS=1,AC=2", 9, 9, 1, 3 },
            { 2, S, 1, Z, D, "DESIGN=1,PX=2,TSTEPS=5,PF=0,SK=0,PL=0,AC=2,ZC=7", 99, 40, 1, 11 },
            /* ... with 6 and 8 points per lane (bench/stencil-2d-acc3.txt) */
            { 2, B, 3, Z, E, "DESIGN=1,PX=8,TSTEPS=3,PF=0,SK=1,PL=1,AC=2,ZC=29", 613, 211, 1, 7 },
            { 2, B, 3, F, D, "DESIGN=1,PX=6,TSTEPS=2,PF=0,SK=0,PL=0,AC=2,ZC=23", 613, 157, 1, 5 },
            { 2, B, 4, F, E, "DESIGN=1,PX=6,TSTEPS=3,PF=0,SK=1,PL=0,AC=2,ZC=19", 613, 157, 1, 4 },
            { 2, B, 4, Z, D, "DESIGN=1,PX=8,TSTEPS=1,PF=0,AC=2", 613, 157, 1, 3 },
            { 2, B, 2, P, E, "DESIGN=1,PX=6,TSTEPS=4,PF=0,SK=1,PL=1,AC=2", 301, 157, 1, 9 },
            { 2, B, 4, P, E, "DESIGN=1,PX=8,TSTEPS=2,PF=0,SK=1,AC=2", 301, 157, 1, 5 },
            /* the rows in flight in registers of their own (ST=1) and
               in shared memory (ST=2, cp.async), 0 to 4 rows ahead */
            { 2, S, 4, F, E, "DESIGN=1,PX=3,TSTEPS=3,PF=2,SK=1,PL=1,ST=1,ZC=29", 700, 200, 1, 7 },
            { 2, S, 2, Z, E, "DESIGN=1,PX=3,TSTEPS=6,PF=3,SK=1,PL=1,ST=1,ZC=31", 700, 200, 1, 13 },
            { 2, S, 3, P, E, "DESIGN=1,PX=2,TSTEPS=3,PF=1,ST=1", 97, 41, 1, 7 },
            { 2, S, 4, F, D, "DESIGN=1,PX=4,TSTEPS=2,PF=0,SK=1,PL=1,ST=1,ZC=19", 613, 157, 1, 5 },
            { 2, S, 4, F, E, "DESIGN=1,PX=3,TSTEPS=3,PF=2,SK=1,PL=1,ST=2,ZC=29", 700, 200, 1, 7 },
            { 2, S, 2, F, E, "DESIGN=1,PX=3,TSTEPS=6,PF=4,SK=1,PL=1,ST=2,ZC=31", 700, 200, 1, 13 },
            { 2, S, 3, Z, D, "DESIGN=1,PX=2,TSTEPS=3,PF=3,SK=0,PL=0,ST=2,ZC=13", 301, 157, 1, 7 },
            { 2, S, 1, P, E, "DESIGN=1,PX=4,TSTEPS=8,PF=2,SK=1,ST=2", 301, 157, 1, 17 },
            { 2, B, 3, F, E, "DESIGN=1,PX=4,TSTEPS=2,PF=2,SK=1,PL=1,AC=2,ST=2,ZC=23", 613, 157, 1, 5 },
            { 2, B, 4, Z, D, "DESIGN=1,PX=4,TSTEPS=2,PF=4,SK=0,PL=1,AC=2,ST=2,ZC=19", 613, 157, 1, 5 },
            { 2, B, 2, P, E, "DESIGN=1,PX=3,TSTEPS=3,PF=1,SK=1,AC=2,ST=2", 301, 157, 1, 7 },
            { 2, M, 3, F, D, "DESIGN=1,PX=2,TSTEPS=2,PF=0,AC=2,ST=2,ZC=1", 97, 23, 1, 5 },
            { 2, B, 2, F, E, "DESIGN=1,PX=3,TSTEPS=3,PF=2,SK=1,PL=1,ST=2,MB=4,ZC=29", 517, 211, 1, 7 },  /* AC=2: the box's */
            { 2, S, 3, Z, E, "DESIGN=1,PX=3,TSTEPS=3,PF=4,SK=1,PL=1,ST=2,ZC=13", 301, 157, 1, 7 },
            { 2, M, 3, F, D, "DESIGN=1,PX=2,TSTEPS=2,PF=3,SK=1,PL=1,AC=0,ST=2,ZC=17", 301, 157, 1, 5 },
            { 2, S, 2, F, E, "ZC=31", 700, 200, 1, 13 },               /* the star's defaults */
            { 2, B, 4, F, E, "ZC=31", 700, 200, 1, 5 },                /* the box's */
            { 2, B, 3, Z, D, "ZC=31", 700, 200, 1, 4 },
            /* the fixed boundary's tiles start at r (the interior): an
               interior that strips and chunks divide exactly (AN5D's n +
               2r), one point, none (the band alone: every value kept) */
            { 2, S, 1, F, E, "DESIGN=1,PX=4,TSTEPS=2,ZC=16,OX=1", 250, 50, 1, 5 },
            { 2, S, 1, F, E, "DESIGN=1,PX=4,TSTEPS=2,ZC=16,OX=0", 250, 50, 1, 5 },
            { 2, S, 3, F, E, "ZC=31,OX=1", 294, 68, 1, 9 },
            { 2, B, 3, F, D, "DESIGN=1,TSTEPS=2,PL=1,OX=1", 100, 6, 1, 3 },
            { 2, S, 2, F, E, "DESIGN=1,OX=1", 4, 50, 1, 3 },
            { 2, S, 2, F, E, "DESIGN=1,OX=0", 4, 50, 1, 3 },
            { 2, S, 1, F, D, "DESIGN=1,TSTEPS=3,OX=1", 3, 3, 1, 4 },
        };
        for (size_t i = 0; i < sizeof wcases / sizeof wcases[0]; i++)
            run_case(&dev, &wcases[i], 0x3a7c0000ULL + i);
        /* masks with rows of the window empty: register accumulation
           starts an output's chain at its first row that has points (the
           gather's first point), which the random masks above always have
           at dy = -r; rows: bit d for dy = d - r */
        static const struct { tcase c; unsigned rows; } mcases[] = {
            { { 2, M, 3, F, E, "DESIGN=1,PX=2,TSTEPS=3,PF=2,SK=0,PL=1,AC=2,ZC=29", 301, 157, 1, 7 }, 0x25 },
            { { 2, M, 3, Z, D, "DESIGN=1,PX=3,TSTEPS=2,PF=0,SK=1,PL=1,AC=2,ZC=23", 301, 157, 1, 5 }, 0x25 },
            { { 2, M, 3, P, E, "DESIGN=1,PX=2,TSTEPS=2,PF=1,AC=1", 97, 41, 1, 5 }, 0x25 },
            { { 2, M, 3, F, D, "DESIGN=1,PX=2,TSTEPS=2,PF=1,SK=1,AC=1,ZC=13", 301, 157, 1, 5 }, 0x25 },
            { { 2, M, 3, F, E, "DESIGN=1,PX=2,TSTEPS=3,PF=2,AC=0,ZC=29", 301, 157, 1, 7 }, 0x25 },
            { { 2, M, 2, F, D, "DESIGN=1,PX=2,TSTEPS=4,PF=3,SK=1,PL=1,AC=2,ZC=17", 301, 157, 1, 9 }, 0x0f },
            { { 2, M, 2, Z, E, "DESIGN=1,PX=2,TSTEPS=4,PF=2,AC=1", 301, 157, 1, 9 }, 0x0f },
            { { 2, M, 4, P, D, "DESIGN=1,PX=4,TSTEPS=2,PF=0,SK=1,AC=2", 301, 157, 1, 5 }, 0x1fe },
            { { 2, M, 4, F, E, "DESIGN=1,PX=4,TSTEPS=2,PF=4,SK=0,AC=2,ZC=19", 301, 157, 1, 5 }, 0x1fe },
            { { 2, M, 1, F, E, "DESIGN=1,PX=4,TSTEPS=8,PF=2,SK=1,PL=1,AC=2,ZC=37", 1001, 300, 1, 17 }, 0x2 },
            { { 2, M, 1, Z, D, "DESIGN=1,PX=2,TSTEPS=6,PF=1,SK=0,AC=1", 401, 200, 1, 13 }, 0x1 },
            /* XH=1 on masks of the centre row alone (every other row
               emptied): an uneven x halo, left and right, from the
               shared rows */
            { { 2, M, 3, F, E, "DESIGN=1,XH=1,PX=3,TSTEPS=3,PF=4,SK=1,PL=1,ST=2,ZC=29", 301, 157, 1, 7 }, 0x77 },
            { { 2, M, 2, Z, D, "DESIGN=1,XH=1,PX=2,TSTEPS=4,PF=2,ZC=17", 301, 157, 1, 9 }, 0x1b },
            { { 2, M, 4, P, E, "DESIGN=1,XH=1,PX=4,TSTEPS=2,NT=64", 301, 157, 1, 5 }, 0x1ef },
        };
        for (size_t i = 0; i < sizeof mcases / sizeof mcases[0]; i++)
            run_case(&dev, &mcases[i].c, EMPTY_ROWS(mcases[i].rows) | (0x3b00 + i));
    }
    /* XH=1 (a block's warps one strip, the centre row's x halo in shared
     * memory, a barrier per row) on every 2D star, radius 1-4, float32 and
     * float64, the three boundaries: PX from 1 to r + 1, 1 to 8 warps,
     * 0-4 rows ahead in each of their three places (ST), stages apart or
     * chained, plain blocks or not, both x origins, the steps per pass as
     * high as the rules allow from 4; a grid of a block strip and a half
     * (the last block partly past the grid) and one whose middle block is
     * plain */
    {
        int ci = 0;
        static char xtexts[24][128];
        for (int r = 1; r <= 4; r++)
            for (int ty = 0; ty < 2; ty++)
                for (int bd = 0; bd < 3; bd++, ci++) {
                    size_t es = ty ? 8 : 4;
                    int pxs[6] = { 1, r, r + 1, 2, 3, 4 }, px = pxs[ci % 6], nt = 32 << (ci % 4);
                    int zc = 3 + 5 * (ci % 4), pf = ci % 5, st = ci % 3, sk = (ci / 2) % 2, pl = ci % 3 != 1;
                    int ox = (ci / 3) % 2, mb = ci % 7 == 3 ? 2 : 0, t;
                    char rwhy[256];
                    gk_config full;
                    for (t = 4;; t--) {         /* T = 1 unchecked: the last resort */
                        snprintf(xtexts[ci], sizeof xtexts[ci],
                                 "DESIGN=1,XH=1,PX=%d,TSTEPS=%d,NT=%d,ZC=%d,PF=%d,SK=%d,PL=%d,AC=0,ST=%d,MB=%d,OX=%d",
                                 px, t, nt, zc, pf, sk, pl, st, mb, ox);
                        if (t == 1 || (!sg_cfg(2, r, es, 1, xtexts[ci], &full)
                                       && !gk__stencil_gen_reject(&full, 2, r, es, &dev, rwhy, sizeof rwhy)))
                            break;
                    }
                    int w = nt * px - 2 * t * r, nx = w + w / 2 + 3 + ci % 5;
                    if (nx < 2 * r + 1 + ci % 3)
                        nx = 2 * r + 1 + ci % 3;
                    tcase c1 = { 2, S, r, (gk_boundary)bd, ty ? D : E, xtexts[ci], nx, 3 * zc + 2 + r, 1,
                                 t + 1 + ci % 2 };
                    run_case(&dev, &c1, 0x3c7b0000ULL + (uint64_t)ci);
                    if (bd != 1) {
                        tcase c2 = c1;
                        int kw = ((t + 1) * r + w - 1) / w, m = ((t + 1) * r + zc - 1) / zc;
                        c2.nx = kw * w - t * r + nt * px + r + 3 + ci % 3;
                        c2.ny = (m + 1) * zc + (t + 1) * r + 1 + ci % 3;
                        run_case(&dev, &c2, 0x3c7c0000ULL + (uint64_t)ci);
                    }
                }
        const tcase xcases[] = {
            { 2, S, 4, F, E, "DESIGN=1,XH=1,PX=4,TSTEPS=2,PF=4,SK=1,PL=1,ST=2,MB=4,ZC=29", 1001, 200, 1, 5 },
            { 2, S, 3, F, E, "DESIGN=1,XH=1,PX=3,TSTEPS=3,PF=4,SK=1,PL=1,ST=2,MB=4,ZC=31", 1001, 200, 1, 7 },
            { 2, S, 4, Z, D, "DESIGN=1,XH=1,PX=2,TSTEPS=2,PF=2,NT=256,ZC=17", 700, 120, 1, 5 },
            { 2, S, 2, P, E, "DESIGN=1,XH=1,PX=2,TSTEPS=3,PF=1,NT=64", 97, 41, 1, 7 },   /* periodic, one block */
            { 2, S, 1, F, E, "DESIGN=1,XH=1,PX=4,TSTEPS=8,PF=2,SK=1,PL=1,ZC=37", 1001, 300, 1, 17 },
            { 2, S, 3, F, D, "DESIGN=1,XH=1,PX=3,TSTEPS=2,ZC=1", 300, 23, 1, 5 },        /* one row a block */
            { 2, S, 2, Z, E, "DESIGN=1,XH=1,TSTEPS=3,NT=64", 7, 5, 1, 4 },              /* smaller than a strip */
            { 2, S, 4, P, D, "DESIGN=1,XH=1,PX=1,TSTEPS=1,NT=32", 9, 9, 1, 3 },          /* periodic at 2r+1 */
            /* the fixed interior that block strips divide exactly (NT*PX -
               2*T*r = 128*3 - 2*3*4 = 360 columns: 2 strips), and none */
            { 2, S, 4, F, E, "DESIGN=1,XH=1,PX=3,TSTEPS=3,NT=128,ZC=16,OX=1", 728, 40, 1, 7 },
            { 2, S, 4, F, E, "DESIGN=1,XH=1,PX=3,TSTEPS=3,NT=128,ZC=16,OX=0", 728, 40, 1, 7 },
            { 2, S, 2, F, D, "DESIGN=1,XH=1,OX=1", 4, 50, 1, 3 },
        };
        for (size_t i = 0; i < sizeof xcases / sizeof xcases[0]; i++)
            run_case(&dev, &xcases[i], 0x3c7d0000ULL + i);
    }
    /* DESIGN=2 (3D z-streaming, register accumulation) on every 3D star,
     * box and mask, radius 1-4, float32 and float64, each boundary: the
     * defaults (box r >= 3 fp64: the rotating queue) and thread layouts of
     * several RX x RY, z chunks that divide nothing and are smaller than
     * the grid, odd grids that no tile divides, step counts > 1 */
    {
        static const char *const zcfg[] = {
            "DESIGN=2",
            "DESIGN=2,TX=16,TY=8,RX=1,RY=2,NT=64,ZC=5",
            "DESIGN=2,TX=32,TY=8,RX=2,RY=1,NT=128,ZC=9",
            "DESIGN=2,TX=8,TY=12,RX=1,RY=3,NT=32,ZC=3",
            "DESIGN=2,TX=32,TY=16,RX=2,RY=2,NT=128,ZC=7",
            "DESIGN=2,TX=32,TY=4,RX=1,RY=1,NT=128,ZC=11",
        };
        int ci = 0;
        for (int sh = 1; sh <= 3; sh++)
            for (int r = 1; r <= 4; r++)
                for (int ty = 0; ty < 2; ty++)
                    for (int bd = 0; bd < 3; bd++, ci++) {
                        size_t es = ty ? 8 : 4;
                        const char *cfgtext = zcfg[ci % 6];
                        char zwhy[256];
                        gk_config full;
                        if (sg_cfg(3, r, es, 2, cfgtext, &full)
                            || gk__stencil_gen_reject(&full, 3, r, es, &dev, zwhy, sizeof zwhy))
                            cfgtext = zcfg[0];       /* beyond this radius's bounds: the defaults */
                        tcase c2 = { 3, (gk_stencil_shape)sh, r, (gk_boundary)bd, ty ? D : E, cfgtext,
                                     19 + 2 * r + ci % 7, 13 + 2 * r + ci % 5, 11 + 2 * r + ci % 3, 2 + ci % 2 };
                        run_case(&dev, &c2, 0x2d5e0000ULL + (uint64_t)ci);
                        /* and with temporal blocking: T = 2..4 stages (the most the
                         * radius's tile and registers allow), step counts t+1..2t
                         * (all but 2t leave a remainder pass of fewer) */
                        static char ztexts[72][128];
                        int t;
                        for (t = 2 + ci % 3; t > 1; t--) {
                            snprintf(ztexts[ci % 72], sizeof ztexts[0], "%s,TSTEPS=%d", cfgtext, t);
                            if (!sg_cfg(3, r, es, 2, ztexts[ci % 72], &full)
                                && !gk__stencil_gen_reject(&full, 3, r, es, &dev, zwhy, sizeof zwhy))
                                break;
                        }
                        if (t > 1) {
                            c2.cfg = ztexts[ci % 72];
                            c2.steps = t + 1 + ci % t;
                            run_case(&dev, &c2, 0x2d600000ULL + (uint64_t)ci);
                        }
                        /* and the same with the other PF (the defaults' is 3):
                         * the register prefetch (1), asynchronous copies of
                         * 2 and 4 planes in flight */
                        static const int pfo[3] = { 1, 2, 4 };
                        static char ptexts[72][160];
                        snprintf(ptexts[ci % 72], sizeof ptexts[0], "%s,PF=%d,OX=%d", c2.cfg, pfo[ci % 3], ci % 2);
                        if (!sg_cfg(3, r, es, 2, ptexts[ci % 72], &full)
                            && !gk__stencil_gen_reject(&full, 3, r, es, &dev, zwhy, sizeof zwhy)) {
                            c2.cfg = ptexts[ci % 72];
                            run_case(&dev, &c2, 0x2d610000ULL + (uint64_t)ci);
                        }
                    }
        const tcase zcases[] = {
            { 3, B, 1, Z, D, "DESIGN=2", 67, 45, 37, 3 },                /* several blocks of the defaults */
            { 3, S, 2, F, E, "DESIGN=2,ZC=4", 41, 37, 29, 3 },
            { 3, B, 3, P, D, "DESIGN=2", 41, 37, 23, 2 },                /* rotating queue, periodic */
            { 3, B, 4, F, D, "DESIGN=2,ZC=9", 35, 29, 27, 2 },           /* rotating queue, fixed */
            { 3, M, 3, Z, E, "DESIGN=2,ZC=2", 29, 23, 17, 3 },           /* a chunk of 2 planes, r = 3 */
            { 3, S, 1, P, E, "DESIGN=2", 5, 3, 3, 4 },                   /* periodic at 2r+1: the tile > the grid */
            { 3, B, 4, P, D, "DESIGN=2,ZC=5", 9, 9, 9, 2 },
            { 3, S, 4, Z, D, "DESIGN=2,ZC=1", 23, 19, 17, 2 },           /* one plane per block */
            { 3, B, 2, F, E, "DESIGN=2,TX=64,TY=8,RX=2,RY=2,NT=128", 131, 21, 13, 2 },
            /* temporal blocking */
            { 3, B, 1, Z, D, "DESIGN=2,TSTEPS=2", 67, 45, 37, 5 },       /* several blocks, a remainder pass */
            { 3, B, 1, F, D, "DESIGN=2,TSTEPS=3,ZC=7", 61, 35, 29, 7 },
            { 3, S, 1, P, E, "DESIGN=2,TSTEPS=4", 70, 33, 19, 8 },
            { 3, S, 1, P, D, "DESIGN=2,TSTEPS=4", 5, 3, 4, 9 },           /* periodic, halo 4 > an extent: fewer steps a pass */
            { 3, B, 1, P, D, "DESIGN=2,TSTEPS=2", 3, 3, 3, 4 },           /* periodic at 2r+1 */
            { 3, S, 2, Z, E, "DESIGN=2,TSTEPS=2,ZC=1", 23, 19, 17, 4 },   /* one plane per block */
            { 3, M, 2, F, D, "DESIGN=2,TSTEPS=3,TY=32,RY=4,ZC=9", 41, 70, 21, 6 },
            { 3, B, 2, P, E, "DESIGN=2,TSTEPS=2", 17, 19, 11, 3 },
            { 3, S, 4, F, D, "DESIGN=2,TSTEPS=2,ZC=13", 31, 27, 40, 4 },
            { 3, B, 4, Z, D, "DESIGN=2,TSTEPS=2,TY=32,NT=512", 27, 40, 21, 2 },  /* rotating queues, 2 stages */
            { 3, B, 1, Z, D, "DESIGN=2,TSTEPS=2,TX=64,TY=32,RX=2,RY=4,NT=256", 130, 70, 33, 4 },
            /* asynchronous copies (PF >= 2): more planes in flight than a
               chunk loads, one plane per block, the ring's slot wrapping
               mid-unroll, rotating queues, periodic grids smaller than the tile */
            /* the fixed boundary's interior tiles (see wcases): divided
               exactly, one point, none in x, y or z */
            { 3, B, 2, F, E, "DESIGN=2,ZC=8,OX=1", 68, 36, 20, 3 },
            { 3, B, 2, F, E, "DESIGN=2,ZC=8,OX=0", 68, 36, 20, 3 },
            { 3, S, 1, F, D, "DESIGN=2,TSTEPS=3,ZC=10,OX=1", 58, 58, 22, 7 },
            { 3, B, 1, F, D, "DESIGN=2,TSTEPS=2,OX=1", 3, 3, 3, 3 },
            { 3, S, 1, F, D, "DESIGN=2,OX=1", 2, 19, 17, 3 },
            { 3, S, 1, F, D, "DESIGN=2,OX=0", 2, 19, 17, 3 },
            { 3, B, 2, F, E, "DESIGN=2", 30, 4, 20, 3 },
            { 3, S, 1, F, E, "DESIGN=2,TSTEPS=3", 20, 20, 2, 4 },
            { 3, S, 1, Z, D, "DESIGN=2,PF=4,ZC=1", 23, 19, 17, 3 },
            { 3, B, 1, F, E, "DESIGN=2,PF=3,TSTEPS=3,ZC=7", 61, 35, 29, 7 },
            { 3, S, 1, P, D, "DESIGN=2,PF=2,TSTEPS=4", 5, 3, 4, 9 },
            { 3, B, 4, F, D, "DESIGN=2,PF=4,ZC=9", 35, 29, 27, 2 },
            { 3, B, 4, Z, D, "DESIGN=2,PF=2,TSTEPS=2,TY=32,NT=512", 27, 40, 21, 2 },
            { 3, S, 3, P, E, "DESIGN=2,PF=3,TSTEPS=2", 9, 8, 7, 5 },
            { 3, M, 2, F, D, "DESIGN=2,PF=4,TSTEPS=3,TY=32,RY=4,ZC=9", 41, 70, 21, 6 },
            { 3, B, 1, Z, D, "DESIGN=2,PF=3,TSTEPS=2,TX=64,TY=32,RX=2,RY=4,NT=256", 130, 70, 33, 4 },
            /* RX*RY = 32: 36 loads per thread and plane, past one 32-bit word of in-grid flags */
            { 3, S, 1, Z, E, "DESIGN=2,TX=32,TY=64,RX=2,RY=16,NT=64,TSTEPS=1", 45, 131, 13, 2 },
            { 3, B, 1, F, E, "DESIGN=2,TX=32,TY=64,RX=2,RY=16,NT=64,TSTEPS=1,PF=1", 45, 131, 13, 2 },
            /* RX even: a window's column pairs read by one 2-wide load
               (star, box, mask; the rotating queue of box r3; RX=4) */
            { 3, S, 1, Z, D, "DESIGN=2,TX=32,TY=32,RX=2,RY=2,NT=256,TSTEPS=3", 75, 67, 29, 7 },
            { 3, S, 1, P, E, "DESIGN=2,TX=32,TY=16,RX=2,RY=4,NT=64,TSTEPS=2,PF=1", 45, 37, 19, 5 },
            { 3, B, 3, P, D, "DESIGN=2,TX=32,TY=8,RX=2,RY=2,NT=64", 39, 21, 17, 2 },
            { 3, M, 2, Z, E, "DESIGN=2,TX=64,TY=8,RX=4,RY=2,NT=64,TSTEPS=2", 71, 19, 15, 3 },
            { 3, B, 1, F, D, "DESIGN=2,TX=64,TY=16,RX=4,RY=2,NT=128,TSTEPS=2,ZC=9", 67, 35, 23, 4 },
            /* the float32 box's defaults (RX=2 x RY=4 of a 32x32 tile,
               NT=128, TSTEPS=2, PF=3) with each boundary: several blocks,
               a remainder pass */
            { 3, B, 1, Z, E, "DESIGN=2", 67, 45, 37, 5 },
            { 3, B, 1, P, E, "DESIGN=2", 45, 37, 19, 5 },
            { 3, B, 1, F, E, "DESIGN=2", 61, 35, 29, 5 },
            /* and the float32 star's (the same layout at TSTEPS=3, OX=0) */
            { 3, S, 1, Z, E, "DESIGN=2", 67, 45, 37, 7 },
            { 3, S, 1, P, E, "DESIGN=2", 45, 37, 19, 4 },
            { 3, S, 1, F, E, "DESIGN=2", 61, 35, 29, 7 },
        };
        for (size_t i = 0; i < sizeof zcases / sizeof zcases[0]; i++)
            run_case(&dev, &zcases[i], 0x2d5f0000ULL + i);
    }
    batch_run();
    pitched_case(&dev, 77);
    /* the store in a cache directory: a description compiled here is kept
     * there (an ELF cubin), and runs right */
    {
        char dir[] = "/tmp/gk-sg-test-XXXXXX", sub[64], path[512];
        if (ok(mkdtemp(dir) != NULL, "a temporary cache directory")) {
            gk__sg_cubin_store st;
            gk__stencil_gen_disk_store(dir, &st);
            tcase c = { 3, S, 3, F, E, "DESIGN=0,TSTEPS=2,TY=4", 21, 15, 13, 3 };
            run_case_in(&dev, &c, 0xd15c, &st);  /* weights of their own: a new source */
            snprintf(sub, sizeof sub, "%s/stencil-gen-cubins", dir);
            DIR *d = opendir(sub);
            int n = 0, elf = 0;
            for (struct dirent *e; d && (e = readdir(d));) {
                if (e->d_name[0] == '.') continue;
                snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
                FILE *f = fopen(path, "rb");
                char m[4] = { 0 };
                if (f && fread(m, 1, 4, f) == 4 && !memcmp(m, "\177ELF", 4)) elf++;
                if (f) fclose(f);
                unlink(path);
                n++;
            }
            if (d) closedir(d);
            ok(n >= 1 && elf == n, "the cache directory holds the compiled kernel (%d files, %d ELF)", n, elf);
            rmdir(sub);
            rmdir(dir);
        }
    }
    /* the store is the call's (its context's), not the process's nor the
     * thread's: this thread's store is X, another thread's Y, both compile
     * at once; then this one thread compiles one source into X and another
     * into Y: each directory holds its own kernels (one store for the
     * process, the last one set winning, would put them in one) */
    {
        char x[] = "/tmp/gk-sg-x-XXXXXX", y[] = "/tmp/gk-sg-y-XXXXXX";
        if (ok(mkdtemp(x) != NULL && mkdtemp(y) != NULL, "two temporary cache directories")) {
            gk__sg_cubin_store sx, sy;
            gk__stencil_gen_disk_store(x, &sx);
            gk__stencil_gen_disk_store(y, &sy);
            other_arg oa = { &dev, y };
            pthread_t th;
            int made = pthread_create(&th, NULL, other_thread, &oa) == 0;
            tcase c = { 3, S, 2, Z, E, "TSTEPS=1", 17, 11, 9, 2 };
            run_case_in(&dev, &c, 0xd15c0001, &sx);   /* a source of its own, compiled on this thread */
            if (made)
                pthread_join(th, NULL);
            int nx = count_elf(x), ny = count_elf(y);
            ok(made && nx == 1 && ny == 1, "two threads, two cache directories: one kernel in each (%d in this "
               "thread's, %d in the other's)", nx, ny);
            tcase c1 = { 3, B, 2, P, D, "TSTEPS=1", 13, 11, 9, 2 }, c2 = { 2, S, 3, F, E, "", 41, 29, 1, 3 };
            run_case_in(&dev, &c1, 0xd15c0003, &sy);
            run_case_in(&dev, &c2, 0xd15c0004, &sx);
            run_case_in(&dev, &c1, 0xd15c0005, NULL);  /* no store: nowhere on disk */
            nx = count_elf(x), ny = count_elf(y);
            ok(nx == 1 && ny == 1, "one thread, two stores in turn: each kernel in its own directory (%d in X, "
               "%d in Y)", nx, ny);
            rmdir(x);
            rmdir(y);
        }
    }
    /* refusals */
    gk__stencil_spec s;
    gk_stencil_gen *e = NULL;
    gk__sg_spec_build(3, S, 4, P, D, NULL, &s);
    ok(gk__stencil_gen_open(&e, &dev, NULL, &s, 8, 20, 20, NULL, NULL) == GK_EINVAL && !e,
       "periodic with an extent < 2r+1 refused: %s", gk_last_error());
    gk_config cfg;
    gk__config_clear(&cfg);
    gk__config_parse("TY=4", &cfg);
    gk__sg_spec_build(2, S, 1, Z, D, NULL, &s);
    ok(gk__stencil_gen_open(&e, &dev, NULL, &s, 30, 30, 1, &cfg, NULL) == GK_EINVAL && !e, "2D with TY=4 refused: %s",
       gk_last_error());
    ok(gk__stencil_gen_open(&e, &dev, NULL, &s, 30, 30, 2, NULL, NULL) == GK_EINVAL && !e, "2D with nz=2 refused: %s",
       gk_last_error());
    gk__config_clear(&cfg);
    gk__config_parse("DESIGN=1", &cfg);
    gk__sg_spec_build(3, S, 1, Z, D, NULL, &s);
    ok(gk__stencil_gen_open(&e, &dev, NULL, &s, 30, 30, 30, &cfg, NULL) == GK_EINVAL && !e, "3D with DESIGN=1 refused: %s",
       gk_last_error());
    gk__gpu_leave(prev);
#endif
    return done_testing();
}
