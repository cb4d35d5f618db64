/* apsp_formats.h - inside libgk: the graph formats' edge lists (see
 * gk/apsp.h for the formats and apsp_formats.c for the rules). */
#ifndef GK_APSP_FORMATS_H
#define GK_APSP_FORMATS_H

#include "core/internal.h"
#include "core/io.h"

/* The V x V matrix, INF off the diagonal and 0 on it, or GK_ENOMEM naming
 * path and how much it needs (apsp_io.c). */
gk_status gk__apsp_alloc_matrix(const char *path, int32_t V, int32_t **out);

/* The NTHU format's rules for edge number `index` (src, dst in [0, V),
 * weight in [0, GK_APSP_MAX_WEIGHT]): GK_EFORMAT naming path, the edge and
 * the field, else GK_OK.  One place for the single-process and the
 * row-block readers. */
gk_status gk__nthu_edge_check(const char *path, int64_t index, int32_t s, int32_t t, int32_t w, int32_t V);

/* The rules of `gk gen apsp` (V >= 1, E in [0, INT32_MAX], max_w in
 * [0, GK_APSP_MAX_WEIGHT]): GK_EINVAL naming the option, else GK_OK. */
gk_status gk__apsp_generate_check(int32_t V, int64_t E, int32_t max_w);

/* Edge number e of the random graph of (seed, V, max_w): src and dst
 * uniform (no self-loop when V > 1), weight uniform in [0, max_w].  A
 * function of its arguments only, so every format and thread count writes
 * the same graph. */
void gk__random_edge(uint64_t seed, int64_t e, int32_t V, int32_t max_w, int32_t *s, int32_t *t, int32_t *w);

/* The bytes of a V x V int32 matrix, or GK_EINVAL naming path when they do
 * not fit an object. */
gk_status gk__apsp_matrix_bytes(const char *path, int32_t V, uint64_t *bytes);
/* A V x V distance matrix written in row chunks: the output opened (as
 * gk__out_open: a temp file renamed at the end) with the NPY header
 * written for NPY (format AUTO: by the name); the caller writes the rows in
 * order with gk__out_write and ends with gk__out_close (which removes the
 * temp file on any failure).  On failure here nothing is left open. */
gk_status gk__apsp_out_open(gk_outfile *o, const char *path, gk_format format, int32_t V);

/* How a graph is read (the internal readers' flags; the public calls pass
 * undirected only). */
#define GK__READ_UNDIRECTED 1   /* each edge goes both ways */
#define GK__READ_ONE_BASED 2    /* an edge list's ids start at 1 (--one-based) */

/* A graph as read.  Three ways to hold it, by what the result needs:
 *   list   (gk__edges_read): V vertices, E edges (src, dst, w) in file
 *          order, 12 bytes each (a converted graph keeps them all);
 *   dedup  each (src, dst) pair once with its smallest weight, in a hash
 *          table of 12-byte slots at most half full (a Matrix Market output,
 *          a distance matrix while the pairs take less memory than it);
 *   matrix the V x V initial matrix itself, once it is the smaller (a
 *          distance matrix).
 * The text is never held: one line at a time. */
typedef struct gk_edges {
    int32_t V;
    int64_t E, cap;          /* E: edges read (every line, duplicates and self-loops included) */
    int32_t *s, *t, *w;      /* list */
    int32_t max_w;
    int32_t max_id;          /* largest vertex id of an edge, -1 without edges */
    int32_t min_id;          /* smallest, INT32_MAX without edges */
    int distinct;            /* list: each pair once, sorted (read through dedup) */
    /* dedup and matrix modes */
    int mode;                /* GK__EDGES_LIST (0), _DEDUP or _MATRIX */
    int to_matrix;           /* dedup may turn into matrix (the result is the matrix) */
    int undirected;          /* dedup and matrix: store each edge both ways */
    int keep_loops;          /* matrix: self-loops kept on the diagonal (INF: none), not 0 */
    int32_t known_V;         /* the vertex count the header or --vertices gave (0: unknown) */
    uint64_t *hkey;          /* dedup: (src << 32 | dst), ~0 for an empty slot */
    int32_t *hw;
    int64_t hcap, hn;
    int32_t *dist;           /* matrix: side dcap >= every id so far */
    int64_t dcap;
    const char *path;        /* for messages */
    /* typed mode (gk__edges_read_typed, list mode only): real and negative
       weights of the text formats, each as a double in wd */
    int typed;
    gk_dtype want;           /* the type asked for (0: auto): its rules are checked per line */
    double *wd;
    double pending;          /* the weight the line being read parsed */
    int all_integral;        /* every weight an integer of at most 2^53 */
    int neg;                 /* a weight < 0 */
    double max_abs;          /* the largest |weight| */
} gk_edges;
enum { GK__EDGES_LIST = 0, GK__EDGES_DEDUP, GK__EDGES_MATRIX };

