/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The bandwidth simulator's competition with other load (lib/engine/bandwidth-fair.c)
 * against hand-computed CFS behaviour: shares by cpu.shares at each level
 * (calc_group_shares()), a group's shares split over the CPUs it runs on, throttled
 * threads leaving their CPU to the others, before 6.6 place_entity()'s sleeper
 * credit, and from 6.12 (delayed dequeue) a woken group's slice alone to the tick.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "libcgctl.h"
#include "testutil.h"

#define K CGCTL_KVER
#define MS 1000000ULL
#define SEC 1000000000ULL
#define INF CGCTL_BW_INF

static struct cgctl_bw_sim *mk(uint32_t kver, unsigned int ncpus, uint64_t dur)
{
	struct cgctl_bw_sim_config cfg = {
		.kver = kver, .ncpus = ncpus, .seed = 7, .duration_ns = dur,
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
	ck_assert_int_eq(cgctl_bw_sim_set_weight(s, g, shares), 0);
	return g;
}

static void threads(struct cgctl_bw_sim *s, int g, unsigned int n, uint64_t busy,
		    uint64_t idle)
{
	for (unsigned int i = 0; i < n; i++) {
		struct cgctl_bw_thread t = { .group = g, .busy_ns = busy, .idle_ns = idle };

		ck_assert_int_eq(cgctl_bw_sim_add_thread(s, &t), 0);
	}
}

static uint64_t usage(struct cgctl_bw_sim *s, int g, struct cgctl_bw_stat *st)
{
	struct cgctl_bw_stat tmp;

	if (!st)
		st = &tmp;
	ck_assert_int_eq(cgctl_bw_sim_stat(s, g, false, st), 0);
	return st->usage_ns;
}

#define NEAR(a, b, tol) ck_assert_msg(llabs((long long)(a) - (long long)(b)) <= (long long)(tol), \
				      "%s = %llu, expected %llu +- %llu", #a, \
				      (unsigned long long)(a), (unsigned long long)(b), \
				      (unsigned long long)(tol))

