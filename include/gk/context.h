/* gk/context.h - the context handle: created once, passed to every job.
 *
 * Like a BLAS or cuFFT handle, a gk_context holds what every job needs and
 * should not look up again: the backend (resolved once: CPU, or GPU with the
 * reason when AUTO found none), the GPU ordinals and their cached device
 * information, the CUDA stream jobs run on, the CPU topology, the OpenMP
 * thread count and where kernel configurations come from (the tuning cache
 * directory, the directory of shipped tables).
 *
 * The library reads no environment variable behind the caller's back:
 * gk_context_options_init() gives fixed defaults; gk_context_options_from_env()
 * applies the variables the gk commands document (GK_DEVICE, GK_CACHE_DIR,
 * XDG_CACHE_HOME, HOME, GK_DATA_DIR), for callers that want that behaviour.
 *
 * A context may be used by one thread at a time.  Creating it does not change
 * the calling thread's current CUDA device; a GPU job makes its device current
 * for the duration of the call and restores the previous one. */
#ifndef GK_CONTEXT_H
#define GK_CONTEXT_H

#include <gk/common.h>
#include <gk/info.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GK_MAX_GPUS 64

typedef struct gk_context gk_context;

/* A run spread over several processes (MPI ranks), each with its own
 * context.  The caller supplies the collectives, so libgk links no MPI
 * library (the gk command binds them to MPI when it is started by mpirun).
 * Every function is collective: all ranks call it, in the same order, with
 * the same sizes; each returns 0 on success. */
typedef struct gk_comm {
    int rank, size;               /* this process, the number of processes */
    int local_rank, local_size;   /* among the processes of this node (picks the GPU) */
    void *user;                   /* passed to the functions */
    int (*bcast)(void *user, void *buf, size_t bytes, int root);
    int (*max_i64)(void *user, int64_t *v, int n);     /* element-wise maximum over the ranks, in place */
    int (*max_f64)(void *user, double *v, int n);
    /* Point to point (the stencil's halo planes; not collective): send
     * sbytes to rank dest while receiving rbytes from rank source; -1: no
     * such side.  NULL: jobs that need it refuse to run over several ranks. */
    int (*sendrecv)(void *user, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rbytes, int source);
} gk_comm;

typedef struct gk_context_options {
    gk_backend backend;          /* AUTO (default): the GPU when one is usable, else the CPU */
    int ngpus;                   /* entries used in gpus[]; 0 means { 0 } */
    int gpus[GK_MAX_GPUS];       /* CUDA device ordinals; jobs of one GPU use gpus[0] */
    int threads;                 /* OpenMP threads of CPU work; 0: OpenMP's default */
    const char *cache_dir;       /* the gktune cache directory; NULL: none (no user cache) */
    const char *data_dir;        /* shipped tables (DIR/tuned/...); NULL: the installed one */
    int no_tuned;                /* 1: always the built-in default configurations */
    const gk_comm *comm;         /* several processes (kept by pointer: it must outlive the
                                    context); NULL: this process alone.  With comm->size > 1
                                    and no GPU named, the GPU is the node-local rank's. */
} gk_context_options;

/* Fixed defaults; reads nothing. */
GK_API void gk_context_options_init(gk_context_options *o);

/* The environment the gk commands document: GK_DEVICE ("1" or "0,1": the GPU
 * ordinals), GK_CACHE_DIR, else $XDG_CACHE_HOME/gk, else ~/.cache/gk (the
 * tuning cache), GK_DATA_DIR (shipped tables).  data_dir points into the
 * environment, cache_dir into a per-thread buffer that the next call
 * overwrites (gk_context_create copies both).  GK_EINVAL naming the variable
 * when one is malformed. */
GK_API gk_status gk_context_options_from_env(gk_context_options *o);

/* Parse a GPU list: "0", "0,1", "all" (every device present; GK_ENODEV
 * without one) into o->gpus / o->ngpus. */
GK_API gk_status gk_context_options_set_gpus(gk_context_options *o, const char *list);

/* Create a context (options NULL: gk_context_options_init's).  Resolves the
 * backend: asking for the GPU where none is usable fails with GK_ENODEV and
 * the reason; AUTO falls back to the CPU and records why
 * (gk_context_backend_note).  Queries and caches each GPU's information. */
GK_API gk_status gk_context_create(gk_context **ctx, const gk_context_options *options);
GK_API void gk_context_destroy(gk_context *ctx);

/* The resolved backend: GK_BACKEND_CPU or GK_BACKEND_GPU. */
GK_API gk_backend gk_context_backend(const gk_context *ctx);
/* Why AUTO chose the CPU ("" otherwise). */
GK_API const char *gk_context_backend_note(const gk_context *ctx);
/* The GPUs of the context (0 on the CPU backend) and their cached info. */
GK_API int gk_context_gpu_count(const gk_context *ctx);
GK_API gk_status gk_context_gpu_info(const gk_context *ctx, int i, gk_device_info *info);
/* The CPU topology, read once per context. */
GK_API const gk_cpu_topology *gk_context_cpu(const gk_context *ctx);
/* The communicator of the context (NULL: this process alone). */
GK_API const gk_comm *gk_context_comm(const gk_context *ctx);
/* The directories configurations come from ("" when none). */
GK_API const char *gk_context_cache_dir(const gk_context *ctx);
GK_API const char *gk_context_data_dir(const gk_context *ctx);

#ifdef __cplusplus
}
#endif
#endif /* GK_CONTEXT_H */
