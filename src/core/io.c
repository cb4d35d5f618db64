/* io.c - whole-file reads and atomic writes (temp file + rename), so that a
 * failed run never leaves a partial output file behind. */
#include "core/internal.h"
#include "core/io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

gk_status gk__file_size(const char *path, int64_t *size)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return gk__fail(GK_EIO, "%s: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return gk__fail(GK_EIO, "%s: not a regular file", path);
    *size = (int64_t)sb.st_size;
    return GK_OK;
}

gk_status gk__read_exact(FILE *f, const char *path, void *buf, size_t n, const char *what)
{
    if (n && fread(buf, 1, n, f) != n)
        return gk__fail(GK_EIO, "%s: cannot read %s: %s", path, what,
                        ferror(f) ? strerror(errno) : "file ends early");
    return GK_OK;
}

/* The temp files being written now, for gk_remove_partial_outputs(). */
#define MAX_OPEN 8
static char *volatile open_tmp[MAX_OPEN];

static void track(char *tmp, int on)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (on ? open_tmp[i] == NULL : open_tmp[i] == tmp) {
            open_tmp[i] = on ? tmp : NULL;
            return;
        }
}

void gk_remove_partial_outputs(void)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_tmp[i])
            unlink(open_tmp[i]);
}

gk_status gk__out_open(gk_outfile *o, const char *path)
{
    memset(o, 0, sizeof *o);
    snprintf(o->path, sizeof o->path, "%s", path);
    if (snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", path) >= (int)sizeof o->tmp)
        return gk__fail(GK_EIO, "%s: path too long", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0)
        return gk__fail(GK_EIO, "%s: cannot create: %s", path, strerror(errno));
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        close(fd);
        unlink(o->tmp);
        return gk__fail(GK_EIO, "%s: %s", path, strerror(errno));
    }
    track(o->tmp, 1);
    return GK_OK;
}

gk_status gk__out_write(gk_outfile *o, const void *buf, size_t n)
{
    if (n && fwrite(buf, 1, n, o->f) != n)
        return gk__fail(GK_EIO, "%s: write failed: %s", o->path, strerror(errno));
    return GK_OK;
}

gk_status gk__out_close(gk_outfile *o, gk_status st)
{
    if (!o->f)
        return st;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    if (!bad)
        bad = fsync(fileno(o->f)) != 0 && errno != EINVAL;
    int err = errno;
    fclose(o->f);
    o->f = NULL;
    if (st == GK_OK && bad)
        st = gk__fail(GK_EIO, "%s: write failed: %s", o->path, strerror(err));
    if (st == GK_OK) {
        /* mkstemp made it 0600; give it the usual umask-derived mode. */
        mode_t um = umask(0);
        umask(um);
        chmod(o->tmp, 0666 & ~um);
        if (rename(o->tmp, o->path) != 0)
            st = gk__fail(GK_EIO, "%s: cannot rename from %s: %s", o->path, o->tmp, strerror(errno));
    }
    if (st != GK_OK)
        unlink(o->tmp);
    track(o->tmp, 0);
    return st;
}

gk_status gk__write_file_atomic(const char *path, const void *data, size_t n)
{
    gk_outfile o;
    gk_status st = gk__out_open(&o, path);
    if (st) return st;
    return gk__out_close(&o, gk__out_write(&o, data, n));
}
