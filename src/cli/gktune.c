/* gktune.c - the gktune command: tune gk's kernels for this machine's GPU. */
#include "cli/cli.h"
#include "api/sssp_bench.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(void)
{
    printf("Usage: gktune [OPTION]...\n"
           "Compile variants of gk's kernels for this machine's GPU (NVRTC), time them with\n"
           "CUDA events in a separate process, validate them against the CPU and cache the\n"
           "winners; gk then uses them.  An interrupted run resumes where it stopped.\n\n"
           "  --budget=SECONDS   wall-clock budget for the whole run (default 120)\n"
           "  --exhaustive       measure every valid configuration (ignores --budget)\n"
           "  --kernels=LIST     kernels to tune, e.g. apsp,stencil (default: all; --list\n"
           "                     names them: apspx_f32, apspx_f64 and apspx_p are the\n"
           "                     typed APSP kernels' thread shapes, tuned apart)\n"
           "  --sizes=SPEC       size classes, e.g. 'apsp=4096,16384;stencil=256,512'\n"
           "  --stencil=LIST     tune the generated stencil engine for these descriptions\n"
           "                     instead, e.g. 3d-star-r1,2d-box-r2:f32:periodic (both\n"
           "                     element types unless one is named; entries keyed by shape)\n"
           "  --stencil-size=N   grid of --stencil: N^3 in 3D, N^2 in 2D (default 256, 8192)\n"
           "  --calibrate=sssp   instead: measure the shortest-path cost model's rates\n"
           "                     (Dijkstra, Bellman-Ford on one CPU thread; on a GPU its\n"
           "                     search rate and concurrent searches) and save them in\n"
           "                     the cache, where gk apsp --algorithm=auto reads them\n"
           "  --seed=S           random inputs and sampling (default 1)\n"
           "  --csv=FILE         also write every measurement to FILE\n"
           "  --list             print the search spaces and exit (no GPU needed; a build\n"
           "                     with CUDA; not the generated engine's: see gk(1))\n"
           "  --json             print the results as JSON on stdout\n"
           "  -q, --quiet        no progress line\n"
           "  -h, --help         display this help and exit\n"
           "  -V, --version      output version information and exit\n\n"
           "The cache is $GK_CACHE_DIR, else $XDG_CACHE_HOME/gk, else ~/.cache/gk.\n"
           "GK_DEVICE picks the GPU (default 0).\n"
           "Report bugs to <%s>.\n", PACKAGE_BUGREPORT);
}

static int tty;

static void on_progress(void *user, const gk_tune_progress *p)
{
    (void)user;
    if (!tty) return;
    fprintf(stderr, "\r\033[K%s %lld: %d/%d configs, best %.4g ms, %.0f s elapsed, ~%.0f s left",
            p->kernel, (long long)p->size, p->done, p->total, p->best_ms, p->elapsed_s, p->left_s);
    fflush(stderr);
}

/* SIGINT, SIGTERM, SIGHUP.  The first asks the run to stop: the measurement
 * in flight is abandoned (its worker killed), what was measured stays in the
 * journal, and gktune exits with 128 + the signal's number.  A second ends
 * it at once: the worker killed, the temp files of writes in progress
 * removed, then the signal's default action.  Installed without SA_RESTART,
 * so no blocking call goes on after the handler. */
static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
    if (!caught) {
        caught = sig;
        gk_tune_interrupt();
        return;
    }
    gk__tune_abort();
    signal(sig, SIG_DFL);
    raise(sig);                        /* delivered when the handler returns */
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* gktune --stencil=LIST: the generated stencil engine, in this process. */
static int tune_stencil(const char *list, int64_t size, const gk_tune_options *o, int json, int list_only)
{
    if (gk__stencil_gen_check_list(list))
        cli_usage_error("%s", gk_last_error());
    if (list_only || o->kernels || o->sizes || o->exhaustive || o->csv_path)
        cli_usage_error("--stencil takes --stencil-size, --budget, --seed, --json and --quiet only");
    static gk__stencil_gen_tune_row rows[64];
    int n = 0;
    gk_context *ctx = cli_context(GK_BACKEND_AUTO);
    double t0 = gk__wtime();
    gk_status st = gk__stencil_gen_tune_list(ctx, list, size, o->budget_s, o->seed, rows, 64, &n);
    const char *device = n ? rows[0].device : "";
    gk_context_destroy(ctx);
    if (st) cli_die_status(st);
    if (json) {
        json_begin();
        json_str("device", device);
        json_num("seconds", gk__wtime() - t0);
        json_array("results");
        for (int i = 0; i < n; i++) {
            json_object(NULL);
            json_str("stencil", rows[i].shape); json_int("size", rows[i].size); json_str("config", rows[i].config);
            json_num("best_ms", rows[i].best_ms); json_num("default_ms", rows[i].default_ms);
            json_int("measured", rows[i].measured); json_int("failed", rows[i].failed);
            json_int("excluded", rows[i].excluded); json_int("skipped", rows[i].skipped);
            json_str("cache", rows[i].file);
            json_object_end();
        }
        json_array_end();
        json_end();
        return 0;
    }
    printf("gktune --stencil: %s, %.1f s\n", device, gk__wtime() - t0);
    printf("%-24s %6s %11s %11s %8s %8s %6s %8s  %s\n", "stencil", "size", "default ms", "tuned ms", "speedup",
           "measured", "failed", "skipped", "config");
    for (int i = 0; i < n; i++)
        printf("%-24s %6lld %11.4g %11.4g %7.2fx %8d %6d %8d  %s\n", rows[i].shape, (long long)rows[i].size,
               rows[i].default_ms, rows[i].best_ms, rows[i].best_ms > 0 ? rows[i].default_ms / rows[i].best_ms : 0.0,
               rows[i].measured, rows[i].failed, rows[i].skipped, rows[i].config);
    if (n && rows[0].file[0])
        printf("cache: %s\n", rows[0].file);
    return 0;
}

