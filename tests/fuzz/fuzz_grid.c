/* fuzz_grid.c - gk_grid_read (raw float64 grids) on arbitrary bytes.
 *
 * Input: "SIZE\n" then the file's bytes, SIZE being N or NXxNYxNZ (each
 * extent an int, as gk_grid_read takes them; also fed to gk__parse_size3);
 * without a newline in the first 64 bytes the extents are 1 + byte % 8 of
 * the first three bytes.  The grid buffer holds only as many bytes as the
 * file: the reader must refuse every size whose NX*NY*NZ*8 differs from the
 * file's (overflow included) before touching it. */
#include "fuzz.h"
#include "core/parse.h"

#include <limits.h>
#include <math.h>

/* "a", "axbxc" as ints in [1, INT_MAX]; 0 if not. */
static int dims(const char *s, int d[3])
{
    int64_t v[3];
    int k = 0;
    char item[32];
    for (;;) {
        const char *x = strchr(s, 'x');
        size_t len = x ? (size_t)(x - s) : strlen(s);
        if (k == 3 || len >= sizeof item) return 0;
        memcpy(item, s, len);
        item[len] = '\0';
        if (gk__parse_i64("size", item, 1, INT_MAX, &v[k])) return 0;
        k++;
        if (!x) break;
        s = x + 1;
    }
    if (k == 2) return 0;
    for (int i = 0; i < 3; i++)
        d[i] = (int)v[k == 1 ? 0 : i];
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int d[3];
    const uint8_t *nl = memchr(data, '\n', size < 64 ? size : 64);
    if (nl) {
        char line[64];
        size_t len = (size_t)(nl - data);
        memcpy(line, data, len);
        line[len] = '\0';
        int64_t a, b, c;
        gk_status st = gk__parse_size3("size", line, &a, &b, &c);
        if (st) fuzz_check_message(st);
        else FUZZ_ASSERT(a >= 1 && b >= 1 && c >= 1 && a <= INT64_MAX / 8 / b / c);
        if (!dims(line, d))
            return 0;
        size -= len + 1;
        data = nl + 1;
    } else {
        if (size < 3) return 0;
        for (int i = 0; i < 3; i++)
            d[i] = 1 + data[i] % 8;
        size -= 3;
        data += 3;
    }
#ifdef GK_FUZZ_SKIP_GRID_OVERFLOW
    /* For a campaign on a tree without grid.c's size-overflow fix: skip the
     * known crash (NX*NY*NZ*8 beyond 64 bits wraps to the file's size). */
    if ((unsigned __int128)(unsigned)d[0] * (unsigned)d[1] * (unsigned)d[2] * 8u > UINT64_MAX)
        return 0;
#endif
    const char *path = fuzz_file(0, data, size);
    double *grid = malloc(size ? size : 1);
    FUZZ_ASSERT(grid != NULL);
    gk_status st = gk_grid_read(path, d[0], d[1], d[2], grid);
    if (st) {
        fuzz_check_message(st);
        FUZZ_ASSERT(strstr(gk_last_error(), path) != NULL);
    } else {
        /* independent: the extents multiply out to the file's size */
        unsigned __int128 want = (unsigned __int128)d[0] * (unsigned)d[1] * (unsigned)d[2] * 8u;
        FUZZ_ASSERT(want == size);
        FUZZ_ASSERT(!memcmp(grid, data, size));
        for (size_t i = 0; i < size / 8; i++)
            FUZZ_ASSERT(isfinite(grid[i]));
    }
    free(grid);
    return 0;
}
