/* cmd_sssp.c - `gk apsp` with chosen sources (--sources, --min-only,
 * --limit, --algorithm): the source list's syntax, the run through
 * gk_sssp_run_file (one process, every GPU of --gpus, or mpirun), and what
 * --verbose, --time and --json say about it. */
#include "cli/cli.h"
#include "api/sssp_file.h"
#include "core/apsp_formats.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append v to the list. */
static void push(int64_t **list, int64_t *n, int64_t *cap, int64_t v)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        int64_t *p = realloc(*list, (size_t)*cap * sizeof *p);
        if (!p) cli_die("--sources: out of memory after %lld items", (long long)*n / 2);
        *list = p;
    }
    (*list)[(*n)++] = v;
}

/* A vertex number: decimal digits, no sign. */
static int vertex_number(const char *s, const char *end, int64_t *v)
{
    if (s == end) return 0;
    int64_t x = 0;
    for (const char *c = s; c < end; c++) {
        if (!isdigit((unsigned char)*c) || x > (INT64_C(1) << 40)) return 0;
        x = 10 * x + (*c - '0');
    }
    *v = x;
    return 1;
}

/* One item "N" or "A-B" (A <= B) of a list, appended as the pair (A, B)
 * (N: (N, N)): expanded by make_sources once V is known. */
static int item(const char *s, const char *end, int64_t **list, int64_t *n, int64_t *cap)
{
    const char *dash = memchr(s, '-', (size_t)(end - s));
    int64_t a, b;
    if (!dash) {
        if (!vertex_number(s, end, &a)) return 0;
        b = a;
    } else if (!vertex_number(s, dash, &a) || !vertex_number(dash + 1, end, &b) || b < a) {
        return 0;
    }
    push(list, n, cap, a);
    push(list, n, cap, b);
    return 1;
}

/* The ranges' sources once the graph's V is known: every range within
 * [0, V) first (the first source outside named with its position, as
 * gk_sssp_run does), so that --sources=0-2000000000 on a small graph is
 * one message, not gigabytes of list. */
typedef struct ranges { const int64_t *r; int64_t n; const char *input; } ranges;
static gk_status make_sources(void *user, int64_t V, int64_t **out, int64_t *S)
{
    const ranges *g = user;
    int64_t total = 0;
    *out = NULL;
    *S = 0;
    for (int64_t i = 0; i < g->n; i++) {
        const int64_t a = g->r[2 * i], b = g->r[2 * i + 1];
        if (b >= V) {
            const int64_t bad = a >= V ? a : V;
            return gk__fail(GK_EINVAL, "%s: source %lld (position %lld) is outside [0, %lld)", g->input,
                            (long long)bad, (long long)(total + bad - a), (long long)V);
        }
        total += b - a + 1;
    }
    int64_t *list = (uint64_t)total <= SIZE_MAX / sizeof *list ? malloc((size_t)total * sizeof *list) : NULL;
    if (!list) return gk__fail(GK_ENOMEM, "--sources: cannot allocate %lld sources", (long long)total);
    int64_t k = 0;
    for (int64_t i = 0; i < g->n; i++)
        for (int64_t v = g->r[2 * i]; v <= g->r[2 * i + 1]; v++) list[k++] = v;
    *out = list;
    *S = total;
    return GK_OK;
}

