/* gk.c - the gk command: parse the subcommand, hand over to cmd_*. */
#include "cli/cli.h"

#include <string.h>

static void usage(void)
{
    printf("Usage: gk COMMAND [OPTION]... [ARG]...\n"
           "Run all-pairs shortest paths and a 27-point 3D stencil on the GPU or CPU.\n\n"
           "Commands:\n"
           "  info [--json]                  build, CPU topology, GPUs, tuning cache\n"
           "  apsp [OPTION]... INPUT OUTPUT  all-pairs shortest paths (NTHU format)\n"
           "  stencil --size=N [OPTION]...   27-point fp64 stencil sweeps\n"
           "  gen apsp|grid [OPTION]... OUT  generate a random graph or grid\n"
           "  bench apsp|stencil [OPTION]... time the GPU kernels against baselines\n\n"
           "  --help     display this help and exit\n"
           "  --version  output version information and exit\n\n"
           "'gk COMMAND --help' describes a command's options.  Tune once per machine\n"
           "with gktune(1); gk then uses the cached configurations.\n"
           "Report bugs to <%s>.\n", PACKAGE_BUGREPORT);
}

int main(int argc, char **argv)
{
    cli_prog = "gk";
    cli_cleanup_on_signals();
    if (argc < 2)
        cli_usage_error("missing command");
    const char *c = argv[1];
    if (!strcmp(c, "--help") || !strcmp(c, "-h")) { usage(); return 0; }
    if (!strcmp(c, "--version") || !strcmp(c, "-V")) { cli_version(); return 0; }
    if (!strcmp(c, "info")) return cmd_info(argc - 1, argv + 1);
    if (!strcmp(c, "apsp")) return cmd_apsp(argc - 1, argv + 1);
    if (!strcmp(c, "stencil")) return cmd_stencil(argc - 1, argv + 1);
    if (!strcmp(c, "gen") || !strcmp(c, "bench")) {
        int gen = c[0] == 'g';
        if (argc < 3)
            cli_usage_error("'%s' needs a kind: %s", c, gen ? "apsp or grid" : "apsp or stencil");
        const char *k = argv[2];
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            printf("Usage: gk %s %s [OPTION]... %s\n'gk %s KIND --help' lists the options.\n",
                   c, gen ? "apsp|grid" : "apsp|stencil", gen ? "OUTPUT" : "", c);
            return 0;
        }
        if (gen && !strcmp(k, "apsp")) return cmd_gen_apsp(argc - 2, argv + 2);
        if (gen && !strcmp(k, "grid")) return cmd_gen_grid(argc - 2, argv + 2);
        if (!gen && !strcmp(k, "apsp")) return cmd_bench_apsp(argc - 2, argv + 2);
        if (!gen && !strcmp(k, "stencil")) return cmd_bench_stencil(argc - 2, argv + 2);
        cli_usage_error("unknown kind '%s' for '%s'", k, c);
    }
    cli_usage_error("unknown command '%s'", c);
}
