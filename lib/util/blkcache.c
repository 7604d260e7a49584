/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Freed scratch blocks kept mapped for reuse (see blkcache.h). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/blkcache.h"

struct blkcache {
	pthread_mutex_t lock;
	size_t n, bytes;
	struct {
		void *p;
		size_t cap;
	} slot[BLKCACHE_SLOTS];
};

struct blkcache *blkcache_new(void)
{
	struct blkcache *c = calloc(1, sizeof(*c));

	if (c)
		pthread_mutex_init(&c->lock, NULL);
	return c;
}

void blkcache_free(struct blkcache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->slot[i].p);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* Sizes are rounded up to a power of two from 4 KiB: a block then fits many later
 * requests, and its pages nobody touches are never faulted in. */
static size_t round_size(size_t want)
{
	size_t s = 4096;

	while (s < want && s < (SIZE_MAX >> 1))
		s <<= 1;
	return s < want ? want : s;
}

/* The smallest kept block of at least @want bytes, taken out of @c; NULL: none. */
static void *take(struct blkcache *c, size_t want, size_t *cap)
{
	size_t best = SIZE_MAX;
	void *p = NULL;

	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->n; i++)
		if (c->slot[i].cap >= want &&
		    (best == SIZE_MAX || c->slot[i].cap < c->slot[best].cap))
			best = i;
	if (best != SIZE_MAX) {
		p = c->slot[best].p;
		*cap = c->slot[best].cap;
		c->bytes -= *cap;
		c->slot[best] = c->slot[--c->n];
	}
	pthread_mutex_unlock(&c->lock);
	return p;
}

void *blk_get(struct blkcache *c, size_t want, size_t *cap)
{
	void *p;

	if (!want)
		return NULL;
	if (!c) {
		*cap = want;
		return malloc(want);
	}
	p = take(c, want, cap);
	if (p)
		return p;
	*cap = round_size(want);
	p = malloc(*cap);
	if (!p && *cap > want) {
		*cap = want;
		p = malloc(want);
	}
	return p;
}

void blk_put(struct blkcache *c, void *p, size_t cap)
{
	void *drop = p;

	if (!p)
		return;
	if (c && cap <= BLKCACHE_MAX_BYTES) {
		pthread_mutex_lock(&c->lock);
		/* make room by dropping smaller blocks: the big ones cost the most faults */
		while (c->n && (c->n == BLKCACHE_SLOTS || c->bytes + cap > BLKCACHE_MAX_BYTES)) {
			size_t min = 0;

			for (size_t i = 1; i < c->n; i++)
				if (c->slot[i].cap < c->slot[min].cap)
					min = i;
			if (c->slot[min].cap >= cap)
				break;
			free(c->slot[min].p);
			c->bytes -= c->slot[min].cap;
			c->slot[min] = c->slot[--c->n];
		}
		if (c->n < BLKCACHE_SLOTS && c->bytes + cap <= BLKCACHE_MAX_BYTES) {
			c->slot[c->n].p = p;
			c->slot[c->n++].cap = cap;
			c->bytes += cap;
			drop = NULL;
		}
		pthread_mutex_unlock(&c->lock);
	}
	free(drop);
}

void *blk_grow(struct blkcache *c, void *p, size_t used, size_t *cap, size_t want)
{
	size_t ncap = c ? round_size(want) : want;
	void *n;

	if (p && want <= *cap)
		return p;
	/* a kept block that fits: the copy touches only pages mapped already */
	n = c ? take(c, want, &ncap) : NULL;
	if (n) {
		if (used)
			memcpy(n, p, used);
		blk_put(c, p, *cap);
	} else {	/* realloc() moves a mapped block's pages (mremap) without faults */
		n = realloc(p, ncap);
		if (!n)
			return NULL;
	}
	*cap = ncap;
	return n;
}
