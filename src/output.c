/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The printer: records a small tree, renders it as human text, JSON or TSV. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"
#include "output.h"
#include "util/json.h"
#include "util/strbuf.h"

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

enum node_type { N_OBJ, N_LIST, N_STR, N_U64, N_I64, N_DBL, N_BOOL, N_NULL, N_BYTES, N_USEC };

struct node {
	enum node_type type;
	char *key;
	char *s;
	uint64_t u;
	int64_t i;
	double d;
	int decimals;
	struct node *child, *last, *next, *parent;
};

struct out {
	enum out_format fmt;
	struct node *root, *cur;
};

static struct node *node_new(struct out *o, enum node_type t, const char *key)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n)
		abort();	/* the CLI cannot report anything sensible without memory */
	n->type = t;
	n->key = key ? strdup(key) : NULL;
	n->parent = o->cur;
	if (o->cur->last)
		o->cur->last->next = n;
	else
		o->cur->child = n;
	o->cur->last = n;
	return n;
}

static void node_free(struct node *n)
{
	while (n) {
		struct node *next = n->next;

		node_free(n->child);
		free(n->key);
		free(n->s);
		free(n);
		n = next;
	}
}

struct out *out_new(enum out_format fmt)
{
	struct out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->fmt = fmt;
	o->root = calloc(1, sizeof(*o->root));
	if (!o->root) {
		free(o);
		return NULL;
	}
	o->root->type = N_OBJ;
	o->cur = o->root;
	return o;
}

void out_free(struct out *o)
{
	if (!o)
		return;
	node_free(o->root);
	free(o);
}

enum out_format out_format(const struct out *o)
{
	return o->fmt;
}

bool out_empty(const struct out *o)
{
	return o->root->child == NULL;
}

void out_obj_begin(struct out *o, const char *key)
{
	o->cur = node_new(o, N_OBJ, key);
}

void out_list_begin(struct out *o, const char *key)
{
	o->cur = node_new(o, N_LIST, key);
}

void out_obj_end(struct out *o)
{
	if (o->cur->parent)
		o->cur = o->cur->parent;
}

void out_list_end(struct out *o)
{
	out_obj_end(o);
}

void out_str(struct out *o, const char *key, const char *v)
{
	struct node *n = node_new(o, v ? N_STR : N_NULL, key);

	n->s = v ? strdup(v) : NULL;
}

void out_u64(struct out *o, const char *key, uint64_t v)
{
	node_new(o, N_U64, key)->u = v;
}

void out_i64(struct out *o, const char *key, int64_t v)
{
	node_new(o, N_I64, key)->i = v;
}

void out_double(struct out *o, const char *key, double v, int human_decimals)
{
	struct node *n = node_new(o, N_DBL, key);

	n->d = v;
	n->decimals = human_decimals;
}

void out_bool(struct out *o, const char *key, bool v)
{
	node_new(o, N_BOOL, key)->u = v;
}

void out_null(struct out *o, const char *key)
{
	node_new(o, N_NULL, key);
}

void out_bytes(struct out *o, const char *key, uint64_t bytes)
{
	node_new(o, N_BYTES, key)->u = bytes;
}

void out_usec(struct out *o, const char *key, uint64_t ns)
{
	node_new(o, N_USEC, key)->u = ns;
}

/* ---- JSON ---- */

static void render_json_node(struct json *j, const struct node *n)
{
	const struct node *c;

	switch (n->type) {
	case N_OBJ:
	case N_LIST:
		if (n->type == N_OBJ)
			json_obj_begin(j, n->key);
		else
			json_arr_begin(j, n->key);
		for (c = n->child; c; c = c->next)
			render_json_node(j, c);
		if (n->type == N_OBJ)
			json_obj_end(j);
		else
			json_arr_end(j);
		break;
	case N_STR:
		json_str(j, n->key, n->s);
		break;
	case N_U64:
		json_u64(j, n->key, n->u);
		break;
	case N_I64:
		json_i64(j, n->key, n->i);
		break;
	case N_DBL:
		json_double(j, n->key, n->d);
		break;
	case N_BOOL:
		json_bool(j, n->key, n->u);
		break;
	case N_NULL:
		json_null(j, n->key);
		break;
	case N_BYTES:
		if (n->u == UINT64_MAX)
			json_null(j, n->key);
		else
			json_u64(j, n->key, n->u);
		break;
	case N_USEC:
		if (n->u == UINT64_MAX)
			json_null(j, n->key);
		else
			json_u64(j, n->key, n->u / 1000);
		break;
	}
}

