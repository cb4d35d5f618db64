/* test_threads.c - independent contexts on several threads at once
 * (include/gk/context.h, "Threads"): NTHREADS threads on the CPU, each with
 * its own context and its own instruction set (every one this CPU has, in
 * turn), run all four kernels (apsp, stencil, gemm, elementwise) ITERS times,
 * each thread starting with another kernel so that the four run at the same
 * time; every result must be bit-identical to the one the same kind of
 * context computed alone beforehand, and those serial results are checked
 * against the tests' own references (test_apsp_ref.h, test_stencil_common.h,
 * test_gemm_ref.h).  Where a GPU is usable, as many threads again run GPU
 * contexts (each its own stream, and its own APSP staging size, lookahead and
 * phase-3 kernel: formerly process-wide switches) beside the CPU ones.
 *
 * The sanitizer pass of .ci/run runs this test under ThreadSanitizer (a
 * separate --enable-sanitizers=thread build; see HACKING.md, "Threads"),
 * which fails it on any data race in libgk, such as a process-wide variable
 * that one context's job writes while another's reads it. */
#include "gk.h"
#include "tap.h"
#include "test_api.h"
#include "test_apsp_ref.h"
#include "test_gemm_ref.h"
#include "test_stencil_common.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define NTHREADS 4
#define ITERS 3

enum { K_APSP, K_STENCIL, K_GEMM, K_ELEMENTWISE, NK };
static const char *const kname[NK] = { "apsp", "stencil", "gemm", "elementwise" };

/* small, awkward sizes: several tiles of every backend, tails everywhere */
#define AV 130                          /* APSP vertices: 3 CPU tiles of 64 */
#define SX 21
#define SY 18
#define SZ 13
#define SSTEPS 4                        /* a pass of 3 and one more step */
#define MM 67
#define NN 45
#define KK 53
#define EX 97
#define EY 37
#define EITER 5

/* The inputs, made once by the main thread; every job copies its own. */
static int32_t *in_apsp;
static double *in_grid;
static float *in_a, *in_b, *in_ew;

typedef struct result {
    int32_t *apsp;
    double *grid;
    float *c, *ew;
} result;

static result result_new(void)
{
    result r = { malloc((size_t)AV * AV * sizeof(int32_t)), malloc((size_t)SX * SY * SZ * sizeof(double)),
                 malloc((size_t)MM * NN * sizeof(float)), malloc((size_t)EX * EY * sizeof(float)) };
    if (!r.apsp || !r.grid || !r.c || !r.ew) {
        fprintf(stderr, "test_threads: out of memory\n");
        exit(99);
    }
    return r;
}

static void result_free(result *r)
{
    free(r->apsp); free(r->grid); free(r->c); free(r->ew);
}

/* What a context is made with. */
typedef struct setup {
    char name[48];
    gk_backend backend;
    gk_cpu_isa isa;
    int64_t stage;                       /* apsp_stage_bytes (GPU) */
    int no_lookahead, no_mp3;
    result want;                         /* its serial result */
} setup;

static gk_status make_context(const setup *s, gk_context **ctx)
{
    gk_context_options o;
    gk_context_options_init(&o);
    gk_status st = gk_context_options_from_env(&o);    /* each thread's own, as an application would */
    if (st) return st;
    o.backend = s->backend;
    o.cpu_isa = s->isa;
    o.apsp_stage_bytes = s->stage;
    o.apsp_no_lookahead = s->no_lookahead;
    o.apsp_no_mp3 = s->no_mp3;
    return gk_context_create(ctx, &o);
}

/* One job of kernel k on a fresh copy of its input, into r; its report
 * into *rep.  APSP runs in 32 bits on odd iterations (else the automatic
 * choice: 16 bits here), so that both CPU paths run. */
