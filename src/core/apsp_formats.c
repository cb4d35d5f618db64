/* apsp_formats.c - graph formats besides the NTHU one: DIMACS .gr, Matrix
 * Market coordinate and text edge lists (reading with one-line errors naming
 * the file and the line, writing atomically), the NumPy .npy distance
 * matrix, format detection, `gk convert` and `gk gen apsp` in any format.
 * The NTHU reader stays gk__apsp_read (apsp_io.c): gk_apsp_read_format routes
 * to it. */
#define _GNU_SOURCE 1      /* getline, strcasecmp */
#include "core/internal.h"
#include "core/apsp_formats.h"
#include "core/apsp_types.h"
#include "core/checked.h"
#include "core/io.h"
#include "core/rng.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

static const char *const names[] = { "auto", "nthu", "gr", "mtx", "edges", "npy" };

gk_status gk_format_parse(const char *text, gk_format *out)
{
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (text && !strcmp(text, names[i])) {
            *out = (gk_format)i;
            return GK_OK;
        }
    return gk__fail(GK_EINVAL, "format '%s': want auto, nthu, gr, mtx, edges or npy", text ? text : "(null)");
}

const char *gk_format_name(gk_format f)
{
    return (unsigned)f < sizeof names / sizeof names[0] ? names[f] : "unknown";
}

/* The format an extension names (AUTO: none). */
static gk_format by_extension(const char *path)
{
    static const struct { const char *ext; gk_format f; } ext[] = {
        { "gr", GK_FORMAT_GR }, { "mtx", GK_FORMAT_MTX }, { "mm", GK_FORMAT_MTX },
        { "edges", GK_FORMAT_EDGES }, { "el", GK_FORMAT_EDGES }, { "txt", GK_FORMAT_EDGES },
        { "tsv", GK_FORMAT_EDGES }, { "nthu", GK_FORMAT_NTHU }, { "bin", GK_FORMAT_NTHU },
        { "npy", GK_FORMAT_NPY } };
    const char *base = strrchr(path, '/'), *dot;
    base = base ? base + 1 : path;
    if (!(dot = strrchr(base, '.')) || dot == base)
        return GK_FORMAT_AUTO;
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
        if (!strcasecmp(dot + 1, ext[i].ext))
            return ext[i].f;
    return GK_FORMAT_AUTO;
}

gk_format gk__format_for_output(const char *path, gk_format fallback)
{
    gk_format f = path && strcmp(path, "-") ? by_extension(path) : GK_FORMAT_AUTO;
    return f == GK_FORMAT_AUTO ? fallback : f;
}

/* The format of the first n bytes b of name (size: the file's size, -1
 * for a stream), when its extension said nothing. */
static gk_status detect_bytes(const char *name, const unsigned char *b, size_t n, int64_t size, gk_format *out)
{
    *out = GK_FORMAT_NTHU;
    if (n >= 8 && size >= 0) {          /* a self-consistent NTHU header */
        int32_t hdr[2];
        memcpy(hdr, b, sizeof hdr);
        if (hdr[0] >= 1 && hdr[1] >= 0 && size == 8 + 12 * (int64_t)hdr[1])
            return GK_OK;
    }
    size_t i = n >= 3 && !memcmp(b, "\xef\xbb\xbf", 3) ? 3 : 0;   /* a UTF-8 byte-order mark */
    for (size_t k = i; k < n; k++)
        if (!(isprint(b[k]) || b[k] == '\n' || b[k] == '\r' || b[k] == '\t'))
            return GK_OK;               /* binary: nthu, whose reader says what is wrong */
    while (i < n && isspace(b[i])) i++;
    if (i == n) return GK_OK;           /* empty: the nthu reader says so */
    if (b[i] == 'c' || b[i] == 'p') *out = GK_FORMAT_GR;
    else if (b[i] == '%') *out = GK_FORMAT_MTX;
    else if (b[i] == '#' || isdigit(b[i])) *out = GK_FORMAT_EDGES;
    else {
        /* text of no format gk knows (a CSV header, a word): not NTHU, whose
         * reader would only say that the size is wrong */
        char first[48];
        size_t k = 0;
        for (; k < 32 && i + k < n && b[i + k] != '\n' && b[i + k] != '\r'; k++)
            first[k] = b[i + k] == '\t' ? ' ' : (char)b[i + k];
        first[k] = '\0';
        return gk__fail(GK_EFORMAT, "%s: looks like text, not the NTHU binary format (first bytes '%s%s'); "
                        "name the format with --format=edges|gr|mtx", name, first,
                        i + k < n && b[i + k] != '\n' && b[i + k] != '\r' ? "..." : "");
    }
    return GK_OK;
}

gk_status gk_format_detect(const char *path, gk_format *out)
{
    *out = GK_FORMAT_NTHU;
    if (!path || !*path)
        return gk__fail(GK_EINVAL, "empty input file name");
    if (!strcmp(path, "-")) {
        /* standard input: its first bytes, kept for the reader */
        const unsigned char *b;
        size_t n;
        gk_status st = gk__stdin_peek(&b, &n);
        if (st) return st;
        if (n >= 14 && !memcmp(b, "%%MatrixMarket", 14)) {
            *out = GK_FORMAT_MTX;
            return GK_OK;
        }
        return detect_bytes("standard input", b, n, -1, out);
    }
    /* Only a regular file is opened and looked into: opening a FIFO, then
     * closing it and opening it again for the reader, loses what its writer
     * sent in between (and can leave the reader waiting for a writer that
     * is gone); a device's bytes would be taken from the reader. */
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        gk_format f = by_extension(path);
        if (f == GK_FORMAT_NPY)
            return gk__fail(GK_EINVAL, "%s: .npy holds a distance matrix, not a graph: give --format for a graph",
                            path);
        if (f != GK_FORMAT_AUTO) *out = f;
        return GK_OK;
    }
    gk_infile in;
    gk_status st = gk__in_open(&in, path);
    if (st) return st;
    unsigned char b[GK__PEEK_BYTES];
    size_t n = in.size >= 0 ? fread(b, 1, sizeof b, in.f) : 0;
    gk__in_close(&in);
    size_t bom = n >= 3 && !memcmp(b, "\xef\xbb\xbf", 3) ? 3 : 0;
    if (n >= 14 + bom && !memcmp(b + bom, "%%MatrixMarket", 14)) {
        *out = GK_FORMAT_MTX;
        return GK_OK;
    }
    gk_format f = by_extension(path);
    if (f == GK_FORMAT_NPY)
        return gk__fail(GK_EINVAL, "%s: .npy holds a distance matrix, not a graph: give --format for a graph", path);
    if (f != GK_FORMAT_AUTO) {
        *out = f;
        return GK_OK;
    }
    return detect_bytes(path, b, n, in.size, out);
}

/* ---- edge lists in memory ---- */

void gk__edges_free(gk_edges *g)
{
    free(g->s);
    free(g->t);
    free(g->w);
    free(g->hkey);
    free(g->hw);
    free(g->dist);
    free(g->wd);
    g->wd = NULL;
    g->s = g->t = g->w = NULL;
    g->hkey = NULL;
    g->hw = NULL;
    g->dist = NULL;
    g->E = g->cap = g->hcap = g->hn = g->dcap = 0;
}

static gk_status edges_reserve(gk_edges *g, int64_t want, const char *path)
{
    if (want <= g->cap || g->mode != GK__EDGES_LIST)
        return GK_OK;
    int64_t cap = g->cap ? g->cap : 1024;
    while (cap < want)
        cap = cap > INT64_MAX / 2 ? want : cap * 2;
    uint64_t bytes;
    if (gk__mul_u64((uint64_t)cap, sizeof(int32_t), &bytes) || bytes > gk__max_object_bytes())
        return gk__fail(GK_ENOMEM, "%s: %lld edges do not fit in memory", path, (long long)want);
    int32_t *p[3] = { g->s, g->t, g->w };
    for (int k = 0; k < 3; k++) {
        int32_t *q = realloc(p[k], (size_t)bytes);
        if (!q) {
            g->s = p[0], g->t = p[1], g->w = p[2];
            return gk__fail(GK_ENOMEM, "%s: cannot allocate memory for %lld edges", path, (long long)want);
        }
        p[k] = q;
    }
    g->s = p[0], g->t = p[1], g->w = p[2];
    if (g->typed) {
        double *q = realloc(g->wd, (size_t)cap * sizeof *q);
        if (!q)
            return gk__fail(GK_ENOMEM, "%s: cannot allocate memory for %lld edges", path, (long long)want);
        g->wd = q;
    }
    g->cap = cap;
    return GK_OK;
}

#define HASH_EMPTY (~(uint64_t)0)

