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

static bool before(const struct bw_heap *hp, int a, int b)
{
	if (hp->key[a] != hp->key[b])
		return hp->key[a] < hp->key[b];
	return a < b;
}

static void place(struct bw_heap *hp, int i, int slot)
{
	hp->h[i] = slot;
	hp->pos[slot] = i;
}

static void sift_up(struct bw_heap *hp, int i)
{
	int slot = hp->h[i];

	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!before(hp, slot, hp->h[parent]))
			break;
		place(hp, i, hp->h[parent]);
		i = parent;
	}
	place(hp, i, slot);
}

static void sift_down(struct bw_heap *hp, int i)
{
	int slot = hp->h[i];

	for (;;) {
		int c = 2 * i + 1;

		if (c >= hp->n)
			break;
		if (c + 1 < hp->n && before(hp, hp->h[c + 1], hp->h[c]))
			c++;
		if (!before(hp, hp->h[c], slot))
			break;
		place(hp, i, hp->h[c]);
		i = c;
	}
	place(hp, i, slot);
}

void bw_heap_set(struct bw_heap *hp, int slot, uint64_t key)
{
	int i = hp->pos[slot];

	if (i < 0) {
		hp->key[slot] = key;
		place(hp, hp->n++, slot);
		sift_up(hp, hp->n - 1);
		return;
	}
	if (key == hp->key[slot])
		return;
	hp->key[slot] = key;
	sift_up(hp, i);
	sift_down(hp, hp->pos[slot]);
}

void bw_heap_del(struct bw_heap *hp, int slot)
{
	int i = hp->pos[slot];
	int last;

	if (i < 0)
		return;
	hp->pos[slot] = -1;
	last = hp->h[--hp->n];
	if (i == hp->n)
		return;
	place(hp, i, last);
	sift_up(hp, i);
	sift_down(hp, hp->pos[last]);
}

/* Returns: the earliest slot (its time in *key), or -1 when empty. */
int bw_heap_top(const struct bw_heap *hp, uint64_t *key)
{
	if (!hp->n)
		return -1;
	*key = hp->key[hp->h[0]];
	return hp->h[0];
}
