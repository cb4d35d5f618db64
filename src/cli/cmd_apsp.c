/* cmd_apsp.c - `gk apsp`, `gk gen apsp` and `gk bench apsp`: option parsing
 * and printing around libgk's APSP functions. */
#include "cli/cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { O_DEVICE = 256, O_CHECK, O_TIME, O_JSON, O_VERBOSE, O_CONFIG, O_HELP,
       O_VERTICES, O_EDGES, O_SEED, O_MAXW, O_SIZES };

static gk_backend parse_device(const char *text)
{
    gk_backend b;
    if (gk_backend_parse(text, &b) != GK_OK)
        cli_usage_error("--device: %s", gk_last_error());
    return b;
}

static const char *gpu_name(char *buf, size_t n)
{
    gk_device_info d;
    if (gk_gpu_info(gk_gpu_ordinal(), &d) == GK_OK)
        snprintf(buf, n, "%s", d.name);
    else
        snprintf(buf, n, "unknown GPU");
    return buf;
}

/* The configuration: --config if given, else gk_tune_select's choice. */
static void choose_config(const char *user, int64_t size, gk_config *cfg, gk_config_source *src,
                          char *detail, size_t n)
{
    if (user) {
        gk_config_clear(cfg);
        if (gk_config_parse(user, cfg) != GK_OK)
            cli_usage_error("--config: %s", gk_last_error());
        *src = GK_CONFIG_USER;
        snprintf(detail, n, "given on the command line");
        return;
    }
    if (gk_tune_select("apsp", size, cfg, src, detail, n) != GK_OK)
        cli_die_status(GK_EINTERNAL);
}

static void apsp_usage(void)
{
    printf("Usage: gk apsp [OPTION]... INPUT OUTPUT\n"
           "All-pairs shortest paths by blocked Floyd-Warshall.  INPUT: int32 V, int32 E,\n"
           "E triples int32 (src, dst, w); OUTPUT: the V x V int32 distance matrix\n"
           "(unreachable: 1073741823).\n\n"
           "  --device=auto|cpu|gpu  where to run (auto: the GPU when one is usable)\n"
           "  --check                recompute on the CPU and compare every entry\n"
           "  --time                 print the time of each phase\n"
           "  --json                 print the same as one JSON object on stdout\n"
           "  --config=K=V,...       GPU kernel parameters (default: the tuning cache)\n"
           "  --verbose              say which device and configuration run\n"
           "  --help                 display this help and exit\n");
}

