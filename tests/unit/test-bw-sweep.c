/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A randomized sweep of the bandwidth simulator: configurations drawn from wide ranges
 * (quota, period, burst, CPUs, threads, busy/idle phases, kernel era, background load
 * at random weights), each checked against the kernel's invariants and, where one
 * exists, an independent reference computed here in a few lines:
 *
 *   - nr_throttled <= nr_periods; no nr_bursts/burst_time without burst (the pool is
 *     set to exactly quota at each refill: __refill_cfs_bandwidth_runtime());
 *   - a limited group never uses more than the quota of the periods it spans plus its
 *     burst credit, the silos it started with, and one tick of overrun per CPU and
 *     period boundary (debt is charged before it is checked);
 *   - usage never exceeds the CPUs' time nor the threads' demand; throttled time never
 *     exceeds the CPUs' time;
 *   - unlimited, or limited with a quota above the whole demand plus a slice per CPU:
 *     never throttled, and each thread on a CPU of its own runs its busy/idle cycle
 *     exactly (reference: the cycle stepped here);
 *   - spinners of unlimited groups on one CPU share it in proportion to cpu.shares
 *     (reference: weight / total weight of the time);
 *   - run_delay (delay_ns) is the wait plus each thread's time parked by throttling:
 *     from 6.6 at least the throttled time, nothing without a limit;
 *   - the same configuration and seed give the same result.
 *
 * The seed is printed with every failure, so a failing draw can be replayed.
 */
#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"
#include "testutil.h"

#define MS 1000000ULL
#define SEC 1000000000ULL
#define DRAWS 300
#define MIN(a, b) ((a) < (b) ? (a) : (b))

struct draw {
	uint64_t seed;
	uint32_t kver;
	unsigned int ncpus, nthr, nbg;
	uint64_t quota_us, period_us, burst_us;	/* quota CGCTL_BW_INF: unlimited */
	uint64_t busy, idle;			/* busy 0: spinners */
	uint64_t dur;
	uint32_t shares, bg_shares;		/* 0: no weights (no background) */
};

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t range(uint64_t *s, uint64_t lo, uint64_t hi)
{
	return lo + rnd(s) % (hi - lo + 1);
}

static const uint32_t kvers[] = {
	CGCTL_KVER(5, 3, 0), CGCTL_KVER(5, 15, 0), CGCTL_KVER(6, 1, 0), CGCTL_KVER(6, 6, 0),
	CGCTL_KVER(6, 12, 0), CGCTL_KVER(6, 18, 0),
};

static void draw(struct draw *d, uint64_t seed)
{
	uint64_t s = seed;

	memset(d, 0, sizeof(*d));
	d->seed = seed;
	d->kver = kvers[rnd(&s) % (sizeof(kvers) / sizeof(kvers[0]))];
	d->ncpus = (unsigned int)range(&s, 1, 4);
	d->nthr = (unsigned int)range(&s, 1, 6);
	d->period_us = range(&s, 10, 200) * 1000;
	if (rnd(&s) % 5 == 0) {
		d->quota_us = CGCTL_BW_INF;
	} else {
		d->quota_us = range(&s, 1000, d->period_us * d->ncpus * 3 / 2);
		if (d->kver >= CGCTL_KVER(5, 14, 0) && rnd(&s) % 3 == 0)
			d->burst_us = range(&s, 0, d->quota_us);
	}
	if (rnd(&s) % 2) {
		d->busy = range(&s, 1, 40) * MS / 2;
		d->idle = range(&s, 0, 80) * MS / 2;
	}
	d->dur = range(&s, 200, 1200) * MS;
	if (rnd(&s) % 3 == 0) {
		d->nbg = (unsigned int)range(&s, 1, 3);
		d->shares = (uint32_t)range(&s, 2, 4096);
		d->bg_shares = (uint32_t)range(&s, 2, 4096);
	}
}

static char *describe(const struct draw *d, char *buf, size_t len)
{
	snprintf(buf, len, "seed %" PRIu64 ": kver %u.%u cpus %u threads %u quota %" PRIu64
		 " period %" PRIu64 " burst %" PRIu64 " busy %" PRIu64 " idle %" PRIu64
		 " dur %" PRIu64 " bg %u shares %u/%u", d->seed,
		 CGCTL_KVER_MAJOR(d->kver), CGCTL_KVER_MINOR(d->kver), d->ncpus, d->nthr,
		 d->quota_us, d->period_us, d->burst_us, d->busy, d->idle, d->dur, d->nbg,
		 d->shares, d->bg_shares);
	return buf;
}

