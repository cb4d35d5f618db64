/* worker.h - the measuring child process of gktune (see worker.c). */
#ifndef GK_WORKER_H
#define GK_WORKER_H

#include "tune/tune.h"
#include <sys/types.h>

typedef struct gk_worker {
    char *const *argv;
    pid_t pid;
    int to, from;
    char buf[16384];
    int have;
    int starts;
} gk_worker;

void gk__worker_init(gk_worker *w, char *const *argv);
/* Send req, wait up to timeout_s for the one-line answer.  A dead or hung
 * worker gives "fail fault ..." or "fail timeout ..." and is restarted by the
 * next request.  After gk__worker_wake: "fail interrupted" at once, the
 * worker killed.  Fails only when the worker cannot be started at all. */
gk_status gk__worker_request(gk_worker *w, const char *req, double timeout_s, char *answer, size_t n);
/* Ask the worker to quit, wait up to 2 s, then kill it (at once when
 * interrupted). */
void gk__worker_stop(gk_worker *w);
/* The interruption (async-signal-safe): every wait on a worker returns at
 * once with "fail interrupted" until gk__worker_wake_reset (which a run
 * calls first). */
void gk__worker_wake(void);
gk_status gk__worker_wake_reset(void);
/* Kill the running worker's process group now (async-signal-safe: for a
 * command that must end at once). */
void gk__worker_kill(void);

#endif /* GK_WORKER_H */