/* ---- scalar text ---- */

static void scalar_text(const struct node *n, bool human, struct strbuf *sb)
{
	char buf[64];

	switch (n->type) {
	case N_STR:
		strbuf_puts(sb, n->s);
		break;
	case N_U64:
		strbuf_put_u64(sb, n->u);
		break;
	case N_I64:
		strbuf_put_i64(sb, n->i);
		break;
	case N_DBL:
		if (human)
			strbuf_printf(sb, "%.*f", n->decimals, n->d);
		else
			strbuf_printf(sb, "%.17g", n->d);
		break;
	case N_BOOL:
		strbuf_puts(sb, n->u ? (human ? "yes" : "true") : (human ? "no" : "false"));
		break;
	case N_NULL:
		strbuf_puts(sb, "-");
		break;
	case N_BYTES:
		if (n->u == UINT64_MAX)
			strbuf_puts(sb, "max");
		else if (human) {
			cgctl_format_size(buf, sizeof(buf), n->u);
			strbuf_puts(sb, buf);
		} else {
			strbuf_put_u64(sb, n->u);
		}
		break;
	case N_USEC:
		if (n->u == UINT64_MAX)
			strbuf_puts(sb, "max");
		else if (human) {
			cgctl_format_duration(buf, sizeof(buf), n->u);
			strbuf_puts(sb, buf);
		} else {
			strbuf_put_u64(sb, n->u / 1000);
		}
		break;
	case N_OBJ:
	case N_LIST:
		break;
	}
}

/* ---- tables (human and TSV) ---- */

struct table {
	char **cols;
	size_t ncols;
	char ***cells;	/* rows x (up to) cols */
	size_t *lens;	/* cells in each row */
	size_t nrows, cap;
	size_t hint;	/* rows repeat their columns in order: the next one to try */
};

static size_t col_index(struct table *t, const char *name, bool add)
{
	size_t i;

	if (t->hint < t->ncols && strcmp(t->cols[t->hint], name) == 0)
		return t->hint++;
	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0) {
			t->hint = i + 1;
			return i;
		}
	if (!add)
		return SIZE_MAX;
	t->cols = realloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
	if (!t->cols)
		abort();
	t->cols[t->ncols] = strdup(name);
	t->hint = t->ncols + 1;
	return t->ncols++;
}

/* "prefix.key" (or "key" without a prefix) into @buf, truncated to @len - 1 bytes. */
static void column_name(char *buf, size_t len, const char *prefix, const char *key)
{
	size_t p = strlen(prefix), k = key ? strlen(key) : 0, n = 0;

	if (p) {
		n = MIN(p, len - 1);
		memcpy(buf, prefix, n);
		if (n < len - 1)
			buf[n++] = '.';
	}
	k = MIN(k, len - 1 - n);
	memcpy(buf + n, key, k);
	buf[n + k] = '\0';
}

/* Flatten the scalars of @n into "prefix.key" columns; lists inside a row are joined. */
static void flatten(struct table *t, const struct node *n, const char *prefix, bool human,
		    char ***row, size_t *rowlen)
{
	const struct node *c;

	for (c = n->child; c; c = c->next) {
		char name[256];
		struct strbuf sb = STRBUF_INIT;
		size_t idx;

		column_name(name, sizeof(name), prefix, c->key);
		if (c->type == N_OBJ) {
			flatten(t, c, name, human, row, rowlen);
			continue;
		}
		if (c->type == N_LIST) {
			const struct node *e;

			for (e = c->child; e; e = e->next) {
				if (e->type == N_OBJ || e->type == N_LIST)
					continue;
				if (sb.len)
					strbuf_putc(&sb, ',');
				scalar_text(e, human, &sb);
			}
		} else {
			scalar_text(c, human, &sb);
		}
		idx = col_index(t, name, true);
		if (idx >= *rowlen) {
			*row = realloc(*row, (idx + 1) * sizeof(**row));
			if (!*row)
				abort();
			memset(*row + *rowlen, 0, (idx + 1 - *rowlen) * sizeof(**row));
			*rowlen = idx + 1;
		}
		free((*row)[idx]);
		(*row)[idx] = strbuf_steal(&sb);
	}
}

