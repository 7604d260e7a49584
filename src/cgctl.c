/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl: global options, the command table, per-command option parsing, dispatch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "cgctl.h"

#define WEAK __attribute__((weak))

extern const struct cgctl_cmd cmd_help WEAK, cmd_create WEAK, cmd_delete WEAK, cmd_tree WEAK,
	cmd_get WEAK, cmd_set WEAK, cmd_stat WEAK, cmd_mem WEAK, cmd_bw WEAK, cmd_move WEAK,
	cmd_watch WEAK, cmd_validate WEAK, cmd_bench WEAK;

/* Entries of commands whose file is not linked are NULL and skipped. */
const struct cgctl_cmd *const cgctl_commands[] = {
	&cmd_create, &cmd_delete, &cmd_tree, &cmd_get, &cmd_set, &cmd_stat, &cmd_mem,
	&cmd_bw, &cmd_move, &cmd_watch, &cmd_validate, &cmd_bench, &cmd_help, NULL,
};
#define N_COMMANDS (sizeof(cgctl_commands) / sizeof(cgctl_commands[0]) - 1)
const size_t cgctl_n_commands = N_COMMANDS;

static const char *opt_root, *opt_tsv_table;
static int opt_json, opt_tsv, opt_quiet, opt_verbose, opt_version, opt_help, opt_self;
static int opt_null;

static const struct poptOption global_options[] = {
	{ "root", '\0', POPT_ARG_STRING, &opt_root, 0,
	  "operate on the tree below DIR (fixtures; also $CGCTL_ROOT)", "DIR" },
	{ "self", '\0', POPT_ARG_NONE, &opt_self, 0,
	  "take cgroup paths relative to cgctl's own cgroup in each hierarchy", NULL },
	{ "json", '\0', POPT_ARG_NONE, &opt_json, 0, "print one JSON object", NULL },
	{ "tsv", '\0', POPT_ARG_NONE, &opt_tsv, 0,
	  "print one tab-separated table (--tsv=NAME: which, where there are several)",
	  NULL },
	{ "null", 'z', POPT_ARG_NONE, &opt_null, 0,
	  "a \"-\" argument reads NUL-terminated PIDs or paths from stdin", NULL },
	{ "quiet", 'q', POPT_ARG_NONE, &opt_quiet, 0, "print no warnings or progress", NULL },
	{ "verbose", 'v', POPT_ARG_NONE, NULL, 'v',
	  "explain what is done (repeat for debug)", NULL },
	{ "version", '\0', POPT_ARG_NONE, &opt_version, 0, "print the version", NULL },
	{ "help", 'h', POPT_ARG_NONE, &opt_help, 0, "show this help", NULL },
	POPT_TABLEEND
};

static void print_option(const struct poptOption *o, FILE *fp)
{
	char lhs[80];

	if (o->shortName)
		snprintf(lhs, sizeof(lhs), "-%c, --%s%s%s", o->shortName, o->longName,
			 o->argDescrip ? " " : "", o->argDescrip ? o->argDescrip : "");
	else
		snprintf(lhs, sizeof(lhs), "    --%s%s%s", o->longName, o->argDescrip ? " " : "",
			 o->argDescrip ? o->argDescrip : "");
	fprintf(fp, "  %-30s %s\n", lhs, o->descrip ? o->descrip : "");
}

static void print_options(const struct poptOption *opts, FILE *fp)
{
	for (; opts && (opts->longName || opts->shortName || opts->arg); opts++)
		if (opts->longName && !(opts->argInfo & POPT_ARGFLAG_DOC_HIDDEN))
			print_option(opts, fp);
}


