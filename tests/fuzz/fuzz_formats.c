/* fuzz_formats.c - the graph readers of src/core/apsp_formats.c (DIMACS .gr,
 * Matrix Market, text edge lists, NTHU, format detection) on arbitrary bytes.
 *
 * The bytes are written to g.gr, g.mtx, g.edges, g.txt and g (no extension)
 * in a temp folder; g is read as every format (auto, nthu, gr, mtx, edges),
 * the others as auto (detection by the extension), each directed and
 * undirected, without --vertices and with one derived from the first byte
 * (1 + byte % 64).  Checks:
 *   - a failure leaves a one-line message naming the file, no matrix, and
 *     the same message as the edge reader (gk__edges_read) gives;
 *   - a success has V >= 1, a zero diagonal, every entry in [0, GK_APSP_INF],
 *     a symmetric matrix when undirected, and is exactly the matrix of the
 *     edges gk__edges_read gives (minimum of duplicates, no self-loops);
 *   - round trip (the auto reading of g): gk_graph_convert to nthu, gr, mtx
 *     and edges and reading the result back gives the same matrix, and
 *     gk__apsp_write_npy writes the matrix as it is.
 * Graphs of more than MAX_V vertices are read as edges only (memory); the
 * matrix reader runs on them only where it fails before allocating. */
#include "fuzz.h"
#include "core/apsp_formats.h"

#include <limits.h>

#define MAX_V 256

static char dir[64];
static const char *const exts[] = { "", ".gr", ".mtx", ".edges", ".txt" };
#define NEXT ((int)(sizeof exts / sizeof exts[0]))
static const char *const outs[] = { "o.nthu", "o.gr", "o.mtx", "o.edges", "o.npy" };
#define NOUT ((int)(sizeof outs / sizeof outs[0]))

static void cleanup(void)
{
    char p[128];
    for (int i = 0; i < NEXT; i++) {
        snprintf(p, sizeof p, "%s/g%s", dir, exts[i]);
        unlink(p);
    }
    for (int i = 0; i < NOUT; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, outs[i]);
        unlink(p);
    }
    rmdir(dir);
}

static const char *in_path(int i)
{
    static char p[NEXT][128];
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/gk-fuzz-XXXXXX", tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
        if (!mkdtemp(dir)) { perror("fuzz: mkdtemp"); abort(); }
        atexit(cleanup);
    }
    snprintf(p[i], sizeof p[i], "%s/g%s", dir, exts[i]);
    return p[i];
}

