/* test_tune_cachefs.c - the tuning cache directory cannot be turned against
 * its owner (src/tune/cachefs.c, issue 29), without a GPU: the directory's
 * checks (created 0700; refused when writable by others, group, or under a
 * directory writable by others that is not sticky; its links resolved); no
 * link followed for the cache, the lock or a write (a canary file behind each
 * link stays as it was, a dangling link creates nothing); a FIFO refused at
 * once, not waited on (each such call runs in a child under an alarm, so
 * that a call that blocks fails the test instead of hanging it); files over
 * the size limit refused without being read; other users' files refused
 * (when run as root, which can make them); gk's choice of a configuration
 * ignores an unsafe cache and says why. */
#include "tune/tune.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char top[] = "/tmp/gk-test-cachefs-XXXXXX";
static char canary[PATH_MAX];
static const char canary_text[] = "canary: not gk's\n";

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) { diag("%s: %s", path, strerror(errno)); return; }
    fputs(text, f);
    fclose(f);
}

/* The canary is still a regular file with its own text. */
static int canary_intact(void)
{
    char buf[64] = "";
    struct stat sb;
    FILE *f = fopen(canary, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return lstat(canary, &sb) == 0 && S_ISREG(sb.st_mode) && !strcmp(buf, canary_text);
}

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

static int mode_of(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0 ? (int)(sb.st_mode & 07777) : -1;
}

/* A fresh directory under top, mode m. */
static const char *fresh(const char *name, mode_t m)
{
    static char p[4][PATH_MAX];
    static int k;
    char *d = p[k++ % 4];
    snprintf(d, PATH_MAX, "%s/%s", top, name);
    mkdir(d, 0700);
    chmod(d, m);
    return d;
}

/* ---- calls that must not block, each in a child under an alarm ---- */

typedef int (*probe_fn)(const char *path);

/* 1 when fn(path) returned nonzero within 20 s in a child process; a call
 * that blocks is ended by the alarm and counts as a failure. */
static int bounded(probe_fn fn, const char *path)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(20);
        _exit(fn(path) ? 0 : 1);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFSIGNALED(status))
        diag("the call blocked (ended by signal %d)", WTERMSIG(status));
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int load_refuses_fifo(const char *path)
{
    gk_cache c;
    int r = gk__cache_read(path, 1, &c);
    diag("%s", gk_last_error());
    return r == GK_CFILE_REFUSED && strstr(gk_last_error(), "a FIFO") && strstr(gk_last_error(), path);
}

static int lock_refuses_fifo(const char *dir)
{
    int fd = -1;
    gk_status st = gk__cache_lock(dir, &fd);
    diag("%s", gk_last_error());
    return st == GK_ECACHE && fd < 0 && strstr(gk_last_error(), "a FIFO");
}

static int open_write_refuses_fifo(const char *path)
{
    int fd = -1;
    gk_status st = gk__cache_open_write(path, O_WRONLY | O_APPEND, &fd);
    return st == GK_ECACHE && fd < 0 && strstr(gk_last_error(), "a FIFO");
}

/* ---- gk's choice of a configuration from the cache ---- */

static gk_device_info dev;
static char sel_detail[1024];
static gk_config_source sel_src;

static int select_vadd(const char *cache_dir)
{
    gk_config cfg;
    sel_detail[0] = '\0';
    gk_status st = gk__tune_select(&dev, cache_dir, NULL, "vadd", 1 << 20, &cfg, &sel_src, sel_detail,
                                   sizeof sel_detail);
    return st == GK_OK;
}

static int select_ignores_fifo(const char *cache_dir)
{
    return select_vadd(cache_dir) && sel_src == GK_CONFIG_DEFAULT && strstr(sel_detail, "a FIFO");
}

static int select_shipped_fifo(const char *data_dir)
{
    gk_config cfg;
    gk_status st = gk__tune_select(&dev, NULL, data_dir, "vadd", 1 << 20, &cfg, &sel_src, sel_detail,
                                   sizeof sel_detail);
    return st == GK_OK && sel_src == GK_CONFIG_DEFAULT;
}

