/* config.c - kernel configurations as NAME=VALUE lists. */
#include "core/internal.h"
#include "core/parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gk__config_clear(gk_config *c) { memset(c, 0, sizeof *c); }

int gk__config_get(const gk_config *c, const char *name, int def)
{
    if (c)
        for (int i = 0; i < c->n; i++)
            if (!strcmp(c->p[i].name, name))
                return c->p[i].value;
    return def;
}

/* s[0..len) for a message: at most 63 bytes, control characters escaped. */
static const char *shown(const char *s, size_t len, char *buf, size_t n)
{
    char raw[64];
    snprintf(raw, sizeof raw, "%.*s", (int)(len < sizeof raw ? len : sizeof raw - 1), s);
    gk__escape(raw, buf, n);
    return buf;
}

static int valid_name(const char *s, size_t len)
{
    if (len == 0 || len >= GK_PARAM_NAME_MAX || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return 0;
    return 1;
}

gk_status gk__config_set(gk_config *c, const char *name, int value)
{
    char e[256];
    if (!valid_name(name, strlen(name)))
        return gk__fail(GK_EINVAL, "bad parameter name '%s'", shown(name, strlen(name), e, sizeof e));
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->p[i].name, name)) {
            c->p[i].value = value;
            return GK_OK;
        }
    if (c->n == GK_CONFIG_MAX)
        return gk__fail(GK_EINVAL, "too many parameters (at most %d)", GK_CONFIG_MAX);
    snprintf(c->p[c->n].name, GK_PARAM_NAME_MAX, "%s", name);
    c->p[c->n].value = value;
    c->n++;
    return GK_OK;
}

/* Whether NAME (len bytes) is the name of an item of text[0..upto). */
static int named_before(const char *text, const char *upto, const char *name, size_t len)
{
    for (const char *s = text; s < upto;) {
        const char *eq = strchr(s, '=');
        const char *end = strchr(s, ',');
        if (!end) end = s + strlen(s);
        if (eq && eq < end && (size_t)(eq - s) == len && !memcmp(s, name, len))
            return 1;
        s = *end ? end + 1 : end;
    }
    return 0;
}

/* A name given twice in one text is an error rather than "the last one
 * wins": "TILE=64,...,TILE=128" is almost always a typo for another
 * parameter, and silently running a configuration the user did not read
 * back is worse than refusing it.  Names already in c (a base the text
 * overrides) may be replaced. */
gk_status gk__config_parse(const char *text, gk_config *c)
{
    const char *s = text;
    char e[256];
    while (*s) {
        const char *eq = strchr(s, '=');
        const char *end = strchr(s, ',');
        if (!end) end = s + strlen(s);
        if (!eq || eq > end)
            return gk__fail(GK_EINVAL, "bad configuration item '%s' (want NAME=VALUE)",
                            shown(s, (size_t)(end - s), e, sizeof e));
        char name[GK_PARAM_NAME_MAX];
        size_t len = (size_t)(eq - s);
        if (!valid_name(s, len))
            return gk__fail(GK_EINVAL, "bad parameter name '%s'", shown(s, len, e, sizeof e));
        memcpy(name, s, len);
        name[len] = '\0';
        if (named_before(text, s, s, len))
            return gk__fail(GK_EINVAL, "parameter %s given twice", name);
        char num[32];
        size_t vlen = (size_t)(end - eq - 1);
        if (vlen == 0)
            return gk__fail(GK_EINVAL, "no value for %s (want %s=N, an integer)", name, name);
        if (vlen >= sizeof num)
            return gk__fail(GK_EINVAL, "bad value '%s' for %s (want an integer)", shown(eq + 1, vlen, e, sizeof e),
                            name);
        memcpy(num, eq + 1, vlen);
        num[vlen] = '\0';
        char *stop;
        errno = 0;
        long v = strtol(num, &stop, 10);
        /* strtol skips leading white space: "A= 4" is as bad as "A=4 " */
        if (errno || *stop || isspace((unsigned char)num[0]) || v < INT_MIN || v > INT_MAX)
            return gk__fail(GK_EINVAL, "bad value '%s' for %s (want an integer)", shown(num, vlen, e, sizeof e), name);
        gk_status st = gk__config_set(c, name, (int)v);
        if (st) return st;
        s = *end ? end + 1 : end;
    }
    return GK_OK;
}

size_t gk__config_format(const gk_config *c, char *buf, size_t n)
{
    size_t len = 0;
    if (n) buf[0] = '\0';
    for (int i = 0; i < c->n; i++) {
        int w = snprintf(buf + (len < n ? len : n), len < n ? n - len : 0, "%s%s=%d",
                         i ? "," : "", c->p[i].name, c->p[i].value);
        if (w > 0) len += (size_t)w;
    }
    return len;
}
