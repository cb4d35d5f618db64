/* test_stencil_multi_desc.c - gk_stencil_run_file with a stencil
 * description over several ranks, without MPI: K threads in this process,
 * each a rank with its own context on the CPU and a gk_comm of the test's
 * own (collectives by barriers, sendrecv by mailboxes), so the sanitizer
 * builds cover the slab code too.  2, 3 and 5 ranks (uneven slabs, a rank
 * with no plane, slabs thinner than the rounds want), 2D and 3D, stars,
 * boxes and a mask, radius 1..4, float32 and float64, every boundary,
 * random weights: the file written must equal, byte for byte, the test's
 * own naive loop run over the whole grid (the chain in the description's
 * order: ascending dz, dy, dx; a multiply, then fmas).  Then the errors:
 * a slab thinner than the radius, coefficients or a configuration with a
 * description, the NCCL exchange. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "test_stencil_common.h"
#include "core/stencil_spec.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXR 8

/* ---------------------------------------------------------------- the threads' communicator */

typedef struct box { const void *buf; size_t n; int full; } box;

typedef struct world {
    int size;
    pthread_barrier_t bar;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const void *pub[MAXR];
    box mail[MAXR][MAXR];      /* [from][to] */
} world;

typedef struct member { world *w; int rank; } member;

static int w_bcast(void *u, void *buf, size_t bytes, int root)
{
    member *m = u;
    pthread_barrier_wait(&m->w->bar);
    if (m->rank == root) m->w->pub[root] = buf;
    pthread_barrier_wait(&m->w->bar);
    if (m->rank != root) memcpy(buf, m->w->pub[root], bytes);
    pthread_barrier_wait(&m->w->bar);
    return 0;
}

#define DEF_MAX(NAME, T)                                                         \
    static int NAME(void *u, T *v, int n)                                        \
    {                                                                            \
        member *m = u;                                                           \
        T tmp[64];                                                               \
        if (n > 64) return 1;                                                    \
        m->w->pub[m->rank] = v;                                                  \
        pthread_barrier_wait(&m->w->bar);                                        \
        for (int i = 0; i < n; i++) {                                            \
            tmp[i] = v[i];                                                       \
            for (int k = 0; k < m->w->size; k++) {                               \
                T x = ((const T *)m->w->pub[k])[i];                              \
                if (x > tmp[i]) tmp[i] = x;                                      \
            }                                                                    \
        }                                                                        \
        pthread_barrier_wait(&m->w->bar);                                        \
        memcpy(v, tmp, (size_t)n * sizeof *v);                                   \
        return 0;                                                                \
    }
DEF_MAX(w_max_i64, int64_t)
DEF_MAX(w_max_f64, double)

/* Post the send, take the receive, wait until the send was taken: no
 * rank waits for another to receive before it has posted its own. */
static int w_sendrecv(void *u, const void *sbuf, size_t sn, int dest, void *rbuf, size_t rn, int src)
{
    member *m = u;
    world *w = m->w;
    int bad = 0;
    pthread_mutex_lock(&w->mu);
    if (dest >= 0) {
        box *b = &w->mail[m->rank][dest];
        while (b->full) pthread_cond_wait(&w->cv, &w->mu);
        b->buf = sbuf; b->n = sn; b->full = 1;
        pthread_cond_broadcast(&w->cv);
    }
    if (src >= 0) {
        box *b = &w->mail[src][m->rank];
        while (!b->full) pthread_cond_wait(&w->cv, &w->mu);
        if (b->n != rn) bad = 1;
        else memcpy(rbuf, b->buf, rn);
        b->full = 0;
        pthread_cond_broadcast(&w->cv);
    }
    if (dest >= 0)
        while (w->mail[m->rank][dest].full) pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
    return bad;
}

/* ---------------------------------------------------------------- ranks */

typedef struct job {
    world *w;
    int rank;
    const gk_stencil_problem *prob;
    const gk_stencil_options *opts;
    const char *in, *out;
    int64_t steps;
    gk_status st;
    char msg[1024];
    gk_stencil_dist_report rep;
} job;

