/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl stat [--tasks] PATH...: memory and CPU-bandwidth figures, the same keys on v1
 * and v2, and the states of the cgroup's tasks (cgroupstats on v1, /proc on v2); with
 * --tasks, each process's CPU time and delays (taskstats).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cgctl.h"
#include "cmd-stat.h"
#include "kernel/proctree.h"

void cli_out_memstat(struct cli *cli, const struct cgctl_memstat *st)
{
	struct out *o = cli->out;

	out_obj_begin(o, "memory");
	if (st->present & CGCTL_MEMSTAT_NO_USAGE)
		out_null(o, "usage_bytes");
	else
		out_bytes(o, "usage_bytes", st->usage);
	out_bytes(o, "limit_bytes", st->limit);
	if (st->present & CGCTL_MEMSTAT_FAILCNT)
		out_u64(o, "failcnt", st->failcnt);
	if (st->present & CGCTL_MEMSTAT_PEAK)
		out_bytes(o, "max_usage_bytes", st->peak);
	if (st->present & CGCTL_MEMSTAT_MEMSW) {
		out_bytes(o, "memsw_usage_bytes", st->memsw_usage);
		out_bytes(o, "memsw_limit_bytes", st->memsw_limit);
	}
	if (st->present & CGCTL_MEMSTAT_SWAP) {
		out_bytes(o, "swap_usage_bytes", st->swap_usage);
		out_bytes(o, "swap_limit_bytes", st->swap_limit);
	}
	if (st->present & CGCTL_MEMSTAT_EVENTS) {
		out_u64(o, "events_max", st->events_max);
		out_u64(o, "events_oom", st->events_oom);
		out_u64(o, "events_oom_kill", st->events_oom_kill);
	}
	out_obj_end(o);
}

void cli_out_cpubw(struct cli *cli, const struct cgctl_cpubw *bw)
{
	const struct cgctl_cpu_stat *s = &bw->stat;
	struct out *o = cli->out;

	out_obj_begin(o, "cpu");
	if (s->present & CGCTL_CPU_STAT_USAGE)
		out_usec(o, "usage_usec", s->usage_ns);
	out_usec(o, "quota_usec", bw->quota_us == UINT64_MAX ? UINT64_MAX : bw->quota_us * 1000);
	if (bw->period_us)
		out_usec(o, "period_usec", bw->period_us * 1000);
	if (bw->present & CGCTL_CPUBW_BURST)
		out_usec(o, "burst_limit_usec", bw->burst_us * 1000);
	if (s->present & CGCTL_CPU_STAT_NR_PERIODS)
		out_u64(o, "nr_periods", s->nr_periods);
	if (s->present & CGCTL_CPU_STAT_NR_THROTTLED)
		out_u64(o, "nr_throttled", s->nr_throttled);
	if (s->present & CGCTL_CPU_STAT_THROTTLED)
		out_usec(o, "throttled_usec", s->throttled_ns);
	if (bw->present & CGCTL_CPUBW_LOCAL)
		out_usec(o, "throttled_local_usec", bw->throttled_local_ns);
	if (s->present & CGCTL_CPU_STAT_NR_BURSTS)
		out_u64(o, "nr_bursts", s->nr_bursts);
	if (s->present & CGCTL_CPU_STAT_BURST)
		out_usec(o, "burst_usec", s->burst_ns);
	out_obj_end(o);
}

static int opt_tasks;

