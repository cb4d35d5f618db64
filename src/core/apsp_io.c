/* apsp_io.c - the NTHU APSP format: reading and validating an input into the
 * initial distance matrix, writing the output atomically, random graphs (as
 * files for `gk gen apsp`, in memory for benchmarks) and matrix comparison. */
#include "core/internal.h"
#include "core/checked.h"
#include "core/io.h"
#include "core/rng.h"
#include "core/apsp_formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK_EDGES (1 << 20)   /* 12 MiB of edges per read and parallel pass */

/* The V x V matrix, INF off the diagonal, or GK_ENOMEM saying how much it
 * needs.  Refuses sizes above physical memory up front: with overcommit a
 * malloc of that size may "succeed" and the fill would then be killed. */
gk_status gk__apsp_alloc_matrix(const char *path, int32_t V, int32_t **out)
{
    uint64_t bytes;
    if (V < 1 || gk__mul_u64((uint64_t)V, (uint64_t)V, &bytes) || gk__mul_u64(bytes, sizeof(int32_t), &bytes))
        return gk__fail(GK_EINVAL, "%s: V = %d: no V x V int32 matrix of that size", path, V);
    double phys = (double)gk__phys_mem_bytes();
    char need[32], have[32];
    gk__human_bytes((double)bytes, need, sizeof need);
    if ((phys > 0 && (double)bytes > phys) || bytes > gk__max_object_bytes())
        return gk__fail(GK_ENOMEM, "%s: V = %d needs %s for the distance matrix (V x V int32), "
                        "more than this machine's %s of memory", path, V, need,
                        gk__human_bytes(phys, have, sizeof have));
    int32_t *d = malloc((size_t)bytes);
    if (!d)
        return gk__fail(GK_ENOMEM, "%s: V = %d needs %s for the distance matrix (V x V int32): "
                        "cannot allocate it", path, V, need);
    int64_t n = V;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        int32_t *row = d + i * n;
        for (int64_t j = 0; j < n; j++)
            row[j] = GK_APSP_INF;
        row[i] = 0;
    }
    *out = d;
    return GK_OK;
}

/* An NTHU input opened, its header read and checked (V >= 1, E >= 0, a
 * regular file of size 8 + 12E); on failure nothing is left open. */
static gk_status nthu_begin(gk_infile *in, const char *path, int32_t *Vout, int32_t *Eout)
{
    gk_status st;
    if ((st = gk__in_open(in, path)))
        return st;
    path = in->name;
    /* A regular file is checked against 8 + 12E up front; a stream (standard
     * input, a pipe) must end exactly after the E edges. */
    if (in->size >= 0 && in->size < 8) {
        st = gk__fail(GK_EFORMAT, "%s: file size %lld is not 8 + 12E (too short for the V, E header)",
                      path, (long long)in->size);
        goto fail;
    }
    int32_t hdr[2];
    if ((st = gk__read_exact(in->f, path, hdr, sizeof hdr, "the V, E header")))
        goto fail;
    int32_t V = hdr[0], E = hdr[1];
    if (in->size < 0) {
        /* a stream of unknown name is read as NTHU (it cannot be looked at
           ahead): a header of printable bytes is text (V and E would be
           at least 538 million), so say so instead of "file ends early" */
        const unsigned char *c = (const unsigned char *)hdr;
        int text = 1;
        for (int i = 0; i < 8; i++)
            text &= c[i] >= 0x20 && c[i] < 0x7f ? 1 : c[i] == '\n' || c[i] == '\r' || c[i] == '\t';
        if (text) {
            char first[9];
            for (int i = 0; i < 8; i++)
                first[i] = c[i] >= 0x20 && c[i] < 0x7f ? (char)c[i] : ' ';
            first[8] = '\0';
            st = gk__fail(GK_EFORMAT, "%s: looks like text (first bytes '%s'), not the NTHU binary format: a pipe "
                          "or device is read as NTHU unless its name ends in .gr, .mtx or .edges: give "
                          "--format=edges|gr|mtx", path, first);
            goto fail;
        }
    }
    if (V < 1) {
        st = gk__fail(GK_EFORMAT, "%s: V = %d: the vertex count must be at least 1", path, V);
        goto fail;
    }
    if (E < 0) {
        st = gk__fail(GK_EFORMAT, "%s: E = %d: the edge count must not be negative", path, E);
        goto fail;
    }
    if (in->size >= 0 && in->size != 8 + 12 * (int64_t)E) {
        st = gk__fail(GK_EFORMAT, "%s: file size %lld is not 8 + 12E = %lld for E = %d",
                      path, (long long)in->size, (long long)(8 + 12 * (int64_t)E), E);
        goto fail;
    }
    *Vout = V;
    *Eout = E;
    return GK_OK;
fail:
    gk__in_close(in);
    return st;
}

