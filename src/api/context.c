/* context.c - gk_context: the backend resolved once, the GPUs' cached info,
 * the stream (gk's own or the caller's), the thread count, the CPU
 * instruction set, where configurations come from; the checks every plan
 * makes of the context and the pointers it is handed. */
#include "api/context.h"
#include "core/parse.h"
#include "tune/tune.h"
#ifdef GK_HAVE_CUDA
#include "gpu/gpu.h"
#endif
#ifdef GK_HAVE_OPENMP
#include <omp.h>
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GK_PKGDATADIR
#error GK_PKGDATADIR (the installed $(pkgdatadir)) must come from Makefile.am
#endif

void gk_context_options_init(gk_context_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->backend = GK_BACKEND_AUTO;
    o->cpu_isa = GK_CPU_ISA_AUTO;
}

void gk_comm_init(gk_comm *c)
{
    memset(c, 0, sizeof *c);
    c->struct_size = sizeof *c;
    c->size = c->local_size = 1;
}

gk_status gk_context_options_set_gpus(gk_context_options *o, const char *list)
{
    if (!strcmp(list, "all")) {
        int n = 0;
        gk_status st = gk_gpu_count(&n);
        if (st) return st;
        if (n > GK_MAX_GPUS) n = GK_MAX_GPUS;
        for (int i = 0; i < n; i++) o->gpus[i] = i;
        o->ngpus = n;
        return GK_OK;
    }
    int n = 0;
    const char *p = list;
    while (*p) {
        if (*p < '0' || *p > '9')
            return gk__fail(GK_EINVAL, "'%s' is not a GPU list (want N, N,M,... or all)", list);
        long v = 0;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (*p++ - '0');
            if (v > 1 << 20)
                return gk__fail(GK_EINVAL, "'%s': GPU ordinal too large", list);
        }
        if (*p == ',' && p[1]) p++;
        else if (*p)
            return gk__fail(GK_EINVAL, "'%s' is not a GPU list (want N, N,M,... or all)", list);
        for (int i = 0; i < n; i++)
            if (o->gpus[i] == (int)v)
                return gk__fail(GK_EINVAL, "'%s' names GPU %ld twice", list, v);
        if (n == GK_MAX_GPUS)
            return gk__fail(GK_EINVAL, "'%s': more than %d GPUs", list, GK_MAX_GPUS);
        o->gpus[n++] = (int)v;
    }
    if (!n)
        return gk__fail(GK_EINVAL, "empty GPU list");
    o->ngpus = n;
    return GK_OK;
}

gk_status gk_context_options_from_env(gk_context_options *o)
{
    static _Thread_local char cache[4096];
    const char *dev = getenv("GK_DEVICE");
    if (dev && *dev && gk_context_options_set_gpus(o, dev)) {
        /* "all" on a machine without a usable GPU names no GPU: the context
           falls back to the CPU (or says why, when the GPU is required), as
           with GK_DEVICE=0 there */
        if (strcmp(dev, "all"))
            return gk__fail(GK_EINVAL, "GK_DEVICE: %s", gk_last_error());
        gk__clear_error();
    }
    if (gk_cache_dir(cache, sizeof cache) == GK_OK)
        o->cache_dir = cache;
    else
        gk__clear_error();        /* no HOME: no user cache, not an error */
    const char *data = getenv("GK_DATA_DIR");
    if (data && *data)
        o->data_dir = data;
    const char *isa = getenv("GK_CPU_ISA");
    if (isa && *isa && gk_cpu_isa_parse(isa, &o->cpu_isa))
        return gk__fail(GK_EINVAL, "GK_CPU_ISA: %s", gk_last_error());
    /* a testing knob: the APSP transfers' staging chunk size in bytes */
    const char *e = getenv("GK_APSP_STAGE_BYTES");
    if (e && *e) {
        int64_t v;
        if (gk__parse_i64("GK_APSP_STAGE_BYTES", e, 1, (int64_t)1 << 30, &v))
            return gk__fail(GK_EINVAL, "GK_APSP_STAGE_BYTES='%s': want bytes in [1, 2^30]", e);
        o->apsp_stage_bytes = v;
    }
    /* benchmark knobs: the APSP lookahead and phase-3 kernel, 1 (default) or 0 */
    const char *knob[2] = { "GK_APSP_LOOKAHEAD", "GK_APSP_MP3" };
    int *off[2] = { &o->apsp_no_lookahead, &o->apsp_no_mp3 };
    for (int i = 0; i < 2; i++) {
        const char *v = getenv(knob[i]);
        if (v && *v && strcmp(v, "0") && strcmp(v, "1"))
            return gk__fail(GK_EINVAL, "%s='%s': want 0 or 1", knob[i], v);
        *off[i] = v && !strcmp(v, "0");
    }
    return GK_OK;
}

