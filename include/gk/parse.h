/* gk/parse.h - strict parsing of numbers and sizes given by users, as the gk
 * commands do it (for front ends built on libgk).  Never prints, never exits:
 * GK_OK and the value, or GK_EINVAL and a one-line message for gk_last_error()
 * that names `what` (e.g. "--size") and echoes the text with control
 * characters escaped. */
#ifndef GK_PARSE_PUBLIC_H
#define GK_PARSE_PUBLIC_H

#include <gk/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The whole of text as a decimal integer in [min, max]: an optional '-' and
 * digits only (no leading or trailing whitespace, no '+', no "0x").
 * Messages: "WHAT: 'TEXT' is not an integer",
 *           "WHAT: N is out of range [MIN, MAX]". */
GK_API gk_status gk_parse_i64(const char *what, const char *text, int64_t min, int64_t max, int64_t *out);

/* The whole of text as an unsigned decimal integer in [min, max] (seeds):
 * digits only, no sign, no whitespace. */
GK_API gk_status gk_parse_u64(const char *what, const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* The whole of text as a finite decimal floating-point number in [min, max]
 * ("1.5", "-2e-3", ".5"; not "nan", "inf", hex or whitespace). */
GK_API gk_status gk_parse_double(const char *what, const char *text, double min, double max, double *out);

/* A grid size: "N" (an N x N x N cube) or "NXxNYxNZ", each extent >= 1, and
 * the point count NX*NY*NZ and its bytes (x 8, float64) fit in int64_t. */
GK_API gk_status gk_parse_size3(const char *what, const char *text, int64_t *nx, int64_t *ny, int64_t *nz);

/* A comma-separated list of at most max_count integers, each in [min, max]
 * ("1024,2048"); no empty items.  *count gets the number of values. */
GK_API gk_status gk_parse_list_i64(const char *what, const char *text, int64_t min, int64_t max,
                             int64_t *out, int max_count, int *count);

#ifdef __cplusplus
}
#endif
#endif /* GK_PARSE_PUBLIC_H */
