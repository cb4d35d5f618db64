/* journal.c - one line of the tuner's journal read back (run.c writes them):
 *
 *   kernel,size,"config",status,median_ms,min_ms,"detail"
 *
 * The header lines and anything torn or corrupt before the detail are not
 * records: a resumed run measures those configurations again rather than
 * trusting half a number. */
#include "tune/tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The field at *p up to the next c, copied into out[n] (1..n-1 bytes, none of
 * them in `forbid`); *p moves past c.  0 if there is no c or it does not fit. */
static int field(const char **p, char c, const char *forbid, char *out, size_t n)
{
    const char *e = strchr(*p, c);
    if (!e || e == *p || (size_t)(e - *p) >= n)
        return 0;
    for (const char *q = *p; q < e; q++)
        if (strchr(forbid, *q) || (unsigned char)*q < 0x20)
            return 0;
    memcpy(out, *p, (size_t)(e - *p));
    out[e - *p] = '\0';
    *p = e + 1;
    return 1;
}

/* A finite number >= 0 ending at c; *p moves past c. */
static int number(const char **p, char c, double *v)
{
    char buf[64], *end;
    if (!field(p, c, " \t\"", buf, sizeof buf))
        return 0;
    *v = strtod(buf, &end);
    return !*end && isfinite(*v) && *v >= 0;
}

int gk__journal_parse_line(const char *line, gk_journal_rec *r)
{
    gk_journal_rec x;
    char size[24];
    const char *p = line;
    memset(&x, 0, sizeof x);
    if (!field(&p, ',', "\"", x.kernel, sizeof x.kernel) || !field(&p, ',', "\"", size, sizeof size))
        return 0;
    if (strlen(size) > 18 || strspn(size, "0123456789") != strlen(size))
        return 0;                                   /* 18 digits: no overflow */
    x.size = strtoll(size, NULL, 10);
    if (x.size < 1)
        return 0;
    if (*p++ != '"')
        return 0;
    if (*p == '"') p++;                              /* the default configuration: "" */
    else if (!field(&p, '"', "", x.cfg, sizeof x.cfg))
        return 0;
    if (*p++ != ',' || !field(&p, ',', "\" \t", x.status, sizeof x.status)
        || !number(&p, ',', &x.med) || !number(&p, ',', &x.min))
        return 0;
    if (*p != '"')                                  /* then the detail: the numbers are whole */
        return 0;
    *r = x;
    return 1;
}
