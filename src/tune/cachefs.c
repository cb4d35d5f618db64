/* cachefs.c - the files of the tuning cache directory, opened so that the
 * directory cannot be turned against its owner (issue 29):
 *
 *   - the directory is used only when no one else can change it: it and every
 *     directory above it (symbolic links resolved) belong to the user or to
 *     root; it is not writable by group or others; a directory above it may
 *     be, when it is sticky (/tmp).  From then on its resolved path is used,
 *     so no link in the path is followed again;
 *   - a file in it is never reached through a symbolic link (O_NOFOLLOW), is
 *     opened without blocking (a FIFO in its place is refused, not waited on),
 *     must be a regular file owned by the user (fstat after the open), and is
 *     read only up to a limit (checked on the size before reading);
 *   - what gk creates there is the user's alone (0700 directories, 0600
 *     files), and a file is replaced through a temp file created with
 *     O_CREAT | O_EXCL | O_NOFOLLOW beside it, then renamed (which replaces a
 *     link, never its target).
 *
 * The same reading rules (not the owner) apply to the tables shipped in the
 * data directory. */
#include "tune/tune.h"
#include "core/rng.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- names */

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket"
         : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" : S_ISLNK(m) ? "a symbolic link"
         : "not a regular file";
}

/* The user and root may own what gk trusts (as ssh's StrictModes). */
static int trusted_owner(uid_t uid)
{
    return uid == geteuid() || uid == 0;
}

/* ---------------------------------------------------------------- the directory */

/* mkdir -p, each directory it creates 0700 (the XDG rule); existing ones are
 * left as they are. */
static gk_status mkdirs(const char *dir)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p)
        return gk__fail(GK_ECACHE, "%.100s...: path too long", dir);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST)
                return gk__fail(GK_ECACHE, "cannot create %s: %s", p, strerror(errno));
            *s = c;
            if (!c) break;
        }
    }
    return GK_OK;
}

/* A directory above the cache directory: the user's or root's, and not
 * writable by others unless sticky (where no one else may remove or rename
 * what the user put there). */
static gk_status check_ancestor(const char *dir, const char *real)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", real);
    for (;;) {
        char *slash = strrchr(p, '/');
        if (!slash) break;
        if (slash == p) { if (!p[1]) break; p[1] = '\0'; }
        else *slash = '\0';
        struct stat sb;
        if (stat(p, &sb) != 0)
            return gk__fail(GK_ECACHE, "%s: cannot check %s: %s", dir, p, strerror(errno));
        if (!trusted_owner(sb.st_uid))
            return gk__fail(GK_ECACHE, "%s: unsafe tuning cache directory: %s above it belongs to uid %ld "
                            "(not to you or root)", dir, p, (long)sb.st_uid);
        if ((sb.st_mode & (S_IWGRP | S_IWOTH)) && !(sb.st_mode & S_ISVTX))
            return gk__fail(GK_ECACHE, "%s: unsafe tuning cache directory: %s above it is writable by %s "
                            "(mode %04o, not sticky)", dir, p, sb.st_mode & S_IWOTH ? "others" : "its group",
                            (unsigned)(sb.st_mode & 07777));
        if (!strcmp(p, "/")) break;
    }
    return GK_OK;
}

