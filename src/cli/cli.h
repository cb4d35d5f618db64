/* cli.h - shared by the gk and gktune commands: the only code in gk that
 * prints and exits. */
#ifndef GK_CLI_H
#define GK_CLI_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "gk.h"

#include <stdint.h>
#include <stdio.h>

extern const char *cli_prog;      /* "gk" or "gktune", for messages */

/* "PROG: message" on stderr, exit 1. */
_Noreturn void cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: <gk_last_error()>" on stderr (or the status name), exit 1. */
_Noreturn void cli_die_status(gk_status st);
/* A usage error: message plus "Try 'PROG --help'", exit 2. */
_Noreturn void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_version(void);

/* Before any work: die with one line if OUTPUT cannot be written (its
 * directory missing or not writable, OUTPUT a directory) or is the same file
 * as INPUT (in may be NULL). */
void cli_check_output(const char *out, const char *in);

/* Remove a half-written output when SIGINT, SIGTERM or SIGHUP arrives. */
void cli_cleanup_on_signals(void);

/* Strict number parsing for options: whole string, in range, else usage
 * error naming the option. */
int64_t cli_parse_i64(const char *opt, const char *text, int64_t min, int64_t max);
double cli_parse_double(const char *opt, const char *text);

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
void json_num(const char *key, double val);
void json_bool(const char *key, int val);

/* Subcommands of gk. */
int cmd_info(int argc, char **argv);
int cmd_apsp(int argc, char **argv);
int cmd_gen_apsp(int argc, char **argv);
int cmd_bench_apsp(int argc, char **argv);
int cmd_stencil(int argc, char **argv);
int cmd_gen_grid(int argc, char **argv);
int cmd_bench_stencil(int argc, char **argv);

#endif /* GK_CLI_H */
