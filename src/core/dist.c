/* dist.c - the split and the write that the distributed front doors share
 * (dist.h). */
#include "core/dist.h"

#include <stdlib.h>

gk_status gk__dist_split(int **first, int64_t n, int P)
{
    int *f = malloc((size_t)(P + 1) * sizeof *f);
    if (!(*first = f))
        return gk__fail(GK_ENOMEM, "cannot allocate the split into %d parts", P);
    for (int g = 0; g <= P; g++)
        f[g] = (int)((int64_t)g * n / P);
    return GK_OK;
}

int gk__dist_part_of(const int *first, int P, int64_t u)
{
    int lo = 0, hi = P - 1;
    while (lo < hi) {               /* the last g with first[g] <= u */
        int mid = (lo + hi + 1) / 2;
        if (first[mid] <= u) lo = mid; else hi = mid - 1;
    }
    return lo;
}

gk_status gk__dist_write(const gk_comm *comm, const char *out, const int *first, int P, int unit, int64_t items,
                         int64_t lo, int64_t hi, size_t item_bytes, gk__dist_fetch fetch, void *src, void *buf,
                         int64_t chunk)
{
    gk_status st = GK_OK;
    int one = gk__comm_size(comm) == 1;
    gk_outfile o;
    gk__comm_out so;
    if ((st = one ? gk__out_open(&o, out) : gk__comm_out_open(&so, comm, out)))
        return st;
    for (int64_t r = lo; r < hi && !st;) {
        int g = gk__dist_part_of(first, P, r / unit);
        int64_t end = (int64_t)first[g + 1] * unit;
        int64_t n = hi - r;
        if (end > items) end = items;
        if (n > end - r) n = end - r;
        if (n > chunk) n = chunk;
        if (!(st = fetch(src, r, n, buf)))
            st = one ? gk__out_write(&o, buf, (size_t)n * item_bytes)
                     : gk__comm_out_pwrite(&so, buf, (size_t)n * item_bytes, (uint64_t)r * item_bytes);
        r += n;
    }
    return one ? gk__out_close(&o, st) : gk__comm_out_close(&so, st);
}
