/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth model: the placement the kernel chose, told by the caller.
 *
 * Where a thread runs decides how fast its group drains the quota on each CPU, and
 * the kernel's choice is not a function of the workload alone.  Threads woken together
 * while no CPU is idle stay on the waker's (or their previous) CPU: select_task_rq_fair()
 * -> wake_affine() picks that CPU and select_idle_sibling() finds no idle one to move
 * them to (kernel/sched/fair.c, v6.1, v6.12 and v6.18 alike).  The load balancer then
 * pulls one task from the busier CPU at a time it picks (sched_balance_rq(), named
 * load_balance() before 6.10: the busy balance interval, cache-hot and
 * migration-failure rules), and the task it pulls is the least recently run migratable
 * one of that CPU's cfs_tasks list (detach_tasks()), whichever group it belongs to.
 * Two layouts it reaches beside two spinners of a sibling group put the same load on
 * each CPU (two half-weight group entities, or one full-weight one), so it keeps either:
 * measured on 6.18 (bw-bg-spin, 10 runs traced with perf sched events), the group's two
 * threads woke on the waker's CPU every time, and the balancer moved one of them to
 * the other CPU 35 to 540 ms later in 9 runs, never in one (the sibling's two spinners
 * were on that other CPU).  A caller that observed where each thread ran (validate:
 * the workload's threads log each change of CPU, lib/validate/drv-bw-place.c) tells the
 * simulator, which then places and migrates the threads as told instead of by its own
 * rule (bw_pick_cpu()).
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"
#include "engine/bandwidth.h"

int cgctl_bw_sim_place(struct cgctl_bw_sim *s, int thread, uint64_t at_ns,
		       int cpu)
{
	int i;

	if (!s || s->ran || thread < 0 || thread >= s->nthreads || cpu < 0 ||
	    cpu >= (int)s->cfg.ncpus || at_ns >= UINT64_MAX / 2)
		return -EINVAL;
	if (s->npl == s->plcap) {
		int cap = s->plcap ? 2 * s->plcap : 16;
		struct bw_place_ev *n = realloc(s->pl, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->pl = n;
		s->plcap = cap;
	}
	/* sorted by time; equal times stay in call order (the last one wins) */
	for (i = s->npl; i > 0 && s->pl[i - 1].at > at_ns; i--)
		s->pl[i] = s->pl[i - 1];
	s->pl[i] = (struct bw_place_ev){ .at = at_ns, .thread = thread, .cpu = cpu };
	s->npl++;
	return 0;
}

static void place_schedule(struct cgctl_bw_sim *s)
{
	int slot = s->slot_misc + MISC_PLACE;

	if (s->plnext < s->npl)
		bw_heap_set(&s->heap, slot, s->pl[s->plnext].at);
	else
		bw_heap_del(&s->heap, slot);
}

/* Before the run: the placements at time 0 are where the threads start. */
int bw_place_setup(struct cgctl_bw_sim *s)
{
	if (!s->npl)
		return 0;
	s->home = malloc((size_t)s->nthreads * sizeof(*s->home));
	if (!s->home)
		return -ENOMEM;
	for (int ti = 0; ti < s->nthreads; ti++)
		s->home[ti] = -1;
	for (s->plnext = 0; s->plnext < s->npl && !s->pl[s->plnext].at; s->plnext++) {
		const struct bw_place_ev *e = &s->pl[s->plnext];

		s->home[e->thread] = e->cpu;
		s->t[e->thread].cpu = e->cpu;
	}
	place_schedule(s);
	return 0;
}

/* The placements due at @now: each thread moves (or wakes next) where told. */
void bw_place_next(struct cgctl_bw_sim *s, uint64_t now)
{
	while (s->plnext < s->npl && s->pl[s->plnext].at <= now) {
		const struct bw_place_ev *e = &s->pl[s->plnext++];

		s->home[e->thread] = e->cpu;
		bw_thread_migrate(s, e->thread, e->cpu, now);
	}
	place_schedule(s);
}
