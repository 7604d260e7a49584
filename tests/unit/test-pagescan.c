/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Page inventory, pure part: maps parsing, runs, dedupe, split, classification. */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "kernel/pagescan.h"

#define P(pfn) (PM_PRESENT | (uint64_t)(pfn))
#define KF(b) KPF_BIT(b)

START_TEST(maps_parse)
{
	static const char maps[] =
		"55d0c0000000-55d0c0002000 r--p 00000000 fe:01 123  /usr/bin/with space\n"
		"7f0000000000-7f0000200000 rw-s 00000000 00:01 7 /dev/zero (deleted)\n"
		"\n"
		"7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                  [stack]\n"
		"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]";
	struct ps_vma *v = NULL;
	ssize_t n = ps_parse_maps(maps, strlen(maps), &v);

	ck_assert_int_eq(n, 4);
	ck_assert_uint_eq(v[0].start, 0x55d0c0000000ULL >> 12);
	ck_assert_uint_eq(v[0].end - v[0].start, 2);
	ck_assert(!v[0].shared);
	ck_assert(v[1].shared);
	ck_assert_uint_eq(v[1].end - v[1].start, 512);
	ck_assert_uint_eq(v[2].end - v[2].start, 0x21);
	ck_assert_uint_eq(v[3].start, 0xffffffffff600000ULL >> 12);
	/* inode 0: anon; a file, /dev/zero (shmem) or hugetlb has one */
	ck_assert(!v[0].anon);
	ck_assert(!v[1].anon);
	ck_assert(v[2].anon);
	ck_assert(v[3].anon);
	free(v);
}
END_TEST

/* RUN_PMD_THP: anon exclusive PMD runs in inode-less VMAs; kpageflags not needed. */
START_TEST(pmd_thp)
{
	static const char maps[] =
		"40000000-40400000 rw-p 00000000 00:00 0\n"
		"80000000-80400000 rw-p 00000000 00:0f 4242 /anon_hugepage (deleted)\n";
	struct ps_vma *v = NULL;
	ssize_t nv = ps_parse_maps(maps, strlen(maps), &v);
	struct ps_run rv[] = {
		{ .pfn = 512, .vpn = 0x40000, .len = 512, .flags = RUN_EXCLUSIVE | RUN_PMD },
		{ .pfn = 1024, .vpn = 0x40200, .len = 512, .flags = RUN_PMD },	/* shared */
		{ .pfn = 2048, .vpn = 0x80000, .len = 512,
		  .flags = RUN_EXCLUSIVE | RUN_PMD },	/* hugetlb */
		{ .pfn = 4096, .vpn = 0x40200, .len = 512, .flags = RUN_EXCLUSIVE },
	};
	struct ps_runs r = { .v = rv, .n = 4, .cap = 4 };
	uint64_t kcg[1] = { 42 }, kf[1] = { KF(KPF_HUGE) /* unread: must not count */ };
	struct ps_window w = { .base = 512, .kcg = kcg, .kf = kf, .pmd_known = true };
	struct ps_span_iter it = { .rv = rv, .k = 0, .end = 4, .file = PS_KF, .gap = 32 };
	struct ps_groups g = { 0 };
	const struct ps_group *x;
	uint64_t a, b;

	ck_assert_int_eq(nv, 2);
	ps_runs_mark_pmd_thp(&r, v, (size_t)nv);
	free(v);
	ck_assert_uint_eq(rv[0].flags, RUN_EXCLUSIVE | RUN_PMD | RUN_PMD_THP);
	ck_assert_uint_eq(rv[1].flags, RUN_PMD);
	ck_assert_uint_eq(rv[2].flags, RUN_EXCLUSIVE | RUN_PMD);
	ck_assert_uint_eq(rv[3].flags, RUN_EXCLUSIVE);
	ck_assert(ps_span_next(&it, &a, &b));	/* run 0 skipped */
	ck_assert_uint_eq(a, 1024);
	ck_assert_uint_eq(b, 1025);
	ck_assert_int_eq(ps_account_run(&g, &w, &rv[0]), 0);
	x = ps_groups_get(&g, 42);
	ck_assert_uint_eq(x->cat[PS_ANON_EXCL], 512);
	ck_assert_uint_eq(x->thp, 512);
	ck_assert_uint_eq(x->thp_pmd, 512);
	ps_groups_free(&g);
}
END_TEST

START_TEST(maps_malformed)
{
	static const char *const bad[] = {
		"zz-1000 rw-p 0 0:0 0\n",
		"1000 rw-p 0 0:0 0\n",
		"2000-1000 rw-p 0 0:0 0\n",
		"1000-2000 rw-x 0 0:0 0\n",	/* neither p nor s */
		"1001-2000 rw-p 0 0:0 0\n",	/* not page aligned */
		"1000-2000 rw\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ps_vma *v = NULL;

		ck_assert_msg(ps_parse_maps(bad[i], strlen(bad[i]), &v) == -EIO, "%s", bad[i]);
	}
}
END_TEST

START_TEST(runs_coalesce)
{
	/* vpn 100..: 10,11,12 | 20 (pfn jump) | 21 exclusive (flag change) | hole |
	 * swap | 22 (virtual gap after the hole: new run) | hidden PFN */
	uint64_t pm[] = {
		P(10), P(11), P(12), P(20), P(21) | PM_EXCLUSIVE, 0,
		PM_SWAP | 5, P(22) | PM_FILE, PM_PRESENT | PM_EXCLUSIVE,
	};
	struct ps_runs r = { 0 };
	struct ps_pmstat st = { 0 };

	ck_assert_int_eq(ps_runs_feed(&r, &st, 100, pm, 9), 0);
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.pages, 6);
	ck_assert_uint_eq(r.v[0].pfn, 10);
	ck_assert_uint_eq(r.v[0].len, 3);
	ck_assert_uint_eq(r.v[0].vpn, 100);
	ck_assert_uint_eq(r.v[1].pfn, 20);
	ck_assert_uint_eq(r.v[1].len, 1);
	ck_assert_uint_eq(r.v[2].flags, RUN_EXCLUSIVE);
	ck_assert_uint_eq(r.v[3].flags, RUN_FILE);
	ck_assert_uint_eq(r.v[3].vpn, 107);
	ck_assert_uint_eq(st.swap, 1);
	ck_assert_uint_eq(st.present, 7);
	ck_assert_uint_eq(st.hidden_anon_excl, 1);
	/* a second feed continues the last run when contiguous */
	uint64_t more[] = { P(23) | PM_FILE };
	ck_assert_int_eq(ps_runs_feed(&r, &st, 108, more, 1), 0);
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.v[3].len, 2);
	ps_runs_free(&r);
}
END_TEST

