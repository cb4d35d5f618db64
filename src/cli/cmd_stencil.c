/* cmd_stencil.c - `gk stencil`, `gk gen grid` and `gk bench stencil`. */
#include "cli/cli.h"
#include "core/stencil_space.h"
#ifdef GK_HAVE_CUDA
#include "gpu/stencil_gpu.h"
#endif

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "N" (a cube) or "NXxNYxNZ"; any non-positive or malformed size dies with
 * one line. */
static void parse_size(const char *text, int *nx, int *ny, int *nz)
{
    long long v[3];
    int k = 0;
    const char *p = text;
    for (;;) {
        char *end;
        errno = 0;
        if (k == 3 || !*p)
            cli_die("--size: '%s' is not N or NXxNYxNZ", text);
        v[k++] = strtoll(p, &end, 10);
        if (end == p || errno)
            cli_die("--size: '%s' is not N or NXxNYxNZ", text);
        if (!*end) break;
        if (*end != 'x' && *end != 'X')
            cli_die("--size: '%s' is not N or NXxNYxNZ", text);
        p = end + 1;
    }
    if (k == 2)
        cli_die("--size: '%s' has two sizes; give N or NXxNYxNZ", text);
    if (k == 1) v[1] = v[2] = v[0];
    if (gk_stencil_check_size(v[0], v[1], v[2], 0))
        cli_die("--size: %s", gk_last_error());
    *nx = (int)v[0]; *ny = (int)v[1]; *nz = (int)v[2];
}

static int parse_steps(const char *text)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno)
        cli_die("--steps: '%s' is not an integer", text);
    if (v < 0)
        cli_die("--steps: %lld is negative", v);
    if (v > INT_MAX)
        cli_die("--steps: %lld is too large", v);
    return (int)v;
}

static uint64_t parse_seed(const char *text)
{
    char *end;
    errno = 0;
    if (!*text || *text == '-')
        cli_die("--seed: '%s' is not a non-negative integer", text);
    unsigned long long v = strtoull(text, &end, 0);
    if (*end || errno)
        cli_die("--seed: '%s' is not a non-negative integer", text);
    return v;
}

/* The kernel configuration: gk_tune_select, overridden by --config. */
static void select_config(const char *user, int64_t size, gk_config *cfg, gk_config_source *src,
                          char *detail, size_t n)
{
    gk_status st = gk_tune_select("stencil", size, cfg, src, detail, n);
    if (st) cli_die_status(st);
    if (user) {
        if ((st = gk_config_parse(user, cfg)))
            cli_die("--config: %s", gk_last_error());
        *src = GK_CONFIG_USER;
        snprintf(detail, n, "given on the command line");
    }
    gk_config full;
    if ((st = gk__space_complete(&gk__space_stencil, cfg, &full)))
        cli_die("--config: %s", gk_last_error());
    char why[160];
    if (gk__space_stencil.reject(&full, NULL, why, sizeof why))
        cli_die("--config: %s", why);
}

static void device_name(char *buf, size_t n)
{
    gk_device_info d;
    int ord = gk_gpu_ordinal();
    if (gk_gpu_info(ord, &d) == GK_OK) snprintf(buf, n, "GPU %d: %s", ord, d.name);
    else snprintf(buf, n, "GPU %d", ord);
}

static void stencil_usage(void)
{
    printf("Usage: gk stencil --size=NX[xNYxNZ] [OPTION]...\n"
           "Run NT sweeps of the 27-point fp64 stencil (zero halo) over a grid.\n\n"
           "  --size=N|NXxNYxNZ  grid size (one number: a cube)\n"
           "  --steps=NT         time steps (default 16)\n"
           "  --input=FILE       initial grid: raw float64, x fastest, NX*NY*NZ*8 bytes\n"
           "                     (default: a random grid in [-1,1) from --seed)\n"
           "  --output=FILE      write the grid after NT steps (same format)\n"
           "  --coeffs=FILE      27 coefficients, index (dz+1)*9+(dy+1)*3+(dx+1)\n"
           "                     (default: the CPC/PKU benchmark's)\n"
           "  --seed=S           seed of the random grid (default 1)\n"
           "  --device=auto|cpu|gpu  where to run (default auto)\n"
           "  --check            recompute on the CPU and compare (fails above\n"
           "                     8 ulp per step of the largest magnitude)\n"
           "  --config=K=V,...   GPU kernel parameters (override the tuned choice)\n"
           "  --time             print seconds, GStencil/s and GFLOP/s\n"
           "  --json             print the results as JSON\n"
           "  --verbose          say on stderr which device and configuration run\n");
}

