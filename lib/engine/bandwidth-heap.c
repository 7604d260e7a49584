/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth model: the event queue, an indexed binary heap of fixed slots (one per
 * CPU, thread, group timer), keyed by time and then slot number so that runs are
 * deterministic.
 */
#include "internal.h"
#include "engine/bandwidth.h"

int bw_heap_init(struct bw_heap *hp, int nslots)
{
	hp->key = calloc(nslots, sizeof(*hp->key));
	hp->pos = malloc(nslots * sizeof(*hp->pos));
	hp->h = malloc(nslots * sizeof(*hp->h));
	hp->n = 0;
	if (!hp->key || !hp->pos || !hp->h)
		return -ENOMEM;
	for (int i = 0; i < nslots; i++)
		hp->pos[i] = -1;
	return 0;
}

void bw_heap_free(struct bw_heap *hp)
{
	free(hp->key);
	free(hp->pos);
	free(hp->h);
}

/* Entries carry their key, so sifting touches one array only. */
static bool before(const struct bw_heap_ent *a, const struct bw_heap_ent *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	return a->slot < b->slot;
}

static void place(struct bw_heap *hp, int i, struct bw_heap_ent e)
{
	hp->h[i] = e;
	hp->pos[e.slot] = i;
}

static void sift_up(struct bw_heap *hp, int i)
{
	struct bw_heap_ent e = hp->h[i];

	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!before(&e, &hp->h[parent]))
			break;
		place(hp, i, hp->h[parent]);
		i = parent;
	}
	place(hp, i, e);
}

static void sift_down(struct bw_heap *hp, int i)
{
	struct bw_heap_ent e = hp->h[i];

	for (;;) {
		int c = 2 * i + 1;

		if (c >= hp->n)
			break;
		if (c + 1 < hp->n && before(&hp->h[c + 1], &hp->h[c]))
			c++;
		if (!before(&hp->h[c], &e))
			break;
		place(hp, i, hp->h[c]);
		i = c;
	}
	place(hp, i, e);
}

void bw_heap_set(struct bw_heap *hp, int slot, uint64_t key)
{
	int i = hp->pos[slot];
	uint64_t old;

	hp->key[slot] = key;
	if (i < 0) {
		place(hp, hp->n++, (struct bw_heap_ent){ key, slot });
		sift_up(hp, hp->n - 1);
		return;
	}
	old = hp->h[i].key;
	hp->h[i].key = key;
	if (key < old)
		sift_up(hp, i);
	else if (key > old)
		sift_down(hp, i);
}

void bw_heap_del(struct bw_heap *hp, int slot)
{
	int i = hp->pos[slot];
	struct bw_heap_ent last;

	if (i < 0)
		return;
	hp->pos[slot] = -1;
	last = hp->h[--hp->n];
	if (i == hp->n)
		return;
	place(hp, i, last);
	sift_up(hp, i);
	sift_down(hp, hp->pos[last.slot]);
}

/* Returns: the earliest slot (its time in *key), or -1 when empty. */
int bw_heap_top(const struct bw_heap *hp, uint64_t *key)
{
	if (!hp->n)
		return -1;
	*key = hp->h[0].key;
	return hp->h[0].slot;
}
