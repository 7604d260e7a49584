/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mm RSS counters per era: source, bounds, read cost, the per-thread cache, parsers. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "libcgctl.h"
#include "kernel/procrss.h"
#include "testutil.h"

#define K CGCTL_KVER
#define ST CGCTL_RSS_FILE_STATUS
#define SM CGCTL_RSS_FILE_STATM
#define SS CGCTL_RSS_FILE_STAT

START_TEST(source_per_era)
{
	ck_assert_int_eq(cgctl_rss_source(K(2, 6, 33), ST), CGCTL_RSS_ATOMIC);
	ck_assert_int_eq(cgctl_rss_source(K(2, 6, 34), ST), CGCTL_RSS_TASK_CACHE);
	ck_assert_int_eq(cgctl_rss_source(K(6, 1, 192), SS), CGCTL_RSS_TASK_CACHE);
	ck_assert_int_eq(cgctl_rss_source(K(6, 2, 0), ST), CGCTL_RSS_PCPU_READ);
	ck_assert_int_eq(cgctl_rss_source(K(6, 12, 38), ST), CGCTL_RSS_PCPU_READ);
	ck_assert_int_eq(cgctl_rss_source(K(6, 12, 39), ST), CGCTL_RSS_PCPU_SUM);
	ck_assert_int_eq(cgctl_rss_source(K(6, 12, 39), SM), CGCTL_RSS_PCPU_SUM);
	ck_assert_int_eq(cgctl_rss_source(K(6, 12, 118), SS), CGCTL_RSS_PCPU_READ);
	ck_assert_int_eq(cgctl_rss_source(K(6, 15, 0), ST), CGCTL_RSS_PCPU_READ);
	ck_assert_int_eq(cgctl_rss_source(K(6, 16, 0), ST), CGCTL_RSS_PCPU_SUM);
	ck_assert_int_eq(cgctl_rss_source(K(6, 18, 44), SS), CGCTL_RSS_PCPU_READ);
	ck_assert_int_eq(cgctl_rss_source(0, ST), -EINVAL);
	ck_assert_int_eq(cgctl_rss_source(K(6, 18, 0), 0), -EINVAL);
	ck_assert_uint_eq(cgctl_rss_backport_kver(), K(6, 12, 39));
}
END_TEST

START_TEST(bounds_per_era)
{
	struct cgctl_rss_bound b;

	ck_assert_int_eq(cgctl_rss_bound(K(2, 6, 33), 8, 4, ST, &b), 0);
	ck_assert_uint_eq(b.vmrss_pages, 0);
	/* 66 unflushed faults per thread; fault-around maps 16 file pages per fault */
	ck_assert_int_eq(cgctl_rss_bound(K(6, 1, 0), 2, 4, ST, &b), 0);
	ck_assert_int_eq(b.source, CGCTL_RSS_TASK_CACHE);
	ck_assert_uint_eq(b.anon_pages, 264);
	ck_assert_uint_eq(b.counter_pages, 4224);
	ck_assert_uint_eq(b.vmrss_pages, 4224);
	ck_assert_int_eq(cgctl_rss_bound(K(3, 10, 0), 2, 4, ST, &b), 0);
	ck_assert_uint_eq(b.vmrss_pages, 264);
	/* percpu read: (B-1)*ncpu per counter, three counters in VmRSS, any thread count */
	ck_assert_int_eq(cgctl_rss_bound(K(6, 5, 0), 64, 1000, ST, &b), 0);
	ck_assert_int_eq(b.batch, 128);
	ck_assert_uint_eq(b.counter_pages, 8128);
	ck_assert_uint_eq(b.vmrss_pages, 24384);
	ck_assert_int_eq(cgctl_rss_bound(K(6, 18, 0), 2, 3, SS, &b), 0);
	ck_assert_uint_eq(b.anon_pages, 62);
	ck_assert_uint_eq(b.vmrss_pages, 186);
	ck_assert_int_eq(cgctl_rss_bound(K(6, 18, 0), 2, 3, ST, &b), 0);
	ck_assert_int_eq(b.source, CGCTL_RSS_PCPU_SUM);
	ck_assert_uint_eq(b.vmrss_pages, 0);
	ck_assert_int_eq(cgctl_rss_bound(K(6, 18, 0), 2, 0, ST, &b), -EINVAL);
	ck_assert_int_eq(cgctl_rss_bound(K(6, 18, 0), 0, 1, ST, &b), -EINVAL);
}
END_TEST