/* Returns: the group's statistics at the end of the workload and settled. */
static void simulate(const struct draw *d, struct cgctl_bw_stat *run,
		     struct cgctl_bw_stat *settled, struct cgctl_bw_stat *bg)
{
	struct cgctl_bw_sim_config cfg = {
		.kver = d->kver, .ncpus = d->ncpus, .seed = d->seed, .duration_ns = d->dur,
		.settle_ns = 400 * MS,
	};
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(d->quota_us, d->period_us, d->burst_us);
	struct cgctl_bw_settings inf = CGCTL_BW_SETTINGS_INIT(CGCTL_BW_INF, 100000, 0);
	struct cgctl_bw_thread t = { .busy_ns = d->busy, .idle_ns = d->idle };
	struct cgctl_bw_sim *s;
	int g, b = -1;

	ck_assert_int_eq(cgctl_bw_sim_new(&s, &cfg), 0);
	g = cgctl_bw_sim_add_group(s, -1, &bw);
	ck_assert_int_ge(g, 0);
	if (d->nbg) {
		b = cgctl_bw_sim_add_group(s, -1, &inf);
		ck_assert_int_ge(b, 0);
		ck_assert_int_eq(cgctl_bw_sim_set_weight(s, g, d->shares), 0);
		ck_assert_int_eq(cgctl_bw_sim_set_weight(s, b, d->bg_shares), 0);
	}
	t.group = g;
	for (unsigned int i = 0; i < d->nthr; i++)
		ck_assert_int_eq(cgctl_bw_sim_add_thread(s, &t), 0);
	for (unsigned int i = 0; i < d->nbg; i++) {
		struct cgctl_bw_thread sp = { .group = b };

		ck_assert_int_eq(cgctl_bw_sim_add_thread(s, &sp), 0);
	}
	ck_assert_int_ge(cgctl_bw_sim_run(s), 0);
	ck_assert_int_eq(cgctl_bw_sim_stat(s, g, false, run), 0);
	ck_assert_int_eq(cgctl_bw_sim_stat(s, g, true, settled), 0);
	memset(bg, 0, sizeof(*bg));
	if (b >= 0)
		ck_assert_int_eq(cgctl_bw_sim_stat(s, b, false, bg), 0);
	cgctl_bw_sim_free(s);
}

/* The reference of a thread alone on its CPU: busy, idle, busy, ... for @dur. */
static uint64_t cycle_usage(uint64_t busy, uint64_t idle, uint64_t dur)
{
	uint64_t t = 0, used = 0;

	if (!busy)
		return dur;
	while (t < dur) {
		used += busy < dur - t ? busy : dur - t;
		t += busy + idle;
	}
	return used;
}

#define CHECK(cond, what, fmt, ...) ck_assert_msg(cond, "%s: " fmt, what, ##__VA_ARGS__)