int main(void)
{
    no_plan();
    if (!mkdtemp(top)) { ok(0, "mkdtemp"); return done_testing(); }
    snprintf(canary, sizeof canary, "%s/canary", top);
    write_text(canary, canary_text);
    int root = geteuid() == 0;
    char real[PATH_MAX], p[PATH_MAX], q[PATH_MAX];
    gk_status st;

    /* ---- the directory ---- */
    snprintf(p, sizeof p, "%s/new/deeper", top);
    st = gk__cache_dir_check(p, 1, real, sizeof real);
    snprintf(q, sizeof q, "%s/new", top);
    ok(st == GK_OK && mode_of(p) == 0700 && mode_of(q) == 0700, "a missing cache directory is made 0700, "
       "with its missing parents (%o, %o)", mode_of(p), mode_of(q));
    ok(!strcmp(real, p) || strstr(real, "/new/deeper"), "its resolved path: %s", real);
    snprintf(p, sizeof p, "%s/missing", top);
    ok(gk__cache_dir_check(p, 0, real, sizeof real) == GK_EIO && !exists(p), "a missing one is not made when reading");

    const char *d = fresh("open", 0777);
    st = gk__cache_dir_check(d, 1, real, sizeof real);
    ok(st == GK_ECACHE && strstr(gk_last_error(), d) && strstr(gk_last_error(), "writable by others")
       && strstr(gk_last_error(), "0777"), "a 0777 cache directory is refused: %s", gk_last_error());
    d = fresh("group", 0770);
    st = gk__cache_dir_check(d, 1, real, sizeof real);
    ok(st == GK_ECACHE && strstr(gk_last_error(), "writable by its group"), "0770 too: %s", gk_last_error());
    d = fresh("sticky", 01777);
    st = gk__cache_dir_check(d, 1, real, sizeof real);
    ok(st == GK_ECACHE && strstr(gk_last_error(), "writable by others"),
       "and a sticky 1777 one (others may still create names in it): %s", gk_last_error());
    d = fresh("open", 0777);
    snprintf(p, sizeof p, "%s/mine", d);
    mkdir(p, 0700);
    st = gk__cache_dir_check(p, 1, real, sizeof real);
    ok(st == GK_ECACHE && strstr(gk_last_error(), p) && strstr(gk_last_error(), d)
       && strstr(gk_last_error(), "above it is writable by others"),
       "a 0700 directory inside a 0777 one is refused, naming that one: %s", gk_last_error());
    d = fresh("sticky", 01777);
    snprintf(p, sizeof p, "%s/mine", d);
    mkdir(p, 0700);
    st = gk__cache_dir_check(p, 1, real, sizeof real);
    ok(st == GK_OK, "inside a sticky one (as /tmp) it is accepted: %s", st ? gk_last_error() : real);
    d = fresh("good", 0700);
    snprintf(p, sizeof p, "%s/link-to-good", top);
    symlink(d, p);
    st = gk__cache_dir_check(p, 1, real, sizeof real);
    ok(st == GK_OK && strstr(real, "/good") && !strstr(real, "link-to-good"),
       "a link to a good directory is followed once, and its resolved path used: %s", real);
    snprintf(p, sizeof p, "%s/link-to-open", top);
    symlink(fresh("open", 0777), p);
    ok(gk__cache_dir_check(p, 1, real, sizeof real) == GK_ECACHE, "a link to a 0777 one is refused: %s",
       gk_last_error());
    snprintf(p, sizeof p, "%s/plain-file", top);
    write_text(p, "x");
    ok(gk__cache_dir_check(p, 1, real, sizeof real) == GK_ECACHE && strstr(gk_last_error(), p),
       "a file where the directory should be is refused: %s", gk_last_error());
    if (root) {
        d = fresh("theirs", 0700);
        ok(chown(d, 12345, 12345) == 0 && gk__cache_dir_check(d, 1, real, sizeof real) == GK_ECACHE
           && strstr(gk_last_error(), "belongs to uid 12345"), "another user's directory is refused: %s",
           gk_last_error());
    } else {
        skip("not root: cannot give a directory to another user", "another user's directory is refused");
    }

    /* ---- files: no link followed ---- */
    d = fresh("files", 0700);
    gk_cache c;
    memset(&c, 0, sizeof c);
    snprintf(c.key, sizeof c.key, "device=\"Test\" cc=9.0");
    gk_cache_entry e = { 0 };
    snprintf(e.kernel, sizeof e.kernel, "vadd");
    e.size = 1000; e.source = 1; e.ms = 1; e.default_ms = 2;
    gk__config_parse("VADD_PER_THREAD=2,THREADS=256", &e.cfg);
    gk__cache_put(&c, &e);

    snprintf(p, sizeof p, "%s/tune-x.txt", d);
    symlink(canary, p);
    gk_cache r;
    ok(gk__cache_read(p, 1, &r) == GK_CFILE_REFUSED && strstr(gk_last_error(), p)
       && strstr(gk_last_error(), "symbolic link") && canary_intact(), "a cache that is a link is refused: %s",
       gk_last_error());
    ok(gk__cache_save(p, &c) == GK_OK && canary_intact(), "saving over a link leaves its target alone");
    struct stat sb;
    ok(lstat(p, &sb) == 0 && S_ISREG(sb.st_mode) && (sb.st_mode & 0777) == 0600 && gk__cache_load(p, &r) == GK_OK
       && r.n == 1, "and replaces the link itself by a 0600 cache file");
    snprintf(q, sizeof q, "%s/created-through-a-link", top);
    unlink(p);
    symlink(q, p);
    ok(gk__cache_save(p, &c) == GK_OK && !exists(q), "a dangling link creates nothing at its target");

    snprintf(p, sizeof p, "%s/tune.lock", d);
    symlink(canary, p);
    int fd = -1;
    st = gk__cache_lock(d, &fd);
    ok(st == GK_ECACHE && fd < 0 && strstr(gk_last_error(), "tune.lock") && canary_intact(),
       "a lock that is a link is refused, its target not truncated: %s", gk_last_error());
    unlink(p);
    symlink(q, p);
    st = gk__cache_lock(d, &fd);
    ok(st == GK_ECACHE && !exists(q), "a dangling link as the lock creates nothing: %s", gk_last_error());
    unlink(p);
    st = gk__cache_lock(d, &fd);
    ok(st == GK_OK && mode_of(p) == 0600, "a plain lock is made 0600 and taken");
    gk__cache_unlock(fd);

    snprintf(p, sizeof p, "%s/journal.csv", d);
    symlink(canary, p);
    ok(gk__cache_open_write(p, O_WRONLY | O_APPEND, &fd) == GK_ECACHE && fd < 0 && canary_intact(),
       "a journal that is a link is not appended to: %s", gk_last_error());
    unlink(p);

    snprintf(p, sizeof p, "%s/bad-link", d);
    symlink(canary, p);
    st = gk__cache_set_aside(p, q, sizeof q);
    ok(st == GK_OK && lstat(q, &sb) == 0 && S_ISLNK(sb.st_mode) && !exists(p) && canary_intact(),
       "setting a link aside moves the link, not its target");

    snprintf(p, sizeof p, "%s/cubins", d);
    symlink(fresh("good", 0700), p);
    ok(gk__cache_subdir(p) == GK_ECACHE && strstr(gk_last_error(), "symbolic link"),
       "a link in place of the cubins directory is refused: %s", gk_last_error());
    snprintf(p, sizeof p, "%s/cubins2", d);
    ok(gk__cache_subdir(p) == GK_OK && mode_of(p) == 0700, "the cubins directory is made 0700");

    /* ---- files: no FIFO waited on, nothing but regular files ---- */
    snprintf(p, sizeof p, "%s/fifo.txt", d);
    mkfifo(p, 0600);
    ok(bounded(load_refuses_fifo, p), "a FIFO as the cache is refused at once, not opened and waited on");
    ok(bounded(open_write_refuses_fifo, p), "and as the journal");
    const char *ld = fresh("lockfifo", 0700);
    snprintf(q, sizeof q, "%s/tune.lock", ld);
    mkfifo(q, 0600);
    ok(bounded(lock_refuses_fifo, ld), "and as the lock");
    ok(gk__cache_read(d, 1, &r) == GK_CFILE_REFUSED && strstr(gk_last_error(), "a directory"),
       "a directory as the cache is refused: %s", gk_last_error());

    /* ---- files: bounded reads ---- */
    snprintf(p, sizeof p, "%s/sparse.txt", d);
    fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int sparse = fd >= 0 && ftruncate(fd, (off_t)2 << 30) == 0;
    if (fd >= 0) close(fd);
    if (sparse) {
        ok(gk__cache_read(p, 1, &r) == GK_CFILE_TOOBIG && strstr(gk_last_error(), "2147483648 bytes")
           && strstr(gk_last_error(), "not read"), "a 2 GiB (sparse) cache is refused by its size: %s",
           gk_last_error());
    } else {
        skip("no sparse 2 GiB file here", "a 2 GiB cache is refused by its size");
    }
    unlink(p);
    {
        FILE *f = fopen(p, "w");
        fprintf(f, "gk-tune-cache 1\nkey x\n");
        for (int i = 1; i <= 5000; i++)
            fprintf(f, "entry kernel=vadd size=%d source=1 ms=1 default_ms=1 when=x config=THREADS=128\n", i);
        fclose(f);
        ok(gk__cache_read(p, 1, &r) == GK_CFILE_DAMAGED && strstr(gk_last_error(), "more than 64 entries"),
           "5000 entries: damaged, with the reason: %s", gk_last_error());
        write_text(p, "\x7f" "ELF garbage\n");
        ok(gk__cache_read(p, 1, &r) == GK_CFILE_DAMAGED && strstr(gk_last_error(), "not a gk tuning cache"),
           "garbage: damaged: %s", gk_last_error());
        write_text(p, "gk-tune-cache 1\n");
        ok(gk__cache_read(p, 1, &r) == GK_CFILE_DAMAGED && strstr(gk_last_error(), "no key line"),
           "truncated: damaged: %s", gk_last_error());
        char nul[] = "gk-tune-cache 1\nkey x\0entry\n";
        f = fopen(p, "w");
        fwrite(nul, 1, sizeof nul - 1, f);
        fclose(f);
        ok(gk__cache_read(p, 1, &r) == GK_CFILE_DAMAGED && strstr(gk_last_error(), "NUL"),
           "a NUL byte: damaged: %s", gk_last_error());
    }

    /* ---- files: the user's ---- */
    if (root) {
        gk__cache_save(p, &c);
        ok(chown(p, 12345, 12345) == 0 && gk__cache_read(p, 1, &r) == GK_CFILE_REFUSED
           && strstr(gk_last_error(), "belongs to uid 12345"), "another user's cache file is refused: %s",
           gk_last_error());
        ok(gk__cache_read(p, 0, &r) == GK_CFILE_OK && r.n == 1, "a shipped table need not be the user's");
        snprintf(q, sizeof q, "%s/tune.lock", d);
        unlink(q);
        write_text(q, "");
        ok(chown(q, 12345, 12345) == 0 && gk__cache_lock(d, &fd) == GK_ECACHE
           && strstr(gk_last_error(), "belongs to uid 12345"), "and another user's lock: %s", gk_last_error());
    } else {
        skip("not root: cannot give a file to another user", "another user's cache file is refused");
        skip("not root", "a shipped table need not be the user's");
        skip("not root", "another user's lock is refused");
    }

    /* ---- gk's choice of a configuration ---- */
    const gk_tunable *vadd = gk__tunable_find("vadd");
    if (!vadd) {
        skip("built without CUDA: no tunable kernel", "gk ignores an unsafe cache");
    } else {
        snprintf(dev.name, sizeof dev.name, "NVIDIA H200");
        dev.cc_major = 9; dev.sm_count = 132; dev.max_threads_per_block = 1024;
        dev.smem_per_block_optin = 227 * 1024; dev.regs_per_sm = 65536;
        char key[512];
        gk__tune_key(&dev, key, sizeof key);
        memset(&c, 0, sizeof c);
        snprintf(c.key, sizeof c.key, "%s", key);
        e.source = gk__tunable_source_hash(vadd);
        e.size = 1 << 20;
        gk__cache_put(&c, &e);
        d = fresh("select", 0700);
        gk__cache_path(d, key, p, sizeof p);
        gk__cache_save(p, &c);
        ok(select_vadd(d) && sel_src == GK_CONFIG_CACHE, "gk uses a cache in a safe directory: %s", sel_detail);
        chmod(d, 0777);
        ok(select_vadd(d) && sel_src == GK_CONFIG_DEFAULT && strstr(sel_detail, "tuning cache ignored")
           && strstr(sel_detail, "writable by others"), "and ignores it in a 0777 one, saying why: %s", sel_detail);
        chmod(d, 0700);
        unlink(p);
        symlink(canary, p);
        ok(select_vadd(d) && sel_src == GK_CONFIG_DEFAULT && strstr(sel_detail, "symbolic link"),
           "a link as the cache is ignored: %s", sel_detail);
        unlink(p);
        mkfifo(p, 0600);
        ok(bounded(select_ignores_fifo, d), "a FIFO as the cache is ignored at once");
        const char *dd = fresh("data", 0755);
        snprintf(q, sizeof q, "%s/tuned", dd);
        mkdir(q, 0755);
        char model[300];
        gk__tune_model(key, model, sizeof model);
        snprintf(q, sizeof q, "%s/tuned/%s.txt", dd, model);
        mkfifo(q, 0644);
        ok(bounded(select_shipped_fifo, dd), "and a FIFO as the shipped table");
    }

    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    ok(system(cmd) == 0, "cleanup");
    return done_testing();
}
