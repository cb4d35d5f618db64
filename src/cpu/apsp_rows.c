/* apsp_rows.c - one rank's rows of a distributed APSP run on the CPU and
 * its rounds (panels broadcast over the caller's gk_comm; the front door
 * src/api/apsp_dist.c reads, distributes and writes).  The same tiles,
 * tile operations and phase order as the single-process CPU code (apsp.c,
 * apsp_typed.c), for every element type: the results are its bits. */
#include "cpu/apsp_tile.h"
#include "core/checked.h"

#include <stdlib.h>
#include <string.h>

#define B GK__APSP_B
#define BB ((int64_t)B * B)

struct gk_apsp_cpu_part {
    int64_t V, nt, t0, t1, nl;
    gk_dtype type;
    size_t es;
    char *t, *panel;
    gk__apsp_tiles o;
    int flags;           /* GK__FW_*: ordered for floats; clamp and check once a
                          * negative weight is known (gk__apsp_cpu_part_rounds) */
    int64_t cycle;       /* the vertex of a negative cycle found, else -1 */
};

#define TILE(p, li, bj) ((p)->t + ((li) * (p)->nt + (bj)) * BB * (int64_t)(p)->es)

gk_status gk__apsp_cpu_part_open_typed(gk_apsp_cpu_part **out, int32_t V, int64_t t0, int64_t t1, gk_cpu_isa isa,
                                       gk_dtype type)
{
    *out = NULL;
    if (!gk__apsp_dtype_ok(type))
        return gk__fail(GK_EINVAL, "the CPU row block: no APSP element type %d", (int)type);
    gk_apsp_cpu_part *p = calloc(1, sizeof *p);
    if (!p)
        return gk__fail(GK_ENOMEM, "cannot allocate the CPU row block");
    p->V = V;
    p->nt = ((int64_t)V + B - 1) / B;
    p->t0 = t0;
    p->t1 = t1;
    p->nl = t1 - t0;
    p->type = type;
    p->cycle = -1;
    uint64_t n = 0, pb = 0;
    gk_status st = gk__apsp_cpu_tiles(isa, type, &p->o, "the CPU row block");
    p->es = p->o.es;
    p->flags = p->o.is_float ? GK__FW_ORDERED : 0;
    if (!st && (gk__mul_u64((uint64_t)p->nl * (uint64_t)p->nt, (uint64_t)BB * p->es, &n)
                || gk__mul_u64((uint64_t)p->nt, (uint64_t)BB * p->es, &pb)))
        st = gk__fail(GK_ENOMEM, "APSP V = %d: the row block's size overflows", V);
    if (!st && !(st = gk__xmalloc((void **)&p->panel, (size_t)pb, "the pivot-row panel")))
        st = gk__xmalloc((void **)&p->t, n ? (size_t)n : 1, "this rank's rows of the distance matrix");
    if (st) {
        gk__apsp_cpu_part_close(p);
        return st;
    }
    /* "no edge" of the type everywhere, 0 on the diagonal */
    const int32_t inf32 = GK_APSP_INF;
    const int64_t inf64 = GK_APSP_INF64;
    const float finf = __builtin_inff();
    const double dinf = __builtin_inf();
    const void *inf = type == GK_DTYPE_INT32 ? (const void *)&inf32 : type == GK_DTYPE_INT64 ? (const void *)&inf64
                    : type == GK_DTYPE_FLOAT32 ? (const void *)&finf : (const void *)&dinf;
    int64_t rows = p->nl * B;
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; r++) {
        int64_t g = p->t0 * B + r;
        for (int64_t bj = 0; bj < p->nt; bj++) {
            char *dst = TILE(p, r / B, bj) + (r % B) * B * (int64_t)p->es;
            for (int64_t j = 0; j < B; j++) {
                if (bj * B + j == g && g < p->V) memset(dst + j * (int64_t)p->es, 0, p->es);  /* 0 of every type */
                else memcpy(dst + j * (int64_t)p->es, inf, p->es);
            }
        }
    }
    *out = p;
    return GK_OK;
}

