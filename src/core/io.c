/* io.c - inputs (files or standard input) and outputs that are written in
 * place when they are devices, FIFOs or standard output, and otherwise
 * replaced atomically by a temp file (unnamed where the filesystem allows)
 * renamed over the target, so that a failed run never leaves a partial
 * output file behind. */
#define _GNU_SOURCE 1      /* O_TMPFILE, AT_EMPTY_PATH */
#include "core/internal.h"
#include "core/io.h"
#include "core/rng.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

gk_status gk__read_exact(FILE *f, const char *path, void *buf, size_t n, const char *what)
{
    if (n && fread(buf, 1, n, f) != n)
        return gk__fail(GK_EIO, "%s: cannot read %s: %s", path, what,
                        ferror(f) ? strerror(errno) : "file ends early");
    return GK_OK;
}

/* ---- inputs ---- */

/* The first bytes of standard input, read by gk__stdin_peek (format
 * detection) and handed back by the next gk__in_open("-") before the rest
 * of the stream: a pipe cannot be rewound. */
static struct {
    unsigned char b[GK__PEEK_BYTES];
    size_t n, pos;
    int state;               /* 0: not peeked; 1: peeked, not yet handed back; 2: handed back */
} peek;

gk_status gk__stdin_peek(const unsigned char **buf, size_t *n)
{
    *buf = peek.b;
    *n = 0;
    if (peek.state == 2)
        return gk__fail(GK_EIO, "standard input: already being read; give --format");
    if (peek.state == 0) {
        peek.n = fread(peek.b, 1, sizeof peek.b, stdin);
        if (ferror(stdin))
            return gk__fail(GK_EIO, "standard input: read failed: %s", strerror(errno));
        peek.pos = 0;
        peek.state = 1;
    }
    *n = peek.n;
    return GK_OK;
}

/* fopencookie's read: the peeked bytes, then standard input. */
static ssize_t peek_read(void *cookie, char *buf, size_t size)
{
    (void)cookie;
    if (peek.pos < peek.n) {
        size_t k = peek.n - peek.pos < size ? peek.n - peek.pos : size;
        memcpy(buf, peek.b + peek.pos, k);
        peek.pos += k;
        return (ssize_t)k;
    }
    size_t got = fread(buf, 1, size, stdin);
    if (got == 0 && ferror(stdin))
        return -1;
    return (ssize_t)got;
}