/* Read path (format not AUTO) into g, as a list; flags GK__READ_*
 * (ONE_BASED: edge lists only), vertices as gk_apsp_read_format. */
gk_status gk__edges_read(const char *path, gk_format format, int32_t vertices, gk_edges *g);
gk_status gk__edges_read_flags(const char *path, gk_format format, int flags, int32_t vertices, gk_edges *g);
void gk__edges_free(gk_edges *g);
/* A text graph (gr, mtx, edges; format AUTO: detected) as a list of edges
 * with double weights (g->wd): each weight checked against the rules of
 * type want (0: auto) on its line: not NaN or inf, integral for the integer
 * types, in range of the type; -0.0 read as +0.0. */
/* .npy: the descr of t ("<i4", "<i8", "<f4", "<f8"; NULL for another
 * type), and the NPY 1.0 header of a V x V C-order matrix of t into h (n
 * bytes, 128 hold any V below 2^31), padded so the data starts at a
 * multiple of 64; returns its length. */
const char *gk__npy_descr(gk_dtype t);
int gk__npy_matrix_header(char *h, size_t n, gk_dtype t, int64_t V);
/* The same header for a rows x cols matrix (gk_sssp_run_file's S x V). */
int gk__npy_rows_header(char *h, size_t n, gk_dtype t, int64_t rows, int64_t cols);

/* The integer distance type of a graph of V vertices whose weights are
 * integral with largest |w| max_abs (neg: some weight < 0): want (0: auto,
 * int32 when (V-1) max|w| < INF, INF/2 with negative weights, else int64)
 * into *t, or GK_EINVAL naming name when the bound fails (apsp_matrix_io.c). */
gk_status gk__apsp_int_type(const char *name, int64_t V, double max_abs, int neg, gk_dtype want, gk_dtype *t);

/* An empty list of room for E edges of V vertices (free with
 * gk__edges_free), and a list written to path in a graph format (AUTO: by
 * the name, default nthu; not npy), atomically (the generators of
 * graph_gen.c).  The caller fills s, t, w, E, max_w and max_id. */
gk_status gk__edges_alloc(gk_edges *g, int32_t V, int64_t E, const char *path);
gk_status gk__edges_write(const char *path, gk_format format, gk_edges *g);

/* gk_apsp_read_matrix with GK__READ_* flags (apsp_matrix_io.c). */
gk_status gk__apsp_read_matrix_flags(const char *path, gk_format format, int flags, int64_t vertices,
                                     gk_dtype *dtype, void **dist, int64_t *V, int64_t *E);
gk_status gk__edges_read_typed(const char *path, gk_format format, int flags, int32_t vertices, gk_dtype want,
                               gk_edges *g);

/* A text graph (gr, mtx, edges) read straight into its initial V x V
 * matrix, holding no more than the deduplicated pairs or the matrix on the
 * way; *min_id as gk_edges. */
gk_status gk__text_read_matrix(const char *path, gk_format format, int flags, int32_t vertices, int32_t **dist,
                               int32_t *V, int64_t *E, int32_t *max_w, int32_t *min_id);

typedef struct gk__apsp_graph gk__apsp_graph;

/* gk__apsp_graph: an input as read, either its checked edge
 * list (NTHU, when it takes no more memory than the matrix or less than 64
 * MiB) or the initial matrix (the other formats, or many more edges than
 * matrix entries). */
struct gk__apsp_graph {
    char name[1024];         /* the input, for messages */
    int32_t V;
    int64_t E;
    int32_t max_w;           /* the largest weight, self-loops included */
    int32_t max_arc;         /* edges: the largest weight of an edge that is not a self-loop (-1: none) */
    int undirected;          /* edges: each goes both ways */
    gk_format format;        /* the format read */
    int32_t min_id;          /* an edge list's smallest vertex id (INT32_MAX: none or not an edge list) */
    int32_t *edges;          /* 3E int32 (src, dst, w), every one checked, or NULL */
    int32_t *dist;           /* or the V x V initial matrix, or NULL */
};

/* The graph's initial matrix on the host (malloc'ed, the caller frees it):
 * built from the edges (the same matrix gk__apsp_read makes), or the one
 * read, handed over (the graph has none afterwards: a second call fails). */
