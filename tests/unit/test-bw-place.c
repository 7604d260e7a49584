/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The bandwidth simulator told where the kernel ran each thread (cgctl_bw_sim_place(),
 * lib/engine/bandwidth-place.c) against hand-computed behaviour: threads stay on the
 * CPUs told, a busy thread migrates at the time told, and the layout decides how fast a
 * group beside a sibling's spinners drains its quota (the bw-bg-spin layouts measured
 * on 6.18: the group's two threads on a CPU of their own, or one of each group per CPU).
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "libcgctl.h"
#include "testutil.h"

#define MS 1000000ULL
#define SEC 1000000000ULL
#define INF CGCTL_BW_INF

#define NEAR(a, b, tol) ck_assert_msg(llabs((long long)(a) - (long long)(b)) <= (long long)(tol), \
				      "%s = %llu, expected %llu +- %llu", #a, \
				      (unsigned long long)(a), (unsigned long long)(b), \
				      (unsigned long long)(tol))

static struct cgctl_bw_sim *mk(unsigned int ncpus, uint64_t dur, uint64_t seed)
{
	struct cgctl_bw_sim_config cfg = {
		.kver = CGCTL_KVER(6, 18, 0), .ncpus = ncpus, .seed = seed, .duration_ns = dur,
		.settle_ns = 300 * MS,
	};
	struct cgctl_bw_sim *s;

	ck_assert_int_eq(cgctl_bw_sim_new(&s, &cfg), 0);
	return s;
}

static int group(struct cgctl_bw_sim *s, uint64_t quota_us, uint32_t shares)
{
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(quota_us, 100000, 0);
	int g = cgctl_bw_sim_add_group(s, -1, &bw);

	ck_assert_int_ge(g, 0);
	if (shares)
		ck_assert_int_eq(cgctl_bw_sim_set_weight(s, g, shares), 0);
	return g;
}

static void spinners(struct cgctl_bw_sim *s, int g, unsigned int n)
{
	struct cgctl_bw_thread t = { .group = g };

	for (unsigned int i = 0; i < n; i++)
		ck_assert_int_eq(cgctl_bw_sim_add_thread(s, &t), 0);
}

static void stat_of(struct cgctl_bw_sim *s, int g, struct cgctl_bw_stat *st)
{
	ck_assert_int_eq(cgctl_bw_sim_stat(s, g, false, st), 0);
}

