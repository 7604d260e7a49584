/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth model: the event queue, an indexed 8-ary heap of fixed slots (one per
 * CPU, thread, group timer), keyed by time and then slot number so that runs are
 * deterministic, and beside it a calendar of the threads' wake-ups (below): a thread's
 * slot is in the heap only when it wakes past the calendar's window.
 *
 * An entry is one 64-bit number, the time above a base in the high half and the slot in
 * the low half, so that the (time, slot) order is a single unsigned comparison, the
 * choice of the least child compiles without branches and the eight children of a node
 * fill one cache line.  A time more than lim (2^32 - 1 ns, 4.3 s) past the base is held
 * as lim, the slot's own time being kept beside: such entries only order among
 * themselves by slot, which matters only once one of them is the least, so then the
 * base moves up to the least time and the heap is rebuilt (bw_heap_rebase(), at most
 * once per 4.3 s of simulated time, O(n)).  A time below the base rebuilds the heap with
 * that time as the base.  Every position at or past the end holds a sentinel above any
 * entry (its slot half is not a slot), so sifting never checks how many children a node
 * has.
 * Eight children per node make a third of the depth of a binary heap (a pass down is a
 * chain of dependent loads, so depth is what costs); the event loop mostly removes or
 * re-keys the root, which costs one pass down.
 *
 * Removing the root leaves a hole there, filled by the next insertion (an event
 * usually schedules another: a thread that wakes up plans its CPU), which then costs
 * one short pass down from the root instead of a pass down plus a pass up; the next
 * look at the queue fills a hole still open with the last entry, as a removal would.
 */
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"

#define ARITY 8
#define SENTINEL (~(bw_heap_ent)0)

/* @key is at or above the base */
static bw_heap_ent ent(const struct bw_heap *hp, uint64_t key, int slot)
{
	uint64_t d = key - hp->base;

	return (d < BW_HEAP_LIM ? d : BW_HEAP_LIM) << 32 | (uint32_t)slot;
}

static int ent_slot(bw_heap_ent e)
{
	return (int)(uint32_t)e;
}

int bw_heap_init(struct bw_heap *hp, int nslots)
{
	hp->base = 0;
	hp->pos = malloc(nslots * sizeof(*hp->pos));
	hp->key = malloc(MAX(nslots, 1) * sizeof(*hp->key));
	/* h[1] on a cache line's start: the children of a node share one line */
	hp->mem = aligned_alloc(64, ((nslots + 2 * ARITY) * sizeof(*hp->h) + 63) / 64 * 64);
	hp->h = hp->mem ? hp->mem + ARITY - 1 : NULL;
	hp->n = 0;
	hp->hole = false;
	if (!hp->pos || !hp->key || !hp->h)
		return -ENOMEM;
	for (int i = 0; i < nslots; i++)
		hp->pos[i] = -1;
	for (int i = 0; i < nslots + ARITY; i++)
		hp->h[i] = SENTINEL;
	return 0;
}

void bw_heap_free(struct bw_heap *hp)
{
	free(hp->pos);
	free(hp->key);
	free(hp->mem);
}

static void place(struct bw_heap *hp, int i, bw_heap_ent e)
{
	hp->h[i] = e;
	hp->pos[ent_slot(e)] = i;
}

static void sift_up(struct bw_heap *hp, int i, bw_heap_ent e)
{
	while (i > 0) {
		int parent = (i - 1) / ARITY;

		if (e >= hp->h[parent])
			break;
		place(hp, i, hp->h[parent]);
		i = parent;
	}
	place(hp, i, e);
}

/*
 * The least of the eight children of @i (sentinels past the end never win), into *min:
 * a tournament of pairs.  Which child wins is a coin toss, so each round picks without a
 * branch (half of them would be mispredicted).  The rounds carry the values with the
 * indexes (two conditional moves per comparison) instead of loading the winners again
 * by index: a level's least child is three comparisons after the children's load, not
 * three loads and comparisons (a pass down is a chain of dependent levels).
 */
/* the lesser of (*v, *ix) and (w, iw) */
static inline void pick(bw_heap_ent *v, int *ix, bw_heap_ent w, int iw)
{
	bool lt = w < *v;

	*v = lt ? w : *v;
	*ix = lt ? iw : *ix;
}

static int least_child(const bw_heap_ent *h, int i, bw_heap_ent *min)
{
	int c = ARITY * i + 1;
	bw_heap_ent v0 = h[c], v2 = h[c + 2], v4 = h[c + 4], v6 = h[c + 6];
	int i0 = c, i2 = c + 2, i4 = c + 4, i6 = c + 6;

	pick(&v0, &i0, h[c + 1], c + 1);
	pick(&v2, &i2, h[c + 3], c + 3);
	pick(&v4, &i4, h[c + 5], c + 5);
	pick(&v6, &i6, h[c + 7], c + 7);
	pick(&v0, &i0, v2, i2);
	pick(&v4, &i4, v6, i6);
	pick(&v0, &i0, v4, i4);
	*min = v0;
	return i0;
}

