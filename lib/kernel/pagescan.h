/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internals of the page inventory (lib/kernel/pagescan*.c).  The pure part
 * (pagescan-parse.c: maps parsing, pagemap decoding, run building, sorting, per-page
 * classification) does no I/O so the unit tests drive it with synthetic data.
 */
#ifndef CGCTL_KERNEL_PAGESCAN_H
#define CGCTL_KERNEL_PAGESCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"

/* /proc/PID/pagemap entry bits (Documentation/admin-guide/mm/pagemap.rst, v6.18) */
#define PM_PFN_MASK		((UINT64_C(1) << 55) - 1)
#define PM_EXCLUSIVE		(UINT64_C(1) << 56)	/* 4.2+ */
#define PM_FILE			(UINT64_C(1) << 61)	/* file page or shared anon (shmem) */
#define PM_SWAP			(UINT64_C(1) << 62)
#define PM_PRESENT		(UINT64_C(1) << 63)

/* /proc/kpageflags bits (include/uapi/linux/kernel-page-flags.h) */
#define KPF_ANON		12
#define KPF_SWAPBACKED		14
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_HUGE		17
#define KPF_THP			22
#define KPF_ZERO_PAGE		24
#define KPF_BIT(b)		(UINT64_C(1) << (b))

#define PS_PMD_PAGES		512	/* 2 MiB / 4 KiB (x86-64) */

/* One VMA of /proc/PID/maps, in page numbers. */
struct ps_vma {
	uint64_t start, end;	/* [start, end) virtual page numbers */
	uint64_t pgoff;		/* file offset of start, in pages */
	bool shared;		/* 's' in perms */
	bool anon;		/* no inode: not hugetlb (which always has one) nor a file */
};
/* A hex number at *@p (advanced past it).  Returns: 0, or -EIO (none, or > 60 bits). */
int ps_parse_hex(const char **p, const char *end, uint64_t *ret);

/* Pagemap flags a run keeps constant (so a run's pages classify alike). */
#define RUN_EXCLUSIVE	(1u << 0)
#define RUN_FILE	(1u << 1)
#define RUN_PMD		(1u << 2)	/* one PMD-mapped 2 MiB folio (PAGEMAP_SCAN said so):
					 * only its head PFN is read */
#define RUN_PMD_THP	(1u << 3)	/* with RUN_PMD, anon exclusive in an inode-less VMA:
					 * an anon THP for sure (hugetlb VMAs have an inode),
					 * so kpageflags is not read */

#define RUN_DESC	(1u << 4)	/* PFNs fall as virtual pages rise (the page allocator
					 * often hands out a block's pages top down): vpn maps
					 * pfn + len - 1.  Never PMD-mapped.  A layout, not a
					 * kind of page: joins and classification ignore it */

/* Pages consecutive both virtually and physically (PFNs rising, or falling with
 * RUN_DESC), with equal pagemap flags. */
struct ps_run {
	uint64_t pfn;		/* the lowest PFN: the run holds [pfn, pfn + len) */
	uint64_t vpn;		/* the lowest virtual page */
	uint32_t len;
	uint32_t flags;		/* RUN_* */
};

struct ps_runs {
	struct ps_run *v;
	size_t n, cap;
	uint64_t pages;
};

/* Counters before attribution: what the pagemap alone tells. */
struct ps_pmstat {
	uint64_t swap;
	uint64_t hidden_anon_excl;	/* present, PFN hidden */
	uint64_t hidden_anon_shared;
	uint64_t hidden_file;
	uint64_t present;		/* all present entries (before dedupe) */
};

/* Parse /proc/PID/maps.  Returns: the number of VMAs and a malloc'ed array, -EIO on a
 * malformed line, -ENOMEM. */
ssize_t ps_parse_maps(const char *buf, size_t len, struct ps_vma **ret);

/* Feed @n pagemap entries that start at virtual page @vpn: present pages with a PFN
 * extend or open runs, the rest is counted in @st.  Returns: 0 or -ENOMEM. */
int ps_runs_feed(struct ps_runs *r, struct ps_pmstat *st, uint64_t vpn,
		 const uint64_t *pm, size_t n);
/* Append all runs of @src to @dst (src unchanged).  Returns: 0 or -ENOMEM. */
int ps_runs_append(struct ps_runs *dst, const struct ps_runs *src);
/* Sort by PFN and drop PFNs already covered by an earlier run (a page mapped twice
 * counts once).  Returns: the number of pages dropped. */
