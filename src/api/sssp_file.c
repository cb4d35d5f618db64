/* sssp_file.c - gk_sssp_run_file: a graph file in, the rows of the chosen
 * sources out (raw little-endian or .npy of shape (S, V)), written as
 * gk_sssp_run_rows hands them over, so the result never has to fit in
 * memory.  Under mpirun (the context's gk_comm) every rank reads the graph,
 * computes a contiguous block of the sources and writes its rows at their
 * offsets of the one output (core/comm_out.c: collective open and close,
 * nothing left behind on failure); every step's status is agreed, so all
 * ranks fail together with one message. */
#include "api/context.h"
#include "api/sssp_file.h"
#include "core/apsp_formats.h"
#include "core/comm.h"
#include "core/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One output of the run: its file (several ranks: each writes at its
 * offsets; one process: in order, `pos` bytes so far), the header's bytes,
 * a row's bytes. */
typedef struct out_file {
    gk__comm_out o;
    gk_outfile so;
    int open, seq;
    uint64_t header, row, pos;
} out_file;

/* format: GK_FORMAT_NPY or GK_FORMAT_NTHU, else (AUTO) by the name. */
static int want_npy(const char *path, gk_format format)
{
    if (format == GK_FORMAT_NPY || format == GK_FORMAT_NTHU) return format == GK_FORMAT_NPY;
    return gk__format_for_output(path, GK_FORMAT_NTHU) == GK_FORMAT_NPY;
}

/* bytes at offset: one process's rows come in order (gk_sssp_run_rows
 * hands them over so), which a non-seekable output needs. */
static gk_status out_write(out_file *f, const void *buf, size_t bytes, uint64_t offset)
{
    if (!f->seq) return gk__comm_out_pwrite(&f->o, buf, bytes, offset);
    if (offset != f->pos)
        return gk__fail(GK_EINTERNAL, "%s: rows out of order (byte %llu, expected %llu)", f->so.path,
                        (unsigned long long)offset, (unsigned long long)f->pos);
    f->pos += bytes;
    return gk__out_write(&f->so, buf, bytes);
}

static gk_status out_open(out_file *f, const gk_comm *comm, const char *path, gk_format format, gk_dtype t,
                          int64_t rows, int64_t V)
{
    char h[256];
    memset(f, 0, sizeof *f);
    f->row = (uint64_t)V * gk_dtype_size(t);
    f->seq = gk__comm_size(comm) == 1;
    gk_status st = f->seq ? gk__out_open(&f->so, path) : gk__comm_out_open(&f->o, comm, path);
    if (st) return st;
    f->open = 1;
    if (want_npy(path, format)) {
        f->header = (uint64_t)gk__npy_rows_header(h, sizeof h, t, rows, V);
        if (gk__comm_rank(comm) == 0)
            st = out_write(f, h, (size_t)f->header, 0);
    }
    return st;
}

static gk_status out_close(out_file *f, gk_status st)
{
    if (!f->open) return st;
    f->open = 0;
    return f->seq ? gk__out_close(&f->so, st) : gk__comm_out_close(&f->o, st);
}

/* The run's refusals of this graph (a negative weight for Dijkstra, a
 * limit with negative weights, fw's matrix too big, ...) name the library
 * function or nothing; from a file they name the file, as the front door's
 * other messages do. */
static gk_status name_input(const char *input, gk_status st)
{
    static const char *const fns[] = { "gk_sssp_run_rows: ", "gk_sssp_run: " };
    if (st != GK_EINVAL && st != GK_ENOMEM) return st;
    const char *m = gk_last_error();
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (!strncmp(m, fns[i], strlen(fns[i]))) return gk__fail(st, "%s: %s", input, m + strlen(fns[i]));
    if (!strncmp(m, "negative weight ", 16)) return gk__fail(st, "%s: %s", input, m);
    return st;
}

/* The sink: rows first.. of this rank's block at their global offsets. */
typedef struct sink_ctx {
    out_file *dist, *pred;
    int64_t base;            /* this rank's first row */
    int64_t V;
} sink_ctx;

static gk_status sink(void *user, int64_t first, int64_t rows, const void *dist, const int32_t *pred)
{
    sink_ctx *c = user;
    const uint64_t r = (uint64_t)(c->base + first);
    gk_status st = out_write(c->dist, dist, (size_t)rows * c->dist->row, c->dist->header + r * c->dist->row);
    if (!st && c->pred && pred)
        st = out_write(c->pred, pred, (size_t)rows * c->pred->row, c->pred->header + r * c->pred->row);
    return st;
}

