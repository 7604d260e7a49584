/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth engine, one kernel rule at a time on hand-checked states: refill and
 * burst statistics, slice pulls with debt, FIFO distribution of debt + 1 ns, slack
 * return and its timer guards, idle deactivation, the overload guard, 32-bit counters,
 * pre-5.4 expiration, the 6.18 unthrottle guard, configuration writes, the
 * empty-group rule of 6.6, and where a thread wakes beside threads parked by throttling.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "libcgctl.h"
#include "engine/bandwidth.h"
#include "testutil.h"

#define K CGCTL_KVER
#define MS 1000000ULL

static struct cgctl_bw_sim *mk_cfg(const struct cgctl_bw_sim_config *cfg, uint64_t q_us,
				   uint64_t p_us, uint64_t b_us)
{
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(q_us, p_us, b_us);
	struct cgctl_bw_sim *s;

	ck_assert_int_eq(cgctl_bw_sim_new(&s, cfg), 0);
	ck_assert_int_eq(cgctl_bw_sim_add_group(s, -1, &bw), 0);
	ck_assert_int_eq(bw_sim_setup(s), 0);
	return s;
}

static struct cgctl_bw_sim *mk(uint32_t kver, unsigned int ncpus, uint64_t q_us,
			       uint64_t p_us, uint64_t b_us)
{
	struct cgctl_bw_sim_config cfg = { .kver = kver, .ncpus = ncpus, .seed = 7 };

	return mk_cfg(&cfg, q_us, p_us, b_us);
}

static struct bw_pool *P(struct cgctl_bw_sim *s)
{
	return &s->g[0].pool;
}

static struct bw_rq *RQ(struct cgctl_bw_sim *s, int cpu)
{
	return &s->g[0].rq[cpu];
}

