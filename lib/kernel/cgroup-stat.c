/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgctl_cgroup_stat (issue 28): one snapshot of a struct cgctl_cgroup, read once, its
 * figures looked up by name (the blkid_probe_lookup_value() way), so that `stat`,
 * `watch`, `bw show` and `mem show` need no public struct per file.  The settings keep
 * the knob table's names (lib/kernel/knobs.c: "memory.limit", "cpu.quota"); the
 * statistics are named after the kernel's files.  The readers are those of
 * lib/kernel/kstat.c, memevents.c, cgstat.c; v1 and v2 differences stay in them and in
 * the table below: a figure this hierarchy or kernel does not have reads -ENODATA.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/cgroup.h"

struct cgctl_cgroup_stat {
	unsigned int what;		/* CGCTL_CGSTAT_* read */
	int mem_r, cpu_r;		/* the readers' results; -ENODEV: not read */
	int cpu_psi_r, mem_psi_r, ev_r[2], tasks_r;
	bool cpu_usage_only;		/* v2 without the cpu controller: cpu.stat alone */
	struct cgctl_memstat mem;
	struct cgctl_cpubw cpu;
	struct cgctl_psi cpu_psi, mem_psi;	/* PSI: cpu.pressure, memory.pressure */
	struct cgctl_mem_events ev[2];	/* memory.events, memory.events.local */
	struct cgctl_cgroupstats tasks;
};

enum src { S_MEM, S_CPU, S_CPUSTAT };

/* One figure of the memstat or cpubw reader: its field, and the present bit it needs
 * (0: always there once the side was read). */
struct key {
	const char *name;
	enum src src;
	unsigned int need;		/* CGCTL_CGSTAT_* of the read that has it */
	size_t off;
	unsigned int bit;
};

#define MS(f) offsetof(struct cgctl_memstat, f)
#define CB(f) offsetof(struct cgctl_cpubw, f)
#define CS(f) offsetof(struct cgctl_cpu_stat, f)

static const struct key keys[] = {
	{ "memory.usage", S_MEM, CGCTL_CGSTAT_MEM, MS(usage), 0 },
	{ "memory.limit", S_MEM, CGCTL_CGSTAT_MEM, MS(limit), 0 },
	{ "memory.failcnt", S_MEM, CGCTL_CGSTAT_MEM, MS(failcnt), CGCTL_MEMSTAT_FAILCNT },
	{ "memory.peak", S_MEM, CGCTL_CGSTAT_MEM_ALL, MS(peak), CGCTL_MEMSTAT_PEAK },
	{ "memory.memsw.usage", S_MEM, CGCTL_CGSTAT_MEM_ALL, MS(memsw_usage),
	  CGCTL_MEMSTAT_MEMSW },
	{ "memory.memsw", S_MEM, CGCTL_CGSTAT_MEM_ALL, MS(memsw_limit), CGCTL_MEMSTAT_MEMSW },
	{ "memory.memsw.failcnt", S_MEM, CGCTL_CGSTAT_MEM_ALL, MS(memsw_failcnt),
	  CGCTL_MEMSTAT_MEMSW },
	{ "memory.memsw.peak", S_MEM, CGCTL_CGSTAT_MEM_ALL, MS(memsw_peak),
	  CGCTL_MEMSTAT_MEMSW_PEAK },
	{ "memory.swap.usage", S_MEM, CGCTL_CGSTAT_MEM_ALL, MS(swap_usage),
	  CGCTL_MEMSTAT_SWAP },
	{ "memory.swap", S_MEM, CGCTL_CGSTAT_MEM_ALL, MS(swap_limit), CGCTL_MEMSTAT_SWAP },
	{ "memory.high", S_MEM, CGCTL_CGSTAT_MEM_ALL, MS(high), CGCTL_MEMSTAT_HIGH },
	{ "cpu.quota", S_CPU, CGCTL_CGSTAT_CPU_ALL, CB(quota_us), 0 },
	{ "cpu.period", S_CPU, CGCTL_CGSTAT_CPU_ALL, CB(period_us), 0 },
	{ "cpu.burst", S_CPU, CGCTL_CGSTAT_CPU_ALL, CB(burst_us), CGCTL_CPUBW_BURST },
	{ "cpu.stat.throttled_local_ns", S_CPU, CGCTL_CGSTAT_CPU_ALL, CB(throttled_local_ns),
	  CGCTL_CPUBW_LOCAL },
	{ "cpu.stat.usage_ns", S_CPUSTAT, CGCTL_CGSTAT_CPU, CS(usage_ns),
	  CGCTL_CPU_STAT_USAGE },
	{ "cpu.stat.user_ns", S_CPUSTAT, CGCTL_CGSTAT_CPU, CS(user_ns), CGCTL_CPU_STAT_USER },
	{ "cpu.stat.system_ns", S_CPUSTAT, CGCTL_CGSTAT_CPU, CS(system_ns),
	  CGCTL_CPU_STAT_SYSTEM },
	{ "cpu.stat.nr_periods", S_CPUSTAT, CGCTL_CGSTAT_CPU, CS(nr_periods),
	  CGCTL_CPU_STAT_NR_PERIODS },
	{ "cpu.stat.nr_throttled", S_CPUSTAT, CGCTL_CGSTAT_CPU, CS(nr_throttled),
	  CGCTL_CPU_STAT_NR_THROTTLED },
	{ "cpu.stat.throttled_ns", S_CPUSTAT, CGCTL_CGSTAT_CPU, CS(throttled_ns),
	  CGCTL_CPU_STAT_THROTTLED },
	{ "cpu.stat.nr_bursts", S_CPUSTAT, CGCTL_CGSTAT_CPU, CS(nr_bursts),
	  CGCTL_CPU_STAT_NR_BURSTS },
	{ "cpu.stat.burst_ns", S_CPUSTAT, CGCTL_CGSTAT_CPU, CS(burst_ns),
	  CGCTL_CPU_STAT_BURST },
};

