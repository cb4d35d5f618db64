/* test_io.c - checked size arithmetic (core/checked.h) at its edge values;
 * grid functions refusing sizes that do not fit before touching memory;
 * outputs: unnamed temp files (no directory entry before close, none after
 * a SIGKILL mid-write), the named fallback and gk_remove_partial_outputs,
 * symlinks followed, modes kept; gk__output_check's rules. */
#define _GNU_SOURCE 1
#include "gk.h"
#include "core/checked.h"
#include "core/io.h"
#include "cpu/stencil_cpu.h"
#include "tap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];

/* Entries of dir (other than . and ..); the first one's name in first. */
static int entries(const char *d, char *first, size_t n)
{
    DIR *D = opendir(d);
    int k = 0;
    if (!D) return -1;
    for (struct dirent *e; (e = readdir(D));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (!k && first) snprintf(first, n, "%s", e->d_name);
        k++;
    }
    closedir(D);
    return k;
}

static void empty_dir(const char *d)
{
    DIR *D = opendir(d);
    char p[512];
    if (!D) return;
    for (struct dirent *e; (e = readdir(D));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", d, e->d_name);
        unlink(p);
    }
    closedir(D);
}

static int file_is(const char *path, const char *want, size_t n)
{
    char buf[256];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return got == n && !memcmp(buf, want, n);
}

static void test_mul(void)
{
    const uint64_t M = UINT64_MAX, P32 = (uint64_t)1 << 32, P63 = (uint64_t)1 << 63;
    uint64_t r;
    ok(!gk__mul_u64(0, M, &r) && r == 0, "0 * UINT64_MAX = 0");
    ok(!gk__mul_u64(M, 0, &r) && r == 0, "UINT64_MAX * 0 = 0");
    ok(!gk__mul_u64(1, M, &r) && r == M, "1 * UINT64_MAX fits");
    ok(!gk__mul_u64(P32, P32 - 1, &r) && r == P32 * (P32 - 1), "2^32 * (2^32-1) fits");
    ok(gk__mul_u64(P32, P32, &r), "2^32 * 2^32 overflows");
    ok(!gk__mul_u64(P63, 1, &r) && r == P63, "2^63 * 1 fits");
    ok(gk__mul_u64(P63, 2, &r), "2^63 * 2 overflows");
    ok(gk__mul_u64(M, M, &r), "UINT64_MAX * UINT64_MAX overflows");
    ok(gk__mul_u64(M, 2, &r), "UINT64_MAX * 2 overflows");
    ok(!gk__add_u64(M - 1, 1, &r) && r == M, "UINT64_MAX-1 + 1 fits");
    ok(gk__add_u64(M, 1, &r), "UINT64_MAX + 1 overflows");
    ok(gk__add_u64(P63, P63, &r), "2^63 + 2^63 overflows");
}

static void grid_ok(int64_t nx, int64_t ny, int64_t nz, uint64_t pts, uint64_t bytes)
{
    uint64_t p = 7, b = 7;
    gk_status st = gk__grid_bytes(nx, ny, nz, &p, &b);
    ok(st == GK_OK && p == pts && b == bytes, "grid %lldx%lldx%lld: %llu points, %llu bytes", (long long)nx,
       (long long)ny, (long long)nz, (unsigned long long)pts, (unsigned long long)bytes);
}

static void grid_bad(int64_t nx, int64_t ny, int64_t nz, const char *why)
{
    uint64_t p = 7, b = 7;
    gk_status st = gk__grid_bytes(nx, ny, nz, &p, &b);
    ok(st == GK_EINVAL && strstr(gk_last_error(), why) && !strchr(gk_last_error(), '\n') && p == 7 && b == 7,
       "grid %lldx%lldx%lld refused: %s", (long long)nx, (long long)ny, (long long)nz, gk_last_error());
}

static void test_grid_bytes(void)
{
    const int64_t G = (int64_t)1 << 30;
    grid_ok(0, 0, 0, 0, 0);
    grid_ok(0, G, G, 0, 0);
    grid_ok(1, 1, 1, 1, 8);
    grid_ok(G, (int64_t)1 << 29, 1, (uint64_t)1 << 59, (uint64_t)1 << 62);
    grid_ok((int64_t)1 << 32, 1, 1, (uint64_t)1 << 32, (uint64_t)1 << 35);
    grid_bad(G, G, 1, "do not fit in memory");       /* 2^60 points, 2^63 bytes > PTRDIFF_MAX */
    grid_bad(G, G, 2, "do not fit in memory");       /* 2^64 bytes: wrapped to 0 before */
    grid_bad(G, G, G, "point count does not fit");   /* 2^90 points */
    grid_bad((int64_t)1 << 32, (int64_t)1 << 32, 1, "point count does not fit");
    grid_bad(INT64_MAX, 1, 1, "do not fit in memory");
    grid_bad(INT64_MAX, INT64_MAX, INT64_MAX, "point count does not fit");
    grid_bad(-1, 1, 1, "negative");
}

