/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Demand from context switches: each recorded thread is running (switched in), waiting
 * (switched out still runnable: preempted, or parked by a throttled group), sleeping
 * (switched out blocked) or gone.  The intervals between its switches are its busy, wait
 * and idle time.  Runnable time has two causes a replay must not confuse: the group's
 * own limit held it back (throttle_cfs_rq() dequeued its cfs_rq, or since 6.18 the task
 * itself at return to user), which is demand a looser limit hands out again ("wait",
 * dropped on replay), or other tasks of the machine held the CPU (preempted by a
 * competitor), which no limit of this group changes and which recurs on the same
 * machine ("ready", kept in the replayed timeline).  The recorder says when the group
 * may have been throttled (cgctl_bw_demand_throttled, from the cpu.stat of the group and
 * its limited ancestors).  Measured: xz -T2 recorded on this 2-CPU machine with ten
 * other runnable tasks spent 0.8 s of 1.4 s per worker preempted and never throttled;
 * replayed as "wait" it asked for two full CPUs and the search found no finite quota,
 * while the kernel ran it unthrottled even at one CPU of quota.
 *
 * A third cause is the group itself: a thread runnable while the recorded threads held
 * every CPU waited for its own siblings, and the replay, which runs the threads on that
 * many CPUs, makes it wait again.  Kept as "ready" that wait counts twice and spreads
 * the demand: tree.sh (three busy subshells on 2 CPUs, tests/kernel/bw-record.sh) waited
 * 57-171 ms of ~250 ms busy so, with no other load, and the more it waited the smaller
 * the quota recommended (171 ms: 82 ms, 57 ms: 91 ms; the kernel throttled it up to 90
 * ms).  So the windows in which the recorded threads ran on at least as many CPUs as
 * the recording had are "wait" too; runnable time outside every window is "ready".
 *
 * The kernel writes one ring buffer per CPU, so records of a migrating thread arrive out
 * of order across buffers; they are kept and sorted by time before being walked.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "util/strbuf.h"

enum dstate { D_UNKNOWN, D_RUN, D_WAIT, D_SLEEP, D_GONE };

struct dthread {
	uint32_t tid;
	enum dstate st;
	uint64_t since;
	uint64_t known_oncpu;	/* cgctl_bw_demand_known */
	bool known;
	bool oncpu;		/* running, for the count of build_saturated() */
	struct strbuf out;
};

struct cgctl_bw_demand {
	uint64_t start_ns;
	struct cgctl_bw_switch *sw;
	size_t nsw, capsw;
	struct dthread *thr;
	unsigned int nthr, capthr;
	uint32_t *hash;		/* open addressing: tid -> thread index + 1 */
	size_t hsize;
	bool classify;		/* throttle windows known: split runnable into wait/ready */
	struct dwin { uint64_t from, to; } *win;	/* sorted, merged at build */
	size_t nwin, capwin;
};

int cgctl_bw_demand_new(struct cgctl_bw_demand **ret, uint64_t start_ns)
{
	struct cgctl_bw_demand *d;

	if (!ret)
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->start_ns = start_ns;
	*ret = d;
	return 0;
}

void cgctl_bw_demand_free(struct cgctl_bw_demand *d)
{
	if (!d)
		return;
	for (unsigned int i = 0; i < d->nthr; i++)
		strbuf_release(&d->thr[i].out);
	free(d->thr);
	free(d->hash);
	free(d->sw);
	free(d->win);
	free(d);
}

