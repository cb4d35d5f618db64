/* test_stencil_desc_config.c - options.config with a stencil description
 * (the generated engine's parameters: TX, TY, NT, ZC, TSTEPS, DESIGN, PX)
 * and the store of a description's compiled kernels, through the public
 * API.
 *
 * CPU (every build): a valid configuration is checked and ignored
 * (report.config_ignored), the result equal to the naive loop of
 * test_stencil_naive.h; every kind of bad configuration (syntax, unknown
 * parameter, value outside its range, refused by the description's rules)
 * is GK_EINVAL naming the parameter and the description, with no plan and
 * the grid untouched; a plan carries the store of its own context's cache
 * directory.
 *
 * GPU (skipped without one): the configuration runs (report.config shows
 * every parameter given, config_source user), the result bit-identical to
 * the CPU context's and to the naive loop; a configuration beyond the
 * device's limits is refused naming the device; two GPU contexts with two
 * cache directories, planning at once on two threads, each keep their
 * compiled kernel in their own directory. */
#include "gk.h"
#include "api/commands.h"        /* gk__stencil_plan_store_dir */
#include "tap.h"
#include "test_api.h"
#include "test_stencil_naive.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng = 0x2545f4914f6cdd1dull;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-52 - 1.0;
}

/* One case: a description, its element type, a configuration, a grid. */
typedef struct dcase {
    const char *desc;
    int f32;
    const char *config;
    int64_t nx, ny, nz;
    int steps;
} dcase;

typedef struct job {
    gk_stencil_desc d;
    double w[729];
    int64_t n;
    size_t e;
    char *grid, *ref;            /* the input; the naive loop's result */
} job;

/* The description with random weights of its shape, a random grid, and
 * the naive loop's result after the case's steps. */
static int job_make(const dcase *c, job *j)
{
    memset(j, 0, sizeof *j);
    gk_stencil_desc_init(&j->d);
    if (gk_stencil_desc_parse(c->desc, &j->d))
        return 0;
    int r = j->d.radius, w1 = 2 * r + 1, nw = j->d.dims == 3 ? w1 * w1 * w1 : w1 * w1;
    for (int i = 0; i < nw; i++) {
        int dx = i % w1 - r, dy = i / w1 % w1 - r, dz = j->d.dims == 3 ? i / (w1 * w1) - r : 0;
        j->w[i] = j->d.shape == GK_STENCIL_STAR && (dx != 0) + (dy != 0) + (dz != 0) > 1 ? 0 : urand() / nw;
    }
    j->d.weights = j->w;
    j->n = c->nx * c->ny * c->nz;
    j->e = c->f32 ? 4 : 8;
    j->grid = malloc((size_t)j->n * j->e);
    j->ref = malloc((size_t)j->n * j->e);
    for (int64_t i = 0; i < j->n; i++) {
        if (c->f32) ((float *)j->grid)[i] = (float)urand();
        else ((double *)j->grid)[i] = urand();
    }
    memcpy(j->ref, j->grid, (size_t)j->n * j->e);
    if (c->f32)
        naive_f32((float *)j->ref, c->nx, c->ny, c->nz, j->d.dims, j->d.shape, r, j->d.boundary, j->w, c->steps);
    else
        naive_f64((double *)j->ref, c->nx, c->ny, c->nz, j->d.dims, j->d.shape, r, j->d.boundary, j->w, c->steps);
    return 1;
}

static void job_free(job *j)
{
    free(j->grid);
    free(j->ref);
}

static gk_stencil_problem job_problem(const dcase *c, job *j)
{
    gk_stencil_problem p;
    gk_stencil_problem_init(&p, c->nx, c->ny, c->nz);
    p.desc = &j->d;
    p.dtype = c->f32 ? GK_DTYPE_FLOAT32 : GK_DTYPE_FLOAT64;
    return p;
}

/* Every NAME=VALUE of the given text is in the configuration that ran
 * ("KEY: TX=..,TY=..,..."). */
static int config_shows(const char *ran, const char *given)
{
    char buf[256], *save = NULL;
    const char *cfg = strstr(ran, ": ");
    cfg = cfg ? cfg + 2 : ran;
    snprintf(buf, sizeof buf, "%s", given);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        size_t n = strlen(t);
        const char *p = cfg;
        int found = 0;
        while (!found && (p = strstr(p, t))) {
            found = (p == cfg || p[-1] == ',') && (p[n] == ',' || p[n] == '\0');
            p++;
        }
        if (!found) return 0;
    }
    return 1;
}

