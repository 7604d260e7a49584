/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl mem where PID...: for each task, its resident memory per owning memory cgroup
 * (from cgctl_inventory_scan), split anon exclusive / anon shared / file / shmem / THP.
 * JSON nests the cgroups in each task; human and TSV print one flat table of
 * (pid, cgroup) rows and one table of per-task totals.  A figure the scan could not
 * determine prints as null ("-"), never as a guess.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cgctl.h"
#include "columns.h"

static int opt_inodes;

static const struct poptOption options[] = {
	{ "inodes", '\0', POPT_ARG_NONE, &opt_inodes, 0,
	  "also print each memory cgroup's inode number (JSON always has it)", NULL },
	CLI_TABLE_OPTIONS('n'),
	POPT_TABLEEND
};

static uint64_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (uint64_t)p : 4096;
}

static void emit_known(struct cli *cli, const char *key, uint64_t pages, bool known)
{
	if (known)
		out_bytes(cli->out, key, pages * page_size());
	else
		out_null(cli->out, key);
}

/* A figure of the task(s) or of group @i (every key used here exists: 0 otherwise) */
static uint64_t task_fig(const struct cgctl_inventory *inv, const char *key)
{
	uint64_t v;

	return cgctl_inventory_get(inv, key, &v) == 0 ? v : 0;
}

static uint64_t group_fig(const struct cgctl_inventory *inv, size_t i, const char *key)
{
	uint64_t v;

	return cgctl_inventory_group_get(inv, i, key, &v) == 0 ? v : 0;
}

static void emit_cgroup(struct cli *cli, const struct cgctl_inventory *inv, size_t i)
{
	const char *path = cgctl_inventory_group_path(inv, i);
	uint64_t ino = group_fig(inv, i, "ino");
	char name[32];

	if (task_fig(inv, "unknown") & CGCTL_INV_UNKNOWN_OWNER) {
		out_null(cli->out, "cgroup");
		return;
	}
	if (path) {
		out_str(cli->out, "cgroup", path);
		return;
	}
	/* not charged, or an inode no directory of the hierarchy has */
	snprintf(name, sizeof(name), ino ? "?ino=%llu" : "(none)", (unsigned long long)ino);
	out_str(cli->out, "cgroup", out_format(cli->out) == OUT_JSON ? NULL : name);
}

/* One cgroup's figures (group @i): the same keys in every format. */
static void emit_group(struct cli *cli, const struct cgctl_inventory *inv, size_t i)
{
	unsigned int u = (unsigned int)task_fig(inv, "unknown");

	emit_cgroup(cli, inv, i);
	if (out_format(cli->out) == OUT_JSON || opt_inodes) {
		if (u & CGCTL_INV_UNKNOWN_OWNER)
			out_null(cli->out, "ino");
		else
			out_u64(cli->out, "ino", group_fig(inv, i, "ino"));
	}
	out_bytes(cli->out, "bytes", group_fig(inv, i, "pages") * page_size());
	out_bytes(cli->out, "anon_exclusive_bytes",
		  group_fig(inv, i, "anon_exclusive") * page_size());
	out_bytes(cli->out, "anon_shared_bytes", group_fig(inv, i, "anon_shared") * page_size());
	out_bytes(cli->out, "file_bytes", group_fig(inv, i, "file") * page_size());
	emit_known(cli, "shmem_bytes", group_fig(inv, i, "shmem"),
		   !(u & CGCTL_INV_UNKNOWN_SHMEM));
	emit_known(cli, "thp_bytes", group_fig(inv, i, "thp"), !(u & CGCTL_INV_UNKNOWN_THP));
}

static void emit_unknown(struct cli *cli, const struct cgctl_inventory *inv)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} names[] = {
		{ CGCTL_INV_UNKNOWN_OWNER, "owner" },
		{ CGCTL_INV_UNKNOWN_SHMEM, "shmem" },
		{ CGCTL_INV_UNKNOWN_THP, "thp" },
		{ CGCTL_INV_UNKNOWN_MAPCOUNT, "mapcount" },
	};

	out_list_begin(cli->out, "unknown");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (task_fig(inv, "unknown") & names[i].bit)
			out_str(cli->out, NULL, names[i].name);
	out_list_end(cli->out);
}

static void emit_task_totals(struct cli *cli, const struct cgctl_inventory *inv)
{
	out_u64(cli->out, "pid", task_fig(inv, "pid"));
	out_bytes(cli->out, "resident_bytes", task_fig(inv, "present_pages") * page_size());
	out_bytes(cli->out, "swap_bytes", task_fig(inv, "swap_pages") * page_size());
	out_str(cli->out, "task_cgroup", cgctl_inventory_task_cgroup(inv));
	emit_unknown(cli, inv);
}

