/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Human tables through libsmartcols (util-linux), as lsblk and findmnt print theirs:
 * columns chosen from a command's column table (the default set, -o LIST,
 * --output-all), upper-case headers, numbers right-aligned, and on a terminal the
 * table fitted to its width (paths and notes truncated first); not on a terminal the
 * full width, so a pipe gets whole cells.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <libsmartcols.h>

#include "kv.h"
#include "output-table.h"

/* a column of the printed table: which of the tview's, named how */
struct sel {
	const char *name;
	size_t tcol;		/* SIZE_MAX: no row has it ("-") */
	unsigned int flags;
};

struct picked {
	struct sel *s;
	size_t n, cap;
	char **names;		/* upper-cased keys of --output-all, freed with the table */
	size_t nnames;
};

static int pick_add(struct picked *p, const char *name, size_t tcol, unsigned int flags)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcasecmp(p->s[i].name, name))
			return 0;	/* "-o path,PATH" prints it once */
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct sel *s = realloc(p->s, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		p->s = s;
		p->cap = cap;
	}
	p->s[p->n++] = (struct sel){ name, tcol, flags };
	return 0;
}

static size_t key_column(const struct tview *t, const char *key)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c], key))
			return c;
	return SIZE_MAX;
}

/* A key of the rows that @spec shows (or whose object it shows: a null "expected"
 * stands for "expected.total_bytes"). */
static bool covered(const struct out_table *spec, const char *key)
{
	size_t len = strlen(key);

	for (size_t i = 0; i < spec->n; i++)
		if (!strncmp(spec->cols[i].key, key, len) &&
		    (spec->cols[i].key[len] == '\0' || spec->cols[i].key[len] == '.'))
			return true;
	return false;
}

static const struct out_col *spec_col(const struct out_table *spec, const char *name,
				      size_t len)
{
	for (size_t i = 0; i < spec->n; i++)
		if (strlen(spec->cols[i].name) == len && !strncasecmp(spec->cols[i].name, name, len))
			return &spec->cols[i];
	return NULL;
}

/* an OUT_COL_PRESENT column that no row has */
static bool absent(const struct tview *t, const struct out_col *col)
{
	return (col->flags & OUT_COL_PRESENT) && key_column(t, col->key) == SIZE_MAX;
}

static int pick_defaults(const struct tview *t, const struct out_table *spec,
			 struct picked *p)
{
	for (size_t i = 0; i < spec->n; i++)
		if ((spec->cols[i].flags & OUT_COL_DEFAULT) && !absent(t, &spec->cols[i]) &&
		    pick_add(p, spec->cols[i].name, key_column(t, spec->cols[i].key),
			     spec->cols[i].flags) < 0)
			return -ENOMEM;
	return 0;
}

