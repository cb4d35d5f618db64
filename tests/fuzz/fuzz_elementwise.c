/* fuzz_elementwise.c - gk_elementwise_read (raw float32 matrices) on
 * arbitrary bytes.
 *
 * Input: "SIZE\n" then the file's bytes, SIZE being DIMXxDIMY (each an
 * int64 as gk_elementwise_read takes them, any sign); without a newline in
 * the first 64 bytes the sizes are 1 + byte % 8 of the first two bytes.  The
 * buffer holds only as many bytes as the file: the reader must refuse every
 * size whose DIMX*DIMY*4 differs from the file's (overflow and sizes < 1
 * included) before touching it, and refuse NaN and infinities. */
#include "fuzz.h"

#include <limits.h>
#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int64_t d[2];
    const uint8_t *nl = memchr(data, '\n', size < 64 ? size : 64);
    if (nl) {
        char line[64], *x;
        size_t len = (size_t)(nl - data);
        memcpy(line, data, len);
        line[len] = '\0';
        if (!(x = strchr(line, 'x'))) return 0;
        *x = '\0';
        if (gk__parse_i64("dimx", line, INT64_MIN, INT64_MAX, &d[0]) ||
            gk__parse_i64("dimy", x + 1, INT64_MIN, INT64_MAX, &d[1]))
            return 0;
        size -= len + 1;
        data = nl + 1;
    } else {
        if (size < 2) return 0;
        d[0] = 1 + data[0] % 8;
        d[1] = 1 + data[1] % 8;
        size -= 2;
        data += 2;
    }
    const char *path = fuzz_file(0, data, size);
    float *a = malloc(size ? size : 1);
    FUZZ_ASSERT(a != NULL);
    gk_status st = gk_elementwise_read(path, d[0], d[1], a);
    if (st) {
        fuzz_check_message(st);
        FUZZ_ASSERT(strstr(gk_last_error(), path) != NULL);
    } else {
        /* independent: the sizes are positive and multiply out to the file's size */
        FUZZ_ASSERT(d[0] >= 1 && d[1] >= 1);
        unsigned __int128 want = (unsigned __int128)(uint64_t)d[0] * (uint64_t)d[1] * 4u;
        FUZZ_ASSERT(want == size);
        FUZZ_ASSERT(!memcmp(a, data, size));
        for (size_t i = 0; i < size / 4; i++)
            FUZZ_ASSERT(isfinite(a[i]));
    }
    free(a);
    return 0;
}
