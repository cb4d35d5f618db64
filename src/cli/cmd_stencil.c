/* cmd_stencil.c - placeholder until the stencil commands land. */
#include "cli/cli.h"
int cmd_stencil(int argc, char **argv) { (void)argc; (void)argv; cli_die("stencil: not implemented yet"); }
int cmd_gen_grid(int argc, char **argv) { (void)argc; (void)argv; cli_die("gen grid: not implemented yet"); }
int cmd_bench_stencil(int argc, char **argv) { (void)argc; (void)argv; cli_die("bench stencil: not implemented yet"); }
