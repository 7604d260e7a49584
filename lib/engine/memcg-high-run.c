/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A model run of workloads under memory.high/max/low/min/swap.max: the tasks take turns
 * in time order; each turn charges one chunk (a fault, a read()) page by page and then
 * returns to user, where mem_cgroup_handle_over_high() runs.  Time: each page costs
 * alloc_ns of CPU, reclaim costs per page reclaimed, throttling sleeps cost their
 * jiffies; a task with a rate waits for it.  Tasks run in parallel (one per CPU, more
 * tasks than CPUs are not slowed: the model has no scheduler).
 */
#include <stdlib.h>
#include <string.h>

#include "engine/memcg-high.h"
#include "util/error.h"

#define SEC 1000000000ULL

static int check_limits(const struct cgctl_memhigh_limits *l, unsigned int i,
			struct cgctl_error *e)
{
	/* the kernel accepts 0, but no task of the model could then charge a page */
	if (!l->max)
		return cgctl_error_set(e, EINVAL, "group %u: memory.max 0 leaves no room",
				       i);
	return 0;
}

static int check_config(const struct cgctl_memhigh_config *c, struct cgctl_error *e)
{
	if (!c->ngroups || c->ngroups > MH_MAX_GROUPS || !c->groups)
		return cgctl_error_set(e, EINVAL, "1 to %d groups", MH_MAX_GROUPS);
	if (!c->ncpus || c->ncpus > MH_MAX_CPUS)
		return cgctl_error_set(e, EINVAL, "CPUs: %u is not in 1..%d", c->ncpus,
				       MH_MAX_CPUS);
	if (c->hz != 100 && c->hz != 250 && c->hz != 300 && c->hz != 1000)
		return cgctl_error_set(e, EINVAL, "HZ %u: not 100, 250, 300 or 1000",
				       c->hz);
	for (unsigned int i = 0; i < c->ngroups; i++) {
		int p = c->groups[i].parent;

		if (p >= (int)i || p < -1)
			return cgctl_error_set(e, EINVAL,
					       "group %u: its parent must come first", i);
		if (check_limits(&c->groups[i].lim, i, e) < 0)
			return -EINVAL;
	}
	if (c->lru > CGCTL_MEMHIGH_LRU_GEN)
		return cgctl_error_set(e, EINVAL, "LRU %u: not default, classic or gen",
				       c->lru);
	if (c->nworkloads && !c->workloads)
		return cgctl_error_set(e, EINVAL, "no workloads");
	for (unsigned int i = 0; i < c->nworkloads; i++) {
		const struct cgctl_memhigh_workload *w = &c->workloads[i];

		if (w->group < 0 || w->group >= (int)c->ngroups)
			return cgctl_error_set(e, EINVAL, "workload %u: no group %d", i,
					       w->group);
		if (w->kind > CGCTL_MEMHIGH_FILE)
			return cgctl_error_set(e, EINVAL, "workload %u: kind %u", i,
					       w->kind);
		if (!w->threads || !w->size_pages || w->size_pages > (1ULL << 40))
			return cgctl_error_set(e, EINVAL,
					       "workload %u: no threads or size", i);
	}
	return 0;
}

static int add_tasks(struct cgctl_memhigh_run *r)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < r->cfg.nworkloads; i++)
		n += r->cfg.workloads[i].threads;
	if (n > MH_MAX_TASKS)
		return -EINVAL;
	r->tasks = calloc(n ? n : 1, sizeof(*r->tasks));
	if (!r->tasks)
		return -ENOMEM;
	for (unsigned int i = 0; i < r->cfg.nworkloads; i++) {
		const struct cgctl_memhigh_workload *w = &r->cfg.workloads[i];

		for (unsigned int k = 0; k < w->threads; k++) {
			struct mh_task *tk = &r->tasks[r->ntasks];

			*tk = (struct mh_task){
			    .group = w->group,
			    .cpu = r->ntasks % r->cfg.ncpus,
			    .kind = w->kind,
			    .size = w->size_pages,
			    .rate = w->rate_pages,
			    .start_ns = w->start_ns,
			    .t = w->start_ns,
			    .stay = w->stay,
			    .chunk = w->chunk_pages		     ? w->chunk_pages
				     : w->kind == CGCTL_MEMHIGH_ANON ? 1
								     : 32,
			};
			r->ntasks++;
		}
	}
	return 0;
}

