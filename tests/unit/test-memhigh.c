/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * memory.high and protection arithmetic against numbers worked by hand through the
 * kernel's functions (mm/memcontrol.c v6.1/v6.12: calculate_overage(),
 * calculate_high_delay(), mem_cgroup_handle_over_high(); mm/page_counter.c v6.12 and
 * mm/memcontrol.c v6.1: effective_protection()), and small model runs whose every
 * charge can be followed by hand.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "libcgctl.h"
#include "testutil.h"

#define K CGCTL_KVER
#define UNL CGCTL_MEMCG_UNLIMITED

/*
 * The table in the comment above MEMCG_DELAY_SCALING_SHIFT (HZ = 1000, high 100M =
 * 25600 pages, one 64-page batch):
 *   101M: overage = (256 << 20) / 25600 = 268435456 / 25600 = 10485 (.76 dropped)
 *         10485^2 * 1000 = 109935225000; >> 34 (17179869184) = 6.39 -> 6 ms
 *   102M: (512 << 20) / 25600 = 20971; 20971^2 * 1000 = 439782841000 >> 34 = 25
 *   104M: 41943; 1759215249000 >> 34 = 102
 *   110M: 104857; 10994990449000 >> 34 = 639
 *   117M: 178257; 31775558049000 >> 34 = 1849
 */
START_TEST(delay_table)
{
	const uint64_t h = 25600;

	ck_assert_uint_eq(cgctl_memhigh_overage(h, h), 0);
	ck_assert_uint_eq(cgctl_memhigh_overage(h + 256, h), 10485);
	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(10485, 64, 1000, 64), 6);
	ck_assert_uint_eq(cgctl_memhigh_overage(h + 512, h), 20971);
	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(20971, 64, 1000, 64), 25);
	ck_assert_uint_eq(
	    cgctl_memhigh_delay_jiffies(cgctl_memhigh_overage(h + 1024, h), 64, 1000, 64),
	    102);
	ck_assert_uint_eq(cgctl_memhigh_overage(h + 2560, h), 104857);
	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(104857, 64, 1000, 64), 639);
	ck_assert_uint_eq(cgctl_memhigh_overage(h + 4352, h), 178257);
	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(178257, 64, 1000, 64), 1849);
}
END_TEST

/*
 * HZ 250 (Debian), the clamp and the no-sleep floor:
 *   104M: 41943^2 * 250 = 439803812250 >> 34 = 25.6 -> 25 jiffies (100 ms)
 *   two batches pending (nr_pages 128): 25.6... the kernel truncates first: 25 * 128 / 64
 *   = 50
 *   120M: 209715^2 * 250 >> 34 = 639 -> clamped to 2 * HZ = 500
 *   101M: 10485^2 * 250 >> 34 = 1.6 -> 1 <= HZ / 100 = 2: no sleep (0)
 *   high 0 acts as 1: usage 3 -> (2 << 20) / 1
 */
START_TEST(delay_hz250)
{
	const uint64_t h = 25600;

	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(41943, 64, 250, 64), 25);
	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(41943, 128, 250, 64), 50);
	ck_assert_uint_eq(cgctl_memhigh_penalty_jiffies(41943, 0, 64, 250, 64), 25);
	ck_assert_uint_eq(cgctl_memhigh_overage(h + 5120, h), 209715);
	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(209715, 64, 250, 64), 639);
	ck_assert_uint_eq(cgctl_memhigh_penalty_jiffies(209715, 0, 64, 250, 64), 500);
	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(10485, 64, 250, 64), 1);
	ck_assert_uint_eq(cgctl_memhigh_penalty_jiffies(10485, 0, 64, 250, 64), 0);
	/* the swap term adds: 25 + 25 = 50 */
	ck_assert_uint_eq(cgctl_memhigh_penalty_jiffies(41943, 41943, 64, 250, 64), 50);
	ck_assert_uint_eq(cgctl_memhigh_overage(3, 0), 2u << 20);
	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(0, 64, 250, 64), 0);
}
END_TEST

