/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth model: the workload side.  Threads are always busy, cycle between a
 * busy phase (CPU time to consume) and an idle phase (wall time asleep), optionally
 * jittered from the simulation's seeded generator, or follow a parsed trace.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"

/* @v scaled by 1 + u, u uniform in [-ppm, +ppm] parts per million. */
uint64_t bw_jitter(uint64_t *state, uint64_t v, uint32_t ppm)
{
	int64_t r;

	if (!ppm || !v)
		return v;
	ppm = MIN(ppm, BW_CAP_ONE);
	r = (int64_t)(bw_rand(state) % (2 * (uint64_t)ppm + 1)) - ppm;
	return bw_jitter_scale(v, r);
}

/*
 * The divider of libdivide's libdivide_u64_gen(): magic = floor(2^(64 + l) / d) + 1 with
 * l = floor(log2 d) when that is within 2^l of exact, else the 65-bit multiplier
 * 2 floor(2^(64 + l) / d) + 1 (its top bit implicit) and the add-and-halve step.
 */
void bw_divu64_init(struct bw_divu64 *d, uint64_t div)
{
	unsigned int l = 63 - __builtin_clzll(div | 1);
	unsigned __int128 num = (unsigned __int128)1 << (64 + l);
	uint64_t m, rem, twice;

	d->shift = l;
	d->add = false;
	d->magic = 0;
	if (!(div & (div - 1)))
		return;		/* 1 or a power of 2 */
	m = (uint64_t)(num / div);
	rem = (uint64_t)(num - (unsigned __int128)m * div);
	if (div - rem >= (1ULL << l)) {
		twice = rem + rem;
		m += m;
		if (twice >= div || twice < rem)
			m++;
		d->add = true;
	}
	d->magic = m + 1;
}

void bw_thread_jitter_init(struct bw_thread *t)
{
	bw_divu64_init(&t->jdiv, 2 * (uint64_t)t->ppm + 1);
}