START_TEST(runs_hidden)
{
	uint64_t pm[] = { PM_PRESENT, PM_PRESENT | PM_EXCLUSIVE, PM_PRESENT | PM_FILE,
			  PM_PRESENT | PM_FILE | PM_EXCLUSIVE };
	struct ps_runs r = { 0 };
	struct ps_pmstat st = { 0 };

	ck_assert_int_eq(ps_runs_feed(&r, &st, 0, pm, 4), 0);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_uint_eq(st.hidden_anon_shared, 1);
	ck_assert_uint_eq(st.hidden_anon_excl, 1);
	ck_assert_uint_eq(st.hidden_file, 2);
	ps_runs_free(&r);
}
END_TEST

static void push(struct ps_runs *r, uint64_t pfn, uint64_t vpn, uint32_t len)
{
	struct ps_runs one = { 0 };
	struct ps_run x = { .pfn = pfn, .vpn = vpn, .len = len };

	one.v = &x;
	one.n = 1;
	one.pages = len;
	ck_assert_int_eq(ps_runs_append(r, &one), 0);
}

/* PFNs falling as virtual pages rise (the page allocator's usual order for a fresh
 * task) make one RUN_DESC run, also across feeds; PFN 0 ("hidden") never joins one. */
START_TEST(runs_falling)
{
	uint64_t pm[16];
	struct ps_runs r = { 0 };
	struct ps_pmstat st = { 0 };
	size_t n = 0;

	for (uint64_t p = 60; p > 49; p--)	/* 60..50: 11 pages, the SIMD path */
		pm[n++] = P(p) | PM_EXCLUSIVE;
	pm[n++] = P(49);			/* flag change: a new run */
	pm[n++] = P(48);			/* ... which falls too */
	pm[n++] = P(2);
	pm[n++] = P(1);
	pm[n++] = PM_PRESENT;			/* PFN hidden: not PFN 0 of the run */
	ck_assert_int_eq(ps_runs_feed(&r, &st, 100, pm, n), 0);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.v[0].pfn, 50);
	ck_assert_uint_eq(r.v[0].len, 11);
	ck_assert_uint_eq(r.v[0].vpn, 100);
	ck_assert_uint_eq(r.v[0].flags, RUN_EXCLUSIVE | RUN_DESC);
	ck_assert_uint_eq(r.v[1].pfn, 48);
	ck_assert_uint_eq(r.v[1].len, 2);
	ck_assert_uint_eq(r.v[1].vpn, 111);
	ck_assert_uint_eq(r.v[1].flags, RUN_DESC);
	ck_assert_uint_eq(r.v[2].pfn, 1);
	ck_assert_uint_eq(r.v[2].len, 2);
	ck_assert_uint_eq(r.pages, 15);
	ck_assert_uint_eq(st.present, 16);
	ck_assert_uint_eq(st.hidden_anon_shared, 1);
	ps_runs_free(&r);

	/* a one-page run at the end of one feed falls in the next; then it goes on */
	pm[0] = P(70);
	ck_assert_int_eq(ps_runs_feed(&r, &st, 0, pm, 1), 0);
	pm[0] = P(69);
	pm[1] = P(68);
	ck_assert_int_eq(ps_runs_feed(&r, &st, 1, pm, 2), 0);
	for (n = 0; n < 9; n++)
		pm[n] = P(67 - n);
	ck_assert_int_eq(ps_runs_feed(&r, &st, 3, pm, 9), 0);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_uint_eq(r.v[0].pfn, 59);
	ck_assert_uint_eq(r.v[0].len, 12);
	ck_assert_uint_eq(r.v[0].vpn, 0);
	ck_assert_uint_eq(r.pages, 12);
	/* a rising page after a falling run starts a new run */
	pm[0] = P(60);
	ck_assert_int_eq(ps_runs_feed(&r, &st, 12, pm, 1), 0);
	ck_assert_uint_eq(r.n, 2);
	ps_runs_free(&r);
}
END_TEST

/* Random pagemaps fed in random pieces: every run, expanded page by page in its
 * direction, gives back exactly the present entries with a PFN, in virtual order. */
START_TEST(runs_random_roundtrip)
{
	enum { N = 4000 };
	static uint64_t pm[N];
	unsigned int seed = 12345;

	for (int round = 0; round < 200; round++) {
		struct ps_runs r = { 0 };
		struct ps_pmstat st = { 0 };
		uint64_t pfn = 1 + (uint64_t)(rand_r(&seed) % 8), want = 0, k = 0;

		for (size_t i = 0; i < N; i++) {
			int c = rand_r(&seed) % 100;
			uint64_t fl = rand_r(&seed) % 50 ? 0 : PM_EXCLUSIVE;

			if (c < 40)
				pfn++;
			else if (c < 80)
				pfn = pfn > 1 ? pfn - 1 : 3;
			else if (c < 90)
				pfn = 1 + (uint64_t)(rand_r(&seed) % 64);
			pm[i] = c < 94 ? P(pfn) | fl : c < 96 ? PM_PRESENT : c < 98 ? PM_SWAP : 0;
			want += c < 94;
		}
		for (size_t i = 0, len; i < N; i += len) {
			len = 1 + (size_t)(rand_r(&seed) % 300);
			if (len > N - i)
				len = N - i;
			ck_assert_int_eq(ps_runs_feed(&r, &st, 1000 + i, pm + i, len), 0);
		}
		ck_assert_uint_eq(r.pages, want);
		/* checked without ck_assert() per page: Check records every passed one */
		for (size_t i = 0; i < r.n; i++) {
			const struct ps_run *x = &r.v[i];

			if ((x->flags & RUN_DESC) && x->len < 2)
				ck_abort_msg("round %d: falling run %zu of one page", round, i);
			for (uint32_t j = 0; j < x->len; j++) {
				uint64_t v = x->vpn + j - 1000;
				uint64_t f = x->flags & RUN_DESC ? x->pfn + x->len - 1 - j : x->pfn + j;

				for (; k < v && k < N; k++)	/* entries before it: none with a PFN */
					if ((pm[k] & PM_PRESENT) && (pm[k] & PM_PFN_MASK))
						ck_abort_msg("round %d: entry %" PRIu64 " lost", round, k);
				if (k != v || (pm[k] & PM_PFN_MASK) != f ||
				    !(pm[k] & PM_EXCLUSIVE) != !(x->flags & RUN_EXCLUSIVE))
					ck_abort_msg("round %d: run %zu page %u: entry %" PRIu64
						     " is not PFN %" PRIu64, round, i, j, v, f);
				k++;
			}
		}
		ps_runs_free(&r);
	}
}
END_TEST

/* A falling run trimmed at its low PFNs keeps its virtual start (those PFNs are its top
 * pages); split pieces name their own lowest virtual page; it is never PMD-mapped but
 * joins PFN neighbours like any run. */
