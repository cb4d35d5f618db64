/* test_sssp_gpu.c - the GPU shortest-path backend (src/gpu/sssp_gpu.h)
 * against a naive reference written here (relax every edge until nothing
 * changes, in the element type): the four types on random and grid
 * graphs, repeated sources, limit, min_only (nearest), predecessors checked
 * as shortest-path trees, Johnson's potential, negative weights without it
 * (Bellman-Ford) and negative cycles (the vertex named lies on one, checked
 * by a naive Floyd-Warshall).  SKIP without a usable GPU. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"
#include "core/graph.h"
#include "gpu/sssp_gpu.h"
#include "gpu/sssp_gpu_knobs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return rng_state;
}

/* ---- graphs: an edge list made into the CSR the contract describes ---- */
typedef struct { int32_t u, v; double w; } edge;

static int cmp_edge(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->u != y->u) return x->u < y->u ? -1 : 1;
    if (x->v != y->v) return x->v < y->v ? -1 : 1;
    return x->w < y->w ? -1 : x->w > y->w;
}

static size_t esz(gk_dtype t) { return t == GK_DTYPE_INT32 || t == GK_DTYPE_FLOAT32 ? 4 : 8; }

static void put(gk_dtype t, void *a, int64_t i, double x)
{
    switch (t) {
    case GK_DTYPE_INT32: ((int32_t *)a)[i] = (int32_t)x; break;
    case GK_DTYPE_INT64: ((int64_t *)a)[i] = (int64_t)x; break;
    case GK_DTYPE_FLOAT32: ((float *)a)[i] = (float)x; break;
    default: ((double *)a)[i] = x; break;
    }
}

static gk_graph *make_graph(int32_t V, edge *e, int64_t n, gk_dtype t)
{
    qsort(e, (size_t)n, sizeof *e, cmp_edge);
    gk_graph *g = calloc(1, sizeof *g);
    g->V = V;
    g->dtype = t;
    g->indptr = calloc((size_t)V + 1, sizeof(int64_t));
    g->indices = malloc((size_t)(n ? n : 1) * sizeof(int32_t));
    g->w = malloc((size_t)(n ? n : 1) * 8);
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        if (e[i].u == e[i].v || (i && e[i].u == e[i - 1].u && e[i].v == e[i - 1].v))
            continue;                      /* self-loop, or a duplicate (the smallest came first) */
        g->indices[m] = e[i].v;
        put(t, g->w, m, e[i].w);
        if (e[i].w < 0) g->negative = 1;
        if (fabs(e[i].w) > g->max_abs_w) g->max_abs_w = fabs(e[i].w);
        g->indptr[e[i].u + 1]++;
        m++;
    }
    for (int32_t v = 0; v < V; v++)
        g->indptr[v + 1] += g->indptr[v];
    g->E = m;
    return g;
}

static void free_graph(gk_graph *g)
{
    free(g->indptr); free(g->indices); free(g->w); free(g);
}

/* weights: integral in [lo, hi], or arbitrary reals there for float types */
static double weight(gk_dtype t, double lo, double hi)
{
    if (t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64)
        return lo + (hi - lo) * (double)(rnd() >> 11) / 9007199254740992.0;
    return lo + (double)(rnd() % (uint64_t)(hi - lo + 1));
}

static gk_graph *random_graph(int32_t V, int64_t E, gk_dtype t, double lo, double hi)
{
    edge *e = malloc((size_t)(E ? E : 1) * sizeof *e);
    for (int64_t i = 0; i < E; i++) {
        e[i].u = (int32_t)(rnd() % (uint64_t)V);
        e[i].v = (int32_t)(rnd() % (uint64_t)V);
        e[i].w = weight(t, lo, hi);
    }
    gk_graph *g = make_graph(V, e, E, t);
    free(e);
    return g;
}

