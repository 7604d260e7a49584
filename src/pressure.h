/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGCTL_SRC_PRESSURE_H
#define CGCTL_SRC_PRESSURE_H

#include "cgctl.h"

/* "pressure": {"some": {...}, "full": {...}} of a snapshot's "@prefix{some,full}.*"
 * figures ("memory.pressure."): null when @st is NULL or has no such figures. */
void emit_psi_stat(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
		   const char *prefix);
/* "events": {"low": N, ...} of a snapshot's "@prefix*" figures ("memory.events."):
 * every known key, null where this kernel does not print it; the whole object null
 * when @st is NULL or the file was not read. */
void emit_mem_events_stat(struct out *o, const char *key, const struct cgctl_cgroup_stat *st,
			  const char *prefix);

#endif