START_TEST(runs_falling_trim_split)
{
	struct ps_runs r = { 0 };
	struct ps_run d = { .pfn = 100, .vpn = 0, .len = 10, .flags = RUN_DESC };
	struct ps_runs one = { .v = &d, .n = 1, .pages = 10 };
	struct ps_run big = { .pfn = 1000, .vpn = 512, .len = 1536, .flags = RUN_DESC };
	struct ps_run jv[] = {
		{ .pfn = 10, .vpn = 50, .len = 4, .flags = RUN_EXCLUSIVE },
		{ .pfn = 14, .vpn = 9, .len = 3, .flags = RUN_EXCLUSIVE | RUN_DESC },
	};
	struct ps_runs j = { .v = jv, .n = 2, .cap = 2, .pages = 7 };

	push(&r, 95, 40, 8);	/* 95..102 */
	ck_assert_int_eq(ps_runs_append(&r, &one), 0);
	ck_assert_uint_eq(ps_runs_sort_dedupe(&r), 3);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_uint_eq(r.v[1].pfn, 103);
	ck_assert_uint_eq(r.v[1].len, 7);
	ck_assert_uint_eq(r.v[1].vpn, 0);	/* vpn 0..6 map 109..103 */
	ps_runs_free(&r);

	/* vpn 512 + k maps PFN 2535 - k: [1000, 1024) is vpn 2024..2047 */
	ck_assert_uint_eq(ps_pmd_first(&big), UINT64_MAX);
	one.v = &big;
	one.pages = big.len;
	ck_assert_int_eq(ps_runs_append(&r, &one), 0);
	ck_assert_int_eq(ps_runs_split(&r, 1024), 0);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.v[0].pfn, 1000);
	ck_assert_uint_eq(r.v[0].len, 24);
	ck_assert_uint_eq(r.v[0].vpn, 2024);
	ck_assert_uint_eq(r.v[1].pfn, 1024);
	ck_assert_uint_eq(r.v[1].len, 1024);
	ck_assert_uint_eq(r.v[1].vpn, 1000);
	ck_assert_uint_eq(r.v[2].pfn, 2048);
	ck_assert_uint_eq(r.v[2].len, 488);
	ck_assert_uint_eq(r.v[2].vpn, 512);
	ps_runs_free(&r);

	ck_assert_uint_eq(ps_runs_join_pfn(&j, 1024), 1);
	ck_assert_uint_eq(jv[0].len, 7);
}
END_TEST

START_TEST(runs_sort_dedupe)
{
	struct ps_runs r = { 0 };

	push(&r, 500, 0, 10);	/* 500..509 */
	push(&r, 100, 50, 5);	/* 100..104 */
	push(&r, 503, 90, 4);	/* inside the first: dropped */
	push(&r, 505, 70, 10);	/* 505..514: 510..514 kept */
	push(&r, 104, 40, 1);	/* duplicate of 104 */
	ck_assert_uint_eq(r.pages, 30);
	ck_assert_uint_eq(ps_runs_sort_dedupe(&r), 4 + 5 + 1);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.pages, 20);
	ck_assert_uint_eq(r.v[0].pfn, 100);
	ck_assert_uint_eq(r.v[1].pfn, 500);
	ck_assert_uint_eq(r.v[2].pfn, 510);
	ck_assert_uint_eq(r.v[2].vpn, 75);	/* trimmed alike in both spaces */
	ck_assert_uint_eq(r.v[2].len, 5);
	ps_runs_free(&r);
}
END_TEST

/* Two sorted halves merged in run order (longest first at one PFN), then deduped. */
START_TEST(runs_merge_halves)
{
	struct ps_runs a = { 0 }, b = { 0 }, m = { 0 }, e = { 0 };

	push(&a, 100, 0, 10);
	push(&a, 500, 20, 5);
	push(&a, 900, 40, 1);
	push(&b, 50, 1000, 3);
	push(&b, 500, 1010, 8);	/* same PFN as a's, longer: first */
	push(&b, 2000, 1030, 4);
	ps_runs_append(&m, &a);
	ck_assert_int_eq(ps_runs_merge(&m, &b), 0);
	ck_assert_uint_eq(b.n, 3);	/* left as it was */
	ck_assert_uint_eq(m.n, 6);
	ck_assert_uint_eq(m.pages, 31);
	ck_assert_uint_eq(m.v[0].pfn, 50);
	ck_assert_uint_eq(m.v[1].pfn, 100);
	ck_assert_uint_eq(m.v[2].pfn, 500);
	ck_assert_uint_eq(m.v[2].len, 8);
	ck_assert_uint_eq(m.v[3].len, 5);
	ck_assert_uint_eq(m.v[5].pfn, 2000);
	ck_assert_uint_eq(ps_runs_sort_dedupe(&m), 5);	/* a's 500..504 inside b's */
	ck_assert_uint_eq(m.n, 5);
	ck_assert_uint_eq(m.pages, 26);
	ps_runs_free(&m);
	ck_assert_int_eq(ps_runs_merge(&m, &b), 0);	/* one side empty */
	ck_assert_uint_eq(m.n, 3);
	ck_assert_uint_eq(m.v[1].vpn, 1010);
	ck_assert_int_eq(ps_runs_merge(&m, &e), 0);	/* the other */
	ck_assert_uint_eq(m.n, 3);
	ck_assert_uint_eq(m.pages, 15);
	ck_assert_uint_eq(m.v[2].pfn, 2000);
	ps_runs_free(&m);
	ps_runs_free(&a);
	ps_runs_free(&b);
}
END_TEST

/* PFN neighbours with equal flags join whatever their virtual pages; not across a
 * multiple of max, not RUN_PMD runs, not different flags. */
START_TEST(runs_join_pfn)
{
	struct ps_run rv[] = {
		{ .pfn = 1000, .vpn = 7, .len = 10, .flags = RUN_EXCLUSIVE },
		{ .pfn = 1010, .vpn = 900, .len = 14, .flags = RUN_EXCLUSIVE },	/* joins */
		{ .pfn = 1024, .vpn = 3, .len = 5, .flags = RUN_EXCLUSIVE },	/* at 1024 */
		{ .pfn = 1029, .vpn = 50, .len = 2, .flags = 0 },		/* flags */
		{ .pfn = 1031, .vpn = 60, .len = 2, .flags = 0 },		/* joins */
		{ .pfn = 1040, .vpn = 70, .len = 512, .flags = RUN_PMD },
		{ .pfn = 1552, .vpn = 582, .len = 4, .flags = RUN_PMD },	/* PMD */
		{ .pfn = 1556, .vpn = 1, .len = 4, .flags = RUN_FILE },
	};
	struct ps_runs r = { .v = rv, .n = 8, .cap = 8, .pages = 553 };

	ck_assert_uint_eq(ps_runs_join_pfn(&r, 1024), 6);
	ck_assert_uint_eq(r.n, 6);
	ck_assert_uint_eq(rv[0].len, 24);
	ck_assert_uint_eq(rv[0].vpn, 7);
	ck_assert_uint_eq(rv[1].pfn, 1024);
	ck_assert_uint_eq(rv[2].pfn, 1029);
	ck_assert_uint_eq(rv[2].len, 4);
	ck_assert_uint_eq(rv[3].len, 512);
	ck_assert_uint_eq(rv[4].pfn, 1552);
	ck_assert_uint_eq(rv[5].pfn, 1556);
	ck_assert_uint_eq(r.pages, 553);
}
END_TEST