/*
 * The kernel's unsigned long wraps: usage 300 pages over a high of 1 page gives an
 * overage of 299 << 20 = 313524224; squared times 250 = 24574359758700544000, past 2^64
 * (18446744073709551616): 6127615684990992384 >> 34 = 356674176 jiffies, which the
 * caller then clamps to 2 s.
 */
START_TEST(delay_wraps)
{
	uint64_t o = cgctl_memhigh_overage(300, 1);

	ck_assert_uint_eq(o, 313524224);
	ck_assert_uint_eq(cgctl_memhigh_delay_jiffies(o, 64, 250, 64), 356674176);
	ck_assert_uint_eq(cgctl_memhigh_penalty_jiffies(o, 0, 64, 250, 64), 500);
}
END_TEST

START_TEST(eras)
{
	struct cgctl_memhigh_era a, b, c;

	ck_assert_int_eq(cgctl_memhigh_era_get(K(5, 10, 0), &a), -EINVAL);
	ck_assert_int_eq(cgctl_memhigh_era_get(K(6, 1, 0), &a), 0);
	ck_assert_int_eq(cgctl_memhigh_era_get(K(6, 12, 0), &b), 0);
	ck_assert_int_eq(cgctl_memhigh_era_get(K(6, 18, 0), &c), 0);
	ck_assert_uint_eq(a.batch, 64);
	ck_assert_uint_eq(a.retries, 16);
	ck_assert(!a.prot_capped && b.prot_capped);
	ck_assert(!a.dying_bail && b.dying_bail);
	ck_assert(!a.partial_walk && b.partial_walk);
	ck_assert(!a.lru_gen && b.lru_gen);
	ck_assert_uint_eq(b.stock_slots, 1);
	ck_assert_uint_eq(c.stock_slots, 7);
}
END_TEST

/*
 * effective_protection():
 * - overcommitted: parent elow 100; A low 80 uses 60, B low 50 uses 70: siblings claim
 *   min(60, 80) + min(70, 50) = 110 > 100, so A = 60 * 100 / 110 = 54, B = 50 * 100 /
 *   110 = 45 (both eras);
 * - within the parent: A = min(usage, low) = 60 when siblings claim <= 100;
 * - recursive: parent elow 100, parent usage 100, A low 0 uses 60, siblings claim 0:
 *   ep = 0 + (100 - 0) * 60 / (100 - 0) = 60; without memory_recursiveprot 0;
 * - a child read above its parent (usage 150, parent 100): 6.12 caps the unprotected
 *   150 at the parent's 100 -> 100 * 100 / 100 = 100; 6.1 gives 100 * 150 / 100 = 150;
 * - 6.1's 64-bit product wraps: protected 2^33 * parent 2^32 = 2^65 -> 0 / ... = 0,
 *   6.12 divides the 128-bit product: 2^65 / (3 * 2^32) = 2863311530.
 */
START_TEST(protection)
{
	struct cgctl_memhigh_era e61, e612;
	const uint64_t big = 1ULL << 33, pe = 1ULL << 32;

	ck_assert_int_eq(cgctl_memhigh_era_get(K(6, 1, 0), &e61), 0);
	ck_assert_int_eq(cgctl_memhigh_era_get(K(6, 12, 0), &e612), 0);
	ck_assert_uint_eq(
	    cgctl_memhigh_effective_protection(&e612, 60, 130, 80, 100, 110, false), 54);
	ck_assert_uint_eq(
	    cgctl_memhigh_effective_protection(&e61, 70, 130, 50, 100, 110, false), 45);
	ck_assert_uint_eq(
	    cgctl_memhigh_effective_protection(&e612, 60, 100, 80, 100, 90, false), 60);
	ck_assert_uint_eq(
	    cgctl_memhigh_effective_protection(&e612, 60, 100, 0, 100, 0, true), 60);
	ck_assert_uint_eq(
	    cgctl_memhigh_effective_protection(&e612, 60, 100, 0, 100, 0, false), 0);
	ck_assert_uint_eq(
	    cgctl_memhigh_effective_protection(&e612, 150, 100, 0, 100, 0, true), 100);
	ck_assert_uint_eq(
	    cgctl_memhigh_effective_protection(&e61, 150, 100, 0, 100, 0, true), 150);
	ck_assert_uint_eq(
	    cgctl_memhigh_effective_protection(&e61, big, big, big, pe, big + pe, false),
	    0);
	ck_assert_uint_eq(
	    cgctl_memhigh_effective_protection(&e612, big, big, big, pe, big + pe, false),
	    2863311530ULL);
}
END_TEST