uint64_t ps_runs_sort_dedupe(struct ps_runs *r);
/* The same, sorting through @scratch (@bytes long; NULL: an array of its own) instead
 * of a new array when it is big enough. */
uint64_t ps_runs_sort_dedupe_in(struct ps_runs *r, void *scratch, size_t bytes);
/* Merge @b into @a, each sorted as ps_runs_sort_dedupe() sorts, in that order (@b is
 * left as it was).  Returns: 0 or -ENOMEM. */
int ps_runs_merge(struct ps_runs *a, const struct ps_runs *b);
/* Room for @n runs in @r.  Returns: 0 or -ENOMEM. */
int ps_runs_reserve(struct ps_runs *r, size_t n);
/* Join each run of the sorted @r into the one before when it continues it in PFNs with
 * the same flags (not RUN_PMD), whatever their virtual pages, but not across a multiple
 * of @max PFNs (a power of two: ps_runs_split()'s cuts stay).  A joined run's vpn is its first page's
 * only: for use once PMD mappings are known.  Returns: the number of runs left. */
size_t ps_runs_join_pfn(struct ps_runs *r, uint32_t max);
/* Split runs so none crosses a multiple of @max PFNs (@max a power of two >= 512; keeps
 * PFN order).  Returns: 0 or -ENOMEM. */
int ps_runs_split(struct ps_runs *r, uint32_t max);
/* Free the array; @r is empty afterwards. */
void ps_runs_free(struct ps_runs *r);

/* Page categories in struct cgctl_inv_group order. */
enum ps_cat {
	PS_ANON_EXCL,
	PS_ANON_SHARED,
	PS_FILE,
	PS_SHMEM,
	PS_ZERO,	/* the shared zero page: never charged */
	PS_NCAT,
};

/* Classify one page from its run flags and (if @have_kflags) its kpageflags. */
enum ps_cat ps_classify(uint32_t run_flags, bool have_kflags, uint64_t kflags);

/*
 * Pages of @len starting at run offset 0 that belong to whole PMD-sized THP folios
 * mapped at 2 MiB-aligned addresses: for each aligned block, the head flags at the
 * block's first page and tail (not head) flags at the 511 others.  @kf holds the run's
 * kpageflags.  Returns: the number of such pages (a multiple of 512).
 */
uint64_t ps_count_thp_pmd(const struct ps_run *run, const uint64_t *kf);
/* Virtual page ranges [start, end) of the 2 MiB blocks that runs cover whole and
 * aligned alike in both spaces: the only places a PMD mapping can be.  Returns: the
 * count and a malloc'ed array (adjacent blocks merged), or -ENOMEM. */
struct ps_vrange {
	uint64_t start, end;
};
ssize_t ps_pmd_candidates(const struct ps_runs *r, struct ps_vrange **ret);
/* Before PAGEMAP_SCAN (6.7): the candidate blocks (@cand, sorted) that /proc/PID/smaps
 * (@buf) says are PMD-mapped, VMA by VMA: none where its AnonHugePages, ShmemPmdMapped
 * and FilePmdMapped add up to 0, all where they add up to its candidates (see
 * pagescan-smaps.c).  Returns: the count and a malloc'ed sorted array of their first
 * virtual pages, -EAGAIN when a VMA holds some of its candidates PMD-mapped but not
 * all (which ones is not told), -EIO for a malformed file, or -ENOMEM. */
ssize_t ps_pmd_from_smaps(const char *buf, size_t len, const struct ps_vrange *cand,
			  size_t nc, uint64_t **ret);
/* Cut the blocks whose first virtual page is in @pmd_vpns (sorted) out of their runs as
 * RUN_PMD runs of 512 pages.  PFN order is kept.  Returns: 0 or -ENOMEM. */
int ps_runs_mark_pmd(struct ps_runs *r, const uint64_t *pmd_vpns, size_t n);
/* Flag RUN_PMD_THP on the anon exclusive RUN_PMD runs that lie in an inode-less VMA of
 * @v (sorted, as in maps). */
void ps_runs_mark_pmd_thp(struct ps_runs *r, const struct ps_vma *v, size_t n);
/* The PFN after the last one a window must read for @run. */
static inline uint64_t ps_run_read_end(const struct ps_run *run)
{
	return run->pfn + (run->flags & RUN_PMD ? 1 : run->len);
}

/* @run may hold anon pages mapped elsewhere too: kpagecount is wanted (mapcount 2). */
static inline bool ps_run_counts(const struct ps_run *run)
{
	return !(run->flags & (RUN_FILE | RUN_EXCLUSIVE));
}

