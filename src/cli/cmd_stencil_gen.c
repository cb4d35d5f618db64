/* cmd_stencil_gen.c - `gk bench stencil --stencil=DESC[,DESC...]`: the
 * generated engine's rows (T = 1..4 steps per pass) for each description
 * and size, against the one-step memory floor measured in the same run
 * (gk__stencil_gen_bench).  gk.c sends `gk bench stencil` to
 * cmd_bench_stencil_route, which comes here when --stencil is among its
 * options (and adds the option to the classic bench's --help). */
#include "cli/cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { O_STENCIL = 256, O_SIZES, O_STEPS, O_REPS, O_CONFIG, O_JSON, O_DEVICE, O_TYPE };

/* One --sizes entry: 3D as every command takes it (N or NXxNYxNZ); 2D N
 * (N x N) or NXxNY, nz = 1. */
static void parse_size(int dims, const char *d, const char *tok, int64_t *nx, int64_t *ny, int64_t *nz)
{
    if (dims == 3) {
        cli_parse_size3("--sizes", tok, nx, ny, nz);
        return;
    }
    char a[64], *x;
    snprintf(a, sizeof a, "%s", tok);
    if ((x = strchr(a, 'x')) && strchr(x + 1, 'x'))
        cli_usage_error("--sizes: '%s' is 3D; %s is 2D (N or NXxNY)", tok, d);
    if (x) *x = '\0';
    *nx = cli_parse_i64("--sizes", a, 1, 1 << 30);
    *ny = x ? cli_parse_i64("--sizes", x + 1, 1, 1 << 30) : *nx;
    *nz = 1;
}

/* The description d (one of --stencil's) built: nonzero, with libgk's
 * message, when it is not one. */
static int desc_spec(const char *d, gk__stencil_spec *spec)
{
    int dims, r;
    gk_stencil_shape shape;
    gk_boundary b;
    gk_dtype t;
    return gk__sg_desc_parse(d, &dims, &shape, &r, &b, &t) || gk__sg_spec_build(dims, shape, r, b, t, NULL, spec);
}

