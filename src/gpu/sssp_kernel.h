/* sssp_kernel.h - the launch parameters of the shortest-path kernels
 * (sssp.cu), shared by the device code and its host side (sssp_gpu.c):
 * plain C, one struct passed by value.  Keep both sides built from this
 * file only. */
#ifndef GK_SSSP_KERNEL_H
#define GK_SSSP_KERNEL_H

/* mode: how a block searches */
#define GK_SSSP_MODE_NEARFAR 0   /* non-negative weights (or reweighted by h): near-far buckets */
#define GK_SSSP_MODE_BF      1   /* negative weights, no h: one FIFO, rounds capped (cycle check) */

typedef struct gk__sssp_params {
    const long long *indptr;     /* V + 1 */
    const int *indices;          /* E */
    const void *w;               /* E of the element type */
    const void *h;               /* Johnson's potential (V) or NULL */
    void *dist;                  /* nitems x V: the rows, searched in place */
    int *pred;                   /* nitems x V (the tree pass's predecessors) */
    int *nearest;                /* min_only: V (the source of each distance) or NULL */
    int *queues;                 /* slots x 4V: near in, near out, far a, far b */
    int *mark;                   /* slots x V: near-queue stamps, then the tree pass's flags */
    int *fmark;                  /* slots x V: in the far queue (near-far); the search's
                                    last predecessor (Bellman-Ford, for the cycle walk) */
    const int *sources;          /* this launch's sources: item i is sources[i]
                                    (min_only: one item, all nsrc of them) */
    int *next;                   /* the next item to take (starts at 0): blocks take
                                    items until none is left */
    int *status;                 /* nitems: 0, or 1 + a vertex still changing after the
                                    round cap (negative cycle; that item's pred row then
                                    holds the search's last predecessors) */
    unsigned long long *relax;   /* edge relaxations, added up */
    long long V;
    int nsrc;                    /* sources per item: 1, or S with min_only */
    int virt;                    /* min_only: Johnson's distances through a virtual source
                                    (start -h[s], back + h[v]) for any S, as the CPU does */
    int nitems;                  /* rows of this launch */
    int mode;                    /* GK_SSSP_MODE_* */
    int prune;                   /* 1: candidates above the limit are dropped in the search
                                    (non-negative, no h); else the limit applies at the end */
    int has_limit;
    int tree;                    /* 1: the tree pass (pred and/or nearest wanted) */
    long long lim_i;             /* the limit for integers (floor, clamped) */
    double lim_f;                /* ... for floats */
    long long delta_i;           /* the bucket width for integers (>= 1) */
    double delta_f;              /* ... for floats (> 0) */
    long long round_cap;         /* Bellman-Ford: rounds before a cycle is declared */
} gk__sssp_params;

#endif /* GK_SSSP_KERNEL_H */
