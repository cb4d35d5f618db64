/* note.c - notes in fixed-size fields, cut only between words. */
#include "core/internal.h"

#include <stdio.h>
#include <string.h>

void gk__note(char *dst, size_t n, const char *fmt, ...)
{
    /* formatted apart first: an argument may be dst itself or gk_last_error() */
    char text[2048];
    va_list ap;
    if (!n)
        return;
    va_start(ap, fmt);
    int len = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (len < 0)
        len = 0, text[0] = '\0';
    if ((size_t)len >= sizeof text)
        len = (int)sizeof text - 1;
    if ((size_t)len < n) {
        memcpy(dst, text, (size_t)len + 1);
        return;
    }
    /* Too long: the longest run of whole words that leaves room for "...".
     * A word ends before a space; the cut also drops the spaces before it.
     * A first word longer than the field is the one case cut inside a word
     * (there is no whole word to keep). */
    static const char more[] = "...";
    if (n <= sizeof more) {              /* no room for a word and the mark */
        memcpy(dst, more, n - 1);
        dst[n - 1] = '\0';
        return;
    }
    size_t room = n - sizeof more;       /* characters of text that fit with "..." and the NUL */
    size_t cut = 0;
    for (size_t i = 1; i <= room; i++)
        if (text[i] == ' ' && text[i - 1] != ' ')
            cut = i;
    if (!cut)
        cut = room;
    memcpy(dst, text, cut);
    memcpy(dst + cut, more, sizeof more);
}
