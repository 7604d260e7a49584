/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl set PATH FILE=VALUE...: raw writes as one plan (struct cgctl_plan). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgctl.h"
#include "cli-file.h"
#include "systemd-route.h"

static const char *opt_ctrls;

static const struct poptOption options[] = {
	{ "controllers", 'c', POPT_ARG_STRING, &opt_ctrls, 0,
	  "hierarchy for files without a controller prefix (cgroup.procs, tasks)", "LIST" },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, (void *)sd_route_options, 0, NULL, NULL },
	POPT_TABLEEND
};

struct assignment {
	char file[256];
	char norm[PATH_MAX];
};

/* One FILE=VALUE: the file of @path in hierarchy @m. */
struct set_item {
	const struct cgctl_mount *m;
	const char *path, *file, *value;
};

static int parse_assignment(struct cli *cli, const char *path, const char *arg,
			    struct assignment *a, struct set_item *it)
{
	const char *eq = strchr(arg, '=');
	int rc;

	if (!eq || eq == arg)
		return cli_usage(cli, "'%s': expected FILE=VALUE", arg);
	if ((size_t)(eq - arg) >= sizeof(a->file))
		return cli_usage(cli, "'%.*s': file name too long", (int)(eq - arg), arg);
	snprintf(a->file, sizeof(a->file), "%.*s", (int)(eq - arg), arg);
	if (strpbrk(eq + 1, "\n\r"))
		return cli_usage(cli, "%s: a value cannot contain a newline", a->file);
	rc = cli_file_target(cli, opt_ctrls, path, a->file, &it->m, a->norm);
	if (rc)
		return rc;
	it->path = a->norm;
	it->file = a->file;
	it->value = eq + 1;
	return EXIT_OK;
}

static int failed(struct cli *cli, const char *path, const struct cgctl_plan *p, int r,
		  const struct cgctl_error *e)
{
	const char *msg = e->msg[0] ? e->msg : cli_strerror(r);

	/* refused before anything was written: a bad assignment */
	if (cgctl_plan_failed(p) < 0 && r == -EINVAL)
		return cli_usage(cli, "%s: %s", path, msg);
	return cli_error(cli, path, r, "%s", msg);
}

/* --json / --tsv: every write of the plan in order, with what the file held before
 * (unchanged values were skipped: not listed).  The human form stays silent. */
static void emit(struct cli *cli, const char *path, const struct cgctl_plan *p)
{
	const struct cgctl_mount *m;
	const char *spath, *file, *value, *old;
	struct out *o = cli->out;
	char name[256];

	out_str(o, "path", path);
	out_list_begin(o, "written");
	for (size_t i = 0; cgctl_plan_step(p, i, &m, &spath, &file, &value, &old, NULL) == 0;
	     i++) {
		out_obj_begin(o, NULL);
		out_str(o, "hierarchy", cli_mount_name(m, name, sizeof(name)));
		out_str(o, "path", spath);
		out_str(o, "file", file);
		cli_out_file_value(cli, file, "value", value);
		if (old)
			cli_out_file_value(cli, file, "old_value", old);
		else
			out_null(o, "old_value");
		out_str(o, "applied", "direct");
		out_obj_end(o);
	}
	out_list_end(o);
}

/* memory sizes as systemd takes them: bytes or "max" */
static int knob_value(struct cli *cli, const struct set_item *it, char *buf,
		      size_t len, struct cgctl_unit_knob *k)
{
	uint64_t v;

	*k = CGCTL_UNIT_KNOB(it->file, it->value);
	if (strncmp(it->file, "memory.", 7) || !strcmp(it->file, "memory.oom.group"))
		return EXIT_OK;
	if (cgctl_parse_size(it->value, &v) < 0)
		return cli_usage(cli, "%s: '%s' is not a size", it->file, it->value);
	snprintf(buf, len, v == CGCTL_SIZE_MAX ? "max" : "%llu", (unsigned long long)v);
	k->value = buf;
	return EXIT_OK;
}

/*
 * A unit's own cgroup on a systemd host: every file must have a unit property (or be
 * cpu.max.burst, which systemd 252 has none for): anything else written here would be
 * undone by systemd, and cgroup.procs & co. are moves.
 */
