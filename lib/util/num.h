/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The two pieces of libm cgctl needs, without linking libm: every `cgctl move` is a
 * process start, and each shared library it loads costs about 0.2 ms of mapping and
 * relocation here (bench/move: one PID against cgclassify).
 */
#ifndef CGCTL_UTIL_NUM_H
#define CGCTL_UTIL_NUM_H

#include <stdint.h>
#include <string.h>

/* Square root of @x >= 0 (0 for negative values and NaN).  x86-64: the SSE2
 * instruction, correctly rounded like libm; elsewhere Newton's iteration from an
 * exponent-halving guess, within one ulp. */
static inline double num_sqrt(double x)
{
	double r;

	if (!(x > 0))
		return 0;
#if defined(__x86_64__)
	__asm__("sqrtsd %1, %0" : "=x"(r) : "x"(x));
#else
	uint64_t u;
	double prev;

	if (x > 1.7e308)
		return x;
	memcpy(&u, &x, sizeof(u));
	u = (u >> 1) + (UINT64_C(0x3ff) << 51);	/* halve the exponent */
	memcpy(&r, &u, sizeof(r));
	for (int i = 0; i < 64; i++) {
		prev = r;
		r = 0.5 * (r + x / r);
		if (r == prev)
			break;
	}
#endif
	return r;
}

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
