/* test_note.c - gk__note: notes in fixed-size fields are cut only between
 * words.  Reference: an independent search for the longest run of whole
 * words (a prefix of the text that ends before a space) that fits with
 * "...", on random texts and fields of every size. */
#include "core/internal.h"
#include "tap.h"

#include <string.h>

/* The expected note: the text if it fits n bytes, else the longest prefix
 * p of whole words (p non-empty, not ending in a space, followed by a space)
 * with strlen(p) + 3 < n, then "..."; with no such prefix the first n - 4
 * characters and "..." (n > 4), or the first n - 1 of "..." (n <= 4). */
static void expected(char *out, size_t n, const char *text)
{
    size_t len = strlen(text);
    if (len < n) { strcpy(out, text); return; }
    if (n <= 4) { memcpy(out, "...", n - 1); out[n - 1] = 0; return; }
    size_t best = 0;
    for (size_t end = 1; end < len; end++)          /* every word end, longest that fits */
        if (text[end] == ' ' && text[end - 1] != ' ' && end + 3 < n)
            best = end;
    if (!best) best = n - 4;
    memcpy(out, text, best);
    strcpy(out + best, "...");
}

static int check(const char *text, size_t n)
{
    char got[300], want[300];
    memset(got, 'x', sizeof got);
    gk__note(got, n, "%s", text);
    expected(want, n, text);
    int good = !strcmp(got, want) && strlen(got) < n;
    if (!good)
        diag("n = %zu, text '%s': got '%s', want '%s'", n, text, got, want);
    return good;
}

int main(void)
{
    no_plan();
    const char *blas = "OpenBLAS not found (libopenblas.so.0; Debian: libopenblas-dev)";
    char f[64];
    gk__note(f, sizeof f, "not run: %s", blas);
    ok(!strcmp(f, "not run: OpenBLAS not found (libopenblas.so.0; Debian:..."),
       "a 64-byte field ends at a whole word: '%s'", f);
    char g[256];
    gk__note(g, sizeof g, "not run: %s", blas);
    ok(!strcmp(g + 9, blas), "a note that fits is copied whole: '%s'", g);
    gk__note(f, 8, "%s", "abcdefghijkl mn");
    ok(!strcmp(f, "abcd..."), "a first word longer than the field is the one cut inside a word: '%s'", f);
    gk__note(f, 3, "%s", "abcdef");
    ok(!strcmp(f, ".."), "a field too small for any word holds what fits of the mark: '%s'", f);
    gk__note(f, 1, "%s", "abcdef");
    ok(f[0] == 0, "a 1-byte field is the empty string");
    strcpy(g, "one two three");
    gk__note(g, 12, "%s and more", g);
    ok(!strcmp(g, "one two..."), "the note may be formatted from its own field: '%s'", g);

    /* random texts of words and runs of spaces, every field size */
    uint64_t s = 88172645463325252ull;
    int bad = 0, cases = 0;
    for (int t = 0; t < 400; t++) {
        char text[200];
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        int len = 1 + (int)(s % 150);
        for (int i = 0; i < len; i++) {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            text[i] = "ab-;. ( "[s % 8];
        }
        text[len] = 0;
        for (size_t n = 1; n <= (size_t)len + 2; n++, cases++)
            bad += !check(text, n);
    }
    ok(!bad, "%d random texts and field sizes: each note is the reference's (%d differ)", cases, bad);
    return done_testing();
}
