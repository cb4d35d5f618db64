/* cmd_elementwise.c - `gk elementwise`, `gk gen elementwise` and `gk bench
 * elementwise`: option parsing and printing around gk_elementwise_run, the
 * matrix files and gk__elementwise_bench. */
#include "cli/cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { O_SIZE = 256, O_ITERS, O_INPUT, O_OUTPUT, O_SEED, O_DEVICE, O_CHECK, O_TIME, O_JSON, O_CONFIG,
       O_VERBOSE, O_SIZES, O_REPS };

/* "DIMXxDIMY" or "N" (N x N): usage error naming opt on anything else,
 * sizes < 1, or a matrix whose bytes do not fit. */
static void parse_size2(const char *opt, const char *text, int64_t *dimx, int64_t *dimy)
{
    char buf[64];
    if (strlen(text) >= sizeof buf)
        cli_usage_error("%s: '%.40s...' is too long for a size", opt, text);
    snprintf(buf, sizeof buf, "%s", text);
    char *x = strchr(buf, 'x');
    if (x) *x = '\0';
    if (gk__parse_i64(opt, buf, INT64_MIN, INT64_MAX, dimx)
        || (x && gk__parse_i64(opt, x + 1, INT64_MIN, INT64_MAX, dimy)))
        cli_usage_error("%s: '%s' is not a size (want DIMXxDIMY or N)", opt, text);
    if (!x) *dimy = *dimx;
    if (gk_elementwise_check_size(*dimx, *dimy, 0))
        cli_usage_error("%s: %s", opt, gk_last_error());
}

static void elementwise_usage(void)
{
    printf("Usage: gk elementwise --size=DIMXxDIMY [--iterations=N] [OPTION]...\n"
           "Update every element v of a float matrix (row-major, DIMX columns) N times by\n"
           "v = v + sqrtf(f(v) + 1), f = logf, cosf, sinf, tanf for column %% 4 = 0, 1, 2, 3.\n\n"
           "  --size=DIMXxDIMY|N     matrix size (one number: a square)\n"
           "  --iterations=N         iterations (>= 0; default 100)\n"
           "  --input=FILE           initial matrix: raw float32, row-major, DIMX*DIMY*4\n"
           "                         bytes\n"
           "                         (default: random in [1,2) from --seed)\n"
           "  --output=FILE          write the matrix after N iterations (same format);\n"
           "                         without it gk prints the summary line of --time\n"
           "  --seed=S               seed of the random matrix (default 1)\n"
           "  --device=auto|cpu|gpu  where to run (default auto)\n"
           "  --check                check each element's first and last iteration against\n"
           "                         its one-step enclosure: f within the libm's ulps (GPU:\n"
           "                         logf 1, cosf 2, sinf 2, tanf 4; CPU: 1), +1, sqrtf, +\n"
           "                         IEEE-rounded; NaN exactly where f(v)+1 < 0 is certain\n"
           "  --config=K=V,...       GPU kernel parameters; they replace the tuned choice\n"
           "  --time                 print the phases and the element-iterations per second\n"
           "  --json                 print the results as JSON\n"
           "  --verbose              say on stderr which device and configuration run\n"
           "  -h, --help             display this help and exit\n");
}

