/* parse.c - strict parsers for user-given numbers, sizes and lists (see
 * parse.h).  No strtol/sscanf leniency (leading blanks, '+', "0x", silent
 * saturation): every byte of the text is checked here, and all arithmetic is
 * checked before it could overflow. */
#include "core/parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ECHO_MAX 160            /* user text echoed in a message, at most */

size_t gk__escape(const char *in, char *out, size_t n)
{
    size_t need = 0, j = 0;
    int full = n == 0;          /* stop writing once an escape does not fit */
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        char tmp[5];
        size_t len;
        if (*p == '\n') len = (size_t)snprintf(tmp, sizeof tmp, "\\n");
        else if (*p == '\t') len = (size_t)snprintf(tmp, sizeof tmp, "\\t");
        else if (*p < 0x20 || *p == 0x7f) len = (size_t)snprintf(tmp, sizeof tmp, "\\x%02x", *p);
        else tmp[0] = (char)*p, tmp[1] = '\0', len = 1;
        need += len;
        if (!full && j + len < n) {
            memcpy(out + j, tmp, len);
            j += len;
        } else {
            full = 1;
        }
    }
    if (n) out[j] = '\0';
    return need;
}

/* s[0..len) (at most ECHO_MAX bytes of it) escaped for a message, "..."
 * when cut; buf holds ECHO_MAX + 4 bytes. */
static const char *echo_n(const char *s, size_t len, char *buf)
{
    char raw[ECHO_MAX + 1];
    size_t m = len < ECHO_MAX ? len : ECHO_MAX;
    memcpy(raw, s, m);
    raw[m] = '\0';
    if (gk__escape(raw, buf, ECHO_MAX + 1) > ECHO_MAX || m < len)
        strcat(buf, "...");
    return buf;
}

static const char *echo(const char *text, char *buf) { return echo_n(text, strlen(text), buf); }

/* s[0..len) as an int64 decimal: 0 ok, 1 not an integer, 2 an integer
 * outside int64_t. */
static int scan_i64(const char *s, size_t len, int64_t *v)
{
    size_t i = 0;
    int neg = 0, over = 0;
    uint64_t mag = 0;
    if (i < len && s[i] == '-') neg = 1, i++;
    if (i == len)
        return 1;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 1;
        unsigned d = (unsigned)(s[i] - '0');
        if (mag > (UINT64_MAX - d) / 10) over = 1;
        else mag = mag * 10 + d;
    }
    uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (over || mag > lim)
        return 2;
    *v = neg ? (mag == lim ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
    return 0;
}

/* The same for one item s[0..len) (not NUL-terminated), with messages. */
static gk_status item_i64(const char *what, const char *s, size_t len, int64_t min, int64_t max, int64_t *out)
{
    char e[ECHO_MAX + 4];
    int64_t v = 0;
    int r = scan_i64(s, len, &v);
    if (r == 1)
        return gk__fail(GK_EINVAL, "%s: '%s' is not an integer", what, echo_n(s, len, e));
    if (r == 2 || v < min || v > max)
        return gk__fail(GK_EINVAL, "%s: %s is out of range [%lld, %lld]", what, echo_n(s, len, e),
                        (long long)min, (long long)max);
    *out = v;
    return GK_OK;
}

gk_status gk__parse_i64(const char *what, const char *text, int64_t min, int64_t max, int64_t *out)
{
    if (!text) text = "";
    return item_i64(what, text, strlen(text), min, max, out);
}

gk_status gk__parse_u64(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    char e[ECHO_MAX + 4];
    uint64_t mag = 0;
    int over = 0;
    if (!text) text = "";
    if (!*text)
        return gk__fail(GK_EINVAL, "%s: '' is not a non-negative integer", what);
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return gk__fail(GK_EINVAL, "%s: '%s' is not a non-negative integer", what, echo(text, e));
        unsigned d = (unsigned)(*p - '0');
        if (mag > (UINT64_MAX - d) / 10) over = 1;
        else mag = mag * 10 + d;
    }
    if (over || mag < min || mag > max)
        return gk__fail(GK_EINVAL, "%s: %s is out of range [%llu, %llu]", what, echo(text, e),
                        (unsigned long long)min, (unsigned long long)max);
    *out = mag;
    return GK_OK;
}