START_TEST(initial_state)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 2, 50000, 100000, 10000);

	/* configured long ago and quiet since: full pool with burst, timer off */
	ck_assert_uint_eq(P(s)->runtime, 60 * MS);
	ck_assert(!P(s)->period_active);
	ck_assert_uint_lt(P(s)->anchor, 100 * MS);
	ck_assert_int_eq(RQ(s, 0)->remaining, 1);
	cgctl_bw_sim_free(s);
	s = mk(K(6, 12, 0), 2, 50000, 100000, 0);
	ck_assert_int_eq(RQ(s, 1)->remaining, 0);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(refill_without_burst_caps_at_quota)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 1, 50000, 100000, 0);

	P(s)->runtime = 3 * MS;		/* leftover and late slack are discarded */
	bw_refill(s, 0, 0);
	ck_assert_uint_eq(P(s)->runtime, 50 * MS);
	ck_assert_uint_eq(P(s)->nr_burst, 0);
	ck_assert_uint_eq(P(s)->burst_time, 0);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(refill_burst_statistics)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 1, 20000, 100000, 20000);

	ck_assert_uint_eq(P(s)->runtime_snap, 40 * MS);
	P(s)->runtime = 0;		/* 40 ms taken: 20 ms more than quota */
	bw_refill(s, 0, 0);
	ck_assert_uint_eq(P(s)->runtime, 20 * MS);
	ck_assert_uint_eq(P(s)->burst_time, 20 * MS);
	ck_assert_uint_eq(P(s)->nr_burst, 1);
	bw_refill(s, 0, 0);		/* nothing taken: credit builds up */
	ck_assert_uint_eq(P(s)->runtime, 40 * MS);
	ck_assert_uint_eq(P(s)->nr_burst, 1);
	P(s)->runtime = 10 * MS;	/* 30 ms taken: 10 over quota */
	bw_refill(s, 0, 0);
	ck_assert_uint_eq(P(s)->runtime, 30 * MS);
	ck_assert_uint_eq(P(s)->burst_time, 30 * MS);
	ck_assert_uint_eq(P(s)->nr_burst, 2);
	cgctl_bw_sim_free(s);
	/* 5.14/5.15: burst works, statistics did not exist yet */
	s = mk(K(5, 15, 0), 1, 20000, 100000, 20000);
	P(s)->runtime = 0;
	bw_refill(s, 0, 0);
	ck_assert_uint_eq(P(s)->runtime, 20 * MS);
	ck_assert_uint_eq(P(s)->burst_time, 0);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(grab_pulls_slice_plus_debt)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 2, 50000, 100000, 0);

	RQ(s, 0)->remaining = -3 * (int64_t)MS;
	ck_assert(bw_grab(s, 0, 0, s->cfg.slice_ns, 7 * MS));
	ck_assert_int_eq(RQ(s, 0)->remaining, 5 * MS);
	ck_assert_uint_eq(P(s)->runtime, 42 * MS);
	ck_assert(!P(s)->idle);
	/* the timer is armed at the first phase boundary after now */
	ck_assert(P(s)->period_active);
	ck_assert_uint_gt(P(s)->expiry, 7 * MS);
	ck_assert_uint_le(P(s)->expiry, 107 * MS);
	ck_assert_uint_eq((P(s)->expiry - P(s)->anchor) % (100 * MS), 0);
	/* clipped to what is left */
	P(s)->runtime = 2 * MS;
	RQ(s, 1)->remaining = -3 * (int64_t)MS;
	ck_assert(!bw_grab(s, 0, 1, s->cfg.slice_ns, 8 * MS));
	ck_assert_int_eq(RQ(s, 1)->remaining, -1 * (int64_t)MS);
	ck_assert_uint_eq(P(s)->runtime, 0);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(charge_first_check_after)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 1, 50000, 100000, 0);

	RQ(s, 0)->remaining = 5 * MS;
	bw_charge(s, 0, 0, 4 * MS, 4 * MS);
	ck_assert_int_eq(RQ(s, 0)->remaining, 1 * MS);
	ck_assert_uint_eq(P(s)->runtime, 50 * MS);
	bw_charge(s, 0, 0, 4 * MS, 8 * MS);	/* -3 ms: pulls 5 + 3 */
	ck_assert_int_eq(RQ(s, 0)->remaining, 5 * MS);
	ck_assert_uint_eq(P(s)->runtime, 42 * MS);
	P(s)->runtime = 0;
	bw_charge(s, 0, 0, 8 * MS, 12 * MS);	/* dry pool: debt and a resched */
	ck_assert_int_eq(RQ(s, 0)->remaining, -3 * (int64_t)MS);
	ck_assert(RQ(s, 0)->resched);
	cgctl_bw_sim_free(s);
}
END_TEST

static void throttle_with_debt(struct cgctl_bw_sim *s, int cpu, int64_t debt, uint64_t now)
{
	RQ(s, cpu)->remaining = -debt;
	RQ(s, cpu)->nr_busy = 1;
	ck_assert(bw_throttle(s, 0, cpu, now));
}

