/* cmd_path.c - `gk path`: the vertices of a shortest path read back from
 * the predecessor matrix `gk apsp --predecessors` wrote (gk_apsp_path),
 * and with --dist its length. */
#include "cli/cli.h"
#include "core/checked.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { O_PRED = 256, O_DIST, O_WEIGHTS };

/* What is allocated, freed before an exit on failure (no leak reports). */
static void *held[3];
static void release(void)
{
    for (int k = 0; k < 3; k++) {
        free(held[k]);
        held[k] = NULL;
    }
}

/* A .npy file (by its magic, whatever its name). */
static int is_npy(const char *path)
{
    char m[6] = { 0 };
    FILE *f = fopen(path, "rb");
    int yes = f && fread(m, 1, 6, f) == 6 && !memcmp(m, "\x93NUMPY", 6);
    if (f) fclose(f);
    return yes;
}

/* A V x V matrix of type t: .npy (its own type, which must be t), or raw
 * (V from the file size, which must be V * V * size(t)). */
static void *read_square(const char *path, gk_dtype t, int64_t *V, const char *opt)
{
    size_t es = gk_dtype_size(t);
    if (is_npy(path)) {
        gk_dtype got = t;
        void *d = NULL;
        if (gk_apsp_read_matrix(path, GK_FORMAT_NPY, 0, 0, &got, &d, V, NULL))
            cli_die("%s: %s", opt, gk_last_error());
        return d;
    }
    struct stat sb;
    if (stat(path, &sb) || !S_ISREG(sb.st_mode))
        cli_die("%s=%s: not a regular file", opt, path);
    uint64_t n = (uint64_t)sb.st_size / es, v = (uint64_t)sqrt((double)n);
    while (v * v < n) v++;
    while (v * v > n) v--;
    if (sb.st_size == 0 || (uint64_t)sb.st_size % es || v * v != n || v > INT32_MAX)
        cli_die("%s=%s: %lld bytes is no V x V %s matrix", opt, path, (long long)sb.st_size, gk_dtype_name(t));
    void *d = malloc((size_t)sb.st_size);
    if (!d)
        cli_die("%s=%s: cannot allocate %lld bytes", opt, path, (long long)sb.st_size);
    char desc[96];
    snprintf(desc, sizeof desc, "a %llu x %llu %s matrix", (unsigned long long)v, (unsigned long long)v,
             gk_dtype_name(t));
    const char *shown;
    if (gk__in_read_sized(path, d, (uint64_t)sb.st_size, desc, "the matrix", &shown)) {
        free(d);
        release();
        cli_die("%s: %s", opt, gk_last_error());
    }
    *V = (int64_t)v;
    return d;
}

/* The raw --dist file of the predecessors' V: exactly V * V * size(t)
 * bytes.  Another size names both sizes and, where the file has the size
 * of another type's V x V matrix, the --weights that reads it (gk apsp
 * writes float64 for real weights, int64 past int32's range). */
static void check_dist_size(const char *path, gk_dtype t, int64_t V)
{
    struct stat sb;
    if (stat(path, &sb) || !S_ISREG(sb.st_mode))
        return;                         /* read_square names it */
    uint64_t want = (uint64_t)V * (uint64_t)V * gk_dtype_size(t), got = (uint64_t)sb.st_size;
    if (got == want)
        return;
    /* floats first: gk apsp writes float64 for real weights, the common
       case; int64 (past int32's range) has float64's size */
    static const gk_dtype types[] = { GK_DTYPE_FLOAT64, GK_DTYPE_INT64, GK_DTYPE_FLOAT32, GK_DTYPE_INT32 };
    char hint[160] = "";
    int n = 0;
    for (int k = 0; k < 4; k++) {
        if (types[k] == t || got != (uint64_t)V * (uint64_t)V * gk_dtype_size(types[k]))
            continue;
        size_t l = strlen(hint);
        if (n++)
            snprintf(hint + l, sizeof hint - l, " (or --weights=%s)", gk_dtype_name(types[k]));
        else
            snprintf(hint + l, sizeof hint - l, "; it has the size of a %lld x %lld %s matrix: --weights=%s",
                     (long long)V, (long long)V, gk_dtype_name(types[k]), gk_dtype_name(types[k]));
    }
    release();
    cli_die("--dist=%s: %llu bytes is no %lld x %lld %s matrix (%llu bytes; V = %lld from --predecessors)%s", path,
            (unsigned long long)got, (long long)V, (long long)V, gk_dtype_name(t), (unsigned long long)want,
            (long long)V, hint);
}