gk_status gk__in_open(gk_infile *in, const char *path)
{
    in->f = NULL;
    in->size = -1;
    in->name = path;
    if (!path || !*path)
        return gk__fail(GK_EINVAL, "empty input file name");
    if (!strcmp(path, "-")) {
        in->f = stdin;
        in->name = "standard input";
        if (peek.state == 1) {
            cookie_io_functions_t io = { .read = peek_read };
            FILE *f = fopencookie(NULL, "rb", io);
            if (!f)
                return gk__fail(GK_ENOMEM, "standard input: cannot replay its first bytes: %s", strerror(errno));
            setvbuf(f, NULL, _IOFBF, 1 << 16);
            peek.state = 2;
            in->f = f;
        }
        return GK_OK;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return gk__fail(GK_EIO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0) {
        int e = errno;
        fclose(f);
        return gk__fail(GK_EIO, "%s: %s", path, strerror(e));
    }
    if (S_ISDIR(sb.st_mode)) {
        fclose(f);
        return gk__fail(GK_EIO, "%s: is a directory", path);
    }
    if (S_ISREG(sb.st_mode))
        in->size = (int64_t)sb.st_size;
    in->f = f;
    return GK_OK;
}

gk_status gk__in_read_sized(const char *path, void *buf, uint64_t bytes, const char *desc, const char *noun,
                            const char **shown)
{
    gk_infile in;
    gk_status st;
    *shown = path;
    if ((st = gk__in_open(&in, path)))
        return st;
    *shown = in.name;
    if (in.size >= 0 && (uint64_t)in.size != bytes) {
        gk__in_close(&in);
        return gk__fail(GK_EFORMAT, "%s: %lld bytes, but %s is %llu bytes", in.name, (long long)in.size, desc,
                        (unsigned long long)bytes);
    }
    char after[192];
    snprintf(after, sizeof after, "the %llu bytes of %s", (unsigned long long)bytes, desc);
    if (!(st = gk__read_exact(in.f, in.name, buf, (size_t)bytes, noun)))
        st = gk__in_expect_end(&in, after);
    gk__in_close(&in);
    return st;
}

gk_status gk__in_expect_end(gk_infile *in, const char *after)
{
    int c = getc(in->f);
    if (c != EOF)
        return gk__fail(GK_EFORMAT, "%s: extra bytes after %s", in->name, after);
    if (ferror(in->f))
        return gk__fail(GK_EIO, "%s: read failed: %s", in->name, strerror(errno));
    return GK_OK;
}

void gk__in_close(gk_infile *in)
{
    if (in->f && in->f != stdin)
        fclose(in->f);
    in->f = NULL;
}

/* ---- outputs ---- */

/* The named temp files that exist now, for gk_remove_partial_outputs()
 * (slots taken and freed atomically: cubins are written from threads). */
#define MAX_OPEN 16
static char *volatile open_tmp[MAX_OPEN];

void gk__out_track(char *tmp, int on)
{
    for (int i = 0; i < MAX_OPEN; i++) {
        char *expect = on ? NULL : tmp;
        if (__atomic_compare_exchange_n(&open_tmp[i], &expect, on ? tmp : NULL, 0, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST))
            return;
    }
}

void gk_remove_partial_outputs(void)
{
    for (int i = 0; i < MAX_OPEN; i++) {
        char *p = __atomic_load_n(&open_tmp[i], __ATOMIC_SEQ_CST);
        if (p)
            unlink(p);
    }
}

/* The directory part of path ("." when none). */
static void dir_of(const char *path, char *dir, size_t n)
{
    snprintf(dir, n, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, n, ".");
    else if (slash == dir) dir[1] = '\0';
    else *slash = '\0';
}

gk_status gk__out_target(const char *path, char *target, size_t n)
{
    char cur[4096], link[4096], next[8200];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
        return gk__fail(GK_EIO, "%.100s...: path too long", path);
    for (int hops = 0;; hops++) {
        struct stat sb;
        if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode))
            break;                  /* missing (a dangling link's target) or not a link */
        if (hops == 40)
            return gk__fail(GK_EIO, "%s: too many levels of symbolic links", path);
        ssize_t len = readlink(cur, link, sizeof link);
        if (len < 0)
            return gk__fail(GK_EIO, "%s: cannot read the link %s: %s", path, cur, strerror(errno));
        if ((size_t)len >= sizeof link)
            return gk__fail(GK_EIO, "%s: the link %s is too long", path, cur);
        link[len] = '\0';
        char *slash = strrchr(cur, '/');
        if (link[0] == '/' || !slash)
            snprintf(next, sizeof next, "%s", link);
        else
            snprintf(next, sizeof next, "%.*s/%s", (int)(slash - cur), cur, link);
        if (strlen(next) >= sizeof cur)
            return gk__fail(GK_EIO, "%s: path too long", path);
        memcpy(cur, next, strlen(next) + 1);
    }
    if (strlen(cur) >= n)
        return gk__fail(GK_EIO, "%s: path too long", path);
    memcpy(target, cur, strlen(cur) + 1);
    return GK_OK;
}

/* TARGET.TAG.XXXXXX with six random letters and digits (TAG: "tmp"). */
void gk__out_temp_name(char *buf, size_t n, const char *target, const char *tag)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static unsigned long counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = gk__mix64(((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_nsec ^
                           ((uint64_t)ts.tv_sec << 20) ^
                           __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) * 0x9e3779b97f4a7c15ull);
    char s[7];
    for (int i = 0; i < 6; i++, x /= 62)
        s[i] = abc[x % 62];
    s[6] = '\0';
    snprintf(buf, n, "%s.%s.%s", target, tag, s);
}

/* Give the link of an O_TMPFILE file the name `name`: through /proc, or
 * AT_EMPTY_PATH where permitted.  -1 with errno on failure. */
static int link_unnamed(int fd, const char *name)
{
    char p[64];
    snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, p, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0)
        return 0;
    int e = errno;
    if (e == EEXIST)
        return -1;
#ifdef AT_EMPTY_PATH
    if (linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0)
        return 0;
    if (errno == EEXIST)
        return -1;
#endif
    errno = e;
    return -1;
}

static gk_status out_open(gk_outfile *o, const char *path, const char *fixed);

gk_status gk__out_open(gk_outfile *o, const char *path) { return out_open(o, path, NULL); }

gk_status gk__out_open_named(gk_outfile *o, const char *path, const char *tmp)
{
    return out_open(o, path, tmp);
}

