/* comm_nccl.c - NCCL through dlopen (see comm_nccl.h).  Only the few entry
 * points gk uses, declared here with NCCL's stable C ABI, so that nccl.h is
 * not needed to build. */
#include "gpu/comm_nccl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char internal[128]; } nccl_id;    /* ncclUniqueId */
typedef void *nccl_comm;                            /* ncclComm_t */
enum { NCCL_UINT8 = 1 };                            /* ncclUint8 */

static struct {
    void *so;
    int (*GetUniqueId)(nccl_id *);
    int (*CommInitRank)(nccl_comm *, int, nccl_id, int);
    int (*Broadcast)(const void *, void *, size_t, int, int, nccl_comm, cudaStream_t);
    int (*CommDestroy)(nccl_comm);
    int (*Send)(const void *, size_t, int, int, nccl_comm, cudaStream_t);
    int (*Recv)(void *, size_t, int, int, nccl_comm, cudaStream_t);
    int (*GroupStart)(void);
    int (*GroupEnd)(void);
    const char *(*GetErrorString)(int);
    char why[256];
    int tried;
} nc;
static pthread_mutex_t nc_lock = PTHREAD_MUTEX_INITIALIZER;

static int load(void)
{
    pthread_mutex_lock(&nc_lock);
    if (!nc.tried) {
        nc.tried = 1;
        const char *tries[] = { "libnccl.so.2", "libnccl.so" };
        for (size_t i = 0; i < sizeof tries / sizeof *tries && !nc.so; i++)
            nc.so = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
        if (!nc.so) {
            const char *e = dlerror();
            snprintf(nc.why, sizeof nc.why, "cannot open libnccl.so.2: %s", e ? e : "not found");
        } else {
#define SYM(n) do { *(void **)&nc.n = dlsym(nc.so, "nccl" #n); \
        if (!nc.n) { snprintf(nc.why, sizeof nc.why, "libnccl has no nccl" #n); dlclose(nc.so); nc.so = NULL; } } while (0)
            SYM(GetUniqueId);
            if (nc.so) SYM(CommInitRank);
            if (nc.so) SYM(Broadcast);
            if (nc.so) SYM(CommDestroy);
            if (nc.so) SYM(GetErrorString);
            if (nc.so) SYM(Send);
            if (nc.so) SYM(Recv);
            if (nc.so) SYM(GroupStart);
            if (nc.so) SYM(GroupEnd);
#undef SYM
        }
    }
    int ok = nc.so != NULL;
    pthread_mutex_unlock(&nc_lock);
    return ok;
}

int gk__nccl_available(char *why, size_t n)
{
    if (load())
        return 1;
    if (why && n) snprintf(why, n, "%s", nc.why);
    return 0;
}

struct gk_nccl { nccl_comm comm; };

static gk_status nccl_fail(int r, const char *what)
{
    return gk__fail(GK_ECUDA, "NCCL %s: %s (error %d)", what, nc.GetErrorString ? nc.GetErrorString(r) : "?", r);
}

gk_status gk__nccl_open(gk_nccl **out, const gk_comm *comm)
{
    *out = NULL;
    if (!load())
        return gk__fail(GK_ENODEV, "%s", nc.why);
    nccl_id id;
    memset(&id, 0, sizeof id);
    int r = 0;
    if (gk__comm_rank(comm) == 0)
        r = nc.GetUniqueId(&id);
    gk_status st = gk__comm_agree(comm, r ? nccl_fail(r, "unique id") : GK_OK);
    if (st || (st = gk__comm_bcast(comm, &id, sizeof id, 0)))
        return st;
    gk_nccl *n = calloc(1, sizeof *n);
    if (!n)
        return gk__fail(GK_ENOMEM, "cannot allocate the NCCL handle");
    if ((r = nc.CommInitRank(&n->comm, gk__comm_size(comm), id, gk__comm_rank(comm)))) {
        free(n);
        return nccl_fail(r, "communicator set-up");
    }
    *out = n;
    return GK_OK;
}

gk_status gk__nccl_open_if_everywhere(gk_nccl **n, const gk_comm *comm, int required)
{
    *n = NULL;
    char why[256] = "";
    int64_t missing = !gk__nccl_available(why, sizeof why);
    gk_status st = gk__comm_max_i64(comm, &missing, 1);
    if (st)
        return st;
    if (missing)
        return required ? gk__comm_agree(comm, gk__fail(GK_ENODEV, "--exchange=device between ranks needs NCCL: %s",
                                                        *why ? why : "missing on another rank"))
                        : GK_OK;
    return gk__comm_agree(comm, gk__nccl_open(n, comm));
}

gk_status gk__nccl_bcast(gk_nccl *n, const void *send, void *recv, size_t bytes, int root, cudaStream_t stream)
{
    int r = nc.Broadcast(send, recv, bytes, NCCL_UINT8, root, n->comm, stream);
    return r ? nccl_fail(r, "broadcast") : GK_OK;
}

gk_status gk__nccl_sendrecv(gk_nccl *n, const gk__nccl_xfer *x, int nx, cudaStream_t stream)
{
    int r = nc.GroupStart();
    for (int i = 0; i < nx && !r; i++) {
        if (x[i].bytes == 0 || x[i].peer < 0)
            continue;
        r = x[i].send ? nc.Send(x[i].send, x[i].bytes, NCCL_UINT8, x[i].peer, n->comm, stream)
                      : nc.Recv(x[i].recv, x[i].bytes, NCCL_UINT8, x[i].peer, n->comm, stream);
    }
    int r2 = nc.GroupEnd();
    if (!r) r = r2;
    return r ? nccl_fail(r, "send/receive") : GK_OK;
}

void gk__nccl_close(gk_nccl *n)
{
    if (!n) return;
    nc.CommDestroy(n->comm);
    free(n);
}