void cli_cmd_help(const struct cgctl_cmd *cmd, const char *prefix, FILE *fp)
{
	static const struct poptOption help_opt[] = {
		{ "help", 'h', POPT_ARG_NONE, NULL, 0, "show this help", NULL },
		POPT_TABLEEND
	};

	if (cmd->verbs) {
		fprintf(fp, "Usage: cgctl %s%s VERB ...\n%s\n\nVerbs:\n", prefix, cmd->name,
			cmd->summary);
		for (size_t i = 0; i < cmd->n_verbs; i++)
			if (cmd->verbs[i])
				fprintf(fp, "  %-10s %s\n", cmd->verbs[i]->name,
					cmd->verbs[i]->summary);
		fprintf(fp, "\nRun 'cgctl %s%s VERB --help' for a verb's options.\n", prefix,
			cmd->name);
		return;
	}
	fprintf(fp, "Usage: cgctl %s%s [OPTIONS]%s%s\n%s\n\nOptions:\n", prefix, cmd->name,
		cmd->args && *cmd->args ? " " : "", cmd->args ? cmd->args : "", cmd->summary);
	print_options(cmd->options, fp);
	print_options(help_opt, fp);
	/* read by the shell completions (completions/): keep the shape */
	if (cmd->tsv_tables)
		fprintf(fp, "\nTSV tables: %s\n", cmd->tsv_tables);
	if (cmd->knobs) {	/* the library's table of interface files */
		fprintf(fp, "\nKnobs (FILE=):");
		for (size_t k = 0; cgctl_knob_file(k); k++)
			fprintf(fp, "%s%s", k ? "," : " ", cgctl_knob_file(k));
		fputc('\n', fp);
	}
	/* one column a line with its meaning, as lsblk --help, under its table's name when
	 * there are several (completions/ read the names: keep the shape) */
	if (cmd->n_columns) {
		fprintf(fp, "\nColumns (-o):\n");
		for (size_t t = 0; t < cmd->n_columns; t++) {
			if (cmd->n_columns > 1)
				fprintf(fp, " %s:\n", cmd->columns[t].list);
			for (size_t c = 0; c < cmd->columns[t].n; c++) {
				const struct out_col *col = &cmd->columns[t].cols[c];

				fprintf(fp, "  %-16s %s\n", col->name, col->help ? col->help : col->key);
			}
		}
	}
}

