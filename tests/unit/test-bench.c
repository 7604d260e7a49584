/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `cgctl bench` statistics (lib/bench/stats.c): the incomplete beta function, the t
 * distribution's CDF and Welch's test against known values, the seeded random order;
 * and the reader of --compare's input (lib/bench/file.c).
 * Reference values: closed forms (df 1 and 2), t tables (t_0.975,10 = 2.228139,
 * t_0.995,4 = 4.604095), and the two first examples of Welch's t-test in Wikipedia's
 * article (t 2.46 / df 25.0 / p 0.021 and t 1.57 / df 9.90 / p 0.149), recomputed to
 * ten digits by Simpson integration of the t density.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"
#include "bench/bench.h"
#include "testutil.h"

START_TEST(ibeta_known)
{
	ck_assert_double_eq_tol(bstats_ibeta(1, 1, 0.3), 0.3, 1e-12);
	ck_assert_double_eq_tol(bstats_ibeta(3, 1, 0.5), 0.125, 1e-12);	/* x^a */
	ck_assert_double_eq_tol(bstats_ibeta(1, 4, 0.2), 1 - pow(0.8, 4), 1e-12);
	ck_assert_double_eq_tol(bstats_ibeta(7.5, 7.5, 0.5), 0.5, 1e-12);	/* symmetry */
	ck_assert_double_eq_tol(bstats_ibeta(2, 3, 0.4) + bstats_ibeta(3, 2, 0.6), 1, 1e-12);
	ck_assert_double_eq(bstats_ibeta(2, 3, 0), 0);
	ck_assert_double_eq(bstats_ibeta(2, 3, 1), 1);
	ck_assert(isnan(bstats_ibeta(0, 3, 0.5)));
}
END_TEST

START_TEST(t_cdf_known)
{
	ck_assert_double_eq_tol(bstats_t_cdf(0, 5), 0.5, 1e-12);
	ck_assert_double_eq_tol(bstats_t_cdf(1, 1), 0.75, 1e-10);		/* Cauchy */
	ck_assert_double_eq_tol(bstats_t_cdf(-1, 1), 0.25, 1e-10);
	ck_assert_double_eq_tol(bstats_t_cdf(2, 2), 0.5 + 1 / sqrt(6), 1e-10);
	ck_assert_double_eq_tol(bstats_t_cdf(2.228139, 10), 0.975, 1e-7);
	ck_assert_double_eq_tol(bstats_t_cdf(4.604095, 4), 0.995, 1e-7);
	ck_assert_double_eq_tol(bstats_t_cdf(-3.5, 7.3), 0.0046715693, 1e-9);	/* real df */
	ck_assert_double_eq_tol(bstats_t_cdf(1.96, 1e7), 0.9750021, 1e-6);	/* normal */
	ck_assert_double_eq(bstats_t_cdf(INFINITY, 3), 1);
	ck_assert(isnan(bstats_t_cdf(1, 0)));
}
END_TEST

static void welch_of(const double *a, size_t na, const double *b, size_t nb, struct bwelch *w)
{
	struct bstats sa, sb;

	bstats_compute(a, na, &sa);
	bstats_compute(b, nb, &sb);
	ck_assert_int_eq(bstats_welch(&sa, &sb, w), 0);
}

START_TEST(welch_known)
{
	static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
				     21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
				     24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	static const double b1[] = { 17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7, 21.8 };
	static const double b2[] = { 21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4, 21.8,
				     20.7, 21.7, 21.5, 22.5, 23.6, 21.5, 22.5, 23.5, 21.5, 21.8 };
	struct bwelch w;

	welch_of(a1, 15, a2, 15, &w);
	ck_assert_double_eq_tol(w.t, 2.4553563983, 1e-8);
	ck_assert_double_eq_tol(w.df, 24.9885292902, 1e-8);
	ck_assert_double_eq_tol(w.p, 0.0213780015, 1e-8);
	welch_of(a2, 15, a1, 15, &w);		/* the sign follows the order */
	ck_assert_double_eq_tol(w.t, -2.4553563983, 1e-8);
	welch_of(b1, 10, b2, 20, &w);
	ck_assert_double_eq_tol(w.t, 1.5654335236, 1e-8);
	ck_assert_double_eq_tol(w.df, 9.9047412487, 1e-8);
	ck_assert_double_eq_tol(w.p, 0.1488416966, 1e-8);
}
END_TEST

START_TEST(welch_edges)
{
	static const double same[] = { 5, 5, 5 }, other[] = { 6, 6, 6 };
	struct bstats a, b;
	struct bwelch w;

	welch_of(same, 3, same, 3, &w);
	ck_assert_double_eq(w.p, 1);
	welch_of(same, 3, other, 3, &w);
	ck_assert_double_eq(w.p, 0);
	bstats_compute(same, 1, &a);
	bstats_compute(other, 3, &b);
	ck_assert_int_eq(bstats_welch(&a, &b, &w), -EINVAL);
	bstats_compute(other, 3, &b);
	ck_assert_double_eq_tol(b.mean, 6, 1e-12);
	ck_assert_double_eq_tol(b.sd, 0, 1e-12);
}
END_TEST

