/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where the bandwidth scenarios' threads ran, told to the model (drv-bw-place.c). */
#ifndef CGCTL_VALIDATE_DRV_BW_PLACE_H
#define CGCTL_VALIDATE_DRV_BW_PLACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcgctl.h"
#include "validate/validate.h"

#define BWP_MAX_THREADS 130
#define BWP_MAX_EVENTS 2048

struct bwp_ev {
	uint64_t at;		/* ns after "go" */
	int thread, cpu;
};

struct bw_place {
	int nthr;
	bool seen[BWP_MAX_THREADS];	/* a thread's first place is where it starts */
	struct bwp_ev ev[BWP_MAX_EVENTS];
	size_t nev;
	uint64_t t0;			/* "go" (CLOCK_MONOTONIC) */
	bool ok;			/* all said: the model is told */
};

/* Nothing known yet of @bg_threads + @threads threads released at @t_go. */
void bwp_init(struct bw_place *pl, unsigned int bg_threads, unsigned int threads,
	      uint64_t t_go);
/* vwork_expect() of the workload's "done" (into @line), keeping its "place" lines.
 * Returns: as vwork_expect(). */
int bwp_wait(struct vrun *run, struct bw_place *pl, unsigned int bg_threads,
	     struct vwork *w, char *line, size_t linelen, unsigned int timeout_ms,
	     char *reason, size_t len);
/* Ask the background load where its threads ran (pl->ok false if it does not say). */
void bwp_where(struct vrun *run, struct bw_place *pl, struct vwork *bg);
void bwp_describe(const struct bw_place *pl, unsigned int bg_threads, char *buf,
		  size_t len);

#endif
