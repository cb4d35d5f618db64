/* stencil_slab.c - a CPU rank's z slab and its rounds (stencil_slab.h). */
#include "cpu/stencil_slab.h"

#include <string.h>

void gk__stencil_cpu_slab_rows(gk_stencil_cpu_slab *c, int z, int n, double *buf, int put)
{
    int64_t px, py;
    double *p0 = gk__stencil_cpu_plane(c->g, z - c->e0, &px, &py);
    int nx = c->nx, ny = c->ny;
#ifdef _OPENMP
#pragma omp parallel for collapse(2) schedule(static)
#endif
    for (int k = 0; k < n; k++)
        for (int y = 0; y < ny; y++) {
            double *row = p0 + (int64_t)k * px * py + (int64_t)(y + 1) * px + GK_STENCIL_CPU_XOFF;
            double *b = buf + ((int64_t)k * ny + y) * nx;
            if (put)
                memcpy(row, b, (size_t)nx * sizeof *b);
            else
                memcpy(b, row, (size_t)nx * sizeof *b);
        }
}

gk_status gk__stencil_cpu_slab_rounds(gk_stencil_cpu_slab *c, const gk_comm *comm, int lo, int hi, int H,
                                      int steps, double *wait)
{
    gk_status st = GK_OK;
    int64_t px, py;
    gk__stencil_cpu_plane(c->g, 0, &px, &py);
    size_t pb = (size_t)(px * py) * sizeof(double);
    for (int s = 0; s < steps && !st; s += H) {
        int t = steps - s < H ? steps - s : H;
        int mlo = lo >= 0 ? t : 0, mhi = hi >= 0 ? t : 0;
        double t0 = gk__wtime();
        double *slo = gk__stencil_cpu_plane(c->g, c->z0 - c->e0, NULL, NULL);
        double *rlo = gk__stencil_cpu_plane(c->g, c->z0 - c->e0 - mlo, NULL, NULL);
        double *shi = gk__stencil_cpu_plane(c->g, c->z1 - c->e0 - mhi, NULL, NULL);
        double *rhi = gk__stencil_cpu_plane(c->g, c->z1 - c->e0, NULL, NULL);
        if ((st = gk__comm_sendrecv(comm, slo, (size_t)mlo * pb, mlo ? lo : -1, rhi, (size_t)mhi * pb, mhi ? hi : -1))
            || (st = gk__comm_sendrecv(comm, shi, (size_t)mhi * pb, mhi ? hi : -1, rlo, (size_t)mlo * pb,
                                       mlo ? lo : -1)))
            break;
        *wait += gk__wtime() - t0;
        st = gk__stencil_cpu_steps(c->g, t, t);
    }
    return st;
}
