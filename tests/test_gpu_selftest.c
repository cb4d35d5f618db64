/* test_gpu_selftest.c - the GPU plumbing end to end: device query, embedded
 * fatbin, launch by handle, events, and a result checked on the CPU. */
#include "gk.h"
#include "api/commands.h"
#include "tap.h"
#include "test_api.h"

#include <string.h>

int main(void)
{
    char why[512];
    if (!gk_gpu_usable(why, sizeof why))
        skip_all("no CUDA device");
    no_plan();
    gk_device_info d;
    ok(t_gpu_info(0, &d) == GK_OK, "device 0 queried: %s", d.name);
    ok(d.sm_count > 0 && d.cc_major >= 5 && d.total_mem > 0, "sane properties: sm_%d%d, %d SMs",
       d.cc_major, d.cc_minor, d.sm_count);
    ok(d.driver_version > 0 && d.runtime_version > 0, "driver %d, runtime %d", d.driver_version, d.runtime_version);
    size_t sizes[] = { 1, 255, 256, 257, 1u << 20, (1u << 24) + 3 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        float ms = -1;
        gk_status st = gk__gpu_selftest(0, sizes[i], &ms);
        ok(st == GK_OK && ms >= 0, "vector add of %zu floats matches the CPU (%.3f ms) %s",
           sizes[i], (double)ms, st ? gk_last_error() : "");
    }
    ok(t_gpu_info(1000, &d) == GK_EINVAL && strstr(gk_last_error(), "1000"), "a missing ordinal is an error");
    return done_testing();
}
