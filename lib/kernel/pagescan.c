/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page inventory of a task: /proc/PID/maps + pagemap, then kpagecgroup, kpageflags and
 * (for anon pages mapped elsewhere too) kpagecount, read per window of PFN-sorted runs.
 *
 * Why this shape (measured costs in kernel-memory-model.md section 6.5): an 8-byte
 * pread per page, as tools/mm/page-types -p does (walk_task() -> walk_pfn(..., 1)),
 * costs a syscall per page and file; reading a PFN window costs only the kernel's
 * per-PFN work.  Runs of virtually and physically consecutive pages are built while
 * the pagemap is read, sorted by PFN (a page mapped twice counts once), and read in
 * windows of up to WIN_PFNS PFNs that bridge gaps of at most WIN_GAP PFNs.  Both
 * phases split the work between up to two threads (the machine has two CPUs).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "ctx.h"
#include "kernel/pagescan.h"
#include "kernel/pagescan-result.h"

#define PM_CHUNK	(8 * 1024)	/* pagemap entries per pread (64 KiB) */
#define WIN_PFNS	(8 * 1024)	/* PFNs per kpage* pread (64 KiB) */
#define BUF_BYTES	(MAX(PM_CHUNK, 3 * WIN_PFNS) * sizeof(uint64_t))
#define WIN_GAP		32		/* unused PFNs a window may bridge: each costs less
					 * than a tenth of a pread */
_Static_assert(WIN_PFNS / PS_PMD_PAGES + 1 <= PS_MIX_BLOCKS, "a window's blocks");
#define MIN_PAGES_PER_THREAD 8192	/* below this a thread costs more than it saves */
#define SPAN_PFNS	128		/* a pread costs about what reading this many more
					 * PFNs does (~2.5 us against ~20 ns a PFN) */

/* PAGEMAP_SCAN (6.7+, include/uapi/linux/fs.h); Debian 12's headers predate it. */
#ifndef PAGEMAP_SCAN
#define PAGE_IS_HUGE	(1 << 6)
struct page_region {
	uint64_t start, end, categories;
};
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PAGEMAP_SCAN	_IOWR('f', 16, struct pm_scan_arg)
#endif
#define SCAN_VEC	256	/* regions per PAGEMAP_SCAN call */
#define THP_SIZES	16	/* hugepages-<size>kB directories tracked (6.18: 10) */
/* Pieces of work each phase is cut into at most, claimed by whichever worker is free:
 * two fixed halves finish apart when the other CPU is busy with something else, or
 * wakes late.  Their sizes shrink (guided_ends()). */
#define CHUNKS		32

struct scan {
	struct cgctl_ctx *ctx;
	unsigned int flags;
	int pm_fd, kf_fd, kcg_fd, kc_fd;
	bool pmd_known;		/* PMD-mapped blocks found with PAGEMAP_SCAN */
	bool mthp_off;		/* no anon mTHP below PMD order: sampled kpageflags */
	bool pmd_busy;		/* PMD-sized anon THPs may exist: one pagemap reader */
	bool pmd_ok;		/* THP sysfs is there and its PMD size is 2 MiB */
	bool anon_small;	/* no anon THP of any size exists: anon exclusive runs
				 * need no kpageflags (ps_run_flagless()) */
	unsigned int n_grow;	/* THP sizes that may get new anon folios meanwhile */
	unsigned long grow_kb[THP_SIZES];	/* ... their sizes, re-read after */
	bool prep_pending;	/* prepare() is still to be done (by prep_worker) */
	pid_t pid0;		/* the task whose cgroup the result names */
	unsigned int kpage_unknown;	/* open_kpage()'s */
	char *task_cgroup;	/* pid0's memory cgroup (prepare()), NULL if unknown */
	uint64_t task_ino;
	int readers;		/* workers reading the pagemap (phase 1) */
	int prep_worker;	/* the one to call prepare(): not a reader if one is
				 * free, else the first (the other starts reading) */
	struct ps_vma *vmas;
	size_t n_vmas;
	uint64_t virt_pages;
	/* the current phase's chunks: [cut[k], cut[k + 1]) for k < n_chunks, in virtual
	 * pages counted across all VMAs (phase 1) or indexes of sorted runs (phase 2) */
	uint64_t cut[CHUNKS + 1];
	size_t n_chunks;
	size_t next_chunk;	/* the next one to claim (atomic) */
};

struct worker {
	struct scan *s;
	int id;
	/* phase 1 */
	struct ps_runs runs;
	struct ps_pmstat st;
	/* phase 2 */
	const struct ps_run *rv;	/* the sorted runs */
	struct ps_groups groups;
	uint64_t zero;
	uint64_t sblock, sval;	/* the last sampled block (struct ps_window) */
	struct ps_mixed mixed;	/* the window's blocks not one folio */
	uint64_t *buf;		/* PM_CHUNK entries; the sort's scratch; then three
				 * WIN_PFNS windows */
	size_t buf_cap;
	int err;
};

