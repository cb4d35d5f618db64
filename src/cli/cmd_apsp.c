/* cmd_apsp.c - `gk apsp`, `gk gen apsp` and `gk bench apsp`: option parsing
 * and printing around gk_apsp_solve, gk__apsp_generate_nthu and gk__apsp_bench. */
#include "cli/cli.h"
#include "api/apsp_dist.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { O_TYPES = 250, O_DEVICE = 256, O_CHECK, O_TIME, O_JSON, O_VERBOSE, O_CONFIG,
       O_VERTICES, O_EDGES, O_SEED, O_MAXW, O_SIZES, O_FORMAT, O_OFORMAT, O_UNDIRECTED, O_ONE_BASED,
       O_GPUS, O_EXCHANGE, O_PRECISION, O_WEIGHTS, O_PREDECESSORS, O_KIND, O_SHORTCUTS, O_SOURCES, O_ALGORITHM,
       O_MIN_ONLY, O_LIMIT, O_NEAREST };

/* After a run that succeeded (a failed one says only why it failed): a
 * distance as long as INF cannot be told from "no path". */
static void warn_long_paths(const char *in, int32_t V, int32_t maxw)
{
    if (V > 1 && (double)(V - 1) * maxw >= GK_APSP_INF)
        cli_warn("%s: (V - 1) * max weight = %.0f: paths that long are reported as unreachable", in,
                 (double)(V - 1) * maxw);
}

/* `gk apsp` past one process or GPU: gk_apsp_run_file's inside call with
 * the single-process path's formats and weight types. */
static int apsp_dist(gk_context *ctx, const char *in, const char *out, const gk__apsp_dist_in *din,
                     const char *config, gk_exchange ex, int timing, int json, int verbose)
{
    gk_apsp_dist_report rep;
    gk_apsp_dist_report_init(&rep);
    gk_status st = gk__apsp_run_file_typed(ctx, in, out, din, config, ex, &rep);
    const char *wname = gk_dtype_name(rep.run.dtype ? rep.run.dtype : GK_DTYPE_INT32);
    char where[64];
    if (rep.gpus)
        snprintf(where, sizeof where, "%d GPU%s, %d rank%s", rep.gpus, rep.gpus == 1 ? "" : "s", rep.ranks,
                 rep.ranks == 1 ? "" : "s");
    else
        snprintf(where, sizeof where, "the CPUs of %d rank%s", rep.ranks, rep.ranks == 1 ? "" : "s");
    if ((verbose || timing) && !cli_quiet) {
        char what[256];
        snprintf(what, sizeof what, "apsp V = %lld, E = %lld, %s distances over %s (exchange: %s)", (long long)rep.V,
                 (long long)rep.E, wname, where, rep.exchange);
        cli_report_verbose(what, &rep.run);
    }
    if (st == GK_ENEGCYCLE)     /* as one process says it */
        cli_die("%s: %s", strcmp(in, "-") ? in : "standard input", gk_last_error());
    if (st)
        cli_die_status(st);
    cli_report_notes(&rep.run);
    warn_long_paths(in, rep.V, rep.max_w);
    gk_context_destroy(ctx);
    double rate = rep.compute > 0 ? (double)rep.V * rep.V * rep.V / rep.compute : 0;
    const char *names[] = { "read", "distribute", "compute", "write" };
    double v[] = { rep.read, rep.distribute, rep.compute, rep.write }, total = 0;
    for (int i = 0; i < 4; i++) total += v[i];
    if (json) {
        json_begin();
        json_str("command", "apsp");
        json_str("input", in); json_str("output", out);
        json_int("vertices", rep.V); json_int("edges", rep.E);
        cli_json_report(&rep.run);
        json_int("ranks", rep.ranks); json_int("gpus", rep.gpus);
        json_str("exchange", rep.exchange);
        json_str("weights", wname);
        json_str("check", "not run");
        json_int("precision", 8 * (int)gk_dtype_size(rep.run.dtype ? rep.run.dtype : GK_DTYPE_INT32));
        json_str("precision_detail", "rows over several GPUs or ranks run in the weight type");
        json_object("seconds");
        json_num("read", rep.read); json_num("distribute", rep.distribute); json_num("compute", rep.compute);
        json_num("exchange_busy", rep.exchange_busy); json_num("exchange_stall", rep.exchange_stall);
        json_num("write", rep.write); json_num("total", total);
        json_object_end();
        json_num("min_plus_per_second", rate);
        json_end();
    } else if (timing) {
        printf("%-16s %12s %8s\n", "phase", "seconds", "share");
        for (int i = 0; i < 4; i++) {
            printf("%-16s %12.6f %7.1f%%\n", names[i], v[i], total > 0 ? 100 * v[i] / total : 0);
            if (i == 2) {
                printf("%-16s %12.6f %7s  (links busy moving panels)\n", "  exchange busy", rep.exchange_busy, "");
                printf("%-16s %12.6f %7s  (compute waiting for a panel)\n", "  exchange stall", rep.exchange_stall, "");
            }
        }
        printf("%-16s %12.6f %7.1f%%\n", "total", total, 100.0);
        printf("compute rate     %.3f G min-plus/s (V^3 / compute time, as in one process) on %s; exchange: %s\n",
               rate / 1e9, where, rep.exchange);
        printf("weights          %s\n", wname);
    }
    return 0;
}

/* The context (CUDA's included) created on a thread while the input is
 * read: the two costs overlap instead of adding up. */
typedef struct ctx_job {
    gk_backend want;
    int32_t V;                  /* > 0: known from the header, make the plan too */
    const gk_apsp_options *ao;
    gk_context *ctx;
    gk_apsp_plan *plan;         /* made for V on this thread (NULL: not, or it failed) */
    double plan_seconds;
    gk_status st;
    char msg[1024];
    double seconds;             /* the whole thread */
    double end;                 /* gk__wtime() at its end */
    double driver;              /* of which the CUDA driver's start (cuInit) */
    double create;              /* and gk_context_create (the driver's start included) */
    int on_gpu;                 /* the context is on the GPU */
} ctx_job;

