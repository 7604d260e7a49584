/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

void strbuf_init(struct strbuf *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

static int strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need, size;
	char *p;

	if (sb->oom)
		return -ENOMEM;
	need = sb->len + extra + 1;
	if (need <= sb->size)
		return 0;
	size = sb->size ? sb->size : 64;
	while (size < need)
		size *= 2;
	p = realloc(sb->buf, size);
	if (!p) {
		sb->oom = true;
		return -ENOMEM;
	}
	sb->buf = p;
	sb->size = size;
	return 0;
}

int strbuf_putn(struct strbuf *sb, const char *s, size_t n)
{
	if (strbuf_grow(sb, n) < 0)
		return -ENOMEM;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_puts(struct strbuf *sb, const char *s)
{
	return strbuf_putn(sb, s, strlen(s));
}

int strbuf_putc(struct strbuf *sb, char c)
{
	return strbuf_putn(sb, &c, 1);
}

int strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || strbuf_grow(sb, (size_t)n) < 0)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
	return 0;
}

const char *strbuf_str(struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *strbuf_steal(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : strdup("");

	strbuf_init(sb);
	return p;
}

int strbuf_error(const struct strbuf *sb)
{
	return sb->oom ? -ENOMEM : 0;
}

size_t fmt_u64(char *buf, uint64_t v)
{
	char tmp[20], *p = tmp + sizeof(tmp);
	size_t n;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(buf, p, n);
	return n;
}

int strbuf_put_u64(struct strbuf *sb, uint64_t v)
{
	char buf[20];

	return strbuf_putn(sb, buf, fmt_u64(buf, v));
}

int strbuf_put_i64(struct strbuf *sb, int64_t v)
{
	if (v >= 0)
		return strbuf_put_u64(sb, (uint64_t)v);
	if (strbuf_putc(sb, '-') < 0)
		return -ENOMEM;
	return strbuf_put_u64(sb, -(uint64_t)v);
}

int strbuf_put_double(struct strbuf *sb, double v)
{
	char buf[64];

	if (!isfinite(v))
		return -EINVAL;
	if (v == (double)(long long)v && fabs(v) < 1e15)
		return strbuf_put_i64(sb, (int64_t)v);
	/* the shortest precision that round-trips; 17 always does */
	for (int prec = 6; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (prec == 17 || strtod(buf, NULL) == v)
			break;
	}
	return strbuf_puts(sb, buf);
}
