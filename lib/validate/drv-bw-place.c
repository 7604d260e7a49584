/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where the kernel ran the bandwidth scenarios' threads, reported beside the verdict
 * (lib/engine/bandwidth-place.c says why the model cannot predict it).  It is not told
 * to the model: the verdict is on the replay users get (cgctl_bw_replay()), whose
 * threads are placed by the model's own rule.  The workers log it themselves
 * (cgctl-workload's "place" lines: each change of sched_getcpu(), timestamped): a
 * sampler in this process is no substitute, since the scratch groups' weight starves it
 * (tried: /proc/PID/task/TID/stat every 5 ms got 13 to 32 samples in 800 ms, the first
 * one after the balancer had moved a thread).  Threads
 * are numbered the background load's first, then the workload's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "validate/validate.h"
#include "validate/drv-bw-place.h"

void bwp_init(struct bw_place *pl, unsigned int bg_threads, unsigned int threads,
	      uint64_t t_go)
{
	memset(pl, 0, sizeof(*pl));
	pl->nthr = (int)MIN(bg_threads + threads, (unsigned int)BWP_MAX_THREADS);
	pl->t0 = t_go;
	pl->ok = bg_threads + threads <= BWP_MAX_THREADS;
}

/* "place I AT_NS CPU" of the thread @first + I. */
static void place_line(struct vrun *run, struct bw_place *pl, const char *line, int first)
{
	unsigned long long at;
	int i, cpu;

	if (sscanf(line, "place %d %llu %d", &i, &at, &cpu) != 3 || i < 0 ||
	    first + i >= pl->nthr || cpu < 0 || cpu >= (int)run->ncpu ||
	    pl->nev == BWP_MAX_EVENTS) {
		pl->ok = false;	/* not what we asked: the model's own rule */
		return;
	}
	if (!pl->seen[first + i] || at < pl->t0)
		at = pl->t0;
	pl->seen[first + i] = true;
	pl->ev[pl->nev++] = (struct bwp_ev){ at - pl->t0, first + i, cpu };
}

/* Lines of @w until one starting with @word (copied to @line); "place" lines are kept. */
static int read_places(struct vrun *run, struct bw_place *pl, struct vwork *w, int first,
		       const char *word, char *line, size_t linelen, unsigned int ms,
		       char *reason, size_t len)
{
	for (;;) {
		int err = vwork_expect(run, w, "", line, linelen, ms, reason, len);

		if (err < 0)
			return err;
		if (strncmp(line, word, strlen(word)) == 0)
			return 0;
		if (strncmp(line, "place ", 6) == 0)
			place_line(run, pl, line, first);
	}
}

int bwp_wait(struct vrun *run, struct bw_place *pl, unsigned int bg_threads,
	     struct vwork *w, char *line, size_t linelen, unsigned int timeout_ms,
	     char *reason, size_t len)
{
	return read_places(run, pl, w, (int)bg_threads, "done", line, linelen, timeout_ms,
			   reason, len);
}

void bwp_where(struct vrun *run, struct bw_place *pl, struct vwork *bg)
{
	char line[256], reason[VREASON_LEN];

	if (vwork_send(bg, "where\n") < 0 ||
	    read_places(run, pl, bg, 0, "where-end", line, sizeof(line), 3000, reason,
			sizeof(reason)) < 0)
		pl->ok = false;
}

/* "measured: CPUs at the start 0,1 | 1,1 (...); 1 move +99ms #2->0" */
void bwp_describe(const struct bw_place *pl, unsigned int bg_threads, char *buf,
		  size_t len)
{
	int start[BWP_MAX_THREADS], moves = 0;
	size_t o = 0, i;

	if (!pl->ok || !pl->nev) {
		snprintf(buf, len, "not known (a workload did not say)");
		return;
	}
	for (int t = 0; t < pl->nthr; t++)
		start[t] = -1;
	for (i = 0; i < pl->nev; i++)
		if (!pl->ev[i].at)
			start[pl->ev[i].thread] = pl->ev[i].cpu;
		else
			moves++;
	o += (size_t)snprintf(buf, len, "measured: CPUs at the start");
	for (int t = 0; t < pl->nthr && o < len; t++) {
		const char *sep = !t ? " " : (unsigned int)t == bg_threads ? " | " : ",";

		o += (size_t)snprintf(buf + o, len - o, "%s%d", sep, start[t]);
	}
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s; %d move%s",
				      bg_threads ? " (background | workload)" : "", moves,
				      moves == 1 ? "" : "s");
	for (i = 0; i < pl->nev && o < len; i++)
		if (pl->ev[i].at)
			o += (size_t)snprintf(buf + o, len - o, " +%llums #%d->%d",
					      (unsigned long long)(pl->ev[i].at / 1000000),
					      pl->ev[i].thread, pl->ev[i].cpu);
}
