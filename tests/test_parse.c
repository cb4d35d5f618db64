/* test_parse.c - the strict parsers of src/core/parse.c: whole-string
 * decimal integers, seeds, finite doubles, grid sizes (with the 64-bit
 * overflow of the point count and of its bytes), comma lists, and escaping of
 * control characters in the messages that echo user text. */
#include "core/parse.h"
#include "tap.h"

#include <stdint.h>
#include <string.h>

/* 1 if the last message is one line of printable text. */
static int one_line(void)
{
    const unsigned char *m = (const unsigned char *)gk_last_error();
    if (!*m) return 0;
    for (; *m; m++)
        if (*m < 0x20 || *m == 0x7f) return 0;
    return 1;
}

/* text for a test name: escaped (a newline would end the TAP line). */
static const char *show(const char *text)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    gk__escape(text, buf[k], sizeof buf[k]);
    return buf[k];
}

static void i64_ok(const char *text, int64_t min, int64_t max, int64_t want)
{
    int64_t v = 12345;
    gk_status st = gk__parse_i64("--n", text, min, max, &v);
    ok(st == GK_OK && v == want, "i64 '%s' -> %lld", text, (long long)want);
    if (st) diag("  %s", gk_last_error());
}

static void i64_bad(const char *text, int64_t min, int64_t max, const char *msg)
{
    int64_t v = 12345;
    gk_status st = gk__parse_i64("--n", text, min, max, &v);
    ok(st == GK_EINVAL && v == 12345 && one_line() && (!msg || !strcmp(gk_last_error(), msg)),
       "i64 rejects '%s': %s", show(text), gk_last_error());
    if (msg && strcmp(gk_last_error(), msg)) diag("  want: %s", msg);
}

static void u64_case(const char *text, int good, uint64_t want)
{
    uint64_t v = 777;
    gk_status st = gk__parse_u64("--seed", text, 0, UINT64_MAX, &v);
    if (good) ok(st == GK_OK && v == want, "u64 '%s' -> %llu", text, (unsigned long long)want);
    else ok(st == GK_EINVAL && v == 777 && one_line(), "u64 rejects '%s': %s", show(text), gk_last_error());
}

static void dbl_case(const char *text, int good, double want)
{
    double v = -7;
    gk_status st = gk__parse_double("--x", text, -1e300, 1e300, &v);
    if (good) ok(st == GK_OK && v == want, "double '%s' -> %g", text, want);
    else ok(st == GK_EINVAL && v == -7 && one_line(), "double rejects '%s': %s", show(text), gk_last_error());
}

static void size_ok(const char *text, int64_t x, int64_t y, int64_t z)
{
    int64_t a = 0, b = 0, c = 0;
    gk_status st = gk__parse_size3("--size", text, &a, &b, &c);
    ok(st == GK_OK && a == x && b == y && c == z, "size '%s' -> %lldx%lldx%lld", text,
       (long long)x, (long long)y, (long long)z);
    if (st) diag("  %s", gk_last_error());
}

static void size_bad(const char *text, const char *pat)
{
    int64_t a = -9, b = -9, c = -9;
    gk_status st = gk__parse_size3("--size", text, &a, &b, &c);
    ok(st == GK_EINVAL && a == -9 && b == -9 && c == -9 && one_line() && strstr(gk_last_error(), pat),
       "size rejects '%s': %s", show(text), gk_last_error());
}

static void esc(const char *in, size_t n, const char *want, size_t want_len)
{
    char out[64];
    memset(out, '#', sizeof out);
    size_t r = gk__escape(in, out, n);
    ok(r == want_len && !strcmp(out, want), "escape of '%s' into %zu bytes gives '%s' (needs %zu)", show(in), n, want,
       want_len);
}

