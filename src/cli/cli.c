/* cli.c - messages, exits, option and number parsing, the run context,
 * timing tables and JSON output for the commands. */
#include "cli/cli.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <float.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *cli_prog = "gk";
FILE *cli_report;     /* NULL until cli_report_to: stdout */
#define REPORT (cli_report ? cli_report : stdout)
const char *cli_cmd = "gk";
const gk_comm *cli_comm;
int cli_quiet;
/* Set once this process has begun to exit on its own (an agreed failure
 * under mpirun ends every rank, and mpirun may SIGTERM a rank still in
 * exit): the signal note below is then not a second message. */
static volatile sig_atomic_t ending;

/* One line on stderr: control characters in the message (which may echo
 * user input) are escaped, so a newline in an option never splits it. */
static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
    char buf[4096];
    if (cli_quiet)            /* under mpirun, rank 0 speaks for every rank */
        return;
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "%s: %s", cli_prog, prefix);
    for (const unsigned char *p = (const unsigned char *)buf; *p; p++) {
        if (*p == '\n') fputs("\\n", stderr);
        else if (*p == '\t') fputs("\\t", stderr);
        else if (*p < 0x20 || *p == 0x7f) fprintf(stderr, "\\x%02x", *p);
        else fputc(*p, stderr);
    }
    fputc('\n', stderr);
}

void cli_die(const char *fmt, ...)
{
    va_list ap;
    ending = 1;
    va_start(ap, fmt);
    vmessage("", fmt, ap);
    va_end(ap);
    exit(1);
}

void cli_die_status(gk_status st)
{
    const char *m = gk_last_error();
    cli_die("%s", m && *m ? m : gk_strerror(st));
}

void cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    ending = 1;
    va_start(ap, fmt);
    vmessage("", fmt, ap);
    va_end(ap);
    if (!cli_quiet)
        fprintf(stderr, "Try '%s --help' for more information.\n", cli_cmd);
    exit(2);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("warning: ", fmt, ap);
    va_end(ap);
}

void cli_warn_edge_list(const char *path, int32_t max_id, int32_t V)
{
    if (max_id + 1 < V)
        cli_warn("%s: vertices %d to %d have no edge and an edge list does not record them: "
                 "read it with --vertices=%d", path, max_id + 1, V - 1, V);
}

void cli_warn_one_based(const char *path, int32_t min_id)
{
    if (min_id == 1)
        cli_warn("%s: no edge names vertex 0 (the smallest id is 1); if the ids are 1-based, read it with "
                 "--one-based (as it is, vertex 0 has no edge)", path);
}

void cli_version(void)
{
    printf("%s (gk) %s\n", cli_prog, gk_version());
    printf("Copyright (C) 2026 the gk developers.\n"
           "License: MIT.  This is free software: you are free to change and redistribute it.\n");
}

/* ---- options ---- */

/* The option text as typed, without its "=value". */
static void option_name(const char *arg, char *buf, size_t n)
{
    snprintf(buf, n, "%s", arg);
    char *eq = strchr(buf, '=');
    if (eq) *eq = '\0';
}

const char *cli_shortopts = ":h";

int cli_getopt(int argc, char **argv, const struct option *opts)
{
    opterr = 0;
    int c = getopt_long(argc, argv, cli_shortopts, opts, NULL);
    if (c == 'h')
        return 'h';
    if (c != '?' && c != ':')
        return c;
    const char *arg = argv[optind - 1];
    char name[256];
    option_name(arg, name, sizeof name);
    if (c == ':')
        cli_usage_error("option '%s' requires a value (%s=VALUE)", name, name);
    if (strncmp(name, "--", 2) != 0) {
        if (c == ':' || !optopt)
            cli_usage_error("unrecognized option '%s'", arg);
        cli_usage_error("unrecognized option '-%c'", optopt);
    }
    /* '?' for a long option: a flag given a value, an ambiguous prefix, or unknown */
    const char *word = name + 2;
    size_t len = strlen(word);
    int matches = 0;
    char list[1024] = "";
    for (const struct option *o = opts; o->name; o++) {
        if (!strcmp(o->name, word) && o->has_arg == no_argument && strchr(arg, '='))
            cli_usage_error("option '--%s' doesn't allow a value", o->name);
        if (len && !strncmp(o->name, word, len)) {
            matches++;
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, " '--%s'", o->name);
        }
    }
    if (matches > 1)
        cli_usage_error("option '%s' is ambiguous; possibilities:%s", name, list);
    if (matches == 1 && strchr(arg, '='))
        cli_usage_error("option '%s' doesn't allow a value", name);
    cli_usage_error("unrecognized option '%s'", name);
}