static gk_graph *grid_graph(int32_t side, gk_dtype t, double lo, double hi, int shortcuts)
{
    int32_t V = side * side;
    int64_t n = 0, cap = 4 * (int64_t)V + 2 * shortcuts;
    edge *e = malloc((size_t)cap * sizeof *e);
    for (int32_t r = 0; r < side; r++)
        for (int32_t c = 0; c < side; c++) {
            int32_t v = r * side + c;
            if (c + 1 < side) {
                e[n++] = (edge){ v, v + 1, weight(t, lo, hi) };
                e[n++] = (edge){ v + 1, v, weight(t, lo, hi) };
            }
            if (r + 1 < side) {
                e[n++] = (edge){ v, v + side, weight(t, lo, hi) };
                e[n++] = (edge){ v + side, v, weight(t, lo, hi) };
            }
        }
    for (int i = 0; i < shortcuts; i++) {
        int32_t a = (int32_t)(rnd() % (uint64_t)V), b = (int32_t)(rnd() % (uint64_t)V);
        double w = weight(t, hi, 8 * hi);
        e[n++] = (edge){ a, b, w };
        e[n++] = (edge){ b, a, w };
    }
    gk_graph *g = make_graph(V, e, n, t);
    free(e);
    return g;
}

/* ---- the naive reference, in the element type ---- */
static double get(gk_dtype t, const void *a, int64_t i)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)a)[i];
    case GK_DTYPE_INT64: return (double)((const int64_t *)a)[i];
    case GK_DTYPE_FLOAT32: return ((const float *)a)[i];
    default: return ((const double *)a)[i];
    }
}

static int is_inf(gk_dtype t, const void *a, int64_t i)
{
    switch (t) {
    case GK_DTYPE_INT32: return ((const int32_t *)a)[i] == GK_APSP_INF;
    case GK_DTYPE_INT64: return ((const int64_t *)a)[i] == GK_APSP_INF64;
    case GK_DTYPE_FLOAT32: return isinf(((const float *)a)[i]);
    default: return isinf(((const double *)a)[i]);
    }
}

static void set_inf(gk_dtype t, void *a, int64_t i)
{
    switch (t) {
    case GK_DTYPE_INT32: ((int32_t *)a)[i] = GK_APSP_INF; break;
    case GK_DTYPE_INT64: ((int64_t *)a)[i] = GK_APSP_INF64; break;
    case GK_DTYPE_FLOAT32: ((float *)a)[i] = INFINITY; break;
    default: ((double *)a)[i] = INFINITY; break;
    }
}

/* a[i] + w[e] in the type, into *out; 1 when it is below b[j] */
static int relax(gk_dtype t, void *a, int64_t i, const void *w, int64_t e, int64_t j)
{
    switch (t) {
    case GK_DTYPE_INT32: { int32_t c = ((int32_t *)a)[i] + ((const int32_t *)w)[e];
        if (c < ((int32_t *)a)[j]) { ((int32_t *)a)[j] = c; return 1; } return 0; }
    case GK_DTYPE_INT64: { int64_t c = ((int64_t *)a)[i] + ((const int64_t *)w)[e];
        if (c < ((int64_t *)a)[j]) { ((int64_t *)a)[j] = c; return 1; } return 0; }
    case GK_DTYPE_FLOAT32: { float c = ((float *)a)[i] + ((const float *)w)[e];
        if (c < ((float *)a)[j]) { ((float *)a)[j] = c; return 1; } return 0; }
    default: { double c = ((double *)a)[i] + ((const double *)w)[e];
        if (c < ((double *)a)[j]) { ((double *)a)[j] = c; return 1; } return 0; }
    }
}

/* One row from the sources src[0..n-1] (all at 0): relax every edge until
 * nothing changes; 0, or -1 after V + 1 sweeps (a negative cycle). */
static int ref_row(const gk_graph *g, const int32_t *src, int n, void *d)
{
    for (int32_t v = 0; v < g->V; v++) set_inf(g->dtype, d, v);
    for (int i = 0; i < n; i++) put(g->dtype, d, src[i], 0);
    for (int sweep = 0; sweep <= g->V + 1; sweep++) {
        int changed = 0;
        for (int32_t u = 0; u < g->V; u++) {
            if (is_inf(g->dtype, d, u)) continue;
            for (int64_t e = g->indptr[u]; e < g->indptr[u + 1]; e++)
                changed |= relax(g->dtype, d, u, g->w, e, g->indices[e]);
        }
        if (!changed) return 0;
    }
    return -1;
}

