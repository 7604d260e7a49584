/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page inventory, pure part: /proc/PID/maps parsing, pagemap decoding into runs of
 * virtually and physically consecutive pages, sorting and dedupe of runs, and the
 * per-page classification from pagemap and kpageflags bits.  No I/O here.
 *
 * Bit meanings follow Documentation/admin-guide/mm/pagemap.rst and
 * fs/proc/task_mmu.c:pte_to_pagemap_entry() (v6.18): bit 61 is set for any page that
 * is not PageAnon (page cache, shmem); the zero page has no struct page in
 * vm_normal_page() terms so it carries neither bit 56 nor bit 61.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "kernel/pagescan.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))

int ps_parse_hex(const char **p, const char *end, uint64_t *ret)
{
	uint64_t v = 0;
	const char *s = *p;

	if (s >= end)
		return -EIO;
	for (; s < end; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			break;
		if (v >> 60)
			return -EIO;
		v = v << 4 | (uint64_t)d;
	}
	if (s == *p)
		return -EIO;
	*p = s;
	*ret = v;
	return 0;
}

/* "perms offset dev inode ...": is the inode field "0"?  (false when malformed) */
static bool maps_inode_zero(const char *p, const char *end)
{
	for (int field = 0; field < 3; field++) {	/* skip perms, offset, dev */
		while (p < end && *p != ' ')
			p++;
		while (p < end && *p == ' ')
			p++;
	}
	return end - p >= 1 && p[0] == '0' && (end - p == 1 || p[1] == ' ');
}

/* "start-end perms offset dev inode ..." -> VMA; the path is not needed. */
static int parse_maps_line(const char *p, const char *end, struct ps_vma *v)
{
	uint64_t start, stop, off;

	if (ps_parse_hex(&p, end, &start) < 0 || p >= end || *p++ != '-')
		return -EIO;
	if (ps_parse_hex(&p, end, &stop) < 0 || p >= end || *p++ != ' ')
		return -EIO;
	if (end - p < 4 || stop < start || (start | stop) & 0xfff)
		return -EIO;
	if (p[3] != 's' && p[3] != 'p')
		return -EIO;
	v->start = start >> 12;
	v->end = stop >> 12;
	v->shared = p[3] == 's';
	v->anon = maps_inode_zero(p, end);
	p += 4;
	while (p < end && *p == ' ')
		p++;
	if (ps_parse_hex(&p, end, &off) < 0 || (off & 0xfff))
		return -EIO;
	v->pgoff = off >> 12;
	return 0;
}

static int vma_push(struct ps_vma **v, size_t *n, size_t *cap, const struct ps_vma *x)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct ps_vma *nv = realloc(*v, c * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = *x;
	return 0;
}

ssize_t ps_parse_maps(const char *buf, size_t len, struct ps_vma **ret)
{
	const char *p = buf, *end = buf + len;
	struct ps_vma *v = NULL;
	size_t n = 0, cap = 0;
	int r;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		struct ps_vma x;

		if (eol > p) {
			r = parse_maps_line(p, eol, &x);
			if (r == 0 && x.end > x.start)
				r = vma_push(&v, &n, &cap, &x);
			if (r < 0) {
				free(v);
				return r;
			}
		}
		p = eol + 1;
	}
	*ret = v;
	return (ssize_t)n;
}