static gk_context *context(gk_backend b, const char *cache_dir)
{
    gk_context_options co;
    gk_context_options_init(&co);
    co.backend = b;
    co.cache_dir = cache_dir;
    gk_context *ctx = NULL;
    if (gk_context_create(&ctx, &co))
        return NULL;
    return ctx;
}

/* Valid configurations of each design; on the GPU they run as given. */
static const dcase valid[] = {
    { "3d-star-r1", 0, "DESIGN=0,TSTEPS=3,TX=16,TY=4,NT=128", 37, 21, 19, 7 },
    { "3d-star-r2:periodic", 0, "DESIGN=0,ZC=5,TSTEPS=2", 23, 17, 13, 5 },
    { "3d-box-r1:fixed", 1, "DESIGN=0,TSTEPS=4,TX=32,TY=8,ZC=3", 29, 19, 11, 6 },
    { "2d-box-r2:fixed", 1, "DESIGN=1,PX=4,TSTEPS=2,NT=64", 301, 45, 1, 5 },
    { "2d-star-r1", 0, "DESIGN=0,TSTEPS=2,TX=64,ZC=9", 131, 37, 1, 5 },
    { "2d-star-r3:periodic", 0, "DESIGN=1,PX=3", 97, 41, 1, 3 },
};
#define NVALID (sizeof valid / sizeof valid[0])

static void cpu_valid(gk_context *cpu)
{
    for (size_t k = 0; k < NVALID; k++) {
        const dcase *c = &valid[k];
        job j;
        if (!ok(job_make(c, &j), "%s: description", c->desc)) continue;
        gk_stencil_problem p = job_problem(c, &j);
        gk_stencil_options o = t_stencil_opts(1, c->config);
        gk_report rep = t_report();
        gk_status st = gk_stencil_run(cpu, &p, j.grid, c->steps, &o, &rep);
        ok(st == GK_OK && rep.config_ignored == 1 && rep.config_source == GK_CONFIG_NONE && rep.checked &&
           !memcmp(j.grid, j.ref, (size_t)j.n * j.e),
           "CPU: %s %s with config %s: checked, ignored (config_ignored %d), the naive loop's bits (%s; ran %s)",
           c->desc, c->f32 ? "f32" : "f64", c->config, rep.config_ignored, st ? gk_last_error() : "ok", rep.config);
        job_free(&j);
    }
    /* no configuration: nothing ignored */
    job j;
    if (job_make(&valid[0], &j)) {
        gk_stencil_problem p = job_problem(&valid[0], &j);
        gk_report rep = t_report();
        ok(gk_stencil_run(cpu, &p, j.grid, valid[0].steps, NULL, &rep) == GK_OK && rep.config_ignored == 0 &&
           !memcmp(j.grid, j.ref, (size_t)j.n * j.e), "CPU: %s without a config: config_ignored 0", valid[0].desc);
        job_free(&j);
    }
}

/* Bad configurations: GK_EINVAL naming the parameter and the description,
 * no plan, the grid untouched. */
