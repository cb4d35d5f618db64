/* sssp_model.c - auto's cost model.  Each algorithm's work, in the units
 * the rates are measured in:
 *   Dijkstra        S (E c_edge + V c_vertex) over the threads (CPU), or
 *                   max(S_g / searches, 1) E c_gpu on each GPU (S_g its
 *                   sources): one search per block, as many at once as the
 *                   GPU holds (sssp.cu), so a few sources cost as much as
 *                   a GPU-full.  c_edge is small (a relaxation that fails
 *                   is a load and a compare: a dense graph's), c_vertex
 *                   large (the heap, the successful relaxations of a
 *                   sparse graph: about 4 per vertex);
 *   Bellman-Ford    S R (E b_edge + V b_vertex), R the rounds of its FIFO
 *                   queue (gk__sssp_rounds: ~2 on random and skewed graphs,
 *                   ~0.5 log2 V - 1.5 on grids and roads; measured).  The
 *                   old R = sqrt(V) for grids over-counted the queue's work
 *                   by 10x and more, and a per-edge-only cost made BF look
 *                   cheaper than Dijkstra on sparse graphs once calibrated;
 *   Johnson         one Bellman-Ford from the virtual vertex plus Dijkstra;
 *                   with non-negative weights it is Dijkstra;
 *   Floyd-Warshall  V^3 min-plus at the measured rate of all threads (CPU)
 *                   or one GPU, when V x V fits: int32 with non-negative
 *                   weights below 32767 runs the exact 16-bit path (about
 *                   1.7x int32's rate), and when its distances may reach
 *                   the cap (max |w| hop-diameter / 4 >= 32767) the int32
 *                   run after it too; plus the matrix made from the CSR.
 * Dijkstra is impossible with a negative weight.  The defaults are gk's
 * measurements on the 2-core CPU machine (one thread; gk bench apsp
 * --algorithms, bench/sssp-results.md) and the H200 (sssp.cu's note);
 * gktune --calibrate=sssp measures this machine's and the model reads them
 * from the cache. */
#include "api/sssp_model.h"
#include "core/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gk__sssp_rates_default(gk__sssp_rates *r)
{
    memset(r, 0, sizeof *r);
    /* one core of the 2-core CPU machine (gktune --calibrate=sssp there:
       Dijkstra on a 300 x 300 road grid and a dense 1200-vertex graph gave
       ~1 ns per edge and ~60 per vertex; larger graphs miss the caches more:
       a 1000 x 1000 grid takes 0.119 s per source, 113 ns per vertex) */
    r->cpu_edge_ns = 2;
    r->cpu_vertex_ns = 70;
    /* Bellman-Ford (the FIFO queue), per edge and vertex per round: 1.1 ns an
       edge on the dense graph, 14-40 a vertex on sparse ones (road, random;
       V = 4K..64K): about 1.2x Dijkstra's time on random graphs */
    r->bf_edge_ns = 1.2;
    r->bf_vertex_ns = 40;
    /* H200, gktune --calibrate=sssp (one search of a 100 x 100 road grid,
       then 8192 of them; bench/sssp-results.md): 26.2 ns per edge of one
       search, 173 searches at once.  The product is the throughput of
       tests/bench_sssp_gpu's 1000 sources of the 10^6 grid (0.73 s); the
       split is what one search costs alone (the S = 1 rows of
       gk bench apsp --algorithms: 1-2 ms, of which ~1 ms is the call's) */
    r->gpu_edge_ns = 26.2;
    r->gpu_searches = 173;
    /* Floyd-Warshall per CPU thread: the 2-core machine through gk_sssp_run
       (V = 1024, 2048: int32 68 G/s with negative weights, the 16-bit path
       96-124 G/s, both threads; the other types from bench/apsp-cpu-types.sh)
       and the H200 (DESIGN.md; the 16-bit path: the 27 T/s) */
    r->fw_cpu_rate[GK_DTYPE_INT32] = 34e9;
    r->fw_cpu_rate[GK_DTYPE_INT64] = 7.5e9;
    r->fw_cpu_rate[GK_DTYPE_FLOAT32] = 20e9;
    r->fw_cpu_rate[GK_DTYPE_FLOAT64] = 14e9;
    r->fw16_cpu_rate = 57e9;
    r->fw16_gpu_rate = 27e12;
    r->fw_gpu_rate[GK_DTYPE_INT32] = 15e12;
    r->fw_gpu_rate[GK_DTYPE_INT64] = 2e12;
    r->fw_gpu_rate[GK_DTYPE_FLOAT32] = 12e12;
    r->fw_gpu_rate[GK_DTYPE_FLOAT64] = 4e12;
    snprintf(r->from, sizeof r->from, "built-in defaults");
}

/* The names of the file's lines, in the struct's order. */
enum { NRATES = 10 };
static const char *const names[NRATES] = { "cpu_edge_ns", "cpu_vertex_ns", "bf_edge_ns", "bf_vertex_ns",
                                           "gpu_edge_ns", "gpu_searches", "fw_int32_rate", "fw16_rate",
                                           "fw_gpu_int32_rate", "fw16_gpu_rate" };

