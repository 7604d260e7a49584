/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The "from" of many PIDs before they move, without a /proc read per PID where the
 * list allows.  Most PIDs of a long list share a few cgroups: once one PID's cgroup is
 * known (/proc/PID/cgroup), that cgroup's thread list (v1 "tasks", v2 "cgroup.threads":
 * thread IDs, so a PID found there is a thread of the cgroup exactly as
 * /proc/PID/cgroup would say) gives the same "from" to every later PID of the list it
 * holds.  10,000 PIDs in one cgroup: one /proc read and one list read instead of 10,000
 * /proc reads (which cost the kernel about as much as the writes: 120-145 ms beside
 * 90-116 ms measured).  When lists stop paying (PIDs spread over many cgroups: fewer
 * than FROM_MIN_HITS found per list read), the rest go back to one /proc read each.
 * Serial, in the calling thread: a PID's list is read before that PID moves.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "kernel/movebatch.h"

/* a thread list must find this many PIDs of ours on average to be worth its read */
#define FROM_MIN_HITS	4
/* ... judged after this many list reads */
#define FROM_PROBATION	4
/* below this many PIDs every one is read from /proc (no index to build) */
#define FROM_INDEX_MIN	64

#define RADIX_BITS	11
#define RADIX		(1u << RADIX_BITS)

/* @v[0..@n)'s PIDs as slots sorted by PID, equal PIDs in list order: stable counting
 * passes of 11 bits, as many as the largest PID needs (2 below 4,194,304, the kernel's
 * pid_max limit), no comparison callbacks.  Returns: the slots (malloc'ed), NULL. */
static struct from_slot *slots_sorted(const struct cgctl_move_pid *v, size_t n)
{
	struct from_slot *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b)), *t;
	uint32_t *count = malloc(RADIX * sizeof(*count)), top = 0;

	if (!a || !b || !count || n > UINT32_MAX) {
		free(a);
		free(b);
		free(count);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		a[i] = (struct from_slot){ v[i].pid, i };
		top |= (uint32_t)v[i].pid;
	}
	for (unsigned int shift = 0; shift < 32 && top >> shift; shift += RADIX_BITS) {
		uint32_t sum = 0;

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
static const struct from_slot *slot_find(const struct move_from *f, pid_t pid)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->sorted[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n && f->sorted[lo].pid == pid ? &f->sorted[lo] : NULL;
}

/* Give @path to every PID after @after that appears in @buf, a thread list.
 * Returns: how many got it, -ENOMEM. */
static ssize_t index_give(struct move_from *f, const char *buf, size_t len,
			  const char *path, size_t after)
{
	const char *p = buf, *end = buf + len;
	ssize_t hits = 0;

	while (p < end) {
		unsigned long x = 0;

		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		while (p < end && *p >= '0' && *p <= '9' && x <= INT32_MAX)
			x = x * 10 + (unsigned long)(*p++ - '0');
		if (x > INT32_MAX)
			continue;
		for (const struct from_slot *s = slot_find(f, (pid_t)x);
		     s && s < f->sorted + f->n && s->pid == (pid_t)x; s++) {
			if (s->i <= after || f->v[s->i].from)
				continue;
			f->v[s->i].from = strdup(path);
			if (!f->v[s->i].from)
				return -ENOMEM;
			hits++;
		}
	}
	return hits;
}

/* Read the thread list of @path, the cgroup of entry @i, into the index. */
static void index_cgroup(struct move_from *f, const char *path, size_t i)
{
	const char *file = f->m->version == 2 ? "cgroup.threads" : "tasks";
	_cleanup_(freep) char *buf = NULL;
	size_t len;
	ssize_t hits;

	if (cgctl_cg_read(f->ctx, f->m, path, file, &buf, &len) < 0) {
		from_end(f);	/* no list here: /proc for every PID */
		return;
	}
	hits = index_give(f, buf, len, path, i);
	if (hits < 0) {
		from_end(f);
		return;
	}
	f->list_hits += (size_t)hits;
	f->list_reads++;
	if (f->list_reads >= FROM_PROBATION && f->list_hits < f->list_reads * FROM_MIN_HITS)
		from_end(f);
}

void from_start(struct move_from *f, struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		struct cgctl_move_pid *v, size_t n)
{
	memset(f, 0, sizeof(*f));
	f->ctx = ctx;
	f->m = m;
	f->v = v;
	f->n = n;
	/* below a root prefix the fixture's thread lists need not match its /proc */
	if (n >= FROM_INDEX_MIN && !cgctl_get_root(ctx)[0])
		f->sorted = slots_sorted(v, n);
}

int from_get(struct move_from *f, size_t i)
{
	struct cgctl_move_pid *p = &f->v[i];
	int r;

	if (p->from)
		return 0;	/* found in an earlier PID's thread list */
	r = cgctl_pid_cgroup(f->ctx, p->pid, f->m, &p->from);
	if (r < 0) {
		p->from = NULL;
		return r == -ENOENT ? -ESRCH : r;
	}
	if (f->sorted)
		index_cgroup(f, p->from, i);
	return 0;
}

void from_end(struct move_from *f)
{
	free(f->sorted);
	f->sorted = NULL;
}
