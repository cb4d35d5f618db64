/* cli_mpi.c - MPI for the gk command (see cli_mpi.h).  libgk links no MPI:
 * it gets the collectives it needs as the callbacks of a gk_comm. */
#include "cli/cli.h"
#include "cli/cli_mpi.h"

#include <stdlib.h>

int cli_mpi_nccl_ctas_default;

int cli_mpi_launched(void)
{
    const char *v[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK" };
    for (int i = 0; i < 3; i++)
        if (getenv(v[i]))
            return 1;
    return 0;
}

#ifdef GK_HAVE_MPI
#include <mpi.h>
#include <signal.h>

/* Testing only (tests/test_mpi_faults.sh): GK_TEST_MPI_KILL=RANK:N[:SIG]
 * makes rank RANK raise signal SIG (default SIGKILL) on itself when it
 * enters its Nth collective, so that a test can kill a rank at every point
 * of a run (read, compute, write) deterministically, without timing.  Read
 * here, in the command: the library reads no environment variable. */
static int kill_rank = -1, kill_sig = SIGKILL, my_rank;
static long kill_at, kill_calls;

static void kill_hook(void)
{
    if (kill_rank == my_rank && ++kill_calls == kill_at)
        raise(kill_sig);
}

static void kill_hook_parse(void)
{
    const char *v = getenv("GK_TEST_MPI_KILL");
    int r, sig = SIGKILL, n;
    long at;
    if (!v || !*v)
        return;
    if ((n = sscanf(v, "%d:%ld:%d", &r, &at, &sig)) < 2 || r < 0 || at < 1 || sig < 1 || sig > 64)
        cli_die("GK_TEST_MPI_KILL=%s: want RANK:N[:SIGNAL] (testing only)", v);
    kill_rank = r;
    kill_at = at;
    kill_sig = sig;
}

static int mpi_bcast(void *u, void *buf, size_t bytes, int root)
{
    (void)u;
    kill_hook();
    return MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD) != MPI_SUCCESS;
}

static int mpi_max_i64(void *u, int64_t *v, int n)
{
    (void)u;
    kill_hook();
    return MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS;
}

static int mpi_max_f64(void *u, double *v, int n)
{
    (void)u;
    kill_hook();
    return MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS;
}

static int mpi_sendrecv(void *u, const void *sbuf, size_t sbytes, int dest, void *rbuf, size_t rbytes, int source)
{
    (void)u;
    kill_hook();
    return MPI_Sendrecv(sbuf, (int)sbytes, MPI_BYTE, dest < 0 ? MPI_PROC_NULL : dest, 7, rbuf, (int)rbytes, MPI_BYTE,
                        source < 0 ? MPI_PROC_NULL : source, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS;
}

static void finalize(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done) {
        fflush(stdout);
        MPI_Finalize();
    }
}

static gk_comm world;

const gk_comm *cli_mpi_start(int *argc, char ***argv)
{
    if (!cli_mpi_launched())
        return NULL;
    /* NVLink multicast stays off, for NCCL and whatever it loads */
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    setenv("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1", 1);
    setenv("NVSHMEM_DISABLE_NVLS", "1", 1);
    /* A panel broadcast waits (spinning on its SMs) while the round runs:
     * few blocks are enough to move it and leave the SMs to the compute. */
    if (!getenv("NCCL_MAX_CTAS")) {
        setenv("NCCL_MAX_CTAS", "2", 1);
        cli_mpi_nccl_ctas_default = 1;
    }
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        cli_die("MPI_Init failed");
    atexit(finalize);
    MPI_Comm local;
    gk_comm_init(&world);
    MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world.size);
    my_rank = world.rank;
    kill_hook_parse();
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world.rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &world.local_rank);
    MPI_Comm_size(local, &world.local_size);
    MPI_Comm_free(&local);
    world.bcast = mpi_bcast;
    world.max_i64 = mpi_max_i64;
    world.max_f64 = mpi_max_f64;
    world.sendrecv = mpi_sendrecv;
    return world.size > 1 ? &world : NULL;
}
#else
const gk_comm *cli_mpi_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *n = getenv("OMPI_COMM_WORLD_SIZE");
    if (!n) n = getenv("PMI_SIZE");
    if (n && atoi(n) > 1)
        cli_die("started by mpirun with %s ranks, but this gk was built without MPI (configure --with-mpi)", n);
    return NULL;
}
#endif