START_TEST(distribute_fifo_debt_plus_one)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 3, 4000, 100000, 0);
	uint64_t e;

	P(s)->runtime = 0;
	throttle_with_debt(s, 2, 1 * MS, 10 * MS);
	throttle_with_debt(s, 0, 2 * MS, 11 * MS);
	throttle_with_debt(s, 1, 3 * MS, 12 * MS);
	ck_assert_int_eq(P(s)->thr_head, 2);
	ck_assert_int_eq(RQ(s, 2)->next, 0);
	ck_assert_int_eq(RQ(s, 0)->next, 1);
	e = P(s)->expiry;
	bw_period_timer(s, 0, e);	/* 4 ms: 1 ms + 1, 2 ms + 1, then 1 ms - 2 */
	ck_assert_int_eq(RQ(s, 2)->remaining, 1);
	ck_assert_int_eq(RQ(s, 0)->remaining, 1);
	ck_assert(!RQ(s, 2)->throttled && !RQ(s, 0)->throttled);
	ck_assert(RQ(s, 1)->throttled);
	ck_assert_int_eq(RQ(s, 1)->remaining, -2 * (int64_t)MS - 2);
	ck_assert_uint_eq(P(s)->nr_periods, 1);
	ck_assert_uint_eq(P(s)->nr_throttled, 1);
	/* throttled time is Σ per-CPU intervals, added at unthrottle */
	ck_assert_uint_eq(P(s)->throttled_time, (e - 10 * MS) + (e - 11 * MS));
	bw_period_timer(s, 0, e + 100 * MS);
	ck_assert(!RQ(s, 1)->throttled);
	ck_assert_int_eq(RQ(s, 1)->remaining, 1);
	ck_assert_uint_eq(P(s)->nr_throttled, 2);
	ck_assert_uint_eq(P(s)->throttled_time,
			  (e - 10 * MS) + (e - 11 * MS) + (e + 100 * MS - 12 * MS));
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(throttle_last_moment_grab)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 1, 50000, 100000, 0);

	/* bandwidth appeared meanwhile: 1 ns is enough not to throttle */
	RQ(s, 0)->remaining = -2 * (int64_t)MS;
	ck_assert(!bw_throttle(s, 0, 0, 5 * MS));
	ck_assert_int_eq(RQ(s, 0)->remaining, 1);
	ck_assert_uint_eq(P(s)->runtime, 48 * MS - 1);
	ck_assert(!RQ(s, 0)->throttled);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(slack_return_keeps_1ms)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 2, 50000, 100000, 0);

	P(s)->runtime = 10 * MS;
	RQ(s, 0)->remaining = 4 * MS;
	bw_return_slack(s, 0, 0, 1 * MS);
	ck_assert_uint_eq(P(s)->runtime, 13 * MS);
	ck_assert_int_eq(RQ(s, 0)->remaining, 1 * MS);
	RQ(s, 1)->remaining = MS / 2;
	bw_return_slack(s, 0, 1, 1 * MS);
	ck_assert_int_eq(RQ(s, 1)->remaining, MS / 2);
	ck_assert_uint_eq(P(s)->runtime, 13 * MS);
	ck_assert(!P(s)->slack_started);	/* nobody throttled */
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(slack_timer_guards)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 2, 50000, 100000, 0);
	uint64_t e, t;

	P(s)->runtime = 0;
	throttle_with_debt(s, 1, 1 * MS, 1 * MS);
	e = P(s)->expiry;
	/* the period ends within 7 ms: no slack timer */
	t = e - 6 * MS;
	RQ(s, 0)->remaining = 8 * MS;
	bw_return_slack(s, 0, 0, t);
	ck_assert_uint_eq(P(s)->runtime, 7 * MS);
	ck_assert(!P(s)->slack_started);
	/* 10 ms before the period ends, more than a slice in the pool: armed for +5 ms */
	P(s)->runtime = 0;
	t = e - 10 * MS;
	RQ(s, 0)->remaining = 8 * MS;
	bw_return_slack(s, 0, 0, t);
	ck_assert(P(s)->slack_started);
	ck_assert_uint_eq(bw_heap_key(&s->heap, bw_slot_slack(s, 0)), t + 5 * MS);
	bw_slack_timer(s, 0, t + 5 * MS);
	ck_assert(!P(s)->slack_started);
	ck_assert(!RQ(s, 1)->throttled);
	ck_assert_int_eq(RQ(s, 1)->remaining, 1);
	ck_assert_uint_eq(P(s)->runtime, 7 * MS - 1 * MS - 1);
	/* a throttle resolved by slack within the period is not counted */
	ck_assert_uint_eq(P(s)->nr_throttled, 0);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(idle_deactivation_two_periods)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 1, 50000, 100000, 0);
	uint64_t e;

	RQ(s, 0)->remaining = 0;
	ck_assert(bw_grab(s, 0, 0, s->cfg.slice_ns, 1 * MS));
	e = P(s)->expiry;
	bw_period_timer(s, 0, e);		/* something was granted: idle set, keep */
	ck_assert(P(s)->period_active);
	ck_assert(P(s)->idle);
	bw_period_timer(s, 0, e + 100 * MS);	/* quiet period: counted, then off */
	ck_assert(!P(s)->period_active);
	ck_assert_uint_eq(P(s)->nr_periods, 2);
	ck_assert_uint_eq(P(s)->runtime, 50 * MS);
	/* a run on the silo's leftover alone grants nothing from the pool */
	bw_charge(s, 0, 0, 4 * MS, e + 150 * MS);
	ck_assert(!P(s)->period_active);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(unlimited_timer_counts_nothing)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 1, CGCTL_BW_INF, 100000, 0);

	ck_assert(!RQ(s, 0)->enabled);
	P(s)->period_active = true;
	P(s)->expiry = 50 * MS;
	bw_period_timer(s, 0, 50 * MS);
	ck_assert(!P(s)->period_active);
	ck_assert_uint_eq(P(s)->nr_periods, 0);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(overload_guard_doubles)
{
	struct cgctl_bw_sim_config cfg = { .kver = K(6, 18, 0), .ncpus = 1, .seed = 7,
					   .timer_cost_ns = 150 * MS };
	struct cgctl_bw_sim *s = mk_cfg(&cfg, 50000, 100000, 10000);
	struct cgctl_bw_settings bw;

	ck_assert(bw_grab(s, 0, 0, s->cfg.slice_ns, 1 * MS));
	bw_period_timer(s, 0, P(s)->expiry);
	ck_assert_int_eq(cgctl_bw_sim_settings(s, 0, &bw), 0);
	ck_assert_uint_eq(bw.period_us, 200000);
	ck_assert_uint_eq(bw.quota_us, 100000);
	ck_assert_uint_eq(bw.burst_us, 20000);
	cgctl_bw_sim_free(s);
	/* a callback that fits in its period never scales */
	cfg.timer_cost_ns = 10 * MS;
	s = mk_cfg(&cfg, 50000, 100000, 0);
	ck_assert(bw_grab(s, 0, 0, s->cfg.slice_ns, 1 * MS));
	bw_period_timer(s, 0, P(s)->expiry);
	ck_assert_uint_eq(P(s)->period, 100 * MS);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(counters_are_32_bit)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 1, 50000, 100000, 0);
	struct cgctl_bw_stat st;

	P(s)->nr_periods = INT32_MAX;
	ck_assert(bw_grab(s, 0, 0, s->cfg.slice_ns, 1 * MS));
	bw_period_timer(s, 0, P(s)->expiry);
	s->ran = true;
	ck_assert_int_eq(cgctl_bw_sim_stat(s, 0, true, &st), 0);
	ck_assert_int_eq(st.nr_periods, INT32_MIN);	/* printed with %d */
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(pre_5_4_silos_expire)
{
	uint32_t eras[] = { K(5, 3, 0), K(5, 4, 0) };

	for (size_t i = 0; i < 2; i++) {
		struct cgctl_bw_sim *s = mk(eras[i], 1, 50000, 100000, 0);
		bool expire = i == 0;
		uint64_t e;

		ck_assert(bw_grab(s, 0, 0, s->cfg.slice_ns, 1 * MS));
		e = P(s)->expiry;
		/*
		 * start_cfs_bandwidth() stamps runtime_expires one period past the first
		 * expiry, so the first refill leaves the silo alone ...
		 */
		bw_period_timer(s, 0, e);
		bw_charge(s, 0, 0, 2 * MS, e + 4 * MS);
		ck_assert_int_eq(RQ(s, 0)->remaining, 3 * MS);
		ck_assert_uint_eq(P(s)->runtime, 50 * MS);
		/* ... the next one (new sequence, expiry passed) zeroes it: a new slice */
		bw_period_timer(s, 0, e + 100 * MS);
		bw_charge(s, 0, 0, 0, e + 104 * MS);
		ck_assert_int_eq(RQ(s, 0)->remaining, expire ? 5 * MS : 3 * MS);
		ck_assert_uint_eq(P(s)->runtime, expire ? 45 * MS : 50 * MS);
		cgctl_bw_sim_free(s);
	}
}
END_TEST

