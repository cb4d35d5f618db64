/* apsp_typed.h - the typed backends of issue 24 as the front door calls
 * them: core/apsp_types.h, cpu/apsp_cpu.h and gpu/apsp_gpu.h (whose typed
 * entry points are GK_ENODEV stubs in CPU-only builds); the rules they
 * share: HACKING.md, "APSP element types". */
#ifndef GK_API_APSP_TYPED_H
#define GK_API_APSP_TYPED_H

#include "core/internal.h"
#include "core/apsp_types.h"
#include "cpu/apsp_cpu.h"
#include "gpu/apsp_gpu.h"

#endif /* GK_API_APSP_TYPED_H */
