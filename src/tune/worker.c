/* worker.c - measuring in a child process.  A variant that faults the CUDA
 * context (illegal address, ...) cannot be recovered in-process, so gktune's
 * parent never touches CUDA: it starts a worker (gktune --worker, exec'ed
 * fresh), sends it one request per line and reads one answer per line; when
 * the worker dies or hangs, the variant is recorded as invalid and a new
 * worker is started.
 *
 *   -> info
 *   <- info CCMAJ CCMIN SMS DRIVER RUNTIME SMEM_BLOCK SMEM_OPTIN SMEM_SM REGS_SM MAXTHREADS L2 MEM NAME...
 *   -> measure KERNEL SIZE REPS SEED VALIDATE CONFIG CUBIN|-   (the path last: it
 *      may hold spaces)
 *   <- ok MEDIAN_MS MIN_MS
 *   <- fail STAGE MESSAGE      (STAGE: compile, launch, wrong, fault, error)
 *   -> verify KERNEL SIZE SEED CONFIG
 *   <- ok | fail STAGE MESSAGE
 */
#define _GNU_SOURCE             /* pipe2, close_range */
#include "tune/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- worker */

static void reply(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply(FILE *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    fflush(out);
}

static void one_line(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\r') *s = ' ';
}

/* The cubin of the request in progress (see gk__tune_offer_again). */
static struct { char image[32]; gk_config mc; void *buf; size_t n; } held;

void gk__tune_offer_again(void)
{
    if (held.buf)
        gk__gpu_cubin_offer(held.image, &held.mc, held.buf, held.n);
}

/* Answers one measure or verify request; returns 1 when the context is lost
 * and the worker must exit. */
static int do_request(char *args, int verify, FILE *out)
{
    char kernel[32], cubin[4096] = "-", cfgtext[1024];
    long long size, seed;
    int reps = 0, validate = 0;
    int got = verify ? sscanf(args, "%31s %lld %lld %1023s", kernel, &size, &seed, cfgtext)
                     : sscanf(args, "%31s %lld %d %lld %d %1023s %4095[^\n]", kernel, &size, &reps, &seed, &validate, cfgtext, cubin);
    if (got != (verify ? 4 : 7)) {
        reply(out, "fail error bad request");
        return 0;
    }
    const gk_tunable *t = gk__tunable_find(kernel);
    gk_config cfg, full;
    gk__config_clear(&cfg);
    if (!t) { reply(out, "fail error unknown kernel %s", kernel); return 0; }
    if ((!strcmp(cfgtext, "-") ? GK_OK : gk__config_parse(cfgtext, &cfg)) || gk__space_complete(t->space, &cfg, &full)) {
        char m[512];
        snprintf(m, sizeof m, "%s", gk_last_error());
        one_line(m);
        reply(out, "fail error %s", m);
        return 0;
    }
    if (strcmp(cubin, "-")) {
        /* in the tuner's cubins directory: read by the cache directory's
         * rules (no link followed, no FIFO waited on, the user's regular
         * file, bounded); anything else is not offered (then compiled here) */
        char *buf;
        size_t n;
        gk_config mc;          /* under the configuration the image is loaded with (apspx_*: apsp's) */
        if (gk__cache_read_all(cubin, 1, GK_CUBIN_MAX_BYTES, &buf, &n) == GK_CFILE_OK) {
            if (n && gk__tunable_module_config(t, &full, &mc) == GK_OK) {
                gk__gpu_cubin_offer(t->image_name, &mc, buf, n);
                snprintf(held.image, sizeof held.image, "%s", t->image_name);
                held.mc = mc;
                held.buf = buf;            /* kept for the request (gk__tune_offer_again) */
                held.n = n;
                buf = NULL;
            }
            free(buf);
        }
        gk__clear_error();
    }
    gk_status st = GK_OK;
    double med = 0, mn = 0;
    if (verify)
        st = t->verify(size, &full, (uint64_t)seed);
    else if (validate)
        st = t->validate(&full, (uint64_t)seed);
    if (st == GK_OK && !verify)
        st = t->measure(size, &full, (uint64_t)seed, reps, &med, &mn);
    free(held.buf);
    held.buf = NULL;
    if (st == GK_OK) {
        if (verify) reply(out, "ok");
        else reply(out, "ok %.6f %.6f", med, mn);
        return 0;
    }
    char m[1024];
    snprintf(m, sizeof m, "%s", gk_last_error());
    one_line(m);
    if (st == GK_ECOMPILE) { reply(out, "fail compile %s", m); return 0; }
    if (st == GK_EMISMATCH) { reply(out, "fail wrong %s", m); return 0; }
    if (!gk__gpu_healthy()) { reply(out, "fail fault %s", m); return 1; }  /* context lost: exit */
    reply(out, "fail launch %s", m);
    return 0;
}

int gk__tune_worker(int ordinal, const char *why, int in_fd, int out_fd)
{
    /* The device is chosen once per process, before any request (a worker
     * restarted after a fault chooses it again); ordinal < 0: no GPU. */
    char nodev[512] = "";
    gk_status dst = ordinal < 0 ? gk__fail(GK_ENODEV, "%s", why && *why ? why : "no usable GPU")
                                : gk__tune_set_device(ordinal);
    if (dst) snprintf(nodev, sizeof nodev, "%s", gk_last_error());
    FILE *in = fdopen(in_fd, "r"), *out = fdopen(out_fd, "w");
    char line[8192];
    if (!in || !out)
        return 1;
    signal(SIGINT, SIG_IGN);   /* the parent decides when to stop */
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strcmp(line, "quit"))
            break;
        if (!strcmp(line, "info")) {
            const gk_device_info d = *gk__tune_device();
            if (dst != GK_OK) {
                char m[512];
                snprintf(m, sizeof m, "%s", nodev);
                one_line(m);
                reply(out, "fail nodev %s", m);
                continue;
            }
            reply(out, "info %d %d %d %d %d %zu %zu %zu %d %d %d %zu %s", d.cc_major, d.cc_minor, d.sm_count,
                  d.driver_version, d.runtime_version, d.smem_per_block, d.smem_per_block_optin,
                  d.smem_per_sm, d.regs_per_sm, d.max_threads_per_block, d.l2_bytes, d.total_mem, d.name);
        } else if (!strncmp(line, "measure ", 8) || !strncmp(line, "verify ", 7)) {
            if (do_request(strchr(line, ' ') + 1, line[0] == 'v', out))
                return 3;
        } else {
            reply(out, "fail error unknown request");
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- parent */

/* The interruption: gk__worker_wake (from a signal handler, or another
 * thread) writes a byte into this pipe, whose read end every wait on a
 * worker polls beside the worker's answer; it stays readable (so every
 * later wait returns at once) until gk__worker_wake_reset drains it.  Made
 * once, kept for the life of the process (a handler may write into it at
 * any time). */
static int wake_fd[2] = { -1, -1 };
/* The running worker's pid (its process group), for gk__worker_kill. */
static volatile sig_atomic_t live_pid;

static int pipe_cloexec(int p[2]);

gk_status gk__worker_wake_reset(void)
{
    if (wake_fd[0] < 0) {
        int p[2];
        if (pipe_cloexec(p) != 0 || fcntl(p[0], F_SETFL, O_NONBLOCK) != 0 || fcntl(p[1], F_SETFL, O_NONBLOCK) != 0)
            return gk__fail(GK_EIO, "tuner: cannot make a pipe: %s", strerror(errno));
        wake_fd[1] = p[1];
        wake_fd[0] = p[0];
    }
    char junk[64];
    while (read(wake_fd[0], junk, sizeof junk) > 0) {}
    return GK_OK;
}

void gk__worker_wake(void)
{
    int e = errno;
    if (wake_fd[1] >= 0 && write(wake_fd[1], "!", 1) < 0) { /* full: it is readable already */ }
    errno = e;
}

/* 1 when gk__worker_wake was called since the last reset. */
static int woken(void)
{
    if (wake_fd[0] < 0)
        return 0;
    struct pollfd p = { wake_fd[0], POLLIN, 0 };
    return poll(&p, 1, 0) > 0;
}

void gk__worker_kill(void)
{
    int e = errno;
    pid_t pid = (pid_t)live_pid;
    if (pid > 0 && kill(-pid, SIGKILL) != 0)
        kill(pid, SIGKILL);
    errno = e;
}

void gk__worker_init(gk_worker *w, char *const *argv)
{
    memset(w, 0, sizeof *w);
    w->argv = argv;
    w->pid = -1;
    w->to = w->from = -1;
}

/* Kill the worker and everything it started (it leads its own process group:
 * a wrapper such as compute-sanitizer takes its child with it), then reap it
 * so that no zombie is left.  Returns its wait status, or -1. */
static int kill_and_reap(pid_t pid)
{
    int status = -1;
    if (kill(-pid, SIGKILL) != 0)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return status;
}

/* Kill the worker at once (it hangs or has faulted). */
static void kill_worker(gk_worker *w)
{
    if (w->pid > 0)
        kill_and_reap(w->pid);
    live_pid = 0;
    if (w->to >= 0) close(w->to);
    if (w->from >= 0) close(w->from);
    w->pid = -1;
    w->to = w->from = -1;
    w->have = 0;
}

static int write_all(int fd, const char *buf, size_t n);

void gk__worker_stop(gk_worker *w)
{
    /* (interrupted: killed at once, not waited for) */
    if (w->pid > 0 && w->to >= 0 && w->from >= 0 && !woken() && write_all(w->to, "quit\n", 5) == 0) {
        /* Let it end by itself (a CUDA context torn down properly, a wrapper
         * such as compute-sanitizer printing its summary): quit, then EOF on
         * its stdin; wait up to 2 s for its end of the pipe to close, then
         * kill it anyway. */
        close(w->to);
        w->to = -1;
        double t0 = gk__wtime();
        char junk[256];
        for (double left = 2; left > 0; left = 2 - (gk__wtime() - t0)) {
            struct pollfd p[2] = { { w->from, POLLIN, 0 }, { wake_fd[0], POLLIN, 0 } };
            int r = poll(p, wake_fd[0] >= 0 ? 2 : 1, (int)(left * 1000) + 1);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0 || (wake_fd[0] >= 0 && p[1].revents)) break;
            ssize_t got = read(w->from, junk, sizeof junk);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;                      /* EOF: it has gone */
        }
    }
    kill_worker(w);
}

/* A close-on-exec pipe whose ends are not 0, 1 or 2 (where the child's stdin
 * and stdout go, and which may be closed in a parent run as `gktune <&-`). */
static int pipe_cloexec(int p[2])
{
    if (pipe2(p, O_CLOEXEC))
        return -1;
    for (int i = 0; i < 2; i++) {
        if (p[i] > 2) continue;
        int hi = fcntl(p[i], F_DUPFD_CLOEXEC, 3);
        int e = errno;
        close(p[i]);
        p[i] = hi;
        if (hi < 0) {
            if (p[1 - i] >= 0) close(p[1 - i]);
            errno = e;
            return -1;
        }
    }
    return 0;
}

static void close_pipe(int p[2])
{
    if (p[0] >= 0) close(p[0]);
    if (p[1] >= 0) close(p[1]);
    p[0] = p[1] = -1;
}

/* In the child, between fork and exec: async-signal-safe calls only. */
static void child(char *const *argv, int in, int out, int status_fd) __attribute__((noreturn));
static void child(char *const *argv, int in, int out, int status_fd)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGPIPE, &dfl, NULL);   /* the parent ignores it; do not pass that on */
    setpgid(0, 0);                    /* Ctrl-C goes to gktune, not to the worker */
    /* in, out and status_fd are all >= 3 and close-on-exec; the copies on 0
     * and 1 are not.  Whatever else the caller has open (the journal, the
     * --csv file) is closed on exec too: the worker gets only 0, 1 and 2. */
    int err = 0;
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0)
        err = errno;
    else {
#ifdef CLOSE_RANGE_CLOEXEC
        if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
#endif
        {
            long max = sysconf(_SC_OPEN_MAX);
            if (max < 0 || max > 65536) max = 65536;
            for (int fd = 3; fd < max; fd++)
                fcntl(fd, F_SETFD, FD_CLOEXEC);
        }
        execvp(argv[0], argv);
        err = errno;
    }
    /* Tell the parent why: it reads 4 bytes here, or EOF when exec worked. */
    while (write(status_fd, &err, sizeof err) < 0 && errno == EINTR) {}
    _exit(127);
}

