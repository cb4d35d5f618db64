/* test_apsp_write.c - gk_apsp_solve_write: the file it writes is byte for
 * byte gk_apsp_solve + gk_apsp_write_format's (raw and .npy, every
 * precision), dist holds the result, a failed write leaves no file and the
 * context usable.  On the GPU (when one is usable) the result comes back in
 * small chunks (GK_APSP_STAGE_BYTES) while the previous one is written. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "tap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef GK_HAVE_CUDA
/* src/gpu/apsp_gpu.h (which needs CUDA's headers): the staging chunk size */
gk_status gk__apsp_gpu_set_stage_bytes(size_t bytes);
#endif

static char dir[4096];

static int same_file(const char *a, const char *b)
{
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    int same = x && y;
    while (same) {
        int c = fgetc(x), d = fgetc(y);
        if (c != d) same = 0;
        if (c == EOF || d == EOF) break;
    }
    if (x) fclose(x);
    if (y) fclose(y);
    return same;
}

static int exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

static int no_temp_left(void)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '\\.tmp\\.'", dir);
    return system(cmd) != 0;
}

/* One context: every precision, raw and .npy, against the reference files. */
static void run(gk_context *ctx, const char *name, const int32_t *init, int32_t V, int want_overlap)
{
    size_t bytes = (size_t)V * V * sizeof(int32_t);
    int32_t *ref = malloc(bytes), *d = malloc(bytes);
    char rawref[4200], npyref[4200], out[4200];
    memcpy(ref, init, bytes);
    gk_apsp_options o = { 0, NULL, 32 };
    snprintf(rawref, sizeof rawref, "%s/ref.raw", dir);
    snprintf(npyref, sizeof npyref, "%s/ref.npy", dir);
    if (gk_apsp_solve(ctx, ref, V, &o, NULL) || gk_apsp_write_format(rawref, GK_FORMAT_AUTO, ref, V)
        || gk_apsp_write_format(npyref, GK_FORMAT_AUTO, ref, V)) {
        printf("Bail out! reference: %s\n", gk_last_error());
        exit(1);
    }
    /* the 16-bit path streams unless an entry is at its cap (an unreachable
     * pair, settled on the host first) */
    int64_t unreachable = 0;
    for (int64_t i = 0; i < (int64_t)V * V; i++)
        unreachable += ref[i] == GK_APSP_INF;
    int precs[] = { 32, 16, 0 };
    for (int p = 0; p < 3; p++)
        for (int npy = 0; npy < 2; npy++) {
            gk_apsp_options po = { 0, NULL, precs[p] };
            gk_apsp_write_report wr;
            memcpy(d, init, bytes);
            snprintf(out, sizeof out, "%s/out%s", dir, npy ? ".npy" : "");
            gk_status st = gk_apsp_solve_write(ctx, d, V, &po, out, GK_FORMAT_AUTO, NULL, &wr);
            ok(st == GK_OK && same_file(out, npy ? npyref : rawref) && memcmp(d, ref, bytes) == 0,
               "%s, precision %d, %s: the file == solve + write's, dist == the result %s", name, precs[p],
               npy ? "npy" : "raw", st ? gk_last_error() : "");
            int want = want_overlap && (precs[p] == 32 || unreachable == 0);
            ok(wr.overlapped == want && wr.write >= 0 && wr.wall >= wr.write,
               "%s, precision %d, %s: overlapped = %d (want %d; %lld unreachable pairs)", name, precs[p],
               npy ? "npy" : "raw", wr.overlapped, want, (long long)unreachable);
            unlink(out);
        }
    /* with the check: written after it passed, not streamed */
    {
        gk_apsp_options po = { 1, NULL, 0 };
        gk_apsp_write_report wr;
        memcpy(d, init, bytes);
        snprintf(out, sizeof out, "%s/checked", dir);
        gk_status st = gk_apsp_solve_write(ctx, d, V, &po, out, GK_FORMAT_NTHU, NULL, &wr);
        ok(st == GK_OK && same_file(out, rawref) && wr.overlapped == 0, "%s, --check: the same file, not streamed %s",
           name, st ? gk_last_error() : "");
        unlink(out);
    }
    /* failures: no file, no temp file, and the context still works */
    {
        gk_apsp_options po = { 0, NULL, 0 };
        memcpy(d, init, bytes);
        snprintf(out, sizeof out, "%s/no/such/dir", dir);
        gk_status st = gk_apsp_solve_write(ctx, d, V, &po, out, GK_FORMAT_NTHU, NULL, NULL);
        ok(st == GK_EIO && !exists(out) && no_temp_left(), "%s: a missing directory: %s", name, gk_last_error());
        if (access("/dev/full", W_OK) == 0) {
            memcpy(d, init, bytes);
            st = gk_apsp_solve_write(ctx, d, V, &po, "/dev/full", GK_FORMAT_NTHU, NULL, NULL);
            ok(st == GK_EIO && strstr(gk_last_error(), "No space left"), "%s: /dev/full: %s", name, gk_last_error());
        } else {
            skip("no writable /dev/full", "/dev/full");
        }
        memcpy(d, init, bytes);
        snprintf(out, sizeof out, "%s/after", dir);
        st = gk_apsp_solve_write(ctx, d, V, &po, out, GK_FORMAT_NTHU, NULL, NULL);
        ok(st == GK_OK && same_file(out, rawref), "%s: after the failures, the next solve writes the same file %s",
           name, st ? gk_last_error() : "");
        unlink(out);
        ok(gk_apsp_solve_write(ctx, d, V, &po, NULL, GK_FORMAT_NTHU, NULL, NULL) == GK_EINVAL,
           "%s: no path is refused", name);
        ok(gk_apsp_solve_write(ctx, d, V, &po, out, GK_FORMAT_MTX, NULL, NULL) == GK_EINVAL && !exists(out),
           "%s: a graph format is refused: %s", name, gk_last_error());
    }
    unlink(rawref);
    unlink(npyref);
    free(ref);
    free(d);
}

