/* comm.h - collectives over a gk_comm, the caller's communicator of a run
 * spread over several processes (include/gk/context.h).  A NULL comm is this
 * process alone: every collective is then a no-op.  No CUDA here: GPU data
 * between ranks goes through NCCL (src/gpu/comm_nccl.c) or through host
 * buffers and these. */
#ifndef GK_CORE_COMM_H
#define GK_CORE_COMM_H

#include "core/internal.h"

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
 * every rank fails together, with one message. */
gk_status gk__comm_agree(const gk_comm *c, gk_status st);

#endif /* GK_CORE_COMM_H */
