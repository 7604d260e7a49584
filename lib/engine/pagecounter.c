/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hierarchical page counter.
 * mirrors mm/page_counter.c (v6.18) and kernel/res_counter.c (v2.6.33)
 */
#include <errno.h>
#include <stddef.h>

#include "engine/pagecounter.h"

void cg_counter_init(struct cg_counter *c, struct cg_counter *parent, bool track_failcnt)
{
	*c = (struct cg_counter){ .max = UINT64_MAX, .parent = parent,
				  .track_failcnt = track_failcnt };
}

/* usage + n > max, without overflow; forced charges may have left usage above max. */
static bool over_limit(const struct cg_counter *c, uint64_t n)
{
	return c->usage > c->max || n > c->max - c->usage;
}

static void raise_watermark(struct cg_counter *c)
{
	if (c->usage > c->watermark)
		c->watermark = c->usage;
}

/*
 * mirrors mm/page_counter.c:page_counter_try_charge() (v6.18) and
 * kernel/res_counter.c:res_counter_charge() (v2.6.33): charge every level up to the
 * root; at the first level whose limit would be exceeded count a failure (if the
 * charging leaf tracks failcnt, which is always true before 6.15), then cancel the
 * levels below.  Their watermarks stay raised: that is how a child's max_usage can
 * exceed its parent's limit.
 */
bool cg_counter_try_charge(struct cg_counter *c, uint64_t n, struct cg_counter **fail)
{
	struct cg_counter *i;

	for (i = c; i; i = i->parent) {
		if (over_limit(i, n)) {
			if (c->track_failcnt)
				i->failcnt++;
			*fail = i;
			for (struct cg_counter *j = c; j != i; j = j->parent)
				j->usage -= n;
			return false;
		}
		i->usage += n;
		raise_watermark(i);
	}
	*fail = NULL;
	return true;
}

/* mirrors mm/page_counter.c:page_counter_charge() (v6.18): no limit check. */
void cg_counter_charge(struct cg_counter *c, uint64_t n)
{
	for (; c; c = c->parent) {
		c->usage += n;
		raise_watermark(c);
	}
}

/* mirrors mm/page_counter.c:page_counter_uncharge()/page_counter_cancel() (v6.18):
 * the kernel WARNs and clamps at 0 on underflow. */
void cg_counter_uncharge(struct cg_counter *c, uint64_t n)
{
	for (; c; c = c->parent)
		c->usage -= n < c->usage ? n : c->usage;
}

/* mirrors mm/page_counter.c:page_counter_set_max() (v6.18): refused while usage is
 * above the new limit; the caller drains and reclaims and tries again. */
int cg_counter_set_max(struct cg_counter *c, uint64_t max)
{
	if (c->usage > max)
		return -EBUSY;
	c->max = max;
	return 0;
}

/* mirrors mm/memcontrol.c:mem_cgroup_margin() (v6.18), one counter */
uint64_t cg_counter_margin(const struct cg_counter *c)
{
	return c->usage >= c->max ? 0 : c->max - c->usage;
}