/* fixed: the named temp file's name, chosen by the caller (no O_TMPFILE). */
static gk_status out_open(gk_outfile *o, const char *path, const char *fixed)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (!path || !*path)
        return gk__fail(GK_EINVAL, "empty output file name");
    if (!strcmp(path, "-")) {
        fflush(stdout);           /* what the program printed comes first */
        snprintf(o->path, sizeof o->path, "standard output");
        o->fd = 1;
        o->kind = GK__OUT_INPLACE;
        return GK_OK;
    }
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path)
        return gk__fail(GK_EIO, "%.100s...: path too long", path);
    struct stat sb;
    /* Through the path itself first: /dev/stdout -> /proc/self/fd/1 ->
     * "pipe:[N]" resolves only in the kernel. */
    int exists = stat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
        /* A device or FIFO: write into it, never replace it. */
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            return gk__fail(GK_EIO, "%s: cannot open for writing: %s", path, strerror(errno));
        o->fd = fd;
        o->own_fd = 1;
        o->kind = GK__OUT_INPLACE;
        return GK_OK;
    }
    gk_status st = gk__out_target(path, o->target, sizeof o->target);
    if (st) return st;
    exists = stat(o->target, &sb) == 0;
    if (!exists && errno != ENOENT)
        return gk__fail(GK_EIO, "%s: %s", path, strerror(errno));
    if (exists && S_ISDIR(sb.st_mode))
        return gk__fail(GK_EIO, "%s: is a directory", path);
    if (exists && !S_ISREG(sb.st_mode))
        return gk__fail(GK_EIO, "%s: changed while being opened", path);
    char dir[4096];
    dir_of(o->target, dir, sizeof dir);
    mode_t mode = exists ? (sb.st_mode & 07777) : 0666;   /* a new file: the umask applies */
    int fd = -1;
#ifdef O_TMPFILE
    if (!fixed) {
        fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
        if (fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOTSUP)
            return gk__fail(GK_EIO, "%s: cannot create: %s", path, strerror(errno));
        if (fd >= 0) {
            char p[64];
            snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
            if (access(p, F_OK) != 0 && geteuid() != 0) {   /* no way to link it later */
                close(fd);
                fd = -1;
            }
        }
    }
#endif
    if (fd >= 0)
        o->kind = GK__OUT_UNNAMED;
    else if (fixed) {
        if (snprintf(o->tmp, sizeof o->tmp, "%s", fixed) >= (int)sizeof o->tmp)
            return gk__fail(GK_EIO, "%s: cannot create: %s", path, strerror(ENAMETOOLONG));
        if ((fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, mode)) < 0)
            return gk__fail(GK_EIO, "%s: cannot create %s: %s", path, o->tmp, strerror(errno));
        o->kind = GK__OUT_NAMED;
        gk__out_track(o->tmp, 1);
    } else {
        for (int tries = 0; fd < 0 && tries < 100; tries++) {
            gk__out_temp_name(o->tmp, sizeof o->tmp, o->target, "tmp");
            if (strlen(o->target) + 11 >= sizeof o->tmp) {
                errno = ENAMETOOLONG;
                break;
            }
            fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, mode);
            if (fd < 0 && errno != EEXIST)
                break;
        }
        if (fd < 0)
            return gk__fail(GK_EIO, "%s: cannot create: %s", path, strerror(errno));
        o->kind = GK__OUT_NAMED;
        gk__out_track(o->tmp, 1);
    }
    if (exists) {
        /* Keep the old file's owner (where allowed) and mode. */
        if ((sb.st_uid != geteuid() || sb.st_gid != getegid()) && fchown(fd, sb.st_uid, sb.st_gid) != 0) {
            /* not permitted: the file becomes ours, as with any new file */
        }
        if (fchmod(fd, mode) != 0) {
            int e = errno;
            close(fd);
            if (o->kind == GK__OUT_NAMED) {
                unlink(o->tmp);
                gk__out_track(o->tmp, 0);
            }
            o->kind = 0;
            return gk__fail(GK_EIO, "%s: cannot set the mode: %s", path, strerror(e));
        }
    }
    o->fd = fd;
    o->own_fd = 1;
    return GK_OK;
}

const char *gk__write_strerror(int e)
{
    switch (e) {
    case EFBIG:
        return "File too large (past the file size limit: ulimit -f, or the file system's largest file)";
    case ENOSPC:
        return "No space left on device";
#ifdef EDQUOT
    case EDQUOT:
        return "Disk quota exceeded";
#endif
    default:
        return strerror(e);
    }
}

gk_status gk__out_write(gk_outfile *o, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(o->fd, p, n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return gk__fail(GK_EIO, "%s: write failed: %s", o->path,
                            w < 0 ? gk__write_strerror(errno) : "no progress");
        p += w;
        n -= (size_t)w;
    }
    return GK_OK;
}