static void global_help(FILE *fp)
{
	fprintf(fp, "Usage: cgctl [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGS]\n"
		    "Configure cgroups, predict what the kernel will account, and check it.\n\n"
		    "Commands:\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (cgctl_commands[i] && !cgctl_commands[i]->hidden)
			fprintf(fp, "  %-10s %s\n", cgctl_commands[i]->name,
				cgctl_commands[i]->summary);
	fprintf(fp, "\nGlobal options:\n");
	print_options(global_options, fp);
	fprintf(fp, "\nRun 'cgctl COMMAND --help' for a command's options; see cgctl(1).\n");
}

static const struct cgctl_cmd *find_cmd(const struct cgctl_cmd *const *table, size_t n,
					const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (table[i] && strcmp(table[i]->name, name) == 0)
			return table[i];
	return NULL;
}

/* Build a popt table: the command's options plus --help. */
static struct poptOption *cmd_table(const struct cgctl_cmd *cmd, int *help)
{
	size_t n = 0;
	struct poptOption *t;

	for (const struct poptOption *o = cmd->options; o && (o->longName || o->shortName || o->arg);
	     o++)
		n++;
	t = cli_popt_table(cmd->options, 1);
	if (!t)
		return NULL;
	t[n] = (struct poptOption){ "help", 'h', POPT_ARG_NONE, help, 0, "show this help", NULL };
	return t;
}

/* Does the comma-separated @list name @name? */
static bool list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* --tsv: the one table @cmd prints (its first, or --tsv=NAME's), checked before the
 * command runs.  Returns: EXIT_OK or EXIT_USAGE. */
static int pick_table(struct cli *cli, const struct cgctl_cmd *cmd)
{
	static char first[64];
	const char *list = cmd->tsv_tables;

	cli->tsv_table = NULL;
	if (opt_tsv_table && !list_has(list, opt_tsv_table))
		return cli_usage(cli, "--tsv=%s: no such table (%s%s)", opt_tsv_table,
				 list ? "tables: " : "it prints one table: use --tsv",
				 list ? list : "");
	if (cli->fmt != OUT_TSV || !list)
		return EXIT_OK;
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(list, ","), list);
	cli->tsv_table = opt_tsv_table ? opt_tsv_table : first;
	return EXIT_OK;
}

/*
 * Short options keep one meaning across commands (issue 29): where two commands gave a
 * letter different meanings, the one below lost it (its long option stays), and
 * mem predict's --cpus (the machine's, where bw predict's is the quota) became
 * --online-cpus as in bw predict.  The old spelling is refused with the new one.
 */
static const struct retired {
	const char *cmd;	/* cli->cmdname */
	const char *old;	/* "-n", "--cpus" */
	const char *now;	/* the spelling to use */
	const char *other;	/* what the short option means elsewhere, or NULL */
} retired[] = {
	{ "bench", "-d", "--duration", "tree --depth" },
	{ "bench", "-l", "--list", "stat --long" },
	{ "bench", "-r", "--repeat", "--raw" },
	{ "bench", "-t", "--threads", "move --tree" },
	{ "bw record", "-o", "--output", "--output COLUMNS" },
	{ "delete", "-r", "--recursive", "--raw" },
	{ "mem where", "-i", "--inodes", "watch --interval" },
	{ "mem predict", "--cpus", "--online-cpus", NULL },
	{ "move", "-n", "--dry-run", "--noheadings" },
	{ "move", "-f", "--force", "delete --missing-ok" },
	{ "stat", "-t", "--tasks", "move --tree" },
	{ "validate", "-l", "--list", "stat --long" },
	{ "validate", "-r", "--repeat", "--raw" },
	{ "validate", "-t", "--target", "move --tree" },
	{ "watch", "-n", "--count", "--noheadings" },
};

/* popt refused @bad (error @err): a retired spelling gets its hint, one line */
static int retired_option(struct cli *cli, const char *bad, int err)
{
	for (size_t i = 0; bad && i < sizeof(retired) / sizeof(retired[0]); i++) {
		const struct retired *r = &retired[i];
		bool hit;

		if (strcmp(r->cmd, cli->cmdname))
			continue;
		if (r->old[1] == '-')	/* a long option, maybe "--cpus=4" */
			hit = !strncmp(bad, r->old, strlen(r->old)) &&
			      (!bad[strlen(r->old)] || bad[strlen(r->old)] == '=');
		else	/* "-n", or one of a bundle "-tn" */
			hit = bad[0] == '-' && bad[1] != '-' && strchr(bad + 1, r->old[1]);
		if (!hit)
			continue;
		if (r->other)
			return cli_usage(cli, "%s: no longer short for %s (%s means %s): use %s",
					 r->old, r->now, r->old, r->other, r->now);
		return cli_usage(cli, "%s: renamed: use %s", r->old, r->now);
	}
	return cli_usage(cli, "%s: %s", bad, poptStrerror(err));
}

static int run_cmd(struct cli *cli, const struct cgctl_cmd *cmd, const char *prefix, int argc,
		   const char **argv)
{
	struct poptOption *table;
	const char **args;
	poptContext pc;
	int help = 0, rc, nargs;

	snprintf(cli->cmdname, sizeof(cli->cmdname), "%s%s", prefix, cmd->name);
	if (cmd->verbs) {
		const struct cgctl_cmd *verb;
		char pfx[64];

		if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			cli_cmd_help(cmd, prefix, argc < 2 ? stderr : stdout);
			return argc < 2 ? EXIT_USAGE : EXIT_OK;
		}
		verb = find_cmd(cmd->verbs, cmd->n_verbs, argv[1]);
		if (!verb)
			return cli_usage(cli, "unknown verb '%s' (see 'cgctl %s --help')", argv[1],
					 cli->cmdname);
		snprintf(pfx, sizeof(pfx), "%s%s ", prefix, cmd->name);
		return run_cmd(cli, verb, pfx, argc - 1, argv + 1);
	}
	table = cmd_table(cmd, &help);
	if (!table)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	/* options may follow arguments ("bw set PATH --quota 50ms"); "--" ends them */
	pc = poptGetContext(cmd->name, argc, argv, table, 0);
	while ((rc = cli_popt_next(pc, table)) > 0)
		;
	if (rc < -1) {
		rc = retired_option(cli, poptBadOption(pc, 0), rc);
		goto out;
	}
	if (help) {
		cli_cmd_help(cmd, prefix, stdout);
		rc = EXIT_OK;
		goto out;
	}
	rc = pick_table(cli, cmd);
	if (rc)
		goto out;
	args = poptGetArgs(pc);
	for (nargs = 0; args && args[nargs]; nargs++)
		;
	if (nargs < cmd->min_args || (cmd->max_args >= 0 && nargs > cmd->max_args)) {
		rc = cli_usage(cli, "%s (usage: cgctl %s%s%s)",
			       nargs < cmd->min_args ? "missing argument" : "too many arguments",
			       cli->cmdname, cmd->args ? " " : "", cmd->args ? cmd->args : "");
		goto out;
	}
	rc = cmd->run(cli, nargs, args);
out:
	poptFreeContext(pc);
	free(table);
	return rc;
}

