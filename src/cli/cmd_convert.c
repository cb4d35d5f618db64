/* cmd_convert.c - `gk convert`: a graph from one format to another (nthu,
 * DIMACS .gr, Matrix Market, text edge lists), through gk_graph_convert; and
 * the --format option parser the apsp commands share. */
#include "cli/cli.h"

#include <string.h>

gk_dtype cli_parse_weights(const char *text, int allow_auto)
{
    if (allow_auto && !strcmp(text, "auto")) return (gk_dtype)0;
    if (!strcmp(text, "int32")) return GK_DTYPE_INT32;
    if (!strcmp(text, "int64")) return GK_DTYPE_INT64;
    if (!strcmp(text, "float32")) return GK_DTYPE_FLOAT32;
    if (!strcmp(text, "float64")) return GK_DTYPE_FLOAT64;
    cli_usage_error("--weights: '%s' is not %sint32, int64, float32 or float64", text, allow_auto ? "auto, " : "");
}

gk_format cli_parse_format(const char *opt, const char *text, int matrix)
{
    gk_format f;
    const char *want = matrix ? "auto, nthu or npy" : "auto, nthu, gr, mtx or edges";
    if (gk_format_parse(text, &f) != GK_OK || (matrix && f != GK_FORMAT_AUTO && f != GK_FORMAT_NTHU &&
                                               f != GK_FORMAT_NPY) || (!matrix && f == GK_FORMAT_NPY))
        cli_usage_error("%s: '%s': want %s", opt, text, want);
    return f;
}

enum { O_FORMAT = 256, O_OFORMAT, O_UNDIRECTED, O_VERTICES, O_ONE_BASED, O_WEIGHTS };

int cmd_convert(int argc, char **argv)
{
    static const struct option opts[] = {
        { "format", required_argument, 0, O_FORMAT }, { "output-format", required_argument, 0, O_OFORMAT },
        { "undirected", no_argument, 0, O_UNDIRECTED }, { "vertices", required_argument, 0, O_VERTICES },
        { "one-based", no_argument, 0, O_ONE_BASED }, { "weights", required_argument, 0, O_WEIGHTS },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    gk_format ifmt = GK_FORMAT_AUTO, ofmt = GK_FORMAT_AUTO;
    int undirected = 0, one_based = 0, c;
    int32_t vertices = 0;
    gk_dtype weights = 0;          /* auto */
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_FORMAT: ifmt = cli_parse_format("--format", optarg, 0); break;
        case O_OFORMAT: ofmt = cli_parse_format("--output-format", optarg, 0); break;
        case O_UNDIRECTED: undirected = 1; break;
        case O_ONE_BASED: one_based = 1; break;
        case O_VERTICES: vertices = (int32_t)cli_parse_i64("--vertices", optarg, 1, INT32_MAX - 1); break;
        case O_WEIGHTS: weights = cli_parse_weights(optarg, 1); break;   /* gk apsp's names and rules */
        case 'h':
            printf("Usage: gk convert [OPTION]... INPUT OUTPUT\n"
                   "Write the graph INPUT to OUTPUT in another format: nthu (binary int32 V, E,\n"
                   "then src, dst, w triples), gr (DIMACS shortest paths), mtx (Matrix Market\n"
                   "coordinate) or edges (text 'src dst w' lines, 0-based).  Edges are kept as\n"
                   "they are, except that Matrix Market output merges duplicates into the\n"
                   "smallest weight.  Real and negative weights of gr, mtx and edges files are\n"
                   "written as read (mtx: a real field) to gr, mtx or edges; nthu holds int32\n"
                   "weights in [0, 2^30 - 2] only.  INPUT or OUTPUT '-': standard input/output.\n\n"
                   "  --format=auto|nthu|gr|mtx|edges  the INPUT format (auto: the name, then the\n"
                   "                         first bytes; standard input by its first bytes)\n"
                   "  --output-format=auto|nthu|gr|mtx|edges  the OUTPUT format (auto: by the\n"
                   "                         name's extension, else nthu)\n"
                   "  --undirected           write each edge both ways\n"
                   "  --vertices=N           an edge-list INPUT has at least N vertices\n"
                   "  --one-based            an edge-list INPUT's vertex ids start at 1 (gr and\n"
                   "                         mtx files are 1-based already)\n"
                   "  --weights=auto|int32|int64|float32|float64  check every weight against the\n"
                   "                         rules gk apsp --weights=TYPE reads it by (auto: any\n"
                   "                         finite number; nthu OUTPUT: int32 only)\n"
                   "  -h, --help             display this help and exit\n");
            return 0;
        }
    }
    cli_operands(argc, argv, 2, "INPUT and OUTPUT");
    const char *in = argv[optind], *out = argv[optind + 1];
    cli_check_output(out, in);
    gk_format of = ofmt == GK_FORMAT_AUTO ? gk__format_for_output(out, GK_FORMAT_NTHU) : ofmt;
    if (weights && weights != GK_DTYPE_INT32 && of == GK_FORMAT_NTHU)
        cli_usage_error("--weights=%s: the nthu OUTPUT holds int32 weights in [0, %d]; write gr, mtx or edges",
                        gk_dtype_name(weights), GK_APSP_MAX_WEIGHT);
    int32_t V, max_id, min_id;
    int64_t E;
    gk_format f = ifmt;
    if (f == GK_FORMAT_AUTO && gk_format_detect(in, &f))
        cli_die_status(GK_EFORMAT);
    gk_status st = gk__graph_convert_weights(in, f, out, ofmt, (undirected ? GK__READ_UNDIRECTED : 0) |
                                             (one_based ? GK__READ_ONE_BASED : 0), vertices, weights, &V, &E,
                                             &max_id, &min_id);
    if (st)
        cli_die_status(st);
    if (f == GK_FORMAT_EDGES && !one_based)
        cli_warn_one_based(strcmp(in, "-") ? in : "standard input", min_id);
    if (ofmt == GK_FORMAT_AUTO)
        ofmt = gk__format_for_output(out, GK_FORMAT_NTHU);
    if (ofmt == GK_FORMAT_EDGES)
        cli_warn_edge_list(out, max_id, V);
    return 0;
}
