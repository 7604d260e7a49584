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
	/* memory.usage, memory.limit, cpu.quota, cpu.period of its snapshots (issue 28) */
	uint64_t mem_usage, mem_limit, cpu_quota, cpu_period;
	bool has_mem_usage, has_mem_limit, has_cpu;
	bool mem_read, cpu_read;
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

/* The snapshot of @abs in @controller's hierarchy, reading @what; NULL: not read. */
static struct cgctl_cgroup_stat *snapshot(struct walk *w, const char *controller,
					  const char *abs, unsigned int what)
{
	struct cgctl_cgroup_stat *st = NULL;
	struct cgctl_cgroup *cg;

	if (cgctl_cgroup_new(w->cli->ctx, controller, abs, &cg) < 0)
		return NULL;
	if (cgctl_cgroup_stat_new(cg, what, &st) < 0)
		st = NULL;
	cgctl_cgroup_unref(cg);
	return st;
}

/* usage (none: the v2 root has no memory.current) and limit */
static void read_mem(struct walk *w, const char *abs, struct row *row)
{
	struct cgctl_cgroup_stat *st = snapshot(w, "memory", abs, CGCTL_CGSTAT_MEM);

	if (!st)
		return;
	/* the limit is there once the files were read: else another hierarchy may have it */
	row->has_mem_limit = cgctl_cgroup_stat_get(st, "memory.limit", &row->mem_limit) == 0;
	row->has_mem_usage = row->has_mem_limit &&
			     cgctl_cgroup_stat_get(st, "memory.usage", &row->mem_usage) == 0;
	row->mem_read = row->has_mem_limit;
	cgctl_cgroup_stat_free(st);
}

/* quota and period: the root has no limit of its own */
static void read_cpu(struct walk *w, const char *abs, struct row *row)
{
	struct cgctl_cgroup_stat *st = snapshot(w, "cpu", abs, CGCTL_CGSTAT_CPU_ALL);

	if (!st)
		return;
	row->has_cpu = cgctl_cgroup_stat_get(st, "cpu.quota", &row->cpu_quota) == 0 &&
		       cgctl_cgroup_stat_get(st, "cpu.period", &row->cpu_period) == 0;
	row->cpu_read = row->has_cpu;
	cgctl_cgroup_stat_free(st);
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
		struct cgctl_unit u = CGCTL_UNIT_INIT;

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
	if (!row->mem_read && cgctl_mount_has(m, "memory"))
		read_mem(w, abs, row);
	if (!row->cpu_read && cgctl_mount_has(m, "cpu"))
		read_cpu(w, abs, row);
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
	if (r->has_mem_usage)
		out_bytes(o, "memory_usage_bytes", r->mem_usage);
	else
		out_null(o, "memory_usage_bytes");
	if (r->has_mem_limit)
		out_bytes(o, "memory_limit_bytes", r->mem_limit);
	else
		out_null(o, "memory_limit_bytes");
	if (r->has_cpu && r->cpu_quota != UINT64_MAX && r->cpu_period)
		out_cpus(o, "cpu_limit_cpus", (double)r->cpu_quota / (double)r->cpu_period);
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
