/* parse.h - strict parsers for numbers and sizes given by users (command-line
 * options, environment variables).  They never print and never exit: they
 * return GK_OK and the value, or GK_EINVAL and a one-line message for
 * gk_last_error() that names `what` (e.g. "--size") and echoes the text with
 * control characters escaped.  They serve the gk commands (src/cli
 * reaches them through src/api/commands.h) and the environment variables of
 * gk_context_options_from_env. */
#ifndef GK_PARSE_H
#define GK_PARSE_H

#include "core/internal.h"

/* Copy in to out (n bytes, always NUL-terminated when n > 0) with control
 * characters escaped: "\n", "\t", and "\xNN" for the other bytes below 0x20
 * and 0x7f; an escape is never cut in half.  Returns the length the whole
 * escaped text needs (without the NUL), like snprintf: >= n means truncated. */
size_t gk__escape(const char *in, char *out, size_t n);

/* The whole of text as a decimal integer in [min, max]: an optional '-' and
 * digits only (no leading or trailing whitespace, no '+', no "0x").
 * Messages: "WHAT: 'TEXT' is not an integer",
 *           "WHAT: N is out of range [MIN, MAX]". */
gk_status gk__parse_i64(const char *what, const char *text, int64_t min, int64_t max, int64_t *out);

/* The whole of text as an unsigned decimal integer in [min, max] (seeds):
 * digits only, no sign, no whitespace. */
gk_status gk__parse_u64(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* The whole of text as a finite decimal floating-point number in [min, max]
 * ("1.5", "-2e-3", ".5"; not "nan", "inf", hex or whitespace). */
gk_status gk__parse_double(const char *what, const char *text, double min, double max, double *out);

/* A grid size: "N" (an N x N x N cube) or "NXxNYxNZ", each extent >= 1, and
 * the point count NX*NY*NZ and its bytes (x 8, float64) fit in int64_t. */
gk_status gk__parse_size3(const char *what, const char *text, int64_t *nx, int64_t *ny, int64_t *nz);

/* A comma-separated list of at most max_count integers, each in [min, max]
 * ("1024,2048"); no empty items.  *count gets the number of values. */
gk_status gk__parse_list_i64(const char *what, const char *text, int64_t min, int64_t max,
                             int64_t *out, int max_count, int *count);

#endif /* GK_PARSE_H */
