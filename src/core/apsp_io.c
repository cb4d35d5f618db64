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

gk_status gk_apsp_read(const char *path, int32_t **dist, int32_t *Vout, int64_t *Eout, int32_t *max_w)
{
    gk_infile in;
    gk_status st;
    *dist = NULL;
    if ((st = gk__in_open(&in, path)))
        return st;
    path = in.name;
    /* A regular file is checked against 8 + 12E up front; a stream (standard
     * input, a pipe) must end exactly after the E edges. */
    if (in.size >= 0 && in.size < 8) {
        gk__in_close(&in);
        return gk__fail(GK_EFORMAT, "%s: file size %lld is not 8 + 12E (too short for the V, E header)",
                        path, (long long)in.size);
    }
    FILE *f = in.f;
    int32_t hdr[2];
    int32_t *d = NULL, *buf = NULL;
    int32_t wmax = 0;
    if ((st = gk__read_exact(f, path, hdr, sizeof hdr, "the V, E header")))
        goto out;
    int32_t V = hdr[0], E = hdr[1];
    if (V < 1) {
        st = gk__fail(GK_EFORMAT, "%s: V = %d: the vertex count must be at least 1", path, V);
        goto out;
    }
    if (E < 0) {
        st = gk__fail(GK_EFORMAT, "%s: E = %d: the edge count must not be negative", path, E);
        goto out;
    }
    if (in.size >= 0 && in.size != 8 + 12 * (int64_t)E) {
        st = gk__fail(GK_EFORMAT, "%s: file size %lld is not 8 + 12E = %lld for E = %d",
                      path, (long long)in.size, (long long)(8 + 12 * (int64_t)E), E);
        goto out;
    }
    if ((st = gk__apsp_alloc_matrix(path, V, &d)))
        goto out;
    if ((st = gk__xmalloc((void **)&buf, (size_t)CHUNK_EDGES * 12, "reading edges")))
        goto out;
    for (int64_t e0 = 0; e0 < E; e0 += CHUNK_EDGES) {
        int64_t m = E - e0 < CHUNK_EDGES ? E - e0 : CHUNK_EDGES;
        if ((st = gk__read_exact(f, path, buf, (size_t)m * 12, "the edges")))
            goto out;
        /* In parallel: the chunk's edges checked (the first broken one is
         * reported, as a sequential reader would) and scattered with an
         * atomic minimum (duplicates keep the smallest weight whatever the
         * order). */
        int64_t first_bad = m;
        int32_t cmax = 0;
#pragma omp parallel for schedule(static) reduction(min : first_bad) reduction(max : cmax)
        for (int64_t e = 0; e < m; e++) {
            int32_t s = buf[3 * e], t = buf[3 * e + 1], w = buf[3 * e + 2];
            if (s < 0 || s >= V || t < 0 || t >= V || w < 0 || w > GK_APSP_MAX_WEIGHT) {
                if (e < first_bad) first_bad = e;
                continue;
            }
            if (w > cmax) cmax = w;
            if (s == t) continue;                /* self-loops are ignored */
            int32_t *cell = d + (int64_t)s * V + t;
            int32_t cur = __atomic_load_n(cell, __ATOMIC_RELAXED);
            while (w < cur && !__atomic_compare_exchange_n(cell, &cur, w, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                ;
        }
        if (first_bad < m) {
            int64_t e = first_bad;
            st = gk__nthu_edge_check(path, e0 + e, buf[3 * e], buf[3 * e + 1], buf[3 * e + 2], V);
            if (!st)
                st = gk__fail(GK_EINTERNAL, "%s: edge %lld: rejected without a reason", path, (long long)(e0 + e));
            goto out;
        }
        if (cmax > wmax) wmax = cmax;
    }
    char after[64];
    snprintf(after, sizeof after, "the E = %d edges", E);
    if ((st = gk__in_expect_end(&in, after)))
        goto out;
    *dist = d;
    d = NULL;
    *Vout = V;
    if (Eout) *Eout = E;
    if (max_w) *max_w = wmax;
out:
    free(buf);
    free(d);
    gk__in_close(&in);
    return st;
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

gk_status gk_apsp_write(const char *path, const int32_t *dist, int32_t V)
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

gk_status gk_apsp_generate(const char *path, int32_t V, int64_t E, uint64_t seed, int32_t max_w)
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

gk_status gk_apsp_random_matrix(int32_t *dist, int32_t V, double density, uint64_t seed, int32_t max_w)
{
    if (V < 1 || !(density >= 0 && density <= 1) || max_w < 0 || max_w > GK_APSP_MAX_WEIGHT)
        return gk__fail(GK_EINVAL, "random matrix: bad V %d, density %g or max weight %d", V, density, max_w);
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

gk_status gk_apsp_compare(const int32_t *got, const int32_t *want, int32_t V, const char *what)
{
    int64_t n = (int64_t)V * V, bad = 0, first = -1;
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