/*
 * Blocks whose kpagecgroup entries differ are not one folio: no kpageflags sample is
 * read for them and their pages are not THP; a uniform block keeps its sample, and a
 * block sampled in an earlier window (sblock, sval carried) is not read again.
 */
START_TEST(mixed_blocks)
{
	static uint64_t kcg[2048], kf[2048];
	struct ps_run rv[] = {	/* window base 1000: blocks 1 (512..1023) to 5 */
		{ .pfn = 1000, .vpn = 1000, .len = 10, .flags = RUN_EXCLUSIVE },	/* blk 1 */
		{ .pfn = 1100, .vpn = 5000, .len = 20, .flags = RUN_EXCLUSIVE },	/* blk 2 */
		{ .pfn = 1200, .vpn = 6000, .len = 20, .flags = RUN_EXCLUSIVE },	/* blk 2 */
		{ .pfn = 1600, .vpn = 7000, .len = 100, .flags = RUN_EXCLUSIVE },	/* blk 3 */
	};
	struct ps_mixed m;
	struct ps_span_iter it = { .rv = rv, .k = 0, .end = 4, .file = PS_KF,
				   .mthp_off = true, .gap = 32, .mixed = &m };
	struct ps_window w = { .base = 1000, .kcg = kcg, .kf = kf, .mthp_off = true,
			       .pmd_known = true, .mixed = &m };
	struct ps_groups g = { 0 };
	uint64_t a, b;

	for (int i = 0; i < 2048; i++) {
		kcg[i] = 7;
		kf[i] = KF(KPF_ANON) | KF(KPF_THP);
	}
	kcg[1150 - 1000] = 0;	/* a free page between block 2's runs */
	ps_mixed_reset(&m, 1000);
	ps_mixed_add(&m, kcg, 1000, 1000, 1010);
	ps_mixed_add(&m, kcg, 1000, 1100, 1120);
	ck_assert(!ps_mixed_is(&m, 1100));	/* all equal so far */
	ps_mixed_add(&m, kcg, 1000, 1140, 1220);	/* bridges 1150 */
	ps_mixed_add(&m, kcg, 1000, 1600, 1700);
	ck_assert(!ps_mixed_is(&m, 1000));
	ck_assert(ps_mixed_is(&m, 1100));
	ck_assert(ps_mixed_is(&m, 1535));
	ck_assert(!ps_mixed_is(&m, 1600));
	ck_assert(!ps_mixed_is(&m, 1000 + 512 * 80));	/* beyond the window */
	ck_assert(!ps_mixed_is(NULL, 1100));
	/* block 1 was sampled in the window before: only block 3 is read */
	it.sblock = w.sblock = 1000 / 512 + 1;
	w.sval = KF(KPF_ANON);	/* and was no THP */
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 1600);
	ck_assert_uint_eq(b, 1601);
	ck_assert(!ps_span_next(&it, &a, &b));
	for (int k = 0; k < 4; k++)
		ck_assert_int_eq(ps_account_run(&g, &w, &rv[k]), 0);
	ck_assert_uint_eq(ps_groups_get(&g, 7)->cat[PS_ANON_EXCL], 150);
	ck_assert_uint_eq(ps_groups_get(&g, 7)->thp, 100);	/* block 3 only */
	ck_assert_uint_eq(w.sblock, 1600 / 512 + 1);
	ck_assert_uint_eq(w.sval, KF(KPF_ANON) | KF(KPF_THP));
	ps_groups_free(&g);
}
END_TEST

START_TEST(runs_split)
{
	struct ps_runs r = { 0 };
	uint64_t total = 0;

	push(&r, 1000, 7, 5000);	/* crosses 1024, 2048, 3072, 4096, 5120 (max 1024) */
	push(&r, 8192, 0, 1024);	/* exactly one aligned piece */
	ck_assert_int_eq(ps_runs_split(&r, 1024), 0);
	ck_assert_uint_eq(r.n, 7);
	ck_assert_uint_eq(r.v[0].pfn, 1000);
	ck_assert_uint_eq(r.v[0].len, 24);
	ck_assert_uint_eq(r.v[1].pfn, 1024);
	ck_assert_uint_eq(r.v[1].vpn, 31);
	ck_assert_uint_eq(r.v[5].pfn, 5120);
	ck_assert_uint_eq(r.v[5].len, 6000 - 5120);
	ck_assert_uint_eq(r.v[6].pfn, 8192);
	for (size_t i = 0; i < r.n; i++) {
		total += r.v[i].len;
		ck_assert_uint_le(r.v[i].len, 1024);
		if (i)
			ck_assert_uint_gt(r.v[i].pfn, r.v[i - 1].pfn);
	}
	ck_assert_uint_eq(total, 6024);
	ps_runs_free(&r);
}
END_TEST

START_TEST(classify)
{
	/* without kpageflags only the pagemap bits speak */
	ck_assert_int_eq(ps_classify(RUN_FILE, false, 0), PS_FILE);
	ck_assert_int_eq(ps_classify(RUN_FILE | RUN_EXCLUSIVE, false, 0), PS_FILE);
	ck_assert_int_eq(ps_classify(RUN_EXCLUSIVE, false, 0), PS_ANON_EXCL);
	ck_assert_int_eq(ps_classify(0, false, 0), PS_ANON_SHARED);
	/* with them */
	ck_assert_int_eq(ps_classify(RUN_EXCLUSIVE, true, KF(KPF_ANON)), PS_ANON_EXCL);
	ck_assert_int_eq(ps_classify(0, true, KF(KPF_ANON) | KF(KPF_SWAPBACKED)),
			 PS_ANON_SHARED);
	ck_assert_int_eq(ps_classify(RUN_FILE, true, KF(KPF_SWAPBACKED)), PS_SHMEM);
	ck_assert_int_eq(ps_classify(RUN_FILE | RUN_EXCLUSIVE, true, KF(KPF_SWAPBACKED)),
			 PS_SHMEM);
	ck_assert_int_eq(ps_classify(RUN_FILE, true, KF(5) /* LRU */), PS_FILE);
	ck_assert_int_eq(ps_classify(0, true, KF(KPF_ZERO_PAGE)), PS_ZERO);
	ck_assert_int_eq(ps_classify(0, true, KF(KPF_ZERO_PAGE) | KF(KPF_THP)), PS_ZERO);
}
END_TEST

