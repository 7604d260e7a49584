/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/bwsim: speed of the CFS bandwidth simulator.
 *
 *   1. the target case: one hour of a 64-CPU, 256-thread group at a 100 ms period
 *      (target: <= 2 s), against a naive per-tick stepping of the same workload
 *      measured in the same run (the baseline);
 *   2. a bursty case (threads sleeping and waking, slack returns, throttling):
 *      simulated events per second of the thread's CPU time, the median of
 *      BURSTY_RUNS runs (target: >= 20 M/s); wall time counts other processes'
 *      turns on a shared machine, CPU time does not.
 *
 * Usage: bwsim [SECONDS_OF_SIMULATED_TIME_FOR_CASE_1]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "libcgctl.h"

#define MS ((uint64_t)1000000)
#define SEC ((uint64_t)1000000000)
#define NCPU 64
#define NTHR 256
#define HZ_TICK (4 * MS)
#define BURSTY_RUNS 5

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct result {
	double wall, cpu;
	int64_t events;
	struct cgctl_bw_stat st;
};

static int simulate(uint64_t dur, uint64_t busy, uint64_t idle, uint64_t quota_us,
		    struct result *r)
{
	struct cgctl_bw_sim_config cfg = {
		.ncpus = NCPU, .duration_ns = dur, .seed = 1,
	};
	struct cgctl_bw_settings bw = { quota_us, 100000, 0 };
	struct cgctl_bw_sim *s;
	double t0;
	int g;

	if (cgctl_bw_sim_new(&s, &cfg) < 0)
		return -1;
	g = cgctl_bw_sim_add_group(s, -1, &bw);
	for (int i = 0; i < NTHR && g >= 0; i++) {
		struct cgctl_bw_thread t = { .group = g, .busy_ns = busy, .idle_ns = idle,
					     .jitter_ppm = busy ? 200000 : 0,
					     .start_ns = (uint64_t)i * 37 * 1000 };

		if (cgctl_bw_sim_add_thread(s, &t) < 0)
			g = -1;
	}
	t0 = now_s();
	r->cpu = cpu_s();
	r->events = g < 0 ? -1 : cgctl_bw_sim_run(s);
	r->cpu = cpu_s() - r->cpu;
	r->wall = now_s() - t0;
	if (r->events >= 0)
		cgctl_bw_sim_stat(s, g, false, &r->st);
	cgctl_bw_sim_free(s);
	return r->events < 0 ? -1 : 0;
}

/*
 * The baseline: step every CPU at every tick (4 threads per CPU, always busy), with
 * the same slice pulls, throttling and refills but none of the event machinery.
 */
static void naive(uint64_t dur, uint64_t quota, struct result *r)
{
	int64_t rem[NCPU] = { 0 };
	int thr[NCPU] = { 0 };
	uint64_t pool = quota, usage = 0, throttled = 0, next_refill = 100 * MS;
	double t0 = now_s();

	r->events = 0;
	for (uint64_t t = HZ_TICK; t <= dur; t += HZ_TICK) {
		for (int c = 0; c < NCPU; c++, r->events++) {
			int64_t want;

			if (thr[c]) {
				throttled += HZ_TICK;
				continue;
			}
			usage += HZ_TICK;
			rem[c] -= HZ_TICK;
			if (rem[c] > 0)
				continue;
			want = 5 * MS - rem[c];
			want = (uint64_t)want < pool ? want : (int64_t)pool;
			pool -= want;
			rem[c] += want;
			thr[c] = rem[c] <= 0;
		}
		if (t < next_refill)
			continue;
		next_refill += 100 * MS;
		pool = quota;
		for (int c = 0; c < NCPU; c++) {
			int64_t give;

			if (!thr[c] || !pool)
				continue;
			give = -rem[c] + 1;
			give = (uint64_t)give < pool ? give : (int64_t)pool;
			pool -= give;
			rem[c] += give;
			thr[c] = rem[c] <= 0;
		}
	}
	r->wall = now_s() - t0;
	r->st.usage_ns = usage;
	r->st.throttled_ns = throttled;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	uint64_t dur = (argc > 1 ? strtoull(argv[1], NULL, 10) : 3600) * SEC;
	struct result sim, base, bursty;
	double cpu[BURSTY_RUNS], rate;
	double ticks = (double)dur / HZ_TICK * NCPU;

	/* 1. the target case: always busy, quota 32 CPUs */
	if (simulate(dur, 0, 0, 3200000, &sim) < 0) {
		fprintf(stderr, "bwsim: simulation failed\n");
		return 1;
	}
	naive(dur, 3200000 * 1000ULL, &base);
	printf("target: %" PRIu64 " s of %d CPUs, %d threads, 100 ms period, quota 32 CPUs\n",
	       (uint64_t)(dur / SEC), NCPU, NTHR);
	printf("  simulator: %.3f s wall, %" PRId64 " events, %.0f CPU-ticks covered "
	       "(%.1f M ticks/s), usage %.1f CPU-s, throttled %.1f CPU-s\n", sim.wall,
	       sim.events, ticks, ticks / sim.wall / 1e6, sim.st.usage_ns / 1e9,
	       sim.st.throttled_ns / 1e9);
	printf("  baseline (naive per-tick stepping): %.3f s wall, %" PRId64 " steps, "
	       "usage %.1f CPU-s, throttled %.1f CPU-s\n", base.wall, base.events,
	       base.st.usage_ns / 1e9, base.st.throttled_ns / 1e9);
	printf("  speed-up vs baseline: %.2fx; vs the 2 s target: %.2fx (%s)\n",
	       base.wall / sim.wall, 2.0 * dur / (3600.0 * SEC) / sim.wall,
	       sim.wall <= 2.0 * dur / (3600.0 * SEC) ? "met" : "MISSED");

	/* 2. bursty: 2 ms busy / 8 ms idle per thread, quota 20 CPUs, 60 s */
	for (int i = 0; i < BURSTY_RUNS; i++) {
		if (simulate(60 * SEC, 2 * MS, 8 * MS, 2000000, &bursty) < 0) {
			fprintf(stderr, "bwsim: simulation failed\n");
			return 1;
		}
		cpu[i] = bursty.cpu;
	}
	qsort(cpu, BURSTY_RUNS, sizeof(cpu[0]), cmp_double);
	rate = bursty.events / cpu[BURSTY_RUNS / 2];
	printf("bursty: 60 s, %d CPUs, %d threads 2 ms busy / 8 ms idle, quota 20 CPUs\n",
	       NCPU, NTHR);
	printf("  %.3f s CPU (median of %d runs, %.3f-%.3f), %" PRId64 " events: "
	       "%.1f M events/s; vs the 20 M/s target: %.2fx (%s); nr_throttled %d of %d "
	       "periods, usage %.3f CPU-s, throttled %.3f CPU-s\n", cpu[BURSTY_RUNS / 2],
	       BURSTY_RUNS, cpu[0], cpu[BURSTY_RUNS - 1], bursty.events, rate / 1e6,
	       rate / 20e6, rate >= 20e6 ? "met" : "MISSED", bursty.st.nr_throttled,
	       bursty.st.nr_periods, bursty.st.usage_ns / 1e9, bursty.st.throttled_ns / 1e9);
	return 0;
}