START_TEST(sweep)
{
	unsigned int refs = 0, weighted = 0;

	for (uint64_t i = 0; i < DRAWS; i++) {
		struct cgctl_bw_stat r, st, bg, r2, st2, bg2;
		struct draw d;
		char what[320];
		uint64_t cpu_time, demand, tick = 4 * MS;
		bool limited;

		draw(&d, 0x5eed0000 + i);
		if (i % 8 == 7 && d.nbg) {	/* one in 8 of those: the weighted reference */
			d.ncpus = 1;
			d.quota_us = CGCTL_BW_INF;
			d.burst_us = 0;
			d.busy = 0;
		}
		describe(&d, what, sizeof(what));
		limited = d.quota_us != CGCTL_BW_INF;
		simulate(&d, &r, &st, &bg);
		cpu_time = d.ncpus * d.dur;
		demand = d.nthr * cycle_usage(d.busy, d.idle, d.dur);

		CHECK(r.nr_throttled <= r.nr_periods, what, "nr_throttled > nr_periods");
		CHECK(st.nr_throttled <= st.nr_periods, what, "settled nr_throttled > nr_periods");
		if (!d.burst_us)
			CHECK(!st.nr_bursts && !st.burst_ns, what, "bursts without burst");
		CHECK(r.usage_ns <= cpu_time + d.nthr * 10, what, "usage %" PRIu64
		      " above the CPUs' time", r.usage_ns);
		CHECK(r.usage_ns <= demand + d.nthr * 10, what, "usage %" PRIu64
		      " above the demand %" PRIu64, r.usage_ns, demand);
		CHECK(st.throttled_ns <= d.ncpus * (d.dur + 400 * MS), what,
		      "throttled %" PRIu64 " above the CPUs' time", st.throttled_ns);
		/*
		 * run_delay: the wait plus each thread's parked time, at most every thread
		 * the whole run; from 6.6 a CPU's throttled clock runs only while a thread
		 * of the group is parked there (empty groups accrue none), so the parked
		 * time covers throttled_time; nothing parks an unlimited group
		 */
		CHECK(r.delay_ns >= r.wait_ns && r.delay_ns - r.wait_ns <= d.nthr * d.dur, what,
		      "delay %" PRIu64 " vs wait %" PRIu64, r.delay_ns, r.wait_ns);
		if (d.kver >= CGCTL_KVER(6, 6, 0))
			CHECK(r.delay_ns - r.wait_ns >= r.throttled_ns, what, "parked %" PRIu64
			      " below throttled %" PRIu64, r.delay_ns - r.wait_ns, r.throttled_ns);
		if (!limited)
			CHECK(r.delay_ns == r.wait_ns, what, "unlimited, yet parked");
		if (limited) {
			uint64_t p = d.period_us * 1000, q = d.quota_us * 1000;
			uint64_t bound = (d.dur / p + 2) * q + d.burst_us * 1000 +
					 d.ncpus * (d.dur / p + 2) * (tick + 1 * MS);

			CHECK(r.usage_ns <= bound, what, "usage %" PRIu64 " above the quota "
			      "bound %" PRIu64, r.usage_ns, bound);
		} else {
			CHECK(!st.nr_throttled && !st.throttled_ns && !st.nr_periods, what,
			      "an unlimited group throttled");
		}
		/* demand far below the quota: never throttled, the cycle's own usage */
		if (!d.nbg && d.nthr <= d.ncpus &&
		    (!limited || d.quota_us * 1000 >= d.nthr * d.period_us * 1000 +
						       d.ncpus * 10 * MS)) {
			uint64_t ref = d.nthr * cycle_usage(d.busy, d.idle, d.dur);

			CHECK(!st.nr_throttled, what, "throttled below its quota");
			CHECK(r.usage_ns + d.nthr * 100 >= ref && r.usage_ns <= ref + d.nthr * 100,
			      what, "usage %" PRIu64 " vs reference %" PRIu64, r.usage_ns, ref);
			refs++;
		}
		/* unlimited spinners against spinners on one CPU: weight proportional */
		if (d.nbg && d.ncpus == 1 && !limited && !d.busy) {
			uint64_t ref = d.dur * d.shares / (d.shares + d.bg_shares);

			CHECK(r.usage_ns + 200000 >= ref && r.usage_ns <= ref + 200000, what,
			      "usage %" PRIu64 " vs weighted share %" PRIu64, r.usage_ns, ref);
			CHECK(r.usage_ns + bg.usage_ns + 1000 + d.dur / 100000 >= d.dur, what,
			      "CPU left idle");
			weighted++;
		}
		/* a CPU is never idle while anything is runnable: spinners fill it */
		/* (each progress step of a CPU floors its threads' shares: 10 ppm) */
		if (d.nbg)
			CHECK(bg.usage_ns + r.usage_ns + 1000 + d.ncpus * d.dur / 100000 >=
			      MIN(d.nbg, d.ncpus) * d.dur,
			      what, "spinners left CPU time idle: %" PRIu64 " + %" PRIu64,
			      bg.usage_ns, r.usage_ns);
		simulate(&d, &r2, &st2, &bg2);
		CHECK(!memcmp(&r, &r2, sizeof(r)) && !memcmp(&st, &st2, sizeof(st)), what,
		      "not deterministic");
	}
	/* the references must have been exercised */
	ck_assert_uint_ge(refs, 20);
	ck_assert_uint_ge(weighted, 8);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bw-sweep");
	TCase *tc = tcase_create("sweep");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, sweep);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