START_TEST(unthrottle_guard_6_18)
{
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 1, 50000, 100000, 0);

	P(s)->runtime = 0;
	throttle_with_debt(s, 0, 1 * MS, 1 * MS);
	bw_unthrottle(s, 0, 0, 2 * MS);		/* remaining <= 0: stays throttled */
	ck_assert(RQ(s, 0)->throttled);
	cgctl_bw_sim_free(s);
	s = mk(K(6, 12, 0), 1, 50000, 100000, 0);
	P(s)->runtime = 0;
	throttle_with_debt(s, 0, 1 * MS, 1 * MS);
	bw_unthrottle(s, 0, 0, 2 * MS);
	ck_assert(!RQ(s, 0)->throttled);
	ck_assert_uint_eq(P(s)->throttled_time, 1 * MS);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(config_write_forgives_and_refills)
{
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(20000, 100000, 0);
	struct cgctl_bw_sim *s = mk(K(6, 18, 0), 1, 20000, 100000, 0);

	P(s)->runtime = 0;
	throttle_with_debt(s, 0, 2 * MS, 1 * MS);
	P(s)->idle = true;
	bw_set_bandwidth(s, 0, &bw, 30 * MS);	/* the same value again */
	ck_assert(!RQ(s, 0)->throttled);
	ck_assert_int_eq(RQ(s, 0)->remaining, 1);
	ck_assert_uint_eq(P(s)->runtime, 20 * MS);
	ck_assert(P(s)->idle);			/* a write does not clear idle */
	ck_assert_uint_eq(P(s)->throttled_time, 29 * MS);
	cgctl_bw_sim_free(s);
	s = mk(K(6, 17, 0), 1, 20000, 100000, 0);
	P(s)->runtime = 0;
	throttle_with_debt(s, 0, 2 * MS, 1 * MS);
	bw_set_bandwidth(s, 0, &bw, 30 * MS);
	ck_assert_int_eq(RQ(s, 0)->remaining, 0);
	ck_assert(!RQ(s, 0)->throttled);
	cgctl_bw_sim_free(s);
}
END_TEST

