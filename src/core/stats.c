/* stats.c - small statistics for timings. */
#include "core/internal.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gk__median(double *v, int n, double *min)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    if (min) *min = n ? v[0] : 0;
    return n ? (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2])) : 0;
}