static ssize_t pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t k = pread(fd, (char *)buf + done, len - done, off + (off_t)done);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			break;
		done += (size_t)k;
	}
	return (ssize_t)done;
}

/* Pagemap of virtual pages [vpn, vpn + n) into runs. */
static int read_pagemap(struct worker *w, uint64_t vpn, uint64_t n)
{
	while (n) {
		size_t want = (size_t)MIN(n, (uint64_t)PM_CHUNK);
		ssize_t k = pread_full(w->s->pm_fd, w->buf, want * 8, (off_t)(vpn * 8));
		int r;

		if (k < 0)
			return (int)k;
		if (k == 0)	/* beyond the task's address space ([vsyscall]) */
			return 0;
		r = ps_runs_feed(&w->runs, &w->st, vpn, w->buf, (size_t)k / 8);
		if (r < 0)
			return r;
		vpn += (uint64_t)k / 8;
		n -= (uint64_t)k / 8;
	}
	return 0;
}

#ifndef PAGE_IS_PRESENT
#define PAGE_IS_PRESENT	(1 << 3)
#define PAGE_IS_SWAPPED	(1 << 4)
#endif
#define SPARSE_PAGES	(1u << 20)	/* 4 GiB: above this, ask which parts are populated
					 * (asking walks the page tables once more: a 1 GiB
					 * THP VMA read 2x slower with it) */

/*
 * Pagemap of [vpn, vpn + n) reading only the populated parts PAGEMAP_SCAN names: a
 * reservation of terabytes (sanitizer shadow, JVM heaps) would otherwise cost a
 * zeroed entry per page.  Returns: 0, -ENOTTY (no ioctl: read it all), -errno.
 */
static int read_pagemap_sparse(struct worker *w, uint64_t vpn, uint64_t n)
{
	struct page_region reg[SCAN_VEC];
	struct pm_scan_arg arg = {
		.size = sizeof(arg), .start = vpn * 4096, .end = (vpn + n) * 4096,
		.vec = (uint64_t)(uintptr_t)reg, .vec_len = SCAN_VEC,
		.category_anyof_mask = PAGE_IS_PRESENT | PAGE_IS_SWAPPED,
		.return_mask = PAGE_IS_PRESENT | PAGE_IS_SWAPPED,
	};

	while (arg.start < arg.end) {
		int k = ioctl(w->s->pm_fd, PAGEMAP_SCAN, &arg), r = 0;

		if (k < 0)
			return errno == EINVAL || errno == EOPNOTSUPP ? -ENOTTY : -errno;
		for (int i = 0; i < k && r == 0; i++)
			r = read_pagemap(w, reg[i].start / 4096, (reg[i].end - reg[i].start) / 4096);
		if (r < 0)
			return r;
		if (arg.walk_end <= arg.start)
			break;
		arg.start = arg.walk_end;
	}
	return 0;
}

static int read_range(struct worker *w, uint64_t vpn, uint64_t n)
{
	if (n > SPARSE_PAGES) {
		int r = read_pagemap_sparse(w, vpn, n);

		if (r != -ENOTTY)
			return r;
	}
	return read_pagemap(w, vpn, n);
}

/* The worker's buffer. */
static int worker_buf(struct worker *w)
{
	if (w->buf)
		return 0;
	w->buf = malloc(BUF_BYTES);
	w->buf_cap = BUF_BYTES;
	return w->buf ? 0 : -ENOMEM;
}

static void prepare(struct scan *s);

/* The next unclaimed chunk of the phase in [*lo, *hi).  Returns: false when none. */
static bool claim(struct scan *s, const struct worker *w, uint64_t *lo, uint64_t *hi)
{
	size_t k = __atomic_fetch_add(&s->next_chunk, 1, __ATOMIC_RELAXED);

	if (k >= s->n_chunks || w->err)
		return false;
	*lo = s->cut[k];
	*hi = s->cut[k + 1];
	return true;
}

/* Pagemap of virtual pages [lo, hi), counted across all VMAs in order, into w->runs. */
static int read_virt(struct worker *w, uint64_t lo, uint64_t hi)
{
	uint64_t pos = 0;
	int r = 0;

	for (size_t i = 0; i < w->s->n_vmas && pos < hi && !r; i++) {
		const struct ps_vma *v = &w->s->vmas[i];
		uint64_t len = v->end - v->start, a, b;

		a = MAX(pos, lo);
		b = MIN(pos + len, hi);
		if (a < b)
			r = read_range(w, v->start + (a - pos), b - a);
		pos += len;
	}
	return r;
}

static void *phase_pagemap(void *arg)
{
	struct worker *w = arg;
	uint64_t lo, hi;

	if (w->id == w->s->prep_worker && w->s->prep_pending) {
		prepare(w->s);
		w->s->prep_pending = false;
	}
	if (w->id >= w->s->readers)
		return NULL;
	while (claim(w->s, w, &lo, &hi))
		w->err = read_virt(w, lo, hi);
	/* sorted and split here, in parallel: the main thread only merges the halves
	 * (sorting through the pagemap buffer, free now and mapped already) */
	if (!w->err) {
		ps_runs_sort_dedupe_in(&w->runs, w->buf, w->buf_cap);
		w->err = ps_runs_split(&w->runs, WIN_PFNS);
	}
	return NULL;
}