void cli_operands(int argc, char **argv, int want, const char *names)
{
    int have = argc - optind;
    if (have == want) {
        /* the operands are file names (INPUT OUTPUT, or OUTPUT): an empty
         * one is a usage error naming it */
        for (int i = 0; i < want; i++)
            if (!*argv[optind + i])
                cli_usage_error("%s: empty file name", i + 1 < want ? "INPUT" : "OUTPUT");
        return;
    }
    if (want == 0)
        cli_usage_error("unexpected argument '%s'", argv[optind]);
    cli_usage_error("want %s (got %d argument%s)", names, have, have == 1 ? "" : "s");
}

const char *cli_path(const char *opt, const char *arg)
{
    if (!*arg)
        cli_usage_error("%s: empty file name", opt);
    return arg;
}

void cli_check_output(const char *out, const char *in)
{
    if (gk__output_check(out, in) != GK_OK)
        cli_die("%s", gk_last_error());
}

/* Under mpirun, a rank that dies (SIGKILL, a crash) cannot speak, and
 * mpirun then ends the others with SIGTERM: ranks 0 and 1 (one of which
 * survives whichever rank died) say so in one line.  Only what is
 * async-signal-safe: the line is assembled by hand and written with write. */
static void mpi_signal_note(int sig)
{
    if (!cli_comm || cli_comm->rank > 1 || ending)
        return;
    char line[200], num[24];
    size_t n = 0;
    int r = cli_comm->rank, k = 0;
    const char *parts[] = { "gk: rank ", r ? "1" : "0", ": stopped by signal ", NULL,
                            " (mpirun ends every rank when one dies or the job is interrupted)\n" };
    for (int v = sig; k == 0 || v; v /= 10)
        num[k++] = (char)('0' + v % 10);
    for (int i = 0; i < 5; i++) {
        if (i == 3) {
            while (k && n < sizeof line) line[n++] = num[--k];
            continue;
        }
        for (const char *p = parts[i]; *p && n < sizeof line; p++) line[n++] = *p;
    }
    ssize_t w = write(2, line, n);
    (void)w;
}

void cli_agree(gk_status st, int code)
{
    int64_t c = st ? code : 0;
    /* every rank learns whether any failed; then, all of them, the largest
       exit status a failing rank asked for */
    if (cli_comm && (st = gk__comm_agree(cli_comm, st)) && gk__comm_max_i64(cli_comm, &c, 1) != GK_OK)
        c = 1;
    if (st && c == 2)
        cli_usage_error("%s", gk_last_error());
    if (st)
        cli_die_status(st);
}