static void sift_down(struct bw_heap *hp, int i, bw_heap_ent e)
{
	const int n = hp->n;
	bw_heap_ent m;

	while (ARITY * i + 1 < n) {
		int c = least_child(hp->h, i, &m);

		if (m >= e)
			break;
		place(hp, i, m);
		i = c;
	}
	place(hp, i, e);
}

/* The removal of the root, completed: the last entry takes its place. */
static void fill_hole(struct bw_heap *hp)
{
	bw_heap_ent last = hp->h[--hp->n];

	hp->hole = false;
	hp->h[hp->n] = SENTINEL;
	if (hp->n)
		sift_down(hp, 0, last);
}

/* Every entry again from the slots' times above @base (no hole), then heapified. */
static void rebuild(struct bw_heap *hp, uint64_t base)
{
	hp->base = base;
	for (int i = 0; i < hp->n; i++) {
		int slot = ent_slot(hp->h[i]);

		hp->h[i] = ent(hp, hp->key[slot], slot);
	}
	for (int i = (hp->n - 2) / ARITY; i >= 0 && hp->n > 1; i--)
		sift_down(hp, i, hp->h[i]);
}

/* bw_heap_top() when every queued time is past base + lim: the least one is the base. */
void bw_heap_rebase(struct bw_heap *hp)
{
	uint64_t base = BW_NO_TIME;

	for (int i = 0; i < hp->n; i++)
		base = MIN(base, hp->key[ent_slot(hp->h[i])]);
	rebuild(hp, base);
}

/* bw_heap_set() of a time below the base: queued, then rebuilt above that time. */
static void set_below(struct bw_heap *hp, int slot, uint64_t key)
{
	if (hp->hole)
		fill_hole(hp);
	if (hp->pos[slot] < 0)
		place(hp, hp->n++, (bw_heap_ent)slot);
	rebuild(hp, key);
}

void bw_heap_set(struct bw_heap *hp, int slot, uint64_t key)
{
	int i = hp->pos[slot];
	bw_heap_ent e;

	hp->key[slot] = key;
	if (key < hp->base) {
		set_below(hp, slot, key);
		return;
	}
	e = ent(hp, key, slot);
	if (hp->hole) {
		if (i < 0) {
			hp->hole = false;
			sift_down(hp, 0, e);
			return;
		}
		fill_hole(hp);
		i = hp->pos[slot];
	}
	if (i < 0) {
		sift_up(hp, hp->n++, e);
		return;
	}
	if (e < hp->h[i])
		sift_up(hp, i, e);
	else if (e > hp->h[i])
		sift_down(hp, i, e);
}

void bw_heap_del(struct bw_heap *hp, int slot)
{
	int i = hp->pos[slot];
	bw_heap_ent last;

	if (i < 0)
		return;
	if (hp->hole) {
		fill_hole(hp);
		i = hp->pos[slot];
	}
	hp->pos[slot] = -1;
	if (i == 0) {
		hp->hole = true;
		return;
	}
	last = hp->h[--hp->n];
	hp->h[hp->n] = SENTINEL;
	if (i == hp->n)
		return;
	if (last < hp->h[(i - 1) / ARITY])
		sift_up(hp, i, last);
	else
		sift_down(hp, i, last);
}

/* bw_heap_top() with a hole at the root (inline in bandwidth.h). */
void bw_heap_fill(struct bw_heap *hp)
{
	fill_hole(hp);
}

/* Returns: the time @slot is queued for, or BW_NO_TIME when it is not queued. */
uint64_t bw_heap_key(const struct bw_heap *hp, int slot)
{
	int i = hp->pos[slot];

	return i < 0 ? BW_NO_TIME : hp->key[slot];
}

/*
 * The sleeping threads' wake-up times: a calendar queue (R. Brown, "Calendar queues",
 * CACM 31(10), 1988) beside the heap.  (Its operations are inline in bandwidth.h.)
 *
 * Most events are wake-ups at times spread over the next idle phase.  A ring of
 * BW_CAL_NB buckets of 2^BW_CAL_SHIFT ns each covers the window [lo, lo + BW_CAL_NB) of
 * bucket numbers (time >> BW_CAL_SHIFT), lo being the bucket of the simulation's clock:
 * every queued time is at or after the clock, so the window only moves forward and an
 * entry stays in its bucket.  A time past the window is not taken (the caller queues it
 * in the heap instead).  A bitmap of non-empty buckets finds the first one from lo; its
 * few entries (an unsorted list) are compared by (time, slot), the heap's order, so that
 * the least of the calendar and the heap is the same event the heap alone would give.
 */
int bw_cal_init(struct bw_cal *c, int base, int n)
{
	memset(c, 0, sizeof(*c));
	c->base = base;
	c->key = malloc(MAX(n, 1) * sizeof(*c->key));
	c->next = malloc(MAX(n, 1) * sizeof(*c->next));
	c->prev = malloc(MAX(n, 1) * sizeof(*c->prev));
	if (!c->key || !c->next || !c->prev)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		c->key[i] = BW_NO_TIME;
	for (int b = 0; b < BW_CAL_NB; b++)
		c->head[b] = -1;
	c->min = -1;
	return 0;
}

void bw_cal_free(struct bw_cal *c)
{
	free(c->key);
	free(c->next);
	free(c->prev);
}
