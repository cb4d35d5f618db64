/* space_defaults_main.c - `space-defaults KERNEL`: the nvcc flags that build
 * KERNEL's embedded fatbin with the defaults of its space (src/core/space_*.c),
 * e.g. "-DAPSP_TILE=128 -DAPSP_TM=8 ...", MAXRREG > 0 as --maxrregcount=N.
 * A build tool (not installed): the kernel sources have no defaults of their
 * own, so the space is the one place they are written. */
#include "core/space.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const gk_space *s = argc == 2 ? gk__space_find(argv[1]) : NULL;
    if (!s) {
        fprintf(stderr, "usage: space-defaults apsp|stencil|vadd%s%s%s\n", argc == 2 ? " (no kernel '" : "",
                argc == 2 ? argv[1] : "", argc == 2 ? "')" : "");
        return 2;
    }
    for (int j = 0; j < s->nparams; j++) {
        const gk_param_def *p = &s->params[j];
        if (!strcmp(p->name, "MAXRREG")) {
            if (p->def > 0)
                printf("%s--maxrregcount=%d", j ? " " : "", p->def);
        } else {
            printf("%s-D%s=%d", j ? " " : "", p->name, p->def);
        }
    }
    printf("\n");
    return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
