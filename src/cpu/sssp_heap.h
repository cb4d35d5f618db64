/* sssp_heap.h - the priority queues of the CPU Dijkstra (sssp_dijkstra.c):
 * a radix heap for integer distances (keys never below the last one
 * popped, which Dijkstra's are) and a binary heap for floats.  Both are
 * lazy: a vertex is pushed again when its distance falls, and a popped
 * entry whose key is not the vertex's distance any more is skipped. */
#ifndef GK_SSSP_HEAP_H
#define GK_SSSP_HEAP_H

#include <stdint.h>
#include <stdlib.h>

typedef struct gk__rh_item { uint64_t key; int32_t v; } gk__rh_item;

/* Bucket 0 holds keys equal to `last`; bucket i >= 1 keys whose highest
 * bit differing from last is bit i - 1. */
typedef struct gk__radix_heap {
    gk__rh_item *b[65];
    int64_t n[65], cap[65];
    uint64_t last;
    int64_t size;
    int bad;                 /* an allocation failed */
} gk__radix_heap;

static inline int gk__rh_bucket(uint64_t key, uint64_t last)
{
    return key == last ? 0 : 64 - __builtin_clzll(key ^ last);
}

static inline void gk__rh_put(gk__radix_heap *h, int i, gk__rh_item it)
{
    if (h->n[i] == h->cap[i]) {
        int64_t cap = h->cap[i] ? 2 * h->cap[i] : 256;
        gk__rh_item *p = realloc(h->b[i], (size_t)cap * sizeof *p);
        if (!p) { h->bad = 1; return; }
        h->b[i] = p;
        h->cap[i] = cap;
    }
    h->b[i][h->n[i]++] = it;
}

static inline void gk__rh_reset(gk__radix_heap *h)
{
    for (int i = 0; i < 65; i++) h->n[i] = 0;
    h->last = 0;
    h->size = 0;
}

static inline void gk__rh_push(gk__radix_heap *h, uint64_t key, int32_t v)
{
    gk__rh_put(h, gk__rh_bucket(key, h->last), (gk__rh_item){ key, v });
    h->size++;
}

/* The smallest entry (size > 0). */
static inline gk__rh_item gk__rh_pop(gk__radix_heap *h)
{
    if (!h->n[0]) {
        int i = 1;
        while (!h->n[i]) i++;
        uint64_t m = h->b[i][0].key;
        for (int64_t k = 1; k < h->n[i]; k++)
            if (h->b[i][k].key < m) m = h->b[i][k].key;
        h->last = m;
        int64_t n = h->n[i];
        h->n[i] = 0;
        for (int64_t k = 0; k < n; k++) {
            gk__rh_item it = h->b[i][k];
            gk__rh_put(h, gk__rh_bucket(it.key, m), it);
        }
    }
    h->size--;
    return h->b[0][--h->n[0]];
}

static inline void gk__rh_free(gk__radix_heap *h)
{
    for (int i = 0; i < 65; i++) free(h->b[i]);
}

/* A binary min-heap of (double key, vertex). */
typedef struct gk__bh_item { double key; int32_t v; } gk__bh_item;
typedef struct gk__bin_heap { gk__bh_item *a; int64_t n, cap; int bad; } gk__bin_heap;

static inline void gk__bh_push(gk__bin_heap *h, double key, int32_t v)
{
    if (h->n == h->cap) {
        int64_t cap = h->cap ? 2 * h->cap : 1024;
        gk__bh_item *p = realloc(h->a, (size_t)cap * sizeof *p);
        if (!p) { h->bad = 1; return; }
        h->a = p;
        h->cap = cap;
    }
    int64_t i = h->n++;
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (h->a[p].key <= key) break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i] = (gk__bh_item){ key, v };
}

static inline gk__bh_item gk__bh_pop(gk__bin_heap *h)
{
    gk__bh_item top = h->a[0], x = h->a[--h->n];
    int64_t i = 0, n = h->n;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h->a[c + 1].key < h->a[c].key) c++;
        if (x.key <= h->a[c].key) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (n) h->a[i] = x;
    return top;
}

#endif /* GK_SSSP_HEAP_H */
