/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/bwsim: speed of the CFS bandwidth simulator on issue 30's two cases, through
 * the door users use (cgctl_bw_replay(), as `cgctl bw predict --threads 256
 * --online-cpus 64 --cpus 32 --duration 1h` calls it: 256 alike threads, the newest
 * era, seed 1, the settled cpu.stat):
 *
 *   busy:   one hour, 64 CPUs, 256 always-busy threads, quota 32 CPUs / 100 ms
 *           (target: <= 0.5 s);
 *   bursty: the same with each thread 3 ms busy / 5 ms idle (target: <= 2 s).
 *
 * Usage: bwsim busy|bursty [SECONDS_SIMULATED]
 * Prints one line: the case, the CPU time of the replay (thread CPU time: on a shared
 * machine wall time counts other processes' turns), the simulator's events and the
 * settled cpu.stat, so that bench/bwsim.sh can run this against a baseline library
 * (LD_LIBRARY_PATH) interleaved, take medians, and check that both give the same
 * cpu.stat.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libcgctl.h"

#define MS ((uint64_t)1000000)
#define SEC ((uint64_t)1000000000)
#define NCPU 64
#define NTHR 256

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(32 * 100000, 100000, 0);
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_replay_spec sp = {
		.size = sizeof(sp), .ncpus = NCPU, .seed = 1, .levels = &bw, .nlevels = 1,
		.threads = NTHR,
	};
	struct cgctl_error e = CGCTL_ERROR_INIT;
	bool bursty;
	double t0;
	int r;

	if (argc < 2 || (strcmp(argv[1], "busy") && strcmp(argv[1], "bursty"))) {
		fprintf(stderr, "usage: %s busy|bursty [SECONDS]\n", argv[0]);
		return 2;
	}
	bursty = !strcmp(argv[1], "bursty");
	sp.duration_ns = (argc > 2 ? strtoull(argv[2], NULL, 10) : 3600) * SEC;
	sp.busy_ns = bursty ? 3 * MS : 0;	/* as cmd-bw-predict.c's simulate() */
	sp.idle_ns = bursty ? 5 * MS : 0;
	t0 = cpu_s();
	r = cgctl_bw_replay(&sp, &res, &e);
	t0 = cpu_s() - t0;
	if (r < 0) {
		fprintf(stderr, "bwsim: replay: %s\n", e.msg);
		return 1;
	}
	printf("%s %.4f nr_periods=%" PRId32 " nr_throttled=%" PRId32 " throttled_ns=%" PRIu64
	       " usage_ns=%" PRIu64 " wait_ns=%" PRIu64 " delay_ns=%" PRIu64 "\n", argv[1], t0,
	       res.settled.nr_periods, res.settled.nr_throttled, res.settled.throttled_ns,
	       res.settled.usage_ns, res.settled.wait_ns, res.settled.delay_ns);
	cgctl_bw_replay_result_free(&res);
	return 0;
}
