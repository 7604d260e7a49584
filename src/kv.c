/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Key/value lines through libsmartcols, as lscpu prints its summary: a table of two
 * columns without headings, the label (indented below its section) and the value; on a
 * terminal the values wrap to fit its width, in a pipe every value is whole.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libsmartcols.h>

#include "kv.h"
#include "output.h"

#define KV_DEPTH 16

/* the units keys end with: the label leaves them out (the value says it) */
static const char *const unit_suffix[] = { "_usec", "_bytes", "_us", "_ns" };

/* The length of @key without its unit suffix. */
static size_t label_len(const char *key)
{
	size_t len = strlen(key);

	for (size_t i = 0; i < sizeof(unit_suffix) / sizeof(unit_suffix[0]); i++) {
		size_t s = strlen(unit_suffix[i]);

		if (len > s && !strcmp(key + len - s, unit_suffix[i]))
			return len - s;
	}
	return len;
}

static bool same_char(char a, char b)
{
	if (a == '-')
		a = '_';
	if (b == '-')
		b = '_';
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

static bool same_text(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return false;
	for (size_t i = 0; i < alen; i++)
		if (!same_char(a[i], b[i]))
			return false;
	return true;
}

bool kv_name_is(const char *name, size_t len, const char *key)
{
	return same_text(name, len, key, strlen(key)) ||
	       same_text(name, len, key, label_len(key));
}

/* Whether @name (@len bytes) names line @keys[@depth]: one component names the key at
 * any depth; a dotted one names the keys from the top down to it. */
static bool names_line(const char *name, size_t len, const char *const *keys, int depth)
{
	const char *dot = memchr(name, '.', len);
	int d = 0;

	if (!dot)
		return kv_name_is(name, len, keys[depth]);
	for (;;) {
		size_t l = dot ? (size_t)(dot - name) : len;

		if (d > depth || !kv_name_is(name, l, keys[d]))
			return false;
		if (!dot)
			return d == depth;
		len -= l + 1;
		name = dot + 1;
		dot = memchr(name, '.', len);
		d++;
	}
}

/* Whether a name of the comma-separated @names names the line @keys[@depth]. */
static bool named(const char *names, const char *const *keys, int depth)
{
	const char *p = names;

	do {
		size_t l = strcspn(p, ",");

		if (l && names_line(p, l, keys, depth))
			return true;
		p += l;
	} while (*p++ == ',');
	return false;
}

/* Keep @keys, the chain of keys down to line @l. */
static int push_key(const char **keys, const struct kv_line *l)
{
	int d = l->depth < 0 ? 0 : l->depth >= KV_DEPTH ? KV_DEPTH - 1 : l->depth;

	keys[d] = l->key ? l->key : "";
	for (int i = 0; i < d; i++)
		if (!keys[i])
			keys[i] = "";
	return d;
}

/* Which lines print: all, or those @names names, the lines of named sections and the
 * sections above a printed line. */
static void select_lines(const struct kv_line *l, size_t n, const char *names, bool *show)
{
	const char *keys[KV_DEPTH] = { 0 };
	int whole = -1;	/* the depth of the named section being printed whole */

	for (size_t i = 0; i < n; i++) {
		int d = push_key(keys, &l[i]);

		if (whole >= 0 && d <= whole)
			whole = -1;
		show[i] = !names || whole >= 0 || named(names, keys, d);
		if (show[i] && !l[i].value && whole < 0)
			whole = d;
		if (!show[i])
			continue;
		/* the sections above it */
		for (size_t j = i, want = (size_t)d; want > 0 && j-- > 0;)
			if ((size_t)l[j].depth < want) {
				want = (size_t)l[j].depth;
				show[j] = true;
			}
	}
}

/* "  THROTTLED-LOCAL": indented two spaces a level, without the unit, upper case;
 * with @raw the key itself. */
static char *label(const struct kv_line *l, bool raw)
{
	const char *key = l->key ? l->key : "";
	size_t len = raw ? strlen(key) : label_len(key);
	size_t ind = l->depth > 0 ? 2 * (size_t)l->depth : 0;
	char *s = malloc(ind + len + 1);

	if (!s)
		return NULL;
	memset(s, ' ', ind);
	for (size_t i = 0; i < len; i++)
		s[ind + i] = raw ? key[i] : key[i] == '_' ? '-' : (char)toupper((unsigned char)key[i]);
	s[ind + len] = '\0';
	return s;
}

char *kv_heading(const char *key, bool raw)
{
	struct kv_line l = { 0, key, NULL };

	return label(&l, raw);
}

/* Print @tb to @fp without the blanks a section's empty value leaves at its end. */
static int print_trimmed(struct libscols_table *tb, FILE *fp)
{
	char *text = NULL, *p;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int r;

	if (!mem)
		return -ENOMEM;
	scols_table_set_stream(tb, mem);
	r = scols_print_table(tb) < 0 ? -EIO : 0;
	if (fclose(mem) != 0)
		r = -ENOMEM;
	for (p = text; !r && p && *p;) {
		size_t n = strcspn(p, "\n"), e = n;

		while (e && p[e - 1] == ' ')
			e--;
		fwrite(p, 1, e, fp);
		if (p[n] == '\n')
			fputc('\n', fp);
		p += n + (p[n] == '\n');
	}
	free(text);
	return r;
}

int kv_print(const struct kv_line *l, size_t n, const char *names, bool raw, FILE *fp)
{
	struct libscols_table *tb;
	size_t width = out_term_width();
	bool *show;
	int r = -ENOMEM;

	if (!n)
		return 0;
	show = calloc(n, sizeof(*show));
	tb = scols_new_table();
	if (!show || !tb)
		goto out;
	select_lines(l, n, names, show);
	scols_table_enable_noheadings(tb, 1);
	if (width) {
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_ALWAYS);
		scols_table_set_termwidth(tb, width);
	} else {
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER);
	}
	if (!scols_table_new_column(tb, "FIELD", 0, 0) ||
	    !scols_table_new_column(tb, "DATA", 0, width ? SCOLS_FL_WRAP : 0))
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct libscols_line *ln;
		char *lab;

		if (!show[i])
			continue;
		ln = scols_table_new_line(tb, NULL);
		lab = label(&l[i], raw);
		if (!ln || !lab || scols_line_refer_data(ln, 0, lab) < 0 ||
		    scols_line_set_data(ln, 1, l[i].value ? l[i].value : "") < 0) {
			free(lab);
			goto out;
		}
	}
	r = 0;
	if (scols_table_get_nlines(tb) == 0)
		goto out;
	r = print_trimmed(tb, fp);
out:
	scols_unref_table(tb);
	free(show);
	return r;
}

int kv_check(const struct kv_line *l, size_t n, const char *const *extra, const char *names,
	     char *bad, size_t len)
{
	const char *p = names;

	do {
		size_t k = strcspn(p, ",");
		bool found = false;
		const char *keys[KV_DEPTH] = { 0 };

		for (size_t i = 0; i < n && !found && k; i++)
			found = names_line(p, k, keys, push_key(keys, &l[i]));
		for (size_t i = 0; extra && extra[i] && !found && k; i++)
			found = kv_name_is(p, k, extra[i]);
		if (!found) {
			snprintf(bad, len, "%.*s", (int)k, p);
			return -EINVAL;
		}
		p += k;
	} while (*p++ == ',');
	return 0;
}
