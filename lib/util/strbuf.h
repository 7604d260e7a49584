/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A growable string; allocation failure is sticky and reported by strbuf_error(). */
#ifndef CGCTL_UTIL_STRBUF_H
#define CGCTL_UTIL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t size;
	bool oom;
};

#define STRBUF_INIT { NULL, 0, 0, false }

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
int strbuf_putc(struct strbuf *sb, char c);
int strbuf_puts(struct strbuf *sb, const char *s);
int strbuf_putn(struct strbuf *sb, const char *s, size_t n);
int strbuf_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Decimal integers, as "%llu" / "%lld" print them, without printf.  Returns: 0, -ENOMEM. */
int strbuf_put_u64(struct strbuf *sb, uint64_t v);
/* The decimal digits of @v into @buf (room for 20), no NUL.  Returns: their count. */
size_t fmt_u64(char *buf, uint64_t v);
int strbuf_put_i64(struct strbuf *sb, int64_t v);
/* A finite double in the shortest form that reads back as the same value (0.2, not
 * 0.20000000000000001; integral values below 1e15 without a point).  Returns: 0,
 * -ENOMEM, -EINVAL for NaN and infinities (nothing appended). */
int strbuf_put_double(struct strbuf *sb, double v);
/* The NUL-terminated contents ("" when empty); valid until the next change. */
const char *strbuf_str(struct strbuf *sb);
/* Take ownership of the buffer (malloc'ed, NUL-terminated) and reset @sb. */
char *strbuf_steal(struct strbuf *sb);
/* Returns: -ENOMEM if any append failed, 0 otherwise. */
int strbuf_error(const struct strbuf *sb);

#endif
