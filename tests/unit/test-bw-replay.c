/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One replay (issue 28): `move`'s throttling prediction and `bw recommend`'s replay of a
 * setting give the cpu.stat cgctl_bw_replay() gives for the same demand and settings
 * (`bw predict`'s door: tests/cli/bw-replay-doors.sh); a recording repeats back to back
 * (one busy thread stays one thread); a trace told for a number of threads is the list
 * of those threads; cgctl_bw_sim_new() leaves *ret NULL on failure.
 */
#include <check.h>
#include <string.h>

#include "libcgctl.h"
#include "predict/move-throttle-internal.h"
#include "predict/recommend-internal.h"
#include "testutil.h"

#define MS 1000000ULL
#define KVER CGCTL_KVER(6, 1, 0)

/* The README's third pipeline: 20 ms / 100 ms, burst 10 ms, two CPUs. */
static const struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(20000, 100000, 10000);

/* One always-busy thread for @dur under @bw: the canonical replay. */
static void canonical(uint64_t seed, uint64_t dur, struct cgctl_bw_replay_result *res)
{
	struct cgctl_bw_replay_spec sp = {
		.size = sizeof(sp), .kver = KVER, .ncpus = 2, .seed = seed,
		.duration_ns = dur, .levels = &bw, .nlevels = 1, .threads = 1,
	};

	res->size = sizeof(*res);
	ck_assert_int_eq(cgctl_bw_replay(&sp, res, NULL), 0);
}

static struct cgctl_bw_trace *busy_trace(const char *s)
{
	struct cgctl_bw_trace *t = NULL;

	ck_assert_int_eq(cgctl_bw_trace_parse(s, strlen(s), &t, NULL), 0);
	return t;
}

static void stat_eq(const struct cgctl_bw_stat *a, const struct cgctl_bw_stat *b)
{
	ck_assert_int_eq(a->nr_periods, b->nr_periods);
	ck_assert_int_eq(a->nr_throttled, b->nr_throttled);
	ck_assert_int_eq(a->nr_bursts, b->nr_bursts);
	ck_assert_uint_eq(a->throttled_ns, b->throttled_ns);
	ck_assert_uint_eq(a->burst_ns, b->burst_ns);
	ck_assert_uint_eq(a->usage_ns, b->usage_ns);
}

static void move_levels(struct cgctl_move_throttle *mt)
{
	memset(mt, 0, sizeof(*mt));
	mt->ncpus = 2;
	mt->levels = 1;
	mt->lv[0] = bw;
	mt->bw = bw;
	mt->limited = true;
}

/* move: a 500 ms recording of one busy thread, repeated over its 2 s run, is the one
 * always-busy thread of the canonical replay, and ~80 ms of each period throttled (the
 * copies of the recording overlapped before: 120 ms) */
START_TEST(move_door)
{
	struct cgctl_bw_trace *t = busy_trace("0\tbusy\t500ms\n");
	struct cgctl_bw_replay_result res;
	struct cgctl_move_throttle mt;
	struct cgctl_move_throttle_side side;
	uint64_t per;

	move_levels(&mt);
	ck_assert_uint_eq(mt_run_ns(&mt), 2000 * MS);
	ck_assert_int_eq(mt_replay_trace(&mt, KVER, t, 500 * MS, &side), 0);
	canonical(1, 2000 * MS, &res);
	stat_eq(&side.st, &res.st);
	ck_assert_uint_eq(side.threads, 1);
	ck_assert_int_ge(side.st.nr_periods, 19);
	per = side.st.throttled_ns / (uint64_t)side.st.nr_periods;
	ck_assert_msg(per >= 70 * MS && per <= 85 * MS, "throttled %llu ns per period",
		      (unsigned long long)per);
	cgctl_bw_replay_result_free(&res);
	cgctl_bw_trace_free(t);
}
END_TEST

/* A recording that ends idle repeats with its idle time: half busy stays half busy. */
START_TEST(move_loop_keeps_idle)
{
	struct cgctl_bw_trace *t = busy_trace("0\tbusy\t5ms\n0\tidle\t5ms\n0\tbusy\t5ms\n");
	struct cgctl_move_throttle mt;
	struct cgctl_move_throttle_side side;

	move_levels(&mt);
	mt.lv[0].quota_us = mt.bw.quota_us = 200000;	/* 2 CPUs: never throttled */
	ck_assert_int_eq(mt_replay_trace(&mt, KVER, t, 20 * MS, &side), 0);
	ck_assert_int_eq(side.st.nr_throttled, 0);
	/* 10 ms busy of every 20 ms over 2 s: 1 s, not 2 s or more */
	ck_assert_msg(side.st.usage_ns >= 950 * MS && side.st.usage_ns <= 1050 * MS,
		      "usage %llu ns", (unsigned long long)side.st.usage_ns);
	cgctl_bw_trace_free(t);
}
END_TEST

/* bw recommend's replay of a setting: the mean of the canonical replays at its phases
 * (a 500 ms trace is short: 4 period-timer phases, seeds 1..4), over 2 x span + 1 s. */
START_TEST(recommend_door)
{
	struct cgctl_bw_trace *t = busy_trace("0\tbusy\t500ms\n");
	struct cgctl_bw_recommend_opts o = { .size = sizeof(o), .ncpus = 2, .kver = KVER, .seed = 1 };
	struct cgctl_bw_replay rp, want;
	struct rec_sum sum = { 0 };

	ck_assert_int_eq(cgctl_bw_replay_run(t, &o, &bw, &rp, NULL), 0);
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct cgctl_bw_replay_result res;

		canonical(seed, 2000 * MS, &res);
		rec_stat_add(&sum.st, &res.st);
		sum.replays++;
		cgctl_bw_replay_result_free(&res);
	}
	rec_replay_finish(&sum, &bw, &o, 1.0, &want);
	stat_eq(&rp.st, &want.st);
	ck_assert_int_gt(rp.st.nr_throttled, 0);
	cgctl_bw_trace_free(t);
}
END_TEST

