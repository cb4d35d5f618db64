/* topology-load.c - what loading the hwloc topology costs a gk context, as
 * gk loads it (important I/O devices kept, for the CPUs close to a GPU),
 * with every component and with the GPU vendors' components left out
 * (they open the GPUs' own libraries; gk only needs the PCI tree).
 *   cc -O2 bench/topology-load.c -lhwloc -o topology-load && ./topology-load */
#include <hwloc.h>
#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void once(int blacklist)
{
    hwloc_topology_t t;
    double t0 = now();
    hwloc_topology_init(&t);
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
#if HWLOC_API_VERSION >= 0x00020100
    if (blacklist) {
        const char *c[] = { "cuda", "nvml", "opencl", "rsmi", "levelzero", "gl" };
        for (unsigned i = 0; i < sizeof c / sizeof *c; i++)
            hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, c[i]);
    }
#endif
    int r = hwloc_topology_load(t);
    double t1 = now();
    printf("%-28s load %s %.4f s, %d PCI devices, %d OS devices\n",
           blacklist ? "GPU components left out" : "every component", r ? "FAILED" : "ok", t1 - t0,
           hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PCI_DEVICE), hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_OS_DEVICE));
    hwloc_topology_destroy(t);
}

int main(void)
{
    printf("hwloc API 0x%x, library 0x%x\n", HWLOC_API_VERSION, hwloc_get_api_version());
    for (int i = 0; i < 3; i++) {
        once(0);
        once(1);
    }
    return 0;
}
