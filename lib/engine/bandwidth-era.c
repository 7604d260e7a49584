/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth across kernel eras: the one table that says which kernel has which
 * bandwidth behaviour or interface file.  The simulator, `bw set`/`bw show`, the move
 * throttling prediction and validate all ask it (cgctl_bw_era_has()); no version
 * literal about bandwidth lives anywhere else.
 */
#include "internal.h"
#include "engine/bandwidth.h"

static const struct {
	uint32_t since, until;	/* has the feature for since <= kver < until (0: open) */
	const char *what;
} era[CGCTL_BW_FEAT_COUNT] = {
	/* expire_cfs_rq_runtime(): per-CPU runtime expired with the period until
	 * de53fd7aedb1 ("sched/fair: Fix low cpu usage with high throttling by removing
	 * expiration of cpu-local slices"), v5.4 */
	[CGCTL_BW_FEAT_EXPIRE] = { 0, CGCTL_KVER(5, 4, 0), "per-CPU runtime expiry" },
	/* f4183717b370 ("sched/fair: Introduce the burstable CFS controller"), v5.14:
	 * cpu.cfs_burst_us and cpu.max.burst, tg_set_cfs_bandwidth(..., burst) */
	[CGCTL_BW_FEAT_BURST] = { CGCTL_KVER(5, 14, 0), 0, "CFS burst" },
	/* bcb1704a1ed2 ("sched/fair: Add cfs bandwidth burst statistics"), v5.16:
	 * nr_bursts and burst_time (v1) / burst_usec (v2) in cpu.stat */
	[CGCTL_BW_FEAT_BURST_STATS] = { CGCTL_KVER(5, 16, 0), 0, "burst statistics" },
	/* start_cfs_bandwidth(): the period timer's phase follows the first wakeup */
	[CGCTL_BW_FEAT_RANDOM_PHASE] = { CGCTL_KVER(6, 4, 0), 0, "period timer phase" },
	/* throttle_cfs_rq(): an empty cfs_rq is not throttled (6.6) */
	[CGCTL_BW_FEAT_EMPTY_RULE] = { CGCTL_KVER(6, 6, 0), 0, "empty cfs_rq rule" },
	/* cpu.stat.local throttled_time/throttled_usec, throttled_clock_self (6.6) */
	[CGCTL_BW_FEAT_LOCAL_STAT] = { CGCTL_KVER(6, 6, 0), 0, "cpu.stat.local" },
	/* task-based throttle: throttled at return to user (6.18) */
	[CGCTL_BW_FEAT_TASK_THROTTLE] = { CGCTL_KVER(6, 18, 0), 0, "task-based throttling" },
	/* 147f3efaa241 ("sched/fair: Implement an EEVDF-like scheduling policy") and
	 * 86bfbb7ce4f6 ("sched/fair: Add lag based placement"), v6.6: place_entity() keeps
	 * the lag; before, a sleeper got up to sysctl_sched_latency / 2 of credit */
	[CGCTL_BW_FEAT_EEVDF] = { CGCTL_KVER(6, 6, 0), 0, "EEVDF placement" },
	/* 152e11f6df29 ("sched/fair: Implement delayed dequeue"), v6.12: an ineligible
	 * sleeper stays queued until its lag is paid, then leaves with it clipped to 0
	 * (DELAY_ZERO, finish_delayed_dequeue_entity()); before, it kept its negative lag
	 * through the sleep (update_entity_lag(), place_entity()) */
	[CGCTL_BW_FEAT_DELAY_DEQUEUE] = { CGCTL_KVER(6, 12, 0), 0, "delayed dequeue" },
};

CGCTL_EXPORT bool cgctl_bw_era_has(uint32_t kver, enum cgctl_bw_feature f)
{
	if ((unsigned int)f >= CGCTL_BW_FEAT_COUNT)
		return false;
	return kver >= era[f].since && (!era[f].until || kver < era[f].until);
}

CGCTL_EXPORT uint32_t cgctl_bw_era_since(enum cgctl_bw_feature f)
{
	if ((unsigned int)f >= CGCTL_BW_FEAT_COUNT)
		return 0;
	return era[f].until ? era[f].until : era[f].since;
}

const char *cgctl_bw_era_what(enum cgctl_bw_feature f)
{
	if ((unsigned int)f >= CGCTL_BW_FEAT_COUNT)
		return "unknown";
	return era[f].what;
}
