/* cmd_gemm.c - `gk gemm`, `gk gen matrix` and `gk bench gemm`: option
 * parsing and printing around gk_gemm_run, the matrix files and
 * gk__gemm_bench. */
#include "cli/cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { O_M = 256, O_N, O_K, O_INPUT_A, O_INPUT_B, O_OUTPUT, O_SEED, O_DEVICE, O_CHECK, O_TIME, O_JSON, O_CONFIG,
       O_VERBOSE, O_ROWS, O_COLS, O_SIZES, O_REPS };

static void gemm_usage(void)
{
    printf("Usage: gk gemm --m=M --n=N --k=K [OPTION]...\n"
           "Multiply fp32 matrices: C = A B with A M x K, B K x N, C M x N (row-major).\n\n"
           "  --m=M, --n=N, --k=K  the sizes (each 1..2147483647)\n"
           "  --input-a=FILE     A: raw float32, row-major, M*K*4 bytes (no NaN or Inf)\n"
           "                     (default: a random matrix in [-1,1) from --seed)\n"
           "  --input-b=FILE     B: raw float32, row-major, K*N*4 bytes (no NaN or Inf)\n"
           "                     (default: a random matrix from --seed + 1)\n"
           "  --output=FILE      write C (raw float32, row-major, M*N*4 bytes); without it\n"
           "                     gk prints the summary line of --time instead\n"
           "  --seed=S           seed of the random matrices (default 1)\n"
           "  --device=auto|cpu|gpu  where to run (default auto)\n"
           "  --check            recompute on the CPU and compare: fails when an element\n"
           "                     is off by more than 2*K*eps*sum_k|A_ik||B_kj| + K*FLT_MIN\n"
           "                     (eps = 2^-23)\n"
           "  --config=K=V,...   GPU kernel parameters; they replace the tuned choice\n"
           "                     (unnamed parameters take the built-in defaults)\n"
           "  --time             print the phases and GFLOP/s (2*M*N*K flops)\n"
           "  --json             print the results as JSON\n"
           "  --verbose          say on stderr which device and configuration run\n"
           "  -h, --help         display this help and exit\n");
}

/* A malloc'ed rows x cols matrix, or death with one line. */
static float *matrix_alloc(int64_t rows, int64_t cols, const char *what)
{
    uint64_t bytes = (uint64_t)rows * (uint64_t)cols * 4;
    gk_status st;
    if ((st = gk__host_memory_check(bytes, what)))
        cli_die_status(st);
    float *p = malloc((size_t)bytes);
    if (!p)
        cli_die("out of memory for %s (%.3g GB)", what, (double)bytes / 1e9);
    return p;
}