static void table_add_row(struct table *t, char **row, size_t rowlen, size_t *lens)
{
	(void)lens;
	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->cells = realloc(t->cells, t->cap * sizeof(*t->cells));
		t->lens = realloc(t->lens, t->cap * sizeof(*t->lens));
		if (!t->cells || !t->lens)
			abort();
	}
	t->cells[t->nrows] = row;
	t->lens[t->nrows] = rowlen;
	t->nrows++;
}

static void table_build(struct table *t, const struct node *list, bool human)
{
	const struct node *r;

	memset(t, 0, sizeof(*t));
	for (r = list->child; r; r = r->next) {
		char **row = NULL;
		size_t rowlen = 0;

		t->hint = 0;
		if (r->type == N_OBJ) {
			/* the columns known so far, all empty ("-") until filled */
			if (t->ncols) {
				row = calloc(t->ncols, sizeof(*row));
				if (!row)
					abort();
				rowlen = t->ncols;
			}
			flatten(t, r, "", human, &row, &rowlen);
		} else {
			struct strbuf sb = STRBUF_INIT;
			size_t idx = col_index(t, list->key ? list->key : "value", true);

			scalar_text(r, human, &sb);
			row = calloc(idx + 1, sizeof(*row));
			if (!row)
				abort();
			rowlen = idx + 1;
			row[idx] = strbuf_steal(&sb);
		}
		table_add_row(t, row, rowlen, NULL);
	}
}

static void table_free(struct table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->lens[r]; c++)
			free(t->cells[r][c]);
		free(t->cells[r]);
	}
	for (size_t c = 0; c < t->ncols; c++)
		free(t->cols[c]);
	free(t->cells);
	free(t->lens);
	free(t->cols);
}

/* Rows built before a later row added a column are shorter: missing cells print "-". */
static const char *cell(const struct table *t, size_t r, size_t c)
{
	if (c >= t->lens[r] || !t->cells[r][c])
		return "-";
	return t->cells[r][c];
}

/* TSV cells never contain a tab or newline: escape them (and the backslash). */
static void tsv_cell(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '\t')
			fputs("\\t", fp);
		else if (*s == '\n')
			fputs("\\n", fp);
		else if (*s == '\\')
			fputs("\\\\", fp);
		else
			fputc(*s, fp);
	}
}

static void pad(FILE *fp, size_t n)
{
	static const char spaces[] = "                                ";

	while (n) {
		size_t k = MIN(n, sizeof(spaces) - 1);

		fwrite(spaces, 1, k, fp);
		n -= k;
	}
}

/* A human cell: two spaces before every column but the first, left-aligned in @width. */
static void padded(FILE *fp, size_t col, const char *s, size_t width)
{
	size_t len = strlen(s);

	if (col)
		fputs("  ", fp);
	fwrite(s, 1, len, fp);
	if (len < width)
		pad(fp, width - len);
}

