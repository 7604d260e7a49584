// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Model of how a process's RSS counters (mm->rss_stat) are kept and read, per era:
 *
 *   <= 2.6.33   atomic_long per counter in the mm: exact.
 *   2.6.34-6.1  SPLIT_RSS_COUNTING (34e55232e59f): a thread's faults on its own mm go to
 *               task->rss_stat and are flushed every TASK_RSS_EVENTS_THRESH faults;
 *               readers see only the mm's atomic.
 *   6.2+        percpu_counter per counter (f1a7941243c1); get_mm_counter() is
 *               percpu_counter_read_positive(): off by up to (batch - 1) * ncpu.
 *   6.16+       /proc/PID/status and statm use get_mm_counter_sum() (82241a83cd15),
 *               backported to 6.12.39 (stable release of 17 Jul 2025); /proc/PID/stat
 *               keeps the approximate read.
 *
 * Mirrors mm/memory.c:check_sync_rss_stat(), add_mm_counter_fast(), sync_mm_rss() (v6.1),
 * include/linux/mm.h:get_mm_counter(), get_mm_counter_sum() (v6.12.118),
 * fs/proc/task_mmu.c:task_mem(), task_statm() and fs/proc/array.c:do_task_stat() (v6.12).
 */
#include <errno.h>

#include "internal.h"
#include "engine/pcpucounter.h"
#include "engine/rsscount.h"

/* The stable 6.12.y that carries "mm: fix the inaccurate memory statistics issue for
 * users" (announced as "Linux 6.12.39", 17 Jul 2025).  Whether 6.15.y got it too was
 * not checked: 6.13-6.15 are treated as approximate. */
#define RSS_BACKPORT_KVER CGCTL_KVER(6, 12, 39)

uint32_t cgctl_rss_backport_kver(void)
{
	return RSS_BACKPORT_KVER;
}

static bool kver_in_612y_with_backport(uint32_t kver)
{
	return CGCTL_KVER_MAJOR(kver) == 6 && CGCTL_KVER_MINOR(kver) == 12 &&
	       kver >= RSS_BACKPORT_KVER;
}

static bool status_is_exact_sum(uint32_t kver)
{
	return kver >= CGCTL_KVER(6, 16, 0) || kver_in_612y_with_backport(kver);
}

static bool valid_file(enum cgctl_rss_file file)
{
	return file == CGCTL_RSS_FILE_STATUS || file == CGCTL_RSS_FILE_STATM ||
	       file == CGCTL_RSS_FILE_STAT;
}

int cgctl_rss_source(uint32_t kver, enum cgctl_rss_file file)
{
	if (kver == 0 || !valid_file(file))
		return -EINVAL;
	if (kver < CGCTL_KVER(2, 6, 34))
		return CGCTL_RSS_ATOMIC;
	if (kver < CGCTL_KVER(6, 2, 0))
		return CGCTL_RSS_TASK_CACHE;
	if (file != CGCTL_RSS_FILE_STAT && status_is_exact_sum(kver))
		return CGCTL_RSS_PCPU_SUM;
	return CGCTL_RSS_PCPU_READ;
}

/* MM_SHMEMPAGES exists since 4.5; before, shmem pages were counted as file pages. */
static unsigned int rss_counters(uint32_t kver)
{
	return kver >= CGCTL_KVER(4, 5, 0) ? 3 : 2;
}

/* Counters one read of @file touches: status reads the rss counters and MM_SWAPENTS,
 * statm and stat read the rss counters only. */
static unsigned int counters_read(uint32_t kver, enum cgctl_rss_file file)
{
	return rss_counters(kver) + (file == CGCTL_RSS_FILE_STATUS ? 1 : 0);
}

/* Pages one fault can put into a thread's cache: do_set_pte() for every page mapped by
 * fault-around (3.15+) is an inc_mm_counter_fast(). */
static uint64_t pages_per_file_fault(uint32_t kver)
{
	return kver >= CGCTL_KVER(3, 15, 0) ? RSS_FAULT_AROUND_PAGES : 1;
}

static void bound_task_cache(uint32_t kver, unsigned int nthreads, struct cgctl_rss_bound *b)
{
	uint64_t faults = (uint64_t)RSS_UNFLUSHED_FAULTS * nthreads;

	b->anon_pages = faults;
	b->counter_pages = faults * pages_per_file_fault(kver);
	/* one fault maps at most one fault-around window, whatever the counters */
	b->vmrss_pages = b->counter_pages;
}

static void bound_pcpu_read(uint32_t kver, unsigned int ncpu, struct cgctl_rss_bound *b)
{
	b->counter_pages = cgctl_pcpuc_error_bound(b->batch, ncpu);
	b->anon_pages = b->counter_pages;
	b->vmrss_pages = b->counter_pages * rss_counters(kver);
}

int cgctl_rss_bound(uint32_t kver, unsigned int ncpu, unsigned int nthreads,
				 enum cgctl_rss_file file, struct cgctl_rss_bound *ret)
{
	int src = cgctl_rss_source(kver, file);
	int batch = cgctl_pcpuc_batch(kver, ncpu);

	if (src < 0 || batch < 0 || nthreads == 0 || !ret)
		return -EINVAL;
	*ret = (struct cgctl_rss_bound){ .source = src };
	ret->read_cells = cgctl_rss_read_cost(kver, ncpu, file, 1);
	if (src == CGCTL_RSS_PCPU_READ || src == CGCTL_RSS_PCPU_SUM)
		ret->batch = batch;
	if (src == CGCTL_RSS_TASK_CACHE)
		bound_task_cache(kver, nthreads, ret);
	else if (src == CGCTL_RSS_PCPU_READ)
		bound_pcpu_read(kver, ncpu, ret);
	return 0;
}

/* percpu_counter_sum() visits the global count and every online (or dying) CPU. */
uint64_t cgctl_rss_read_cost(uint32_t kver, unsigned int ncpu,
					  enum cgctl_rss_file file, uint64_t nproc)
{
	int src = cgctl_rss_source(kver, file);
	uint64_t per_counter = 1;

	if (src < 0 || ncpu == 0)
		return 0;
	if (src == CGCTL_RSS_PCPU_SUM)
		per_counter = 1 + (uint64_t)ncpu;
	return nproc * counters_read(kver, file) * per_counter;
}

/* mirrors mm/memory.c:check_sync_rss_stat() + add_mm_counter_fast() (v6.1) */
static int fault_task_cache(struct cgctl_rss_thread *t, int64_t *mm_counter, int64_t pages)
{
	int flushed = 0;

	/* events++ > THRESH: the old value is compared, then sync_mm_rss() zeroes it */
	if (t->events++ > RSS_EVENTS_THRESH) {
		*mm_counter += t->cached;
		t->cached = 0;
		t->events = 0;
		flushed = 1;
	}
	t->cached += pages;
	return flushed;
}

int cgctl_rss_fault(uint32_t kver, struct cgctl_rss_thread *t,
		    int64_t *mm_counter, int64_t pages)
{
	if (kver == 0 || !t || !mm_counter)
		return -EINVAL;
	if (kver >= CGCTL_KVER(2, 6, 34) && kver < CGCTL_KVER(6, 2, 0))
		return fault_task_cache(t, mm_counter, pages);
	*mm_counter += pages;
	return 0;
}
