/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing of PSI (memory/cpu.pressure) and memory.events for mem show and bw show. */
#include "pressure.h"

static void emit_line(struct out *o, const char *key, const struct cgctl_psi_line *l)
{
	if (!l->present) {
		out_null(o, key);	/* cpu "full" before 5.13 */
		return;
	}
	out_obj_begin(o, key);
	/* the kernel's percentages (hundredths of one in @l) as ratios */
	out_double(o, "avg10_ratio", l->avg10 / 10000.0, 4);
	out_double(o, "avg60_ratio", l->avg60 / 10000.0, 4);
	out_double(o, "avg300_ratio", l->avg300 / 10000.0, 4);
	out_usec(o, "total_usec", l->total_us > UINT64_MAX / 1000 ? UINT64_MAX - 1 :
		 l->total_us * 1000);
	out_obj_end(o);
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
