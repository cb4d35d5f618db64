/* comm_out.c - one output file written by every rank of a run at its own
 * offsets: rank 0 makes gk's temp file (or opens a device in place), every
 * other rank opens it by name, each pwrites its part, and rank 0 renames it
 * (gk__out_close) only when every rank succeeded.  Used by the distributed
 * APSP rows and stencil planes (src/api/apsp_dist.c, stencil_dist.c). */
#include "core/comm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

gk_status gk__comm_out_open(gk__comm_out *s, const gk_comm *comm, const char *out)
{
    gk_status st = GK_OK;
    char name[4200];
    memset(s, 0, sizeof *s);
    memset(name, 0, sizeof name);
    s->comm = comm;
    s->path = out;
    s->rank = gk__comm_rank(comm);
    s->fd = -1;
    if (!strcmp(out, "-")) {
        st = gk__fail(GK_EINVAL, "standard output cannot be written by %d ranks at once; name an output file",
                      gk__comm_size(comm));
    } else if (s->rank == 0) {
        st = gk__out_open_named(&s->o, out);   /* the other ranks open the temp file by its name */
        if (!st) {
            s->opened = 1;
            s->fd = s->o.fd;
            snprintf(name, sizeof name, "%s", s->o.kind == GK__OUT_NAMED ? s->o.tmp : out);
        }
    }
    if ((st = gk__comm_agree(comm, st)) || (st = gk__comm_bcast(comm, name, sizeof name, 0)))
        return gk__comm_out_close(s, st);
    if (s->rank != 0) {
        s->fd = open(name, O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (s->fd < 0)
            st = gk__fail(GK_EIO, "%s: rank %d cannot open %s for writing: %s", out, s->rank, name, strerror(errno));
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
            return gk__fail(GK_EIO, "%s: write failed: %s", s->path, w < 0 ? strerror(errno) : "no progress");
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
    return gk__comm_agree(s->comm, st);
}
