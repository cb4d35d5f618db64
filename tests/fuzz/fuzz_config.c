/* fuzz_config.c - gk__config_parse ("NAME=VALUE,...", from --config and the
 * tuning caches) on arbitrary text, then what gk does with a parsed
 * configuration without a GPU: format it (must parse back to the same
 * configuration), complete it against the stencil's space and apply the
 * space's constraints, and check it against every kernel's description (no arithmetic overflow on any value; an accepted
 * configuration really satisfies them, recomputed here in 64 bits). */
#include "fuzz.h"
#include "core/space.h"

static void constraints(const gk_config *c)
{
    gk_config full;
    gk_status st = gk__space_complete(&gk__space_stencil, c, &full);
    if (st) {
        fuzz_check_message(st);
        return;
    }
    gk_device_info dev;
    memset(&dev, 0, sizeof dev);
    dev.smem_per_block_optin = 232448;          /* an H200 */
    dev.regs_per_sm = 65536;
    for (int k = 0; k < 2; k++) {
        char why[256] = "";
        if (gk__space_stencil.reject(&full, k ? &dev : NULL, why, sizeof why)) {
            FUZZ_ASSERT(why[0] != '\0');
            continue;
        }
        int64_t design = gk__config_get(&full, "DESIGN", -1), bx = gk__config_get(&full, "BX", -1),
                by = gk__config_get(&full, "BY", -1), ry = gk__config_get(&full, "RY", -1),
                mr = gk__config_get(&full, "MAXRREG", -1), ts = gk__config_get(&full, "TSTEPS", -1);
        FUZZ_ASSERT(design >= 0 && design <= 2 && ts >= 1 && ts <= 4);
        FUZZ_ASSERT(design < 2 || (bx - 2 * (ts - 1) >= 1 && by * ry - 2 * (ts - 1) >= 1));
        FUZZ_ASSERT(bx >= 1 && by >= 1 && ry >= 1 && bx * by >= 32 && bx * by <= 1024);
        FUZZ_ASSERT(ry <= 8 && mr >= 0 && mr <= 255);
        int64_t smem = (design == 0 ? 4 : design == 1 ? 2 : 2 * ts) * (bx + 2) * (by * ry + 2) * 8;
        FUZZ_ASSERT(smem <= (k ? 232448 : 227 * 1024));
        FUZZ_ASSERT((int64_t)gk__stencil_smem_bytes((int)design, (int)bx, (int)by, (int)ry, (int)ts) == smem);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    gk_config c;
    gk__config_clear(&c);
    gk_status st = gk__config_parse(text, &c);
    if (st) {
        fuzz_check_message(st);
    } else {
        FUZZ_ASSERT(c.n >= 0 && c.n <= GK_CONFIG_MAX);
        for (int i = 0; i < c.n; i++)
            FUZZ_ASSERT(memchr(c.p[i].name, '\0', GK_PARAM_NAME_MAX) && c.p[i].name[0]);
        char buf[GK_CONFIG_MAX * (GK_PARAM_NAME_MAX + 16)];
        FUZZ_ASSERT(gk__config_format(&c, buf, sizeof buf) < sizeof buf);
        gk_config d;
        gk__config_clear(&d);
        FUZZ_ASSERT(gk__config_parse(buf, &d) == GK_OK && d.n == c.n);
        for (int i = 0; i < c.n; i++)
            FUZZ_ASSERT(!strcmp(c.p[i].name, d.p[i].name) && c.p[i].value == d.p[i].value);
        constraints(&c);
        /* every kernel's description: the one check --config, cache lines
         * and shipped tables go through; a refusal always says why */
        static const char *const kernels[] = {
            "vadd",
#define GK_KERNEL(name, gen) #name,
#include "kernels.def"
#undef GK_KERNEL
        };
        for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
            gk_config full;
            st = gk__space_check(gk__space_find(kernels[k]), &c, NULL, &full);
            if (st) fuzz_check_message(st);
        }
    }
    free(text);
    return 0;
}