/* dedup: an empty table of cap slots (a power of two). */
static gk_status hash_alloc(int64_t cap, uint64_t **key, int32_t **w, const char *path)
{
    *key = malloc((size_t)cap * sizeof **key);
    *w = malloc((size_t)cap * sizeof **w);
    if (!*key || !*w) {
        free(*key);
        free(*w);
        *key = NULL;
        *w = NULL;
        return gk__fail(GK_ENOMEM, "%s: cannot allocate memory for %lld distinct edges", path, (long long)cap / 2);
    }
    memset(*key, 0xff, (size_t)cap * sizeof **key);
    return GK_OK;
}

/* The pair (s, t) with weight w into the table: the smaller weight stays. */
static void hash_put(uint64_t *key, int32_t *hw, int64_t cap, int64_t *n, uint64_t k, int32_t w)
{
    uint64_t mask = (uint64_t)cap - 1, i = gk__mix64(k) & mask;
    for (;; i = (i + 1) & mask) {
        if (key[i] == k) {
            if (w < hw[i]) hw[i] = w;
            return;
        }
        if (key[i] == HASH_EMPTY) {
            key[i] = k;
            hw[i] = w;
            ++*n;
            return;
        }
    }
}

/* matrix: the V x V matrix replaced by a side x side one (side > dcap),
 * INF off the diagonal where nothing was put. */
static gk_status matrix_grow(gk_edges *g, int64_t side)
{
    int32_t *d;
    gk_status st = gk__apsp_alloc_matrix(g->path, (int32_t)side, &d);
    if (st) return st;
    for (int64_t i = 0; i < g->dcap; i++)
        memcpy(d + i * side, g->dist + i * g->dcap, (size_t)g->dcap * sizeof *d);
    for (int64_t i = g->dcap; g->keep_loops && i < side; i++)
        d[i * side + i] = GK_APSP_INF;                   /* the diagonal holds self-loops */
    free(g->dist);
    g->dist = d;
    g->dcap = side;
    return GK_OK;
}

static void matrix_put(gk_edges *g, int32_t s, int32_t t, int32_t w)
{
    if (s == t && !g->keep_loops) return;                /* self-loops are ignored */
    int32_t *c = g->dist + (int64_t)s * g->dcap + t;
    if (w < *c) *c = w;                                  /* duplicates keep the minimum */
    c = g->dist + (int64_t)t * g->dcap + s;
    if (g->undirected && w < *c) *c = w;
}

/* dedup -> matrix: once the table would take more memory than the matrix of
 * the vertices seen (or known), the matrix is the smaller way to hold the
 * graph. */
static gk_status dedup_to_matrix(gk_edges *g, int64_t side)
{
    gk_status st;
    g->dcap = 0;
    if ((st = matrix_grow(g, side)))
        return st;
    g->mode = GK__EDGES_MATRIX;
    for (int64_t i = 0; i < g->hcap; i++)
        if (g->hkey[i] != HASH_EMPTY)
            matrix_put(g, (int32_t)(g->hkey[i] >> 32), (int32_t)(g->hkey[i] & 0xffffffffu), g->hw[i]);
    free(g->hkey);
    free(g->hw);
    g->hkey = NULL;
    g->hw = NULL;
    g->hcap = g->hn = 0;
    return GK_OK;
}

static gk_status dedup_put(gk_edges *g, int32_t s, int32_t t, int32_t w)
{
    gk_status st;
    if (!g->hcap) {
        if ((st = hash_alloc(4096, &g->hkey, &g->hw, g->path)))
            return st;
        g->hcap = 4096;
    }
    if (2 * (g->hn + 2) > g->hcap) {
        int64_t cap = 2 * g->hcap;
        int64_t side = g->known_V ? g->known_V : (int64_t)g->max_id + 1;
        if (g->to_matrix && (uint64_t)cap * 12 > (uint64_t)side * (uint64_t)side * 4) {
            if ((st = dedup_to_matrix(g, side)))
                return st;
            matrix_put(g, s, t, w);
            return GK_OK;
        }
        uint64_t *key;
        int32_t *hw;
        if ((uint64_t)cap * 12 > gk__max_object_bytes())
            return gk__fail(GK_ENOMEM, "%s: %lld distinct edges do not fit in memory", g->path, (long long)g->hn);
        if ((st = hash_alloc(cap, &key, &hw, g->path)))
            return st;
        int64_t n = 0;
        for (int64_t i = 0; i < g->hcap; i++)
            if (g->hkey[i] != HASH_EMPTY)
                hash_put(key, hw, cap, &n, g->hkey[i], g->hw[i]);
        free(g->hkey);
        free(g->hw);
        g->hkey = key;
        g->hw = hw;
        g->hcap = cap;
    }
    hash_put(g->hkey, g->hw, g->hcap, &g->hn, (uint64_t)s << 32 | (uint32_t)t, w);
    if (g->undirected && s != t)
        hash_put(g->hkey, g->hw, g->hcap, &g->hn, (uint64_t)t << 32 | (uint32_t)s, w);
    return GK_OK;
}

/* The header (or --vertices) gave the vertex count. */
static gk_status edges_begin(gk_edges *g, int32_t V, int64_t edges_hint, const char *path)
{
    g->V = V;
    g->known_V = V;
    return edges_reserve(g, edges_hint < (1 << 20) ? edges_hint : (1 << 20), path);
}

static gk_status edges_push(gk_edges *g, int32_t s, int32_t t, int32_t w, const char *path)
{
    gk_status st;
    if (g->mode == GK__EDGES_LIST) {
        if (g->E == g->cap && (st = edges_reserve(g, g->E + 1, path)))
            return st;
        g->s[g->E] = s, g->t[g->E] = t, g->w[g->E] = w;
        if (g->typed)
            g->wd[g->E] = g->pending;
    }
    g->E++;
    if (w > g->max_w) g->max_w = w;
    if (s > g->max_id) g->max_id = s;
    if (t > g->max_id) g->max_id = t;
    if (s < g->min_id) g->min_id = s;
    if (t < g->min_id) g->min_id = t;
    if (g->mode == GK__EDGES_DEDUP)
        return dedup_put(g, s, t, w);
    if (g->mode == GK__EDGES_MATRIX) {
        int32_t hi = s > t ? s : t;
        if (hi >= g->dcap) {                             /* ids past the matrix: a larger one */
            int64_t side = g->dcap + g->dcap / 8 + 1;
            if (side <= hi) side = (int64_t)hi + 1;
            if (g->known_V && side > g->known_V) side = g->known_V;
            if ((st = matrix_grow(g, side)))
                return st;
        }
        matrix_put(g, s, t, w);
    }
    return GK_OK;
}

/* ---- text input: lines and fields ---- */

typedef struct text {
    gk_infile in;
    const char *path;        /* for messages */
    char *line;
    size_t cap;
    long long no;            /* line number of `line` */
    gk_edges *typed;         /* typed mode: weights go to typed->pending (weight_typed) */
    int int_field;           /* a Matrix Market "integer" file: its weights are integers */
} text;

/* The longest line a text graph file may have: a graph line is a few
 * numbers, a comment rarely more than a sentence.  A bound, so that an
 * endless line (a stream of zeros, a binary file given as text) fails at
 * once instead of taking all the memory. */
#define TEXT_LINE_MAX (1 << 20)

/* The next line (newline and CR stripped) in r->line: 1, or 0 at the end,
 * or -1 with the failure recorded in *st.  NUL bytes and overlong lines are
 * refused as they are read. */
static int next_line(text *r, gk_status *st)
{
    size_t n = 0;
    int c = EOF;
    errno = 0;
    while ((c = getc_unlocked(r->in.f)) != EOF) {   /* one thread reads: no lock per byte */
        if (c == '\0') {
            *st = gk__fail(GK_EFORMAT, "%s:%lld: a NUL byte: not a text file (give --format if it is another format)",
                           r->path, r->no + 1);
            return -1;
        }
        if (n + 2 > r->cap) {
            if (r->cap >= TEXT_LINE_MAX) {
                *st = gk__fail(GK_EFORMAT, "%s:%lld: a line longer than %d bytes: not a graph file of this format",
                               r->path, r->no + 1, TEXT_LINE_MAX);
                return -1;
            }
            size_t cap = r->cap ? 2 * r->cap : 256;
            char *l = realloc(r->line, cap);
            if (!l) {
                *st = gk__fail(GK_ENOMEM, "%s:%lld: cannot allocate a line buffer", r->path, r->no + 1);
                return -1;
            }
            r->line = l;
            r->cap = cap;
        }
        r->line[n++] = (char)c;
        if (c == '\n') break;
    }
    if (c == EOF && ferror(r->in.f)) {
        *st = gk__fail(GK_EIO, "%s:%lld: read failed: %s", r->path, r->no + 1, strerror(errno ? errno : EIO));
        return -1;
    }
    if (n == 0)
        return 0;
    r->line[n] = '\0';
    r->no++;
    while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
        r->line[--n] = '\0';
    /* A UTF-8 byte-order mark (what some Windows editors put first) is
     * skipped: it is no part of the text (documented in gk/apsp.h). */
    if (r->no == 1 && n >= 3 && !memcmp(r->line, "\xef\xbb\xbf", 3)) {
        memmove(r->line, r->line + 3, n - 2);
        n -= 3;
    }
    /* A CR inside a line: the lines end with CR alone (classic Mac), and
     * the whole file would be read as one line. */
    if (memchr(r->line, '\r', n)) {
        *st = gk__fail(GK_EFORMAT, "%s:%lld: a carriage return (CR) inside the line: lines must end with LF or "
                       "CR LF, not CR alone", r->path, r->no);
        return -1;
    }
    return 1;
}

