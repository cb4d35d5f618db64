/* sssp_model.c - auto's cost model.  Each algorithm's work, in the units
 * the rates are measured in:
 *   Dijkstra        S (E c_edge + V c_vertex) over the threads (CPU), or
 *                   max(S_g / searches, 1) E c_gpu on each GPU (S_g its
 *                   sources): one search per block, as many at once as the
 *                   GPU holds (sssp.cu), so a few sources cost as much as
 *                   a GPU-full;
 *   Bellman-Ford    S E R c_bf, R the rounds: a graph's hop diameter,
 *                   which a degree-uniform sparse graph (a grid, a road
 *                   network) has near sqrt(V) and a skewed one (power law,
 *                   random) near log2 V; negative weights only;
 *   Johnson         one Bellman-Ford from the virtual vertex (V sources at
 *                   once: E R c_bf) plus Dijkstra; with non-negative
 *                   weights it is Dijkstra;
 *   Floyd-Warshall  V^3 min-plus at the measured rate, when V x V fits.
 * Dijkstra is impossible with a negative weight.  The defaults are gk's
 * measurements (bench/sssp-results.md); gktune --kernels=sssp measures this
 * machine's and the model reads them from the cache. */
#include "api/sssp_model.h"
#include "core/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gk__sssp_rates_default(gk__sssp_rates *r)
{
    memset(r, 0, sizeof *r);
    /* one core of the 2-core CPU machine: a 1000 x 1000 road grid (E = 4.04 M)
       takes 0.119 s per source in int32 */
    r->cpu_edge_ns = 20;
    r->cpu_vertex_ns = 40;
    r->bf_edge_ns = 4;
    /* H200: 1000 sources of that grid in 0.73 s with every search at once
       (tests/bench_sssp_gpu, sssp.cu's DESIGN note): 180 ns per edge per search */
    r->gpu_edge_ns = 180;
    r->gpu_searches = 1188;
    /* Floyd-Warshall: the 2-core machine (bench/apsp-cpu-types.sh) and the
       H200 (DESIGN.md) */
    r->fw_cpu_rate[GK_DTYPE_INT32] = 40e9;
    r->fw_cpu_rate[GK_DTYPE_INT64] = 15e9;
    r->fw_cpu_rate[GK_DTYPE_FLOAT32] = 40e9;
    r->fw_cpu_rate[GK_DTYPE_FLOAT64] = 28e9;
    r->fw_gpu_rate[GK_DTYPE_INT32] = 15e12;
    r->fw_gpu_rate[GK_DTYPE_INT64] = 2e12;
    r->fw_gpu_rate[GK_DTYPE_FLOAT32] = 12e12;
    r->fw_gpu_rate[GK_DTYPE_FLOAT64] = 4e12;
    snprintf(r->from, sizeof r->from, "built-in defaults");
}

/* The names of the file's lines, in the struct's order. */
static const char *const names[] = { "cpu_edge_ns", "cpu_vertex_ns", "bf_edge_ns", "gpu_edge_ns", "gpu_searches" };

static double *field(gk__sssp_rates *r, int i)
{
    double *f[] = { &r->cpu_edge_ns, &r->cpu_vertex_ns, &r->bf_edge_ns, &r->gpu_edge_ns, &r->gpu_searches };
    return f[i];
}

static void rates_path(char *p, size_t n, const char *dir, const char *key)
{
    snprintf(p, n, "%s/sssp-rates-%s.txt", dir, key);
    for (char *c = p + strlen(dir) + 1; *c; c++)
        if (*c == '/' || *c == ' ') *c = '_';
}

void gk__sssp_rates_load(const char *dir, const char *key, gk__sssp_rates *r)
{
    gk__sssp_rates_default(r);
    if (!dir || !*dir || !key) return;
    char path[4352];
    rates_path(path, sizeof path, dir, key);
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[256];
    int got = 0;
    gk__sssp_rates t = *r;
    while (fgets(line, sizeof line, f)) {
        char name[64];
        double v;
        if (sscanf(line, "%63s %lf", name, &v) != 2 || !(v > 0) || !isfinite(v)) continue;
        for (int i = 0; i < 5; i++)
            if (!strcmp(name, names[i])) { *field(&t, i) = v; got++; }
    }
    fclose(f);
    if (got) {
        *r = t;
        snprintf(r->from, sizeof r->from, "%s", path);
    }
}

