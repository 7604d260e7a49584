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
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cgctl.h"
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

/* Figure @key of @st into *v.  Returns: whether it is there. */
static bool fig(const struct cgctl_cgroup_stat *st, const char *key, uint64_t *v)
{
	return st && cgctl_cgroup_stat_get(st, key, v) == 0;
}

static void fig_bytes(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
		      const char *fkey)
{
	uint64_t v = 0;
	bool have = fig(st, fkey, &v);

	opt_bytes(o, key, have, v);
}

static void fig_u64(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
		    const char *fkey)
{
	uint64_t v = 0;
	bool have = fig(st, fkey, &v);

	opt_u64(o, key, have, v);
}

/* a figure in nanoseconds, printed in microseconds */
static void fig_usec(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
		     const char *fkey)
{
	uint64_t v = 0;
	bool have = fig(st, fkey, &v);

	opt_usec(o, key, have, v);
}

/* a figure in microseconds (UINT64_MAX: unlimited) */
static void fig_us(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
		   const char *fkey)
{
	uint64_t v = 0;
	bool have = fig(st, fkey, &v);

	opt_usec(o, key, have, v == UINT64_MAX ? UINT64_MAX : v * 1000);
}

/* The "memory" object of the snapshot @st (NULL: no memory figures for this path, all
 * null); @full: everything read (--long), else usage, limit, failcnt. */
static void out_mem(struct out *o, const struct cgctl_cgroup_stat *st, bool full, int version)
{
	uint64_t v;

	if (!st && !keep_keys(o))
		return;
	out_obj_begin(o, "memory");
	/* usage (not on the v2 root) and limit: null also in the human table */
	if (fig(st, "memory.usage", &v))
		out_bytes(o, "usage_bytes", v);
	else
		out_null(o, "usage_bytes");
	if (fig(st, "memory.limit", &v))
		out_bytes(o, "limit_bytes", v);
	else
		out_null(o, "limit_bytes");
	fig_u64(o, "failcnt", st, "memory.failcnt");
	if (!full) {
		out_obj_end(o);
		return;
	}
	fig_bytes(o, "max_usage_bytes", st, "memory.peak");
	fig_bytes(o, "memsw_usage_bytes", st, "memory.memsw.usage");
	fig_bytes(o, "memsw_limit_bytes", st, "memory.memsw");
	fig_bytes(o, "swap_usage_bytes", st, "memory.swap.usage");
	fig_bytes(o, "swap_limit_bytes", st, "memory.swap");
	fig_bytes(o, "high_bytes", st, "memory.high");
	fig_u64(o, "events_low", st, "memory.events.low");
	fig_u64(o, "events_high", st, "memory.events.high");
	fig_u64(o, "events_max", st, "memory.events.max");
	fig_u64(o, "events_oom", st, "memory.events.oom");
	fig_u64(o, "events_oom_kill", st, "memory.events.oom_kill");
	/* memory.pressure: v2 (null where PSI is off), null on v1 in JSON and TSV */
	if ((st && version == 2) || keep_keys(o))
		emit_psi_stat(o, "pressure", st, "memory.pressure.");
	out_obj_end(o);
}

/* The "cpu" object of the snapshot @st (NULL: no CPU figures for this path, all null);
 * @full: with quota, period, burst limit and local throttling. */