static struct cgctl_memhigh_run *run1(uint32_t kver, struct cgctl_memhigh_group *g,
				      unsigned int ng, struct cgctl_memhigh_workload *w,
				      unsigned int nw, uint64_t swap)
{
	struct cgctl_memhigh_config c = {
	    .size = sizeof(c),
	    .kver = kver,
	    .hz = 250,
	    .ncpus = 1,
	    .swap_free = swap,
	    .alloc_ns = 1000,
	    .reclaim_file_ns = 1,
	    .reclaim_anon_ns = 1,
	    .ngroups = ng,
	    .nworkloads = nw,
	    .groups = g,
	    .workloads = w,
	};
	struct cgctl_memhigh_run *r = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;

	c.size = sizeof(c) - 1;	/* a layout the library does not know: refused */
	ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), -EINVAL);
	ck_assert_ptr_null(r);
	c.size = sizeof(c);
	ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), 0);
	return r;
}

/*
 * Anon over high without swap, high 1000 pages, one task faulting 1200 pages, HZ 250.
 * Each 64-page batch charge is followed by 63 faults served from the stock (no high
 * check).  The batches that leave usage above 1000: the 16th (usage 1024), 17th (1088),
 * 18th (1152) and 19th (1216 = the peak; 18 batches would hold only 1152 < 1200).
 * After each: reclaim_high finds nothing (no swap), the penalty:
 *   1024: (24 << 20) / 1000 = 25165; 25165^2 * 250 >> 34 = 9 jiffies
 *   1088: 92274 -> 123;  1152: 159383 -> 369;  1216: 226492 -> 746 -> clamped 500
 * all > HZ / 100, so reclaim is retried MAX_RECLAIM_RETRIES = 16 more times (each
 * retry a reclaim_high pass above high: a high event) before the sleep: 4 * 17 = 68
 * events, 9 + 123 + 369 + 500 = 1001 jiffies = 4.004 s asleep.
 */
START_TEST(run_anon_no_swap)
{
	struct cgctl_memhigh_group g = {-1, CGCTL_MEMHIGH_NO_LIMITS, 0, 0};
	struct cgctl_memhigh_workload w = {.group = 0,
					   .kind = CGCTL_MEMHIGH_ANON,
					   .threads = 1,
					   .size_pages = 1200,
					   .stay = true};
	struct cgctl_memhigh_group_result res;
	struct cgctl_memhigh_run *r;

	g.lim.high = 1000;
	r = run1(K(6, 12, 0), &g, 1, &w, 1, 0);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 0, &res), 0);
	ck_assert_uint_eq(res.peak, 1216);
	ck_assert_uint_eq(res.current, 1216);
	ck_assert_uint_eq(res.anon, 1200);
	ck_assert_uint_eq(res.ev_high, 68);
	ck_assert_uint_eq(res.sleeps, 4);
	ck_assert_uint_eq(res.stall_ns, 1001ULL * 4000000);
	ck_assert_uint_eq(res.ev_oom_kill, 0);
	/* wall time: 1200 faults of 1 us plus the sleeps */
	ck_assert_uint_eq(res.end_ns, 1001ULL * 4000000 + 1200 * 1000);
	cgctl_memhigh_run_free(r);
	/* 6.1: the same path, the same numbers */
	r = run1(K(6, 1, 0), &g, 1, &w, 1, 0);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 0, &res), 0);
	ck_assert_uint_eq(res.ev_high, 68);
	ck_assert_uint_eq(res.stall_ns, 1001ULL * 4000000);
	cgctl_memhigh_run_free(r);
}
END_TEST

