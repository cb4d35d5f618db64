/* cmd_apsp_types.c - the element types' rows of `gk bench apsp` (issue 24):
 * printing around gk__apsp_bench_types (src/api/apsp_bench.c).  Its own
 * file so that the bench command (cmd_apsp.c) only calls it. */
#include "cli/cli.h"

#include <stdio.h>

/* One size's rows: text (first: the header too) or, json, a "types" array
 * inside the caller's current JSON object.  Returns 1 when the int32
 * distances with and without predecessors disagree; dies on other errors. */
int cli_bench_apsp_types(gk_context *ctx, int64_t n, const char *config, int json, int first)
{
    gk__apsp_types_bench b;
    gk_status st = gk__apsp_bench_types(ctx, n, config, &b);
    if (st && st != GK_EMISMATCH)
        cli_die_status(st);
    if (json) {
        json_array("types");
        for (int i = 0; i < b.nrows; i++) {
            const gk__apsp_type_row *r = &b.row[i];
            json_object(NULL);
            json_str("type", r->name);
            json_num("seconds", r->seconds); json_num("tmps", r->tmps);
            json_num("ceiling_tmps", r->ceiling_tmps);
            json_num("percent_of_ceiling", r->ceiling_tmps > 0 ? 100 * r->tmps / r->ceiling_tmps : 0);
            json_num("vs_int32", r->vs_int32);
            json_object_end();
        }
        json_array_end();
        json_bool("types_identical", b.identical);
        return !b.identical;
    }
    if (first)
        printf("element types (tile 64; T/s = n^3 / seconds; ceiling = chains of the type's own add + min, same run)\n"
               "%7s %-13s %10s %10s %10s %10s %10s\n", "n", "type", "seconds", "T/s", "ceiling", "% ceiling",
               "vs int32");
    for (int i = 0; i < b.nrows; i++) {
        const gk__apsp_type_row *r = &b.row[i];
        printf("%7lld %-13s %10.4f %10.3f %10.2f %9.1f%% %9.2fx\n", (long long)n, r->name, r->seconds, r->tmps,
               r->ceiling_tmps, r->ceiling_tmps > 0 ? 100 * r->tmps / r->ceiling_tmps : 0, r->vs_int32);
    }
    printf("%7lld int32 distances with and without predecessors: %s\n", (long long)n,
           b.identical ? "identical" : "DIFFER");
    return !b.identical;
}