static void out_cpu(struct out *o, const struct cgctl_cgroup_stat *st, bool full)
{
	if (!st && !keep_keys(o))
		return;
	out_obj_begin(o, "cpu");
	fig_usec(o, "usage_usec", st, "cpu.stat.usage_ns");
	if (full) {
		fig_us(o, "quota_usec", st, "cpu.quota");
		fig_us(o, "period_usec", st, "cpu.period");
		fig_us(o, "burst_limit_usec", st, "cpu.burst");
	}
	fig_u64(o, "nr_periods", st, "cpu.stat.nr_periods");
	fig_u64(o, "nr_throttled", st, "cpu.stat.nr_throttled");
	fig_usec(o, "throttled_usec", st, "cpu.stat.throttled_ns");
	if (full)
		fig_usec(o, "throttled_local_usec", st, "cpu.stat.throttled_local_ns");
	fig_u64(o, "nr_bursts", st, "cpu.stat.nr_bursts");
	fig_usec(o, "burst_usec", st, "cpu.stat.burst_ns");
	out_obj_end(o);
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
	char rel[PATH_MAX], shown[PATH_MAX], *buf = NULL, *p, *end;
	size_t len;
	int r;

	m = task_mount(cli, path, rel, sizeof(rel));
	if (!m)
		return EXIT_OK;
	/* the "/a/b" of the cgroups' rows, not the PATH as typed ("a/b/") */
	if (cgctl_path_normalize(path, shown, sizeof(shown)) < 0)
		snprintf(shown, sizeof(shown), "%s", path);
	r = cgctl_cg_read(cli->ctx, m, rel, "cgroup.procs", &buf, &len);
	if (r < 0)
		return EXIT_OK;	/* the cgroup's error was reported by stat_one */
	for (p = buf;; p = end) {
		long pid = strtol(p, &end, 10);
		/* a thread group's comm and faults: the library reads them in /proc */
		struct cgctl_taskstats ts = CGCTL_TASKSTATS_INIT;
		struct cgctl_error e = CGCTL_ERROR_INIT;

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
			struct cgctl_error de = CGCTL_ERROR_INIT;

			if (cgctl_delayacct_enabled(cli->ctx, &de) == 0)
				cli_warn(cli, "%s", de.msg[0] ? de.msg : "delay accounting is off: "
					 "delays other than cpu_delay read 0");
			warned = true;
		}
		out_obj_begin(cli->out, NULL);
		out_str(cli->out, "cgroup", shown);
		out_i64(cli->out, "pid", pid);
		out_str(cli->out, "comm", ts.comm);
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
		out_u64(cli->out, "minor_faults", ts.minflt);
		out_u64(cli->out, "major_faults", ts.majflt);
		out_obj_end(cli->out);
	}
	free(buf);
	return EXIT_OK;
}

/* One PATH of `cgctl stat`: its cgroup in the memory and cpu hierarchies and what is
 * read of each (a snapshot), then printed. */
struct stat_row {
	const char *path;
	int prc;			/* cli_path()'s exit status (its error printed) */
	struct cgctl_cgroup *mcg, *ccg;
	struct cgctl_cgroup_stat *ms, *cs;
	int mem_r, cpu_r;		/* 0: read; -ENODEV: not in this hierarchy; -errno */
	struct cgctl_cgroup_stat *ts;	/* the snapshot with the task states (ms or cs) */
	char *upath;			/* memory's path, else cpu's: its systemd unit */
};

/* PATHs read at a time, then printed */
#define STAT_CHUNK 1024
/* the fewest PATHs of a chunk worth a second reading thread: starting and joining one
 * costs about as much as reading 2 or 3 cgroups (HACKING.md, "Performance notes") */
#define STAT_THREAD_MIN 64

struct stat_run {
	struct cli *cli;
	const struct cgctl_mount *mm, *cm;	/* memory, cpu */
	bool full;				/* --long: everything */
	bool states;				/* --long or --tasks: the task states */
	int systemd;				/* PID 1 is systemd: -1 not asked yet */
};

static void row_free(struct stat_row *row)
{
	cgctl_cgroup_stat_free(row->ms);
	cgctl_cgroup_stat_free(row->cs);
	cgctl_cgroup_unref(row->mcg);
	cgctl_cgroup_unref(row->ccg);
	free(row->upath);
	row->upath = NULL;
	row->ms = row->cs = row->ts = NULL;
	row->mcg = row->ccg = NULL;
}

/* The cgroup @path of hierarchy @m (@controller's) into *ret; *r: -ENODEV without the
 * hierarchy, -ENOENT without the cgroup.  Returns: EXIT_OK or the exit status of the
 * path error printed. */
