/* comm.h - collectives over a gk_comm, the caller's communicator of a run
 * spread over several processes (include/gk/context.h).  A NULL comm is this
 * process alone: every collective is then a no-op.  No CUDA here: GPU data
 * between ranks goes through NCCL (src/gpu/comm_nccl.c) or through host
 * buffers and these. */
#ifndef GK_CORE_COMM_H
#define GK_CORE_COMM_H

#include "core/internal.h"
#include "core/io.h"

static inline int gk__comm_rank(const gk_comm *c) { return c ? c->rank : 0; }
static inline int gk__comm_size(const gk_comm *c) { return c ? c->size : 1; }

/* Broadcast from root (in chunks the callback can take). */
gk_status gk__comm_bcast(const gk_comm *c, void *buf, size_t bytes, int root);
/* Element-wise maxima over the ranks, in place. */
gk_status gk__comm_max_i64(const gk_comm *c, int64_t *v, int n);
gk_status gk__comm_max_f64(const gk_comm *c, double *v, int n);

/* Send sbytes to rank dest while receiving rbytes from rank source (-1:
 * none on that side); in chunks MPI counts can hold, the same on both sides
 * when sbytes == the peer's rbytes.  Not collective.  GK_EINVAL when the
 * communicator has no sendrecv. */
gk_status gk__comm_sendrecv(const gk_comm *c, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rbytes,
                            int source);

/* After a step that may fail on some ranks and not on others: every rank
 * passes its own status; all return the status of the lowest failing rank
 * and record its message (gk_last_error()), or GK_OK when none failed.  So
 * every rank fails together, with one message; when some rank succeeded,
 * the message begins "rank R of N: " (whose the failure was). */
gk_status gk__comm_agree(const gk_comm *c, gk_status st);

/* The ranks agree on what they read: every rank passes the n (<= 8) values
 * that describe its input (sizes, a checksum of the bytes it uses; names[i]
 * names value i, "checksum" values print in hex); each compares them with
 * rank 0's, and all fail together, with the lowest differing rank's
 * message naming PATH, or all return GK_OK.  Ranks that read other files
 * (other directories, other nodes) would otherwise compute a silent mix. */
gk_status gk__comm_same(const gk_comm *c, const char *path, const int64_t *v, const char *const *names, int n);

/* FNV-1a-style 64-bit checksum of bytes, continued from h (start: 0). */
uint64_t gk__checksum(uint64_t h, const void *p, size_t n);

/* One output file that every rank writes at its own offsets (comm_out.c):
 * open and close are collective (every rank fails together, with one
 * message; nothing is left behind on failure, nor when a rank is killed:
 * see comm_out.c); pwrite is each rank's own. */
typedef struct gk__comm_out {
    const gk_comm *comm;
    const char *path;
    gk_outfile o;                  /* rank 0's */
    char tmp[4112];                /* the other ranks': the temp file's name */
    int rank, fd, opened, tracked;
} gk__comm_out;
gk_status gk__comm_out_open(gk__comm_out *s, const gk_comm *comm, const char *out);
gk_status gk__comm_out_pwrite(gk__comm_out *s, const void *buf, size_t bytes, uint64_t offset);
/* Agrees on st (the ranks' writes), closes, renames on rank 0 when all
 * succeeded; returns the agreed status. */
gk_status gk__comm_out_close(gk__comm_out *s, gk_status st);

#endif /* GK_CORE_COMM_H */
