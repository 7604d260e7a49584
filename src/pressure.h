/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGCTL_SRC_PRESSURE_H
#define CGCTL_SRC_PRESSURE_H

#include "cgctl.h"

/* "pressure": {"some": {...}, "full": {...}} of a read that returned @r (< 0: null). */
void emit_psi(struct out *o, const char *key, int r, const struct cgctl_psi *p);
/* The same of a snapshot's "@prefix{some,full}.*" figures ("memory.pressure."): null
 * when @st is NULL or has no such figures. */
void emit_psi_stat(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
		   const char *prefix);
/* "events": {"low": N, ...}: every known key, null where this kernel does not print it;
 * the whole object null when the read returned @r < 0. */
void emit_mem_events(struct out *o, const char *key, int r, const struct cgctl_mem_events *ev);

#endif