gk_status gk__sssp_rates_save(const char *dir, const char *key, const gk__sssp_rates *r)
{
    char path[4352], text[1024];
    size_t n = 0;
    rates_path(path, sizeof path, dir, key);
    n += (size_t)snprintf(text + n, sizeof text - n, "# gk: the sssp cost model's rates of this machine (gktune)\n");
    for (int i = 0; i < 5; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s %.6g\n", names[i], *field((gk__sssp_rates *)r, i));
    return gk__write_file_atomic(path, text, n);
}

gk_sssp_algorithm gk__sssp_model(const gk__sssp_case *c, const gk__sssp_rates *r, double pred[5], char *why,
                                 size_t n)
{
    const double V = (double)c->V, E = (double)c->E, S = (double)c->S;
    const double workers = c->workers > 0 ? c->workers : 1;
    const double avg = E / V;
    /* hop diameter: uniform low degree (grids, roads) ~ sqrt(V), else ~ log2 V */
    const double R = fmax(2, c->degree_cv < 0.5 && avg < 8 ? sqrt(V) : log2(V + 1) + 2);
    double dij, bf, pot;
    if (c->gpu) {
        const double per_gpu = ceil(S / workers);
        dij = fmax(per_gpu / r->gpu_searches, 1) * E * r->gpu_edge_ns * 1e-9;
        bf = dij * fmin(R, 8);
        pot = E * R * r->bf_edge_ns * 1e-9;    /* the potential runs on the CPU */
    } else {
        /* sources over the threads: fewer sources than threads leave some idle */
        const double busy = fmin(workers, fmax(S, 1));
        dij = S * (E * r->cpu_edge_ns + V * r->cpu_vertex_ns) * 1e-9 / busy;
        bf = S * E * R * r->bf_edge_ns * 1e-9 / busy;
        pot = E * R * r->bf_edge_ns * 1e-9;
    }
    const double *fw_rate = c->gpu ? r->fw_gpu_rate : r->fw_cpu_rate;
    const double rate = c->dtype >= 1 && c->dtype <= 4 ? fw_rate[c->dtype] : 0;
    pred[GK_SSSP_AUTO] = -1;
    pred[GK_SSSP_FW] = c->fw_fits && rate > 0 ? V * V * V / rate : -1;
    pred[GK_SSSP_DIJKSTRA] = c->negative ? -1 : dij;
    pred[GK_SSSP_JOHNSON] = c->negative ? pot + dij : dij;
    pred[GK_SSSP_BELLMAN_FORD] = bf;
    gk_sssp_algorithm best = GK_SSSP_DIJKSTRA;
    double bt = INFINITY;
    /* ties: the order below (Dijkstra, Johnson, Floyd-Warshall, Bellman-Ford) */
    const gk_sssp_algorithm order[] = { GK_SSSP_DIJKSTRA, GK_SSSP_JOHNSON, GK_SSSP_FW, GK_SSSP_BELLMAN_FORD };
    for (int i = 0; i < 4; i++)
        if (pred[order[i]] >= 0 && pred[order[i]] < bt) {
            bt = pred[order[i]];
            best = order[i];
        }
    if (why) {
        char fw[64];
        if (pred[GK_SSSP_FW] >= 0) snprintf(fw, sizeof fw, "%.3g s", pred[GK_SSSP_FW]);
        else snprintf(fw, sizeof fw, "%s", c->fw_fits ? "n/a" : "V x V does not fit");
        char d[32];
        if (pred[GK_SSSP_DIJKSTRA] >= 0) snprintf(d, sizeof d, "%.3g s", pred[GK_SSSP_DIJKSTRA]);
        else snprintf(d, sizeof d, "negative weights");
        snprintf(why, n, "auto: %s predicted fastest (V=%lld, E=%lld, S=%lld, degree cv %.2f, %s, %s %d): "
                 "fw %s, dijkstra %s, johnson %.3g s, bellman-ford %.3g s; rates: %s",
                 gk_sssp_algorithm_name(best), (long long)c->V, (long long)c->E, (long long)c->S, c->degree_cv,
                 gk_dtype_name(c->dtype), c->gpu ? "GPUs" : "threads", c->workers, fw, d, pred[GK_SSSP_JOHNSON],
                 pred[GK_SSSP_BELLMAN_FORD], r->from);
    }
    return best;
}
