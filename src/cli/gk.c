/* gk.c - the gk command: parse the subcommand, hand over to cmd_*.  The
 * kernels come from src/kernels.def: `gk NAME`, `gk gen GEN`, `gk bench NAME`. */
#include "cli/cli.h"
#include "cli/cli_mpi.h"

#include <string.h>

typedef struct command {
    const char *name, *gen;
    int (*run)(int, char **), (*gen_run)(int, char **), (*bench)(int, char **);
} command;

static const command commands[] = {
#define GK_KERNEL(name, gen) { #name, gen, cmd_##name, cmd_gen_##name, cmd_bench_##name },
#include "kernels.def"
#undef GK_KERNEL
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(void)
{
    printf("Usage: gk COMMAND [OPTION]... [ARG]...\n"
           "Run all-pairs shortest paths, 2D/3D stencils, an fp32 matrix multiply\n"
           "and an elementwise kernel on the GPU or CPU.\n\n"
           "Commands:\n"
           "  info [--json]                  build, CPU topology, GPUs, tuning cache\n"
           "  apsp [OPTION]... INPUT OUTPUT  all-pairs shortest paths (NTHU, DIMACS .gr,\n"
           "                                 Matrix Market, edge lists, .npy)\n"
           "  path --predecessors=FILE FROM TO\n"
           "                                 the vertices of a shortest path\n"
           "  convert [OPTION]... IN OUT     a graph from one format to another\n"
           "  stencil --size=N [OPTION]...   stencil sweeps (27-point box; --stencil=DESC: others)\n"
           "  gemm --m=M --n=N --k=K [OPT]   fp32 matrix multiply C = A B\n"
           "  elementwise --size=XxY [OPT]   v += sqrtf(f(v) + 1) on a float matrix\n"
           "  gen apsp|grid|matrix|elementwise [OPTION]... OUT\n"
           "                                 generate a random input\n"
           "  bench apsp|stencil|gemm|elementwise [OPTION]...\n"
           "                                 time the kernels against baselines and\n"
           "                                 ceilings (cuBLAS, OpenBLAS when present)\n"
           "  bench plan [OPTION]...         the cost of many small GPU calls through\n"
           "                                 plans, against the kernels' own time\n\n"
           "  -h, --help     display this help and exit\n"
           "  -V, --version  output version information and exit\n\n"
           "'gk COMMAND --help' (or 'gk help COMMAND') describes a command's options.\n"
           "Tune once per machine with gktune(1); gk then uses the cached configurations.\n"
           "GK_DEVICE picks the GPU (default 0).\n"
           "Report bugs to <%s>.\n", PACKAGE_BUGREPORT);
}

static char cmdname[64];

static int run(int (*f)(int, char **), const char *a, const char *b, int argc, char **argv)
{
    snprintf(cmdname, sizeof cmdname, "gk %s%s%s", a, b ? " " : "", b ? b : "");
    cli_cmd = cmdname;
    return f(argc, argv);
}

static int gk_main(int argc, char **argv)
{
    cli_cleanup_on_signals();
    cli_fit_threads(argv);          /* before any OpenMP region: a limit is a warning, not libgomp's exit */
    /* under mpirun only: MPI, one communicator; rank 0 alone prints */
    if ((cli_comm = cli_mpi_start(&argc, &argv)) && cli_comm->rank != 0) {
        cli_quiet = 1;
        if (!freopen("/dev/null", "w", stdout))
            cli_die("cannot silence rank %d's standard output", cli_comm->rank);
    }
    if (argc < 2)
        cli_usage_error("missing command");
    if (!strcmp(argv[1], "help")) {     /* gk help [COMMAND [KIND]]: gk [COMMAND [KIND]] --help */
        static char help_opt[] = "--help";
        if (argc == 2) { usage(); return 0; }
        for (int i = 1; i + 1 < argc; i++) argv[i] = argv[i + 1];
        argv[argc - 1] = help_opt;
    }
    const char *c = argv[1];
    if (!strcmp(c, "--help") || !strcmp(c, "-h")) { usage(); return 0; }
    if (!strcmp(c, "--version") || !strcmp(c, "-V")) { cli_version(); return 0; }
    if (!strcmp(c, "info")) return run(cmd_info, "info", NULL, argc - 1, argv + 1);
    if (!strcmp(c, "convert")) return run(cmd_convert, "convert", NULL, argc - 1, argv + 1);
    if (!strcmp(c, "path")) return run(cmd_path, "path", NULL, argc - 1, argv + 1);
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(c, commands[i].name))
            return run(commands[i].run, c, NULL, argc - 1, argv + 1);
    if (!strcmp(c, "gen") || !strcmp(c, "bench")) {
        int gen = c[0] == 'g';
        char kinds[256] = "";
        for (int i = 0; i < NCOMMANDS; i++) {
            size_t l = strlen(kinds);
            snprintf(kinds + l, sizeof kinds - l, "%s%s", i ? "|" : "", gen ? commands[i].gen : commands[i].name);
        }
        if (argc < 3)
            cli_usage_error("'%s' needs a kind: %s", c, kinds);
        if (!gen)          /* not a kernel: the calls' cost (cmd_plan.c) */
            snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "|plan");
        const char *k = argv[2];
        if (!gen && !strcmp(k, "plan"))
            return run(cmd_bench_plan, c, k, argc - 2, argv + 2);
        /* with --stencil: the generated engine's bench (cmd_stencil_gen.c) */
        if (!gen && !strcmp(k, "stencil"))
            return run(cmd_bench_stencil_route, c, k, argc - 2, argv + 2);
        if (!strcmp(k, "--help") || !strcmp(k, "-h")) {
            printf("Usage: gk %s %s [OPTION]...%s\n'gk %s KIND --help' lists the options.\n",
                   c, kinds, gen ? " OUTPUT" : "", c);
            return 0;
        }
        for (int i = 0; i < NCOMMANDS; i++)
            if (!strcmp(k, gen ? commands[i].gen : commands[i].name))
                return run(gen ? commands[i].gen_run : commands[i].bench, c, k, argc - 2, argv + 2);
        cli_usage_error("unknown kind '%s' for '%s' (want %s)", k, c, kinds);
    }
    cli_usage_error("unknown command '%s'", c);
}

int main(int argc, char **argv)
{
    cli_prog = cli_cmd = "gk";
    cli_report_to(NULL);
    return cli_finish(gk_main(argc, argv));
}