static void fill_folio(uint64_t *kf, size_t n, uint64_t extra)
{
	kf[0] = KF(KPF_COMPOUND_HEAD) | KF(KPF_THP) | extra;
	for (size_t i = 1; i < n; i++)
		kf[i] = KF(KPF_COMPOUND_TAIL) | KF(KPF_THP) | extra;
}

/* smaps before PAGEMAP_SCAN: a VMA's PMD count says none or all of its candidates */
START_TEST(pmd_from_smaps)
{
	/* candidates (pages): blocks 512, 1024, 1536 (one merged range) and 4096 */
	const struct ps_vrange cand[] = { { 512, 2048 }, { 4096, 4608 } };
	const char *vma1 = "200000-800000 rw-p 00000000 00:00 0\n";	/* pages 512-2047 */
	const char *vma2 = "1000000-1200000 rw-p 00000000 00:00 0 \n";	/* 4096-4607 */
	char buf[1024];
	uint64_t *v = NULL;

	/* all three of the first VMA, none of the second */
	snprintf(buf, sizeof(buf), "%sRss: 6144 kB\nAnonHugePages:      6144 kB\n"
		 "%sAnonHugePages:         0 kB\nShmemPmdMapped:        0 kB\n", vma1, vma2);
	ck_assert_int_eq(ps_pmd_from_smaps(buf, strlen(buf), cand, 2, &v), 3);
	ck_assert_uint_eq(v[0], 512);
	ck_assert_uint_eq(v[1], 1024);
	ck_assert_uint_eq(v[2], 1536);
	free(v);
	/* file and shmem PMD mappings count too */
	snprintf(buf, sizeof(buf), "%sAnonHugePages: 0 kB\n%sShmemPmdMapped: 1024 kB\n"
		 "FilePmdMapped: 1024 kB\n", vma1, vma2);
	ck_assert_int_eq(ps_pmd_from_smaps(buf, strlen(buf), cand, 2, &v), 1);
	ck_assert_uint_eq(v[0], 4096);
	free(v);
	/* two of three: which two is not told */
	snprintf(buf, sizeof(buf), "%sAnonHugePages: 4096 kB\n%s", vma1, vma2);
	ck_assert_int_eq(ps_pmd_from_smaps(buf, strlen(buf), cand, 2, &v), -EAGAIN);
	ck_assert_ptr_null(v);
	/* a VMA boundary inside a block (mprotect of half a THP): that block cannot be
	 * PMD-mapped, and the VMAs' counts are checked against the blocks inside each */
	snprintf(buf, sizeof(buf), "200000-500000 rw-p 00000000 00:00 0\nAnonHugePages: 2048 kB\n"
		 "500000-800000 r--p 00000000 00:00 0\nAnonHugePages: 2048 kB\n");
	ck_assert_int_eq(ps_pmd_from_smaps(buf, strlen(buf), cand, 2, &v), 2);
	ck_assert_uint_eq(v[0], 512);
	ck_assert_uint_eq(v[1], 1536);
	free(v);
	/* more than the candidates: the pages changed meanwhile, not told */
	snprintf(buf, sizeof(buf), "%sAnonHugePages: 8192 kB\n", vma1);
	ck_assert_int_eq(ps_pmd_from_smaps(buf, strlen(buf), cand, 2, &v), -EAGAIN);
	/* malformed: not a multiple of 2 MiB, no unit, a field before any VMA */
	snprintf(buf, sizeof(buf), "%sAnonHugePages: 1000 kB\n", vma1);
	ck_assert_int_eq(ps_pmd_from_smaps(buf, strlen(buf), cand, 2, &v), -EIO);
	snprintf(buf, sizeof(buf), "%sAnonHugePages: 2048\n", vma1);
	ck_assert_int_eq(ps_pmd_from_smaps(buf, strlen(buf), cand, 2, &v), -EIO);
	snprintf(buf, sizeof(buf), "AnonHugePages: 0 kB\n%s", vma1);
	ck_assert_int_eq(ps_pmd_from_smaps(buf, strlen(buf), cand, 2, &v), -EIO);
	/* nothing PMD-mapped anywhere; an empty file */
	snprintf(buf, sizeof(buf), "%s%s", vma1, vma2);
	ck_assert_int_eq(ps_pmd_from_smaps(buf, strlen(buf), cand, 2, &v), 0);
	free(v);
	ck_assert_int_eq(ps_pmd_from_smaps("", 0, cand, 2, &v), 0);
	free(v);
}
END_TEST

/* 6.1's kpagecgroup: 0 for tail pages; they take the owner before them in the block */
START_TEST(kcg_fill_tails)
{
	uint64_t v[8] = { 7, 0, 0, 9, 0, 0, 0, 0 };

	ps_kcg_fill_tails(v, 1020, 8);	/* PFNs 1020-1027: a block starts at 1024 */
	ck_assert_uint_eq(v[1], 7);
	ck_assert_uint_eq(v[2], 7);
	ck_assert_uint_eq(v[3], 9);
	ck_assert_uint_eq(v[4], 0);	/* PFN 1024: a new block, no owner before it */
	ck_assert_uint_eq(v[5], 0);
	ck_assert_uint_eq(v[7], 0);
	v[5] = 3;
	ps_kcg_fill_tails(v, 1020, 8);
	ck_assert_uint_eq(v[6], 3);
	ck_assert_uint_eq(v[7], 3);
	ck_assert_uint_eq(v[4], 0);
}
END_TEST

START_TEST(thp_pmd)
{
	uint64_t *kf = calloc(2048, sizeof(*kf));
	struct ps_run run = { .pfn = 1024 - 100, .vpn = 4096 - 100, .len = 1700 };

	/* run covers pfn 924..2623: aligned blocks 1024 and 1536 whole, 2048 partial */
	fill_folio(kf + 100, 512, KF(KPF_ANON));
	fill_folio(kf + 612, 512, KF(KPF_ANON));
	ck_assert_uint_eq(ps_pmd_first(&run), 100);
	ck_assert_uint_eq(ps_count_thp_pmd(&run, kf), 1024);
	/* a second head inside the block: two smaller folios, not PMD */
	kf[612 + 256] = KF(KPF_COMPOUND_HEAD) | KF(KPF_THP);
	ck_assert_uint_eq(ps_count_thp_pmd(&run, kf), 512);
	/* virtual alignment differs: nothing can be PMD-mapped */
	run.vpn++;
	ck_assert_uint_eq(ps_pmd_first(&run), UINT64_MAX);
	ck_assert_uint_eq(ps_count_thp_pmd(&run, kf), 0);
	/* hugetlb-style compound without THP */
	run.vpn--;
	fill_folio(kf + 100, 512, 0);
	for (size_t i = 100; i < 612; i++)
		kf[i] &= ~KF(KPF_THP);
	ck_assert_uint_eq(ps_count_thp_pmd(&run, kf), 0);
	free(kf);
}
END_TEST