int cmd_gemm(int argc, char **argv)
{
    static const struct option opts[] = {
        { "m", required_argument, 0, O_M }, { "n", required_argument, 0, O_N }, { "k", required_argument, 0, O_K },
        { "input-a", required_argument, 0, O_INPUT_A }, { "input-b", required_argument, 0, O_INPUT_B },
        { "output", required_argument, 0, O_OUTPUT }, { "seed", required_argument, 0, O_SEED },
        { "device", required_argument, 0, O_DEVICE }, { "check", no_argument, 0, O_CHECK },
        { "time", no_argument, 0, O_TIME }, { "json", no_argument, 0, O_JSON },
        { "config", required_argument, 0, O_CONFIG }, { "verbose", no_argument, 0, O_VERBOSE },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *in_a = NULL, *in_b = NULL, *output = NULL;
    gk_backend want = GK_BACKEND_AUTO;
    gk_gemm_options go;
    gk_gemm_options_init(&go);
    int timing = 0, json = 0, verbose = 0, c;
    int64_t m = 0, n = 0, k = 0;
    uint64_t seed = 1;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_M: m = cli_parse_i64("--m", optarg, 1, INT_MAX); break;
        case O_N: n = cli_parse_i64("--n", optarg, 1, INT_MAX); break;
        case O_K: k = cli_parse_i64("--k", optarg, 1, INT_MAX); break;
        case O_INPUT_A: in_a = cli_path("--input-a", optarg); break;
        case O_INPUT_B: in_b = cli_path("--input-b", optarg); break;
        case O_OUTPUT: output = cli_path("--output", optarg); break;
        case O_SEED: seed = cli_parse_u64("--seed", optarg); break;
        case O_DEVICE: want = cli_parse_device(optarg); break;
        case O_CHECK: go.check = 1; break;
        case O_TIME: timing = 1; break;
        case O_JSON: json = 1; break;
        case O_CONFIG: go.config = optarg; break;
        case O_VERBOSE: verbose = 1; break;
        case 'h': gemm_usage(); return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    if (!m || !n || !k)
        cli_usage_error("--%s is required", !m ? "m" : !n ? "n" : "k");
    cli_report_to(output);          /* --output=-: the reports go to stderr */
    gk_status st;
    if ((st = gk_gemm_check_size(m, n, k)))
        cli_die_status(st);
    cli_check_config("gemm", go.config);
    if (in_a && in_b && !strcmp(in_a, "-") && !strcmp(in_b, "-"))
        cli_usage_error("--input-a and --input-b cannot both be standard input");
    if (output) {
        cli_check_output(output, in_a);
        cli_check_output(output, in_b);
    }
    gk_context *ctx = cli_context(want);
    char what[128];
    snprintf(what, sizeof what, "A, B and C of gemm %lldx%lldx%lld", (long long)m, (long long)n, (long long)k);
    if ((st = gk__host_memory_check(((uint64_t)m * k + (uint64_t)k * n + (uint64_t)m * n) * 4, what)))
        cli_die_status(st);
    float *a = matrix_alloc(m, k, "A"), *b = matrix_alloc(k, n, "B"), *cm = matrix_alloc(m, n, "C");
    double read = -1, write = -1;
    double t0 = gk__wtime();
    if (in_a) {
        if ((st = gk_matrix_read(in_a, m, k, a)))
            cli_die_status(st);
    } else {
        gk_matrix_random(a, m, k, seed);
    }
    if (in_b) {
        if ((st = gk_matrix_read(in_b, k, n, b)))
            cli_die_status(st);
    } else {
        gk_matrix_random(b, k, n, seed + 1);
    }
    if (in_a || in_b)
        read = gk__wtime() - t0;

    gk_report rep;
    gk_gemm_problem prob;
    gk_report_init(&rep);
    gk_gemm_problem_init(&prob, m, n, k);
    st = gk_gemm_run(ctx, &prob, a, b, cm, &go, &rep);
    if (verbose) {
        char w[160];
        snprintf(w, sizeof w, "gemm %lldx%lldx%lld", (long long)m, (long long)n, (long long)k);
        cli_report_verbose(w, &rep);
    }
    if (st == GK_EMISMATCH)
        cli_die("check failed: %s", gk_last_error());
    if (st)
        cli_die_status(st);
    cli_report_notes(&rep);
    if (output) {
        t0 = gk__wtime();
        if ((st = gk_matrix_write(output, m, n, cm)))
            cli_die_status(st);
        write = gk__wtime() - t0;
    }
    free(a);
    free(b);
    free(cm);
    gk_context_destroy(ctx);

    double secs = rep.compute, gf = secs > 0 ? 2.0 * (double)m * (double)n * (double)k / secs * 1e-9 : 0;
    if (json) {
        json_begin();
        json_str("command", "gemm");
        json_int("m", m); json_int("n", n); json_int("k", k);
        cli_json_report(&rep);
        cli_json_times(&rep, read, write);
        json_num("gflop_per_s", gf);
        if (go.check) {
            json_object("check");
            json_str("against", rep.check_against);
            json_num("max_abs", rep.check_max_abs);
            json_num("max_fraction_of_bound", rep.check_max_rel);
            json_str("bound", "2*K*eps*sum_k|A_ik||B_kj| + K*FLT_MIN per element, eps = 2^-23");
            json_bool("ok", rep.checked);
            json_object_end();
        }
        json_end();
        return 0;
    }
    if (timing)
        cli_print_times(&rep, read, write);
    if (timing || !output)              /* without --output this line is all the run shows */
        fprintf(cli_report, "gemm %lldx%lldx%lld on %s: %.6f s, %.2f GFLOP/s%s\n", (long long)m, (long long)n,
                (long long)k, gk_backend_name(rep.backend), secs, gf, output ? "" : CLI_NOT_WRITTEN);
    if (go.check)
        fprintf(cli_report, "check against %s: max abs diff %.3g, %.3g of the bound 2*K*eps*sum|A||B| + K*FLT_MIN: ok\n",
                rep.check_against, rep.check_max_abs, rep.check_max_rel);
    return 0;
}

int cmd_gen_gemm(int argc, char **argv)
{
    static const struct option opts[] = {
        { "rows", required_argument, 0, O_ROWS }, { "cols", required_argument, 0, O_COLS },
        { "seed", required_argument, 0, O_SEED }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    int64_t rows = 0, cols = 0;
    uint64_t seed = 1;
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        if (c == O_ROWS) rows = cli_parse_i64("--rows", optarg, 1, INT_MAX);
        else if (c == O_COLS) cols = cli_parse_i64("--cols", optarg, 1, INT_MAX);
        else if (c == O_SEED) seed = cli_parse_u64("--seed", optarg);
        else if (c == 'h') {
            printf("Usage: gk gen matrix --rows=R --cols=C [--seed=S] OUTPUT\n"
                   "Write a reproducible random matrix (uniform in [-1,1), raw float32, row-major):\n"
                   "`gk gemm` uses the one of seed S as A and the one of seed S+1 as B.\n\n"
                   "  --rows=R           rows (required)\n"
                   "  --cols=C           columns (required)\n"
                   "  --seed=S           random seed (default 1)\n"
                   "  -h, --help         display this help and exit\n");
            return 0;
        }
    }
    if (!rows || !cols)
        cli_usage_error("--%s is required", !rows ? "rows" : "cols");
    cli_operands(argc, argv, 1, "one OUTPUT file");
    gk_status st;
    uint64_t bytes;
    if (__builtin_mul_overflow((uint64_t)rows, (uint64_t)cols, &bytes) || __builtin_mul_overflow(bytes, 4, &bytes)
        || bytes > (uint64_t)PTRDIFF_MAX)
        cli_die("a %lld x %lld float32 matrix does not fit in memory (its bytes overflow)", (long long)rows,
                (long long)cols);
    cli_check_output(argv[optind], NULL);
    float *p = matrix_alloc(rows, cols, "the matrix");
    gk_matrix_random(p, rows, cols, seed);
    if ((st = gk_matrix_write(argv[optind], rows, cols, p)))
        cli_die_status(st);
    free(p);
    return 0;
}

/* a --sizes item: N (M = N = K) or MxNxK, within gemm's limits */
static void check_size(const char *opt, const char *item)
{
    int64_t a, b, d;
    cli_parse_size3(opt, item, &a, &b, &d);
    if (gk_gemm_check_size(a, b, d))
        cli_usage_error("%s: %s", opt, gk_last_error());
}

int cmd_bench_gemm(int argc, char **argv)
{
    static const struct option opts[] = {
        { "device", required_argument, 0, O_DEVICE }, { "sizes", required_argument, 0, O_SIZES },
        { "reps", required_argument, 0, O_REPS }, { "config", required_argument, 0, O_CONFIG },
        { "json", no_argument, 0, O_JSON }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *sizes = NULL, *user_cfg = NULL;
    gk_backend want = GK_BACKEND_AUTO;
    int reps = -1, json = 0, c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_DEVICE: want = cli_parse_device(optarg); break;
        case O_SIZES: sizes = optarg; break;
        case O_REPS: reps = (int)cli_parse_i64("--reps", optarg, 1, 64); break;
        case O_CONFIG: user_cfg = optarg; break;
        case O_JSON: json = 1; break;
        case 'h':
            printf("Usage: gk bench gemm [--device=auto|cpu|gpu] [--sizes=N|MxNxK,...] [--reps=R]\n"
                   "                     [--config=K=V,...] [--json]\n"
                   "Time the fp32 matrix multiply designs against the vendor library in the same\n"
                   "run.  GPU: a naive kernel (one output per thread), the course's 32x32\n"
                   "shared-memory tiles, its 4x4-outputs-per-thread version, the tuned kernel and\n"
                   "cuBLAS SGEMM (opened at run time, strict fp32), with the FP32 FMA ceiling\n"
                   "measured in the same run; default sizes 4096,8192, 5 runs.  CPU: the plain\n"
                   "reference loop (up to 2^30 multiply-adds, one run), the backend for each\n"
                   "instruction set the CPU has and OpenBLAS's cblas_sgemm (opened at run time;\n"
                   "the row says when it is absent); default sizes 1024,2048, 3 runs.  The\n"
                   "median is reported; every row is checked against the plain reference on 66\n"
                   "rows of C under the bound of `gk gemm`'s check.\n\n"
                   "  --device=auto|cpu|gpu  where to run (auto: the GPU when one is usable)\n"
                   "  --sizes=LIST           sizes M=N=K (N) or MxNxK, comma-separated\n"
                   "  --reps=R               timed runs per design (1..64)\n"
                   "  --config=K=V,...       GPU kernel parameters (replace the tuned choice)\n"
                   "  --json                 print the rows as JSON\n"
                   "  -h, --help             display this help and exit\n");
            return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    gk_status st;
    cli_check_config("gemm", user_cfg);
    char list[1024];
    if (sizes)
        cli_check_size_list("--sizes", sizes, check_size);
    int gpu;
    gk_context *ctx = cli_bench_context(want, user_cfg, &gpu);
    if (reps < 0) reps = gpu ? 5 : 3;
    snprintf(list, sizeof list, "%s", sizes ? sizes : gpu ? "4096,8192" : "1024,2048");
    if (json) { json_begin(); json_str("command", "bench gemm"); json_str("device", gpu ? "gpu" : "cpu");
                json_int("reps", reps); json_array("rows"); }
    int first = 1, bad = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int64_t m, n, k;
        cli_parse_size3("--sizes", tok, &m, &n, &k);
        gk__gemm_bench_report R;
        if ((st = gk__gemm_bench(ctx, m, n, k, reps, user_cfg, &R)))
            cli_die_status(st);
        const char *vendor = gpu ? "cuBLAS" : "OpenBLAS";
        if (first && !json) {
            printf("gk bench gemm: %s; fp32 C = A B (M x K times K x N), GFLOP/s = 2MNK/s, median\n"
                   "  of %d runs; %%%s = of the %s row of the same size; check: 66 rows vs the plain reference\n",
                   R.device, reps, gpu ? "cuBLAS" : "OpenBLAS", vendor);
            printf("%-16s %-10s %10s %10s %8s  %-24s %s\n", "MxNxK", "kernel", "ms", "GFLOP/s",
                   gpu ? "%cuBLAS" : "%OpenBLAS", "check", "config");
        }
        first = 0;
        char sz[64];
        snprintf(sz, sizeof sz, "%lldx%lldx%lld", (long long)m, (long long)n, (long long)k);
        for (int i = 0; i < R.nrows; i++) {
            const gk__gemm_bench_row *r = &R.row[i];
            int notrun = !strncmp(r->check, "not run", 7);
            bad |= !r->ok && !notrun;
            if (json) {
                json_object(NULL);
                json_str("size", sz); json_str("kernel", r->kernel);
                json_num("ms", r->ms); json_num("gflop_per_s", r->gflops);
                json_num("percent_of_vendor", r->pct_vendor);
                json_num("percent_of_peak", R.peak_gflops > 0 ? 100 * r->gflops / R.peak_gflops : 0);
                json_str("check", r->check); json_bool("ok", r->ok); json_str("config", r->config);
                json_str("vendor", R.vendor);
                json_num("peak_gflop_per_s", R.peak_gflops);
                json_object_end();
            } else if (notrun) {
                printf("%-16s %-10s  %s\n", sz, r->kernel, r->check);
            } else {
                char pct[16] = "-";
                if (r->pct_vendor > 0) snprintf(pct, sizeof pct, "%.1f%%", r->pct_vendor);
                printf("%-16s %-10s %10.3f %10.1f %8s  %-24s %s\n", sz, r->kernel, r->ms, r->gflops, pct, r->check,
                       r->config);
            }
        }
        if (!json && R.peak_gflops > 0)
            printf("%-16s fp32 FMA chains: %.1f TFLOP/s (the FP32 ceiling, same run)\n", sz, R.peak_gflops * 1e-3);
        fflush(stdout);
    }
    if (json) { json_array_end(); json_end(); }
    gk_context_destroy(ctx);
    if (bad) cli_die("bench gemm: a design failed its check");
    return 0;
}