int main(void)
{
    no_plan();
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/gk-apsp-write.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        printf("Bail out! mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    const int32_t V = 333;   /* 333 rows: many chunks of 12345 bytes, the last one short */
    int32_t *init = malloc((size_t)V * V * sizeof *init);
    gk_apsp_random_matrix(init, V, 0.05, 14, 1000);
    gk_context_options o;
    gk_context *ctx;
    gk_context_options_init(&o);
    o.backend = GK_BACKEND_CPU;
    if (gk_context_create(&ctx, &o)) {
        printf("Bail out! CPU context: %s\n", gk_last_error());
        return 1;
    }
    run(ctx, "CPU", init, V, 0);
    /* the CPU's file, for the GPU's prepared solve below */
    char cpuref[4200];
    snprintf(cpuref, sizeof cpuref, "%s/cpu.raw", dir);
    int32_t *c = malloc((size_t)V * V * sizeof *c);
    memcpy(c, init, (size_t)V * V * sizeof *c);
    if (gk_apsp_solve(ctx, c, V, NULL, NULL) || gk_apsp_write(cpuref, c, V)) {
        printf("Bail out! CPU reference: %s\n", gk_last_error());
        return 1;
    }
    gk_context_destroy(ctx);
    char why[512];
    if (gk_gpu_usable(why, sizeof why)) {
#ifdef GK_HAVE_CUDA
        gk__apsp_gpu_set_stage_bytes(12345);      /* as GK_APSP_STAGE_BYTES=12345 */
#endif
        o.backend = GK_BACKEND_GPU;
        if (gk_context_create(&ctx, &o)) {
            printf("Bail out! GPU context: %s\n", gk_last_error());
            return 1;
        }
        run(ctx, "GPU", init, V, 1);
        /* gk_apsp_prepare's module and buffers taken by the solve (same V,
         * configuration and width), for both widths: the CPU's file */
        for (int p = 0; p < 2; p++) {
            gk_apsp_options po = { 0, NULL, p ? 32 : 0 };
            gk_apsp_write_report wr;
            char out[4200];
            snprintf(out, sizeof out, "%s/prepared", dir);
            memcpy(c, init, (size_t)V * V * sizeof *c);
            gk_status st = gk_apsp_prepare(ctx, V, &po);
            if (!st)
                st = gk_apsp_solve_write(ctx, c, V, &po, out, GK_FORMAT_NTHU, NULL, &wr);
            ok(st == GK_OK && wr.prepared == 1 && same_file(out, cpuref),
               "GPU, precision %d: gk_apsp_prepare, then the solve takes its buffers (%d) and writes the CPU's file %s",
               po.precision, wr.prepared, st ? gk_last_error() : "");
            unlink(out);
        }
        /* prepared for another V: not taken, still right */
        {
            gk_apsp_options po = { 0, NULL, 0 };
            gk_apsp_write_report wr;
            char out[4200];
            snprintf(out, sizeof out, "%s/prepared", dir);
            memcpy(c, init, (size_t)V * V * sizeof *c);
            gk_status st = gk_apsp_prepare(ctx, V + 1, &po);
            if (!st)
                st = gk_apsp_solve_write(ctx, c, V, &po, out, GK_FORMAT_NTHU, NULL, &wr);
            ok(st == GK_OK && wr.prepared == 0 && same_file(out, cpuref),
               "GPU: prepared for V + 1, solved for V: not taken, the CPU's file %s", st ? gk_last_error() : "");
            unlink(out);
        }
        gk_context_destroy(ctx);
    } else {
        skip(why, "GPU: no usable GPU");
    }
    unlink(cpuref);
    free(c);
    free(init);
    rmdir(dir);
    return done_testing();
}
