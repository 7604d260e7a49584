/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal helpers of the control-file parsers (lib/kernel/parse*.c).  Everything works
 * on (pointer, length) spans of a caller's buffer and never reads past the length.
 */
#ifndef CGCTL_KERNEL_PARSE_H
#define CGCTL_KERNEL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libcgctl.h"

/* A span of a buffer; not NUL-terminated. */
struct span {
	const char *p;
	size_t len;
};

/* Advance *pos to the next line of buf[0..len): sets *line (without the '\n').
 * Returns: false at the end of the buffer. */
bool parse_next_line(const char *buf, size_t len, size_t *pos, struct span *line);
/* @s without leading and trailing blanks (' ', '\t'). */
struct span parse_trim(struct span s);
/* Split off the first blank-separated token of *s; *s becomes the rest (blanks
 * skipped).  Returns: false when *s holds no token. */
bool parse_token(struct span *s, struct span *tok);
/* True if the span equals the NUL-terminated @str. */
bool span_eq(struct span s, const char *str);
/* True if @s contains a NUL byte (never valid in a control file's text). */
bool span_has_nul(struct span s);

/* Strict decimal: digits only ("-" first for s64), no blanks, no '+', no empty.
 * Returns: 0, -EINVAL, -ERANGE. */
int parse_span_u64(struct span s, uint64_t *ret);
int parse_span_s64(struct span s, int64_t *ret);
/* The whole buffer as one value: trailing '\n' allowed, nothing else.  */
struct span parse_whole(const char *buf, size_t len);

/* *v * mul with overflow check.  Returns: 0 or -ERANGE. */
int parse_mul_u64(uint64_t v, uint64_t mul, uint64_t *ret);

#endif
