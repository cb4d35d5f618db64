/* fuzz_config.c - gk__config_parse ("NAME=VALUE,...", from --config and the
 * tuning caches) on arbitrary text, then what gk does with a parsed
 * configuration without a GPU: format it (must parse back to the same
 * configuration), complete it against the stencil's space and apply the
 * space's constraints, and check it against every kernel's description (no
 * arithmetic overflow on any value; an accepted configuration really
 * satisfies the rules the space has, recomputed here in 64 bits: the
 * overlapped-tile size rule of DESIGN 2 only for RING=0, the ring rules for
 * RING=1, the shared memory of each layout). */
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
                mr = gk__config_get(&full, "MAXRREG", -1), ts = gk__config_get(&full, "TSTEPS", -1),
                rx = gk__config_get(&full, "RX", -1), ring = gk__config_get(&full, "RING", -1),
                async = gk__config_get(&full, "ASYNC", -1), pf = gk__config_get(&full, "PREFETCH", -1),
                split = gk__config_get(&full, "SPLIT", -1);
        FUZZ_ASSERT(design >= 0 && design <= 2 && ts >= 1 && ts <= 4 && rx >= 1 && rx <= 2 && pf >= 1 && pf <= 2);
        FUZZ_ASSERT(ring >= 0 && ring <= 1 && async >= 0 && async <= 1 && split >= 0 && split <= 1);
        if (design == 2 && ring) {
            /* exact tiles (RING=1, space_stencil.c): no overlap to leave room
             * for, but cp.async, at most 8 ring points per thread over the
             * stages and 32 partial sums */
            int64_t ti = bx * rx, h = by * ry, thr = bx * by, pts = 0;
            for (int64_t m = 1; m < ts; m++)
                pts += ((ti + 2 * m) * (h + 2 * m) - ti * h + thr - 1) / thr;
            FUZZ_ASSERT(async == 1 && pts <= 8 && ts * ry * rx <= 32);
        } else if (design == 2) {
            /* overlapped tiles: TSTEPS-1 points of halo recomputed each side */
            FUZZ_ASSERT(bx - 2 * (ts - 1) >= 1 && by * ry - 2 * (ts - 1) >= 1 && ts * ry * rx <= 32);
        }
        FUZZ_ASSERT(bx >= 1 && by >= 1 && ry >= 1 && bx * by >= 32 && bx * by <= 1024);
        FUZZ_ASSERT(ry <= 8 && mr >= 0 && mr <= 255 && (mr == 0 || (mr >= 24 && mr * bx * by <= 65536)));
        /* the shared memory, recomputed: the input ring (PREFETCH+1 planes
         * with ASYNC, else 2), 2 planes per further stage of DESIGN 2; a
         * RING plane holds the tile and T each side, its x offset odd
         * (T|1: cp.async) or even (T rounded up: the TMA), room for the
         * larger, rounded up to 16 doubles, then an 8-byte mbarrier per
         * input plane; SPLIT at T >= 2: one plane and two mbarriers more;
         * for every T up to TSTEPS (the remainder passes) */
        int64_t limit = k ? 232448 : 227 * 1024;
        for (int64_t t = design == 2 ? 1 : ts; t <= ts; t++) {
            int64_t planes, plane, extra = 0;
            if (design == 2 && ring) {
                int64_t oc = t | 1, ot = t + t % 2, off = oc > ot ? oc : ot;
                planes = pf + 1 + 2 * (t - 1) + (t >= 2 && split);
                plane = ((bx * rx + 2 * off) * (by * ry + 2 * t) + 15) / 16 * 16;
                extra = pf + 1 + 2 * (t >= 2 && split);
            } else {
                planes = design == 0 ? 4 : (async ? pf + 1 : 2) + (design == 2 ? 2 * (t - 1) : 0);
                plane = (bx * rx + 2) * (by * ry + 2);
            }
            int64_t bytes = (planes * plane + extra) * 8;
            FUZZ_ASSERT(bytes <= limit && (int64_t)gk__stencil_smem_cfg(&full, (int)t) == bytes);
        }
        /* the one-plane-wide formula of gk__stencil_smem_bytes (RX=1, two
         * input planes) is a lower bound of it */
        int64_t smem = (design == 0 ? 4 : design == 1 ? 2 : 2 * ts) * (bx + 2) * (by * ry + 2) * 8;
        FUZZ_ASSERT(smem <= limit);
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
