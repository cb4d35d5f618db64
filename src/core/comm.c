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
    /* the lowest failing rank r as size - r (0: none failed), and whether
       some rank succeeded (then the message says whose it is: under mpirun
       ranks may see other files, and rank 0 speaks for all) */
    int64_t v[2] = { st ? (int64_t)(c->size - c->rank) : 0, st ? 0 : 1 };
    gk_status cst = gk__comm_max_i64(c, v, 2);
    if (cst)
        return cst;
    int64_t who = v[0];
    if (!who)
        return GK_OK;
    int root = c->size - (int)who, some_ok = v[1] != 0;
    struct { int32_t st; char msg[1024]; } m;
    memset(&m, 0, sizeof m);
    if (c->rank == root) {
        m.st = (int32_t)st;
        const char *e = gk_last_error();
        if (some_ok)
            snprintf(m.msg, sizeof m.msg, "rank %d of %d: %s", c->rank, c->size, e && *e ? e : gk_strerror(st));
        else
            snprintf(m.msg, sizeof m.msg, "%s", e && *e ? e : gk_strerror(st));
    }
    if ((cst = gk__comm_bcast(c, &m, sizeof m, root)))
        return cst;
    m.msg[sizeof m.msg - 1] = '\0';
    return gk__fail((gk_status)m.st, "%s", m.msg);
}

gk_status gk__comm_same(const gk_comm *c, const char *path, const int64_t *v, const char *const *names, int n)
{
    if (!c || c->size <= 1)
        return GK_OK;
    int64_t ref[8];
    if (n > 8)
        return gk__fail(GK_EINVAL, "gk__comm_same: %d values (at most 8)", n);
    memcpy(ref, v, (size_t)n * sizeof *v);
    gk_status st = gk__comm_bcast(c, ref, (size_t)n * sizeof *ref, 0);
    for (int i = 0; i < n && !st; i++) {
        if (v[i] == ref[i])
            continue;
        if (!strncmp(names[i], "checksum", 8))
            st = gk__fail(GK_EINVAL, "%s: rank %d reads other bytes than rank 0 (%s %016llx, not %016llx): "
                          "every rank must read the same input", path, c->rank, names[i],
                          (unsigned long long)v[i], (unsigned long long)ref[i]);
        else
            st = gk__fail(GK_EINVAL, "%s: rank %d reads %s = %lld, rank 0 %lld: every rank must read the same input",
                          path, c->rank, names[i], (long long)v[i], (long long)ref[i]);
    }
    return gk__comm_agree(c, st);
}

uint64_t gk__checksum(uint64_t h, const void *p, size_t n)
{
    /* four independent 64-bit lanes over 8-byte words (fast enough to run
       over every byte a rank reads), folded with the tail */
    const unsigned char *b = p;
    uint64_t l[4] = { h ^ 0x9e3779b97f4a7c15ull, h + 0xbf58476d1ce4e5b9ull, ~h, h * 0x94d049bb133111ebull };
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, b + i + 8 * k, 8);
            l[k] = (l[k] ^ w) * 0x100000001b3ull;
            l[k] ^= l[k] >> 29;
        }
    uint64_t r = (l[0] ^ (l[1] << 1)) + (l[2] ^ (l[3] << 3)) + (uint64_t)n;
    for (; i < n; i++)
        r = (r ^ b[i]) * 0x100000001b3ull;
    return r;
}
