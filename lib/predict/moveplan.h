/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The move plan's internal entry points (lib/predict/moveplan.c). */
#ifndef CGCTL_PREDICT_MOVEPLAN_H
#define CGCTL_PREDICT_MOVEPLAN_H

#include "libcgctl.h"
#include "kernel/pagecache.h"

/* Add the unmapped page cache @c found charged to the source to @in's classes: file
 * and shmem pages move with bit 1, those of large folios are precharged only. */
void cgctl_move_input_add_unmapped(struct cgctl_move_input *in,
				   const struct cgctl_unmapped_cache *c);

/* The number of cgroups in the subtree of @path, itself included, counted up to @max
 * (>= 1; an unreadable directory counts as a leaf): a bound that needs only the first
 * few need not walk 2,000 siblings. */
unsigned int cgctl_mem_subtree_size_upto(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
					 const char *path, unsigned int max);

#endif