/* Under the null hypothesis p is uniform: at alpha 0.01 about 1% of A/A pairs of
 * normal samples (5 runs each, this generator) are marked above noise. */
static double normal(uint64_t *s)
{
	double u1, u2;

	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	u1 = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	u2 = ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

START_TEST(welch_false_positive_rate)
{
	uint64_t seed = 42;
	unsigned int above = 0, n = 20000;

	for (unsigned int i = 0; i < n; i++) {
		double a[5], b[5];
		struct bwelch w;

		for (int k = 0; k < 5; k++) {
			a[k] = 100 + 3 * normal(&seed);
			b[k] = 100 + 7 * normal(&seed);	/* unequal variances */
		}
		welch_of(a, 5, b, 5, &w);
		above += w.p < BENCH_ALPHA;
	}
	/* Welch is slightly conservative at small n: 0.5% .. 1.5% */
	ck_assert_uint_ge(above, n / 200);
	ck_assert_uint_le(above, n * 3 / 200);
}
END_TEST

START_TEST(order_seeded)
{
	unsigned int *a, *b, *c, count[4] = { 0 };
	bool differs = false, interleaved = false;

	ck_assert_int_eq(bstats_order(4, 5, 7, &a), 0);
	ck_assert_int_eq(bstats_order(4, 5, 7, &b), 0);
	ck_assert_int_eq(bstats_order(4, 5, 8, &c), 0);
	for (int i = 0; i < 20; i++) {
		ck_assert_uint_lt(a[i], 4);
		count[a[i]]++;
		ck_assert_uint_eq(a[i], b[i]);		/* same seed, same order */
		differs |= a[i] != c[i];
		interleaved |= a[i] != (unsigned int)(i % 4);
	}
	for (int k = 0; k < 4; k++)
		ck_assert_uint_eq(count[k], 5);		/* each configuration reps times */
	ck_assert(differs);
	ck_assert(interleaved);				/* not the plain round robin */
	free(a);
	free(b);
	free(c);
	ck_assert_int_eq(bstats_order(0, 5, 1, &a), -EINVAL);
}
END_TEST

/* Over many seeds every configuration is equally likely at every position. */
START_TEST(order_uniform)
{
	unsigned int first[3] = { 0 }, n = 3000;

	for (unsigned int s = 0; s < n; s++) {
		unsigned int *o;

		ck_assert_int_eq(bstats_order(3, 4, s, &o), 0);
		first[o[0]]++;
		free(o);
	}
	for (int k = 0; k < 3; k++) {
		ck_assert_uint_gt(first[k], n / 3 - 150);
		ck_assert_uint_lt(first[k], n / 3 + 150);
	}
}
END_TEST

static const char canned[] =
	"{\"experiment\":\"pipe\",\"operation\":\"round trip\",\"kernel\":\"6.1.0\","
	"\"seed\":17,\"repeat\":3,\"hardware_counters\":\"not available\","
	"\"configurations\":[{\"name\":\"own\",\"summary\":\"base\",\"depth\":0,"
	"\"wall_ns_per_op\":{\"mean\":2},\"samples\":{\"wall_ns_per_op\":[1,2,3],"
	"\"task_ns_per_op\":[4.5,5,5.5],\"cycles_per_op\":[null,null,null]}},"
	"{\"name\":\"bw-1ms\",\"samples\":{\"wall_ns_per_op\":[10,11,12],"
	"\"task_ns_per_op\":[0,0,0]}}]}\n";

START_TEST(read_canned)
{
	struct bresult *r = calloc(1, sizeof(*r));
	char reason[160];

	ck_assert_int_eq(bench_read_json(canned, strlen(canned), r, reason, sizeof(reason)), 0);
	ck_assert_str_eq(r->experiment, "pipe");
	ck_assert_str_eq(r->op, "round trip");
	ck_assert_uint_eq(r->seed, 17);
	ck_assert_uint_eq(r->reps, 3);
	ck_assert_uint_eq(r->n, 2);
	ck_assert_str_eq(r->c[0].name, "own");
	ck_assert_uint_eq(r->c[0].n, 3);
	ck_assert_double_eq(r->c[0].v[BM_WALL][2], 3);
	ck_assert_double_eq(r->c[0].v[BM_TASK][0], 4.5);
	ck_assert_str_eq(r->c[1].name, "bw-1ms");
	ck_assert_double_eq(r->c[1].v[BM_WALL][1], 11);
	free(r);
}
END_TEST

START_TEST(read_bad)
{
	static const char *const bad[] = {
		"", "{", "[]", "{\"experiment\":\"pipe\"}",
		"{\"experiment\":\"pipe\",\"configurations\":[{\"name\":\"x\"}]}",
		"{\"experiment\":\"pipe\",\"configurations\":[{\"samples\":"
		"{\"wall_ns_per_op\":[1]}}]}",
		"{\"experiment\":\"pipe\",\"configurations\":[{\"name\":\"x\",\"samples\":"
		"{\"wall_ns_per_op\":[1,]}}]}",
		"{\"experiment\":\"pipe\"} trailing",
		"{\"experiment\":\"pi\npe\"}",
	};
	struct bresult *r = calloc(1, sizeof(*r));
	char reason[160];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		reason[0] = '\0';
		ck_assert_int_eq(bench_read_json(bad[i], strlen(bad[i]), r, reason,
						 sizeof(reason)), -EINVAL);
		ck_assert_ptr_nonnull(strstr(reason, "not a bench report"));
	}
	free(r);
}
END_TEST

