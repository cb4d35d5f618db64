/* fuzz.h - shared by the fuzz targets (tests/fuzz/fuzz_*.c): each defines
 * LLVMFuzzerTestOneInput, built as a libFuzzer binary by `make fuzz` and as a
 * corpus replay (tests/fuzz/replay.c) by `make check`.
 *
 * Besides "no crash, no leak, no undefined behaviour" (the sanitizers'
 * business), every target checks what the library promises: a failure leaves
 * a one-line message naming the problem (no control characters: user bytes
 * are escaped), and a success gives a result that satisfies the format. */
#ifndef GK_FUZZ_H
#define GK_FUZZ_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"
#include "api/commands.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stop with a message: libFuzzer and the replay driver both report it. */
#define FUZZ_ASSERT(cond) do { if (!(cond)) { \
        fprintf(stderr, "%s:%d: fuzz check failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
                gk_last_error()); \
        abort(); } } while (0)

/* After a failure: the message exists and is one line of printable text. */
static inline void fuzz_check_message(gk_status st)
{
    const unsigned char *m = (const unsigned char *)gk_last_error();
    FUZZ_ASSERT(st != GK_OK);
    FUZZ_ASSERT(*m != '\0');
    for (; *m; m++)
        FUZZ_ASSERT(*m >= 0x20 && *m != 0x7f);
}

/* data as a NUL-terminated string (an embedded NUL ends it); free() it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* One temp file per process and per slot, rewritten for every input and
 * removed at exit. */
static char fuzz_paths[2][64];

static inline void fuzz_cleanup(void)
{
    for (int i = 0; i < 2; i++)
        if (fuzz_paths[i][0]) unlink(fuzz_paths[i]);
}

static inline const char *fuzz_path(int slot)
{
    if (!fuzz_paths[slot][0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(fuzz_paths[slot], sizeof fuzz_paths[slot], "%s/gk-fuzz-XXXXXX",
                 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
        int fd = mkstemp(fuzz_paths[slot]);
        if (fd < 0) { perror("fuzz: mkstemp"); abort(); }
        close(fd);
        static int registered;
        if (!registered++) atexit(fuzz_cleanup);
    }
    return fuzz_paths[slot];
}

/* Write data[0..size) to the slot's temp file; its path. */
static inline const char *fuzz_file(int slot, const uint8_t *data, size_t size)
{
    const char *path = fuzz_path(slot);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        abort();
    }
    return path;
}

#endif /* GK_FUZZ_H */
