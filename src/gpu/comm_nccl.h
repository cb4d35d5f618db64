/* comm_nccl.h - NCCL between the ranks of a gk_comm, opened lazily with
 * dlopen (like NVRTC) so that libgk neither links nor needs libnccl: where
 * it is missing, distributed GPU runs move their data through host buffers.
 * The unique id is broadcast with the caller's communicator (MPI). */
#ifndef GK_COMM_NCCL_H
#define GK_COMM_NCCL_H

#include "gpu/gpu.h"
#include "core/comm.h"

typedef struct gk_nccl gk_nccl;

/* 1 if libnccl can be opened here; otherwise 0 and the reason. */
int gk__nccl_available(char *why, size_t n);
/* Collective over comm, on the current device (one GPU per rank). */
gk_status gk__nccl_open(gk_nccl **n, const gk_comm *comm);
/* The choice every distributed GPU run makes between the ranks: NCCL when
 * every rank can open it (*n opened, collectively), else *n NULL: the
 * caller moves its data through host memory and MPI, or, required (the
 * user asked for a device exchange), GK_ENODEV on every rank naming why. */
gk_status gk__nccl_open_if_everywhere(gk_nccl **n, const gk_comm *comm, int required);
/* Broadcast bytes from root's send into every rank's recv (root: send may be
 * recv), enqueued on stream. */
gk_status gk__nccl_bcast(gk_nccl *n, const void *send, void *recv, size_t bytes, int root, cudaStream_t stream);
/* Point-to-point transfers in one group (so that pairs of sends and
 * receives cannot deadlock), enqueued on stream: each entry either sends
 * `bytes` from send or receives them into recv, with rank peer (entries
 * with peer < 0 or no bytes are skipped). */
typedef struct gk__nccl_xfer { const void *send; void *recv; size_t bytes; int peer; } gk__nccl_xfer;
gk_status gk__nccl_sendrecv(gk_nccl *n, const gk__nccl_xfer *x, int nx, cudaStream_t stream);
void gk__nccl_close(gk_nccl *n);

#endif /* GK_COMM_NCCL_H */