gk_status gk_context_create(gk_context **out, const gk_context_options *given)
{
    gk_context_options opts, *options = &opts;
    gk_status st;
    if (!out)
        return gk__fail(GK_EINVAL, "gk_context_create: nowhere to put the context");
    *out = NULL;
    gk_context_options_init(&opts);
    if (given && (st = GK__STRUCT_IN(opts, given, "gk_context_options")))
        return st;
    if (options->ngpus < 0 || options->ngpus > GK_MAX_GPUS || options->threads < 0)
        return gk__fail(GK_EINVAL, "context options: %d GPUs, %d threads", options->ngpus, options->threads);
    if ((unsigned)options->backend > GK_BACKEND_GPU)
        return gk__fail(GK_EINVAL, "context options: backend %d (want GK_BACKEND_AUTO, _CPU or _GPU)",
                        (int)options->backend);
    if ((unsigned)options->cpu_isa > GK_CPU_ISA_AVX512)
        return gk__fail(GK_EINVAL, "context options: cpu_isa %d is not a gk_cpu_isa", (int)options->cpu_isa);
    if (!gk_cpu_isa_supported(options->cpu_isa))
        return gk__fail(GK_ENODEV, "context options: this CPU cannot run the %s kernels",
                        gk_cpu_isa_name(options->cpu_isa));
    if (options->apsp_stage_bytes < 0 || options->apsp_stage_bytes > ((int64_t)1 << 30))
        return gk__fail(GK_EINVAL, "context options: apsp_stage_bytes %lld (want 0 for the default, or at most 2^30)",
                        (long long)options->apsp_stage_bytes);
    gk_comm comm;
    if (options->comm) {
        gk_comm_init(&comm);
        if ((st = GK__STRUCT_IN(comm, options->comm, "gk_comm")))
            return st;
    }
    gk_context *c = calloc(1, sizeof *c);
    if (!c)
        return gk__fail(GK_ENOMEM, "cannot allocate a gk context");
    c->threads = options->threads;
    c->no_tuned = options->no_tuned;
    c->cpu_isa = options->cpu_isa == GK_CPU_ISA_AUTO ? gk__cpu_isa_best() : options->cpu_isa;
    c->apsp_stage_bytes = options->apsp_stage_bytes;
    c->apsp_no_lookahead = options->apsp_no_lookahead != 0;
    c->apsp_no_mp3 = options->apsp_no_mp3 != 0;
    snprintf(c->cache_dir, sizeof c->cache_dir, "%s", options->cache_dir ? options->cache_dir : "");
    snprintf(c->data_dir, sizeof c->data_dir, "%s", options->data_dir ? options->data_dir : GK_PKGDATADIR);
    gk_cpu_topology_init(&c->cpu);
    gk_cpu_topology_get(&c->cpu);
    if (options->comm && comm.size > 1) {
        c->comm_copy = comm;
        c->comm = &c->comm_copy;
        c->comm_given = options->comm;
    }
    c->ngpus = options->ngpus ? options->ngpus : 1;
    for (int i = 0; i < c->ngpus; i++)
        c->gpus[i] = options->ngpus ? options->gpus[i] : 0;
    if (c->comm && !options->ngpus && options->backend != GK_BACKEND_CPU) {
        int n = 0;                    /* one rank per GPU: the node-local rank's */
        if (gk_gpu_count(&n) == GK_OK && n > 0)
            c->gpus[0] = c->comm->local_rank % n;
        gk__clear_error();
    }

    c->backend = GK_BACKEND_CPU;
    if (options->backend != GK_BACKEND_CPU) {
        gk_status gst = GK_OK;
        for (int i = 0; i < c->ngpus && !gst; i++) {
            gk_device_info_init(&c->dev[i]);
            gst = gk__gpu_info(c->gpus[i], &c->dev[i]);
        }
        if (!gst) {
            c->backend = GK_BACKEND_GPU;
        } else if (options->backend == GK_BACKEND_GPU) {
            st = gk__fail(gst, "the GPU was asked for, but no GPU is usable: %s", gk_last_error());
            free(c);
            return st;
        } else {
            snprintf(c->note, sizeof c->note, "no usable GPU: %s", gk_last_error());
            gk__clear_error();
        }
    }
    if (c->backend == GK_BACKEND_CPU)
        c->ngpus = 0;
    *out = c;
    return GK_OK;
}