static int runs_grow(struct ps_runs *r, size_t want)
{
	struct ps_run *nv;
	size_t c;

	if (want <= r->cap)
		return 0;
	/* first 8 Ki runs (192 KiB): past malloc's mmap threshold, so that growing moves
	 * pages (mremap) instead of copying them into fresh ones */
	c = r->cap ? r->cap : 8192;
	while (c < want)
		c *= 2;
	nv = reallocarray(r->v, c, sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	r->v = nv;
	r->cap = c;
	return 0;
}

int ps_runs_reserve(struct ps_runs *r, size_t n)
{
	return runs_grow(r, n);
}

static uint32_t run_flags(uint64_t e)
{
	return (e & PM_EXCLUSIVE ? RUN_EXCLUSIVE : 0) | (e & PM_FILE ? RUN_FILE : 0);
}

/* A present page whose PFN the kernel zeroed (opener lacks CAP_SYS_ADMIN). */
static void count_hidden(struct ps_pmstat *st, uint64_t e)
{
	if (e & PM_FILE)
		st->hidden_file++;
	else if (e & PM_EXCLUSIVE)
		st->hidden_anon_excl++;
	else
		st->hidden_anon_shared++;
}

/* Open a new run for entry @e at @vpn.  Returns: the run, NULL on -ENOMEM. */
static struct ps_run *run_open(struct ps_runs *r, uint64_t vpn, uint64_t e)
{
	if (runs_grow(r, r->n + 1) < 0)
		return NULL;
	r->v[r->n] = (struct ps_run){ .pfn = e & PM_PFN_MASK, .vpn = vpn, .len = 0,
				      .flags = run_flags(e) };
	return &r->v[r->n++];
}

/*
 * How many of the @n entries from @pm on continue a run whose next entry, masked by
 * @keep, would be @next, the one after it @next + @step (1, or -1 for RUN_DESC): counted
 * four at a time (the caller looks at the rest one by one).  The fast path of a 4 KiB
 * task's pagemap: most pages continue a run.
 */
static inline size_t run_continues(const uint64_t *pm, size_t n, uint64_t next, uint64_t step,
				   uint64_t keep)
{
	size_t i = 0;
#ifdef __SSE2__
	const __m128i k = _mm_set1_epi64x((long long)keep);
	const __m128i four = _mm_set1_epi64x((long long)(4 * step));
	__m128i n0 = _mm_set_epi64x((long long)(next + step), (long long)next);
	__m128i n1 = _mm_add_epi64(n0, _mm_set1_epi64x((long long)(2 * step)));

	for (; i + 4 <= n; i += 4) {
		__m128i a = _mm_and_si128(_mm_loadu_si128((const __m128i *)(pm + i)), k);
		__m128i b = _mm_and_si128(_mm_loadu_si128((const __m128i *)(pm + i + 2)), k);
		__m128i d = _mm_or_si128(_mm_xor_si128(a, n0), _mm_xor_si128(b, n1));

		/* all four equal: every 32-bit half of @d zero */
		if (_mm_movemask_epi8(_mm_cmpeq_epi32(d, _mm_setzero_si128())) != 0xffff)
			break;
		n0 = _mm_add_epi64(n0, four);
		n1 = _mm_add_epi64(n1, four);
	}
#else
	for (; i + 4 <= n && !(((pm[i] & keep) ^ next) | ((pm[i + 1] & keep) ^ (next + step)) |
			       ((pm[i + 2] & keep) ^ (next + 2 * step)) |
			       ((pm[i + 3] & keep) ^ (next + 3 * step))); i += 4)
		next += 4 * step;
#endif
	return i;
}

/* How many of the @n entries from @pm on are 0 (not present, not swapped): a
 * reservation's unpopulated pages, four at a time. */
static inline size_t zeros(const uint64_t *pm, size_t n)
{
	size_t i = 0;

	while (i + 4 <= n && !(pm[i] | pm[i + 1] | pm[i + 2] | pm[i + 3]))
		i += 4;
	return i;
}

/* The entry masked as ps_runs_feed() masks that would extend @cur next (at virtual
 * page @vpn, right after it), in the direction of @step; none (all ones) when it cannot
 * be extended. */
static uint64_t next_entry(const struct ps_run *cur, uint64_t vpn, size_t n, uint64_t *step)
{
	uint64_t bits = PM_PRESENT | (cur->flags & RUN_EXCLUSIVE ? PM_EXCLUSIVE : 0) |
			(cur->flags & RUN_FILE ? PM_FILE : 0);

	*step = 1;
	if (cur->len >= UINT32_MAX - n || cur->vpn + cur->len != vpn)
		return UINT64_MAX;
	if (!(cur->flags & RUN_DESC))
		return bits | (cur->pfn + cur->len);
	*step = UINT64_MAX;	/* -1 */
	return cur->pfn > 1 ? bits | (cur->pfn - 1) : UINT64_MAX;
}

/* Add what the fast path counted (@len pages) to @cur. */
static void run_flush(struct ps_runs *r, struct ps_pmstat *st, struct ps_run *cur, uint64_t len)
{
	if (cur->flags & RUN_DESC)
		cur->pfn -= len;
	cur->len += (uint32_t)len;
	r->pages += len;
	st->present += len;
}

int ps_runs_feed(struct ps_runs *r, struct ps_pmstat *st, uint64_t vpn,
		 const uint64_t *pm, size_t n)
{
	struct ps_run *cur = r->n ? &r->v[r->n - 1] : NULL;
	/* the entry that would extend the current run: compared whole, in a register */
	const uint64_t keep = PM_PRESENT | PM_EXCLUSIVE | PM_FILE | PM_PFN_MASK;
	const uint64_t none = UINT64_MAX;	/* no entry masked by @keep equals it */
	uint64_t next = none, len = 0, step = 1;

	if (cur)
		next = next_entry(cur, vpn, n, &step);
	for (size_t i = 0; i < n; i++) {
		uint64_t e;
		/* a falling run stops at PFN 1: PFN 0 means "hidden" */
		size_t lim = step == 1 ? n - i : MIN(n - i, next & PM_PFN_MASK);
		size_t k = run_continues(pm + i, lim, next, step, keep);

		i += k;
		len += k;
		next += k * step;
		if (i == n)
			break;
		e = pm[i];
		if ((e & keep) == next && (step == 1 || (next & PM_PFN_MASK))) {
			len++;
			next += step;
			continue;
		}
		/* a one-page run whose next page is the PFN below: it falls */
		if (step == 1 && next != none && cur->len + len == 1 && (e & keep) == next - 2 &&
		    (e & PM_PFN_MASK)) {
			cur->flags |= RUN_DESC;
			step = UINT64_MAX;
			len = 1;
			next = (e & keep) - 1;
			continue;
		}
		if (cur) {	/* flush what the fast path counted */
			run_flush(r, st, cur, len);
			len = 0;
		}
		next = none;
		step = 1;
		if (!(e & PM_PRESENT)) {
			st->swap += !!(e & PM_SWAP);
			if (!e)	/* the loop's i++ skips the last one */
				i += zeros(pm + i + 1, n - i - 1);
			continue;
		}
		st->present++;
		if (!(e & PM_PFN_MASK)) {
			count_hidden(st, e);
			continue;
		}
		cur = run_open(r, vpn + i, e);
		if (!cur)
			return -ENOMEM;
		cur->len = 1;
		r->pages++;
		next = (e & keep) + 1;
	}
	if (cur)
		run_flush(r, st, cur, len);
	return 0;
}

/* @b continues @a in both spaces with the same flags. */
static bool runs_join(const struct ps_run *a, const struct ps_run *b)
{
	return a->vpn + a->len == b->vpn && a->pfn + a->len == b->pfn && a->flags == b->flags &&
	       !(a->flags & RUN_DESC) && (uint64_t)a->len + b->len <= UINT32_MAX;
}

int ps_runs_append(struct ps_runs *dst, const struct ps_runs *src)
{
	size_t skip = 0;

	if (!src->n)
		return 0;
	if (runs_grow(dst, dst->n + src->n) < 0)
		return -ENOMEM;
	/* the two threads' halves may split one run: join it again (a PMD block cut in
	 * two would not be recognised) */
	if (dst->n && runs_join(&dst->v[dst->n - 1], &src->v[0])) {
		dst->v[dst->n - 1].len += src->v[0].len;
		skip = 1;
	}
	memcpy(dst->v + dst->n, src->v + skip, (src->n - skip) * sizeof(*src->v));
	dst->n += src->n - skip;
	dst->pages += src->pages;
	return 0;
}

static int run_cmp(const void *a, const void *b)
{
	const struct ps_run *x = a, *y = b;

	if (x->pfn != y->pfn)
		return x->pfn < y->pfn ? -1 : 1;
	return x->len > y->len ? -1 : x->len < y->len;	/* longest first */
}

#define RADIX_BITS	12
#define RADIX_SIZE	(1u << RADIX_BITS)

/* One stable counting pass of the LSD radix sort on the PFN digit at @shift. */
static void radix_pass(const struct ps_run *src, struct ps_run *dst, size_t n,
		       size_t *cnt, unsigned int shift)
{
	size_t sum = 0;

	memset(cnt, 0, RADIX_SIZE * sizeof(*cnt));
	for (size_t i = 0; i < n; i++)
		cnt[(src[i].pfn >> shift) & (RADIX_SIZE - 1)]++;
	for (size_t d = 0; d < RADIX_SIZE; d++) {
		size_t c = cnt[d];

		cnt[d] = sum;
		sum += c;
	}
	for (size_t i = 0; i < n; i++)
		dst[cnt[(src[i].pfn >> shift) & (RADIX_SIZE - 1)]++] = src[i];
}

/*
 * Sort runs as run_cmp() does, by PFN in radix passes of 12 bits (a fragmented task has
 * a run every few pages: qsort's compare calls and element copies cost more than its
 * pagemap read), then each group of equal PFNs longest first.  Returns: 0 or -ENOMEM.
 */
static int radix_sort_runs(struct ps_run *v, size_t n, void *scratch, size_t bytes)
{
	struct ps_run *tmp, *src = v, *dst;
	uint64_t max = 0;
	size_t *cnt;

	for (size_t i = 0; i < n; i++)
		max |= v[i].pfn;
	if (scratch && bytes >= n * sizeof(*tmp)) {
		tmp = scratch;
	} else {
		tmp = malloc(n * sizeof(*tmp));
		scratch = NULL;
	}
	cnt = malloc(RADIX_SIZE * sizeof(*cnt));
	if (!tmp || !cnt) {
		if (!scratch)
			free(tmp);
		free(cnt);
		return -ENOMEM;
	}
	dst = tmp;
	for (unsigned int shift = 0; shift < 64 && max >> shift; shift += RADIX_BITS) {
		struct ps_run *t = src;

		radix_pass(src, dst, n, cnt, shift);
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	if (!scratch)
		free(tmp);
	free(cnt);
	for (size_t i = 1; i < n; i++) {	/* equal PFNs (rare): insertion by length */
		struct ps_run x;
		size_t j = i;

		if (v[i - 1].pfn != v[i].pfn || v[i - 1].len >= v[i].len)
			continue;
		x = v[i];
		for (; j > 0 && v[j - 1].pfn == x.pfn && v[j - 1].len < x.len; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	return 0;
}

static bool runs_sorted(const struct ps_run *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (run_cmp(&v[i - 1], &v[i]) > 0)
			return false;
	return true;
}

uint64_t ps_runs_sort_dedupe(struct ps_runs *r)
{
	return ps_runs_sort_dedupe_in(r, NULL, 0);
}

uint64_t ps_runs_sort_dedupe_in(struct ps_runs *r, void *scratch, size_t bytes)
{
	uint64_t covered = 0, dropped = 0;	/* PFNs below `covered` are counted */
	size_t out = 0;

	if (r->n > 1 && !runs_sorted(r->v, r->n) &&
	    (r->n < 64 || radix_sort_runs(r->v, r->n, scratch, bytes) < 0))
		qsort(r->v, r->n, sizeof(*r->v), run_cmp);
	for (size_t i = 0; i < r->n; i++) {
		struct ps_run *x = &r->v[i];
		uint64_t end = x->pfn + x->len;

		if (end <= covered) {
			dropped += x->len;
			continue;
		}
		if (x->pfn < covered) {
			uint64_t cut = covered - x->pfn;

			dropped += cut;
			x->pfn += cut;
			if (!(x->flags & RUN_DESC))	/* falling: the top virtual pages go */
				x->vpn += cut;
			x->len -= (uint32_t)cut;
			x->flags &= ~(RUN_PMD | RUN_PMD_THP);	/* no longer a whole folio */
		}
		covered = end;
		if (out != i)	/* copies only after the first drop */
			r->v[out] = *x;
		out++;
	}
	r->n = out;
	r->pages -= dropped;
	return dropped;
}

/* Pieces of @x ending at multiples of @max PFNs (so 2 MiB blocks stay whole). */
static size_t split_count(const struct ps_run *x, uint32_t max)
{
	uint64_t first = max - (x->pfn & (max - 1));	/* a power of two: no division */

	if (x->len <= first)
		return 1;
	return 1 + (size_t)((x->len - first + max - 1) / max);
}

int ps_runs_split(struct ps_runs *r, uint32_t max)
{
	size_t extra = 0, o;

	for (size_t i = 0; i < r->n; i++)
		extra += split_count(&r->v[i], max) - 1;
	if (!extra)
		return 0;
	if (runs_grow(r, r->n + extra) < 0)
		return -ENOMEM;
	/* back to front, so the pieces never overwrite runs not yet moved */
	o = r->n + extra;
	for (size_t i = r->n; i-- > 0;) {
		struct ps_run x = r->v[i];
		size_t k = split_count(&x, max);

		o -= k;
		for (size_t j = 0; j < k; j++) {
			uint32_t l = (uint32_t)MIN((uint64_t)x.len, max - (x.pfn & (max - 1)));
			/* falling: the lowest PFNs are the top virtual pages */
			uint64_t vpn = x.flags & RUN_DESC ? x.vpn + x.len - l : x.vpn;

			r->v[o + j] = (struct ps_run){ x.pfn, vpn, l, x.flags };
			x.pfn += l;
			if (!(x.flags & RUN_DESC))
				x.vpn += l;
			x.len -= l;
		}
	}
	r->n += extra;
	return 0;
}

void ps_runs_free(struct ps_runs *r)
{
	free(r->v);
	*r = (struct ps_runs){ 0 };
}

enum ps_cat ps_classify(uint32_t run_flags, bool have_kflags, uint64_t kflags)
{
	if (!have_kflags) {
		if (run_flags & RUN_FILE)
			return PS_FILE;
		return run_flags & RUN_EXCLUSIVE ? PS_ANON_EXCL : PS_ANON_SHARED;
	}
	if (kflags & KPF_BIT(KPF_ZERO_PAGE))
		return PS_ZERO;
	if (kflags & KPF_BIT(KPF_ANON))
		return run_flags & RUN_EXCLUSIVE ? PS_ANON_EXCL : PS_ANON_SHARED;
	/* not anon: page cache; shmem pages are swap-backed, file pages never are */
	return kflags & KPF_BIT(KPF_SWAPBACKED) ? PS_SHMEM : PS_FILE;
}

bool ps_is_pmd_folio(const uint64_t *kf)
{
	const uint64_t head = KPF_BIT(KPF_COMPOUND_HEAD) | KPF_BIT(KPF_THP);
	const uint64_t tail = KPF_BIT(KPF_COMPOUND_TAIL) | KPF_BIT(KPF_THP);

	if ((kf[0] & (head | KPF_BIT(KPF_COMPOUND_TAIL))) != head)
		return false;
	for (size_t i = 1; i < PS_PMD_PAGES; i++)
		if ((kf[i] & (tail | KPF_BIT(KPF_COMPOUND_HEAD))) != tail)
			return false;
	return true;
}

uint64_t ps_pmd_first(const struct ps_run *run)
{
	/* both spaces must be aligned alike and rise together, or no block can be
	 * PMD-mapped */
	if (((run->vpn ^ run->pfn) & (PS_PMD_PAGES - 1)) || (run->flags & RUN_DESC))
		return UINT64_MAX;
	return (PS_PMD_PAGES - (run->pfn & (PS_PMD_PAGES - 1))) & (PS_PMD_PAGES - 1);
}

uint64_t ps_count_thp_pmd(const struct ps_run *run, const uint64_t *kf)
{
	uint64_t n = 0;

	for (uint64_t i = ps_pmd_first(run); i < run->len && i + PS_PMD_PAGES <= run->len;
	     i += PS_PMD_PAGES)
		if (ps_is_pmd_folio(kf + i))
			n += PS_PMD_PAGES;
	return n;
}

static int vrange_push(struct ps_vrange **v, size_t *n, size_t *cap, uint64_t a, uint64_t b)
{
	if (*n && (*v)[*n - 1].end == a) {
		(*v)[*n - 1].end = b;
		return 0;
	}
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct ps_vrange *nv = realloc(*v, c * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = (struct ps_vrange){ a, b };
	return 0;
}

static int vrange_cmp(const void *a, const void *b)
{
	const struct ps_vrange *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

ssize_t ps_pmd_candidates(const struct ps_runs *r, struct ps_vrange **ret)
{
	struct ps_vrange *v = NULL;
	size_t n = 0, cap = 0, out = 0;

	for (size_t k = 0; k < r->n; k++) {
		const struct ps_run *run = &r->v[k];

		if (run->len < PS_PMD_PAGES)	/* most runs of a 4 KiB task */
			continue;
		for (uint64_t i = ps_pmd_first(run); i < run->len && i + PS_PMD_PAGES <= run->len;
		     i += PS_PMD_PAGES) {
			if (vrange_push(&v, &n, &cap, run->vpn + i, run->vpn + i + PS_PMD_PAGES)) {
				free(v);
				return -ENOMEM;
			}
		}
	}
	/* runs come in PFN order: merge the blocks in virtual order, for few ioctls */
	if (n)
		qsort(v, n, sizeof(*v), vrange_cmp);
	for (size_t i = 0; i < n; i++) {
		if (out && v[out - 1].end == v[i].start)
			v[out - 1].end = v[i].end;
		else
			v[out++] = v[i];
	}
	*ret = v;
	return (ssize_t)out;
}

static bool vpn_listed(const uint64_t *v, size_t n, uint64_t vpn)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] == vpn)
			return true;
		if (v[mid] < vpn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int out_push(struct ps_runs *o, const struct ps_run *x)
{
	if (!x->len)
		return 0;
	if (runs_grow(o, o->n + 1) < 0)
		return -ENOMEM;
	o->v[o->n++] = *x;
	o->pages += x->len;
	return 0;
}

/* @run with its listed blocks cut out as RUN_PMD runs, appended to @o. */
static int mark_run(struct ps_runs *o, const struct ps_run *run, const uint64_t *pmd_vpns,
		    size_t n)
{
	uint64_t cur = 0;
	int r = 0;

	for (uint64_t i = ps_pmd_first(run); r == 0 && i < run->len &&
	     i + PS_PMD_PAGES <= run->len; i += PS_PMD_PAGES) {
		struct ps_run before = { run->pfn + cur, run->vpn + cur, (uint32_t)(i - cur),
					 run->flags };
		struct ps_run pmd = { run->pfn + i, run->vpn + i, PS_PMD_PAGES,
				      run->flags | RUN_PMD };

		if (!vpn_listed(pmd_vpns, n, run->vpn + i))
			continue;
		r = out_push(o, &before);
		if (r == 0)
			r = out_push(o, &pmd);
		cur = i + PS_PMD_PAGES;
	}
	if (r == 0) {
		struct ps_run rest = { run->pfn + cur, run->vpn + cur, (uint32_t)(run->len - cur),
				       run->flags };

		r = out_push(o, &rest);
	}
	return r;
}

int ps_runs_mark_pmd(struct ps_runs *r, const uint64_t *pmd_vpns, size_t n)
{
	struct ps_runs o = { 0 };

	if (!n)
		return 0;
	for (size_t k = 0; k < r->n; k++) {
		if (mark_run(&o, &r->v[k], pmd_vpns, n) < 0) {
			ps_runs_free(&o);
			return -ENOMEM;
		}
	}
	ps_runs_free(r);
	*r = o;
	return 0;
}

/* The VMA of @v holding virtual page @vpn, or NULL. */
static const struct ps_vma *vma_of(const struct ps_vma *v, size_t n, uint64_t vpn)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (vpn < v[mid].start)
			hi = mid;
		else if (vpn >= v[mid].end)
			lo = mid + 1;
		else
			return &v[mid];
	}
	return NULL;
}

void ps_runs_mark_pmd_thp(struct ps_runs *r, const struct ps_vma *v, size_t n)
{
	for (size_t k = 0; k < r->n; k++) {
		struct ps_run *run = &r->v[k];
		const struct ps_vma *vma;

		if ((run->flags & (RUN_PMD | RUN_EXCLUSIVE | RUN_FILE)) != (RUN_PMD | RUN_EXCLUSIVE))
			continue;
		vma = vma_of(v, n, run->vpn);
		if (vma && vma->anon && run->vpn + run->len <= vma->end)
			run->flags |= RUN_PMD_THP;
	}
}

struct ps_group *ps_groups_get(struct ps_groups *g, uint64_t ino)
{
	if (g->last < g->n && g->v[g->last].ino == ino)
		return &g->v[g->last];
	for (size_t i = 0; i < g->n; i++) {
		if (g->v[i].ino == ino) {
			g->last = i;
			return &g->v[i];
		}
	}
	if (g->n == g->cap) {
		size_t c = g->cap ? g->cap * 2 : 8;
		struct ps_group *nv = realloc(g->v, c * sizeof(*nv));

		if (!nv)
			return NULL;
		g->v = nv;
		g->cap = c;
	}
	g->v[g->n] = (struct ps_group){ .ino = ino };
	g->last = g->n;
	return &g->v[g->n++];
}

int ps_groups_merge(struct ps_groups *dst, const struct ps_groups *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct ps_group *s = &src->v[i];
		struct ps_group *d = ps_groups_get(dst, s->ino);

		if (!d)
			return -ENOMEM;
		for (int c = 0; c < PS_NCAT; c++)
			d->cat[c] += s->cat[c];
		d->shared_mc2 += s->shared_mc2;
		d->thp += s->thp;
		d->thp_pmd += s->thp_pmd;
		d->thp_heads += s->thp_heads;
	}
	return 0;
}

void ps_groups_free(struct ps_groups *g)
{
	free(g->v);
	*g = (struct ps_groups){ 0 };
}

/* One page: its owner's counters.  Zero-page mappings are counted apart. */
static int account_page(struct ps_groups *g, struct ps_window *w, uint32_t run_flags,
			uint64_t off)
{
	uint64_t kf = w->kf ? w->kf[off] : 0;
	enum ps_cat c = ps_classify(run_flags, w->kf != NULL, kf);
	struct ps_group *grp;

	if (c == PS_ZERO) {
		w->zero++;
		return 0;
	}
	grp = ps_groups_get(g, w->kcg ? w->kcg[off] : 0);
	if (!grp)
		return -ENOMEM;
	grp->cat[c]++;
	if (kf & KPF_BIT(KPF_THP))
		grp->thp++;
	if ((kf & (KPF_BIT(KPF_THP) | KPF_BIT(KPF_COMPOUND_HEAD))) ==
	    (KPF_BIT(KPF_THP) | KPF_BIT(KPF_COMPOUND_HEAD)))
		grp->thp_heads++;
	if (c == PS_ANON_SHARED && w->kc && w->kc[off] == 2)
		grp->shared_mc2++;
	return 0;
}

/* A PMD-mapped folio: one folio, so the head's entries speak for all 512 pages. */
static int account_pmd(struct ps_groups *g, struct ps_window *w, const struct ps_run *run)
{
	uint64_t off = run->pfn - w->base, kf = w->kf ? w->kf[off] : 0;
	enum ps_cat c;
	struct ps_group *grp;

	if (w->kf && (run->flags & RUN_PMD_THP))	/* what kpageflags would say */
		kf = KPF_BIT(KPF_ANON) | KPF_BIT(KPF_THP) | KPF_BIT(KPF_COMPOUND_HEAD);
	c = ps_classify(run->flags, w->kf != NULL, kf);

	if (c == PS_ZERO) {	/* the huge zero page */
		w->zero += run->len;
		return 0;
	}
	grp = ps_groups_get(g, w->kcg ? w->kcg[off] : 0);
	if (!grp)
		return -ENOMEM;
	grp->cat[c] += run->len;
	if (kf & KPF_BIT(KPF_THP)) {
		grp->thp += run->len;
		grp->thp_heads += run->len / PS_PMD_PAGES;
		if (c == PS_ANON_EXCL || c == PS_ANON_SHARED)
			grp->thp_pmd += run->len;
	}
	if (c == PS_ANON_SHARED && w->kc && w->kc[off] == 2)
		grp->shared_mc2 += run->len;
	return 0;
}

/* The kpageflags entry sampled for the 2 MiB block of @pfn: at the first page of a
 * sampled run in that block, none for a mixed block (ps_span_next() reads the same). */
static uint64_t block_sample(struct ps_window *w, uint64_t pfn)
{
	uint64_t blk = pfn / PS_PMD_PAGES + 1;

	if (w->sblock != blk) {
		w->sblock = blk;
		w->sval = w->anon_small || ps_mixed_is(w->mixed, pfn) ? 0 : w->kf[pfn - w->base];
	}
	return w->sval;
}

size_t ps_leading_equal(const uint64_t *v, size_t n, uint64_t x)
{
	size_t i = 0;
#ifdef __SSE2__
	const __m128i x2 = _mm_set1_epi64x((long long)x);

	for (; i + 4 <= n; i += 4) {
		__m128i d = _mm_or_si128(
			_mm_xor_si128(_mm_loadu_si128((const __m128i *)(v + i)), x2),
			_mm_xor_si128(_mm_loadu_si128((const __m128i *)(v + i + 2)), x2));

		if (_mm_movemask_epi8(_mm_cmpeq_epi32(d, _mm_setzero_si128())) != 0xffff)
			break;
	}
#endif
	while (i < n && v[i] == x)
		i++;
	return i;
}

/* Pages [i, end) of a sampled run, all in one 2 MiB PFN block: anon exclusive, THP as
 * the block's sample says, each page's owner from kpagecgroup (equal owners batched). */
static int account_block(struct ps_groups *g, struct ps_window *w, const struct ps_run *run,
			 uint64_t i, uint64_t end)
{
	uint64_t off = run->pfn - w->base, one = 0;
	bool thp = block_sample(w, run->pfn + i) & KPF_BIT(KPF_THP);
	/* every page read in the block has one owner: no need to look at each */
	bool same = w->kcg && ps_mixed_one(w->mixed, run->pfn + i, &one);

	for (uint64_t k = i, m; k < end; k = m) {
		uint64_t ino = same ? one : w->kcg ? w->kcg[off + k] : 0;
		struct ps_group *grp;

		m = same || !w->kcg ? end : k + 1 + ps_leading_equal(w->kcg + off + k + 1,
								 end - k - 1, ino);
		grp = ps_groups_get(g, ino);
		if (!grp)
			return -ENOMEM;
		grp->cat[PS_ANON_EXCL] += m - k;
		if (thp)
			grp->thp += m - k;
		/* sampled blocks hold PMD-order folios only: the head is the block's first */
		if (thp && k == i && !((run->pfn + i) % PS_PMD_PAGES))
			grp->thp_heads++;
	}
	/* a whole block mapped 2 MiB-aligned: the PMD folio test of ps_count_thp_pmd() */
	if (thp && !w->pmd_known && end - i == PS_PMD_PAGES && !((run->vpn + i) % PS_PMD_PAGES) &&
	    !(run->flags & RUN_DESC)) {
		/* the head's owner: a block of one owner had only some of its pages read */
		struct ps_group *grp = ps_groups_get(g, same ? one : w->kcg ? w->kcg[off + i] : 0);

		if (!grp)
			return -ENOMEM;
		grp->thp_pmd += PS_PMD_PAGES;
	}
	return 0;
}

/* An anon exclusive run with sampled kpageflags (ps_run_sampled()) or none
 * (ps_run_flagless()), block by block. */
static int account_sampled(struct ps_groups *g, struct ps_window *w, const struct ps_run *run)
{
	for (uint64_t i = 0, end; i < run->len; i = end) {
		int r;

		end = MIN((uint64_t)run->len, ((run->pfn + i) | (PS_PMD_PAGES - 1)) + 1 - run->pfn);
		r = account_block(g, w, run, i, end);
		if (r < 0)
			return r;
	}
	return 0;
}

int ps_account_run(struct ps_groups *g, struct ps_window *w, const struct ps_run *run)
{
	uint64_t off = run->pfn - w->base;

	if (run->flags & RUN_PMD)
		return account_pmd(g, w, run);
	if (w->kf && (ps_run_sampled(w->mthp_off, run) || ps_run_flagless(w->anon_small, run)))
		return account_sampled(g, w, run);

	for (uint32_t i = 0; i < run->len; i++) {
		int r = account_page(g, w, run->flags, off + i);

		if (r < 0)
			return r;
	}
	/* whole PMD folios, each attributed to its head's memcg */
	if (!w->kf || w->pmd_known || (run->flags & RUN_FILE))
		return 0;
	for (uint64_t i = ps_pmd_first(run); i < run->len && i + PS_PMD_PAGES <= run->len;
	     i += PS_PMD_PAGES) {
		struct ps_group *grp;

		if (!ps_is_pmd_folio(w->kf + off + i))
			continue;
		grp = ps_groups_get(g, w->kcg ? w->kcg[off + i] : 0);
		if (!grp)
			return -ENOMEM;
		grp->thp_pmd += PS_PMD_PAGES;
	}
	return 0;
}
