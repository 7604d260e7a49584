/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The canonical replay of tests/cli/bw-replay-doors.sh: one always-busy thread for
 * DURATION_MS under QUOTA_US/PERIOD_US/BURST_US on NCPUS at kernel 6.1, seed 1, what
 * cpu.stat reads once quiet, as "nr_periods nr_throttled throttled_usec usage_usec".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "libcgctl.h"

int main(int argc, char **argv)
{
	struct cgctl_bw_settings bw;
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_replay_spec sp = {
		.size = sizeof(sp), .kver = CGCTL_KVER(6, 1, 0), .levels = &bw,
		.nlevels = 1, .threads = 1,
	};

	if (argc != 6) {
		fprintf(stderr, "usage: %s QUOTA_US PERIOD_US BURST_US NCPUS DURATION_MS\n",
			argv[0]);
		return 2;
	}
	bw = CGCTL_BW_SETTINGS(strtoull(argv[1], NULL, 10), strtoull(argv[2], NULL, 10), strtoull(argv[3], NULL, 10));
	sp.ncpus = (unsigned int)strtoul(argv[4], NULL, 10);
	sp.duration_ns = strtoull(argv[5], NULL, 10) * 1000000ULL;
	if (cgctl_bw_replay(&sp, &res, NULL) < 0)
		return 1;
	printf("%" PRId32 " %" PRId32 " %" PRIu64 " %" PRIu64 "\n", res.settled.nr_periods,
	       res.settled.nr_throttled, res.settled.throttled_ns / 1000,
	       res.settled.usage_ns / 1000);
	return 0;
}
