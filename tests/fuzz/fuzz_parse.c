/* fuzz_parse.c - the strict parsers of src/core/parse.c on arbitrary text,
 * each checked against an independent reading (strtoll/strtoull/strtod plus
 * the grammar, 128-bit products for sizes), and gk__escape at every output
 * size. */
#include "fuzz.h"
#include "core/parse.h"

#include <errno.h>
#include <math.h>

/* ^-?[0-9]+$ */
static int decimal(const char *s, int sign)
{
    if (sign && *s == '-') s++;
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

static void check_i64(const char *s, int64_t min, int64_t max)
{
    int64_t v = 42;
    gk_status st = gk__parse_i64("--n", s, min, max, &v);
    errno = 0;
    char *end;
    long long ref = decimal(s, 1) ? strtoll(s, &end, 10) : 0;
    int good = decimal(s, 1) && errno == 0 && ref >= min && ref <= max;
    FUZZ_ASSERT(good == (st == GK_OK));
    if (st) { fuzz_check_message(st); FUZZ_ASSERT(v == 42); }
    else FUZZ_ASSERT(v == ref);
}

static void check_u64(const char *s)
{
    uint64_t v = 42;
    gk_status st = gk__parse_u64("--seed", s, 3, UINT64_MAX - 3, &v);
    errno = 0;
    char *end;
    unsigned long long ref = decimal(s, 0) ? strtoull(s, &end, 10) : 0;
    int good = decimal(s, 0) && errno == 0 && ref >= 3 && ref <= UINT64_MAX - 3;
    FUZZ_ASSERT(good == (st == GK_OK));
    if (st) { fuzz_check_message(st); FUZZ_ASSERT(v == 42); }
    else FUZZ_ASSERT(v == ref);
}

static void check_double(const char *s)
{
    double v = 42;
    gk_status st = gk__parse_double("--x", s, -1e6, 1e300, &v);
    if (st) {
        fuzz_check_message(st);
        FUZZ_ASSERT(v == 42);
        return;
    }
    char *end;
    double ref = strtod(s, &end);
    FUZZ_ASSERT(*s && *end == '\0' && v == ref && isfinite(v) && v >= -1e6 && v <= 1e300);
    FUZZ_ASSERT(strspn(s, "0123456789.eE+-") == strlen(s) && *s != '+' && *s != 'e' && *s != 'E');
}

static void check_size3(const char *s)
{
    int64_t x = 0, y = 0, z = 0;
    gk_status st = gk__parse_size3("--size", s, &x, &y, &z);
    if (st) {
        fuzz_check_message(st);
        FUZZ_ASSERT(x == 0 && y == 0 && z == 0);
        return;
    }
    FUZZ_ASSERT(x >= 1 && y >= 1 && z >= 1);
    FUZZ_ASSERT(x <= INT64_MAX / y);
    FUZZ_ASSERT(x * y <= INT64_MAX / 8 / z);       /* the bytes fit */
    char back[80];
    if (strchr(s, 'x')) snprintf(back, sizeof back, "%lldx%lldx%lld", (long long)x, (long long)y, (long long)z);
    else { FUZZ_ASSERT(x == y && y == z); snprintf(back, sizeof back, "%lld", (long long)x); }
    /* the same numbers, up to leading zeros */
    char norm[600];
    size_t j = 0;
    for (const char *p = s; *p && j + 1 < sizeof norm; p++) {
        int lead = (p == s || p[-1] == 'x') && *p == '0' && p[1] >= '0' && p[1] <= '9';
        if (lead) { while (*p == '0' && p[1] >= '0' && p[1] <= '9') p++; }
        norm[j++] = *p;
    }
    norm[j] = '\0';
    FUZZ_ASSERT(!strcmp(norm, back));
}

static void check_list(const char *s)
{
    int64_t v[5];
    int n = -1;
    gk_status st = gk__parse_list_i64("--sizes", s, -1000, 1000000, v, 5, &n);
    if (st) {
        fuzz_check_message(st);
        FUZZ_ASSERT(n == -1);
        return;
    }
    FUZZ_ASSERT(n >= 1 && n <= 5);
    int commas = 0;
    for (const char *p = s; *p; p++) commas += *p == ',';
    FUZZ_ASSERT(commas == n - 1);
    for (int i = 0; i < n; i++) FUZZ_ASSERT(v[i] >= -1000 && v[i] <= 1000000);
}

/* Escaped length of one input byte. */
static size_t unit(unsigned char c)
{
    return c == '\n' || c == '\t' ? 2 : c < 0x20 || c == 0x7f ? 4 : 1;
}

static void check_escape(const char *s)
{
    char full[4 * 512 + 1], part[64];
    size_t need = gk__escape(s, full, sizeof full);
    FUZZ_ASSERT(need == strlen(full));
    for (size_t i = 0; i < need; i++)
        FUZZ_ASSERT((unsigned char)full[i] >= 0x20 && full[i] != 0x7f);
    for (size_t n = 0; n <= sizeof part; n++) {
        memset(part, '#', sizeof part);
        FUZZ_ASSERT(gk__escape(s, part, n) == need);
        if (!n) { FUZZ_ASSERT(part[0] == '#'); continue; }
        size_t len = strlen(part), at = 0;
        FUZZ_ASSERT(len < n && !strncmp(part, full, len));
        /* cut between whole escapes, and only when the next one does not fit */
        const unsigned char *p = (const unsigned char *)s;
        while (*p && at + unit(*p) <= len) at += unit(*p++);
        FUZZ_ASSERT(at == len);
        FUZZ_ASSERT(!*p || len + unit(*p) >= n);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 512)
        return 0;
    char *s = fuzz_string(data, size);
    check_i64(s, INT64_MIN, INT64_MAX);
    check_i64(s, -5, 1 << 20);
    check_u64(s);
    check_double(s);
    check_size3(s);
    check_list(s);
    check_escape(s);
    free(s);
    return 0;
}
