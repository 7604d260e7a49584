/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CPU and memory setting/stat files, normalised across cgroup v1 and v2.
 *
 * cpu.stat: v1 from kernel/sched/core.c:cpu_cfs_stat_show() (throttled_time and
 * burst_time in ns), v2 from kernel/cgroup/rstat.c:cgroup_base_stat_cputime_show()
 * (usage/user/system_usec) followed by kernel/sched/core.c:cpu_extra_stat_show()
 * (nr_periods, nr_throttled, throttled_usec, nr_bursts, burst_usec) (v6.12).
 */
#include <errno.h>
#include <string.h>

#include "kernel/parse.h"

#define NSEC_PER_USEC 1000ull
#define NSEC_PER_SEC 1000000000ull

struct cpu_key {
	const char *key;
	int version;		/* 0: both */
	unsigned int flag;
	size_t off;
	uint64_t mul;		/* to ns (1 for counts) */
};

#define CK(k, v, f, field, m) { k, v, CGCTL_CPU_STAT_##f, offsetof(struct cgctl_cpu_stat, field), m }
static const struct cpu_key cpu_keys[] = {
	CK("usage_usec", 2, USAGE, usage_ns, NSEC_PER_USEC),
	CK("user_usec", 2, USER, user_ns, NSEC_PER_USEC),
	CK("system_usec", 2, SYSTEM, system_ns, NSEC_PER_USEC),
	CK("nr_periods", 0, NR_PERIODS, nr_periods, 1),
	CK("nr_throttled", 0, NR_THROTTLED, nr_throttled, 1),
	CK("throttled_time", 1, THROTTLED, throttled_ns, 1),
	CK("throttled_usec", 2, THROTTLED, throttled_ns, NSEC_PER_USEC),
	CK("nr_bursts", 0, NR_BURSTS, nr_bursts, 1),
	CK("burst_time", 1, BURST, burst_ns, 1),
	CK("burst_usec", 2, BURST, burst_ns, NSEC_PER_USEC),
};
#undef CK

struct cpu_walk {
	struct cgctl_cpu_stat st;
	int version;
};

static int cpu_stat_cb(const struct cgctl_kv *kv, void *data)
{
	struct cpu_walk *w = data;

	for (size_t i = 0; i < sizeof(cpu_keys) / sizeof(cpu_keys[0]); i++) {
		const struct cpu_key *k = &cpu_keys[i];
		uint64_t v;
		int r;

		if ((k->version && k->version != w->version) || strcmp(kv->key, k->key) != 0)
			continue;
		r = parse_span_u64((struct span){ kv->value, strlen(kv->value) }, &v);
		if (r < 0)
			return r;
		r = parse_mul_u64(v, k->mul, (uint64_t *)((char *)&w->st + k->off));
		if (r < 0)
			return r;
		w->st.present |= k->flag;
		return 0;
	}
	return 0;	/* wait_sum, core_sched.force_idle_usec, ...: not ours */
}

int cgctl_parse_cpu_stat(const char *buf, size_t len, int version,
			 struct cgctl_cpu_stat *st)
{
	struct cpu_walk w;
	int r;

	if (!st || (version != 1 && version != 2))
		return -EINVAL;
	w.st = *st;
	w.version = version;
	r = cgctl_parse_keyed(buf, len, cpu_stat_cb, &w);
	if (r < 0)
		return r;
	*st = w.st;
	return 0;
}

int cgctl_parse_cpuacct_usage(const char *buf, size_t len,
					   struct cgctl_cpu_stat *st)
{
	uint64_t v;
	int r;

	if (!st)
		return -EINVAL;
	r = cgctl_parse_u64(buf, len, &v);
	if (r < 0)
		return r;
	st->usage_ns = v;
	st->present |= CGCTL_CPU_STAT_USAGE;
	return 0;
}

/* USER_HZ ticks to ns without losing precision when NSEC_PER_SEC % hz != 0. */
static int ticks_to_ns(uint64_t ticks, unsigned long hz, uint64_t *ns)
{
	unsigned __int128 v = (unsigned __int128)ticks * NSEC_PER_SEC / hz;

	if (v > UINT64_MAX)
		return -ERANGE;
	*ns = (uint64_t)v;
	return 0;
}