static void test_grid_sizes(void)
{
    const int G = 1 << 30;
    char empty[300], out[300];
    snprintf(empty, sizeof empty, "%s/empty.bin", dir);
    snprintf(out, sizeof out, "%s/huge.bin", dir);
    FILE *f = fopen(empty, "wb");
    fclose(f);
    double buf[4] = { 1, 2, 3, 4 };
    /* 2^30 x 2^30 x 2 x 8 bytes wrapped to 0: an empty file was accepted
     * and the finiteness scan ran past the buffer. */
    gk_status st = gk_grid_read(empty, G, G, 2, buf);
    ok(st == GK_EINVAL && strstr(gk_last_error(), empty), "gk_grid_read 2^30x2^30x2 refused: %s", gk_last_error());
    st = gk_grid_read(empty, G, G, G, buf);
    ok(st == GK_EINVAL, "gk_grid_read 2^30 cube refused: %s", gk_last_error());
    st = gk_grid_read(empty, 0, 1, 1, buf);
    ok(st == GK_EINVAL, "gk_grid_read size 0 refused: %s", gk_last_error());
    st = gk_grid_write(out, G, G, 2, buf);
    ok(st == GK_EINVAL && access(out, F_OK) != 0, "gk_grid_write 2^30x2^30x2 refused, no file: %s",
       gk_last_error());
    gk_grid_random(buf, G, G, 2, 1);
    gk_grid_random(buf, G, G, G, 1);
    ok(buf[0] == 1 && buf[3] == 4, "gk_grid_random with a size that does not fit writes nothing");
    gk_grid_random(buf, 2, 2, 1, 1);
    ok(buf[0] != 1 && buf[3] != 4 && buf[0] >= -1 && buf[0] < 1, "gk_grid_random 2x2x1 fills");
    ok(gk__stencil_cpu_bytes(G, G, G) == UINT64_MAX, "gk_stencil_cpu_bytes saturates for 2^30 cube");
    ok(gk__stencil_cpu_bytes(G, G / 2, 1) == UINT64_MAX, "gk_stencil_cpu_bytes saturates for 2^30x2^29x1");
    is_int(gk__stencil_cpu_bytes(1, 1, 1), 2 * (16 * 3 * 3 + 8) * 8,
           "gk_stencil_cpu_bytes 1x1x1 (x pitch 8 + 8, 8 spare)");
    ok(gk_stencil_check_size(G, G, 2, 0) == GK_EINVAL, "check_size 2^30x2^30x2: %s", gk_last_error());
    ok(gk_stencil_check_size(G, G, G, 0) == GK_EINVAL, "check_size 2^30 cube: %s", gk_last_error());
    ok(gk_stencil_check_size(G, G / 2, 1, 0) == GK_EINVAL, "check_size 2^30x2^29x1 (padded): %s",
       gk_last_error());
    ok(gk_stencil_check_size(G, 1, 1, 0) == GK_OK, "check_size 2^30x1x1 fits");
    unlink(empty);
}

static int have_tmpfile(void)
{
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_WRONLY, 0600);
    if (fd < 0) return 0;
    close(fd);
    return 1;
#else
    return 0;
#endif
}