/* Read @fd's entries for PFNs [base, base + n) into @dst; zeros past the last PFN. */
static int read_kpage(int fd, uint64_t *dst, uint64_t base, size_t n)
{
	ssize_t k = pread_full(fd, dst, n * 8, (off_t)(base * 8));

	if (k < 0)
		return (int)k;
	if ((size_t)k < n * 8)
		memset((char *)dst + k, 0, n * 8 - (size_t)k);
	return 0;
}

/*
 * Read what runs [i, j) need of one kpage file into @arr (indexed by pfn - @base), one
 * pread per span: only the pages that need it, only where they need it.  Entries
 * nobody needs are left as they were.
 */
static int read_spans(const struct scan *s, struct worker *w, enum ps_kfile file,
		      uint64_t *arr, const struct ps_window *win, size_t i, size_t j)
{
	int fd = file == PS_KCG ? s->kcg_fd : file == PS_KF ? s->kf_fd : s->kc_fd;
	struct ps_span_iter it = { .rv = w->rv, .k = i, .end = j, .file = file,
				   .mthp_off = s->mthp_off, .anon_small = s->anon_small,
				   .gap = WIN_GAP,
				   .sblock = win->sblock, .mixed = win->mixed };
	uint64_t a, b, base = win->base;
	int r = 0;

	while (r == 0 && ps_span_next(&it, &a, &b)) {
		r = read_kpage(fd, arr + (a - base), a, (size_t)(b - a));
		if (r == 0 && file == PS_KCG)
			ps_kcg_fill_tails(arr + (a - base), a, (size_t)(b - a));
		if (r == 0 && file == PS_KCG && (s->mthp_off || s->anon_small))
			ps_mixed_add(&w->mixed, arr, base, a, b);
	}
	return r;
}

/* The runs [i, *end) that one window covers. */
static size_t window_end(const struct ps_run *rv, size_t i, size_t hi, bool *need_kc)
{
	uint64_t base = rv[i].pfn, last = ps_run_read_end(&rv[i]);
	size_t j = i + 1;

	*need_kc = ps_run_counts(&rv[i]);
	while (j < hi && rv[j].pfn <= last + WIN_GAP &&
	       ps_run_read_end(&rv[j]) - base <= WIN_PFNS) {
		last = ps_run_read_end(&rv[j]);
		*need_kc |= ps_run_counts(&rv[j]);
		j++;
	}
	return j;
}

/* One window: read what its runs need of each kpage file, then account its runs. */
static int do_window(struct worker *w, size_t i, size_t j, bool need_kc)
{
	const struct scan *s = w->s;
	struct ps_window win = { .base = w->rv[i].pfn, .pmd_known = s->pmd_known,
				 .mthp_off = s->mthp_off, .anon_small = s->anon_small,
				 .sblock = w->sblock, .sval = w->sval };
	uint64_t *kcg = w->buf, *kf = w->buf + WIN_PFNS, *kc = w->buf + 2 * WIN_PFNS;
	int r = 0;

	ps_mixed_reset(&w->mixed, win.base);
	if (s->kcg_fd >= 0 && (r = read_spans(s, w, PS_KCG, kcg, &win, i, j)) == 0) {
		win.kcg = kcg;
		win.mixed = &w->mixed;
	}
	if (r == 0 && s->kf_fd >= 0 && (r = read_spans(s, w, PS_KF, kf, &win, i, j)) == 0)
		win.kf = kf;
	if (r == 0 && need_kc && s->kc_fd >= 0 &&
	    (r = read_spans(s, w, PS_KC, kc, &win, i, j)) == 0)
		win.kc = kc;
	for (size_t k = i; k < j && r == 0; k++)
		r = ps_account_run(&w->groups, &win, &w->rv[k]);
	w->zero += win.zero;
	w->sblock = win.sblock;	/* a block split between windows is sampled once */
	w->sval = win.sval;
	return r;
}

static void *phase_kpage(void *arg)
{
	struct worker *w = arg;
	uint64_t lo, hi;

	while (claim(w->s, w, &lo, &hi)) {
		for (size_t i = (size_t)lo, j; i < hi && !w->err; i = j) {
			bool need_kc;

			j = window_end(w->rv, i, (size_t)hi, &need_kc);
			w->err = do_window(w, i, j, need_kc);
		}
	}
	return NULL;
}

/* Run @fn on workers [0, n) in turn, in the calling thread: the inventory starts no
 * thread (bench/scan measured two threads 13% faster than one, under the 15% a thread
 * must gain to be kept: HACKING.md, Performance notes).  Returns: the first worker's
 * error, 0. */