static void refusals(gk_context *ctx, const char *where)
{
    static const struct { const char *desc; int f32; const char *config, *param, *why; } bad[] = {
        { "3d-star-r2:periodic", 0, "FOO=3", "FOO", "an unknown parameter" },
        { "3d-star-r2:periodic", 0, "TX=5000", "TX", "a value above its range" },
        { "2d-box-r1:fixed", 0, "NT=0", "NT", "a value below its range" },
        { "3d-star-r2:periodic", 0, "TSTEPS=5", "TSTEPS", "steps per pass beyond 4" },
        { "3d-star-r2:periodic", 0, "TX", "TX", "an item without a value" },
        { "3d-star-r2:periodic", 0, "TX=abc", "TX", "a value that is not an integer" },
        { "3d-star-r2:periodic", 0, "TX=32,TX=64", "TX", "a parameter given twice" },
        { "3d-star-r1", 0, "DESIGN=1", "DESIGN", "the warp design in 3D (the rules)" },
        { "3d-star-r1", 0, "NT=100", "NT", "threads not a multiple of 32 (the rules)" },
        { "2d-star-r1", 0, "DESIGN=0,TY=4", "TY", "a 2D tile of 4 rows (the rules)" },
        { "2d-star-r2", 0, "DESIGN=0,TSTEPS=6", "TSTEPS", "more than 4 steps per pass outside the warp design (the rules)" },
        { "2d-box-r4", 1, "DESIGN=1,PX=8,TSTEPS=4", "TSTEPS", "register queues too deep (the rules)" },
        { "3d-box-r2", 0, "TSTEPS=4,TX=4096,TY=256", "TSTEPS", "shared memory beyond any GPU (the rules)" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        dcase c = { bad[k].desc, bad[k].f32, bad[k].config, 13, 11, 9, 2 };
        gk_stencil_desc d;
        gk_stencil_desc_init(&d);
        if (gk_stencil_desc_parse(bad[k].desc, &d)) { ok(0, "parse %s", bad[k].desc); continue; }
        if (d.dims == 2) c.nz = 1;
        job j;
        if (!job_make(&c, &j)) continue;
        char *before = malloc((size_t)j.n * j.e);
        memcpy(before, j.grid, (size_t)j.n * j.e);
        gk_stencil_problem p = job_problem(&c, &j);
        gk_stencil_options o = t_stencil_opts(0, bad[k].config);
        char shape[64];
        snprintf(shape, sizeof shape, "%.2s-%s-r%d-%s-%s", bad[k].desc, d.shape == GK_STENCIL_STAR ? "star" : "box",
                 d.radius, c.f32 ? "f32" : "f64", d.boundary == GK_BOUNDARY_PERIODIC ? "periodic"
                 : d.boundary == GK_BOUNDARY_FIXED ? "fixed" : "zero");
        gk_status st = gk_stencil_run(ctx, &p, j.grid, 2, &o, NULL);
        const char *msg = gk_last_error();
        ok(st == GK_EINVAL && strstr(msg, bad[k].param) && strstr(msg, shape) && strstr(msg, "options.config") &&
           !memcmp(before, j.grid, (size_t)j.n * j.e),
           "%s: %s refused (%s), naming %s and %s, grid untouched: %s", where, bad[k].config, bad[k].why,
           bad[k].param, shape, msg);
        gk_stencil_plan *plan = (gk_stencil_plan *)&plan;
        ok(gk_stencil_plan_create(ctx, &p, &o, &plan) == GK_EINVAL && plan == NULL,
           "%s: gk_stencil_plan_create with %s: GK_EINVAL and no plan", where, bad[k].config);
        free(before);
        job_free(&j);
    }
}

/* A plan of a description carries its own context's store. */
static void plan_stores(const char *dir_a, const char *dir_b)
{
    gk_context *a = context(GK_BACKEND_CPU, dir_a), *b = context(GK_BACKEND_CPU, dir_b),
               *none = context(GK_BACKEND_CPU, NULL);
    if (!ok(a && b && none, "three CPU contexts (cache directories A, B, none)"))
        return;
    dcase c = { "3d-star-r2", 0, NULL, 11, 10, 9, 1 };
    job j;
    job_make(&c, &j);
    gk_stencil_problem p = job_problem(&c, &j);
    gk_stencil_plan *pa = NULL, *pb = NULL, *pn = NULL, *pa2 = NULL;
    gk_status st = gk_stencil_plan_create(a, &p, NULL, &pa);
    if (!st) st = gk_stencil_plan_create(b, &p, NULL, &pb);
    if (!st) st = gk_stencil_plan_create(a, &p, NULL, &pa2);   /* A again, after B */
    if (!st) st = gk_stencil_plan_create(none, &p, NULL, &pn);
    ok(st == GK_OK && !strcmp(gk__stencil_plan_store_dir(pa), dir_a) && !strcmp(gk__stencil_plan_store_dir(pb), dir_b)
       && !strcmp(gk__stencil_plan_store_dir(pa2), dir_a) && !strcmp(gk__stencil_plan_store_dir(pn), ""),
       "each plan carries its context's store: A '%s', B '%s', A again '%s', none '%s' (%s)",
       pa ? gk__stencil_plan_store_dir(pa) : "-", pb ? gk__stencil_plan_store_dir(pb) : "-",
       pa2 ? gk__stencil_plan_store_dir(pa2) : "-", pn ? gk__stencil_plan_store_dir(pn) : "-",
       st ? gk_last_error() : "ok");
    /* executing B's plan between A's leaves A's store A's */
    if (!st) st = gk_stencil_plan_execute(b, pb, j.grid, 1, NULL);
    if (!st) st = gk_stencil_plan_execute(a, pa, j.grid, 0, NULL);
    ok(st == GK_OK && !strcmp(gk__stencil_plan_store_dir(pa), dir_a), "A's plan keeps A's store after B's runs");
    gk_stencil_plan_destroy(pa);
    gk_stencil_plan_destroy(pb);
    gk_stencil_plan_destroy(pa2);
    gk_stencil_plan_destroy(pn);
    job_free(&j);
    gk_context_destroy(a);
    gk_context_destroy(b);
    gk_context_destroy(none);
}

/* ---- on a GPU ---- */

/* The ELF files in DIR/stencil-gen-cubins (-1: another kind of file). */
static int count_cubins(const char *dir)
{
    char sub[512], path[1024];
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
    }
    if (d) closedir(d);
    return other ? -1 : n;
}

