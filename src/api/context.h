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
    void *own_stream;                /* cudaStream_t on gpus[0], gk's own, made by the first GPU job */
    void *user_stream;               /* the caller's (gk_context_set_stream), or NULL */
    gk_comm comm_copy;               /* the caller's communicator, as this libgk knows it */
    const gk_comm *comm;             /* &comm_copy, or NULL: this process alone */
    const gk_comm *comm_given;       /* the caller's (gk_context_comm returns it) */
    gk_cpu_isa cpu_isa;              /* resolved: never AUTO */
    int64_t apsp_stage_bytes;        /* 0: the built-in chunk */
    int apsp_no_lookahead, apsp_no_mp3;
};

/* The stream GPU jobs run on now: the caller's, else gk's own. */
static inline void *gk__ctx_stream(const gk_context *ctx)
{
    return ctx->user_stream ? ctx->user_stream : ctx->own_stream;
}

/* The plans' common part (every gk_<kernel>_plan begins with it; plan.c):
 * the context it belongs to, where its problem's data lives, the check, the
 * caller's configuration text (copied), the complete configuration and the
 * report every execution starts from. */
typedef struct gk__plan_head {
    gk_context *ctx;
    gk_memory memory;
    const char *kernel;              /* "apsp", ... (messages, configurations) */
    int check;
    char *config;                    /* options->config, copied (NULL: the tuned choice) */
    gk_config cfg;                   /* complete (GPU) */
    gk_report base;
} gk__plan_head;

/* The first rule of every plan_create: somewhere to put the plan (*out is
 * NULL from here on), and a context.  fn names the call. */
gk_status gk__plan_args(gk_context *ctx, void *out, const char *fn);

/* A new plan of `bytes` (its struct, head first, zeroed) for a problem in
 * `memory` of the given size class: device memory needs a GPU context and
 * refuses the check; the configuration is chosen (or the caller's checked)
 * into head->cfg and head->base.  *out is the plan, or NULL on failure. */
gk_status gk__plan_new(gk_context *ctx, size_t bytes, const char *kernel, gk_memory memory, int check,
                       const char *config, int64_t size_class, void **out);
/* The same choosing with gk__ctx_config_typed: APSP plans of int64 and
 * float distances (the typed shapes tuned apart). */
gk_status gk__plan_new_typed(gk_context *ctx, size_t bytes, const char *kernel, gk_memory memory, int check,
                             const char *config, int64_t size_class, void **out);
/* Free what gk__plan_new made (the plan's own resources first). */
void gk__plan_free(void *plan);

/* GK_EINVAL unless plan belongs to ctx (both named in the message). */
gk_status gk__plan_check(const gk__plan_head *plan, const gk_context *ctx, const char *fn);

/* The start of an execution: the plan is ctx's, the caller's report (may
 * be NULL) has a valid struct_size, and *rep starts from the plan's base. */
gk_status gk__plan_exec_begin(const gk__plan_head *plan, gk_context *ctx, const char *fn, gk_report *report,
                              gk_report *rep);
/* The end: *rep into the caller's report (when there is one). */
void gk__plan_exec_end(gk_report *report, const gk_report *rep);

/* gk_<kernel>_run's first step: ctx is not NULL (else GK_EINVAL naming fn,
 * the function the caller called), and the caller's report (may be NULL)
 * has a valid struct_size and holds the context's backend fields should
 * the job fail before it runs. */
gk_status gk__run_report_begin(gk_context *ctx, gk_report *report, const char *fn);

/* Enter the context's GPU, run f(arg) and leave (plans' destroy). */
void gk__ctx_gpu_call(gk_context *ctx, void (*f)(void *), void *arg);

/* A data pointer's kind against the memory a problem says it lives in:
 * GK_EINVAL naming `what` (the argument) when p is NULL, when device
 * memory is promised but p is host memory or another GPU's, or when host
 * memory is promised but p is device memory.  CUDA builds ask the driver
 * (cudaPointerGetAttributes); CPU-only builds refuse device memory. */
gk_status gk__ctx_check_pointer(const gk_context *ctx, gk_memory memory, const void *p, const char *what);

/* A CPU twin of a context (malloc'd, free() it; NULL and the error set when
 * out of memory): the same threads, instruction set, cache and tables, the
 * CPU backend.  For a job the GPU context's caller is better served by the
 * CPU (gk_sssp_run's auto); it holds no stream and owns nothing. */
gk_context *gk__ctx_cpu_view(const gk_context *ctx);

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
/* The same with the typed APSP shapes tuned apart (gk__tune_select:
 * apspx_* winners written over apsp's entry): plans and benches of int64,
 * float32 and float64 distances.  gk__ctx_config leaves them out (see
 * gk__tune_select_int32). */
gk_status gk__ctx_config_typed(gk_context *ctx, const char *kernel, int64_t size, const char *user,
                               gk_config *full, gk_report *rep);

/* gk_config_validate into a gk_config (what the front doors use). */
gk_status gk__config_validate(const char *kernel, const char *text, gk_config *full);

/* gk_tune_select into a gk_config (api/tune.c). */
gk_status gk__ctx_tune_select(gk_context *ctx, const char *kernel, int64_t size, gk_config *cfg,
                              gk_config_source *src, char *detail, size_t n);

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
