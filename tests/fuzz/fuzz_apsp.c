/* fuzz_apsp.c - gk__apsp_read on arbitrary bytes (the NTHU APSP input: int32
 * V, int32 E, E triples src, dst, w).  A success must be exactly the matrix
 * the bytes describe (checked against a plain recomputation for small V); a
 * failure names the file.  V above 2048 is skipped to bound memory. */
#include "fuzz.h"

#define MAX_V 2048
#define REF_V 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int32_t hv = 0, he = 0;
    if (size >= 4) memcpy(&hv, data, 4);
    if (size >= 8) memcpy(&he, data + 4, 4);
    if (hv > MAX_V)
        return 0;
    const char *path = fuzz_file(0, data, size);
    int32_t *d = NULL, V = -1, maxw = -1;
    int64_t E = -1;
    gk_status st = gk__apsp_read(path, &d, &V, &E, &maxw);
    if (st) {
        fuzz_check_message(st);
        FUZZ_ASSERT(d == NULL);
        FUZZ_ASSERT(strstr(gk_last_error(), path) != NULL);
        return 0;
    }
    FUZZ_ASSERT(size >= 8 && V == hv && V >= 1 && E == he && E >= 0);
    FUZZ_ASSERT((int64_t)size == 8 + 12 * E);
    int32_t wmax = 0;
    for (int64_t e = 0; e < E; e++) {
        int32_t s, t, w;
        memcpy(&s, data + 8 + 12 * e, 4);
        memcpy(&t, data + 12 + 12 * e, 4);
        memcpy(&w, data + 16 + 12 * e, 4);
        FUZZ_ASSERT(s >= 0 && s < V && t >= 0 && t < V && w >= 0 && w <= GK_APSP_MAX_WEIGHT);
        if (w > wmax) wmax = w;
    }
    FUZZ_ASSERT(maxw == wmax);
    if (V <= REF_V) {
        int32_t ref[REF_V * REF_V];
        for (int i = 0; i < V; i++)
            for (int j = 0; j < V; j++)
                ref[i * V + j] = i == j ? 0 : GK_APSP_INF;
        for (int64_t e = 0; e < E; e++) {
            int32_t s, t, w;
            memcpy(&s, data + 8 + 12 * e, 4);
            memcpy(&t, data + 12 + 12 * e, 4);
            memcpy(&w, data + 16 + 12 * e, 4);
            if (s != t && w < ref[s * V + t]) ref[s * V + t] = w;
        }
        FUZZ_ASSERT(!memcmp(ref, d, (size_t)V * (size_t)V * sizeof *d));
    } else {
        for (int64_t i = 0; i < V; i++)
            FUZZ_ASSERT(d[i * V + i] == 0);
    }
    free(d);
    return 0;
}
