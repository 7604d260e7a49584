/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Page cache a task's file mappings cover without mapping it (lib/kernel/pagecache.c). */
#ifndef CGCTL_KERNEL_PAGECACHE_H
#define CGCTL_KERNEL_PAGECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cgctl_ctx;

/* Pages of a memcg found by cgctl_unmapped_cache_scan(), by move-charge class. */
struct cgctl_unmapped_cache {
	uint64_t file, shmem;	/* charged to the memcg asked for */
	uint64_t large;		/* of those: in large folios (precharged, never moved) */
	uint64_t large_shmem;	/* of large: shmem */
	uint64_t elsewhere;	/* charged to other memcgs: never moved */
};

/*
 * Page cache that v6.1's move charge finds through the none PTEs of a task's file
 * mappings: the resident pages of the file at the addresses the task has not mapped, in
 * the 2 MiB ranges that have a page table (see pagecache.c).  @pids: the tasks whose mms
 * move; pages charged to @from_ino are counted in @out, each physical page once.
 * Returns: 0, or -errno (-EPERM without CAP_SYS_ADMIN: map_files and PFNs are root's).
 */
int cgctl_unmapped_cache_scan(struct cgctl_ctx *ctx, const pid_t *pids, size_t n,
			      uint64_t from_ino, struct cgctl_unmapped_cache *out);

/* the scan of the file VMAs that meet virtual pages [@lo, @hi) only (unit tests) */
int pc_scan_range(struct cgctl_ctx *ctx, const pid_t *pids, size_t n, uint64_t lo,
		  uint64_t hi, uint64_t from_ino, struct cgctl_unmapped_cache *out);

/* pure parts, for the unit tests */
/* Of @n pagemap entries from virtual page @vpn0 (2 MiB-aligned), which 2 MiB blocks
 * hold any present or swap entry (a page table exists): bit b of @blocks[b / 64]. */
void pc_table_blocks(const uint64_t *pm, size_t n, uint64_t *blocks);

#endif
