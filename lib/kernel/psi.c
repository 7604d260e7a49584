/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pressure stall information of a cgroup v2 group (memory.pressure, cpu.pressure,
 * io.pressure), as kernel/sched/psi.c's psi_show() prints it:
 *
 *	some avg10=%lu.%02lu avg60=%lu.%02lu avg300=%lu.%02lu total=%llu
 *	full avg10=...
 *
 * avgN are percentages with two decimals (kept here in hundredths, so no float ever
 * rounds them), total is microseconds stalled.  cpu.pressure has no "full" line before
 * 5.13 (psi_show() skipped it for PSI_CPU); cgroup v1 hierarchies have no pressure files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* "12.34" (at most two decimals, as psi_show() prints) -> 1234 */
static int parse_centi(const char *s, size_t n, uint32_t *ret)
{
	uint64_t v = 0;
	size_t i = 0, dec = 0;
	bool dot = false;

	if (!n)
		return -EINVAL;
	for (; i < n; i++) {
		if (s[i] == '.' && !dot && i > 0) {
			dot = true;
			continue;
		}
		if (s[i] < '0' || s[i] > '9' || (dot && ++dec > 2))
			return -EINVAL;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > UINT32_MAX / 100)
			return -ERANGE;
	}
	if (dot && !dec)
		return -EINVAL;
	while (dec++ < 2)
		v *= 10;
	*ret = (uint32_t)v;
	return 0;
}

static int parse_u64(const char *s, size_t n, uint64_t *ret)
{
	uint64_t v = 0;

	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*ret = v;
	return 0;
}

/* One "some ..." or "full ..." line of @n bytes (no newline). */
static int parse_line(const char *s, size_t n, struct cgctl_psi *p)
{
	static const char *const keys[] = { "avg10=", "avg60=", "avg300=", "total=" };
	struct cgctl_psi_line l = { .present = true };
	struct cgctl_psi_line *dst;
	size_t pos = 5, k;
	int r;

	if (n >= 5 && !memcmp(s, "some ", 5))
		dst = &p->some;
	else if (n >= 5 && !memcmp(s, "full ", 5))
		dst = &p->full;
	else
		return -EINVAL;
	if (dst->present)
		return -EINVAL;	/* a line twice */
	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		size_t kl = strlen(keys[k]), end;

		if (n - pos < kl || memcmp(s + pos, keys[k], kl))
			return -EINVAL;
		pos += kl;
		for (end = pos; end < n && s[end] != ' '; end++)
			;
		if (k < 3) {
			uint32_t *avg[] = { &l.avg10, &l.avg60, &l.avg300 };

			r = parse_centi(s + pos, end - pos, avg[k]);
		} else {
			r = parse_u64(s + pos, end - pos, &l.total_us);
		}
		if (r < 0)
			return r;
		pos = end;
		if (k < 3) {
			if (pos >= n)
				return -EINVAL;
			pos++;	/* the blank */
		}
	}
	if (pos != n)
		return -EINVAL;
	*dst = l;
	return 0;
}

int cgctl_psi_parse(const char *buf, size_t len, struct cgctl_psi *ret)
{
	struct cgctl_psi p = { .some = { .present = false } };
	size_t pos = 0;
	int r;

	if ((!buf && len) || !ret)
		return -EINVAL;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		if (n) {
			r = parse_line(buf + pos, n, &p);
			if (r < 0)
				return r;
		}
		pos += n + 1;
	}
	if (!p.some.present)
		return -EINVAL;
	*ret = p;
	return 0;
}

int cgctl_psi_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				const char *path, const char *file, struct cgctl_psi *ret)
{
	char *buf = NULL;
	size_t len;
	int r;

	if (!ctx || !m || !path || !file || !ret)
		return -EINVAL;
	if (m->version != 2)
		return -EOPNOTSUPP;	/* pressure files exist on cgroup v2 only */
	r = cgctl_cg_read(ctx, m, path, file, &buf, &len);
	if (r < 0)
		return r;
	r = cgctl_psi_parse(buf, len, ret);
	free(buf);
	return r;
}