static int add_window(struct cgctl_bw_demand *d, uint64_t from_ns, uint64_t to_ns)
{
	if (to_ns <= from_ns)
		return 0;
	if (d->nwin == d->capwin) {
		size_t cap = d->capwin ? 2 * d->capwin : 64;
		struct dwin *n = realloc(d->win, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		d->win = n;
		d->capwin = cap;
	}
	d->win[d->nwin++] = (struct dwin){ from_ns, to_ns };
	return 0;
}

int cgctl_bw_demand_throttled(struct cgctl_bw_demand *d, uint64_t from_ns,
			      uint64_t to_ns)
{
	if (!d)
		return -EINVAL;
	d->classify = true;
	return add_window(d, from_ns, to_ns);
}

int cgctl_bw_demand_add(struct cgctl_bw_demand *d,
			const struct cgctl_bw_switch *sw, size_t n)
{
	if (!d || (!sw && n))
		return -EINVAL;
	if (n == 0)
		return 0;	/* nothing recorded: @sw may be NULL */
	for (size_t i = 0; i < n; i++)
		if (sw[i].kind > CGCTL_BW_SW_FORK)
			return -EINVAL;
	if (d->nsw + n > d->capsw) {
		size_t cap = MAX(d->capsw * 2, d->nsw + n);
		struct cgctl_bw_switch *s = realloc(d->sw, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		d->sw = s;
		d->capsw = cap;
	}
	memcpy(d->sw + d->nsw, sw, n * sizeof(*sw));
	d->nsw += n;
	return 0;
}

static size_t hslot(const struct cgctl_bw_demand *d, uint32_t tid)
{
	size_t h = (tid * 2654435761u) & (d->hsize - 1);

	while (d->hash[h] && d->thr[d->hash[h] - 1].tid != tid)
		h = (h + 1) & (d->hsize - 1);
	return h;
}

static int rehash(struct cgctl_bw_demand *d)
{
	size_t size = d->hsize ? 2 * d->hsize : 256;
	uint32_t *h = calloc(size, sizeof(*h));

	if (!h)
		return -ENOMEM;
	free(d->hash);
	d->hash = h;
	d->hsize = size;
	for (unsigned int i = 0; i < d->nthr; i++)
		d->hash[hslot(d, d->thr[i].tid)] = i + 1;
	return 0;
}

/* The thread of @tid, created in order of first appearance.  Returns: NULL on ENOMEM. */
static struct dthread *thread_of(struct cgctl_bw_demand *d, uint32_t tid)
{
	size_t h;

	if ((d->nthr + 1) * 2 > d->hsize && rehash(d) < 0)
		return NULL;
	h = hslot(d, tid);
	if (d->hash[h])
		return &d->thr[d->hash[h] - 1];
	if (d->nthr == d->capthr) {
		unsigned int cap = d->capthr ? 2 * d->capthr : 64;
		struct dthread *n = realloc(d->thr, cap * sizeof(*n));

		if (!n)
			return NULL;
		d->thr = n;
		d->capthr = cap;
	}
	memset(&d->thr[d->nthr], 0, sizeof(d->thr[0]));
	d->thr[d->nthr].tid = tid;
	strbuf_init(&d->thr[d->nthr].out);
	d->hash[h] = ++d->nthr;
	return &d->thr[d->nthr - 1];
}

int cgctl_bw_demand_known(struct cgctl_bw_demand *d, uint32_t tid,
			  uint64_t oncpu_ns)
{
	struct dthread *t;

	if (!d)
		return -EINVAL;
	t = thread_of(d, tid);
	if (!t)
		return -ENOMEM;
	t->known = true;
	t->known_oncpu = oncpu_ns;
	return 0;
}

/* One "IDX WHAT DURns STARTns" line.  Not strbuf_printf(): a recording writes a line per
 * switch, and printf was a fifth of the recorder's CPU time (perf, 100,000 switches). */
static void emit(const struct cgctl_bw_demand *d, struct dthread *t, unsigned int idx,
		 const char *what, uint64_t from, uint64_t to)
{
	if (to <= from)
		return;
	strbuf_put_u64(&t->out, idx);
	strbuf_putc(&t->out, ' ');
	strbuf_puts(&t->out, what);
	strbuf_putc(&t->out, ' ');
	strbuf_put_u64(&t->out, to - from);
	strbuf_putn(&t->out, "ns ", 3);
	strbuf_put_u64(&t->out, from - d->start_ns);
	strbuf_putn(&t->out, "ns\n", 3);
}

/* Runnable [from, to): "wait" where the group may have been throttled, "ready" elsewhere
 * (the windows are sorted and disjoint; a binary search finds the first that matters). */
static void emit_runnable(const struct cgctl_bw_demand *d, struct dthread *t,
			  unsigned int idx, uint64_t from, uint64_t to)
{
	size_t lo = 0, hi = d->nwin;

	if (!d->classify) {	/* cause unknown: all of it is demand, as format v1 had it */
		emit(d, t, idx, "wait", from, to);
		return;
	}
	while (lo < hi) {	/* first window ending after @from */
		size_t mid = (lo + hi) / 2;

		if (d->win[mid].to <= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < d->nwin && from < to && d->win[i].from < to; i++) {
		uint64_t a = MAX(from, d->win[i].from), b = MIN(to, d->win[i].to);

		emit(d, t, idx, "ready", from, a);
		emit(d, t, idx, "wait", a, b);
		from = b;
	}
	emit(d, t, idx, "ready", from, to);
}

/* Close the thread's current state at @now (an interval of that state). */
static void close_state(const struct cgctl_bw_demand *d, struct dthread *t,
			unsigned int idx, uint64_t now)
{
	if (t->st == D_UNKNOWN || t->st == D_GONE)
		return;
	if (t->st == D_WAIT)
		emit_runnable(d, t, idx, t->since, now);
	else
		emit(d, t, idx, t->st == D_RUN ? "busy" : "idle", t->since, now);
}

static void step(const struct cgctl_bw_demand *d, struct dthread *t, unsigned int idx,
		 const struct cgctl_bw_switch *sw)
{
	uint64_t now = MAX(sw->time_ns, d->start_ns);

	if (t->st == D_GONE)
		return;
	now = MAX(now, t->since);	/* clocks of two CPUs may disagree by a little */
	switch (sw->kind) {
	case CGCTL_BW_SW_FORK:
		if (t->st != D_UNKNOWN)
			return;
		t->st = D_WAIT;		/* a new task is runnable until it first runs */
		break;
	case CGCTL_BW_SW_IN:
		if (t->st == D_RUN)
			return;		/* the switch-out was lost: keep running */
		close_state(d, t, idx, now);
		t->st = D_RUN;
		break;
	case CGCTL_BW_SW_PREEMPT:
	case CGCTL_BW_SW_SLEEP:
		if (t->st == D_UNKNOWN)	/* it was running when the recording began */
			t->since = d->start_ns, t->st = D_RUN;
		if (t->st == D_RUN)
			close_state(d, t, idx, now);
		t->st = sw->kind == CGCTL_BW_SW_PREEMPT ? D_WAIT : D_SLEEP;
		break;
	case CGCTL_BW_SW_EXIT:
		close_state(d, t, idx, now);
		t->st = D_GONE;
		return;
	}
	t->since = now;
}

static int cmp_sw(const void *a, const void *b)
{
	const struct cgctl_bw_switch *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	/* same instant: out before in, so a switch between two of ours keeps its order */
	return (x->kind == CGCTL_BW_SW_IN) - (y->kind == CGCTL_BW_SW_IN);
}

static void finish(struct cgctl_bw_demand *d, uint64_t end)
{
	for (unsigned int i = 0; i < d->nthr; i++) {
		struct dthread *t = &d->thr[i];

		if (t->st == D_UNKNOWN && t->known) {	/* never switched: schedstat's time */
			uint64_t busy = MIN(t->known_oncpu, end - d->start_ns);

			emit(d, t, i, "busy", d->start_ns, d->start_ns + busy);
			emit(d, t, i, "idle", d->start_ns + busy, end);
			continue;
		}
		close_state(d, t, i, MAX(end, t->since));
	}
}

static int cmp_win(const void *a, const void *b)
{
	const struct dwin *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

/* Sort the throttle windows and merge the overlapping ones. */
static void merge_windows(struct cgctl_bw_demand *d)
{
	size_t n = 0;

	if (!d->nwin)
		return;
	qsort(d->win, d->nwin, sizeof(*d->win), cmp_win);
	for (size_t i = 0; i < d->nwin; i++) {
		if (n && d->win[i].from <= d->win[n - 1].to)
			d->win[n - 1].to = MAX(d->win[n - 1].to, d->win[i].to);
		else
			d->win[n++] = d->win[i];
	}
	d->nwin = n;
}

/* Count the recorded threads on a CPU through the sorted switches; add a window for
 * each stretch in which they held @ncpus or more (a thread first seen switching out was
 * running from the start).  Returns: 0, -ENOMEM. */
static int build_saturated(struct cgctl_bw_demand *d, unsigned int ncpus, uint64_t end)
{
	unsigned int running = 0;
	uint64_t from = d->start_ns;
	int r = 0;

	for (size_t i = 0; i < d->nsw; i++) {
		struct dthread *t = thread_of(d, d->sw[i].tid);

		if (!t)
			return -ENOMEM;
		if (t->st == D_UNKNOWN) {
			t->st = D_WAIT;		/* seen: its first record tells its start */
			t->oncpu = d->sw[i].kind == CGCTL_BW_SW_PREEMPT ||
				   d->sw[i].kind == CGCTL_BW_SW_SLEEP;
			running += t->oncpu;
		}
	}
	for (size_t i = 0; i < d->nsw && r >= 0; i++) {
		struct dthread *t = thread_of(d, d->sw[i].tid);
		bool in = d->sw[i].kind == CGCTL_BW_SW_IN;
		uint64_t now = MAX(d->sw[i].time_ns, d->start_ns);

		if (d->sw[i].kind == CGCTL_BW_SW_FORK || in == t->oncpu)
			continue;
		if (in && ++running == ncpus)
			from = now;
		else if (!in && running-- == ncpus)
			r = add_window(d, from, now);
		t->oncpu = in;
	}
	if (r >= 0 && running >= ncpus)
		r = add_window(d, from, end);
	for (unsigned int i = 0; i < d->nthr; i++)
		d->thr[i].st = D_UNKNOWN;
	return r;
}

static int build(struct cgctl_bw_demand *d, unsigned int ncpus, uint64_t end)
{
	int r;

	if (d->nsw)
		qsort(d->sw, d->nsw, sizeof(*d->sw), cmp_sw);
	if (d->classify && (r = build_saturated(d, ncpus ? ncpus : 1, end)) < 0)
		return r;
	merge_windows(d);
	for (size_t i = 0; i < d->nsw; i++) {
		struct dthread *t = thread_of(d, d->sw[i].tid);

		if (!t)
			return -ENOMEM;
		step(d, t, (unsigned int)(t - d->thr), &d->sw[i]);
	}
	finish(d, end);
	return 0;
}

int cgctl_bw_demand_trace(struct cgctl_bw_demand *d,
			  const struct cgctl_bw_demand_meta *m, char **text,
			  size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t end;
	int r;

	if (!d || !m || !text)
		return -EINVAL;
	end = MAX(m->end_ns, d->start_ns);
	r = build(d, m->ncpus, end);
	if (r < 0)
		return r;
	strbuf_printf(&sb, "cgctl-bw-trace 2\n# recorded by cgctl bw record: THREAD "
		      "busy|idle|wait|ready DURATION START\ncpus %u\nduration %" PRIu64 "ns\n"
		      "lost %" PRIu64 "\n", m->ncpus ? m->ncpus : 1, end - d->start_ns, m->lost);
	for (unsigned int i = 0; i < d->nthr; i++)
		strbuf_printf(&sb, "thread %u %" PRIu32 "\n", i, d->thr[i].tid);
	for (unsigned int i = 0; i < d->nthr; i++) {
		if (!d->thr[i].out.len)		/* appeared, never ran: keep its number */
			emit(d, &d->thr[i], i, "idle", d->start_ns, end);
		strbuf_putn(&sb, d->thr[i].out.buf ? d->thr[i].out.buf : "",
			    d->thr[i].out.len);
		if (strbuf_error(&d->thr[i].out) < 0)
			sb.oom = true;
	}
	if (strbuf_error(&sb) < 0) {
		strbuf_release(&sb);
		return -ENOMEM;
	}
	*len = sb.len;
	*text = strbuf_steal(&sb);
	return 0;
}