/* The reader's result as the getter reports it: absent from this hierarchy -ENODATA. */
static int side(int r)
{
	return r == -ENOENT || r == -ENODEV || r == -EOPNOTSUPP ? -ENODATA : r;
}

static int read_mem(struct cgctl_cgroup *cg, unsigned int what, struct cgctl_cgroup_stat *st)
{
	unsigned int flags = what & CGCTL_CGSTAT_MEM_ALL ? 0 : CGCTL_MEMSTAT_LEAN;

	if (!cgctl_mount_has(cg->m, "memory"))
		return -ENODEV;
	return cgctl_memstat_read_flags(cg->ctx, cg->m, cg->path, flags, &st->mem);
}

static int read_cpu(struct cgctl_cgroup *cg, unsigned int what, struct cgctl_cgroup_stat *st)
{
	unsigned int flags = what & CGCTL_CGSTAT_CPU_ALL ? 0 : CGCTL_CPUBW_LEAN;
	const struct cgctl_mount *acct = NULL;
	char *buf = NULL;
	size_t len;
	int r;

	if (!cgctl_mount_has(cg->m, "cpu"))
		return -ENODEV;
	/* v1: the usage is cpuacct's, co-mounted with cpu or a hierarchy of its own where
	 * the cgroup has the same path */
	if (cg->m->version == 1 && cgctl_mount_find(cg->ctx, "cpuacct", &acct) < 0)
		acct = NULL;
	r = cgctl_cpubw_read_flags(cg->ctx, cg->m, cg->path, acct, NULL, flags, &st->cpu);
	if (r != -ENOENT || cg->m->version != 2)
		return r;
	/* v2 without the cpu controller (a systemd unit without a CPU property, issue
	 * 27): no cpu.max, but cpu.stat's usage_usec, user_usec and system_usec exist in
	 * every cgroup (cpu_stat_show() of kernel/cgroup/rstat.c, since 4.15) */
	memset(&st->cpu, 0, sizeof(st->cpu));
	r = cgctl_cg_read(cg->ctx, cg->m, cg->path, "cpu.stat", &buf, &len);
	if (r == 0)
		r = cgctl_parse_cpu_stat(buf, len, 2, &st->cpu.stat);
	free(buf);
	if (r == 0)
		st->cpu_usage_only = true;
	return r;
}

CGCTL_EXPORT int cgctl_cgroup_stat_new(struct cgctl_cgroup *cg, unsigned int what,
				       struct cgctl_cgroup_stat **ret)
{
	struct cgctl_cgroup_stat *st;
	int r;

