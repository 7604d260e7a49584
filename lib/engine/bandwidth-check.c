/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth: the write rules of tg_set_cfs_bandwidth() and the safe write order.
 * Pure: the caller passes the tree as read from cgroupfs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"

#define BW_SHIFT 20
#define U64_MAX_US (UINT64_MAX / 1000)
#define RATIO_INF UINT64_MAX

/* mirrors kernel/sched/core.c:normalize_cfs_quota() + to_ratio() (v6.12) */
static uint64_t ratio(const struct cgctl_bw_settings *bw)
{
	if (bw->quota_us == CGCTL_BW_INF)
		return RATIO_INF;
	return (bw->quota_us << BW_SHIFT) / bw->period_us;
}

static const char *cpus(char *buf, size_t len, const struct cgctl_bw_settings *bw, int prec)
{
	snprintf(buf, len, "%.*f", prec, (double)bw->quota_us / (double)bw->period_us);
	if (strchr(buf, '.')) {
		char *end = buf + strlen(buf) - 1;

		while (*end == '0')
			*end-- = '\0';
		if (*end == '.')
			*end = '\0';
	}
	return buf;
}

/* "0.6 CPU" and "0.5 CPU", with enough digits to tell them apart. */
static void cpu_pair(const struct cgctl_bw_settings *a, const struct cgctl_bw_settings *b,
		     char *ba, char *bb, size_t len)
{
	for (int prec = 3; prec <= 9; prec += 3) {
		cpus(ba, len, a, prec);
		cpus(bb, len, b, prec);
		if (strcmp(ba, bb))
			return;
	}
}

/* mirrors kernel/sched/core.c:tg_set_cfs_bandwidth() range checks (v6.12; v6.17 order) */
static int check_ranges(const struct cgctl_bw_settings *bw, struct cgctl_error *e)
{
	bool inf = bw->quota_us == CGCTL_BW_INF;

	if (bw->period_us > U64_MAX_US)
		return cgctl_error_set(e, EINVAL, "period %" PRIu64 "us overflows (U64_MAX/1000)",
				       bw->period_us);
	if (!inf && bw->quota_us > U64_MAX_US)
		return cgctl_error_set(e, EINVAL, "quota %" PRIu64 "us overflows (U64_MAX/1000)",
				       bw->quota_us);
	if (bw->burst_us > U64_MAX_US)
		return cgctl_error_set(e, EINVAL, "burst %" PRIu64 "us overflows (U64_MAX/1000)",
				       bw->burst_us);
	if (bw->period_us < 1000)
		return cgctl_error_set(e, EINVAL,
				       "period %" PRIu64 "us is below the minimum 1000us (1 ms)",
				       bw->period_us);
	if (!inf && bw->quota_us < 1000)
		return cgctl_error_set(e, EINVAL,
				       "quota %" PRIu64 "us is below the minimum 1000us (1 ms)",
				       bw->quota_us);
	if (bw->period_us > 1000000)
		return cgctl_error_set(e, EINVAL,
				       "period %" PRIu64 "us exceeds the maximum 1000000us (1 s)",
				       bw->period_us);
	if (!inf && bw->quota_us > CGCTL_BW_MAX_US)
		return cgctl_error_set(e, EINVAL,
				       "quota %" PRIu64 "us exceeds the maximum %llu"
				       "us (MAX_BW, 2^44-1)", bw->quota_us, CGCTL_BW_MAX_US);
	if (!inf && bw->burst_us > bw->quota_us)
		return cgctl_error_set(e, EINVAL, "burst %" PRIu64 "us exceeds quota %" PRIu64
				       "us; burst must not exceed quota",
				       bw->burst_us, bw->quota_us);
	if (!inf && bw->burst_us + bw->quota_us > CGCTL_BW_MAX_US)
		return cgctl_error_set(e, EINVAL, "quota %" PRIu64 "us + burst %" PRIu64
				       "us exceeds the maximum %lluus (MAX_BW, 2^44-1)",
				       bw->quota_us, bw->burst_us, CGCTL_BW_MAX_US);
	return 0;
}

