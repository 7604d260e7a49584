/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The printer: records a small tree, renders it as human text or TSV (JSON is written as
 * it is recorded, by output-json.c: it needs no tree).  Nodes, keys and strings live in
 * an arena freed at once after each render, and a table's cells in one text buffer:
 * `cgctl move` of 10,000 PIDs prints 90,000 cells, and one malloc and free each made the
 * printer cost more than the moves.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output-json.h"
#include "libcgctl.h"
#include "output.h"
#include "output-table.h"
#include "kv.h"
#include "util/strbuf.h"

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif

enum node_type {
	N_OBJ, N_LIST, N_STR, N_U64, N_I64, N_DBL, N_BOOL, N_NULL, N_BYTES, N_USEC,
	N_DUSEC,	/* µs with a fraction (d) */
	N_SBYTES,	/* signed bytes (i) */
};

/* 40 bytes: a 10,000-row table is 90,000 of them, and every page of them a page fault */
struct node {
	enum node_type type;
	int decimals;
	const char *key;
	union {
		const char *s;
		uint64_t u;
		int64_t i;
		double d;
	};
	struct node *child, *next;
};

struct chunk {
	struct chunk *next;
	size_t used, size;
	uint64_t data[];
};

/* memory handed out in growing chunks and freed at once: nothing in it ever moves */
struct arena {
	struct chunk *head;	/* the newest first */
};

/* an object or list still open, and its last child so far */
struct open {
	struct node *n, *last;
};

/* the copy of a key, and the last string value given with it (rows repeat both) */
#define KEY_SLOTS 64
struct key_slot {
	const char *src;
	const char *key, *val;
};

struct out {
	enum out_format fmt;
	struct jout *jo;	/* JSON: written as recorded (output-json.c), no tree */
	struct node *root;
	struct open *open;	/* [0] is the root */
	size_t depth, cap;
	struct arena arena;
	struct key_slot keys[KEY_SLOTS];
	const struct out_table *tables;	/* the human tables' columns (out_set_tables) */
	size_t ntables;
	struct out_table_opts topts;
};

#define CHUNK_MIN	(16 * 1024)
#define CHUNK_MAX	(256 * 1024)

/* @size bytes (not zeroed), aligned for pointers and 64-bit numbers, valid until
 * arena_release(). */
static void *arena_alloc(struct arena *ar, size_t size)
{
	struct chunk *c = ar->head;
	size_t need = (size + sizeof(uint64_t) - 1) & ~(sizeof(uint64_t) - 1);
	void *p;

	if (!c || c->size - c->used < need) {
		/* each chunk twice the last, up to CHUNK_MAX */
		size_t sz = c ? (c->size < CHUNK_MAX ? 2 * c->size : CHUNK_MAX) : CHUNK_MIN;

		if (sz < need)
			sz = need;
		c = malloc(sizeof(*c) + sz);
		if (!c)
			abort();	/* nothing sensible to print without memory */
		c->size = sz;
		c->used = 0;
		c->next = ar->head;
		ar->head = c;
	}
	p = (char *)c->data + c->used;
	c->used += need;
	return p;
}