/* one CPU, a spinner per group at shares 1024 and 2048: 1/3 and 2/3 of 1 s */
START_TEST(shares_one_cpu)
{
	struct cgctl_bw_sim *s = mk(0, 1, SEC);
	int a = group(s, INF, 1024), b = group(s, INF, 2048);

	threads(s, a, 1, 0, 0);
	threads(s, b, 1, 0, 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	NEAR(usage(s, a, NULL), SEC / 3, 1 * MS);
	NEAR(usage(s, b, NULL), 2 * SEC / 3, 1 * MS);
	cgctl_bw_sim_free(s);
}
END_TEST

/* hierarchical, not per thread: 1 thread of A against 2 of B at equal shares gets half
 * (the old processor sharing gave it a third) */
START_TEST(group_not_thread_shares)
{
	struct cgctl_bw_sim *s = mk(0, 1, SEC);
	int a = group(s, INF, 1024), b = group(s, INF, 1024);

	threads(s, a, 1, 0, 0);
	threads(s, b, 2, 0, 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	NEAR(usage(s, a, NULL), SEC / 2, 1 * MS);
	NEAR(usage(s, b, NULL), SEC / 2, 1 * MS);
	cgctl_bw_sim_free(s);
}
END_TEST

/*
 * 2 CPUs: a group of 1 spinner against a group of 2 spinners, equal shares.  The
 * single spinner's group weighs 1024 on its CPU (all its load is there); the pair's
 * group 512 on each (calc_group_shares(): 1024 * 1024 / 2048).  On the shared CPU A
 * gets 1024 / 1536 = 2/3; B gets the other CPU whole plus 1/3: 4/3 of 1 s.
 */
START_TEST(shares_split_over_cpus)
{
	struct cgctl_bw_sim *s = mk(0, 2, SEC);
	int a = group(s, INF, 1024), b = group(s, INF, 1024);

	threads(s, b, 2, 0, 0);
	threads(s, a, 1, 0, 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	NEAR(usage(s, a, NULL), 2 * SEC / 3, 5 * MS);
	NEAR(usage(s, b, NULL), 4 * SEC / 3, 5 * MS);
	cgctl_bw_sim_free(s);
}
END_TEST

/*
 * Two spinners limited to 150 ms/100 ms beside two unlimited spinners of a sibling at
 * equal shares on 2 CPUs: each CPU is split 512:512, so the limited group gets one CPU
 * (100 ms per period), under its quota: never throttled; alone it would be.
 */
START_TEST(competition_hides_throttling)
{
	struct cgctl_bw_sim *s = mk(0, 2, SEC);
	struct cgctl_bw_stat st;
	int l = group(s, 150000, 1024), o = group(s, INF, 1024);

	threads(s, l, 2, 0, 0);
	threads(s, o, 2, 0, 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	NEAR(usage(s, l, &st), SEC, 10 * MS);
	ck_assert_int_eq(st.nr_throttled, 0);
	NEAR(usage(s, o, NULL), SEC, 10 * MS);
	cgctl_bw_sim_free(s);
}
END_TEST

/* a throttled group's parked threads leave the CPU to the others: 20 ms/100 ms beside a
 * spinner on one CPU uses its full pool (20 ms) and the 20 ms of each of the 10 refills
 * in the second (the last one's cut short by the end when its 40 ms of half a CPU do
 * not fit): 200-220 ms plus a tick of overrun; the spinner the rest */
START_TEST(throttled_leaves_cpu)
{
	struct cgctl_bw_sim *s = mk(0, 1, SEC);
	struct cgctl_bw_stat st;
	int l = group(s, 20000, 1024), o = group(s, INF, 1024);

	threads(s, l, 1, 0, 0);
	threads(s, o, 1, 0, 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	NEAR(usage(s, l, &st), 212 * MS, 12 * MS);
	ck_assert_int_ge(st.nr_throttled, 8);
	NEAR(usage(s, o, NULL) + usage(s, l, NULL), SEC, 1 * MS);
	cgctl_bw_sim_free(s);
}
END_TEST

/*
 * 4 ms busy every 16 ms idle beside a spinner on one CPU (shares equal).  6.1: place_entity() puts
 * the woken group 3 ms (latency 6 ms / 2 on 1 CPU) of vruntime behind; with weight
 * 1024 that is 3 ms alone, then 1 ms at half: 5 ms per burst, 21 ms per cycle.  The
 * first burst (both wake at 0: nobody to be placed behind) takes 8 ms: 24 ms, then 46
 * cycles (990 ms) and a 48th burst done at 995 ms: 192 ms.
 */
/* the usage in 1 s of a thread of @busy per @idle beside another group's spinner, on
 * one CPU, both at cpu.shares 1024 */
static uint64_t beside_spinner(uint32_t kver, uint64_t busy, uint64_t idle)
{
	struct cgctl_bw_sim *s = mk(kver, 1, SEC);
	int l = group(s, INF, 1024), o = group(s, INF, 1024);
	uint64_t u;

	threads(s, l, 1, busy, idle);
	threads(s, o, 1, 0, 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	u = usage(s, l, NULL);
	cgctl_bw_sim_free(s);
	return u;
}

START_TEST(sleeper_credit_era)
{
	NEAR(beside_spinner(K(6, 1, 0), 4 * MS, 16 * MS), 192 * MS, 2 * MS);
}
END_TEST

/*
 * 6.12+ (EEVDF with delayed dequeue: a sleeper wakes with no negative lag): a thread
 * waking beside another group's spinner preempts it (check_preempt_wakeup_fair())
 * and keeps the CPU until a tick finds its slice used
 * (update_deadline(): 0.75 ms * 2 = 1.5 ms on 2 CPUs).  1 ms bursts every 9 ms idle,
 * both threads on CPU 0 of 2: every burst but the first (a thread's start is no
 * wake-up: half the CPU, 2 ms) runs alone, 10 ms cycles from 11 ms: 100 bursts, 100 ms.
 * Processor sharing without weights gives each burst 2 ms: 91 bursts, and so do the
 * weights on 6.6-6.11, where a sleeper that ran ahead wakes with its negative lag.  On
 * 6.18 1.0 and 1.4 ms bursts beside a pinned spinner took 1.015 and 1.402 ms of wall time.
 */
START_TEST(eevdf_wake_preempts)
{
	for (int fair = 0; fair < 3; fair++) {
		struct cgctl_bw_sim *s = mk(fair == 2 ? K(6, 11, 0) : K(6, 18, 0), 2, SEC);
		struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(INF, 100000, 0);
		int l = fair ? group(s, INF, 1024) : cgctl_bw_sim_add_group(s, -1, &bw);
		int o = fair ? group(s, INF, 1024) : cgctl_bw_sim_add_group(s, -1, &bw);

		threads(s, l, 1, 1 * MS, 9 * MS);
		threads(s, o, 1, 0, 0);
		ck_assert_int_eq(cgctl_bw_sim_place(s, 0, 0, 0), 0);
		ck_assert_int_eq(cgctl_bw_sim_place(s, 1, 0, 0), 0);
		ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
		NEAR(usage(s, l, NULL), fair == 1 ? 100 * MS : 91 * MS, 100 * 1000ULL);
		cgctl_bw_sim_free(s);
	}
}
END_TEST

/*
 * ... and a burst longer than the slice ends its run alone at the first tick after it,
 * which falls anywhere in the tick interval (U(0, 4 ms)); the spinner then has the CPU
 * for a tick, then the shares: on 1 CPU (slice 0.75 ms) a 2 ms burst runs alone for
 * c = 0.75 + U ms; if c < 2 it takes c + 4 + 2 (2 - c) = 8 - c ms.  Mean wall time:
 * 0.6875 * 2 + 0.3125 * 6.625 = 3.45 ms; 2 ms every 11.45 ms: 175 ms in 1 s (the fluid
 * shares: 4 ms, 167 ms; every burst alone: 200 ms).  6.18, 2 ms bursts every 3 ms idle
 * beside a pinned spinner: 2.89 ms of wall time on average.
 */
START_TEST(eevdf_slice_to_tick)
{
	NEAR(beside_spinner(K(6, 18, 0), 2 * MS, 8 * MS), 175 * MS, 6 * MS);
}
END_TEST

START_TEST(weight_arguments)
{
	struct cgctl_bw_sim *s = mk(0, 1, SEC);
	int g = group(s, INF, 1024);

	ck_assert_int_eq(cgctl_bw_sim_set_weight(s, g, 1), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_set_weight(s, g, (1u << 18) + 1), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_set_weight(s, g + 1, 1024), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_set_weight(NULL, g, 1024), -EINVAL);
	ck_assert_int_eq(cgctl_bw_sim_set_weight(s, g, 262144), 0);
	threads(s, g, 1, 0, 0);
	ck_assert_int_gt(cgctl_bw_sim_run(s), 0);
	ck_assert_int_eq(cgctl_bw_sim_set_weight(s, g, 1024), -EINVAL);
	cgctl_bw_sim_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bw-fair");
	TCase *tc = tcase_create("fair");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, shares_one_cpu);
	tcase_add_test(tc, group_not_thread_shares);
	tcase_add_test(tc, shares_split_over_cpus);
	tcase_add_test(tc, competition_hides_throttling);
	tcase_add_test(tc, throttled_leaves_cpu);
	tcase_add_test(tc, sleeper_credit_era);
	tcase_add_test(tc, eevdf_wake_preempts);
	tcase_add_test(tc, eevdf_slice_to_tick);
	tcase_add_test(tc, weight_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