static void gpu_valid(gk_context *gpu, gk_context *cpu)
{
    for (size_t k = 0; k < NVALID; k++) {
        const dcase *c = &valid[k];
        job j;
        if (!job_make(c, &j)) continue;
        char *on_cpu = malloc((size_t)j.n * j.e);
        memcpy(on_cpu, j.grid, (size_t)j.n * j.e);
        gk_stencil_problem p = job_problem(c, &j);
        gk_stencil_options o = t_stencil_opts(1, c->config);
        gk_report rep = t_report(), rc = t_report();
        gk_status st = gk_stencil_run(gpu, &p, j.grid, c->steps, &o, &rep);
        gk_status sc = gk_stencil_run(cpu, &p, on_cpu, c->steps, NULL, &rc);
        ok(st == GK_OK && rep.backend == GK_BACKEND_GPU && rep.config_source == GK_CONFIG_USER &&
           rep.config_ignored == 0 && config_shows(rep.config, c->config) && rep.checked,
           "GPU: %s %s runs config %s as given (ran %s; %s)", c->desc, c->f32 ? "f32" : "f64", c->config, rep.config,
           st ? gk_last_error() : "ok");
        ok(st == GK_OK && sc == GK_OK && !memcmp(j.grid, on_cpu, (size_t)j.n * j.e) &&
           !memcmp(j.grid, j.ref, (size_t)j.n * j.e),
           "GPU: %s with %s: bit-identical to the CPU backend and to the naive loop", c->desc, c->config);
        /* a plan, executed twice: the configuration stays */
        gk_stencil_plan *plan = NULL;
        memcpy(on_cpu, j.ref, (size_t)j.n * j.e);
        gk_report r2 = t_report();
        st = gk_stencil_plan_create(gpu, &p, &o, &plan);
        if (!st) st = gk_stencil_plan_execute(gpu, plan, on_cpu, 0, &r2);
        ok(st == GK_OK && config_shows(r2.config, c->config) && r2.config_source == GK_CONFIG_USER &&
           !memcmp(on_cpu, j.ref, (size_t)j.n * j.e), "GPU: a plan of %s with %s reports it (%s)", c->desc,
           c->config, r2.config);
        gk_stencil_plan_destroy(plan);
        free(on_cpu);
        job_free(&j);
    }
    /* the rules on a GPU context are this device's: the refusal names it */
    dcase c = { "3d-box-r2", 0, "TSTEPS=4,TX=64,TY=64,RY=8", 13, 11, 9, 1 };   /* 8+ planes of 68x68 doubles */
    job j;
    if (job_make(&c, &j)) {
        gk_stencil_problem p = job_problem(&c, &j);
        gk_stencil_options o = t_stencil_opts(0, c.config);
        gk_status st = gk_stencil_run(gpu, &p, j.grid, 1, &o, NULL);
        ok(st == GK_EINVAL && strstr(gk_last_error(), "TSTEPS") && strstr(gk_last_error(), "cannot run on "),
           "GPU: a configuration beyond the device's shared memory refused naming the device: %s", gk_last_error());
        job_free(&j);
    }
}

typedef struct store_arg {
    const char *dir;
    uint64_t seed;
    gk_status st;
    char err[512];
} store_arg;

