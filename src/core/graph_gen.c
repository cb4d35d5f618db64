/* graph_gen.c - the generated graphs of gk/sssp.h (gk gen apsp --kind=...),
 * so anyone can rerun the sparse-graph benchmarks: a 2D grid, a road-like
 * grid with shortcuts, an R-MAT power-law graph, and the random graph of
 * gk_apsp_generate.  Every edge is a function of (seed, its index) only,
 * so the graph is the same for any thread count and in every format. */
#include "core/apsp_formats.h"
#include "core/checked.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const kind_names[] = { "random", "grid", "road", "powerlaw" };

gk_status gk_graph_kind_parse(const char *text, gk_graph_kind *out)
{
    for (int i = 0; text && i < 4; i++)
        if (!strcasecmp(text, kind_names[i])) {
            if (out) *out = (gk_graph_kind)i;
            return GK_OK;
        }
    return gk__fail(GK_EINVAL, "kind '%s': want random, grid, road or powerlaw", text ? text : "(null)");
}

const char *gk_graph_kind_name(gk_graph_kind k)
{
    return k >= GK_GRAPH_RANDOM && k <= GK_GRAPH_POWERLAW ? kind_names[k] : "unknown";
}

void gk_graph_gen_init(gk_graph_gen *g)
{
    if (!g) return;
    memset(g, 0, sizeof *g);
    g->struct_size = sizeof *g;
    g->kind = GK_GRAPH_RANDOM;
    g->seed = 1;
    g->max_w = 1000;
    g->shortcut_percent = 2;
}

/* A 64-bit hash of (seed, stream, index): splitmix64's finaliser. */
static uint64_t mix(uint64_t seed, uint64_t stream, uint64_t i)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull + i * 0xBF58476D1CE4E5B9ull + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int32_t uniform(uint64_t h, int64_t lo, int64_t hi)
{
    return (int32_t)(lo + (int64_t)(h % (uint64_t)(hi - lo + 1)));
}

/* Edge pair k of a side x side grid: k < side*(side-1) the right links,
 * then the down links. */
static void grid_pair(int64_t side, int64_t k, int32_t *a, int32_t *b)
{
    int64_t h = side * (side - 1);
    if (k < h) {
        int64_t r = k / (side - 1), c = k % (side - 1);
        *a = (int32_t)(r * side + c);
        *b = *a + 1;
    } else {
        k -= h;
        *a = (int32_t)k;
        *b = (int32_t)(k + side);
    }
}

