/* test_run_null_ctx.c - each gk_<kernel>_run given no context fails with
 * GK_EINVAL and a message naming the function the caller called (not the
 * gk_<kernel>_plan_create it calls inside), for every report argument
 * (none, or one to fill) and with nothing written to the data. */
#include "gk.h"
#include "tap.h"

#include <string.h>

/* The message is "FN: ctx is NULL", exactly. */
static int names(gk_status st, const char *fn)
{
    char want[128];
    snprintf(want, sizeof want, "%s: ctx is NULL", fn);
    int good = st == GK_EINVAL && !strcmp(gk_last_error(), want);
    if (!good)
        diag("status %d, message '%s', want '%s'", (int)st, gk_last_error(), want);
    return good;
}

int main(void)
{
    plan(10);
    for (int r = 0; r < 2; r++) {
        gk_report rep;
        gk_report_init(&rep);
        gk_report *report = r ? &rep : NULL;
        const char *with = r ? "with a report" : "without a report";

        int32_t d[4] = { 0, 5, 7, 0 };
        int32_t pred[4] = { 9, 9, 9, 9 };
        gk_apsp_problem ap;
        gk_apsp_problem_init(&ap, 2);
        ok(names(gk_apsp_run(NULL, &ap, d, NULL, report), "gk_apsp_run") && d[1] == 5,
           "gk_apsp_run, %s: named, the matrix untouched", with);
        ok(names(gk_apsp_run_paths(NULL, &ap, d, pred, NULL, report), "gk_apsp_run_paths") && pred[0] == 9,
           "gk_apsp_run_paths, %s: named, the predecessors untouched", with);

        double grid[27] = { 1 };
        gk_stencil_problem sp;
        gk_stencil_problem_init(&sp, 3, 3, 3);
        ok(names(gk_stencil_run(NULL, &sp, grid, 1, NULL, report), "gk_stencil_run") && grid[0] == 1,
           "gk_stencil_run, %s: named, the grid untouched", with);

        float a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 0, 0, 1 }, c[4] = { 0 };
        gk_gemm_problem gp;
        gk_gemm_problem_init(&gp, 2, 2, 2);
        ok(names(gk_gemm_run(NULL, &gp, a, b, c, NULL, report), "gk_gemm_run"), "gk_gemm_run, %s: named", with);

        float e[4] = { 1, 2, 3, 4 };
        gk_elementwise_problem ep;
        gk_elementwise_problem_init(&ep, 2, 2);
        ok(names(gk_elementwise_run(NULL, &ep, e, 1, NULL, report), "gk_elementwise_run") && e[0] == 1,
           "gk_elementwise_run, %s: named", with);
    }
    return done_testing();
}
