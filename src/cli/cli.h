/* cli.h - shared by the gk and gktune commands: the only code in gk that
 * prints and exits.  The commands use libgk's public API (gk.h) and the
 * commands' own part of it (src/api/commands.h), nothing else. */
#ifndef GK_CLI_H
#define GK_CLI_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "api/commands.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

extern const char *cli_prog;      /* "gk" or "gktune", for messages */
extern const char *cli_cmd;       /* "gk apsp", for "Try 'gk apsp --help'" */
extern const gk_comm *cli_comm;   /* under mpirun: the ranks (cli_context passes it on); else NULL */
/* The end of the summary line (the one --time prints) of a gk stencil, gemm
 * or elementwise run without --output: printed then even without --time,
 * since a run that printed nothing would not say what it computed. */
#define CLI_NOT_WRITTEN "; the result is not written (no --output)"
extern int cli_quiet;             /* 1: print no message (the ranks other than 0 under mpirun) */

/* "PROG: message" on stderr (control characters escaped: one line), exit 1. */
_Noreturn void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: <gk_last_error()>" on stderr (or the status name), exit 1. */
_Noreturn void cli_die_status(gk_status st);
/* A usage error: message plus "Try 'CMD --help'", exit 2. */
_Noreturn void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: warning: message" on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An edge list written to path records no vertex count: warn when vertices
 * max_id + 1 .. V - 1 have no edge (they are lost on reading). */
void cli_warn_edge_list(const char *path, int32_t max_id, int32_t V);
/* An edge list read 0-based whose smallest vertex id is 1 (min_id): warn
 * that it may be 1-based (--one-based). */
void cli_warn_one_based(const char *path, int32_t min_id);
void cli_version(void);

/* getopt_long over opts with gk's messages: an unknown option, a missing
 * value, a value given to a flag and an ambiguous abbreviation are each
 * named as such (usage errors, exit 2).  Returns the option's val, -1 at the
 * end.  Call with cli_cmd set; opts end with a zero entry. */
int cli_getopt(int argc, char **argv, const struct option *opts);
extern const char *cli_shortopts;   /* ":h" (-h is --help); gktune adds its own */
/* Usage error unless exactly `want` operands remain (names says which, for
 * the message), or when one is empty (they are file names: INPUT OUTPUT, or
 * OUTPUT). */
void cli_operands(int argc, char **argv, int want, const char *names);
/* A file-name option's value: a usage error naming opt when it is empty. */
const char *cli_path(const char *opt, const char *arg);

/* Before any work: die with one line if OUTPUT cannot be written (see
 * gk__output_check) or is the same file as INPUT (in may be NULL). */
void cli_check_output(const char *out, const char *in);
/* Under mpirun, a check that may fail on some ranks and not on others (a
 * file one rank cannot see, an output directory that differs): every rank
 * passes its own status, and all die together, with the lowest failing
 * rank's message and exit status `code` (2: a usage error), or all go on.
 * A rank that died alone would leave the others blocked in a collective.
 * Without mpirun: dies on its own failure. */
void cli_agree(gk_status st, int code);

/* Remove a half-written output when SIGINT, SIGTERM or SIGHUP arrives;
 * and cli_ignore_file_limits. */
void cli_cleanup_on_signals(void);
/* At start-up, before any OpenMP region or MPI: under an address-space
 * limit that leaves no room for OpenMP's threads (gk__threads_fit_limits),
 * warn, set OMP_NUM_THREADS to the count that fits and start the command
 * again (argv: main's); cli_max_threads is that count where the start
 * again failed (0: none), and the contexts gk makes use no more. */
void cli_fit_threads(char **argv);
extern int cli_max_threads;
/* Ignore SIGXFSZ: a write past `ulimit -f` then fails with EFBIG, which the
 * library reports as an error naming the file. */
void cli_ignore_file_limits(void);

/* Strict number parsing for options: whole string, in range, else usage
 * error naming the option. */
