/* rng.c - hashing helpers (the random streams are inline in rng.h). */
#include <stddef.h>
#include "core/rng.h"

uint64_t gk__fnv1a64(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}
