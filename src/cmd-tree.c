/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl tree [PATH]: cgroups below PATH with their hierarchies, task counts, key limits. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cgctl.h"
#include "columns.h"

static const char *opt_ctrls;
static const char *opt_depth_s;
static int opt_depth = -1;	/* -1: no --depth, unlimited */

static const struct poptOption options[] = {
	{ "controllers", 'c', POPT_ARG_STRING, &opt_ctrls, 0,
	  "hierarchies to walk (default memory,cpu,cpuacct)", "LIST" },
	{ "depth", 'd', POPT_ARG_STRING, &opt_depth_s, 0, "descend at most N levels", "N" },
	CLI_TABLE_OPTIONS('n'),
	POPT_TABLEEND
};

struct row {
	char *path;			/* relative to the walk's start, "/" first */
	size_t group;			/* hierarchies whose walk starts at one cgroup */
	unsigned int in;		/* bit i: exists in hierarchy i */
	long procs;			/* -1 unknown */
	struct cgctl_memstat mem;
	struct cgctl_cpubw cpu;
	bool has_mem, has_cpu;
	bool unit_read;
	char unit[256];			/* systemd's unit that owns it; "": none */
};

struct walk {
	struct cli *cli;
	const struct cgctl_mount **ms;
	size_t n;
	struct row *rows;
	size_t nrows;
};

static struct row *find_row(struct walk *w, size_t group, const char *rel)
{
	struct row *r;

	for (size_t i = 0; i < w->nrows; i++)
		if (w->rows[i].group == group && strcmp(w->rows[i].path, rel) == 0)
			return &w->rows[i];
	r = realloc(w->rows, (w->nrows + 1) * sizeof(*r));
	if (!r)
		return NULL;
	w->rows = r;
	r = &w->rows[w->nrows++];
	memset(r, 0, sizeof(*r));
	r->path = strdup(rel);
	r->group = group;
	r->procs = -1;
	return r->path ? r : NULL;
}

/* Walk hierarchy @mi from @abs; its rows are those of @group (the hierarchies whose walk
 * starts at the same cgroup: all of them, but under --self our own cgroups may differ). */
static void visit(struct walk *w, size_t mi, size_t group, const char *abs, const char *rel,
		  int depth)
{
	const struct cgctl_mount *m = w->ms[mi];
	struct row *row = find_row(w, group, rel);
	char **kids = NULL;
	ssize_t k;

	if (!row)
		return;
	row->in |= 1u << mi;
	if (!row->unit_read) {		/* systemd hosts only (cgctl(1), SYSTEMD) */
		struct cgctl_unit u;

		row->unit_read = true;
		if (cgctl_cgroup_unit(w->cli->ctx, m, abs, &u) == 1)
			snprintf(row->unit, sizeof(row->unit), "%s", u.name);
	}
	if (row->procs < 0) {
		pid_t *pids = NULL;
		ssize_t np = cgctl_cg_pids(w->cli->ctx, m, abs, "cgroup.procs", &pids);

		free(pids);
		row->procs = np < 0 ? -1 : np;
	}
	if (!row->has_mem && cgctl_mount_has(m, "memory"))
		row->has_mem = cgctl_memstat_read(w->cli->ctx, m, abs, &row->mem) == 0;
	if (!row->has_cpu && cgctl_mount_has(m, "cpu"))
		row->has_cpu = cgctl_cpubw_read(w->cli->ctx, m, abs, NULL, NULL, &row->cpu) == 0;
	if (opt_depth >= 0 && depth >= opt_depth)
		return;
	k = cgctl_cg_children(w->cli->ctx, m, abs, &kids);
	for (ssize_t i = 0; i < k; i++) {
		char cabs[PATH_MAX], crel[PATH_MAX];

		snprintf(cabs, sizeof(cabs), "%s/%s", strcmp(abs, "/") ? abs : "", kids[i]);
		snprintf(crel, sizeof(crel), "%s/%s", strcmp(rel, "/") ? rel : "", kids[i]);
		visit(w, mi, group, cabs, crel, depth + 1);
	}
	cgctl_strv_free(kids);
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	/* each group's rows together: the tree of one start, then the next */
	if (x->group != y->group)
		return (x->group > y->group) - (x->group < y->group);
	return strcmp(x->path, y->path);
}

