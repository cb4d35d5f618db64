/* test_apsp_ref.h - the independent reference of the APSP tests: a naive
 * Floyd-Warshall in 64-bit arithmetic that treats INF as "no path" and clamps
 * at the end (gk never computes in 64 bits), and random graphs from an LCG
 * that shares nothing with libgk. */
#ifndef GK_TEST_APSP_REF_H
#define GK_TEST_APSP_REF_H

#include "gk.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t ref_state = 88172645463325252ull;
static inline uint32_t ref_rand(void)
{
    ref_state = ref_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(ref_state >> 33);
}

/* Edges as (src, dst, w) triples, as an input file holds them. */
typedef struct ref_graph { int32_t V; int64_t E; int32_t *e; } ref_graph;

/* Kinds of random graphs. */
enum { G_SPARSE, G_DENSE, G_SPLIT, G_ZERO, G_HEAVY, G_KINDS };
static const char *ref_kind_name[] = { "sparse", "dense", "disconnected", "zero weights", "heavy weights" };

static inline ref_graph ref_random_graph(int32_t V, int kind)
{
    ref_graph g = { V, 0, NULL };
    int64_t want = kind == G_SPARSE ? 3 * (int64_t)V : kind == G_DENSE ? (int64_t)V * V / 2 + 1 : 4 * (int64_t)V;
    want += 3;   /* a few duplicates and self-loops below */
    g.e = malloc((size_t)(want + 8) * 3 * sizeof *g.e);
    for (int64_t i = 0; i < want; i++) {
        int32_t s = (int32_t)(ref_rand() % (uint32_t)V), t = (int32_t)(ref_rand() % (uint32_t)V);
        int32_t w = (int32_t)(ref_rand() % 1000);
        if (kind == G_SPLIT && V > 1) {        /* two halves, no edge between them */
            int32_t h = V / 2;
            if ((s < h) != (t < h)) t = s < h ? (int32_t)(ref_rand() % (uint32_t)h) : h + (int32_t)(ref_rand() % (uint32_t)(V - h));
        }
        if (kind == G_ZERO) w = (int32_t)(ref_rand() % 2);
        if (kind == G_HEAVY) w = GK_APSP_MAX_WEIGHT - (int32_t)(ref_rand() % 400000000); /* sums pass INF */
        if (i == want - 1) t = s;              /* a self-loop */
        g.e[3 * g.E] = s; g.e[3 * g.E + 1] = t; g.e[3 * g.E + 2] = w;
        g.E++;
        if (i == want - 2 && g.E > 1) {        /* a duplicate of the previous edge, lighter */
            memcpy(g.e + 3 * g.E, g.e + 3 * (g.E - 1), 3 * sizeof *g.e);
            g.e[3 * g.E + 2] /= 2;
            g.E++;
        }
    }
    return g;
}

/* The initial matrix of a graph, built directly from the rules. */
static inline int32_t *ref_matrix(const ref_graph *g)
{
    int64_t n = g->V;
    int32_t *d = malloc((size_t)(n * n) * sizeof *d);
    for (int64_t i = 0; i < n * n; i++) d[i] = GK_APSP_INF;
    for (int64_t i = 0; i < n; i++) d[i * n + i] = 0;
    for (int64_t k = 0; k < g->E; k++) {
        int32_t s = g->e[3 * k], t = g->e[3 * k + 1], w = g->e[3 * k + 2];
        if (s != t && w < d[s * n + t]) d[s * n + t] = w;
    }
    return d;
}

/* Naive Floyd-Warshall, 64-bit, INF = no path, clamped to INF at the end. */
static inline void ref_fw(int32_t *d, int32_t V)
{
    int64_t n = V;
    int64_t *x = malloc((size_t)(n * n) * sizeof *x);
    const int64_t NOPATH = INT64_MAX / 4;
    for (int64_t i = 0; i < n * n; i++) x[i] = d[i] == GK_APSP_INF ? NOPATH : d[i];
    /* One team for every k (a barrier per k, not a fork and join), of at
     * most 8 threads and one per 16384 entries: under `make -j check` on a
     * loaded many-core machine, all its threads forked V times per graph
     * made this reference take minutes. */
    int team = (int)(n * n / 16384 + 1 < 8 ? n * n / 16384 + 1 : 8);
    (void)team;
#pragma omp parallel num_threads(team)
    for (int64_t k = 0; k < n; k++) {
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; i++) {
            int64_t a = x[i * n + k];
            if (a == NOPATH) continue;
            for (int64_t j = 0; j < n; j++)
                if (x[k * n + j] != NOPATH && a + x[k * n + j] < x[i * n + j])
                    x[i * n + j] = a + x[k * n + j];
        }
    }
    for (int64_t i = 0; i < n * n; i++) d[i] = x[i] >= GK_APSP_INF ? GK_APSP_INF : (int32_t)x[i];
    free(x);
}

/* Write g as an input file. */
static inline int ref_write_graph(const char *path, const ref_graph *g)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int32_t hdr[2] = { g->V, (int32_t)g->E };
    int ok = fwrite(hdr, sizeof hdr, 1, f) == 1 && (g->E == 0 || fwrite(g->e, 12, (size_t)g->E, f) == (size_t)g->E);
    return fclose(f) == 0 && ok ? 0 : -1;
}

#endif /* GK_TEST_APSP_REF_H */