static void test_outputs(void)
{
    char sub[300], out[400], name[256];
    snprintf(sub, sizeof sub, "%s/o", dir);
    mkdir(sub, 0700);
    snprintf(out, sizeof out, "%s/out", sub);
    gk_outfile o;
    int tmpfile = have_tmpfile();

    /* Unnamed: nothing in the directory until the close. */
    gk_status st = gk__out_open(&o, out);
    ok(st == GK_OK, "open an output");
    st = gk__out_write(&o, "hello", 5);
    if (tmpfile)
        is_int(entries(sub, NULL, 0), 0, "O_TMPFILE: an open output has no directory entry");
    else
        skip("the filesystem has no O_TMPFILE", "an open output has no directory entry");
    st = gk__out_close(&o, st);
    ok(st == GK_OK && file_is(out, "hello", 5) && entries(sub, NULL, 0) == 1, "close: out has the data, alone");

    /* Replacing keeps the mode; a failure keeps the old file. */
    chmod(out, 0600);
    st = gk__write_file_atomic(out, "world", 5);
    struct stat sb;
    stat(out, &sb);
    ok(st == GK_OK && file_is(out, "world", 5) && (sb.st_mode & 07777) == 0600, "replaced, mode 0600 kept (%o)",
       (unsigned)(sb.st_mode & 07777));
    chmod(out, 0640);
    gk__out_open(&o, out);
    gk__out_write(&o, "partial", 7);
    st = gk__out_close(&o, GK_EIO);
    stat(out, &sb);
    ok(st == GK_EIO && file_is(out, "world", 5) && (sb.st_mode & 07777) == 0640 && entries(sub, NULL, 0) == 1,
       "a failed write keeps the old file and leaves no temp file");

    /* A symlink stays a link; its target gets the data. */
    char link[400], dlink[400], dtarget[400];
    snprintf(link, sizeof link, "%s/link", sub);
    snprintf(dlink, sizeof dlink, "%s/dangling", sub);
    snprintf(dtarget, sizeof dtarget, "%s/new", sub);
    ok(symlink("out", link) == 0, "symlink link -> out");
    st = gk__write_file_atomic(link, "via link", 8);
    ok(st == GK_OK && lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode) && file_is(out, "via link", 8),
       "writing a symlink keeps the link and replaces its target");
    ok(symlink("new", dlink) == 0, "symlink dangling -> new");
    st = gk__write_file_atomic(dlink, "created", 7);
    ok(st == GK_OK && lstat(dlink, &sb) == 0 && S_ISLNK(sb.st_mode) && file_is(dtarget, "created", 7),
       "writing a dangling symlink creates its target");
    empty_dir(sub);

    /* SIGKILL mid-write leaves nothing (the child waits on a pipe, killed
     * once it has written: no timing involved). */
    if (tmpfile) {
        int ready[2], hold[2];
        if (pipe(ready) || pipe(hold)) {
            ok(0, "pipes");
            return;
        }
        pid_t pid = fork();
        if (pid == 0) {
            gk_outfile c;
            static char big[1 << 16];
            close(ready[0]);
            close(hold[1]);
            if (gk__out_open(&c, out) || gk__out_write(&c, big, sizeof big))
                _exit(3);
            char x = 1;
            if (write(ready[1], &x, 1) != 1) _exit(4);
            if (read(hold[0], &x, 1) < 0) _exit(5);   /* blocks until killed */
            _exit(6);
        }
        close(ready[1]);
        close(hold[0]);
        char x = 0;
        ssize_t r = read(ready[0], &x, 1);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        close(ready[0]);
        close(hold[1]);
        ok(r == 1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && entries(sub, name, sizeof name) == 0,
           "SIGKILL mid-write leaves no output and no temp file");
    } else
        skip("the filesystem has no O_TMPFILE", "SIGKILL mid-write leaves no temp file");

    /* The named fallback: PATH.tmp.XXXXXX, removed by
     * gk_remove_partial_outputs (what the CLI's SIGINT/SIGTERM handler
     * calls) and by a failed close. */
    char tmp[4096];
    gk__out_temp_name(tmp, sizeof tmp, out, "tmp");
    st = gk__out_open_named(&o, out, tmp);
    gk__out_write(&o, "x", 1);
    name[0] = '\0';
    int k = entries(sub, name, sizeof name);
    ok(st == GK_OK && k == 1 && !strncmp(name, "out.tmp.", 8), "named fallback: one temp file %s", name);
    gk_remove_partial_outputs();
    is_int(entries(sub, NULL, 0), 0, "gk_remove_partial_outputs removes it");
    st = gk__out_close(&o, GK_EIO);
    ok(st == GK_EIO && entries(sub, NULL, 0) == 0, "and a failed close leaves nothing");
    gk__out_temp_name(tmp, sizeof tmp, out, "tmp");
    st = gk__out_open_named(&o, out, tmp);
    if (!st) st = gk__out_close(&o, gk__out_write(&o, "named", 5));
    ok(st == GK_OK && file_is(out, "named", 5) && entries(sub, NULL, 0) == 1, "named fallback commits");
    empty_dir(sub);
    rmdir(sub);
}

static void check_fails(const char *out, const char *in, const char *why)
{
    gk_status st = gk__output_check(out, in);
    ok(st != GK_OK && strstr(gk_last_error(), why) && !strchr(gk_last_error(), '\n'),
       "gk__output_check refuses %s: %s", out, gk_last_error());
}

static void test_output_check(void)
{
    char in[300], lnk[300], fifo[300], missing[300], fresh[300];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(lnk, sizeof lnk, "%s/in.link", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(missing, sizeof missing, "%s/nodir/out", dir);
    snprintf(fresh, sizeof fresh, "%s/fresh", dir);
    FILE *f = fopen(in, "wb");
    fputs("data", f);
    fclose(f);
    symlink("in", lnk);
    check_fails("", NULL, "empty output file name");
    check_fails(dir, NULL, "is a directory");
    check_fails(in, in, "is the input file");
    check_fails(lnk, in, "is the input file");
    check_fails(in, lnk, "is the input file");
    check_fails(missing, NULL, "cannot create");
    ok(gk__output_check(fresh, in) == GK_OK && access(fresh, F_OK) != 0, "a new file: fine, nothing created");
    ok(gk__output_check(in, NULL) == GK_OK, "an existing regular file: fine");
    ok(gk__output_check("-", in) == GK_OK, "'-' (standard output): fine");
    ok(gk__output_check("/dev/null", "/dev/null") == GK_OK, "/dev/null, also the input: fine");
    if (mkfifo(fifo, 0600) == 0)
        ok(gk__output_check(fifo, in) == GK_OK, "a FIFO: fine");
    else
        skip("mkfifo failed", "a FIFO: fine");
    unlink(fifo);
    unlink(lnk);
    unlink(in);
}

int main(void)
{
    no_plan();
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/gk-test-io.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(dir)) {
        printf("Bail out! mkdtemp: %s\n", strerror(errno));
        return 1;
    }
    test_mul();
    test_grid_bytes();
    test_grid_sizes();
    test_outputs();
    test_output_check();
    rmdir(dir);
    return done_testing();
}