static int run_workers(struct worker *w, int n, void *(*fn)(void *))
{
	int r = 0;

	for (int i = 0; i < n; i++)
		fn(&w[i]);
	for (int i = 0; i < n; i++)
		if (w[i].err && !r)
			r = w[i].err;
	return r;
}

/*
 * Where a chunk of virtual pages from @cut on (counted across all VMAs in order) should
 * start instead: at a 2 MiB-aligned page, so no block a PMD may map is cut in two (each
 * piece's runs may be sorted by another worker and are never joined again).
 */
static uint64_t pmd_aligned_cut(const struct scan *s, uint64_t cut)
{
	uint64_t pos = 0;

	for (size_t i = 0; i < s->n_vmas; i++) {
		const struct ps_vma *v = &s->vmas[i];
		uint64_t len = v->end - v->start, vpn;

		if (cut < pos + len) {
			vpn = (v->start + (cut - pos) + PS_PMD_PAGES - 1) & ~(uint64_t)(PS_PMD_PAGES - 1);
			return vpn >= v->end ? pos + len : pos + (vpn - v->start);
		}
		pos += len;
	}
	return cut;
}

/*
 * Where the chunks of a phase of @total units end (@end, ascending, the last @total), for
 * @n workers: each chunk takes 1/(2n) of what is left, but no less than 1/64 of the
 * whole, so the last ones are small and the workers finish close together (guided
 * self-scheduling).  Returns: the number of chunks, at most CHUNKS.
 */
static size_t guided_ends(uint64_t total, int n, uint64_t *end)
{
	uint64_t acc = 0, least = MAX(total / 64, 1);
	size_t k = 0;

	while (acc < total && k < CHUNKS - 1) {
		acc = MIN(total, acc + MAX((total - acc) / (2 * (uint64_t)n), least));
		end[k++] = acc;
	}
	if (!k || acc < total)
		end[k++] = total;
	return k;
}

/* Phase 1: pagemap of all VMAs into @runs (sorted) and @st, in chunks of virtual pages,
 * read by @readers of the @n workers. */
static int scan_pagemap(struct scan *s, struct worker *w, int n, int readers,
			struct ps_runs *runs, struct ps_pmstat *st)
{
	uint64_t end[CHUNKS];
	int r;

	s->readers = readers;
	s->prep_worker = readers < n ? n - 1 : 0;
	s->n_chunks = readers == 1 ? 1 : guided_ends(s->virt_pages, readers, end);
	s->next_chunk = 0;
	s->cut[0] = 0;
	for (size_t k = 1; k < s->n_chunks; k++)
		s->cut[k] = MAX(s->cut[k - 1], pmd_aligned_cut(s, end[k - 1]));
	s->cut[s->n_chunks] = s->virt_pages;
	r = run_workers(w, n, phase_pagemap);
	if (s->prep_pending) {	/* its worker was left out: it woke too late */
		prepare(s);
		s->prep_pending = false;
	}
	if (r == 0) {
		*runs = w[0].runs;
		w[0].runs = (struct ps_runs){ 0 };
	}
	for (int i = 0; i < n && r == 0; i++) {
		st->swap += w[i].st.swap;
		st->present += w[i].st.present;
		st->hidden_anon_excl += w[i].st.hidden_anon_excl;
		st->hidden_anon_shared += w[i].st.hidden_anon_shared;
		st->hidden_file += w[i].st.hidden_file;
	}
	return r;
}

/* Phase 2: kpage* of the sorted runs, in chunks of about equal PFNs to read. */
/* What run @k of @rv costs to read, in PFNs: its own, and a pread's worth when it
 * starts a span of its own (512 THP heads are 512 preads, not 512 PFNs). */
static uint64_t run_cost(const struct ps_run *rv, size_t k)
{
	uint64_t c = ps_run_read_end(&rv[k]) - rv[k].pfn;

	if (k == 0 || rv[k].pfn > ps_run_read_end(&rv[k - 1]) + WIN_GAP)
		c += SPAN_PFNS;
	return c;
}

static int scan_kpage(struct scan *s, struct worker *w, int n, const struct ps_runs *runs,
		      struct ps_groups *groups, uint64_t *zero)
{
	uint64_t total = 0, acc = 0;	/* in PFNs to read and preads (run_cost()) */
	uint64_t end[CHUNKS];
	size_t i = 0;
	int r;

	for (size_t k = 0; k < runs->n; k++)
		total += run_cost(runs->v, k);
	if (total < MIN_PAGES_PER_THREAD * 2)
		n = 1;
	s->n_chunks = n == 1 ? 1 : guided_ends(total, n, end);
	s->next_chunk = 0;
	s->cut[0] = 0;
	for (size_t k = 1; k <= s->n_chunks; k++) {
		while (i < runs->n && (k == s->n_chunks || acc < end[k - 1])) {
			acc += run_cost(runs->v, i);
			i++;
		}
		s->cut[k] = i;
	}
	for (int k = 0; k < n; k++)
		w[k].rv = runs->v;
	r = run_workers(w, n, phase_kpage);
	for (int k = 0; k < n && r == 0; k++) {
		r = ps_groups_merge(groups, &w[k].groups);
		*zero += w[k].zero;
	}
	return r;
}