/* The library's messages: with -v what it writes (LOG_INFO), with -vv also what it
 * reads and decides (LOG_DEBUG); one line each, "cgctl: COMMAND: ...", control
 * characters escaped.  Without -v the library says nothing: its errors come back as
 * -errno and the command prints one line of its own. */
static void log_line(void *data, int priority, const char *file, int line, const char *fn,
		     const char *format, va_list args)
{
	const struct cli *cli = data;
	char msg[1024];

	vsnprintf(msg, sizeof(msg), format, args);
	fprintf(stderr, "cgctl: %s%s%s", cli->cmdname, cli->cmdname[0] ? ": " : "",
		priority >= LOG_DEBUG ? "debug: " : "");
	for (const unsigned char *c = (const unsigned char *)msg; *c; c++) {
		if (*c < 0x20 || *c == 0x7f)
			fprintf(stderr, "\\x%02x", *c);
		else
			fputc(*c, stderr);
	}
	fputc('\n', stderr);
	(void)file, (void)line, (void)fn;
}

static enum out_format pick_format(struct cli *cli, int *rc)
{
	*rc = EXIT_OK;
	if (opt_json && opt_tsv)
		*rc = cli_usage(cli, "--json and --tsv exclude each other");
	return opt_json ? OUT_JSON : opt_tsv ? OUT_TSV : OUT_HUMAN;
}

static int setup(struct cli *cli)
{
	const char *root = opt_root ? opt_root : getenv("CGCTL_ROOT");
	int r, rc;

	cli->fmt = pick_format(cli, &rc);
	if (rc)
		return rc;
	cli->quiet = opt_quiet;
	cli->verbose = opt_verbose;
	cli->self = opt_self;
	cli->null_sep = opt_null;
	cli->root = root;
	cli->stderr_tty = isatty(STDERR_FILENO);
	r = cgctl_new(&cli->ctx, root);
	if (r < 0)
		return cli_error(cli, root && *root ? root : "--root", r,
				 r == -ENOENT ? "no such directory" :
				 r == -EINVAL ? "empty (unset --root and CGCTL_ROOT for the live "
						"system)" : NULL);
	cgctl_set_log_fn(cli->ctx, log_line, cli);
	/* a plan of several writes is not cut by SIGINT, SIGTERM, SIGHUP or SIGQUIT */
	cgctl_set_block_signals(cli->ctx, true);
	if (opt_verbose)
		cgctl_set_log_priority(cli->ctx, opt_verbose > 1 ? LOG_DEBUG : LOG_INFO);
	else if (!getenv("CGCTL_LOG"))
		cgctl_set_log_priority(cli->ctx, LOG_CRIT);	/* errors return as -errno */
	cli->out = out_new(cli->fmt);
	if (!cli->out)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	return EXIT_OK;
}