static gk_status start(gk_worker *w)
{
    int a[2] = { -1, -1 }, b[2] = { -1, -1 }, s[2] = { -1, -1 };
    if (!w->argv || !w->argv[0] || !*w->argv[0])
        return gk__fail(GK_EINVAL, "no worker command given");
    if (pipe_cloexec(a) || pipe_cloexec(b) || pipe_cloexec(s)) {
        gk_status st = gk__fail(GK_EIO, "cannot start worker '%s': pipe: %s", w->argv[0], strerror(errno));
        close_pipe(a); close_pipe(b); close_pipe(s);
        return st;
    }
    signal(SIGPIPE, SIG_IGN);   /* a worker that dies is reported, not fatal (see gk_tune_run) */
    pid_t pid = fork();
    if (pid < 0) {
        gk_status st = gk__fail(GK_EIO, "cannot start worker '%s': fork: %s", w->argv[0], strerror(errno));
        close_pipe(a); close_pipe(b); close_pipe(s);
        return st;
    }
    if (pid == 0)
        child(w->argv, a[0], b[1], s[1]);
    setpgid(pid, pid);          /* as the child does: no window where a kill of the group misses */
    live_pid = pid;
    close(a[0]);
    close(b[1]);
    close(s[1]);
    int err = 0;
    ssize_t got;
    while ((got = read(s[0], &err, sizeof err)) < 0 && errno == EINTR) {}
    if (got < 0) err = errno;
    close(s[0]);
    if (got != 0) {             /* exec failed (EOF would mean it worked): reap the child */
        kill_and_reap(pid);
        close(a[1]);
        close(b[0]);
        if (got == (ssize_t)sizeof err)
            return gk__fail(GK_EINVAL, "cannot start worker '%s': %s", w->argv[0], strerror(err));
        return gk__fail(GK_EIO, "cannot start worker '%s': %s", w->argv[0],
                        got < 0 ? strerror(err) : "short status from the child");
    }
    w->pid = pid;
    w->to = a[1];
    w->from = b[0];
    w->have = 0;
    w->starts++;
    return GK_OK;
}

