/* cmd_stencil.c - `gk stencil`, `gk gen grid` and `gk bench stencil`: option
 * parsing and printing around gk_stencil_run, the grid files and
 * gk__stencil_bench. */
#include "cli/cli.h"
#include "cli/cli_mpi.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { O_SIZE = 256, O_STEPS, O_INPUT, O_OUTPUT, O_COEFFS, O_SEED, O_DEVICE, O_CHECK, O_TIME,
       O_JSON, O_CONFIG, O_VERBOSE, O_SIZES, O_REPS, O_GPUS, O_EXCHANGE,
       O_STENCIL, O_DIMS, O_SHAPE, O_RADIUS, O_TYPE, O_BOUNDARY };

static void stencil_usage(void)
{
    printf("Usage: gk stencil --size=NX[xNYxNZ] [OPTION]...\n"
           "Run NT sweeps of a stencil over a grid: by default the 27-point fp64 box\n"
           "(zero halo); --stencil or --dims/--shape/--radius pick another member of\n"
           "the family, --boundary and --type its boundary and element type.\n\n"
           "  --size=N|NXxNYxNZ  grid size (one number: a cube; 2D: N, NXxNY or NXxNYx1)\n"
           "  --steps=NT         time steps (default 16)\n"
           "  --stencil=DESC     the stencil as text: DIMSd-SHAPE-rR[:BOUNDARY][:f32|f64],\n"
           "                     e.g. 3d-star-r2:periodic, 2d-box-r1:f32 (default 3d-box-r1)\n"
           "  --dims=2|3         dimensions (default 3)\n"
           "  --shape=box|star|mask  all (2r+1)^dims points, the 2*dims*r+1 on the axes,\n"
           "                     or the points of nonzero weight (needs --coeffs)\n"
           "  --radius=R         1..4 (default 1)\n"
           "  --boundary=zero|periodic|fixed  outside reads 0; indices wrap (every\n"
           "                     extent >= 2R+1); the R cells next to each face keep\n"
           "                     their values (default zero; with --stencil, the\n"
           "                     boundary of a DESC that names none)\n"
           "  --type=f64|f32     the grid's element type (default f64)\n"
           "  --input=FILE       initial grid: raw float64 (f32: float32), finite,\n"
           "                     x fastest, NX*NY*NZ*8 (f32: *4) bytes\n"
           "                     (default: a random grid in [-1,1) from --seed)\n"
           "  --output=FILE      write the grid after NT steps (same format); without it\n"
           "                     gk prints the summary line of --time instead\n"
           "  --coeffs=FILE      the (2R+1)^dims weights, index ((dz+R)*(2R+1)+dy+R)*(2R+1)\n"
           "                     +dx+R (27 for the default box; a star's off-axis ones 0)\n"
           "                     (default: the CPC/PKU benchmark's for the 27-point box,\n"
           "                     else 1/points at each point of the shape)\n"
           "  --seed=S           seed of the random grid (default 1)\n"
           "  --device=auto|cpu|gpu  where to run (default auto)\n"
           "  --check            recompute on the CPU and compare (27-point box: fails\n"
           "                     above 8 ulp per step of the largest magnitude; other\n"
           "                     stencils: bit for bit)\n"
           "  --config=K=V,...   GPU kernel parameters; they replace the tuned choice\n"
           "                     (unnamed parameters take the built-in defaults): the\n"
           "                     27-point box's kernel (3d-box-r1 in f64 with the zero\n"
           "                     boundary; gktune(1) tells how to list them), or for\n"
           "                     another stencil the generated engine's TX, TY, NT, ZC,\n"
           "                     TSTEPS, DESIGN, PX, RX, RY, PF, SK, PL, AC, ST, MB, OX,\n"
           "                     XH (ranges, defaults: gk(1));\n"
           "                     one process; checked, then ignored, on the CPU\n"
           "  --time             print the phases, GStencil/s and GFLOP/s\n"
           "  --json             print the results as JSON\n"
           "  --verbose          say on stderr which device and configuration run\n"
           "  --gpus=N|all|LIST  split the grid into slabs (z planes; 2D: y rows) over N\n"
           "                     GPUs (or all, or the list of ordinals), no process\n"
           "                     holding the whole grid\n"
           "  --exchange=auto|device|host  how halo planes move between GPU ranks under\n"
           "                     mpirun: NCCL when every rank has it (device: required),\n"
           "                     or pinned host memory and MPI (host)\n"
           "  -h, --help         display this help and exit\n\n"
           "With --gpus, --exchange or under mpirun (one GPU per rank, or the CPU with\n"
           "--device=cpu) each rank reads and writes only its own planes of the files;\n"
           "the result is byte-identical to one process.  --check needs one process.\n");
}