/* The first broken edge of a chunk of m (index e0 on), in the message a
 * sequential reader gives. */
static gk_status chunk_bad(const char *path, const int32_t *buf, int64_t e, int64_t e0, int32_t V)
{
    gk_status st = gk__nthu_edge_check(path, e0 + e, buf[3 * e], buf[3 * e + 1], buf[3 * e + 2], V);
    if (!st)
        st = gk__fail(GK_EINTERNAL, "%s: edge %lld: rejected without a reason", path, (long long)(e0 + e));
    return st;
}

/* A chunk of m edges (s, t, w) checked in parallel: *first_bad the index of
 * the first broken one (m: none), *cmax the largest weight (self-loops
 * included, as the readers report it), *camax the largest of an edge that
 * is not a self-loop (-1: none). */
static void chunk_check(const int32_t *buf, int64_t m, int32_t V, int64_t *first_bad, int32_t *cmax, int32_t *camax)
{
    int64_t bad = m;
    int32_t wmax = 0, amax = -1;
#pragma omp parallel for schedule(static) reduction(min : bad) reduction(max : wmax, amax)
    for (int64_t e = 0; e < m; e++) {
        int32_t s = buf[3 * e], t = buf[3 * e + 1], w = buf[3 * e + 2];
        if (s < 0 || s >= V || t < 0 || t >= V || w < 0 || w > GK_APSP_MAX_WEIGHT) {
            if (e < bad) bad = e;
            continue;
        }
        if (w > wmax) wmax = w;
        if (s != t && w > amax) amax = w;
    }
    *first_bad = bad;
    *cmax = wmax;
    *camax = amax;
}

/* m checked edges into the V x V matrix d with an atomic minimum
 * (duplicates keep the smallest weight whatever the order), both ways when
 * undirected; self-loops are ignored. */