static int row_cgroup(struct stat_run *sr, const struct cgctl_mount *m, const char *controller,
		      struct stat_row *row, struct cgctl_cgroup **ret, int *r)
{
	char buf[PATH_MAX];
	int rc;

	*r = -ENODEV;
	if (!m)
		return EXIT_OK;
	rc = cli_path(sr->cli, m, row->path, buf, sizeof(buf));
	if (rc)
		return rc;
	if (!row->upath) {
		row->upath = strdup(buf);
		if (!row->upath)
			return cli_error(sr->cli, NULL, -ENOMEM, NULL);
	}
	*r = cgctl_cgroup_new(sr->cli->ctx, controller, buf, ret);
	return EXIT_OK;
}

/* @path in each hierarchy (memory's first, then cpu's: the order of the errors).  On an
 * error of the path nothing is read of it. */
static void row_open(struct stat_run *sr, const char *path, struct stat_row *row)
{
	int rc;

	memset(row, 0, sizeof(*row));
	row->path = path;
	rc = row_cgroup(sr, sr->mm, "memory", row, &row->mcg, &row->mem_r);
	if (rc == EXIT_OK)
		rc = row_cgroup(sr, sr->cm, "cpu", row, &row->ccg, &row->cpu_r);
	if (rc)
		row_free(row);
	row->prc = rc;
}

/* The reader's result of one side, from the figure every read of it has: 0 read,
 * -ENOENT not there (the snapshot's -ENODATA), else the error of its files. */
static int side_result(const struct cgctl_cgroup_stat *st, const char *const *keys)
{
	uint64_t v;
	int r = -ENODATA;

	for (; *keys && r == -ENODATA; keys++)
		r = cgctl_cgroup_stat_get(st, *keys, &v);
	return r == -ENODATA ? -ENOENT : r;
}

/* Read the snapshots of one PATH (thread safe: the cgroups were made by the caller). */
static void row_read(const struct stat_run *sr, struct stat_row *row)
{
	/* figures there whenever the side was read: memory.limit; cpu.quota in --long,
	 * else cpu.stat's nr_periods (a v2 cgroup without the cpu controller has neither:
	 * stat shows no CPU figures of it) */
	static const char *const mem_keys[] = { "memory.limit", NULL };
	static const char *const cpu_keys_full[] = { "cpu.quota", NULL };
	static const char *const cpu_keys[] = { "cpu.stat.nr_periods", NULL };
	unsigned int tasks = sr->states ? CGCTL_CGSTAT_TASKS : 0;
	int r;

	if (row->prc)
		return;
	/* the hierarchy to count tasks in: cpu's, else memory's */
	if (row->mcg) {
		r = cgctl_cgroup_stat_new(row->mcg, (sr->full ? CGCTL_CGSTAT_MEM_ALL :
						     CGCTL_CGSTAT_MEM) | (sr->cm ? 0 : tasks),
					  &row->ms);
		row->mem_r = r < 0 ? r : side_result(row->ms, mem_keys);
	}
	if (row->ccg) {
		r = cgctl_cgroup_stat_new(row->ccg, (sr->full ? CGCTL_CGSTAT_CPU_ALL :
						     CGCTL_CGSTAT_CPU) | tasks, &row->cs);
		row->cpu_r = r < 0 ? r : side_result(row->cs, sr->full ? cpu_keys_full :
							      cpu_keys);
	}
	row->ts = sr->cm ? row->cs : row->ms;
}

struct read_range {
	const struct stat_run *sr;
	struct stat_row *rows;
	size_t n;
};

static void *read_range(void *arg)
{
	const struct read_range *rr = arg;

	for (size_t i = 0; i < rr->n; i++)
		row_read(rr->sr, &rr->rows[i]);
	return NULL;
}

/* Whether this process may run on two CPUs or more (its affinity mask). */
static bool two_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) >= 2;
}