/* `gk stencil` past one process or GPU: gk_stencil_run_file. */
static int stencil_dist(gk_context *ctx, const char *input, uint64_t seed, const char *output, int64_t nx,
                        int64_t ny, int64_t nz, const double *cf, const gk_stencil_desc *desc, gk_dtype dtype,
                        int radius, double flops, int64_t steps, const char *config, gk_exchange ex, int timing,
                        int json, int verbose)
{
    gk_stencil_dist_report rep;
    gk_stencil_problem prob;
    gk_stencil_options so;
    if (cli_mpi_nccl_ctas_default)     /* the halo copies run alone: let NCCL use its channels */
        unsetenv("NCCL_MAX_CTAS");
    gk_stencil_dist_report_init(&rep);
    gk_stencil_problem_init(&prob, nx, ny, nz);
    if (desc) {                      /* a description: its weights, its element type */
        prob.desc = desc;
        prob.dtype = dtype;
    } else {
        prob.coeffs = cf;
    }
    gk_stencil_options_init(&so);
    so.config = config;
    so.exchange = ex;
    gk_status st = gk_stencil_run_file(ctx, &prob, input, seed, output, steps, &so, &rep);
    char where[64];
    if (rep.gpus)
        snprintf(where, sizeof where, "%d GPU%s, %d rank%s", rep.gpus, rep.gpus == 1 ? "" : "s", rep.ranks,
                 rep.ranks == 1 ? "" : "s");
    else
        snprintf(where, sizeof where, "the CPUs of %d rank%s", rep.ranks, rep.ranks == 1 ? "" : "s");
    if ((verbose || timing) && !cli_quiet) {
        char what[256];
        snprintf(what, sizeof what, "stencil %lldx%lldx%lld, %lld step%s over %s (exchange: %s)", (long long)nx,
                 (long long)ny, (long long)nz, (long long)steps, steps == 1 ? "" : "s", where, rep.exchange);
        cli_report_verbose(what, &rep.run);
    }
    if (st)
        cli_die_status(st);
    cli_report_notes(&rep.run);
    gk_context_destroy(ctx);
    double npts = (double)nx * (double)ny * (double)nz;
    double gst = rep.compute > 0 ? npts * (double)steps / rep.compute * 1e-9 : 0;
    const char *names[] = { input ? "read" : "generate", "compute", "write" };
    double v[] = { rep.read, rep.compute, rep.write }, total = 0;
    for (int i = 0; i < 3; i++)
        if (v[i] > 0) total += v[i];
    if (json) {
        json_begin();
        json_str("command", "stencil");
        json_int("nx", nx); json_int("ny", ny); json_int("nz", nz);
        json_int("steps", steps);
        cli_json_report(&rep.run);
        json_int("ranks", rep.ranks); json_int("gpus", rep.gpus);
        json_int("slabs", rep.parts); json_int("halo_planes", rep.halo);
        json_int("thinnest_slab", rep.thinnest); json_int("thickest_slab", rep.thickest);
        json_str("exchange", rep.exchange);
        json_object("seconds");
        json_num(input ? "read" : "generate", rep.read); json_num("compute", rep.compute);
        json_num("exchange_busy", rep.exchange_busy); json_num("exchange_stall", rep.exchange_stall);
        json_phase("write", rep.write); json_num("total", total);
        json_object_end();
        json_num("gstencil_per_s", gst);
        json_num("gflop_per_s", gst * flops);
        json_end();
    } else {
      if (timing) {
        fprintf(cli_report, "%-16s %12s %8s\n", "phase", "seconds", "share");
        for (int i = 0; i < 3; i++) {
            if (v[i] >= 0)
                fprintf(cli_report, "%-16s %12.6f %7.1f%%\n", names[i], v[i], total > 0 ? 100 * v[i] / total : 0);
            if (i == 1) {
                fprintf(cli_report, "%-16s %12.6f %7s  (moving halo planes)\n", "  exchange busy",
                        rep.exchange_busy, "");
                fprintf(cli_report, "%-16s %12.6f %7s  (compute waiting for its next halo)\n", "  exchange stall",
                        rep.exchange_stall, "");
            }
        }
        fprintf(cli_report, "%-16s %12.6f %7.1f%%\n", "total", total, 100.0);
      }
      if (timing || !output)          /* without --output this line is all the run shows */
        fprintf(cli_report, "stencil %lldx%lldx%lld, %lld step%s on %s: %.6f s, %.3f GStencil/s, %.2f GFLOP/s%s\n",
                (long long)nx, (long long)ny, (long long)nz, (long long)steps, steps == 1 ? "" : "s", where, rep.compute, gst,
                gst * flops, output ? "" : CLI_NOT_WRITTEN);
      if (timing)
        fprintf(cli_report, "%s slabs: %d (%d..%d planes), halo %d plane%s every %d step%s; exchange: %s\n",
                desc && desc->dims == 2 ? "y" : "z", rep.parts, rep.thinnest, rep.thickest, rep.halo,
                rep.halo == 1 ? "" : "s", rep.halo / radius, rep.halo / radius == 1 ? "" : "s", rep.exchange);
    }
    return 0;
}

/* The stencil of --stencil or --dims/--shape/--radius/--boundary and the
 * element type of --type into *d and *t; 1 when it is not the classic
 * 27-point float64 box (the options named another), 0 otherwise.  Usage
 * errors name the option.  --boundary and --type combine with --stencil
 * (they say how the stencil meets the grid's faces and what it computes
 * in, as the same options do beside --dims/--shape/--radius); a
 * description that names its own boundary (":periodic") and a --boundary
 * naming another is a usage error, not a silent override. */