static void apply_limit(gk_dtype t, void *d, int32_t V, double limit)
{
    for (int32_t v = 0; v < V; v++)
        if (!is_inf(t, d, v) && get(t, d, v) > limit) set_inf(t, d, v);
}

/* pred a shortest-path tree of d from the sources: -1 exactly at the
 * sources and the unreachable; else an edge u -> v with d[u] + w == d[v]
 * (computed as the search does) and the walk back reaching a source. */
static int tree_ok(const gk_graph *g, const void *d, const int32_t *pred, const int32_t *src, int n, int exact,
                   char *why, size_t wn)
{
    size_t es = esz(g->dtype);
    char *tmp = malloc(2 * es);
    int okay = 1;
    for (int32_t v = 0; v < g->V && okay; v++) {
        int is_src = 0;
        for (int i = 0; i < n; i++) is_src |= src[i] == v;
        if (is_src || is_inf(g->dtype, d, v)) {
            if (pred[v] != -1) { snprintf(why, wn, "pred[%d] = %d, want -1", v, pred[v]); okay = 0; }
            continue;
        }
        int32_t u = pred[v];
        if (u < 0 || u >= g->V) { snprintf(why, wn, "pred[%d] = %d out of range", v, u); okay = 0; break; }
        int64_t e = g->indptr[u];
        while (e < g->indptr[u + 1] && g->indices[e] != v) e++;
        if (e == g->indptr[u + 1]) { snprintf(why, wn, "pred[%d] = %d: no such edge", v, u); okay = 0; break; }
        if (exact) {
            memcpy(tmp, (const char *)d + (size_t)u * es, es);
            set_inf(g->dtype, tmp, 1);
            relax(g->dtype, tmp, 0, g->w, e, 1);
            if (memcmp(tmp + es, (const char *)d + (size_t)v * es, es)) {
                snprintf(why, wn, "pred[%d] = %d: d[u] + w != d[v]", v, u); okay = 0; break;
            }
        }
        int32_t x = v;
        int steps = 0;
        while (x >= 0 && steps <= g->V) {
            int at_src = 0;
            for (int i = 0; i < n; i++) at_src |= src[i] == x;
            if (at_src) break;
            x = pred[x];
            steps++;
        }
        if (x < 0 || steps > g->V) { snprintf(why, wn, "the walk back from %d reaches no source", v); okay = 0; }
    }
    free(tmp);
    return okay;
}

static gk__sssp_gpu *open_or_bail(const gk_graph *g)
{
    gk__sssp_gpu *h = NULL;
    if (gk__sssp_gpu_open(g, 0, NULL, NULL, &h)) {
        printf("Bail out! open: %s\n", gk_last_error());
        exit(1);
    }
    return h;
}

static const char *tname(gk_dtype t) { return gk_dtype_name(t); }

/* S sources (repeats allowed), with and without predecessors and a limit */
/* small chunks: many launches and both output buffers (chunk > 0) */
static long long chunk_slots, chunk_rows;