START_TEST(empty_group_rule)
{
	uint32_t eras[] = { K(6, 5, 0), K(6, 6, 0), K(6, 18, 0) };

	for (size_t i = 0; i < 3; i++) {
		struct cgctl_bw_sim *s = mk(eras[i], 1, 50000, 100000, 0);
		bool empty_rule = eras[i] >= K(6, 6, 0);
		uint64_t e;

		P(s)->runtime = 0;
		RQ(s, 0)->remaining = -1 * (int64_t)MS;
		ck_assert(bw_throttle(s, 0, 0, 10 * MS));	/* nothing queued */
		e = P(s)->expiry;
		ck_assert_uint_gt(e, 40 * MS);
		if (e > 40 * MS) {
			bw_enqueue_check(s, 0, 0, 30 * MS);	/* a task wakes at 30 ms */
			bw_period_timer(s, 0, e);
		}
		ck_assert_uint_eq(P(s)->throttled_time, e - (empty_rule ? 30 : 10) * MS);
		ck_assert_uint_eq(RQ(s, 0)->self_time, empty_rule ? e - 30 * MS : 0);
		cgctl_bw_sim_free(s);
	}
}
END_TEST

/* Put thread @ti busy on @cpu (the placement's bookkeeping only). */
static void busy_on(struct cgctl_bw_sim *s, int ti, int cpu)
{
	struct bw_cpu *c = &s->cpu[cpu];

	s->t[ti].state = BW_T_BUSY;
	s->t[ti].cpu = cpu;
	s->bidx[ti] = c->nbusy;
	c->busy[c->nbusy++] = ti;
	bw_load_move(s, cpu, c->nbusy - 1, c->nbusy);
}