static const struct poptOption options[] = {
	{ "tasks", 't', POPT_ARG_NONE, &opt_tasks, 0,
	  "also each process's CPU time and delays (taskstats)", NULL },
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

/* Task states from /proc/TID/stat of the threads listed in @file (v2, or no netlink). */
static int states_from_proc(struct cli *cli, const struct cgctl_mount *m, const char *rel,
			    struct cgctl_cgroupstats *cs)
{
	const char *file = m->version == 2 ? "cgroup.threads" : "tasks";
	char *buf = NULL, *p, *end;
	size_t len;
	int r = cgctl_cg_read(cli->ctx, m, rel, file, &buf, &len);

	if (r < 0)
		return r;
	memset(cs, 0, sizeof(*cs));
	for (p = buf;; p = end) {
		long tid = strtol(p, &end, 10);
		struct cgctl_proc_stat st;

		if (end == p)
			break;
		if (cgctl_proc_stat_read(cli->ctx, (pid_t)tid, &st) < 0)
			continue;	/* exited meanwhile */
		switch (st.state) {
		case 'R': cs->nr_running++; break;
		case 'D': cs->nr_uninterruptible++; break;
		case 'T': case 't': cs->nr_stopped++; break;
		case 'S': case 'I': cs->nr_sleeping++; break;
		default: break;	/* zombies, dead */
		}
	}
	free(buf);
	return 0;
}

static void emit_states(struct cli *cli, const char *path)
{
	const struct cgctl_mount *m;
	struct cgctl_cgroupstats cs;
	char rel[PATH_MAX];
	bool netlink;

	m = task_mount(cli, path, rel, sizeof(rel));
	if (!m)
		return;
	netlink = m->version == 1 && !cgctl_get_root(cli->ctx)[0] &&
		  cgctl_cgroupstats_get(cli->ctx, m, rel, &cs, NULL) == 0;
	if (!netlink && states_from_proc(cli, m, rel, &cs) < 0)
		return;
	out_obj_begin(cli->out, "tasks");
	out_u64(cli->out, "running", cs.nr_running);
	out_u64(cli->out, "sleeping", cs.nr_sleeping);
	out_u64(cli->out, "uninterruptible", cs.nr_uninterruptible);
	out_u64(cli->out, "stopped", cs.nr_stopped);
	if (netlink)
		out_u64(cli->out, "io_wait", cs.nr_io_wait);
	else
		out_null(cli->out, "io_wait");
	out_str(cli->out, "source", netlink ? "cgroupstats" : "proc");
	out_obj_end(cli->out);
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
		struct cgctl_proc_stat ps;
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
		have_ps = cgctl_proc_stat_read(cli->ctx, (pid_t)pid, &ps) == 0;
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

static int stat_one(struct cli *cli, const char *path)
{
	const struct cgctl_mount *mm = NULL, *cm = NULL, *am = NULL;
	char mpath[PATH_MAX], cpath[PATH_MAX], apath[PATH_MAX];
	struct cgctl_memstat ms;
	struct cgctl_cpubw bw;
	int rm = -ENODEV, rc = -ENODEV, rc_ = EXIT_OK;

	if (cgctl_mount_find(cli->ctx, "memory", &mm) == 0) {
		rc_ = cli_path(cli, mm, path, mpath, sizeof(mpath));
		if (rc_)
			return rc_;
		rm = cgctl_memstat_read(cli->ctx, mm, mpath, &ms);
	}
	if (cgctl_mount_find(cli->ctx, "cpu", &cm) == 0) {
		rc_ = cli_path(cli, cm, path, cpath, sizeof(cpath));
		if (rc_)
			return rc_;
		if (cgctl_mount_find(cli->ctx, "cpuacct", &am) == 0 && am != cm)
			cli_path(cli, am, path, apath, sizeof(apath));
		else
			am = NULL;
		rc = cgctl_cpubw_read(cli->ctx, cm, cpath, am, am ? apath : NULL, &bw);
	}
	if (rm < 0 && rc < 0) {
		int r = rm == -ENOENT || rc == -ENOENT ? -ENOENT : rm;

		return cli_error(cli, path, r, r == -ENOENT ? "no such cgroup" : NULL);
	}
	out_obj_begin(cli->out, NULL);
	out_str(cli->out, "path", path);
	if (rm == 0)
		cli_out_memstat(cli, &ms);
	if (rc == 0)
		cli_out_cpubw(cli, &bw);
	emit_states(cli, path);
	out_obj_end(cli->out);
	return EXIT_OK;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	int i, rc, failed = 0, last = EXIT_OK;

	for (i = 0; i < argc; i++) {
		char norm[PATH_MAX];

		if (cgctl_path_normalize(argv[i], norm, sizeof(norm)) < 0)
			return cli_usage(cli, "%s: invalid cgroup path ('..' and control "
					      "characters are refused)", argv[i]);
	}
	if (opt_tasks && cgctl_get_root(cli->ctx)[0])
		return cli_error(cli, NULL, -EOPNOTSUPP, "--tasks reads the running kernel's "
				 "taskstats: not with --root");
	out_list_begin(cli->out, "cgroups");
	for (i = 0; i < argc; i++) {
		rc = stat_one(cli, argv[i]);
		if (rc) {
			failed++;
			last = rc;
		}
	}
	out_list_end(cli->out);
	if (opt_tasks) {
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

const struct cgctl_cmd cmd_stat = {
	.name = "stat",
	.args = "PATH...",
	.summary = "memory and CPU figures of cgroups (v1 and v2 alike)",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = -1,
};