/* One thread, one GPU context with its own cache directory, one plan of a
 * description whose weights (random, this thread's) make a source of its
 * own: compiled here, kept in this context's directory. */
static void *store_thread(void *arg)
{
    store_arg *a = arg;
    gk_context *ctx = context(GK_BACKEND_GPU, a->dir);
    if (!ctx) {
        a->st = GK_ENODEV;
        snprintf(a->err, sizeof a->err, "%s", gk_last_error());
        return NULL;
    }
    dcase c = { "3d-star-r2:fixed", 1, "TSTEPS=1", 17, 13, 11, 2 };
    job j;
    memset(&j, 0, sizeof j);
    gk_stencil_desc_init(&j.d);
    gk_stencil_desc_parse(c.desc, &j.d);
    uint64_t s = a->seed;
    for (int i = 0; i < 125; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        int dx = i % 5 - 2, dy = i / 5 % 5 - 2, dz = i / 25 - 2;
        j.w[i] = (dx != 0) + (dy != 0) + (dz != 0) > 1 ? 0 : (double)(s >> 11) * 0x1p-53 / 13;
    }
    j.d.weights = j.w;
    float *g = calloc(17 * 13 * 11, 4);
    gk_stencil_problem p = job_problem(&c, &j);
    gk_stencil_options o = t_stencil_opts(0, c.config);
    a->st = gk_stencil_run(ctx, &p, g, c.steps, &o, NULL);
    if (a->st) snprintf(a->err, sizeof a->err, "%s", gk_last_error());
    free(g);
    gk_context_destroy(ctx);
    return NULL;
}

static void gpu_stores(const char *dir_x, const char *dir_y)
{
    store_arg ax = { dir_x, 0x5707e1ULL ^ (uint64_t)getpid(), 0, "" }, ay = { dir_y, 0x5707e2ULL ^ ((uint64_t)getpid() << 20), 0, "" };
    pthread_t tx, ty;
    int mx = pthread_create(&tx, NULL, store_thread, &ax) == 0;
    int my = pthread_create(&ty, NULL, store_thread, &ay) == 0;
    if (mx) pthread_join(tx, NULL);
    if (my) pthread_join(ty, NULL);
    int nx = count_cubins(dir_x), ny = count_cubins(dir_y);
    ok(mx && my && !ax.st && !ay.st && nx == 1 && ny == 1,
       "GPU: two contexts with two cache directories, planning at once on two threads: one kernel in each "
       "(%d in X, %d in Y; %s %s)", nx, ny, ax.st ? ax.err : "ok", ay.st ? ay.err : "ok");
}

int main(void)
{
    no_plan();
    char base[256];
    snprintf(base, sizeof base, "%s/gk-desc-config.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(base)) { printf("Bail out! mkdtemp\n"); return 1; }
    char da[300], db[300], dx[300], dy[300], dg[300];
    snprintf(da, sizeof da, "%s/a", base);
    snprintf(db, sizeof db, "%s/b", base);
    snprintf(dx, sizeof dx, "%s/x", base);
    snprintf(dy, sizeof dy, "%s/y", base);
    snprintf(dg, sizeof dg, "%s/g", base);
    gk_context *cpu = context(GK_BACKEND_CPU, NULL);
    if (!cpu) { printf("Bail out! %s\n", gk_last_error()); return 1; }

    cpu_valid(cpu);
    refusals(cpu, "CPU");
    plan_stores(da, db);

    char why[512];
    if (!gk_gpu_usable(why, sizeof why) || !gk_build_info_get()->has_nvrtc) {
        skip(why[0] ? why : "no NVRTC in this build", "the GPU cases (a configuration run as given, bit-identical "
             "to the CPU; two contexts' cubin stores on two threads)");
    } else {
        gk_context *gpu = context(GK_BACKEND_GPU, dg);   /* a fresh cache: no tuned entry, kernels kept there */
        if (ok(gpu != NULL, "a GPU context (%s)", gpu ? "ok" : gk_last_error())) {
            gpu_valid(gpu, cpu);
            refusals(gpu, "GPU");
            gk_context_destroy(gpu);
        }
        gpu_stores(dx, dy);
    }
    gk_context_destroy(cpu);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd)) diag("could not remove %s", base);
    return done_testing();
}