	if (!cg || !ret)
		return -EINVAL;
	*ret = NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	if (what & CGCTL_CGSTAT_MEM_ALL)
		what |= CGCTL_CGSTAT_MEM;
	if (what & CGCTL_CGSTAT_CPU_ALL)
		what |= CGCTL_CGSTAT_CPU;
	st->what = what;
	st->mem_r = st->cpu_r = st->cpu_psi_r = st->mem_psi_r = st->tasks_r = -ENODEV;
	st->ev_r[0] = st->ev_r[1] = -ENODEV;
	if (what & CGCTL_CGSTAT_MEM)
		st->mem_r = read_mem(cg, what, st);
	if (what & CGCTL_CGSTAT_CPU)
		st->cpu_r = read_cpu(cg, what, st);
	if ((what & CGCTL_CGSTAT_PSI) && cgctl_mount_has(cg->m, "cpu"))
		st->cpu_psi_r = cgctl_psi_read(cg->ctx, cg->m, cg->path, "cpu.pressure",
					       &st->cpu_psi);
	if ((what & CGCTL_CGSTAT_PSI) && cgctl_mount_has(cg->m, "memory"))
		st->mem_psi_r = cgctl_psi_read(cg->ctx, cg->m, cg->path, "memory.pressure",
					       &st->mem_psi);
	if ((what & CGCTL_CGSTAT_EVENTS) && cgctl_mount_has(cg->m, "memory"))
		for (int l = 0; l < 2; l++)
			st->ev_r[l] = cgctl_mem_events_read(cg->ctx, cg->m, cg->path, l,
							    &st->ev[l]);
	if (what & CGCTL_CGSTAT_TASKS)
		st->tasks_r = cgctl_task_states(cg->ctx, cg->m, cg->path, &st->tasks);
	/* the cgroup is gone: nothing of it was read */
	if (st->mem_r == -ENOENT || st->cpu_r == -ENOENT || st->tasks_r == -ENOENT) {
		r = cgctl_cg_exists(cg->ctx, cg->m, cg->path);
		if (r <= 0) {
			free(st);
			return r < 0 ? r : -ENOENT;
		}
	}
	*ret = st;
	return 0;
}

CGCTL_EXPORT void cgctl_cgroup_stat_free(struct cgctl_cgroup_stat *st)
{
	free(st);
}

/* "some.avg10" ... "full.total_us" of one pressure file */
static int psi_key(const struct cgctl_psi *p, const char *k, uint64_t *ret)
{
	const struct cgctl_psi_line *l;

	if (!strncmp(k, "some.", 5))
		l = &p->some;
	else if (!strncmp(k, "full.", 5))
		l = &p->full;
	else
		return -EINVAL;
	k += 5;
	if (!l->present)
		return -ENODATA;
	if (!strcmp(k, "avg10"))
		*ret = l->avg10;
	else if (!strcmp(k, "avg60"))
		*ret = l->avg60;
	else if (!strcmp(k, "avg300"))
		*ret = l->avg300;
	else if (!strcmp(k, "total_us"))
		*ret = l->total_us;
	else
		return -EINVAL;
	return 0;
}

static int event_key(const struct cgctl_cgroup_stat *st, int local, const char *k,
		     uint64_t *ret)
{
	/* without EVENTS, MEM_ALL's read of memory.events has the first five keys */
	if (!local && st->ev_r[0] == -ENODEV && (st->what & CGCTL_CGSTAT_MEM_ALL)) {
		static const char *const mk[] = { "low", "high", "max", "oom", "oom_kill" };
		const uint64_t mv[] = { st->mem.events_low, st->mem.events_high,
					st->mem.events_max, st->mem.events_oom,
					st->mem.events_oom_kill };

		if (st->mem_r < 0)
			return side(st->mem_r);
		for (size_t i = 0; i < ARRAY_SIZE(mk); i++)
			if (!strcmp(k, mk[i])) {
				if (!(st->mem.present & CGCTL_MEMSTAT_EVENTS))
					return -ENODATA;
				*ret = mv[i];
				return 0;
			}
		for (int e = 0; e < CGCTL_MEMEV_NR; e++)
			if (!strcmp(k, cgctl_mem_event_name(e)))
				return -ENODATA;	/* a key MEM_ALL does not read */
		return -EINVAL;
	}
	if (st->ev_r[local] < 0)
		return side(st->ev_r[local]);
	for (int e = 0; e < CGCTL_MEMEV_NR; e++)
		if (!strcmp(k, cgctl_mem_event_name(e))) {
			if (!(st->ev[local].present & (1u << e)))
				return -ENODATA;
			*ret = st->ev[local].count[e];
			return 0;
		}
	return -EINVAL;
}

