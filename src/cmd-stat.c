/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl stat [--long] [--tasks] PATH...: memory and CPU-bandwidth figures, the same keys
 * on v1 and v2.  By default the figures only (memory usage, limit, failcnt; CPU
 * usage and cpu.stat's counts), from the fewest files: 2 to 5 a cgroup.  --long adds max
 * usage, memsw/swap, events, quota/period/burst and the states of the cgroup's tasks
 * (cgroupstats on v1, /proc on v2); --tasks the task states and each process's CPU time
 * and delays (taskstats).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cgctl.h"
#include "cmd-stat.h"
#include "pressure.h"
#include "stat-openmetrics.h"
#include "columns.h"

/*
 * A figure the cgroup's hierarchy may lack (v2 has no failcnt, v1 no memory.events):
 * JSON and TSV keep the key, null ("-"), so that their keys are the same on v1 and v2;
 * the human table leaves the column out.
 */
static bool keep_keys(const struct out *o)
{
	return out_format(o) != OUT_HUMAN;
}

static void opt_bytes(struct out *o, const char *key, bool have, uint64_t v)
{
	if (have)
		out_bytes(o, key, v);
	else if (keep_keys(o))
		out_null(o, key);
}

static void opt_u64(struct out *o, const char *key, bool have, uint64_t v)
{
	if (have)
		out_u64(o, key, v);
	else if (keep_keys(o))
		out_null(o, key);
}

/* (@ns UINT64_MAX: unlimited) */
static void opt_usec(struct out *o, const char *key, bool have, uint64_t ns)
{
	if (have)
		out_usec(o, key, ns);
	else if (keep_keys(o))
		out_null(o, key);
}

/* The "memory" object; @full: everything read (--long), else usage, limit, failcnt.
 * @st NULL: no memory figures for this path (all null). */
static void out_memstat(struct out *o, const struct cgctl_memstat *st, bool full)
{
	static const struct cgctl_memstat none = { .present = CGCTL_MEMSTAT_NO_USAGE };
	unsigned int p;

	if (!st && !keep_keys(o))
		return;
	out_obj_begin(o, "memory");
	p = st ? st->present : 0;
	if (!st)
		st = &none;
	if (st->present & CGCTL_MEMSTAT_NO_USAGE)
		out_null(o, "usage_bytes");
	else
		out_bytes(o, "usage_bytes", st->usage);
	if (st == &none)
		out_null(o, "limit_bytes");
	else
		out_bytes(o, "limit_bytes", st->limit);
	opt_u64(o, "failcnt", p & CGCTL_MEMSTAT_FAILCNT, st->failcnt);
	if (!full) {
		out_obj_end(o);
		return;
	}
	opt_bytes(o, "max_usage_bytes", p & CGCTL_MEMSTAT_PEAK, st->peak);
	opt_bytes(o, "memsw_usage_bytes", p & CGCTL_MEMSTAT_MEMSW, st->memsw_usage);
	opt_bytes(o, "memsw_limit_bytes", p & CGCTL_MEMSTAT_MEMSW, st->memsw_limit);
	opt_bytes(o, "swap_usage_bytes", p & CGCTL_MEMSTAT_SWAP, st->swap_usage);
	opt_bytes(o, "swap_limit_bytes", p & CGCTL_MEMSTAT_SWAP, st->swap_limit);
	opt_bytes(o, "high_bytes", p & CGCTL_MEMSTAT_HIGH, st->high);
	opt_u64(o, "events_low", p & CGCTL_MEMSTAT_EVENTS, st->events_low);
	opt_u64(o, "events_high", p & CGCTL_MEMSTAT_EVENTS, st->events_high);
	opt_u64(o, "events_max", p & CGCTL_MEMSTAT_EVENTS, st->events_max);
	opt_u64(o, "events_oom", p & CGCTL_MEMSTAT_EVENTS, st->events_oom);
	opt_u64(o, "events_oom_kill", p & CGCTL_MEMSTAT_EVENTS, st->events_oom_kill);
	/* memory.pressure: v2 (null where PSI is off), null on v1 in JSON and TSV */
	if (st->version == 2 || keep_keys(o))
		emit_psi(o, "pressure", p & CGCTL_MEMSTAT_PRESSURE ? 0 : -1, &st->pressure);
	out_obj_end(o);
}

void cli_out_memstat(struct cli *cli, const struct cgctl_memstat *st)
{
	out_memstat(cli->out, st, true);
}

/* The "cpu" object; @full: with quota, period, burst limit and local throttling.
 * @bw NULL: no CPU figures for this path (all null). */
static void out_cpubw(struct out *o, const struct cgctl_cpubw *bw, bool full)
{
	static const struct cgctl_cpubw none;
	const struct cgctl_cpu_stat *s;
	unsigned int p;

	if (!bw && !keep_keys(o))
		return;
	if (!bw)
		bw = &none;
	s = &bw->stat;
	p = s->present;
	out_obj_begin(o, "cpu");
	opt_usec(o, "usage_usec", p & CGCTL_CPU_STAT_USAGE, s->usage_ns);
	if (full) {
		opt_usec(o, "quota_usec", bw != &none, bw->quota_us == UINT64_MAX ?
			 UINT64_MAX : bw->quota_us * 1000);
		opt_usec(o, "period_usec", bw->period_us, bw->period_us * 1000);
		opt_usec(o, "burst_limit_usec", bw->present & CGCTL_CPUBW_BURST,
			 bw->burst_us * 1000);
	}
	opt_u64(o, "nr_periods", p & CGCTL_CPU_STAT_NR_PERIODS, s->nr_periods);
	opt_u64(o, "nr_throttled", p & CGCTL_CPU_STAT_NR_THROTTLED, s->nr_throttled);
	opt_usec(o, "throttled_usec", p & CGCTL_CPU_STAT_THROTTLED, s->throttled_ns);
	if (full)
		opt_usec(o, "throttled_local_usec", bw->present & CGCTL_CPUBW_LOCAL,
			 bw->throttled_local_ns);
	opt_u64(o, "nr_bursts", p & CGCTL_CPU_STAT_NR_BURSTS, s->nr_bursts);
	opt_usec(o, "burst_usec", p & CGCTL_CPU_STAT_BURST, s->burst_ns);
	out_obj_end(o);
}

void cli_out_cpubw(struct cli *cli, const struct cgctl_cpubw *bw)
{
	out_cpubw(cli->out, bw, true);
}

static int opt_tasks, opt_long, opt_om;

static const struct poptOption options[] = {
	{ "long", 'l', POPT_ARG_NONE, &opt_long, 0,
	  "everything: also max usage, swap, memory events, quota, period, burst limit and "
	  "task states", NULL },
	{ "tasks", '\0', POPT_ARG_NONE, &opt_tasks, 0,
	  "also the task states and each process's CPU time and delays (taskstats)", NULL },
	{ "openmetrics", '\0', POPT_ARG_NONE, &opt_om, 0,
	  "print in the OpenMetrics (Prometheus) text format", NULL },
	CLI_TABLE_OPTIONS('n'),
	POPT_TABLEEND
};

/* The hierarchy to count tasks in: cpu's, else memory's. */
static const struct cgctl_mount *task_mount(struct cli *cli, const char *path, char *rel,
					    size_t len)
{
	const struct cgctl_mount *m;

	if (cgctl_mount_find(cli->ctx, "cpu", &m) < 0 &&
	    cgctl_mount_find(cli->ctx, "memory", &m) < 0)
		return NULL;
	return cli_path(cli, m, path, rel, len) ? NULL : m;
}

/* --tasks: one row per process of @path (cgroup.procs), from taskstats. */
static int emit_processes(struct cli *cli, const char *path)
{
	static bool warned;
	const struct cgctl_mount *m;
	char rel[PATH_MAX], *buf = NULL, *p, *end;
	size_t len;
	int r;

	m = task_mount(cli, path, rel, sizeof(rel));
	if (!m)
		return EXIT_OK;
	r = cgctl_cg_read(cli->ctx, m, rel, "cgroup.procs", &buf, &len);
	if (r < 0)
		return EXIT_OK;	/* the cgroup's error was reported by stat_one */
	for (p = buf;; p = end) {
		long pid = strtol(p, &end, 10);
		struct cgctl_taskstats ts;
		struct cgctl_error e = { 0 };
		/* comm and faults from /proc: a thread group's taskstats
		 * (fill_stats_for_tgid()) sum only delays, CPU times and switches */
		struct cgctl_proc_info ps;
		bool have_ps;

		if (end == p)
			break;
		r = cgctl_taskstats_get(cli->ctx, (pid_t)pid, true, &ts, &e);
		if (r == -ESRCH)
			continue;	/* exited meanwhile */
		if (r < 0) {
			free(buf);
			return cli_error(cli, path, r, "taskstats of %ld: %s", pid,
					 e.msg[0] ? e.msg : cli_strerror(r));
		}
		if (!warned) {
			struct cgctl_error de = { 0 };

			if (cgctl_delayacct_enabled(cli->ctx, &de) == 0)
				cli_warn(cli, "%s", de.msg[0] ? de.msg : "delay accounting is off: "
					 "delays other than cpu_delay read 0");
			warned = true;
		}
		out_obj_begin(cli->out, NULL);
		out_str(cli->out, "cgroup", path);
		out_i64(cli->out, "pid", pid);
		have_ps = cgctl_proc_info_read(cli->ctx, (pid_t)pid, &ps) == 0;
		out_str(cli->out, "comm", have_ps ? ps.comm : ts.comm);
		out_usec(cli->out, "cpu_usec", ts.cpu_run_virtual_total_ns);
		out_usec(cli->out, "cpu_delay_usec", ts.cpu_delay_total_ns);
		out_usec(cli->out, "blkio_delay_usec", ts.blkio_delay_total_ns);
		out_usec(cli->out, "swapin_delay_usec", ts.swapin_delay_total_ns);
		out_usec(cli->out, "reclaim_delay_usec", ts.freepages_delay_total_ns);
		out_usec(cli->out, "thrashing_delay_usec", ts.thrashing_delay_total_ns);
		out_usec(cli->out, "compact_delay_usec", ts.compact_delay_total_ns);
		out_usec(cli->out, "wpcopy_delay_usec", ts.wpcopy_delay_total_ns);
		out_usec(cli->out, "irq_delay_usec", ts.irq_delay_total_ns);
		out_u64(cli->out, "voluntary_switches", ts.nvcsw);
		out_u64(cli->out, "involuntary_switches", ts.nivcsw);
		out_u64(cli->out, "minor_faults", have_ps ? ps.minflt : 0);
		out_u64(cli->out, "major_faults", have_ps ? ps.majflt : 0);
		out_obj_end(cli->out);
	}
	free(buf);
	return EXIT_OK;
}

/* One PATH of `cgctl stat`: what is read of it (with its cgctl_stat_item), then
 * printed. */
struct stat_row {
	const char *path;
	int prc;			/* cli_path()'s exit status (its error printed) */
	int states;			/* -1 none, else cgctl_task_states()'s source */
	struct cgctl_cgroupstats cs;
};

/* PATHs read in one cgctl_stat_read_many() call, then printed */
#define STAT_CHUNK 1024

struct stat_run {
	struct cli *cli;
	const struct cgctl_mount *mm, *cm, *am;	/* memory, cpu, cpuacct (may be cpu's) */
	bool full;				/* --long: everything */
	bool states;				/* --long or --tasks: the task states */
};

static void item_free(struct cgctl_stat_item *it)
{
	free((char *)it->mem_path);
	free((char *)it->cpu_path);
	free((char *)it->acct_path);
	it->mem_path = it->cpu_path = it->acct_path = NULL;
}

/* @path in hierarchy @m, into a copy of its own.  Returns: EXIT_OK or the exit status
 * of the error printed. */
static int item_path(struct stat_run *sr, const struct cgctl_mount *m, const char *path,
		     const char **ret)
{
	char buf[PATH_MAX];
	int rc = cli_path(sr->cli, m, path, buf, sizeof(buf));

	if (rc)
		return rc;
	*ret = strdup(buf);
	return *ret ? EXIT_OK : cli_error(sr->cli, NULL, -ENOMEM, NULL);
}

/* @path in each hierarchy (memory's first, then cpu's: the order of the errors).  A
 * cpuacct path error is printed and ignored (cpu's path is used).  On an error the
 * item keeps no path (nothing is read of it). */
static void row_paths(struct stat_run *sr, const char *path, struct stat_row *row,
		      struct cgctl_stat_item *it)
{
	int rc = EXIT_OK;

	memset(row, 0, sizeof(*row));
	memset(it, 0, sizeof(*it));
	row->path = path;
	row->states = -1;
	if (sr->mm)
		rc = item_path(sr, sr->mm, path, &it->mem_path);
	if (rc == EXIT_OK && sr->cm) {
		rc = item_path(sr, sr->cm, path, &it->cpu_path);
		if (rc == EXIT_OK && sr->am && sr->am != sr->cm &&
		    item_path(sr, sr->am, path, &it->acct_path) != EXIT_OK)
			it->acct_path = NULL;
	}
	if (rc)
		item_free(it);
	row->prc = rc;
}

/* Read @n PATHs: their paths, then every figure in one call, then (--long, --tasks) the
 * task states of each.  An error of a path is printed here, the rest by the caller. */
static void rows_read(struct stat_run *sr, const char **argv, struct stat_row *rows,
		      struct cgctl_stat_item *items, size_t n)
{
	/* stat does not print memsw.failcnt */
	const unsigned int mflags = sr->full ? CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT :
					       CGCTL_MEMSTAT_LEAN;

	for (size_t i = 0; i < n; i++)
		row_paths(sr, argv[i], &rows[i], &items[i]);
	cgctl_stat_read_many(sr->cli->ctx, sr->mm, mflags, sr->cm, sr->am,
			     sr->full ? 0 : CGCTL_CPUBW_LEAN, items, n);
	for (size_t i = 0; i < n && sr->states; i++) {
		const struct cgctl_stat_item *it = &items[i];
		int rc;

		if (rows[i].prc || (it->mem_r < 0 && it->cpu_r < 0))
			continue;
		/* the hierarchy to count tasks in: cpu's, else memory's */
		rc = cgctl_task_states(sr->cli->ctx, sr->cm ? sr->cm : sr->mm,
				       sr->cm ? it->cpu_path : it->mem_path, &rows[i].cs);
		rows[i].states = rc < 0 ? -1 : rc;
	}
}

/* What to do with each PATH read: print it, or keep it.  Returns: EXIT_OK or the exit
 * status of the error printed. */
typedef int (*stat_row_fn)(struct stat_run *sr, const struct stat_row *row,
			   const struct cgctl_stat_item *it, void *data);

/* Read the PATHs STAT_CHUNK at a time and hand each to @fn, in order.  Returns: the
 * number of failed PATHs (-1: out of memory, said); *last the exit status of the last
 * failure. */
static int stat_each(struct stat_run *sr, int argc, const char **argv, stat_row_fn fn,
		     void *data, int *last)
{
	size_t chunk = argc < STAT_CHUNK ? (size_t)argc : STAT_CHUNK;
	struct stat_row *rows = calloc(chunk ? chunk : 1, sizeof(*rows));
	struct cgctl_stat_item *items = calloc(chunk ? chunk : 1, sizeof(*items));
	int failed = 0;

	if (!rows || !items) {
		free(rows);
		free(items);
		*last = cli_error(sr->cli, NULL, -ENOMEM, NULL);
		return -1;
	}
	for (size_t at = 0; at < (size_t)argc; at += chunk) {
		size_t n = (size_t)argc - at < chunk ? (size_t)argc - at : chunk;

		rows_read(sr, argv + at, rows, items, n);
		for (size_t i = 0; i < n; i++) {
			int rc = rows[i].prc ? rows[i].prc : fn(sr, &rows[i], &items[i], data);

			if (rc) {
				failed++;
				*last = rc;
			}
			item_free(&items[i]);
		}
	}
	free(rows);
	free(items);
	return failed;
}

static void stat_mounts(struct stat_run *sr)
{
	struct cli *cli = sr->cli;

	if (cgctl_mount_find(cli->ctx, "memory", &sr->mm) < 0)
		sr->mm = NULL;
	if (cgctl_mount_find(cli->ctx, "cpu", &sr->cm) < 0)
		sr->cm = NULL;
	else if (cgctl_mount_find(cli->ctx, "cpuacct", &sr->am) < 0)
		sr->am = NULL;	/* (co-mounted: sr.am == sr.cm, usage from the cpu directory) */
}

static void emit_states(struct cli *cli, const struct stat_row *row)
{
	const struct cgctl_cgroupstats *cs = &row->cs;
	bool netlink = row->states == CGCTL_STATES_CGROUPSTATS;

	if (row->states < 0) {
		if (keep_keys(cli->out))
			out_null(cli->out, "tasks");
		return;
	}
	out_obj_begin(cli->out, "tasks");
	out_u64(cli->out, "running", cs->nr_running);
	out_u64(cli->out, "sleeping", cs->nr_sleeping);
	out_u64(cli->out, "uninterruptible", cs->nr_uninterruptible);
	out_u64(cli->out, "stopped", cs->nr_stopped);
	if (netlink)
		out_u64(cli->out, "io_wait", cs->nr_io_wait);
	else
		out_null(cli->out, "io_wait");
	out_str(cli->out, "source", netlink ? "cgroupstats" : "proc");
	out_obj_end(cli->out);
}

/* A figure set that failed for another reason than "not in this hierarchy". */
static bool unread(int r)
{
	return r < 0 && r != -ENOENT && r != -ENODEV && r != -EOPNOTSUPP;
}

static int half_error(struct cli *cli, const char *path, const char *what, int r)
{
	if (r == -EINVAL || r == -ERANGE)
		return cli_error(cli, path, r, "%s figures not shown: a %s.* file is malformed",
				 what, what);
	return cli_error(cli, path, r, "%s figures not shown: a %s.* file cannot be read: %s",
			 what, what, cli_strerror(r));
}

/* The PATH neither side could be read of.  Returns: the exit status of the error. */
static int row_missing(struct cli *cli, const struct stat_row *row,
		       const struct cgctl_stat_item *it)
{
	if (it->mem_r == -ENOENT || it->cpu_r == -ENOENT)
		return cli_error(cli, row->path, -ENOENT, "no such cgroup");
	return cli_error(cli, row->path, it->mem_r, NULL);
}

/* The systemd unit that owns the row's cgroup ("" without systemd: cgctl(1), SYSTEMD). */
static void unit_of(struct stat_run *sr, const struct cgctl_stat_item *it, char *out,
		    size_t len)
{
	const struct cgctl_mount *m = it->mem_path ? sr->mm : sr->cm;
	const char *p = it->mem_path ? it->mem_path : it->cpu_path;
	struct cgctl_unit u;

	out[0] = '\0';
	if (m && p && cgctl_cgroup_unit(sr->cli->ctx, m, p, &u) == 1)
		snprintf(out, len, "%s", u.name);
}

/* Returns: EXIT_OK or the exit status of the error printed. */
static int row_emit(struct stat_run *sr, const struct stat_row *row,
		    const struct cgctl_stat_item *it, void *data)
{
	struct cli *cli = sr->cli;
	char unit[256];
	char shown[PATH_MAX];

	(void)data;
	if (it->mem_r < 0 && it->cpu_r < 0)
		return row_missing(cli, row, it);
	out_obj_begin(cli->out, NULL);
	/* the "/a/b" form of every command: "a/b/" and "/a//b" as "/a/b" (--self: below
	 * our own cgroup) */
	if (cgctl_path_normalize(row->path, shown, sizeof(shown)) < 0)
		snprintf(shown, sizeof(shown), "%s", row->path);
	out_str(cli->out, "path", shown);
	unit_of(sr, it, unit, sizeof(unit));
	if (unit[0])
		out_str(cli->out, "unit", unit);
	out_memstat(cli->out, it->mem_r == 0 ? &it->mem : NULL, sr->full);
	out_cpubw(cli->out, it->cpu_r == 0 ? &it->cpu : NULL, sr->full);
	if (sr->states)
		emit_states(cli, row);
	out_obj_end(cli->out);
	/* one side read, the other not: say so rather than leave its columns out */
	if (unread(it->mem_r))
		return half_error(cli, row->path, "memory", it->mem_r);
	if (unread(it->cpu_r))
		return half_error(cli, row->path, "cpu", it->cpu_r);
	return EXIT_OK;
}

/* The figures of stat's default (lean) read: any other column asked for with -o or
 * --output-all needs --long's read (the task states: --long or --tasks). */
static const char *const lean_keys[] = {
	"path", "memory.usage_bytes", "memory.limit_bytes", "memory.failcnt",
	"cpu.usage_usec", "cpu.nr_periods", "cpu.nr_throttled", "cpu.throttled_usec",
	"cpu.nr_bursts", "cpu.burst_usec",
};

static void column_needs(const struct out_col *c, struct stat_run *sr)
{
	size_t i;

	for (i = 0; i < sizeof(lean_keys) / sizeof(lean_keys[0]); i++)
		if (strcmp(c->key, lean_keys[i]) == 0)
			return;
	sr->full = true;
	if (strncmp(c->key, "tasks.", 6) == 0)
		sr->states = true;
}

/* -o quota,period or --output-all imply --long (their cells were "-" without it). */
static void columns_imply_long(struct stat_run *sr)
{
	const struct out_table *t = &stat_tables[0];
	const char *p = cli_table_args.output;
	size_t i, len;

	if (cli_table_args.all) {
		for (i = 0; i < t->n; i++)
			column_needs(&t->cols[i], sr);
		return;
	}
	while (p && *p) {
		p += *p == '+' || *p == ',';
		len = strcspn(p, ",");
		for (i = 0; i < t->n; i++)
			if (strlen(t->cols[i].name) == len && strncasecmp(t->cols[i].name, p, len) == 0)
				column_needs(&t->cols[i], sr);
		p += len;
	}
}

/* Read and print each PATH.  Returns: the number of failed PATHs; *last the exit
 * status of the last failure. */
static int stat_all(struct cli *cli, int argc, const char **argv, int *last)
{
	struct stat_run sr = { .cli = cli, .full = opt_long, .states = opt_long || opt_tasks };
	int failed;

	if (cli->fmt == OUT_HUMAN)
		columns_imply_long(&sr);
	stat_mounts(&sr);
	failed = stat_each(&sr, argc, argv, row_emit, NULL, last);
	return failed < 0 ? argc : failed;
}

struct om_rows {
	struct stat_om_row *v;
	size_t n;
};

/* --openmetrics: keep the row, say its errors as the default output does. */
static int row_keep(struct stat_run *sr, const struct stat_row *row,
		    const struct cgctl_stat_item *it, void *data)
{
	struct om_rows *om = data;
	int rc = EXIT_OK;

	if (it->mem_r < 0 && it->cpu_r < 0)
		rc = row_missing(sr->cli, row, it);
	else if (unread(it->mem_r))
		rc = half_error(sr->cli, row->path, "memory", it->mem_r);
	else if (unread(it->cpu_r))
		rc = half_error(sr->cli, row->path, "cpu", it->cpu_r);
	if (it->mem_r == 0 || it->cpu_r == 0) {
		om->v[om->n] = (struct stat_om_row){ row->path, it->mem_r, it->cpu_r,
						     it->mem, it->cpu, { 0 } };
		unit_of(sr, it, om->v[om->n].unit, sizeof(om->v[om->n].unit));
		om->n++;
	}
	return rc;
}

/* --openmetrics: everything of each PATH read first (a family's samples go together),
 * the errors said as the default output says them.  Returns: an exit status. */
static int stat_om(struct cli *cli, int argc, const char **argv)
{
	struct stat_run sr = { .cli = cli, .full = true };
	struct om_rows om = { calloc((size_t)argc, sizeof(*om.v)), 0 };
	int failed, last = EXIT_OK;

	if (!om.v)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	stat_mounts(&sr);
	failed = stat_each(&sr, argc, argv, row_keep, &om, &last);
	if (failed < 0) {
		free(om.v);
		return last;
	}
	int w = stat_openmetrics(stdout, om.v, om.n);

	free(om.v);
	if (w < 0)
		return cli_error(cli, "stdout", -EIO, NULL);
	if (failed && failed < argc)
		return EXIT_PARTIAL;
	return last;
}

static int run_paths(struct cli *cli, int argc, const char **argv)
{
	int i, rc, failed = 0, last = EXIT_OK;
	struct out *keep = NULL;

	/* --long in a table: every column (as --output-all) */
	rc = cli_tables(cli, stat_tables, N_TABLES(stat_tables), opt_long);
	if (rc)
		return rc;
	for (i = 0; i < argc; i++) {
		char norm[PATH_MAX];

		int r = cgctl_path_normalize(argv[i], norm, sizeof(norm));

		if (r == -ENAMETOOLONG)
			return cli_usage(cli, "%s: cgroup path too long", argv[i]);
		if (r < 0)
			return cli_usage(cli, "%s: invalid cgroup path ('..' and control "
					      "characters are refused)", argv[i]);
	}
	if (opt_tasks && cgctl_get_root(cli->ctx)[0])
		return cli_error(cli, NULL, -EOPNOTSUPP, "--tasks reads the running kernel's "
				 "taskstats: not with --root");
	if (opt_om && (opt_tasks || opt_long || cli->fmt != OUT_HUMAN))
		return cli_usage(cli, "--openmetrics is a format of its own: not with --json, "
				 "--tsv, --long or --tasks");
	if (opt_om)
		return stat_om(cli, argc, argv);
	if (!strcmp(cli->tsv_table ? cli->tsv_table : "", "processes") && !opt_tasks)
		return cli_usage(cli, "--tsv=processes: the table of --tasks");
	if (cli_tsv_skip(cli, "cgroups")) {
		/* read (and report errors) as always, record into a scratch printer */
		keep = cli->out;
		cli->out = out_new(OUT_TSV);
		if (!cli->out) {
			cli->out = keep;
			return cli_error(cli, NULL, -ENOMEM, NULL);
		}
	}
	out_list_begin(cli->out, "cgroups");
	failed = stat_all(cli, argc, argv, &last);
	out_list_end(cli->out);
	if (keep) {
		out_free(cli->out);
		cli->out = keep;
	}
	if (opt_tasks && !cli_tsv_skip(cli, "processes")) {
		out_list_begin(cli->out, "processes");
		for (i = 0; i < argc; i++) {
			rc = emit_processes(cli, argv[i]);
			if (rc) {
				failed++;
				last = rc;
				break;
			}
		}
		out_list_end(cli->out);
	}
	if (failed && failed < argc)
		return EXIT_PARTIAL;
	return last;
}

/* "-" reads the PATHs from stdin (blanks or, with -z, NULs between them); an empty list
 * does nothing and succeeds. */
static int run(struct cli *cli, int argc, const char **argv)
{
	return cli_run_paths(cli, argc, argv, run_paths);
}

const struct cgctl_cmd cmd_stat = {
	.name = "stat",
	.args = "PATH...",
	.summary = "memory and CPU figures of cgroups (v1 and v2 alike)",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = -1,
	.tsv_tables = "cgroups,processes",
	.columns = stat_tables,
	.n_columns = N_TABLES(stat_tables),
};
