/* checked.h - size arithmetic that cannot wrap: every byte count gk
 * allocates, reads or writes is computed here first, and a size whose
 * points or bytes do not fit is refused before anything is allocated. */
#ifndef GK_CHECKED_H
#define GK_CHECKED_H

#include "core/internal.h"

#include <stddef.h>
#include <stdint.h>

/* *out = a * b; nonzero (and *out unspecified) when it does not fit. */
static inline int gk__mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_mul_overflow(a, b, out);
}

/* *out = a + b; nonzero when it does not fit. */
static inline int gk__add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    return __builtin_add_overflow(a, b, out);
}

/* Largest byte count one object may have: it must fit in size_t and its
 * pointer differences in ptrdiff_t. */
static inline uint64_t gk__max_object_bytes(void)
{
    return (uint64_t)PTRDIFF_MAX < (uint64_t)SIZE_MAX ? (uint64_t)PTRDIFF_MAX : (uint64_t)SIZE_MAX;
}

/* The points (nx*ny*nz) and bytes (points * 8) of a float64 grid; fails
 * with GK_EINVAL and one line when a size is negative or the count does
 * not fit in 64 bits or in one object (gk__max_object_bytes). */
static inline gk_status gk__grid_bytes(int64_t nx, int64_t ny, int64_t nz, uint64_t *points,
                                       uint64_t *bytes)
{
    uint64_t p, b;
    if (nx < 0 || ny < 0 || nz < 0)
        return gk__fail(GK_EINVAL, "grid %lldx%lldx%lld: a size is negative", (long long)nx,
                        (long long)ny, (long long)nz);
    if (gk__mul_u64((uint64_t)nx, (uint64_t)ny, &p) || gk__mul_u64(p, (uint64_t)nz, &p))
        return gk__fail(GK_EINVAL, "grid %lldx%lldx%lld: the point count does not fit in 64 bits",
                        (long long)nx, (long long)ny, (long long)nz);
    if (gk__mul_u64(p, sizeof(double), &b) || b > gk__max_object_bytes())
        return gk__fail(GK_EINVAL, "grid %lldx%lldx%lld: %llu points of 8 bytes do not fit in "
                        "memory (more than %llu bytes)", (long long)nx, (long long)ny, (long long)nz,
                        (unsigned long long)p, (unsigned long long)gk__max_object_bytes());
    if (points) *points = p;
    if (bytes) *bytes = b;
    return GK_OK;
}

#endif /* GK_CHECKED_H */
