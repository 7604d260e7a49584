/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl create PATH...: make cgroups in the memory and cpu hierarchies (or -c). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cgctl.h"

static const char *opt_ctrls;
static int opt_parents;

static const struct poptOption options[] = {
	{ "controllers", 'c', POPT_ARG_STRING, &opt_ctrls, 0,
	  "hierarchies to use (default memory,cpu,cpuacct)", "LIST" },
	{ "parents", 'p', POPT_ARG_NONE, &opt_parents, 0,
	  "create missing parents; an existing cgroup is not an error", NULL },
	POPT_TABLEEND
};

/* cgroup v2: a child only gets memory.* / cpu.* files when the parent delegates them. */
static void v2_delegate(struct cli *cli, const struct cgctl_mount *m, const char *path)
{
	char parent[PATH_MAX], *slash, *avail = NULL, want[128] = "";
	size_t len;
	static const char *const ctrls[] = { "memory", "cpu", "cpuset", "io", "pids" };

	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!slash)
		return;
	slash[slash == parent ? 1 : 0] = '\0';
	if (cgctl_cg_read(cli->ctx, m, parent, "cgroup.controllers", &avail, &len) < 0)
		return;
	for (size_t i = 0; i < sizeof(ctrls) / sizeof(ctrls[0]); i++) {
		const char *list = opt_ctrls ? opt_ctrls : CLI_DEFAULT_CONTROLLERS;

		if (!strstr(list, ctrls[i]) || !strstr(avail, ctrls[i]))
			continue;
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s+%s",
			 *want ? " " : "", ctrls[i]);
	}
	free(avail);
	if (*want && cgctl_cg_write(cli->ctx, m, parent, "cgroup.subtree_control", want) < 0)
		cli_warn(cli, "%s: could not enable %s in cgroup.subtree_control (a v2 parent "
			      "with processes cannot delegate controllers)", parent, want);
}

static int create_one(struct cli *cli, const struct cgctl_mount *m, const char *path)
{
	int r;

	if (m->version == 2)
		v2_delegate(cli, m, path);
	r = cgctl_cg_create(cli->ctx, m, path);
	if (r == -ENOENT && opt_parents && strcmp(path, "/") != 0) {
		char parent[PATH_MAX], *slash;

		snprintf(parent, sizeof(parent), "%s", path);
		slash = strrchr(parent, '/');
		slash[slash == parent ? 1 : 0] = '\0';
		r = create_one(cli, m, parent);
		if (r < 0 && r != -EEXIST)
			return r;
		if (m->version == 2)
			v2_delegate(cli, m, path);
		r = cgctl_cg_create(cli->ctx, m, path);
	}
	if (r == -EEXIST && opt_parents)
		return 0;
	return r;
}

/* Everything that would make the creation of @path fail, checked before any mkdir. */
static int precheck(struct cli *cli, const struct cgctl_mount *const *ms, size_t n,
		    const char *arg)
{
	int first_err = 0, same = 1, failures = 0;
	char msg[256] = "";

	for (size_t i = 0; i < n; i++) {
		char norm[PATH_MAX], parent[PATH_MAX], name[256], *slash;
		int r, e = 0;

		cli_path(cli, ms[i], arg, norm, sizeof(norm));
		snprintf(parent, sizeof(parent), "%s", norm);
		slash = strrchr(parent, '/');
		slash[slash == parent ? 1 : 0] = '\0';
		r = cgctl_cg_exists(cli->ctx, ms[i], norm);
		if (r < 0)
			e = r;
		else if (r > 0 && !opt_parents)
			e = -EEXIST;
		else if (r == 0 && !opt_parents && cgctl_cg_exists(cli->ctx, ms[i], parent) <= 0)
			e = -ENOENT;
		if (!e)
			continue;
		failures++;
		if (first_err && e != first_err)
			same = 0;
		if (!first_err)
			first_err = e;
		snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), "%s%s: %s",
			 *msg ? "; " : "", cli_mount_name(ms[i], name, sizeof(name)),
			 e == -EEXIST ? "cgroup exists" :
			 e == -ENOENT ? "parent cgroup does not exist (use -p)" : cli_strerror(e));
	}
	if (!failures)
		return EXIT_OK;
	if (same && (size_t)failures == n)
		return cli_error(cli, arg, first_err, "%s",
				 first_err == -EEXIST ? "cgroup exists" :
				 first_err == -ENOENT ? "parent cgroup does not exist (use -p)" :
				 cli_strerror(first_err));
	return cli_error(cli, arg, first_err, "%s", msg);
}

/* One cgroup of one hierarchy: created, already there (-p), or the error. */
static void emit(struct cli *cli, const struct cgctl_mount *m, const char *path, int r,
		 bool created)
{
	char name[256];

	out_obj_begin(cli->out, NULL);
	out_str(cli->out, "path", path);
	out_str(cli->out, "hierarchy", cli_mount_name(m, name, sizeof(name)));
	out_bool(cli->out, "created", created);
	out_str(cli->out, "error", r < 0 ? cli_strerror(r) : NULL);
	out_obj_end(cli->out);
}

static int run_paths(struct cli *cli, int argc, const char **argv)
{
	const struct cgctl_mount *ms[CLI_MAX_MOUNTS];
	size_t n, i;
	int rc, a, failed = 0, done = 0;

	rc = cli_hierarchies(cli, opt_ctrls, ms, &n);
	if (rc)
		return rc;
	/* validate every path before creating anything */
	rc = cli_check_paths(cli, ms, n, argc, argv, "the root cgroup always exists");
	if (rc)
		return rc;
	/* --json and --tsv say what was done; the human form stays silent */
	if (cli->fmt != OUT_HUMAN)
		out_list_begin(cli->out, "cgroups");
	for (a = 0; a < argc; a++) {
		int path_rc = precheck(cli, ms, n, argv[a]);

		if (path_rc) {
			rc = path_rc;
			failed++;
			continue;
		}
		for (i = 0; i < n; i++) {
			char norm[PATH_MAX], name[256];
			int r;

			bool existed;

			cli_path(cli, ms[i], argv[a], norm, sizeof(norm));
			existed = cgctl_cg_exists(cli->ctx, ms[i], norm) > 0;
			r = create_one(cli, ms[i], norm);
			if (r < 0) {
				rc = cli_error(cli, argv[a], r, "%s: %s",
					       cli_mount_name(ms[i], name, sizeof(name)),
					       cli_strerror(r));
				failed++;
				/* the first hierarchy refused (EACCES as a user): one line, and
				 * no cgroup in the others, not one line per hierarchy */
				if (i == 0)
					break;
			} else {
				done++;
			}
			if (cli->fmt != OUT_HUMAN)
				emit(cli, ms[i], norm, r, r == 0 && !existed);
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

const struct cgctl_cmd cmd_create = {
	.name = "create",
	.args = "PATH...",
	.summary = "create cgroups",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = -1,
};