static int stencil_desc_args(const char *text, const char *dims, const char *shape, const char *radius,
                             const char *boundary, const char *type, gk_stencil_desc *d, gk_dtype *t)
{
    gk_stencil_desc_init(d);
    *t = GK_DTYPE_FLOAT64;
    if (type) {
        if (!strcmp(type, "f64") || !strcmp(type, "float64")) *t = GK_DTYPE_FLOAT64;
        else if (!strcmp(type, "f32") || !strcmp(type, "float32")) *t = GK_DTYPE_FLOAT32;
        else cli_usage_error("--type=%s: want f64 or f32", type);
    }
    if (text && (dims || shape || radius))
        cli_usage_error("--stencil=%s and --dims/--shape/--radius: give one or the other", text);
    /* the text form of gk(1): DIMSd-SHAPE-rR, then ":BOUNDARY" and ":f32" /
       ":f64" in either order (gktune's and gk bench's lists write it so);
       the element type is not part of gk_stencil_desc: it goes to *t */
    int named_bnd = 0;
    if (text) {
        char head[200], rest[96];    /* head: its first field, then ":" and the boundary (< 96 each) */
        const char *c = strchr(text, ':');
        size_t hl = c ? (size_t)(c - text) : strlen(text);
        if (hl >= sizeof rest || strlen(text) >= sizeof rest)
            cli_usage_error("--stencil=%.40s...: too long for a description", text);
        memcpy(head, text, hl);
        head[hl] = 0;
        snprintf(rest, sizeof rest, "%s", c ? c + 1 : "");
        int named_type = 0;
        /* fields split by hand (strtok would skip an empty one) */
        for (char *tok = c ? rest : NULL, *next; tok; tok = next) {
            next = strchr(tok, ':');
            if (next) *next++ = '\0';
            if (!*tok)
                cli_usage_error("--stencil=%s: an empty field (want DIMSd-SHAPE-rR[:BOUNDARY][:f32|f64])", text);
            gk_dtype tt = !strcmp(tok, "f32") || !strcmp(tok, "float32") ? GK_DTYPE_FLOAT32
                          : !strcmp(tok, "f64") || !strcmp(tok, "float64") ? GK_DTYPE_FLOAT64 : GK_DTYPE_INT32;
            if (tt != GK_DTYPE_INT32) {
                if (type && tt != *t)
                    cli_usage_error("--stencil=%s and --type=%s name two element types: give one", text, type);
                if (named_type++)
                    cli_usage_error("--stencil=%s: two element types (give one of :f32, :f64)", text);
                *t = tt;
            } else if (named_bnd++) {
                cli_usage_error("--stencil=%s: two boundaries (want DIMSd-SHAPE-rR[:BOUNDARY][:f32|f64])", text);
            } else {
                size_t l = strlen(head);
                snprintf(head + l, sizeof head - l, ":%s", tok);
            }
        }
        if (gk_stencil_desc_parse(head, d))
            cli_usage_error("--stencil=%s: %s", text, gk_last_error());
    }
    gk_boundary named = d->boundary;    /* the description's, when it names one */
    if (dims) d->dims = (int)cli_parse_i64("--dims", dims, 2, 3);
    if (radius) d->radius = (int)cli_parse_i64("--radius", radius, 1, GK_STENCIL_MAX_RADIUS);
    if (shape) {
        if (!strcmp(shape, "box")) d->shape = GK_STENCIL_BOX;
        else if (!strcmp(shape, "star")) d->shape = GK_STENCIL_STAR;
        else if (!strcmp(shape, "mask")) d->shape = GK_STENCIL_MASK;
        else cli_usage_error("--shape=%s: want box, star or mask", shape);
    }
    if (boundary) {
        if (!strcmp(boundary, "zero")) d->boundary = GK_BOUNDARY_ZERO;
        else if (!strcmp(boundary, "periodic")) d->boundary = GK_BOUNDARY_PERIODIC;
        else if (!strcmp(boundary, "fixed")) d->boundary = GK_BOUNDARY_FIXED;
        else cli_usage_error("--boundary=%s: want zero, periodic or fixed", boundary);
        if (named_bnd && d->boundary != named)
            cli_usage_error("--stencil=%s and --boundary=%s name two boundaries: give one", text, boundary);
    }
    return !(d->dims == 3 && d->shape == GK_STENCIL_BOX && d->radius == 1 && d->boundary == GK_BOUNDARY_ZERO &&
             *t == GK_DTYPE_FLOAT64);
}

void cli_check_stencil_config(const gk__stencil_spec *spec, const char *config)
{
    char key[sizeof spec->key];
    gk_config full;
    gk__stencil_spec_shape_key(spec, key, sizeof key);
    if (gk__stencil_gen_config_user(config, key, spec->dims, spec->radius, gk__stencil_gen_points(spec),
                                    gk_dtype_size(spec->dtype),
                                    NULL, &full))
        cli_usage_error("--config: %s", gk_last_error());
}

/* A 2D --size of one number (N: NxNx1) or two (NXxNY: NXxNYx1) as three;
 * NULL for any other text (three numbers are taken as they are). */
static const char *size_2d(const char *size)
{
    static char buf[128];
    const char *x = strchr(size, 'x');
    if ((x && strchr(x + 1, 'x')) || 2 * strlen(size) + 4 > sizeof buf)
        return NULL;
    if (x)
        snprintf(buf, sizeof buf, "%sx1", size);
    else
        snprintf(buf, sizeof buf, "%sx%sx1", size, size);
    return buf;
}