void gk_context_destroy(gk_context *c)
{
    if (!c) return;
#ifdef GK_HAVE_CUDA
    if (c->own_stream) {
        int saved;
        if (gk__gpu_enter(c->gpus[0], &saved) == GK_OK) {
            gk__gpu_stream_destroy((cudaStream_t)c->own_stream);
            gk__gpu_leave(saved);
        }
    }
#endif
    free(c);
}

gk_backend gk_context_backend(const gk_context *c) { return c->backend; }
const char *gk_context_backend_note(const gk_context *c) { return c->note; }
int gk_context_gpu_count(const gk_context *c) { return c->ngpus; }
const gk_cpu_topology *gk_context_cpu(const gk_context *c) { return &c->cpu; }
const char *gk_context_cache_dir(const gk_context *c) { return c->cache_dir; }
const gk_comm *gk_context_comm(const gk_context *c) { return c->comm_given; }
gk_cpu_isa gk_context_cpu_isa(const gk_context *c) { return c->cpu_isa; }
void *gk_context_stream(const gk_context *c) { return gk__ctx_stream(c); }

gk_status gk_context_set_stream(gk_context *c, void *stream)
{
    if (!c)
        return gk__fail(GK_EINVAL, "gk_context_set_stream: ctx is NULL");
    if (c->backend != GK_BACKEND_GPU)
        return gk__fail(GK_ENODEV, "gk_context_set_stream: the context runs on the CPU (%s)",
                        *c->note ? c->note : "no GPU asked for");
    if (!stream) {
        c->user_stream = NULL;
        return GK_OK;
    }
    int dev = -1;
    gk_status st = gk__gpu_stream_device(stream, &dev);
    if (st)
        return gk__fail(st, "gk_context_set_stream: stream %p: %s", stream, gk_last_error());
    if (dev >= 0 && dev != c->gpus[0])
        return gk__fail(GK_EINVAL, "gk_context_set_stream: stream %p belongs to GPU %d, the context runs on GPU %d",
                        stream, dev, c->gpus[0]);
    c->user_stream = stream;
    return GK_OK;
}

gk_context *gk__ctx_cpu_view(const gk_context *c)
{
    gk_context *v = malloc(sizeof *v);
    if (!v) {
        gk__fail(GK_ENOMEM, "out of host memory for a CPU view of the context");
        return NULL;
    }
    *v = *c;
    v->backend = GK_BACKEND_CPU;
    v->own_stream = v->user_stream = NULL;
    if (c->comm == &c->comm_copy) v->comm = &v->comm_copy;
    return v;
}

