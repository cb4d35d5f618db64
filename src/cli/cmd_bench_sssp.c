/* cmd_bench_sssp.c - `gk bench apsp --algorithms`: the table of every
 * shortest-path algorithm's time and auto's choice on the bench's graphs
 * (api/sssp_bench.c).  Rows and columns in a fixed order, so tables of two
 * machines or two versions compare line by line. */
#include "cli/cli.h"
#include "api/sssp_bench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int cmd_bench_sssp(int argc, char **argv);

enum { B_ALGORITHMS = 300, B_QUICK, B_JSON, B_DEVICE };

typedef struct table { int json, n, over, gpu; double worst; } table;

static void cell(double s)
{
    if (s < 0) printf(" %10s", "-");
    else printf(" %10.4f", s);
}

static void row(void *user, const gk__sssp_bench_row *r)
{
    table *t = user;
    static const char *const cols[] = { "auto", "fw", "dijkstra", "johnson", "bellman-ford" };
    if (r->ratio > t->worst) t->worst = r->ratio;
    t->over += r->ratio > 1.25;
    if (t->json) {
        json_object(NULL);
        json_str("graph", r->graph); json_int("V", r->V); json_int("E", r->E); json_int("S", r->S);
        json_object("seconds");
        for (int a = 1; a < 5; a++) {
            json_phase(cols[a], r->seconds[a]);     /* null: does not apply */
        }
        json_num("auto", r->seconds[0]);
        json_object_end();
        json_str("auto_choice", gk_sssp_algorithm_name(r->choice));
        json_str("auto_backend", gk_backend_name(r->backend));
        json_str("fastest", gk_sssp_algorithm_name(r->fastest));
        json_num("auto_over_fastest", r->ratio);
        json_bool("same", r->same);
        json_str("why", r->why);
        json_object_end();
    } else {
        if (t->n == 0)
            printf("%-9s %7s %8s %6s %10s %10s %10s %10s %10s  %-12s %8s %4s\n", "graph", "V", "E", "S", "fw s",
                   "dijkstra s", "johnson s", "bellford s", "auto s", "auto chose", "auto/min", "same");
        printf("%-9s %7lld %8lld %6lld", r->graph, (long long)r->V, (long long)r->E, (long long)r->S);
        for (int a = 1; a < 5; a++) cell(r->seconds[a]);
        cell(r->seconds[0]);
        char chose[32];     /* "dijkstra", or "dijkstra/cpu" where a GPU context's auto ran on the CPU */
        snprintf(chose, sizeof chose, "%s%s", gk_sssp_algorithm_name(r->choice),
                 r->backend == GK_BACKEND_CPU && t->gpu ? "/cpu" : "");
        printf("  %-12s %7.2fx %4s\n", chose, r->ratio, r->same ? "yes" : "NO");
        fflush(stdout);
    }
    t->n++;
}

int cmd_bench_sssp(int argc, char **argv)
{
    static const struct option opts[] = {
        { "algorithms", no_argument, 0, B_ALGORITHMS }, { "quick", no_argument, 0, B_QUICK },
        { "json", no_argument, 0, B_JSON }, { "device", required_argument, 0, B_DEVICE },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    gk_backend want = GK_BACKEND_AUTO;
    int quick = 0, c;
    table t = { 0, 0, 0, 0, 0 };
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case B_ALGORITHMS: break;
        case B_QUICK: quick = 1; break;
        case B_JSON: t.json = 1; break;
        case B_DEVICE: want = cli_parse_device(optarg); break;
        case 'h':
            printf("Usage: gk bench apsp --algorithms [--quick] [--device=auto|cpu|gpu] [--json]\n"
                   "Shortest paths from chosen sources: fw, dijkstra, johnson, bellman-ford and auto,\n"
                   "each timed with gk_sssp_run (median of 3; 1 run when one takes over a second)\n"
                   "on graphs made in memory (random sparse E = 4V, road: a grid with 2%% shortcuts,\n"
                   "power-law R-MAT, dense, random with negative weights) for S = 1, 100, V sources.\n"
                   "A row per (graph, S): each algorithm's seconds (- where it does not apply),\n"
                   "auto's, auto's choice, auto / the fastest (target <= 1.25x), and whether every\n"
                   "algorithm's distances were the same.  About a minute on 2 cores.\n\n"
                   "  --algorithms           this table (rather than the Floyd-Warshall bench)\n"
                   "  --quick                small graphs: seconds (for the tests)\n"
                   "  --device=auto|cpu|gpu  where to run\n"
                   "  --json                 print the rows as JSON\n"
                   "  -h, --help             display this help and exit\n");
            return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    int gpu;
    gk_context *ctx = cli_bench_context(want, NULL, &gpu);
    t.gpu = gpu;
    if (t.json) {
        json_begin();
        json_str("command", "bench apsp --algorithms");
        json_str("device", gpu ? "gpu" : "cpu");
        json_bool("quick", quick);
        json_array("rows");
    } else {
        printf("gk bench apsp --algorithms on the %s%s: seconds of gk_sssp_run (median of 3), auto / fastest\n",
               gpu ? "GPU" : "CPU", quick ? " (--quick)" : "");
    }
    gk_status st = gk__sssp_bench(ctx, quick, row, &t);
    if (t.json) {
        json_array_end();
        if (!st) { json_num("worst_auto_over_fastest", t.worst); json_int("rows_over_1_25", t.over); }
        json_end();
    } else if (!st) {
        printf("worst auto / fastest: %.2fx; rows over 1.25x: %d of %d\n", t.worst, t.over, t.n);
    }
    gk_context_destroy(ctx);
    if (st) cli_die_status(st);
    return 0;
}