START_TEST(bad_spec)
{
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_replay_spec sp = { .size = sizeof(sp), .levels = &bw, .nlevels = 1 };
	struct cgctl_bw_settings refused = CGCTL_BW_SETTINGS_INIT(500, 100000, 0);	/* quota under 1 ms */
	struct cgctl_error e = CGCTL_ERROR_INIT;

	ck_assert_int_eq(cgctl_bw_replay(&sp, &res, &e), -EINVAL);	/* no demand */
	ck_assert_ptr_ne(strstr(e.msg, "one of"), NULL);
	sp.threads = 1;
	sp.size = 8;
	ck_assert_int_eq(cgctl_bw_replay(&sp, &res, NULL), -EINVAL);
	sp.size = sizeof(sp);
	sp.nlevels = CGCTL_BW_REPLAY_LEVELS + 1;
	ck_assert_int_eq(cgctl_bw_replay(&sp, &res, NULL), -EINVAL);
	sp.nlevels = 1;
	sp.levels = &refused;
	ck_assert_int_eq(cgctl_bw_replay(&sp, &res, NULL), -EINVAL);
	ck_assert_ptr_eq(res.periods, NULL);
}
END_TEST

START_TEST(periods_recorded)
{
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_replay_spec sp = {
		.size = sizeof(sp), .kver = KVER, .ncpus = 2, .duration_ns = 1000 * MS,
		.levels = &bw, .nlevels = 1, .threads = 1, .record_periods = true,
	};

	ck_assert_int_eq(cgctl_bw_replay(&sp, &res, NULL), 0);
	ck_assert_uint_ge(res.nperiods, 10);
	ck_assert_uint_gt(res.worst_period_ns, 60 * MS);
	/* what the library fills inside its result carries its size */
	ck_assert_uint_eq(res.st.size, sizeof(res.st));
	ck_assert_uint_eq(res.settled.size, sizeof(res.settled));
	ck_assert_uint_eq(res.parent_settled.size, sizeof(res.parent_settled));
	for (size_t i = 0; i < res.nperiods; i++)
		ck_assert_uint_eq(res.periods[i].size, sizeof(res.periods[i]));
	cgctl_bw_replay_result_free(&res);
	ck_assert_ptr_eq(res.periods, NULL);
}
END_TEST

/* `bw predict --trace F --threads N`: a trace and a number of threads replay thread i
 * as the trace's thread i mod its threads (empty ones too), jitter and all: the list
 * of those threads, told one by one, gives the same cpu.stat. */
START_TEST(trace_threads)
{
	struct cgctl_bw_trace *t = busy_trace("0\tbusy\t30ms\n0\tidle\t20ms\n"
					      "1\tbusy\t5ms\n1\tidle\t5ms\n2\tidle\t1ms\n");
	struct cgctl_bw_replay_result a = { .size = sizeof(a) }, b = { .size = sizeof(b) };
	struct cgctl_bw_replay_spec sp = {
		.size = sizeof(sp), .kver = KVER, .ncpus = 2, .seed = 7,
		.duration_ns = 1000 * MS, .levels = &bw, .nlevels = 1, .trace = t,
		.threads = 5, .jitter_ppm = 200000,
	};
	struct cgctl_bw_thread list[5];

	ck_assert_int_eq(cgctl_bw_replay(&sp, &a, NULL), 0);
	for (unsigned int i = 0; i < 5; i++)
		list[i] = (struct cgctl_bw_thread){ .trace = t, .trace_thread = i % 3,
						    .jitter_ppm = 200000 };
	sp.trace = NULL;
	sp.threads = 0;
	sp.list = list;
	sp.nlist = 5;
	ck_assert_int_eq(cgctl_bw_replay(&sp, &b, NULL), 0);
	stat_eq(&a.st, &b.st);
	stat_eq(&a.settled, &b.settled);
	ck_assert_int_gt(a.st.nr_throttled, 0);
	/* the trace alone replays its threads that have intervals, not 5 */
	sp.trace = t;
	sp.list = NULL;
	sp.nlist = 0;
	cgctl_bw_replay_result_free(&b);
	ck_assert_int_eq(cgctl_bw_replay(&sp, &b, NULL), 0);
	ck_assert_uint_lt(b.st.usage_ns, a.st.usage_ns);
	cgctl_bw_replay_result_free(&a);
	cgctl_bw_replay_result_free(&b);
	cgctl_bw_trace_free(t);
}
END_TEST

/* The latent bug: a failed cgctl_bw_sim_new() left *ret unset, and callers freed it. */
START_TEST(sim_new_failure_leaves_null)
{
	struct cgctl_bw_sim_config cfg = { .ncpus = 100000 };
	struct cgctl_bw_sim *s = (struct cgctl_bw_sim *)&cfg;

	ck_assert_int_eq(cgctl_bw_sim_new(&s, &cfg), -EINVAL);
	ck_assert_ptr_eq(s, NULL);
	cgctl_bw_sim_free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bw-replay");
	TCase *tc = tcase_create("doors");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, move_door);
	tcase_add_test(tc, move_loop_keeps_idle);
	tcase_add_test(tc, recommend_door);
	tcase_add_test(tc, bad_spec);
	tcase_add_test(tc, periods_recorded);
	tcase_add_test(tc, trace_threads);
	tcase_add_test(tc, sim_new_failure_leaves_null);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
