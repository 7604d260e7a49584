/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal helpers of the /proc/zoneinfo and CPU-list readers (lib/kernel/zoneinfo.c). */
#ifndef CGCTL_KERNEL_ZONEINFO_H
#define CGCTL_KERNEL_ZONEINFO_H

#include "libcgctl.h"

/* Number of CPUs in a cpulist ("0-3,8,10-11\n").  Returns: count, -EINVAL. */
int zoneinfo_cpulist_count(const char *s);

#endif
