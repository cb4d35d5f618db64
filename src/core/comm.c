/* comm.c - collectives over the caller's gk_comm (see comm.h). */
#include "core/comm.h"

#include <stdio.h>
#include <string.h>

static gk_status broken(const char *what)
{
    return gk__fail(GK_EIO, "the communicator's %s failed (a rank may have died)", what);
}

gk_status gk__comm_bcast(const gk_comm *c, void *buf, size_t bytes, int root)
{
    if (!c || c->size <= 1)
        return GK_OK;
    const size_t chunk = (size_t)1 << 30;     /* MPI counts are int */
    for (size_t off = 0; off < bytes; off += chunk) {
        size_t n = bytes - off < chunk ? bytes - off : chunk;
        if (c->bcast(c->user, (char *)buf + off, n, root))
            return broken("broadcast");
    }
    return GK_OK;
}

gk_status gk__comm_max_i64(const gk_comm *c, int64_t *v, int n)
{
    if (!c || c->size <= 1)
        return GK_OK;
    return c->max_i64(c->user, v, n) ? broken("all-reduce") : GK_OK;
}

gk_status gk__comm_max_f64(const gk_comm *c, double *v, int n)
{
    if (!c || c->size <= 1)
        return GK_OK;
    return c->max_f64(c->user, v, n) ? broken("all-reduce") : GK_OK;
}

gk_status gk__comm_sendrecv(const gk_comm *c, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rbytes,
                            int source)
{
    if (!c || c->size <= 1 || (dest < 0 && source < 0))
        return GK_OK;
    if (!c->sendrecv)
        return gk__fail(GK_EINVAL, "the communicator has no sendrecv (needed between the ranks of a stencil)");
    const size_t chunk = (size_t)1 << 30;     /* MPI counts are int */
    if (dest < 0) sbytes = 0;
    if (source < 0) rbytes = 0;
    for (size_t off = 0; off < sbytes || off < rbytes; off += chunk) {
        size_t ns = off < sbytes ? (sbytes - off < chunk ? sbytes - off : chunk) : 0;
        size_t nr = off < rbytes ? (rbytes - off < chunk ? rbytes - off : chunk) : 0;
        if (c->sendrecv(c->user, (const char *)sbuf + (ns ? off : 0), ns, ns ? dest : -1,
                        (char *)rbuf + (nr ? off : 0), nr, nr ? source : -1))
            return broken("sendrecv");
    }
    return GK_OK;
}

gk_status gk__comm_agree(const gk_comm *c, gk_status st)
{
    if (!c || c->size <= 1)
        return st;
    /* the lowest failing rank r as size - r (0: none failed) */
    int64_t who = st ? (int64_t)(c->size - c->rank) : 0;
    gk_status cst = gk__comm_max_i64(c, &who, 1);
    if (cst)
        return cst;
    if (!who)
        return GK_OK;
    int root = c->size - (int)who;
    struct { int32_t st; char msg[1024]; } m;
    memset(&m, 0, sizeof m);
    if (c->rank == root) {
        m.st = (int32_t)st;
        const char *e = gk_last_error();
        snprintf(m.msg, sizeof m.msg, "%s", e && *e ? e : gk_strerror(st));
    }
    if ((cst = gk__comm_bcast(c, &m, sizeof m, root)))
        return cst;
    m.msg[sizeof m.msg - 1] = '\0';
    return gk__fail((gk_status)m.st, "%s", m.msg);
}
