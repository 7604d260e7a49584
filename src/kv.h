/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The key/value form of a result, printed through libsmartcols the way lscpu prints its
 * summary: one line per key, a label column and a value column, sections indented below
 * their heading.  People read labels without units (QUOTA 20ms); with -b the label is
 * the JSON key and the value what JSON holds (quota_usec 20000).  -o picks keys.
 * The printer's internal interface (output.c).
 */
#ifndef CGCTL_KV_H
#define CGCTL_KV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One key (or a section heading: value NULL) at nesting @depth (0: top level). */
struct kv_line {
	int depth;
	const char *key;	/* the JSON key, "quota_usec" */
	const char *value;	/* the text of the value; NULL: a section */
};

/*
 * Whether the -o name @name (@len bytes) names @key: the key itself ("quota_usec"), or
 * its label ("quota", "QUOTA"), any case, '-' for '_'.
 */
bool kv_name_is(const char *name, size_t len, const char *key);

/* The label of @key as a table's heading ("busy_usec" -> "BUSY"), or with @raw (-b)
 * the key itself.  Returns: a malloc'ed string, NULL when out of memory. */
char *kv_heading(const char *key, bool raw);

/*
 * Print @n lines to @fp: every one, or with @names (the -o list, "a,b.c") those named
 * (a name is a key, a label, or a dotted path of them: "settings.quota") and the
 * sections above them; a named section prints whole.  @raw: labels are the keys (-b).
 * Returns: 0, -ENOMEM or -EIO.
 */
int kv_print(const struct kv_line *l, size_t n, const char *names, bool raw, FILE *fp);

/*
 * Check the -o list @names against every line: each name must name one (or be one of
 * @extra, the NULL-terminated keys of tables).  Returns: 0, or -EINVAL with the name in
 * @bad (of @len bytes).
 */
int kv_check(const struct kv_line *l, size_t n, const char *const *extra, const char *names,
	     char *bad, size_t len);

#endif