static int setup(struct cgctl_memhigh_run *r, const struct cgctl_memhigh_config *c)
{
	size_t nslots;

	r->cfg = *c;
	if (!r->cfg.alloc_ns)
		r->cfg.alloc_ns = 250;
	if (!r->cfg.reclaim_file_ns)
		r->cfg.reclaim_file_ns = 100;
	if (!r->cfg.reclaim_anon_ns)
		r->cfg.reclaim_anon_ns = 2000;
	if (!r->cfg.limit_ns) { /* an hour after the last workload starts */
		r->cfg.limit_ns = 3600 * SEC;
		for (unsigned int i = 0; i < c->nworkloads; i++)
			if (c->workloads[i].start_ns + 3600 * SEC > r->cfg.limit_ns)
				r->cfg.limit_ns = c->workloads[i].start_ns + 3600 * SEC;
	}
	r->lru_gen = c->lru == CGCTL_MEMHIGH_LRU_DEFAULT ? r->era.lru_gen
						       : c->lru == CGCTL_MEMHIGH_LRU_GEN;
	r->swap_free = c->swap_free;
	r->ngroups = c->ngroups;
	for (unsigned int i = 0; i < c->ngroups; i++) {
		r->g[i].parent = c->groups[i].parent;
		r->g[i].lim = c->groups[i].lim;
		r->g[i].file = c->groups[i].file;
		r->g[i].anon = c->groups[i].anon;
		mh_counter_add(r, (int)i,
			       (int64_t)(c->groups[i].file + c->groups[i].anon));
	}
	nslots = (size_t)c->ncpus * r->era.stock_slots;
	r->stock = malloc(nslots * sizeof(*r->stock));
	if (!r->stock)
		return -ENOMEM;
	for (size_t i = 0; i < nslots; i++)
		r->stock[i] = (struct mh_slot){-1, 0};
	return add_tasks(r);
}