int cmd_stencil(int argc, char **argv)
{
    static const struct option opts[] = {
        { "size", required_argument, 0, 's' }, { "steps", required_argument, 0, 'n' },
        { "input", required_argument, 0, 'i' }, { "output", required_argument, 0, 'o' },
        { "coeffs", required_argument, 0, 'c' }, { "seed", required_argument, 0, 'S' },
        { "device", required_argument, 0, 'd' }, { "check", no_argument, 0, 'k' },
        { "time", no_argument, 0, 't' }, { "json", no_argument, 0, 'j' },
        { "config", required_argument, 0, 'C' }, { "verbose", no_argument, 0, 'v' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *size = NULL, *input = NULL, *output = NULL, *coeffs = NULL, *user_cfg = NULL;
    const char *device = "auto";
    int steps = 16, check = 0, timing = 0, json = 0, verbose = 0, c;
    uint64_t seed = 1;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 's': size = optarg; break;
        case 'n': steps = parse_steps(optarg); break;
        case 'i': input = optarg; break;
        case 'o': output = optarg; break;
        case 'c': coeffs = optarg; break;
        case 'S': seed = parse_seed(optarg); break;
        case 'd': device = optarg; break;
        case 'k': check = 1; break;
        case 't': timing = 1; break;
        case 'j': json = 1; break;
        case 'C': user_cfg = optarg; break;
        case 'v': verbose = 1; break;
        case 'h': stencil_usage(); return 0;
        default: cli_usage_error("stencil: bad option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        cli_usage_error("stencil: unexpected argument '%s'", argv[optind]);
    if (!size)
        cli_usage_error("stencil: --size is required");
    if (output)
        cli_check_output(output, input);
    int nx, ny, nz;
    parse_size(size, &nx, &ny, &nz);
    gk_backend want, be;
    if (gk_backend_parse(device, &want))
        cli_die("--device: %s", gk_last_error());
    double cf[27];
    memcpy(cf, gk_stencil_default_coeffs, sizeof cf);
    gk_status st;
    if (coeffs && (st = gk_stencil_coeffs_read(coeffs, cf)))
        cli_die_status(st);
    if ((st = gk_backend_resolve(want, &be)))
        cli_die_status(st);

    /* Host memory: the grid, the CPU solver's padded buffers (CPU backend or
     * the check's rerun) and the check's copy. */
    uint64_t npts = (uint64_t)nx * (uint64_t)ny * (uint64_t)nz, gbytes = npts * 8;
    uint64_t need = gbytes + (be == GK_BACKEND_CPU || check ? gk_stencil_cpu_bytes(nx, ny, nz) : 0) +
                    (check ? gbytes : 0);
    char what[96];
    snprintf(what, sizeof what, "stencil grid %dx%dx%d", nx, ny, nz);
    if ((st = gk_host_memory_check(need, what)))
        cli_die_status(st);

    gk_config cfg;
    gk_config_source src = GK_CONFIG_DEFAULT;
    char detail[256] = "";
    int64_t maxn = nx > ny ? (nx > nz ? nx : nz) : (ny > nz ? ny : nz);
    select_config(user_cfg, maxn, &cfg, &src, detail, sizeof detail);

    double *grid = NULL, *ref = NULL;
    if (!(grid = malloc((size_t)gbytes ? (size_t)gbytes : 1)) || (check && !(ref = malloc((size_t)gbytes ? (size_t)gbytes : 1))))
        cli_die("stencil: out of memory for the %s (%.3g GB)", what, (double)need / 1e9);
    if (input) {
        if ((st = gk_grid_read(input, nx, ny, nz, grid)))
            cli_die_status(st);
    } else
        gk_grid_random(grid, nx, ny, nz, seed);
    double init_scale = check ? gk_grid_max_abs(grid, (int64_t)npts) : 0;
    if (check)
        memcpy(ref, grid, (size_t)gbytes);

    if (verbose) {
        char dn[300], cb[256];
        gk_config full;
        gk__space_complete(&gk__space_stencil, &cfg, &full);
        gk_config_format(&full, cb, sizeof cb);
        if (be == GK_BACKEND_GPU) {
            device_name(dn, sizeof dn);
            fprintf(stderr, "gk: stencil %s, %d steps on %s, config %s (%s: %s)\n", what + 13, steps, dn,
                    cb, gk_config_source_name(src), detail);
        } else
            fprintf(stderr, "gk: stencil %s, %d steps on the CPU (OpenMP + SIMD)\n", what + 13, steps);
    }

    double secs, up_s = 0, down_s = 0;
    if (be == GK_BACKEND_GPU) {
        gk_stencil_gpu_times t;
        if ((st = gk_stencil_gpu_solve(grid, nx, ny, nz, cf, steps, &cfg, &t)))
            cli_die_status(st);
        secs = t.run_ms * 1e-3;
        up_s = t.upload_ms * 1e-3;
        down_s = t.download_ms * 1e-3;
    } else {
        double t0 = gk_wtime();
        if ((st = gk_stencil_cpu(grid, nx, ny, nz, cf, steps)))
            cli_die_status(st);
        secs = gk_wtime() - t0;
    }

    gk_stencil_diff d = { 0, 0, 0, 0, 0 };
    double check_s = 0;
    if (check) {
        double t0 = gk_wtime();
        /* The GPU is checked against the CPU backend; the CPU backend
         * against the plain reference loop (a different code path). */
        st = be == GK_BACKEND_GPU ? gk_stencil_cpu(ref, nx, ny, nz, cf, steps)
                                  : gk_stencil_cpu_reference(ref, nx, ny, nz, cf, steps);
        if (st) cli_die_status(st);
        check_s = gk_wtime() - t0;
        st = gk_stencil_compare(grid, ref, (int64_t)npts, steps, init_scale, &d);
        if (st)
            cli_die("check failed: %s (max rel %.3g)", gk_last_error(), d.max_rel);
    }
    if (output && (st = gk_grid_write(output, nx, ny, nz, grid)))
        cli_die_status(st);

    double pts = (double)npts * steps;
    double gst = secs > 0 ? pts / secs * 1e-9 : 0;
    if (json) {
        json_begin();
        json_str("command", "stencil");
        json_int("nx", nx); json_int("ny", ny); json_int("nz", nz);
        json_int("steps", steps);
        json_str("device", gk_backend_name(be));
        if (be == GK_BACKEND_GPU) {
            char cb[256];
            gk_config full;
            gk__space_complete(&gk__space_stencil, &cfg, &full);
            gk_config_format(&full, cb, sizeof cb);
            json_str("config", cb);
            json_str("config_source", gk_config_source_name(src));
            json_num("upload_seconds", up_s);
            json_num("download_seconds", down_s);
        }
        json_num("seconds", secs);
        json_num("gstencil_per_s", gst);
        json_num("gflop_per_s", gst * GK_STENCIL_FLOPS_PER_POINT);
        if (check) {
            json_object("check");
            json_str("against", be == GK_BACKEND_GPU ? "cpu" : "cpu reference loop");
            json_num("max_abs", d.max_abs); json_num("max_rel", d.max_rel);
            json_num("tolerance", d.tolerance); json_bool("ok", 1);
            json_num("seconds", check_s);
            json_object_end();
        }
        json_end();
        free(grid);
        free(ref);
        return 0;
    }
    if (timing)
        printf("stencil %s, %d steps on %s: %.6f s, %.3f GStencil/s, %.2f GFLOP/s\n", what + 13, steps,
               gk_backend_name(be), secs, gst, gst * GK_STENCIL_FLOPS_PER_POINT);
    if (check)
        printf("check against the %s: max abs diff %.3g, max rel diff %.3g (tolerance %.3g): ok\n",
               be == GK_BACKEND_GPU ? "CPU" : "CPU reference loop", d.max_abs, d.max_rel, d.tolerance);
    free(grid);
    free(ref);
    return 0;
}

int cmd_gen_grid(int argc, char **argv)
{
    static const struct option opts[] = {
        { "size", required_argument, 0, 's' }, { "seed", required_argument, 0, 'S' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *size = NULL;
    uint64_t seed = 1;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 's') size = optarg;
        else if (c == 'S') seed = parse_seed(optarg);
        else if (c == 'h') {
            printf("Usage: gk gen grid --size=NX[xNYxNZ] [--seed=S] OUTPUT\n"
                   "Write a reproducible random grid (uniform in [-1,1), raw float64, x fastest):\n"
                   "the initial grid `gk stencil` uses for the same size and seed.\n");
            return 0;
        } else cli_usage_error("gen grid: bad option '%s'", argv[optind - 1]);
    }
    if (!size)
        cli_usage_error("gen grid: --size is required");
    if (optind + 1 != argc)
        cli_usage_error("gen grid: want exactly one OUTPUT file");
    cli_check_output(argv[optind], NULL);
    int nx, ny, nz;
    parse_size(size, &nx, &ny, &nz);
    uint64_t bytes = (uint64_t)nx * (uint64_t)ny * (uint64_t)nz * 8;
    char what[96];
    snprintf(what, sizeof what, "grid %dx%dx%d", nx, ny, nz);
    gk_status st;
    if ((st = gk_host_memory_check(bytes, what)))
        cli_die_status(st);
    double *g = malloc((size_t)bytes);
    if (!g)
        cli_die("gen grid: out of memory for the %s", what);
    gk_grid_random(g, nx, ny, nz, seed);
    if ((st = gk_grid_write(argv[optind], nx, ny, nz, g)))
        cli_die_status(st);
    free(g);
    return 0;
}

#ifdef GK_HAVE_CUDA
static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median of reps timed runs of `steps` sweeps (the grid re-uploaded before
 * each, so every run starts from the same random data), after a warm-up. */
static float time_runs(gk_stencil_gpu *g, const double *grid, int naive, int steps, int reps)
{
    float ms[64], t;
    gk_status st;
    if ((st = gk__stencil_gpu_upload(g, grid, NULL)))
        cli_die_status(st);
    st = naive ? gk__stencil_gpu_run_naive(g, 2, &t) : gk__stencil_gpu_run(g, 2, &t);
    if (st) cli_die_status(st);
    for (int r = 0; r < reps; r++) {
        if ((st = gk__stencil_gpu_upload(g, grid, NULL)))
            cli_die_status(st);
        st = naive ? gk__stencil_gpu_run_naive(g, steps, &ms[r]) : gk__stencil_gpu_run(g, steps, &ms[r]);
        if (st) cli_die_status(st);
    }
    qsort(ms, (size_t)reps, sizeof ms[0], cmp_float);
    return ms[reps / 2];
}

/* Validation: vsteps sweeps on the GPU against the CPU backend. */
static void validate(gk_stencil_gpu *g, const double *grid, const double *cpu, double *tmp, int naive,
                     int vsteps, int64_t n, double scale, char *res, size_t rn)
{
    gk_status st;
    if ((st = gk__stencil_gpu_upload(g, grid, NULL)))
        cli_die_status(st);
    st = naive ? gk__stencil_gpu_run_naive(g, vsteps, NULL) : gk__stencil_gpu_run(g, vsteps, NULL);
    if (st || (st = gk__stencil_gpu_download(g, tmp, NULL)))
        cli_die_status(st);
    gk_stencil_diff d;
    if (gk_stencil_compare(tmp, cpu, n, vsteps, scale, &d))
        snprintf(res, rn, "FAIL %.3g", d.max_abs);
    else if (d.max_abs == 0)
        snprintf(res, rn, "ok (bit-exact)");
    else
        snprintf(res, rn, "ok (%.2g)", d.max_abs);
}
#endif

int cmd_bench_stencil(int argc, char **argv)
{
    static const struct option opts[] = {
        { "sizes", required_argument, 0, 's' }, { "steps", required_argument, 0, 'n' },
        { "reps", required_argument, 0, 'r' }, { "config", required_argument, 0, 'C' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *sizes = "256,512", *user_cfg = NULL;
    int steps = 100, reps = 5, c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 's') sizes = optarg;
        else if (c == 'n') steps = parse_steps(optarg);
        else if (c == 'r') reps = (int)cli_parse_i64("--reps", optarg, 1, 64);
        else if (c == 'C') user_cfg = optarg;
        else if (c == 'h') {
            printf("Usage: gk bench stencil [--sizes=N|NXxNYxNZ,...] [--steps=NT] [--reps=R] [--config=K=V,...]\n"
                   "Time the GPU stencil kernels (shared-memory tile, 2.5D z-streaming) against a\n"
                   "naive kernel (one point per thread, 27 global loads) and against the device's\n"
                   "copy bandwidth measured in the same run; median of R runs (default 5) of NT\n"
                   "steps (default 100) on sizes (default 256,512).  Each kernel is also checked\n"
                   "against the CPU after 3 steps.\n");
            return 0;
        } else cli_usage_error("bench stencil: bad option '%s'", argv[optind - 1]);
    }
    if (optind < argc)
        cli_usage_error("bench stencil: unexpected argument '%s'", argv[optind]);
#ifndef GK_HAVE_CUDA
    (void)steps; (void)reps; (void)user_cfg; (void)sizes;
    cli_die("bench stencil: gk was built without CUDA support");
#else
    char why[512];
    if (!gk_gpu_usable(why, sizeof why))
        cli_die("bench stencil: %s", why);
    if (steps < 1)
        cli_die("--steps: bench needs at least one step");
    char list[1024];
    snprintf(list, sizeof list, "%s", sizes);
    int first = 1;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int nx, ny, nz;
        parse_size(tok, &nx, &ny, &nz);
        int64_t n = (int64_t)nx * ny * nz, maxn = nx > ny ? (nx > nz ? nx : nz) : (ny > nz ? ny : nz);
        char what[96];
        snprintf(what, sizeof what, "stencil grid %dx%dx%d", nx, ny, nz);
        gk_status st;
        if ((st = gk_host_memory_check((uint64_t)n * 32 + gk_stencil_cpu_bytes(nx, ny, nz), what)))
            cli_die_status(st);
        double *grid = malloc((size_t)n * 8), *cpu = malloc((size_t)n * 8), *tmp = malloc((size_t)n * 8);
        if (!grid || !cpu || !tmp)
            cli_die("bench stencil: out of host memory for the %s", what);
        gk_grid_random(grid, nx, ny, nz, 12345);
        double scale = gk_grid_max_abs(grid, n);
        const int vsteps = 3;
        memcpy(cpu, grid, (size_t)n * 8);
        if ((st = gk_stencil_cpu(cpu, nx, ny, nz, gk_stencil_default_coeffs, vsteps)))
            cli_die_status(st);
        double bw;
        if ((st = gk__gpu_copy_bandwidth((size_t)n * 8, 9, &bw)))
            cli_die_status(st);
        double floor_gst = bw / 16 * 1e-9;

        gk_config base;
        gk_config_source src;
        char detail[256];
        select_config(user_cfg, maxn, &base, &src, detail, sizeof detail);
        int only = gk_config_get(&base, "DESIGN", -1);
        /* rows: the naive kernel, then each design (or only the one asked for) */
        for (int row = -1; row <= 1; row++) {
            if (row >= 0 && only >= 0 && row != only)
                continue;
            gk_config cfg = base;
            if (row >= 0 && (st = gk_config_set(&cfg, "DESIGN", row)))
                cli_die_status(st);
            gk_stencil_gpu *g;
            if ((st = gk__stencil_gpu_open(&g, nx, ny, nz, gk_stencil_default_coeffs, &cfg))) {
                printf("%-14s %5d  %-6s  not run: %s\n", tok, steps, row == 0 ? "tile" : "stream",
                       gk_last_error());
                continue;
            }
            if (first) {
                const gk_device_info *dv = gk__stencil_gpu_device(g);
                printf("gk bench stencil: %s, %d SMs; copy bandwidth (read+write) measured per size\n"
                       "  below; %%floor = effective GB/s at 16 B/point over that bandwidth; median of\n"
                       "  %d runs of %d steps; check: %d steps vs the CPU backend\n",
                       dv->name, dv->sm_count, reps, steps, vsteps);
                printf("%-14s %5s  %-6s %9s %11s %8s %7s  %-16s %s\n", "size", "steps", "kernel", "ms/step",
                       "GStencil/s", "GB/s", "%floor", "check", "config");
                first = 0;
            }
            float ms = time_runs(g, grid, row < 0, steps, reps);
            char res[64], cb[256];
            validate(g, grid, cpu, tmp, row < 0, vsteps, n, scale, res, sizeof res);
            if (row < 0)
                snprintf(cb, sizeof cb, "one point/thread, 27 global loads, 32x8 threads");
            else
                gk_config_format(gk__stencil_gpu_config(g), cb, sizeof cb);
            double gst = (double)n * steps / (ms * 1e-3) * 1e-9;
            printf("%-14s %5d  %-6s %9.4f %11.1f %8.0f %6.1f%%  %-16s %s\n", tok, steps,
                   row < 0 ? "naive" : row == 0 ? "tile" : "stream", ms / steps, gst, gst * 16,
                   100 * gst / floor_gst, res, cb);
            fflush(stdout);
            gk__stencil_gpu_close(g);
        }
        printf("%-14s copy bandwidth over %.0f MB: %.0f GB/s -> floor %.1f GStencil/s\n", tok,
               (double)n * 8e-6, bw * 1e-9, floor_gst);
        free(grid);
        free(cpu);
        free(tmp);
    }
    return 0;
#endif
}
