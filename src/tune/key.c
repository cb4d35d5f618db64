/* key.c - the tuning cache key: everything that changes the answer. */
#include "tune/tune.h"
#include "core/rng.h"

#include <stdio.h>
#include <string.h>

void gk__tune_key(const gk_device_info *d, char *buf, size_t n)
{
    char name[256];
    size_t j = 0;
    for (size_t i = 0; d->name[i] && j + 1 < sizeof name; i++)   /* quotes would break parsing */
        name[j++] = d->name[i] == '"' ? '\'' : d->name[i];
    name[j] = '\0';
    snprintf(buf, n, "device=\"%s\" cc=%d.%d sms=%d driver=%d runtime=%d gk=%s",
             name, d->cc_major, d->cc_minor, d->sm_count, d->driver_version,
             d->runtime_version, gk_version());
}

uint64_t gk__tune_key_hash(const char *key) { return gk__fnv1a64(key, strlen(key)); }

/* Value of field `f` in a key ("driver" -> "13000"). */
static void field(const char *key, const char *f, char *out, size_t n)
{
    char pat[32];
    snprintf(pat, sizeof pat, "%s=", f);
    const char *p = strstr(key, pat);
    out[0] = '\0';
    if (!p) return;
    p += strlen(pat);
    size_t len = *p == '"' ? strcspn(p + 1, "\"") + 2 : strcspn(p, " ");
    snprintf(out, n, "%.*s", (int)len, p);
}

void gk__tune_key_diff(const char *want, const char *have, char *buf, size_t n)
{
    static const char *fields[] = { "device", "cc", "sms", "driver", "runtime", "gk" };
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        char a[256], b[256];
        field(want, fields[i], a, sizeof a);
        field(have, fields[i], b, sizeof b);
        if (strcmp(a, b)) {
            size_t l = strlen(buf);
            snprintf(buf + l, n - l, "%s%s %s -> %s", l ? ", " : "", fields[i], b, a);
        }
    }
    if (!buf[0]) snprintf(buf, n, "key differs");
}

void gk__tune_model(const char *key, char *buf, size_t n)
{
    char dev[256], cc[16], name[256];
    size_t j = 0;
    field(key, "device", dev, sizeof dev);
    field(key, "cc", cc, sizeof cc);
    for (size_t i = 0; dev[i] && j + 1 < sizeof name; i++) {
        char c = dev[i];
        if (c == '"') continue;
        name[j++] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) ? c : '-';
    }
    name[j] = '\0';
    j = 0;
    for (size_t i = 0; cc[i] && j + 1 < sizeof cc; i++)
        if (cc[i] != '.') cc[j++] = cc[i];
    cc[j] = '\0';
    snprintf(buf, n, "%s-sm%s", name, cc);
}