gk_status gk__ctx_check_pointer(const gk_context *c, gk_memory memory, const void *p, const char *what)
{
    if (!p)
        return gk__fail(GK_EINVAL, "%s is NULL", what);
    if (c->backend != GK_BACKEND_GPU) {      /* no driver to ask; device memory was refused at the plan */
        if (memory == GK_MEMORY_DEVICE)
            return gk__fail(GK_EINVAL, "%s: device memory was promised, but the context runs on the CPU", what);
        return GK_OK;
    }
    int device_memory = 0, dev = -1;
    gk_status st = gk__gpu_pointer_kind(p, &device_memory, &dev);
    if (st)
        return gk__fail(st, "%s (%p): %s", what, p, gk_last_error());
    if (memory == GK_MEMORY_DEVICE) {
        if (!device_memory)
            return gk__fail(GK_EINVAL, "%s (%p) is host memory, but the problem says device memory", what, p);
        if (dev != c->gpus[0])
            return gk__fail(GK_EINVAL, "%s (%p) is memory of GPU %d, the context runs on GPU %d", what, p, dev,
                            c->gpus[0]);
    } else if (device_memory) {
        return gk__fail(GK_EINVAL, "%s (%p) is device memory of GPU %d, but the problem says host memory "
                        "(set its memory to GK_MEMORY_DEVICE)", what, p, dev);
    }
    return GK_OK;
}
const char *gk_context_data_dir(const gk_context *c) { return c->data_dir; }

gk_status gk_context_gpu_info(const gk_context *c, int i, gk_device_info *info)
{
    if (i < 0 || i >= c->ngpus)
        return gk__fail(GK_EINVAL, "the context has %d GPU%s, no GPU %d", c->ngpus, c->ngpus == 1 ? "" : "s", i);
    return GK__STRUCT_OUT(info, c->dev[i], "gk_context_gpu_info: info");
}

gk_status gk__ctx_gpu_enter(gk_context *c, int *saved)
{
    *saved = -1;
    if (c->backend != GK_BACKEND_GPU)
        return gk__fail(GK_ENODEV, "the context has no GPU");
#ifdef GK_HAVE_CUDA
    gk_status st = gk__gpu_enter(c->gpus[0], saved);
    if (st) return st;
    if (!c->own_stream) {
        cudaStream_t s;
        if ((st = gk__gpu_stream_create(&s))) {
            gk__gpu_leave(*saved);
            return st;
        }
        c->own_stream = s;
    }
    return GK_OK;
#else
    return gk__fail(GK_ENODEV, "gk was built without CUDA support");
#endif
}

void gk__ctx_gpu_leave(int saved)
{
#ifdef GK_HAVE_CUDA
    gk__gpu_leave(saved);
#else
    (void)saved;
#endif
}

int gk__ctx_threads_enter(const gk_context *c)
{
#ifdef GK_HAVE_OPENMP
    int saved = omp_get_max_threads();
    if (c->threads > 0) omp_set_num_threads(c->threads);
    return saved;
#else
    (void)c;
    return 1;
#endif
}

void gk__ctx_threads_leave(int saved)
{
#ifdef GK_HAVE_OPENMP
    omp_set_num_threads(saved);
#else
    (void)saved;
#endif
}

void gk__ctx_report_init(const gk_context *c, gk_report *rep)
{
    gk_report_init(rep);
    rep->backend = c->backend;
    if (c->backend == GK_BACKEND_GPU) {
        snprintf(rep->device, sizeof rep->device, "GPU %d: %.200s", c->gpus[0], c->dev[0].name);
    } else {
        int threads = c->threads > 0 ? c->threads : c->cpu.omp_max_threads;
        snprintf(rep->device, sizeof rep->device, "CPU: %.200s (%d thread%s)",
                 *c->cpu.model ? c->cpu.model : "unknown model", threads, threads == 1 ? "" : "s");
        snprintf(rep->backend_note, sizeof rep->backend_note, "%s", c->note);
    }
}

