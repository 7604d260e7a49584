/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The bandwidth simulator's results, to compare byte for byte before and after a change
 * of its speed (issue 30): COUNT random cases drawn from a fixed generator (default 200;
 * quota, period, burst, CPUs, threads, busy/idle, jitter, kernel era, other load,
 * account_ns, two levels, CFS weights and a background), each replayed through
 * cgctl_bw_replay() (the door `bw predict`, `bw recommend`, `move` and validate use), one
 * line per case: its draw, then every cpu.stat field at the end, once settled, the
 * parent's, and a hash of the recorded periods.  tests/cli/bw-identity.sh compares the
 * lines with tests/cli/bw-identity.expected, made by the simulator before the change.
 *
 * Usage: bw-identity [COUNT]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"

#define MS 1000000ULL

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/* splitmix64: fixed, independent of the library's generator */
static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t pick(uint64_t lo, uint64_t hi)	/* [lo, hi] */
{
	return lo + next() % (hi - lo + 1);
}

static void print_stat(const char *tag, const struct cgctl_bw_stat *st)
{
	printf(" %s=%" PRId32 ",%" PRId32 ",%" PRId32 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
	       ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, tag, st->nr_periods, st->nr_throttled,
	       st->nr_bursts, st->throttled_ns, st->throttled_local_ns, st->burst_ns,
	       st->usage_ns, st->wait_ns, st->delay_ns);
}

static const uint32_t kvers[] = {
	CGCTL_KVER(4, 19, 0), CGCTL_KVER(5, 4, 0), CGCTL_KVER(5, 15, 0), CGCTL_KVER(6, 1, 0),
	CGCTL_KVER(6, 6, 0), CGCTL_KVER(6, 12, 0), CGCTL_KVER(6, 18, 0),
};

static int one_case(int i)
{
	struct cgctl_bw_settings lv[2];
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_replay_spec sp = { .size = sizeof(sp), .levels = lv };
	struct cgctl_error e = CGCTL_ERROR_INIT;
	uint64_t h = 1469598103934665603ULL;
	unsigned int nl = pick(0, 3) ? 1 : 2;
	int r;

	for (unsigned int l = 0; l < nl; l++) {
		lv[l].size = sizeof(lv[l]);
		lv[l].period_us = pick(1, 20) * 10000;
		lv[l].quota_us = pick(0, 5) ? lv[l].period_us * pick(10, 400) / 100 : CGCTL_BW_INF;
		lv[l].burst_us = lv[l].quota_us != CGCTL_BW_INF && !pick(0, 3) ?
				 lv[l].quota_us / pick(1, 4) : 0;
	}
	sp.nlevels = nl;
	sp.kver = kvers[pick(0, sizeof(kvers) / sizeof(kvers[0]) - 1)];
	sp.ncpus = (unsigned int)pick(1, 64);
	sp.seed = pick(1, 1000);
	sp.duration_ns = pick(200, 5000) * MS;
	sp.threads = (unsigned int)pick(1, 256);
	if (pick(0, 4)) {
		sp.busy_ns = pick(1, 30000) * 1000;
		sp.idle_ns = pick(0, 30000) * 1000;
		sp.jitter_ppm = pick(0, 1) ? (uint32_t)pick(0, 500000) : 0;
	}
	sp.other_load_ppm = !pick(0, 4) ? (uint32_t)pick(0, 500000) : 0;
	sp.account_ns = !pick(0, 5) ? pick(100, 5000) * 1000 : 0;
	if (!pick(0, 4)) {
		sp.shares = (uint32_t)pick(2, 4096);
		sp.bg_threads = (unsigned int)pick(0, 8);
		sp.bg_shares = (uint32_t)pick(2, 4096);
	}
	sp.record_periods = true;
	printf("%d kver=%" PRIx32 " cpus=%u seed=%" PRIu64 " dur=%" PRIu64 " thr=%u busy=%"
	       PRIu64 " idle=%" PRIu64 " jit=%" PRIu32 " other=%" PRIu32 " acct=%" PRIu64
	       " shares=%" PRIu32 "/%u/%" PRIu32, i, sp.kver, sp.ncpus, sp.seed,
	       sp.duration_ns, sp.threads, sp.busy_ns, sp.idle_ns, sp.jitter_ppm,
	       sp.other_load_ppm, sp.account_ns, sp.shares, sp.bg_threads, sp.bg_shares);
	for (unsigned int l = 0; l < nl; l++)
		printf(" L%u=%" PRIu64 "/%" PRIu64 "/%" PRIu64, l, lv[l].quota_us,
		       lv[l].period_us, lv[l].burst_us);
	r = cgctl_bw_replay(&sp, &res, &e);
	if (r < 0) {
		printf(" error=%d\n", r);
		return 0;
	}
	print_stat("st", &res.st);
	print_stat("settled", &res.settled);
	if (nl > 1)
		print_stat("parent", &res.parent_settled);
	for (size_t p = 0; p < res.nperiods; p++) {
		const struct cgctl_bw_period *pd = &res.periods[p];
		uint64_t v[5] = { pd->end_ns, pd->used_ns, pd->throttled_ns, pd->credit_ns,
				  (uint64_t)pd->counted << 1 | pd->throttled };

		for (int k = 0; k < 5; k++)
			h = (h ^ v[k]) * 1099511628211ULL;
	}
	printf(" periods=%zu/%016" PRIx64 " worst=%" PRIu64 "\n", res.nperiods, h,
	       res.worst_period_ns);
	cgctl_bw_replay_result_free(&res);
	return 0;
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 200;

	for (int i = 0; i < count; i++)
		one_case(i);
	return 0;
}
