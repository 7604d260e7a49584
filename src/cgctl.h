/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CLI's shared definitions.  A command is a `const struct cgctl_cmd cmd_<name>` in
 * its own file src/cmd-<name>.c; src/cgctl.c's table references every command weakly,
 * so a command exists as soon as its file is linked.  Verbs (`bw set`) are commands in
 * the `verbs` table of their parent.
 *
 * Flow: cgctl.c parses the global options, finds the command by exact name, parses the
 * command's options with a fresh popt context (its `options` table; --help is added),
 * then calls run() with the remaining arguments.  run() returns an exit status
 * (EXIT_* below); output goes through cli->out (src/output.h), errors through
 * cli_error() as one line on stderr.
 */
#ifndef CGCTL_CLI_H
#define CGCTL_CLI_H

#include <popt.h>
#include <stdbool.h>
#include <stdio.h>

#include "libcgctl.h"
#include "output.h"

/* Exit status, documented in cgctl(1). */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_PERM = 3,
	EXIT_NOENT = 4,
	EXIT_BUSY = 5,
	EXIT_UNSUPP = 6,
	EXIT_DIFFERS = 7,
	EXIT_PARTIAL = 8,
	EXIT_UNPRINTED = 9,	/* the change was made; its output could not be written */
};

struct cli {
	struct cgctl_ctx *ctx;
	struct out *out;
	enum out_format fmt;
	int quiet;
	int verbose;
	const char *root;
	char cmdname[64];	/* "bw set": used in error lines */
	bool stderr_tty;
	bool self;		/* --self: paths relative to our own cgroup */
	const char *tsv_table;	/* --tsv of a command with several tables: the one printed */
	bool null_sep;		/* -z: stdin lists are NUL-separated */
	bool changed;		/* a write was made: lost output exits EXIT_UNPRINTED */
};

struct cgctl_cmd {
	const char *name;
	const char *args;		/* synopsis of the arguments: "PATH FILE..." */
	const char *summary;		/* one line for `cgctl help` */
	const struct poptOption *options; /* NULL or a POPT_TABLEEND-terminated table */
	int (*run)(struct cli *cli, int argc, const char **argv);
	const struct cgctl_cmd *const *verbs; /* sub-commands (entries may be NULL: weak) */
	size_t n_verbs;
	int min_args, max_args;		/* checked before run(); max -1 = unlimited */
	bool hidden;			/* internal helpers, not listed in help */
	const char *tsv_tables;		/* several tables: "charged,tasks" (--tsv=NAME picks
					 * one; the first without NAME); NULL: one table */
	const struct out_table *columns; /* the -o columns --help lists (completions) */
	size_t n_columns;
	bool knobs;			/* --help lists the knob files (completions) */
};

/* A malloc'ed copy of @opts for cli_popt_next(), with @extra empty entries before its
 * end.  Returns: the copy, NULL when out of memory. */
struct poptOption *cli_popt_table(const struct poptOption *opts, size_t extra);
/* poptGetNextOpt() on a context of a cli_popt_table() copy that frees a repeated string
 * option's earlier value (popt leaves it to the caller).  Returns: poptGetNextOpt()'s. */
int cli_popt_next(poptContext pc, const struct poptOption *table);

/*
 * cli_error: print "cgctl: CMD: OBJ: MESSAGE" (OBJ may be NULL; MESSAGE from @fmt, or
 * the lower-cased strerror of @neg_errno when @fmt is NULL).  Returns: the exit status
 * for @neg_errno (cgctl_errno_to_exit).
 */