/* Put the finished unnamed temp file in place of o->target. */
static gk_status commit_unnamed(gk_outfile *o)
{
    if (link_unnamed(o->fd, o->target) == 0)
        return GK_OK;                     /* the target did not exist */
    if (errno != EEXIST)
        return gk__fail(GK_EIO, "%s: cannot create: %s", o->path, strerror(errno));
    int r = -1;
    for (int tries = 0; r != 0 && tries < 100; tries++) {
        gk__out_temp_name(o->tmp, sizeof o->tmp, o->target, "tmp");
        r = link_unnamed(o->fd, o->tmp);
        if (r != 0 && errno != EEXIST)
            break;
    }
    if (r != 0)
        return gk__fail(GK_EIO, "%s: cannot create: %s", o->path, strerror(errno));
    gk__out_track(o->tmp, 1);
    gk_status st = GK_OK;
    if (rename(o->tmp, o->target) != 0) {
        st = gk__fail(GK_EIO, "%s: cannot rename from %s: %s", o->path, o->tmp, strerror(errno));
        unlink(o->tmp);
    }
    gk__out_track(o->tmp, 0);
    return st;
}

gk_status gk__out_close(gk_outfile *o, gk_status st)
{
    int kind = o->kind;
    if (!kind)
        return st;
    o->kind = 0;
    if (kind == GK__OUT_INPLACE) {
        if (o->own_fd && close(o->fd) != 0 && errno != EINTR && st == GK_OK)
            st = gk__fail(GK_EIO, "%s: write failed: %s", o->path, gk__write_strerror(errno));
        o->fd = -1;
        return st;
    }
    if (st == GK_OK && fsync(o->fd) != 0 && errno != EINVAL)
        st = gk__fail(GK_EIO, "%s: write failed: %s", o->path, gk__write_strerror(errno));
    if (kind == GK__OUT_UNNAMED) {
        if (st == GK_OK)
            st = commit_unnamed(o);
        close(o->fd);                     /* unlinked unless committed */
    } else {
        if (close(o->fd) != 0 && errno != EINTR && st == GK_OK)
            st = gk__fail(GK_EIO, "%s: write failed: %s", o->path, gk__write_strerror(errno));
        if (st == GK_OK && rename(o->tmp, o->target) != 0)
            st = gk__fail(GK_EIO, "%s: cannot rename from %s: %s", o->path, o->tmp, strerror(errno));
        if (st != GK_OK)
            unlink(o->tmp);
        gk__out_track(o->tmp, 0);
    }
    o->fd = -1;
    return st;
}

gk_status gk__write_file_atomic(const char *path, const void *data, size_t n)
{
    gk_outfile o;
    gk_status st = gk__out_open(&o, path);
    if (st) return st;
    return gk__out_close(&o, gk__out_write(&o, data, n));
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

gk_status gk__output_check(const char *out, const char *in)
{
    struct stat so, si;
    if (!out || !*out)
        return gk__fail(GK_EINVAL, "empty output file name");
    int have_in = in && *in && (strcmp(in, "-") ? stat(in, &si) == 0 : fstat(0, &si) == 0);
    if (!strcmp(out, "-")) {
        int fl = fcntl(1, F_GETFL);
        if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
            return gk__fail(GK_EIO, "standard output: not open for writing");
        if (have_in && fstat(1, &so) == 0 && S_ISREG(so.st_mode) && same_file(&so, &si))
            return gk__fail(GK_EIO, "standard output: is the input file %s; refusing to overwrite it",
                            strcmp(in, "-") ? in : "standard input");
        return GK_OK;
    }
    char target[4096], dir[4096];
    if (stat(out, &so) == 0 && !S_ISREG(so.st_mode) && !S_ISDIR(so.st_mode)) {
        /* Written in place (also through /dev/stdout's magic link). */
        if (have_in && same_file(&so, &si) && !S_ISCHR(so.st_mode))
            return gk__fail(GK_EIO, "%s: is the input file %s; refusing to overwrite it", out,
                            strcmp(in, "-") ? in : "standard input");
        if (access(out, W_OK) != 0)
            return gk__fail(GK_EIO, "%s: cannot write: %s", out, strerror(errno));
        return GK_OK;
    }
    gk_status st = gk__out_target(out, target, sizeof target);
    if (st) return st;
    if (stat(target, &so) == 0) {
        if (S_ISDIR(so.st_mode))
            return gk__fail(GK_EIO, "%s: is a directory", out);
        /* A character device (/dev/null, a terminal) may be both. */
        if (have_in && same_file(&so, &si) && !S_ISCHR(so.st_mode))
            return gk__fail(GK_EIO, "%s: is the input file %s; refusing to overwrite it", out,
                            strcmp(in, "-") ? in : "standard input");
        if (!S_ISREG(so.st_mode)) {
            if (access(target, W_OK) != 0)
                return gk__fail(GK_EIO, "%s: cannot write: %s", out, strerror(errno));
            return GK_OK;
        }
    } else if (errno != ENOENT)
        return gk__fail(GK_EIO, "%s: %s", out, strerror(errno));
    dir_of(target, dir, sizeof dir);
    if (access(dir, W_OK | X_OK) != 0)
        return gk__fail(GK_EIO, "%s: cannot create: %s: %s", out, dir, strerror(errno));
    return GK_OK;
}