gk_status gk__cache_dir_check(const char *dir, int create, char *real, size_t n)
{
    if (!dir || !*dir)
        return gk__fail(GK_ECACHE, "no tuning cache directory: set GK_CACHE_DIR or HOME");
    if (create) {
        gk_status st = mkdirs(dir);
        if (st) return st;
    }
    char r[PATH_MAX];
    if (!realpath(dir, r)) {
        if (errno == ENOENT)
            return gk__fail(GK_EIO, "%s: no such directory", dir);
        return gk__fail(GK_ECACHE, "%s: %s", dir, strerror(errno));
    }
    struct stat sb;
    if (stat(r, &sb) != 0)
        return gk__fail(GK_ECACHE, "%s: %s", dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return gk__fail(GK_ECACHE, "%s: not a directory", dir);
    if (!trusted_owner(sb.st_uid))
        return gk__fail(GK_ECACHE, "%s: unsafe tuning cache directory: it belongs to uid %ld (not to you or root)",
                        dir, (long)sb.st_uid);
    if (sb.st_mode & (S_IWGRP | S_IWOTH))
        return gk__fail(GK_ECACHE, "%s: unsafe tuning cache directory: writable by %s (mode %04o; chmod go-w it)",
                        dir, sb.st_mode & S_IWOTH ? "others" : "its group", (unsigned)(sb.st_mode & 07777));
    gk_status st = check_ancestor(dir, r);
    if (st) return st;
    if (strlen(r) >= n)
        return gk__fail(GK_ECACHE, "%s: path too long", dir);
    memcpy(real, r, strlen(r) + 1);
    return GK_OK;
}

gk_status gk__cache_subdir(const char *path)
{
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return gk__fail(GK_ECACHE, "cannot create %s: %s", path, strerror(errno));
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return gk__fail(GK_ECACHE, "%s: %s", path, strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return gk__fail(GK_ECACHE, "%s: %s, not a directory: refused", path, kind_of(sb.st_mode));
    if (sb.st_uid != geteuid())
        return gk__fail(GK_ECACHE, "%s: belongs to uid %ld, not to you: refused", path, (long)sb.st_uid);
    if (sb.st_mode & (S_IWGRP | S_IWOTH))
        return gk__fail(GK_ECACHE, "%s: writable by others (mode %04o): refused", path,
                        (unsigned)(sb.st_mode & 07777));
    return GK_OK;
}

/* ---------------------------------------------------------------- reading */

/* After open: a regular file (owned by the user when own), blocking again. */
static int check_open(int fd, const char *path, int own, struct stat *sb)
{
    if (fstat(fd, sb) != 0) {
        gk__fail(GK_ECACHE, "%s: %s", path, strerror(errno));
        return GK_CFILE_ERROR;
    }
    if (!S_ISREG(sb->st_mode)) {
        gk__fail(GK_ECACHE, "%s: %s, not a regular file: refused", path, kind_of(sb->st_mode));
        return GK_CFILE_REFUSED;
    }
    if (own && sb->st_uid != geteuid()) {
        gk__fail(GK_ECACHE, "%s: belongs to uid %ld, not to you: refused", path, (long)sb->st_uid);
        return GK_CFILE_REFUSED;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        gk__fail(GK_ECACHE, "%s: %s", path, strerror(errno));
        return GK_CFILE_ERROR;
    }
    return GK_CFILE_OK;
}

/* The reason an open with O_NOFOLLOW | O_NONBLOCK failed (a FIFO without a
 * reader refuses a writer with ENXIO: named as a FIFO). */
static int open_failed(const char *path, int e)
{
    struct stat sb;
    if (e == ENOENT) {
        gk__fail(GK_EIO, "%s: %s", path, strerror(e));
        return GK_CFILE_ABSENT;
    }
    if (e == ELOOP) {
        gk__fail(GK_ECACHE, "%s: a symbolic link: refused (gk follows no link here)", path);
        return GK_CFILE_REFUSED;
    }
    if ((e == ENXIO || e == ENODEV || e == EISDIR || e == EWOULDBLOCK) && lstat(path, &sb) == 0
        && !S_ISREG(sb.st_mode)) {
        gk__fail(GK_ECACHE, "%s: %s, not a regular file: refused", path, kind_of(sb.st_mode));
        return GK_CFILE_REFUSED;
    }
    gk__fail(GK_ECACHE, "%s: %s", path, strerror(e));
    return GK_CFILE_ERROR;
}

int gk__cache_open_read(const char *path, int own, int64_t max, int *fd, int64_t *size)
{
    *fd = -1;
    int f = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (f < 0)
        return open_failed(path, errno);
    struct stat sb;
    int r = check_open(f, path, own, &sb);
    if (r == GK_CFILE_OK && max >= 0 && (int64_t)sb.st_size > max) {
        gk__fail(GK_ECACHE, "%s: %lld bytes, over the limit of %lld: not read", path, (long long)sb.st_size,
                 (long long)max);
        r = GK_CFILE_TOOBIG;
    }
    if (r != GK_CFILE_OK) {
        close(f);
        return r;
    }
    *fd = f;
    if (size) *size = (int64_t)sb.st_size;
    return GK_CFILE_OK;
}

int gk__cache_read_all(const char *path, int own, int64_t max, char **buf, size_t *len)
{
    int fd;
    int64_t size;
    *buf = NULL;
    *len = 0;
    int r = gk__cache_open_read(path, own, max, &fd, &size);
    if (r != GK_CFILE_OK)
        return r;
    /* read one byte past the size: a file that grew past the limit since
     * fstat is still refused, and nothing beyond max + 1 is ever read */
    size_t cap = (size_t)size + 1;
    char *b = malloc(cap + 1);
    if (!b) {
        close(fd);
        gk__fail(GK_ENOMEM, "%s: no memory for %lld bytes", path, (long long)size);
        return GK_CFILE_ERROR;
    }
    size_t have = 0;
    while (have < cap) {
        ssize_t got = read(fd, b + have, cap - have);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            gk__fail(GK_ECACHE, "%s: read failed: %s", path, strerror(errno));
            free(b);
            close(fd);
            return GK_CFILE_ERROR;
        }
        if (got == 0) break;
        have += (size_t)got;
        if (max >= 0 && (int64_t)have > max) {
            gk__fail(GK_ECACHE, "%s: grew over the limit of %lld bytes while read", path, (long long)max);
            free(b);
            close(fd);
            return GK_CFILE_TOOBIG;
        }
        if (have == cap) {            /* it grew (within the limit): read on */
            char *nb = realloc(b, 2 * cap + 1);
            if (!nb) {
                gk__fail(GK_ENOMEM, "%s: no memory", path);
                free(b);
                close(fd);
                return GK_CFILE_ERROR;
            }
            b = nb;
            cap *= 2;
        }
    }
    close(fd);
    b[have] = '\0';
    *buf = b;
    *len = have;
    return GK_CFILE_OK;
}

/* ---------------------------------------------------------------- writing */

gk_status gk__cache_open_write(const char *path, int flags, int *fd)
{
    *fd = -1;
    int f = open(path, flags | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
    if (f < 0) {
        open_failed(path, errno);
        return GK_ECACHE;              /* (ENOENT too: a missing directory) */
    }
    struct stat sb;
    if (check_open(f, path, 1, &sb) != GK_CFILE_OK) {
        close(f);
        return GK_ECACHE;
    }
    *fd = f;
    return GK_OK;
}

/* The temp files being written now, for gk__cache_remove_temps (a signal
 * handler): a slot is claimed (1), filled, published (2), and released (0). */
#define TEMP_SLOTS 64
static volatile sig_atomic_t temp_state[TEMP_SLOTS];
static char temp_name[TEMP_SLOTS][4200];

static int temp_claim(const char *name)
{
    for (int i = 0; i < TEMP_SLOTS; i++) {
        int expect = 0;
        if (__atomic_compare_exchange_n((int *)&temp_state[i], &expect, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            snprintf(temp_name[i], sizeof temp_name[i], "%s", name);
            __atomic_store_n((int *)&temp_state[i], 2, __ATOMIC_SEQ_CST);
            return i;
        }
    }
    return -1;                        /* all taken: written untracked */
}

static void temp_release(int i)
{
    if (i >= 0) __atomic_store_n((int *)&temp_state[i], 0, __ATOMIC_SEQ_CST);
}

void gk__cache_remove_temps(void)
{
    int e = errno;
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (__atomic_load_n((int *)&temp_state[i], __ATOMIC_SEQ_CST) == 2)
            unlink(temp_name[i]);
    errno = e;
}

static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { if (w == 0) errno = EIO; return -1; }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

gk_status gk__cache_write_atomic(const char *path, const void *data, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static unsigned long counter;
    char tmp[4200];
    int fd = -1, slot = -1;
    if (strlen(path) + 12 >= sizeof tmp)
        return gk__fail(GK_ECACHE, "%s: path too long", path);
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = gk__mix64(((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20)
                               ^ __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) * 0x9e3779b97f4a7c15ull);
        char s[7];
        for (int i = 0; i < 6; i++, x /= 62)
            s[i] = abc[x % 62];
        s[6] = '\0';
        snprintf(tmp, sizeof tmp, "%s.tmp.%s", path, s);
        slot = temp_claim(tmp);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
        if (fd < 0) {
            int e = errno;
            temp_release(slot);
            slot = -1;
            if (e != EEXIST)
                return gk__fail(GK_ECACHE, "%s: cannot create: %s", path, strerror(e));
        }
    }
    if (fd < 0)
        return gk__fail(GK_ECACHE, "%s: cannot create a temp file beside it", path);
    gk_status st = GK_OK;
    if (write_all(fd, data, n) != 0 || fsync(fd) != 0)
        st = gk__fail(GK_ECACHE, "%s: write failed: %s", path, strerror(errno));
    if (close(fd) != 0 && errno != EINTR && st == GK_OK)
        st = gk__fail(GK_ECACHE, "%s: write failed: %s", path, strerror(errno));
    if (st == GK_OK && rename(tmp, path) != 0)   /* replaces a link itself, never its target */
        st = gk__fail(GK_ECACHE, "%s: cannot rename from %s: %s", path, tmp, strerror(errno));
    if (st != GK_OK)
        unlink(tmp);
    temp_release(slot);
    return st;
}

gk_status gk__cache_set_aside(const char *path, char *bad, size_t n)
{
    if (snprintf(bad, n, "%s.bad", path) >= (int)n)
        return gk__fail(GK_ECACHE, "%s: path too long", path);
    if (rename(path, bad) != 0)            /* moves the entry itself: no link is followed */
        return gk__fail(GK_ECACHE, "%s: cannot move it aside to %s: %s", path, bad, strerror(errno));
    return GK_OK;
}