static const char *out_path(int i)
{
    static char p[NOUT][128];
    snprintf(p[i], sizeof p[i], "%s/%s", dir, outs[i]);
    return p[i];
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

/* The matrix of g's edges (undirected: both ways). */
static int32_t *reference(const gk_edges *g, int undirected)
{
    int64_t n = g->V;
    int32_t *r = malloc((size_t)(n * n) * sizeof *r);
    if (!r) abort();
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            r[i * n + j] = i == j ? 0 : GK_APSP_INF;
    for (int64_t e = 0; e < g->E; e++) {
        int32_t s = g->s[e], t = g->t[e], w = g->w[e];
        FUZZ_ASSERT(s >= 0 && s < g->V && t >= 0 && t < g->V && w >= 0 && w <= GK_APSP_MAX_WEIGHT);
        if (s == t) continue;
        if (w < r[s * n + t]) r[s * n + t] = w;
        if (undirected && w < r[t * n + s]) r[t * n + s] = w;
    }
    return r;
}

static void check_matrix(const int32_t *d, int32_t V, int undirected)
{
    int64_t n = V;
    FUZZ_ASSERT(V >= 1);
    for (int64_t i = 0; i < n; i++) {
        FUZZ_ASSERT(d[i * n + i] == 0);
        for (int64_t j = 0; j < n; j++) {
            FUZZ_ASSERT(d[i * n + j] >= 0 && d[i * n + j] <= GK_APSP_INF);
            if (undirected) FUZZ_ASSERT(d[i * n + j] == d[j * n + i]);
        }
    }
}

static void check_failure(gk_status st, const char *path)
{
    fuzz_check_message(st);
    FUZZ_ASSERT(strstr(gk_last_error(), path) != NULL);
}

/* gk_graph_convert of path (format f) to every graph format, read back:
 * the same matrix d; the matrix itself as .npy. */
static void round_trip(const char *path, gk_format f, int undirected, int32_t vertices, const int32_t *d,
                       int32_t V)
{
    static const gk_format fmts[] = { GK_FORMAT_NTHU, GK_FORMAT_GR, GK_FORMAT_MTX, GK_FORMAT_EDGES };
    size_t bytes = (size_t)V * (size_t)V * sizeof *d;
    for (int k = 0; k < 4; k++) {
        const char *out = out_path(k);
        int64_t cV = -1, cmax = -2;
        int64_t cE = -1;
        gk_status st = gk_graph_convert(path, f, out, GK_FORMAT_AUTO, undirected, vertices, &cV, &cE, &cmax);
        FUZZ_ASSERT(st == GK_OK);
        FUZZ_ASSERT(cV == V && cE >= 0 && cmax >= -1 && cmax < V);
        int32_t *d2 = NULL, mw = -1;
        int64_t E2 = -1, V2 = -1;
        /* An edge list records no isolated vertices above its largest id. */
        st = gk_apsp_read_format(out, fmts[k], 0, fmts[k] == GK_FORMAT_EDGES ? V : 0, &d2, &V2, &E2, &mw);
        FUZZ_ASSERT(st == GK_OK);
        FUZZ_ASSERT(V2 == V);
        FUZZ_ASSERT(!memcmp(d, d2, bytes));
        free(d2);
    }
    const char *npy = out_path(4);
    FUZZ_ASSERT(gk__apsp_write_npy(npy, d, V) == GK_OK);
    FILE *fp = fopen(npy, "rb");
    FUZZ_ASSERT(fp != NULL);
    unsigned char h[10];
    FUZZ_ASSERT(fread(h, 1, 10, fp) == 10 && !memcmp(h, "\x93NUMPY\x01\x00", 8));
    size_t hl = (size_t)h[8] | (size_t)h[9] << 8;
    FUZZ_ASSERT((10 + hl) % 64 == 0);
    FUZZ_ASSERT(fseek(fp, (long)(10 + hl), SEEK_SET) == 0);
    int32_t *d3 = malloc(bytes + 1);
    if (!d3) abort();
    FUZZ_ASSERT(fread(d3, 1, bytes + 1, fp) == bytes);
    FUZZ_ASSERT(!memcmp(d, d3, bytes));
    free(d3);
    fclose(fp);
}

/* Read path as format f, check it against gk__edges_read. */
static void one(const char *path, gk_format f, int undirected, int32_t vertices, const uint8_t *data, size_t size,
                int trip)
{
    gk_format real = f;
    gk_status st;
    if (f == GK_FORMAT_AUTO && (st = gk_format_detect(path, &real))) {
        check_failure(st, path);
        return;
    }
    FUZZ_ASSERT(real >= GK_FORMAT_NTHU && real <= GK_FORMAT_NPY);
    gk_edges g;
    gk_status est = gk__edges_read(path, real, vertices, &g);
    char emsg[1024] = "";
    if (est) {
        check_failure(est, path);
        FUZZ_ASSERT(g.s == NULL && g.t == NULL && g.w == NULL);
        snprintf(emsg, sizeof emsg, "%s", gk_last_error());
        /* The NTHU matrix reader allocates V x V before it reads the edges. */
        if (real == GK_FORMAT_NTHU && !vertices) {
            int32_t hv = 0;
            if (size >= 4) memcpy(&hv, data, 4);
            if (hv > MAX_V) return;
        }
    } else {
        FUZZ_ASSERT(g.V >= 1 && g.E >= 0 && g.max_id < g.V);
        if (vertices) FUZZ_ASSERT(g.V >= vertices);
        if (g.V > MAX_V) {
            gk__edges_free(&g);
            return;
        }
    }
    int32_t *d = NULL, mw = -1, V = -1;
    int64_t E = -1, V64 = -1;
    st = gk_apsp_read_format(path, f, undirected, vertices, &d, &V64, &E, &mw);
    V = (int32_t)V64;
    if (est) {
        FUZZ_ASSERT(st != GK_OK && d == NULL);
        check_failure(st, path);
        FUZZ_ASSERT(!strcmp(emsg, gk_last_error()));
        return;
    }
    FUZZ_ASSERT(st == GK_OK);
    FUZZ_ASSERT(V == g.V && E == g.E && mw == g.max_w);
    check_matrix(d, V, undirected);
    int32_t *r = reference(&g, undirected);
    FUZZ_ASSERT(!memcmp(r, d, (size_t)V * (size_t)V * sizeof *d));
    free(r);
    gk__edges_free(&g);
    if (trip)
        round_trip(path, f, undirected, vertices, d, V);
    free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const gk_format fmts[] = { GK_FORMAT_AUTO, GK_FORMAT_NTHU, GK_FORMAT_GR, GK_FORMAT_MTX,
                                      GK_FORMAT_EDGES };
    const char *path[NEXT];
    for (int i = 0; i < NEXT; i++) {
        path[i] = in_path(i);
        write_file(path[i], data, size);
    }
    int32_t vopt = size ? 1 + data[0] % 64 : 1;
    int trip_und = size > 1 ? data[1] & 1 : 0;
    for (int u = 0; u < 2; u++)
        for (int v = 0; v < 2; v++) {
            int32_t vertices = v ? vopt : 0;
            for (int k = 0; k < (int)(sizeof fmts / sizeof fmts[0]); k++)
                one(path[0], fmts[k], u, vertices, data, size, k == 0 && u == trip_und);
            for (int i = 1; i < NEXT; i++)
                one(path[i], GK_FORMAT_AUTO, u, vertices, data, size, 0);
        }
    return 0;
}