/*
 * The same task with max 1100 and no swap: the 18th batch (1152 > 1100) fails, the
 * single page fits (1089 <= 1100) ... until usage reaches 1100: then reclaim frees
 * nothing, the stock was drained into the counter already, 16 retries, and the OOM
 * killer takes the task: max events 1 (drain) + 1 + 16 = 18, oom 1, oom_kill 1, and
 * its anon is freed.
 */
START_TEST(run_anon_oom)
{
	struct cgctl_memhigh_group g = {-1, CGCTL_MEMHIGH_NO_LIMITS, 0, 0};
	struct cgctl_memhigh_workload w = {.group = 0,
					   .kind = CGCTL_MEMHIGH_ANON,
					   .threads = 1,
					   .size_pages = 1200,
					   .stay = true};
	struct cgctl_memhigh_group_result res;
	struct cgctl_memhigh_run *r;

	g.lim.high = 1000;
	g.lim.max = 1100;
	r = run1(K(6, 12, 0), &g, 1, &w, 1, 0);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 0, &res), 0);
	ck_assert_uint_eq(res.peak, 1100);
	ck_assert_uint_eq(res.ev_oom, 1);
	ck_assert_uint_eq(res.ev_oom_kill, 1);
	ck_assert_uint_eq(res.killed, 1);
	ck_assert_uint_eq(res.ev_max, 18);
	ck_assert_uint_eq(res.anon, 0);
	cgctl_memhigh_run_free(r);
	/* with 200 pages of swap the task completes: reclaim swaps out */
	r = run1(K(6, 12, 0), &g, 1, &w, 1, 200);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 0, &res), 0);
	ck_assert_uint_eq(res.killed, 0);
	ck_assert_uint_eq(res.anon + res.swap, 1200);
	ck_assert_uint_le(res.peak, 1100);
	ck_assert_uint_gt(res.swap, 0);
	cgctl_memhigh_run_free(r);
}
END_TEST

/*
 * Clean page cache over high (1000 pages), read 32 pages per read(): reclaim_high
 * takes the pending 64 pages each time usage passes high, so memory.current never
 * exceeds high + one batch and the task never sleeps (after reclaim usage <= high:
 * overage 0).
 */
START_TEST(run_file)
{
	struct cgctl_memhigh_group g = {-1, CGCTL_MEMHIGH_NO_LIMITS, 0, 0};
	struct cgctl_memhigh_workload w = {
	    .group = 0, .kind = CGCTL_MEMHIGH_FILE, .threads = 1, .size_pages = 5000};
	struct cgctl_memhigh_group_result res;
	struct cgctl_memhigh_run *r;

	g.lim.high = 1000;
	r = run1(K(6, 12, 0), &g, 1, &w, 1, 0);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 0, &res), 0);
	ck_assert_uint_le(res.peak, 1000 + 64);
	ck_assert_uint_gt(res.peak, 1000);
	ck_assert_uint_le(res.current, 1000 + 64);
	ck_assert_uint_eq(res.sleeps, 0);
	ck_assert_uint_gt(res.ev_high, 0);
	ck_assert_uint_lt(res.file, 1000);
	cgctl_memhigh_run_free(r);
}
END_TEST

/*
 * How much one 64-page reclaim_high() takes, per LRU.  A group holds 4096 pages of
 * clean cache under a high of 4096 and reads 64 more, 32 per read(): the first read
 * charges a batch of 64 (usage 4160 > high), and on return to user reclaim_high() asks
 * try_to_free_mem_cgroup_pages() for 64 pages of an LRU of 4128 file pages.
 * - active/inactive lists (mm/vmscan.c:shrink_lruvec(), 6.1): each priority's call
 *   scans size >> priority, 32 at a time, and stops early only when the call itself
 *   has 64: priorities 12..7 take 1 + 2 + 4 + 8 + 16 + 32 = 63 (LRU 4127, 4125, 4121,
 *   4113, 4097, 4065 after each), priority 6 scans 4065 >> 6 = 63 in 32 + 31:
 *   126 pages, memory.current 4160 - 126 = 4034;
 * - multi-gen LRU (try_to_shrink_lruvec(), Debian 6.12): priority 12 has 4128 >> 12 = 1
 *   to scan, and evict_folios() isolates a batch of MIN_LRU_BATCH = 64: 64 pages,
 *   memory.current 4096.
 * The second read is served from the stock: one high event either way.
 */
