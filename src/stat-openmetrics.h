/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGCTL_STAT_OPENMETRICS_H
#define CGCTL_STAT_OPENMETRICS_H
#include "cgctl.h"

/* What `cgctl stat` read of one PATH: its memory and CPU snapshots (NULL: that side
 * was not read). */
struct stat_om_row {
	const char *path;
	struct cgctl_cgroup_stat *ms, *cs;
	char unit[256];		/* systemd's unit that owns it: a "unit" label; "": none */
};
/* Print @rows in the OpenMetrics text format on @fp.  Returns: 0, -1 (write error). */
int stat_openmetrics(FILE *fp, const struct stat_om_row *rows, size_t n);
#endif
