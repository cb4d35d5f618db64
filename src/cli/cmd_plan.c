/* cmd_plan.c - `gk bench plan`: what a call costs beyond its kernels when
 * an application calls gk many times on small GPU problems (a plan on
 * device memory, a plan on host memory, gk_<kernel>_run), around
 * gk__plan_bench. */
#include "cli/cli.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

enum { O_CALLS = 256, O_APSP, O_STENCIL, O_JSON };

static void plan_usage(void)
{
    printf("Usage: gk bench plan [--calls=N] [--apsp-size=V] [--stencil-size=N] [--json]\n"
           "Time many small calls on the GPU: an APSP solve of V vertices (default 512)\n"
           "and one stencil step on an N^3 grid (default 128), N calls each (default\n"
           "1000): through one plan on device memory (enqueued back to back, one wait\n"
           "at the end), through one plan on host memory (copies and a wait per call),\n"
           "and through gk_apsp_run / gk_stencil_run (a plan made and destroyed per call,\n"
           "at most 50 calls), against the kernels' own time (CUDA events) and one\n"
           "device-memory execution on the GPU's clock, measured in the same run.  Every\n"
           "path's result is compared with the first's.  Microseconds per call.\n\n"
           "  --calls=N          calls per path (1..100000)\n"
           "  --apsp-size=V      APSP vertices (1..8192; 0: no APSP row)\n"
           "  --stencil-size=N   stencil grid N^3 (1..512; 0: no stencil row)\n"
           "  --json             print the rows as JSON\n"
           "  -h, --help         display this help and exit\n");
}

int cmd_bench_plan(int argc, char **argv)
{
    static const struct option opts[] = {
        { "calls", required_argument, 0, O_CALLS }, { "apsp-size", required_argument, 0, O_APSP },
        { "stencil-size", required_argument, 0, O_STENCIL }, { "json", no_argument, 0, O_JSON },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    int calls = 1000, json = 0, c;
    int64_t size[2] = { 512, 128 };
    optind = 1;
    while ((c = cli_getopt(argc, argv, opts)) != -1) {
        switch (c) {
        case O_CALLS: calls = (int)cli_parse_i64("--calls", optarg, 1, 100000); break;
        case O_APSP: size[0] = cli_parse_i64("--apsp-size", optarg, 0, 8192); break;
        case O_STENCIL: size[1] = cli_parse_i64("--stencil-size", optarg, 0, 512); break;
        case O_JSON: json = 1; break;
        case 'h': plan_usage(); return 0;
        }
    }
    cli_operands(argc, argv, 0, "");
    gk_context *ctx = cli_context(GK_BACKEND_GPU);
    static const char *kernels[2] = { "apsp", "stencil" };
    gk__plan_bench_row rows[2];
    int n = 0;
    for (int k = 0; k < 2; k++) {
        if (!size[k])
            continue;
        gk_status st = gk__plan_bench(ctx, kernels[k], size[k], calls, &rows[n]);
        if (st)
            cli_die_status(st);
        n++;
    }
    gk_context_destroy(ctx);
    if (json) {
        json_begin();
        json_str("command", "bench plan");
        json_int("calls", calls);
        json_array("rows");
        for (int i = 0; i < n; i++) {
            const gk__plan_bench_row *r = &rows[i];
            json_object(NULL);
            json_str("kernel", r->kernel); json_str("problem", r->problem);
            json_str("device", r->device); json_str("config", r->config);
            json_int("calls", r->calls); json_int("run_calls", r->run_calls);
            json_num("kernel_us", r->kernel_us); json_num("exec_gpu_us", r->exec_gpu_us);
            json_num("device_us", r->device_us); json_num("host_us", r->host_us); json_num("run_us", r->run_us);
            json_num("api_overhead_us", r->api_overhead_us);
            json_num("overhead_us", r->overhead_us); json_num("run_overhead_us", r->run_overhead_us);
            if (r->grid_us >= 0) {
                json_num("grid_us", r->grid_us);
                json_num("grid_overhead_us", r->grid_us - r->kernel_us);
            }
            json_bool("identical", r->identical);
            json_object_end();
        }
        json_array_end();
        json_end();
        return 0;
    }
    if (n)
        printf("gk bench plan on %s: microseconds per call (%d calls; gk_*_run: %d)\n", rows[0].device, calls,
               rows[0].run_calls);
    printf("%-8s %-15s %9s %9s %10s %9s %9s %10s %10s %10s %5s\n", "kernel", "problem", "kernels", "exec GPU",
           "plan(dev)", "API ovh", "ovh", "plan(host)", "gk_*_run", "run ovh", "same");
    for (int i = 0; i < n; i++) {
        const gk__plan_bench_row *r = &rows[i];
        printf("%-8s %-15s %9.1f %9.1f %10.1f %9.2f %9.1f %10.1f %10.1f %10.1f %5s\n", r->kernel, r->problem,
               r->kernel_us, r->exec_gpu_us, r->device_us, r->api_overhead_us, r->overhead_us, r->host_us, r->run_us,
               r->run_overhead_us, r->identical ? "yes" : "NO");
    }
    for (int i = 0; i < n; i++)
        if (rows[i].grid_us >= 0)
            printf("%-8s %-15s plan(dev) on the plan's own grid (gk_stencil_plan_grid, no layout copies): "
                   "%.1f, ovh %.1f\n", rows[i].kernel, rows[i].problem, rows[i].grid_us,
                   rows[i].grid_us - rows[i].kernel_us);
    printf("kernels: the rounds or steps alone; exec GPU: one device-memory execution on the GPU's\n"
           "clock (with the copies into and out of gk's padded layout, if any); API ovh = plan(dev) -\n"
           "exec GPU: what the calls add; ovh = plan(dev) - kernels; run ovh = gk_*_run - kernels.\n");
    for (int i = 0; i < n; i++)
        if (!rows[i].identical)
            cli_die("bench plan %s: the paths' results differ", rows[i].kernel);
    return 0;
}