gk_status gk__parse_double(const char *what, const char *text, double min, double max, double *out)
{
    char e[ECHO_MAX + 4];
    if (!text) text = "";
    size_t len = strlen(text);
    int digits = 0, bad = len == 0 || !strchr("-.0123456789", text[0]);
    for (size_t i = 0; i < len && !bad; i++) {
        if (text[i] >= '0' && text[i] <= '9') digits = 1;
        else if (!strchr(".eE+-", text[i])) bad = 1;
    }
    char *end = NULL;
    double v = 0;
    if (!bad && digits) {
        errno = 0;
        v = strtod(text, &end);
    }
    if (bad || !digits || end != text + len)
        return gk__fail(GK_EINVAL, "%s: '%s' is not a number", what, echo(text, e));
    if (!isfinite(v) || !(v >= min && v <= max))
        return gk__fail(GK_EINVAL, "%s: %s is out of range [%g, %g]", what, echo(text, e), min, max);
    *out = v;
    return GK_OK;
}

/* a * b for a, b >= 1 into *r; 0 when it does not fit in int64_t. */
static int mul_ok(int64_t a, int64_t b, int64_t *r)
{
    if (a > INT64_MAX / b) return 0;
    *r = a * b;
    return 1;
}

gk_status gk__parse_size3(const char *what, const char *text, int64_t *nx, int64_t *ny, int64_t *nz)
{
    char e[ECHO_MAX + 4];
    int64_t v[3] = { 0, 0, 0 };
    int k = 0, range = 0, small = 0;
    if (!text) text = "";
    const char *s = text;
    for (;;) {
        const char *x = strchr(s, 'x');
        size_t len = x ? (size_t)(x - s) : strlen(s);
        if (k == 3)
            goto syntax;
        int r = scan_i64(s, len, &v[k]);
        if (r == 1) goto syntax;
        if (r == 2) v[k] = s[0] == '-' ? INT64_MIN : INT64_MAX, range = 1;
        if (v[k] < 1) small = 1;
        k++;
        if (!x) break;
        s = x + 1;
    }
    if (k == 2)
        goto syntax;
    if (small)
        return gk__fail(GK_EINVAL, "%s: '%s': every extent must be at least 1", what, echo(text, e));
    if (k == 1) v[1] = v[2] = v[0];
    int64_t points, bytes;
    if (range || !mul_ok(v[0], v[1], &points) || !mul_ok(points, v[2], &points)
        || !mul_ok(points, (int64_t)sizeof(double), &bytes))
        return gk__fail(GK_EINVAL, "%s: '%s' is too large: its %s (x 8 bytes) do not fit in 64 bits",
                        what, echo(text, e), k == 1 ? "N^3 points" : "NX*NY*NZ points");
    *nx = v[0];
    *ny = v[1];
    *nz = v[2];
    return GK_OK;
syntax:
    return gk__fail(GK_EINVAL, "%s: '%s' is not a size (want N or NXxNYxNZ)", what, echo(text, e));
}

gk_status gk__parse_list_i64(const char *what, const char *text, int64_t min, int64_t max,
                             int64_t *out, int max_count, int *count)
{
    char e[ECHO_MAX + 4];
    int n = 0;
    if (!text) text = "";
    if (!*text)
        return gk__fail(GK_EINVAL, "%s: '' is not a list of integers", what);
    for (const char *s = text;;) {
        const char *c = strchr(s, ',');
        size_t len = c ? (size_t)(c - s) : strlen(s);
        if (len == 0)
            return gk__fail(GK_EINVAL, "%s: '%s' has an empty item", what, echo(text, e));
        if (n == max_count)
            return gk__fail(GK_EINVAL, "%s: more than %d values", what, max_count);
        gk_status st = item_i64(what, s, len, min, max, &out[n]);
        if (st) return st;
        n++;
        if (!c) break;
        s = c + 1;
    }
    *count = n;
    return GK_OK;
}