START_TEST(account_window)
{
	/* PFNs 1000..1009 (run A, anon shared) and 1012..1013 (run B, file) */
	uint64_t kcg[14], kf[14], kc[14];
	struct ps_run a = { .pfn = 1000, .vpn = 0, .len = 10, .flags = 0 };
	struct ps_run b = { .pfn = 1012, .vpn = 20, .len = 2, .flags = RUN_FILE };
	struct ps_window w = { .base = 1000, .kcg = kcg, .kf = kf, .kc = kc };
	struct ps_groups g = { 0 };
	const struct ps_group *g7, *g9;

	for (int i = 0; i < 14; i++) {
		kcg[i] = i < 6 ? 7 : 9;
		kf[i] = KF(KPF_ANON);
		kc[i] = i % 2 ? 2 : 3;
	}
	kf[9] = KF(KPF_ZERO_PAGE);
	kcg[9] = 0;
	kf[12] = KF(KPF_SWAPBACKED);	/* shmem */
	kf[13] = 0;			/* file */
	ck_assert_int_eq(ps_account_run(&g, &w, &a), 0);
	ck_assert_int_eq(ps_account_run(&g, &w, &b), 0);
	ck_assert_uint_eq(g.n, 2);	/* zero page counted apart, no group 0 */
	g7 = ps_groups_get(&g, 7);
	g9 = ps_groups_get(&g, 9);
	ck_assert_uint_eq(g7->cat[PS_ANON_SHARED], 6);
	ck_assert_uint_eq(g7->shared_mc2, 3);	/* offsets 1, 3, 5 */
	ck_assert_uint_eq(g9->cat[PS_ANON_SHARED], 3);
	ck_assert_uint_eq(g9->shared_mc2, 1);	/* offset 7; 9 is the zero page */
	ck_assert_uint_eq(g9->cat[PS_SHMEM], 1);
	ck_assert_uint_eq(g9->cat[PS_FILE], 1);
	ck_assert_uint_eq(w.zero, 1);
	ps_groups_free(&g);
}
END_TEST

START_TEST(groups_merge)
{
	struct ps_groups a = { 0 }, b = { 0 };

	ps_groups_get(&a, 5)->cat[PS_FILE] = 3;
	ps_groups_get(&b, 5)->cat[PS_FILE] = 4;
	ps_groups_get(&b, 6)->thp = 512;
	ck_assert_int_eq(ps_groups_merge(&a, &b), 0);
	ck_assert_uint_eq(a.n, 2);
	ck_assert_uint_eq(ps_groups_get(&a, 5)->cat[PS_FILE], 7);
	ck_assert_uint_eq(ps_groups_get(&a, 6)->thp, 512);
	ps_groups_free(&a);
	ps_groups_free(&b);
}
END_TEST

START_TEST(append_joins_halves)
{
	struct ps_runs a = { 0 }, b = { 0 };

	push(&a, 1000, 5000, 100);
	push(&b, 1100, 5100, 50);	/* continues a's run in both spaces */
	push(&b, 2000, 5150, 10);
	ck_assert_int_eq(ps_runs_append(&a, &b), 0);
	ck_assert_uint_eq(a.n, 2);
	ck_assert_uint_eq(a.v[0].len, 150);
	ck_assert_uint_eq(a.pages, 160);
	ps_runs_free(&b);
	push(&b, 2010, 9999, 5);	/* physically next, virtually not: separate */
	ck_assert_int_eq(ps_runs_append(&a, &b), 0);
	ck_assert_uint_eq(a.n, 3);
	ps_runs_free(&a);
	ps_runs_free(&b);
}
END_TEST

START_TEST(pmd_candidates_and_mark)
{
	struct ps_runs r = { 0 };
	struct ps_vrange *c = NULL;
	uint64_t huge[] = { 2 * 512, 9 * 512 };
	ssize_t n;

	/* run A: PFN 4*512-8 .. , vpn 2*512-8: blocks at vpn 1024, 1536 whole */
	push(&r, 4 * 512 - 8, 2 * 512 - 8, 8 + 1024 + 3);
	/* run B: aligned differently: no candidate */
	push(&r, 20 * 512, 6 * 512 + 1, 2048);
	/* run C: PFN 40*512, vpn 9*512: one block, lower PFN order than its vpn suggests */
	push(&r, 1 * 512, 9 * 512, 512);
	ps_runs_sort_dedupe(&r);
	n = ps_pmd_candidates(&r, &c);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(c[0].start, 2 * 512);	/* sorted by vpn, adjacent merged */
	ck_assert_uint_eq(c[0].end, 4 * 512);
	ck_assert_uint_eq(c[1].start, 9 * 512);
	free(c);
	/* PAGEMAP_SCAN said: vpn 1024 and 4608 are PMD-mapped (not 1536) */
	ck_assert_int_eq(ps_runs_mark_pmd(&r, huge, 2), 0);
	ck_assert_uint_eq(r.pages, 8 + 1027 + 2048 + 512);
	/* C (PFN 512) first, then A split into 8 | PMD 512 | 515, then B */
	ck_assert_uint_eq(r.n, 5);
	ck_assert_uint_eq(r.v[0].flags, RUN_PMD);
	ck_assert_uint_eq(r.v[0].vpn, 9 * 512);
	ck_assert_uint_eq(r.v[1].len, 8);
	ck_assert_uint_eq(r.v[2].flags, RUN_PMD);
	ck_assert_uint_eq(r.v[2].pfn, 4 * 512);
	ck_assert_uint_eq(ps_run_read_end(&r.v[2]), 4 * 512 + 1);
	ck_assert_uint_eq(r.v[3].len, 515);
	ck_assert_uint_eq(r.v[3].flags, 0);
	ck_assert_uint_eq(r.v[4].len, 2048);
	ps_runs_free(&r);
}
END_TEST

START_TEST(account_pmd_run)
{
	/* only the head entry is read for a RUN_PMD run */
	uint64_t kcg[1] = { 42 }, kf[1], kc[1] = { 2 };
	struct ps_run run = { .pfn = 512, .vpn = 1024, .len = 512, .flags = RUN_PMD };
	struct ps_window w = { .base = 512, .kcg = kcg, .kf = kf, .kc = kc, .pmd_known = true };
	struct ps_groups g = { 0 };
	const struct ps_group *x;

	kf[0] = KF(KPF_ANON) | KF(KPF_THP) | KF(KPF_COMPOUND_HEAD);
	ck_assert_int_eq(ps_account_run(&g, &w, &run), 0);
	x = ps_groups_get(&g, 42);
	ck_assert_uint_eq(x->cat[PS_ANON_SHARED], 512);
	ck_assert_uint_eq(x->shared_mc2, 512);
	ck_assert_uint_eq(x->thp, 512);
	ck_assert_uint_eq(x->thp_pmd, 512);
	kf[0] = KF(KPF_ZERO_PAGE) | KF(KPF_THP);	/* the huge zero page */
	ck_assert_int_eq(ps_account_run(&g, &w, &run), 0);
	ck_assert_uint_eq(w.zero, 512);
	ck_assert_uint_eq(x->thp, 512);
	ps_groups_free(&g);
}
END_TEST