gk_status gk__apsp_cpu_part_open(gk_apsp_cpu_part **p, int32_t V, int64_t t0, int64_t t1, gk_cpu_isa isa)
{
    return gk__apsp_cpu_part_open_typed(p, V, t0, t1, isa, GK_DTYPE_INT32);
}

void gk__apsp_cpu_part_close(gk_apsp_cpu_part *p)
{
    if (!p) return;
    free(p->t);
    free(p->panel);
    free(p);
}

gk_dtype gk__apsp_cpu_part_type(const gk_apsp_cpu_part *p) { return p->type; }
int64_t gk__apsp_cpu_part_cycle(const gk_apsp_cpu_part *p) { return p->cycle; }

static char *cell(const gk_apsp_cpu_part *p, int64_t r, int64_t c)
{
    int64_t lr = r - p->t0 * B;
    return TILE(p, lr / B, c / B) + ((lr % B) * B + c % B) * (int64_t)p->es;
}

void gk__apsp_cpu_part_edge_typed(gk_apsp_cpu_part *p, int32_t s, int32_t t, const void *w)
{
    if (s == t) return;                 /* self-loops are ignored */
    char *c = cell(p, s, t);
    switch (p->type) {                  /* keeps the smaller weight */
#define KEEP_MIN(ET) do { ET x, y; memcpy(&x, w, sizeof x); memcpy(&y, c, sizeof y); if (x < y) memcpy(c, &x, sizeof x); } while (0)
    case GK_DTYPE_INT32: KEEP_MIN(int32_t); break;
    case GK_DTYPE_INT64: KEEP_MIN(int64_t); break;
    case GK_DTYPE_FLOAT32: KEEP_MIN(float); break;
    case GK_DTYPE_FLOAT64: KEEP_MIN(double); break;
#undef KEEP_MIN
    }
}

void gk__apsp_cpu_part_edge(gk_apsp_cpu_part *p, int32_t s, int32_t t, int32_t w)
{
    int64_t i = w;
    float f = (float)w;
    double d = w;
    gk__apsp_cpu_part_edge_typed(p, s, t, p->type == GK_DTYPE_INT32 ? (const void *)&w
                                          : p->type == GK_DTYPE_INT64 ? (const void *)&i
                                          : p->type == GK_DTYPE_FLOAT32 ? (const void *)&f : (const void *)&d);
}

void gk__apsp_cpu_part_set_row(gk_apsp_cpu_part *p, int64_t r, const void *row)
{
    for (int64_t bj = 0; bj < p->nt; bj++) {
        int64_t m = p->V - bj * B < B ? p->V - bj * B : B;
        memcpy(cell(p, r, bj * B), (const char *)row + bj * B * (int64_t)p->es, (size_t)m * p->es);
    }
}

void gk__apsp_cpu_part_get_row(const gk_apsp_cpu_part *p, int64_t r, void *row)
{
    for (int64_t bj = 0; bj < p->nt; bj++) {
        int64_t m = p->V - bj * B < B ? p->V - bj * B : B;
        memcpy((char *)row + bj * B * (int64_t)p->es, cell(p, r, bj * B), (size_t)m * p->es);
    }
}

size_t gk__apsp_cpu_part_panel_bytes(const gk_apsp_cpu_part *p)
{
    return (size_t)(p->nt * BB) * p->es;
}

void *gk__apsp_cpu_part_panel_buffer(gk_apsp_cpu_part *p) { return p->panel; }

/* phase 2's copy of a tile (X0 or Y0) for the ordered types: on the stack
 * of the thread that updates it */
#define ORDERED_COPY(p, x, s) ((p)->flags & GK__FW_ORDERED ? memcpy((s), (x), BB * (p)->es) : (void *)(x))

const void *gk__apsp_cpu_part_pivot(gk_apsp_cpu_part *p, int64_t k)
{
    int64_t lk = k - p->t0;
    char *piv = TILE(p, lk, k);
    int v = p->o.close(piv, NULL, !!(p->flags & GK__FW_CLAMP));
    if ((p->flags & GK__FW_CHECK) && v >= 0)
        p->cycle = k * B + v;
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t j = 0; j < p->nt; j++)
        if (j != k) {
            _Alignas(64) unsigned char s[B * B * 8];
            p->o.minplus(TILE(p, lk, j), piv, ORDERED_COPY(p, TILE(p, lk, j), s));
        }
    return TILE(p, lk, 0);
}