/* Offset in @run of its first 2 MiB-aligned block, UINT64_MAX if virtual and physical
 * alignment differ (then no block can be PMD-mapped). */
uint64_t ps_pmd_first(const struct ps_run *run);
/* @kf: 512 kpageflags of an aligned block.  Returns: true for one PMD-sized THP folio. */
bool ps_is_pmd_folio(const uint64_t *kf);

/* Per-memcg counters while scanning (merged into struct cgctl_inv_group at the end). */
struct ps_group {
	uint64_t ino;
	uint64_t cat[PS_NCAT];
	uint64_t shared_mc2;
	uint64_t thp, thp_pmd;
	uint64_t thp_heads;	/* of thp: head pages (one per folio whose head is mapped) */
};

struct ps_groups {
	struct ps_group *v;
	size_t n, cap;
	size_t last;		/* index of the last lookup: pages come in long same-ino runs */
};

/* The group of @ino, created on first use.  Returns: NULL on -ENOMEM. */
struct ps_group *ps_groups_get(struct ps_groups *g, uint64_t ino);
/* Add all counters of @src into @dst.  Returns: 0 or -ENOMEM. */
int ps_groups_merge(struct ps_groups *dst, const struct ps_groups *src);
void ps_groups_free(struct ps_groups *g);

/*
 * 2 MiB PFN blocks of a window whose kpagecgroup entries read so far are not all equal.
 * page_cgroup_ino() (mm/memcontrol.c, v6.18) answers for a page's folio
 * (folio_memcg_check(page_folio(page))), so every PFN of one folio reads the same
 * value: such a block is not one PMD-order folio, and when no smaller anon THP can exist
 * (ps_run_sampled()) none of its anon pages is THP, which its kpageflags sample would
 * only repeat.  Free and kernel pages read 0: a task's block is most often mixed.
 */
#define PS_MIX_BLOCKS	17	/* a window of up to 8 Ki PFNs, not block-aligned */
struct ps_mixed {
	uint64_t blk0;			/* the window's first block (PFN / 512) */
	uint64_t first[PS_MIX_BLOCKS];	/* the first entry read in each block */
	uint8_t state[PS_MIX_BLOCKS];	/* 0: none read, 1: all equal, 2: mixed */
};
/* How many of the @n entries from @v on equal @x (four at a time, SSE2 where the
 * compiler targets it, then one by one). */
size_t ps_leading_equal(const uint64_t *v, size_t n, uint64_t x);
/* Start over for a window whose first PFN is @base. */
void ps_mixed_reset(struct ps_mixed *m, uint64_t base);
/* Note kpagecgroup entries [a, b), @kcg indexed by pfn - @base. */
void ps_mixed_add(struct ps_mixed *m, const uint64_t *kcg, uint64_t base, uint64_t a,
		  uint64_t b);
/* Returns: true when the block of @pfn is known mixed (false for NULL @m). */
static inline bool ps_mixed_is(const struct ps_mixed *m, uint64_t pfn)
{
	uint64_t i = m ? pfn / PS_PMD_PAGES - m->blk0 : PS_MIX_BLOCKS;

	return i < PS_MIX_BLOCKS && m->state[i] == 2;
}
/* kpagecgroup entries @v of PFNs [@pfn, @pfn + @n): a 0 after an owner in the same
 * 2 MiB block is a tail page that 6.1 reports uncharged; it takes that owner. */
void ps_kcg_fill_tails(uint64_t *v, uint64_t pfn, size_t n);
/* Returns: true when every kpagecgroup entry read in the block of @pfn is *@ino. */
static inline bool ps_mixed_one(const struct ps_mixed *m, uint64_t pfn, uint64_t *ino)
{
	uint64_t i = m ? pfn / PS_PMD_PAGES - m->blk0 : PS_MIX_BLOCKS;

	if (i >= PS_MIX_BLOCKS || m->state[i] != 1)
		return false;
	*ino = m->first[i];
	return true;
}

/* Page counts a window of runs contributes, given its kpage* arrays (any may be NULL:
 * unknown).  @kf/@kcg/@kc are indexed by pfn - @base.  Returns: 0 or -ENOMEM. */