int main(void)
{
    no_plan();

    /* ---- integers */
    i64_ok("0", INT64_MIN, INT64_MAX, 0);
    i64_ok("-0", INT64_MIN, INT64_MAX, 0);
    i64_ok("007", INT64_MIN, INT64_MAX, 7);
    i64_ok("9223372036854775807", INT64_MIN, INT64_MAX, INT64_MAX);
    i64_ok("-9223372036854775808", INT64_MIN, INT64_MAX, INT64_MIN);
    i64_ok("10", 1, 10, 10);
    i64_bad("", INT64_MIN, INT64_MAX, "--n: '' is not an integer");
    i64_bad(" 1", INT64_MIN, INT64_MAX, "--n: ' 1' is not an integer");
    i64_bad("+1", INT64_MIN, INT64_MAX, "--n: '+1' is not an integer");
    i64_bad("1 ", INT64_MIN, INT64_MAX, "--n: '1 ' is not an integer");
    i64_bad("0x10", INT64_MIN, INT64_MAX, "--n: '0x10' is not an integer");
    i64_bad("-", INT64_MIN, INT64_MAX, NULL);
    i64_bad("--1", INT64_MIN, INT64_MAX, NULL);
    i64_bad("1e3", INT64_MIN, INT64_MAX, NULL);
    i64_bad("12a", INT64_MIN, INT64_MAX, NULL);
    i64_bad("9223372036854775808", INT64_MIN, INT64_MAX,
            "--n: 9223372036854775808 is out of range [-9223372036854775808, 9223372036854775807]");
    i64_bad("-9223372036854775809", INT64_MIN, INT64_MAX, NULL);
    i64_bad("18446744073709551616", INT64_MIN, INT64_MAX, NULL);
    i64_bad("99999999999999999999999999999999", INT64_MIN, INT64_MAX, NULL);
    i64_bad("0", 1, 10, "--n: 0 is out of range [1, 10]");
    i64_bad("11", 1, 10, "--n: 11 is out of range [1, 10]");
    i64_bad("2147483648", 1, 2147483647, "--n: 2147483648 is out of range [1, 2147483647]");
    i64_bad("1\n2", INT64_MIN, INT64_MAX, "--n: '1\\n2' is not an integer");
    i64_bad("\x1b[31m", INT64_MIN, INT64_MAX, "--n: '\\x1b[31m' is not an integer");
    {   /* a long text is cut in the message */
        char big[600];
        memset(big, 'z', sizeof big - 1);
        big[sizeof big - 1] = '\0';
        int64_t v;
        ok(gk__parse_i64("--n", big, 0, 1, &v) == GK_EINVAL && strlen(gk_last_error()) < 200
           && strstr(gk_last_error(), "...'"), "a 599-byte text is cut in the message");
    }

    /* ---- seeds */
    u64_case("0", 1, 0);
    u64_case("18446744073709551615", 1, UINT64_MAX);
    u64_case("18446744073709551616", 0, 0);
    u64_case("-1", 0, 0);
    u64_case("+1", 0, 0);
    u64_case(" 1", 0, 0);
    u64_case("1 ", 0, 0);
    u64_case("", 0, 0);
    u64_case("0x10", 0, 0);
    u64_case("1\n", 0, 0);
    ok(!strcmp(gk_last_error(), "--seed: '1\\n' is not a non-negative integer"), "seed message escapes the newline: %s",
       gk_last_error());
    {
        uint64_t v;
        ok(gk__parse_u64("--k", "5", 1, 4, &v) == GK_EINVAL && !strcmp(gk_last_error(), "--k: 5 is out of range [1, 4]"),
           "u64 range: %s", gk_last_error());
    }

    /* ---- doubles */
    dbl_case("1.5", 1, 1.5);
    dbl_case("-2e-3", 1, -2e-3);
    dbl_case(".5", 1, 0.5);
    dbl_case("7", 1, 7);
    dbl_case("1E+2", 1, 100);
    dbl_case("nan", 0, 0);
    dbl_case("NaN", 0, 0);
    dbl_case("-nan", 0, 0);
    dbl_case("inf", 0, 0);
    dbl_case("-inf", 0, 0);
    dbl_case("infinity", 0, 0);
    dbl_case("1e999", 0, 0);
    dbl_case("-1e999", 0, 0);
    dbl_case("1e301", 0, 0);          /* finite, beyond max */
    dbl_case("0x1p3", 0, 0);
    dbl_case("", 0, 0);
    dbl_case(" 1", 0, 0);
    dbl_case("1 ", 0, 0);
    dbl_case("+1", 0, 0);
    dbl_case("1e", 0, 0);
    dbl_case(".", 0, 0);
    dbl_case("-", 0, 0);
    dbl_case("1.2.3", 0, 0);
    dbl_case("1-2", 0, 0);
    dbl_case("e5", 0, 0);

    /* ---- sizes */
    size_ok("1", 1, 1, 1);
    size_ok("256", 256, 256, 256);
    size_ok("4x5x6", 4, 5, 6);
    size_ok("536870912x1073741824x1", 536870912, 1073741824, 1);   /* 2^59 points, 2^62 bytes */
    size_ok("1048575", 1048575, 1048575, 1048575);
    size_bad("", "not a size");
    size_bad("1x2", "not a size");
    size_bad("1x2x3x4", "not a size");
    size_bad("x", "not a size");
    size_bad("1x", "not a size");
    size_bad("1xx2", "not a size");
    size_bad("1x2x", "not a size");
    size_bad("1X2X3", "not a size");
    size_bad(" 8", "not a size");
    size_bad("8 ", "not a size");
    size_bad("+8", "not a size");
    size_bad("0x10", "not a size");
    size_bad("4x4x4\nrm", "not a size");
    size_bad("0", "at least 1");
    size_bad("0x5x5", "at least 1");
    size_bad("5x0x5", "at least 1");
    size_bad("5x5x-1", "at least 1");
    size_bad("1073741824x1073741824x2", "too large");      /* 2^61 points: 2^64 bytes */
    size_bad("1073741824x1073741824x1", "too large");      /* 2^60 points: 2^63 bytes */
    size_bad("1073741824", "too large");                   /* 2^90 points */
    size_bad("1048576", "too large");                      /* 2^60 points */
    size_bad("4294967296x4294967296x1", "too large");      /* 2^64 points */
    size_bad("99999999999999999999x1x1", "too large");
    size_bad("1x1x9223372036854775807", "too large");

    /* ---- lists */
    {
        int64_t v[4] = { 0 };
        int n = -1;
        ok(gk__parse_list_i64("--sizes", "1024,2048", 1, 1 << 20, v, 4, &n) == GK_OK && n == 2
           && v[0] == 1024 && v[1] == 2048, "list '1024,2048'");
        ok(gk__parse_list_i64("--sizes", "7", 1, 10, v, 4, &n) == GK_OK && n == 1 && v[0] == 7, "list of one");
        ok(gk__parse_list_i64("--sizes", "1,2,3,4", 1, 10, v, 4, &n) == GK_OK && n == 4, "list of exactly max_count");
        const char *bad[] = { "", ",", "1,", ",1", "1,,2", "1, 2", "1,2,3,4,5", "1,x", "1,0", "1,11", "1,+2", "1;2" };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            n = -1;
            ok(gk__parse_list_i64("--sizes", bad[i], 1, 10, v, 4, &n) == GK_EINVAL && n == -1 && one_line(),
               "list rejects '%s': %s", show(bad[i]), gk_last_error());
        }
        gk__parse_list_i64("--sizes", "1,x", 1, 10, v, 4, &n);
        ok(!strcmp(gk_last_error(), "--sizes: 'x' is not an integer"), "list names the bad item: %s", gk_last_error());
        gk__parse_list_i64("--sizes", "1,2,3,4,5", 1, 10, v, 4, &n);
        ok(!strcmp(gk_last_error(), "--sizes: more than 4 values"), "list names the limit: %s", gk_last_error());
        gk__parse_list_i64("--sizes", "3,\n", 1, 10, v, 4, &n);
        ok(!strcmp(gk_last_error(), "--sizes: '\\n' is not an integer"), "list escapes a newline: %s", gk_last_error());
    }

    /* ---- escaping */
    esc("plain", 64, "plain", 5);
    esc("a\nb", 64, "a\\nb", 4);
    esc("\t", 64, "\\t", 2);
    esc("\x01\x1f\x7f", 64, "\\x01\\x1f\\x7f", 12);
    esc("caf\xc3\xa9", 64, "caf\xc3\xa9", 5);          /* UTF-8 passes */
    esc("a\nb", 3, "a", 4);                            /* "\n" does not fit whole */
    esc("a\nb", 4, "a\\n", 4);
    esc("\x01z", 4, "", 5);
    esc("abc", 1, "", 3);
    {
        char out[4] = "###";
        ok(gk__escape("abc", out, 0) == 3 && out[0] == '#', "n = 0 writes nothing");
    }
    return done_testing();
}
