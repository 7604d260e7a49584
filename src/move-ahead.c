/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "from" read ahead: reading /proc/PID/cgroup costs the kernel about as much as the
 * write to cgroup.procs that follows (measured: 10,000 PIDs, 120-145 ms of reads beside
 * 90-116 ms of writes), and the two do not share a lock, so a second thread reads the
 * next tasks while the main thread moves the current one.  The main thread never
 * writes a PID before its "from" is read: it waits for it.
 *
 * Most PIDs of a long list share a few cgroups, so the reader does better than one
 * /proc read per PID: once it knows a task's cgroup it reads that cgroup's thread list
 * (v1 "tasks", v2 "cgroup.threads": thread IDs, so a PID found there is a thread of the
 * cgroup exactly as /proc/PID/cgroup would say) and hands the same "from" to every later
 * PID of the list it finds there.  10,000 PIDs in one cgroup: one /proc read and one
 * list read instead of 10,000 /proc reads.  When the lists stop paying (PIDs spread
 * over many cgroups: fewer than INDEX_MIN_HITS found per list read), the reader goes
 * back to one /proc read per PID.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "move-ahead.h"

/* a thread list must find this many PIDs of ours on average to be worth its read */
#define INDEX_MIN_HITS	4
/* ... judged after this many list reads */
#define INDEX_PROBATION	4

#define RADIX_BITS	11
#define RADIX		(1u << RADIX_BITS)

struct pid_slot {
	pid_t pid;
	size_t i;		/* its index in the list */
};

struct move_ahead {
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *m;
	const pid_t *pids;
	size_t n;
	char **from;
	int *err;
	size_t ready;		/* [0, ready) are read (release/acquire) */
	pthread_t th;
	/* the index: the list's PIDs sorted, and whether each one is known already */
	struct pid_slot *sorted;
	bool *known;		/* from[i] is one of paths[] */
	char **paths;		/* one copy per thread list read, shared by its PIDs */
	size_t n_paths;
	size_t list_reads, list_hits;
};

/* @pids[0..@n) as slots sorted by PID, equal PIDs in list order: stable counting passes
 * of 11 bits, as many as the largest PID needs (3 for 32 bits; 2 below 4,194,304, the
 * kernel's pid_max limit), no comparison callbacks; 16 KiB of counters.
 * Returns: the slots (malloc'ed), NULL without memory. */
static struct pid_slot *slots_sorted(const pid_t *pids, size_t n)
{
	struct pid_slot *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	uint32_t *count = malloc(RADIX * sizeof(*count)), top = 0;