/* gktune --calibrate=sssp: the shortest-path model's rates, in this process. */
static int calibrate_sssp(const char *what, const gk_tune_options *o, int json, int list_only, int stencil)
{
    if (strcmp(what, "sssp"))
        cli_usage_error("--calibrate: '%s': the one calibration is sssp", what);
    if (list_only || stencil || o->kernels || o->sizes || o->exhaustive || o->csv_path)
        cli_usage_error("--calibrate takes --json and --quiet only");
    gk_context *ctx = cli_context(GK_BACKEND_AUTO);
    char text[4096];
    double t0 = gk__wtime();
    gk_status st = gk__sssp_calibrate_save(ctx, text, sizeof text);
    gk_context_destroy(ctx);
    if (st) cli_die_status(st);
    if (json) {
        json_begin();
        json_str("calibrate", "sssp");
        json_num("seconds", gk__wtime() - t0);
        json_str("saved", text);
        json_end();
    } else {
        printf("gktune --calibrate=sssp: %.1f s; rates saved (gk apsp's auto reads them):\n%s", gk__wtime() - t0, text);
    }
    return 0;
}

static int gktune_main(int argc, char **argv)
{
    cli_ignore_file_limits();       /* a cache or CSV past `ulimit -f`: an error, not SIGXFSZ */
    if (argc == 2 && !strcmp(argv[1], "--worker"))   /* the measuring process (internal): */
        return gk__tune_worker_main(cli_context(GK_BACKEND_AUTO), 0, 1);   /* same GPU as the parent */

    static const struct option opts[] = {
        { "budget", required_argument, 0, 'b' }, { "exhaustive", no_argument, 0, 'x' },
        { "kernels", required_argument, 0, 'k' }, { "sizes", required_argument, 0, 's' },
        { "seed", required_argument, 0, 'S' }, { "csv", required_argument, 0, 'c' },
        { "list", no_argument, 0, 'l' }, { "json", no_argument, 0, 'j' },
        { "quiet", no_argument, 0, 'q' }, { "help", no_argument, 0, 'h' },
        { "version", no_argument, 0, 'V' }, { "stencil", required_argument, 0, 'T' },
        { "stencil-size", required_argument, 0, 'Z' }, { "calibrate", required_argument, 0, 'C' },
        { 0, 0, 0, 0 } };
    gk_tune_options o;
    gk_tune_options_init(&o);
    int list = 0, json = 0, quiet = 0, c;
    const char *stencil = NULL, *calibrate = NULL;
    int64_t stencil_size = 0;
    o.budget_s = 120;
    o.seed = 1;
    cli_shortopts = ":qhV";
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case 'b':
            o.budget_s = cli_parse_double("--budget", optarg);
            if (o.budget_s <= 0) cli_usage_error("--budget must be positive");
            break;
        case 'x': o.exhaustive = 1; break;
        case 'k': o.kernels = optarg; break;
        case 's': o.sizes = optarg; break;
        case 'S': o.seed = (uint64_t)cli_parse_i64("--seed", optarg, 0, INT64_MAX); break;
        case 'c': o.csv_path = optarg; break;
        case 'l': list = 1; break;
        case 'j': json = 1; break;
        case 'q': quiet = 1; break;
        case 'T': stencil = optarg; break;
        case 'C': calibrate = optarg; break;
        case 'Z': stencil_size = cli_parse_i64("--stencil-size", optarg, 3, 65536); break;
        case 'h': usage(); return 0;
        case 'V': cli_version(); return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    if (stencil_size && !stencil)
        cli_usage_error("--stencil-size without --stencil");
    if (calibrate)
        return calibrate_sssp(calibrate, &o, json, list, stencil != NULL);
    if (stencil)          /* its own rules (every build: not the kernels' options check) */
        return tune_stencil(stencil, stencil_size, &o, json, list);
    if (gk__tune_options_check(&o))          /* a bad --kernels or --sizes is a usage error */
        cli_usage_error("%s", gk_last_error());
    if (o.csv_path)
        cli_check_output(o.csv_path, NULL);
    if (list && json)
        cli_usage_error("--list prints text: not with --json");

    if (list) {
        static char buf[1 << 16];
        gk_status st = gk_tune_list_spaces(o.kernels, buf, sizeof buf);
        if (st) cli_die_status(st);
        fputs(buf, stdout);
        return 0;
    }
    /* $GK_TUNE_WORKER replaces the measuring command, e.g. to run it under
     * compute-sanitizer: "compute-sanitizer /usr/bin/gktune --worker". */
    char *worker[16] = { "/proc/self/exe", "--worker", NULL };
    const char *wenv = getenv("GK_TUNE_WORKER");
    char *copy = NULL;              /* worker[] points into it: freed after the run */
    if (wenv && *wenv) {
        if (!(copy = strdup(wenv))) cli_die("out of memory");
        int n = 0;
        for (char *w = strtok(copy, " "); w && n < 15; w = strtok(NULL, " "))
            worker[n++] = w;
        worker[n] = NULL;
    }
    o.worker_argv = worker;
    tty = !quiet && isatty(2);
    o.progress = on_progress;
    catch_signals();

    gk_context *ctx = cli_context(GK_BACKEND_AUTO);
    gk_tune_report rep;
    gk_tune_report_init(&rep);
    gk_status st = gk_tune_run(ctx, &o, &rep);
    gk_context_destroy(ctx);
    free(copy);
    if (tty) fputs("\r\033[K", stderr);
    if (*gk__tune_run_note())          /* a damaged cache or journal set aside */
        cli_warn("%s", gk__tune_run_note());
    if (st && !rep.interrupted) cli_die_status(st);
    if (rep.interrupted) {
        fprintf(stderr, "gktune: interrupted after %.0f s; what was measured is kept: run gktune again to resume\n",
                rep.seconds);
        return 128 + (caught ? caught : SIGINT);
    }
    if (json) {
        json_begin();
        json_str("device", rep.device);
        json_num("seconds", rep.seconds);
        json_str("cache", rep.cache_file);
        json_str("csv", rep.csv_file);
        json_array("results");
        for (int i = 0; i < rep.n; i++) {
            const gk_tune_result *r = &rep.r[i];
            char cfg[1024];
            snprintf(cfg, sizeof cfg, "%s", r->best);
            json_object(NULL);
            json_str("kernel", r->kernel); json_int("size", r->size); json_str("config", cfg);
            json_num("best_ms", r->best_ms); json_num("default_ms", r->default_ms);
            json_num("speedup", r->default_ms > 0 ? r->default_ms / r->best_ms : 0);
            json_str("strategy", r->strategy); json_int("space", r->space_size);
            json_int("excluded", r->excluded); json_int("measured", r->measured); json_int("resumed", r->resumed);
            json_object("failed");
            json_int("compile", r->failed_compile); json_int("launch", r->failed_launch);
            json_int("wrong", r->failed_wrong); json_int("fault", r->failed_fault); json_int("timeout", r->failed_timeout);
            json_object_end();
            json_object_end();
        }
        json_array_end();
        json_end();
        return rep.n ? 0 : 1;
    }
    printf("gktune: %s, %.1f s\n", rep.device, rep.seconds);
    printf("%-8s %8s %11s %11s %8s %6s %8s %8s  %-22s %s\n", "kernel", "size", "default ms", "tuned ms",
           "speedup", "space", "excluded", "measured", "failed c/l/w/f/t", "config");
    for (int i = 0; i < rep.n; i++) {
        const gk_tune_result *r = &rep.r[i];
        char cfg[1024], fails[64];
        snprintf(cfg, sizeof cfg, "%s", r->best);
        snprintf(fails, sizeof fails, "%d/%d/%d/%d/%d", r->failed_compile, r->failed_launch, r->failed_wrong,
                 r->failed_fault, r->failed_timeout);
        printf("%-8s %8lld %11.4g %11.4g %7.2fx %6d %8d %8d  %-22s %s\n", r->kernel, (long long)r->size,
               r->default_ms, r->best_ms, r->default_ms > 0 ? r->default_ms / r->best_ms : 0.0, r->space_size,
               r->excluded, r->measured, fails, cfg);
    }
    printf("cache: %s\nmeasurements: %s\n", rep.cache_file, rep.csv_file);
    if (!rep.n)
        cli_die("no configuration could be validated");
    return 0;
}

int main(int argc, char **argv)
{
    cli_prog = cli_cmd = "gktune";
    cli_report_to(NULL);
    return cli_finish(gktune_main(argc, argv));
}
