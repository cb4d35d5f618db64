/* test_apsp16_cases.h - initial matrices built to sit at the 16-bit path's
 * cap C = 32767 (src/cpu/apsp_cpu.h): paths that sum to exactly C - 1, C and
 * C + 1, single weights just below, at and above C and at the 16-bit wrap
 * points (65535, 65536, 65537: a narrowing that wrapped instead of clamping
 * would turn 65536 into 0), unreachable pairs mixed with long paths, the
 * bound case, zero-weight cycles, initial diagonals that are not 0, chains
 * across tile edges, and random graphs whose distances straddle C.  Shared by
 * the CPU and GPU tests; the expected answers come from test_apsp_ref.h. */
#ifndef GK_TEST_APSP16_CASES_H
#define GK_TEST_APSP16_CASES_H

#include "test_apsp_ref.h"

#define T16_CAP 32767
#define T16_INF GK_APSP_INF

enum { T16_CHAIN_PAST, T16_CHAIN_BELOW, T16_WEIGHTS, T16_ZERO_CYCLE, T16_STRADDLE, T16_STRADDLE_SPLIT, T16_BOUND,
       T16_DIAGONAL, T16_TILES, T16_ONLY_UNREACHABLE, T16_NCASES };
static const char *t16_name[] = {
    "chain summing to C-1, C, C+1 with unreachable vertices",
    "chain summing to C-1 at most, unreachable vertices, no bound",
    "single weights near the cap and the wrap points, shorter detours",
    "zero-weight cycle feeding a path to exactly C",
    "random weights <= 12000: distances straddle C",
    "random weights <= 12000 in two halves with no edge between them",
    "V x max weight < C with unreachable pairs",
    "initial diagonal entries not 0 (40000 with no cycle, 5)",
    "chains across tile edges reaching C-1 and C (V = 300)",
    "weights >= C only on edges whose pairs have shorter detours, unreachable pairs",
};

static inline void t16_set(int32_t *d, int32_t V, int32_t s, int32_t t, int32_t w)
{
    if (w < d[(int64_t)s * V + t]) d[(int64_t)s * V + t] = w;
}

