/* fuzz_coeffs.c - gk_stencil_coeffs_read (27 numbers separated by blanks or
 * commas) on arbitrary bytes: a success gives 27 finite numbers, the same
 * ones an independent strtod pass reads; a failure is one line naming the
 * file. */
#include "fuzz.h"

#include <ctype.h>
#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(0, data, size);
    double c[GK_STENCIL_NCOEFFS];
    for (int i = 0; i < GK_STENCIL_NCOEFFS; i++) c[i] = -12345.0;
    gk_status st = gk_stencil_coeffs_read(path, c);
    if (st) {
        fuzz_check_message(st);
        FUZZ_ASSERT(strstr(gk_last_error(), path) != NULL);
        return 0;
    }
    char *s = fuzz_string(data, size), *p = s;
    FUZZ_ASSERT(strlen(s) == size);               /* a NUL byte is refused */
    int n = 0;
    for (;;) {
        while (*p && (isspace((unsigned char)*p) || *p == ',')) p++;
        if (!*p) break;
        char *end;
        double v = strtod(p, &end);
        FUZZ_ASSERT(end != p && n < GK_STENCIL_NCOEFFS);
        FUZZ_ASSERT(isfinite(v) && (v == c[n] || (v != v && c[n] != c[n])));
        n++;
        p = end;
    }
    FUZZ_ASSERT(n == GK_STENCIL_NCOEFFS);
    free(s);
    return 0;
}