	if (!a || !b || !count || n > UINT32_MAX) {
		free(a);
		free(b);
		free(count);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		a[i] = (struct pid_slot){ pids[i], i };
		top |= (uint32_t)pids[i];
	}
	for (unsigned int shift = 0; shift < 32 && top >> shift; shift += RADIX_BITS) {
		uint32_t sum = 0;
		struct pid_slot *t;

		memset(count, 0, RADIX * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[((uint32_t)a[i].pid >> shift) & (RADIX - 1)]++;
		for (size_t d = 0; d < RADIX; d++) {
			uint32_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[((uint32_t)a[i].pid >> shift) & (RADIX - 1)]++] = a[i];
		t = a, a = b, b = t;
	}
	free(b);
	free(count);
	return a;
}

/* First slot of @pid in the sorted list, or NULL. */
static const struct pid_slot *slot_find(const struct move_ahead *a, pid_t pid)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->sorted[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->n && a->sorted[lo].pid == pid ? &a->sorted[lo] : NULL;
}

/* Give @path to every PID after @after that appears in @buf, a thread list. */
static size_t index_give(struct move_ahead *a, const char *buf, size_t len,
			 const char *path, size_t after)
{
	const char *p = buf, *end = buf + len;
	size_t hits = 0;

	while (p < end) {
		unsigned long v = 0;
		const struct pid_slot *s;

		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		while (p < end && *p >= '0' && *p <= '9')
			v = v * 10 + (unsigned long)(*p++ - '0');
		if (v > INT32_MAX)
			continue;
		for (s = slot_find(a, (pid_t)v); s && s < a->sorted + a->n &&
		     s->pid == (pid_t)v; s++) {
			if (s->i <= after || a->known[s->i])
				continue;
			a->from[s->i] = (char *)path;
			a->known[s->i] = true;
			hits++;
		}
	}
	return hits;
}

/* Read the thread list of @path, the cgroup of entry @i, into the index. */
static void index_cgroup(struct move_ahead *a, const char *path, size_t i)
{
	const char *file = a->m->version == 2 ? "cgroup.threads" : "tasks";
	char *buf = NULL, *copy, **more;
	size_t len;

	if (cgctl_cg_read(a->ctx, a->m, path, file, &buf, &len) < 0) {
		a->sorted = NULL;	/* no list here: /proc for every PID */
		return;
	}
	copy = strdup(path);
	more = copy ? realloc(a->paths, (a->n_paths + 1) * sizeof(*a->paths)) : NULL;
	if (!more) {
		free(copy);
		free(buf);
		a->sorted = NULL;	/* read through /proc like the rest */
		return;
	}
	a->paths = more;
	a->paths[a->n_paths++] = copy;
	a->list_hits += index_give(a, buf, len, copy, i);
	a->list_reads++;
	free(buf);
	if (a->list_reads >= INDEX_PROBATION &&
	    a->list_hits < a->list_reads * INDEX_MIN_HITS)
		a->sorted = NULL;
}

static void *reader(void *arg)
{
	struct move_ahead *a = arg;

	struct pid_slot *sorted = a->sorted;

	for (size_t i = 0; i < a->n; i++) {
		char *from;

		if (a->known[i]) {
			__atomic_store_n(&a->ready, i + 1, __ATOMIC_RELEASE);
			continue;
		}
		a->err[i] = cgctl_pid_cgroup(a->ctx, a->pids[i], a->m, &from);
		a->from[i] = a->err[i] ? NULL : from;
		/* the main thread may read from[i] from here on (it never frees it) */
		__atomic_store_n(&a->ready, i + 1, __ATOMIC_RELEASE);
		if (a->from[i] && a->sorted)
			index_cgroup(a, a->from[i], i);
	}
	free(sorted);
	return NULL;
}

int move_ahead_start(struct move_ahead **ret, struct cgctl_ctx *ctx,
		     const struct cgctl_mount *m, const pid_t *pids, size_t n)
{
	struct move_ahead *a = calloc(1, sizeof(*a));
	int r;

	if (!a)
		return -ENOMEM;
	a->ctx = ctx;
	a->m = m;
	a->pids = pids;
	a->n = n;
	a->from = calloc(n, sizeof(*a->from));
	a->err = calloc(n, sizeof(*a->err));
	a->known = calloc(n, sizeof(*a->known));
	a->sorted = slots_sorted(pids, n);
	r = a->from && a->err && a->known ? -pthread_create(&a->th, NULL, reader, a) : -ENOMEM;
	if (r < 0) {
		free(a->from);
		free(a->err);
		free(a->known);
		free(a->sorted);
		free(a);
		return r;
	}
	*ret = a;
	return 0;
}

int move_ahead_get(struct move_ahead *a, size_t i, char **from)
{
	while (__atomic_load_n(&a->ready, __ATOMIC_ACQUIRE) <= i)
		sched_yield();
	*from = a->from[i];
	return a->err[i];
}

void move_ahead_stop(struct move_ahead *a)
{
	if (!a)
		return;
	pthread_join(a->th, NULL);
	for (size_t i = 0; i < a->n; i++)
		if (!a->known[i])
			free(a->from[i]);
	for (size_t i = 0; i < a->n_paths; i++)
		free(a->paths[i]);
	free(a->paths);
	free(a->from);
	free(a->err);
	free(a->known);
	free(a);
}
