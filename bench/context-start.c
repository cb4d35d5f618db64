/* context-start.c - where a `gk apsp` process's start goes before its
 * compute: the hwloc topology, the CUDA driver's start, the device's
 * properties, the rest of gk_context_create, gk_apsp_plan_create (primary
 * context, module, device matrix, pinned buffers) - alone, and on a thread
 * while the main thread reads an NTHU input as `gk apsp` does.
 *   context-start [INPUT]      (built by bench/context-start.sh) */
#include <gk.h>

#include <pthread.h>
#include <stdio.h>

static double t_start;
static double T(void) { return gk__wtime() - t_start; }

static int32_t the_V = 25000;

static void *start(void *arg)
{
    (void)arg;
    gk_cpu_topology topo;
    gk_device_info info;
    gk_context *ctx;
    int n;
    double t0 = T();
    gk_cpu_topology_init(&topo);
    gk_cpu_topology_get(&topo);
    double t1 = T();
    gk_status s1 = gk_gpu_count(&n);
    double t2 = T();
    gk_device_info_init(&info);
    gk_status s2 = gk_gpu_info(0, &info);
    double t3 = T();
    gk_status s3 = gk_context_create(&ctx, NULL);
    double t4 = T();
    gk_apsp_problem prob;
    gk_apsp_plan *plan = NULL;
    gk_apsp_problem_init(&prob, the_V);
    gk_status s4 = s3 ? s3 : gk_apsp_plan_create(ctx, &prob, NULL, &plan);
    gk_apsp_plan_destroy(plan);
    double t5 = T();
    printf("  thread: topology %.4f | cuInit (gk_gpu_count) %.4f | gk_gpu_info %.4f | gk_context_create "
           "(again) %.4f | gk_apsp_plan_create(V=%d) %.4f | done at %.4f s%s\n", t1 - t0, t2 - t1, t3 - t2, t4 - t3,
           the_V, t5 - t4, t5, s1 || s2 || s3 || s4 ? "  (an error)" : "");
    if (!s3)
        gk_context_destroy(ctx);
    return NULL;
}

int main(int argc, char **argv)
{
    t_start = gk__wtime();
    if (argc < 2) {
        start(NULL);
        return 0;
    }
    pthread_t th;
    pthread_create(&th, NULL, start, NULL);
    gk__apsp_graph *g = NULL;
    double t0 = T();
    gk_status st = gk__apsp_graph_read(argv[1], GK_FORMAT_NTHU, 0, 0, &g);
    double t1 = T();
    pthread_join(th, NULL);
    printf("  main: read %s %.4f s (%s), joined at %.4f s\n", argv[1], t1 - t0, st ? "failed" : "ok", T());
    gk__apsp_graph_free(g);
    return 0;
}
