/* replay.c - runs a fuzz target (tests/fuzz/fuzz_<target>.c) over every file
 * of its corpus, as a TAP test: "ok N - file" per input.  `make check` builds
 * one per target (FUZZ_TARGET), so the corpus and every crash reproducer in
 * it are checked on every build, with or without clang.  A crash or a failed
 * check aborts, which the TAP driver reports.
 *   replay [DIR]      default: $top_srcdir/tests/fuzz/corpus/FUZZ_TARGET */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#ifndef FUZZ_TARGET
#error FUZZ_TARGET must name the target
#endif

/* Reproducers of bugs whose fixes live on other branches: reported as SKIP
 * until those are merged (TODO: delete each line once its fix is in). */
static const char *const todo[][2] = {
    { NULL, NULL },
};

static const char *todo_reason(const char *file)
{
    for (int i = 0; todo[i][0]; i++)
        if (!strcmp(todo[i][0], FUZZ_TARGET) && !strcmp(todo[i][1], file))
            return "TODO: fixed on the size-overflow branch (grid.c), not merged yet";
    return NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    char dir[4096];
    const char *top = getenv("top_srcdir");
    if (argc > 1) snprintf(dir, sizeof dir, "%s", argv[1]);
    else snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", top && *top ? top : ".", FUZZ_TARGET);
    DIR *d = opendir(dir);
    if (!d) {
        printf("1..0 # SKIP no corpus: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names) abort();
        }
        names[n] = strdup(e->d_name);
        if (!names[n++]) abort();
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    printf("1..%zu\n", n);
    fflush(stdout);
    for (size_t i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        const char *why = todo_reason(names[i]);
        if (why) {
            printf("ok %zu - %s # SKIP %s\n", i + 1, names[i], why);
            free(names[i]);
            continue;
        }
        FILE *f = fopen(path, "rb");
        struct stat sb;
        if (!f || fstat(fileno(f), &sb) != 0) {
            printf("not ok %zu - %s: cannot open: %s\n", i + 1, names[i], strerror(errno));
            return 1;
        }
        size_t size = (size_t)sb.st_size;
        uint8_t *buf = malloc(size ? size : 1);
        if (!buf || fread(buf, 1, size, f) != size) abort();
        fclose(f);
        LLVMFuzzerTestOneInput(buf, size);
        free(buf);
        printf("ok %zu - %s\n", i + 1, names[i]);
        fflush(stdout);
        free(names[i]);
    }
    free(names);
    return 0;
}
