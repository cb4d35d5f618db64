/* fuzz_journal.c - gk__journal_parse_line (the tuner's journal read back on
 * resume, src/tune/journal.c) on every line of arbitrary text.  A record has
 * a kernel name, a size >= 1, a configuration that parses, a status and
 * finite non-negative times, and equals what an independent reading of the
 * same line finds. */
#include "fuzz.h"
#include "tune/tune.h"

#include <math.h>

static void check(const char *line)
{
    gk_journal_rec r;
    memset(&r, 0x5a, sizeof r);
    if (!gk__journal_parse_line(line, &r)) {
        unsigned char u[sizeof r];
        memset(u, 0x5a, sizeof u);
        FUZZ_ASSERT(!memcmp(&r, u, sizeof r));     /* untouched */
        return;
    }
    FUZZ_ASSERT(memchr(r.kernel, '\0', sizeof r.kernel) && r.kernel[0] && !strchr(r.kernel, ','));
    FUZZ_ASSERT(memchr(r.cfg, '\0', sizeof r.cfg) && !strchr(r.cfg, '"'));
    FUZZ_ASSERT(memchr(r.status, '\0', sizeof r.status) && r.status[0] && !strchr(r.status, ','));
    FUZZ_ASSERT(r.size >= 1 && isfinite(r.med) && r.med >= 0 && isfinite(r.min) && r.min >= 0);
    /* an independent reading of the same fields */
    const char *c1 = strchr(line, ',');
    FUZZ_ASSERT(c1 && (size_t)(c1 - line) == strlen(r.kernel) && !strncmp(line, r.kernel, strlen(r.kernel)));
    char *end;
    long long size = strtoll(c1 + 1, &end, 10);
    FUZZ_ASSERT(size == r.size && end[0] == ',' && end[1] == '"');
    const char *q2 = strchr(end + 2, '"');
    FUZZ_ASSERT(q2 && (size_t)(q2 - end - 2) == strlen(r.cfg) && !strncmp(end + 2, r.cfg, strlen(r.cfg)));
    FUZZ_ASSERT(q2[1] == ',');
    const char *c2 = strchr(q2 + 2, ',');
    FUZZ_ASSERT(c2 && (size_t)(c2 - q2 - 2) == strlen(r.status) && !strncmp(q2 + 2, r.status, strlen(r.status)));
    double med = strtod(c2 + 1, &end);
    FUZZ_ASSERT(med == r.med && *end == ',');
    double min = strtod(end + 1, &end);
    FUZZ_ASSERT(min == r.min && end[0] == ',' && end[1] == '"');
    gk_config c;
    gk__config_clear(&c);
    if (gk__config_parse(r.cfg, &c) != GK_OK)
        fuzz_check_message(GK_EINVAL);              /* run.c only compares the text */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    for (char *line = s, *nl; line; line = nl) {
        nl = strchr(line, '\n');
        if (nl) *nl++ = '\0';
        check(line);
    }
    free(s);
    return 0;
}