struct ps_window {
	uint64_t base;		/* first PFN of the arrays */
	const uint64_t *kf, *kcg, *kc;
	bool pmd_known;		/* PMD mappings were cut out as RUN_PMD runs; else whole
				 * aligned folios in a run count as thp_pmd */
	bool mthp_off;		/* no anon folio of an order between 0 and PMD exists:
				 * @kf holds one entry per 2 MiB PFN block of anon
				 * exclusive runs (see ps_run_sampled()) */
	bool anon_small;	/* no anon folio above order 0 exists: @kf holds nothing
				 * for anon exclusive runs (see ps_run_flagless()) */
	const struct ps_mixed *mixed;	/* blocks known not one folio (NULL: none) */
	uint64_t zero;		/* out: zero-page mappings */
	uint64_t sblock, sval;	/* in/out: the last sampled block + 1 and its kpageflags
				 * (0 for a mixed block), carried from window to window */
};
int ps_account_run(struct ps_groups *g, struct ps_window *w, const struct ps_run *run);

/*
 * Whether @run needs only sampled kpageflags: one entry per 512-PFN block, at the
 * window's first page of a sampled run in that block.  True for anon exclusive runs
 * (not RUN_PMD) when no anon folio between order 0 and PMD order can exist: pagemap bit
 * 56 without bit 61 already says anon exclusive (fs/proc/task_mmu.c:
 * pte_to_pagemap_entry() sets bit 61 for every !PageAnon page, and never bit 56 for the
 * zero page), so the flags are wanted only for THP, and a THP page then is in a
 * PMD-order folio, which is naturally aligned and fills its whole 512-PFN block: one
 * anon page of the block tells for all anon pages there (a block that is not one THP
 * folio holds no anon page of any).
 */
static inline bool ps_run_sampled(bool mthp_off, const struct ps_run *run)
{
	return mthp_off && (run->flags & (RUN_EXCLUSIVE | RUN_FILE | RUN_PMD)) == RUN_EXCLUSIVE;
}

/*
 * Whether @run needs no kpageflags at all: anon exclusive (as for ps_run_sampled())
 * while no anon folio above order 0 exists (@anon_small: every THP size's stats/nr_anon
 * reads 0), so none of its pages is THP and the pagemap bits say all else.
 */
static inline bool ps_run_flagless(bool anon_small, const struct ps_run *run)
{
	return anon_small && (run->flags & (RUN_EXCLUSIVE | RUN_FILE | RUN_PMD)) == RUN_EXCLUSIVE;
}

/* The kpage* files a window reads, and which part of each run each needs. */
enum ps_kfile {
	PS_KCG,		/* kpagecgroup: every page (RUN_PMD: the head) */
	PS_KF,		/* kpageflags: every page, or sampled (ps_run_sampled()) */
	PS_KC,		/* kpagecount: anon shared candidates only (mapcount 2) */
};

/* PFN spans of runs [k, end) one file needs, in PFN order, spans closer than @gap
 * PFNs merged (runs must be sorted by PFN and disjoint). */
struct ps_span_iter {
	const struct ps_run *rv;
	size_t k, end;
	enum ps_kfile file;
	bool mthp_off;
	bool anon_small;	/* as struct ps_window's */
	uint32_t gap;
	uint64_t pos;		/* next sample PFN of run k (0: at its start) */
	uint64_t sblock;	/* the last sampled block + 1 (as struct ps_window's) */
	const struct ps_mixed *mixed;	/* blocks not sampled (NULL: none) */
	bool have;		/* a span is held in [a, b) (lookahead) */
	uint64_t a, b;
};
/* Returns: true and the next span in [*a, *b), false at the end. */
bool ps_span_next(struct ps_span_iter *it, uint64_t *a, uint64_t *b);

/*
 * Whether anon folios between order 0 and PMD order are impossible now: each
 * /sys/kernel/mm/transparent_hugepage/hugepages-<size>kB below the PMD size whose
 * @enabled selects never (or inherit while @top selects never) and whose @nr_anon
 * (stats/nr_anon, 6.12+: such folios existing now) is 0.  NULL @nr_anon: unknown.
 * Returns: true when this size cannot hold anon folios.
 */
bool ps_mthp_size_off(const char *enabled, const char *top, const char *nr_anon);
/* The same size's state apart: *@none_now when @nr_anon reads 0 (no anon folio of this
 * size exists now), *@may_grow unless @enabled (or @top, for inherit) selects never. */
void ps_thp_size_state(const char *enabled, const char *top, const char *nr_anon,
		       bool *none_now, bool *may_grow);
/* Does @nr_anon (a stats/nr_anon file's text, NULL: unreadable) read 0? */
bool ps_nr_anon_zero(const char *nr_anon);

#endif