/* Every column of @spec, then the keys it does not know, named by their key. */
static int pick_all(const struct tview *t, const struct out_table *spec, struct picked *p)
{
	for (size_t i = 0; i < spec->n; i++)
		if (!absent(t, &spec->cols[i]) &&
		    pick_add(p, spec->cols[i].name, key_column(t, spec->cols[i].key),
			     spec->cols[i].flags) < 0)
			return -ENOMEM;
	for (size_t c = 0; c < t->ncols; c++) {
		char *name, **names;

		if (covered(spec, t->cols[c]))
			continue;
		names = realloc(p->names, (p->nnames + 1) * sizeof(*names));
		name = strdup(t->cols[c]);
		if (!names || !name) {
			free(name);
			if (names)
				p->names = names;
			return -ENOMEM;
		}
		p->names = names;
		p->names[p->nnames++] = name;
		for (char *s = name; *s; s++)
			*s = *s == '.' || *s == '_' ? '-' : (char)toupper((unsigned char)*s);
		if (pick_add(p, name, c, 0) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* -o LIST: the named columns this table has, in the order given ("+LIST": after the
 * default ones).  The names were checked by out_tables_check(). */
static int pick_list(const struct tview *t, const struct out_table *spec, const char *list,
		     struct picked *p)
{
	if (*list == '+') {
		list++;
		if (pick_defaults(t, spec, p) < 0)
			return -ENOMEM;
	}
	while (*list) {
		size_t len = strcspn(list, ",");
		const struct out_col *col = spec_col(spec, list, len);

		if (col && pick_add(p, col->name, key_column(t, col->key), col->flags) < 0)
			return -ENOMEM;
		list += len + (list[len] == ',');
	}
	return 0;
}

/* No column table: every key under its own name, as the rows give them. */
/* A list without a column table: every key, under its own name; in the key/value form
 * (opts.kv) under its label as the keys outside tables have (BUSY, not busy_usec: the
 * value is readable), the key itself with -b. */
static int pick_keys(const struct tview *t, const struct out_table_opts *opts,
		     struct picked *p)
{
	for (size_t c = 0; c < t->ncols; c++) {
		char *name, **names;

		if (!opts || !opts->kv) {
			if (pick_add(p, t->cols[c], c, 0) < 0)
				return -ENOMEM;
			continue;
		}
		name = kv_heading(t->cols[c], opts->bytes);
		names = realloc(p->names, (p->nnames + 1) * sizeof(*names));
		if (names)
			p->names = names;
		if (!names || !name) {
			free(name);
			return -ENOMEM;
		}
		p->names[p->nnames++] = name;
		if (pick_add(p, name, c, 0) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int pick(const struct tview *t, const struct out_table *spec,
		const struct out_table_opts *opts, struct picked *p)
{
	if (!spec)
		return pick_keys(t, opts, p);
	if (opts && opts->columns)
		return pick_list(t, spec, opts->columns, p);
	if (opts && opts->all)
		return pick_all(t, spec, p);
	return pick_defaults(t, spec, p);
}

static void picked_free(struct picked *p)
{
	for (size_t i = 0; i < p->nnames; i++)
		free(p->names[i]);
	free(p->names);
	free(p->s);
}

/* The terminal's width when stdout is one (the window size, else $COLUMNS), else 0. */
size_t out_term_width(void)
{
	struct winsize ws;
	const char *env;

	if (!isatty(STDOUT_FILENO))
		return 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	env = getenv("COLUMNS");
	if (env && atoi(env) > 0)
		return (size_t)atoi(env);
	return 80;
}

/* (an empty cell of a column table, as an empty list, prints "-": -r keeps its place) */
static const char *cell_text(const struct tview *t, size_t r, size_t c, bool spec)
{
	if (c == SIZE_MAX || c >= t->lens[r] || !t->cells[r][c].s)
		return "-";
	if (spec && !t->cells[r][c].len)
		return "-";
	return t->cells[r][c].s;
}

/* @anc is a proper ancestor of the cgroup path @path ("/" of every other path) */
static bool ancestor(const char *anc, const char *path)
{
	size_t n = strlen(anc);

	if (!strcmp(anc, "/"))
		return path[0] == '/' && path[1];
	return !strncmp(anc, path, n) && path[n] == '/';
}

/*
 * Row @r's parent line in the tree of column @c (NULL: a top row): the nearest row
 * before it whose path is an ancestor of its own.  The rows are sorted by path, so
 * that is the deepest ancestor listed (any row between an ancestor and @r that is an
 * ancestor of @r is deeper).
 */
static struct libscols_line *tree_parent(const struct tview *t, size_t c, size_t r,
					 struct libscols_line **lines)
{
	const char *path = cell_text(t, r, c, true);

	for (size_t j = r; j-- > 0;)
		if (ancestor(cell_text(t, j, c, true), path))
			return lines[j];
	return NULL;
}

/* The tree column's text of row @r: the last component under a parent, else whole. */
static const char *tree_text(const struct tview *t, size_t c, size_t r, bool child)
{
	const char *path = cell_text(t, r, c, true), *slash = strrchr(path, '/');

	return child && slash && slash[1] ? slash + 1 : path;
}

/* The column drawn as a tree, SIZE_MAX when none is (-r: every cell whole, flat). */
static size_t tree_column(const struct picked *p, const struct out_table_opts *opts)
{
	if (opts && opts->raw)
		return SIZE_MAX;
	for (size_t i = 0; i < p->n; i++)
		if ((p->s[i].flags & OUT_COL_TREE) && p->s[i].tcol != SIZE_MAX)
			return i;
	return SIZE_MAX;
}

/*
 * Without libsmartcols' encoding (human tables): control characters as "\xHH", the
 * rest as it is, so that systemd's "system-serial\x2dgetty.slice" prints as written (the
 * encoding wrote its backslash "\x5c").  Returns: a new string, NULL when @s is safe.
 */
static char *escaped(const char *s)
{
	size_t n = 0, k = 0;
	char *out;

	for (const char *c = s; *c; c++)
		n += (unsigned char)*c < 0x20 || *c == 0x7f;
	if (!n || !(out = malloc(strlen(s) + 3 * n + 1)))
		return NULL;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			k += (size_t)sprintf(out + k, "\\x%02x", (unsigned char)*s);
		else
			out[k++] = *s;
	out[k] = '\0';
	return out;
}

static int add_lines(struct libscols_table *tb, const struct tview *t,
		     const struct picked *p, size_t tree, bool spec)
{
	struct libscols_line **lines = calloc(t->nrows ? t->nrows : 1, sizeof(*lines));
	int r = -ENOMEM;

	if (!lines)
		return -ENOMEM;
	for (size_t row = 0; row < t->nrows; row++) {
		struct libscols_line *parent = tree == SIZE_MAX ? NULL :
					       tree_parent(t, p->s[tree].tcol, row, lines);
		struct libscols_line *ln = scols_table_new_line(tb, parent);

		if (!ln)
			goto out;
		lines[row] = ln;
		for (size_t i = 0; i < p->n; i++) {
			const char *s = i == tree ? tree_text(t, p->s[i].tcol, row, parent) :
						    cell_text(t, row, p->s[i].tcol, spec);
			char *esc = scols_table_is_noencoding(tb) ? escaped(s) : NULL;

			if (esc ? scols_line_refer_data(ln, i, esc) < 0 :
				  scols_line_set_data(ln, i, s) < 0) {
				free(esc);
				goto out;
			}
		}
	}
	r = 0;
out:
	free(lines);
	return r;
}

static struct libscols_table *build(const struct tview *t, const struct picked *p,
				    const struct out_table_opts *opts, bool spec, int indent)
{
	struct libscols_table *tb = scols_new_table();
	size_t width = out_term_width(), tree = tree_column(p, opts);

	if (!tb)
		return NULL;
	/* -r encodes blanks and backslashes of "\x" ("\x5c") so that cells split
	 * unambiguously (as lsblk -r); else cells print as they are (escaped()) */
	if (opts && opts->raw) {
		scols_table_enable_raw(tb, 1);
	} else {
		scols_table_set_column_separator(tb, "  ");
		scols_table_enable_noencoding(tb, 1);
	}
	if (opts && opts->noheadings)
		scols_table_enable_noheadings(tb, 1);
	/* a terminal: fit its width (less the indent); else print every cell whole */
	if (width) {
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_ALWAYS);
		scols_table_set_termwidth(tb, width > (size_t)indent + 20 ? width - indent : 20);
	} else {
		scols_table_set_termforce(tb, SCOLS_TERMFORCE_NEVER);
	}
	for (size_t i = 0; i < p->n; i++) {
		int fl = 0;

		if (p->s[i].flags & OUT_COL_RIGHT)
			fl |= SCOLS_FL_RIGHT;
		if (p->s[i].flags & OUT_COL_TRUNC)
			fl |= SCOLS_FL_TRUNC;
		if (i == tree)
			fl |= SCOLS_FL_TREE;
		if (!scols_table_new_column(tb, p->s[i].name, fl & SCOLS_FL_TRUNC ? 0.3 : 0, fl))
			goto fail;
	}
	if (add_lines(tb, t, p, tree, spec) < 0)
		goto fail;
	return tb;
fail:
	scols_unref_table(tb);
	return NULL;
}

/* @text, every line after @indent spaces. */
static void put_indented(const char *text, size_t len, int indent, FILE *fp)
{
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) + 1 : len;

		fprintf(fp, "%*s", indent, "");
		fwrite(text, 1, n, fp);
		text += n;
		len -= n;
	}
}

int table_print_human(const struct tview *t, const struct out_table *spec,
		      const struct out_table_opts *opts, FILE *fp, const char *heading,
		      int indent)
{
	struct picked p = { 0 };
	struct libscols_table *tb = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int r = -ENOMEM;

	if (pick(t, spec, opts, &p) < 0)
		goto out;
	r = 0;
	if (!p.n)
		goto out;	/* -o named none of this table's columns */
	r = -ENOMEM;
	tb = build(t, &p, opts, spec != NULL, indent);
	if (!tb)
		goto out;
	if (heading)
		fprintf(fp, "%*s%s:\n", indent >= 2 ? indent - 2 : 0, "", heading);
	if (!indent) {
		scols_table_set_stream(tb, fp);
		r = scols_print_table(tb) < 0 ? -EIO : 0;
		goto out;
	}
	mem = open_memstream(&text, &len);
	if (!mem)
		goto out;
	scols_table_set_stream(tb, mem);
	r = scols_print_table(tb) < 0 ? -EIO : 0;
	if (fclose(mem) != 0)
		r = -ENOMEM;
	if (!r)
		put_indented(text, len, indent, fp);
out:
	free(text);
	scols_unref_table(tb);
	picked_free(&p);
	return r;
}

int out_tables_check(const struct out_table *t, size_t n, const struct out_table_opts *opts,
		     char *bad, size_t len)
{
	const char *list = opts->columns;

	if (!list)
		return 0;
	if (*list == '+')
		list++;
	do {
		size_t l = strcspn(list, ",");
		bool found = false;

		for (size_t i = 0; i < n && !found; i++)
			found = spec_col(&t[i], list, l) != NULL;
		if (!found) {
			snprintf(bad, len, "%.*s", (int)l, list);
			return -EINVAL;
		}
		list += l;
	} while (*list++ == ',');
	return 0;
}