int cmd_bench_stencil_gen(int argc, char **argv)
{
    static const struct option opts[] = {
        { "stencil", required_argument, 0, O_STENCIL }, { "sizes", required_argument, 0, O_SIZES },
        { "steps", required_argument, 0, O_STEPS }, { "reps", required_argument, 0, O_REPS },
        { "config", required_argument, 0, O_CONFIG }, { "json", no_argument, 0, O_JSON },
        { "device", required_argument, 0, O_DEVICE }, { "type", required_argument, 0, O_TYPE },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *descs = NULL, *sizes = NULL, *user_cfg = NULL, *type = NULL;
    int steps = 100, reps = 5, json = 0, c;
    gk_backend want = GK_BACKEND_AUTO;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_STENCIL: descs = optarg; break;
        case O_SIZES: sizes = optarg; break;
        case O_STEPS: steps = (int)cli_parse_i64("--steps", optarg, 1, INT_MAX); break;
        case O_REPS: reps = (int)cli_parse_i64("--reps", optarg, 1, 64); break;
        case O_CONFIG: user_cfg = optarg; break;
        case O_JSON: json = 1; break;
        case O_DEVICE: want = cli_parse_device(optarg); break;
        case O_TYPE:
            if (strcmp(optarg, "f32") && strcmp(optarg, "f64") && strcmp(optarg, "float32") && strcmp(optarg, "float64"))
                cli_usage_error("--type=%s: want f64 or f32", optarg);
            type = !strcmp(optarg, "f32") || !strcmp(optarg, "float32") ? ":f32" : ":f64";
            break;
        case 'h':
            printf("Usage: gk bench stencil --stencil=DESC[,DESC...] [--sizes=N|NXxNY[xNZ],...]\n"
                   "                        [--steps=NT] [--reps=R] [--config=K=V,...]\n"
                   "                        [--type=f32|f64] [--device=auto|gpu|cpu] [--json]\n"
                   "Time the generated GPU engine for each description (e.g. 3d-star-r1,\n"
                   "2d-box-r2:f32:fixed; float64 unless :f32) with T = 1..4 steps per pass (the\n"
                   "2D warp design, DESIGN=1: 1..8; only the T --config names, if it names one)\n"
                   "against the one-step memory floor: the copy bandwidth measured in the same\n"
                   "run over 2 x the element size per point.  Median of R runs (default 5) of NT\n"
                   "steps (default 100); sizes default 512 (3D) and 16384 (2D): N means N^3 in\n"
                   "3D, N^2 in 2D.  Each configuration is checked bit for bit against the CPU\n"
                   "reference after 5 steps (T+1 for T above 4) on an odd-sized grid.  --type:\n"
                   "the element type of the descriptions that name none.\n"
                   "--config: the generated engine's TX, TY, NT, ZC, TSTEPS, DESIGN, PX, RX, RY,\n"
                   "PF, SK, PL, AC, ST, MB, OX, XH (their ranges and defaults: gk(1)), checked\n"
                   "against each description's rules.  Without a usable GPU (or with\n"
                   "--device=cpu) the CPU's rows of one description instead (gk bench stencil\n"
                   "--device=cpu --help).\n");
            return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    if (!descs)
        cli_usage_error("bench stencil: --stencil=DESC is missing");
    /* --type: appended to every description that names no element type (a
     * description naming the other one is refused) */
    char typed[1024] = "";
    if (type) {
        char tl[1024];
        snprintf(tl, sizeof tl, "%s", descs);
        for (char *s1 = NULL, *d = strtok_r(tl, ",", &s1); d; d = strtok_r(NULL, ",", &s1)) {
            int has = strstr(d, ":f32") || strstr(d, ":f64");
            if (has && !strstr(d, type))
                cli_usage_error("--stencil=%s and --type=%s name two element types: give one", d, type + 1);
            size_t l = strlen(typed);
            if (l + strlen(d) + 6 >= sizeof typed)
                cli_usage_error("--stencil: too long a list");
            snprintf(typed + l, sizeof typed - l, "%s%s%s", l ? "," : "", d, has ? "" : type);
        }
        descs = typed;
    }
    if (gk__stencil_gen_check_list(descs))
        cli_usage_error("%s", gk_last_error());
    /* --config against every description's rules (as gk stencil --config;
     * names and ranges first, so the message names the description), every
     * size against every description, before any GPU work */
    char dl0[1024];
    snprintf(dl0, sizeof dl0, "%s", descs);
    for (char *s1 = NULL, *d = strtok_r(dl0, ",", &s1); d; d = strtok_r(NULL, ",", &s1)) {
        gk__stencil_spec spec;
        if (desc_spec(d, &spec))
            cli_usage_error("%s", gk_last_error());
        const int dims = spec.dims;
        if (user_cfg)
            cli_check_stencil_config(&spec, user_cfg);
        char sl[1024];
        snprintf(sl, sizeof sl, "%s", sizes ? sizes : dims == 3 ? "512" : "16384");
        for (char *s2 = NULL, *tok = strtok_r(sl, ",", &s2); tok; tok = strtok_r(NULL, ",", &s2)) {
            int64_t nx, ny, nz;
            parse_size(dims, d, tok, &nx, &ny, &nz);
        }
    }
    if (want == GK_BACKEND_CPU)
        return cmd_bench_stencil(argc, argv);
    gk_context *ctx = cli_context(want == GK_BACKEND_AUTO ? GK_BACKEND_AUTO : GK_BACKEND_GPU);
    if (gk_context_backend(ctx) != GK_BACKEND_GPU) {
        /* no usable GPU (auto) or --device=cpu: the CPU's description
         * rows (cmd_stencil.c; one description there) */
        gk_context_destroy(ctx);
        return cmd_bench_stencil(argc, argv);
    }
    if (json) { json_begin(); json_str("command", "bench stencil"); json_int("steps", steps); json_int("reps", reps);
                json_array("rows"); }
    char dl[1024];
    snprintf(dl, sizeof dl, "%s", descs);
    int bad = 0, first = 1;
    for (char *s1 = NULL, *d = strtok_r(dl, ",", &s1); d; d = strtok_r(NULL, ",", &s1)) {
        gk__stencil_spec spec;
        if (desc_spec(d, &spec))
            cli_die_status(GK_EINVAL);
        const int dims = spec.dims;
        char sl[1024];
        snprintf(sl, sizeof sl, "%s", sizes ? sizes : dims == 3 ? "512" : "16384");
        for (char *s2 = NULL, *tok = strtok_r(sl, ",", &s2); tok; tok = strtok_r(NULL, ",", &s2)) {
            int64_t nx, ny, nz;
            parse_size(dims, d, tok, &nx, &ny, &nz);
            gk__stencil_bench_report R;
            gk_status st = gk__stencil_gen_bench(ctx, &spec, nx, ny, nz, steps, reps, user_cfg, &R);
            if (st) cli_die_status(st);
            if (first && !json) {
                printf("gk bench stencil --stencil: %s; %%floor = GStencil/s over the one-step floor (2 x element\n"
                       "  bytes per point at the copy bandwidth measured per row group below); median of %d runs of\n"
                       "  %d steps; check: 5 steps vs the CPU reference on an odd-sized grid\n", R.device, reps, steps);
                printf("%-26s %-16s %5s  %-8s %9s %11s %7s  %-34s %s\n", "stencil", "size", "steps", "kernel",
                       "ms/step", "GStencil/s", "%floor", "check", "config");
            }
            first = 0;
            for (int i = 0; i < R.nrows; i++) {
                const gk__stencil_bench_row *w = &R.row[i];
                bad |= !w->ok && strncmp(w->check, "not run", 7);
                if (json) {
                    json_object(NULL);
                    json_str("stencil", spec.key); json_str("size", tok); json_str("kernel", w->kernel);
                    json_int("steps", w->steps); json_int("tsteps", w->tsteps);
                    json_num("ms_per_step", w->ms_per_step); json_num("gstencil_per_s", w->gstencils);
                    json_num("floor_gstencil_per_s", R.floor_gstencils);
                    json_num("percent_of_floor", R.floor_gstencils > 0 ? 100 * w->gstencils / R.floor_gstencils : 0);
                    /* the memory floor of this row's T steps per pass */
                    json_num("floor_t_gstencil_per_s", w->tsteps * R.floor_gstencils);
                    /* the FMA ceiling (one operation per point of the mask;
                       recomputed halos not counted) and the lower of the two */
                    json_num("ceiling_gstencil_per_s", R.ceiling_gstencils > 0 ? R.ceiling_gstencils : NAN);
                    json_num("bound_gstencil_per_s",
                             cli_stencil_bound(R.floor_gstencils, R.ceiling_gstencils, w->tsteps));
                    json_str("check", w->check); json_bool("ok", w->ok); json_str("config", w->config);
                    json_object_end();
                } else if (!strncmp(w->check, "not run", 7)) {
                    printf("%-26s %-16s %5d  %-8s  %s\n", d, tok, steps, w->kernel, w->check);
                } else {
                    printf("%-26s %-16s %5d  %-8s %9.4f %11.2f %6.1f%%  %-34s %s\n", d, tok, w->steps, w->kernel,
                           w->ms_per_step, w->gstencils, 100 * w->gstencils / R.floor_gstencils, w->check, w->config);
                }
            }
            if (!json) {
                printf("%-26s %-16s copy bandwidth %.0f GB/s -> one-step floor %.2f GStencil/s\n", d, tok,
                       R.copy_bytes_per_s * 1e-9, R.floor_gstencils);
                int tmax = 1;
                for (int i = 0; i < R.nrows; i++)
                    if (R.row[i].tsteps > tmax) tmax = R.row[i].tsteps;
                printf("%-26s %-16s memory floor per T (T x the one-step floor):", d, tok);
                for (int tt = 1; tt <= tmax; tt++)
                    printf(" T=%d %.2f", tt, tt * R.floor_gstencils);
                printf(" GStencil/s\n");
                if (R.ceiling_gstencils > 0) {
                    printf("%-26s %-16s %s FMA chains: %.2f TFMA/s -> compute ceiling %.2f GStencil/s at %d "
                           "operations/point (recomputed halos not counted)\n", d, tok,
                           spec.dtype == GK_DTYPE_FLOAT32 ? "float32" : "float64", R.fma_per_s * 1e-12,
                           R.ceiling_gstencils, spec.npoints);
                    printf("%-26s %-16s bound per T (the lower of the two):", d, tok);
                    for (int tt = 1; tt <= tmax; tt++) {
                        double b = cli_stencil_bound(R.floor_gstencils, R.ceiling_gstencils, tt);
                        printf(" T=%d %.2f%s", tt, b, b < tt * R.floor_gstencils ? " (FMA)" : "");
                    }
                    printf(" GStencil/s\n");
                }
            }
            fflush(stdout);
        }
    }
    if (json) { json_array_end(); json_end(); }
    gk_context_destroy(ctx);
    if (bad) cli_die("bench stencil: a configuration failed its check");
    return 0;
}

/* argv[i] names --stencil, in full or abbreviated as getopt takes it
 * ("--sten", not "--ste": that is --steps too) */
static int names_stencil(const char *a)
{
    size_t n = strcspn(a, "=");
    return n > 5 && !strncmp(a, "--stencil", n) && n <= strlen("--stencil");
}

int cmd_bench_stencil_route(int argc, char **argv)
{
    int help = 0, stencil = 0, cpu = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        stencil |= names_stencil(argv[i]);
        cpu |= !strcmp(argv[i], "--device=cpu") || (!strcmp(argv[i], "--device") && i + 1 < argc &&
                                                     !strcmp(argv[i + 1], "cpu"));
        help |= !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help");
    }
    /* --stencil: the generated engine's rows on a GPU; with --device=cpu,
     * or without a usable GPU, the description's CPU rows (cmd_stencil.c:
     * cmd_bench_stencil_gen sends them there) */
    if (stencil && !cpu)
        return cmd_bench_stencil_gen(argc, argv);
    int rc = cmd_bench_stencil(argc, argv);
    if (help && rc == 0)
        printf("  --stencil=DESC,...     the generated engine for these descriptions instead\n"
               "                         (gk bench stencil --stencil=3d-star-r1 --help)\n");
    return rc;
}