/* cpuacct.stat: kernel/sched/cpuacct.c:cpuacct_stats_show() prints "user" and
 * "system" in USER_HZ (nsec_to_clock_t()). */
int cgctl_parse_cpuacct_stat(const char *buf, size_t len, unsigned long user_hz,
			     struct cgctl_cpu_stat *st)
{
	uint64_t user = 0, sys = 0, user_ns = 0, sys_ns = 0;
	int r;

	if (!st || !user_hz)
		return -EINVAL;
	r = cgctl_parse_keyed_u64(buf, len, "user", &user);
	if (r == 0)
		r = cgctl_parse_keyed_u64(buf, len, "system", &sys);
	if (r == -ENOENT)
		return -EINVAL;
	if (r == 0)
		r = ticks_to_ns(user, user_hz, &user_ns);
	if (r == 0)
		r = ticks_to_ns(sys, user_hz, &sys_ns);
	if (r < 0)
		return r;
	st->user_ns = user_ns;
	st->system_ns = sys_ns;
	st->present |= CGCTL_CPU_STAT_USER | CGCTL_CPU_STAT_SYSTEM;
	return 0;
}

/* cpu.max: kernel/sched/core.c:cpu_max_show() prints "max" or the quota, a space and
 * the period; cpu_max_write() also accepts a quota alone.  Both in µs. */
int cgctl_parse_cpu_max(const char *buf, size_t len, uint64_t *quota_us,
			uint64_t *period_us)
{
	struct span s = parse_whole(buf, len), q, p = { NULL, 0 }, extra;
	uint64_t quota, period = 0;
	int r;

	if (!quota_us || !period_us || span_has_nul(s))
		return -EINVAL;
	if (!parse_token(&s, &q))
		return -EINVAL;
	if (parse_token(&s, &p) && parse_token(&s, &extra))
		return -EINVAL;
	if (span_eq(q, "max")) {
		quota = UINT64_MAX;
	} else {
		r = parse_span_u64(q, &quota);
		if (r < 0)
			return r;
	}
	if (p.p) {
		r = parse_span_u64(p, &period);
		if (r < 0)
			return r;
	}
	*quota_us = quota;
	*period_us = period;
	return 0;
}

/* cpu.cfs_quota_us: kernel/sched/core.c:tg_get_cfs_quota() reads -1 for
 * RUNTIME_INF; tg_set_cfs_quota() takes any negative value as unlimited. */
int cgctl_parse_cfs_quota(const char *buf, size_t len, uint64_t *quota_us)
{
	int64_t v;
	int r;

	if (!quota_us)
		return -EINVAL;
	r = parse_span_s64(parse_whole(buf, len), &v);
	if (r < 0)
		return r;
	*quota_us = v < 0 ? UINT64_MAX : (uint64_t)v;
	return 0;
}

/*
 * v1 shows an unlimited page counter as PAGE_COUNTER_MAX * PAGE_SIZE
 * (mm/memcontrol-v1.c:mem_cgroup_read_u64(); PAGE_COUNTER_MAX is LONG_MAX / PAGE_SIZE),
 * i.e. LONG_MAX rounded down to a page: 9223372036854771712 with 4 KiB pages.  Any
 * value that close to LONG_MAX (pages up to 64 KiB) is unlimited.
 */
#define V1_UNLIMITED_MIN ((uint64_t)INT64_MAX - 65535)

CGCTL_EXPORT int cgctl_parse_mem_limit(const char *buf, size_t len, uint64_t *bytes)
{
	struct span s = parse_whole(buf, len);
	uint64_t v;
	int r;

	if (!bytes)
		return -EINVAL;
	if (span_eq(s, "max") || span_eq(s, "-1")) {
		*bytes = UINT64_MAX;
		return 0;
	}
	r = parse_span_u64(s, &v);
	if (r < 0)
		return r;
	*bytes = v >= V1_UNLIMITED_MIN ? UINT64_MAX : v;
	return 0;
}