static void scatter_min(int32_t *d, int64_t V, const int32_t *e, int64_t m, int undirected)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < m; i++) {
        int32_t s = e[3 * i], t = e[3 * i + 1], w = e[3 * i + 2];
        if (s == t) continue;
        for (int k = 0; k < 1 + undirected; k++) {
            int32_t *cell = d + (k ? (int64_t)t * V + s : (int64_t)s * V + t);
            int32_t cur = __atomic_load_n(cell, __ATOMIC_RELAXED);
            while (w < cur && !__atomic_compare_exchange_n(cell, &cur, w, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                ;
        }
    }
}

/* The E edges after the header, in chunks: each checked (the first broken
 * one is reported, as a sequential reader would) and scattered into d with
 * an atomic minimum (duplicates keep the smallest weight whatever the
 * order), then the end of the input. */
static gk_status nthu_to_matrix(gk_infile *in, int32_t V, int32_t E, int32_t *d, int32_t *max_w)
{
    const char *path = in->name;
    int32_t *buf = NULL, wmax = 0;
    gk_status st;
    if ((st = gk__xmalloc((void **)&buf, (size_t)CHUNK_EDGES * 12, "reading edges")))
        return st;
    for (int64_t e0 = 0; e0 < E; e0 += CHUNK_EDGES) {
        int64_t m = E - e0 < CHUNK_EDGES ? E - e0 : CHUNK_EDGES;
        if ((st = gk__read_exact(in->f, path, buf, (size_t)m * 12, "the edges")))
            goto out;
        int64_t first_bad;
        int32_t cmax, camax;
        chunk_check(buf, m, V, &first_bad, &cmax, &camax);
        if (first_bad < m) {
            st = chunk_bad(path, buf, first_bad, e0, V);
            goto out;
        }
        scatter_min(d, V, buf, m, 0);
        if (cmax > wmax) wmax = cmax;
    }
    char after[64];
    snprintf(after, sizeof after, "the E = %d edges", E);
    if ((st = gk__in_expect_end(in, after)))
        goto out;
    *max_w = wmax;
out:
    free(buf);
    return st;
}

gk_status gk__apsp_read(const char *path, int32_t **dist, int32_t *Vout, int64_t *Eout, int32_t *max_w)
{
    gk_infile in;
    gk_status st;
    int32_t V, E, wmax = 0, *d = NULL;
    *dist = NULL;
    if ((st = nthu_begin(&in, path, &V, &E)))
        return st;
    if ((st = gk__apsp_alloc_matrix(in.name, V, &d)) || (st = nthu_to_matrix(&in, V, E, d, &wmax)))
        goto out;
    *dist = d;
    d = NULL;
    *Vout = V;
    if (Eout) *Eout = E;
    if (max_w) *max_w = wmax;
out:
    free(d);
    gk__in_close(&in);
    return st;
}

/* ---- a graph kept as its edge list (gk__apsp_graph) ---- */

/* Edges are kept (and the matrix built later, on the device or the host)
 * unless they take more memory than the matrix and more than this. */
#define GRAPH_EDGES_MIN_BYTES ((int64_t)64 << 20)

/* The E edges after the header into edges (3E int32), checked chunk by
 * chunk as nthu_to_matrix checks them (the same first error), then the end
 * of the input; the largest weight (self-loops included, as the matrix
 * readers report it) and the largest of an edge that is not a self-loop. */
static gk_status nthu_to_edges(gk_infile *in, int32_t V, int32_t E, int32_t *edges, int32_t *max_w, int32_t *max_arc)
{
    const char *path = in->name;
    int32_t wmax = 0, amax = -1;
    gk_status st;
    for (int64_t e0 = 0; e0 < E; e0 += CHUNK_EDGES) {
        int64_t m = E - e0 < CHUNK_EDGES ? E - e0 : CHUNK_EDGES;
        int32_t *buf = edges + 3 * e0;
        if ((st = gk__read_exact(in->f, path, buf, (size_t)m * 12, "the edges")))
            return st;
        int64_t first_bad;
        int32_t cmax, camax;
        chunk_check(buf, m, V, &first_bad, &cmax, &camax);
        if (first_bad < m)
            return chunk_bad(path, buf, first_bad, e0, V);
        if (cmax > wmax) wmax = cmax;
        if (camax > amax) amax = camax;
    }
    char after[64];
    snprintf(after, sizeof after, "the E = %d edges", E);
    if ((st = gk__in_expect_end(in, after)))
        return st;
    *max_w = wmax;
    *max_arc = amax;
    return GK_OK;
}

gk_status gk__apsp_graph_read(const char *path, gk_format format, int undirected, int32_t vertices,
                             gk__apsp_graph **out)
{
    return gk__apsp_graph_read_flags(path, format, undirected ? GK__READ_UNDIRECTED : 0, vertices, out);
}

gk_status gk__apsp_graph_read_flags(const char *path, gk_format format, int flags, int32_t vertices,
                                   gk__apsp_graph **out)
{
    int undirected = (flags & GK__READ_UNDIRECTED) != 0;
    gk_status st;
    if (!out)
        return gk__fail(GK_EINVAL, "gk__apsp_graph_read: nowhere to put the graph");
    *out = NULL;
    if (!path)
        return gk__fail(GK_EINVAL, "gk__apsp_graph_read: no input path");
    if (format == GK_FORMAT_AUTO && (st = gk_format_detect(path, &format)))
        return st;
    if (format == GK_FORMAT_NTHU && (flags & GK__READ_ONE_BASED))
        return gk__fail(GK_EINVAL, "%s: --one-based applies to edge lists; a nthu file has its own numbering "
                        "(0-based)", path);
    gk__apsp_graph *g = calloc(1, sizeof *g);
    if (!g)
        return gk__fail(GK_ENOMEM, "cannot allocate a graph");
    g->undirected = undirected;
    g->max_arc = -1;
    g->format = format;
    g->min_id = INT32_MAX;
    if (format != GK_FORMAT_NTHU || vertices || (flags & GK__READ_ONE_BASED)) {
        /* the other formats (and their errors): the matrix, as before */
        if (format == GK_FORMAT_NTHU)
            st = gk__apsp_read_format32(path, format, undirected, vertices, &g->dist, &g->V, &g->E, &g->max_w);
        else
            st = gk__text_read_matrix(path, format, flags, vertices, &g->dist, &g->V, &g->E, &g->max_w, &g->min_id);

        snprintf(g->name, sizeof g->name, "%s", strcmp(path, "-") ? path : "standard input");
        if (st) {
            gk__apsp_graph_free(g);
            return st;
        }
        *out = g;
        return GK_OK;
    }
    gk_infile in;
    int32_t V, E;
    if ((st = nthu_begin(&in, path, &V, &E))) {
        free(g);
        return st;
    }
    snprintf(g->name, sizeof g->name, "%s", in.name);
    g->V = V;
    g->E = E;
    int64_t ebytes = 12 * (int64_t)E;
    if (ebytes <= GRAPH_EDGES_MIN_BYTES || 3 * (int64_t)E <= (int64_t)V * V) {
        if (!(st = gk__xmalloc((void **)&g->edges, ebytes > 0 ? (size_t)ebytes : 12, "the edge list")))
            st = nthu_to_edges(&in, V, E, g->edges, &g->max_w, &g->max_arc);
    } else {
        /* more edges than matrix entries: the matrix, as gk__apsp_read makes it */
        if (!(st = gk__apsp_alloc_matrix(in.name, V, &g->dist)) && !(st = nthu_to_matrix(&in, V, E, g->dist, &g->max_w))
            && undirected)
            gk__apsp_symmetrize(g->dist, V);
    }
    gk__in_close(&in);
    if (st) {
        gk__apsp_graph_free(g);
        return st;
    }
    *out = g;
    return GK_OK;
}

void gk__apsp_graph_info(const gk__apsp_graph *g, int32_t *V, int64_t *E, int32_t *max_w)
{
    if (V) *V = g ? g->V : 0;
    if (E) *E = g ? g->E : 0;
    if (max_w) *max_w = g ? g->max_w : 0;
}

void gk__apsp_graph_free(gk__apsp_graph *g)
{
    if (!g) return;
    free(g->edges);
    free(g->dist);
    free(g);
}

gk_status gk__apsp_graph_matrix(gk__apsp_graph *g, int32_t **dist)
{
    gk_status st;
    *dist = NULL;
    if (g->dist) {      /* read as a matrix: handed over */
        *dist = g->dist;
        g->dist = NULL;
        return GK_OK;
    }
    if (!g->edges)
        return gk__fail(GK_EINVAL, "%s: the graph was already solved (its matrix is gone)", g->name);
    int32_t *d;
    if ((st = gk__apsp_alloc_matrix(g->name, g->V, &d)))
        return st;
    scatter_min(d, g->V, g->edges, g->E, g->undirected);
    *dist = d;
    return GK_OK;
}

gk_status gk__nthu_edge_check(const char *path, int64_t index, int32_t s, int32_t t, int32_t w, int32_t V)
{
    const char *bad = NULL;
    int32_t val = 0;
    if (s < 0 || s >= V) bad = "src", val = s;
    else if (t < 0 || t >= V) bad = "dst", val = t;
    if (bad)
        return gk__fail(GK_EFORMAT, "%s: edge %lld (%d, %d, %d): %s %d is outside [0, %d)",
                        path, (long long)index, s, t, w, bad, val, V);
    if (w < 0 || w > GK_APSP_MAX_WEIGHT)
        return gk__fail(GK_EFORMAT, "%s: edge %lld (%d, %d, %d): weight %d is outside [0, %d]",
                        path, (long long)index, s, t, w, w, GK_APSP_MAX_WEIGHT);
    return GK_OK;
}

gk_status gk__apsp_matrix_bytes(const char *path, int32_t V, uint64_t *bytes)
{
    *bytes = 0;
    if (V < 1)
        return gk__fail(GK_EINVAL, "%s: V = %d: nothing to write", path, V);
    if (gk__mul_u64((uint64_t)V, (uint64_t)V, bytes) || gk__mul_u64(*bytes, sizeof(int32_t), bytes) ||
        *bytes > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "%s: V = %d: no V x V int32 matrix of that size", path, V);
    return GK_OK;
}

gk_status gk__apsp_write(const char *path, const int32_t *dist, int32_t V)
{
    uint64_t bytes = 0;
    gk_status st0 = gk__apsp_matrix_bytes(path, V, &bytes);
    if (st0) return st0;
    gk_outfile o;
    gk_status st = gk__out_open(&o, path);
    if (st) return st;
    st = gk__out_write(&o, dist, (size_t)bytes);
    return gk__out_close(&o, st);
}

gk_status gk__apsp_generate_check(int32_t V, int64_t E, int32_t max_w)
{
    if (V < 1)
        return gk__fail(GK_EINVAL, "--vertices=%d: must be at least 1", V);
    if (E < 0 || E > INT32_MAX)
        return gk__fail(GK_EINVAL, "--edges=%lld: must be in [0, %d]", (long long)E, INT32_MAX);
    if (max_w < 0 || max_w > GK_APSP_MAX_WEIGHT)
        return gk__fail(GK_EINVAL, "--max-weight=%d: must be in [0, %d]", max_w, GK_APSP_MAX_WEIGHT);
    return GK_OK;
}

void gk__random_edge(uint64_t seed, int64_t e, int32_t V, int32_t max_w, int32_t *s, int32_t *t, int32_t *w)
{
    uint64_t id = 3 * (uint64_t)e;
    uint32_t a = (uint32_t)gk__rand_below(seed, id, (uint64_t)V), b = a;
    if (V > 1)
        b = (uint32_t)((a + 1 + gk__rand_below(seed, id + 1, (uint64_t)V - 1)) % (uint64_t)V);
    *s = (int32_t)a;
    *t = (int32_t)b;
    *w = (int32_t)gk__rand_below(seed, id + 2, (uint64_t)max_w + 1);
}

gk_status gk__apsp_generate_nthu(const char *path, int32_t V, int64_t E, uint64_t seed, int32_t max_w)
{
    gk_outfile o;
    gk_status st;
    if ((st = gk__apsp_generate_check(V, E, max_w)))
        return st;
    int32_t *buf = NULL;
    if ((st = gk__xmalloc((void **)&buf, (size_t)(1 << 20) * 12, "generating edges")))
        return st;
    if ((st = gk__out_open(&o, path))) {
        free(buf);
        return st;
    }
    int32_t hdr[2] = { V, (int32_t)E };
    st = gk__out_write(&o, hdr, sizeof hdr);
    for (int64_t e0 = 0; st == GK_OK && e0 < E; e0 += 1 << 20) {
        int64_t m = E - e0 < (1 << 20) ? E - e0 : (1 << 20);
#pragma omp parallel for schedule(static)
        for (int64_t e = 0; e < m; e++)
            gk__random_edge(seed, e0 + e, V, max_w, &buf[3 * e], &buf[3 * e + 1], &buf[3 * e + 2]);
        st = gk__out_write(&o, buf, (size_t)m * 12);
    }
    free(buf);
    return gk__out_close(&o, st);
}

gk_status gk_apsp_random_matrix(int32_t *dist, int64_t V, double density, uint64_t seed, int32_t max_w)
{
    if (!dist || V < 1 || V > INT32_MAX || !(density >= 0 && density <= 1) || max_w < 0 || max_w > GK_APSP_MAX_WEIGHT)
        return gk__fail(GK_EINVAL, "random matrix: bad %s, V %lld, density %g or max weight %d", dist ? "size" : "pointer",
                        (long long)V, density, max_w);
    int64_t n = V;
    uint64_t cut = (uint64_t)(density * 4294967296.0);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            uint64_t u = gk__rand64(seed, (uint64_t)(i * n + j));
            int32_t w = (int32_t)(((u >> 32) * ((uint64_t)max_w + 1)) >> 32);
            dist[i * n + j] = i == j ? 0 : (u & 0xffffffffu) < cut ? w : GK_APSP_INF;
        }
    return GK_OK;
}

gk_status gk_apsp_compare(const int32_t *got, const int32_t *want, int64_t V, const char *what)
{
    if (!got || !want || V < 1 || V > INT32_MAX)
        return gk__fail(GK_EINVAL, "gk_apsp_compare: %s", !got ? "got is NULL" : !want ? "want is NULL" : "V out of range");
    if (!what) what = "gk_apsp_compare";
    int64_t n = V * V, bad = 0, first = -1;
#pragma omp parallel for reduction(+ : bad) schedule(static)
    for (int64_t i = 0; i < n; i++)
        bad += got[i] != want[i];
    if (!bad)
        return GK_OK;
    for (int64_t i = 0; i < n && first < 0; i++)
        if (got[i] != want[i]) first = i;
    return gk__fail(GK_EMISMATCH, "%s: %lld of %lld entries differ; first at (%lld, %lld): %d, expected %d",
                    what, (long long)bad, (long long)n, (long long)(first / V), (long long)(first % V),
                    got[first], want[first]);
}
