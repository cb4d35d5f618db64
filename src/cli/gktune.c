/* gktune.c - the gktune command: tune the kernels for this machine's GPU. */
#include "cli/cli.h"

#include <string.h>

static void usage(void)
{
    printf("Usage: gktune [OPTION]...\n"
           "Measure kernel variants on this machine's GPU, validate them against the CPU\n"
           "and cache the winners for gk.\n\n"
           "  --help     display this help and exit\n"
           "  --version  output version information and exit\n"
           "Report bugs to <%s>.\n", PACKAGE_BUGREPORT);
}

int main(int argc, char **argv)
{
    cli_prog = "gktune";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) { usage(); return 0; }
        if (!strcmp(argv[i], "--version")) { cli_version(); return 0; }
        cli_usage_error("unknown option '%s'", argv[i]);
    }
    char why[512];
    if (!gk_gpu_usable(why, sizeof why))
        cli_die("nothing to tune: %s", why);
    cli_die("tuning is not implemented yet");
}
