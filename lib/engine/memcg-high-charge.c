/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The charge side of the memory.high model: try_charge_memcg() with the per-cpu stock,
 * the batch, memory.max reclaim and the OOM kill, the high check after a batch charge,
 * and mem_cgroup_handle_over_high() on return to user (Debian 6.1 and 6.12 sources,
 * mm/memcontrol.c; the two are the same here except the dying-task bail of 6.12, which
 * the model never takes: a killed task stops charging).
 */
#include "engine/memcg-high.h"

static struct mh_slot *slots(struct cgctl_memhigh_run *r, unsigned int cpu)
{
	return &r->stock[(size_t)cpu * r->era.stock_slots];
}

static void drain_slot(struct cgctl_memhigh_run *r, struct mh_slot *s)
{
	if (s->group >= 0 && s->nr)
		mh_counter_add(r, s->group, -(int64_t)s->nr);
	s->group = -1;
	s->nr = 0;
}

/* mirrors mm/memcontrol.c:consume_stock() (v6.1; v6.16+ searches 7 slots) */
static bool consume_stock(struct cgctl_memhigh_run *r, unsigned int cpu, int g,
			  uint64_t n)
{
	struct mh_slot *s = slots(r, cpu);

	if (n > r->era.batch)
		return false;
	for (unsigned int i = 0; i < r->era.stock_slots; i++)
		if (s[i].group == g && s[i].nr >= n) {
			s[i].nr -= n;
			return true;
		}
	return false;
}

/* mirrors mm/memcontrol.c:refill_stock() (v6.1): another memcg's stock is drained
 * first; a stock above MEMCG_CHARGE_BATCH is drained.  With 6.16's slots the model
 * evicts the first slot where the kernel picks one at random. */
static void refill_stock(struct cgctl_memhigh_run *r, unsigned int cpu, int g, uint64_t n)
{
	struct mh_slot *s = slots(r, cpu), *use = NULL;

	for (unsigned int i = 0; i < r->era.stock_slots && !use; i++)
		if (s[i].group == g)
			use = &s[i];
	for (unsigned int i = 0; i < r->era.stock_slots && !use; i++)
		if (s[i].group < 0)
			use = &s[i];
	if (!use) {
		use = &s[0];
		drain_slot(r, use);
	}
	use->group = g;
	use->nr += n;
	if (use->nr > r->era.batch)
		drain_slot(r, use);
}

/* mirrors mm/memcontrol.c:drain_all_stock() (v6.1): every CPU's stock of @top's subtree
 */
void mh_drain_all(struct cgctl_memhigh_run *r, int top)
{
	for (size_t i = 0; i < (size_t)r->cfg.ncpus * r->era.stock_slots; i++)
		if (r->stock[i].group >= 0 && mh_in_subtree(r, r->stock[i].group, top))
			drain_slot(r, &r->stock[i]);
}

/* page_counter_try_charge(): Returns: -1 when charged, else the group whose max failed */
static int counter_try(struct cgctl_memhigh_run *r, int g, uint64_t n)
{
	for (int p = g; p >= 0; p = r->g[p].parent)
		if (r->g[p].usage + n > r->g[p].lim.max)
			return p;
	mh_counter_add(r, g, (int64_t)n);
	return -1;
}

static uint64_t margin(const struct cgctl_memhigh_run *r, int g)
{
	const struct mh_group *c = &r->g[g];

	return c->usage < c->lim.max ? c->lim.max - c->usage : 0;
}

void mh_free_task(struct cgctl_memhigh_run *r, struct mh_task *tk)
{
	struct mh_group *c = &r->g[tk->group];

	c->anon -= tk->anon;
	c->swap -= tk->swap;
	mh_counter_add(r, tk->group, -(int64_t)tk->anon);
	for (int p = tk->group; p >= 0; p = r->g[p].parent)
		r->g[p].swap_usage -= tk->swap;
	r->swap_free += tk->swap;
	tk->anon = tk->swap = 0;
}

/* mirrors mm/oom_kill.c:select_bad_process() for a memcg (v6.12): the task of @over's
 * subtree with the most rss + swap; Returns: the victim, NULL when none has pages */
static struct mh_task *oom_victim(struct cgctl_memhigh_run *r, int over)
{
	struct mh_task *best = NULL;

	for (unsigned int i = 0; i < r->ntasks; i++) {
		struct mh_task *tk = &r->tasks[i];

		if (tk->dead || (tk->finished && !tk->stay) ||
		    !mh_in_subtree(r, tk->group, over) || tk->t < tk->start_ns)
			continue;
		if (!best || tk->anon + tk->swap > best->anon + best->swap)
			best = tk;
	}
	return best;
}

static void oom_kill(struct cgctl_memhigh_run *r, int over, struct mh_task *victim)
{
	mh_event(r, over, MH_EV_OOM);
	mh_event(r, victim->group, MH_EV_OOM_KILL);
	r->g[victim->group].res.killed++;
	victim->dead = true;
	victim->finished = true;
	mh_free_task(r, victim);
}

/* the part of try_charge_memcg() after a failed charge of @n pages at @over's max:
 * Returns: 1 to retry, 0 when @tk was killed, -1 when the charge cannot be made */