int cmd_apsp(int argc, char **argv)
{
    static const struct option opts[] = {
        { "device", required_argument, 0, O_DEVICE }, { "check", no_argument, 0, O_CHECK },
        { "time", no_argument, 0, O_TIME }, { "json", no_argument, 0, O_JSON },
        { "verbose", no_argument, 0, O_VERBOSE }, { "config", required_argument, 0, O_CONFIG },
        { "help", no_argument, 0, O_HELP }, { 0, 0, 0, 0 } };
    gk_backend want = GK_BACKEND_AUTO, dev;
    int check = 0, timing = 0, json = 0, verbose = 0, c;
    const char *user_cfg = NULL;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case O_DEVICE: want = parse_device(optarg); break;
        case O_CHECK: check = 1; break;
        case O_TIME: timing = 1; break;
        case O_JSON: json = 1; break;
        case O_VERBOSE: verbose = 1; break;
        case O_CONFIG: user_cfg = optarg; break;
        case O_HELP: apsp_usage(); return 0;
        default: cli_usage_error("apsp: bad option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        cli_usage_error("apsp: want INPUT and OUTPUT (got %d argument%s)", argc - optind, argc - optind == 1 ? "" : "s");
    const char *in = argv[optind], *out = argv[optind + 1];
    cli_check_output(out, in);

    gk_status st;
    if ((st = gk_backend_resolve(want, &dev)))
        cli_die_status(st);

    gk_apsp_times t = { 0 };
    int32_t *d, *ref = NULL, V, maxw;
    int64_t E;
    double t0 = gk_wtime();
    if ((st = gk_apsp_read(in, &d, &V, &E, &maxw)))
        cli_die_status(st);
    t.read = gk_wtime() - t0;
    if ((double)(V - 1) * maxw >= GK_APSP_INF)
        fprintf(stderr, "%s: warning: %s: (V - 1) * max weight = %.0f: paths that long are reported as unreachable\n",
                cli_prog, in, (double)(V - 1) * maxw);

    gk_config cfg;
    gk_config_source src = GK_CONFIG_DEFAULT;
    char detail[256] = "", cfgtext[256] = "", name[256] = "--device=cpu";
    if (dev == GK_BACKEND_CPU && want == GK_BACKEND_AUTO) {   /* say why not the GPU */
        char why[200];
        gk_gpu_usable(why, sizeof why);
        snprintf(name, sizeof name, "no usable GPU: %s", why);
    }
    if (dev == GK_BACKEND_GPU) {
        choose_config(user_cfg, V, &cfg, &src, detail, sizeof detail);
        gk_config_format(&cfg, cfgtext, sizeof cfgtext);
        gpu_name(name, sizeof name);
    }
    if (verbose || timing)
        fprintf(stderr, "%s: apsp: V = %d, E = %lld on the %s (%s)%s%s%s%s%s\n", cli_prog, V, (long long)E,
                dev == GK_BACKEND_GPU ? "GPU" : "CPU", name,
                dev == GK_BACKEND_GPU ? "; config " : "", dev == GK_BACKEND_GPU ? (*cfgtext ? cfgtext : "defaults") : "",
                dev == GK_BACKEND_GPU ? " (" : "", dev == GK_BACKEND_GPU ? gk_config_source_name(src) : "",
                dev == GK_BACKEND_GPU ? ")" : "");

    /* The peak: the matrix, the CPU solver's padded copy (CPU run or
     * --check) and the --check copy; refuse before the OOM killer would. */
    {
        int copies = 1 + (check || dev == GK_BACKEND_CPU) + check;
        char what[4200];
        snprintf(what, sizeof what, "%s: V = %d on the %s%s (%d V x V int32 matrices)", in, V,
                 dev == GK_BACKEND_GPU ? "GPU" : "CPU", check ? " with --check" : "", copies);
        if ((st = gk_host_memory_check((uint64_t)copies * (uint64_t)V * (uint64_t)V * sizeof *d, what)))
            cli_die_status(st);
    }
    if (check) {
        size_t bytes = (size_t)V * (size_t)V * sizeof *d;
        if (!(ref = malloc(bytes)))
            cli_die("apsp: --check needs a second %zu-byte matrix: out of memory", bytes);
        memcpy(ref, d, bytes);
    }
    if (dev == GK_BACKEND_GPU) {
        st = gk_apsp_gpu_solve(d, V, &cfg, &t);
    } else {
        t0 = gk_wtime();
        st = gk_apsp_cpu(d, V);
        t.compute = gk_wtime() - t0;
    }
    if (st)
        cli_die_status(st);
    const char *checked = "not run";
    if (check) {
        /* an independent computation: the blocked CPU code checks the GPU,
         * the plain k-i-j loop checks the blocked CPU code */
        st = dev == GK_BACKEND_GPU ? gk_apsp_cpu(ref, V) : gk_apsp_cpu_simple(ref, V);
        if (st || (st = gk_apsp_compare(d, ref, V, dev == GK_BACKEND_GPU ? "--check: GPU vs CPU" : "--check: blocked vs plain CPU loop")))
            cli_die_status(st);
        checked = "passed";
        free(ref);
    }
    t0 = gk_wtime();
    if ((st = gk_apsp_write(out, d, V)))
        cli_die_status(st);
    t.write = gk_wtime() - t0;
    free(d);

    double total = t.read + t.h2d + t.compute + t.d2h + t.write;
    double rate = t.compute > 0 ? (double)V * V * V / t.compute : 0;
    if (json) {
        json_begin();
        json_str("input", in); json_str("output", out);
        json_int("vertices", V); json_int("edges", E);
        json_str("device", dev == GK_BACKEND_GPU ? "gpu" : "cpu"); json_str("device_name", name);
        if (dev == GK_BACKEND_GPU) {
            json_str("config", cfgtext); json_str("config_source", gk_config_source_name(src));
        }
        json_str("check", checked);
        json_object("seconds");
        json_num("read", t.read); json_num("host_to_device", t.h2d); json_num("compute", t.compute);
        json_num("device_to_host", t.d2h); json_num("write", t.write); json_num("total", total);
        json_object_end();
        json_num("min_plus_per_second", rate);
        json_end();
    } else if (timing) {   /* --json carries the same numbers; stdout stays one JSON object */
        printf("%-16s %12s %8s\n", "phase", "seconds", "share");
        const char *names[] = { "read", "host->device", "compute", "device->host", "write" };
        double v[] = { t.read, t.h2d, t.compute, t.d2h, t.write };
        for (int i = 0; i < 5; i++)
            printf("%-16s %12.6f %7.1f%%\n", names[i], v[i], total > 0 ? 100 * v[i] / total : 0);
        printf("%-16s %12.6f %7.1f%%\n", "total", total, 100.0);
        printf("compute rate     %.3f G min-plus/s (V^3 / compute time); check %s\n", rate / 1e9, checked);
    }
    return 0;
}

int cmd_gen_apsp(int argc, char **argv)
{
    static const struct option opts[] = {
        { "vertices", required_argument, 0, O_VERTICES }, { "edges", required_argument, 0, O_EDGES },
        { "seed", required_argument, 0, O_SEED }, { "max-weight", required_argument, 0, O_MAXW },
        { "help", no_argument, 0, O_HELP }, { 0, 0, 0, 0 } };
    int64_t V = -1, E = -1, seed = 1, maxw = 1000;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case O_VERTICES: V = cli_parse_i64("--vertices", optarg, 1, INT32_MAX); break;
        case O_EDGES: E = cli_parse_i64("--edges", optarg, 0, INT32_MAX); break;
        case O_SEED: seed = cli_parse_i64("--seed", optarg, 0, INT64_MAX); break;
        case O_MAXW: maxw = cli_parse_i64("--max-weight", optarg, 0, GK_APSP_MAX_WEIGHT); break;
        case O_HELP:
            printf("Usage: gk gen apsp --vertices=N --edges=M [--seed=S] [--max-weight=W] OUTPUT\n"
                   "Write a reproducible random graph in the NTHU APSP format: M edges with\n"
                   "uniform endpoints (no self-loops when N > 1) and weights uniform in [0, W]\n"
                   "(default 1000); the same seed (default 1) gives the same file.\n");
            return 0;
        default: cli_usage_error("gen apsp: bad option '%s'", argv[optind - 1]);
        }
    }
    if (V < 0 || E < 0)
        cli_usage_error("gen apsp: --vertices and --edges are required");
    if (argc - optind != 1)
        cli_usage_error("gen apsp: want one OUTPUT file (got %d arguments)", argc - optind);
    cli_check_output(argv[optind], NULL);
    gk_status st = gk_apsp_generate(argv[optind], (int32_t)V, E, (uint64_t)seed, (int32_t)maxw);
    if (st)
        cli_die_status(st);
    return 0;
}