static gk_status run_kernel(gk_context *ctx, int k, int it, result *r, gk_report *rep)
{
    gk_report_init(rep);
    switch (k) {
    case K_APSP: {
        gk_apsp_options o = t_apsp_opts(0, NULL, it % 2 ? 32 : 0);
        memcpy(r->apsp, in_apsp, (size_t)AV * AV * sizeof *in_apsp);
        return t_apsp_solve(ctx, r->apsp, AV, &o, rep);
    }
    case K_STENCIL: {
        gk_stencil_options o = t_stencil_opts(0, NULL);
        memcpy(r->grid, in_grid, (size_t)SX * SY * SZ * sizeof *in_grid);
        return t_stencil_run(ctx, r->grid, SX, SY, SZ, t_random_coeffs, SSTEPS, &o, rep);
    }
    case K_GEMM: {
        gk_gemm_options o = t_gemm_opts(0, NULL);
        memset(r->c, 0xff, (size_t)MM * NN * sizeof *r->c);        /* NaN: every element must be written */
        return t_gemm_run(ctx, in_a, in_b, r->c, MM, NN, KK, &o, rep);
    }
    default: {
        gk_elementwise_options o = t_elementwise_opts(0, NULL);
        memcpy(r->ew, in_ew, (size_t)EX * EY * sizeof *in_ew);
        return t_elementwise_run(ctx, r->ew, EX, EY, EITER, &o, rep);
    }
    }
}

static int same_result(int k, const result *a, const result *b)
{
    switch (k) {
    case K_APSP: return !memcmp(a->apsp, b->apsp, (size_t)AV * AV * sizeof *a->apsp);
    case K_STENCIL: return !memcmp(a->grid, b->grid, (size_t)SX * SY * SZ * sizeof *a->grid);
    case K_GEMM: return !memcmp(a->c, b->c, (size_t)MM * NN * sizeof *a->c);
    default: return !memcmp(a->ew, b->ew, (size_t)EX * EY * sizeof *a->ew);
    }
}

/* On the CPU, the report of apsp, stencil and gemm names the instruction
 * set their kernels ran with: the context's (1), or not (0). */
static int ran_with(const setup *s, int k, const gk_report *rep)
{
    if (s->backend != GK_BACKEND_CPU || k == K_ELEMENTWISE)
        return 1;
    const char *want = s->isa == GK_CPU_ISA_AVX512 ? "AVX-512" : s->isa == GK_CPU_ISA_AVX2 ? "AVX2" : "generic";
    return strstr(rep->config, want) != NULL;
}

/* A thread's work and what it found (the TAP lines are the main thread's:
 * tap.h is not for concurrent use). */
typedef struct job {
    int id;
    const setup *s;
    pthread_t th;
    int started;
    char ctx_error[256];
    int runs[NK], bad[NK];
    char first[NK][256];
    int own_error;                       /* gk_last_error() named this thread's own failure */
    char error_seen[256];
} job;

static void *worker(void *arg)
{
    job *j = arg;
    gk_context *ctx = NULL;
    /* first a failure of its own: gk_last_error() is per thread, so the
     * message is this thread's even while the others fail and succeed */
    gk_context_options bad;
    gk_context_options_init(&bad);
    bad.apsp_stage_bytes = -(1000 + j->id);
    char mine[32];
    snprintf(mine, sizeof mine, "%d", -(1000 + j->id));
    gk_context *none = NULL;
    j->own_error = gk_context_create(&none, &bad) == GK_EINVAL && !none && strstr(gk_last_error(), mine);
    snprintf(j->error_seen, sizeof j->error_seen, "%s", gk_last_error());

    if (make_context(j->s, &ctx)) {
        snprintf(j->ctx_error, sizeof j->ctx_error, "%s", gk_last_error());
        return NULL;
    }
    result r = result_new();
    for (int it = 0; it < ITERS; it++)
        for (int q = 0; q < NK; q++) {
            int k = (j->id + q) % NK;           /* each thread starts elsewhere: all four at once */
            gk_report rep;
            gk_status st = run_kernel(ctx, k, it, &r, &rep);
            j->runs[k]++;
            if ((st || !same_result(k, &r, &j->s->want) || !ran_with(j->s, k, &rep)) && !j->bad[k]++)
                snprintf(j->first[k], sizeof j->first[k], "iteration %d: %s", it,
                         st ? gk_last_error()
                         : !ran_with(j->s, k, &rep) ? "not the context's instruction set: ran with the report's "
                                                      "configuration"
                                                    : "differs from the serial result");
        }
    result_free(&r);
    gk_context_destroy(ctx);
    return NULL;
}