START_TEST(read_cost)
{
	/* status: anon, file, shmem, swap; a sum visits the count and each CPU */
	ck_assert_uint_eq(cgctl_rss_read_cost(K(6, 18, 0), 2, ST, 1000), 12000);
	ck_assert_uint_eq(cgctl_rss_read_cost(K(6, 18, 0), 256, ST, 1), 4 * 257);
	ck_assert_uint_eq(cgctl_rss_read_cost(K(6, 18, 0), 256, SS, 1), 3);
	ck_assert_uint_eq(cgctl_rss_read_cost(K(6, 18, 0), 256, SM, 10), 3 * 257 * 10);
	ck_assert_uint_eq(cgctl_rss_read_cost(K(6, 1, 0), 256, ST, 1000), 4000);
	ck_assert_uint_eq(cgctl_rss_read_cost(K(4, 4, 0), 256, ST, 1000), 3000);
	ck_assert_uint_eq(cgctl_rss_read_cost(K(6, 15, 0), 256, ST, 1), 4);
}
END_TEST

/* 2.6.34-6.1: the cache is flushed at faults 66, 132, 198 and holds up to 66 pages */
START_TEST(task_cache_flushes)
{
	struct cgctl_rss_thread t = { 0 };
	struct cgctl_rss_bound b;
	int64_t mm = 0, max_cached = 0;
	int i, r, flushes[4], nf = 0;

	for (i = 1; i <= 200; i++) {
		r = cgctl_rss_fault(K(6, 1, 0), &t, &mm, 1);
		ck_assert_int_ge(r, 0);
		if (r == 1 && nf < 4)
			flushes[nf++] = i;
		ck_assert_int_eq(mm + t.cached, i);
		if (t.cached > max_cached)
			max_cached = t.cached;
	}
	ck_assert_int_eq(nf, 3);
	ck_assert_int_eq(flushes[0], 66);
	ck_assert_int_eq(flushes[1], 132);
	ck_assert_int_eq(flushes[2], 198);
	ck_assert_int_eq(cgctl_rss_bound(K(6, 1, 0), 2, 1, ST, &b), 0);
	ck_assert_uint_eq((uint64_t)max_cached, b.anon_pages);
	/* 6.2+: no per-thread cache */
	t = (struct cgctl_rss_thread){ 0 };
	mm = 0;
	ck_assert_int_eq(cgctl_rss_fault(K(6, 2, 0), &t, &mm, 3), 0);
	ck_assert_int_eq(mm, 3);
	ck_assert_int_eq(t.cached, 0);
}
END_TEST

static const char status_txt[] =
	"Name:\tcat\nVmHWM:\t    2172 kB\nVmRSS:\t    2172 kB\nRssAnon:\t     148 kB\n"
	"RssFile:\t    2024 kB\nRssShmem:\t       0 kB\nVmSwap:\t       0 kB\n"
	"Threads:\t7\n";
static const char rollup_txt[] =
	"555703695000-7ffe0c0d2000 ---p 00000000 00:00 0                          [rollup]\n"
	"Rss:                1800 kB\nPss:                 241 kB\nPss_Anon:            112 kB\n"
	"Anonymous:           112 kB\nSwap:                  0 kB\n";
static const char stat_txt[] =
	"22397 (a) b (c)) R 22389 22389 5685 0 -1 4194304 100 0 0 0 1 0 0 0 20 0 1 0 101856 "
	"3133440 409 18446744073709551615 94224790437888\n";

START_TEST(parsers)
{
	struct cgctl_procrss r;

	procrss_init(&r);
	ck_assert_int_eq(cgctl_procrss_parse_status(status_txt, &r), 0);
	ck_assert_uint_eq(r.vmrss_kb, 2172);
	ck_assert_uint_eq(r.rssanon_kb, 148);
	ck_assert_uint_eq(r.rssfile_kb, 2024);
	ck_assert_uint_eq(r.rssshmem_kb, 0);
	ck_assert_uint_eq(r.threads, 7);
	ck_assert_uint_eq(r.smaps_rss_kb, UINT64_MAX);
	ck_assert_int_eq(cgctl_procrss_parse_smaps_rollup(rollup_txt, &r), 0);
	ck_assert_uint_eq(r.smaps_rss_kb, 1800);
	ck_assert_uint_eq(r.smaps_anon_kb, 112);
	ck_assert_int_eq(cgctl_procrss_parse_statm("940 543 506 36 0 105 0\n", &r), 0);
	ck_assert_uint_eq(r.statm_resident_pages, 543);
	ck_assert_int_eq(cgctl_procrss_parse_stat(stat_txt, &r), 0);
	ck_assert_uint_eq(r.stat_rss_pages, 409);
	ck_assert_int_eq(cgctl_procrss_parse_stat("1 (x) R 1 2\n", &r), -EINVAL);
	ck_assert_int_eq(cgctl_procrss_parse_statm("junk\n", &r), -EINVAL);
	ck_assert_int_eq(cgctl_procrss_parse_status("VmRSS:\t12 MB\n", &r), -EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rsscount");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, source_per_era);
	tcase_add_test(tc, bounds_per_era);
	tcase_add_test(tc, read_cost);
	tcase_add_test(tc, task_cache_flushes);
	tcase_add_test(tc, parsers);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
