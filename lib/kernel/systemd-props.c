/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgroup v2 interface file values as systemd unit properties (all D-Bus type "t"), the
 * inverse of what systemd writes for them: src/core/cgroup.c:cgroup_context_apply()
 * (v252).  Pure: no bus, no files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/systemd.h"

#define USEC_PER_SEC 1000000ULL

static const struct {
	const char *file, *prop;
} simple[] = {
	{ "memory.max",		"MemoryMax" },
	{ "memory.high",	"MemoryHigh" },
	{ "memory.low",		"MemoryLow" },
	{ "memory.min",		"MemoryMin" },
	{ "memory.swap.max",	"MemorySwapMax" },
	{ "cpu.weight",		"CPUWeight" },
};

/* "max" (CGROUP_LIMIT_MAX, USEC_INFINITY: UINT64_MAX) or a plain decimal number */
static int number(const char *s, size_t len, bool max_ok, uint64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (max_ok && !strcmp(buf, "max")) {
		*v = UINT64_MAX;
		return 0;
	}
	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

/*
 * "QUOTA PERIOD" or "max [PERIOD]".  systemd writes cpu.max as
 * CPUQuotaPerSecUSec * period / USEC_PER_SEC, rounded down (src/core/cgroup.c:
 * cgroup_apply_unified_cpu_quota(), v252); the per-second quota is rounded up so that
 * this gives back QUOTA exactly for every period up to 1 s (the kernel's largest).
 */
static int cpu_max(const char *value, struct sd_prop *p)
{
	const char *sp = strchr(value, ' ');
	size_t qlen = sp ? (size_t)(sp - value) : strlen(value);
	uint64_t quota, period = 100000;
	int r = number(value, qlen, true, &quota);

	if (r == 0 && sp)
		r = number(sp + 1, strcspn(sp + 1, "\n"), false, &period);
	if (r < 0 || !period || period > USEC_PER_SEC || (!sp && quota != UINT64_MAX))
		return -EINVAL;
	p[0].name = "CPUQuotaPerSecUSec";
	p[0].value = quota == UINT64_MAX ? UINT64_MAX :
		     (quota * USEC_PER_SEC + period - 1) / period;
	p[1].name = "CPUQuotaPeriodUSec";
	p[1].value = period;
	if (quota != UINT64_MAX && quota > UINT64_MAX / USEC_PER_SEC)
		return -ERANGE;
	return 2;
}

int sd_props_of_knob(const char *file, const char *value, struct sd_prop p[2])
{
	uint64_t v;

	if (!file || !value)
		return -EINVAL;
	if (!strcmp(file, "cpu.max"))
		return cpu_max(value, p);
	for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++) {
		if (strcmp(file, simple[i].file))
			continue;
		if (number(value, strcspn(value, "\n"), strcmp(file, "cpu.weight") != 0,
			   &v) < 0)
			return -EINVAL;
		if (!strcmp(file, "cpu.weight") && (v < 1 || v > 10000))
			return -EINVAL;
		p[0].name = simple[i].prop;
		p[0].value = v;
		return 1;
	}
	return 0;	/* no property (cpu.max.burst on systemd 252): written directly */
}
