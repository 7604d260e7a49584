/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgctl_stat_read_many(): the figures of many cgroups in one call, what `cgctl stat`
 * reads.  Reading a cgroup file is almost all the kernel's work (the path walk with
 * kernfs_dop_revalidate(), kernfs_fop_open(), the seq_file, the release on close), and
 * that work runs on two CPUs at once: from 2 x MANY_MIN cgroups, when the caller may
 * run on two CPUs, the second half of the list is read by one thread that this call
 * starts and joins before it returns.  Nothing is kept between calls.  Why one thread
 * and what it saves: HACKING.md, "Performance notes" (bench/stat).
 */
#include <errno.h>

#include "internal.h"
#include "util/thread.h"

/* the fewest cgroups worth a thread: starting and joining one costs about as much as
 * reading 2 or 3 cgroups */
#define MANY_MIN 64

struct many {
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *mem, *cpu, *acct;
	unsigned int mem_flags, cpu_flags;
	struct cgctl_stat_item *v;
	size_t lo, hi;
};

static void read_one(const struct many *w, struct cgctl_stat_item *it)
{
	it->mem_r = it->cpu_r = -ENODEV;
	if (w->mem && it->mem_path)
		it->mem_r = cgctl_memstat_read_flags(w->ctx, w->mem, it->mem_path, w->mem_flags,
						     &it->mem);
	if (w->cpu && it->cpu_path)
		it->cpu_r = cgctl_cpubw_read_flags(w->ctx, w->cpu, it->cpu_path, w->acct,
						   it->acct_path, w->cpu_flags, &it->cpu);
}

static void *read_range(void *arg)
{
	const struct many *w = arg;

	for (size_t i = w->lo; i < w->hi; i++)
		read_one(w, &w->v[i]);
	return NULL;
}

int cgctl_stat_read_many(struct cgctl_ctx *ctx, const struct cgctl_mount *mem,
			 unsigned int mem_flags, const struct cgctl_mount *cpu,
			 const struct cgctl_mount *acct, unsigned int cpu_flags,
			 struct cgctl_stat_item *items, size_t n)
{
	struct many w = { ctx, mem, cpu, acct, mem_flags, cpu_flags, items, 0, n };
	struct many half = w;
	pthread_t th;

	if (!ctx || (!items && n))
		return -EINVAL;
	if (n < 2 * MANY_MIN || !util_two_cpus()) {
		read_range(&w);
		return 0;
	}
	/* (the mounts' directories, opened on first use, are shared safely: cgfs.c's
	 * mount_fd() keeps the first of two racing opens) */
	half.lo = n / 2;
	w.hi = n / 2;
	if (util_thread_start(&th, read_range, &half) < 0) {
		w.hi = n;	/* no thread: all of it here */
		read_range(&w);
		return 0;
	}
	read_range(&w);
	pthread_join(th, NULL);
	return 0;
}