static void on_fatal_signal(int sig)
{
    gk_remove_partial_outputs();
    mpi_signal_note(sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_ignore_file_limits(void)
{
    /* Past `ulimit -f` the kernel sends SIGXFSZ, whose default action ends
     * the process without a word; ignored, the write fails with EFBIG and
     * the writer (core/io.c) reports it naming the file and removes the
     * partial output. */
    signal(SIGXFSZ, SIG_IGN);
}

int cli_max_threads;

void cli_fit_threads(char **argv)
{
    struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
#ifdef __GLIBC__
        /* under an address-space limit, one malloc arena: glibc gives a
           thread that finds the main arena busy an arena of its own, which
           reserves 64 MiB of address space, taken (or not: it depends on
           timing) from the room counted below for the threads' stacks and
           the data.  CI once saw libgomp's "Thread creation failed" under
           `ulimit -v 120000` with 2 threads, under load only. */
        mallopt(M_ARENA_MAX, 1);
#endif
    }
    int want, fit = gk__threads_fit_limits(&want);
    if (fit >= want) {
        /* and the team's stacks mapped now, before the data takes the room
           they were counted in (libgomp maps them at the first parallel
           region, and exits when it cannot) */
        if (want > 1 && rl.rlim_cur != RLIM_INFINITY)
            gk__threads_start(want);
        return;
    }
    char l[32], s[32], n[16];
    cli_warn("the address-space limit (ulimit -v: %s) leaves room for %d OpenMP thread%s (each maps a %s stack), "
             "not %d: running with %d", gk__human_bytes((double)rl.rlim_cur, l, sizeof l), fit, fit == 1 ? "" : "s",
             gk__human_bytes((double)gk__thread_stack_bytes(), s, sizeof s), want, fit);
    cli_max_threads = fit;
    /* OMP_NUM_THREADS is read once, when libgomp loads, and sets the count
       of every thread's teams (omp_set_num_threads only the caller's): so
       start again with it.  Each start lowers it, so this ends. */
    snprintf(n, sizeof n, "%d", fit);
    if (setenv("OMP_NUM_THREADS", n, 1) == 0) {
        fflush(NULL);
        execv("/proc/self/exe", argv);
    }
    gk__threads_start(fit);         /* no exec: this thread's teams at least */
}

void cli_cleanup_on_signals(void)
{
    cli_ignore_file_limits();
    signal(SIGINT, on_fatal_signal);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
}

/* ---- numbers ---- */

/* The library's strict parsers (gk/parse.h); a refusal is a usage error. */
int64_t cli_parse_i64(const char *opt, const char *text, int64_t min, int64_t max)
{
    int64_t v;
    if (gk__parse_i64(opt, text, min, max, &v))
        cli_usage_error("%s", gk_last_error());
    return v;
}

uint64_t cli_parse_u64(const char *opt, const char *text)
{
    uint64_t v;
    if (gk__parse_u64(opt, text, 0, UINT64_MAX, &v))
        cli_usage_error("%s", gk_last_error());
    return v;
}

double cli_parse_double(const char *opt, const char *text)
{
    double v;
    if (gk__parse_double(opt, text, -DBL_MAX, DBL_MAX, &v))
        cli_usage_error("%s", gk_last_error());
    return v;
}

void cli_parse_size3(const char *opt, const char *text, int64_t *nx, int64_t *ny, int64_t *nz)
{
    if (gk__parse_size3(opt, text, nx, ny, nz))          /* its message names opt */
        cli_usage_error("%s", gk_last_error());
    if (gk_stencil_check_size(*nx, *ny, *nz, 0))
        cli_usage_error("%s: %s", opt, gk_last_error());
}

gk_backend cli_parse_device(const char *text)
{
    gk_backend b;
    if (gk_backend_parse(text, &b) != GK_OK)
        cli_usage_error("--device: %s", gk_last_error());
    return b;
}

/* ---- the run context and its reports ---- */

static gk_context *context_for(gk_backend want, int lenient)
{
    gk_context_options o;
    gk_context *ctx;
    gk_status st;
    gk_context_options_init(&o);
    if ((st = gk_context_options_from_env(&o))) {
        if (!lenient)
            cli_die_status(st);
        /* gk info is the diagnostic: it still reports, and says why not
         * with the environment's settings */
        cli_warn("%s; reporting without the environment's settings", gk_last_error());
        gk_context_options_init(&o);
    }
    o.backend = want;
    o.comm = cli_comm;
    if (cli_max_threads && (o.threads <= 0 || o.threads > cli_max_threads))
        o.threads = cli_max_threads;        /* the team that fits the address-space limit */
    /* under mpirun a rank may lack its GPU: every rank dies together */
    cli_agree(gk_context_create(&ctx, &o), 1);
    return ctx;
}

gk_context *cli_context(gk_backend want) { return context_for(want, 0); }

int cli_gen_args(int argc, char **argv, const char *help, const char **size, uint64_t *seed)
{
    enum { O_SIZE = 256, O_SEED };
    static const struct option opts[] = {
        { "size", required_argument, 0, O_SIZE }, { "seed", required_argument, 0, O_SEED },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    int c;
    *size = NULL;
    *seed = 1;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        if (c == O_SIZE) *size = optarg;
        else if (c == O_SEED) *seed = cli_parse_u64("--seed", optarg);
        else if (c == 'h') {
            fputs(help, stdout);
            return 1;
        }
    }
    if (!*size)
        cli_usage_error("--size is required");
    cli_operands(argc, argv, 1, "one OUTPUT file");
    return 0;
}

void cli_check_config(const char *kernel, const char *config)
{
    if (config && gk_config_validate(kernel, config, NULL, 0) != GK_OK)
        cli_usage_error("--config: %s", gk_last_error());
}

void cli_check_gpus(const char *gpus)
{
    if (gpus) {
        gk_context_options probe;
        gk_context_options_init(&probe);
        cli_parse_gpus(gpus, &probe);
    }
}

gk_context *cli_bench_context(gk_backend want, const char *config, int *gpu)
{
    gk_context *ctx = cli_context(want);
    *gpu = gk_context_backend(ctx) == GK_BACKEND_GPU;
    if (config && !*gpu)
        cli_warn("--config applies to the GPU kernels; this run is on the CPU");
    return ctx;
}
gk_context *cli_context_lenient(gk_backend want) { return context_for(want, 1); }

/* --gpus: "N" (the first N GPUs), "all", or a list of two or more ordinals
 * "0,1,..." (a single ordinal: GK_DEVICE). */
void cli_check_size_list(const char *opt, const char *text, void (*check)(const char *opt, const char *item))
{
    char list[1024];
    int n = 0;
    if (strlen(text) >= sizeof list)
        cli_usage_error("%s: list too long", opt);
    snprintf(list, sizeof list, "%s", text);
    if (!*text || text[0] == ',' || text[strlen(text) - 1] == ',' || strstr(text, ",,"))
        cli_usage_error("%s: '%s' has an empty item", opt, text);
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++)
        check(opt, tok);
    if (!n)
        cli_usage_error("%s: no size given", opt);
}

