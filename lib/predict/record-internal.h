/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inside bw record (lib/predict/record*.c). */
#ifndef CGCTL_PREDICT_RECORD_INTERNAL_H
#define CGCTL_PREDICT_RECORD_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"

/* The limited cgroups whose throttling can hold the recorded tasks back
 * (lib/predict/record-throttle.c). */
struct rec_watch {
	const struct cgctl_mount *m;
	char **path;			/* cgroups with a finite quota */
	uint64_t *nr, *ns;		/* their nr_throttled, throttled_ns at the last poll */
	size_t n;
	bool known;			/* false: cannot tell, every runnable time is demand */
	uint64_t prev, last;		/* the two last polls (CLOCK_MONOTONIC) */
	uint64_t *win;			/* from, to pairs of throttled windows */
	size_t nwin, capwin;
};

/* Returns: 0, -ENOMEM. */
int rec_watch_init(struct cgctl_ctx *ctx, struct rec_watch *w, const char *cgroup,
		   const pid_t *pids, size_t npids, uint64_t now);
/* Read the watched cpu.stat files; mark [previous poll, @now) if one was throttled.
 * Returns: 0, -ENOMEM. */
int rec_watch_poll(struct cgctl_ctx *ctx, struct rec_watch *w, uint64_t now);
/* Hand the windows to the demand (nothing if unknown).  Returns: 0, -ENOMEM. */
int rec_watch_apply(const struct rec_watch *w, struct cgctl_bw_demand *d);
void rec_watch_free(struct rec_watch *w);

/*
 * rec_record: cgctl_bw_record, and with @res_only also a second trace of the same
 * recording holding only the threads in @only (sorted TIDs).
 * Returns: as cgctl_bw_record.
 */
int rec_record(struct cgctl_ctx *ctx, const struct cgctl_bw_record_opts *o,
	       const pid_t *only, size_t nonly, struct cgctl_bw_record_result *res,
	       struct cgctl_bw_record_result *res_only, struct cgctl_error *e);

/* Append @ns of busy (or idle) time to a trace thread, joined to the phase before when
 * it continues it (lib/predict/record-trace.c).  Returns: 0, -ENOMEM. */
struct bw_trace_thread;
int bw_trace_add_interval(struct bw_trace_thread *tt, bool busy, uint64_t ns);

#endif