int cmd_elementwise(int argc, char **argv)
{
    static const struct option opts[] = {
        { "size", required_argument, 0, O_SIZE }, { "iterations", required_argument, 0, O_ITERS },
        { "input", required_argument, 0, O_INPUT }, { "output", required_argument, 0, O_OUTPUT },
        { "seed", required_argument, 0, O_SEED }, { "device", required_argument, 0, O_DEVICE },
        { "check", no_argument, 0, O_CHECK }, { "time", no_argument, 0, O_TIME }, { "json", no_argument, 0, O_JSON },
        { "config", required_argument, 0, O_CONFIG }, { "verbose", no_argument, 0, O_VERBOSE },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *size = NULL, *input = NULL, *output = NULL;
    gk_backend want = GK_BACKEND_AUTO;
    gk_elementwise_options eo;
    gk_elementwise_options_init(&eo);
    int timing = 0, json = 0, verbose = 0, c;
    int64_t niter = 100;
    uint64_t seed = 1;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_SIZE: size = optarg; break;
        case O_ITERS: niter = cli_parse_i64("--iterations", optarg, 0, INT_MAX); break;
        case O_INPUT: input = cli_path("--input", optarg); break;
        case O_OUTPUT: output = cli_path("--output", optarg); break;
        case O_SEED: seed = cli_parse_u64("--seed", optarg); break;
        case O_DEVICE: want = cli_parse_device(optarg); break;
        case O_CHECK: eo.check = 1; break;
        case O_TIME: timing = 1; break;
        case O_JSON: json = 1; break;
        case O_CONFIG: eo.config = optarg; break;
        case O_VERBOSE: verbose = 1; break;
        case 'h': elementwise_usage(); return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    if (!size)
        cli_usage_error("--size is required");
    cli_report_to(output);
    int64_t dimx, dimy;
    parse_size2("--size", size, &dimx, &dimy);
    gk_status st;
    cli_check_config("elementwise", eo.config);
    if (output)
        cli_check_output(output, input);
    gk_context *ctx = cli_context(want);
    uint64_t n = (uint64_t)dimx * (uint64_t)dimy, bytes = n * sizeof(float);
    char what[96];
    snprintf(what, sizeof what, "elementwise matrix %lldx%lld", (long long)dimx, (long long)dimy);
    if ((st = gk__host_memory_check(bytes, what)))
        cli_die_status(st);
    float *a = malloc((size_t)bytes);
    if (!a)
        cli_die("out of memory for the %s (%.3g GB)", what, (double)bytes / 1e9);
    double read = -1, write = -1;
    if (input) {
        double t0 = gk__wtime();
        if ((st = gk_elementwise_read(input, dimx, dimy, a)))
            cli_die_status(st);
        read = gk__wtime() - t0;
    } else {
        gk_elementwise_random(a, dimx, dimy, seed);
    }
    gk_report rep;
    gk_elementwise_problem prob;
    gk_report_init(&rep);
    gk_elementwise_problem_init(&prob, dimx, dimy);
    st = gk_elementwise_run(ctx, &prob, a, niter, &eo, &rep);
    if (verbose) {
        char w[160];
        snprintf(w, sizeof w, "elementwise %lldx%lld, %lld iterations", (long long)dimx, (long long)dimy,
                 (long long)niter);
        cli_report_verbose(w, &rep);
    }
    if (st == GK_EMISMATCH)
        cli_die("check failed: %s", gk_last_error());
    if (st)
        cli_die_status(st);
    cli_report_notes(&rep);
    if (output) {
        double t0 = gk__wtime();
        if ((st = gk_elementwise_write(output, dimx, dimy, a)))
            cli_die_status(st);
        write = gk__wtime() - t0;
    }
    free(a);
    gk_context_destroy(ctx);
    double secs = rep.compute;
    double rate = secs > 0 ? (double)n * (double)niter / secs * 1e-9 : 0;
    if (json) {
        json_begin();
        json_str("command", "elementwise");
        json_int("dimx", dimx); json_int("dimy", dimy);
        json_int("iterations", niter);
        cli_json_report(&rep);
        cli_json_times(&rep, read, write);
        json_num("gelem_iter_per_s", rate);
        if (eo.check) {
            json_object("check");
            json_str("against", rep.check_against);
            json_num("max_ulp_from_correctly_rounded", rep.check_max_abs);
            json_num("tolerance_ulp", rep.check_tolerance);
            json_bool("ok", rep.checked);
            json_object_end();
        }
        json_end();
        return 0;
    }
    if (timing)
        cli_print_times(&rep, read, write);
    if (timing || !output)              /* without --output this line is all the run shows */
        fprintf(cli_report, "elementwise %lldx%lld, %lld iterations on %s: %.6f s, %.3f G element-iterations/s%s\n",
                (long long)dimx, (long long)dimy, (long long)niter, gk_backend_name(rep.backend), secs, rate,
                output ? "" : CLI_NOT_WRITTEN);
    if (eo.check)
        fprintf(cli_report, "check against %s: every element within (largest distance from the correctly "
                "rounded step %.3g ulp, libm tolerance up to %.0f ulp): ok\n", rep.check_against, rep.check_max_abs,
                rep.check_tolerance);
    return 0;
}

int cmd_gen_elementwise(int argc, char **argv)
{
    const char *size;
    uint64_t seed;
    if (cli_gen_args(argc, argv,
                     "Usage: gk gen elementwise --size=DIMXxDIMY [--seed=S] OUTPUT\n"
                     "Write a reproducible random matrix (uniform in [1,2), raw float32, row-major):\n"
                     "the initial matrix `gk elementwise` uses for the same size and seed.\n\n"
                     "  --size=DIMXxDIMY|N     matrix size (required)\n"
                     "  --seed=S               random seed (default 1)\n"
                     "  -h, --help             display this help and exit\n", &size, &seed))
        return 0;
    int64_t dimx, dimy;
    parse_size2("--size", size, &dimx, &dimy);
    cli_check_output(argv[optind], NULL);
    uint64_t bytes = (uint64_t)dimx * (uint64_t)dimy * sizeof(float);
    char what[96];
    snprintf(what, sizeof what, "matrix %lldx%lld", (long long)dimx, (long long)dimy);
    gk_status st;
    if ((st = gk__host_memory_check(bytes, what)))
        cli_die_status(st);
    float *a = malloc((size_t)bytes);
    if (!a)
        cli_die("out of memory for the %s", what);
    gk_elementwise_random(a, dimx, dimy, seed);
    if ((st = gk_elementwise_write(argv[optind], dimx, dimy, a)))
        cli_die_status(st);
    free(a);
    return 0;
}

/* a --sizes item: DIMXxDIMY */
static void check_size(const char *opt, const char *item)
{
    int64_t a, b;
    parse_size2(opt, item, &a, &b);
}

int cmd_bench_elementwise(int argc, char **argv)
{
    static const struct option opts[] = {
        { "device", required_argument, 0, O_DEVICE }, { "sizes", required_argument, 0, O_SIZES },
        { "iterations", required_argument, 0, O_ITERS }, { "reps", required_argument, 0, O_REPS },
        { "config", required_argument, 0, O_CONFIG }, { "json", no_argument, 0, O_JSON },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *sizes = NULL, *user_cfg = NULL;
    gk_backend want = GK_BACKEND_AUTO;
    int niter = 100, reps = -1, json = 0, c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_DEVICE: want = cli_parse_device(optarg); break;
        case O_SIZES: sizes = optarg; break;
        case O_ITERS: niter = (int)cli_parse_i64("--iterations", optarg, 1, INT_MAX); break;
        case O_REPS: reps = (int)cli_parse_i64("--reps", optarg, 1, 64); break;
        case O_CONFIG: user_cfg = optarg; break;
        case O_JSON: json = 1; break;
        case 'h':
            printf("Usage: gk bench elementwise [--device=auto|cpu|gpu] [--sizes=DIMXxDIMY,...]\n"
                   "                            [--iterations=N] [--reps=R] [--config=K=V,...]\n"
                   "                            [--json]\n"
                   "Time the elementwise designs on a random matrix in [1,2).  GPU: the report's\n"
                   "baseline (one element per thread, a switch on column %% 4), its float4 design\n"
                   "(one float4 per thread), the tuned kernel (and, if it skips converged lanes,\n"
                   "the same without SKIP), and the ceiling measured in the same run (the four\n"
                   "steps at full occupancy, no loads in the loop); median of R runs\n"
                   "(default 5) on 8192x8192.  CPU: the plain reference loop (one run) and the\n"
                   "backend (default 3 runs) on 1024x1024.  N defaults to 100.  Each design's\n"
                   "result is checked: its first and its last iteration against the one-step\n"
                   "enclosures (as --check of gk elementwise).\n\n"
                   "  --device=auto|cpu|gpu  where to run (auto: the GPU when one is usable)\n"
                   "  --sizes=LIST           matrix sizes, comma-separated\n"
                   "  --iterations=N         iterations per timed run\n"
                   "  --reps=R               timed runs per design (1..64)\n"
                   "  --config=K=V,...       GPU kernel parameters (replace the tuned choice)\n"
                   "  --json                 print the rows as JSON\n"
                   "  -h, --help             display this help and exit\n");
            return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    gk_status st;
    cli_check_config("elementwise", user_cfg);
    char list[1024];
    if (sizes)
        cli_check_size_list("--sizes", sizes, check_size);
    int gpu;
    gk_context *ctx = cli_bench_context(want, user_cfg, &gpu);
    if (reps < 0) reps = gpu ? 5 : 3;
    snprintf(list, sizeof list, "%s", sizes ? sizes : gpu ? "8192x8192" : "1024x1024");
    if (json) { json_begin(); json_str("command", "bench elementwise"); json_str("device", gpu ? "gpu" : "cpu");
                json_int("iterations", niter); json_int("reps", reps); json_array("rows"); }
    int first = 1, bad = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int64_t dimx, dimy;
        parse_size2("--sizes", tok, &dimx, &dimy);
        gk__elementwise_bench_report R;
        if ((st = gk__elementwise_bench(ctx, dimx, dimy, niter, reps, user_cfg, &R)))
            cli_die_status(st);
        if (first && !json) {
            printf("gk bench elementwise: %s; %d iterations, median of %d runs; x = speed over the\n"
                   "  first row; %%ceil = element-iterations/s over the ceiling row\n", R.device, niter, reps);
            printf("%-12s %-12s %10s %12s %8s %6s  %-22s %s\n", "size", "kernel", "ms", "Gelem-it/s", "x", "%ceil",
                   "check", "config");
        }
        first = 0;
        for (int i = 0; i < R.nrows; i++) {
            const gk__elementwise_bench_row *r = &R.row[i];
            bad |= !r->ok && strncmp(r->check, "not run", 7);
            double pc = R.ceiling_gelem_iters > 0 ? 100 * r->gelem_iters / R.ceiling_gelem_iters : 0;
            if (json) {
                json_object(NULL);
                json_str("size", tok); json_str("kernel", r->kernel);
                json_num("ms", r->ms); json_num("gelem_iter_per_s", r->gelem_iters);
                json_num("speedup", r->speedup); json_num("percent_of_ceiling", pc);
                json_str("check", r->check); json_bool("ok", r->ok); json_str("config", r->config);
                json_object_end();
            } else if (!strncmp(r->check, "not run", 7)) {
                printf("%-12s %-12s  %s\n", tok, r->kernel, r->check);
            } else {
                char pcs[16] = "     -";
                if (R.ceiling_gelem_iters > 0) snprintf(pcs, sizeof pcs, "%5.1f%%", pc);
                printf("%-12s %-12s %10.3f %12.2f %8.2f %6s  %-22s %s\n", tok, r->kernel, r->ms, r->gelem_iters,
                       r->speedup, pcs, r->check, r->config);
            }
        }
        fflush(stdout);
    }
    if (json) { json_array_end(); json_end(); }
    gk_context_destroy(ctx);
    if (bad) cli_die("bench elementwise: a design failed its check");
    return 0;
}
