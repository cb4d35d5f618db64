/* cmd_apsp_typed.c - `gk apsp` on the typed path (issue 24): int64,
 * float32 or float64 distances, negative weights, predecessors.  The input
 * becomes a typed matrix (gk_apsp_read_matrix), the public gk_apsp_run_paths
 * solves it, and only then are the outputs written (the predecessors
 * first, the distances last; a failure removes what was written). */
#include "cli/cli.h"
#include "core/checked.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* A dense .npy input with a 0 off the diagonal: scipy's dense convention
 * reads it as "no edge", gk's as an edge of weight 0 (gk(1)), which with
 * one negative weight is a negative cycle.  The cycle's message says so. */
static int dense_zero_edge(const cli_apsp_typed_args *a, const void *dist, int64_t V, gk_dtype t)
{
    size_t n = strlen(a->in);
    if (!(a->ifmt == GK_FORMAT_NPY || (a->ifmt == GK_FORMAT_AUTO && n > 4 && !strcasecmp(a->in + n - 4, ".npy"))))
        return 0;
    for (int64_t i = 0; i < V; i++)
        for (int64_t j = 0; j < V; j++) {
            const int64_t x = i * V + j;
            if (i != j && (t == GK_DTYPE_INT32 ? ((const int32_t *)dist)[x] == 0
                           : t == GK_DTYPE_INT64 ? ((const int64_t *)dist)[x] == 0
                           : t == GK_DTYPE_FLOAT32 ? ((const float *)dist)[x] == 0
                                                   : ((const double *)dist)[x] == 0))
                return 1;
        }
    return 0;
}

int cli_apsp_typed(gk_context *ctx, const cli_apsp_typed_args *a)
{
    gk_dtype t = a->weights;
    void *dist = NULL;
    int32_t *pred = NULL;
    int64_t V = 0, E = 0;
    double t0 = gk__wtime();
    gk_status st = gk__apsp_read_matrix_flags(a->in, a->ifmt, a->flags, a->vertices, &t, &dist, &V, &E);
    double read = gk__wtime() - t0;
    if (st)
        cli_die_status(st);
    if (a->pred_out) {
        uint64_t bytes;
        if (gk__mul_u64((uint64_t)V, (uint64_t)V, &bytes) || gk__mul_u64(bytes, sizeof *pred, &bytes)
            || (st = gk__host_memory_check(bytes, "the predecessor matrix"))) {
            free(dist);
            cli_die("%s: V = %lld: %s", a->pred_out, (long long)V,
                    st ? gk_last_error() : "the predecessor matrix does not fit 64 bits");
        }
        if (!(pred = malloc((size_t)bytes))) {
            free(dist);
            cli_die("%s: cannot allocate the %lld x %lld predecessor matrix", a->pred_out, (long long)V, (long long)V);
        }
    }
    gk_apsp_problem p;
    gk_report rep;
    gk_apsp_problem_init(&p, V);
    p.dtype = t;
    gk_report_init(&rep);
    const int zero_edge = dense_zero_edge(a, dist, V, t);
    st = gk_apsp_run_paths(ctx, &p, dist, pred, a->options, &rep);
    if (a->verbose || a->timing) {
        char what[128];
        snprintf(what, sizeof what, "apsp V = %lld, E = %lld, %s distances%s", (long long)V, (long long)E,
                 gk_dtype_name(t), pred ? " and predecessors" : "");
        cli_report_verbose(what, &rep);
        if (!cli_quiet)
            fprintf(stderr, "%s: weights: %s (%s)\n", cli_prog, gk_dtype_name(t), rep.precision_detail);
    }
    if (st) {
        free(dist);
        free(pred);
        const char *name = strcmp(a->in, "-") ? a->in : "standard input";
        if (st == GK_ENEGCYCLE)
            cli_die("%s: %s%s", name, gk_last_error(),
                    zero_edge ? " (a dense .npy: 0 off the diagonal is an edge of weight 0 here; "
                                "write \"no edge\" as inf, not as scipy's dense 0)" : "");
        cli_die_status(st);
    }
    cli_report_notes(&rep);
    double w0 = gk__wtime();
    if (pred && (st = gk_apsp_write_matrix(a->pred_out, GK_FORMAT_AUTO, GK_DTYPE_INT32, pred, V))) {
        free(dist);
        free(pred);
        cli_die_status(st);
    }
    if ((st = gk_apsp_write_matrix(a->out, a->ofmt, t, dist, V))) {
        free(dist);
        free(pred);
        if (pred && strcmp(a->pred_out, "-"))
            unlink(a->pred_out);       /* no predecessors without their distances */
        cli_die_status(st);
    }
    double write = gk__wtime() - w0;
    free(dist);
    free(pred);
    double rate = rep.compute > 0 ? (double)V * V * V / rep.compute : 0;
    if (a->json) {
        json_begin();
        json_str("command", "apsp");
        json_str("input", a->in); json_str("output", a->out);
        json_str("output_format", gk_format_name(a->ofmt != GK_FORMAT_AUTO ? a->ofmt :
            gk__format_for_output(a->out, GK_FORMAT_NTHU) == GK_FORMAT_NPY ? GK_FORMAT_NPY : GK_FORMAT_NTHU));
        if (a->pred_out) json_str("predecessors", a->pred_out);
        json_int("vertices", V); json_int("edges", E);
        json_str("weights", gk_dtype_name(t));
        cli_json_report(&rep);
        json_str("check", a->options->check ? "passed" : "not run");
        if (a->options->check) json_str("check_against", rep.check_against);
        json_int("precision", rep.precision);
        json_str("precision_detail", rep.precision_detail);
        cli_json_times(&rep, read, write);
        json_num("min_plus_per_second", rate);
        json_end();
    } else if (a->timing) {
        cli_print_times(&rep, read, write);
        fprintf(cli_report, "compute rate     %.3f G min-plus/s (V^3 / compute time); check %s\n", rate / 1e9,
                a->options->check ? "passed" : "not run");
        fprintf(cli_report, "weights          %s (%s)\n", gk_dtype_name(t), rep.precision_detail);
    }
    if (!a->json && a->options->check)
        fprintf(cli_report, "check against %s: %s: ok\n", rep.check_against,
                t == GK_DTYPE_FLOAT32 || t == GK_DTYPE_FLOAT64 ? "every distance within the tolerance"
                                                               : "every distance equal");
    gk_context_destroy(ctx);
    return 0;
}