/* The serial result of setup s, checked against the independent references
 * (computed once into ref). */
static int serial(setup *s, const result *ref, const double *ab)
{
    gk_context *ctx;
    gk_status cst = make_context(s, &ctx);
    if (!ok(cst == GK_OK, "%s: a context alone%s%s", s->name, cst ? ": " : "", cst ? gk_last_error() : ""))
        return 0;
    s->want = result_new();
    int good = 1;
    for (int k = 0; k < NK; k++) {
        gk_report rep;
        gk_status st = run_kernel(ctx, k, 0, &s->want, &rep);
        good &= ok(st == GK_OK && ran_with(s, k, &rep), "%s: %s alone: %s", s->name, kname[k],
                   st ? gk_last_error() : rep.config);
    }
    ok(same_result(K_APSP, &s->want, ref), "%s: apsp == the naive 64-bit Floyd-Warshall", s->name);
    int exact;
    double d = t_maxdiff(s->want.grid, ref->grid, (size_t)SX * SY * SZ, &exact);
    double scale = 0;
    for (size_t i = 0; i < (size_t)SX * SY * SZ; i++)
        if (fabs(ref->grid[i]) > scale) scale = fabs(ref->grid[i]);
    double tol = gk_stencil_tolerance(SSTEPS, 1.0 + scale);
    if (s->backend == GK_BACKEND_CPU)
        ok(exact, "%s: stencil bit-identical to the triple loop (max diff %.3g)", s->name, d);
    else
        ok(d <= tol, "%s: stencil within %.3g of the triple loop (max diff %.3g)", s->name, tol, d);
    double r = t_gemm_ratio(s->want.c, (const double *)ref->c, ab, MM, NN, KK);
    ok(r <= 1, "%s: gemm within the bound of the double triple loop (%.3g of it)", s->name, r);
    gk_context_destroy(ctx);
    return good;
}

