/* tap.h - a small TAP producer for gk's C tests (run by tap-driver.sh).
 *   plan(n); ok(cond, "name %d", i); is_int(got, want, "name"); skip_all("why");
 *   diag("..."); return done_testing(); */
#ifndef GK_TAP_H
#define GK_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed, tap_planned;

static inline void plan(int n) { tap_planned = n; printf("1..%d\n", n); fflush(stdout); }
static inline void no_plan(void) { tap_planned = -1; }

static inline void skip_all(const char *why)
{
    printf("1..0 # SKIP %s\n", why);
    exit(0);
}

static inline void diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("# ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

static inline int vok(int cond, const char *fmt, va_list ap)
{
    tap_n++;
    printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    if (!cond) tap_failed++;
    return cond;
}

static inline int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vok(cond, fmt, ap);
    va_end(ap);
    return r;
}

static inline void skip(const char *why, const char *name)
{
    tap_n++;
    printf("ok %d - %s # SKIP %s\n", tap_n, name, why);
    fflush(stdout);
}

#define is_int(got, want, ...) do { long long g_ = (long long)(got), w_ = (long long)(want); \
        if (!ok(g_ == w_, __VA_ARGS__)) diag("  got %lld, want %lld", g_, w_); } while (0)

static inline int done_testing(void)
{
    if (tap_planned < 0) printf("1..%d\n", tap_n);
    else if (tap_planned != tap_n) { printf("# planned %d tests, ran %d\n", tap_planned, tap_n); return 1; }
    return tap_failed ? 1 : 0;
}

#endif /* GK_TAP_H */