/* The next white-space separated field of *p, or NULL. */
static char *field(char **p)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) { *p = s; return NULL; }
    char *e = s;
    while (*e && *e != ' ' && *e != '\t') e++;
    if (*e) *e++ = '\0';
    *p = e;
    return s;
}

/* A whole decimal integer (optional sign). */
static int parse_int(const char *s, long long *v)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (*end || errno || end == s || isspace((unsigned char)*s))
        return -1;
    *v = x;
    return 0;
}

/* A printable copy of a field for messages (at most 40 characters). */
static const char *shown(const char *s, char *buf, size_t n)
{
    snprintf(buf, n, "%.40s%s", s, strlen(s) > 40 ? "..." : "");
    for (char *c = buf; *c; c++)
        if (!isprint((unsigned char)*c)) *c = '?';
    return buf;
}

/* Replace the control characters (and other unprintable bytes) of a
 * message part built from raw fields by '?'; s. */
static char *printable(char *s)
{
    for (char *c = s; *c; c++)
        if (!isprint((unsigned char)*c)) *c = '?';
    return s;
}

/* What a line holds, for messages ("arc 5 -> 0", "entry (3, 7)"): made
 * only when a message needs it (not for each of millions of good lines). */
typedef struct item {
    const char *fmt, *a, *b;     /* fmt takes a and b (%.20s each) */
    char buf[96];
} item;

static const char *item_text(item *it)
{
    snprintf(it->buf, sizeof it->buf, it->fmt, it->a, it->b);
    return printable(it->buf);
}

/* A vertex field in [lo, hi]. */
static gk_status vertex(text *r, const char *f, const char *name, long long lo, long long hi, item *what,
                        long long *v)
{
    char b[64];
    if (parse_int(f, v))
        return gk__fail(GK_EFORMAT, "%s:%lld: %s: %s '%s' is not an integer", r->path, r->no, item_text(what),
                        name, shown(f, b, sizeof b));
    if (*v < lo || *v > hi)
        return gk__fail(GK_EFORMAT, "%s:%lld: %s: vertex %lld is outside [%lld, %lld]", r->path, r->no,
                        item_text(what), *v, lo, hi);
    return GK_OK;
}

/* A decimal number as Matrix Market writes reals: [+-]digits[.digits]
 * [(e|E)[+-]digits], or with the digits after the point only.  strtod
 * alone would also take hexadecimal floats (0x1p4), "inf" and "nan". */
static int decimal_number(const char *s)
{
    int digits = 0;
    if (*s == '+' || *s == '-') s++;
    while (isdigit((unsigned char)*s)) s++, digits++;
    if (*s == '.')
        for (s++; isdigit((unsigned char)*s); s++) digits++;
    if (!digits) return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-') s++;
        if (!isdigit((unsigned char)*s)) return 0;
        while (isdigit((unsigned char)*s)) s++;
    }
    return *s == '\0';
}

/* Typed mode: any decimal number (an integer only for an integer field),
 * checked against the type asked for; the value in g->pending. */
static gk_status weight_typed(text *r, const char *f, int real, item *what)
{
    gk_edges *g = r->typed;
    char b[64];
    long long v;
    double d;
    const double two53 = 9007199254740992.0;
    int integral;
    if (!parse_int(f, &v)) {
        d = (double)v;
        integral = v >= -(1LL << 53) && v <= (1LL << 53);
        if (!integral && g->want != GK_DTYPE_FLOAT32 && g->want != GK_DTYPE_FLOAT64)
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %lld is beyond +-2^53 (integer weights are read "
                            "exactly up to there)", r->path, r->no, item_text(what), v);
    } else {
        char *end;
        const char *c = f + (*f == '+' || *f == '-');
        if (!strncasecmp(c, "inf", 3) || !strncasecmp(c, "nan", 3))
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %s: %s is not a weight (no text format defines it as "
                            "'no edge': leave the edge out)", r->path, r->no, item_text(what), shown(f, b, sizeof b),
                            tolower((unsigned char)*c) == 'n' ? "NaN" : "infinity");
        if (!decimal_number(f))
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight '%s' is not a decimal number", r->path, r->no,
                            item_text(what), shown(f, b, sizeof b));
        if (!real && r->int_field)
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight '%s' is not an integer (the file's field is integer)",
                            r->path, r->no, item_text(what), shown(f, b, sizeof b));
        errno = 0;
        d = strtod(f, &end);
        if (errno == ERANGE && fabs(d) < 1)            /* 1e-400: not 0 */
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %s is below float64's smallest magnitude (not 0)",
                            r->path, r->no, item_text(what), shown(f, b, sizeof b));
        if (!isfinite(d))
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %s is outside float64's range", r->path, r->no,
                            item_text(what), shown(f, b, sizeof b));
        integral = d == floor(d) && fabs(d) <= two53;
    }
    if (d == 0)
        d = 0;                                              /* -0.0 -> +0.0 */
    if ((g->want == GK_DTYPE_INT32 || g->want == GK_DTYPE_INT64) && !integral)
        return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %s%s%s is not an integer (--weights=%s)", r->path, r->no,
                        item_text(what), real ? "" : "'", shown(f, b, sizeof b), real ? "" : "'", gk_dtype_name(g->want));
    if (g->want == GK_DTYPE_INT32 && fabs(d) > GK_APSP_MAX_WEIGHT)
        return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %s is outside [-%d, %d] (--weights=int32)", r->path, r->no,
                        item_text(what), shown(f, b, sizeof b), GK_APSP_MAX_WEIGHT, GK_APSP_MAX_WEIGHT);
    if (g->want == GK_DTYPE_FLOAT32 && isinf((float)d))
        return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %s is outside float32's range (--weights=float32)", r->path,
                        r->no, item_text(what), shown(f, b, sizeof b));
    if (!integral) g->all_integral = 0;
    if (d < 0) g->neg = 1;
    if (fabs(d) > g->max_abs) g->max_abs = fabs(d);
    g->pending = d;
    return GK_OK;
}

/* A weight field: an integer, or (real) a decimal number with an integral
 * value, in [0, GK_APSP_MAX_WEIGHT]. */
static gk_status weight(text *r, const char *f, int real, item *what, int32_t *w)
{
    char b[64];
    long long v;
    if (r->typed) {
        *w = 0;
        return weight_typed(r, f, real, what);
    }
    if (parse_int(f, &v)) {
        char *end;
        errno = 0;
        double d = real ? strtod(f, &end) : 0;
        int underflow = real && errno == ERANGE && d == 0 && end != f;   /* 1e-400: not 0 */
        if (real && !decimal_number(f))
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight '%s' is not a decimal number", r->path, r->no,
                            item_text(what), shown(f, b, sizeof b));
        if (!real || *end || end == f || isspace((unsigned char)*f))
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight '%s' is not an integer", r->path, r->no,
                            item_text(what), shown(f, b, sizeof b));
        if (underflow || !isfinite(d) || d != floor(d))
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %s is not an integer (gk's weights are integers "
                            "in [0, %d])", r->path, r->no, item_text(what), shown(f, b, sizeof b),
                            GK_APSP_MAX_WEIGHT);
        if (d < 0 || d > GK_APSP_MAX_WEIGHT)
            return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %s is outside [0, %d]", r->path, r->no, item_text(what),
                            shown(f, b, sizeof b), GK_APSP_MAX_WEIGHT);
        *w = (int32_t)d;
        return GK_OK;
    }
    if (v < 0 || v > GK_APSP_MAX_WEIGHT)
        return gk__fail(GK_EFORMAT, "%s:%lld: %s: weight %lld is outside [0, %d]", r->path, r->no, item_text(what), v,
                        GK_APSP_MAX_WEIGHT);
    *w = (int32_t)v;
    return GK_OK;
}