/* Add the 2 MiB blocks of [a, b) (virtual pages) that PAGEMAP_SCAN calls huge. */
static int scan_huge(int fd, uint64_t a, uint64_t b, uint64_t **v, size_t *n, size_t *cap)
{
	struct page_region reg[SCAN_VEC];
	struct pm_scan_arg arg = {
		.size = sizeof(arg), .start = a * 4096, .end = b * 4096,
		.vec = (uint64_t)(uintptr_t)reg, .vec_len = SCAN_VEC,
		.category_mask = PAGE_IS_HUGE, .return_mask = PAGE_IS_HUGE,
	};

	while (arg.start < arg.end) {
		int k = ioctl(fd, PAGEMAP_SCAN, &arg);

		if (k < 0)
			return -errno;
		for (int i = 0; i < k; i++)
			for (uint64_t p = reg[i].start / 4096; p + PS_PMD_PAGES <= reg[i].end / 4096;
			     p += PS_PMD_PAGES) {
				if (p % PS_PMD_PAGES)
					continue;
				if (*n == *cap) {
					size_t c = *cap ? *cap * 2 : 64;
					uint64_t *nv = realloc(*v, c * sizeof(*nv));

					if (!nv)
						return -ENOMEM;
					*v = nv;
					*cap = c;
				}
				(*v)[(*n)++] = p;
			}
		if (arg.walk_end <= arg.start)
			break;
		arg.start = arg.walk_end;
	}
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Before PAGEMAP_SCAN: which candidate blocks smaps says are PMD-mapped (pagescan-smaps.c).
 * Returns: the count (*@v malloc'ed), or -1 when smaps cannot tell (unreadable, or a VMA
 * with some of its blocks PMD-mapped): then whole aligned THP folios count as PMD-mapped,
 * as before; -ENOMEM.
 */
static ssize_t smaps_pmd(struct scan *s, pid_t pid, const struct ps_vrange *cand, size_t nc,
			 uint64_t **v)
{
	char path[64], *buf = NULL;
	size_t len;
	ssize_t n;

	*v = NULL;
	snprintf(path, sizeof(path), "/proc/%d/smaps", (int)pid);
	if (cgctl_read_sys(s->ctx, path, &buf, &len) < 0)
		return -1;
	n = ps_pmd_from_smaps(buf, len, cand, nc, v);
	free(buf);
	return n == -ENOMEM ? n : n < 0 ? -1 : n;
}

/*
 * Ask PAGEMAP_SCAN which candidate blocks are PMD-mapped, and cut those out as RUN_PMD
 * runs: a PMD maps one 2 MiB folio, so its head's kpage* entries are all that need
 * reading (512x less).  Without the ioctl (before 6.7, or a fixture) smaps tells, VMA by
 * VMA, where it can; where it cannot, nothing changes.
 */
static int find_pmd(struct scan *s, pid_t pid, struct ps_runs *runs)
{
	struct ps_vrange *cand = NULL;
	ssize_t nc = ps_pmd_candidates(runs, &cand);
	uint64_t *v = NULL;
	size_t n = 0, cap = 0;
	int r = 0;

	if (nc < 0)
		return (int)nc;
	for (ssize_t i = 0; i < nc && r == 0; i++)
		r = scan_huge(s->pm_fd, cand[i].start, cand[i].end, &v, &n, &cap);
	if (r == -ENOTTY || r == -EINVAL || r == -EOPNOTSUPP) {
		ssize_t k;

		free(v);
		k = nc ? smaps_pmd(s, pid, cand, (size_t)nc, &v) : -1;

		free(cand);
		if (k < 0 && k != -1)
			return (int)k;
		if (k < 0)
			return 0;
		n = (size_t)k;
		r = 0;
	} else {
		free(cand);
	}
	if (r == 0) {
		s->pmd_known = true;
		if (n)
			qsort(v, n, sizeof(*v), u64_cmp);
		r = ps_runs_mark_pmd(runs, v, n);
		if (r == 0 && n)
			ps_runs_mark_pmd_thp(runs, s->vmas, s->n_vmas);
	}
	free(v);
	return r;
}

#define THP_SYS "/sys/kernel/mm/transparent_hugepage"

/* "hugepages-<kb>kB/<file>" under THP_SYS, read whole; NULL when it cannot be. */
static char *thp_size_file(struct scan *s, unsigned long kb, const char *file)
{
	char path[160], *buf = NULL;
	size_t len;

	snprintf(path, sizeof(path), THP_SYS "/hugepages-%lukB/%s", kb, file);
	return cgctl_read_sys(s->ctx, path, &buf, &len) < 0 ? NULL : buf;
}

/*
 * One THP size (hugepages-<kb>kB): can anon folios of it exist now (clears *@none), may
 * new ones appear (then it is listed in s->grow_kb), and is it an mTHP size below the
 * PMD's that cannot hold anon folios (the return).
 */
static bool thp_size(struct scan *s, unsigned long kb, const char *top, bool *none)
{
	unsigned long pmd_kb = PS_PMD_PAGES * 4UL;
	char *en = thp_size_file(s, kb, "enabled"), *nr;
	bool none_now, may_grow;

	if (!en && kb != pmd_kb)
		return true;	/* no anon control (hugepages-8kB: shmem only) */
	/* the PMD size's count was read before the pagemap (read_thp_pmd()) */
	nr = kb == pmd_kb ? NULL : thp_size_file(s, kb, "stats/nr_anon");
	/* the PMD size's enabled is 6.8+: before, the top one rules */
	ps_thp_size_state(en ? en : "[inherit]", top, nr, &none_now, &may_grow);
	if (kb == pmd_kb)
		none_now = !s->pmd_busy;
	free(en);
	free(nr);
	*none &= none_now;
	if (may_grow && s->n_grow < THP_SIZES)
		s->grow_kb[s->n_grow++] = kb;
	else if (may_grow)
		*none = false;	/* more sizes than tracked: not told */
	return kb >= pmd_kb || (none_now && !may_grow);
}

/* Do the THP sizes that may grow (s->grow_kb) still hold no anon folio? */
static bool thp_still_none(struct scan *s)
{
	bool none = true;

	for (unsigned int i = 0; i < s->n_grow && none; i++) {
		char *nr = thp_size_file(s, s->grow_kb[i], "stats/nr_anon");

		none = ps_nr_anon_zero(nr);
		free(nr);
	}
	return none;
}

/*
 * Whether PMD-sized anon THPs may exist at all (s->pmd_busy; unknown counts as yes):
 * not when the PMD size's stats/nr_anon (6.12+) says none now.  Two files: this is
 * needed before the pagemap is read.
 */
static void read_thp_pmd(struct scan *s)
{
	char *pmd = NULL, *nr = NULL, path[128];
	size_t len;

	s->mthp_off = false;
	s->pmd_ok = false;
	s->pmd_busy = false;	/* no THP sysfs: no THP */
	if (cgctl_read_sys(s->ctx, THP_SYS "/hpage_pmd_size", &pmd, &len) < 0)
		return;
	s->pmd_busy = true;
	s->pmd_ok = strtoul(pmd, NULL, 10) == PS_PMD_PAGES * 4096UL;
	free(pmd);
	snprintf(path, sizeof(path), THP_SYS "/hugepages-%lukB/stats/nr_anon",
		 PS_PMD_PAGES * 4UL);
	if (s->pmd_ok && cgctl_read_sys(s->ctx, path, &nr, &len) == 0 && ps_nr_anon_zero(nr))
		s->pmd_busy = false;
	free(nr);
}

/*
 * Can anon folios between order 0 and PMD order exist (mTHP, 6.8+)?  Not when every
 * smaller size is disabled and holds none now (mm/huge_memory.c:thpsize_create() makes
 * one directory per size; stats/nr_anon is 6.12+).  Anything unreadable or unknown
 * answers "they can", which keeps kpageflags read for every page.  And does no anon THP
 * exist now, of any size (s->anon_small)?  Needed only once the pagemap is read: the
 * first worker asks while the other starts reading.
 */
static void read_mthp(struct scan *s)
{
	char *top = NULL;
	size_t len;
	int fd;
	DIR *d;
	struct dirent *de;
	bool off = true, none = true;
	unsigned long kb;

	s->mthp_off = false;
	s->anon_small = false;
	s->n_grow = 0;
	if (!s->pmd_ok || cgctl_read_sys(s->ctx, THP_SYS "/enabled", &top, &len) < 0)
		return;
	fd = cgctl_open_sys(s->ctx, THP_SYS, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		free(top);
		return;
	}
	while ((de = readdir(d)))
		if (sscanf(de->d_name, "hugepages-%lukB", &kb) == 1)
			off &= thp_size(s, kb, top, &none);
	closedir(d);
	s->mthp_off = off;
	/* (a kernel without per-size directories keeps pmd_busy: not told) */
	s->anon_small = none && !s->pmd_busy;
	free(top);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int open_proc(struct cgctl_ctx *ctx, pid_t pid, const char *file)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	return cgctl_open_sys(ctx, path, O_RDONLY | O_CLOEXEC);
}

static int load_vmas(struct scan *s, pid_t pid, struct cgctl_error *e)
{
	char path[64], *buf = NULL;
	size_t len;
	ssize_t n;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	r = cgctl_read_sys(s->ctx, path, &buf, &len);
	if (r == -ENOENT)
		return cgctl_error_set(e, ESRCH, "%d: no such process", (int)pid);
	if (r < 0)
		return cgctl_error_set(e, -r, "%d: cannot read %s: %s", (int)pid, path,
				       strerror(-r));
	n = ps_parse_maps(buf, len, &s->vmas);
	free(buf);
	if (n < 0)
		return cgctl_error_set(e, (int)-n, "%d: malformed %s", (int)pid, path);
	s->n_vmas = (size_t)n;
	for (size_t i = 0; i < s->n_vmas; i++)
		s->virt_pages += s->vmas[i].end - s->vmas[i].start;
	return 0;
}

/* kpage* files that cannot be opened turn into unknown figures, not a failure. */
static unsigned int open_kpage(struct scan *s)
{
	unsigned int unknown = 0;

	s->kcg_fd = cgctl_open_sys(s->ctx, "/proc/kpagecgroup", O_RDONLY | O_CLOEXEC);
	if (s->kcg_fd < 0)
		unknown |= CGCTL_INV_UNKNOWN_OWNER;
	s->kf_fd = cgctl_open_sys(s->ctx, "/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (s->kf_fd < 0)
		unknown |= CGCTL_INV_UNKNOWN_SHMEM | CGCTL_INV_UNKNOWN_THP;
	if (!(s->flags & CGCTL_INV_NO_MAPCOUNT))
		s->kc_fd = cgctl_open_sys(s->ctx, "/proc/kpagecount", O_RDONLY | O_CLOEXEC);
	if (s->kc_fd < 0)
		unknown |= CGCTL_INV_UNKNOWN_MAPCOUNT;
	return unknown;
}

/* The first task's memory cgroup and its inode, for the result. */
static void task_cgroup(struct scan *s)
{
	const struct cgctl_mount *m;

	if (cgctl_mount_find(s->ctx, "memory", &m) < 0 ||
	    cgctl_pid_cgroup(s->ctx, s->pid0, m, &s->task_cgroup) < 0)
		return;
	if (cgctl_cg_ino(s->ctx, m, s->task_cgroup, &s->task_ino) < 0)
		s->task_ino = 0;
}

/*
 * What the kpage pass and the result need that the pagemap does not tell: which THPs
 * can exist, the kpage* files, the task's cgroup.  Done by a worker while the pagemap
 * is read (by another), so that none of it waits in line.
 */
static void prepare(struct scan *s)
{
	read_mthp(s);
	s->kpage_unknown = open_kpage(s);
	task_cgroup(s);
}

/* Workers with their buffers, made here in the calling thread. */
static int alloc_workers(struct worker *w, int n, struct scan *s)
{
	for (int i = 0; i < n; i++) {
		w[i] = (struct worker){ .s = s, .id = i };
	}
	for (int i = 0; i < n; i++)
		if (worker_buf(&w[i]) < 0)
			return -ENOMEM;
	return 0;
}

static void free_workers(struct worker *w, int n)
{
	for (int i = 0; i < n; i++) {
		free(w[i].buf);
		ps_runs_free(&w[i].runs);
		ps_groups_free(&w[i].groups);
	}
}

/* Forget what a kpage pass counted, to run it again. */
static void kpage_reset(struct worker *w, int n, struct ps_scan_out *out)
{
	for (int i = 0; i < n; i++) {
		ps_groups_free(&w[i].groups);
		w[i].zero = 0;
		w[i].sblock = w[i].sval = 0;
		w[i].err = 0;
	}
	ps_groups_free(&out->groups);
	out->zero = 0;
}

/* Phase 1 for one task: its runs (sorted, deduplicated, split, PMD blocks marked). */
static int scan_task_pagemap(struct scan *s, struct worker *w, int n, pid_t pid,
			     struct ps_runs *runs, struct ps_pmstat *st, struct cgctl_error *e)
{
	int r;

	r = load_vmas(s, pid, e);
	if (r < 0)
		return r;
	s->pm_fd = open_proc(s->ctx, pid, "pagemap");
	if (s->pm_fd < 0) {
		r = s->pm_fd;
		s->pm_fd = -1;
		return cgctl_error_set(e, r == -ENOENT ? ESRCH : -r,
				       "%d: cannot open pagemap: %s", (int)pid,
				       strerror(r == -ENOENT ? ESRCH : -r));
	}
	/* readers of PMD-mapped ranges in one PMD table take one lock in turn
	 * (mm/huge_memory.c:__pmd_trans_huge_lock()): bench/scan --thp measures two
	 * threads 3x slower than one */
	r = scan_pagemap(s, w, n, s->pmd_busy ? 1 : n, runs, st);
	for (int i = 0; i < n; i++) {
		ps_runs_free(&w[i].runs);
		memset(&w[i].st, 0, sizeof(w[i].st));
		w[i].err = 0;
	}
	if (r == 0 && runs->n) {	/* sorted, deduplicated, split by scan_pagemap() */
		r = find_pmd(s, pid, runs);
		if (r == 0 && s->pmd_known)
			ps_runs_join_pfn(runs, WIN_PFNS);
	}
	close_fd(&s->pm_fd);
	if (r < 0)
		return cgctl_error_set(e, -r, "%d: reading pages: %s", (int)pid, strerror(-r));
	return 0;
}

/*
 * The union of the tasks' pages: each task's pagemap in turn, runs merged and
 * deduplicated by PFN (a page shared by several tasks counts once), then one kpage*
 * pass.  A task other than the first that exits meanwhile is left out (counted in
 * *gone); the first one's exit is -ESRCH.
 */
static int scan_tasks(struct scan *s, const pid_t *pids, size_t n_pids,
		      struct ps_scan_out *out, size_t *gone, struct cgctl_error *e)
{
	struct worker w[1];
	int n = 1, r;

	read_thp_pmd(s);
	s->prep_pending = true;
	s->pid0 = pids[0];
	r = alloc_workers(w, n, s);
	for (size_t k = 0; k < n_pids && r == 0; k++) {
		struct ps_runs one = { 0 };
		struct cgctl_error e1 = CGCTL_ERROR_INIT;

		s->n_vmas = 0;
		s->virt_pages = 0;
		r = scan_task_pagemap(s, w, n, pids[k], n_pids == 1 ? &out->runs : &one,
				      &out->st, k ? &e1 : e);
		free(s->vmas);
		s->vmas = NULL;
		out->n_vmas += s->n_vmas;
		out->virt_pages += s->virt_pages;
		if (r == -ESRCH && k) {
			(*gone)++;
			r = 0;
		} else if (r < 0 && k) {
			cgctl_error_set(e, -r, "%s", e1.msg);
		}
		if (r == 0 && n_pids > 1)
			r = ps_runs_append(&out->runs, &one);
		ps_runs_free(&one);
	}
	if (r == 0 && n_pids > 1 && out->runs.n)
		ps_runs_sort_dedupe(&out->runs);
	if (r == 0 && out->runs.n) {
		out->unknown |= s->kpage_unknown;
		s->mthp_off &= s->kf_fd >= 0;
		r = scan_kpage(s, w, n, &out->runs, &out->groups, &out->zero);
		if (r == 0 && s->anon_small && !thp_still_none(s)) {
			/* an anon THP appeared meanwhile: read the flags after all */
			s->anon_small = false;
			kpage_reset(w, n, out);
			r = scan_kpage(s, w, n, &out->runs, &out->groups, &out->zero);
		}
		if (r < 0)
			cgctl_error_set(e, -r, "reading kpage files: %s", strerror(-r));
	}
	free_workers(w, n);
	if (r == -ENOMEM && e && !e->err)
		cgctl_error_set(e, ENOMEM, "out of memory");
	return r;
}

static int inventory(struct cgctl_ctx *ctx, const pid_t *pids, size_t n_pids,
		     unsigned int flags, struct cgctl_inventory **ret, struct cgctl_error *e)
{
	struct scan s = { .ctx = ctx, .flags = flags, .pm_fd = -1, .kf_fd = -1,
			  .kcg_fd = -1, .kc_fd = -1 };
	struct ps_scan_out out = { 0 };
	size_t gone = 0;
	int r;

	r = scan_tasks(&s, pids, n_pids, &out, &gone, e);
	out.task_cgroup = s.task_cgroup;	/* (prepare()'s, now the result's) */
	out.task_ino = s.task_ino;
	out.task_known = true;
	close_fd(&s.pm_fd);
	close_fd(&s.kf_fd);
	close_fd(&s.kcg_fd);
	close_fd(&s.kc_fd);
	free(s.vmas);
	if (r == 0)
		r = ps_result_build(ctx, pids[0], flags, &out, ret, e);
	if (r == 0) {
		(*ret)->n_tasks = n_pids - gone;
		(*ret)->gone_tasks = gone;
	}
	ps_runs_free(&out.runs);
	ps_groups_free(&out.groups);
	free(out.task_cgroup);	/* (not taken: no result) */
	return r;
}

CGCTL_EXPORT int cgctl_inventory_scan(struct cgctl_ctx *ctx, pid_t pid, unsigned int flags,
				      struct cgctl_inventory **ret, struct cgctl_error *e)
{
	if (!ctx || !ret || pid <= 0)
		return cgctl_error_set(e, EINVAL, "invalid argument");
	return inventory(ctx, &pid, 1, flags, ret, e);
}

int cgctl_inventory_scan_tasks(struct cgctl_ctx *ctx, const pid_t *pids,
			       size_t n_pids, unsigned int flags,
			       struct cgctl_inventory **ret, struct cgctl_error *e)
{
	if (!ctx || !ret || !pids || !n_pids)
		return cgctl_error_set(e, EINVAL, "invalid argument");
	for (size_t i = 0; i < n_pids; i++)
		if (pids[i] <= 0)
			return cgctl_error_set(e, EINVAL, "invalid PID %d", (int)pids[i]);
	return inventory(ctx, pids, n_pids, flags, ret, e);
}
