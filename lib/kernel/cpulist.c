// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Online CPUs of the system and of a NUMA node, from the kernel's cpulist files
 * (/sys/devices/system/cpu/online, .../node/nodeN/cpulist: "0-3,8,10-11", as printed
 * by lib/bitmap.c:bitmap_print_to_pagebuf() with list=true).  In libcgctl.so: cgctl
 * sizes its thread pools with cgctl_online_ncpu(); the zoneinfo reader beside it is a
 * test-only model (lib/libcgctl-models.la).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "kernel/zoneinfo.h"

/* one "a" or "a-b" element of a cpulist */
static int cpulist_elem(const char *s, char **end)
{
	long a, b;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	a = strtol(s, end, 10);
	b = a;
	if (**end == '-') {
		s = *end + 1;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		b = strtol(s, end, 10);
	}
	if (b < a || b - a >= CGCTL_PCPUC_MAX_CPUS)
		return -EINVAL;
	return (int)(b - a + 1);
}

int zoneinfo_cpulist_count(const char *s)
{
	int n = 0, r;
	char *end;

	while (*s && *s != '\n') {
		r = cpulist_elem(s, &end);
		if (r < 0 || n + r > CGCTL_PCPUC_MAX_CPUS)
			return -EINVAL;
		n += r;
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return n;
}

static int read_cpulist(struct cgctl_ctx *ctx, const char *path)
{
	char *buf = NULL;
	size_t len;
	int r;

	r = cgctl_read_sys(ctx, path, &buf, &len);
	if (r < 0)
		return r;
	r = zoneinfo_cpulist_count(buf);
	free(buf);
	return r;
}

CGCTL_EXPORT int cgctl_online_ncpu(struct cgctl_ctx *ctx)
{
	return read_cpulist(ctx, "/sys/devices/system/cpu/online");
}

CGCTL_EXPORT int cgctl_node_ncpu(struct cgctl_ctx *ctx, int node)
{
	char path[96];
	int r;

	if (node < 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	r = read_cpulist(ctx, path);
	/* !CONFIG_NUMA: one node holding every online CPU */
	if (r == -ENOENT && node == 0)
		return cgctl_online_ncpu(ctx);
	return r;
}
