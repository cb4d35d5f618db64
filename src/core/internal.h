/* internal.h - helpers shared inside libgk; not installed. */
#ifndef GK_INTERNAL_H
#define GK_INTERNAL_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"

#include <stdarg.h>

#if defined(__GNUC__)
#define GK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GK_PRINTF(f, a)
#endif

/* Record a failure for gk_last_error() and return st. */
gk_status gk__fail(gk_status st, const char *fmt, ...) GK_PRINTF(2, 3);
/* Clear the calling thread's message. */
void gk__clear_error(void);

/* CPUs close to a PCI device ("0000:17:00.0"), as a list ("0-15,32-47"). */
void gk__pci_local_cpus(const char *busid, char *buf, size_t n);

/* 0 when the current CUDA context is broken (a sticky error such as an
 * illegal address): the process must exit to recover. */
int gk__gpu_healthy(void);
/* Hand the next GPU module load of (image, complete cfg) a cubin compiled
 * ahead (copied; used once). */
void gk__gpu_cubin_offer(const char *image, const gk_config *full, const void *cubin, size_t size);

/* Median of v[0..n) (sorts v); the minimum in *min if min != NULL. */
double gk__median(double *v, int n, double *min);

/* Physical memory in bytes (0 if unknown). */
uint64_t gk__phys_mem_bytes(void);

/* Human size: "1.5 GiB". */
const char *gk__human_bytes(double bytes, char *buf, size_t n);

/* Allocate n bytes of host memory or fail with GK_ENOMEM naming what for. */
gk_status gk__xmalloc(void **out, size_t n, const char *what);

#endif /* GK_INTERNAL_H */