void cli_parse_gpus(const char *text, gk_context_options *o)
{
    gk_status st;
    if (!strchr(text, ',') && strcmp(text, "all")) {
        int64_t n = cli_parse_i64("--gpus", text, 1, GK_MAX_GPUS);
        for (int i = 0; i < n; i++) o->gpus[i] = i;
        o->ngpus = (int)n;
        return;
    }
    if ((st = gk_context_options_set_gpus(o, text)))
        cli_usage_error("--gpus: %s", gk_last_error());
}

/* cli_context with the GPUs of --gpus (NULL: GK_DEVICE's or the default). */
gk_context *cli_gpus_context(gk_backend want, const char *gpus)
{
    gk_context_options o;
    gk_context *ctx;
    gk_status st;
    if (!gpus)
        return cli_context(want);
    gk_context_options_init(&o);
    if ((st = gk_context_options_from_env(&o)))
        cli_die_status(st);
    cli_parse_gpus(gpus, &o);
    if (cli_max_threads && (o.threads <= 0 || o.threads > cli_max_threads))
        o.threads = cli_max_threads;
    if (o.ngpus > 1 && cli_comm)
        cli_usage_error("--gpus: under mpirun each rank drives one GPU (the node-local rank's); drop --gpus");
    o.backend = GK_BACKEND_GPU;
    o.comm = cli_comm;
    if (want == GK_BACKEND_CPU)
        cli_usage_error("--gpus and --device=cpu contradict each other");
    cli_agree(gk_context_create(&ctx, &o), 1);   /* under mpirun: every rank together */
    return ctx;
}

void cli_report_notes(const gk_report *rep)
{
    if (rep->config_ignored)
        cli_warn("--config applies to the GPU kernels; this run was on the CPU");
}

void cli_report_verbose(const char *what, const gk_report *rep)
{
    if (rep->backend == GK_BACKEND_GPU)
        fprintf(stderr, "%s: %s on %s; config %s (%s%s%s)\n", cli_prog, what, rep->device, rep->config,
                gk_config_source_name(rep->config_source), *rep->config_detail ? ": " : "", rep->config_detail);
    else
        fprintf(stderr, "%s: %s on %s%s%s%s%s\n", cli_prog, what, rep->device, *rep->config ? "; kernel " : "",
                rep->config, *rep->backend_note ? "; " : "", rep->backend_note);
}

void cli_report_to(const char *data_out)
{
    cli_report = data_out && !strcmp(data_out, "-") ? stderr : stdout;
}

int cli_finish(int rc)
{
    ending = 1;
    /* a report or data lost to a full or closed stdout is a failure */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: standard output: write failed: %s\n", cli_prog, strerror(errno ? errno : EIO));
        return rc ? rc : 1;
    }
    return rc;
}

