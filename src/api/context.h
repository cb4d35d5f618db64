/* context.h - the context handle's insides, shared by the front doors
 * (src/api).  Nothing below src/api sees a gk_context: the front doors pass
 * the layers below what they need (a device's info, a stream, directories). */
#ifndef GK_API_CONTEXT_H
#define GK_API_CONTEXT_H

#include "core/space.h"

struct gk_context {
    gk_backend backend;              /* resolved: CPU or GPU */
    char note[256];                  /* why AUTO chose the CPU */
    int ngpus;
    int gpus[GK_MAX_GPUS];
    gk_device_info dev[GK_MAX_GPUS]; /* cached once */
    gk_cpu_topology cpu;
    int threads;
    int no_tuned;
    char cache_dir[4096], data_dir[4096];
    void *stream;                    /* cudaStream_t on gpus[0], made by the first GPU job */
    const gk_comm *comm;             /* NULL: this process alone */
    void *apsp_ready;                /* gk_apsp_prepare's opened GPU APSP (gk_apsp_gpu *), taken by the next solve */
};

/* Close gk_apsp_prepare's GPU APSP if the solve did not take it (apsp.c). */
void gk__apsp_ready_drop(gk_context *ctx);

/* Run a GPU job on the context's first GPU: make it current (the caller's
 * device is restored by gk__ctx_gpu_leave) and create the stream once. */
gk_status gk__ctx_gpu_enter(gk_context *ctx, int *saved);
void gk__ctx_gpu_leave(int saved);

/* The OpenMP thread count of CPU work for the duration of a job. */
int gk__ctx_threads_enter(const gk_context *ctx);
void gk__ctx_threads_leave(int saved);

/* The configuration a job runs with, recorded in rep: `user` (a
 * "NAME=VALUE,..." text that replaces the tuned choice) validated against
 * the kernel's description on every backend; on a GPU context the complete
 * configuration (user's, else gk_tune_select's) in *full, checked against
 * the device's limits; on a CPU context rep->config_ignored = (user != NULL). */
gk_status gk__ctx_config(gk_context *ctx, const char *kernel, int64_t size, const char *user,
                         gk_config *full, gk_report *rep);

/* Fill the report's backend fields (device name, note) and mark the phases
 * that do not apply (-1). */
void gk__ctx_report_init(const gk_context *ctx, gk_report *rep);

/* The GPU phases of a job, from CUDA-event milliseconds. */
void gk__report_gpu_ms(gk_report *rep, float h2d_ms, float compute_ms, float d2h_ms);

/* APSP: the host bytes at the solve's peak (src/api/apsp.c), the caller's
 * V x V int32 matrix included: on the CPU (cpu) or the GPU, with the check
 * or not, precision 0 (automatic), 16 or 32. */
uint64_t gk__apsp_host_peak_bytes(int32_t V, int cpu, int check, int precision);

#endif /* GK_API_CONTEXT_H */