/*
 * A CPU whose threads the group's throttling parked is idle to the kernel's wake-up path
 * (idle_cpu(): nr_running counts no parked task), so a thread that slept there wakes
 * there and parks, rather than running on another CPU's silo; one whose threads are
 * runnable is not, and the thread goes to an idle CPU, else the least loaded.
 */
START_TEST(wake_onto_parked_cpu)
{
	struct cgctl_bw_sim_config cfg = { .kver = K(6, 18, 0), .ncpus = 2, .seed = 7 };
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(30000, 100000, 0);
	struct cgctl_bw_sim *s;

	ck_assert_int_eq(cgctl_bw_sim_new(&s, &cfg), 0);
	ck_assert_int_eq(cgctl_bw_sim_add_group(s, -1, &bw), 0);
	for (int i = 0; i < 4; i++) {
		struct cgctl_bw_thread t = { .group = 0, .busy_ns = 2 * MS, .idle_ns = 18 * MS };

		ck_assert_int_eq(cgctl_bw_sim_add_thread(s, &t), 0);
	}
	ck_assert_int_eq(bw_sim_setup(s), 0);
	/* threads 0 and 1 busy on CPU 0, thread 2 asleep, last on CPU 0; CPU 1 empty */
	busy_on(s, 0, 0);
	busy_on(s, 1, 0);
	s->t[2].state = BW_T_IDLE;
	s->t[2].cpu = 0;
	ck_assert_int_eq(bw_pick_cpu(s, 2), 1);		/* CPU 0 runs: the idle one */
	RQ(s, 0)->throttle_count = 1;			/* CPU 0's threads parked */
	bw_parked_sync(s, 0);				/* as bw_throttle() does */
	ck_assert_int_eq(bw_pick_cpu(s, 2), 0);		/* idle to the kernel: stays */
	/* from a CPU with a runnable thread: the parked CPU, not the least loaded one */
	busy_on(s, 3, 1);
	s->t[2].cpu = 1;
	ck_assert_int_eq(bw_pick_cpu(s, 2), 0);
	RQ(s, 0)->throttle_count = 0;
	bw_parked_sync(s, 0);
	ck_assert_int_eq(bw_pick_cpu(s, 2), 1);		/* none idle: the least loaded */
	cgctl_bw_sim_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bw-pool");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, initial_state);
	tcase_add_test(tc, refill_without_burst_caps_at_quota);
	tcase_add_test(tc, refill_burst_statistics);
	tcase_add_test(tc, grab_pulls_slice_plus_debt);
	tcase_add_test(tc, charge_first_check_after);
	tcase_add_test(tc, distribute_fifo_debt_plus_one);
	tcase_add_test(tc, throttle_last_moment_grab);
	tcase_add_test(tc, slack_return_keeps_1ms);
	tcase_add_test(tc, slack_timer_guards);
	tcase_add_test(tc, idle_deactivation_two_periods);
	tcase_add_test(tc, unlimited_timer_counts_nothing);
	tcase_add_test(tc, overload_guard_doubles);
	tcase_add_test(tc, counters_are_32_bit);
	tcase_add_test(tc, pre_5_4_silos_expire);
	tcase_add_test(tc, unthrottle_guard_6_18);
	tcase_add_test(tc, config_write_forgives_and_refills);
	tcase_add_test(tc, empty_group_rule);
	tcase_add_test(tc, wake_onto_parked_cpu);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
