/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A few freed memory blocks kept for the next user.  A scratch array of more than
 * malloc's mmap threshold is mapped afresh at every allocation and unmapped at free, so
 * every page of it costs a page fault each time (10-40 us on a paravirtualised guest:
 * bench/scan measured a 1 GiB inventory 8.2 ms with fresh arrays, 5.7 ms with kept
 * ones).  Blocks handed back stay mapped here, up to BLKCACHE_MAX_BYTES, for later
 * scans of the same context and for later arrays of the same scan.
 *
 * Thread-safe (one mutex).  A NULL cache falls back to malloc()/free().
 */
#ifndef CGCTL_BLKCACHE_H
#define CGCTL_BLKCACHE_H

#include <stddef.h>

#define BLKCACHE_SLOTS		16
#define BLKCACHE_MAX_BYTES	(64UL << 20)

struct blkcache;

/* Returns: a new empty cache, NULL on ENOMEM. */
struct blkcache *blkcache_new(void);
/* Free the cache and every block it holds (NULL: nothing). */
void blkcache_free(struct blkcache *c);
/* A block of at least @want bytes, its usable size in *@cap (not zeroed).
 * Returns: the block, NULL on ENOMEM (or @want == 0). */
void *blk_get(struct blkcache *c, size_t want, size_t *cap);
/* Hand back @p of usable size @cap (from blk_get() on the same cache; NULL: nothing). */
void blk_put(struct blkcache *c, void *p, size_t cap);
/* @p (usable size *@cap, its first @used bytes in use) grown to at least @want bytes:
 * the used bytes are copied and the old block handed back.
 * Returns: the block, NULL on ENOMEM (@p is then left as it was). */
void *blk_grow(struct blkcache *c, void *p, size_t used, size_t *cap, size_t want);

#endif