static int set_via_systemd(struct cli *cli, const char *path, const struct sd_route *sr,
			   const struct set_item *items, size_t n)
{
	struct cgctl_unit_knob k[CGCTL_SET_MAX];
	char buf[CGCTL_SET_MAX][32];
	struct cgctl_error e = CGCTL_ERROR_INIT;
	int rc = EXIT_OK, r;

	for (size_t i = 0; i < n && !rc; i++)
		rc = knob_value(cli, &items[i], buf[i], sizeof(buf[i]), &k[i]);
	if (rc)
		return rc;
	r = cgctl_unit_apply(cli->ctx, items[0].m, &sr->unit, k, n, CGCTL_UNIT_CHECK_ONLY, &e);
	if (r < 0)
		return cli_usage(cli, "%s: %s", path, e.msg);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(k[i].how, "direct") && strcmp(k[i].file, "cpu.max.burst"))
			return cli_error(cli, path, -EPERM, "%s: unit %s has no property for "
					 "it and systemd would undo a direct write; use --force "
					 "to write it anyway", k[i].file, sr->unit.name);
	rc = sd_route_apply(cli, path, items[0].m, sr, k, n);
	if (rc || cli->fmt == OUT_HUMAN)
		return rc;
	out_str(cli->out, "path", path);
	out_str(cli->out, "unit", sr->unit.name);
	out_list_begin(cli->out, "written");
	for (size_t i = 0; i < n; i++) {
		char name[256];

		out_obj_begin(cli->out, NULL);
		out_str(cli->out, "hierarchy", cli_mount_name(items[i].m, name, sizeof(name)));
		out_str(cli->out, "path", items[i].path);
		out_str(cli->out, "file", k[i].file);
		cli_out_file_value(cli, k[i].file, "value", k[i].value);
		out_null(cli->out, "old_value");	/* systemd's to keep */
		out_str(cli->out, "applied", k[i].how);
		out_obj_end(cli->out);
	}
	out_list_end(cli->out);
	return EXIT_OK;
}

/* one cgroup's writer for all items (they share PATH; on v2 one hierarchy) */
static int route(struct cli *cli, const char *path, const struct set_item *items,
		 size_t n, struct sd_route *sr)
{
	int rc = EXIT_OK;

	sr->via_systemd = false;
	for (size_t i = 0; i < n && !rc && !sr->via_systemd; i++)
		rc = sd_route(cli, path, items[i].m, items[i].path, sr);
	return rc;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	size_t n = (size_t)argc - 1;
	struct assignment *as;
	struct set_item *items;
	struct cgctl_plan *plan = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct sd_route sr;
	int rc = EXIT_OK, r;

	if (n > CGCTL_SET_MAX)
		return cli_usage(cli, "set: at most %d files at once", CGCTL_SET_MAX);
	as = calloc(n, sizeof(*as));
	items = calloc(n, sizeof(*items));
	if (!as || !items || cgctl_plan_new(cli->ctx, &plan) < 0) {
		rc = cli_error(cli, NULL, -ENOMEM, NULL);
		goto out;
	}
	for (size_t i = 0; i < n && rc == EXIT_OK; i++)
		rc = parse_assignment(cli, argv[0], argv[i + 1], &as[i], &items[i]);
	if (rc != EXIT_OK)
		goto out;
	rc = route(cli, argv[0], items, n, &sr);
	if (rc || sr.via_systemd) {
		rc = rc ? rc : set_via_systemd(cli, argv[0], &sr, items, n);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		r = cgctl_plan_add(plan, items[i].m, items[i].path, items[i].file,
				   items[i].value);
		if (r < 0) {
			rc = cli_error(cli, NULL, r, NULL);
			goto out;
		}
	}
	r = cgctl_plan_apply(plan, &e);
	if (r < 0)
		rc = failed(cli, argv[0], plan, r, &e);
	else
		cli->changed = true;
	if (r >= 0 && cli->fmt != OUT_HUMAN)
		emit(cli, argv[0], plan);
out:
	free(as);
	free(items);
	cgctl_plan_free(plan);
	return rc;
}

const struct cgctl_cmd cmd_set = {
	.name = "set",
	.args = "PATH FILE=VALUE...",
	.summary = "write control files (all or nothing)",
	.options = options,
	.run = run,
	.min_args = 2,
	.max_args = -1,
	.knobs = true,
};