int main(void)
{
    no_plan();
    (void)ref_kind_name;
    /* inputs (the main thread alone: ref_rand's state is not shared) */
    ref_graph g = ref_random_graph(AV, G_SPARSE);
    in_apsp = ref_matrix(&g);
    in_grid = malloc((size_t)SX * SY * SZ * sizeof *in_grid);
    in_a = malloc((size_t)MM * KK * sizeof *in_a);
    in_b = malloc((size_t)KK * NN * sizeof *in_b);
    in_ew = malloc((size_t)EX * EY * sizeof *in_ew);
    uint64_t seed = 4242;
    for (size_t i = 0; i < (size_t)SX * SY * SZ; i++) in_grid[i] = t_rand(&seed);
    gk_matrix_random(in_a, MM, KK, 11);
    gk_matrix_random(in_b, KK, NN, 12);
    gk_elementwise_random(in_ew, EX, EY, 13);

    /* the independent references: APSP exactly, the stencil's triple loop,
     * gemm in double (ref.c holds MM*NN doubles) */
    result ref = result_new();
    memcpy(ref.apsp, in_apsp, (size_t)AV * AV * sizeof *in_apsp);
    ref_fw(ref.apsp, AV);
    memcpy(ref.grid, in_grid, (size_t)SX * SY * SZ * sizeof *in_grid);
    t_reference(ref.grid, SX, SY, SZ, t_random_coeffs, SSTEPS);
    free(ref.c);
    double *gref = malloc((size_t)MM * NN * sizeof *gref), *ab = malloc((size_t)MM * NN * sizeof *ab);
    t_gemm_ref(in_a, in_b, MM, NN, KK, gref, ab);
    ref.c = (float *)gref;

    /* the kinds of context: the CPU on every instruction set it has, the
     * GPU with the APSP knobs set differently */
    setup su[8];
    int ns = 0, ncpu;
    static const gk_cpu_isa isas[] = { GK_CPU_ISA_GENERIC, GK_CPU_ISA_AVX2, GK_CPU_ISA_AVX512 };
    for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
        if (!gk_cpu_isa_supported(isas[i])) {
            skip("this CPU lacks it", gk_cpu_isa_name(isas[i]));
            continue;
        }
        setup *s = &su[ns++];
        memset(s, 0, sizeof *s);
        snprintf(s->name, sizeof s->name, "CPU %s", gk_cpu_isa_name(isas[i]));
        s->backend = GK_BACKEND_CPU;
        s->isa = isas[i];
    }
    ncpu = ns;
    char why[256];
    int gpu = gk_gpu_usable(why, sizeof why);
    if (gpu) {
        static const struct { int64_t stage; int no_la, no_mp3; } knob[2] = { { 0, 0, 0 }, { 12345, 1, 1 } };
        for (int i = 0; i < 2; i++) {
            setup *s = &su[ns++];
            memset(s, 0, sizeof *s);
            snprintf(s->name, sizeof s->name, "GPU (staging %lld, lookahead %s, mp3 %s)", (long long)knob[i].stage,
                     knob[i].no_la ? "off" : "on", knob[i].no_mp3 ? "off" : "on");
            s->backend = GK_BACKEND_GPU;
            s->isa = GK_CPU_ISA_AUTO;
            s->stage = knob[i].stage;
            s->no_lookahead = knob[i].no_la;
            s->no_mp3 = knob[i].no_mp3;
        }
    } else {
        skip(why, "GPU contexts on several threads");
    }
    int good = 1;
    for (int i = 0; i < ns; i++)
        good &= serial(&su[i], &ref, ab);
    if (!good) {
        diag("a kernel failed alone: the threads are not run");
        return done_testing();
    }

    /* NTHREADS CPU threads (instruction sets in turn), and NTHREADS GPU
     * threads beside them where a GPU is usable, all at once */
    job jobs[2 * NTHREADS];
    int nj = 0;
    for (int t = 0; t < NTHREADS; t++, nj++) {
        memset(&jobs[nj], 0, sizeof jobs[nj]);
        jobs[nj].s = &su[t % ncpu];
    }
    for (int t = 0; gpu && t < NTHREADS; t++, nj++) {
        memset(&jobs[nj], 0, sizeof jobs[nj]);
        jobs[nj].s = &su[ncpu + t % (ns - ncpu)];
    }
    for (int t = 0; t < nj; t++) {
        jobs[t].id = t;
        jobs[t].started = pthread_create(&jobs[t].th, NULL, worker, &jobs[t]) == 0;
    }
    for (int t = 0; t < nj; t++)
        if (jobs[t].started)
            pthread_join(jobs[t].th, NULL);
    for (int t = 0; t < nj; t++) {
        job *j = &jobs[t];
        if (!ok(j->started && !*j->ctx_error, "thread %d (%s): started, own context%s%s", t, j->s->name,
                *j->ctx_error ? ": " : "", j->ctx_error))
            continue;
        ok(j->own_error, "thread %d: gk_last_error() is its own failure's (%s)", t, j->error_seen);
        for (int k = 0; k < NK; k++)
            ok(j->runs[k] == ITERS && j->bad[k] == 0, "thread %d (%s): %s %d of %d runs == the serial result%s%s",
               t, j->s->name, kname[k], j->runs[k] - j->bad[k], ITERS, j->bad[k] ? "; first failure: " : "",
               j->first[k]);
    }

    for (int i = 0; i < ns; i++)
        result_free(&su[i].want);
    result_free(&ref);
    free(ab); free(g.e); free(in_apsp); free(in_grid); free(in_a); free(in_b); free(in_ew);
    return done_testing();
}
