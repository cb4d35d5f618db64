/* test_errors.c - status names, per-thread messages, backend parsing. */
#include "gk.h"
#include "tap.h"

#include <string.h>

int main(void)
{
    no_plan();
    for (int s = GK_OK; s <= GK_ENEGCYCLE; s++)
        ok(gk_strerror((gk_status)s) && strcmp(gk_strerror((gk_status)s), "unknown status"),
           "status %d has a name: %s", s, gk_strerror((gk_status)s));
    gk_backend b;
    ok(gk_backend_parse("cpu", &b) == GK_OK && b == GK_BACKEND_CPU, "cpu parses");
    ok(gk_backend_parse("gpu", &b) == GK_OK && b == GK_BACKEND_GPU, "gpu parses");
    ok(gk_backend_parse("auto", &b) == GK_OK && b == GK_BACKEND_AUTO, "auto parses");
    ok(gk_backend_parse("tpu", &b) == GK_EINVAL && strstr(gk_last_error(), "tpu"), "tpu is refused, message names it");
    gk_context *ctx = NULL;
    gk_context_options o;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_CPU;
    ok(gk_context_create(&ctx, &o) == GK_OK && gk_context_backend(ctx) == GK_BACKEND_CPU
       && gk_context_gpu_count(ctx) == 0, "a CPU context is a CPU context");
    gk_context_destroy(ctx);
    char why[256];
    int usable = gk_gpu_usable(why, sizeof why);
    o.backend = GK_BACKEND_AUTO;
    gk_status st = gk_context_create(&ctx, &o);
    ok(st == GK_OK && gk_context_backend(ctx) == (usable ? GK_BACKEND_GPU : GK_BACKEND_CPU),
       "auto follows gk_gpu_usable (%d)", usable);
    ok(usable ? !*gk_context_backend_note(ctx) : !!strstr(gk_context_backend_note(ctx), why),
       "auto on the CPU says why: %s", gk_context_backend_note(ctx));
    gk_context_destroy(ctx);
    o.backend = GK_BACKEND_GPU;
    ctx = NULL;
    st = gk_context_create(&ctx, &o);
    ok(usable ? st == GK_OK : (st == GK_ENODEV && *gk_last_error() && !ctx), "gpu without a GPU fails with a reason");
    if (!usable) {   /* the message wraps the reason once, not a garbled copy of itself */
        const char *m = gk_last_error(), *again = strstr(m, "no GPU is usable");
        ok(again && !strstr(again + 1, "no GPU is usable") && strstr(m, why),
           "the message names the reason once: %s", m);
    }
    gk_context_destroy(ctx);
    /* GPU lists (GK_DEVICE and --gpus) */
    gk_context_options_init(&o);
    ok(gk_context_options_set_gpus(&o, "0,3,1") == GK_OK && o.ngpus == 3 && o.gpus[1] == 3, "a GPU list parses");
    ok(gk_context_options_set_gpus(&o, "0,0") == GK_EINVAL, "a GPU named twice is refused");
    ok(gk_context_options_set_gpus(&o, "1,") == GK_EINVAL && gk_context_options_set_gpus(&o, "") == GK_EINVAL
       && gk_context_options_set_gpus(&o, "-1") == GK_EINVAL && gk_context_options_set_gpus(&o, "99999999999") == GK_EINVAL,
       "malformed GPU lists are refused");
    int n = -1;
    st = gk_gpu_count(&n);
    ok(usable ? (st == GK_OK && n > 0) : (st == GK_ENODEV && n == 0), "gk_gpu_count agrees (%d)", n);
    gk_cpu_topology t;
    gk_cpu_topology_init(&t);
    st = gk_cpu_topology_get(&t);
    ok(st == GK_OK && t.pus >= 1 && t.omp_max_threads >= 1, "CPU topology: %d PUs", t.pus);
    if (t.from_hwloc)
        ok(t.cores >= 1 && t.cores <= t.pus && t.packages >= 1, "hwloc counts are consistent");
    char dir[512];
    ok(gk_cache_dir(dir, sizeof dir) == GK_OK && *dir, "cache dir: %s", dir);
    return done_testing();
}
