/* fuzz_cache.c - gk__cache_load (the tuning cache and the shipped tables,
 * src/tune/cache.c) on arbitrary bytes.  A loaded cache has well-formed
 * entries, survives gk__cache_save and loads back the same; its stencil
 * configurations go through the space's constraints (as gk_tune_select
 * does); a refused file gets one line naming it. */
#include "fuzz.h"
#include "tune/tune.h"
#include "core/space.h"

#include <math.h>

static gk_cache c, back;       /* 40 KiB each: not on the stack */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, data, size);
    gk_status st = gk__cache_load(path, &c);
    if (st) {
        fuzz_check_message(st);
        FUZZ_ASSERT(strstr(gk_last_error(), path) != NULL);
        return 0;
    }
    FUZZ_ASSERT(c.n >= 0 && c.n <= GK_CACHE_MAX_ENTRIES);
    FUZZ_ASSERT(memchr(c.key, '\0', sizeof c.key) && c.key[0]);
    for (int i = 0; i < c.n; i++) {
        const gk_cache_entry *e = &c.e[i];
        FUZZ_ASSERT(memchr(e->kernel, '\0', sizeof e->kernel) && memchr(e->when, '\0', sizeof e->when));
        FUZZ_ASSERT(e->size >= 1 && e->ms > 0 && e->cfg.n >= 0 && e->cfg.n <= GK_CONFIG_MAX);
        FUZZ_ASSERT(gk__cache_nearest(&c, e->kernel, e->size, e->source) != NULL);
        gk_config full;
        char why[256];
        if (!strcmp(e->kernel, "stencil") && gk__space_complete(&gk__space_stencil, &e->cfg, &full) == GK_OK)
            (void)gk__space_stencil.reject(&full, NULL, why, sizeof why);
    }
    /* written out and read back: the same key and entries */
    const char *out = fuzz_path(1);
    st = gk__cache_save(out, &c);
    FUZZ_ASSERT(st == GK_OK);
    st = gk__cache_load(out, &back);
    FUZZ_ASSERT(st == GK_OK);
    FUZZ_ASSERT(back.n == c.n && !strcmp(back.key, c.key));
    for (int i = 0; i < c.n; i++) {
        const gk_cache_entry *a = &c.e[i], *b = &back.e[i];
        FUZZ_ASSERT(!strcmp(a->kernel, b->kernel) && a->size == b->size && a->source == b->source);
        FUZZ_ASSERT(a->cfg.n == b->cfg.n && !memcmp(&a->cfg, &b->cfg, sizeof a->cfg));
        FUZZ_ASSERT(fabs(a->ms - b->ms) <= 1e-5 * a->ms);
    }
    return 0;
}