/* The initial matrix of case c (malloc'ed), its size in *V. */
static inline int32_t *t16_case(int c, int32_t *Vout)
{
    int32_t V = c == T16_STRADDLE || c == T16_STRADDLE_SPLIT ? 150 : c == T16_BOUND ? 100 : c == T16_TILES ? 300 : 12;
    int32_t *d = malloc((size_t)V * V * sizeof *d);
    for (int64_t i = 0; i < (int64_t)V * V; i++) d[i] = T16_INF;
    for (int32_t i = 0; i < V; i++) d[(int64_t)i * V + i] = 0;
    switch (c) {
    case T16_CHAIN_PAST:      /* 0 -> 1 -> 2 -> 3 -> 4: 16383, 32766 = C-1, C, C+1; 8..11 apart */
        t16_set(d, V, 0, 1, 16383); t16_set(d, V, 1, 2, 16383); t16_set(d, V, 2, 3, 1); t16_set(d, V, 3, 4, 1);
        t16_set(d, V, 4, 5, 0); t16_set(d, V, 9, 8, 3); t16_set(d, V, 10, 11, 32766);
        break;
    case T16_CHAIN_BELOW:     /* the same chain stopped at C-1; unreachable pairs everywhere else */
        t16_set(d, V, 0, 1, 16383); t16_set(d, V, 1, 2, 16383); t16_set(d, V, 2, 2, 7);
        t16_set(d, V, 9, 8, 3); t16_set(d, V, 10, 11, 32766); t16_set(d, V, 3, 4, 32766);
        break;
    case T16_WEIGHTS: {       /* heavy edges, each with and without a detour */
        int32_t w[] = { T16_CAP - 1, T16_CAP, T16_CAP + 1, 65535, 65536, 65537, 2 * T16_CAP + 2, GK_APSP_MAX_WEIGHT };
        for (int i = 0; i < 8; i++) t16_set(d, V, i, (i + 1) % 8, w[i]);
        t16_set(d, V, 0, 9, 2); t16_set(d, V, 9, 2, 3);       /* 0 -> 2 short: 5 */
        t16_set(d, V, 5, 10, 1); t16_set(d, V, 10, 6, 0);     /* 5 -> 6 short: 1 */
        t16_set(d, V, 11, 4, 65536);
        break;
    }
    case T16_ZERO_CYCLE:      /* 0 <-> 1 at weight 0, 1 -> 2 -> 3 summing to C */
        t16_set(d, V, 0, 1, 0); t16_set(d, V, 1, 0, 0); t16_set(d, V, 1, 2, 30000); t16_set(d, V, 2, 3, 2767);
        t16_set(d, V, 3, 4, 0); t16_set(d, V, 5, 6, 1);
        break;
    case T16_STRADDLE: case T16_STRADDLE_SPLIT: {
        uint64_t st = 12345 + (uint64_t)c;
        for (int64_t e = 0; e < 3 * (int64_t)V; e++) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            int32_t s = (int32_t)((st >> 33) % (uint64_t)V);
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            int32_t t = (int32_t)((st >> 33) % (uint64_t)V);
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            int32_t w = (int32_t)((st >> 33) % 12001);
            if (c == T16_STRADDLE_SPLIT && (s < V / 2) != (t < V / 2)) continue;
            if (s != t) t16_set(d, V, s, t, w);
        }
        break;
    }
    case T16_BOUND:           /* weights <= 300, V = 100: 30000 < C; two halves */
        for (int32_t i = 0; i + 1 < V; i++)
            if (i != V / 2 - 1) t16_set(d, V, i, i + 1, 300 - i % 3);
        t16_set(d, V, V / 2 - 1, 0, 300); t16_set(d, V, V - 1, V / 2, 1);
        break;
    case T16_DIAGONAL:
        d[0] = 40000;                          /* no cycle through 0: stays 40000 >= C, reachable */
        d[1 * V + 1] = 5; t16_set(d, V, 1, 2, 1); t16_set(d, V, 2, 1, 1);   /* cycle 2 beats 5 */
        d[3 * V + 3] = 5;
        t16_set(d, V, 0, 3, 7);
        break;
    case T16_TILES:           /* chain 60 -> 70 -> ... crossing the 64- and 128-wide tile edges */
        for (int32_t i = 60; i < 280; i += 10) t16_set(d, V, i, i + 10, 1560);   /* 21 hops: 32760 at 270 */
        t16_set(d, V, 270, 275, 6);            /* 32766 = C - 1 at 275 */
        t16_set(d, V, 270, 276, 7);            /* C at 276 */
        t16_set(d, V, 299, 1, 100);
        break;
    case T16_ONLY_UNREACHABLE: /* heavy direct edges bypassed by light paths, isolated vertices */
        t16_set(d, V, 0, 1, 1); t16_set(d, V, 1, 2, 1); t16_set(d, V, 0, 2, 65536); t16_set(d, V, 2, 0, 40000);
        t16_set(d, V, 2, 3, 2); t16_set(d, V, 3, 0, 1); t16_set(d, V, 5, 6, 32766);
        break;
    }
    *Vout = V;
    return d;
}

/* The reference answer of an initial matrix (a copy). */
static inline int32_t *t16_want(const int32_t *init, int32_t V)
{
    int32_t *w = malloc((size_t)V * V * sizeof *w);
    memcpy(w, init, (size_t)V * V * sizeof *w);
    ref_fw(w, V);
    return w;
}

/* 1 when some pair is reachable at a distance >= C: then, and only then,
 * the 16-bit result cannot be settled without 32 bits. */
static inline int t16_needs32(const int32_t *want, int32_t V)
{
    for (int64_t i = 0; i < (int64_t)V * V; i++)
        if (want[i] >= T16_CAP && want[i] < T16_INF) return 1;
    return 0;
}

/* The claim of the 16-bit path: every entry is min(true distance, C). */
static inline int64_t t16_bad_capped(const uint16_t *m16, const int32_t *want, int32_t V)
{
    int64_t bad = 0;
    for (int64_t i = 0; i < (int64_t)V * V; i++)
        bad += m16[i] != (want[i] < T16_CAP ? want[i] : T16_CAP);
    return bad;
}

#endif /* GK_TEST_APSP16_CASES_H */
