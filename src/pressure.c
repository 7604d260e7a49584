/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing of PSI (memory/cpu.pressure) and memory.events for mem show and bw show. */
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

static void emit_line(struct out *o, const char *key, const struct cgctl_psi_line *l)
{
	const uint64_t v[4] = { l->avg10, l->avg60, l->avg300, l->total_us };

	emit_vals(o, key, l->present ? v : NULL);
}

void emit_psi(struct out *o, const char *key, int r, const struct cgctl_psi *p)
{
	if (r < 0) {
		out_null(o, key);
		return;
	}
	out_obj_begin(o, key);
	emit_line(o, "some", &p->some);
	emit_line(o, "full", &p->full);
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

void emit_mem_events(struct out *o, const char *key, int r, const struct cgctl_mem_events *ev)
{
	if (r < 0) {
		out_null(o, key);
		return;
	}
	out_obj_begin(o, key);
	for (unsigned int i = 0; i < CGCTL_MEMEV_NR; i++) {
		if (ev->present & (1u << i))
			out_u64(o, cgctl_mem_event_name(i), ev->count[i]);
		else
			out_null(o, cgctl_mem_event_name(i));
	}
	out_obj_end(o);
}