/* Read one line within timeout_s; 0 ok, -1 dead/EOF, -2 timeout, -3
 * interrupted (gk__worker_wake). */
static int read_line(gk_worker *w, char *line, size_t n, double timeout_s)
{
    double t0 = gk__wtime();
    for (;;) {
        char *nl = memchr(w->buf, '\n', (size_t)w->have);
        if (nl) {
            size_t len = (size_t)(nl - w->buf);
            snprintf(line, n, "%.*s", (int)len, w->buf);
            memmove(w->buf, nl + 1, (size_t)w->have - len - 1);
            w->have -= (int)len + 1;
            return 0;
        }
        double left = timeout_s - (gk__wtime() - t0);
        if (left <= 0)
            return -2;
        struct pollfd p[2] = { { w->from, POLLIN, 0 }, { wake_fd[0], POLLIN, 0 } };
        int r = poll(p, wake_fd[0] >= 0 ? 2 : 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) continue;
        if (r < 0) return -1;
        if (wake_fd[0] >= 0 && p[1].revents) return -3;
        if (!p[0].revents) continue;
        if (w->have >= (int)sizeof w->buf - 1) return -1;
        ssize_t got = read(w->from, w->buf + w->have, sizeof w->buf - 1 - (size_t)w->have);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0)
            return -1;
        w->have += (int)got;
    }
}