START_TEST(run_file_reclaim_batches)
{
	struct cgctl_memhigh_group g = {-1, CGCTL_MEMHIGH_NO_LIMITS, 4096, 0};
	struct cgctl_memhigh_workload w = {.group = 0,
					   .kind = CGCTL_MEMHIGH_FILE,
					   .threads = 1,
					   .size_pages = 64,
					   .chunk_pages = 32,
					   .stay = true};
	struct cgctl_memhigh_config c = {
	    .size = sizeof(c),
	    .hz = 250,
	    .ncpus = 1,
	    .ngroups = 1,
	    .nworkloads = 1,
	    .groups = &g,
	    .workloads = &w,
	};
	static const struct {
		uint32_t kver;
		unsigned int lru;
		uint64_t current;
	} cases[] = {
	    {K(6, 1, 0), CGCTL_MEMHIGH_LRU_DEFAULT, 4034},
	    {K(6, 12, 0), CGCTL_MEMHIGH_LRU_DEFAULT, 4096},
	    {K(6, 12, 0), CGCTL_MEMHIGH_LRU_CLASSIC, 4034},
	    {K(6, 1, 0), CGCTL_MEMHIGH_LRU_GEN, 4096},
	};
	struct cgctl_memhigh_group_result res;
	struct cgctl_memhigh_run *r;
	struct cgctl_error e = CGCTL_ERROR_INIT;

	g.lim.high = 4096;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c.kver = cases[i].kver;
		c.lru = cases[i].lru;
		ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), 0);
		ck_assert_int_eq(cgctl_memhigh_run_group(r, 0, &res), 0);
		ck_assert_uint_eq(res.peak, 4160);
		ck_assert_uint_eq(res.ev_high, 1);
		ck_assert_uint_eq(res.current, cases[i].current);
		ck_assert_uint_eq(res.file, cases[i].current);
		ck_assert_uint_eq(res.sleeps, 0);
		cgctl_memhigh_run_free(r);
	}
	c.lru = 3;
	ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), -EINVAL);
}
END_TEST

/*
 * 6.1's get_scan_count() with swap (SCAN_FRACT): a group holds 2048 anon pages under a
 * high of 2048 with ample swap and no file pages, and faults 64 more.  The first fault
 * charges a batch of 64 (usage 2112), and on return to user reclaim_high() asks for 64
 * pages of an anon LRU of 2049.  Each priority scans (anon >> prio) * ap / (ap + fp),
 * ap = 60 (T + 1) / (2A + 1), fp = 140 (T + 1) / (A + 1), T = 3A, A the anon cost
 * (pages swapped so far in this reclaim, no decay below a quarter of the LRU):
 *   prio 9: 4 * 60 / 200 = 1 (A 0);  8: 8 * 80 / 360 = 1 (A 1);
 *   7: 15 * 84 / 410 = 3 (A 2);  6: 31 * 87 / 460 = 5 (A 5);
 *   5: 63 * 88 / 482 = 11 (A 10);  4: 126 * 89 / 496 = 22 (A 21): 43 so far;
 *   3: 250 * 89 / 502 = 44 (A 43) in 32 + 12: 87 pages, usage 2112 - 87 = 2025.
 * The multi-gen LRU evicts one batch of 64: usage 2048.
 */
START_TEST(run_swap_scan_fract)
{
	struct cgctl_memhigh_group g = {-1, CGCTL_MEMHIGH_NO_LIMITS, 0, 2048};
	struct cgctl_memhigh_workload w = {
	    .group = 0, .kind = CGCTL_MEMHIGH_ANON, .threads = 1, .size_pages = 64,
	    .stay = true};
	struct cgctl_memhigh_config c = {
	    .size = sizeof(c),
	    .kver = K(6, 1, 0),
	    .hz = 250,
	    .ncpus = 1,
	    .swap_free = 1 << 20,
	    .ngroups = 1,
	    .nworkloads = 1,
	    .groups = &g,
	    .workloads = &w,
	};
	struct cgctl_memhigh_group_result res;
	struct cgctl_memhigh_run *r;
	struct cgctl_error e = CGCTL_ERROR_INIT;

	g.lim.high = 2048;
	ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), 0);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 0, &res), 0);
	ck_assert_uint_eq(res.ev_high, 1);
	ck_assert_uint_eq(res.swap, 87);
	ck_assert_uint_eq(res.current, 2025);
	cgctl_memhigh_run_free(r);
	c.kver = K(6, 12, 0);
	ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), 0);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 0, &res), 0);
	ck_assert_uint_eq(res.ev_high, 1);
	ck_assert_uint_eq(res.swap, 64);
	ck_assert_uint_eq(res.current, 2048);
	cgctl_memhigh_run_free(r);
}
END_TEST

