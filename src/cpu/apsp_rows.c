/* apsp_rows.c - one rank's rows of a distributed APSP run on the CPU and
 * its rounds (panels broadcast over the caller's gk_comm; the front door
 * src/api/apsp_dist.c reads, distributes and writes).  The same
 * tiles and micro-kernels as the single-process CPU code (apsp.c). */
#include "cpu/apsp_cpu.h"
#include "core/checked.h"

#include <stdlib.h>
#include <string.h>

#define B GK_APSP_CPU_TILE
#define BB ((int64_t)B * B)

struct gk_apsp_cpu_part {
    int64_t V, nt, t0, t1, nl;
    int32_t *t, *panel;
    void (*close)(int32_t *);
    void (*minplus)(int32_t *, const int32_t *, const int32_t *);
};

#define TILE(p, li, bj) ((p)->t + ((li) * (p)->nt + (bj)) * BB)

gk_status gk__apsp_cpu_part_open(gk_apsp_cpu_part **out, int32_t V, int64_t t0, int64_t t1, gk_cpu_isa isa)
{
    *out = NULL;
    gk_apsp_cpu_part *p = calloc(1, sizeof *p);
    if (!p)
        return gk__fail(GK_ENOMEM, "cannot allocate the CPU row block");
    p->V = V;
    p->nt = ((int64_t)V + B - 1) / B;
    p->t0 = t0;
    p->t1 = t1;
    p->nl = t1 - t0;
    uint64_t n = 0, pb = 0;
    gk_status st = gk__apsp_cpu_tile_ops(isa, &p->close, &p->minplus);
    if (!st && (gk__mul_u64((uint64_t)p->nl * (uint64_t)p->nt, (uint64_t)BB * sizeof(int32_t), &n)
                || gk__mul_u64((uint64_t)p->nt, (uint64_t)BB * sizeof(int32_t), &pb)))
        st = gk__fail(GK_ENOMEM, "APSP V = %d: the row block's size overflows", V);
    if (!st && !(st = gk__xmalloc((void **)&p->panel, (size_t)pb, "the pivot-row panel")))
        st = gk__xmalloc((void **)&p->t, n ? (size_t)n : 1, "this rank's rows of the distance matrix");
    if (st) {
        gk__apsp_cpu_part_close(p);
        return st;
    }
    int64_t rows = p->nl * B;
#pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; r++) {
        int64_t g = p->t0 * B + r;
        for (int64_t bj = 0; bj < p->nt; bj++) {
            int32_t *dst = TILE(p, r / B, bj) + (r % B) * B;
            for (int64_t j = 0; j < B; j++)
                dst[j] = (bj * B + j == g && g < p->V) ? 0 : GK_APSP_INF;
        }
    }
    *out = p;
    return GK_OK;
}

void gk__apsp_cpu_part_close(gk_apsp_cpu_part *p)
{
    if (!p) return;
    free(p->t);
    free(p->panel);
    free(p);
}

static int32_t *cell(const gk_apsp_cpu_part *p, int64_t r, int64_t c)
{
    int64_t lr = r - p->t0 * B;
    return TILE(p, lr / B, c / B) + (lr % B) * B + c % B;
}

void gk__apsp_cpu_part_edge(gk_apsp_cpu_part *p, int32_t s, int32_t t, int32_t w)
{
    if (s == t) return;                 /* self-loops are ignored */
    int32_t *c = cell(p, s, t);
    if (w < *c) *c = w;
}

void gk__apsp_cpu_part_get_row(const gk_apsp_cpu_part *p, int64_t r, int32_t *row)
{
    for (int64_t bj = 0; bj < p->nt; bj++) {
        int64_t m = p->V - bj * B < B ? p->V - bj * B : B;
        memcpy(row + bj * B, cell(p, r, bj * B), (size_t)m * sizeof *row);
    }
}

size_t gk__apsp_cpu_part_panel_bytes(const gk_apsp_cpu_part *p)
{
    return (size_t)(p->nt * BB) * sizeof(int32_t);
}

int32_t *gk__apsp_cpu_part_panel_buffer(gk_apsp_cpu_part *p) { return p->panel; }

const int32_t *gk__apsp_cpu_part_pivot(gk_apsp_cpu_part *p, int64_t k)
{
    int64_t lk = k - p->t0;
    int32_t *piv = TILE(p, lk, k);
    p->close(piv);
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t j = 0; j < p->nt; j++)
        if (j != k)
            p->minplus(TILE(p, lk, j), piv, TILE(p, lk, j));
    return TILE(p, lk, 0);
}

void gk__apsp_cpu_part_update(gk_apsp_cpu_part *p, int64_t k, const int32_t *panel)
{
    int64_t lk = k - p->t0;             /* outside [0, nl) when another rank owns k */
    const int32_t *piv = panel + k * BB;
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int64_t li = 0; li < p->nl; li++)
            if (li != lk)
                p->minplus(TILE(p, li, k), TILE(p, li, k), piv);
#pragma omp for schedule(static) collapse(2)
        for (int64_t li = 0; li < p->nl; li++)
            for (int64_t bj = 0; bj < p->nt; bj++)
                if (li != lk && bj != k)
                    p->minplus(TILE(p, li, bj), TILE(p, li, k), panel + bj * BB);
    }
}

gk_status gk__apsp_cpu_part_rounds(gk_apsp_cpu_part *p, const gk_comm *comm, const int *first, int nt,
                                   double *wait)
{
    gk_status st = GK_OK;
    int me = gk__comm_rank(comm);
    int32_t *buf = gk__apsp_cpu_part_panel_buffer(p);
    size_t bytes = gk__apsp_cpu_part_panel_bytes(p);
    for (int k = 0, g = 0; k < nt && !st; k++) {
        while (first[g + 1] <= k) g++;
        const int32_t *panel = g == me ? gk__apsp_cpu_part_pivot(p, k) : buf;
        double t0 = gk__wtime();
        st = gk__comm_bcast(comm, (void *)panel, bytes, g);
        *wait += gk__wtime() - t0;
        if (!st)
            gk__apsp_cpu_part_update(p, k, panel);
    }
    return st;
}
