/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --compare's input: the JSON object `cgctl bench --json` printed.  A small strict reader
 * of RFC 8259 documents (strings without \u escapes beyond ASCII, which our writer never
 * emits for these fields) that keeps what a comparison needs: the experiment, its
 * operation, seed and repetitions, and per configuration its name and samples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

const char *const bmetric_key[BM_N] = {
	"wall_ns_per_op", "task_ns_per_op", "cycles_per_op", "instructions_per_op",
	"branches_per_op",
};

struct rd {
	const char *p, *end, *start;
	char *reason;
	size_t rlen;
	int depth;
};

static int bad(struct rd *r, const char *what)
{
	snprintf(r->reason, r->rlen, "not a bench report at byte %td: %s", r->p - r->start,
		 what);
	return -EINVAL;
}

static void ws(struct rd *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r'))
		r->p++;
}

static bool peek(struct rd *r, char c)
{
	ws(r);
	return r->p < r->end && *r->p == c;
}

static int expect(struct rd *r, char c)
{
	if (!peek(r, c)) {
		char what[16];

		snprintf(what, sizeof(what), "'%c' expected", c);
		return bad(r, what);
	}
	r->p++;
	return 0;
}

static int str(struct rd *r, char *buf, size_t len)
{
	size_t n = 0;

	if (expect(r, '"') < 0)
		return -EINVAL;
	while (r->p < r->end && *r->p != '"') {
		char c = *r->p++;

		if ((unsigned char)c < 0x20)
			return bad(r, "control character in a string");
		if (c == '\\') {
			if (r->p >= r->end)
				break;
			c = *r->p++;
			if (c == 'u') {
				if (r->end - r->p < 4)
					return bad(r, "short \\u escape");
				r->p += 4;
				c = '?';
			} else if (c == 'n' || c == 't' || c == 'r' || c == 'b' || c == 'f') {
				c = ' ';
			} else if (c != '"' && c != '\\' && c != '/') {
				return bad(r, "bad escape");
			}
		}
		if (n + 1 < len)
			buf[n++] = c;
	}
	if (len)
		buf[n] = '\0';
	if (r->p >= r->end)
		return bad(r, "unterminated string");
	r->p++;
	return 0;
}

static int num(struct rd *r, double *v)
{
	char *e;

	ws(r);
	if (r->p >= r->end || !(*r->p == '-' || (*r->p >= '0' && *r->p <= '9')))
		return bad(r, "number expected");
	*v = strtod(r->p, &e);
	if (e == r->p || e > r->end)
		return bad(r, "number expected");
	r->p = e;
	return 0;
}

static int skip(struct rd *r);

/* Members of an object (or elements of an array, key NULL), each handed to @fn. */
static int walk(struct rd *r, bool object, int (*fn)(struct rd *, const char *, void *),
		void *data)
{
	char key[64];
	int err;

	if (++r->depth > 32)
		return bad(r, "nested too deep");
	if (expect(r, object ? '{' : '[') < 0)
		return -EINVAL;
	if (peek(r, object ? '}' : ']')) {
		r->p++;
		r->depth--;
		return 0;
	}
	for (;;) {
		if (object && (str(r, key, sizeof(key)) < 0 || expect(r, ':') < 0))
			return -EINVAL;
		err = fn ? fn(r, object ? key : NULL, data) : skip(r);
		if (err < 0)
			return err;
		if (peek(r, ',')) {
			r->p++;
			continue;
		}
		if (expect(r, object ? '}' : ']') < 0)
			return -EINVAL;
		r->depth--;
		return 0;
	}
}

static int skip(struct rd *r)
{
	double v;

	ws(r);
	if (r->p >= r->end)
		return bad(r, "value expected");
	switch (*r->p) {
	case '{':
		return walk(r, true, NULL, NULL);
	case '[':
		return walk(r, false, NULL, NULL);
	case '"':
		return str(r, NULL, 0);
	case 't':
	case 'f':
	case 'n': {
		static const char *const lits[] = { "true", "false", "null" };

		for (size_t i = 0; i < 3; i++) {
			size_t n = strlen(lits[i]);

			if ((size_t)(r->end - r->p) >= n && memcmp(r->p, lits[i], n) == 0) {
				r->p += n;
				return 0;
			}
		}
		return bad(r, "bad literal");
	}
	default:
		return num(r, &v);
	}
}

struct samples {
	struct bconf_result *c;
	int metric;
	unsigned int i;
};

static int sample(struct rd *r, const char *key, void *data)
{
	struct samples *s = data;
	double v = 0;
	int err;

	(void)key;
	if (s->i >= BENCH_MAX_RUNS)
		return bad(r, "too many samples");
	/* null: a counter the machine did not have */
	err = peek(r, 'n') ? skip(r) : num(r, &v);
	if (err < 0)
		return err;
	s->c->v[s->metric][s->i++] = v;
	if (s->metric == BM_WALL)
		s->c->n = s->i;
	return 0;
}

static int metric(struct rd *r, const char *key, void *data)
{
	struct samples s = { data, -1, 0 };

	for (int m = 0; m < BM_N; m++)
		if (strcmp(key, bmetric_key[m]) == 0)
			s.metric = m;
	if (s.metric < 0 || !peek(r, '['))
		return skip(r);
	return walk(r, false, sample, &s);
}

static int conf_member(struct rd *r, const char *key, void *data)
{
	struct bconf_result *c = data;

	if (strcmp(key, "name") == 0)
		return str(r, c->name, sizeof(c->name));
	if (strcmp(key, "summary") == 0)
		return str(r, c->summary, sizeof(c->summary));
	if (strcmp(key, "samples") == 0)
		return walk(r, true, metric, c);
	return skip(r);
}

static int conf(struct rd *r, const char *key, void *data)
{
	struct bresult *b = data;

	(void)key;
	if (b->n >= BENCH_MAX_CONF)
		return bad(r, "too many configurations");
	return walk(r, true, conf_member, &b->c[b->n++]);
}

static int top(struct rd *r, const char *key, void *data)
{
	struct bresult *b = data;
	double v;
	int err;

	if (strcmp(key, "experiment") == 0)
		return str(r, b->experiment, sizeof(b->experiment));
	if (strcmp(key, "operation") == 0)
		return str(r, b->op, sizeof(b->op));
	if (strcmp(key, "kernel") == 0)
		return str(r, b->kernel, sizeof(b->kernel));
	if (strcmp(key, "configurations") == 0)
		return walk(r, false, conf, b);
	if (strcmp(key, "seed") == 0 || strcmp(key, "repeat") == 0) {
		err = num(r, &v);
		if (err == 0 && v >= 0 && key[0] == 's')
			b->seed = (uint64_t)v;
		else if (err == 0 && v >= 0)
			b->reps = (unsigned int)v;
		return err;
	}
	return skip(r);
}

int bench_read_json(const char *buf, size_t len, struct bresult *b, char *reason,
		    size_t rlen)
{
	struct rd r = { buf, buf + len, buf, reason, rlen, 0 };
	int err;

	memset(b, 0, sizeof(*b));
	err = walk(&r, true, top, b);
	if (err < 0)
		return err;
	ws(&r);
	if (r.p != r.end)
		return bad(&r, "trailing data");
	if (!b->experiment[0] || b->n == 0)
		return bad(&r, "no experiment or no configurations");
	for (size_t i = 0; i < b->n; i++)
		if (!b->c[i].name[0] || b->c[i].n == 0)
			return bad(&r, "a configuration without name or samples");
	return 0;
}