/* Spans of runs: 1000+10 anon shared, 1020+4 file, 1100+600 anon exclusive (blocks
 * 1024..1535 and 1536..2047), 1700+50 anon exclusive (block 1536 again), 5000 PMD. */
START_TEST(spans)
{
	const struct ps_run rv[] = {
		{ .pfn = 1000, .len = 10, .flags = 0 },
		{ .pfn = 1020, .len = 4, .flags = RUN_FILE },
		{ .pfn = 1100, .len = 600, .flags = RUN_EXCLUSIVE },
		{ .pfn = 1700, .len = 50, .flags = RUN_EXCLUSIVE },
		{ .pfn = 5120, .len = 512, .flags = RUN_EXCLUSIVE | RUN_PMD },
	};
	struct ps_span_iter it = { .rv = rv, .k = 0, .end = 5, .file = PS_KCG, .gap = 32 };
	uint64_t a, b;

	/* kpagecgroup: every page; 1010..1020 and 1024..1100 bridged, the PMD head alone */
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 1000);
	ck_assert_uint_eq(b, 1024);
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 1100);
	ck_assert_uint_eq(b, 1750);
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 5120);
	ck_assert_uint_eq(b, 5121);
	ck_assert(!ps_span_next(&it, &a, &b));

	/* kpagecount: the anon shared run only */
	it = (struct ps_span_iter){ .rv = rv, .k = 0, .end = 5, .file = PS_KC, .gap = 32 };
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 1000);
	ck_assert_uint_eq(b, 1010);
	ck_assert(!ps_span_next(&it, &a, &b));

	/* kpageflags, every page when mTHP may exist */
	it = (struct ps_span_iter){ .rv = rv, .k = 0, .end = 5, .file = PS_KF, .gap = 32 };
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(b, 1024);
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 1100);
	ck_assert_uint_eq(b, 1750);

	/* ... sampled: 1100 (block 1024), 1536 (block 1536; run 1700 shares it), the head */
	it = (struct ps_span_iter){ .rv = rv, .k = 0, .end = 5, .file = PS_KF, .gap = 32,
				    .mthp_off = true };
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 1000);
	ck_assert_uint_eq(b, 1024);
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 1100);
	ck_assert_uint_eq(b, 1101);
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 1536);
	ck_assert_uint_eq(b, 1537);
	ck_assert(ps_span_next(&it, &a, &b));
	ck_assert_uint_eq(a, 5120);
	ck_assert_uint_eq(b, 5121);
	ck_assert(!ps_span_next(&it, &a, &b));
	ck_assert(!ps_span_next(&it, &a, &b));
}
END_TEST

START_TEST(mthp_size_off)
{
	ck_assert(ps_mthp_size_off("always inherit madvise [never]\n", NULL, "0\n"));
	ck_assert(ps_mthp_size_off("always [inherit] madvise never\n", "always madvise [never]",
				   "0"));
	ck_assert(!ps_mthp_size_off("always [inherit] madvise never\n",
				    "always [madvise] never", "0\n"));
	ck_assert(!ps_mthp_size_off("always inherit [madvise] never\n", NULL, "0\n"));
	ck_assert(!ps_mthp_size_off("always inherit madvise [never]\n", NULL, "12\n"));
	ck_assert(!ps_mthp_size_off("always inherit madvise [never]\n", NULL, NULL));
	ck_assert(!ps_mthp_size_off("always inherit madvise [never]\n", NULL, "x"));
	ck_assert(!ps_mthp_size_off("never\n", NULL, "0\n"));
	ck_assert(!ps_mthp_size_off("[nevermore]\n", NULL, "0\n"));
}
END_TEST

/* A size's state apart: none now from nr_anon alone, may grow unless never rules. */
START_TEST(thp_size_state)
{
	bool none, grow;

	ps_thp_size_state("always inherit [madvise] never\n", NULL, "0\n", &none, &grow);
	ck_assert(none && grow);
	ps_thp_size_state("always [inherit] madvise never\n", "always madvise [never]\n", "3\n",
			  &none, &grow);
	ck_assert(!none && !grow);
	ps_thp_size_state("always [inherit] madvise never\n", "[always] madvise never\n", NULL,
			  &none, &grow);
	ck_assert(!none && grow);
	ps_thp_size_state("[never]", "", "0", &none, &grow);
	ck_assert(none && !grow);
	ps_thp_size_state("[never]", "", "0 \n", &none, &grow);	/* not a number alone */
	ck_assert(!none);
	ck_assert(ps_nr_anon_zero("0\n"));
	ck_assert(ps_nr_anon_zero("0"));
	ck_assert(!ps_nr_anon_zero("7\n"));
	ck_assert(!ps_nr_anon_zero(""));
	ck_assert(!ps_nr_anon_zero("x"));
	ck_assert(!ps_nr_anon_zero(NULL));
}
END_TEST

/* The count of leading entries equal to a value, for every length and mismatch place
 * around the four-at-a-time steps. */
START_TEST(leading_equal)
{
	uint64_t v[11];

	for (size_t n = 0; n <= 11; n++) {
		for (size_t k = 0; k < 11; k++)
			v[k] = 7;
		ck_assert_uint_eq(ps_leading_equal(v, n, 7), n);
		ck_assert_uint_eq(ps_leading_equal(v, n, 8), 0);
		for (size_t bad = 0; bad < n; bad++) {
			v[bad] = 7 | (UINT64_C(1) << 40);	/* differs in the upper half only */
			ck_assert_uint_eq(ps_leading_equal(v, n, 7), bad);
			v[bad] = 6;
			ck_assert_uint_eq(ps_leading_equal(v, n, 7), bad);
			v[bad] = 7;
		}
	}
}
END_TEST

/* Many unsorted runs (the radix path): PFN order, equal PFNs longest first, and the
 * same dedupe as a plain sort would give. */