int cli_error(struct cli *cli, const char *obj, int neg_errno, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Usage error: one line, returns EXIT_USAGE. */
int cli_usage(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A warning on stderr (suppressed by -q). */
void cli_warn(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Progress on stderr, only when stderr is a tty and not -q. */
void cli_progress(struct cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Erase the progress line if one is shown (errors, warnings and tables do it first). */
void cli_progress_clear(void);
/* "no such process" style text for -errno. */
const char *cli_strerror(int neg_errno);

/* Parse a PID argument strictly.  Returns: 0 or -EINVAL. */
int cli_parse_pid(const char *s, pid_t *pid);
/*
 * Collect PIDs from @argv; a lone "-" reads PIDs separated by any blanks or newlines
 * from stdin (NUL-terminated with -z).  Bad PIDs are usage errors (nothing is done).  Returns: EXIT_OK with a
 * malloc'ed array (maybe empty after "-"), or an exit status after printing the error.
 */
int cli_collect_pids(struct cli *cli, int argc, const char **argv, pid_t **pids, size_t *n);
/* --tsv prints one table: the command's first of cmd->tsv_tables, or the one --tsv=NAME
 * names.  Returns: true when @table is not to be recorded (TSV, and not that one). */
bool cli_tsv_skip(const struct cli *cli, const char *table);
/* Returns: whether @value (a control file's text, or one value of a keyed file) is
 * how the kernel spells "unlimited" for @file (NULL: a value of a keyed file). */
bool cli_unlimited_text(const char *file, const char *value);
/* @s with control characters as \xNN (a static buffer, up to 250 bytes). */
const char *cli_escape(const char *s);

/* PATH arguments with a "-" replaced by the paths read from stdin: separated by any
 * blanks, or NUL-terminated with -z (names with blanks or newlines).  Each string is
 * malloc'ed; argv[argc] is NULL.  An empty stdin gives argc 0. */
struct cli_args {
	int argc;
	const char **argv;
};
/* Returns: EXIT_OK (@a filled; cli_args_free() it), or the exit status printed. */
int cli_stdin_args(struct cli *cli, int argc, const char **argv, struct cli_args *a);
void cli_args_free(struct cli_args *a);
/* @fn over the PATH arguments, a "-" among them replaced by the paths read from stdin
 * (cli_stdin_args()); an empty list is @fn's to judge.
 * Returns: @fn's exit status, or the one cli_stdin_args() printed. */
int cli_run_paths(struct cli *cli, int argc, const char **argv,
		  int (*fn)(struct cli *cli, int argc, const char **argv));
/* Returns: whether one of @argv is "-" (an empty list read from stdin is no error). */
bool cli_args_have_stdin(int argc, const char **argv);

/*
 * Resolve PATH for a controller: the hierarchy carrying @controller (NULL: the cgroup2
 * mount) and the normalised path; errors printed.  Returns: EXIT_OK or an exit status.
 */
int cli_resolve(struct cli *cli, const char *controller, const char *path,
		const struct cgctl_mount **m, char *norm, size_t len);
/* A plain decimal number ("2", "0.5", ".5"): no sign, space, exponent, hex, inf or nan.
 * Returns: 0, -EINVAL, -ERANGE. */
int cli_parse_decimal(const char *s, double *ret);
/* A seed option's value: an unsigned decimal.  Returns: EXIT_OK, or EXIT_USAGE after
 * printing "--OPT: 'S' is not a number". */
int cli_parse_seed(struct cli *cli, const char *opt, const char *s, uint64_t *ret);
/* Parse a size / duration option value; on error print "--OPT: ..." and return
 * EXIT_USAGE. */
int cli_parse_size(struct cli *cli, const char *opt, const char *s, uint64_t *ret);
int cli_parse_duration(struct cli *cli, const char *opt, const char *s, uint64_t plain_ns,
		       uint64_t *ret);

/* Print a command's help (usage, options) to @fp. */
void cli_cmd_help(const struct cgctl_cmd *cmd, const char *prefix, FILE *fp);

/* The command table (entries may be NULL: commands not linked in). */
extern const struct cgctl_cmd *const cgctl_commands[];
extern const size_t cgctl_n_commands;

/*
 * The table options of the commands that print tables (stat, tree, move, mem where):
 * CLI_TABLE_OPTIONS(c) in the command's popt table, with @c the short option of
 * --noheadings ('n', or '\0' where -n means something else, as move's --dry-run).
 */
struct cli_table_args {
	const char *output;
	int all, noheadings, bytes, raw;
};
extern struct cli_table_args cli_table_args;
#define CLI_TABLE_OPTIONS(nshort)						\
	{ "output", 'o', POPT_ARG_STRING, &cli_table_args.output, 0,		\
	  "the columns to print, by name (+COLUMNS: after the default ones)",	\
	  "COLUMNS" },								\
	{ "output-all", '\0', POPT_ARG_NONE, &cli_table_args.all, 0,		\
	  "print every column", NULL },						\
	{ "noheadings", (nshort), POPT_ARG_NONE, &cli_table_args.noheadings, 0,	\
	  "print no header line", NULL },					\
	{ "bytes", 'b', POPT_ARG_NONE, &cli_table_args.bytes, 0,		\
	  "sizes in bytes and times in microseconds", NULL },			\
	{ "raw", 'r', POPT_ARG_NONE, &cli_table_args.raw, 0,			\
	  "cells unaligned, one space apart (blanks escaped)", NULL }
/*
 * Check the table options against the column tables @t of the command's lists (unknown
 * column names, options that exclude each other) and hand them to the printer; @all:
 * every column unless -o is given (stat --long).  Returns: EXIT_OK, or EXIT_USAGE after
 * printing the error.
 */
int cli_tables(struct cli *cli, const struct out_table *t, size_t n, bool all);

/*
 * The options of a key/value result (bw and mem show/set/predict, bw recommend):
 * CLI_KV_OPTIONS in the command's popt table, and cli_kv() before it records.
 */
#define CLI_KV_OPTIONS								\
	{ "output", 'o', POPT_ARG_STRING, &cli_table_args.output, 0,		\
	  "the keys to print (a key, its label, or a dotted path: settings.quota)", \
	  "KEYS" },								\
	{ "bytes", 'b', POPT_ARG_NONE, &cli_table_args.bytes, 0,		\
	  "keys and values as in JSON: sizes in bytes, times in microseconds", NULL }
/* Print the result as key/value lines (output.h's opts.kv) with the table options given
 * (@t: the column tables of its lists, as cli_tables(); NULL: none, -o picks keys).
 * Returns: EXIT_OK, or EXIT_USAGE after printing the error. */
int cli_kv(struct cli *cli, const struct out_table *t, size_t n);

/* Default controllers of create/delete/tree/get/set when -c is not given. */
#define CLI_DEFAULT_CONTROLLERS "memory,cpu,cpuacct"
#define CLI_MAX_MOUNTS 16
/*
 * The distinct hierarchies carrying any controller of the comma-separated @list
 * (NULL: CLI_DEFAULT_CONTROLLERS).  A controller that no hierarchy carries is an error
 * only when named explicitly.  Returns: EXIT_OK and the count in *n, or an exit status.
 */
int cli_hierarchies(struct cli *cli, const char *list, const struct cgctl_mount **ms,
		    size_t *n);
/* Comma-joined controllers of @m that are in @list (NULL: all of them) -> @buf. */
const char *cli_mount_name(const struct cgctl_mount *m, char *buf, size_t len);
/* The form a command prints a cgroup back in: "/a/b"; with the global --self, relative
 * to cgctl's own cgroup in @m (as the user gave it) when @abs is below it.  Returns:
 * @buf, holding that form (or @abs as it is). */
const char *cli_path_shown(struct cli *cli, const struct cgctl_mount *m, const char *abs,
			   char *buf, size_t len);
/* A library notice (validate's and bench's notice callback, @data the cli): one line on
 * stderr, "cgctl: CMD: MSG", over the progress line; nothing with -q. */
void cli_notice(void *data, const char *msg);
/* With the global --self, @path is taken relative to cgctl's own cgroup in @m.
 * Returns: EXIT_OK and the absolute normalised path in @out, or an exit status. */
int cli_path(struct cli *cli, const struct cgctl_mount *m, const char *path, char *out,
	     size_t len);

/* The kernel whose rules apply: /proc/sys/kernel/osrelease below --root (fixtures),
 * else the running kernel.  Returns: CGCTL_KVER(...) or 0 if unknown. */
uint32_t cli_kver(struct cli *cli);
/* Online CPUs (/sys/devices/system/cpu/online below --root, else sysconf). */
unsigned int cli_ncpu(struct cli *cli);

/* Check every PATH of @argv in every hierarchy of @ms before anything is done: sane,
 * and not the root (@root_msg says why).  Returns: EXIT_OK or the printed status. */
int cli_check_paths(struct cli *cli, const struct cgctl_mount *const *ms, size_t n, int argc,
		    const char **argv, const char *root_msg);

#endif
