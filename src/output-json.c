/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JSON printer, streaming into memory: each call appends its text at once (the tree
 * of output.c cost a node of 40 bytes per value, ~1 MiB for `cgctl stat` of 2,000
 * cgroups, then a second pass and a second copy of the text).  The text collects in a
 * small buffer that is moved, every SPILL_AT bytes, into blocks of BLOCK_SIZE, and is
 * written out by jout_render().
 */
#include <stdlib.h>
#include <string.h>

#include "output-json.h"
#include "util/json.h"
#include "util/strbuf.h"

#define SPILL_AT (32 * 1024)
#define BLOCK_SIZE (2 * 1024 * 1024)

struct block {
	char *p;
	size_t len;
};

struct jout {
	struct strbuf sb;	/* the text since the last spill */
	struct json j;
	bool begun;		/* the top-level object is open */
	bool *list;		/* per open level below it: a list? */
	size_t depth, cap;
	struct block *blocks;	/* the text before @sb, in order */
	size_t nblocks, capblocks;
};

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		abort();	/* as the tree printer: nothing sensible to print without memory */
	return p;
}

struct jout *jout_new(void)
{
	struct jout *jo = calloc(1, sizeof(*jo));

	if (!jo)
		return NULL;
	strbuf_init(&jo->sb);
	return jo;
}

static void blocks_free(struct jout *jo)
{
	for (size_t i = 0; i < jo->nblocks; i++)
		free(jo->blocks[i].p);
	jo->nblocks = 0;
}

void jout_free(struct jout *jo)
{
	if (!jo)
		return;
	blocks_free(jo);
	free(jo->blocks);
	free(jo->list);
	strbuf_release(&jo->sb);
	free(jo);
}

/* Move the buffered text to the end of the blocks. */
static void spill(struct jout *jo)
{
	const char *s = jo->sb.buf;
	size_t left = jo->sb.len;

	while (left) {
		struct block *b = jo->nblocks ? &jo->blocks[jo->nblocks - 1] : NULL;
		size_t n;

		if (!b || b->len == BLOCK_SIZE) {
			if (jo->nblocks == jo->capblocks) {
				jo->capblocks = jo->capblocks ? 2 * jo->capblocks : 4;
				jo->blocks = xrealloc(jo->blocks,
						      jo->capblocks * sizeof(*jo->blocks));
			}
			b = &jo->blocks[jo->nblocks++];
			b->p = xrealloc(NULL, BLOCK_SIZE);
			b->len = 0;
		}
		n = BLOCK_SIZE - b->len < left ? BLOCK_SIZE - b->len : left;
		memcpy(b->p + b->len, s, n);
		b->len += n;
		s += n;
		left -= n;
	}
	strbuf_reset(&jo->sb);
}

/* Before a value: the top-level object opened; after it: the buffer spilled if full. */
static struct json *pre(struct jout *jo)
{
	if (!jo->begun) {
		json_init(&jo->j, &jo->sb, false);
		json_obj_begin(&jo->j, NULL);
		jo->begun = true;
	}
	return &jo->j;
}

static void post(struct jout *jo)
{
	if (jo->sb.len >= SPILL_AT)
		spill(jo);
}

void jout_begin(struct jout *jo, bool list, const char *key)
{
	struct json *j = pre(jo);

	if (list)
		json_arr_begin(j, key);
	else
		json_obj_begin(j, key);
	if (jo->depth == jo->cap) {
		jo->cap = jo->cap ? 2 * jo->cap : 16;
		jo->list = xrealloc(jo->list, jo->cap * sizeof(*jo->list));
	}
	jo->list[jo->depth++] = list;
	post(jo);
}

void jout_end(struct jout *jo)
{
	if (!jo->depth)
		return;	/* the top level closes in jout_render() */
	if (jo->list[--jo->depth])
		json_arr_end(&jo->j);
	else
		json_obj_end(&jo->j);
	post(jo);
}

void jout_str(struct jout *jo, const char *key, const char *v)
{
	json_str(pre(jo), key, v);
	post(jo);
}

void jout_u64(struct jout *jo, const char *key, uint64_t v)
{
	json_u64(pre(jo), key, v);
	post(jo);
}

void jout_i64(struct jout *jo, const char *key, int64_t v)
{
	json_i64(pre(jo), key, v);
	post(jo);
}

void jout_double(struct jout *jo, const char *key, double v)
{
	json_double(pre(jo), key, v);
	post(jo);
}

void jout_bool(struct jout *jo, const char *key, bool v)
{
	json_bool(pre(jo), key, v);
	post(jo);
}

void jout_null(struct jout *jo, const char *key)
{
	json_null(pre(jo), key);
	post(jo);
}

bool jout_empty(const struct jout *jo)
{
	return !jo->begun;
}

int jout_render(struct jout *jo, FILE *fp)
{
	pre(jo);
	while (jo->depth)
		jout_end(jo);
	json_obj_end(&jo->j);
	strbuf_putc(&jo->sb, '\n');
	if (jo->sb.oom)
		abort();
	for (size_t i = 0; i < jo->nblocks; i++)
		fwrite(jo->blocks[i].p, 1, jo->blocks[i].len, fp);
	fwrite(jo->sb.buf, 1, jo->sb.len, fp);
	blocks_free(jo);
	strbuf_reset(&jo->sb);
	jo->begun = false;
	return 0;
}