int64_t cli_parse_i64(const char *opt, const char *text, int64_t min, int64_t max);
uint64_t cli_parse_u64(const char *opt, const char *text);
double cli_parse_double(const char *opt, const char *text);
/* "N" (a cube) or "NXxNYxNZ" (stencil grids). */
void cli_parse_size3(const char *opt, const char *text, int64_t *nx, int64_t *ny, int64_t *nz);
/* A comma-separated size list (a bench's --sizes), checked before any work:
 * usage errors for a list over 1023 bytes, an empty item or no item;
 * check(opt, item) on each item makes its own usage errors. */
void cli_check_size_list(const char *opt, const char *text, void (*check)(const char *opt, const char *item));
gk_backend cli_parse_device(const char *text);

/* The context of a run: the environment (GK_DEVICE, GK_CACHE_DIR, ...)
 * and the backend asked for; dies with the reason when it cannot be had. */
gk_context *cli_context(gk_backend want);
/* The same for gk info: an environment variable gk cannot read is a
 * warning there, and the context is made without the environment. */
gk_context *cli_context_lenient(gk_backend want);
/* `gk gen grid|elementwise --size=... [--seed=S] OUTPUT`: the options (seed
 * default 1) and the one operand, usage errors otherwise; 1 after printing
 * help (the command then returns 0). */
int cli_gen_args(int argc, char **argv, const char *help, const char **size, uint64_t *seed);
/* Usage errors before any work: a --config the kernel refuses, a --gpus
 * value that cannot be read (either may be NULL: not given). */
void cli_check_config(const char *kernel, const char *config);
/* The same for a stencil description's generated engine (cmd_stencil.c):
 * config against the description's rules (a GPU's own limits are checked
 * when it runs); a usage error naming the description otherwise. */
void cli_check_stencil_config(const gk__stencil_spec *spec, const char *config);
void cli_check_gpus(const char *gpus);
/* A bench's context: *gpu says whether it runs on the GPU; a --config
 * given for a CPU run is a warning (it applies to the GPU kernels). */
gk_context *cli_bench_context(gk_backend want, const char *config, int *gpu);
/* --gpus: "N" (the first N GPUs), "all", or a list of two or more ordinals
 * into o (usage error otherwise); cli_gpus_context: cli_context with those
 * GPUs (gpus NULL: cli_context(want)). */
void cli_parse_gpus(const char *text, gk_context_options *o);
gk_context *cli_gpus_context(gk_backend want, const char *gpus);
/* After a job: warn when --config was given but the job ran on the CPU. */
void cli_report_notes(const gk_report *rep);
/* "--verbose": where a job runs and with what, on stderr. */
void cli_report_verbose(const char *what, const gk_report *rep);
/* Where reports (--json, --time, tables) go: stdout, or stderr when the
 * command's data goes to stdout (data_out is "-"): the two never mix. */
extern FILE *cli_report;            /* NULL: stdout */
void cli_report_to(const char *data_out);
/* At the end of main: flush stdout; a write that failed (a full disk, a
 * closed pipe) turns rc 0 into 1 with one line. */
int cli_finish(int rc);
/* --time: the phases as a table on cli_report (phases that do not apply to the
 * backend that ran are left out); read/write < 0: not part of the job. */
void cli_print_times(const gk_report *rep, double read, double write);
/* The same with the first phase named (e.g. "generate" for a grid made
 * from --seed). */
void cli_print_times_as(const gk_report *rep, const char *first, double read, double write);
/* The same phases in the JSON object being written ("seconds": {...}, null
 * for a phase that does not apply). */
void cli_json_times(const gk_report *rep, double read, double write);
void cli_json_times_as(const gk_report *rep, const char *first, double read, double write);
/* The report's backend, device, configuration and check as JSON fields. */
void cli_json_report(const gk_report *rep);

/* A minimal JSON writer on stdout: objects, keys and scalars with commas and
 * escaping handled. */
void json_begin(void);                     /* '{' at top level */
void json_end(void);                       /* '}' and a newline at top level */
void json_object(const char *key);         /* "key": {  */
void json_object_end(void);
void json_array(const char *key);          /* "key": [  */
void json_array_end(void);
void json_str(const char *key, const char *val);   /* key NULL inside arrays */
void json_int(const char *key, long long val);
void json_num(const char *key, double val);        /* null when not finite or < 0 with json_phase */
void json_phase(const char *key, double val);      /* seconds; null when < 0 (not applicable) */
void json_bool(const char *key, int val);

