/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Context-switch recording with perf_event_open (lib/kernel/perf-record.c). */
#ifndef CGCTL_KERNEL_PERF_H
#define CGCTL_KERNEL_PERF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"

struct perf_ring {
	int fd;			/* the CPU's first event: owns the buffer */
	void *base;
	size_t len;
};

struct perf_rec {
	unsigned int ncpus, pages;
	struct perf_ring *ring;		/* one per CPU */
	int *fds;			/* every other event (output redirected to a ring) */
	size_t nfds, capfds;
	pid_t *tids;			/* tasks opened so far (sorted) */
	size_t ntids, captids;
	struct cgctl_bw_switch *sw;	/* records read so far */
	size_t nsw, capsw;
	uint64_t lost, switches;
	long live;			/* recorded tasks alive: opened + forks - exits */
	int err;			/* -ENOMEM while reading */
	char scratch[65536];		/* a record that wraps around the buffer's end */
};

/* Returns: 0, -ENOMEM. */
int perf_rec_init(struct perf_rec *pr, unsigned int pages);
/* Open the events of @tid on every CPU (inherit: its future children too); a task
 * already opened is skipped.  Returns: 0, -ESRCH (gone), -EACCES with @e, -errno. */
int perf_rec_add_task(struct perf_rec *pr, pid_t tid, struct cgctl_error *e);
/* Open every thread of process @pid, re-reading /proc/PID/task until no new one appears.
 * Returns: the number of threads opened (> 0), -ESRCH, -EACCES, -errno. */
int perf_rec_add_process(struct perf_rec *pr, pid_t pid, struct cgctl_error *e);
/* Wait up to @timeout_ms for data, then drain every ring buffer.  Returns: 0, -errno. */
int perf_rec_poll(struct perf_rec *pr, int timeout_ms);
void perf_rec_close(struct perf_rec *pr);
/* The threads of thread group @pid (/proc/PID/task), appended to *tids (realloc'd, *n
 * counted).  Returns: the number added (>= 0), -ESRCH (gone), -ENOMEM. */
int perf_task_threads(pid_t pid, pid_t **tids, size_t *n);
/* On-CPU time of @tid (/proc/TID/schedstat).  Returns: 0, -errno. */
int perf_task_oncpu(pid_t tid, uint64_t *ns);
/* Parse one ring-buffer record (exposed for tests).  Returns: 1 if it was one we keep
 * (*sw filled), 0 if skipped; adds PERF_RECORD_LOST counts to pr->lost. */
int perf_rec_parse(struct perf_rec *pr, const void *rec, size_t size,
		   struct cgctl_bw_switch *sw);

#endif