static gk_status extra_field(text *r, char *p, const char *want)
{
    char b[64];
    const char *f = field(&p);
    if (f)
        return gk__fail(GK_EFORMAT, "%s:%lld: extra field '%s' (want %s)", r->path, r->no, shown(f, b, sizeof b),
                        want);
    return GK_OK;
}

/* ---- DIMACS .gr ---- */

static gk_status read_gr(text *r, gk_edges *g)
{
    gk_status st = GK_OK;
    long long n = -1, m = 0, pline = 0;
    char b[64];
    int k;
    while ((k = next_line(r, &st)) > 0) {
        char *p = r->line, *f = field(&p);
        if (!f || (f[0] == 'c' && f[1] == '\0'))
            continue;                                   /* blank or comment */
        if (!strcmp(f, "p")) {
            if (pline)
                return gk__fail(GK_EFORMAT, "%s:%lld: a second problem line (the first is line %lld)", r->path,
                                r->no, pline);
            const char *sp = field(&p), *fn = field(&p), *fm = field(&p);
            if (!sp || strcmp(sp, "sp") || !fn || !fm)
                return gk__fail(GK_EFORMAT, "%s:%lld: the problem line must be 'p sp N M'", r->path, r->no);
            if (parse_int(fn, &n) || n < 1 || n >= INT32_MAX)
                return gk__fail(GK_EFORMAT, "%s:%lld: p sp: vertex count '%s' is not in [1, %d]", r->path, r->no,
                                shown(fn, b, sizeof b), INT32_MAX - 1);
            if (parse_int(fm, &m) || m < 0 || m > INT32_MAX)
                return gk__fail(GK_EFORMAT, "%s:%lld: p sp: arc count '%s' is not in [0, %d]", r->path, r->no,
                                shown(fm, b, sizeof b), INT32_MAX);
            if ((st = extra_field(r, p, "'p sp N M'")))
                return st;
            pline = r->no;
            if ((st = edges_begin(g, (int32_t)n, m, r->path)))
                return st;
        } else if (!strcmp(f, "a")) {
            if (!pline)
                return gk__fail(GK_EFORMAT, "%s:%lld: an arc before the 'p sp N M' problem line", r->path, r->no);
            if (g->E == m)
                return gk__fail(GK_EFORMAT, "%s:%lld: more arcs than the %lld of the problem line (line %lld)",
                                r->path, r->no, m, pline);
            const char *fu = field(&p), *fv = field(&p), *fw = field(&p);
            if (!fw)
                return gk__fail(GK_EFORMAT, "%s:%lld: an arc line must be 'a U V W'", r->path, r->no);
            item what = { "arc %.20s -> %.20s", fu, fv, "" };
            long long u, v;
            int32_t w;
            if ((st = vertex(r, fu, "tail", 1, n, &what, &u)) || (st = vertex(r, fv, "head", 1, n, &what, &v)) ||
                (st = weight(r, fw, 0, &what, &w)) || (st = extra_field(r, p, "'a U V W'")) ||
                (st = edges_push(g, (int32_t)(u - 1), (int32_t)(v - 1), w, r->path)))
                return st;
        } else
            return gk__fail(GK_EFORMAT, "%s:%lld: unknown line type '%s' (want c, p or a)", r->path, r->no,
                            shown(f, b, sizeof b));
    }
    if (k < 0)
        return st;
    if (!r->no)
        return gk__fail(GK_EFORMAT, "%s: the file is empty (no 'p sp N M' problem line)", r->path);
    if (!pline)
        return gk__fail(GK_EFORMAT, "%s:%lld: no 'p sp N M' problem line", r->path, r->no);
    if (g->E < m)
        return gk__fail(GK_EFORMAT, "%s:%lld: the file ends after %lld arcs; the problem line (line %lld) says %lld",
                        r->path, r->no, (long long)g->E, pline, m);
    return GK_OK;
}

/* ---- Matrix Market coordinate ---- */

static gk_status read_mtx(text *r, gk_edges *g)
{
    gk_status st = GK_OK;
    char b[64];
    int k = next_line(r, &st);
    if (k < 0) return st;
    if (k == 0)
        return gk__fail(GK_EFORMAT, "%s: the file is empty (no '%%%%MatrixMarket' banner)", r->path);
    if (strncmp(r->line, "%%MatrixMarket", 14))
        return gk__fail(GK_EFORMAT, "%s:1: no '%%%%MatrixMarket matrix coordinate FIELD SYMMETRY' banner", r->path);
    char *p = r->line + 14;
    const char *obj = field(&p), *fmt = field(&p), *fld = field(&p), *sym = field(&p);
    if (!obj || !fmt || !fld || !sym || strcasecmp(obj, "matrix"))
        return gk__fail(GK_EFORMAT, "%s:1: the banner must be '%%%%MatrixMarket matrix coordinate FIELD SYMMETRY'",
                        r->path);
    if (strcasecmp(fmt, "coordinate"))
        return gk__fail(GK_EFORMAT, "%s:1: '%s' matrices are not read: want coordinate", r->path,
                        shown(fmt, b, sizeof b));
    int real = 0, pattern = 0, symmetric = 0;
    if (!strcasecmp(fld, "real") || !strcasecmp(fld, "double")) real = 1;
    else if (!strcasecmp(fld, "pattern")) pattern = 1;
    else if (strcasecmp(fld, "integer"))
        return gk__fail(GK_EFORMAT, "%s:1: field '%s': want integer, real (integral values) or pattern", r->path,
                        shown(fld, b, sizeof b));
    else
        r->int_field = 1;
    if (!strcasecmp(sym, "symmetric")) symmetric = 1;
    else if (strcasecmp(sym, "general"))
        return gk__fail(GK_EFORMAT, "%s:1: symmetry '%s': want general or symmetric", r->path,
                        shown(sym, b, sizeof b));
    if ((st = extra_field(r, p, "the banner's four words")))
        return st;
    long long n = -1, nnz = 0, count = 0, sizeline = 0;
    const char *want = pattern ? "'I J'" : "'I J W'";
    while ((k = next_line(r, &st)) > 0) {
        p = r->line;
        char *f = field(&p);
        if (!f || f[0] == '%')
            continue;                                   /* blank or comment */
        if (!sizeline) {
            long long rows, cols;
            const char *fc = field(&p), *fz = field(&p);
            if (parse_int(f, &rows) || !fc || parse_int(fc, &cols) || !fz || parse_int(fz, &nnz))
                return gk__fail(GK_EFORMAT, "%s:%lld: the size line must be 'ROWS COLUMNS ENTRIES'", r->path, r->no);
            if (rows != cols)
                return gk__fail(GK_EFORMAT, "%s:%lld: the matrix is %lld x %lld: an adjacency matrix is square",
                                r->path, r->no, rows, cols);
            if (rows < 1 || rows >= INT32_MAX)
                return gk__fail(GK_EFORMAT, "%s:%lld: %lld rows: the vertex count must be in [1, %d]", r->path,
                                r->no, rows, INT32_MAX - 1);
            if (nnz < 0 || nnz > INT32_MAX)
                return gk__fail(GK_EFORMAT, "%s:%lld: %lld entries: want [0, %d]", r->path, r->no, nnz, INT32_MAX);
            if ((st = extra_field(r, p, "'ROWS COLUMNS ENTRIES'")))
                return st;
            n = rows;
            sizeline = r->no;
            if ((st = edges_begin(g, (int32_t)n, nnz, r->path)))
                return st;
            continue;
        }
        if (count == nnz)
            return gk__fail(GK_EFORMAT, "%s:%lld: more entries than the %lld of the size line (line %lld)", r->path,
                            r->no, nnz, sizeline);
        const char *fj = field(&p), *fw = pattern ? "1" : field(&p);
        if (!fj || !fw)
            return gk__fail(GK_EFORMAT, "%s:%lld: an entry must be %s", r->path, r->no, want);
        item what = { "entry (%.20s, %.20s)", f, fj, "" };
        long long i, j;
        int32_t w;
        if ((st = vertex(r, f, "row", 1, n, &what, &i)) || (st = vertex(r, fj, "column", 1, n, &what, &j)) ||
            (st = weight(r, fw, real, &what, &w)) || (st = extra_field(r, p, want)) ||
            (st = edges_push(g, (int32_t)(i - 1), (int32_t)(j - 1), w, r->path)))
            return st;
        if (symmetric && i != j && (st = edges_push(g, (int32_t)(j - 1), (int32_t)(i - 1), w, r->path)))
            return st;
        count++;
    }
    if (k < 0)
        return st;
    if (!sizeline)
        return gk__fail(GK_EFORMAT, "%s:%lld: no 'ROWS COLUMNS ENTRIES' size line", r->path, r->no);
    if (count < nnz)
        return gk__fail(GK_EFORMAT, "%s:%lld: the file ends after %lld entries; the size line (line %lld) says %lld",
                        r->path, r->no, count, sizeline, nnz);
    return GK_OK;
}

