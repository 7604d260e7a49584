/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Page inventory, pure part: which 2 MiB blocks are PMD-mapped, from /proc/PID/smaps,
 * for kernels without PAGEMAP_SCAN (before 6.7).  No I/O here.
 *
 * pagemap and kpageflags cannot tell a PMD-mapped THP from one whose PMD was split into
 * PTEs (mprotect() or munmap() of part of it, a COW fault on a shared one): the folio
 * is whole and mapped at the same addresses either way.  The difference matters to the
 * charge moving of v6.1: mm/memcontrol.c:get_mctgt_type_thp() moves a PMD-mapped THP
 * whole, mem_cgroup_move_charge_pte_range() skips each page of a PTE-mapped one
 * (PageTransCompound).  smaps counts PMD mappings only: fs/proc/task_mmu.c:
 * smaps_pmd_entry() (v6.1) adds HPAGE_PMD_SIZE to AnonHugePages, ShmemPmdMapped or
 * FilePmdMapped for each, and smaps_pte_entry() nothing for the PTEs of a THP.  A VMA
 * whose count is 0 has no PMD-mapped block; one whose count equals its candidate blocks
 * has all of them mapped so.  Between the two, which ones is not told.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pagescan.h"

#define PMD_KB (PS_PMD_PAGES * 4)

static bool starts(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* "start-end ..." of a VMA's first line, in pages; false for any other line */
static bool vma_line(const char *p, const char *end, uint64_t *a, uint64_t *b)
{
	uint64_t x, y;

	if (ps_parse_hex(&p, end, &x) < 0 || p >= end || *p++ != '-' ||
	    ps_parse_hex(&p, end, &y) < 0 || p >= end || *p != ' ' || y < x || ((x | y) & 0xfff))
		return false;
	*a = x >> 12;
	*b = y >> 12;
	return true;
}

/* "Name:   N kB": N, or -EIO */
static int64_t kb_value(const char *p, const char *end)
{
	uint64_t v = 0;
	bool digit = false;

	p = memchr(p, ':', (size_t)(end - p));
	if (!p)
		return -EIO;
	for (p++; p < end && *p == ' '; p++)
		;
	for (; p < end && *p >= '0' && *p <= '9'; p++, digit = true) {
		if (v > (UINT64_MAX >> 5))
			return -EIO;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (!digit || end - p < 3 || memcmp(p, " kB", 3) != 0)
		return -EIO;
	return (int64_t)v;
}

static int push(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		uint64_t *nv = realloc(*v, c * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* The candidate blocks inside [a, b): pushed when @all, counted either way.  VMAs come
 * in address order, so the candidates before @first are behind for good. */
static int vma_blocks(const struct ps_vrange *cand, size_t nc, size_t *first, uint64_t a,
		      uint64_t b, bool all, uint64_t **v, size_t *n, size_t *cap,
		      uint64_t *count)
{
	*count = 0;
	while (*first < nc && cand[*first].end <= a)
		(*first)++;
	for (size_t i = *first; i < nc && cand[i].start < b; i++) {
		/* candidates are unions of aligned blocks; keep those wholly inside */
		for (uint64_t p = cand[i].start; p + PS_PMD_PAGES <= cand[i].end;
		     p += PS_PMD_PAGES) {
			if (p % PS_PMD_PAGES || p < a || p + PS_PMD_PAGES > b)
				continue;
			(*count)++;
			if (all && push(v, n, cap, p) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

/* One VMA's verdict: none, all of its candidates, or -EAGAIN (not told which). */
static int vma_done(const struct ps_vrange *cand, size_t nc, size_t *first, uint64_t a,
		    uint64_t b, uint64_t pmd_kb, uint64_t **v, size_t *n, size_t *cap)
{
	uint64_t c, blocks = pmd_kb / PMD_KB;
	int r;

	if (!pmd_kb)
		return 0;
	if (pmd_kb % PMD_KB)
		return -EIO;
	r = vma_blocks(cand, nc, first, a, b, false, v, n, cap, &c);
	if (r == 0 && blocks != c)
		return -EAGAIN;
	return r < 0 ? r : vma_blocks(cand, nc, first, a, b, true, v, n, cap, &c);
}

ssize_t ps_pmd_from_smaps(const char *buf, size_t len, const struct ps_vrange *cand,
			  size_t nc, uint64_t **ret)
{
	const char *p = buf, *end = buf + len;
	uint64_t *v = NULL, a = 0, b = 0, kb = 0;
	size_t n = 0, cap = 0, first = 0;
	bool in_vma = false;
	int r = 0;

	*ret = NULL;
	while (p < end && r == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		uint64_t na, nb;

		if (vma_line(p, eol, &na, &nb)) {
			if (in_vma)
				r = vma_done(cand, nc, &first, a, b, kb, &v, &n, &cap);
			a = na;
			b = nb;
			kb = 0;
			in_vma = true;
		} else if (starts(p, eol, "AnonHugePages:") || starts(p, eol, "ShmemPmdMapped:") ||
			   starts(p, eol, "FilePmdMapped:")) {
			int64_t k = kb_value(p, eol);

			if (k < 0 || !in_vma)
				r = -EIO;
			else
				kb += (uint64_t)k;
		}
		p = eol + 1;
	}
	if (r == 0 && in_vma)
		r = vma_done(cand, nc, &first, a, b, kb, &v, &n, &cap);
	if (r < 0) {
		free(v);
		return r;
	}
	*ret = v;
	return (ssize_t)n;
}
