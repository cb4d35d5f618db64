/* io.h - file helpers for libgk: sizes, exact reads, atomic outputs. */
#ifndef GK_IO_H
#define GK_IO_H

#include "core/internal.h"
#include <stdio.h>

gk_status gk__file_size(const char *path, int64_t *size);
/* Read exactly n bytes or fail naming path and what. */
gk_status gk__read_exact(FILE *f, const char *path, void *buf, size_t n, const char *what);

/* An output written to PATH.tmp.XXXXXX and renamed onto PATH only when
 * everything succeeded: gk__out_close(o, st) renames when st == GK_OK and
 * all writes succeeded, else removes the temp file; returns the final status. */
typedef struct gk_outfile {
    FILE *f;
    char path[4096];
    char tmp[4112];
} gk_outfile;

gk_status gk__out_open(gk_outfile *o, const char *path);
gk_status gk__out_write(gk_outfile *o, const void *buf, size_t n);
gk_status gk__out_close(gk_outfile *o, gk_status st);
gk_status gk__write_file_atomic(const char *path, const void *data, size_t n);

#endif /* GK_IO_H */
