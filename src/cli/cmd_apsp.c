/* cmd_apsp.c - placeholder until the APSP commands land. */
#include "cli/cli.h"
int cmd_apsp(int argc, char **argv) { (void)argc; (void)argv; cli_die("apsp: not implemented yet"); }
int cmd_gen_apsp(int argc, char **argv) { (void)argc; (void)argv; cli_die("gen apsp: not implemented yet"); }
int cmd_bench_apsp(int argc, char **argv) { (void)argc; (void)argv; cli_die("bench apsp: not implemented yet"); }