static char *arena_strndup(struct arena *ar, const char *s, size_t len)
{
	char *p = arena_alloc(ar, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

static char *arena_strdup(struct arena *ar, const char *s)
{
	return arena_strndup(ar, s, strlen(s));
}

static void arena_free(struct arena *ar)
{
	while (ar->head) {
		struct chunk *next = ar->head->next;

		free(ar->head);
		ar->head = next;
	}
}

/* Free every node and string, and forget what pointed into them. */
static void arena_release(struct out *o)
{
	arena_free(&o->arena);
	memset(o->keys, 0, sizeof(o->keys));
	o->root->child = NULL;
	o->open[0].last = NULL;
	o->depth = 1;
}

/* The arena's copy of @key: the same pointer with the same text reuses the last copy
 * (compared, so a caller's reused buffer with new text gets a new one). */
static struct key_slot *key_slot(struct out *o, const char *key)
{
	struct key_slot *k = &o->keys[((uintptr_t)key >> 3) % KEY_SLOTS];

	if (k->src != key || strcmp(k->key, key) != 0) {
		k->src = key;
		k->key = arena_strdup(&o->arena, key);
		k->val = NULL;
	}
	return k;
}

/* A new node under the innermost open one; @slot (if not NULL) gets its key's slot. */
static struct node *node_new_slot(struct out *o, enum node_type t, const char *key,
				  struct key_slot **slot)
{
	struct node *n = arena_alloc(&o->arena, sizeof(*n));
	struct open *top = &o->open[o->depth - 1];
	struct key_slot *k = key ? key_slot(o, key) : NULL;

	*n = (struct node){ .type = t };
	n->key = k ? k->key : NULL;
	if (slot)
		*slot = k;
	if (top->last)
		top->last->next = n;
	else
		top->n->child = n;
	top->last = n;
	return n;
}

static struct node *node_new(struct out *o, enum node_type t, const char *key)
{
	return node_new_slot(o, t, key, NULL);
}

/* @n (just added) is now where the next nodes go, until its end. */
static void open_push(struct out *o, struct node *n)
{
	if (o->depth == o->cap) {
		o->cap *= 2;
		o->open = realloc(o->open, o->cap * sizeof(*o->open));
		if (!o->open)
			abort();
	}
	o->open[o->depth++] = (struct open){ n, NULL };
}

struct out *out_new(enum out_format fmt)
{
	struct out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->fmt = fmt;
	o->root = calloc(1, sizeof(*o->root));
	o->cap = 8;
	o->open = calloc(o->cap, sizeof(*o->open));
	if (fmt == OUT_JSON)
		o->jo = jout_new();
	if (!o->root || !o->open || (fmt == OUT_JSON && !o->jo)) {
		jout_free(o->jo);
		free(o->root);
		free(o->open);
		free(o);
		return NULL;
	}
	o->root->type = N_OBJ;
	o->open[0].n = o->root;
	o->depth = 1;
	return o;
}

void out_free(struct out *o)
{
	if (!o)
		return;
	arena_release(o);
	jout_free(o->jo);
	free(o->root);
	free(o->open);
	free(o);
}

enum out_format out_format(const struct out *o)
{
	return o->fmt;
}

bool out_empty(const struct out *o)
{
	if (o->jo)
		return jout_empty(o->jo);
	return o->root->child == NULL;
}

void out_obj_begin(struct out *o, const char *key)
{
	if (o->jo) {
		jout_begin(o->jo, false, key);
		return;
	}
	open_push(o, node_new(o, N_OBJ, key));
}

void out_list_begin(struct out *o, const char *key)
{
	if (o->jo) {
		jout_begin(o->jo, true, key);
		return;
	}
	open_push(o, node_new(o, N_LIST, key));
}

void out_obj_end(struct out *o)
{
	if (o->jo) {
		jout_end(o->jo);
		return;
	}
	if (o->depth > 1)
		o->depth--;
}

void out_list_end(struct out *o)
{
	out_obj_end(o);
}

void out_str(struct out *o, const char *key, const char *v)
{
	struct key_slot *k;
	struct node *n;

	if (o->jo) {
		jout_str(o->jo, key, v);
		return;
	}
	n = node_new_slot(o, v ? N_STR : N_NULL, key, &k);

	if (!v)
		return;
	if (!k) {
		n->s = arena_strdup(&o->arena, v);
		return;
	}
	if (!k->val || strcmp(k->val, v) != 0)
		k->val = arena_strdup(&o->arena, v);
	n->s = k->val;
}

void out_u64(struct out *o, const char *key, uint64_t v)
{
	if (o->jo) {
		jout_u64(o->jo, key, v);
		return;
	}
	node_new(o, N_U64, key)->u = v;
}

void out_i64(struct out *o, const char *key, int64_t v)
{
	if (o->jo) {
		jout_i64(o->jo, key, v);
		return;
	}
	node_new(o, N_I64, key)->i = v;
}

void out_double(struct out *o, const char *key, double v, int human_decimals)
{
	struct node *n;

	if (o->jo) {
		jout_double(o->jo, key, v);
		return;
	}
	n = node_new(o, N_DBL, key);

	n->d = v;
	n->decimals = human_decimals;
}

/* 0.001 CPUs: cpu.max's smallest quota (1 ms) over its longest period (1 s); two
 * decimals made 0.015 (a 1.5 ms quota per 100 ms) 0.01 */
#define CPUS_DECIMALS	3

void out_cpus(struct out *o, const char *key, double cpus)
{
	out_double(o, key, cpus, CPUS_DECIMALS);
}

void out_bool(struct out *o, const char *key, bool v)
{
	if (o->jo) {
		jout_bool(o->jo, key, v);
		return;
	}
	node_new(o, N_BOOL, key)->u = v;
}

void out_null(struct out *o, const char *key)
{
	if (o->jo) {
		jout_null(o->jo, key);
		return;
	}
	node_new(o, N_NULL, key);
}

/* (JSON: bytes as a number, "max" as null; microseconds from nanoseconds) */
void out_bytes(struct out *o, const char *key, uint64_t bytes)
{
	if (o->jo) {
		if (bytes == UINT64_MAX)
			jout_null(o->jo, key);
		else
			jout_u64(o->jo, key, bytes);
		return;
	}
	node_new(o, N_BYTES, key)->u = bytes;
}

void out_usec(struct out *o, const char *key, uint64_t ns)
{
	if (o->jo) {
		if (ns == UINT64_MAX)
			jout_null(o->jo, key);
		else
			jout_u64(o->jo, key, ns / 1000);
		return;
	}
	node_new(o, N_USEC, key)->u = ns;
}

void out_usec_frac(struct out *o, const char *key, double usec)
{
	if (o->jo) {
		jout_double(o->jo, key, usec);
		return;
	}
	node_new(o, N_DUSEC, key)->d = usec;
}

void out_sbytes(struct out *o, const char *key, int64_t bytes)
{
	if (o->jo) {
		jout_i64(o->jo, key, bytes);
		return;
	}
	node_new(o, N_SBYTES, key)->i = bytes;
}

void out_set_tables(struct out *o, const struct out_table *t, size_t n,
		    const struct out_table_opts *opts)
{
	o->tables = t;
	o->ntables = n;
	if (opts)
		o->topts = *opts;
}

void out_set_kv(struct out *o)
{
	o->topts.kv = true;
}

/* ---- scalar text ---- */

/* How a scalar reads: TSV (raw numbers, true/false), human (units, yes/no), or human
 * with raw sizes and times (-b). */
enum txt { TXT_TSV, TXT_HUMAN, TXT_HUMAN_RAW };

static void scalar_text(const struct node *n, enum txt mode, struct strbuf *sb)
{
	bool human = mode != TXT_TSV, units = mode == TXT_HUMAN;
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
		else if (strbuf_put_double(sb, n->d) == -EINVAL)
			strbuf_puts(sb, "-");
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
		else if (units) {
			cgctl_format_size(buf, sizeof(buf), n->u);
			strbuf_puts(sb, buf);
		} else {
			strbuf_put_u64(sb, n->u);
		}
		break;
	case N_USEC:
		if (n->u == UINT64_MAX)
			strbuf_puts(sb, "max");
		else if (units) {
			cgctl_format_duration(buf, sizeof(buf), n->u);
			strbuf_puts(sb, buf);
		} else {
			strbuf_put_u64(sb, n->u / 1000);
		}
		break;
	case N_DUSEC:
		if (units && n->d >= 0 && n->d < 1.8e13) {
			cgctl_format_duration(buf, sizeof(buf), (uint64_t)(n->d * 1000 + 0.5));
			strbuf_puts(sb, buf);
		} else if (strbuf_put_double(sb, n->d) == -EINVAL) {
			strbuf_puts(sb, "-");
		}
		break;
	case N_SBYTES:
		if (units) {
			uint64_t mag = n->i < 0 ? -(uint64_t)n->i : (uint64_t)n->i;

			cgctl_format_size(buf, sizeof(buf), mag);
			strbuf_puts(sb, n->i < 0 ? "-" : "");
			strbuf_puts(sb, buf);
		} else {
			strbuf_put_i64(sb, n->i);
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
	const char **ckey;	/* a top-level column's key node pointer (NULL: nested) */
	size_t ncols;
	struct arena ar;	/* rows and formatted cells */
	struct strbuf scratch;	/* the cell being formatted */
	struct tcell **cells;	/* rows x (up to) cols: a string cell is the node's own */
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
	t->ckey = realloc(t->ckey, (t->ncols + 1) * sizeof(*t->ckey));
	if (!t->cols || !t->ckey)
		abort();
	t->cols[t->ncols] = strdup(name);
	t->ckey[t->ncols] = NULL;
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

/* The text of scalar or list @c as a cell: a string node's own text, or formatted into
 * the table's arena. */
static struct tcell cell_text(struct table *t, const struct node *c, enum txt human)
{
	struct strbuf *sb = &t->scratch;

	if (c->type == N_STR)
		return (struct tcell){ c->s, strlen(c->s) };
	if (c->type == N_NULL)
		return (struct tcell){ "-", 1 };
	strbuf_reset(sb);
	if (c->type == N_LIST) {
		for (const struct node *e = c->child; e; e = e->next) {
			if (e->type == N_OBJ || e->type == N_LIST)
				continue;
			if (sb->len)
				strbuf_putc(sb, ',');
			scalar_text(e, human, sb);
		}
	} else {
		scalar_text(c, human, sb);
	}
	if (strbuf_error(sb))
		abort();	/* as node_new(): nothing sensible to print without memory */
	return (struct tcell){ arena_strndup(&t->ar, sb->len ? sb->buf : "", sb->len), sb->len };
}

/* Column of @c, a child of @n: a top-level key seen in the same place of the last row
 * is the same column (keys are the printer's own copies, one per text). */
static size_t cell_column(struct table *t, const struct node *c, const char *prefix)
{
	char name[256];
	size_t idx;

	if (!*prefix && c->key && t->hint < t->ncols && t->ckey[t->hint] == c->key)
		return t->hint++;
	column_name(name, sizeof(name), prefix, c->key);
	idx = col_index(t, name, true);
	if (!*prefix)
		t->ckey[idx] = c->key;
	return idx;
}

/* Flatten the scalars of @n into "prefix.key" columns; lists inside a row are joined. */
static void flatten(struct table *t, const struct node *n, const char *prefix, enum txt human,
		    struct tcell **row, size_t *rowlen)
{
	const struct node *c;

	for (c = n->child; c; c = c->next) {
		size_t idx;

		if (c->type == N_OBJ) {
			char name[256];

			column_name(name, sizeof(name), prefix, c->key);
			flatten(t, c, name, human, row, rowlen);
			continue;
		}
		idx = cell_column(t, c, prefix);
		if (idx >= *rowlen) {
			struct tcell *wider = arena_alloc(&t->ar, (idx + 1) * sizeof(*wider));

			if (*rowlen)
				memcpy(wider, *row, *rowlen * sizeof(*wider));
			memset(wider + *rowlen, 0, (idx + 1 - *rowlen) * sizeof(*wider));
			*row = wider;
			*rowlen = idx + 1;
		}
		(*row)[idx] = cell_text(t, c, human);
	}
}

static void table_add_row(struct table *t, struct tcell *row, size_t rowlen)
{
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

static void table_build(struct table *t, const struct node *list, enum txt human)
{
	const struct node *r;

	memset(t, 0, sizeof(*t));
	for (r = list->child; r; r = r->next) {
		struct tcell *row = NULL;
		size_t rowlen = 0;

		t->hint = 0;
		if (r->type == N_OBJ) {
			/* the columns known so far, all empty ("-") until filled */
			if (t->ncols) {
				rowlen = t->ncols;
				row = arena_alloc(&t->ar, rowlen * sizeof(*row));
				memset(row, 0, rowlen * sizeof(*row));
			}
			flatten(t, r, "", human, &row, &rowlen);
		} else {
			size_t idx = col_index(t, list->key ? list->key : "value", true);

			rowlen = idx + 1;
			row = arena_alloc(&t->ar, rowlen * sizeof(*row));
			memset(row, 0, rowlen * sizeof(*row));
			row[idx] = cell_text(t, r, human);
		}
		table_add_row(t, row, rowlen);
	}
}

static void table_free(struct table *t)
{
	arena_free(&t->ar);
	strbuf_release(&t->scratch);
	free(t->ckey);
	for (size_t c = 0; c < t->ncols; c++)
		free(t->cols[c]);
	free(t->cells);
	free(t->lens);
	free(t->cols);
}

/* Rows built before a later row added a column are shorter: missing cells print "-". */
static struct tcell cell(const struct table *t, size_t r, size_t c)
{
	if (c >= t->lens[r] || !t->cells[r][c].s)
		return (struct tcell){ "-", 1 };
	return t->cells[r][c];
}

/* TSV cells never contain a tab or newline: escape them (and the backslash). */
static void tsv_cell(FILE *fp, struct tcell tc)
{
	const char *s = tc.s;

	if (!memchr(s, '\t', tc.len) && !memchr(s, '\n', tc.len) && !memchr(s, '\\', tc.len)) {
		fwrite(s, 1, tc.len, fp);
		return;
	}
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

static void table_print_tsv(const struct table *t, FILE *fp)
{
	size_t r, c;

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

static bool is_table(const struct node *n)
{
	return n->type == N_LIST && n->child && n->child->type == N_OBJ;
}

/* ---- human ---- */

struct human {
	const struct out *o;
	FILE *fp;
	enum txt mode;
	int err;
	/* key/value mode (topts.kv): the lines not printed yet, their values malloc'ed */
	struct kv_line *kv;
	size_t nkv, capkv;
	const char *names;	/* -o of a key/value result */
};

static const struct out_table *table_spec(const struct out *o, const char *key)
{
	for (size_t i = 0; key && i < o->ntables; i++)
		if (!strcmp(o->tables[i].list, key))
			return &o->tables[i];
	return NULL;
}

/* List @c of objects as a table, below a "key:" line unless it is the first thing
 * printed at the top (a command's one table). */
static void human_table(struct human *h, const struct node *c, bool first, int indent)
{
	bool heading = c->key && (!first || indent);
	struct table t;
	struct tview v;
	int r;

	table_build(&t, c, h->mode);
	v = (struct tview){ .cols = t.cols, .ncols = t.ncols, .nrows = t.nrows,
			    .cells = t.cells, .lens = t.lens };
	r = table_print_human(&v, table_spec(h->o, c->key), &h->o->topts, h->fp,
			      heading ? c->key : NULL, indent + (heading ? 2 : 0));
	if (r < 0 && !h->err)
		h->err = r;
	table_free(&t);
}

/* ---- key/value (kv.c) ---- */

static void kv_add(struct human *h, int depth, const char *key, char *value)
{
	if (h->nkv == h->capkv) {
		h->capkv = h->capkv ? 2 * h->capkv : 32;
		h->kv = realloc(h->kv, h->capkv * sizeof(*h->kv));
		if (!h->kv)
			abort();	/* as node_new() */
	}
	h->kv[h->nkv++] = (struct kv_line){ depth, key, value };
}

/* Print the lines so far. */
static void kv_flush(struct human *h)
{
	int r = kv_print(h->kv, h->nkv, h->names, h->mode == TXT_HUMAN_RAW, h->fp);

	if (r < 0 && !h->err)
		h->err = r;
	for (size_t i = 0; i < h->nkv; i++)
		free((char *)h->kv[i].value);
	h->nkv = 0;
}

/* Whether the -o list names table @key (a key/value result prints only those named). */
static bool kv_table_named(const char *names, const char *key)
{
	const char *p = names;

	if (!names)
		return true;
	do {
		size_t l = strcspn(p, ",");

		if (key && l && kv_name_is(p, l, key))
			return true;
		p += l;
	} while (*p++ == ',');
	return false;
}

/* The value of scalar (or list of scalars) @c, malloc'ed. */
static char *kv_value(const struct node *c, enum txt mode)
{
	struct strbuf sb = STRBUF_INIT;
	char *v;

	if (c->type == N_LIST) {
		for (const struct node *e = c->child; e; e = e->next) {
			if (sb.len)
				strbuf_puts(&sb, ", ");
			scalar_text(e, mode, &sb);
		}
	} else {
		scalar_text(c, mode, &sb);
	}
	v = strdup(strbuf_str(&sb));
	strbuf_release(&sb);
	if (!v)
		abort();
	return v;
}

/* The keys of @n at @depth as key/value lines; tables print between them. */
static void render_kv(struct human *h, const struct node *n, int depth, bool top)
{
	for (const struct node *c = n->child; c; c = c->next) {
		if (c->type == N_OBJ && c->key) {
			kv_add(h, depth, c->key, NULL);
			render_kv(h, c, depth + 1, false);
		} else if (c->type == N_OBJ) {
			render_kv(h, c, depth, false);
		} else if (is_table(c)) {
			kv_flush(h);
			if (kv_table_named(h->names, c->key))
				human_table(h, c, top && c == n->child, 2 * depth);
		} else if (c->key) {
			kv_add(h, depth, c->key, kv_value(c, h->mode));
		}
	}
}

/* Collect the key/value lines of @n (values empty) and the keys of its tables. */
static void kv_collect(struct human *h, const struct node *n, int depth, const char **tables,
		       size_t *ntables, size_t max)
{
	for (const struct node *c = n->child; c; c = c->next) {
		if (c->type == N_OBJ && c->key) {
			kv_add(h, depth, c->key, NULL);
			kv_collect(h, c, depth + 1, tables, ntables, max);
		} else if (c->type == N_OBJ) {
			kv_collect(h, c, depth, tables, ntables, max);
		} else if (is_table(c)) {
			if (c->key && *ntables < max)
				tables[(*ntables)++] = c->key;
		} else if (c->key) {
			kv_add(h, depth, c->key, NULL);
		}
	}
}

static bool kv_filters(const struct out *o)
{
	return o->topts.kv && o->topts.columns && !o->ntables;
}

int out_kv_check(struct out *o, char *bad, size_t len)
{
	struct human h = { .o = o };
	const char *tables[33] = { 0 };
	size_t nt = 0;
	int r;

	if (o->jo || !kv_filters(o))
		return 0;
	kv_collect(&h, o->root, 0, tables, &nt, 32);
	r = kv_check(h.kv, h.nkv, tables, o->topts.columns, bad, len);
	free(h.kv);
	return r;
}

static void render_human(struct human *h, const struct node *n, int indent)
{
	FILE *fp = h->fp;
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
				render_human(h, c, indent + 2);
			} else {
				render_human(h, c, indent);
				if (c->next)
					fputc('\n', fp);
			}
		} else if (is_table(c)) {
			human_table(h, c, c == n->child, indent);
		} else {
			struct strbuf sb = STRBUF_INIT;

			if (c->type == N_LIST) {
				for (const struct node *e = c->child; e; e = e->next) {
					if (sb.len)
						strbuf_puts(&sb, ", ");
					scalar_text(e, h->mode, &sb);
				}
			} else {
				scalar_text(c, h->mode, &sb);
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
			table_build(&t, c, TXT_TSV);
			table_print_tsv(&t, fp);
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
	table_build(&t, &list, TXT_TSV);
	table_print_tsv(&t, fp);
	table_free(&t);
}

int out_render(struct out *o, FILE *fp)
{
	struct human h = { o, fp, o->topts.bytes ? TXT_HUMAN_RAW : TXT_HUMAN, 0 };

	if (o->jo) {
		jout_render(o->jo, fp);
	} else if (o->fmt == OUT_TSV) {
		if (o->root->child)
			render_tsv(o->root, fp);
	} else if (o->topts.kv) {
		h.names = kv_filters(o) ? o->topts.columns : NULL;
		render_kv(&h, o->root, 0, true);
		kv_flush(&h);
		free(h.kv);
	} else {
		render_human(&h, o->root, 0);
	}
	arena_release(o);
	if (h.err == -ENOMEM)
		abort();	/* as node_new(): nothing sensible to print without memory */
	if (h.err || fflush(fp) != 0 || ferror(fp))
		return -EIO;
	return 0;
}
