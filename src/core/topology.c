/* topology.c - CPU topology (hwloc when built with it, else the OS) and the
 * CPUs close to a PCI device. */
#include "core/internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef GK_HAVE_OPENMP
#include <omp.h>
#endif
#ifdef GK_HAVE_HWLOC
#include <hwloc.h>
#endif

static void read_cpu_model(char *buf, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    buf[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            char *p = strchr(line, ':');
            if (p) {
                p += 1 + strspn(p + 1, " \t");
                p[strcspn(p, "\n")] = '\0';
                snprintf(buf, n, "%s", p);
            }
            break;
        }
    }
    fclose(f);
}

#ifdef GK_HAVE_HWLOC
#include <pthread.h>

/* One topology per process, loaded on first use (with the important I/O
 * devices, for the CPUs close to a GPU): loading costs milliseconds, and
 * every context and every GPU query used to pay it again.  Kept for the
 * process's life (still reachable, not a leak). */
static hwloc_topology_t the_topo;
static int the_topo_ok;
static pthread_once_t the_topo_once = PTHREAD_ONCE_INIT;

static void load_topology(void)
{
    if (hwloc_topology_init(&the_topo) != 0)
        return;
    hwloc_topology_set_io_types_filter(the_topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
#if HWLOC_API_VERSION >= 0x00020100
    /* Only the PCI tree is needed (which CPUs are close to a GPU).  The GPU
     * vendors' components open their own libraries: hwloc's OpenCL plugin
     * starts NVIDIA's OpenCL driver, which cost every gk process 0.24-0.55 s
     * on the H200 machine against 0.01 s without them
     * (bench/topology-load.c, bench/apsp-results.md). */
    static const char *const gpu_components[] = { "opencl", "cuda", "nvml", "rsmi", "levelzero", "gl" };
    for (size_t i = 0; i < sizeof gpu_components / sizeof *gpu_components; i++)
        (void)hwloc_topology_set_components(the_topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, gpu_components[i]);
#endif
    if (hwloc_topology_load(the_topo) == 0)
        the_topo_ok = 1;
    else
        hwloc_topology_destroy(the_topo);
}

static hwloc_topology_t topology(void)
{
    pthread_once(&the_topo_once, load_topology);
    return the_topo_ok ? the_topo : NULL;
}
#endif

void gk_cpu_topology_init(gk_cpu_topology *t)
{
    memset(t, 0, sizeof *t);
    t->struct_size = sizeof *t;
}

gk_status gk_cpu_topology_get(gk_cpu_topology *out)
{
    gk_cpu_topology whole, *t = &whole;
    if (!out)
        return gk__fail(GK_EINVAL, "gk_cpu_topology_get: topo is NULL");
    gk_cpu_topology_init(t);
    read_cpu_model(t->model, sizeof t->model);
#ifdef GK_HAVE_OPENMP
    t->omp_max_threads = omp_get_max_threads();
#else
    t->omp_max_threads = 1;
#endif
#ifdef GK_HAVE_HWLOC
    hwloc_topology_t topo = topology();
    if (topo) {
        t->from_hwloc = 1;
        t->packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
        t->numa_nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
        t->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        t->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        return GK__STRUCT_OUT(out, whole, "gk_cpu_topology");
    }
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    t->pus = n > 0 ? (int)n : 1;
    t->packages = t->numa_nodes = t->cores = 0; /* unknown without hwloc */
    return GK__STRUCT_OUT(out, whole, "gk_cpu_topology");
}

void gk__pci_local_cpus(const char *busid, char *buf, size_t n)
{
    snprintf(buf, n, "unknown");
#ifdef GK_HAVE_HWLOC
    unsigned dom, bus, dev, fn;
    hwloc_topology_t topo = topology();
    if (!topo || sscanf(busid, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
        return;
    hwloc_obj_t pci = hwloc_get_pcidev_by_busid(topo, dom, bus, dev, fn);
    hwloc_obj_t anc = pci ? hwloc_get_non_io_ancestor_obj(topo, pci) : NULL;
    if (anc && anc->cpuset)
        hwloc_bitmap_list_snprintf(buf, n, anc->cpuset);
#else
    /* Linux exposes the same list hwloc would read. */
    char path[256], lower[64];
    size_t i;
    for (i = 0; busid[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)(busid[i] >= 'A' && busid[i] <= 'F' ? busid[i] + 32 : busid[i]);
    lower[i] = '\0';
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/local_cpulist", lower);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fgets(buf, (int)n, f))
            buf[strcspn(buf, "\n")] = '\0';
        fclose(f);
    }
#endif
}