static void check_rows(const gk_graph *g, const char *what, int S, double limit)
{
    size_t es = esz(g->dtype), row = (size_t)g->V * es;
    int32_t *src = malloc((size_t)S * 4);
    for (int i = 0; i < S; i++) src[i] = (int32_t)(rnd() % (uint64_t)g->V);
    if (S > 2) src[S - 1] = src[0];
    char *want = malloc((size_t)S * row), *got = malloc((size_t)S * row);
    int32_t *pred = malloc((size_t)S * g->V * 4);
    for (int i = 0; i < S; i++) {
        ref_row(g, &src[i], 1, want + i * row);
        if (!isinf(limit)) apply_limit(g->dtype, want + i * row, g->V, limit);
    }
    gk__sssp_gpu *h = open_or_bail(g);
    gk__sssp_gpu_set_chunk(h, chunk_slots, chunk_rows);
    for (int with_pred = 0; with_pred < 2; with_pred++) {
        gk__sssp_job j;
        memset(&j, 0, sizeof j);
        j.g = g; j.sources = src; j.S = S; j.limit = limit; j.dist = got; j.pred = with_pred ? pred : NULL;
        memset(got, 0x55, (size_t)S * row);
        double ms = -1;
        gk_status st = gk__sssp_gpu_rows(h, &j, &ms);
        ok(st == GK_OK && memcmp(got, want, (size_t)S * row) == 0 && ms >= 0 && j.relaxations >= 0
           && (g->E > 0 || j.relaxations == 0),
           "%s %s V=%d S=%d limit=%g%s%s: distances == reference bit for bit %s", what, tname(g->dtype), g->V, S, limit,
           with_pred ? " +pred" : "", chunk_rows ? " (small chunks)" : "", st ? gk_last_error() : "");
        if (with_pred) {
            char why[256] = "";
            int good = st == GK_OK;
            for (int i = 0; i < S && good; i++)
                good = tree_ok(g, want + i * row, pred + (size_t)i * g->V, &src[i], 1, 1, why, sizeof why);
            ok(good, "%s %s V=%d S=%d: every predecessor row is a shortest-path tree %s", what, tname(g->dtype),
               g->V, S, why);
        }
    }
    gk__sssp_gpu_close(h);
    free(src); free(want); free(got); free(pred);
}

static void check_min_only(const gk_graph *g, const char *what, int S, double limit)
{
    size_t es = esz(g->dtype), row = (size_t)g->V * es;
    int32_t *src = malloc((size_t)S * 4);
    for (int i = 0; i < S; i++) src[i] = (int32_t)(rnd() % (uint64_t)g->V);
    char *want = malloc(row), *got = malloc(row), *one = malloc(row);
    int32_t *pred = malloc((size_t)g->V * 4), *nearest = malloc((size_t)g->V * 4);
    ref_row(g, src, S, want);
    if (!isinf(limit)) apply_limit(g->dtype, want, g->V, limit);
    gk__sssp_gpu *h = open_or_bail(g);
    gk__sssp_job j;
    memset(&j, 0, sizeof j);
    j.g = g; j.sources = src; j.S = S; j.min_only = 1; j.limit = limit; j.dist = got; j.pred = pred; j.nearest = nearest;
    gk_status st = gk__sssp_gpu_rows(h, &j, NULL);
    ok(st == GK_OK && memcmp(got, want, row) == 0, "%s %s min_only S=%d limit=%g: distances == reference %s", what,
       tname(g->dtype), S, limit, st ? gk_last_error() : "");
    char why[256] = "";
    ok(st == GK_OK && tree_ok(g, want, pred, src, S, 1, why, sizeof why), "%s %s min_only: the predecessors are a tree %s",
       what, tname(g->dtype), why);
    /* nearest: a source whose own row has that distance at v; -1 where unreachable */
    int good = st == GK_OK;
    for (int32_t v = 0; v < g->V && good; v++) {
        if (is_inf(g->dtype, want, v)) { good = nearest[v] == -1; continue; }
        int is_src = 0;
        for (int i = 0; i < S; i++) is_src |= src[i] == nearest[v];
        if (!is_src) { good = 0; break; }
        ref_row(g, &nearest[v], 1, one);
        good = memcmp(one + (size_t)v * es, want + (size_t)v * es, es) == 0;
    }
    ok(good, "%s %s min_only: nearest[] names a source at that distance", what, tname(g->dtype));
    gk__sssp_gpu_close(h);
    free(src); free(want); free(got); free(one); free(pred); free(nearest);
}