void gk__apsp_cpu_part_update(gk_apsp_cpu_part *p, int64_t k, const void *panel)
{
    int64_t lk = k - p->t0;             /* outside [0, nl) when another rank owns k */
    const char *pan = panel, *piv = pan + k * BB * (int64_t)p->es;
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int64_t li = 0; li < p->nl; li++)
            if (li != lk) {
                _Alignas(64) unsigned char s[B * B * 8];
                p->o.minplus(TILE(p, li, k), ORDERED_COPY(p, TILE(p, li, k), s), piv);
            }
#pragma omp for schedule(static) collapse(2)
        for (int64_t li = 0; li < p->nl; li++)
            for (int64_t bj = 0; bj < p->nt; bj++)
                if (li != lk && bj != k)
                    p->o.minplus(TILE(p, li, bj), TILE(p, li, k), pan + bj * BB * (int64_t)p->es);
    }
}

/* After the last round, integers with negative weights: every entry above
 * INF/2 was derived from INF (unreachable) and becomes INF. */
static void cleanup(gk_apsp_cpu_part *p)
{
    int64_t nn = p->nl * p->nt * BB;
    if (p->type == GK_DTYPE_INT32) {
        int32_t *d = (int32_t *)p->t;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < nn; i++)
            if (d[i] > (GK_APSP_INF >> 1)) d[i] = GK_APSP_INF;
    } else if (p->type == GK_DTYPE_INT64) {
        int64_t *d = (int64_t *)p->t;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < nn; i++)
            if (d[i] > (GK_APSP_INF64 >> 1)) d[i] = GK_APSP_INF64;
    }
}

static int local_negative(const gk_apsp_cpu_part *p)
{
    int64_t nn = p->nl * p->nt * BB;
    int neg = 0;
    switch (p->type) {
#define ANY_NEG(ET) do { const ET *d = (const ET *)p->t; \
        _Pragma("omp parallel for schedule(static) reduction(| : neg)") \
        for (int64_t i = 0; i < nn; i++) neg |= d[i] < 0; } while (0)
    case GK_DTYPE_INT32: ANY_NEG(int32_t); break;
    case GK_DTYPE_INT64: ANY_NEG(int64_t); break;
    case GK_DTYPE_FLOAT32: ANY_NEG(float); break;
    case GK_DTYPE_FLOAT64: ANY_NEG(double); break;
#undef ANY_NEG
    }
    return neg;
}

gk_status gk__apsp_cpu_part_rounds(gk_apsp_cpu_part *p, const gk_comm *comm, const int *first, int nt,
                                   double *wait)
{
    int me = gk__comm_rank(comm);
    /* negative weights anywhere: every rank clamps, checks and cleans up */
    int64_t neg = local_negative(p);
    gk_status st = gk__comm_max_i64(comm, &neg, 1);
    if (neg)
        p->flags |= GK__FW_ORDERED | GK__FW_CHECK | (p->o.is_float ? 0 : GK__FW_CLAMP);
    void *buf = gk__apsp_cpu_part_panel_buffer(p);
    size_t bytes = gk__apsp_cpu_part_panel_bytes(p);
    for (int k = 0, g = 0; k < nt && !st; k++) {
        while (first[g + 1] <= k) g++;
        const void *panel = g == me ? gk__apsp_cpu_part_pivot(p, k) : buf;
        double t0 = gk__wtime();
        st = gk__comm_bcast(comm, (void *)panel, bytes, g);
        if (!st && neg)                 /* the owner's phase 1 found a negative cycle? */
            st = gk__comm_bcast(comm, &p->cycle, sizeof p->cycle, g);
        *wait += gk__wtime() - t0;
        if (!st && p->cycle >= 0)
            return gk__fail(GK_ENEGCYCLE, "negative cycle through vertex %lld", (long long)p->cycle);
        if (!st)
            gk__apsp_cpu_part_update(p, k, panel);
    }
    if (!st && neg)
        cleanup(p);
    return st;
}