static void *rank_main(void *arg)
{
    job *j = arg;
    member m = { j->w, j->rank };
    gk_comm c;
    gk_comm_init(&c);
    c.rank = j->rank;
    c.size = j->w->size;
    c.local_rank = j->rank;
    c.local_size = j->w->size;
    c.user = &m;
    c.bcast = w_bcast;
    c.max_i64 = w_max_i64;
    c.max_f64 = w_max_f64;
    c.sendrecv = w_sendrecv;
    gk_context_options co;
    gk_context_options_init(&co);
    co.backend = GK_BACKEND_CPU;
    co.threads = 1;
    co.comm = &c;
    gk_context *ctx = NULL;
    j->st = gk_context_create(&ctx, &co);
    if (!j->st) {
        gk_stencil_dist_report_init(&j->rep);
        j->st = gk_stencil_run_file(ctx, j->prob, j->in, 7, j->out, j->steps, j->opts, &j->rep);
        gk_context_destroy(ctx);
    }
    snprintf(j->msg, sizeof j->msg, "%s", j->st ? gk_last_error() : "");
    return NULL;
}

/* K ranks run the problem; every rank's status into st[] (the same on all
 * when the library keeps its promise), rank 0's message into msg. */
static gk_status run_ranks(int K, const gk_stencil_problem *p, const gk_stencil_options *o, const char *in,
                           const char *out, int64_t steps, char *msg, size_t msize, int *same,
                           gk_stencil_dist_report *rep0)
{
    world w;
    memset(&w, 0, sizeof w);
    w.size = K;
    pthread_barrier_init(&w.bar, NULL, (unsigned)K);
    pthread_mutex_init(&w.mu, NULL);
    pthread_cond_init(&w.cv, NULL);
    job jobs[MAXR];
    pthread_t th[MAXR];
    for (int k = 0; k < K; k++) {
        memset(&jobs[k], 0, sizeof jobs[k]);
        jobs[k].w = &w; jobs[k].rank = k; jobs[k].prob = p; jobs[k].opts = o;
        jobs[k].in = in; jobs[k].out = out; jobs[k].steps = steps;
        pthread_create(&th[k], NULL, rank_main, &jobs[k]);
    }
    for (int k = 0; k < K; k++)
        pthread_join(th[k], NULL);
    *same = 1;
    for (int k = 1; k < K; k++)
        if (jobs[k].st != jobs[0].st) *same = 0;
    snprintf(msg, msize, "%s", jobs[0].msg);
    if (rep0) *rep0 = jobs[0].rep;
    pthread_barrier_destroy(&w.bar);
    pthread_mutex_destroy(&w.mu);
    pthread_cond_destroy(&w.cv);
    return jobs[0].st;
}

/* ---------------------------------------------------------------- the naive reference */

static int64_t wrapi(int64_t i, int64_t n, gk_boundary b)
{
    if (i >= 0 && i < n) return i;
    if (b != GK_BOUNDARY_PERIODIC) return -1;
    return i < 0 ? i + n : i - n;
}

#define DEF_NAIVE(NAME, T, FMA)                                                                        \
    static void NAME(const gk__stencil_spec *s, T *g, int64_t nx, int64_t ny, int64_t nz, int64_t steps) \
    {                                                                                                  \
        size_t n = (size_t)(nx * ny * nz);                                                             \
        T *o = malloc(n * sizeof *o);                                                                  \
        int r = s->radius;                                                                             \
        for (int64_t t = 0; t < steps; t++) {                                                          \
            for (int64_t z = 0; z < nz; z++)                                                           \
                for (int64_t y = 0; y < ny; y++)                                                       \
                    for (int64_t x = 0; x < nx; x++) {                                                 \
                        int64_t p = (z * ny + y) * nx + x;                                             \
                        int band = x < r || x >= nx - r || y < r || y >= ny - r                        \
                                   || (s->dims == 3 && (z < r || z >= nz - r));                        \
                        if (s->boundary == GK_BOUNDARY_FIXED && band) {                                \
                            o[p] = g[p];                                                               \
                            continue;                                                                  \
                        }                                                                              \
                        T acc = 0;                                                                     \
                        for (int q = 0; q < s->npoints; q++) {                                         \
                            int64_t xx = wrapi(x + s->dx[q], nx, s->boundary);                         \
                            int64_t yy = wrapi(y + s->dy[q], ny, s->boundary);                         \
                            int64_t zz = wrapi(z + s->dz[q], nz, s->boundary);                         \
                            T v = xx < 0 || yy < 0 || zz < 0 ? (T)0 : g[(zz * ny + yy) * nx + xx];     \
                            acc = q ? FMA((T)s->w[q], v, acc) : (T)s->w[q] * v;                        \
                        }                                                                              \
                        o[p] = acc;                                                                    \
                    }                                                                                  \
            memcpy(g, o, n * sizeof *o);                                                               \
        }                                                                                              \
        free(o);                                                                                       \
    }