/* ---- text edge lists ---- */

static gk_status read_edges(text *r, int32_t vertices, int one_based, gk_edges *g)
{
    gk_status st = GK_OK;
    int k;
    /* ids in [lo, hi]: V = largest id + 1 must fit (0-based), --vertices bounds them */
    long long lo = one_based ? 1 : 0, hi = (vertices > 0 ? vertices - 1 : INT32_MAX - 2) + lo;
    if (vertices > 0 && (st = edges_begin(g, vertices, 0, r->path)))
        return st;
    while ((k = next_line(r, &st)) > 0) {
        char *hash = strchr(r->line, '#');
        if (hash) *hash = '\0';
        char *p = r->line, *fs = field(&p);
        if (!fs)
            continue;
        const char *ft = field(&p), *fw = field(&p);
        if (!fw)
            return gk__fail(GK_EFORMAT, "%s:%lld: an edge line must be 'SRC DST W'%s", r->path, r->no,
                            strchr(fs, ',') || (ft && strchr(ft, ',')) ? " (fields separated by spaces or tabs, "
                            "not commas)" : "");
        item what = { "edge %.20s -> %.20s", fs, ft, "" };
        long long s, t;
        int32_t w;
        if ((st = vertex(r, fs, "src", lo, hi, &what, &s)) || (st = vertex(r, ft, "dst", lo, hi, &what, &t)) ||
            (st = weight(r, fw, 0, &what, &w)) || (st = extra_field(r, p, "'SRC DST W'")) ||
            (st = edges_push(g, (int32_t)(s - lo), (int32_t)(t - lo), w, r->path)))
            return st;
    }
    if (k < 0)
        return st;
    g->V = vertices > g->max_id + 1 ? vertices : g->max_id + 1;
    if (g->V < 1 && !r->no)
        return gk__fail(GK_EFORMAT, "%s: the file is empty (no edges, and no --vertices to give the vertex count)",
                        r->path);
    if (g->V < 1)
        return gk__fail(GK_EFORMAT, "%s:%lld: no edges, and no --vertices to give the vertex count", r->path, r->no);
    return GK_OK;
}

/* ---- NTHU, as an edge list (gk__apsp_read builds the matrix directly) ---- */

static gk_status read_nthu_edges(const char *path, gk_edges *g)
{
    gk_infile in;
    gk_status st = gk__in_open(&in, path);
    if (st) return st;
    path = in.name;
    int32_t hdr[2], buf[3 * 4096];
    if (in.size >= 0 && in.size < 8) {
        st = gk__fail(GK_EFORMAT, "%s: file size %lld is not 8 + 12E (too short for the V, E header)", path,
                      (long long)in.size);
        goto out;
    }
    if ((st = gk__read_exact(in.f, path, hdr, sizeof hdr, "the V, E header")))
        goto out;
    int32_t V = hdr[0], E = hdr[1];
    if (V < 1) { st = gk__fail(GK_EFORMAT, "%s: V = %d: the vertex count must be at least 1", path, V); goto out; }
    if (E < 0) { st = gk__fail(GK_EFORMAT, "%s: E = %d: the edge count must not be negative", path, E); goto out; }
    if (in.size >= 0 && in.size != 8 + 12 * (int64_t)E) {
        st = gk__fail(GK_EFORMAT, "%s: file size %lld is not 8 + 12E = %lld for E = %d", path, (long long)in.size,
                      (long long)(8 + 12 * (int64_t)E), E);
        goto out;
    }
    g->V = V;
    if ((st = edges_reserve(g, in.size >= 0 ? E : (E < 4096 ? E : 4096), path)))
        goto out;
    for (int64_t e0 = 0; e0 < E; e0 += 4096) {
        int64_t m = E - e0 < 4096 ? E - e0 : 4096;
        if ((st = gk__read_exact(in.f, path, buf, (size_t)m * 12, "the edges")))
            goto out;
        for (int64_t e = 0; e < m; e++) {
            int32_t s = buf[3 * e], t = buf[3 * e + 1], w = buf[3 * e + 2];
            if (s < 0 || s >= V || t < 0 || t >= V) {
                st = gk__fail(GK_EFORMAT, "%s: edge %lld (%d, %d, %d): %s %d is outside [0, %d)", path,
                              (long long)(e0 + e), s, t, w, s < 0 || s >= V ? "src" : "dst",
                              s < 0 || s >= V ? s : t, V);
                goto out;
            }
            if (w < 0 || w > GK_APSP_MAX_WEIGHT) {
                st = gk__fail(GK_EFORMAT, "%s: edge %lld (%d, %d, %d): weight %d is outside [0, %d]", path,
                              (long long)(e0 + e), s, t, w, w, GK_APSP_MAX_WEIGHT);
                goto out;
            }
            if ((st = edges_push(g, s, t, w, path)))
                goto out;
        }
    }
    char after[64];
    snprintf(after, sizeof after, "the E = %d edges", E);
    st = gk__in_expect_end(&in, after);
out:
    gk__in_close(&in);
    return st;
}

/* Read path into g (its mode, to_matrix and undirected set by the caller). */
static gk_status edges_read_into(const char *path, gk_format format, int flags, int32_t vertices, gk_edges *g)
{
    gk_status st;
    g->V = 0;
    g->max_id = -1;
    g->min_id = INT32_MAX;
    g->path = path;
    if (format == GK_FORMAT_AUTO && (st = gk_format_detect(path, &format)))
        return st;
    if (vertices < 0)
        return gk__fail(GK_EINVAL, "--vertices=%d: must be at least 1", vertices);
    if (vertices > 0 && format != GK_FORMAT_EDGES)
        return gk__fail(GK_EINVAL, "%s: --vertices applies to edge lists; a %s file gives its own vertex count",
                        path, gk_format_name(format));
    if ((flags & GK__READ_ONE_BASED) && format != GK_FORMAT_EDGES)
        return gk__fail(GK_EINVAL, "%s: --one-based applies to edge lists; a %s file has its own numbering (%s)",
                        path, gk_format_name(format), format == GK_FORMAT_NTHU ? "0-based" : "1-based");
    if (format == GK_FORMAT_NTHU)
        st = read_nthu_edges(path, g);
    else if (format == GK_FORMAT_GR || format == GK_FORMAT_MTX || format == GK_FORMAT_EDGES) {
        text r = { .path = path, .typed = g->typed ? g : NULL };
        if ((st = gk__in_open(&r.in, path)))
            return st;
        r.path = g->path = r.in.name;
        st = format == GK_FORMAT_GR ? read_gr(&r, g) : format == GK_FORMAT_MTX ? read_mtx(&r, g)
                                    : read_edges(&r, vertices, (flags & GK__READ_ONE_BASED) != 0, g);
        free(r.line);
        gk__in_close(&r.in);
    } else
        st = gk__fail(GK_EINVAL, "%s: %s is not a graph format (want nthu, gr, mtx or edges)", path,
                      gk_format_name(format));
    return st;
}

gk_status gk__edges_read_flags(const char *path, gk_format format, int flags, int32_t vertices, gk_edges *g)
{
    memset(g, 0, sizeof *g);
    gk_status st = edges_read_into(path, format, flags, vertices, g);
    if (st)
        gk__edges_free(g);
    return st;
}

gk_status gk__edges_read_typed(const char *path, gk_format format, int flags, int32_t vertices, gk_dtype want,
                               gk_edges *g)
{
    gk_status st;
    memset(g, 0, sizeof *g);
    g->typed = 1;
    g->want = want;
    g->all_integral = 1;
    if (format == GK_FORMAT_AUTO && (st = gk_format_detect(path, &format)))
        return st;
    if (format != GK_FORMAT_GR && format != GK_FORMAT_MTX && format != GK_FORMAT_EDGES)
        return gk__fail(GK_EINVAL, "%s: %s is not a text graph format", path, gk_format_name(format));
    if ((st = edges_read_into(path, format, flags, vertices, g)))
        gk__edges_free(g);
    return st;
}

gk_status gk__edges_read(const char *path, gk_format format, int32_t vertices, gk_edges *g)
{
    return gk__edges_read_flags(path, format, 0, vertices, g);
}

