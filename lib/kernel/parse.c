/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Span helpers and the plain number files of cgroupfs.  The buffers come from the
 * kernel (or from a fuzzer): every access is bounded by the span's length.
 */
#include <errno.h>
#include <string.h>

#include "kernel/parse.h"

bool parse_next_line(const char *buf, size_t len, size_t *pos, struct span *line)
{
	const char *nl;

	if (*pos >= len)
		return false;
	line->p = buf + *pos;
	nl = memchr(line->p, '\n', len - *pos);
	line->len = nl ? (size_t)(nl - line->p) : len - *pos;
	*pos += line->len + (nl ? 1 : 0);
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

struct span parse_trim(struct span s)
{
	while (s.len && is_blank(s.p[0])) {
		s.p++;
		s.len--;
	}
	while (s.len && is_blank(s.p[s.len - 1]))
		s.len--;
	return s;
}

bool parse_token(struct span *s, struct span *tok)
{
	size_t i = 0;

	*s = parse_trim(*s);
	if (!s->len)
		return false;
	while (i < s->len && !is_blank(s->p[i]))
		i++;
	tok->p = s->p;
	tok->len = i;
	s->p += i;
	s->len -= i;
	*s = parse_trim(*s);
	return true;
}

bool span_eq(struct span s, const char *str)
{
	return strlen(str) == s.len && memcmp(s.p, str, s.len) == 0;
}

bool span_has_nul(struct span s)
{
	return s.len && memchr(s.p, '\0', s.len) != NULL;
}

int parse_span_u64(struct span s, uint64_t *ret)
{
	uint64_t v = 0;
	size_t i;

	if (!s.len)
		return -EINVAL;
	for (i = 0; i < s.len; i++) {
		unsigned int d = (unsigned char)s.p[i] - '0';

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

int parse_span_s64(struct span s, int64_t *ret)
{
	bool neg = s.len && s.p[0] == '-';
	uint64_t v;
	int r;

	if (neg) {
		s.p++;
		s.len--;
	}
	r = parse_span_u64(s, &v);
	if (r < 0)
		return r;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*ret = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > INT64_MAX)
			return -ERANGE;
		*ret = (int64_t)v;
	}
	return 0;
}

struct span parse_whole(const char *buf, size_t len)
{
	struct span s = { buf, buf ? len : 0 };

	if (s.len && s.p[s.len - 1] == '\n')
		s.len--;
	return s;
}

int parse_mul_u64(uint64_t v, uint64_t mul, uint64_t *ret)
{
	if (mul && v > UINT64_MAX / mul)
		return -ERANGE;
	*ret = v * mul;
	return 0;
}

int cgctl_parse_u64(const char *buf, size_t len, uint64_t *ret)
{
	if ((!buf && len) || !ret)
		return -EINVAL;
	return parse_span_u64(parse_whole(buf, len), ret);
}