/*
 * The bandwidth model of pipe-test at a 1 ms period and a 4 ms quota on 2 CPUs
 * (bw-1ms).  Kernel figures (6.18, 2026-12-06, 30,000 round trips, both ends on one
 * CPU in 29,999 of them): 111 periods in a 213 ms run at about one CPU's worth of
 * task-clock, 110 in a 439 ms run at about half of it.  The runqueue asks the pool for
 * 4 ms at a time and the timer fires twice per request: periods about task-clock / 2 ms.
 * Apart, each runqueue empties at every round trip and asks again after each 1 ms it
 * runs: the timer never goes idle, about one firing per period of wall time.
 */
static double pipe_periods(uint64_t wall_ms, uint64_t task_ms, bool one_cpu)
{
	struct bmodel_in in = {
		.kver = CGCTL_KVER(6, 18, 0), .ncpu = 2, .depth = 1, .ops = 30000,
		.wall_ns = wall_ms * 1000000, .task_ns = task_ms * 1000000,
		.period_us = 1000, .quota_us = 4000, .slice_ns = 5000000,
		.pair_one_cpu = one_cpu,
	};
	double periods, refills;

	ck_assert_int_eq(bmodel_bandwidth(&in, &periods, &refills), 0);
	return periods;
}

START_TEST(pipe_model_periods)
{
	double a = pipe_periods(213, 210, true), b = pipe_periods(439, 215, true);

	ck_assert_msg(a >= 100 && a <= 115, "one CPU, 213 ms: %g periods", a);
	ck_assert_msg(b >= 100 && b <= 115, "one CPU, 439 ms at half: %g periods", b);
	a = pipe_periods(213, 210, false);
	ck_assert_msg(a >= 200 && a <= 216, "apart, 213 ms: %g periods", a);
}
END_TEST

/*
 * bw-1ms with the pair on one CPU for most round trips but apart for the rest, slow round
 * trips beside two CPU hogs (6.18, 2026-12-06, the child's CPU pinned away and back by
 * hand, 3,000 round trips): the kernel counted 130 periods in a 299.4 ms run of 86.8 ms
 * task-clock, 1,592 round trips on one CPU in 5 stretches, 31.1 ms of them; and 55 in a
 * 108.3 ms run of 57.4 ms, 2,699 in 3 stretches, 42.0 ms.  The majority reading alone
 * said 44 and 28.
 */
static double pipe_mix(double wall_ms, double task_ms, uint64_t coloc, uint64_t stretches,
		       double coloc_ms)
{
	struct bmodel_in in = {
		.kver = CGCTL_KVER(6, 18, 0), .ncpu = 2, .depth = 1, .ops = 3000,
		.wall_ns = (uint64_t)(wall_ms * 1e6), .task_ns = (uint64_t)(task_ms * 1e6),
		.period_us = 1000, .quota_us = 4000, .slice_ns = 5000000,
		.pair_one_cpu = coloc * 2 > 3000, .colocated = coloc, .stretches = stretches,
		.colocated_ns = (uint64_t)(coloc_ms * 1e6),
	};
	double periods, refills;

	ck_assert_int_eq(bmodel_bandwidth(&in, &periods, &refills), 0);
	return periods;
}

START_TEST(pipe_model_mix)
{
	double a = pipe_mix(299.4, 86.8, 1592, 5, 31.1), b = pipe_mix(108.3, 57.4, 2699, 3, 42.0);

	/* the kernel-tier check's tolerance: 2 periods and 5% */
	ck_assert_msg(fabs(a - 130) <= 2 + 0.05 * a, "mix, 299 ms: %g periods, kernel 130", a);
	ck_assert_msg(fabs(b - 55) <= 2 + 0.05 * b, "mix, 108 ms: %g periods, kernel 55", b);
	/* all on one CPU (no split measured): the one-CPU reading, as before */
	a = pipe_mix(64.1, 53.8, 3000, 1, 0);
	ck_assert_msg(fabs(a - 29) <= 2 + 0.05 * a, "one CPU, 64 ms: %g periods, kernel 29", a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bench");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ibeta_known);
	tcase_add_test(tc, t_cdf_known);
	tcase_add_test(tc, welch_known);
	tcase_add_test(tc, welch_edges);
	tcase_add_test(tc, welch_false_positive_rate);
	tcase_add_test(tc, order_seeded);
	tcase_add_test(tc, order_uniform);
	tcase_add_test(tc, read_canned);
	tcase_add_test(tc, read_bad);
	tcase_add_test(tc, pipe_model_periods);
	tcase_add_test(tc, pipe_model_mix);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