static const struct cgctl_bw_settings *bw_of(const struct cgctl_bw_node *nodes,
					     size_t target,
					     const struct cgctl_bw_settings *proposed, size_t i)
{
	return i == target ? proposed : &nodes[i].bw;
}

static const char *path_of(const struct cgctl_bw_node *nodes, size_t i)
{
	return nodes[i].path ? nodes[i].path : "?";
}

static int hier_error(const struct cgctl_bw_node *nodes, size_t target,
		      const struct cgctl_bw_settings *proposed, size_t child, size_t anc,
		      struct cgctl_error *e)
{
	const struct cgctl_bw_settings *cb = bw_of(nodes, target, proposed, child);
	const struct cgctl_bw_settings *ab = bw_of(nodes, target, proposed, anc);
	const char *rel = (int)anc == nodes[child].parent ? "parent" : "ancestor";
	char c[32], a[32];

	cpu_pair(cb, ab, c, a, sizeof(c));
	if (child == target)
		return cgctl_error_set(e, EINVAL, "%s CPU exceeds %s %s's %s CPU; cgroup v1 "
				       "requires child ≤ parent", c, rel, path_of(nodes, anc), a);
	if (anc == target)
		return cgctl_error_set(e, EINVAL, "%s CPU is below descendant %s's %s CPU; "
				       "cgroup v1 requires child ≤ parent", a,
				       path_of(nodes, child), c);
	return cgctl_error_set(e, EINVAL, "%s's %s CPU exceeds %s %s's %s CPU; cgroup v1 "
			       "requires child ≤ parent", path_of(nodes, child), c, rel,
			       path_of(nodes, anc), a);
}

/*
 * mirrors kernel/sched/core.c:tg_cfs_schedulable_down() (v6.12), over the whole tree
 * with @proposed substituted, as __cfs_schedulable() walks it.
 */
static int check_tree(const struct cgctl_bw_node *nodes, size_t n, size_t target,
		      const struct cgctl_bw_settings *proposed, struct cgctl_error *e)
{
	uint64_t *h = malloc(n * sizeof(*h));
	size_t *src = malloc(n * sizeof(*src));
	int r = 0;

	if (!h || !src) {
		free(h);
		free(src);
		return -ENOMEM;
	}
	h[0] = RATIO_INF;
	src[0] = 0;
	for (size_t i = 1; i < n && !r; i++) {
		int p = nodes[i].parent;
		uint64_t q = ratio(bw_of(nodes, target, proposed, i));

		if (p < 0 || (size_t)p >= i) {
			r = cgctl_error_set(e, EINVAL, "bad tree: %s's parent comes after it",
					    path_of(nodes, i));
			break;
		}
		h[i] = h[p];
		src[i] = src[p];
		if (q == RATIO_INF)
			continue;
		if (h[p] != RATIO_INF && q > h[p]) {
			r = hier_error(nodes, target, proposed, i, src[p], e);
			break;
		}
		h[i] = q;
		src[i] = i;
	}
	free(h);
	free(src);
	return r;
}

int cgctl_bw_check(const struct cgctl_bw_node *nodes, size_t n, size_t target,
		   const struct cgctl_bw_settings *proposed, int version,
		   struct cgctl_error *e)
{
	int r;

	if (!proposed || (version != 1 && version != 2) || (n && (!nodes || target >= n)))
		return -EINVAL;
	if (n && (target == 0 || nodes[target].parent < 0))
		return cgctl_error_set(e, EINVAL,
				       "the root cgroup's CPU bandwidth cannot be set");
	r = check_ranges(proposed, e);
	if (r < 0 || version == 2 || n == 0)
		return r;
	return check_tree(nodes, n, target, proposed, e);
}
