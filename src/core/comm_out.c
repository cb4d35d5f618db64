/* comm_out.c - one output file written by every rank of a run at its own
 * offsets (the distributed APSP rows and stencil planes, src/core/dist.c).
 *
 * A killed process cannot clean up, and the other ranks are other processes,
 * possibly on other nodes, so the file cannot be unnamed (O_TMPFILE) the way
 * a single process's output is.  The design:
 *   1. rank 0 chooses the temp file's name, TARGET.gk-mpi-PID-HOST.XXXXXX
 *      (its own pid and host name), and broadcasts it before the file exists;
 *   2. every rank adds that name to the files its fatal-signal handler
 *      removes (gk_remove_partial_outputs): when a rank dies (SIGKILL, a
 *      crash, SIGXFSZ under ulimit -f), mpirun sends SIGTERM to the others
 *      and the first survivor to handle it unlinks the file;
 *   3. rank 0 creates it (O_EXCL), the others open it by name, each writes
 *      its part, and rank 0 renames it onto OUTPUT only when every rank
 *      succeeded (an agreed failure unlinks it);
 *   4. when every process of a job died at once (SIGKILL to all, a node
 *      lost), the name remains; the next distributed write of the same
 *      OUTPUT removes every TARGET.gk-mpi-PID-HOST.* whose HOST is its own
 *      and whose PID no longer exists.
 * A device or FIFO (/dev/null) is written in place by every rank. */
#define _GNU_SOURCE 1
#include "core/comm.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TAG "gk-mpi-"

/* This host's name, made safe for a file name. */
static void host_name(char *h, size_t n)
{
    if (gethostname(h, n) != 0)
        snprintf(h, n, "localhost");
    h[n - 1] = '\0';
    for (char *p = h; *p; p++)
        if (*p == '/' || (unsigned char)*p < 0x21 || (unsigned char)*p > 0x7e)
            *p = '_';
}

/* Step 4: the temp files of dead gk processes of this host for TARGET. */
static void remove_stale(const char *target, const char *host)
{
    char dir[4096];
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == target) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - target), target);
    size_t lb = strlen(base), lt = strlen(TAG), lh = strlen(host);
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        const char *p = e->d_name;
        if (strncmp(p, base, lb) || p[lb] != '.' || strncmp(p + lb + 1, TAG, lt))
            continue;
        p += lb + 1 + lt;                       /* PID-HOST.XXXXXX */
        char *end;
        long pid = strtol(p, &end, 10);
        if (end == p || pid <= 0 || *end != '-' || strncmp(end + 1, host, lh) || strlen(end + 1 + lh) != 7
            || end[1 + lh] != '.')
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;                           /* its writer may still run */
        unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

/* Rank 0, step 1: the temp file's name, or "" for a file written in place. */
static gk_status choose_name(const char *out, char *name, size_t n)
{
    struct stat sb;
    char target[4096], host[72], tag[128];
    name[0] = '\0';
    if (stat(out, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))
        return GK_OK;
    gk_status st = gk__out_target(out, target, sizeof target);
    if (st)
        return st;
    host_name(host, sizeof host);
    remove_stale(target, host);
    snprintf(tag, sizeof tag, TAG "%ld-%s", (long)getpid(), host);
    if (strlen(target) + strlen(tag) + 9 >= n)
        return gk__fail(GK_EIO, "%s: path too long", out);
    gk__out_temp_name(name, n, target, tag);
    return GK_OK;
}

gk_status gk__comm_out_open(gk__comm_out *s, const gk_comm *comm, const char *out)
{
    gk_status st = GK_OK;
    char name[sizeof s->tmp];
    memset(s, 0, sizeof *s);
    memset(name, 0, sizeof name);
    s->comm = comm;
    s->path = out;
    s->rank = gk__comm_rank(comm);
    s->fd = -1;
    if (!strcmp(out, "-"))
        st = gk__fail(GK_EINVAL, "standard output cannot be written by %d ranks at once; name an output file",
                      gk__comm_size(comm));
    else if (s->rank == 0)
        st = choose_name(out, name, sizeof name);
    if ((st = gk__comm_agree(comm, st)) || (st = gk__comm_bcast(comm, name, sizeof name, 0)))
        return gk__comm_out_close(s, st);
    name[sizeof name - 1] = '\0';
    if (name[0] && s->rank != 0) {          /* step 2 (rank 0's is tracked by gk__out_open_named) */
        memcpy(s->tmp, name, sizeof name);
        gk__out_track(s->tmp, 1);
        s->tracked = 1;
    }
    if (s->rank == 0) {                     /* step 3 */
        if (!(st = gk__out_open_named(&s->o, out, name[0] ? name : NULL))) {
            s->opened = 1;
            s->fd = s->o.fd;
            if (s->o.kind != (name[0] ? GK__OUT_NAMED : GK__OUT_INPLACE))
                st = gk__fail(GK_EIO, "%s: changed while being opened", out);
        }
    }
    if ((st = gk__comm_agree(comm, st)))
        return gk__comm_out_close(s, st);
    if (s->rank != 0) {
        s->fd = open(name[0] ? name : out, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (s->fd < 0)
            st = gk__fail(GK_EIO, "%s: rank %d cannot open %s for writing: %s", out, s->rank, name[0] ? name : out,
                          strerror(errno));
    }
    if ((st = gk__comm_agree(comm, st)))
        return gk__comm_out_close(s, st);
    return GK_OK;
}

gk_status gk__comm_out_pwrite(gk__comm_out *s, const void *buf, size_t bytes, uint64_t offset)
{
    const char *p = buf;
    off_t off = (off_t)offset;
    while (bytes) {
        ssize_t w = pwrite(s->fd, p, bytes > ((size_t)1 << 30) ? ((size_t)1 << 30) : bytes, off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return gk__fail(GK_EIO, "%s: write failed: %s", s->path, w < 0 ? gk__write_strerror(errno) : "no progress");
        p += w;
        off += w;
        bytes -= (size_t)w;
    }
    return GK_OK;
}

gk_status gk__comm_out_close(gk__comm_out *s, gk_status st)
{
    st = gk__comm_agree(s->comm, st);
    if (s->rank != 0 && s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    if (s->rank == 0 && s->opened)
        st = gk__out_close(&s->o, st);
    s->opened = 0;
    st = gk__comm_agree(s->comm, st);
    /* the other ranks keep the name until rank 0 renamed or removed it */
    if (s->tracked)
        gk__out_track(s->tmp, 0);
    s->tracked = 0;
    return st;
}