static void emit_json_task(struct cli *cli, const struct cgctl_inventory *inv)
{
	out_obj_begin(cli->out, NULL);
	emit_task_totals(cli, inv);
	out_list_begin(cli->out, "charged");
	for (size_t i = 0; i < task_fig(inv, "groups"); i++) {
		out_obj_begin(cli->out, NULL);
		emit_group(cli, inv, i);
		out_obj_end(cli->out);
	}
	out_list_end(cli->out);
	out_obj_end(cli->out);
}

/* Tables: one row per task and cgroup its pages are charged to ("charged"), one per
 * task ("tasks"); --tsv prints one of them (--tsv=tasks the second). */
static void emit_rows(struct cli *cli, struct cgctl_inventory **inv, size_t n)
{
	if (cli_tsv_skip(cli, "charged"))
		goto tasks;
	out_list_begin(cli->out, "charged");
	for (size_t t = 0; t < n; t++)
		for (size_t i = 0; inv[t] && i < task_fig(inv[t], "groups"); i++) {
			out_obj_begin(cli->out, NULL);
			out_u64(cli->out, "pid", task_fig(inv[t], "pid"));
			emit_group(cli, inv[t], i);
			out_obj_end(cli->out);
		}
	out_list_end(cli->out);
tasks:
	if (cli_tsv_skip(cli, "tasks"))
		return;
	out_list_begin(cli->out, "tasks");
	for (size_t t = 0; t < n; t++) {
		if (!inv[t])
			continue;
		out_obj_begin(cli->out, NULL);
		emit_task_totals(cli, inv[t]);
		out_obj_end(cli->out);
	}
	out_list_end(cli->out);
}

static void emit(struct cli *cli, struct cgctl_inventory **inv, size_t n)
{
	if (out_format(cli->out) != OUT_JSON) {
		emit_rows(cli, inv, n);
		return;
	}
	out_list_begin(cli->out, "tasks");
	for (size_t t = 0; t < n; t++)
		if (inv[t])
			emit_json_task(cli, inv[t]);
	out_list_end(cli->out);
}

/* Scan each PID; failures print their line and leave a NULL slot. */
static size_t scan_all(struct cli *cli, const pid_t *pids, size_t n,
		       struct cgctl_inventory **inv, int *first_rc)
{
	size_t failed = 0;

	for (size_t i = 0; i < n; i++) {
		struct cgctl_error e = CGCTL_ERROR_INIT;
		int r;

		cli_progress(cli, "scanning %d (%zu/%zu)", (int)pids[i], i + 1, n);
		r = cgctl_inventory_scan(cli->ctx, pids[i], 0, &inv[i], &e);
		if (r < 0) {
			int rc = cli_error(cli, NULL, r, "%s", e.err ? e.msg : cli_strerror(r));

			if (!failed++)
				*first_rc = rc;
			inv[i] = NULL;
		}
	}
	cli_progress_clear();	/* before the table: no header on the progress line */
	return failed;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	struct cgctl_inventory **inv;
	size_t n, failed;
	pid_t *pids;
	int rc = opt_inodes ? cli_tables(cli, memwhere_ino_tables, N_TABLES(memwhere_ino_tables),
					 false) :
			      cli_tables(cli, memwhere_tables, N_TABLES(memwhere_tables), false);

	if (rc)
		return rc;
	rc = cli_collect_pids(cli, argc, argv, &pids, &n);
	if (rc)
		return rc;
	if (!n) {
		free(pids);
		if (!cli_args_have_stdin(argc, argv))
			return cli_usage(cli, "no PID given");
		emit(cli, NULL, 0);	/* "-" and an empty stdin: nothing, and success */
		return EXIT_OK;
	}
	inv = calloc(n, sizeof(*inv));
	if (!inv) {
		free(pids);
		return cli_error(cli, NULL, -ENOMEM, NULL);
	}
	failed = scan_all(cli, pids, n, inv, &rc);
	if (failed < n)
		emit(cli, inv, n);
	for (size_t i = 0; i < n; i++)
		cgctl_inventory_free(inv[i]);
	free(inv);
	free(pids);
	if (!failed)
		return EXIT_OK;
	return failed == n ? rc : EXIT_PARTIAL;
}

const struct cgctl_cmd cmd_mem_where = {
	.name = "where",
	.args = "PID...|-",
	.summary = "where a task's resident pages are charged, per memory cgroup",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = -1,
	.tsv_tables = "charged,tasks",
	.columns = memwhere_ino_tables,
	.n_columns = N_TABLES(memwhere_ino_tables),
};
