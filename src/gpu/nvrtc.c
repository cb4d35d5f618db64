/* nvrtc.c - NVRTC, opened lazily with dlopen so that libgk loads (and gk runs
 * the embedded fatbin) where only the driver is installed.  The tuner and
 * --config use it to build variants with -D parameters for the exact device. */
#include "gpu/gpu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GK_HAVE_NVRTC
#include <nvrtc.h>

static struct {
    void *so;
    char why[512];
    const char *(*GetErrorString)(nvrtcResult);
    nvrtcResult (*CreateProgram)(nvrtcProgram *, const char *, const char *, int, const char *const *, const char *const *);
    nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*GetProgramLogSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetProgramLog)(nvrtcProgram, char *);
    nvrtcResult (*GetCUBINSize)(nvrtcProgram, size_t *);
    nvrtcResult (*GetCUBIN)(nvrtcProgram, char *);
    nvrtcResult (*DestroyProgram)(nvrtcProgram *);
} nv;
static pthread_once_t nv_once = PTHREAD_ONCE_INIT;

static void nv_open(void)
{
    const char *tries[] = { GK_NVRTC_SONAME, GK_CUDA_LIBDIR "/" GK_NVRTC_SONAME, "libnvrtc.so" };
    for (size_t i = 0; i < sizeof tries / sizeof tries[0] && !nv.so; i++)
        nv.so = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
    if (!nv.so) {
        snprintf(nv.why, sizeof nv.why, "cannot open NVRTC (%s): %s", GK_NVRTC_SONAME, dlerror());
        return;
    }
#define SYM(n) do { *(void **)&nv.n = dlsym(nv.so, "nvrtc" #n); \
        if (!nv.n) { snprintf(nv.why, sizeof nv.why, "NVRTC lacks nvrtc" #n); nv.so = NULL; return; } } while (0)
    SYM(GetErrorString); SYM(CreateProgram); SYM(CompileProgram); SYM(GetProgramLogSize);
    SYM(GetProgramLog); SYM(GetCUBINSize); SYM(GetCUBIN); SYM(DestroyProgram);
#undef SYM
}

int gk__nvrtc_available(char *why, size_t n)
{
    pthread_once(&nv_once, nv_open);
    if (!nv.so && why) snprintf(why, n, "%s", nv.why);
    return nv.so != NULL;
}

gk_status gk__nvrtc_compile(const gk_kernel_image *img, const gk_space *space,
                            const gk_config *cfg, int cc_major, int cc_minor,
                            void **cubin, size_t *size, char *log, size_t logn)
{
    char why[512];
    if (log && logn) log[0] = '\0';
    if (!gk__nvrtc_available(why, sizeof why))
        return gk__fail(GK_ECOMPILE, "%s", why);
    (void)space;
    char opts[GK_CONFIG_MAX + 4][64];
    const char *argv[GK_CONFIG_MAX + 4];
    int argc = 0;
    snprintf(opts[argc++], 64, "--gpu-architecture=sm_%d%d", cc_major, cc_minor);
    snprintf(opts[argc++], 64, "--std=c++17");
    for (int i = 0; i < cfg->n; i++) {
        if (!strcmp(cfg->p[i].name, "MAXRREG")) {
            if (cfg->p[i].value > 0)
                snprintf(opts[argc++], 64, "--maxrregcount=%d", cfg->p[i].value);
        } else {
            snprintf(opts[argc++], 64, "-D%s=%d", cfg->p[i].name, cfg->p[i].value);
        }
    }
    for (int i = 0; i < argc; i++)
        argv[i] = opts[i];

    nvrtcProgram prog;
    nvrtcResult r = nv.CreateProgram(&prog, img->source, img->name, 0, NULL, NULL);
    if (r != NVRTC_SUCCESS)
        return gk__fail(GK_ECOMPILE, "NVRTC: create %s: %s", img->name, nv.GetErrorString(r));
    r = nv.CompileProgram(prog, argc, argv);
    if (r != NVRTC_SUCCESS) {
        size_t ls = 0;
        if (log && logn && nv.GetProgramLogSize(prog, &ls) == NVRTC_SUCCESS && ls) {
            char *full = malloc(ls);
            if (full && nv.GetProgramLog(prog, full) == NVRTC_SUCCESS)
                snprintf(log, logn, "%s", full);
            free(full);
        }
        nv.DestroyProgram(&prog);
        char c[256];
        gk__config_format(cfg, c, sizeof c);
        return gk__fail(GK_ECOMPILE, "NVRTC: %s with %s: %s", img->name, c, nv.GetErrorString(r));
    }
    gk_status st = GK_OK;
    if (nv.GetCUBINSize(prog, size) != NVRTC_SUCCESS || !(*cubin = malloc(*size))
        || nv.GetCUBIN(prog, *cubin) != NVRTC_SUCCESS)
        st = gk__fail(GK_ECOMPILE, "NVRTC: cannot get the cubin of %s", img->name);
    nv.DestroyProgram(&prog);
    return st;
}

#else /* !GK_HAVE_NVRTC */

int gk__nvrtc_available(char *why, size_t n)
{
    if (why) snprintf(why, n, "built without NVRTC");
    return 0;
}

gk_status gk__nvrtc_compile(const gk_kernel_image *img, const gk_space *space,
                            const gk_config *cfg, int cc_major, int cc_minor,
                            void **cubin, size_t *size, char *log, size_t logn)
{
    (void)img; (void)space; (void)cfg; (void)cc_major; (void)cc_minor;
    (void)cubin; (void)size; (void)log; (void)logn;
    return gk__fail(GK_ECOMPILE, "built without NVRTC: cannot compile kernel variants");
}
#endif
