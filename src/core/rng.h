/* rng.h - reproducible random numbers.  Counter-based (a hash of seed and
 * index), so generators fill arrays in parallel and get the same values for
 * any thread count. */
#ifndef GK_RNG_H
#define GK_RNG_H

#include <stdint.h>

/* splitmix64's finalizer: a good 64-bit mix. */
static inline uint64_t gk__mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The i-th random 64-bit word of stream `seed`. */
static inline uint64_t gk__rand64(uint64_t seed, uint64_t i)
{
    return gk__mix64(gk__mix64(seed) ^ gk__mix64(i * 0x2545f4914f6cdd1dull + 1));
}

/* Uniform in [0, n) (n > 0), by multiply-shift: bias below 2^-32 for n < 2^32. */
static inline uint64_t gk__rand_below(uint64_t seed, uint64_t i, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)gk__rand64(seed, i) * n) >> 64);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double gk__rand_unit(uint64_t seed, uint64_t i)
{
    return (double)(gk__rand64(seed, i) >> 11) * (1.0 / 9007199254740992.0);
}

/* FNV-1a 64 of a byte string (source hashes for the tuning cache). */
uint64_t gk__fnv1a64(const void *data, size_t n);

#endif /* GK_RNG_H */
