/* test_sssp_model.c - auto's cost model (src/api/sssp_model.c) on
 * synthetic cases whose right answer is clear from the algorithms' work
 * (V^3 against S E), and the rates file: save, load, bad lines ignored. */
#include "gk.h"
#include "tap.h"
#include "api/sssp_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static gk_sssp_algorithm pick(gk__sssp_case c, const gk__sssp_rates *r, double pred[5])
{
    char why[512];
    gk_sssp_algorithm a = gk__sssp_model(&c, r, pred, why, sizeof why);
    diag("%s", why);
    return a;
}

static double best_of(const double p[5])
{
    double b = INFINITY;
    for (int i = 1; i < 5; i++)
        if (p[i] >= 0 && p[i] < b) b = p[i];
    return b;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) { fputs(text, f); fclose(f); }
}

int main(void)
{
    no_plan();
    gk__sssp_rates r;
    gk__sssp_rates_default(&r);
    double p[5], q[5];
    /* V, E, S, degree_cv, negative, dtype, gpu, workers, fw_fits */
    const gk__sssp_case dense = { 500, 125000, 500, 0.05, 0, GK_DTYPE_INT32, 0, 2, 1 };
    const gk__sssp_case road = { 1000000, 4000000, 10, 0.1, 0, GK_DTYPE_INT32, 0, 2, 1 };
    const gk__sssp_case neg_many = { 10000, 40000, 1000, 0.5, 1, GK_DTYPE_INT32, 0, 2, 1 };
    const gk__sssp_case neg_one = { 10000, 40000, 1, 0.5, 1, GK_DTYPE_INT32, 0, 2, 1 };

    is_int(pick(dense, &r, p), GK_SSSP_FW, "dense graph, all sources: fw");
    is_int(pick(road, &r, p), GK_SSSP_DIJKSTRA, "road graph, 10 sources: dijkstra");
    ok(p[GK_SSSP_FW] > 100 * p[GK_SSSP_DIJKSTRA], "road graph: fw predicted far slower (%g vs %g s)",
       p[GK_SSSP_FW], p[GK_SSSP_DIJKSTRA]);
    is_int(pick(neg_many, &r, p), GK_SSSP_JOHNSON, "negative weights, 1000 sources: johnson");
    ok(p[GK_SSSP_DIJKSTRA] == -1, "negative weights: dijkstra impossible (-1)");
    is_int(pick(neg_one, &r, p), GK_SSSP_BELLMAN_FORD, "negative weights, one source: bellman-ford");
    {   /* non-negative weights, one source: Dijkstra beats Bellman-Ford */
        gk__sssp_case c = neg_one;
        c.negative = 0;
        is_int(pick(c, &r, p), GK_SSSP_DIJKSTRA, "non-negative, one source: dijkstra");
    }

    /* fw never when V x V does not fit, whatever the rest */
    int never = 1, cases = 0;
    for (int64_t V = 100; V <= 100000; V *= 10)
        for (int64_t S = 1; S <= V; S *= 10)
            for (int neg = 0; neg < 2; neg++)
                for (int dense_e = 0; dense_e < 2; dense_e++) {
                    gk__sssp_case c = { V, dense_e ? V * (V - 1) / 2 : 4 * V, S, 0.2, neg, GK_DTYPE_INT32, 0, 2, 0 };
                    char why[512];
                    gk_sssp_algorithm a = gk__sssp_model(&c, &r, p, why, sizeof why);
                    cases++;
                    if (a == GK_SSSP_FW || p[GK_SSSP_FW] != -1 || !strstr(why, "does not fit")) {
                        diag("fw with fw_fits = 0: %s", why);
                        never = 0;
                    }
                    c.fw_fits = 1;                       /* and with room, the dense all-pairs cases take it */
                    if (dense_e && S == V && V >= 1000 && V <= 10000 && gk__sssp_model(&c, &r, p, why, sizeof why) != GK_SSSP_FW) {
                        diag("dense all-pairs without fw: %s", why);
                        never = 0;
                    }
                }
    ok(never, "fw never chosen when the matrix does not fit, chosen for dense all-pairs when it does (%d cases)", cases);

    /* a GPU context: one search costs a whole search on one block, so one
       source goes to the CPU (what prepare() compares); a GPU-full of
       sources stays on the GPU */
    {
        gk__sssp_case g = road, c = road;
        g.gpu = 1; g.workers = 1; g.S = 1;
        c.S = 1; c.workers = 16;
        pick(g, &r, p);
        pick(c, &r, q);
        ok(best_of(q) < best_of(p), "GPU context, one source: the CPU predicted faster (%g < %g s)", best_of(q), best_of(p));
        g.S = c.S = 10000;
        pick(g, &r, p);
        pick(c, &r, q);
        ok(best_of(p) < best_of(q), "GPU context, 10000 sources: the GPU predicted faster (%g < %g s)", best_of(p), best_of(q));
    }
    /* more threads: Dijkstra's predicted time falls; fewer sources than
       threads: no gain from the idle ones */
    {
        gk__sssp_case c = road;
        c.S = 100;
        pick(c, &r, p);
        c.workers = 4;
        pick(c, &r, q);
        ok(fabs(q[GK_SSSP_DIJKSTRA] * 2 - p[GK_SSSP_DIJKSTRA]) < 1e-9 * p[GK_SSSP_DIJKSTRA], "4 threads: half of 2's time");
        c.S = 1;
        pick(c, &r, p);
        c.workers = 2;
        pick(c, &r, q);
        ok(p[GK_SSSP_DIJKSTRA] == q[GK_SSSP_DIJKSTRA], "one source: the same time on 2 and 4 threads");
    }

    /* the rates file */
    char dir[] = "/tmp/gk-sssp-model-XXXXXX";
    if (!mkdtemp(dir)) { diag("mkdtemp failed"); return 1; }
    gk__sssp_rates s, l;
    gk__sssp_rates_default(&s);
    s.cpu_edge_ns = 12.5; s.cpu_vertex_ns = 33.25; s.bf_edge_ns = 2.75; s.gpu_edge_ns = 150.5; s.gpu_searches = 2048;
    ok(gk__sssp_rates_save(dir, "NVIDIA H200/x", &s) == GK_OK, "save");
    char path[512];
    snprintf(path, sizeof path, "%s/sssp-rates-NVIDIA_H200_x.txt", dir);
    ok(access(path, R_OK) == 0, "the file is named by the key, '/' and ' ' made '_': %s", path);
    gk__sssp_rates_load(dir, "NVIDIA H200/x", &l);
    ok(l.cpu_edge_ns == 12.5 && l.cpu_vertex_ns == 33.25 && l.bf_edge_ns == 2.75 && l.gpu_edge_ns == 150.5
       && l.gpu_searches == 2048, "load gives back what was saved");
    ok(!strcmp(l.from, path), "from names the file (%s)", l.from);
    ok(l.fw_cpu_rate[GK_DTYPE_INT32] == r.fw_cpu_rate[GK_DTYPE_INT32], "what the file does not hold: the defaults");

    snprintf(path, sizeof path, "%s/sssp-rates-cpu.txt", dir);
    write_text(path, "# a comment\ncpu_edge_ns -3\ncpu_vertex_ns nan\ngpu_edge_ns inf\nnonsense\nunknown_rate 5\n"
               "bf_edge_ns 7.5\ncpu_edge_ns\n\n");
    gk__sssp_rates_load(dir, "cpu", &l);
    ok(l.bf_edge_ns == 7.5, "a good line among bad ones is read");
    ok(l.cpu_edge_ns == r.cpu_edge_ns && l.cpu_vertex_ns == r.cpu_vertex_ns && l.gpu_edge_ns == r.gpu_edge_ns,
       "negative, NaN, infinite and missing values are ignored (defaults kept)");
    write_text(path, "cpu_edge_ns zero\n# nothing usable\n");
    gk__sssp_rates_load(dir, "cpu", &l);
    ok(!strcmp(l.from, "built-in defaults") && l.cpu_edge_ns == r.cpu_edge_ns, "no usable line: the built-in defaults");
    gk__sssp_rates_load(dir, "no-such-device", &l);
    ok(!strcmp(l.from, "built-in defaults"), "no file: the built-in defaults");
    gk__sssp_rates_load(NULL, "cpu", &l);
    ok(!strcmp(l.from, "built-in defaults"), "no cache dir: the built-in defaults");
    ok(gk__sssp_rates_save("/nonexistent-dir/x", "cpu", &s) != GK_OK, "save into a missing directory fails");

    unlink(path);
    snprintf(path, sizeof path, "%s/sssp-rates-NVIDIA_H200_x.txt", dir);
    unlink(path);
    rmdir(dir);
    return done_testing();
}