static void *ctx_thread(void *arg)
{
    ctx_job *j = arg;
    gk_context_options o;
    double t0 = gk__wtime();
    gk_context_options_init(&o);
    if (!(j->st = gk_context_options_from_env(&o))) {
        o.backend = j->want;
        o.comm = cli_comm;
        /* the driver's start first (0.1 s and more): the main thread loads
           the CPU topology meanwhile, after its read */
        if (o.backend != GK_BACKEND_CPU) {
            int n;
            (void)gk_gpu_count(&n);     /* gk_context_create says what failed */
            j->driver = gk__wtime() - t0;
        }
        j->st = gk_context_create(&j->ctx, &o);
    }
    j->create = gk__wtime() - t0;
    j->on_gpu = !j->st && gk_context_backend(j->ctx) == GK_BACKEND_GPU;
    if (j->st)
        snprintf(j->msg, sizeof j->msg, "%s", *gk_last_error() ? gk_last_error() : gk_strerror(j->st));
    else if (j->V > 0) {        /* a failure here is made again, and reported, by the solve */
        gk_apsp_problem p;
        double p0 = gk__wtime();
        gk_apsp_problem_init(&p, j->V);
        if (gk_apsp_plan_create(j->ctx, &p, j->ao, &j->plan))
            j->plan = NULL;
        j->plan_seconds = gk__wtime() - p0;
    }
    j->end = gk__wtime();
    j->seconds = j->end - t0;
    return NULL;
}

/* `gk apsp` with chosen sources: the option rules, then cli_sssp. */
typedef struct apsp_sssp_in {
    const char *in, *out, *pred_out, *nearest_out, *sources_text, *config, *gpus;
    gk_format ifmt, ofmt;
    int undirected, one_based, min_only, exchange_given, check, precision_given, timing, json, verbose;
    int32_t vertices;
    gk_dtype weights;
    gk_sssp_algorithm alg;
    double limit;
    gk_backend want;
} apsp_sssp_in;

static int apsp_sources(const apsp_sssp_in *a)
{
    cli_check_config("apsp", a->config);   /* fw's kernels read it: checked whatever the algorithm */
    if (a->check)
        cli_usage_error("--check: the rows of chosen sources are checked by the tests, not by --check");
    if (a->precision_given)
        cli_usage_error("--precision: the 16-bit path is Floyd-Warshall's over all pairs, not with --sources");
    if (a->exchange_given)
        cli_usage_error("--exchange: the sources' rows exchange nothing");
    if (a->nearest_out && !a->min_only)
        cli_usage_error("--nearest=%s: the nearest sources come with --min-only", a->nearest_out);
    if (a->ofmt != GK_FORMAT_AUTO && a->ofmt != GK_FORMAT_NTHU && a->ofmt != GK_FORMAT_NPY)
        cli_usage_error("--output-format: the rows are written raw (nthu) or as .npy");
    const char *outs[3] = { a->out, a->pred_out, a->nearest_out };
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (outs[i] && outs[j] && !strcmp(outs[i], outs[j]) && strcmp(outs[i], "/dev/null"))
                cli_usage_error("%s: named as two outputs", outs[i]);
    int64_t S = 0;
    int64_t *src = a->sources_text ? cli_parse_sources(a->sources_text, &S) : NULL;
    if (cli_comm) {
        cli_agree(gk__output_check(a->out, a->in), 1);
    } else {
        for (int i = 0; i < 3; i++)
            if (outs[i]) cli_check_output(outs[i], a->in);
    }
    cli_report_to(a->out);
    gk_context *ctx = a->gpus || cli_comm ? cli_gpus_context(a->want, a->gpus) : cli_context(a->want);
    cli_sssp_args sa = { .in = a->in, .out = a->out, .pred_out = a->pred_out, .nearest_out = a->nearest_out,
                         .format = a->ifmt, .out_format = a->ofmt,
                         .flags = (a->undirected ? GK__READ_UNDIRECTED : 0) | (a->one_based ? GK__READ_ONE_BASED : 0),
                         .vertices = a->vertices, .weights = a->weights, .sources = src, .S = S,
                         .algorithm = a->alg, .min_only = a->min_only, .limit = a->limit, .config = a->config,
                         .timing = a->timing, .json = a->json, .verbose = a->verbose };
    int rc = cli_sssp(ctx, &sa);
    free(src);
    return rc;
}

static void apsp_usage(void)
{
    printf("Usage: gk apsp [OPTION]... INPUT OUTPUT\n"
           "All-pairs shortest paths by blocked Floyd-Warshall.  INPUT: a graph in the NTHU\n"
           "format (int32 V, int32 E, E triples int32 src, dst, w), DIMACS .gr, Matrix\n"
           "Market, a text edge list (real and negative weights) or a dense .npy matrix;\n"
           "OUTPUT: the V x V distance matrix in the weight type, raw (nthu) or .npy\n"
           "(unreachable: 1073741823 for int32, 2^62 - 1 for int64, inf for the floats).\n"
           "INPUT or OUTPUT '-': standard input/output.  A negative cycle is an error\n"
           "naming a vertex on it.\n\n"
           "  --format=auto|nthu|gr|mtx|edges  the INPUT format (auto: a Matrix Market\n"
           "                         banner, the name's extension, a consistent NTHU size,\n"
           "                         then the first bytes; standard input by its first\n"
           "                         bytes)\n"
           "  --undirected           each edge goes both ways\n"
           "  --vertices=N           an edge list has at least N vertices (default: the\n"
           "                         largest vertex id + 1)\n"
           "  --one-based            an edge list's vertex ids start at 1 (gr and mtx\n"
           "                         files are 1-based already)\n"
           "  --output-format=auto|nthu|npy  the OUTPUT format (auto: npy for a .npy name)\n"
           "  --weights=auto|int32|int64|float32|float64  the distance type (auto: int32\n"
           "                         when every weight is an integer and (V - 1) * max|w|\n"
           "                         fits, else int64; float64 for any other weight)\n"
           "  --predecessors=FILE    also write the V x V int32 predecessor matrix (raw, or\n"
           "                         .npy by the name; -1: none); see gk path\n"
           "  --device=auto|cpu|gpu  where to run (auto: the GPU when one is usable)\n"
           "  --check                recompute on the CPU and compare every entry\n"
           "  --time                 print the time of each phase\n"
           "  --json                 print the same as one JSON object on stdout (stderr\n"
           "                         when OUTPUT is '-')\n"
           "  --config=K=V,...       GPU kernel parameters; they replace the tuned choice\n"
           "                         (unnamed parameters take the built-in defaults)\n"
           "  --gpus=N|all|LIST      spread the rows over N GPUs (or all, or the list\n"
           "                         0,1,...) in this process; no GPU holds the matrix\n"
           "  --exchange=auto|device|host  how the pivot rows move between GPUs or ranks:\n"
           "                         device (peer copies, NCCL between ranks), host (through\n"
           "                         pinned host memory, every GPU waiting: the seed design)\n"
           "  --precision=auto|16|32  the lanes of the computation: 16 (the exact 16-bit\n"
           "                         path, settled in 32 bits where a distance reaches its\n"
           "                         cap), 32, or auto (16 unless a weight reaches the cap);\n"
           "                         the output is the same; --verbose and --json say which\n"
           "  --verbose              say which device and configuration run\n"
           "  --sources=LIST|@FILE   only the rows of these sources (LIST: 0,5,7-9; FILE:\n"
           "                         one vertex or range a line), in that order: OUTPUT is\n"
           "                         S x V\n"
           "  --algorithm=auto|fw|dijkstra|johnson|bellman-ford  how (default: fw for all\n"
           "                         pairs, auto with --sources, --min-only or --limit; auto\n"
           "                         picks by a cost model, --verbose says why)\n"
           "  --min-only             one row: the distance from the nearest source\n"
           "  --nearest=FILE         with --min-only: which source that is (V int32, -1:\n"
           "                         none; raw or .npy by the name)\n"
           "  --limit=L              distances above L are reported unreachable and not\n"
           "                         searched (non-negative weights; inf: none)\n"
           "  -h, --help             display this help and exit\n\n"
           "Under mpirun every rank takes a block of rows: one GPU each (the node-local\n"
           "rank's), or with --device=cpu the CPU code on its rows; the output is the same,\n"
           "in every format and weight type (an NTHU graph's edges are streamed, any other\n"
           "input is read whole by each rank).  Not there: --check, --precision=16 and\n"
           "--predecessors.\n");
}