/* "1024,2048" -> sizes; usage error on anything else. */
static int parse_sizes(const char *text, int32_t *sizes, int max)
{
    int n = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == max)
            cli_usage_error("--sizes: at most %d sizes", max);
        sizes[n++] = (int32_t)cli_parse_i64("--sizes", tok, 1, 1000000);
    }
    if (!n)
        cli_usage_error("--sizes: no size given");
    return n;
}

static int bench_cpu(const int32_t *sizes, int ns, int json)
{
    if (json) { json_begin(); json_str("device", "cpu"); json_array("rows"); }
    else printf("gk bench apsp on the CPU: blocked Floyd-Warshall vs the plain omp parallel for/simd k-i-j loop\n"
                "%7s %10s %12s %12s %12s %9s %5s\n", "n", "seconds", "G minplus/s", "baseline s", "base G/s", "speed-up", "same");
    int bad = 0;
    for (int s = 0; s < ns; s++) {
        int32_t n = sizes[s];
        size_t bytes = (size_t)n * n * sizeof(int32_t);
        int32_t *a = malloc(bytes), *b = malloc(bytes);
        if (!a || !b)
            cli_die("bench apsp: n = %d needs two %zu-byte matrices", n, bytes);
        gk_status st = gk_apsp_random_matrix(a, n, 0.3, 20261122, 1000);
        if (st) cli_die_status(st);
        memcpy(b, a, bytes);
        double t0 = gk_wtime();
        if ((st = gk_apsp_cpu(a, n))) cli_die_status(st);
        double t1 = gk_wtime();
        if ((st = gk_apsp_cpu_simple(b, n))) cli_die_status(st);
        double t2 = gk_wtime();
        int same = gk_apsp_compare(a, b, n, "bench") == GK_OK;
        bad |= !same;
        double ops = (double)n * n * n;
        if (json) {
            json_object(NULL);
            json_int("n", n); json_num("seconds", t1 - t0); json_num("gmps", ops / (t1 - t0) / 1e9);
            json_num("baseline_seconds", t2 - t1); json_num("baseline_gmps", ops / (t2 - t1) / 1e9);
            json_num("speedup", (t2 - t1) / (t1 - t0)); json_bool("identical", same);
            json_object_end();
        } else {
            printf("%7d %10.4f %12.2f %12.4f %12.2f %8.2fx %5s\n", n, t1 - t0, ops / (t1 - t0) / 1e9,
                   t2 - t1, ops / (t2 - t1) / 1e9, (t2 - t1) / (t1 - t0), same ? "yes" : "NO");
            fflush(stdout);
        }
        free(a);
        free(b);
    }
    if (json) { json_array_end(); json_end(); }
    if (bad) cli_die("bench apsp: the blocked and plain CPU results differ");
    return 0;
}

