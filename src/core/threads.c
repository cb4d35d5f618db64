/* threads.c - OpenMP's thread count fitted into an address-space limit
 * (`ulimit -v`).  libgomp creates its threads at the first parallel region
 * of each thread that runs one and, when pthread_create fails (each thread
 * maps a stack of the default size, 8 MiB under the usual `ulimit -s`),
 * prints "Thread creation failed" and exits: no error a caller could
 * report.  Counting the room first turns that into fewer threads and a
 * warning (the command sets OMP_NUM_THREADS and starts again: the count of
 * every thread's teams comes from there). */
#define _GNU_SOURCE 1      /* pthread_getattr_default_np */
#include "core/internal.h"

#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The address space mapped now, in bytes (0: unknown). */
static uint64_t mapped_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (!f) return 0;
    if (fscanf(f, "%llu", &pages) != 1) pages = 0;
    fclose(f);
    long ps = sysconf(_SC_PAGESIZE);
    return pages * (uint64_t)(ps > 0 ? ps : 4096);
}

int gk__threads_fit_limits(int *want_out)
{
    *want_out = 1;
#ifdef _OPENMP
    struct rlimit rl;
    int want = *want_out = omp_get_max_threads();
    if (want <= 1 || getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return want;
    size_t stack = gk__thread_stack_bytes();
    uint64_t used = mapped_bytes(), limit = (uint64_t)rl.rlim_cur;
    uint64_t per = (uint64_t)stack + (256u << 10);            /* guard page, TLS, libgomp's own */
    uint64_t free_ = limit > used ? limit - used : 0;
    /* the stacks take at most a quarter of what is left (a second thread
       that runs parallel regions makes a team of its own), the rest is for
       the data */
    uint64_t room = free_ / 4 / per;
    return room + 1 < (uint64_t)want ? (int)room + 1 : want;
#else
    return 1;
#endif
}

size_t gk__thread_stack_bytes(void)
{
    size_t stack = 8u << 20;
    pthread_attr_t a;
    if (pthread_getattr_default_np(&a) == 0) {
        size_t s = 0;
        if (pthread_attr_getstacksize(&a, &s) == 0 && s > 0) stack = s;
        pthread_attr_destroy(&a);
    }
    return stack;
}

void gk__threads_start(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
#pragma omp parallel
    {
        (void)0;
    }
#else
    (void)n;
#endif
}
