/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGCTL_STAT_OPENMETRICS_H
#define CGCTL_STAT_OPENMETRICS_H
#include "cgctl.h"

/* What `cgctl stat` read of one PATH (rm/rc: 0 when that side was read). */
struct stat_om_row {
	const char *path;
	int rm, rc;
	struct cgctl_memstat ms;
	struct cgctl_cpubw bw;
	char unit[256];		/* systemd's unit that owns it: a "unit" label; "": none */
};
/* Print @rows in the OpenMetrics text format on @fp.  Returns: 0, -1 (write error). */
int stat_openmetrics(FILE *fp, const struct stat_om_row *rows, size_t n);
#endif