static int bench_gpu(const int32_t *sizes, int ns, const char *user_cfg, int json)
{
    if (json) { json_begin(); json_str("device", "gpu"); json_array("rows"); }
    for (int s = 0; s < ns; s++) {
        gk_config cfg;
        gk_config_source src;
        char detail[256];
        choose_config(user_cfg, sizes[s], &cfg, &src, detail, sizeof detail);
        gk_apsp_bench_row r;
        gk_status st = gk_apsp_bench_gpu(sizes[s], &cfg, &r);
        if (st)
            cli_die_status(st);
        double pct = 100 * r.tmps / r.ceiling_tmps, up = r.base_seconds / r.seconds;
        if (json) {
            json_object(NULL);
            json_int("n", r.n); json_str("gpu", r.device); json_str("config", r.config);
            json_str("config_source", gk_config_source_name(src));
            json_num("seconds", r.seconds); json_num("tmps", r.tmps); json_num("ceiling_tmps", r.ceiling_tmps);
            json_num("percent_of_ceiling", pct); json_num("baseline_seconds", r.base_seconds);
            json_num("baseline_tmps", r.base_tmps); json_num("speedup", up); json_bool("identical", r.identical);
            json_object_end();
        } else {
            if (s == 0)
                printf("gk bench apsp on %s, config %s (%s)\n"
                       "compute phase only; T min-plus/s = n^3 / seconds; ceiling = chains of independent\n"
                       "min(a+b,c) measured in the same run; baseline = classic 64x64-tile, 32x32-thread kernel\n"
                       "%7s %10s %12s %10s %10s %12s %12s %9s %5s\n", r.device, r.config, gk_config_source_name(src),
                       "n", "seconds", "T minplus/s", "ceiling", "% ceiling", "baseline s", "base T/s", "speed-up", "same");
            printf("%7d %10.4f %12.3f %10.2f %9.1f%% %12.4f %12.3f %8.2fx %5s\n", r.n, r.seconds, r.tmps,
                   r.ceiling_tmps, pct, r.base_seconds, r.base_tmps, up, r.identical ? "yes" : "NO");
            fflush(stdout);
        }
    }
    if (json) { json_array_end(); json_end(); }
    return 0;
}

int cmd_bench_apsp(int argc, char **argv)
{
    static const struct option opts[] = {
        { "device", required_argument, 0, O_DEVICE }, { "sizes", required_argument, 0, O_SIZES },
        { "config", required_argument, 0, O_CONFIG }, { "json", no_argument, 0, O_JSON },
        { "help", no_argument, 0, O_HELP }, { 0, 0, 0, 0 } };
    gk_backend want = GK_BACKEND_AUTO, dev;
    const char *sizes_text = NULL, *user_cfg = NULL;
    int json = 0, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case O_DEVICE: want = parse_device(optarg); break;
        case O_SIZES: sizes_text = optarg; break;
        case O_CONFIG: user_cfg = optarg; break;
        case O_JSON: json = 1; break;
        case O_HELP:
            printf("Usage: gk bench apsp [--device=auto|cpu|gpu] [--sizes=N,...] [--config=K=V,...] [--json]\n"
                   "GPU: time the blocked Floyd-Warshall kernel (compute phase) against the classic\n"
                   "64x64-tile baseline kernel and the device's min-plus ceiling measured in the same\n"
                   "run, on random graphs made in memory (default sizes 4096,16384,25000).\n"
                   "CPU: the blocked OpenMP/SIMD code against the plain k-i-j loop (default 1024,2048).\n");
            return 0;
        default: cli_usage_error("bench apsp: bad option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        cli_usage_error("bench apsp: unexpected argument '%s'", argv[optind]);
    gk_status st;
    if ((st = gk_backend_resolve(want, &dev)))
        cli_die_status(st);
    int32_t sizes[32];
    int ns = parse_sizes(sizes_text ? sizes_text : dev == GK_BACKEND_GPU ? "4096,16384,25000" : "1024,2048",
                         sizes, 32);
    return dev == GK_BACKEND_GPU ? bench_gpu(sizes, ns, user_cfg, json) : bench_cpu(sizes, ns, json);
}
