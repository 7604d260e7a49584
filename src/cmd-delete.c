/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl delete [-r] PATH...: remove cgroups; never moves tasks unless asked. */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "cgctl.h"

static const char *opt_ctrls;
static int opt_recursive, opt_move_tasks, opt_missing_ok;

static const struct poptOption options[] = {
	{ "controllers", 'c', POPT_ARG_STRING, &opt_ctrls, 0,
	  "hierarchies to use (default memory,cpu,cpuacct)", "LIST" },
	{ "recursive", '\0', POPT_ARG_NONE, &opt_recursive, 0,
	  "remove descendant cgroups too (depth first)", NULL },
	{ "move-tasks", '\0', POPT_ARG_NONE, &opt_move_tasks, 0,
	  "move remaining processes to the parent instead of refusing", NULL },
	{ "missing-ok", 'f', POPT_ARG_NONE, &opt_missing_ok, 0,
	  "a cgroup that does not exist is not an error", NULL },
	POPT_TABLEEND
};

/* Would removing @arg fail anywhere?  Checked in every hierarchy before removing any,
 * so a path is removed everywhere or nowhere.  Returns: EXIT_OK, or the printed error. */
static int precheck(struct cli *cli, const struct cgctl_mount *const *ms, size_t n,
		    const char *arg, unsigned int flags, int *present)
{
	int first_err = 0, same = 1, failures = 0;
	char msg[512] = "", first_msg[256] = "";

	*present = 0;
	for (size_t i = 0; i < n; i++) {
		struct cgctl_error e = CGCTL_ERROR_INIT;
		char norm[PATH_MAX], name[256];
		int r;

		cli_path(cli, ms[i], arg, norm, sizeof(norm));
		r = cgctl_cg_exists(cli->ctx, ms[i], norm);
		if (r == 0)
			continue;
		if (r > 0) {
			(*present)++;
			r = cgctl_cg_remove(cli->ctx, ms[i], norm, flags | CGCTL_RM_DRY_RUN, &e);
		}
		if (r == 0)
			continue;
		failures++;
		if (first_err && r != first_err)
			same = 0;
		if (!first_err) {
			first_err = r;
			snprintf(first_msg, sizeof(first_msg), "%s",
				 e.msg[0] ? e.msg : cli_strerror(r));
		}
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), "%s%s: %s",
			 *msg ? "; " : "", cli_mount_name(ms[i], name, sizeof(name)),
			 e.msg[0] ? e.msg : cli_strerror(r));
	}
	if (!failures)
		return EXIT_OK;
	if (same)
		return cli_error(cli, arg, first_err, "%s", first_msg);
	return cli_error(cli, arg, first_err, "%s", msg);
}

/* One cgroup of one hierarchy: removed (with its descendants under -r), or the error. */
static void emit(struct cli *cli, const struct cgctl_mount *m, const char *path, int r,
		 const struct cgctl_error *e)
{
	char name[256];

	out_obj_begin(cli->out, NULL);
	out_str(cli->out, "path", path);
	out_str(cli->out, "hierarchy", cli_mount_name(m, name, sizeof(name)));
	out_bool(cli->out, "removed", r == 0);
	out_str(cli->out, "error", r == 0 ? NULL : e->msg[0] ? e->msg : cli_strerror(r));
	out_obj_end(cli->out);
}

static int run_paths(struct cli *cli, int argc, const char **argv)
{
	const struct cgctl_mount *ms[CLI_MAX_MOUNTS];
	unsigned int flags = (opt_recursive ? CGCTL_RM_RECURSIVE : 0) |
			     (opt_move_tasks ? CGCTL_RM_MOVE_TASKS : 0);
	size_t n, i;
	int rc, a, failed = 0, done = 0, done_here;

	rc = cli_hierarchies(cli, opt_ctrls, ms, &n);
	if (rc)
		return rc;
	rc = cli_check_paths(cli, ms, n, argc, argv, "refusing to remove the root cgroup");
	if (rc)
		return rc;
	/* --json and --tsv say what was done; the human form stays silent */
	if (cli->fmt != OUT_HUMAN)
		out_list_begin(cli->out, "cgroups");
	for (a = 0; a < argc; a++) {
		int present, path_rc = precheck(cli, ms, n, argv[a], flags, &present);

		if (path_rc) {
			rc = path_rc;
			failed++;
			continue;
		}
		if (!present) {
			if (!opt_missing_ok) {
				rc = cli_error(cli, argv[a], -ENOENT, "no such cgroup");
				failed++;
			}
			continue;
		}
		for (i = 0, done_here = 0; i < n; i++) {
			struct cgctl_error e = CGCTL_ERROR_INIT;
			char norm[PATH_MAX], name[256];
			int r;

			cli_path(cli, ms[i], argv[a], norm, sizeof(norm));
			if (cgctl_cg_exists(cli->ctx, ms[i], norm) <= 0)
				continue;
			r = cgctl_cg_remove(cli->ctx, ms[i], norm, flags, &e);
			if (r < 0) {
				rc = cli_error(cli, argv[a], r, "%s: %s",
					       cli_mount_name(ms[i], name, sizeof(name)),
					       e.msg[0] ? e.msg : cli_strerror(r));
				failed++;
				/* refused before anything was removed (EACCES as a user): one
				 * line, the other hierarchies left alone */
				if (!done_here)
					break;
			} else {
				done++;
				done_here++;
			}
			if (cli->fmt != OUT_HUMAN)
				emit(cli, ms[i], norm, r, &e);
		}
	}
	if (cli->fmt != OUT_HUMAN)
		out_list_end(cli->out);
	if (failed && done)
		return EXIT_PARTIAL;
	return failed ? rc : EXIT_OK;
}

/* "-" reads the PATHs from stdin (blanks or, with -z, NULs between them); an empty list
 * does nothing and succeeds. */
static int run(struct cli *cli, int argc, const char **argv)
{
	return cli_run_paths(cli, argc, argv, run_paths);
}

const struct cgctl_cmd cmd_delete = {
	.name = "delete",
	.args = "PATH...",
	.summary = "remove cgroups (refuses while processes remain)",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = -1,
};
