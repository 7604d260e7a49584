/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A streaming JSON writer into a strbuf: it tracks nesting and commas, escapes strings
 * (RFC 8259: quotes, backslash, control characters as \uXXXX; invalid UTF-8 replaced by
 * U+FFFD), writes integers exactly and doubles with %.17g (non-finite as null).
 */
#ifndef CGCTL_UTIL_JSON_H
#define CGCTL_UTIL_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "util/strbuf.h"

#define JSON_MAX_DEPTH 32

struct json {
	struct strbuf *sb;
	int depth;
	bool first[JSON_MAX_DEPTH];
	bool pretty;
};

void json_init(struct json *j, struct strbuf *sb, bool pretty);
/* @key is NULL inside arrays and at the top level. */
void json_obj_begin(struct json *j, const char *key);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_double(struct json *j, const char *key, double v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
/* Append @s as a JSON string literal (with quotes). */
void json_escape(struct strbuf *sb, const char *s);

#endif
