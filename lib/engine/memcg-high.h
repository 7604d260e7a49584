/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal state of the memory.high model run (memcg-high-*.c). */
#ifndef CGCTL_ENGINE_MEMCG_HIGH_H
#define CGCTL_ENGINE_MEMCG_HIGH_H

#include "internal.h"

#define MH_MAX_GROUPS 64
#define MH_MAX_TASKS 1024
#define MH_MAX_CPUS 4096
#define MH_MAX_SLOTS 7

struct mh_group {
	int parent;
	struct cgctl_memhigh_limits lim;
	uint64_t usage;		   /* memory page counter: subtree + stock */
	uint64_t swap_usage;	   /* swap page counter (subtree) */
	uint64_t file, anon, swap; /* this group's own pages */
	uint64_t emin, elow;	   /* effective protection of the last reclaim */
	uint64_t anon_cost, file_cost; /* lruvec reclaim costs (v6.1 lru_note_cost()) */
	struct cgctl_memhigh_group_result res;
	struct cgctl_memhigh_sample *samples;
	size_t nsamples, cap;
};

struct mh_task {
	int group;
	unsigned int cpu, kind, chunk;
	uint64_t size, done, rate, start_ns;
	uint64_t t;		/* the task's clock */
	uint64_t anon, swap;	/* its private pages resident / swapped */
	uint64_t sleep_end;	/* end of its last throttling sleep */
	unsigned int over_high; /* current->memcg_nr_pages_over_high */
	bool stay, finished, dead;
};

struct mh_slot {
	int group; /* -1: empty */
	uint64_t nr;
};

struct cgctl_memhigh_run {
	struct cgctl_memhigh_config cfg;
	struct cgctl_memhigh_era era;
	unsigned int ngroups, ntasks;
	struct mh_group g[MH_MAX_GROUPS];
	struct mh_task *tasks;
	struct mh_slot *stock; /* ncpus * era.stock_slots */
	uint64_t swap_free;
	uint64_t next_sample;
	bool lru_gen; /* the multi-gen LRU reclaims (cfg.lru, else the era's default) */
	int err;
};

/* memcg-high-reclaim.c */
bool mh_in_subtree(const struct cgctl_memhigh_run *r, int g, int top);
void mh_counter_add(struct cgctl_memhigh_run *r, int g, int64_t n);
enum { MH_EV_LOW, MH_EV_HIGH, MH_EV_MAX, MH_EV_OOM, MH_EV_OOM_KILL };
void mh_event(struct cgctl_memhigh_run *r, int g, int ev);
uint64_t mh_try_to_free(struct cgctl_memhigh_run *r, int target, uint64_t nr,
			struct mh_task *tk);

/* memcg-high-charge.c */
int mh_charge(struct cgctl_memhigh_run *r, struct mh_task *tk, uint64_t n);
void mh_handle_over_high(struct cgctl_memhigh_run *r, struct mh_task *tk);
void mh_drain_all(struct cgctl_memhigh_run *r, int top);
void mh_free_task(struct cgctl_memhigh_run *r, struct mh_task *tk);

#endif