/* Read @n PATHs: their cgroups here, then every snapshot; the kernel's side of reading
 * cgroup files runs on two CPUs at once, so from 2 x STAT_THREAD_MIN PATHs the second
 * half is read by a thread (its signals blocked) started and joined here.  An error of
 * a path is printed here, the rest by the caller. */
static void rows_read(struct stat_run *sr, const char **argv, struct stat_row *rows, size_t n)
{
	struct read_range lo = { sr, rows, n / 2 }, hi = { sr, rows + n / 2, n - n / 2 };
	sigset_t all, old;
	pthread_t th;
	int r;

	for (size_t i = 0; i < n; i++)
		row_open(sr, argv[i], &rows[i]);
	if (n < 2 * STAT_THREAD_MIN || !two_cpus()) {
		lo.n = n;
		read_range(&lo);
		return;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = pthread_create(&th, NULL, read_range, &hi);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	read_range(&lo);
	if (r == 0)
		pthread_join(th, NULL);
	else
		read_range(&hi);	/* no thread: all of it here */
}

/* What to do with each PATH read: print it, or keep it.  Returns: EXIT_OK or the exit
 * status of the error printed. */
typedef int (*stat_row_fn)(struct stat_run *sr, struct stat_row *row, void *data);

/* Read the PATHs STAT_CHUNK at a time and hand each to @fn, in order.  Returns: the
 * number of failed PATHs (-1: out of memory, said); *last the exit status of the last
 * failure. */
static int stat_each(struct stat_run *sr, int argc, const char **argv, stat_row_fn fn,
		     void *data, int *last)
{
	size_t chunk = argc < STAT_CHUNK ? (size_t)argc : STAT_CHUNK;
	struct stat_row *rows = calloc(chunk ? chunk : 1, sizeof(*rows));
	int failed = 0;

	if (!rows) {
		*last = cli_error(sr->cli, NULL, -ENOMEM, NULL);
		return -1;
	}
	for (size_t at = 0; at < (size_t)argc; at += chunk) {
		size_t n = (size_t)argc - at < chunk ? (size_t)argc - at : chunk;

		rows_read(sr, argv + at, rows, n);
		for (size_t i = 0; i < n; i++) {
			int rc = rows[i].prc ? rows[i].prc : fn(sr, &rows[i], data);

			if (rc) {
				failed++;
				*last = rc;
			}
			row_free(&rows[i]);
		}
	}
	free(rows);
	return failed;
}

static void stat_mounts(struct stat_run *sr)
{
	struct cli *cli = sr->cli;

	if (cgctl_mount_find(cli->ctx, "memory", &sr->mm) < 0)
		sr->mm = NULL;
	if (cgctl_mount_find(cli->ctx, "cpu", &sr->cm) < 0)
		sr->cm = NULL;
}

static void emit_states(struct cli *cli, const struct stat_row *row)
{
	static const char *const keys[] = { "running", "sleeping", "uninterruptible",
					    "stopped" };
	uint64_t src, v;
	char key[64];

	if (!fig(row->ts, "tasks.source", &src)) {
		if (keep_keys(cli->out))
			out_null(cli->out, "tasks");
		return;
	}
	out_obj_begin(cli->out, "tasks");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(key, sizeof(key), "tasks.%s", keys[i]);
		v = 0;
		fig(row->ts, key, &v);
		out_u64(cli->out, keys[i], v);
	}
	/* /proc has no I/O wait state: only cgroupstats counts it */
	if (fig(row->ts, "tasks.io_wait", &v))
		out_u64(cli->out, "io_wait", v);
	else
		out_null(cli->out, "io_wait");
	out_str(cli->out, "source", src == CGCTL_STATES_CGROUPSTATS ? "cgroupstats" : "proc");
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
static int row_missing(struct cli *cli, const struct stat_row *row)
{
	if (row->mem_r == -ENOENT || row->cpu_r == -ENOENT)
		return cli_error(cli, row->path, -ENOENT, "no such cgroup");
	return cli_error(cli, row->path, row->mem_r, NULL);
}

/* The systemd unit that owns the row's cgroup ("" without systemd: cgctl(1), SYSTEMD). */
static void unit_of(struct stat_run *sr, const struct stat_row *row, char *out, size_t len)
{
	const struct cgctl_mount *m = sr->mm ? sr->mm : sr->cm;
	struct cgctl_unit u = CGCTL_UNIT_INIT;

	out[0] = '\0';
	/* asked once a run: without systemd no row has a unit (2,000 rows: 4,000 system
	 * calls fewer) */
	if (sr->systemd < 0)
		sr->systemd = cgctl_systemd_booted(sr->cli->ctx);
	if (!sr->systemd)
		return;
	if (m && row->upath && cgctl_cgroup_unit(sr->cli->ctx, m, row->upath, &u) == 1)
		snprintf(out, len, "%s", u.name);
}

/* Returns: EXIT_OK or the exit status of the error printed. */
static int row_emit(struct stat_run *sr, struct stat_row *row, void *data)
{
	struct cli *cli = sr->cli;
	char unit[256];
	char shown[PATH_MAX];

	(void)data;
	if (row->mem_r < 0 && row->cpu_r < 0)
		return row_missing(cli, row);
	out_obj_begin(cli->out, NULL);
	/* the "/a/b" form of every command: "a/b/" and "/a//b" as "/a/b" (--self: below
	 * our own cgroup) */
	if (cgctl_path_normalize(row->path, shown, sizeof(shown)) < 0)
		snprintf(shown, sizeof(shown), "%s", row->path);
	out_str(cli->out, "path", shown);
	unit_of(sr, row, unit, sizeof(unit));
	if (unit[0])
		out_str(cli->out, "unit", unit);
	out_mem(cli->out, row->mem_r == 0 ? row->ms : NULL, sr->full,
		sr->mm ? sr->mm->version : 0);
	out_cpu(cli->out, row->cpu_r == 0 ? row->cs : NULL, sr->full);
	if (sr->states)
		emit_states(cli, row);
	out_obj_end(cli->out);
	/* one side read, the other not: say so rather than leave its columns out */
	if (unread(row->mem_r))
		return half_error(cli, row->path, "memory", row->mem_r);
	if (unread(row->cpu_r))
		return half_error(cli, row->path, "cpu", row->cpu_r);
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
	struct stat_run sr = { .cli = cli, .full = opt_long, .states = opt_long || opt_tasks,
			       .systemd = -1 };
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
static int row_keep(struct stat_run *sr, struct stat_row *row, void *data)
{
	struct om_rows *om = data;
	int rc = EXIT_OK;

	if (row->mem_r < 0 && row->cpu_r < 0)
		rc = row_missing(sr->cli, row);
	else if (unread(row->mem_r))
		rc = half_error(sr->cli, row->path, "memory", row->mem_r);
	else if (unread(row->cpu_r))
		rc = half_error(sr->cli, row->path, "cpu", row->cpu_r);
	if (row->mem_r == 0 || row->cpu_r == 0) {
		/* the row keeps its snapshots (freed by stat_om) */
		om->v[om->n] = (struct stat_om_row){ row->path, NULL, NULL, { 0 } };
		if (row->mem_r == 0)
			om->v[om->n].ms = row->ms, row->ms = NULL;
		if (row->cpu_r == 0)
			om->v[om->n].cs = row->cs, row->cs = NULL;
		unit_of(sr, row, om->v[om->n].unit, sizeof(om->v[om->n].unit));
		om->n++;
	}
	return rc;
}

/* --openmetrics: everything of each PATH read first (a family's samples go together),
 * the errors said as the default output says them.  Returns: an exit status. */
static int stat_om(struct cli *cli, int argc, const char **argv)
{
	struct stat_run sr = { .cli = cli, .full = true, .systemd = -1 };
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

	for (size_t i = 0; i < om.n; i++) {
		cgctl_cgroup_stat_free(om.v[i].ms);
		cgctl_cgroup_stat_free(om.v[i].cs);
	}
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
