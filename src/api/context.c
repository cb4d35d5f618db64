/* context.c - gk_context: the backend resolved once, the GPUs' cached info,
 * the stream, the thread count and where configurations come from. */
#include "api/context.h"
#include "tune/tune.h"
#ifdef GK_HAVE_CUDA
#include "gpu/gpu.h"
#include "gpu/apsp_gpu.h"
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
    o->backend = GK_BACKEND_AUTO;
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
#ifdef GK_HAVE_CUDA
    /* a testing knob: the APSP transfers' staging chunk size in bytes */
    const char *e = getenv("GK_APSP_STAGE_BYTES");
    if (e && *e) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(e, &end, 10);
        if (errno || *end || e[0] == '-' || v < 1 || v > (1ull << 30))
            return gk__fail(GK_EINVAL, "GK_APSP_STAGE_BYTES='%s': want bytes in [1, 2^30]", e);
        gk_status st = gk__apsp_gpu_set_stage_bytes((size_t)v);
        if (st)
            return st;
    }
    /* benchmark knobs: the APSP lookahead and phase-3 kernel, 1 (default) or 0 */
    const char *knob[2] = { "GK_APSP_LOOKAHEAD", "GK_APSP_MP3" };
    int on[2] = { 1, 1 };
    for (int i = 0; i < 2; i++) {
        const char *v = getenv(knob[i]);
        if (v && *v && strcmp(v, "0") && strcmp(v, "1"))
            return gk__fail(GK_EINVAL, "%s='%s': want 0 or 1", knob[i], v);
        on[i] = !(v && !strcmp(v, "0"));
    }
    gk__apsp_gpu_set_variants(on[0], on[1]);
#endif
    return GK_OK;
}

gk_status gk_context_create(gk_context **out, const gk_context_options *options)
{
    gk_context_options defaults;
    gk_status st;
    if (!out)
        return gk__fail(GK_EINVAL, "gk_context_create: nowhere to put the context");
    *out = NULL;
    if (!options) {
        gk_context_options_init(&defaults);
        options = &defaults;
    }
    if (options->ngpus < 0 || options->ngpus > GK_MAX_GPUS || options->threads < 0)
        return gk__fail(GK_EINVAL, "context options: %d GPUs, %d threads", options->ngpus, options->threads);
    gk_context *c = calloc(1, sizeof *c);
    if (!c)
        return gk__fail(GK_ENOMEM, "cannot allocate a gk context");
    c->threads = options->threads;
    c->no_tuned = options->no_tuned;
    snprintf(c->cache_dir, sizeof c->cache_dir, "%s", options->cache_dir ? options->cache_dir : "");
    snprintf(c->data_dir, sizeof c->data_dir, "%s", options->data_dir ? options->data_dir : GK_PKGDATADIR);
    gk_cpu_topology_get(&c->cpu);
    c->comm = options->comm && options->comm->size > 1 ? options->comm : NULL;
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
        for (int i = 0; i < c->ngpus && !gst; i++)
            gst = gk_gpu_info(c->gpus[i], &c->dev[i]);
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
    gk__apsp_ready_drop(c);
#ifdef GK_HAVE_CUDA
    if (c->stream) {
        int saved;
        if (gk__gpu_enter(c->gpus[0], &saved) == GK_OK) {
            gk__gpu_stream_destroy((cudaStream_t)c->stream);
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
const gk_comm *gk_context_comm(const gk_context *c) { return c->comm; }
const char *gk_context_data_dir(const gk_context *c) { return c->data_dir; }

gk_status gk_context_gpu_info(const gk_context *c, int i, gk_device_info *info)
{
    if (i < 0 || i >= c->ngpus)
        return gk__fail(GK_EINVAL, "the context has %d GPU%s, no GPU %d", c->ngpus, c->ngpus == 1 ? "" : "s", i);
    *info = c->dev[i];
    return GK_OK;
}

gk_status gk__ctx_gpu_enter(gk_context *c, int *saved)
{
    *saved = -1;
    if (c->backend != GK_BACKEND_GPU)
        return gk__fail(GK_ENODEV, "the context has no GPU");
#ifdef GK_HAVE_CUDA
    gk_status st = gk__gpu_enter(c->gpus[0], saved);
    if (st) return st;
    if (!c->stream) {
        cudaStream_t s;
        if ((st = gk__gpu_stream_create(&s))) {
            gk__gpu_leave(*saved);
            return st;
        }
        c->stream = s;
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
    memset(rep, 0, sizeof *rep);
    rep->backend = c->backend;
    rep->h2d = rep->d2h = rep->check = -1;
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

gk_status gk__ctx_config(gk_context *c, const char *kernel, int64_t size, const char *user,
                         gk_config *full, gk_report *rep)
{
    const gk_space *s = gk__space_find(kernel);
    gk_config cfg;
    gk_status st;
    gk_config_clear(&cfg);
    if (!s)
        return gk__fail(GK_EINTERNAL, "no tunable description for kernel '%s'", kernel);
    if (user && (st = gk_config_validate(kernel, user, NULL)))
        return st;
    if (c->backend != GK_BACKEND_GPU) {
        rep->config_source = GK_CONFIG_NONE;
        rep->config_ignored = user != NULL;
        if (full) gk_config_clear(full);
        return GK_OK;
    }
    if (user) {
        gk_config_parse(user, &cfg);
        rep->config_source = GK_CONFIG_USER;
        snprintf(rep->config_detail, sizeof rep->config_detail, "given by the caller; replaces the tuned choice");
    } else if (c->no_tuned) {
        rep->config_source = GK_CONFIG_DEFAULT;
        snprintf(rep->config_detail, sizeof rep->config_detail, "tuned configurations turned off");
    } else if ((st = gk__tune_select(&c->dev[0], c->cache_dir, c->data_dir, kernel, size, &cfg,
                                     &rep->config_source, rep->config_detail, sizeof rep->config_detail))) {
        return st;
    }
    gk_config complete;
    if (gk__space_check(s, &cfg, &c->dev[0], &complete)) {
        char text[256];
        gk_config_format(&cfg, text, sizeof text);
        return gk__fail(GK_EINVAL, "%s configuration %s cannot run on %.100s: %s", kernel, text, c->dev[0].name,
                        gk_last_error());
    }
    gk_config_format(&complete, rep->config, sizeof rep->config);
    if (full) *full = complete;
    return GK_OK;
}

gk_status gk_config_validate(const char *kernel, const char *text, gk_config *full)
{
    const gk_space *s = gk__space_find(kernel);
    gk_config cfg, complete;
    gk_status st;
    if (!s)
        return gk__fail(GK_EINVAL, "no kernel '%s'", kernel);
    gk_config_clear(&cfg);
    if ((st = gk_config_parse(text, &cfg)) || (st = gk__space_check(s, &cfg, NULL, &complete)))
        return st;
    if (full) *full = complete;
    return GK_OK;
}