gk_status gk__apsp_graph_matrix(gk__apsp_graph *g, int32_t **dist);

/* d[i][j] = d[j][i] = the smaller of the two (--undirected on a matrix). */
void gk__apsp_symmetrize(int32_t *d, int32_t V);

/* ---- what the public API of earlier releases had (the NTHU-only
 * readers, the CLI's pieces); now internal ---- */

/* Read an input file and build the initial matrix: INF everywhere, 0 on the
 * diagonal, the smallest weight of each (src, dst) pair; self-loops are
 * ignored.  *dist is malloc'ed (free() it).  Every broken rule (file size not
 * 8 + 12E, V < 1, E < 0, src or dst outside [0, V), weight outside
 * [0, GK_APSP_MAX_WEIGHT], a matrix too large for this machine's memory) fails
 * with GK_EFORMAT or GK_ENOMEM and a message naming the file and the item.
 * E (may be NULL) receives the edge count, max_w (may be NULL) the largest
 * weight. */
gk_status gk__apsp_read(const char *path, int32_t **dist, int32_t *V, int64_t *E, int32_t *max_w);

/* Write the V x V matrix to path atomically (temp file + rename): on failure
 * no file is left behind. */
gk_status gk__apsp_write(const char *path, const int32_t *dist, int32_t V);

/* Write a reproducible random graph: E edges, src and dst uniform (no
 * self-loops when V > 1), weights uniform in [0, max_w].  Same seed, same
 * file, for any thread count. */
gk_status gk__apsp_generate_nthu(const char *path, int32_t V, int64_t E, uint64_t seed, int32_t max_w);

/* The format an output named path gets for AUTO: by its extension (as
 * gk_format_detect, plus .npy), else fallback. */
gk_format gk__format_for_output(const char *path, gk_format fallback);

/* A distance matrix as .npy (gk_apsp_write_format's NPY). */
gk_status gk__apsp_write_npy(const char *path, const int32_t *dist, int32_t V);


/* Read path (format AUTO: gk_format_detect's choice; undirected and
 * vertices as gk_apsp_read_format) into *graph (free it with
 * gk__apsp_graph_free).  Errors as gk_apsp_read_format's, *graph NULL. */
gk_status gk__apsp_graph_read(const char *path, gk_format format, int undirected, int32_t vertices,
                                    gk__apsp_graph **graph);
/* The same with GK__READ_* flags. */
gk_status gk__apsp_graph_read_flags(const char *path, gk_format format, int flags, int32_t vertices,
                                    gk__apsp_graph **graph);
/* The vertex count, edge count and largest weight (self-loops included); any
 * pointer may be NULL. */
void gk__apsp_graph_info(const gk__apsp_graph *graph, int32_t *V, int64_t *E, int32_t *max_w);
void gk__apsp_graph_free(gk__apsp_graph *graph);

/* The public readers and writers (apsp_api.c checks and converts their
 * int64 sizes) with int32 ones: V < 2^31 in every format. */
gk_status gk__apsp_read_format32(const char *path, gk_format format, int undirected, int32_t vertices,
                                 int32_t **dist, int32_t *V, int64_t *E, int32_t *max_w);
gk_status gk__apsp_write_format32(const char *path, gk_format format, const int32_t *dist, int32_t V);
gk_status gk__graph_convert32(const char *in, gk_format in_format, const char *out, gk_format out_format,
                              int undirected, int32_t vertices, int32_t *V, int64_t *E, int32_t *max_id);
/* The same with GK__READ_* flags and the input's smallest vertex id
 * (INT32_MAX: none); min_id may be NULL. */
gk_status gk__graph_convert_flags(const char *in, gk_format in_format, const char *out, gk_format out_format,
                                  int flags, int32_t vertices, int32_t *V, int64_t *E, int32_t *max_id,
                                  int32_t *min_id);
/* gk convert: gk__graph_convert_flags, and a text graph with real or
 * negative weights (or want != 0: --weights=TYPE, whose rules every
 * weight is checked against) to a text format with its weights as read;
 * an nthu output keeps int32 weights in [0, GK_APSP_MAX_WEIGHT], its
 * refusal saying so. */
gk_status gk__graph_convert_weights(const char *in, gk_format in_format, const char *out, gk_format out_format,
                                    int flags, int32_t vertices, gk_dtype want, int32_t *V, int64_t *E,
                                    int32_t *max_id, int32_t *min_id);
gk_status gk__apsp_generate32(const char *path, gk_format format, int32_t V, int64_t E, uint64_t seed,
                              int32_t max_w, int32_t *max_id);

#endif /* GK_APSP_FORMATS_H */
