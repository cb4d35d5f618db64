/* test_config.c - parsing, formatting and lookup of kernel configurations. */
#include "gk.h"
#include "api/commands.h"
#include "tap.h"

#include <string.h>

int main(void)
{
    gk_config c;
    char buf[256];
    no_plan();

    gk__config_clear(&c);
    ok(gk__config_parse("", &c) == GK_OK && c.n == 0, "empty string parses to no parameters");
    ok(gk__config_parse("TILE=64,UNROLL=4,MAXRREG=0", &c) == GK_OK, "three parameters parse");
    is_int(c.n, 3, "three parameters stored");
    is_int(gk__config_get(&c, "TILE", -1), 64, "TILE=64");
    is_int(gk__config_get(&c, "UNROLL", -1), 4, "UNROLL=4");
    is_int(gk__config_get(&c, "MAXRREG", -1), 0, "MAXRREG=0");
    is_int(gk__config_get(&c, "ABSENT", 17), 17, "absent name gives the default");
    ok(gk__config_parse("TILE=-3", &c) == GK_OK && gk__config_get(&c, "TILE", 0) == -3,
       "a later value replaces an earlier one (negative allowed)");
    is_int(c.n, 3, "replacing does not add");
    gk__config_format(&c, buf, sizeof buf);
    ok(!strcmp(buf, "TILE=-3,UNROLL=4,MAXRREG=0"), "format round-trips: %s", buf);
    gk_config d;
    gk__config_clear(&d);
    ok(gk__config_parse(buf, &d) == GK_OK && !memcmp(&c, &d, sizeof c), "parse(format(c)) == c");

    const char *bad[] = { "TILE", "=4", "TILE=", "TILE=4x", "9X=1", "A=1,,B=2", "T=99999999999", "A-B=1",
                          "TILE=64,TILE=128", "A=1,B=2,A=1", "AB=1,B=2,AB=3",
                          "ST= 2", "ST=\t2", "ST=2 " };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gk__config_clear(&d);
        ok(gk__config_parse(bad[i], &d) == GK_EINVAL && *gk_last_error(), "rejects '%s' (%s)", bad[i], gk_last_error());
    }
    /* an empty or overlong value names the parameter and what is wrong */
    gk__config_clear(&d);
    ok(gk__config_parse("AC=", &d) == GK_EINVAL && !strcmp(gk_last_error(), "no value for AC (want AC=N, an integer)"),
       "an empty value: '%s'", gk_last_error());
    gk__config_clear(&d);
    ok(gk__config_parse("PX=1234567890123456789012345678901234567890", &d) == GK_EINVAL
       && strstr(gk_last_error(), "bad value '1234567890") && strstr(gk_last_error(), "for PX (want an integer)"),
       "an overlong value: '%s'", gk_last_error());
    /* white space before a value as after it (strtol skipped it) */
    gk__config_clear(&d);
    ok(gk__config_parse("MB= 4", &d) == GK_EINVAL && !strcmp(gk_last_error(), "bad value ' 4' for MB (want an integer)"),
       "a value after a space: '%s'", gk_last_error());
    gk__config_clear(&d);
    ok(gk__config_parse("ST=2,MB=+4", &d) == GK_OK && gk__config_get(&d, "ST", -1) == 2
       && gk__config_get(&d, "MB", -1) == 4, "ST=2,MB=+4: an explicit sign still parses");
    gk__config_clear(&d);
    ok(gk__config_parse("AB=1,B=2", &d) == GK_OK && d.n == 2, "names that are suffixes of others are distinct");
    ok(gk__config_parse("AB=1,B=2,ABC=3", &d) == GK_OK && gk__config_get(&d, "ABC", 0) == 3,
       "and prefixes too");
    gk__config_clear(&d);
    for (int i = 0; i < GK_CONFIG_MAX; i++) {
        char n[8];
        snprintf(n, sizeof n, "P%d", i);
        gk__config_set(&d, n, i);
    }
    ok(gk__config_set(&d, "ONE_TOO_MANY", 1) == GK_EINVAL, "a full configuration refuses one more");
    return done_testing();
}