int64_t *cli_parse_sources(const char *text, int64_t *count)
{
    int64_t *list = NULL, n = 0, cap = 0;
    if (text[0] == '@') {
        const char *path = text + 1;
        FILE *f = fopen(path, "r");
        if (!f) cli_die("--sources=@%s: %s", path, strerror(errno));
        char line[256];
        long ln = 0;
        while (fgets(line, sizeof line, f)) {
            ln++;
            char *h = strchr(line, '#');
            if (h) *h = '\0';
            char *s = line, *e;
            while (*s && isspace((unsigned char)*s)) s++;
            e = s + strlen(s);
            while (e > s && isspace((unsigned char)e[-1])) e--;
            if (s == e) continue;
            if (!item(s, e, &list, &n, &cap)) {
                *e = '\0';
                fclose(f);
                cli_die("%s:%ld: '%s' is not a vertex number or a range A-B", path, ln, s);
            }
        }
        int bad = ferror(f);
        fclose(f);
        if (bad) cli_die("--sources=@%s: cannot read it", path);
        if (!n) cli_die("%s: no sources in it (one vertex number or range per line, # comments)", path);
    } else {
        const char *s = text;
        for (;;) {
            const char *e = strchr(s, ',');
            if (!e) e = s + strlen(s);
            if (!item(s, e, &list, &n, &cap))
                cli_usage_error("--sources=%s: '%.*s' is not a vertex number or a range A-B (a list: "
                                "0,5,7-9, or @FILE)", text, (int)(e - s), s);
            if (!*e) break;
            s = e + 1;
        }
    }
    *count = n / 2;
    return list;
}

int cli_sssp(gk_context *ctx, const cli_sssp_args *a)
{
    gk_sssp_options o;
    gk_sssp_options_init(&o);
    o.algorithm = a->algorithm;
    o.min_only = a->min_only;
    o.limit = a->limit;
    o.config = a->config;
    ranges rg = { a->sources, a->S, a->in };
    gk__sssp_file_args fa = { .input = a->in, .format = a->format, .flags = a->flags, .vertices = a->vertices,
                              .dtype = a->weights, .make_sources = a->S ? make_sources : NULL, .make_user = &rg,
                              .output = a->out,
                              .output_format = a->out_format,
                              .pred_output = a->pred_out, .nearest_output = a->nearest_out };
    gk_sssp_report rep;
    gk_sssp_report_init(&rep);
    double t0 = gk__wtime();
    gk_status st = gk__sssp_run_file(ctx, &fa, &o, &rep);
    double wall = gk__wtime() - t0;
    const int rank = cli_comm ? cli_comm->rank : 0;
    /* --verbose's lines; --time's table below says the algorithm itself
       (as gk apsp's Floyd-Warshall --time prints only its table) */
    if (rank == 0 && a->verbose && !cli_quiet) {
        fprintf(stderr, "%s: %s: %s\n", cli_prog, gk_sssp_algorithm_name(rep.algorithm), rep.why);
        cli_report_verbose("apsp --sources", &rep.run);
    }
    if (st) {
        if (st == GK_ENEGCYCLE) cli_die("%s: %s", a->in, gk_last_error());
        cli_die_status(st);
    }
    if (rank != 0) {
        gk_context_destroy(ctx);
        return 0;
    }
    if (a->json) {
        json_begin();
        json_str("command", "apsp");
        json_str("input", a->in);
        json_str("output", a->out);
        json_str("algorithm", gk_sssp_algorithm_name(rep.algorithm));
        json_str("why", rep.why);
        json_int("sources", rep.sources);
        json_bool("min_only", a->min_only);
        json_int("relaxations", rep.relaxations);
        json_num("seconds_predicted", rep.predicted[rep.algorithm]);
        cli_json_report(&rep.run);
        json_object("seconds");
        json_phase("setup", rep.setup);
        json_phase("compute", rep.run.compute);
        json_object_end();
        json_num("wall", wall);
        json_end();
    } else if (a->timing) {
        fprintf(cli_report, "algorithm        %s (%s)\n", gk_sssp_algorithm_name(rep.algorithm), rep.why);
        fprintf(cli_report, "compute          %.3f s for %lld sources (%lld edges relaxed)\n", rep.run.compute,
                (long long)rep.sources, (long long)rep.relaxations);
        fprintf(cli_report, "read, solve, write %.3f s wall\n", wall);
    }
    gk_context_destroy(ctx);
    return 0;
}
