/* cmd_info.c - `gk info`: build configuration, CPU topology, CUDA devices and
 * the state of the tuning cache, as text or JSON. */
#include "cli/cli.h"

#include <string.h>
#include <sys/stat.h>

static void human(double b, char *buf, size_t n)
{
    const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int i = 0;
    while (b >= 1024 && i < 4) { b /= 1024; i++; }
    snprintf(buf, n, i ? "%.1f %s" : "%.0f %s", b, u[i]);
}

static void ver(int v, char *buf, size_t n) { snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10); }

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, 0, 'j' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    int json = 0, c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        if (c == 'j') json = 1;
        else if (c == 'h') {
            printf("Usage: gk info [--json]\nPrint the build configuration, the CPU topology, "
                   "each CUDA device and the\ntuning cache.\n\n"
                   "  --json         print the same as one JSON object\n"
                   "  -h, --help     display this help and exit\n");
            return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    gk_context *ctx = cli_context_lenient(GK_BACKEND_AUTO);

    const gk_build_info *b = gk_build_info_get();
    gk_cpu_topology t;
    gk_cpu_topology_init(&t);
    gk_cpu_topology_get(&t);
    int ndev = 0;
    char nodev[1024] = "";
    if (gk_gpu_count(&ndev) != GK_OK)
        snprintf(nodev, sizeof nodev, "%s", gk_last_error());
    char cache[4096], state[4400], lines[8192];
    snprintf(cache, sizeof cache, "%s", *gk_context_cache_dir(ctx) ? gk_context_cache_dir(ctx)
                                        : "(none: set GK_CACHE_DIR or HOME)");
    gk__tune_cache_text(ctx, state, sizeof state, lines, sizeof lines);
    /* Which configuration each kernel runs with now, at a typical size. */
    static const struct { const char *kernel; int64_t size; } kernels[] = { { "apsp", 16384 }, { "stencil", 512 },
                                                                            { "gemm", 4096 }, { "elementwise", 8192 } };
    enum { NK = sizeof kernels / sizeof kernels[0] };
    gk_config_source ksrc[NK];
    char kdetail[NK][1024], kcfgtext[NK][512];
    for (int i = 0; i < NK; i++) {
        gk_tune_select(ctx, kernels[i].kernel, kernels[i].size, kcfgtext[i], sizeof kcfgtext[i], &ksrc[i], kdetail[i],
                       sizeof kdetail[i]);
        if (!*kcfgtext[i])
            snprintf(kcfgtext[i], sizeof kcfgtext[i], "%s", ksrc[i] == GK_CONFIG_NONE ? "-" : "(kernel defaults)");
    }

    if (json) {
        json_begin();
        json_str("version", b->version);
        json_object("build");
        json_str("cc", b->cc); json_str("configure_args", b->configure_args);
        json_bool("openmp", b->has_openmp); json_bool("hwloc", b->has_hwloc);
        json_str("cuda", b->cuda); json_str("cuda_archs", b->cuda_archs); json_str("nvrtc", b->nvrtc);
        json_object_end();
        json_object("cpu");
        json_str("model", t.model); json_str("source", t.from_hwloc ? "hwloc" : "os");
        json_int("packages", t.packages); json_int("numa_nodes", t.numa_nodes);
        json_int("cores", t.cores); json_int("pus", t.pus); json_int("omp_max_threads", t.omp_max_threads);
        json_object_end();
        json_array("gpus");
        for (int i = 0; i < ndev; i++) {
            gk_device_info d;
            gk_device_info_init(&d);
            if (gk_gpu_info(i, &d) != GK_OK) continue;
            json_object(NULL);
            json_int("ordinal", i); json_str("name", d.name);
            char cc[16]; snprintf(cc, sizeof cc, "%d.%d", d.cc_major, d.cc_minor);
            json_str("compute_capability", cc); json_int("sm_count", d.sm_count);
            json_int("total_mem", (long long)d.total_mem); json_int("clock_khz", d.clock_khz);
            json_int("mem_clock_khz", d.mem_clock_khz); json_int("mem_bus_bits", d.mem_bus_bits);
            json_int("smem_per_block", (long long)d.smem_per_block);
            json_int("smem_per_block_optin", (long long)d.smem_per_block_optin);
            json_int("smem_per_sm", (long long)d.smem_per_sm); json_int("l2_bytes", d.l2_bytes);
            json_int("regs_per_sm", d.regs_per_sm);
            json_int("driver_version", d.driver_version); json_int("runtime_version", d.runtime_version);
            json_str("pci_bus_id", d.pci_bus_id); json_str("local_cpus", d.local_cpus);
            json_object_end();
        }
        json_array_end();
        if (!ndev) json_str("gpu_status", nodev);
        json_str("data_dir", gk_context_data_dir(ctx));
        json_object("tuning_cache");
        json_str("dir", cache);
        json_str("state", state);
        json_object_end();
        json_array("configs");
        for (int i = 0; i < NK; i++) {
            json_object(NULL);
            json_str("kernel", kernels[i].kernel); json_int("size", kernels[i].size);
            json_str("source", gk_config_source_name(ksrc[i])); json_str("config", kcfgtext[i]);
            json_str("detail", kdetail[i]);
            json_object_end();
        }
        json_array_end();
        json_end();
        gk_context_destroy(ctx);
        return 0;
    }

    printf("gk %s\n\nBuild\n", b->version);
    printf("  C compiler     %s\n", b->cc);
    printf("  configure      %s\n", *b->configure_args ? b->configure_args : "(no arguments)");
    printf("  OpenMP         %s\n", b->openmp);
    printf("  hwloc          %s\n", b->hwloc);
    printf("  CUDA toolkit   %s\n", b->cuda);
    printf("  architectures  %s\n", b->cuda_archs);
    printf("  NVRTC          %s\n", b->nvrtc);
#ifdef GK_HAVE_MPI
    printf("  MPI            yes (started only under mpirun)\n");
#else
    printf("  MPI            no\n");
#endif
    printf("\nCPU\n  model          %s\n", *t.model ? t.model : "unknown");
    if (t.from_hwloc)
        printf("  topology       %d package(s), %d NUMA node(s), %d core(s), %d PU(s) (hwloc)\n",
               t.packages, t.numa_nodes, t.cores, t.pus);
    else
        printf("  topology       %d PU(s) (from the OS; built without hwloc)\n", t.pus);
    printf("  OpenMP threads %d\n", t.omp_max_threads);
    printf("\nGPUs\n");
    if (!ndev)
        printf("  none: %s\n  gk runs on the CPU.\n", nodev);
    for (int i = 0; i < ndev; i++) {
        gk_device_info d;
        gk_device_info_init(&d);
        char m1[32], m2[32], m3[32], m4[32], m5[32], dv[16], rv[16];
        if (gk_gpu_info(i, &d) != GK_OK) {
            printf("  %d: %s\n", i, gk_last_error());
            continue;
        }
        human((double)d.total_mem, m1, sizeof m1);
        human((double)d.smem_per_block, m2, sizeof m2);
        human((double)d.smem_per_block_optin, m3, sizeof m3);
        human((double)d.smem_per_sm, m4, sizeof m4);
        human((double)d.l2_bytes, m5, sizeof m5);
        ver(d.driver_version, dv, sizeof dv);
        ver(d.runtime_version, rv, sizeof rv);
        printf("  %d: %s\n", i, d.name);
        printf("     compute capability %d.%d (sm_%d%d), %d SMs, %s memory\n",
               d.cc_major, d.cc_minor, d.cc_major, d.cc_minor, d.sm_count, m1);
        printf("     clocks: SM %d MHz, memory %d MHz, %d-bit bus\n",
               d.clock_khz / 1000, d.mem_clock_khz / 1000, d.mem_bus_bits);
        printf("     shared memory %s per block (%s opt-in), %s per SM; L2 %s; %d registers per SM\n",
               m2, m3, m4, m5, d.regs_per_sm);
        printf("     driver %s, runtime %s; PCI %s; close CPUs %s\n", dv, rv, d.pci_bus_id, d.local_cpus);
    }
    printf("\nTuning cache\n  directory      %s\n  state          %s\n", cache, state);
    {   /* before `make install` the tables are not there yet: say so */
        char tdir[4200];
        struct stat sb;
        snprintf(tdir, sizeof tdir, "%s/tuned", gk_context_data_dir(ctx));
        printf("  shipped tables %s%s\n", tdir, stat(tdir, &sb) == 0 && S_ISDIR(sb.st_mode) ? ""
               : " (not there: installed by `make install`; GK_DATA_DIR=<source>/data to use them before)");
    }
    for (char *l = strtok(lines, "\n"); l; l = strtok(NULL, "\n"))
        printf("    %s\n", l);
    printf("\nConfigurations in use\n");
    for (int i = 0; i < NK; i++)
        printf("  %-11s n=%-6lld %s: %s%s%s\n", kernels[i].kernel, (long long)kernels[i].size,
               gk_config_source_name(ksrc[i]), kcfgtext[i], kdetail[i][0] ? "\n                " : "", kdetail[i]);
    gk_context_destroy(ctx);
    return 0;
}