/* Johnson's h: relaxation from a virtual vertex joined to all by 0 */
static void *potential(const gk_graph *g)
{
    void *hv = malloc((size_t)g->V * esz(g->dtype));
    for (int32_t v = 0; v < g->V; v++) put(g->dtype, hv, v, 0);
    for (int sweep = 0; sweep <= g->V; sweep++) {
        int changed = 0;
        for (int32_t u = 0; u < g->V; u++)
            for (int64_t e = g->indptr[u]; e < g->indptr[u + 1]; e++)
                changed |= relax(g->dtype, hv, u, g->w, e, g->indices[e]);
        if (!changed) break;
    }
    return hv;
}

static int close_enough(gk_dtype t, const void *a, const void *b, int64_t n, double tol)
{
    for (int64_t i = 0; i < n; i++) {
        int ia = is_inf(t, a, i), ib = is_inf(t, b, i);
        if (ia != ib) return 0;
        if (!ia && fabs(get(t, a, i) - get(t, b, i)) > tol) return 0;
    }
    return 1;
}

/* negative weights, no negative cycle: with Johnson's h and without (BF) */
static void check_negative(gk_dtype t, int with_h)
{
    /* edges u < v may be negative, edges back (u > v) outweigh any path
       forward: no negative cycle */
    int32_t V = 120;
    int64_t E = 700;
    edge *e = malloc((size_t)E * sizeof *e);
    for (int64_t i = 0; i < E; i++) {
        int32_t a = (int32_t)(rnd() % V), b = (int32_t)(rnd() % V);
        e[i].u = a; e[i].v = b;
        e[i].w = a < b ? weight(t, -20, 50) : weight(t, 3000, 4000);
    }
    gk_graph *g = make_graph(V, e, E, t);
    free(e);
    int S = 17;
    size_t es = esz(t), row = (size_t)V * es;
    int32_t src[17];
    for (int i = 0; i < S; i++) src[i] = (int32_t)(rnd() % V);
    char *want = malloc(S * row), *got = malloc(S * row);
    int32_t *pred = malloc((size_t)S * V * 4);
    int cyc = 0;
    for (int i = 0; i < S; i++) cyc |= ref_row(g, &src[i], 1, want + i * row) != 0;
    void *hv = with_h ? potential(g) : NULL;
    gk__sssp_gpu *h = open_or_bail(g);
    gk__sssp_job j;
    memset(&j, 0, sizeof j);
    j.g = g; j.sources = src; j.S = S; j.limit = INFINITY; j.dist = got; j.pred = pred; j.h = hv;
    gk_status st = gk__sssp_gpu_rows(h, &j, NULL);
    int integral = t == GK_DTYPE_INT32 || t == GK_DTYPE_INT64;
    double tol = integral ? 0 : 2.0 * (V - 1) * (V - 1) * 4000 * (t == GK_DTYPE_FLOAT32 ? 1.2e-7 : 2.3e-16);
    ok(!cyc && g->negative && st == GK_OK && (integral ? memcmp(got, want, S * row) == 0
                                                       : close_enough(t, got, want, (int64_t)S * V, tol)),
       "negative weights %s %s: distances == reference %s", tname(t), with_h ? "Johnson h" : "Bellman-Ford",
       st ? gk_last_error() : "");
    if (integral) {
        char why[256] = "";
        int good = st == GK_OK;
        for (int i = 0; i < S && good; i++)
            good = tree_ok(g, want + i * row, pred + (size_t)i * V, &src[i], 1, 1, why, sizeof why);
        ok(good, "negative weights %s %s: predecessor rows are trees %s", tname(t), with_h ? "Johnson" : "BF", why);
    }
    gk__sssp_gpu_close(h);
    free(hv); free(want); free(got); free(pred);
    free_graph(g);
}

