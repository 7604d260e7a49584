/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/json.h"

void json_init(struct json *j, struct strbuf *sb, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->sb = sb;
	j->pretty = pretty;
	j->first[0] = true;
}

static void indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	strbuf_putc(j->sb, '\n');
	for (i = 0; i < j->depth; i++)
		strbuf_puts(j->sb, "  ");
}

/* Length of a valid UTF-8 sequence at @s, or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_escape(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n;

	strbuf_putc(sb, '"');
	while (*s) {
		const unsigned char *run = s;

		while (*s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\')
			s++;
		if (s > run)
			strbuf_putn(sb, (const char *)run, (size_t)(s - run));
		if (!*s)
			break;
		switch (*s) {
		case '"':
			strbuf_puts(sb, "\\\"");
			break;
		case '\\':
			strbuf_puts(sb, "\\\\");
			break;
		case '\n':
			strbuf_puts(sb, "\\n");
			break;
		case '\t':
			strbuf_puts(sb, "\\t");
			break;
		case '\r':
			strbuf_puts(sb, "\\r");
			break;
		case '\b':
			strbuf_puts(sb, "\\b");
			break;
		case '\f':
			strbuf_puts(sb, "\\f");
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				strbuf_printf(sb, "\\u%04x", *s);
				break;
			}
			n = utf8_len(s);
			if (n == 0) {
				strbuf_puts(sb, "\\ufffd");
				break;
			}
			strbuf_putn(sb, (const char *)s, n);
			s += n;
			continue;
		}
		s++;
	}
	strbuf_putc(sb, '"');
}

static void member(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		strbuf_putc(j->sb, ',');
	j->first[j->depth] = false;
	if (j->depth > 0)
		indent(j);
	if (key) {
		json_escape(j->sb, key);
		strbuf_puts(j->sb, j->pretty ? ": " : ":");
	}
}

static void open_(struct json *j, const char *key, char c)
{
	member(j, key);
	strbuf_putc(j->sb, c);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		indent(j);
	strbuf_putc(j->sb, c);
}

void json_obj_begin(struct json *j, const char *key)
{
	open_(j, key, '{');
}

void json_obj_end(struct json *j)
{
	close_(j, '}');
}

void json_arr_begin(struct json *j, const char *key)
{
	open_(j, key, '[');
}

void json_arr_end(struct json *j)
{
	close_(j, ']');
}

void json_str(struct json *j, const char *key, const char *v)
{
	member(j, key);
	if (v)
		json_escape(j->sb, v);
	else
		strbuf_puts(j->sb, "null");
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	strbuf_put_u64(j->sb, v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	member(j, key);
	strbuf_put_i64(j->sb, v);
}

void json_double(struct json *j, const char *key, double v)
{
	member(j, key);
	if (strbuf_put_double(j->sb, v) == -EINVAL)
		strbuf_puts(j->sb, "null");
}

void json_bool(struct json *j, const char *key, bool v)
{
	member(j, key);
	strbuf_puts(j->sb, v ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	strbuf_puts(j->sb, "null");
}