/* A global option (--json, --tsv, --self, -q, -v..., --root DIR) given after the
 * command: @n tokens at @a (2 for "--root DIR"), 0 when @a is not one.  --help and
 * --version are not hoisted: after a command, -h is that command's help. */
static int global_after(const char *const *a, int left)
{
	static const char *const flags[] = { "--json", "--tsv", "--self", "-q", "--quiet",
					     "--verbose", "-z", "--null" };
	const char *t = a[0];

	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (!strcmp(t, flags[i]))
			return 1;
	if (t[0] == '-' && t[1] == 'v' && strspn(t + 1, "v") == strlen(t + 1))
		return 1;	/* -v, -vv, ... */
	if (!strncmp(t, "--root=", 7) || !strncmp(t, "--tsv=", 6))
		return 1;
	if (!strcmp(t, "--root"))
		return left > 1 ? 2 : 1;
	return 0;
}

/* "--tsv=NAME" becomes "--tsv" (popt's optional arguments would take the command
 * after a plain --tsv as NAME), NAME kept for pick_table().  Nothing after "--". */
static void split_tsv(const char **argv)
{
	for (; *argv && strcmp(*argv, "--"); argv++)
		if (!strncmp(*argv, "--tsv=", 6)) {
			opt_tsv_table = *argv + 6;
			*argv = "--tsv";
		}
}

/*
 * Global options may follow the command ("cgctl stat --json /a"): move them in front
 * of it, in order, so one popt pass reads them.  The command is the first argument
 * that is not an option (or --root's value); nothing after "--" moves.  Returns: a new
 * argv (malloc'ed; the strings are the caller's) or NULL when out of memory.
 */
static const char **hoist_globals(int argc, const char **argv)
{
	const char **out = calloc((size_t)argc + 1, sizeof(*out));
	const char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	int n = 0, nr = 0, i = 1, cmd = 0;

	if (!out || !rest) {
		free(out);
		free(rest);
		return NULL;
	}
	out[n++] = argv[0];
	for (; i < argc && !cmd; i++) {
		if (!strcmp(argv[i], "--") || argv[i][0] != '-') {
			cmd = i;
			break;
		}
		out[n++] = argv[i];
		if (!strcmp(argv[i], "--root") && i + 1 < argc)
			out[n++] = argv[++i];
	}
	for (i = cmd ? cmd : argc; i < argc; i++) {
		int k = strcmp(argv[i], "--") ? global_after(argv + i, argc - i) : 0;

		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				rest[nr++] = argv[i++];
			break;
		}
		if (i == cmd || !k) {
			rest[nr++] = argv[i];
			continue;
		}
		while (k-- > 0)
			out[n++] = argv[i++];
		i--;
	}
	memcpy(out + n, rest, (size_t)nr * sizeof(*rest));
	free(rest);
	return out;
}

/* Standard output failed (closed, full) with errno @e after the command returned @rc:
 * one line, and an exit status a script can trust.  A change that was made exits
 * EXIT_UNPRINTED (9), not 1, so that nobody retries it (issue 33). */
static int output_lost(struct cli *cli, int rc, int e)
{
	if (cli->changed && rc == EXIT_OK) {
		cli_error(cli, "standard output", -e, "write error: %s (the change was made)",
			  cli_strerror(-e));
		return EXIT_UNPRINTED;
	}
	cli_error(cli, "standard output", -e, "write error: %s", cli_strerror(-e));
	return rc ? rc : EXIT_FAIL;
}

/* A key/value result's -o names a key it printed: else a usage error, nothing printed.
 * The keys are known only from the output, so bw set and mem set have made their change
 * by then: that is no usage error ("nothing was changed") but EXIT_UNPRINTED. */