int cmd_stencil(int argc, char **argv)
{
    static const struct option opts[] = {
        { "size", required_argument, 0, O_SIZE }, { "steps", required_argument, 0, O_STEPS },
        { "input", required_argument, 0, O_INPUT }, { "output", required_argument, 0, O_OUTPUT },
        { "coeffs", required_argument, 0, O_COEFFS }, { "seed", required_argument, 0, O_SEED },
        { "device", required_argument, 0, O_DEVICE }, { "check", no_argument, 0, O_CHECK },
        { "time", no_argument, 0, O_TIME }, { "json", no_argument, 0, O_JSON },
        { "config", required_argument, 0, O_CONFIG }, { "verbose", no_argument, 0, O_VERBOSE },
        { "gpus", required_argument, 0, O_GPUS }, { "exchange", required_argument, 0, O_EXCHANGE },
        { "stencil", required_argument, 0, O_STENCIL }, { "dims", required_argument, 0, O_DIMS },
        { "shape", required_argument, 0, O_SHAPE }, { "radius", required_argument, 0, O_RADIUS },
        { "type", required_argument, 0, O_TYPE }, { "boundary", required_argument, 0, O_BOUNDARY },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *size = NULL, *input = NULL, *output = NULL, *coeffs = NULL, *gpus = NULL;
    const char *stencil = NULL, *dims = NULL, *shape = NULL, *radius = NULL, *type = NULL, *boundary = NULL;
    gk_exchange aex = GK_EXCHANGE_AUTO;
    int exg = 0;
    gk_backend want = GK_BACKEND_AUTO;
    gk_stencil_options so;
    gk_stencil_options_init(&so);
    int timing = 0, json = 0, verbose = 0, c;
    int64_t steps = 16;
    uint64_t seed = 1;
    /* --st abbreviated --steps before --stencil existed (1.1): it still does */
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--st"))
            argv[i] = "--steps";
        else if (!strncmp(argv[i], "--st=", 5) && argv[i][5]) {
            static char buf[64];
            snprintf(buf, sizeof buf, "--steps=%.50s", argv[i] + 5);
            argv[i] = buf;
        }
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_SIZE: size = optarg; break;
        case O_STEPS: steps = cli_parse_i64("--steps", optarg, 0, INT_MAX); break;
        case O_INPUT: input = cli_path("--input", optarg); break;
        case O_OUTPUT: output = cli_path("--output", optarg); break;
        case O_COEFFS: coeffs = cli_path("--coeffs", optarg); break;
        case O_SEED: seed = cli_parse_u64("--seed", optarg); break;
        case O_DEVICE: want = cli_parse_device(optarg); break;
        case O_CHECK: so.check = 1; break;
        case O_TIME: timing = 1; break;
        case O_JSON: json = 1; break;
        case O_CONFIG: so.config = optarg; break;
        case O_VERBOSE: verbose = 1; break;
        case O_GPUS: gpus = optarg; break;
        case O_EXCHANGE:
            if (gk_exchange_parse(optarg, &aex))
                cli_usage_error("--exchange: %s", gk_last_error());
            exg = 1;
            break;
        case O_STENCIL: stencil = optarg; break;
        case O_DIMS: dims = optarg; break;
        case O_SHAPE: shape = optarg; break;
        case O_RADIUS: radius = optarg; break;
        case O_TYPE: type = optarg; break;
        case O_BOUNDARY: boundary = optarg; break;
        case 'h': stencil_usage(); return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    if (!size)
        cli_usage_error("--size is required");
    cli_report_to(output);          /* --output=-: the reports go to stderr */
    /* the description: the classic 27-point box unless an option names another */
    gk_stencil_desc desc;
    gk_dtype dtype;
    int described = stencil_desc_args(stencil, dims, shape, radius, boundary, type, &desc, &dtype);
    int64_t nx, ny, nz;
    if (desc.dims == 2 && size_2d(size))
        cli_parse_size3("--size", size_2d(size), &nx, &ny, &nz);
    else
        cli_parse_size3("--size", size, &nx, &ny, &nz);
    gk_status st;
    if (!described)
        cli_check_config("stencil", so.config);
    if (input && coeffs && !strcmp(input, "-") && !strcmp(coeffs, "-"))
        cli_usage_error("--input and --coeffs cannot both be standard input");
    /* what each rank sees of the files (under mpirun, ranks may have other
       directories or nodes): agreed before anyone dies */
    st = GK_OK;
    if (output) {
        st = gk__output_check(output, input);
        if (!st && coeffs)          /* the coefficient file is an input too */
            st = gk__output_check(output, coeffs);
    }
    double cf[GK_STENCIL_NCOEFFS];
    double weights[GK_STENCIL_MAX_POINTS];
    memcpy(cf, gk_stencil_default_coeffs, sizeof cf);
    if (!st && coeffs && !described)
        st = gk_stencil_coeffs_read(coeffs, cf);
    else if (!st && coeffs && !(st = gk_stencil_weights_read(coeffs, desc.dims, desc.radius, weights)))
        desc.weights = weights;
    gk__stencil_spec spec;
    if (!st && described && coeffs && (st = gk__stencil_spec_make(&desc, dtype, &spec))) {
        char msg[512];                  /* the weights came from the file: its failure */
        snprintf(msg, sizeof msg, "%s", gk_last_error());
        st = gk__fail(st, "%s: %s", coeffs, msg);
    }
    cli_agree(st, 1);
    /* what the options alone decide (a mask without --coeffs, a 2D stencil
       on a 3D --size, a periodic extent below 2R+1): usage errors, 2 */
    if (described && !coeffs)
        st = gk__stencil_spec_make(&desc, dtype, &spec);
    if (!st && described)
        st = gk__stencil_spec_check_grid(&spec, nx, ny, nz);
    cli_agree(st, 2);
    if (described && so.config) {
        cli_check_stencil_config(&spec, so.config);
        if (gpus || exg || cli_comm) {
            char key[sizeof spec.key];
            gk__stencil_spec_shape_key(&spec, key, sizeof key);
            cli_usage_error("--config with stencil %s: one process on one GPU in this release (not with --gpus, "
                            "--exchange or mpirun)", key);
        }
    }
    cli_check_gpus(gpus);                   /* usage errors before any work */
    if (gpus || exg || cli_comm) {
        if (so.check)
            cli_usage_error("--check needs the whole grid in one process; not with --gpus, --exchange or mpirun");
        gk_exchange ex = aex == GK_EXCHANGE_HOST ? GK_EXCHANGE_HOST
                                 : aex == GK_EXCHANGE_DEVICE ? GK_EXCHANGE_DEVICE
                                 : GK_EXCHANGE_AUTO;
        return stencil_dist(cli_gpus_context(want, gpus), input, seed, output, nx, ny, nz, cf,
                            described ? &desc : NULL, dtype, described ? spec.radius : 1,
                            described ? 2.0 * spec.npoints - 1 : GK_STENCIL_FLOPS_PER_POINT, steps, so.config, ex,
                            timing, json, verbose);
    }
    gk_context *ctx = cli_context(want);

    uint64_t npts = (uint64_t)nx * (uint64_t)ny * (uint64_t)nz, gbytes = npts * gk_dtype_size(dtype);
    char what[96];
    snprintf(what, sizeof what, "stencil grid %lldx%lldx%lld", (long long)nx, (long long)ny, (long long)nz);
    if ((st = gk__host_memory_check(gbytes, what)))
        cli_die_status(st);
    void *grid = malloc((size_t)gbytes);
    if (!grid)
        cli_die("out of memory for the %s (%.3g GB)", what, (double)gbytes / 1e9);
    double read = -1, write = -1;
    if (input) {
        double t0 = gk__wtime();
        if ((st = gk_grid_read_type(input, nx, ny, nz, dtype, grid)))
            cli_die_status(st);
        read = gk__wtime() - t0;
    } else {
        double t0 = gk__wtime();
        gk__grid_random_type(grid, nx, ny, nz, dtype, seed);
        read = gk__wtime() - t0;            /* reported as "generate", as past one process */
    }

    gk_report rep;
    gk_stencil_problem prob;
    gk_report_init(&rep);
    gk_stencil_problem_init(&prob, nx, ny, nz);
    if (described) {
        prob.desc = &desc;
        prob.dtype = dtype;
    } else {
        prob.coeffs = cf;
    }
    /* flops per point: the chain's multiply and its fmas (2 each) */
    const double flops = described ? 2.0 * spec.npoints - 1 : GK_STENCIL_FLOPS_PER_POINT;
    st = gk_stencil_run(ctx, &prob, grid, steps, &so, &rep);
    if (verbose) {
        char w[160];
        snprintf(w, sizeof w, "stencil %lldx%lldx%lld, %lld step%s", (long long)nx, (long long)ny, (long long)nz,
                 (long long)steps, steps == 1 ? "" : "s");
        cli_report_verbose(w, &rep);
    }
    if (st == GK_EMISMATCH)
        cli_die("check failed: %s (max rel %.3g)", gk_last_error(), rep.check_max_rel);
    if (st)
        cli_die_status(st);
    cli_report_notes(&rep);
    if (output) {
        double t0 = gk__wtime();
        if ((st = gk_grid_write_type(output, nx, ny, nz, dtype, grid)))
            cli_die_status(st);
        write = gk__wtime() - t0;
    }
    free(grid);
    gk_context_destroy(ctx);

    double secs = rep.compute;
    double gst = secs > 0 ? (double)npts * (double)steps / secs * 1e-9 : 0;
    if (json) {
        json_begin();
        json_str("command", "stencil");
        json_int("nx", nx); json_int("ny", ny); json_int("nz", nz);
        json_int("steps", steps);
        if (described) {
            char text[64];
            gk_stencil_desc_format(&desc, text, sizeof text);
            json_str("stencil", text);
            json_str("type", dtype == GK_DTYPE_FLOAT32 ? "f32" : "f64");
            json_int("points", spec.npoints);
        }
        cli_json_report(&rep);
        cli_json_times_as(&rep, input ? "read" : "generate", read, write);
        json_num("gstencil_per_s", gst);
        json_num("gflop_per_s", gst * flops);
        if (so.check) {
            json_object("check");
            json_str("against", rep.check_against);
            json_num("max_abs", rep.check_max_abs); json_num("max_rel", rep.check_max_rel);
            json_num("tolerance", rep.check_tolerance); json_bool("ok", rep.checked);
            json_object_end();
        }
        json_end();
        return 0;
    }
    if (timing)
        cli_print_times_as(&rep, input ? "read" : "generate", read, write);
    char label[80] = "stencil";
    if (described) {
        char text[64];
        gk_stencil_desc_format(&desc, text, sizeof text);
        snprintf(label, sizeof label, "stencil %s %s", text, dtype == GK_DTYPE_FLOAT32 ? "f32" : "f64");
    }
    if (timing || !output)              /* without --output this line is all the run shows */
        fprintf(cli_report, "%s %lldx%lldx%lld, %lld step%s on %s: %.6f s, %.3f GStencil/s, %.2f GFLOP/s%s\n",
               label, (long long)nx, (long long)ny, (long long)nz, (long long)steps, steps == 1 ? "" : "s",
               gk_backend_name(rep.backend), secs,
               gst, gst * flops, output ? "" : CLI_NOT_WRITTEN);
    if (so.check && described)
        fprintf(cli_report, "check against %s: bit for bit: ok\n", rep.check_against);
    else if (so.check)
        fprintf(cli_report, "check against %s: max abs diff %.3g, max rel diff %.3g (tolerance %.3g): ok\n",
               rep.check_against, rep.check_max_abs, rep.check_max_rel, rep.check_tolerance);
    return 0;
}

int cmd_gen_stencil(int argc, char **argv)
{
    const char *size;
    uint64_t seed;
    if (cli_gen_args(argc, argv,
                     "Usage: gk gen grid --size=NX[xNYxNZ] [--seed=S] OUTPUT\n"
                     "Write a reproducible random grid (uniform in [-1,1), raw float64, x fastest):\n"
                     "the initial grid `gk stencil` uses for the same size and seed.\n\n"
                     "  --size=N|NXxNYxNZ  grid size (required)\n"
                     "  --seed=S           random seed (default 1)\n"
                     "  -h, --help         display this help and exit\n", &size, &seed))
        return 0;
    int64_t nx, ny, nz;
    cli_parse_size3("--size", size, &nx, &ny, &nz);
    cli_check_output(argv[optind], NULL);
    uint64_t bytes = (uint64_t)nx * (uint64_t)ny * (uint64_t)nz * 8;
    char what[96];
    snprintf(what, sizeof what, "grid %lldx%lldx%lld", (long long)nx, (long long)ny, (long long)nz);
    gk_status st;
    if ((st = gk__host_memory_check(bytes, what)))
        cli_die_status(st);
    double *g = malloc((size_t)bytes);
    if (!g)
        cli_die("out of memory for the %s", what);
    gk_grid_random(g, (int)nx, (int)ny, (int)nz, seed);
    if ((st = gk_grid_write(argv[optind], (int)nx, (int)ny, (int)nz, g)))
        cli_die_status(st);
    free(g);
    return 0;
}

/* `gk bench stencil --gpus=N` or under mpirun: one GPU against the slabs. */
static int bench_multi(gk_context *ctx, const char *list, int steps, const char *user_cfg, int json)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    if (cli_mpi_nccl_ctas_default)     /* the halo copies run alone: let NCCL use its channels */
        unsetenv("NCCL_MAX_CTAS");
    int first = 1, bad = 0;
    if (json) { json_begin(); json_str("command", "bench stencil"); json_str("mode", "multi-gpu");
                json_int("steps", steps); json_array("rows"); }
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int64_t nx, ny, nz;
        cli_parse_size3("--sizes", tok, &nx, &ny, &nz);
        gk__stencil_multi_row r;
        gk_status st = gk__stencil_bench_multi(ctx, nx, ny, nz, steps, user_cfg, &r);
        if (st)
            cli_die_status(st);
        bad |= r.identical == 0;
        if (json) {
            json_object(NULL);
            json_str("size", tok); json_int("steps", r.steps);
            json_int("gpus", r.gpus); json_int("ranks", r.ranks); json_int("halo_planes", r.halo);
            json_str("exchange", r.exchange); json_str("device_name", r.device); json_str("config", r.config);
            json_num("one_gpu_seconds", r.one_seconds); json_num("one_gpu_gstencil_per_s", r.one_gstencils);
            json_num("seconds", r.seconds); json_num("gstencil_per_s", r.gstencils);
            json_num("exchange_busy", r.busy); json_num("exchange_stall", r.stall);
            json_num("speedup", r.speedup); json_num("efficiency", r.efficiency);
            if (r.identical < 0) json_str("identical", "not compared");
            else json_bool("identical", r.identical);
            json_object_end();
            continue;
        }
        if (first)
            printf("gk bench stencil past one GPU: %s; config %s; z slabs, halo %d plane%s every %d step%s; "
                   "exchange: %s; %d steps after a warm-up; efficiency = 1-GPU time / (GPUs x time)\n"
                   "%-14s %4s %5s %10s %11s %10s %11s %8s %6s %9s %9s  %s\n",
                   r.device, r.config, r.halo, r.halo == 1 ? "" : "s", r.halo, r.halo == 1 ? "" : "s", r.exchange,
                   steps, "size", "gpus", "ranks", "1-GPU s", "1-GPU GSt/s", "seconds", "GStencil/s", "speedup",
                   "eff", "busy s", "stall s", "same bits as 1 GPU");
        first = 0;
        char one_s[32] = "-", one_g[32] = "-", sp[32] = "-", ef[32] = "-";
        if (r.one_seconds > 0) {
            snprintf(one_s, sizeof one_s, "%.4f", r.one_seconds);
            snprintf(one_g, sizeof one_g, "%.2f", r.one_gstencils);
            snprintf(sp, sizeof sp, "%.3f", r.speedup);
            snprintf(ef, sizeof ef, "%.1f%%", 100 * r.efficiency);
        }
        printf("%-14s %4d %5d %10s %11s %10.4f %11.2f %8s %6s %9.5f %9.5f  %s\n", tok, r.gpus, r.ranks, one_s, one_g,
               r.seconds, r.gstencils, sp, ef, r.busy, r.stall,
               r.identical < 0 ? "not compared" : r.identical ? "yes" : "NO");
        fflush(stdout);
    }
    if (json) { json_array_end(); json_end(); }
    gk_context_destroy(ctx);
    if (bad) cli_die("bench stencil: the slabs differ from one GPU");
    return 0;
}