START_TEST(sort_many)
{
	struct ps_runs r = { 0 }, c1 = { 0 }, c2 = { 0 };
	uint64_t seed = 42, covered = 0, pages = 0, dup[50];
	const size_t n = 5000;
	void *scratch = malloc(n * sizeof(*r.v));

	r.v = calloc(n, sizeof(*r.v));
	ck_assert_ptr_nonnull(r.v);
	r.n = r.cap = n;
	for (size_t i = 0; i < n; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		r.v[i].pfn = (seed >> 20) % 3000000 + (i % 7 == 0 ? (UINT64_C(1) << 36) : 0);
		r.v[i].len = 1 + (uint32_t)((seed >> 50) % 9);
		r.v[i].vpn = i;
	}
	for (size_t i = 0; i < 50; i++) {	/* equal PFNs, shorter first */
		r.v[n - 1 - i] = (struct ps_run){ .pfn = r.v[i].pfn, .vpn = 9,
						  .len = r.v[i].len + 3 };
		dup[i] = r.v[i].pfn;
	}
	for (size_t i = 0; i < n; i++)
		r.pages += r.v[i].len;
	/* the same through a scratch buffer, and with one too small for it */
	c1.v = malloc(n * sizeof(*c1.v));
	c2.v = malloc(n * sizeof(*c2.v));
	ck_assert(c1.v && c2.v && scratch);
	memcpy(c1.v, r.v, n * sizeof(*r.v));
	memcpy(c2.v, r.v, n * sizeof(*r.v));
	c1.n = c1.cap = c2.n = c2.cap = n;
	c1.pages = c2.pages = r.pages;
	ck_assert_uint_gt(ps_runs_sort_dedupe(&r), 0);
	ck_assert_uint_gt(ps_runs_sort_dedupe_in(&c1, scratch, n * sizeof(*r.v)), 0);
	ck_assert_uint_gt(ps_runs_sort_dedupe_in(&c2, scratch, 16), 0);	/* too small */
	ck_assert_uint_eq(c1.n, r.n);
	ck_assert_uint_eq(c2.n, r.n);
	ck_assert_uint_eq(c1.pages, r.pages);
	ck_assert_mem_eq(c1.v, r.v, r.n * sizeof(*r.v));
	ck_assert_mem_eq(c2.v, r.v, r.n * sizeof(*r.v));
	free(c1.v);
	free(c2.v);
	free(scratch);
	for (size_t i = 0; i < r.n; i++) {
		ck_assert_uint_ge(r.v[i].pfn, covered);
		covered = r.v[i].pfn + r.v[i].len;
		pages += r.v[i].len;
	}
	ck_assert_uint_eq(pages, r.pages);
	/* of two runs at one PFN the longer (vpn 9) came first and is kept whole */
	for (size_t i = 0; i < r.n; i++)
		for (size_t k = 0; k < 50; k++)
			if (r.v[i].pfn == dup[k])
				ck_assert_uint_eq(r.v[i].vpn, 9);
	ps_runs_free(&r);
}
END_TEST

/*
 * Sampled kpageflags: PFNs 1000..1599 anon exclusive (run A), 1600..1700 (run B, same
 * block 1536 as A's tail).  Block 512..1023's sample (1000) says THP, block 1024's
 * (1024) not, block 1536's (1536, in A) THP; run B uses A's sample of its block.
 */
START_TEST(account_sampled)
{
	static uint64_t kcg[701], kf[701];
	struct ps_run a = { .pfn = 1000, .vpn = 1000, .len = 600, .flags = RUN_EXCLUSIVE };
	struct ps_run b = { .pfn = 1600, .vpn = 3000, .len = 101, .flags = RUN_EXCLUSIVE };
	struct ps_window w = { .base = 1000, .kcg = kcg, .kf = kf, .mthp_off = true };
	struct ps_groups g = { 0 };
	const struct ps_group *g7, *g8;

	for (int i = 0; i < 701; i++) {
		kcg[i] = i < 300 ? 7 : 8;
		kf[i] = KF(KPF_THP);	/* unread entries: must not count */
	}
	kf[1024 - 1000] = KF(KPF_ANON);
	kf[1536 - 1000] = KF(KPF_ANON) | KF(KPF_THP);
	kf[1600 - 1000] = KF(KPF_ANON);	/* B's first page: not B's sample */
	ck_assert_int_eq(ps_account_run(&g, &w, &a), 0);
	ck_assert_int_eq(ps_account_run(&g, &w, &b), 0);
	g7 = ps_groups_get(&g, 7);
	g8 = ps_groups_get(&g, 8);
	ck_assert_uint_eq(g7->cat[PS_ANON_EXCL], 300);
	ck_assert_uint_eq(g8->cat[PS_ANON_EXCL], 401);
	ck_assert_uint_eq(g7->thp, 24);		/* 1000..1023 */
	ck_assert_uint_eq(g8->thp, 64 + 101);	/* 1536..1599, 1600..1700 */
	ck_assert_uint_eq(g7->thp_pmd + g8->thp_pmd, 0);	/* no whole block */
	ps_groups_free(&g);

	/* a whole aligned block, virtually aligned too: thp_pmd unless PAGEMAP_SCAN said */
	a = (struct ps_run){ .pfn = 1024, .vpn = 4096, .len = 512, .flags = RUN_EXCLUSIVE };
	w = (struct ps_window){ .base = 1000, .kcg = kcg, .kf = kf, .mthp_off = true };
	kf[24] = KF(KPF_ANON) | KF(KPF_THP) | KF(KPF_COMPOUND_HEAD);
	ck_assert_int_eq(ps_account_run(&g, &w, &a), 0);
	ck_assert_uint_eq(ps_groups_get(&g, 7)->thp_pmd, 512);	/* the head's owner */
	ck_assert_uint_eq(ps_groups_get(&g, 8)->thp, 512 - 276);
	w.pmd_known = true;
	w.sblock = 0;
	ck_assert_int_eq(ps_account_run(&g, &w, &a), 0);
	ck_assert_uint_eq(ps_groups_get(&g, 7)->thp_pmd, 512);
	ps_groups_free(&g);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pagescan");
	TCase *tc = tcase_create("pure");

	tcase_add_test(tc, maps_parse);
	tcase_add_test(tc, maps_malformed);
	tcase_add_test(tc, runs_coalesce);
	tcase_add_test(tc, runs_hidden);
	tcase_add_test(tc, runs_falling);
	tcase_add_test(tc, runs_falling_trim_split);
	tcase_add_test(tc, runs_random_roundtrip);
	tcase_add_test(tc, runs_sort_dedupe);
	tcase_add_test(tc, runs_split);
	tcase_add_test(tc, runs_merge_halves);
	tcase_add_test(tc, runs_join_pfn);
	tcase_add_test(tc, mixed_blocks);
	tcase_add_test(tc, classify);
	tcase_add_test(tc, thp_pmd);
	tcase_add_test(tc, account_window);
	tcase_add_test(tc, groups_merge);
	tcase_add_test(tc, append_joins_halves);
	tcase_add_test(tc, pmd_candidates_and_mark);
	tcase_add_test(tc, account_pmd_run);
	tcase_add_test(tc, spans);
	tcase_add_test(tc, mthp_size_off);
	tcase_add_test(tc, thp_size_state);
	tcase_add_test(tc, sort_many);
	tcase_add_test(tc, leading_equal);
	tcase_add_test(tc, account_sampled);
	tcase_add_test(tc, pmd_thp);
	tcase_add_test(tc, pmd_from_smaps);
	tcase_add_test(tc, kcg_fill_tails);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
