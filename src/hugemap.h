/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Big output buffers as one transparent huge page: on a paravirtualised machine the
 * first touch of every 4 KiB page is a trap of ~10 microseconds, of a 2 MiB THP ~130.
 */
#ifndef CGCTL_HUGEMAP_H
#define CGCTL_HUGEMAP_H

#include <stddef.h>

#define HUGEMAP_SIZE ((size_t)2 << 20)

/* HUGEMAP_SIZE bytes, aligned to their size and marked MADV_HUGEPAGE (ordinary memory
 * where THP is off).  Returns: NULL when there is no mapping to be had. */
void *hugemap_new(void);
void hugemap_free(void *p);

#endif
