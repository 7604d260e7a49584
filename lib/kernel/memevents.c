/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * memory.events and memory.events.local of a cgroup v2 group, typed.  The keys are
 * mm/memcontrol.c's __memory_events_show(): low, high, max, oom, oom_kill (4.19+),
 * oom_group_kill (5.16+), sock_throttled (6.10+).  memory.events counts the subtree
 * (hierarchical since 5.2 unless the memory_localevents mount option), .local the
 * group alone (5.2+).  A key the kernel does not print stays absent (its bit clear),
 * never 0; unknown keys of a newer kernel are skipped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const names[CGCTL_MEMEV_NR] = {
	[CGCTL_MEMEV_LOW] = "low",
	[CGCTL_MEMEV_HIGH] = "high",
	[CGCTL_MEMEV_MAX] = "max",
	[CGCTL_MEMEV_OOM] = "oom",
	[CGCTL_MEMEV_OOM_KILL] = "oom_kill",
	[CGCTL_MEMEV_OOM_GROUP_KILL] = "oom_group_kill",
	[CGCTL_MEMEV_SOCK_THROTTLED] = "sock_throttled",
};

const char *cgctl_mem_event_name(enum cgctl_mem_event e)
{
	return (unsigned int)e < CGCTL_MEMEV_NR ? names[e] : NULL;
}

static int take(const struct cgctl_kv *kv, void *data)
{
	struct cgctl_mem_events *ev = data;

	for (unsigned int i = 0; i < CGCTL_MEMEV_NR; i++) {
		if (strcmp(kv->key, names[i]))
			continue;
		if (!kv->has_u || (ev->present & (1u << i)))
			return -EINVAL;	/* not a number, or a key twice */
		ev->count[i] = kv->u;
		ev->present |= 1u << i;
	}
	return 0;
}

int cgctl_mem_events_parse(const char *buf, size_t len,
			   struct cgctl_mem_events *ret)
{
	struct cgctl_mem_events ev = { .present = 0 };
	int r;

	if (!ret)
		return -EINVAL;
	r = cgctl_parse_keyed(buf, len, take, &ev);
	if (r < 0)
		return r;
	*ret = ev;
	return 0;
}

int cgctl_mem_events_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				       const char *path, bool local,
				       struct cgctl_mem_events *ret)
{
	char *buf = NULL;
	size_t len;
	int r;

	if (!ctx || !m || !path || !ret)
		return -EINVAL;
	if (m->version != 2)
		return -EOPNOTSUPP;	/* v1 has memory.failcnt and memory.oom_control */
	r = cgctl_cg_read(ctx, m, path, local ? "memory.events.local" : "memory.events",
			  &buf, &len);
	if (r < 0)
		return r;
	r = cgctl_mem_events_parse(buf, len, ret);
	free(buf);
	return r;
}

/*
 * Since 6.8 ("mm: memcg: make stats flushing threshold per-memcg") a read of
 * memory.stat flushes the per-cpu deltas only once the memcg's own subtree has more than
 * 64 x ncpu of them (memcg_vmstats_needs_flush(), 6.12 mm/memcontrol.c): a small or new
 * group reads anon 0 for pages it has.  Reading cpu.stat, a core file of every v2 group,
 * flushes the rstat of all controllers of the subtree (cgroup_base_stat_cputime_show()
 * -> cgroup_rstat_flush_hold(), 4.16+).  v1 has no such file in the memory hierarchy.
 */
CGCTL_EXPORT int cgctl_mem_stat_flush(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				      const char *path)
{
	char *buf = NULL;
	size_t len;
	int r;

	if (!ctx || !m || !path)
		return -EINVAL;
	if (m->version != 2)
		return 0;
	r = cgctl_cg_read(ctx, m, path, "cpu.stat", &buf, &len);
	free(buf);
	return r;
}

/* /sys/kernel/mm/lru_gen/enabled (6.1+, CONFIG_LRU_GEN): a hex mask whose bit 0
 * (LRU_GEN_CORE, mm/vmscan.c:enabled_show()) says reclaim runs on the multi-gen LRU;
 * without the file (CONFIG_LRU_GEN=n, older kernels) it runs on the active/inactive
 * lists. */
CGCTL_EXPORT int cgctl_lru_gen_read(struct cgctl_ctx *ctx, bool *on)
{
	char *buf = NULL, *end;
	size_t len;
	unsigned long v;
	int r;

	if (!on)
		return -EINVAL;
	r = cgctl_read_sys(ctx, "/sys/kernel/mm/lru_gen/enabled", &buf, &len);
	*on = false;
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	errno = 0;
	v = strtoul(buf, &end, 16);
	r = (end == buf || errno) ? -EINVAL : 0;
	free(buf);
	if (r == 0)
		*on = v & 1;
	return r;
}
