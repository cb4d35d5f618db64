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
#include "tune/worker.h"

#include <errno.h>
#include <stdarg.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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
    gk_config_clear(&cfg);
    if (!t) { reply(out, "fail error unknown kernel %s", kernel); return 0; }
    if ((!strcmp(cfgtext, "-") ? GK_OK : gk_config_parse(cfgtext, &cfg)) || gk__space_complete(t->space, &cfg, &full)) {
        char m[512];
        snprintf(m, sizeof m, "%s", gk_last_error());
        one_line(m);
        reply(out, "fail error %s", m);
        return 0;
    }
    if (strcmp(cubin, "-")) {
        FILE *f = fopen(cubin, "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            void *buf = n > 0 ? malloc((size_t)n) : NULL;
            if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n)
                gk__gpu_cubin_offer(t->image_name, &full, buf, (size_t)n);
            free(buf);
            fclose(f);
        }
    }
    gk_status st = GK_OK;
    double med = 0, mn = 0;
    if (verify)
        st = t->verify(size, &full, (uint64_t)seed);
    else if (validate)
        st = t->validate(&full, (uint64_t)seed);
    if (st == GK_OK && !verify)
        st = t->measure(size, &full, (uint64_t)seed, reps, &med, &mn);
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

int gk_tune_worker_main(int in_fd, int out_fd)
{
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
            gk_device_info d;
            if (gk_gpu_info(gk_gpu_ordinal(), &d) != GK_OK) {
                char m[512];
                snprintf(m, sizeof m, "%s", gk_last_error());
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

void gk__worker_init(gk_worker *w, char *const *argv)
{
    memset(w, 0, sizeof *w);
    w->argv = argv;
    w->pid = -1;
    w->to = w->from = -1;
}

void gk__worker_stop(gk_worker *w)
{
    if (w->pid > 0) {
        if (w->to >= 0 && write(w->to, "quit\n", 5) < 0) { /* it may be dead already */ }
        kill(w->pid, SIGKILL);
        waitpid(w->pid, NULL, 0);
    }
    if (w->to >= 0) close(w->to);
    if (w->from >= 0) close(w->from);
    w->pid = -1;
    w->to = w->from = -1;
    w->have = 0;
}

static gk_status start(gk_worker *w)
{
    int a[2], b[2];
    if (!w->argv || !w->argv[0])
        return gk__fail(GK_EINVAL, "no worker command given");
    if (pipe(a))
        return gk__fail(GK_EIO, "pipe: %s", strerror(errno));
    if (pipe(b)) {
        close(a[0]); close(a[1]);
        return gk__fail(GK_EIO, "pipe: %s", strerror(errno));
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(a[0]); close(a[1]); close(b[0]); close(b[1]);
        return gk__fail(GK_EIO, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        dup2(a[0], 0);
        dup2(b[1], 1);
        close(a[0]); close(a[1]); close(b[0]); close(b[1]);
        setpgid(0, 0);           /* Ctrl-C goes to gktune, not to the worker */
        execvp(w->argv[0], w->argv);
        dprintf(1, "fail exec %s: %s\n", w->argv[0], strerror(errno));
        _exit(127);
    }
    close(a[0]);
    close(b[1]);
    w->pid = pid;
    w->to = a[1];
    w->from = b[0];
    w->have = 0;
    w->starts++;
    return GK_OK;
}

/* Read one line within timeout_s; 0 ok, -1 dead/EOF, -2 timeout. */
static int read_line(gk_worker *w, char *line, size_t n, double timeout_s)
{
    double t0 = gk_wtime();
    for (;;) {
        char *nl = memchr(w->buf, '\n', (size_t)w->have);
        if (nl) {
            size_t len = (size_t)(nl - w->buf);
            snprintf(line, n, "%.*s", (int)len, w->buf);
            memmove(w->buf, nl + 1, (size_t)w->have - len - 1);
            w->have -= (int)len + 1;
            return 0;
        }
        double left = timeout_s - (gk_wtime() - t0);
        if (left <= 0)
            return -2;
        struct pollfd p = { w->from, POLLIN, 0 };
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) continue;
        if (w->have >= (int)sizeof w->buf - 1) return -1;
        ssize_t got = read(w->from, w->buf + w->have, sizeof w->buf - 1 - (size_t)w->have);
        if (got <= 0)
            return -1;
        w->have += (int)got;
    }
}

gk_status gk__worker_request(gk_worker *w, const char *req, double timeout_s, char *answer, size_t n)
{
    gk_status st;
    if (w->pid <= 0 && (st = start(w)))
        return st;
    size_t len = strlen(req);
    signal(SIGPIPE, SIG_IGN);
    if (write(w->to, req, len) != (ssize_t)len || write(w->to, "\n", 1) != 1) {
        /* It exited first (e.g. exec failed): what it said before is the
         * answer ("fail exec ..."); its pipe holds it, or EOF. */
        if (read_line(w, answer, n, 5.0) != 0 || strncmp(answer, "fail ", 5))
            snprintf(answer, n, "fail fault worker died before the request");
        gk__worker_stop(w);
        return GK_OK;
    }
    int r = read_line(w, answer, n, timeout_s);
    if (r == -2) {
        gk__worker_stop(w);
        snprintf(answer, n, "fail timeout no answer within %.0f s", timeout_s);
    } else if (r == -1) {
        int status = 0;
        kill(w->pid, SIGKILL);
        waitpid(w->pid, &status, 0);
        w->pid = -1;
        gk__worker_stop(w);
        if (WIFSIGNALED(status))
            snprintf(answer, n, "fail fault worker killed by signal %d", WTERMSIG(status));
        else
            snprintf(answer, n, "fail fault worker exited (status %d)", WEXITSTATUS(status));
    } else if (!strncmp(answer, "fail fault", 10)) {
        gk__worker_stop(w);    /* it exits by itself; make sure */
    }
    return GK_OK;
}
