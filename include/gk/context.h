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
 * XDG_CACHE_HOME, HOME, GK_DATA_DIR, GK_CPU_ISA and the APSP knobs) into the
 * options, and nowhere else, for callers that want that behaviour.
 *
 * Threads: a context, and the plans made with it, may be used by one thread
 * at a time; independent contexts may be used by as many threads at once,
 * each with its own settings (CPU instruction set, OpenMP thread count,
 * stream, the APSP knobs): every setting is the context's, none is
 * process-wide.  What libgk shares between contexts is made once or locked:
 * the CPU topology (loaded once), the NVRTC, NCCL, cuBLAS and OpenBLAS
 * libraries (opened once), the cubins NVRTC compiled (a locked cache).
 * gk_last_error() is the calling thread's.  Three things stay process-wide by nature:
 * gk_tune_interrupt() stops every gk_tune_run of the process (a signal
 * handler knows no context); gk_tune_run ignores SIGPIPE; the environment is
 * read only by gk_context_options_from_env() and gk_cache_dir(), which are
 * safe unless another thread changes the environment (setenv) meanwhile.
 * Creating a context does not change the calling thread's current CUDA
 * device; a GPU job makes its device current for the duration of the call
 * and restores the previous one.  tests/test_threads runs every kernel on
 * several threads at once, each with its own context.
 *
 * Streams: GPU jobs run on the context's stream.  By default that is a
 * stream of gk's own, made by the first GPU job; gk_context_set_stream hands
 * the context the caller's stream instead, so that gk's work is ordered with
 * the caller's own kernels on it. */
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
    size_t struct_size;           /* sizeof(gk_comm) (gk_comm_init) */
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

/* One process (rank 0 of 1), no functions. */
GK_API void gk_comm_init(gk_comm *c);

/* The instruction set of the CPU kernels (a context attribute: tests and
 * benchmarks compare them; the result is the same with each). */
typedef enum gk_cpu_isa {
    GK_CPU_ISA_AUTO = 0,          /* the best this CPU has */
    GK_CPU_ISA_GENERIC,           /* portable C (the compiler's vectorisation) */
    GK_CPU_ISA_AVX2,              /* AVX2 (+FMA) */
    GK_CPU_ISA_AVX512             /* AVX-512 */
} gk_cpu_isa;

/* Parse "auto", "generic", "avx2" or "avx512"; its name. */
GK_API gk_status gk_cpu_isa_parse(const char *text, gk_cpu_isa *out);
GK_API const char *gk_cpu_isa_name(gk_cpu_isa isa);
/* 1 when this CPU (and this build) can run isa's kernels. */
GK_API int gk_cpu_isa_supported(gk_cpu_isa isa);

typedef struct gk_context_options {
    size_t struct_size;          /* sizeof(gk_context_options) (gk_context_options_init) */
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
    gk_cpu_isa cpu_isa;          /* the CPU kernels' instruction set; AUTO: the best there is
                                    (one this CPU lacks: gk_context_create fails) */
    /* Benchmark and testing knobs of the APSP GPU code (the result is the
     * same with any of them): */
    int64_t apsp_stage_bytes;    /* host<->device rows move in chunks of this many bytes
                                    through pinned buffers; 0: 32 MiB */
    int apsp_no_lookahead;       /* 1: no lookahead (one stream) */
    int apsp_no_mp3;             /* 1: phase 3 with the plain min-plus kernel */
} gk_context_options;

/* How data moves between the GPUs of a process and between ranks when a
 * job is spread over them (gk_apsp_run_file, gk_stencil_run_file). */
typedef enum gk_exchange {
    GK_EXCHANGE_AUTO = 0,     /* peer copies in one process; NCCL between GPU ranks, else
                                 pinned host buffers and the communicator */
    GK_EXCHANGE_DEVICE,       /* the same, but NCCL is required between GPU ranks */
    GK_EXCHANGE_HOST          /* through pinned host memory (the seed design: a baseline) */
} gk_exchange;

/* Parse "auto", "device" or "host". */
GK_API gk_status gk_exchange_parse(const char *text, gk_exchange *out);
GK_API const char *gk_exchange_name(gk_exchange e);

/* Fixed defaults (struct_size set); reads nothing. */
GK_API void gk_context_options_init(gk_context_options *o);

/* The environment the gk commands document, into *o and nowhere else:
 * GK_DEVICE ("1" or "0,1": the GPU ordinals), GK_CACHE_DIR, else
 * $XDG_CACHE_HOME/gk, else ~/.cache/gk (the tuning cache), GK_DATA_DIR
 * (shipped tables), GK_CPU_ISA (cpu_isa), and the knobs GK_APSP_STAGE_BYTES,
 * GK_APSP_LOOKAHEAD=0 and GK_APSP_MP3=0.  data_dir points into the
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
/* The instruction set the CPU kernels use (never AUTO: the one picked). */
GK_API gk_cpu_isa gk_context_cpu_isa(const gk_context *ctx);

/* The CUDA stream (a cudaStream_t, passed as void * so that this header
 * needs no CUDA headers) that the context's GPU jobs run on from now on.
 * It must belong to the context's first GPU (GK_EINVAL naming the stream's
 * device otherwise) and outlive its use by gk.  NULL: gk's own stream
 * again.  GK_ENODEV on a context without a GPU.  Jobs on device memory are
 * enqueued on it and return; jobs on host memory wait for it. */
GK_API gk_status gk_context_set_stream(gk_context *ctx, void *stream);
/* The stream jobs run on now: the caller's, or gk's own (made on first use;
 * NULL before that or on the CPU backend). */
GK_API void *gk_context_stream(const gk_context *ctx);

#ifdef __cplusplus
}
#endif
#endif /* GK_CONTEXT_H */
