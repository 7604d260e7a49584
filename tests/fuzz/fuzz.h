/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers shared by the libFuzzer harnesses (tests/fuzz/fuzz-*.c). */
#ifndef CGCTL_FUZZ_H
#define CGCTL_FUZZ_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant of the code under test: a failure is a finding, so crash loudly. */
#define FUZZ_CHECK(cond)                                                              \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__,    \
				__LINE__, #cond);                                     \
			abort();                                                      \
		}                                                                     \
	} while (0)

/* @data as a NUL-terminated string (cut at the first NUL); NULL when out of memory. */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* True for the return values a parser documents. */
static inline bool fuzz_errno_ok(int r, int a, int b, int c)
{
	return r == 0 || r == a || r == b || r == c;
}

/* Within the rounding of a human format with two decimals (0.5%, plus one unit). */
static inline bool fuzz_near(uint64_t a, uint64_t b)
{
	long double d = (long double)a - (long double)b;

	if (d < 0)
		d = -d;
	return d <= (long double)b * 0.005L + 1;
}

#endif
