/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing of PSI (memory/cpu.pressure) and memory.events for mem show and bw show, from
 * a struct cgctl_cgroup_stat snapshot. */
#include "pressure.h"

/* One line of a pressure file: avg10, avg60, avg300 (hundredths of a percent),
 * total_us; @v NULL: absent (null) */
static void emit_vals(struct out *o, const char *key, const uint64_t *v)
{
	if (!v) {
		out_null(o, key);	/* cpu "full" before 5.13 */
		return;
	}
	out_obj_begin(o, key);
	/* the kernel's percentages (hundredths of one) as ratios */
	out_double(o, "avg10_ratio", (double)(uint32_t)v[0] / 10000.0, 4);
	out_double(o, "avg60_ratio", (double)(uint32_t)v[1] / 10000.0, 4);
	out_double(o, "avg300_ratio", (double)(uint32_t)v[2] / 10000.0, 4);
	out_usec(o, "total_usec", v[3] > UINT64_MAX / 1000 ? UINT64_MAX - 1 : v[3] * 1000);
	out_obj_end(o);
}

/* One line of a pressure file from a snapshot: @prefix "memory.pressure.some." */
static void emit_line_stat(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
			   const char *prefix)
{
	static const char *const f[] = { "avg10", "avg60", "avg300", "total_us" };
	uint64_t v[4];
	char k[128];

	for (size_t i = 0; i < 4; i++) {
		snprintf(k, sizeof(k), "%s%s", prefix, f[i]);
		if (cgctl_cgroup_stat_get(st, k, &v[i]) < 0) {
			emit_vals(o, key, NULL);	/* absent: null */
			return;
		}
	}
	emit_vals(o, key, v);
}

void emit_psi_stat(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
		   const char *prefix)
{
	char some[96], full[96];
	uint64_t v;

	snprintf(some, sizeof(some), "%ssome.", prefix);
	snprintf(full, sizeof(full), "%sfull.", prefix);
	/* the file was not read (PSI off, v1): its "some" line, always there, is absent */
	{
		char k[128];

		snprintf(k, sizeof(k), "%stotal_us", some);
		if (!st || cgctl_cgroup_stat_get(st, k, &v) < 0) {
			out_null(o, key);
			return;
		}
	}
	out_obj_begin(o, key);
	emit_line_stat(o, "some", st, some);
	emit_line_stat(o, "full", st, full);
	out_obj_end(o);
}

/* memory.events' keys as the kernel prints them (mm/memcontrol.c
 * __memory_events_show(), v6.12): oom_kill 4.13+, oom_group_kill 5.16+, sock_throttled
 * 6.10+ */
static const char *const mem_event_keys[] = { "low", "high", "max", "oom", "oom_kill",
					      "oom_group_kill", "sock_throttled" };

void emit_mem_events_stat(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
			  const char *prefix)
{
	char k[96];
	uint64_t v;

	/* the file was not read (or is malformed): its "low" line, always there, is absent */
	snprintf(k, sizeof(k), "%slow", prefix);
	if (!st || cgctl_cgroup_stat_get(st, k, &v) < 0) {
		out_null(o, key);
		return;
	}
	out_obj_begin(o, key);
	for (size_t i = 0; i < sizeof(mem_event_keys) / sizeof(mem_event_keys[0]); i++) {
		snprintf(k, sizeof(k), "%s%s", prefix, mem_event_keys[i]);
		if (cgctl_cgroup_stat_get(st, k, &v) == 0)
			out_u64(o, mem_event_keys[i], v);
		else
			out_null(o, mem_event_keys[i]);
	}
	out_obj_end(o);
}