static int tasks_key(const struct cgctl_cgroup_stat *st, const char *k, uint64_t *ret)
{
	const struct cgctl_cgroupstats *cs = &st->tasks;

	if (st->tasks_r < 0)
		return side(st->tasks_r);
	if (!strcmp(k, "source"))
		*ret = (uint64_t)st->tasks_r;
	else if (!strcmp(k, "running"))
		*ret = cs->nr_running;
	else if (!strcmp(k, "sleeping"))
		*ret = cs->nr_sleeping;
	else if (!strcmp(k, "uninterruptible"))
		*ret = cs->nr_uninterruptible;
	else if (!strcmp(k, "stopped"))
		*ret = cs->nr_stopped;
	else if (!strcmp(k, "io_wait")) {
		/* /proc has no I/O wait state: only cgroupstats counts it */
		if (st->tasks_r != CGCTL_STATES_CGROUPSTATS)
			return -ENODATA;
		*ret = cs->nr_io_wait;
	} else {
		return -EINVAL;
	}
	return 0;
}

static int table_key(const struct cgctl_cgroup_stat *st, const struct key *k, uint64_t *ret)
{
	const void *base;
	unsigned int present;
	int r;

	if (!(st->what & k->need))
		return -ENODATA;	/* not asked for */
	if (k->src == S_MEM) {
		r = st->mem_r;
		base = &st->mem;
		present = st->mem.present;
		/* the v2 root has no memory.current */
		if (r == 0 && k->off == MS(usage) && (present & CGCTL_MEMSTAT_NO_USAGE))
			return -ENODATA;
	} else {
		r = st->cpu_r;
		base = k->src == S_CPU ? (const void *)&st->cpu : (const void *)&st->cpu.stat;
		present = k->src == S_CPU ? st->cpu.present : st->cpu.stat.present;
		/* the v2 root has no cpu.max: no period of its own */
		if (r == 0 && k->off == CB(period_us) && !st->cpu.period_us)
			return -ENODATA;
		/* without the cpu controller: none of its files */
		if (r == 0 && k->src == S_CPU && st->cpu_usage_only)
			return -ENODATA;
	}
	if (r < 0)
		return side(r);
	if (k->bit && !(present & k->bit))
		return -ENODATA;
	memcpy(ret, (const char *)base + k->off, sizeof(*ret));
	return 0;
}

CGCTL_EXPORT int cgctl_cgroup_stat_get(const struct cgctl_cgroup_stat *st, const char *key,
				       uint64_t *ret)
{
	uint64_t v = 0;
	int r = -EINVAL;

	if (!st || !key || !ret)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i].name)) {
			r = table_key(st, &keys[i], &v);
			goto out;
		}
	if (!strncmp(key, "memory.pressure.", 16)) {
		if (st->mem_psi_r != -ENODEV)	/* PSI read the file itself */
			r = st->mem_psi_r < 0 ? side(st->mem_psi_r) :
						psi_key(&st->mem_psi, key + 16, &v);
		else if (!(st->what & CGCTL_CGSTAT_MEM_ALL))
			r = -ENODATA;
		else if (st->mem_r < 0)
			r = side(st->mem_r);
		else if (!(st->mem.present & CGCTL_MEMSTAT_PRESSURE))
			r = -ENODATA;
		else
			r = psi_key(&st->mem.pressure, key + 16, &v);
	} else if (!strncmp(key, "cpu.pressure.", 13)) {
		r = st->cpu_psi_r < 0 ? side(st->cpu_psi_r) :
					psi_key(&st->cpu_psi, key + 13, &v);
	} else if (!strncmp(key, "memory.events.local.", 20)) {
		r = event_key(st, 1, key + 20, &v);
	} else if (!strncmp(key, "memory.events.", 14)) {
		r = event_key(st, 0, key + 14, &v);
	} else if (!strncmp(key, "tasks.", 6)) {
		r = tasks_key(st, key + 6, &v);
	}
out:
	if (r == 0)
		*ret = v;
	return r;
}
