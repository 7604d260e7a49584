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

#endif