static int sample_group(struct cgctl_memhigh_run *r, unsigned int gi, uint64_t t)
{
	struct mh_group *c = &r->g[gi];
	struct cgctl_memhigh_sample *s;
	unsigned int sleeping = 0;

	if (c->nsamples == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;

		s = realloc(c->samples, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		c->samples = s;
		c->cap = cap;
	}
	for (unsigned int i = 0; i < r->ntasks; i++)
		if (mh_in_subtree(r, r->tasks[i].group, (int)gi) &&
		    r->tasks[i].sleep_end > t && !r->tasks[i].dead)
			sleeping++;
	c->samples[c->nsamples++] = (struct cgctl_memhigh_sample){
	    .t_ns = t,
	    .current = c->usage,
	    .ev_high = c->res.ev_high,
	    .stall_ns = c->res.stall_ns,
	    .sleeping = sleeping,
	};
	return 0;
}

static int sample_until(struct cgctl_memhigh_run *r, uint64_t t)
{
	if (!r->cfg.sample_ns)
		return 0;
	while (r->next_sample <= t) {
		for (unsigned int i = 0; i < r->ngroups; i++)
			if (sample_group(r, i, r->next_sample) < 0)
				return -ENOMEM;
		r->next_sample += r->cfg.sample_ns;
	}
	return 0;
}

static struct mh_task *next_task(struct cgctl_memhigh_run *r)
{
	struct mh_task *best = NULL;

	for (unsigned int i = 0; i < r->ntasks; i++) {
		struct mh_task *tk = &r->tasks[i];

		if (!tk->finished && (!best || tk->t < best->t))
			best = tk;
	}
	return best;
}

static void finish(struct cgctl_memhigh_run *r, struct mh_task *tk)
{
	struct mh_group *c = &r->g[tk->group];

	tk->finished = true;
	if (!tk->stay)
		mh_free_task(r, tk); /* exit_mmap() uncharges anon and swap */
	if (tk->t > c->res.end_ns)
		c->res.end_ns = tk->t;
}

/* one turn: a chunk of pages, then the return to user */
static void turn(struct cgctl_memhigh_run *r, struct mh_task *tk)
{
	uint64_t n = tk->size - tk->done < tk->chunk ? tk->size - tk->done : tk->chunk;

	for (uint64_t i = 0; i < n && !tk->dead; i++) {
		if (mh_charge(r, tk, 1) < 0) {
			tk->dead = true; /* killed (or no victim: the fault fails) */
			break;
		}
		if (tk->kind == CGCTL_MEMHIGH_ANON) {
			r->g[tk->group].anon++;
			tk->anon++;
		} else {
			r->g[tk->group].file++;
		}
		tk->done++;
		tk->t += r->cfg.alloc_ns;
	}
	if (!tk->dead)
		mh_handle_over_high(r, tk); /* resume_user_mode_work() */
	if (tk->rate && !tk->dead) {
		uint64_t due = tk->start_ns +
			       (uint64_t)((unsigned __int128)tk->done * SEC / tk->rate);

		tk->t = due > tk->t ? due : tk->t;
	}
	if (tk->dead || tk->done >= tk->size || tk->t >= r->cfg.limit_ns)
		finish(r, tk);
}

static int simulate(struct cgctl_memhigh_run *r)
{
	struct mh_task *tk;
	uint64_t end = 0;

	while ((tk = next_task(r))) {
		if (sample_until(r, tk->t) < 0)
			return -ENOMEM;
		turn(r, tk);
		end = tk->t > end ? tk->t : end;
	}
	return sample_until(r, end);
}

static void collect(struct cgctl_memhigh_run *r)
{
	for (unsigned int i = 0; i < r->ngroups; i++) {
		struct mh_group *c = &r->g[i];

		c->res.current = c->usage;
		c->res.file = c->file;
		c->res.anon = c->anon;
		c->res.swap = c->swap;
	}
	/* a parent's end is its last descendant's */
	for (int i = (int)r->ngroups - 1; i >= 0; i--) {
		int p = r->g[i].parent;

		if (p >= 0 && r->g[i].res.end_ns > r->g[p].res.end_ns)
			r->g[p].res.end_ns = r->g[i].res.end_ns;
	}
}

int cgctl_memhigh_run(const struct cgctl_memhigh_config *cfg,
		      struct cgctl_memhigh_run **ret, struct cgctl_error *e)
{
	struct cgctl_memhigh_run *r;
	int err;

	if (!cfg || !ret)
		return cgctl_error_set(e, EINVAL, "no configuration");
	if (cfg->size < sizeof(*cfg))
		return cgctl_error_set(e, EINVAL, "a configuration of an unknown size %zu",
				       cfg->size);
	err = check_config(cfg, e);
	if (err < 0)
		return err;
	r = calloc(1, sizeof(*r));
	if (!r)
		return cgctl_error_set(e, ENOMEM, "out of memory");
	if (cgctl_memhigh_era_get(cfg->kver, &r->era) < 0) {
		free(r);
		return cgctl_error_set(e, EINVAL, "kernels before 6.1 are not modelled");
	}
	err = setup(r, cfg);
	if (!err)
		err = simulate(r);
	if (err < 0) {
		cgctl_memhigh_run_free(r);
		return cgctl_error_set(
		    e, -err, err == -ENOMEM ? "out of memory" : "at most %d tasks",
		    MH_MAX_TASKS);
	}
	collect(r);
	*ret = r;
	return 0;
}

void cgctl_memhigh_run_free(struct cgctl_memhigh_run *r)
{
	if (!r)
		return;
	for (unsigned int i = 0; i < r->ngroups; i++)
		free(r->g[i].samples);
	free(r->tasks);
	free(r->stock);
	free(r);
}

int cgctl_memhigh_run_group(const struct cgctl_memhigh_run *r, int group,
			    struct cgctl_memhigh_group_result *ret)
{
	if (!r || !ret || group < 0 || group >= (int)r->ngroups)
		return -EINVAL;
	*ret = r->g[group].res;
	return 0;
}

ssize_t cgctl_memhigh_run_samples(const struct cgctl_memhigh_run *r,
				  int group,
				  const struct cgctl_memhigh_sample **ret)
{
	if (!r || !ret || group < 0 || group >= (int)r->ngroups)
		return -EINVAL;
	*ret = r->g[group].samples;
	return (ssize_t)r->g[group].nsamples;
}
