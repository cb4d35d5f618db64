/* internal.h - helpers shared inside libgk; not installed. */
#ifndef GK_INTERNAL_H
#define GK_INTERNAL_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "core/kernel_config.h"

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
/* Self-test of the GPU plumbing on device `ordinal` (`gk info`): loads the
 * embedded fatbin, launches a vector add of n floats and checks it against
 * the CPU.  ms: kernel time (events). */
gk_status gk__gpu_selftest(int ordinal, size_t n, float *ms);

/* gk_gpu_info for gk's own callers: fills the whole struct (struct_size
 * set), whatever *info held. */
gk_status gk__gpu_info(int ordinal, gk_device_info *info);

/* The device a CUDA stream (a cudaStream_t) belongs to (-1 where the
 * runtime cannot say); GK_ECUDA for an invalid stream. */
gk_status gk__gpu_stream_device(void *stream, int *device);
/* What p is: device memory (cudaMalloc'ed or managed) of *device, or host
 * memory (*device_memory 0).  CPU-only builds: always host. */
gk_status gk__gpu_pointer_kind(const void *p, int *device_memory, int *device);

/* Device memory and copies for the benchmarks (gk bench plan): plain
 * cudaMalloc / cudaFree, a synchronous copy (to_device 1: host to device),
 * a wait for a stream; an event pair that times a region of a stream in
 * milliseconds.  CPU-only builds: GK_ENODEV. */
gk_status gk__gpu_alloc(void **p, size_t bytes);
void gk__gpu_free(void *p);
gk_status gk__gpu_copy(void *dst, const void *src, size_t bytes, int to_device);
gk_status gk__gpu_stream_wait(void *stream);
typedef struct gk__gpu_span { void *start, *stop; } gk__gpu_span;
gk_status gk__gpu_span_begin(gk__gpu_span *t, void *stream);
gk_status gk__gpu_span_end(gk__gpu_span *t, void *stream, double *ms);

/* Hand the next GPU module load of (image, complete cfg) a cubin compiled
 * ahead (copied; used once). */
void gk__gpu_cubin_offer(const char *image, const gk_config *full, const void *cubin, size_t size);

/* Median of v[0..n) (sorts v); the minimum in *min if min != NULL. */
double gk__median(double *v, int n, double *min);

/* Physical memory in bytes (0 if unknown). */
uint64_t gk__phys_mem_bytes(void);

/* Human size: "1.5 GiB". */
const char *gk__human_bytes(double bytes, char *buf, size_t n);

/* The best instruction set this CPU has (never AUTO). */
gk_cpu_isa gk__cpu_isa_best(void);

/* Monotonic wall clock in seconds. */
double gk__wtime(void);

/* GK_ENOMEM ("WHAT needs N GiB of host memory, this machine has M GiB")
 * when bytes exceed the machine's physical memory: with overcommit a malloc
 * that large may "succeed" and the process be killed later instead. */
gk_status gk__host_memory_check(uint64_t bytes, const char *what);

/* The struct_size rule of the public API (gk/common.h) for a struct the
 * caller hands in: *local (already filled with the defaults by its _init)
 * receives the first given->struct_size bytes of *given, its struct_size
 * set to local_size.  GK_EINVAL naming `what` when struct_size is 0 or
 * below min_size (the first release's size of the struct), or above
 * local_size (a program built against a newer gk.h) unless the bytes past
 * local_size are all 0. */
gk_status gk__struct_in(void *local, size_t local_size, const void *given, size_t min_size, const char *what);
/* The same for a struct gk fills: the first given->struct_size bytes of
 * *local (complete) are copied to *given, whose struct_size is kept.
 * GK_EINVAL as gk__struct_in (nothing written then). */
gk_status gk__struct_out(void *given, const void *local, size_t local_size, size_t min_size, const char *what);
#define GK__STRUCT_IN(local, given, what) gk__struct_in(&(local), sizeof(local), (given), sizeof(local), (what))
#define GK__STRUCT_OUT(given, local, what) gk__struct_out((given), &(local), sizeof(local), sizeof(local), (what))
/* The same for a struct a later release extended: first_new is its first
 * field added after the first release, so a program built against that
 * release's smaller struct keeps working (the new fields then keep their
 * defaults on the way in and are not written on the way out). */
/* The size gk_report had in 1.0 and 1.1 (before dtype and cycle_vertex). */
#define GK__REPORT_1_0_SIZE ((offsetof(gk_report, dtype) + _Alignof(gk_report) - 1) & ~(_Alignof(gk_report) - 1))
#define GK__STRUCT_IN_SINCE(local, given, first_new, what) \
    gk__struct_in(&(local), sizeof(local), (given), offsetof(__typeof__(local), first_new), (what))
#define GK__STRUCT_OUT_SINCE(given, local, first_new, what) \
    gk__struct_out((given), &(local), sizeof(local), offsetof(__typeof__(local), first_new), (what))

/* Under an address-space limit (`ulimit -v`): the OpenMP thread count
 * whose stacks fit a quarter of the free address space (*want: the count
 * OpenMP would use; the return value equals it when there is no limit or
 * room enough).  libgomp exits with its own message when it cannot create
 * a thread, so a command lowers the count before any parallel region. */
int gk__threads_fit_limits(int *want);
/* The stack size of a new thread (pthread's default attributes). */
size_t gk__thread_stack_bytes(void);
/* omp_set_num_threads(n) and the team started now (libgomp keeps it). */
void gk__threads_start(int n);
/* Format a note (a bench row's check, a vendor library's name, ...) into the
 * field dst of n bytes.  A note that does not fit is cut at the end of the
 * last whole word that leaves room for "..." (never inside a word, unless
 * its first word alone is longer than the field). */
void gk__note(char *dst, size_t n, const char *fmt, ...) GK_PRINTF(3, 4);

/* Allocate n bytes of host memory or fail with GK_ENOMEM naming what for. */
gk_status gk__xmalloc(void **out, size_t n, const char *what);

#endif /* GK_INTERNAL_H */
