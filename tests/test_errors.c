/* test_errors.c - status names, per-thread messages, backend parsing. */
#include "gk.h"
#include "tap.h"

#include <string.h>

int main(void)
{
    no_plan();
    for (int s = GK_OK; s <= GK_EINTERNAL; s++)
        ok(gk_strerror((gk_status)s) && strcmp(gk_strerror((gk_status)s), "unknown status"),
           "status %d has a name: %s", s, gk_strerror((gk_status)s));
    gk_backend b;
    ok(gk_backend_parse("cpu", &b) == GK_OK && b == GK_BACKEND_CPU, "cpu parses");
    ok(gk_backend_parse("gpu", &b) == GK_OK && b == GK_BACKEND_GPU, "gpu parses");
    ok(gk_backend_parse("auto", &b) == GK_OK && b == GK_BACKEND_AUTO, "auto parses");
    ok(gk_backend_parse("tpu", &b) == GK_EINVAL && strstr(gk_last_error(), "tpu"), "tpu is refused, message names it");
    ok(gk_backend_resolve(GK_BACKEND_CPU, &b) == GK_OK && b == GK_BACKEND_CPU, "cpu resolves to cpu");
    char why[256];
    int usable = gk_gpu_usable(why, sizeof why);
    gk_status st = gk_backend_resolve(GK_BACKEND_AUTO, &b);
    ok(st == GK_OK && b == (usable ? GK_BACKEND_GPU : GK_BACKEND_CPU), "auto follows gk_gpu_usable (%d)", usable);
    st = gk_backend_resolve(GK_BACKEND_GPU, &b);
    ok(usable ? st == GK_OK : (st == GK_ENODEV && *gk_last_error()), "gpu without a GPU fails with a reason");
    int n = -1;
    st = gk_gpu_count(&n);
    ok(usable ? (st == GK_OK && n > 0) : (st == GK_ENODEV && n == 0), "gk_gpu_count agrees (%d)", n);
    gk_cpu_topology t;
    st = gk_cpu_topology_get(&t);
    ok(st == GK_OK && t.pus >= 1 && t.omp_max_threads >= 1, "CPU topology: %d PUs", t.pus);
    if (t.from_hwloc)
        ok(t.cores >= 1 && t.cores <= t.pus && t.packages >= 1, "hwloc counts are consistent");
    char dir[512];
    ok(gk_cache_dir(dir, sizeof dir) == GK_OK && *dir, "cache dir: %s", dir);
    return done_testing();
}
