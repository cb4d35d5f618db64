/* stencil_gen_stub.c - stand-ins for the generated GPU stencil engine
 * until helper stencil-gen's src/gpu/stencil_gen.c is merged (drop this
 * file and stencil_gen_stub.h then): every description other than the
 * classic 27-point box fails on the GPU with GK_ENODEV, saying why.  With
 * the real header present this file compiles to nothing. */
#include "core/internal.h"

#if defined(GK_HAVE_CUDA) && !__has_include("gpu/stencil_gen.h")
#include "api/stencil_gen_stub.h"

#define NOT_MERGED "generated GPU stencils not merged yet"

gk_status gk__stencil_gen_open(gk_stencil_gen **g, const gk_device_info *dev, cudaStream_t stream,
                               const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz, const gk_config *cfg)
{
    (void)dev, (void)stream, (void)nx, (void)ny, (void)nz, (void)cfg;
    *g = NULL;
    return gk__fail(GK_ENODEV, "stencil %s on the GPU: %s (use --device=cpu)", s->key, NOT_MERGED);
}

gk_status gk__stencil_gen_upload(gk_stencil_gen *g, const void *grid, float *ms)
{
    (void)g, (void)grid, (void)ms;
    return gk__fail(GK_ENODEV, NOT_MERGED);
}

gk_status gk__stencil_gen_run(gk_stencil_gen *g, int64_t steps, float *ms)
{
    (void)g, (void)steps, (void)ms;
    return gk__fail(GK_ENODEV, NOT_MERGED);
}

gk_status gk__stencil_gen_download(gk_stencil_gen *g, void *grid, float *ms)
{
    (void)g, (void)grid, (void)ms;
    return gk__fail(GK_ENODEV, NOT_MERGED);
}

gk_status gk__stencil_gen_exec_device(gk_stencil_gen *g, void *grid, int64_t pitch_y, int64_t pitch_z, int64_t steps)
{
    (void)g, (void)grid, (void)pitch_y, (void)pitch_z, (void)steps;
    return gk__fail(GK_ENODEV, NOT_MERGED);
}

const char *gk__stencil_gen_config(const gk_stencil_gen *g)
{
    (void)g;
    return "";
}

void gk__stencil_gen_close(gk_stencil_gen *g)
{
    (void)g;
}
#else
typedef int gk__stencil_gen_stub_empty;   /* ISO C: a translation unit is not empty */
#endif