DEF_NAIVE(naive_f64, double, fma)
DEF_NAIVE(naive_f32, float, fmaf)

/* ---------------------------------------------------------------- cases */

typedef struct tcase {
    const char *text;     /* gk_stencil_desc_parse's */
    gk_dtype t;
    int nx, ny, nz;       /* 2D: nz = 1 */
    int steps;
    int weights;          /* 0: the description's defaults; 1: random; 2: a random mask */
} tcase;

static const tcase cases[] = {
    { "3d-star-r1:zero", GK_DTYPE_FLOAT64, 9, 7, 13, 7, 1 },
    { "3d-star-r4:periodic", GK_DTYPE_FLOAT32, 10, 9, 23, 5, 0 },
    { "3d-box-r2:fixed", GK_DTYPE_FLOAT64, 8, 7, 17, 6, 1 },
    { "3d-box-r1:periodic", GK_DTYPE_FLOAT32, 5, 4, 6, 9, 1 },
    { "2d-box-r2:periodic", GK_DTYPE_FLOAT64, 21, 19, 1, 8, 1 },
    { "2d-star-r3:fixed", GK_DTYPE_FLOAT32, 17, 26, 1, 5, 0 },
    { "2d-mask-r1:zero", GK_DTYPE_FLOAT64, 13, 11, 1, 10, 2 },
    { "3d-mask-r2:periodic", GK_DTYPE_FLOAT32, 7, 6, 15, 4, 2 },
};

static int write_file(const char *path, const void *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(buf, 1, n, f);
    return fclose(f) || w != n ? -1 : 0;
}

static void *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = malloc(sz > 0 ? (size_t)sz : 1);
    *n = fread(b, 1, (size_t)sz, f);
    fclose(f);
    return b;
}

