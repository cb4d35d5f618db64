/* cli.c - messages, exits, number parsing and JSON output for the commands. */
#include "cli/cli.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *cli_prog = "gk";

static void vmessage(const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: ", cli_prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
    exit(1);
}

void cli_die_status(gk_status st)
{
    const char *m = gk_last_error();
    cli_die("%s", m && *m ? m : gk_strerror(st));
}

void cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(fmt, ap);
    va_end(ap);
    fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog);
    exit(2);
}

void cli_version(void)
{
    printf("%s (gk) %s\n", cli_prog, gk_version());
    printf("Copyright (C) 2026 the gk developers.\n"
           "License: MIT.  This is free software: you are free to change and redistribute it.\n");
}

void cli_check_output(const char *out, const char *in)
{
    if (gk_output_check(out, in) != GK_OK)
        cli_die("%s", gk_last_error());
}

static void on_fatal_signal(int sig)
{
    gk_remove_partial_outputs();
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_cleanup_on_signals(void)
{
    signal(SIGINT, on_fatal_signal);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
}

int64_t cli_parse_i64(const char *opt, const char *text, int64_t min, int64_t max)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || errno)
        cli_usage_error("%s: '%s' is not an integer", opt, text);
    if (v < min || v > max)
        cli_usage_error("%s: %lld is out of range [%lld, %lld]", opt, v, (long long)min, (long long)max);
    return v;
}

double cli_parse_double(const char *opt, const char *text)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (!*text || *end || errno || !isfinite(v))
        cli_usage_error("%s: '%s' is not a finite number", opt, text);
    return v;
}

/* ---- JSON ---- */
static int depth;
static int need_comma[32];

static void put_string(const char *s);

static void sep(const char *key)
{
    if (need_comma[depth]) fputc(',', stdout);
    need_comma[depth] = 1;
    if (key) {
        put_string(key);
        fputc(':', stdout);
    }
}

static void put_string(const char *s)
{
    fputc('"', stdout);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 0x20) printf("\\u%04x", *p);
        else fputc(*p, stdout);
    }
    fputc('"', stdout);
}

static void open_(const char *key, char c)
{
    sep(key);
    fputc(c, stdout);
    need_comma[++depth] = 0;
}

void json_begin(void) { depth = 0; need_comma[0] = 0; fputc('{', stdout); need_comma[++depth] = 0; }
void json_end(void) { depth--; fputs("}\n", stdout); }
void json_object(const char *key) { open_(key, '{'); }
void json_object_end(void) { depth--; fputc('}', stdout); }
void json_array(const char *key) { open_(key, '['); }
void json_array_end(void) { depth--; fputc(']', stdout); }
void json_str(const char *key, const char *val) { sep(key); put_string(val ? val : ""); }
void json_int(const char *key, long long val) { sep(key); printf("%lld", val); }
void json_num(const char *key, double val)
{
    sep(key);
    if (isfinite(val)) printf("%.6g", val); else fputs("null", stdout);
}
void json_bool(const char *key, int val) { sep(key); fputs(val ? "true" : "false", stdout); }
