/* test_tune_worker.c - gktune's measuring child process (src/tune/worker.c)
 * driven with small sh workers, no GPU: an unstartable worker is named with
 * the reason every time (the exec failure comes back on a close-on-exec status
 * pipe, not as a race with the first request); a worker that dies before
 * reading a request, or is killed, is reaped and reported by its exit status;
 * a hung worker is killed with everything it started; no zombie is left; the
 * worker gets only fds 0, 1 and 2 and SIGPIPE at its default; a parent whose
 * stdin is closed still talks to its worker; signals hitting the parent do
 * not break a request; an interruption (gk__worker_wake) ends one at once. */
#include "tune/worker.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* No child of this process exists, not even a zombie. */
static int no_children(void)
{
    return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

/* Block until pid has exited, without reaping it. */
static void wait_exited(pid_t pid)
{
    siginfo_t si;
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR) {}
}

static char answer[4096];

static gk_status ask(gk_worker *w, const char *req, double timeout)
{
    answer[0] = '\0';
    return gk__worker_request(w, req, timeout, answer, sizeof answer);
}

static void on_alarm(int sig) { (void)sig; }
static void on_usr1(int sig) { (void)sig; gk__worker_wake(); }

int main(void)
{
    char dir[] = "/tmp/gk-test-worker-XXXXXX";
    no_plan();
    if (!mkdtemp(dir)) { ok(0, "mkdtemp"); return done_testing(); }
    gk_worker w;
    gk_status st;

    /* 1. exec fails: always the same one-line error, naming the worker. */
    char *const nonexistent[] = { "/nonexistent/worker", "--worker", NULL };
    int named = 0;
    for (int i = 0; i < 30; i++) {
        gk__worker_init(&w, nonexistent);
        st = ask(&w, "info", 60);
        named += st != GK_OK && !strcmp(gk_last_error(), "cannot start worker '/nonexistent/worker': No such file or directory");
        if (i == 0) diag("got %d '%s', answer '%s'", st, gk_last_error(), answer);
        gk__worker_stop(&w);
    }
    ok(named == 30, "an unstartable worker is named with the reason, 30 times out of 30 (%d)", named);
    ok(no_children(), "and its failed child is reaped");
    char *const not_exec[] = { "/dev/null", NULL };
    gk__worker_init(&w, not_exec);
    st = ask(&w, "info", 60);
    ok(st != GK_OK && !strcmp(gk_last_error(), "cannot start worker '/dev/null': Permission denied"),
       "a worker that is not executable: %s", gk_last_error());
    char *const empty[] = { NULL };
    gk__worker_init(&w, empty);
    ok(ask(&w, "info", 60) == GK_EINVAL, "no worker command: %s", gk_last_error());

    /* 2. a worker that runs: requests and answers; quit ends it. */
    char bye[256], script[8192];
    snprintf(bye, sizeof bye, "%s/bye", dir);
    snprintf(script, sizeof script,
             "while read -r x; do [ \"$x\" = quit ] && { echo bye >'%s'; exit 0; }; echo \"got $x\"; done", bye);
    char *const echo_worker[] = { "sh", "-c", script, NULL };
    gk__worker_init(&w, echo_worker);
    ok(ask(&w, "hello", 60) == GK_OK && !strcmp(answer, "got hello"), "a request is answered: %s", answer);
    ok(ask(&w, "measure a b c", 60) == GK_OK && !strcmp(answer, "got measure a b c"), "and the next: %s", answer);
    ok(w.starts == 1, "by the same worker");
    gk__worker_stop(&w);
    FILE *f = fopen(bye, "r");
    char line[64] = "";
    if (f) { if (!fgets(line, sizeof line, f)) line[0] = '\0'; fclose(f); }
    ok(!strcmp(line, "bye\n"), "stopping sends quit and lets the worker end by itself");
    ok(no_children(), "and reaps it");

    /* 3. the worker dies before reading the next request (the write gets
     *    EPIPE): reported by its exit status, reaped, and restarted. */
    char *const once[] = { "sh", "-c", "read -r x; echo \"got $x\"; exec 0<&-; exit 3", NULL };
    gk__worker_init(&w, once);
    ok(ask(&w, "first", 60) == GK_OK && !strcmp(answer, "got first"), "a one-shot worker answers once");
    pid_t pid = w.pid;
    wait_exited(pid);                   /* it is gone before the next request is written */
    ok(ask(&w, "second", 60) == GK_OK && !strcmp(answer, "fail fault worker exited (status 3)"),
       "a worker dead before the request: %s", answer);
    ok(w.pid <= 0 && no_children(), "is reaped, no zombie");
    ok(ask(&w, "third", 60) == GK_OK && !strcmp(answer, "got third") && w.starts == 2,
       "the next request starts a new worker: %s", answer);
    ok(ask(&w, "fourth", 60) == GK_OK && !strcmp(answer, "fail fault worker exited (status 3)"),
       "a worker that exits instead of answering: %s", answer);
    ok(no_children(), "is reaped");
    /* a worker that closes its pipes and takes a moment to exit (a CUDA
     * context torn down): its own status is reported, it is not killed */
    char *const lingers[] = { "sh", "-c", "read -r x; exec 0<&- 1>&-; sleep 0.3; exit 4", NULL };
    gk__worker_init(&w, lingers);
    ok(ask(&w, "x", 60) == GK_OK && !strcmp(answer, "fail fault worker exited (status 4)"),
       "a worker slow to exit after closing its pipes: %s", answer);
    ok(no_children(), "is reaped");
    char *const killed[] = { "sh", "-c", "read -r x; kill -9 $$", NULL };
    gk__worker_init(&w, killed);
    ok(ask(&w, "x", 60) == GK_OK && !strcmp(answer, "fail fault worker killed by signal 9"),
       "a worker killed by a signal: %s", answer);
    ok(no_children(), "is reaped");
    char *const fault[] = { "sh", "-c", "read -r x; echo 'fail fault context lost'; read -r y", NULL };
    gk__worker_init(&w, fault);
    ok(ask(&w, "x", 60) == GK_OK && !strcmp(answer, "fail fault context lost") && w.pid <= 0 && no_children(),
       "a worker reporting a fault is stopped and reaped");

    /* 4. a hung worker is killed with what it started (its process group):
     *    the background job holds the FIFO open until it dies. */
    char fifo[256], fifo2[256];
    snprintf(fifo, sizeof fifo, "%s/held", dir);
    snprintf(fifo2, sizeof fifo2, "%s/never", dir);
    if (mkfifo(fifo, 0600) || mkfifo(fifo2, 0600)) { ok(0, "mkfifo: %s", strerror(errno)); return done_testing(); }
    int rd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    snprintf(script, sizeof script, "read -r x; exec 3>'%s'; { read -r y <'%s'; } & echo \"started $!\"; read -r z", fifo, fifo2);
    char *const hang[] = { "sh", "-c", script, NULL };
    gk__worker_init(&w, hang);
    ok(ask(&w, "x", 60) == GK_OK && !strncmp(answer, "started ", 8), "a worker starts a background job: %s", answer);
    ok(ask(&w, "y", 0.3) == GK_OK && !strcmp(answer, "fail timeout no answer within 0 s"), "then hangs: %s", answer);
    ok(w.pid <= 0 && no_children(), "it is killed and reaped");
    fcntl(rd, F_SETFL, 0);
    struct pollfd p = { rd, POLLIN, 0 };
    char c;
    int gone = poll(&p, 1, 60000) == 1 && read(rd, &c, 1) == 0;   /* EOF: no writer left */
    ok(gone, "and so is its background job");
    if (!gone) {                        /* release it */
        int wr = open(fifo2, O_WRONLY | O_NONBLOCK);
        if (wr >= 0) close(wr);
    }
    close(rd);

    /* 5. what the worker inherits: fds 0, 1, 2 only; SIGPIPE not ignored. */
    int leak = open("/dev/null", O_RDONLY);     /* not close-on-exec, like the journal */
    char fds[2000] = "for n in";
    for (int n = 3; n < 256; n++) snprintf(fds + strlen(fds), sizeof fds - strlen(fds), " %d", n);
    snprintf(script, sizeof script,
             "read -r x; %s; do [ -e /proc/$$/fd/$n ] && printf '%%s ' $n; done; "
             "echo \"end $(grep SigIgn /proc/$$/status)\"", fds);
    char *const inherit[] = { "sh", "-c", script, NULL };
    signal(SIGPIPE, SIG_IGN);           /* as gk_tune_run leaves it */
    gk__worker_init(&w, inherit);
    ok(ask(&w, "x", 60) == GK_OK && !strncmp(answer, "end ", 4), "the worker gets no fd but 0, 1, 2 (fd %d open here): '%s'",
       leak, answer);
    const char *mask = strstr(answer, "SigIgn:");
    unsigned long long ign = mask ? strtoull(mask + 7, NULL, 16) : ~0ULL;
    ok(!(ign & (1ULL << (SIGPIPE - 1))), "and SIGPIPE at its default (SigIgn %llx)", ign);
    gk__worker_stop(&w);
    close(leak);

    /* 6. signals hitting the parent all along (no SA_RESTART). */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { { 0, 500 }, { 0, 500 } };
    setitimer(ITIMER_REAL, &it, NULL);
    snprintf(script, sizeof script,
             "while read -r x; do i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done; echo \"got $x\"; done");
    char *const slow[] = { "sh", "-c", script, NULL };
    int right = 0;
    gk__worker_init(&w, slow);
    for (int i = 0; i < 5; i++) {
        char req[32];
        snprintf(req, sizeof req, "r%d", i);
        if (ask(&w, req, 60) == GK_OK && !strcmp(answer + 4, req)) right++;
    }
    gk__worker_stop(&w);
    gk__worker_init(&w, once);
    ask(&w, "a", 60);
    wait_exited(w.pid);
    right += ask(&w, "b", 60) == GK_OK && !strcmp(answer, "fail fault worker exited (status 3)");
    gk__worker_init(&w, nonexistent);
    right += ask(&w, "info", 60) != GK_OK && strstr(gk_last_error(), "No such file or directory") != NULL;
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    ok(right == 7, "under a storm of signals every answer is right (%d of 7)", right);
    ok(no_children(), "and no zombie is left");

    /* 7. a parent whose stdin is closed (gktune <&-): the pipes must not land
     *    on fd 0 and be lost in the child. */
    int saved = dup(0);
    close(0);
    gk__worker_init(&w, echo_worker);
    ok(ask(&w, "closed", 60) == GK_OK && !strcmp(answer, "got closed"), "with stdin closed: %s", answer);
    gk__worker_stop(&w);
    dup2(saved, 0);
    close(saved);

    /* 8. an interruption (gk_tune_interrupt: a signal handler calls
     *    gk__worker_wake) ends the wait for an answer at once, however long
     *    its timeout: the worker here sends the signal itself once it has
     *    the request, then never answers (it ends when its stdin closes, so
     *    nothing lingers if this fails).  The measurement is abandoned, the
     *    worker killed and reaped; until the next reset no worker is
     *    started; after it, requests work again. */
    ok(gk__worker_wake_reset() == GK_OK, "the interruption pipe is made");
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    char *const hangs[] = { "sh", "-c", "read -r x; kill -USR1 $PPID; while read -r y; do :; done", NULL };
    gk__worker_init(&w, hangs);
    st = ask(&w, "measure", 60);
    ok(st == GK_OK && !strcmp(answer, "fail interrupted"), "a signal during a request ends it: '%s' (not a timeout)",
       answer);
    ok(w.pid <= 0 && no_children(), "the worker is killed and reaped");
    gk__worker_init(&w, echo_worker);
    ok(ask(&w, "next", 60) == GK_OK && !strcmp(answer, "fail interrupted") && w.pid <= 0 && no_children(),
       "while interrupted, no new worker is started: '%s'", answer);
    gk__worker_wake_reset();
    ok(ask(&w, "again", 60) == GK_OK && !strcmp(answer, "got again"), "after a reset requests work again: '%s'",
       answer);
    gk__worker_stop(&w);
    ok(no_children(), "and no zombie is left");

    unlink(bye);
    unlink(fifo);
    unlink(fifo2);
    rmdir(dir);
    return done_testing();
}