static void table_print(struct table *t, FILE *fp, bool human, int indent)
{
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof(*w));
	size_t r, c;

	if (!w)
		abort();
	for (c = 0; c < t->ncols; c++)
		w[c] = strlen(t->cols[c]);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			size_t l = strlen(cell(t, r, c));

			if (l > w[c])
				w[c] = l;
		}
	if (human) {
		pad(fp, (size_t)indent);
		for (c = 0; c < t->ncols; c++)
			padded(fp, c, t->cols[c], c + 1 < t->ncols ? w[c] : 0);
		fputc('\n', fp);
		for (r = 0; r < t->nrows; r++) {
			pad(fp, (size_t)indent);
			for (c = 0; c < t->ncols; c++)
				padded(fp, c, cell(t, r, c), c + 1 < t->ncols ? w[c] : 0);
			fputc('\n', fp);
		}
	} else {
		for (c = 0; c < t->ncols; c++)
			fprintf(fp, "%s%s", c ? "\t" : "", t->cols[c]);
		fputc('\n', fp);
		for (r = 0; r < t->nrows; r++) {
			for (c = 0; c < t->ncols; c++) {
				if (c)
					fputc('\t', fp);
				tsv_cell(fp, cell(t, r, c));
			}
			fputc('\n', fp);
		}
	}
	free(w);
}

static bool is_table(const struct node *n)
{
	return n->type == N_LIST && n->child && n->child->type == N_OBJ;
}

/* ---- human ---- */

static void render_human(const struct node *n, FILE *fp, int indent)
{
	const struct node *c;
	size_t kw = 0;

	for (c = n->child; c; c = c->next)
		if (c->key && c->type != N_OBJ && !is_table(c) && strlen(c->key) > kw)
			kw = strlen(c->key);
	for (c = n->child; c; c = c->next) {
		const char *key = c->key ? c->key : "";

		if (c->type == N_OBJ) {
			if (c->key) {
				fprintf(fp, "%*s%s:\n", indent, "", key);
				render_human(c, fp, indent + 2);
			} else {
				render_human(c, fp, indent);
				if (c->next)
					fputc('\n', fp);
			}
		} else if (is_table(c)) {
			struct table t;

			if (c->key && (c != n->child || indent))
				fprintf(fp, "%*s%s:\n", indent, "", key);
			table_build(&t, c, true);
			table_print(&t, fp, true, c->key && (c != n->child || indent) ? indent + 2 : indent);
			table_free(&t);
		} else {
			struct strbuf sb = STRBUF_INIT;

			if (c->type == N_LIST) {
				for (const struct node *e = c->child; e; e = e->next) {
					if (sb.len)
						strbuf_puts(&sb, ", ");
					scalar_text(e, true, &sb);
				}
			} else {
				scalar_text(c, true, &sb);
			}
			fprintf(fp, "%*s%s:%*s %s\n", indent, "", key, (int)(kw - strlen(key)), "",
				strbuf_str(&sb));
			strbuf_release(&sb);
		}
	}
}

/* ---- TSV ---- */

static int render_tsv_tables(const struct node *n, FILE *fp, int printed)
{
	const struct node *c;

	for (c = n->child; c; c = c->next) {
		if (is_table(c)) {
			struct table t;

			if (printed++)
				fputc('\n', fp);
			table_build(&t, c, false);
			table_print(&t, fp, false, 0);
			table_free(&t);
		} else if (c->type == N_OBJ) {
			printed = render_tsv_tables(c, fp, printed);
		}
	}
	return printed;
}

static void render_tsv(const struct node *root, FILE *fp)
{
	struct node list = { .type = N_LIST, .child = (struct node *)root };
	struct node copy = *root;
	struct table t;

	if (render_tsv_tables(root, fp, 0))
		return;
	copy.next = NULL;
	list.child = &copy;
	table_build(&t, &list, false);
	table_print(&t, fp, false, 0);
	table_free(&t);
}

int out_render(struct out *o, FILE *fp)
{
	if (o->fmt == OUT_JSON) {
		struct strbuf sb = STRBUF_INIT;
		struct json j;

		json_init(&j, &sb, false);
		render_json_node(&j, o->root);
		strbuf_putc(&sb, '\n');
		fputs(strbuf_str(&sb), fp);
		strbuf_release(&sb);
	} else if (o->fmt == OUT_TSV) {
		if (o->root->child)
			render_tsv(o->root, fp);
	} else {
		render_human(o->root, fp, 0);
	}
	node_free(o->root->child);
	o->root->child = o->root->last = NULL;
	o->cur = o->root;
	if (fflush(fp) != 0 || ferror(fp))
		return -EIO;
	return 0;
}
