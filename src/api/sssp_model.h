/* sssp_model.h - auto's cost model (sssp_model.c): the seconds each
 * algorithm would take on a graph, from its size, degree spread, weight
 * type, the number of sources and the backend's measured rates. */
#ifndef GK_API_SSSP_MODEL_H
#define GK_API_SSSP_MODEL_H

#include "core/graph.h"

/* Rates of one machine.  Built-in defaults (the 2-core CPU machine and the
 * H200 where gk was measured), replaced by what `gktune --kernels=sssp`
 * measured on this one (the cache file, sssp_model.c). */
typedef struct gk__sssp_rates {
    double cpu_edge_ns;      /* Dijkstra, one thread: ns per edge relaxed */
    double cpu_vertex_ns;    /* Dijkstra, one thread: ns per vertex settled (heap, row set-up) */
    double bf_edge_ns;       /* Bellman-Ford, one thread: ns per edge per round */
    double bf_vertex_ns;     /* Bellman-Ford, one thread: ns per vertex per round (its queue) */
    double gpu_edge_ns;      /* the GPU backend: ns per edge of one search (one block) */
    double gpu_searches;     /* the GPU backend: searches one GPU runs at once (resident blocks) */
    double fw_cpu_rate[5];   /* Floyd-Warshall min-plus per second by gk_dtype, CPU, per thread */
    double fw_gpu_rate[5];   /* the same on one GPU */
    double fw16_cpu_rate;    /* int32 on the exact 16-bit path (non-negative weights below its cap),
                                per CPU thread */
    double fw16_gpu_rate;    /* the same on one GPU */
    char from[4400];         /* "built-in defaults" or the file they came from */
} gk__sssp_rates;

void gk__sssp_rates_default(gk__sssp_rates *r);

/* The calibrated rates of this machine from dir/sssp-rates-KEY.txt (KEY:
 * the device's, "cpu" for the CPU backend), else the defaults. */
void gk__sssp_rates_load(const char *dir, const char *key, gk__sssp_rates *r);

/* Write them (atomic), "NAME VALUE" lines. */
gk_status gk__sssp_rates_save(const char *dir, const char *key, const gk__sssp_rates *r);

/* What the model knows of the run. */
typedef struct gk__sssp_case {
    int64_t V, E, S;
    double degree_cv;
    int negative;
    gk_dtype dtype;
    int gpu;                 /* the GPU backend */
    int workers;             /* CPU threads, or GPUs */
    int fw_fits;             /* the V x V matrix fits the memory FW would use */
    double max_abs_w;        /* the largest |weight| (FW's 16-bit path; 0: unknown, assume not) */
} gk__sssp_case;

/* Bellman-Ford's rounds the model assumes for a graph: its FIFO queue
 * relaxes each edge about twice on a skewed or random graph and about
 * 0.5 log2 V - 1.5 times on a grid or road network (measured, V = 1K..64K);
 * the calibration divides by the same. */
double gk__sssp_rounds(int64_t V, int64_t E, double degree_cv);

/* Predicted seconds per gk_sssp_algorithm (index 0 unused, -1: not
 * possible); returns the cheapest, and why (one line with the numbers). */
gk_sssp_algorithm gk__sssp_model(const gk__sssp_case *c, const gk__sssp_rates *r, double pred[5], char *why,
                                 size_t n);

#endif /* GK_API_SSSP_MODEL_H */