/* three unlimited spinners told to stay on CPU 0 of 2: 1 s of CPU in 1 s, not 2 */
START_TEST(told_cpu_confines)
{
	struct cgctl_bw_sim *s = mk(2, SEC, 1);
	int g = group(s, INF, 0);
	struct cgctl_bw_stat st;

	spinners(s, g, 3);
	for (int t = 0; t < 3; t++)
		ck_assert_int_eq(cgctl_bw_sim_place(s, t, 0, 0), 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	stat_of(s, g, &st);
	NEAR(st.usage_ns, SEC, 1 * MS);
	cgctl_bw_sim_free(s);
}
END_TEST

/* two spinners on CPU 0, the second moved to CPU 1 at 400 ms (as the balancer pulls a
 * task): 400 ms of one CPU, then 600 ms of two: 1.6 s */
START_TEST(busy_thread_migrates)
{
	struct cgctl_bw_sim *s = mk(2, SEC, 1);
	int g = group(s, INF, 0);
	struct cgctl_bw_stat st;

	spinners(s, g, 2);
	ck_assert_int_eq(cgctl_bw_sim_place(s, 1, 400 * MS, 1), 0);	/* out of order */
	ck_assert_int_eq(cgctl_bw_sim_place(s, 0, 0, 0), 0);
	ck_assert_int_eq(cgctl_bw_sim_place(s, 1, 0, 0), 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	stat_of(s, g, &st);
	NEAR(st.usage_ns, 1600 * MS, 1 * MS);
	cgctl_bw_sim_free(s);
}
END_TEST

/*
 * bw-bg-spin's layouts, 2 s (20 periods), 80 ms/100 ms, a sibling's two unlimited
 * spinners at equal shares.  Alone on CPU 0 (the sibling's on CPU 1) the group runs
 * one CPU whole: 80 ms then 20 ms throttled on that CPU, 20 ms a period.  One of each
 * per CPU: half of each CPU, 80 ms of quota gone 80 ms into the period, 20 ms
 * throttled on both CPUs: 40 ms a period.  Stacked (both of the group's on CPU 0 with one
 * of the sibling's, as woken on the waker's CPU): the group's entity weighs 1024 there
 * against the sibling's 512 (calc_group_shares()), 2/3 of a CPU, 67 ms a period: never
 * throttled.  The first period starts with a full pool, hence 19-20 periods.  Split,
 * the group's entity weighs 512 on each CPU: calc_group_shares() counts its own CPU's
 * runnable weight (1024) and the other CPU's load average, which does not decay while
 * that runqueue is throttled (its PELT clock stops: cfs_rq_clock_pelt()), so the
 * quota runs out 80 ms into the period, at a tick: 35-40 ms a period.  Measured on 6.18
 * (2026-12-05, one of each pinned per CPU, 3 s): 1120 and 1142 ms in 30 throttled
 * periods, 37-38 ms a period.
 */
static uint64_t bg_spin(const int *cpu, uint64_t move_at, uint64_t seed, uint64_t *use)
{
	struct cgctl_bw_sim *s = mk(2, 2 * SEC, seed);
	int bg = group(s, INF, 1024), g = group(s, 80000, 1024);
	struct cgctl_bw_stat st;

	spinners(s, bg, 2);
	spinners(s, g, 2);
	for (int t = 0; t < 4; t++)
		ck_assert_int_eq(cgctl_bw_sim_place(s, t, 0, cpu[t]), 0);
	if (move_at)
		ck_assert_int_eq(cgctl_bw_sim_place(s, 3, move_at, 1), 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	stat_of(s, g, &st);
	cgctl_bw_sim_free(s);
	*use = st.usage_ns;
	return st.throttled_ns;
}

START_TEST(layout_decides_throttling)
{
	static const int alone[] = { 1, 1, 0, 0 }, split[] = { 0, 1, 0, 1 };
	static const int stacked[] = { 0, 1, 0, 0 };

	for (uint64_t seed = 1; seed <= 4; seed++) {
		uint64_t ua, ub, us, um;
		uint64_t a = bg_spin(alone, 0, seed, &ua), b = bg_spin(split, 0, seed, &ub);
		uint64_t c = bg_spin(stacked, 0, seed, &us), m = bg_spin(stacked, SEC, seed, &um);

		ck_assert_uint_ge(a, 19 * 20 * MS - 15 * MS);
		ck_assert_uint_le(a, 20 * 20 * MS + 15 * MS);
		ck_assert_uint_ge(ua, 19 * 80 * MS);
		ck_assert_uint_le(ua, 21 * 80 * MS);
		ck_assert_uint_ge(b, 19 * 35 * MS);
		ck_assert_uint_le(b, 20 * 40 * MS);
		ck_assert_uint_ge(ub, 19 * 80 * MS);
		ck_assert_uint_le(ub, 21 * 80 * MS);
		ck_assert_uint_eq(c, 0);
		NEAR(us, 2 * SEC * 2 / 3, 1 * MS);
		ck_assert_uint_ge(m, 9 * 35 * MS);
		ck_assert_uint_le(m, 10 * 40 * MS);
	}
}
END_TEST

START_TEST(place_arguments)
{
	struct cgctl_bw_sim *s = mk(2, SEC, 1);
	int g = group(s, INF, 0);

	spinners(s, g, 1);
	ck_assert_int_eq(cgctl_bw_sim_place(NULL, 0, 0, 0), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_place(s, 1, 0, 0), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_place(s, -1, 0, 0), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_place(s, 0, 0, 2), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_place(s, 0, 0, -1), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_place(s, 0, UINT64_MAX, 0), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_place(s, 0, 0, 1), 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	ck_assert_int_eq(cgctl_bw_sim_place(s, 0, 0, 1), -EINVAL);
	cgctl_bw_sim_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bw-place");
	TCase *tc = tcase_create("place");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, told_cpu_confines);
	tcase_add_test(tc, busy_thread_migrates);
	tcase_add_test(tc, layout_decides_throttling);
	tcase_add_test(tc, place_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