/* What bounds a stencil design of t steps per pass (gk bench stencil): t
 * times the one-step memory floor (a pass reads and writes the grid once),
 * capped by a compute ceiling where one was measured (> 0); NAN without a
 * floor.  All in GStencil/s. */
double cli_stencil_bound(double floor, double ceiling, int t);

/* Subcommands of gk: `gk NAME`, `gk gen GEN`, `gk bench NAME` for each line
 * of src/kernels.def, and `gk info`. */
int cmd_info(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_path(int argc, char **argv);         /* cmd_path.c: `gk path` */
int cmd_bench_plan(int argc, char **argv);    /* cmd_plan.c: `gk bench plan` */
int cmd_bench_stencil_gen(int argc, char **argv);   /* cmd_stencil_gen.c: `gk bench stencil --stencil=DESC` */
int cmd_bench_stencil_route(int argc, char **argv); /* cmd_stencil_gen.c: the above with --stencil, else cmd_bench_stencil */
/* --format values: graphs (auto|nthu|gr|mtx|edges) or, matrix != 0,
 * distance matrices (auto|nthu|npy); usage error otherwise. */
/* `gk apsp` on the typed path (cmd_apsp_typed.c): another weight type
 * than int32, negative weights or predecessors.  Takes ctx over (destroys
 * it); exits on failure. */
typedef struct cli_apsp_typed_args {
    const char *in, *out, *pred_out;   /* pred_out NULL: no predecessors */
    gk_format ifmt, ofmt;
    int flags;                         /* GK__READ_* */
    int32_t vertices;
    gk_dtype weights;                  /* 0: auto */
    const gk_apsp_options *options;
    int timing, json, verbose;
} cli_apsp_typed_args;
int cli_apsp_typed(gk_context *ctx, const cli_apsp_typed_args *a);

/* cmd_sssp.c: `gk apsp` with chosen sources.  cli_parse_sources: a list
 * "0,5,7-9" or "@FILE" (one vertex or range a line, # comments) into a
 * malloc'ed array of *count ranges, pairs (A, B) with A <= B (N: (N, N)),
 * expanded only once the graph's V is known (a range past V is an error
 * then, before anything is allocated for it); a usage error or a one-line
 * error naming FILE:LINE.
 * cli_sssp: the run (gk_sssp_run_file), its reports; destroys ctx; exits on
 * failure. */
int64_t *cli_parse_sources(const char *text, int64_t *count);
typedef struct cli_sssp_args {
    const char *in, *out, *pred_out, *nearest_out;
    gk_format format;
    gk_format out_format;              /* --output-format: NTHU, NPY, or AUTO (by the name) */
    int flags;                         /* GK__READ_* */
    int64_t vertices;
    gk_dtype weights;                  /* 0: auto */
    const int64_t *sources;            /* S ranges (A, B) of cli_parse_sources; NULL, S = 0: every vertex */
    int64_t S;
    gk_sssp_algorithm algorithm;
    int min_only;
    double limit;
    const char *config;
    int timing, json, verbose;
} cli_sssp_args;
int cli_sssp(gk_context *ctx, const cli_sssp_args *a);

gk_format cli_parse_format(const char *opt, const char *text, int matrix);
/* --weights=TYPE of gk apsp, gk convert and gk path: int32, int64,
 * float32, float64, and with allow_auto "auto" (0); anything else is a
 * usage error naming the choices. */
gk_dtype cli_parse_weights(const char *text, int allow_auto);
/* cmd_bench_apsp_types.c: the element types' rows of `gk bench apsp` for size n
 * (GPU); json: a "types" array in the current object.  1: the int32
 * distances with and without predecessors differ. */
int cli_bench_apsp_types(gk_context *ctx, int64_t n, const char *config, int json, int first);
#define GK_KERNEL(name, gen) \
    int cmd_##name(int argc, char **argv); \
    int cmd_gen_##name(int argc, char **argv); \
    int cmd_bench_##name(int argc, char **argv);
#include "kernels.def"
#undef GK_KERNEL

#endif /* GK_CLI_H */