gk_status gk_graph_generate(const char *path, gk_format format, const gk_graph_gen *gen, int64_t *V_made,
                            int64_t *E_made)
{
    gk__clear_error();
    if (!path) return gk__fail(GK_EINVAL, "gk_graph_generate: path is NULL");
    if (!gen || gen->struct_size < sizeof *gen)
        return gk__fail(GK_EINVAL, "gk_graph_generate: gen is NULL or not initialised (gk_graph_gen_init)");
    const gk_graph_gen *p = gen;
    if (p->V < 1 || p->V >= INT32_MAX)
        return gk__fail(GK_EINVAL, "--vertices: %lld (want 1 to 2^31 - 2)", (long long)p->V);
    if (p->max_w < 1 || p->max_w > GK_APSP_MAX_WEIGHT)
        return gk__fail(GK_EINVAL, "--max-weight: %ld (want 1 to %d)", (long)p->max_w, GK_APSP_MAX_WEIGHT);
    if (p->kind == GK_GRAPH_RANDOM) {
        int64_t m;
        gk_status st = gk_apsp_generate(path, format, p->V, p->E, p->seed, p->max_w, &m);
        if (!st && V_made) *V_made = p->V;
        if (!st && E_made) *E_made = p->E;
        return st;
    }
    if (p->kind != GK_GRAPH_GRID && p->kind != GK_GRAPH_ROAD && p->kind != GK_GRAPH_POWERLAW)
        return gk__fail(GK_EINVAL, "gk_graph_generate: kind %d is not a gk_graph_kind", (int)p->kind);
    int64_t V, E;
    int64_t side = 0, pairs = 0, shortcuts = 0;
    int scale = 0;
    if (p->kind == GK_GRAPH_POWERLAW) {
        while ((INT64_C(1) << scale) < p->V) scale++;
        V = INT64_C(1) << scale;
        if (V >= INT32_MAX)
            return gk__fail(GK_EINVAL, "--vertices: %lld rounds up to 2^%d, more than a graph holds",
                            (long long)p->V, scale);
        if (p->E < 0 || p->E > INT32_MAX)
            return gk__fail(GK_EINVAL, "--edges: %lld (want 0 to 2^31 - 1)", (long long)p->E);
        E = p->E;
    } else {
        side = (int64_t)floor(sqrt((double)p->V));
        while ((side + 1) * (side + 1) <= p->V) side++;
        while (side * side > p->V) side--;
        V = side * side;
        pairs = 2 * side * (side - 1);
        if (p->kind == GK_GRAPH_ROAD) {
            if (!(p->shortcut_percent >= 0) || p->shortcut_percent > 100)
                return gk__fail(GK_EINVAL, "--shortcuts: %g%% (want 0 to 100)", p->shortcut_percent);
            shortcuts = V > 1 ? (int64_t)llround(p->shortcut_percent / 100.0 * (double)V) : 0;
        }
        E = 2 * (pairs + shortcuts);
        if (E > INT32_MAX)
            return gk__fail(GK_EINVAL, "--vertices: %lld: %lld edges, more than 2^31 - 1", (long long)p->V,
                            (long long)E);
    }
    char what[96];
    snprintf(what, sizeof what, "%s: %lld edges in memory", path, (long long)E);
    gk_status st = gk__host_memory_check((uint64_t)E * 24, what);
    if (st) return st;
    gk_edges g;
    if ((st = gk__edges_alloc(&g, (int32_t)V, E, path))) {
        gk__edges_free(&g);
        return st;
    }
    /* the weights: int32 exact for every path, (V - 1) max_w < INF */
    const int64_t cap = V > 1 ? (GK_APSP_INF - 1) / (V - 1) : GK_APSP_MAX_WEIGHT;
    const int64_t wmax = p->max_w < cap ? p->max_w : (cap > 1 ? cap : 1);
    const int64_t smax = 8 * wmax < cap ? 8 * wmax : (cap > wmax ? cap : wmax);
    const uint64_t seed = p->seed;
    if (p->kind == GK_GRAPH_POWERLAW) {
        /* R-MAT: at each of the scale levels a quadrant with probabilities
           a, b, c, d = 0.57, 0.19, 0.19, 0.05 */
#pragma omp parallel for schedule(static)
        for (int64_t e = 0; e < E; e++) {
            int64_t s = 0, t = 0;
            for (int l = 0; l < scale; l++) {
                double u = (double)(mix(seed, 3 + (uint64_t)l, (uint64_t)e) >> 11) * 0x1p-53;
                int q = u < 0.57 ? 0 : u < 0.76 ? 1 : u < 0.95 ? 2 : 3;
                s = 2 * s + (q >= 2);
                t = 2 * t + (q & 1);
            }
            g.s[e] = (int32_t)s;
            g.t[e] = (int32_t)t;
            g.w[e] = uniform(mix(seed, 1, (uint64_t)e), 1, wmax);
        }
    } else {
#pragma omp parallel for schedule(static)
        for (int64_t k = 0; k < pairs + shortcuts; k++) {
            int32_t a, b, w;
            if (k < pairs) {
                grid_pair(side, k, &a, &b);
                w = uniform(mix(seed, 1, (uint64_t)k), 1, wmax);
            } else {
                a = uniform(mix(seed, 4, (uint64_t)k), 0, V - 1);
                b = uniform(mix(seed, 5, (uint64_t)k), 0, V - 1);
                w = uniform(mix(seed, 6, (uint64_t)k), wmax, smax);
            }
            g.s[2 * k] = a; g.t[2 * k] = b; g.w[2 * k] = w;
            g.s[2 * k + 1] = b; g.t[2 * k + 1] = a; g.w[2 * k + 1] = w;
        }
    }
    g.E = E;
    int32_t mw = 0, mid = -1;
    for (int64_t e = 0; e < E; e++) {
        if (g.w[e] > mw) mw = g.w[e];
        if (g.s[e] > mid) mid = g.s[e];
        if (g.t[e] > mid) mid = g.t[e];
    }
    g.max_w = mw;
    g.max_id = mid;
    st = gk__edges_write(path, format, &g);
    gk__edges_free(&g);
    if (!st && V_made) *V_made = V;
    if (!st && E_made) *E_made = E;
    return st;
}