/*
 * Two siblings under a parent with max 1000: A (low 600) holds 600 pages of cache, B
 * (no protection) reads 2000 pages.  A's elow = min(600, 600) = 600 >= its usage: it is
 * skipped and B's reads reclaim only B's own cache; A keeps all 600 pages, B never
 * holds more than 400 (plus nothing: its stock is inside the parent's max).
 */
START_TEST(run_protection)
{
	struct cgctl_memhigh_group g[3] = {
	    {-1, CGCTL_MEMHIGH_NO_LIMITS, 0, 0},
	    {0, CGCTL_MEMHIGH_NO_LIMITS, 600, 0},
	    {0, CGCTL_MEMHIGH_NO_LIMITS, 0, 0},
	};
	struct cgctl_memhigh_workload w = {
	    .group = 2, .kind = CGCTL_MEMHIGH_FILE, .threads = 1, .size_pages = 2000};
	struct cgctl_memhigh_group_result a, b;
	struct cgctl_memhigh_run *r;

	g[0].lim.max = 1000;
	g[1].lim.low = 600;
	r = run1(K(6, 12, 0), g, 3, &w, 1, 0);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 1, &a), 0);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 2, &b), 0);
	ck_assert_uint_eq(a.file, 600);
	ck_assert_uint_le(b.peak, 400);
	ck_assert_uint_eq(a.ev_low, 0);
	cgctl_memhigh_run_free(r);
	/* without the low, A's cache is reclaimed too */
	g[1].lim.low = 0;
	r = run1(K(6, 12, 0), g, 3, &w, 1, 0);
	ck_assert_int_eq(cgctl_memhigh_run_group(r, 1, &a), 0);
	ck_assert_uint_lt(a.file, 600);
	cgctl_memhigh_run_free(r);
}
END_TEST

START_TEST(run_errors)
{
	struct cgctl_memhigh_group g[2] = {
	    {1, CGCTL_MEMHIGH_NO_LIMITS, 0, 0},
	    {-1, CGCTL_MEMHIGH_NO_LIMITS, 0, 0},
	};
	struct cgctl_memhigh_config c = {
	    .size = sizeof(c),
	    .kver = K(6, 12, 0), .hz = 250, .ncpus = 1, .ngroups = 2, .groups = g};
	struct cgctl_memhigh_run *r = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;

	ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), -EINVAL);
	ck_assert_ptr_null(r);
	g[0].parent = -1;
	c.hz = 123;
	ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), -EINVAL);
	c.hz = 250;
	c.kver = K(5, 15, 0);
	ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), -EINVAL);
	c.kver = K(6, 1, 0);
	ck_assert_int_eq(cgctl_memhigh_run(&c, &r, &e), 0);
	cgctl_memhigh_run_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("memhigh");
	TCase *tc = tcase_create("memhigh");

	tcase_add_test(tc, delay_table);
	tcase_add_test(tc, delay_hz250);
	tcase_add_test(tc, delay_wraps);
	tcase_add_test(tc, eras);
	tcase_add_test(tc, protection);
	tcase_add_test(tc, run_anon_no_swap);
	tcase_add_test(tc, run_anon_oom);
	tcase_add_test(tc, run_file);
	tcase_add_test(tc, run_file_reclaim_batches);
	tcase_add_test(tc, run_swap_scan_fract);
	tcase_add_test(tc, run_protection);
	tcase_add_test(tc, run_errors);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