/* a negative cycle reachable from the source: GK_ENEGCYCLE, the vertex on one */
static void check_cycle(gk_dtype t)
{
    int32_t V = 40;
    int64_t E = 160;
    edge *e = malloc((size_t)(E + 3) * sizeof *e);
    for (int64_t i = 0; i < E; i++) {
        e[i].u = (int32_t)(rnd() % V); e[i].v = (int32_t)(rnd() % V); e[i].w = weight(t, 1, 30);
    }
    e[E] = (edge){ 30, 31, -10 };  e[E + 1] = (edge){ 31, 32, 2 };  e[E + 2] = (edge){ 32, 30, 3 };
    e[0] = (edge){ 0, 30, 5 };     /* reachable from 0 */
    gk_graph *g = make_graph(V, e, E + 3, t);
    free(e);
    /* naive FW in doubles: c is on a negative cycle iff D[c][c] < 0 */
    double *D = malloc((size_t)V * V * sizeof *D);
    for (int64_t i = 0; i < (int64_t)V * V; i++) D[i] = (i % (V + 1)) ? INFINITY : 0;
    for (int32_t u = 0; u < V; u++)
        for (int64_t k = g->indptr[u]; k < g->indptr[u + 1]; k++)
            if (get(t, g->w, k) < D[(int64_t)u * V + g->indices[k]]) D[(int64_t)u * V + g->indices[k]] = get(t, g->w, k);
    for (int k = 0; k < V; k++)
        for (int i = 0; i < V; i++)
            for (int jj = 0; jj < V; jj++)
                if (D[i * V + k] + D[k * V + jj] < D[i * V + jj]) D[i * V + jj] = D[i * V + k] + D[k * V + jj];
    int32_t src[2] = { 5, 0 };
    char *got = malloc(2 * (size_t)V * 8);
    gk__sssp_gpu *h = open_or_bail(g);
    gk__sssp_gpu_set_chunk(h, 1, 1);   /* source 5 first, alone; the cycle in the second chunk */
    gk__sssp_job j;
    memset(&j, 0, sizeof j);
    j.g = g; j.sources = src; j.S = 2; j.limit = INFINITY; j.dist = got;
    gk_status st = gk__sssp_gpu_rows(h, &j, NULL);
    int64_t c = j.cycle_vertex;
    ok(st == GK_ENEGCYCLE && c >= 0 && c < V && D[c * V + c] < 0 && strstr(gk_last_error(), "negative cycle"),
       "negative cycle %s: GK_ENEGCYCLE, vertex %lld lies on one (%s)", tname(t), (long long)c, gk_last_error());
    gk__sssp_gpu_close(h);
    free(D); free(got); free_graph(g);
}

int main(void)
{
    char why[512];
    if (!gk_gpu_usable(why, sizeof why))
        skip_all("no CUDA device");
    no_plan();
    const gk_dtype types[] = { GK_DTYPE_INT32, GK_DTYPE_INT64, GK_DTYPE_FLOAT32, GK_DTYPE_FLOAT64 };
    for (int ti = 0; ti < 4; ti++) {
        gk_dtype t = types[ti];
        gk_graph *g = random_graph(1, 0, t, 0, 1);
        check_rows(g, "single vertex", 2, INFINITY);
        free_graph(g);
        g = random_graph(300, 1500, t, 0, 100);   /* zero weights included (integers) */
        check_rows(g, "random", 37, INFINITY);
        check_rows(g, "random", 5, 60);
        check_min_only(g, "random", 9, INFINITY);
        check_min_only(g, "random", 4, 30);
        free_graph(g);
        g = random_graph(2000, 5000, t, 1, 1000);  /* sparse: unreachable vertices */
        check_rows(g, "sparse", 20, INFINITY);
        free_graph(g);
        g = random_graph(500, 20000, t, 1, 1000);  /* hubs: degrees >= 32 (the warp path) */
        check_rows(g, "dense", 40, INFINITY);
        free_graph(g);
        g = grid_graph(40, t, 1, 1000, 30);         /* road-like */
        check_rows(g, "road", 50, INFINITY);
        check_rows(g, "road", 8, 20000);
        chunk_slots = 3; chunk_rows = 7;          /* 50 rows: 8 chunks of 7 (the last 1), 3 blocks */
        check_rows(g, "road", 50, INFINITY);
        chunk_slots = 0; chunk_rows = 0;
        check_min_only(g, "road", 6, INFINITY);
        free_graph(g);
        check_negative(t, 1);
        check_negative(t, 0);
        check_cycle(t);
    }
    return done_testing();
}