int cmd_apsp(int argc, char **argv)
{
    static const struct option opts[] = {
        { "device", required_argument, 0, O_DEVICE }, { "check", no_argument, 0, O_CHECK },
        { "time", no_argument, 0, O_TIME }, { "json", no_argument, 0, O_JSON },
        { "verbose", no_argument, 0, O_VERBOSE }, { "config", required_argument, 0, O_CONFIG },
        { "format", required_argument, 0, O_FORMAT }, { "output-format", required_argument, 0, O_OFORMAT },
        { "undirected", no_argument, 0, O_UNDIRECTED }, { "vertices", required_argument, 0, O_VERTICES },
        { "one-based", no_argument, 0, O_ONE_BASED }, { "gpus", required_argument, 0, O_GPUS }, { "exchange", required_argument, 0, O_EXCHANGE },
        { "precision", required_argument, 0, O_PRECISION }, { "weights", required_argument, 0, O_WEIGHTS },
        { "predecessors", required_argument, 0, O_PREDECESSORS },
        { "sources", required_argument, 0, O_SOURCES }, { "algorithm", required_argument, 0, O_ALGORITHM },
        { "min-only", no_argument, 0, O_MIN_ONLY }, { "limit", required_argument, 0, O_LIMIT },
        { "nearest", required_argument, 0, O_NEAREST },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    gk_backend want = GK_BACKEND_AUTO;
    const char *sources_text = NULL, *nearest_out = NULL;
    int alg_given = 0, min_only = 0;
    gk_sssp_algorithm alg = GK_SSSP_AUTO;
    double limit = INFINITY;
    gk_dtype weights = 0;          /* auto */
    const char *pred_out = NULL;
    gk_apsp_options ao;
    gk_apsp_options_init(&ao);
    int prec_given = 0;
    gk_format ifmt = GK_FORMAT_AUTO, ofmt = GK_FORMAT_AUTO;
    gk_exchange ex = GK_EXCHANGE_AUTO;
    const char *gpus = NULL;
    int timing = 0, json = 0, verbose = 0, undirected = 0, one_based = 0, c, exg = 0;
    int32_t vertices = 0;
    double start = gk__wtime();
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_DEVICE: want = cli_parse_device(optarg); break;
        case O_CHECK: ao.check = 1; break;
        case O_TIME: timing = 1; break;
        case O_JSON: json = 1; break;
        case O_VERBOSE: verbose = 1; break;
        case O_CONFIG: ao.config = optarg; break;
        case O_FORMAT: ifmt = cli_parse_format("--format", optarg, 0); break;
        case O_OFORMAT: ofmt = cli_parse_format("--output-format", optarg, 1); break;
        case O_UNDIRECTED: undirected = 1; break;
        case O_ONE_BASED: one_based = 1; break;
        case O_VERTICES: vertices = (int32_t)cli_parse_i64("--vertices", optarg, 1, INT32_MAX - 1); break;
        case O_GPUS: gpus = optarg; break;
        case O_PRECISION:
            if (!strcmp(optarg, "auto")) ao.precision = 0;
            else if (!strcmp(optarg, "16")) ao.precision = 16;
            else if (!strcmp(optarg, "32")) ao.precision = 32;
            else cli_usage_error("--precision: '%s' is not auto, 16 or 32", optarg);
            prec_given = ao.precision != 0;
            break;
        case O_WEIGHTS: weights = cli_parse_weights(optarg, 1); break;
        case O_PREDECESSORS: pred_out = cli_path("--predecessors", optarg); break;
        case O_SOURCES: sources_text = optarg; break;
        case O_ALGORITHM:
            if (gk_sssp_algorithm_parse(optarg, &alg))
                cli_usage_error("--algorithm: %s", gk_last_error());
            alg_given = 1;
            break;
        case O_MIN_ONLY: min_only = 1; break;
        case O_LIMIT:
            /* inf: none (scipy's default, np.inf); the number parser refuses it */
            limit = !strcasecmp(optarg, "inf") || !strcasecmp(optarg, "infinity")
                        ? INFINITY : cli_parse_double("--limit", optarg);
            if (!(limit >= 0))
                cli_usage_error("--limit=%s: want a distance >= 0", optarg);
            break;
        case O_NEAREST: nearest_out = cli_path("--nearest", optarg); break;
        case O_EXCHANGE:
            if (gk_exchange_parse(optarg, &ex))
                cli_usage_error("--exchange: %s", gk_last_error());
            exg = 1;
            break;
        case 'h': apsp_usage(); return 0;
        }
    }
    cli_operands(argc, argv, 2, "INPUT and OUTPUT");
    const char *in = argv[optind], *out = argv[optind + 1];
    cli_report_to(out);             /* OUTPUT "-": the reports go to stderr */
    gk_status st;
    cli_check_gpus(gpus);                   /* usage errors before any work */
    if (sources_text || min_only || limit < INFINITY || nearest_out || (alg_given && alg != GK_SSSP_FW))
        return apsp_sources(&(apsp_sssp_in){ .in = in, .out = out, .pred_out = pred_out, .nearest_out = nearest_out,
                            .sources_text = sources_text, .ifmt = ifmt, .ofmt = ofmt, .undirected = undirected,
                            .one_based = one_based, .vertices = vertices, .weights = weights, .alg = alg,
                            .min_only = min_only, .limit = limit, .config = ao.config, .want = want, .gpus = gpus,
                            .exchange_given = exg, .check = ao.check, .precision_given = prec_given,
                            .timing = timing, .json = json, .verbose = verbose });
    cli_check_config("apsp", ao.config);
    int dist = gpus || exg || cli_comm;
    if (dist && ao.check)
        cli_usage_error("--check needs the whole matrix in one process; not with --gpus, --exchange or mpirun");
    if (dist && prec_given == 1 && ao.precision == 16)
        cli_usage_error("--precision=16: the rows over several GPUs or ranks have no 16-bit path");
    if (dist && pred_out)
        cli_usage_error("--predecessors needs the whole matrix in one process; not with --gpus, --exchange or mpirun");
    if (prec_given && weights && weights != GK_DTYPE_INT32)
        cli_usage_error("--precision=%d applies to int32 distances, not --weights=%s", ao.precision,
                        gk_dtype_name(weights));
    if (pred_out) {
        if (!strcmp(pred_out, out))
            cli_usage_error("--predecessors=%s: the same file as OUTPUT", pred_out);
        if (!strcmp(pred_out, "-") && !strcmp(out, "-"))
            cli_usage_error("--predecessors=-: OUTPUT is standard output already");
    }
    if (dist) {
        /* what each rank sees of the files (under mpirun, ranks may have
           other directories or nodes): agreed before anyone dies; the
           input's format and type are the library's (agreed there) */
        cli_agree(gk__output_check(out, in), 1);
    } else {
        cli_check_output(out, in);
        if (pred_out)
            cli_check_output(pred_out, in);
    }
    if (ofmt == GK_FORMAT_AUTO) {   /* a graph format's name gets the raw matrix all the same: say so */
        gk_format named = gk__format_for_output(out, GK_FORMAT_NTHU);
        if (named == GK_FORMAT_GR || named == GK_FORMAT_MTX || named == GK_FORMAT_EDGES)
            cli_warn("%s: the name of %s, but it gets the distance matrix, raw (nthu); .npy or "
                     "--output-format=npy for a NumPy file", out, named == GK_FORMAT_GR ? "a DIMACS .gr graph"
                     : named == GK_FORMAT_MTX ? "a Matrix Market graph" : "an edge list");
    }
    if (dist) {
        gk__apsp_dist_in din = { .format = ifmt, .vertices = vertices, .weights = weights, .out_format = ofmt,
                                 .flags = (undirected ? GK__READ_UNDIRECTED : 0) | (one_based ? GK__READ_ONE_BASED : 0) };
        return apsp_dist(cli_gpus_context(want, gpus), in, out, &din, ao.config, ex, timing, json, verbose);
    }
    ctx_job job;
    memset(&job, 0, sizeof job);
    job.want = want;
    job.ao = &ao;
    {   /* an NTHU file's V, from its header, for the plan (regular files only:
           a FIFO's bytes would be lost) */
        gk_format f0 = ifmt;
        struct stat sb;
        if (strcmp(in, "-") && stat(in, &sb) == 0 && S_ISREG(sb.st_mode)
            && (f0 != GK_FORMAT_AUTO || gk_format_detect(in, &f0) == GK_OK) && f0 == GK_FORMAT_NTHU) {
            FILE *hf = fopen(in, "rb");
            int32_t hdr[2];
            if (hf && fread(hdr, sizeof hdr[0], 2, hf) == 2 && hdr[0] > 0)
                job.V = hdr[0];
            if (hf) fclose(hf);
        }
    }
    /* the typed path: asked for by name, or an input only it reads (a .npy
       matrix; weights that are negative or not integers: found when the
       int32 reader refuses them); the int32 path below keeps its streaming */
    cli_apsp_typed_args ta = { .in = in, .out = out, .pred_out = pred_out, .ifmt = ifmt, .ofmt = ofmt,
                               .flags = (undirected ? GK__READ_UNDIRECTED : 0) | (one_based ? GK__READ_ONE_BASED : 0),
                               .vertices = vertices, .weights = weights, .options = &ao, .timing = timing,
                               .json = json, .verbose = verbose };
    gk_format in_format = ifmt;
    size_t in_len = strlen(in);
    if (in_format == GK_FORMAT_AUTO && in_len > 4 && !strcasecmp(in + in_len - 4, ".npy"))
        in_format = GK_FORMAT_NPY;          /* a dense input matrix */
    else if (in_format == GK_FORMAT_AUTO && strcmp(in, "-") && gk_format_detect(in, &in_format))
        in_format = GK_FORMAT_AUTO;
    if (pred_out || (weights && weights != GK_DTYPE_INT32) || in_format == GK_FORMAT_NPY
        || (!strcmp(in, "-") && weights == 0 && in_format != GK_FORMAT_NTHU)) {
        gk_context *tctx = cli_context(want);
        return cli_apsp_typed(tctx, &ta);
    }
    pthread_t th;
    int threaded = pthread_create(&th, NULL, ctx_thread, &job) == 0;
    if (!threaded)
        ctx_thread(&job);

    /* the input read and checked; an NTHU graph kept as its edge list, so
       that on the GPU no V x V matrix is made on the host */
    gk__apsp_graph *gr = NULL;
    int32_t V = 0, maxw = 0;
    int64_t E = 0;
    double t0 = gk__wtime();
    gk_status rst = gk__apsp_graph_read_flags(in, ifmt, (undirected ? GK__READ_UNDIRECTED : 0) |
                                              (one_based ? GK__READ_ONE_BASED : 0), vertices, &gr);
    double read = gk__wtime() - t0;
    if (threaded) {
        gk_cpu_topology topo;   /* loaded once per process: the context finds it */
        gk_cpu_topology_init(&topo);
        (void)gk_cpu_topology_get(&topo);
        pthread_join(th, NULL);
    }
    double ctx_wait = job.end - t0 - read;      /* the context outlasting the read */
    if (job.st)                 /* a context failure speaks first, as before the read */
        cli_die("%s", job.msg);
    gk_context *ctx = job.ctx;
    if (rst && rst == GK_EFORMAT && (weights == 0 || weights == GK_DTYPE_INT32) && in_format != GK_FORMAT_NTHU) {
        /* negative or real weights: the typed reader says what it finds */
        gk_apsp_plan_destroy(job.plan);
        return cli_apsp_typed(ctx, &ta);
    }
    if (rst)
        cli_die_status(rst);
    gk__apsp_graph_info(gr, &V, &E, &maxw);
    if (weights == 0 && gr->format != GK_FORMAT_NTHU && V > 1 && (double)(V - 1) * maxw >= GK_APSP_INF) {
        /* auto: paths that long need int64 distances */
        gk__apsp_graph_free(gr);
        gk_apsp_plan_destroy(job.plan);
        return cli_apsp_typed(ctx, &ta);
    }
    if (gr->format == GK_FORMAT_EDGES && !one_based)
        cli_warn_one_based(gr->name, gr->min_id);

    gk_report rep;
    gk__apsp_write_report wr;
    gk_report_init(&rep);
    double s0 = gk__wtime();
    /* the plan made on the context thread, if it is for this V; else now */
    gk_apsp_plan *plan = job.plan;
    int prepared = plan != NULL && job.V == V;
    double open = job.plan_seconds;
    if (!prepared) {
        gk_apsp_problem p;
        gk_apsp_plan_destroy(plan);
        gk_apsp_problem_init(&p, V);
        double p0 = gk__wtime();
        st = gk_apsp_plan_create(ctx, &p, &ao, &plan);
        open = gk__wtime() - p0;
        if (st)                 /* the plan's rules (memory, configuration) name the input */
            cli_die("%s: %s", strcmp(in, "-") ? in : "standard input", gk_last_error());
    }
    /* solve, then write; on the GPU the initial matrix is made on the device
       from the edges and the result written from the download buffers while
       the next chunk comes back */
    st = gk__apsp_graph_run_write(ctx, plan, gr, out, ofmt, &rep, &wr);
    wr.open = open;
    wr.prepared = prepared;
    {
        double c0 = gk__wtime();
        gk_apsp_plan_destroy(plan);
        wr.close += gk__wtime() - c0;
    }
    /* the read phase as it always was: the initial matrix built on the host
       (where it is: CPU, --check, ...) belongs to it */
    read += wr.host_matrix;
    double solve_wall = gk__wtime() - s0 - wr.wall - wr.host_matrix;
    if (verbose || timing) {
        char what[96];
        snprintf(what, sizeof what, "apsp V = %d, E = %lld", V, (long long)E);
        cli_report_verbose(what, &rep);
        if (rep.precision && !cli_quiet)
            fprintf(stderr, "%s: precision %d: %s\n", cli_prog, rep.precision, rep.precision_detail);
    }
    if (st)
        cli_die_status(st);
    cli_report_notes(&rep);
    warn_long_paths(in, V, maxw);
    double write = wr.write, td0 = gk__wtime();
    gk__apsp_graph_free(gr);
    gk_context_destroy(ctx);
    double teardown = gk__wtime() - td0;

    double rate = rep.compute > 0 ? (double)V * V * V / rep.compute : 0;
    if (json) {
        json_begin();
        json_str("command", "apsp");
        json_str("input", in); json_str("output", out);
        json_str("output_format", gk_format_name(ofmt != GK_FORMAT_AUTO ? ofmt :
            gk__format_for_output(out, GK_FORMAT_NTHU) == GK_FORMAT_NPY ? GK_FORMAT_NPY : GK_FORMAT_NTHU));
        json_int("vertices", V); json_int("edges", E);
        cli_json_report(&rep);
        json_str("check", ao.check ? "passed" : "not run");
        if (ao.check) json_str("check_against", rep.check_against);
        json_int("precision", rep.precision);
        json_str("precision_detail", rep.precision_detail);
        cli_json_times(&rep, read, write);
        json_bool("write_overlapped", wr.overlapped);
        json_num("min_plus_per_second", rate);
        json_end();
    } else if (timing) {   /* --json carries the same numbers; stdout stays one JSON object */
        cli_print_times(&rep, read, write);
        fprintf(cli_report, "compute rate     %.3f G min-plus/s (V^3 / compute time); check %s\n", rate / 1e9,
               ao.check ? "passed" : "not run");
        if (wr.overlapped)
            fprintf(cli_report, "device->host and write overlapped in chunks: %.3f s wall = write %.3f s (open, "
                    "write calls, rename) + %.3f s outside the writes (waiting for a copy, widening: the "
                    "device->host row above)\n", wr.wall, wr.write, wr.d2h_wait);
        double inside = rep.compute + (rep.h2d > 0 ? rep.h2d : 0) + (rep.check > 0 ? rep.check : 0)
                        + (!wr.overlapped && rep.d2h > 0 ? rep.d2h : 0);
        fprintf(cli_report, "outside phases   context %.3f s, made on a thread while the input was read (ready %.3f s "
                "after the read ended); solve setup %.3f s\n", job.seconds, ctx_wait > 0 ? ctx_wait : 0, solve_wall - inside);
        if (job.on_gpu)
            fprintf(cli_report, "  context        the CUDA driver's start %.3f s, the rest of the context %.3f s, then "
                    "the GPU's context, kernel image, device matrix and pinned buffers %.3f s\n", job.driver,
                    job.create - job.driver, job.seconds - job.create);
        char gpu_part[160] = "";
        if (job.on_gpu)
            snprintf(gpu_part, sizeof gpu_part, ", the GPU's buffers %.3f s (%s), freeing them %.3f s", wr.open,
                     wr.prepared ? "ready from the context thread" : "made in the solve", wr.close);
        fprintf(cli_report, "  solve setup    checking the entries %.3f s%s; after the write: freeing the graph and "
                "the context %.3f s\n", wr.scan, gpu_part, teardown);
        fprintf(cli_report, "initial matrix   %s\n", wr.device_built ? "made on the GPU from the edge list (in the "
                "host->device row: the edges' upload and the build); no V x V matrix on the host"
                : wr.host_matrix > 0 ? "built on the host from the edge list (in the read row)"
                : "made on the host while reading (in the read row)");
        fprintf(cli_report, "precision        %d: %s\n", rep.precision, rep.precision_detail);
        fprintf(cli_report, "inside gk        %.3f s from reading the options to this line; the rest of the process's "
                "wall time is starting it and exiting\n", gk__wtime() - start);
    }
    if (!json && ao.check)   /* as gk stencil, gemm and elementwise say it */
        fprintf(cli_report, "check against %s: every distance equal: ok\n", rep.check_against);
    return 0;
}

