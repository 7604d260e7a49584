/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing of PSI (memory/cpu.pressure) and memory.events for mem show and bw show. */
#include <stddef.h>

#include "pressure.h"

static void emit_line(struct out *o, const char *key, const struct cgctl_psi_line *l)
{
	if (!l->present) {
		out_null(o, key);	/* cpu "full" before 5.13 */
		return;
	}
	out_obj_begin(o, key);
	out_double(o, "avg10", l->avg10 / 100.0, 2);
	out_double(o, "avg60", l->avg60 / 100.0, 2);
	out_double(o, "avg300", l->avg300 / 100.0, 2);
	out_usec(o, "total_us", l->total_us > UINT64_MAX / 1000 ? UINT64_MAX - 1 :
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
	static const struct {
		const char *key;
		unsigned int bit;
		size_t off;
	} f[] = {
		{ "low", CGCTL_MEMEV_LOW, offsetof(struct cgctl_mem_events, low) },
		{ "high", CGCTL_MEMEV_HIGH, offsetof(struct cgctl_mem_events, high) },
		{ "max", CGCTL_MEMEV_MAX, offsetof(struct cgctl_mem_events, max) },
		{ "oom", CGCTL_MEMEV_OOM, offsetof(struct cgctl_mem_events, oom) },
		{ "oom_kill", CGCTL_MEMEV_OOM_KILL, offsetof(struct cgctl_mem_events, oom_kill) },
		{ "oom_group_kill", CGCTL_MEMEV_OOM_GROUP_KILL,
		  offsetof(struct cgctl_mem_events, oom_group_kill) },
		{ "sock_throttled", CGCTL_MEMEV_SOCK_THROTTLED,
		  offsetof(struct cgctl_mem_events, sock_throttled) },
	};

	if (r < 0) {
		out_null(o, key);
		return;
	}
	out_obj_begin(o, key);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (ev->present & f[i].bit)
			out_u64(o, f[i].key, *(const uint64_t *)((const char *)ev + f[i].off));
		else
			out_null(o, f[i].key);
	}
	out_obj_end(o);
}