void gk__report_gpu_ms(gk_report *rep, float h2d_ms, float compute_ms, float d2h_ms)
{
    rep->h2d = h2d_ms * 1e-3;
    rep->compute = compute_ms * 1e-3;
    rep->d2h = d2h_ms * 1e-3;
}

static gk_status ctx_config(gk_context *c, const char *kernel, int64_t size, const char *user, gk_config *full,
                            gk_report *rep, int typed);

gk_status gk__ctx_config(gk_context *c, const char *kernel, int64_t size, const char *user,
                         gk_config *full, gk_report *rep)
{
    return ctx_config(c, kernel, size, user, full, rep, 0);
}

gk_status gk__ctx_config_typed(gk_context *c, const char *kernel, int64_t size, const char *user,
                               gk_config *full, gk_report *rep)
{
    return ctx_config(c, kernel, size, user, full, rep, 1);
}

static gk_status ctx_config(gk_context *c, const char *kernel, int64_t size, const char *user, gk_config *full,
                            gk_report *rep, int typed)
{
    const gk_space *s = gk__space_find(kernel);
    gk_config cfg;
    gk_status st;
    gk__config_clear(&cfg);
    if (!s)
        return gk__fail(GK_EINTERNAL, "no tunable description for kernel '%s'", kernel);
    if (user && (st = gk__config_validate(kernel, user, NULL)))
        return st;
    if (c->backend != GK_BACKEND_GPU) {
        rep->config_source = GK_CONFIG_NONE;
        rep->config_ignored = user != NULL;
        if (full) gk__config_clear(full);
        return GK_OK;
    }
    if (user) {
        gk__config_parse(user, &cfg);
        rep->config_source = GK_CONFIG_USER;
        snprintf(rep->config_detail, sizeof rep->config_detail, "given by the caller; replaces the tuned choice");
    } else if (c->no_tuned) {
        rep->config_source = GK_CONFIG_DEFAULT;
        snprintf(rep->config_detail, sizeof rep->config_detail, "tuned configurations turned off");
    } else if ((st = (typed ? gk__tune_select : gk__tune_select_int32)(&c->dev[0], c->cache_dir, c->data_dir, kernel,
                                                                     size, &cfg, &rep->config_source,
                                                                     rep->config_detail,
                                                                     sizeof rep->config_detail))) {
        return st;
    }
    gk_config complete;
    if (gk__space_check(s, &cfg, &c->dev[0], &complete)) {
        char text[256];
        gk__config_format(&cfg, text, sizeof text);
        return gk__fail(GK_EINVAL, "%s configuration %s cannot run on %.100s: %s", kernel, text, c->dev[0].name,
                        gk_last_error());
    }
    gk__config_format(&complete, rep->config, sizeof rep->config);
    if (full) *full = complete;
    return GK_OK;
}

gk_status gk_config_validate(const char *kernel, const char *text, char *full, size_t n)
{
    gk_config whole;
    if (!kernel || !text)
        return gk__fail(GK_EINVAL, "gk_config_validate: %s is NULL", !kernel ? "kernel" : "text");
    gk_status st = gk__config_validate(kernel, text, &whole);
    if (!st && full)
        gk__config_format(&whole, full, n);
    return st;
}

gk_status gk__config_validate(const char *kernel, const char *text, gk_config *full)
{
    const gk_space *s = gk__space_find(kernel);
    gk_config cfg, complete;
    gk_status st;
    if (!s)
        return gk__fail(GK_EINVAL, "no kernel '%s'", kernel);
    gk__config_clear(&cfg);
    if ((st = gk__config_parse(text, &cfg)) || (st = gk__space_check(s, &cfg, NULL, &complete)))
        return st;
    if (full) *full = complete;
    return GK_OK;
}