gk_status gk__text_read_matrix(const char *path, gk_format format, int flags, int32_t vertices, int32_t **dist,
                               int32_t *V, int64_t *E, int32_t *max_w, int32_t *min_id)
{
    gk_edges g;
    gk_status st;
    memset(&g, 0, sizeof g);
    g.mode = GK__EDGES_DEDUP;
    g.to_matrix = 1;
    g.undirected = (flags & GK__READ_UNDIRECTED) != 0;
    *dist = NULL;
    if ((st = edges_read_into(path, format, flags, vertices, &g)))
        goto out;
    const char *name = strcmp(path, "-") ? path : "standard input";
    int64_t n = g.V;
    if (g.mode == GK__EDGES_MATRIX) {
        /* the matrix as held (side dcap >= V): rows moved down to side V */
        for (int64_t i = 1; i < n && g.dcap != n; i++)
            memmove(g.dist + i * n, g.dist + i * g.dcap, (size_t)n * sizeof *g.dist);
        if (g.dcap != n) {
            int32_t *d = realloc(g.dist, (size_t)(n * n) * sizeof *d);
            if (d) g.dist = d;
        }
        *dist = g.dist;
        g.dist = NULL;
    } else {
        int32_t *d;
        if ((st = gk__apsp_alloc_matrix(name, g.V, &d)))
            goto out;
        for (int64_t i = 0; i < g.hcap; i++)
            if (g.hkey[i] != HASH_EMPTY) {
                int64_t s = (int64_t)(g.hkey[i] >> 32), t = (int64_t)(g.hkey[i] & 0xffffffffu);
                if (s != t) d[s * n + t] = g.hw[i];       /* undirected: both ways are in the table */
            }
        *dist = d;
    }
    *V = g.V;
    if (E) *E = g.E;
    if (max_w) *max_w = g.max_w;
    if (min_id) *min_id = g.min_id;
out:
    gk__edges_free(&g);
    return st;
}

void gk__apsp_symmetrize(int32_t *d, int32_t V)
{
    int64_t n = V;
#pragma omp parallel for schedule(dynamic, 16)
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            int32_t a = d[i * n + j], b = d[j * n + i], m = a < b ? a : b;
            d[i * n + j] = d[j * n + i] = m;
        }
}

gk_status gk__apsp_read_format32(const char *path, gk_format format, int undirected, int32_t vertices,
                              int32_t **dist, int32_t *V, int64_t *E, int32_t *max_w)
{
    gk_status st;
    *dist = NULL;
    if (format == GK_FORMAT_AUTO && (st = gk_format_detect(path, &format)))
        return st;
    if (format == GK_FORMAT_NTHU) {
        if (vertices)
            return gk__fail(GK_EINVAL, "%s: --vertices applies to edge lists; a nthu file gives its own vertex count",
                            path);
        if ((st = gk__apsp_read(path, dist, V, E, max_w)))
            return st;
        if (undirected)
            gk__apsp_symmetrize(*dist, *V);
        return GK_OK;
    }
    return gk__text_read_matrix(path, format, undirected, vertices, dist, V, E, max_w, NULL);
}

/* ---- writing ---- */

const char *gk__npy_descr(gk_dtype t)
{
    switch (t) {
    case GK_DTYPE_INT32: return "<i4";
    case GK_DTYPE_INT64: return "<i8";
    case GK_DTYPE_FLOAT32: return "<f4";
    case GK_DTYPE_FLOAT64: return "<f8";
    }
    return NULL;
}

/* NPY 1.0: magic, version, uint16 header length, a Python dict literal
 * padded with spaces and ended by '\n' so that the data starts at a
 * multiple of 64 bytes.  Returns its length. */
int gk__npy_matrix_header(char *h, size_t n, gk_dtype t, int64_t V)
{
    return gk__npy_rows_header(h, n, t, V, V);
}

int gk__npy_rows_header(char *h, size_t n, gk_dtype t, int64_t rows, int64_t cols)
{
    int len = snprintf(h + 10, n - 10, "{'descr': '%s', 'fortran_order': False, 'shape': (%lld, %lld), }",
                       gk__npy_descr(t), (long long)rows, (long long)cols);
    int total = (10 + len + 1 + 63) / 64 * 64;
    memcpy(h, "\x93NUMPY\x01\x00", 8);
    h[8] = (char)((total - 10) & 0xff);
    h[9] = (char)((total - 10) >> 8);
    memset(h + 10 + len, ' ', (size_t)(total - 10 - len - 1));
    h[total - 1] = '\n';
    return total;
}

gk_status gk__apsp_out_open(gk_outfile *o, const char *path, gk_format format, int32_t V)
{
    uint64_t bytes = 0;
    gk_status st;
    if (format == GK_FORMAT_AUTO)
        format = gk__format_for_output(path, GK_FORMAT_NTHU) == GK_FORMAT_NPY ? GK_FORMAT_NPY : GK_FORMAT_NTHU;
    if (format != GK_FORMAT_NTHU && format != GK_FORMAT_NPY)
        return gk__fail(GK_EINVAL, "%s: a distance matrix is written as nthu or npy, not %s", path,
                        gk_format_name(format));
    if ((st = gk__apsp_matrix_bytes(path, V, &bytes)) || (st = gk__out_open(o, path)))
        return st;
    if (format == GK_FORMAT_NPY) {
        char h[128];
        int total = gk__npy_matrix_header(h, sizeof h, GK_DTYPE_INT32, V);
        if ((st = gk__out_write(o, h, (size_t)total)))
            return gk__out_close(o, st);
    }
    return GK_OK;
}

gk_status gk__apsp_write_npy(const char *path, const int32_t *dist, int32_t V)
{
    uint64_t bytes = 0;
    gk_status st0 = gk__apsp_matrix_bytes(path, V, &bytes);
    if (st0) return st0;
    char h[128];
    int total = gk__npy_matrix_header(h, sizeof h, GK_DTYPE_INT32, V);
    gk_outfile o;
    gk_status st = gk__out_open(&o, path);
    if (st) return st;
    if (!(st = gk__out_write(&o, h, (size_t)total)))
        st = gk__out_write(&o, dist, (size_t)bytes);
    return gk__out_close(&o, st);
}

gk_status gk__apsp_write_format32(const char *path, gk_format format, const int32_t *dist, int32_t V)
{
    if (format == GK_FORMAT_AUTO)
        format = gk__format_for_output(path, GK_FORMAT_NTHU) == GK_FORMAT_NPY ? GK_FORMAT_NPY : GK_FORMAT_NTHU;
    if (format == GK_FORMAT_NTHU)
        return gk__apsp_write(path, dist, V);
    if (format == GK_FORMAT_NPY)
        return gk__apsp_write_npy(path, dist, V);
    return gk__fail(GK_EINVAL, "%s: a distance matrix is written as nthu or npy, not %s", path,
                    gk_format_name(format));
}

/* Buffered text output. */
typedef struct tout {
    gk_outfile o;
    char buf[1 << 16];
    size_t n;
    gk_status st;
} tout;

static void tput(tout *t, const char *fmt, ...) GK_PRINTF(2, 3);
static void tput(tout *t, const char *fmt, ...)
{
    if (t->st) return;
    if (t->n > sizeof t->buf - 256) {
        t->st = gk__out_write(&t->o, t->buf, t->n);
        t->n = 0;
    }
    va_list ap;
    va_start(ap, fmt);
    t->n += (size_t)vsnprintf(t->buf + t->n, sizeof t->buf - t->n, fmt, ap);
    va_end(ap);
}

