/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the memcg model's control files print, and model state in and out.
 * mirrors mm/memcontrol-v1.c:mem_cgroup_read_u64() (v6.18), mm/memcontrol.c:
 * mem_cgroup_usage(), memory_current_read(), memory_max_show(), memory_peak_show(),
 * __memory_events_show() (v6.18) and mem_cgroup_read() (v2.6.33)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/memcg.h"
#include "engine/stock.h"

static void counter_out(const struct cg_counter *c, struct cgctl_memcg_counter *o)
{
	*o = (struct cgctl_memcg_counter){ c->usage, c->max, c->watermark, c->failcnt };
}

static void counter_in(struct cg_counter *c, const struct cgctl_memcg_counter *o)
{
	c->usage = o->usage;
	c->max = o->max;
	c->watermark = MAX(o->watermark, o->usage);
	c->failcnt = o->failcnt;
}

int cgctl_memcg_get(const struct cgctl_memcg_tree *t, int id,
		    struct cgctl_memcg_state *s)
{
	const struct mg *m = t ? mg_get(t, id) : NULL;

	if (!m || !s)
		return -EINVAL;
	*s = (struct cgctl_memcg_state){ .charged = m->charged, .swap = m->swap,
					 .events_max = m->events_max,
					 .events_oom = m->events_oom,
					 .move_charge = m->move_charge,
					 .use_hierarchy = m->use_hierarchy };
	counter_out(&m->memory, &s->memory);
	counter_out(&m->memsw, &s->memsw);
	s->stock = mg_stock_of(t, id, -1);
	return 0;
}

int cgctl_memcg_seed(struct cgctl_memcg_tree *t, int id,
		     const struct cgctl_memcg_state *s)
{
	struct mg *m = t ? mg_get(t, id) : NULL;
	uint64_t kids = 0;

	if (!m || !s)
		return -EINVAL;
	counter_in(&m->memory, &s->memory);
	counter_in(&m->memsw, &s->memsw);
	for (unsigned int i = 0; i < t->n; i++)
		if (t->mg[i]->parent == id && m->use_hierarchy)
			kids += t->mg[i]->memory.usage;
	m->charged = s->charged ? s->charged : m->memory.usage - MIN(kids, m->memory.usage);
	m->swap = s->swap;
	if (!m->swap && mg_memsw(t) && m->memsw.usage > m->memory.usage)
		m->swap = m->memsw.usage - m->memory.usage;
	return 0;
}

/* mirrors mm/memcontrol-v1.c:mem_cgroup_usage() (v6.18: global file + anon pages) and
 * v2.6.33 (cache + rss over the root's use_hierarchy subtree): the root's usage is a
 * statistic, not its counter. */
static uint64_t root_usage(const struct cgctl_memcg_tree *t, bool swap)
{
	uint64_t sum = 0;
	bool all = t->era.page_counter || t->mg[0]->use_hierarchy;

	for (unsigned int i = 0; i < (all ? t->n : 1); i++)
		sum += t->mg[i]->charged + (swap ? t->mg[i]->swap : 0);
	return sum;
}

static uint64_t limit_bytes(const struct cgctl_memcg_tree *t, uint64_t pages)
{
	return pages == CGCTL_MEMCG_UNLIMITED ? t->era.unlimited_v1 : pages * CGCTL_PAGE_SIZE;
}

/* v1 "memory.*" and "memory.memsw.*" counter files; -ENOENT for anything else */
static int v1_counter_file(const struct cgctl_memcg_tree *t, const struct mg *m,
			   const char *f, uint64_t *v)
{
	bool memsw = !strncmp(f, "memsw.", 6);
	const struct cg_counter *c = memsw ? &m->memsw : &m->memory;

	if (memsw && !mg_memsw(t))
		return -ENOENT;
	f += memsw ? 6 : 0;
	if (!strcmp(f, "usage_in_bytes"))
		*v = (m->parent < 0 ? root_usage(t, memsw) : c->usage) * CGCTL_PAGE_SIZE;
	else if (!strcmp(f, "max_usage_in_bytes"))
		*v = c->watermark * CGCTL_PAGE_SIZE;
	else if (!strcmp(f, "failcnt"))
		*v = c->failcnt;
	else if (!strcmp(f, "limit_in_bytes"))
		*v = limit_bytes(t, c->max);
	else if (!memsw && !strcmp(f, "soft_limit_in_bytes"))
		*v = limit_bytes(t, m->soft_limit);
	else if (!memsw && !strcmp(f, "use_hierarchy"))
		*v = m->use_hierarchy;
	else if (!memsw && !strcmp(f, "move_charge_at_immigrate") &&
		 t->era.kver >= CGCTL_KVER(2, 6, 34))
		*v = m->move_charge;
	else
		return -ENOENT;
	return 0;
}

static uint64_t subtree_events(const struct cgctl_memcg_tree *t, int id, bool oom)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < t->n; i++)
		if (mg_is_descendant(t, (int)i, id))
			sum += oom ? t->mg[i]->events_oom : t->mg[i]->events_max;
	return sum;
}

static int v2_file(const struct cgctl_memcg_tree *t, const struct mg *m, const char *f,
		   char *buf, size_t len)
{
	if (m->parent < 0)	/* CFTYPE_NOT_ON_ROOT */
		return -ENOENT;
	if (!strcmp(f, "current"))
		return snprintf(buf, len, "%" PRIu64 "\n", m->memory.usage * CGCTL_PAGE_SIZE);
	if (!strcmp(f, "peak") && t->era.kver >= CGCTL_KVER(5, 19, 0))
		return snprintf(buf, len, "%" PRIu64 "\n",
				m->memory.watermark * CGCTL_PAGE_SIZE);
	if (!strcmp(f, "max")) {
		if (m->memory.max == CGCTL_MEMCG_UNLIMITED)
			return snprintf(buf, len, "max\n");
		return snprintf(buf, len, "%" PRIu64 "\n", m->memory.max * CGCTL_PAGE_SIZE);
	}
	if (!strcmp(f, "events"))
		return snprintf(buf, len, "low 0\nhigh 0\nmax %" PRIu64 "\noom %" PRIu64
				"\noom_kill 0\n", subtree_events(t, m->id, false),
				subtree_events(t, m->id, true));
	return -ENOENT;
}

int cgctl_memcg_file(const struct cgctl_memcg_tree *t, int id, const char *name,
		     char *buf, size_t len)
{
	const struct mg *m = t ? mg_get(t, id) : NULL;
	uint64_t v;
	int r;

	if (!m || !name || (!buf && len))
		return -EINVAL;
	if (strncmp(name, "memory.", 7))
		return -ENOENT;
	if (mg_is_v2(t))
		return v2_file(t, m, name + 7, buf, len);
	r = v1_counter_file(t, m, name + 7, &v);
	if (r < 0)
		return r;
	return snprintf(buf, len, "%" PRIu64 "\n", v);
}

int cgctl_memcg_true_interval(const struct cgctl_memcg_tree *t, int id,
			      uint64_t *lo, uint64_t *hi)
{
	const struct mg *m = t ? mg_get(t, id) : NULL;
	int nsub;

	if (!m)
		return -EINVAL;
	if (m->parent < 0) {	/* a statistic: no stock in it */
		if (!lo || !hi)
			return -EINVAL;
		*lo = *hi = root_usage(t, false);
		return 0;
	}
	nsub = cgctl_memcg_subtree_size(t, id);
	return mg_usage_interval(t->era.kver, t->ncpu, (unsigned int)nsub, m->memory.usage, lo,
				 hi);
}
