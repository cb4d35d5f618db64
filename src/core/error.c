/* error.c - status names and the per-thread message of the last failure. */
#include "core/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char last_error[1024];

const char *gk_strerror(gk_status st)
{
    switch (st) {
    case GK_OK:        return "success";
    case GK_EINVAL:    return "invalid argument";
    case GK_EIO:       return "input/output error";
    case GK_EFORMAT:   return "bad input format";
    case GK_ENOMEM:    return "out of memory";
    case GK_ENODEV:    return "no usable GPU";
    case GK_ECUDA:     return "CUDA error";
    case GK_ECOMPILE:  return "kernel compilation failed";
    case GK_EMISMATCH: return "results differ";
    case GK_ECACHE:    return "tuning cache unusable";
    case GK_EINTERNAL: return "internal error";
    case GK_ENEGCYCLE: return "negative cycle";
    }
    return "unknown status";
}

const char *gk_last_error(void) { return last_error; }

void gk__clear_error(void) { last_error[0] = '\0'; }

gk_status gk__fail(gk_status st, const char *fmt, ...)
{
    /* formatted apart first: an argument may be gk_last_error() itself
     * (a message that wraps the one before it) */
    char msg[sizeof last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    memcpy(last_error, msg, sizeof last_error);
    return st;
}

gk_status gk__xmalloc(void **out, size_t n, const char *what)
{
    char h[32];
    *out = malloc(n ? n : 1);
    if (!*out)
        return gk__fail(GK_ENOMEM, "cannot allocate %s of host memory for %s",
                        gk__human_bytes((double)n, h, sizeof h), what);
    return GK_OK;
}

const char *gk__human_bytes(double bytes, char *buf, size_t n)
{
    static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int u = 0;
    while (bytes >= 1024.0 && u < 6) { bytes /= 1024.0; u++; }
    snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
    return buf;
}