static int over_max(struct cgctl_memhigh_run *r, struct mh_task *tk, int over, uint64_t n,
		    bool *drained, unsigned int *retries)
{
	struct mh_task *victim;
	uint64_t got;

	mh_event(r, over, MH_EV_MAX);
	got = mh_try_to_free(r, over, n, tk);
	if (margin(r, over) >= n)
		return 1;
	if (!*drained) {
		mh_drain_all(r, over);
		*drained = true;
		return 1;
	}
	if (got && n <= 8) /* 1 << PAGE_ALLOC_COSTLY_ORDER */
		return 1;
	if ((*retries)--)
		return 1;
	victim = oom_victim(r, over);
	if (!victim)
		return -1;
	oom_kill(r, over, victim);
	*retries = r->era.retries;
	return victim == tk ? 0 : 1;
}

/* the high check after a batch charge (done_restock) */
static void check_high(struct cgctl_memhigh_run *r, struct mh_task *tk, uint64_t batch)
{
	for (int p = tk->group; p >= 0; p = r->g[p].parent) {
		const struct mh_group *c = &r->g[p];

		if (c->usage > c->lim.high) {
			/* current->memcg_nr_pages_over_high += batch; set_notify_resume()
			 */
			tk->over_high += (unsigned int)batch;
			break;
		}
	}
	if (tk->over_high > r->era.batch)
		mh_handle_over_high(r, tk);
}

/*
 * mirrors mm/memcontrol.c:try_charge_memcg() (v6.1, v6.12) for a user page of a task
 * (GFP_KERNEL-like: may reclaim, may OOM).  Returns: 0 charged, -ESRCH when the task
 * was OOM-killed, -ENOMEM when the OOM killer found no victim.
 */
int mh_charge(struct cgctl_memhigh_run *r, struct mh_task *tk, uint64_t n)
{
	uint64_t batch = n > r->era.batch ? n : r->era.batch;
	unsigned int retries = r->era.retries;
	bool drained = false;
	int over, k;

	for (;;) {
		if (consume_stock(r, tk->cpu, tk->group, n))
			return 0;
		over = counter_try(r, tk->group, batch);
		if (over < 0)
			break;
		if (batch > n) {
			batch = n;
			continue;
		}
		k = over_max(r, tk, over, n, &drained, &retries);
		if (k == 0)
			return -ESRCH;
		if (k < 0)
			return -ENOMEM;
	}
	if (batch > n)
		refill_stock(r, tk->cpu, tk->group, batch - n);
	check_high(r, tk, batch);
	return tk->dead ? -ESRCH : 0;
}

/* mirrors mm/memcontrol.c:reclaim_high() (v6.1, v6.12): a high event and a reclaim of
 * @nr pages at each level from the task's group up that is above its high */
static uint64_t reclaim_high(struct cgctl_memhigh_run *r, struct mh_task *tk, uint64_t nr)
{
	uint64_t got = 0;

	for (int p = tk->group; p >= 0; p = r->g[p].parent) {
		if (r->g[p].usage <= r->g[p].lim.high)
			continue;
		mh_event(r, p, MH_EV_HIGH);
		got += mh_try_to_free(r, p, nr, tk);
	}
	return got;
}

/* mirrors mm/memcontrol.c:mem_find_max_overage() (v6.1, v6.12) */
static uint64_t max_overage(const struct cgctl_memhigh_run *r, int g)
{
	uint64_t m = 0, o;

	for (; g >= 0; g = r->g[g].parent) {
		o = cgctl_memhigh_overage(r->g[g].usage, r->g[g].lim.high);
		m = o > m ? o : m;
	}
	return m;
}

/*
 * mirrors mm/memcontrol.c:mem_cgroup_handle_over_high() (v6.1, v6.12): reclaim the
 * pending pages; while the penalty is worth a sleep, retry reclaim (SWAP_CLUSTER_MAX
 * pages) as long as it makes progress or nr_retries lasts; then sleep the penalty.
 * swap.high is not modelled (its overage is 0).
 */
void mh_handle_over_high(struct cgctl_memhigh_run *r, struct mh_task *tk)
{
	unsigned int nr = tk->over_high;
	unsigned int retries = r->era.retries;
	bool in_retry = false;
	uint64_t got, pen, ns;

	if (!nr)
		return;
	tk->over_high = 0;
	for (;;) {
		got = reclaim_high(r, tk, in_retry ? CGCTL_MEMHIGH_SWAP_CLUSTER_MAX : nr);
		pen = cgctl_memhigh_penalty_jiffies(max_overage(r, tk->group), 0, nr,
						    r->cfg.hz, r->era.batch);
		if (!pen)
			return;
		if (got || retries--) {
			in_retry = true;
			continue;
		}
		break;
	}
	/* schedule_timeout_killable(penalty_jiffies) under psi_memstall */
	ns = pen * (1000000000ULL / r->cfg.hz);
	tk->t += ns;
	tk->sleep_end = tk->t;
	r->g[tk->group].res.stall_ns += ns;
	r->g[tk->group].res.sleeps++;
}