void cli_print_times(const gk_report *rep, double read, double write)
{
    cli_print_times_as(rep, "read", read, write);
}

void cli_print_times_as(const gk_report *rep, const char *first, double read, double write)
{
    const char *names[] = { first, "host->device", "compute", "device->host", "check", "write" };
    double v[] = { read, rep->h2d, rep->compute, rep->d2h, rep->check, write };
    double total = 0;
    for (int i = 0; i < 6; i++)
        if (v[i] > 0) total += v[i];
    fprintf(REPORT, "%-16s %12s %8s\n", "phase", "seconds", "share");
    for (int i = 0; i < 6; i++)
        if (v[i] >= 0)
            fprintf(REPORT, "%-16s %12.6f %7.1f%%\n", names[i], v[i], total > 0 ? 100 * v[i] / total : 0);
    fprintf(REPORT, "%-16s %12.6f %7.1f%%\n", "total", total, 100.0);
}

void cli_json_times(const gk_report *rep, double read, double write)
{
    cli_json_times_as(rep, "read", read, write);
}

void cli_json_times_as(const gk_report *rep, const char *first, double read, double write)
{
    double total = 0;
    double v[] = { read, rep->h2d, rep->compute, rep->d2h, rep->check, write };
    for (int i = 0; i < 6; i++)
        if (v[i] > 0) total += v[i];
    json_object("seconds");
    json_phase(first, read); json_phase("host_to_device", rep->h2d); json_phase("compute", rep->compute);
    json_phase("device_to_host", rep->d2h); json_phase("check", rep->check); json_phase("write", write);
    json_num("total", total);
    json_object_end();
}

void cli_json_report(const gk_report *rep)
{
    json_str("device", gk_backend_name(rep->backend));
    json_str("device_name", rep->device);
    if (*rep->backend_note) json_str("device_note", rep->backend_note);
    if (rep->backend == GK_BACKEND_GPU) {
        json_str("config", rep->config);
        json_str("config_source", gk_config_source_name(rep->config_source));
        json_str("config_detail", rep->config_detail);
    } else if (rep->config_ignored) {
        json_str("config", "ignored on the CPU");
    }
}

/* ---- JSON ---- */
static int depth;
static int need_comma[32];

static void put_string(const char *s);

static void sep(const char *key)
{
    if (need_comma[depth]) fputc(',', REPORT);
    need_comma[depth] = 1;
    if (key) {
        put_string(key);
        fputc(':', REPORT);
    }
}

static void put_string(const char *s)
{
    fputc('"', REPORT);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(REPORT, "\\%c", *p);
        else if (*p < 0x20) fprintf(REPORT, "\\u%04x", *p);
        else fputc(*p, REPORT);
    }
    fputc('"', REPORT);
}

static void open_(const char *key, char c)
{
    sep(key);
    fputc(c, REPORT);
    need_comma[++depth] = 0;
}

void json_begin(void) { depth = 0; need_comma[0] = 0; fputc('{', REPORT); need_comma[++depth] = 0; }
void json_end(void) { depth--; fputs("}\n", REPORT); }
void json_object(const char *key) { open_(key, '{'); }
void json_object_end(void) { depth--; fputc('}', REPORT); }
void json_array(const char *key) { open_(key, '['); }
void json_array_end(void) { depth--; fputc(']', REPORT); }
void json_str(const char *key, const char *val) { sep(key); put_string(val ? val : ""); }
void json_int(const char *key, long long val) { sep(key); fprintf(REPORT, "%lld", val); }
double cli_stencil_bound(double floor, double ceiling, int t)
{
    if (!(floor > 0))
        return NAN;
    double b = (t < 1 ? 1 : t) * floor;
    return ceiling > 0 && ceiling < b ? ceiling : b;
}

void json_num(const char *key, double val)
{
    sep(key);
    if (isfinite(val)) fprintf(REPORT, "%.6g", val); else fputs("null", REPORT);
}
void json_phase(const char *key, double val)
{
    if (val < 0) { sep(key); fputs("null", REPORT); }
    else json_num(key, val);
}
void json_bool(const char *key, int val) { sep(key); fputs(val ? "true" : "false", REPORT); }