int main(void)
{
    no_plan();
    char dir[] = "/tmp/gk-smd-XXXXXX";
    if (!mkdtemp(dir))
        skip_all("no temporary directory");
    char in[64], out[64];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    uint64_t seed = 0x5eed;
    double wbuf[GK_STENCIL_MAX_POINTS];
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const tcase *c = &cases[ci];
        gk_stencil_desc d;
        gk_stencil_desc_init(&d);
        if (gk_stencil_desc_parse(c->text, &d)) {
            ok(0, "%s: %s", c->text, gk_last_error());
            continue;
        }
        int k = 1;
        for (int a = 0; a < d.dims; a++) k *= 2 * d.radius + 1;
        if (c->weights) {
            for (int i = 0; i < k; i++) {
                int dx = i % (2 * d.radius + 1) - d.radius, dy = i / (2 * d.radius + 1) % (2 * d.radius + 1) - d.radius;
                int dz = d.dims == 3 ? i / (2 * d.radius + 1) / (2 * d.radius + 1) - d.radius : 0;
                int axes = (dx != 0) + (dy != 0) + (dz != 0);
                double v = 0.5 * t_rand(&seed);
                if (d.shape == GK_STENCIL_STAR && axes > 1) v = 0;
                if (c->weights == 2 && i != k / 2 && t_rand(&seed) < 0) v = 0;
                wbuf[i] = v;
            }
            d.weights = wbuf;
        }
        gk__stencil_spec s;
        if (gk__stencil_spec_make(&d, c->t, &s)) {
            ok(0, "%s: %s", c->text, gk_last_error());
            continue;
        }
        size_t n = (size_t)c->nx * c->ny * c->nz, es = c->t == GK_DTYPE_FLOAT32 ? 4 : 8;
        void *g = malloc(n * es);
        for (size_t i = 0; i < n; i++) {
            double v = t_rand(&seed);
            if (es == 4) ((float *)g)[i] = (float)v;
            else ((double *)g)[i] = v;
        }
        if (write_file(in, g, n * es)) {
            ok(0, "cannot write %s", in);
            free(g);
            continue;
        }
        if (es == 4) naive_f32(&s, g, c->nx, c->ny, c->nz, c->steps);
        else naive_f64(&s, g, c->nx, c->ny, c->nz, c->steps);
        gk_stencil_problem p;
        gk_stencil_problem_init(&p, c->nx, c->ny, c->nz);
        p.desc = &d;
        p.dtype = c->t;
        for (int K = 2; K <= 5; K += K == 3 ? 2 : 1) {
            char msg[1024];
            int same;
            gk_stencil_dist_report rep;
            unlink(out);
            gk_status st = run_ranks(K, &p, NULL, in, out, c->steps, msg, sizeof msg, &same, &rep);
            size_t got = 0;
            void *o = st ? NULL : read_file(out, &got);
            ok(!st && same && o && got == n * es && !memcmp(o, g, n * es) && rep.parts == K
                   && rep.halo % d.radius == 0 && rep.halo >= d.radius,
               "%s %s %dx%dx%d, %d steps, %s weights, %d ranks (halo %d): byte-identical to the naive loop%s%s",
               c->text, es == 4 ? "f32" : "f64", c->nx, c->ny, c->nz, c->steps,
               c->weights == 2 ? "mask" : c->weights ? "random" : "default", K, rep.halo, st ? ": " : "", msg);
            free(o);
        }
        free(g);
    }

    /* errors: the same status and one message on every rank, no output */
    gk_stencil_desc d;
    gk_stencil_desc_init(&d);
    gk_stencil_desc_parse("3d-star-r4", &d);
    gk_stencil_problem p;
    gk_stencil_problem_init(&p, 12, 12, 10);
    p.desc = &d;
    char msg[1024];
    int same;
    unlink(out);
    gk_status st = run_ranks(4, &p, NULL, NULL, out, 3, msg, sizeof msg, &same, NULL);
    ok(st == GK_EINVAL && same && strstr(msg, "10 planes over 4 slabs leaves a slab of 2 planes, thinner than the halo "
                                              "of radius 4: use at most 2 slabs") && access(out, F_OK) != 0,
       "4 ranks, 10 planes, radius 4: %s", msg);
    st = run_ranks(2, &p, NULL, NULL, out, 3, msg, sizeof msg, &same, NULL);
    ok(st == GK_OK && same && access(out, F_OK) == 0, "2 ranks, the same: runs");
    p.coeffs = gk_stencil_default_coeffs;
    st = run_ranks(2, &p, NULL, NULL, out, 3, msg, sizeof msg, &same, NULL);
    ok(st == GK_EINVAL && same && strstr(msg, "problem.coeffs with problem.desc"), "coefficients with a description: %s", msg);
    p.coeffs = NULL;
    gk_stencil_options o;
    gk_stencil_options_init(&o);
    o.config = "DESIGN=1";
    st = run_ranks(2, &p, &o, NULL, out, 3, msg, sizeof msg, &same, NULL);
    ok(st == GK_EINVAL && same && strstr(msg, "options.config"), "a configuration with a description: %s", msg);
    o.config = NULL;
    o.exchange = GK_EXCHANGE_DEVICE;
    st = run_ranks(2, &p, &o, NULL, out, 3, msg, sizeof msg, &same, NULL);
    ok(st == GK_EINVAL && same && strstr(msg, "not NCCL"), "exchange=device with a description: %s", msg);
    gk_stencil_desc_init(&d);
    gk_stencil_desc_parse("2d-box-r1", &d);
    gk_stencil_problem_init(&p, 8, 8, 2);
    p.desc = &d;
    st = run_ranks(2, &p, NULL, NULL, NULL, 3, msg, sizeof msg, &same, NULL);
    ok(st == GK_EINVAL && same && strstr(msg, "nz = 1"), "a 2D description with nz = 2: %s", msg);
    unlink(in);
    unlink(out);
    rmdir(dir);
    return done_testing();
}