/* a --sizes item: N or NXxNYxNZ */
static void check_size(const char *opt, const char *item)
{
    int64_t a, b, d;
    cli_parse_size3(opt, item, &a, &b, &d);
}

/* Every --sizes item against the described stencil (2D: N or NXxNY too; a
 * periodic extent of at least 2R+1): usage errors, exit 2, before any
 * size runs. */
static void check_sizes_for(const char *sizes, const gk__stencil_spec *spec, int dims)
{
    char list[1024];
    snprintf(list, sizeof list, "%s", sizes);
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int64_t nx, ny, nz;
        cli_parse_size3("--sizes", dims == 2 && size_2d(tok) ? size_2d(tok) : tok, &nx, &ny, &nz);
        if (gk__stencil_spec_check_grid(spec, nx, ny, nz))
            cli_usage_error("--sizes: %s: %s", tok, gk_last_error());
    }
}

/* The rate that bounds a design of t steps per pass: t times the one-step
 * memory floor, capped by the FMA ceiling where one was measured (GPU) */
static double bench_bound(const gk__stencil_bench_report *R, int t)
{
    return cli_stencil_bound(R->floor_gstencils, R->ceiling_gstencils, t);
}

int cmd_bench_stencil(int argc, char **argv)
{
    static const struct option opts[] = {
        { "device", required_argument, 0, O_DEVICE }, { "sizes", required_argument, 0, O_SIZES },
        { "steps", required_argument, 0, O_STEPS }, { "reps", required_argument, 0, O_REPS },
        { "config", required_argument, 0, O_CONFIG }, { "json", no_argument, 0, O_JSON },
        { "gpus", required_argument, 0, O_GPUS },
        { "stencil", required_argument, 0, O_STENCIL }, { "type", required_argument, 0, O_TYPE },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *sizes = NULL, *user_cfg = NULL, *gpus = NULL, *stencil = NULL, *type = NULL;
    gk_backend want = GK_BACKEND_AUTO;
    int steps = -1, reps = -1, json = 0, c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_DEVICE: want = cli_parse_device(optarg); break;
        case O_SIZES: sizes = optarg; break;
        case O_STEPS: steps = (int)cli_parse_i64("--steps", optarg, 1, INT_MAX); break;
        case O_REPS: reps = (int)cli_parse_i64("--reps", optarg, 1, 64); break;
        case O_CONFIG: user_cfg = optarg; break;
        case O_JSON: json = 1; break;
        case O_GPUS: gpus = optarg; break;
        case O_STENCIL: stencil = optarg; break;
        case O_TYPE: type = optarg; break;
        case 'h':
            printf("Usage: gk bench stencil [--device=auto|cpu|gpu] [--sizes=N|NXxNYxNZ,...]\n"
                   "                        [--steps=NT] [--reps=R] [--config=K=V,...]\n"
                   "                        [--gpus=N|all|LIST] [--stencil=DESC] [--type=f64|f32]\n"
                   "                        [--json]\n"
                   "Time the stencil designs against the memory floor measured in the same run\n"
                   "(copy bandwidth, bytes read + written, over 16 B per point: one step per\n"
                   "pass over memory).  GPU: a naive kernel (one point per thread, 27 global\n"
                   "loads), the shared-memory tile, the 2.5D z-streaming kernel and the\n"
                   "temporally blocked kernel with T = 1..4 steps per pass, and the fp64 FMA\n"
                   "ceiling (27 FMAs per point) measured in the same run, over each row's work\n"
                   "per stored point (halos recomputed, tiles past the grid: the row's compute\n"
                   "ceiling); median of R runs\n"
                   "(default 5) of NT steps (default 100) on sizes 256,512.  CPU: the plain\n"
                   "reference loop (one run of 2 steps), the backend with one step per sweep\n"
                   "for each instruction set the CPU has and its temporal sweeps (T = 2..4);\n"
                   "default 3 runs of 10 steps on 128,256.  Each design is checked against\n"
                   "the CPU after 5 steps.\n\n"
                   "  --device=auto|cpu|gpu  where to run (auto: the GPU when one is usable)\n"
                   "  --sizes=LIST           grid sizes, comma-separated\n"
                   "  --steps=NT             steps per timed run\n"
                   "  --reps=R               timed runs per design (1..64)\n"
                   "  --config=K=V,...       GPU kernel parameters (replace the tuned choice)\n"
                   "  --stencil=DESC         another stencil (3d-star-r1, 2d-box-r2:fixed:f32, ...;\n"
                   "                         CPU: the plain loop and the backend, checked bit\n"
                   "                         for bit, against the copy floor of all threads)\n"
                   "  --type=f64|f32         its element type (default f64)\n"
                   "  --gpus=N|all|LIST      past one GPU: one GPU against z slabs over the GPUs\n"
                   "                         (speedup, efficiency, exchange busy and stall, the\n"
                   "                         slabs compared with one GPU bit for bit); default\n"
                   "                         size 1024, 100 steps.  Also under mpirun, one GPU\n"
                   "                         per rank (no one-GPU run there)\n"
                   "  --json                 print the rows as JSON\n"
                   "  -h, --help             display this help and exit\n");
            return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    gk_status st;
    gk_stencil_desc desc;
    gk_dtype dtype;
    /* --stencil here is the CPU's rows (--device=cpu or no usable GPU), of
     * one description: a list would be refused as one malformed description
     * ("boundary 'f32,2d-box-r1'") */
    if (stencil && strchr(stencil, ','))
        cli_usage_error("bench stencil --stencil=%s on the CPU (--device=cpu or no usable GPU): one description at "
                        "a time (a list is the GPU's)", stencil);
    int described = (stencil || type) && stencil_desc_args(stencil, NULL, NULL, NULL, NULL, type, &desc, &dtype);
    gk__stencil_spec spec;
    if (described && (gpus || cli_comm))
        cli_usage_error("bench stencil --stencil: not with --gpus or mpirun in this release");
    /* --config with --stencil is the generated engine's, checked against
       the description's rules, then not used by a CPU run (which says so):
       also where --stencil names the 27-point box (3d-box-r1, float64,
       zero; here the classic CPU rows, on a GPU the generated engine's
       bench): PF, TX, ..., not BX */
    if (described || (stencil && user_cfg)) {
        if (gk__stencil_spec_make(&desc, dtype, &spec))
            cli_usage_error("--stencil: %s", gk_last_error());
        if (user_cfg)
            cli_check_stencil_config(&spec, user_cfg);
    } else if (!stencil) {
        cli_check_config("stencil", user_cfg);
    }
    char list[1024];
    if (sizes && !(described && desc.dims == 2))   /* usage errors before any work (2D: NXxNY, per size) */
        cli_check_size_list("--sizes", sizes, check_size);
    if (gpus || cli_comm) {
        cli_check_gpus(gpus);
        if (want == GK_BACKEND_CPU)
            cli_usage_error("bench stencil past one GPU runs on GPUs; not with --device=cpu");
        gk_context *ctx = cli_gpus_context(GK_BACKEND_GPU, gpus);
        return bench_multi(ctx, sizes ? sizes : "1024", steps < 0 ? 100 : steps, user_cfg, json);
    }
    int gpu;
    gk_context *ctx = cli_bench_context(want, user_cfg, &gpu);
    if ((described || stencil) && gpu)
        cli_die("bench stencil --stencil=%s on the GPU: the generated engine's benchmark is not in this build "
                "(use --device=cpu)", stencil ? stencil : "3d-box-r1");
    if (steps < 0) steps = gpu ? 100 : 10;
    if (reps < 0) reps = gpu ? 5 : 3;
    snprintf(list, sizeof list, "%s", sizes ? sizes : gpu ? "256,512" : "128,256");
    if (described)
        check_sizes_for(list, &spec, desc.dims);
    if (json) { json_begin(); json_str("command", "bench stencil"); json_str("device", gpu ? "gpu" : "cpu");
                json_int("steps", steps); json_int("reps", reps); json_array("rows"); }
    int first = 1, bad = 0;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int64_t nx, ny, nz;
        gk__stencil_bench_report R;
        if (described && desc.dims == 2 && size_2d(tok))
            cli_parse_size3("--sizes", size_2d(tok), &nx, &ny, &nz);
        else
            cli_parse_size3("--sizes", tok, &nx, &ny, &nz);
        st = described ? gk__stencil_bench_desc_cpu(ctx, &spec, nx, ny, nz, steps, reps, &R)
                       : gk__stencil_bench(ctx, nx, ny, nz, steps, reps, stencil ? NULL : user_cfg, &R);
        if (st)
            cli_die_status(st);
        const int esz = described ? (int)gk_dtype_size(dtype) : 8;
        if (first && !json && described) {
            char text[64];
            gk_stencil_desc_format(&desc, text, sizeof text);
            printf("gk bench stencil %s %s (%d points): %s; %%floor = GStencil/s over the one-step\n"
                   "  floor (%d B/point at the copy bandwidth of all threads measured per size below);\n"
                   "  median of %d runs of %d steps; check: 3 steps vs the plain loop, bit for bit\n", text,
                   dtype == GK_DTYPE_FLOAT32 ? "f32" : "f64", spec.npoints, R.device, 2 * esz, reps, steps);
            printf("%-14s %5s  %-9s %2s %9s %11s %7s  %-16s %s\n", "size", "steps", "kernel", "T", "ms/step",
                   "GStencil/s", "%floor", "check", "config");
        } else if (first && !json) {
            printf("gk bench stencil: %s; %%floor = GStencil/s over the one-step floor (16 B/point at\n"
                   "  the copy bandwidth measured per size below); T = steps per pass; median of %d runs\n"
                   "  of %d steps; check: 5 steps vs the CPU\n", R.device, reps, steps);
            printf("%-14s %5s  %-9s %2s %9s %11s %7s  %-16s %s\n", "size", "steps", "kernel", "T", "ms/step",
                   "GStencil/s", "%floor", "check", "config");
        }
        first = 0;
        for (int i = 0; i < R.nrows; i++) {
            const gk__stencil_bench_row *r = &R.row[i];
            bad |= !r->ok && strncmp(r->check, "not run", 7);
            if (json) {
                json_object(NULL);
                json_str("size", tok); json_str("kernel", r->kernel); json_int("steps", r->steps);
                json_int("tsteps", r->tsteps);
                json_num("ms_per_step", r->ms_per_step); json_num("gstencil_per_s", r->gstencils);
                /* null without a floor (the grid fits in the last-level cache) */
                json_num("percent_of_floor", R.floor_gstencils > 0 ? 100 * r->gstencils / R.floor_gstencils : NAN);
                json_str("check", r->check); json_bool("ok", r->ok); json_str("config", r->config);
                json_num("floor_gstencil_per_s", R.floor_gstencils > 0 ? R.floor_gstencils : NAN);
                json_num("ceiling_gstencil_per_s", R.ceiling_gstencils > 0 ? R.ceiling_gstencils : NAN);
                /* what bounds this row's T: the memory floor of T steps per
                   pass (one read and one write of the grid a pass) and the
                   FMA ceiling (GPU; recomputed halos not counted) */
                json_num("floor_t_gstencil_per_s", R.floor_gstencils > 0 ? r->tsteps * R.floor_gstencils : NAN);
                json_num("bound_gstencil_per_s", bench_bound(&R, r->tsteps));
                /* GPU: the row's own work (its tiles' recomputed halos, the
                   points past the grid, the z chunks' fill) and the FMA
                   ceiling over it, then the lower of that and the floor */
                if (r->work > 0 && R.ceiling_gstencils > 0) {
                    double ceil_row = R.ceiling_gstencils / r->work;
                    json_num("work_per_point", r->work);
                    json_num("ceiling_row_gstencil_per_s", ceil_row);
                    json_num("bound_row_gstencil_per_s", cli_stencil_bound(R.floor_gstencils, ceil_row, r->tsteps));
                }
                json_object_end();
            } else if (!strncmp(r->check, "not run", 7)) {
                printf("%-14s %5d  %-9s %2d  %s\n", tok, r->steps, r->kernel, r->tsteps, r->check);
            } else if (R.floor_gstencils > 0) {
                printf("%-14s %5d  %-9s %2d %9.4f %11.2f %6.1f%%  %-16s %s\n", tok, r->steps, r->kernel, r->tsteps,
                       r->ms_per_step, r->gstencils, 100 * r->gstencils / R.floor_gstencils, r->check, r->config);
            } else {
                printf("%-14s %5d  %-9s %2d %9.4f %11.2f %7s  %-16s %s\n", tok, r->steps, r->kernel, r->tsteps,
                       r->ms_per_step, r->gstencils, "n/a", r->check, r->config);
            }
        }
        if (!json) {
            double mb = (double)nx * ny * nz * esz * 1e-6;
            if (R.floor_gstencils > 0)
                printf("%-14s copy bandwidth over %.*f MB: %.0f GB/s -> one-step floor %.2f GStencil/s\n", tok,
                       mb < 10 ? 2 : 0, mb, R.copy_bytes_per_s * 1e-9, R.floor_gstencils);
            else                /* an in-cache copy is no memory floor */
                printf("%-14s copy bandwidth over 2 x %.*f %s: n/a (grid fits in cache: the last-level cache holds "
                       "both; no memory floor)\n", tok, mb < 1 ? 1 : mb < 10 ? 2 : 0, mb < 1 ? mb * 1e3 : mb,
                       mb < 1 ? "KB" : "MB");
            if (R.fma_per_s > 0)
                printf("%-14s fp64 FMA chains: %.2f TFMA/s (%.1f TFLOP/s) -> ceiling %.1f GStencil/s at 27 FMA/point\n",
                       tok, R.fma_per_s * 1e-12, 2 * R.fma_per_s * 1e-12, R.ceiling_gstencils);
            if (R.floor_gstencils > 0) {
                int tmax = 1;
                for (int i = 0; i < R.nrows; i++)
                    if (R.row[i].tsteps > tmax) tmax = R.row[i].tsteps;
                printf("%-14s bound per T (min of T x the floor%s):", tok,
                       R.ceiling_gstencils > 0 ? " and the FMA ceiling; recomputed halos not counted" : "");
                for (int t = 1; t <= tmax; t++)
                    printf(" T=%d %.2f%s", t, bench_bound(&R, t), bench_bound(&R, t) < t * R.floor_gstencils ?
                           " (FMA)" : "");
                printf(" GStencil/s\n");
            }
            /* GPU: each row's compute ceiling with the work its tiles do */
            int counted = 0;
            for (int i = 0; i < R.nrows; i++)
                counted |= R.row[i].work > 0 && strncmp(R.row[i].check, "not run", 7);
            if (counted && R.ceiling_gstencils > 0) {
                printf("%-14s compute ceiling per row (the FMA ceiling over the row's FP64 work per stored point: "
                       "recomputed halos, tiles past the grid, z fill):", tok);
                for (int i = 0; i < R.nrows; i++) {
                    const gk__stencil_bench_row *r = &R.row[i];
                    char name[32];
                    if (strcmp(r->kernel, "temporal"))
                        snprintf(name, sizeof name, "%s", r->kernel);
                    else
                        snprintf(name, sizeof name, "T=%d", r->tsteps);
                    if (r->work > 0 && strncmp(r->check, "not run", 7))
                        printf(" %s %.3fx %.2f", name, r->work, R.ceiling_gstencils / r->work);
                }
                printf(" GStencil/s\n");
            }
        }
        fflush(stdout);
    }
    if (json) { json_array_end(); json_end(); }
    gk_context_destroy(ctx);
    if (bad) cli_die("bench stencil: a design failed its check");
    return 0;
}
