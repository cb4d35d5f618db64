/* io.h - file helpers for libgk: sizes, exact reads, inputs that may be
 * standard input, and outputs that never leave a partial file behind. */
#ifndef GK_IO_H
#define GK_IO_H

#include "core/internal.h"
#include <stdio.h>
#include <sys/types.h>

/* Read exactly n bytes or fail naming path and what. */
gk_status gk__read_exact(FILE *f, const char *path, void *buf, size_t n, const char *what);

/* An input: "-" is standard input (streamed), anything else is opened for
 * reading.  in->size is the file's size when it is a regular file, else -1
 * (a pipe, a device or standard input: the reader must then check that the
 * stream ends exactly where the format says).  in->name is what messages
 * call it ("standard input" for "-").  A directory is refused. */
typedef struct gk_infile {
    FILE *f;
    int64_t size;
    const char *name;
} gk_infile;

gk_status gk__in_open(gk_infile *in, const char *path);
/* Format detection on standard input: its first GK__PEEK_BYTES bytes (fewer
 * at its end) in *buf, read once; the next gk__in_open("-") gives them back
 * before the rest of the stream. */
#define GK__PEEK_BYTES 256
gk_status gk__stdin_peek(const unsigned char **buf, size_t *n);
/* GK_OK when the stream has no byte left, else a GK_EFORMAT naming what
 * the data should have ended after. */
gk_status gk__in_expect_end(gk_infile *in, const char *after);
void gk__in_close(gk_infile *in);
/* A file (or "-") that must hold exactly `bytes` bytes, read into buf:
 * refuses another size up front when the size is known, a short read and
 * bytes after the end, naming the file and `desc` (e.g. "a 4x3 float32
 * matrix") and `noun` ("the matrix").  *shown: the name the messages use
 * ("standard input" for "-"), for the caller's own later messages. */
gk_status gk__in_read_sized(const char *path, void *buf, uint64_t bytes, const char *desc, const char *noun,
                            const char **shown);

/* An output.  gk__out_open picks how to write PATH:
 *   - "-": standard output, written in place (never closed);
 *   - an existing non-regular file (device, FIFO): opened O_WRONLY and
 *     written in place, never replaced;
 *   - otherwise (a regular file, a new file, or a symlink to either, which
 *     is followed): a temp file in the target's directory, unnamed
 *     (O_TMPFILE) where the filesystem allows, else PATH.tmp.XXXXXX, given
 *     the old file's mode and owner (a new file: 0666 & ~umask) and
 *     renamed onto the target only when everything succeeded.
 * gk__out_close(o, st) commits when st == GK_OK and all writes succeeded,
 * else discards the temp file; returns the final status.  Write errors
 * (ENOSPC on a device included) fail with one line naming PATH. */
enum { GK__OUT_INPLACE = 1, GK__OUT_UNNAMED, GK__OUT_NAMED };

typedef struct gk_outfile {
    int fd;
    int kind;          /* GK__OUT_* */
    int own_fd;        /* close fd at the end (not for standard output) */
    char path[4096];   /* as given, for messages */
    char target[4096]; /* the file replaced or written (symlinks followed) */
    char tmp[4112];    /* the named temp file, if any */
} gk_outfile;

gk_status gk__out_open(gk_outfile *o, const char *path);
/* gk__out_open with the named temp file `tmp` (created with O_EXCL, never
 * unnamed), for a file that other processes open by that name
 * (src/core/comm_out.c); devices and FIFOs are still written in place. */
gk_status gk__out_open_named(gk_outfile *o, const char *path, const char *tmp);
/* TARGET.TAG.XXXXXX, six random letters and digits. */
void gk__out_temp_name(char *buf, size_t n, const char *target, const char *tag);
/* Add (on) or remove the name `tmp` from the files gk_remove_partial_outputs()
 * unlinks; the buffer must live until it is removed. */
void gk__out_track(char *tmp, int on);
/* strerror for a failed write, saying where the limit comes from for
 * EFBIG (`ulimit -f`: the commands ignore SIGXFSZ, so the write fails
 * instead of the process ending); every writer's messages use it. */
const char *gk__write_strerror(int e);
gk_status gk__out_write(gk_outfile *o, const void *buf, size_t n);
gk_status gk__out_close(gk_outfile *o, gk_status st);
gk_status gk__write_file_atomic(const char *path, const void *data, size_t n);

/* Follow the symlink chain at path (up to 40 links) to the file it names,
 * which may not exist (a dangling link).  Fails on a loop or a long path. */
gk_status gk__out_target(const char *path, char *target, size_t n);

/* Check, before any work, that OUT can be written: GK_OK, or a failure
 * naming OUT.  "-" is standard output (fine when open for writing); a
 * device or FIFO is written in place and must be writable; a symlink is
 * checked at the file it points to (which a dangling link may create);
 * otherwise the target's directory must exist and be writable, since a
 * regular output is replaced through a temp file there.  A directory is
 * refused, and so is the input file IN (same device and inode, symlinks
 * followed; "-" means standard input), unless both are one character
 * device such as /dev/null.  IN may be NULL. */
gk_status gk__output_check(const char *out, const char *in);

#endif /* GK_IO_H */
