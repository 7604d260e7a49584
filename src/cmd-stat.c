/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl stat PATH...: memory and CPU-bandwidth figures, the same keys on v1 and v2. */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "cgctl.h"
#include "cmd-stat.h"

void cli_out_memstat(struct cli *cli, const struct cgctl_memstat *st)
{
	struct out *o = cli->out;

	out_obj_begin(o, "memory");
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
	out_list_begin(cli->out, "cgroups");
	for (i = 0; i < argc; i++) {
		rc = stat_one(cli, argv[i]);
		if (rc) {
			failed++;
			last = rc;
		}
	}
	out_list_end(cli->out);
	if (failed && failed < argc)
		return EXIT_PARTIAL;
	return last;
}

const struct cgctl_cmd cmd_stat = {
	.name = "stat",
	.args = "PATH...",
	.summary = "memory and CPU figures of cgroups (v1 and v2 alike)",
	.run = run,
	.min_args = 1,
	.max_args = -1,
};