int cmd_gen_apsp(int argc, char **argv)
{
    static const struct option opts[] = {
        { "vertices", required_argument, 0, O_VERTICES }, { "edges", required_argument, 0, O_EDGES },
        { "seed", required_argument, 0, O_SEED }, { "max-weight", required_argument, 0, O_MAXW },
        { "format", required_argument, 0, O_FORMAT }, { "kind", required_argument, 0, O_KIND },
        { "shortcuts", required_argument, 0, O_SHORTCUTS }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    int64_t V = -1, E = -1, maxw = 1000;
    gk_graph_gen gen;
    gk_graph_gen_init(&gen);
    gk_format fmt = GK_FORMAT_AUTO;
    uint64_t seed = 1;
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_VERTICES: V = cli_parse_i64("--vertices", optarg, 1, INT32_MAX); break;
        case O_EDGES: E = cli_parse_i64("--edges", optarg, 0, INT32_MAX); break;
        case O_SEED: seed = cli_parse_u64("--seed", optarg); break;
        case O_MAXW: maxw = cli_parse_i64("--max-weight", optarg, 0, GK_APSP_MAX_WEIGHT); break;
        case O_FORMAT: fmt = cli_parse_format("--format", optarg, 0); break;
        case O_KIND:
            if (gk_graph_kind_parse(optarg, &gen.kind))
                cli_usage_error("--kind: %s", gk_last_error());
            break;
        case O_SHORTCUTS: gen.shortcut_percent = cli_parse_double("--shortcuts", optarg);
            if (!(gen.shortcut_percent >= 0 && gen.shortcut_percent <= 100))
                cli_usage_error("--shortcuts=%s: want a percentage in [0, 100]", optarg);
            break;
        case 'h':
            printf("Usage: gk gen apsp [--kind=K] --vertices=N [--edges=M] [--seed=S]\n"
                   "                   [--max-weight=W] [--shortcuts=P] OUTPUT\n"
                   "Write a reproducible graph; the same seed (default 1) gives the same graph, in\n"
                   "every format and for any thread count.  Kinds:\n"
                   "  random    M edges with uniform endpoints (no self-loops when N > 1), weights\n"
                   "            uniform in [0, W] (the default kind)\n"
                   "  grid      a floor(sqrt(N))^2 2D grid, each vertex linked both ways to its\n"
                   "            right and lower neighbour, weights uniform in [1, W]\n"
                   "  road      the grid plus shortcuts (--shortcuts=P %% of N extra links, both\n"
                   "            ways, default 2) between random vertices, the shortcuts' weights\n"
                   "            in [W, 8W]\n"
                   "  powerlaw  R-MAT (0.57, 0.19, 0.19, 0.05): M edges, N rounded up to a power\n"
                   "            of two, weights uniform in [1, W]\n"
                   "Weights are capped so that (N - 1) * weight stays below 2^30 - 1 (int32 exact).\n\n"
                   "  --format=auto|nthu|gr|mtx|edges  the OUTPUT format (auto: by the name's\n"
                   "                     extension, else nthu)\n"
                   "  --kind=random|grid|road|powerlaw  the graph (default random)\n"
                   "  --vertices=N       vertex count (required)\n"
                   "  --edges=M          edge count (random, powerlaw: required)\n"
                   "  --shortcuts=P      road: shortcuts, %% of the vertices (default 2)\n"
                   "  --seed=S           random seed (default 1)\n"
                   "  --max-weight=W     largest weight (default 1000)\n"
                   "  -h, --help         display this help and exit\n");
            return 0;
        }
    }
    if (V < 0 || (E < 0 && (gen.kind == GK_GRAPH_RANDOM || gen.kind == GK_GRAPH_POWERLAW)))
        cli_usage_error(gen.kind == GK_GRAPH_RANDOM || gen.kind == GK_GRAPH_POWERLAW
                        ? "--vertices and --edges are required" : "--vertices is required");
    if (E >= 0 && (gen.kind == GK_GRAPH_GRID || gen.kind == GK_GRAPH_ROAD))
        cli_usage_error("--edges: a %s graph's edges follow from --vertices", gk_graph_kind_name(gen.kind));
    cli_operands(argc, argv, 1, "one OUTPUT file");
    cli_check_output(argv[optind], NULL);
    const char *out = argv[optind];
    if (gen.kind != GK_GRAPH_RANDOM) {
        gen.V = V;
        gen.E = E;
        gen.seed = seed;
        gen.max_w = (int32_t)(maxw < 1 ? 1 : maxw);
        if (maxw < 1)
            cli_usage_error("--max-weight=%lld: a %s graph's weights are >= 1", (long long)maxw,
                            gk_graph_kind_name(gen.kind));
        int64_t vm, em;
        gk_status gst = gk_graph_generate(out, fmt, &gen, &vm, &em);
        if (gst)
            cli_die_status(gst);
        return 0;
    }
    gk_format written = fmt != GK_FORMAT_AUTO ? fmt : gk__format_for_output(out, GK_FORMAT_NTHU);
    int64_t max_id = -1;
    gk_status st = gk_apsp_generate(out, fmt, (int32_t)V, E, seed, (int32_t)maxw,
                                           written == GK_FORMAT_EDGES ? &max_id : NULL);
    if (st)
        cli_die_status(st);
    if (written == GK_FORMAT_EDGES)
        cli_warn_edge_list(out, (int32_t)max_id, (int32_t)V);
    return 0;
}