static void print_row(struct walk *w, const struct row *r, const char *base)
{
	struct out *o = w->cli->out;
	char full[PATH_MAX], name[256];

	snprintf(full, sizeof(full), "%s%s", strcmp(base, "/") ? base : "",
		 strcmp(r->path, "/") ? r->path : (strcmp(base, "/") ? "" : "/"));
	out_obj_begin(o, NULL);
	out_str(o, "path", full);
	if (r->unit[0])
		out_str(o, "unit", r->unit);
	out_list_begin(o, "hierarchies");
	for (size_t i = 0; i < w->n; i++)
		if (r->in & (1u << i))
			out_str(o, NULL, cli_mount_name(w->ms[i], name, sizeof(name)));
	out_list_end(o);
	if (r->procs >= 0)
		out_u64(o, "procs", (uint64_t)r->procs);
	else
		out_null(o, "procs");
	if (r->has_mem) {
		if (r->mem.present & CGCTL_MEMSTAT_NO_USAGE)
			out_null(o, "memory_usage_bytes");
		else
			out_bytes(o, "memory_usage_bytes", r->mem.usage);
		out_bytes(o, "memory_limit_bytes", r->mem.limit);
	} else {
		out_null(o, "memory_usage_bytes");
		out_null(o, "memory_limit_bytes");
	}
	if (r->has_cpu && r->cpu.quota_us != UINT64_MAX && r->cpu.period_us)
		out_cpus(o, "cpu_limit_cpus",
			 (double)r->cpu.quota_us / (double)r->cpu.period_us);
	else
		out_null(o, "cpu_limit_cpus");
	out_obj_end(o);
}

static int run(struct cli *cli, int argc, const char **argv)
{
	const struct cgctl_mount *ms[CLI_MAX_MOUNTS];
	const char *path = argc ? argv[0] : "/";
	struct walk w = { .cli = cli, .ms = ms };
	char base[PATH_MAX] = "/", starts[CLI_MAX_MOUNTS][PATH_MAX];
	int rc, found = 0;

	rc = cli_tables(cli, tree_tables, N_TABLES(tree_tables), false);
	if (rc)
		return rc;
	opt_depth = -1;
	if (opt_depth_s) {
		pid_t d;	/* a non-negative int, strictly decimal, as a PID is */

		if (strcmp(opt_depth_s, "0") == 0)
			d = 0;
		else if (cli_parse_pid(opt_depth_s, &d) < 0)
			return cli_usage(cli, "--depth: '%s' is not a number of levels (0 or more)",
					 opt_depth_s);
		opt_depth = (int)d;
	}
	rc = cli_hierarchies(cli, opt_ctrls, ms, &w.n);
	if (rc)
		return rc;
	for (size_t i = 0; i < w.n; i++) {
		char *abs = starts[i];
		size_t g;

		rc = cli_path(cli, ms[i], path, abs, PATH_MAX);
		if (rc)
			return rc;
		if (cgctl_cg_exists(cli->ctx, ms[i], abs) <= 0) {
			abs[0] = '\0';
			continue;
		}
		/* the path printed: "/a/b", under --self below our own cgroup */
		if (!found++ && cgctl_path_normalize(cli->self ? path : abs, base, sizeof(base)) < 0)
			return cli_usage(cli, "%s: not a cgroup path", path);
		for (g = 0; g < i && strcmp(starts[g], abs) != 0; g++)
			;
		visit(&w, i, g, abs, "/", 0);
	}
	if (!found)
		return cli_error(cli, path, -ENOENT, "no such cgroup");
	qsort(w.rows, w.nrows, sizeof(*w.rows), cmp_row);
	out_list_begin(cli->out, "cgroups");
	for (size_t i = 0; i < w.nrows; i++) {
		print_row(&w, &w.rows[i], base);
		free(w.rows[i].path);
	}
	out_list_end(cli->out);
	free(w.rows);
	return EXIT_OK;
}

const struct cgctl_cmd cmd_tree = {
	.name = "tree",
	.args = "[PATH]",
	.summary = "list cgroups with their hierarchies, process counts and limits",
	.options = options,
	.run = run,
	.min_args = 0,
	.max_args = 1,
	.columns = tree_tables,
	.n_columns = N_TABLES(tree_tables),
};
