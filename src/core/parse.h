/* parse.h - strict parsers for numbers and sizes given by users (command-line
 * options, environment variables).  They never print and never exit: they
 * return GK_OK and the value, or GK_EINVAL and a one-line message for
 * gk_last_error() that names `what` (e.g. "--size") and echoes the text with
 * control characters escaped.  The parsers are public (include/gk/parse.h);
 * the escaping helper is internal. */
#ifndef GK_PARSE_H
#define GK_PARSE_H

#include "core/internal.h"

/* Copy in to out (n bytes, always NUL-terminated when n > 0) with control
 * characters escaped: "\n", "\t", and "\xNN" for the other bytes below 0x20
 * and 0x7f; an escape is never cut in half.  Returns the length the whole
 * escaped text needs (without the NUL), like snprintf: >= n means truncated. */
size_t gk__escape(const char *in, char *out, size_t n);

#endif /* GK_PARSE_H */