/* "1024,2048" -> sizes; usage error on anything else. */
static int parse_sizes(const char *text, int32_t *sizes, int max)
{
    int64_t v[32];
    int n = 0;
    if (max > 32) max = 32;
    if (gk__parse_list_i64("--sizes", text, 1, 1000000, v, max, &n))
        cli_usage_error("%s", gk_last_error());
    for (int i = 0; i < n; i++)
        sizes[i] = (int32_t)v[i];
    return n;
}

/* `gk bench apsp --gpus=N` or under mpirun. */
static int bench_multi(gk_context *ctx, const int32_t *sizes, int ns, const char *user_cfg, int json)
{
    int bad = 0;
    if (json) { json_begin(); json_str("command", "bench apsp"); json_str("device", "gpu"); json_array("rows"); }
    for (int s = 0; s < ns; s++) {
        gk__apsp_multi_row r;
        gk_status st = gk__apsp_bench_multi(ctx, sizes[s], user_cfg, &r);
        if (st && st != GK_EMISMATCH)
            cli_die_status(st);
        bad |= r.identical == 0;
        if (json) {
            json_object(NULL);
            json_int("n", r.n); json_str("device_name", r.device); json_str("config", r.config);
            json_int("gpus", r.gpus); json_int("ranks", r.ranks); json_str("exchange", r.exchange);
            if (r.one_seconds > 0) { json_num("one_gpu_seconds", r.one_seconds); json_num("one_gpu_tmps", r.one_tmps); }
            json_num("seed_seconds", r.seed_seconds); json_num("seed_tmps", r.seed_tmps);
            json_num("seed_exchange_busy", r.seed_busy); json_num("seed_exchange_stall", r.seed_stall);
            json_num("seconds", r.seconds); json_num("tmps", r.tmps);
            json_num("exchange_busy", r.busy); json_num("exchange_stall", r.stall);
            if (r.one_seconds > 0) { json_num("seed_efficiency", r.seed_efficiency); json_num("efficiency", r.efficiency); }
            if (r.identical >= 0) json_bool("identical", r.identical);
            json_object_end();
        } else {
            if (s == 0)
                printf("gk bench apsp on %d GPU%s (%d rank%s): %s, config %s\n"
                       "compute phase only; T = T min-plus/s = n^3 / seconds; eff = one GPU's seconds /\n"
                       "(GPUs x seconds); seed = panels through pinned host memory, every GPU waiting;\n"
                       "gk = %s; busy/stall = links moving panels / compute waiting\n"
                       "%7s %9s %7s | %9s %7s %6s | %9s %7s %6s %8s %8s | %4s\n",
                       r.gpus, r.gpus == 1 ? "" : "s", r.ranks, r.ranks == 1 ? "" : "s", r.device, r.config, r.exchange,
                       "n", "1 GPU s", "T", "seed s", "T", "eff", "gk s", "T", "eff", "busy s", "stall s", "same");
            char one[32] = "-", onet[32] = "-", se[16] = "-", ge[16] = "-";
            if (r.one_seconds > 0) {
                snprintf(one, sizeof one, "%.3f", r.one_seconds);
                snprintf(onet, sizeof onet, "%.2f", r.one_tmps);
                snprintf(se, sizeof se, "%.1f%%", 100 * r.seed_efficiency);
                snprintf(ge, sizeof ge, "%.1f%%", 100 * r.efficiency);
            }
            printf("%7lld %9s %7s | %9.3f %7.2f %6s | %9.3f %7.2f %6s %8.4f %8.4f | %4s\n", (long long)r.n, one, onet,
                   r.seed_seconds, r.seed_tmps, se, r.seconds, r.tmps, ge, r.busy, r.stall,
                   r.identical < 0 ? "-" : r.identical ? "yes" : "NO");
        }
        fflush(stdout);
    }
    if (json) { json_array_end(); json_end(); }
    gk_context_destroy(ctx);
    if (bad) cli_die("bench apsp: several GPUs and one GPU disagree");
    return 0;
}