static int cmp_edge(const void *a, const void *b)
{
    const int32_t *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* Sort by (src, dst, w) and keep the first (smallest) of each pair. */
static gk_status merge_duplicates(gk_edges *g, const char *path)
{
    if (g->E < 2) return GK_OK;
    int32_t *a;
    gk_status st = gk__xmalloc((void **)&a, (size_t)g->E * 12, "merging duplicate edges");
    if (st) return st;
    (void)path;
    for (int64_t e = 0; e < g->E; e++)
        a[3 * e] = g->s[e], a[3 * e + 1] = g->t[e], a[3 * e + 2] = g->w[e];
    qsort(a, (size_t)g->E, 12, cmp_edge);
    int64_t m = 0;
    for (int64_t e = 0; e < g->E; e++) {
        if (m && a[3 * e] == g->s[m - 1] && a[3 * e + 1] == g->t[m - 1])
            continue;
        g->s[m] = a[3 * e], g->t[m] = a[3 * e + 1], g->w[m] = a[3 * e + 2];
        m++;
    }
    g->E = m;
    free(a);
    return GK_OK;
}

/* A typed graph's weight as text that reads back as the same double: an
 * integer as digits (an integer mtx field takes no exponent), else the
 * shortest %g that round-trips (0.1, not 0.10000000000000001). */
static const char *weight_text(double v, char *b, size_t n)
{
    if (v == floor(v) && fabs(v) <= 9007199254740992.0) {
        snprintf(b, n, "%.0f", v);
        return b;
    }
    for (int p = 1; p <= 17; p++) {
        snprintf(b, n, "%.*g", p, v);
        if (strtod(b, NULL) == v)
            break;
    }
    return b;
}

typedef struct typed_edge { int32_t s, t; double w; } typed_edge;

static int cmp_typed_edge(const void *a, const void *b)
{
    const typed_edge *x = a, *y = b;
    if (x->s != y->s) return x->s < y->s ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->w < y->w ? -1 : x->w > y->w;
}

/* merge_duplicates for a typed list (the double weights decide). */
static gk_status merge_duplicates_typed(gk_edges *g)
{
    if (g->E < 2) return GK_OK;
    typed_edge *a;
    gk_status st = gk__xmalloc((void **)&a, (size_t)g->E * sizeof *a, "merging duplicate edges");
    if (st) return st;
    for (int64_t e = 0; e < g->E; e++)
        a[e].s = g->s[e], a[e].t = g->t[e], a[e].w = g->wd[e];
    qsort(a, (size_t)g->E, sizeof *a, cmp_typed_edge);
    int64_t m = 0;
    for (int64_t e = 0; e < g->E; e++) {
        if (m && a[e].s == g->s[m - 1] && a[e].t == g->t[m - 1])
            continue;
        g->s[m] = a[e].s, g->t[m] = a[e].t, g->wd[m] = a[e].w;
        m++;
    }
    g->E = m;
    free(a);
    return GK_OK;
}

/* Write g to path in format (not AUTO, not NPY; a typed g: not NTHU). */
static gk_status write_graph(const char *path, gk_format format, gk_edges *g)
{
    gk_status st;
    if (format == GK_FORMAT_MTX && !g->distinct && (st = g->typed ? merge_duplicates_typed(g)
                                                                  : merge_duplicates(g, path)))
        return st;
    if (format == GK_FORMAT_NTHU && g->typed)
        return gk__fail(GK_EINTERNAL, "%s: a typed graph written as nthu", path);
    if (format == GK_FORMAT_NTHU && g->E > INT32_MAX)
        return gk__fail(GK_EINVAL, "%s: %lld edges: the nthu format holds at most %d", path, (long long)g->E,
                        INT32_MAX);
    /* The text readers take at most INT32_MAX - 1 vertices (a 1-based
     * vertex id and the count must both fit an int32 with room for the
     * readers' one-past-the-end); never write a file gk cannot read back. */
    if (format != GK_FORMAT_NTHU && g->V > INT32_MAX - 1)
        return gk__fail(GK_EINVAL, "%s: %d vertices: the %s format holds at most %d", path, g->V,
                        format == GK_FORMAT_GR ? "gr" : format == GK_FORMAT_MTX ? "mtx" : "edges", INT32_MAX - 1);
    tout *t;
    if ((st = gk__xmalloc((void **)&t, sizeof *t, "an output buffer")))
        return st;
    t->n = 0;
    t->st = GK_OK;
    if ((st = gk__out_open(&t->o, path))) {
        free(t);
        return st;
    }
    long long V = g->V, E = g->E;
    char wb[40];
    if (format == GK_FORMAT_NTHU) {
        int32_t hdr[2] = { g->V, (int32_t)g->E };
        st = gk__out_write(&t->o, hdr, sizeof hdr);
        for (int64_t e = 0; !st && e < g->E; e++) {
            if (t->n + 12 > sizeof t->buf) {
                st = gk__out_write(&t->o, t->buf, t->n);
                t->n = 0;
            }
            int32_t r[3] = { g->s[e], g->t[e], g->w[e] };
            memcpy(t->buf + t->n, r, 12);
            t->n += 12;
        }
        t->st = st;
    } else if (format == GK_FORMAT_GR) {
        tput(t, "c written by gk %s: %lld vertices, %lld arcs\np sp %lld %lld\n", gk_version(), V, E, V, E);
        for (int64_t e = 0; e < g->E; e++)
            if (g->typed)
                tput(t, "a %d %d %s\n", g->s[e] + 1, g->t[e] + 1, weight_text(g->wd[e], wb, sizeof wb));
            else
                tput(t, "a %d %d %d\n", g->s[e] + 1, g->t[e] + 1, g->w[e]);
    } else if (format == GK_FORMAT_MTX) {
        tput(t, "%%%%MatrixMarket matrix coordinate %s general\n"
                "%% written by gk %s: row -> column is an edge, duplicates merged to the smallest weight\n"
                "%lld %lld %lld\n", g->typed && !g->all_integral ? "real" : "integer", gk_version(), V, V, E);
        for (int64_t e = 0; e < g->E; e++)
            if (g->typed)
                tput(t, "%d %d %s\n", g->s[e] + 1, g->t[e] + 1, weight_text(g->wd[e], wb, sizeof wb));
            else
                tput(t, "%d %d %d\n", g->s[e] + 1, g->t[e] + 1, g->w[e]);
    } else if (format == GK_FORMAT_EDGES) {
        tput(t, "# written by gk %s: %lld vertices, %lld edges; src dst w, 0-based\n", gk_version(), V, E);
        for (int64_t e = 0; e < g->E; e++)
            if (g->typed)
                tput(t, "%d %d %s\n", g->s[e], g->t[e], weight_text(g->wd[e], wb, sizeof wb));
            else
                tput(t, "%d %d %d\n", g->s[e], g->t[e], g->w[e]);
    } else
        t->st = gk__fail(GK_EINVAL, "%s: %s is not a graph format (want nthu, gr, mtx or edges)", path,
                         gk_format_name(format));
    st = t->st;
    if (!st && t->n)
        st = gk__out_write(&t->o, t->buf, t->n);
    st = gk__out_close(&t->o, st);
    free(t);
    return st;
}

static gk_status output_format(const char *path, gk_format *format)
{
    if (*format == GK_FORMAT_AUTO)
        *format = gk__format_for_output(path, GK_FORMAT_NTHU);
    if (*format == GK_FORMAT_NPY)
        return gk__fail(GK_EINVAL, "%s: npy holds distance matrices (gk apsp --output-format=npy), not graphs",
                        path);
    return GK_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* dedup -> list: the distinct pairs with their smallest weights, sorted by
 * (src, dst), as merge_duplicates leaves them. */
static gk_status dedup_to_list(gk_edges *g)
{
    gk_status st;
    struct kw { uint64_t k; int64_t w; } *a = NULL;   /* the key first: cmp_u64 sorts by it */
    int64_t m = 0;
    if ((st = gk__xmalloc((void **)&a, (size_t)(g->hn ? g->hn : 1) * sizeof *a, "sorting distinct edges")))
        return st;
    for (int64_t i = 0; i < g->hcap; i++)
        if (g->hkey[i] != HASH_EMPTY)
            a[m].k = g->hkey[i], a[m].w = g->hw[i], m++;
    free(g->hkey);
    free(g->hw);
    g->hkey = NULL;
    g->hw = NULL;
    g->hcap = g->hn = 0;
    g->mode = GK__EDGES_LIST;
    qsort(a, (size_t)m, sizeof *a, cmp_u64);
    g->E = 0;
    st = edges_reserve(g, m ? m : 1, g->path);
    for (int64_t i = 0; !st && i < m; i++) {
        g->s[i] = (int32_t)(a[i].k >> 32);
        g->t[i] = (int32_t)(a[i].k & 0xffffffffu);
        g->w[i] = (int32_t)a[i].w;
    }
    free(a);
    g->E = st ? 0 : m;
    g->distinct = 1;
    return st;
}

/* matrix -> list: the entries of the matrix (each below INF: an edge;
 * the diagonal holds self-loops), in row order: sorted by (src, dst), as
 * merge_duplicates leaves them. */
static gk_status matrix_to_list(gk_edges *g)
{
    gk_status st;
    int64_t n = g->dcap, m = 0;
    for (int64_t i = 0; i < n * n; i++)
        m += g->dist[i] != GK_APSP_INF;
    int32_t *d = g->dist;
    g->dist = NULL;
    g->dcap = 0;
    g->mode = GK__EDGES_LIST;
    g->E = 0;
    if ((st = edges_reserve(g, m ? m : 1, g->path))) {
        free(d);
        return st;
    }
    for (int64_t i = 0, e = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            if (d[i * n + j] != GK_APSP_INF)
                g->s[e] = (int32_t)i, g->t[e] = (int32_t)j, g->w[e] = d[i * n + j], e++;
    free(d);
    g->E = m;
    g->distinct = 1;
    return GK_OK;
}

/* --undirected: each edge (not a self-loop) also the other way, with its
 * weight (the double one too when the graph holds them). */
static gk_status mirror_undirected(gk_edges *g, const char *in, int flags)
{
    gk_status st;
    if (!(flags & GK__READ_UNDIRECTED))
        return GK_OK;
    const int64_t n = g->E;
    if ((st = edges_reserve(g, 2 * n, in)))
        return st;
    for (int64_t e = 0; e < n; e++) {
        if (g->wd)
            g->pending = g->wd[e];          /* edges_push stores it as the reverse edge's weight */
        if (g->s[e] != g->t[e] && (st = edges_push(g, g->t[e], g->s[e], g->w[e], in)))
            return st;
    }
    return GK_OK;
}

/* The converted graph written, and what the caller asked to know of it. */
static gk_status write_converted(gk_edges *g, const char *out, gk_format out_format, int32_t *V, int64_t *E,
                                 int32_t *max_id, int32_t *min_id)
{
    gk_status st = write_graph(out, out_format, g);
    if (st)
        return st;
    if (V) *V = g->V;
    if (E) *E = g->E;
    if (max_id) *max_id = g->max_id;
    if (min_id) *min_id = g->min_id;
    return GK_OK;
}

gk_status gk__graph_convert_flags(const char *in, gk_format in_format, const char *out, gk_format out_format,
                                  int flags, int32_t vertices, int32_t *V, int64_t *E, int32_t *max_id,
                                  int32_t *min_id)
{
    gk_status st;
    if ((st = output_format(out, &out_format)))
        return st;
    gk_edges g;
    memset(&g, 0, sizeof g);
    if (out_format == GK_FORMAT_MTX) {
        /* the output holds each pair once: read them so */
        g.mode = GK__EDGES_DEDUP;
        g.to_matrix = 1;          /* a matrix once smaller than the pairs, self-loops on its diagonal */
        g.keep_loops = 1;
        g.undirected = (flags & GK__READ_UNDIRECTED) != 0;
        if ((st = edges_read_into(in, in_format, flags, vertices, &g)) ||
            (st = g.mode == GK__EDGES_MATRIX ? matrix_to_list(&g) : dedup_to_list(&g)))
            goto out;
    } else {
        if ((st = gk__edges_read_flags(in, in_format, flags, vertices, &g)))
            return st;
        if ((st = mirror_undirected(&g, in, flags)))
            goto out;
    }
    st = write_converted(&g, out, out_format, V, E, max_id, min_id);
out:
    gk__edges_free(&g);
    return st;
}

static int text_format(gk_format f)
{
    return f == GK_FORMAT_GR || f == GK_FORMAT_MTX || f == GK_FORMAT_EDGES;
}

/* A text graph read with double weights (the rules of want, 0: any finite
 * weight, gk apsp's auto) and written to a text format as read. */
static gk_status convert_typed(const char *in, gk_format in_format, const char *out, gk_format out_format, int flags,
                               int32_t vertices, gk_dtype want, int32_t *V, int64_t *E, int32_t *max_id,
                               int32_t *min_id)
{
    gk_edges g;
    gk_status st = gk__edges_read_typed(in, in_format, flags, vertices, want, &g);
    if (st)
        return st;
    if (!(st = mirror_undirected(&g, in, flags)))
        st = write_converted(&g, out, out_format, V, E, max_id, min_id);
    gk__edges_free(&g);
    return st;
}

gk_status gk__graph_convert_weights(const char *in, gk_format in_format, const char *out, gk_format out_format,
                                    int flags, int32_t vertices, gk_dtype want, int32_t *V, int64_t *E,
                                    int32_t *max_id, int32_t *min_id)
{
    gk_status st;
    if ((st = output_format(out, &out_format)))
        return st;
    if (in_format == GK_FORMAT_AUTO && (st = gk_format_detect(in, &in_format)))
        return st;
    const int text_in = text_format(in_format), piped = !strcmp(in, "-");
    if (want && !gk__apsp_dtype_ok(want))
        return gk__fail(GK_EINVAL, "--weights: type %d is not int32, int64, float32 or float64", (int)want);
    if (out_format == GK_FORMAT_NTHU) {
        if (want && want != GK_DTYPE_INT32)
            return gk__fail(GK_EINVAL, "%s: --weights=%s: the nthu format holds int32 weights in [0, %d]; write gr, "
                            "mtx or edges", out, gk_dtype_name(want), GK_APSP_MAX_WEIGHT);
        st = gk__graph_convert_flags(in, in_format, out, out_format, flags, vertices, V, E, max_id, min_id);
        if (st == GK_EFORMAT && text_in && !piped) {
            /* a weight nthu cannot hold, or a broken file: a second read
               with real weights tells which (only on this failure) */
            char msg[1024];
            gk_edges g;
            snprintf(msg, sizeof msg, "%s", gk_last_error());
            if (!gk__edges_read_typed(in, in_format, flags, vertices, 0, &g)) {
                gk__edges_free(&g);
                return gk__fail(st, "%s (the nthu output %s holds int32 weights in [0, %d]: write gr, mtx or "
                                "edges)", msg, out, GK_APSP_MAX_WEIGHT);
            }
            return gk__fail(st, "%s", msg);
        }
        return st;
    }
    if (!text_in)                 /* nthu's weights: int32 in [0, MAX], every type's */
        return gk__graph_convert_flags(in, in_format, out, out_format, flags, vertices, V, E, max_id, min_id);
    if (want || piped)            /* standard input is read once: with real weights */
        return convert_typed(in, in_format, out, out_format, flags, vertices, want, V, E, max_id, min_id);
    /* the int32 path first (12 bytes an edge; mtx's pairs hashed, or a
       matrix); a graph it refuses is read again with real weights, which
       name a broken file's first fault the same way */
    st = gk__graph_convert_flags(in, in_format, out, out_format, flags, vertices, V, E, max_id, min_id);
    if (st == GK_EFORMAT)
        st = convert_typed(in, in_format, out, out_format, flags, vertices, 0, V, E, max_id, min_id);
    return st;
}

gk_status gk__graph_convert32(const char *in, gk_format in_format, const char *out, gk_format out_format,
                              int undirected, int32_t vertices, int32_t *V, int64_t *E, int32_t *max_id)
{
    return gk__graph_convert_flags(in, in_format, out, out_format, undirected ? GK__READ_UNDIRECTED : 0, vertices,
                                   V, E, max_id, NULL);
}

/* The largest vertex id the generator's E edges name (-1: none). */
static int32_t random_max_id(uint64_t seed, int32_t V, int64_t E, int32_t max_w)
{
    int32_t m = -1;
#pragma omp parallel for schedule(static) reduction(max : m)
    for (int64_t e = 0; e < E; e++) {
        int32_t s, t, w;
        gk__random_edge(seed, e, V, max_w, &s, &t, &w);
        m = s > m ? s : m;
        m = t > m ? t : m;
    }
    return m;
}

/* gk_apsp_generate for the formats written from edges in memory. */
static gk_status write_generated(const char *path, gk_format format, int32_t V, int64_t E, uint64_t seed,
                                 int32_t max_w)
{
    gk_status st;
    if ((st = gk__apsp_generate_check(V, E, max_w)))
        return st;
    char what[96];
    snprintf(what, sizeof what, "%s: %lld edges in memory", path, (long long)E);
    if ((st = gk__host_memory_check((uint64_t)E * 24, what)))
        return st;
    gk_edges g = { .V = V, .max_id = -1 };
    if ((st = edges_reserve(&g, E, path)))
        goto out;
    /* The same edges as gk__apsp_generate_nthu (same seed, same graph). */
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < E; e++)
        gk__random_edge(seed, e, V, max_w, &g.s[e], &g.t[e], &g.w[e]);
    g.E = E;
    st = write_graph(path, format, &g);
out:
    gk__edges_free(&g);
    return st;
}

gk_status gk__apsp_generate32(const char *path, gk_format format, int32_t V, int64_t E, uint64_t seed,
                                  int32_t max_w, int32_t *max_id)
{
    gk_status st;
    if ((st = output_format(path, &format)))
        return st;
    if (format == GK_FORMAT_NTHU)
        st = gk__apsp_generate_nthu(path, V, E, seed, max_w);
    else
        st = write_generated(path, format, V, E, seed, max_w);
    if (!st && max_id)
        *max_id = random_max_id(seed, V, E, max_w);
    return st;
}

gk_status gk__edges_write(const char *path, gk_format format, gk_edges *g)
{
    gk_status st;
    if ((st = output_format(path, &format)))
        return st;
    return write_graph(path, format, g);
}

gk_status gk__edges_alloc(gk_edges *g, int32_t V, int64_t E, const char *path)
{
    memset(g, 0, sizeof *g);
    g->V = V;
    g->max_id = -1;
    g->min_id = INT32_MAX;
    g->path = path;
    return edges_reserve(g, E, path);
}