int cmd_path(int argc, char **argv)
{
    static const struct option opts[] = {
        { "predecessors", required_argument, 0, O_PRED }, { "dist", required_argument, 0, O_DIST },
        { "weights", required_argument, 0, O_WEIGHTS }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *pf = NULL, *df = NULL;
    gk_dtype wt = GK_DTYPE_INT32;
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_PRED: pf = cli_path("--predecessors", optarg); break;
        case O_DIST: df = cli_path("--dist", optarg); break;
        case O_WEIGHTS: wt = cli_parse_weights(optarg, 0); break;
        case 'h':
            printf("Usage: gk path --predecessors=FILE [--dist=FILE [--weights=TYPE]] FROM TO\n"
                   "Print the vertices of a shortest path from FROM to TO (0-based), on one line,\n"
                   "from the predecessor matrix of 'gk apsp --predecessors=FILE'.  Exit status 1\n"
                   "when TO cannot be reached from FROM.\n\n"
                   "  --predecessors=FILE  the V x V int32 predecessor matrix (raw or .npy)\n"
                   "  --dist=FILE          the distance matrix of the same run: print the path's\n"
                   "                       length on a second line\n"
                   "  --weights=TYPE       the raw distance file's type: int32 (default), int64,\n"
                   "                       float32 or float64 (a .npy file says its own)\n"
                   "  -h, --help           display this help and exit\n");
            return 0;
        }
    }
    if (!pf)
        cli_usage_error("--predecessors=FILE is required");
    cli_operands(argc, argv, 2, "FROM and TO");
    int64_t from = cli_parse_i64("FROM", argv[optind], 0, INT32_MAX - 1);
    int64_t to = cli_parse_i64("TO", argv[optind + 1], 0, INT32_MAX - 1);
    int64_t V = 0, DV = 0;
    int32_t *pred = held[0] = read_square(pf, GK_DTYPE_INT32, &V, "--predecessors");
    void *dist = NULL;
    if (df) {
        if (is_npy(df)) {
            wt = 0;   /* the file's own type */
            if (gk_apsp_read_matrix(df, GK_FORMAT_NPY, 0, 0, &wt, &dist, &DV, NULL)) {
                release();
                cli_die("--dist: %s", gk_last_error());
            }
        } else {
            check_dist_size(df, wt, V);
            dist = read_square(df, wt, &DV, "--dist");
        }
        held[1] = dist;
        if (DV != V) {
            release();
            cli_die("--dist=%s: %lld vertices, the predecessors %lld", df, (long long)DV, (long long)V);
        }
    }
    if (from >= V || to >= V) {
        release();
        cli_die("%s %lld: not a vertex of the %lld in %s", from >= V ? "FROM" : "TO",
                (long long)(from >= V ? from : to), (long long)V, pf);
    }
    int64_t *path = malloc((size_t)V * sizeof *path), len = 0;
    if (!path)
        cli_die("cannot allocate a path of %lld vertices", (long long)V);
    if (gk_apsp_path(pred, V, V, from, to, path, &len)) {
        held[2] = path;
        release();
        cli_die("%s: %s", pf, gk_last_error());
    }
    if (len == 0) {
        if (!cli_quiet)
            fprintf(stderr, "%s: no path from %lld to %lld: %lld is unreachable from %lld\n", cli_prog,
                    (long long)from, (long long)to, (long long)to, (long long)from);
        held[2] = path;
        release();
        return 1;
    }
    for (int64_t k = 0; k < len; k++)
        printf("%s%lld", k ? " " : "", (long long)path[k]);
    printf("\n");
    if (dist) {
        int64_t q = from * V + to;
        switch (wt) {
        case GK_DTYPE_INT32: printf("%d\n", ((int32_t *)dist)[q]); break;
        case GK_DTYPE_INT64: printf("%lld\n", (long long)((int64_t *)dist)[q]); break;
        case GK_DTYPE_FLOAT32: printf("%.9g\n", ((float *)dist)[q]); break;
        default: printf("%.17g\n", ((double *)dist)[q]); break;
        }
    }
    held[2] = path;
    release();
    return 0;
}