/* All of buf, across short writes and signals; 0 or -1 (EPIPE: it is gone). */
static int write_all(int fd, const char *buf, size_t n)
{
    while (n) {
        ssize_t put = write(fd, buf, n);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return -1;
        buf += put;
        n -= (size_t)put;
    }
    return 0;
}

/* The worker closed its pipes (EOF or EPIPE): it is ending.  Give it a few
 * seconds to end by itself, so that its own exit status is what is reported
 * (killing it at once raced with its exit: "killed by signal 9" for a worker
 * that was about to exit with its status), then kill what is left of its
 * process group and reap it. */
static int reap_ending(pid_t pid)
{
    int status = -1;
    double t0 = gk__wtime();
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            kill(-pid, SIGKILL);        /* children it left in its group */
            return status;
        }
        if (r < 0 && errno != EINTR)
            return -1;
        if (gk__wtime() - t0 > 5)
            return kill_and_reap(pid);
        struct timespec ts = { 0, 1000000 };   /* 1 ms */
        nanosleep(&ts, NULL);
    }
}

/* The worker is gone (EOF or EPIPE): reap it and say how it ended. */
static void died(gk_worker *w, char *answer, size_t n)
{
    int status = reap_ending(w->pid);
    w->pid = -1;
    kill_worker(w);
    if (status >= 0 && WIFSIGNALED(status))
        snprintf(answer, n, "fail fault worker killed by signal %d", WTERMSIG(status));
    else if (status >= 0 && WIFEXITED(status))
        snprintf(answer, n, "fail fault worker exited (status %d)", WEXITSTATUS(status));
    else
        snprintf(answer, n, "fail fault worker lost");
}

gk_status gk__worker_request(gk_worker *w, const char *req, double timeout_s, char *answer, size_t n)
{
    gk_status st;
    if (woken()) {              /* interrupted: no new work, no new worker */
        kill_worker(w);
        snprintf(answer, n, "fail interrupted");
        return GK_OK;
    }
    if (w->pid <= 0 && (st = start(w)))
        return st;
    size_t len = strlen(req);
    char *msg = malloc(len + 2);
    if (!msg)
        return gk__fail(GK_ENOMEM, "worker request: out of memory");
    memcpy(msg, req, len);
    msg[len] = '\n';
    int wr = write_all(w->to, msg, len + 1);
    free(msg);
    if (wr) {                   /* it died before reading the request (EPIPE) */
        died(w, answer, n);
        return GK_OK;
    }
    int r = read_line(w, answer, n, timeout_s);
    if (r == -3) {              /* interrupted: the measurement in flight is abandoned */
        kill_worker(w);
        snprintf(answer, n, "fail interrupted");
    } else if (r == -2) {
        kill_worker(w);
        snprintf(answer, n, "fail timeout no answer within %.0f s", timeout_s);
    } else if (r == -1) {
        died(w, answer, n);
    } else if (!strncmp(answer, "fail fault", 10)) {
        kill_worker(w);        /* it exits by itself; make sure */
    }
    return GK_OK;
}
