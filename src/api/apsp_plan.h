/* apsp_plan.h - inside the APSP front door (src/api/apsp*.c): the plan, and
 * the sink through which gk__apsp_run_write writes the result while it
 * comes back from the GPU. */
#ifndef GK_API_APSP_PLAN_H
#define GK_API_APSP_PLAN_H

#include "api/context.h"
#include "core/apsp_formats.h"
#include "cpu/apsp_cpu.h"
#include "api/apsp_typed.h"
#ifdef GK_HAVE_CUDA
#include "gpu/apsp_gpu.h"
#endif

struct gk_apsp_plan {
    gk__plan_head head;            /* first: the context, memory, check, configuration, base report */
    int32_t V;
    int64_t ld;
    int precision;                 /* as asked: 0 (auto), 16, 32 */
    gk_dtype dtype;                /* the distance type (1.2) */
    int pred;                      /* options.predecessors: executions may fill a pred matrix */
    int negative;                  /* options.negative (device memory: wait for the cycle report) */
#ifdef GK_HAVE_CUDA
    void *g[2];                    /* gk_apsp_gpu: [0] 16-bit lanes, [1] int32; what the problem
                                      needs opened at create, the other on first need */
    void *gt;                      /* gk_apsp_gpu of the typed kernels (another type than int32,
                                      predecessors, negative int32 weights) */
#endif
};

/* The result written while it comes back (done: the GPU path wrote it, or
 * failed trying; else the caller writes the whole matrix after the solve). */
typedef struct gk__apsp_sink {
    const char *path;
    gk_format format;
    int32_t V;
    const int32_t *dist;
    gk_outfile o;
    double calls;              /* seconds in opening, writing, closing the output */
    double wall;               /* seconds from opening to the end of closing */
    int done;
    int no_stream;             /* the check compares after the solve: write after it */
    double scan, open, close;  /* the solve's own costs (gk__apsp_write_report) */
    int prepared;
} gk__apsp_sink;

/* gk_apsp_plan_execute on host memory (dense, V x V), with the result
 * written through sk while it comes back when sk != NULL. */
gk_status gk__apsp_exec_host(gk_apsp_plan *p, int32_t *dist, gk_report *rep, gk__apsp_sink *sk);

/* The plan's GPU object for bits (16 or 32), opened now if the plan has
 * none (the only allocation an execution may make: the int32 fallback of
 * a 16-bit result that could not be settled).  Call inside
 * gk__ctx_gpu_enter; its stream is set to the context's current one. */
#ifdef GK_HAVE_CUDA
gk_status gk__apsp_plan_gpu(gk_apsp_plan *p, int bits, gk_apsp_gpu **g);
#endif

/* The typed paths (apsp_typed_exec.c): anything but non-negative int32
 * distances without predecessors.  Host memory (dense): the scan of the
 * entries (the type's rules, the int overflow bound with negative weights),
 * the predecessors' initialisation, the solve on the context's backend, the
 * check, rep->dtype and rep->cycle_vertex. */
gk_status gk__apsp_exec_typed(gk_apsp_plan *p, void *dist, int32_t *pred, gk_report *rep);
/* Device memory: enqueued on the context's stream; with p->negative it
 * waits for the cycle report. */
gk_status gk__apsp_exec_device_typed(gk_apsp_plan *p, void *dist, int32_t *pred, gk_report *rep);
/* Host bytes of a typed solve at its peak (the caller's matrices included). */
uint64_t gk__apsp_typed_peak_bytes(int32_t V, gk_dtype t, int pred, int cpu, int check);

/* Host bytes at the solve's peak, the caller's matrix included (apsp.c). */
uint64_t gk__apsp_host_peak_bytes(int32_t V, int cpu, int check, int precision);
/* GK_ENOMEM naming `name` when that peak exceeds this machine's memory. */
gk_status gk__apsp_host_memory_check(const gk_apsp_plan *p, const char *name);

/* After a 16-bit run (status st, outcome how): its result stands (exact, or
 * the run failed), or the int32 path runs from the initial matrix (dist
 * still holds it) and its times add to the 16-bit run's. */
gk_status gk__apsp_settle16(gk_apsp_plan *p, int32_t *dist, gk_report *rep, gk__apsp_sink *sk, gk_status st,
                            int how);

#ifdef GK_HAVE_CUDA
/* The raw 16-bit result (entries at the cap) down to the host and settled
 * there from the initial matrix in dist (*how says how; dist gets the
 * result when exact). */
gk_status gk__apsp_settle_at_cap(gk_apsp_gpu *g, int32_t *dist, int32_t V, int *how, float *down, double *settle);
#endif

#endif /* GK_API_APSP_PLAN_H */
