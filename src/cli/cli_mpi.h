/* cli_mpi.h - the gk command under mpirun: MPI is started only when the
 * environment says mpirun (or another PMI launcher) started this process,
 * so a plain gk run pays nothing for it. */
#ifndef GK_CLI_MPI_H
#define GK_CLI_MPI_H

#include "gk.h"

/* 1 when the environment shows a launch by mpirun: OMPI_COMM_WORLD_SIZE
 * (Open MPI), PMI_SIZE (MPICH, Intel MPI) or PMIX_RANK (PMIx). */
int cli_mpi_launched(void);
/* Under mpirun and built with MPI: MPI_Init (MPI_Finalize at exit) and the
 * communicator of MPI_COMM_WORLD for gk_context_options.comm; NULL when
 * there is one rank.  Under mpirun but built without MPI: dies with the
 * reason. */
const gk_comm *cli_mpi_start(int *argc, char ***argv);
/* 1 when cli_mpi_start set NCCL_MAX_CTAS=2 itself (APSP's panels move while
 * the rounds compute); the stencil, whose halo copies run alone, lifts it. */
extern int cli_mpi_nccl_ctas_default;

#endif /* GK_CLI_MPI_H */