static int check_kv(struct cli *cli, int rc)
{
	char bad[64];

	if (out_kv_check(cli->out, bad, sizeof(bad)) == 0)
		return rc;
	out_free(cli->out);
	cli->out = out_new(cli->fmt);
	if (cli->changed && rc == EXIT_OK) {
		cli_error(cli, NULL, -EINVAL, "--output: %s%s%s (the change was made)",
			  bad[0] ? "no key '" : "an empty key name", bad, bad[0] ? "' in this output" : "");
		return EXIT_UNPRINTED;
	}
	if (!bad[0])
		return cli_usage(cli, "--output: an empty key name");
	return cli_usage(cli, "--output: no key '%s' in this output", bad);
}

int main(int argc, const char **argv)
{
	struct cli cli = { .fmt = OUT_HUMAN };
	const struct cgctl_cmd *cmd;
	const char **rest, **hoisted;
	struct poptOption *globals;
	poptContext pc;
	int rc, nrest = 0;

	snprintf(cli.cmdname, sizeof(cli.cmdname), "%s", "cgctl");
	hoisted = hoist_globals(argc, argv);
	if (!hoisted)
		return cli_error(&cli, NULL, -ENOMEM, NULL);
	split_tsv(hoisted + 1);
	globals = cli_popt_table(global_options, 0);
	if (!globals) {
		free(hoisted);
		return cli_error(&cli, NULL, -ENOMEM, NULL);
	}
	pc = poptGetContext("cgctl", argc, hoisted, globals, POPT_CONTEXT_POSIXMEHARDER);
	while ((rc = cli_popt_next(pc, globals)) > 0)
		if (rc == 'v')
			opt_verbose++;
	cli.cmdname[0] = '\0';
	if (rc < -1) {
		rc = cli_usage(&cli, "%s: %s", poptBadOption(pc, 0), poptStrerror(rc));
		goto out;
	}
	if (opt_version) {
		printf("cgctl %s\n", PACKAGE_VERSION);
		rc = EXIT_OK;
		goto out;
	}
	rest = poptGetArgs(pc);
	while (rest && rest[nrest])
		nrest++;
	if (opt_help) {
		global_help(stdout);
		rc = EXIT_OK;
		goto out;
	}
	if (nrest == 0) {
		rc = cli_usage(&cli, "no command given (see 'cgctl --help')");
		goto out;
	}
	cmd = find_cmd(cgctl_commands, N_COMMANDS, rest[0]);
	if (!cmd) {
		rc = cli_usage(&cli, "unknown command '%s' (see 'cgctl --help')", rest[0]);
		goto out;
	}
	rc = setup(&cli);
	if (rc == EXIT_OK) {
		rc = run_cmd(&cli, cmd, "", nrest, rest);
		/* a failed command prints nothing on stdout; partial results and
		 * predictions that differ are still data */
		if (rc != EXIT_OK && rc != EXIT_PARTIAL && rc != EXIT_DIFFERS)
			out_free(cli.out), cli.out = out_new(cli.fmt);
		if (cli.out && (rc == EXIT_OK || rc == EXIT_PARTIAL || rc == EXIT_DIFFERS))
			rc = check_kv(&cli, rc);
		errno = 0;
		if (cli.out && !out_empty(cli.out) && out_render(cli.out, stdout) < 0) {
			int e = errno ? errno : EIO;

			/* "cgctl: cgctl: ..." before; the errno says closed or full */
			rc = output_lost(&cli, rc, e);
		}
	}
out:
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* what a command wrote itself (get --raw) failed silently before */
		if (!rc)
			rc = output_lost(&cli, rc, errno ? errno : EIO);
	}
	out_free(cli.out);
	cgctl_unref(cli.ctx);
	poptFreeContext(pc);
	free(globals);
	free(hoisted);
	return rc;
}