gk_status gk__sssp_run_file(gk_context *ctx, const gk__sssp_file_args *a, const gk_sssp_options *options,
                            gk_sssp_report *report)
{
    const char *fn = "gk_sssp_run_file";
    gk__clear_error();
    if (!ctx) return gk__fail(GK_EINVAL, "%s: ctx is NULL", fn);
    if (!a->input || !a->output) return gk__fail(GK_EINVAL, "%s: input or output is NULL", fn);
    if (!a->make_sources && (a->S < 0 || (a->S > 0 && !a->sources)))
        return gk__fail(GK_EINVAL, "%s: S = %lld sources", fn, (long long)a->S);
    gk_sssp_options o;
    gk_sssp_options_init(&o);
    if (options) {
        if (options->struct_size < sizeof o)
            return gk__fail(GK_EINVAL, "%s: options->struct_size = %zu: initialise it with gk_sssp_options_init", fn,
                            options->struct_size);
        o = *options;
    }
    if (a->pred_output) o.predecessors = 1;
    const gk_comm *comm = ctx->comm;
    const int rank = gk__comm_rank(comm), size = gk__comm_size(comm);
    gk_graph *g = NULL;
    double t0 = gk__wtime();
    gk_status st = gk__graph_read_flags(a->input, a->format, a->flags, a->vertices, a->dtype, &g);
    if ((st = gk__comm_agree(comm, st))) {
        gk__graph_free(g);
        return st;
    }
    const double read = gk__wtime() - t0;
    const int64_t V = g->V;
    int64_t S = a->S, *all = NULL;
    const int64_t *src = a->sources;
    if (a->make_sources) {
        st = a->make_sources(a->make_user, V, &all, &S);
        src = all;
    } else if (S == 0) {     /* every vertex */
        S = V;
        if (!(all = malloc((size_t)V * sizeof *all)))
            st = gk__fail(GK_ENOMEM, "%s: cannot allocate %lld sources", fn, (long long)V);
        for (int64_t v = 0; !st && v < V; v++) all[v] = v;
        src = all;
    }
    for (int64_t i = 0; !st && i < S; i++)
        if (src[i] < 0 || src[i] >= V)
            st = gk__fail(GK_EINVAL, "%s: source %lld (position %lld) is outside [0, %lld)", a->input,
                          (long long)src[i], (long long)i, (long long)V);
    if ((st = gk__comm_agree(comm, st))) {
        free(all);
        gk__graph_free(g);
        return st;
    }
    const int64_t rows = o.min_only ? 1 : S;
    out_file fd, fp, fnr;
    memset(&fp, 0, sizeof fp);
    memset(&fnr, 0, sizeof fnr);
    st = out_open(&fd, comm, a->output, a->output_format, g->dtype, rows, V);
    if (!st && a->pred_output) st = out_open(&fp, comm, a->pred_output, GK_FORMAT_AUTO, GK_DTYPE_INT32, rows, V);
    if (!st && a->nearest_output && o.min_only)
        st = out_open(&fnr, comm, a->nearest_output, GK_FORMAT_AUTO, GK_DTYPE_INT32, 1, V);
    gk_sssp_report rep;
    gk_sssp_report_init(&rep);
    if (!st && o.min_only) {
        /* one row: rank 0 computes it, the others wait at the close */
        if (rank == 0) {
            size_t es = gk_dtype_size(g->dtype);
            void *d = malloc((size_t)V * es);
            int32_t *p = o.predecessors ? malloc((size_t)V * 4) : NULL, *nr = malloc((size_t)V * 4);
            if (!d || !nr || (o.predecessors && !p))
                st = gk__fail(GK_ENOMEM, "%s: cannot allocate a row of %lld vertices", fn, (long long)V);
            if (!st) st = name_input(a->input, gk_sssp_run(ctx, g, src, S, &o, d, p, nr, &rep));
            if (!st) st = out_write(&fd, d, (size_t)fd.row, fd.header);
            if (!st && p) st = out_write(&fp, p, (size_t)fp.row, fp.header);
            if (!st && fnr.open) st = out_write(&fnr, nr, (size_t)fnr.row, fnr.header);
            free(d);
            free(p);
            free(nr);
        }
    } else if (!st) {
        const int64_t first = S * rank / size, last = S * (rank + 1) / size;
        sink_ctx c = { &fd, a->pred_output ? &fp : NULL, first, V };
        if (last > first)
            st = name_input(a->input, gk_sssp_run_rows(ctx, g, src + first, last - first, &o, sink, &c, &rep));
    }
    /* the closes agree on every rank's status */
    if (fnr.open) st = out_close(&fnr, st);
    if (fp.open) st = out_close(&fp, st);
    if (fd.open) st = out_close(&fd, st);
    else st = gk__comm_agree(comm, st);
    if (st == GK_ENEGCYCLE) {
        int64_t cv = rep.run.cycle_vertex;
        gk__comm_max_i64(comm, &cv, 1);
        rep.run.cycle_vertex = cv;
    }
    double times[2] = { rep.run.compute, read };
    gk__comm_max_f64(comm, times, 2);
    rep.run.compute = times[0];
    rep.sources = S;
    if (report) {
        size_t keep = report->struct_size;
        memcpy(report, &rep, sizeof rep < keep ? sizeof rep : keep);
        report->struct_size = keep;
    }
    free(all);
    gk__graph_free(g);
    return st;
}

gk_status gk_sssp_run_file(gk_context *ctx, const char *input, gk_format format, int undirected, gk_dtype dtype,
                           const int64_t *sources, int64_t S, const gk_sssp_options *options, const char *output,
                           const char *pred_output, gk_sssp_report *report)
{
    gk__sssp_file_args a = { .input = input, .format = format, .flags = undirected ? GK__READ_UNDIRECTED : 0,
                             .dtype = dtype, .sources = sources, .S = S, .output = output,
                             .pred_output = pred_output };
    return gk__sssp_run_file(ctx, &a, options, report);
}
