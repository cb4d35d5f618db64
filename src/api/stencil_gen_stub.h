/* stencil_gen_stub.h - the generated GPU stencil engine's interface
 * (contract of issue 25, section 3), declared here only until
 * src/gpu/stencil_gen.h (helper stencil-gen) is merged: then the front
 * door includes that header instead (src/api/stencil.c) and this file and
 * stencil_gen_stub.c go.  CUDA builds only. */
#ifndef GK_STENCIL_GEN_STUB_H
#define GK_STENCIL_GEN_STUB_H

#include "gpu/gpu.h"
#include "core/stencil_spec.h"

typedef struct gk_stencil_gen gk_stencil_gen;
gk_status gk__stencil_gen_open(gk_stencil_gen **g, const gk_device_info *dev, cudaStream_t stream,
                               const gk__stencil_spec *s, int64_t nx, int64_t ny, int64_t nz, const gk_config *cfg);
gk_status gk__stencil_gen_upload(gk_stencil_gen *g, const void *grid, float *ms);
gk_status gk__stencil_gen_run(gk_stencil_gen *g, int64_t steps, float *ms);
gk_status gk__stencil_gen_download(gk_stencil_gen *g, void *grid, float *ms);
gk_status gk__stencil_gen_exec_device(gk_stencil_gen *g, void *grid, int64_t pitch_y, int64_t pitch_z, int64_t steps);
const char *gk__stencil_gen_config(const gk_stencil_gen *g);
void gk__stencil_gen_close(gk_stencil_gen *g);

#endif /* GK_STENCIL_GEN_STUB_H */