int cmd_bench_sssp(int argc, char **argv);     /* cmd_bench_sssp.c */

int cmd_bench_apsp(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)   /* the shortest-path algorithms' table */
        if (!strcmp(argv[i], "--algorithms")) return cmd_bench_sssp(argc, argv);
    static const struct option opts[] = {
        { "device", required_argument, 0, O_DEVICE }, { "sizes", required_argument, 0, O_SIZES },
        { "config", required_argument, 0, O_CONFIG }, { "json", no_argument, 0, O_JSON },
        { "gpus", required_argument, 0, O_GPUS }, { "types", no_argument, 0, O_TYPES },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    gk_backend want = GK_BACKEND_AUTO;
    const char *sizes_text = NULL, *user_cfg = NULL, *gpus = NULL;
    int json = 0, types = 0, c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_DEVICE: want = cli_parse_device(optarg); break;
        case O_SIZES: sizes_text = optarg; break;
        case O_CONFIG: user_cfg = optarg; break;
        case O_JSON: json = 1; break;
        case O_GPUS: gpus = optarg; break;
        case O_TYPES: types = 1; break;
        case 'h':
            printf("Usage: gk bench apsp [--device=auto|cpu|gpu] [--sizes=N,...] [--config=K=V,...]\n"
                   "                     [--gpus=N|all|LIST] [--types] [--json]\n"
                   "GPU: time the blocked Floyd-Warshall kernel (compute phase) against the classic\n"
                   "64x64-tile baseline kernel and the device's min-plus ceiling measured in the\n"
                   "same run, on random graphs made in memory (default sizes 4096,16384,25000).\n"
                   "CPU: the blocked OpenMP/SIMD code against the plain k-i-j loop (default\n"
                   "1024,2048).\n\n"
                   "  --device=auto|cpu|gpu  where to run (auto: the GPU when one is usable)\n"
                   "  --sizes=N,...          vertex counts\n"
                   "  --config=K=V,...       GPU kernel parameters (replace the tuned choice)\n"
                   "  --gpus=N|all|LIST      past one GPU: one GPU, the GPUs with the seed design\n"
                   "                         and with gk's, and the scaling efficiency of each\n"
                   "                         (default sizes 25000,50000; also under mpirun, one GPU\n"
                   "                         per rank)\n"
                   "  --types                GPU: also float32, float64, int64 distances, int32 and\n"
                   "                         float32 with predecessors, each with its ceiling\n"
                   "  --json                 print the rows as JSON\n"
                   "  --algorithms           instead: every shortest-path algorithm and auto on a\n"
                   "                         grid of sparse and dense graphs; with --quick small\n"
                   "                         ones (gk bench apsp --algorithms --help)\n"
                   "  -h, --help             display this help and exit\n");
            return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    int32_t sizes[32];
    if (sizes_text) parse_sizes(sizes_text, sizes, 32);   /* usage errors before any work */
    gk_status st;
    cli_check_config("apsp", user_cfg);
    if (gpus || cli_comm) {
        cli_check_gpus(gpus);
        if (want == GK_BACKEND_CPU)
            cli_usage_error("%s needs the GPU backend", gpus ? "--gpus" : "bench apsp under mpirun");
        gk_context *ctx = cli_gpus_context(GK_BACKEND_GPU, gpus);
        if (!gpus && gk_context_backend(ctx) != GK_BACKEND_GPU)
            cli_die("bench apsp under mpirun needs a GPU per rank: %s", gk_context_backend_note(ctx));
        int ns = parse_sizes(sizes_text ? sizes_text : "25000,50000", sizes, 32);
        return bench_multi(ctx, sizes, ns, user_cfg, json);
    }
    int gpu;
    gk_context *ctx = cli_bench_context(want, user_cfg, &gpu);
    if (types && !gpu)
        cli_usage_error("--types needs the GPU backend");
    int ns = parse_sizes(sizes_text ? sizes_text : gpu ? "4096,16384,25000" : "1024,2048", sizes, 32);
    if (json) { json_begin(); json_str("command", "bench apsp"); json_str("device", gpu ? "gpu" : "cpu"); json_array("rows"); }
    int bad = 0;
    for (int s = 0; s < ns; s++) {
        gk__apsp_bench_row r;
        st = gk__apsp_bench(ctx, sizes[s], user_cfg, &r);
        if (st && st != GK_EMISMATCH)
            cli_die_status(st);
        bad |= !r.identical || !r.identical16;
        double pct = r.ceiling_tmps > 0 ? 100 * r.tmps / r.ceiling_tmps : 0, up = r.base_seconds / r.seconds;
        double up16 = r.seconds16 > 0 ? r.seconds / r.seconds16 : 0;
        if (json) {
            json_object(NULL);
            json_int("n", r.n); json_str("device_name", r.device);
            if (gpu) {
                json_str("config", r.config); json_str("config_source", gk_config_source_name(r.config_source));
                json_num("ceiling_tmps", r.ceiling_tmps); json_num("percent_of_ceiling", pct);
            }
            json_num("seconds", r.seconds); json_num("tmps", r.tmps);
            json_num("baseline_seconds", r.base_seconds); json_num("baseline_tmps", r.base_tmps);
            json_num("speedup", up); json_bool("identical", r.identical);
            json_num("seconds16", r.seconds16); json_num("tmps16", r.tmps16);
            if (gpu) json_num("ceiling16_tmps", r.ceiling16_tmps);
            json_num("speedup16", up16); json_bool("identical16", r.identical16);
            if (types) bad |= cli_bench_apsp_types(ctx, sizes[s], user_cfg, 1, s == 0);
            json_object_end();
        } else if (gpu) {
            if (s == 0)
                printf("gk bench apsp on %s, config %s (%s)\n"
                       "compute phase only; T min-plus/s = n^3 / seconds; ceiling = chains of independent\n"
                       "min(a+b,c) measured in the same run; baseline = classic 64x64-tile, 32x32-thread kernel\n"
                       "%7s %10s %12s %10s %10s %12s %12s %9s %5s\n", r.device, r.config,
                       gk_config_source_name(r.config_source),
                       "n", "seconds", "T minplus/s", "ceiling", "% ceiling", "baseline s", "base T/s", "speed-up", "same");
            printf("%7lld %10.4f %12.3f %10.2f %9.1f%% %12.4f %12.3f %8.2fx %5s\n", (long long)r.n, r.seconds, r.tmps,
                   r.ceiling_tmps, pct, r.base_seconds, r.base_tmps, up, r.identical ? "yes" : "NO");
            printf("%7s %10.4f %12.3f %10.2f %9.1f%%  16-bit path: %.2fx the int32 kernel, same %s\n", "16-bit",
                   r.seconds16, r.tmps16, r.ceiling16_tmps, r.ceiling16_tmps > 0 ? 100 * r.tmps16 / r.ceiling16_tmps : 0,
                   up16, r.identical16 ? "yes" : "NO");
            if (types) bad |= cli_bench_apsp_types(ctx, sizes[s], user_cfg, 0, s == 0);
        } else {
            if (s == 0)
                printf("gk bench apsp on %s: blocked Floyd-Warshall vs the plain omp parallel for/simd k-i-j loop\n"
                       "%7s %10s %12s %12s %12s %9s %5s\n", r.device,
                       "n", "seconds", "G minplus/s", "baseline s", "base G/s", "speed-up", "same");
            printf("%7lld %10.4f %12.2f %12.4f %12.2f %8.2fx %5s\n", (long long)r.n, r.seconds, r.tmps * 1e3,
                   r.base_seconds, r.base_tmps * 1e3, up, r.identical ? "yes" : "NO");
            printf("%7s %10.4f %12.2f  16-bit path: %.2fx the int32 blocked code, same %s\n", "16-bit", r.seconds16,
                   r.tmps16 * 1e3, up16, r.identical16 ? "yes" : "NO");
        }
        fflush(stdout);
    }
    if (json) { json_array_end(); json_end(); }
    gk_context_destroy(ctx);
    if (bad) cli_die("bench apsp: the kernel, the 16-bit path and the baseline disagree");
    return 0;
}
