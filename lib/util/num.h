/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Rounding a non-negative double to an integer without llround()'s overflow cases.
 */
#ifndef CGCTL_UTIL_NUM_H
#define CGCTL_UTIL_NUM_H

#include <stdint.h>

/* @x >= 0 rounded to the nearest integer, halves away from zero (llround() for
 * non-negative values below 2^63); 0 for anything else. */
static inline uint64_t num_round_u64(double x)
{
	uint64_t i;

	if (!(x > 0))
		return 0;
	if (x >= 9.2e18)
		return UINT64_MAX;
	i = (uint64_t)x;
	return x - (double)i >= 0.5 ? i + 1 : i;
}

/* splitmix64: small, seedable, and good enough for the models' and sweeps' draws; one
 * state advances one step per call */
static inline uint64_t cgctl_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