static double *field(gk__sssp_rates *r, int i)
{
    double *f[NRATES] = { &r->cpu_edge_ns, &r->cpu_vertex_ns, &r->bf_edge_ns, &r->bf_vertex_ns, &r->gpu_edge_ns,
                          &r->gpu_searches, &r->fw_cpu_rate[GK_DTYPE_INT32], &r->fw16_cpu_rate,
                          &r->fw_gpu_rate[GK_DTYPE_INT32], &r->fw16_gpu_rate };
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
        for (int i = 0; i < NRATES; i++)
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
    for (int i = 0; i < NRATES; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s %.6g\n", names[i], *field((gk__sssp_rates *)r, i));
    return gk__write_file_atomic(path, text, n);
}

double gk__sssp_rounds(int64_t V, int64_t E, double degree_cv)
{
    const double avg = V > 0 ? (double)E / (double)V : 0;
    return degree_cv < 0.3 && avg < 8 ? fmax(2, 0.5 * log2((double)V + 1) - 1.5) : 2;
}

gk_sssp_algorithm gk__sssp_model(const gk__sssp_case *c, const gk__sssp_rates *r, double pred[5], char *why,
                                 size_t n)
{
    const double V = (double)c->V, E = (double)c->E, S = (double)c->S;
    const double workers = c->workers > 0 ? c->workers : 1;
    const double R = gk__sssp_rounds(c->V, c->E, c->degree_cv);
    const double bf_one = R * (E * r->bf_edge_ns + V * r->bf_vertex_ns) * 1e-9;    /* one source, one thread */
    double dij, bf, pot = bf_one;    /* the potential runs on the CPU */
    if (c->gpu) {
        const double per_gpu = ceil(S / workers);
        /* + 1 ms a call: the graph goes up, the workspace is allocated
           (the S = 1 rows on the H200: 1.2-2.6 ms for 16-29 K edges) */
        dij = fmax(per_gpu / r->gpu_searches, 1) * E * r->gpu_edge_ns * 1e-9 + 1e-3;
        bf = dij * R;
    } else {
        /* sources over the threads: fewer sources than threads leave some idle */
        const double busy = fmin(workers, fmax(S, 1));
        dij = S * (E * r->cpu_edge_ns + V * r->cpu_vertex_ns) * 1e-9 / busy;
        bf = S * bf_one / busy;
    }
    /* Floyd-Warshall: all threads (CPU) or one GPU; int32's 16-bit path */
    double rate = 0;
    if (c->dtype >= 1 && c->dtype <= 4) rate = (c->gpu ? r->fw_gpu_rate : r->fw_cpu_rate)[c->dtype];
    if (!c->gpu) rate *= workers;
    double fw = rate > 0 ? V * V * V / rate : -1;
    const double r16 = (c->gpu ? r->fw16_gpu_rate : r->fw16_cpu_rate * workers);
    if (fw > 0 && c->dtype == GK_DTYPE_INT32 && !c->negative && c->max_abs_w > 0 && c->max_abs_w < 32767 && r16 > 0) {
        const double hops = c->degree_cv < 0.3 && E / V < 8 ? 2 * sqrt(V) : log2(V + 1) + 2;
        const double f16 = V * V * V / r16;
        fw = c->max_abs_w * hops / 4 < 32767 ? f16 : f16 + fw;
    }
    /* and the V x V matrix made from the CSR and the run's set-up: ~1 ns an
       entry and 20 us (a 100-vertex graph's one source is Bellman-Ford's) */
    if (fw > 0) fw += 20e-6 + V * V * 1e-9;
    /* a GPU call of it also makes its plan, device matrix and copies: 40 ms
       on the H200 for V = 1000 (bench/sssp-results.md, the dense rows of
       gk bench apsp --algorithms --device=gpu), which the searches beat */
    if (fw > 0 && c->gpu) fw += 0.04;
    /* Near a tie, the searches: FW's V rounds each end at a barrier of all
       the threads, so when the cores are shared (other processes) it loses
       far more than independent searches do (the 2-core machine at load 5:
       FW 4-5x its idle time, Dijkstra 2x); 1.3x of the idle prediction
       sends the S = V sparse rows, idle near-ties, to Dijkstra */
    if (fw > 0 && !c->gpu && workers > 1) fw *= 1.3;
    pred[GK_SSSP_AUTO] = -1;
    pred[GK_SSSP_FW] = c->fw_fits ? fw : -1;
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
        char fws[64];
        if (pred[GK_SSSP_FW] >= 0) snprintf(fws, sizeof fws, "%.3g s", pred[GK_SSSP_FW]);
        else snprintf(fws, sizeof fws, "%s", c->fw_fits ? "n/a" : "V x V does not fit");
        char d[32];
        if (pred[GK_SSSP_DIJKSTRA] >= 0) snprintf(d, sizeof d, "%.3g s", pred[GK_SSSP_DIJKSTRA]);
        else snprintf(d, sizeof d, "negative weights");
        snprintf(why, n, "auto: %s predicted fastest (V=%lld, E=%lld, S=%lld, degree cv %.2f, %s, %s %d): "
                 "fw %s, dijkstra %s, johnson %.3g s, bellman-ford %.3g s; rates: %s",
                 gk_sssp_algorithm_name(best), (long long)c->V, (long long)c->E, (long long)c->S, c->degree_cv,
                 gk_dtype_name(c->dtype), c->gpu ? "GPUs" : "threads", c->workers, fws, d, pred[GK_SSSP_JOHNSON],
                 pred[GK_SSSP_BELLMAN_FORD], r->from);
    }
    return best;
}
