/* fuzz_matrix.c - gk_matrix_read (raw float32 matrices, gk gemm's inputs)
 * on arbitrary bytes.
 *
 * Input: "RxC\n" then the file's bytes (R and C as int64, as gk_matrix_read
 * takes them: negative, zero and huge values included); without a newline
 * in the first 64 bytes the sizes are 1 + byte % 8 of the first two bytes.
 * The matrix buffer holds only as many bytes as the file: the reader must
 * refuse every size whose R*C*4 differs from the file's (overflow included)
 * before touching it, and refuse NaN and infinities naming their row and
 * column. */
#include "fuzz.h"

#include <inttypes.h>
#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int64_t r, c;
    const uint8_t *nl = memchr(data, '\n', size < 64 ? size : 64);
    if (nl) {
        char line[64];
        size_t len = (size_t)(nl - data);
        memcpy(line, data, len);
        line[len] = '\0';
        if (sscanf(line, "%" SCNd64 "x%" SCNd64, &r, &c) != 2)
            return 0;
        size -= len + 1;
        data = nl + 1;
    } else {
        if (size < 2) return 0;
        r = 1 + data[0] % 8;
        c = 1 + data[1] % 8;
        size -= 2;
        data += 2;
    }
    const char *path = fuzz_file(0, data, size);
    float *m = malloc(size ? size : 1);
    FUZZ_ASSERT(m != NULL);
    gk_status st = gk_matrix_read(path, r, c, m);
    if (st) {
        fuzz_check_message(st);
        FUZZ_ASSERT(strstr(gk_last_error(), path) != NULL);
    } else {
        /* independent: the sizes multiply out to the file's size */
        FUZZ_ASSERT(r >= 1 && c >= 1);
        unsigned __int128 want = (unsigned __int128)(uint64_t)r * (uint64_t)c * 4u;
        FUZZ_ASSERT(want == size);
        FUZZ_ASSERT(!memcmp(m, data, size));
        for (size_t i = 0; i < size / 4; i++)
            FUZZ_ASSERT(isfinite(m[i]));
    }
    free(m);
    return 0;
}
