/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Read back what cgctl_vreport_json() wrote, e.g. the output of a cgctl running inside a
 * VM, so results of several targets can be merged.  A small strict JSON parser (RFC 8259
 * subset: no \u escapes above U+007F are needed by our writer but are accepted as '?').
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "validate/validate.h"

struct jp {
	const char *p;
	const char *start;
	struct cgctl_error *e;
	int depth;
};

static int fail(struct jp *j, const char *what)
{
	return cgctl_error_set(j->e, EINVAL, "malformed report at byte %td: %s",
			       j->p - j->start, what);
}

static void ws(struct jp *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static int lit(struct jp *j, char c)
{
	ws(j);
	if (*j->p != c)
		return 0;
	j->p++;
	return 1;
}

static int escape(struct jp *j, char *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k = strchr(from, *j->p);
	unsigned int u;

	if (*j->p && k) {
		*out = to[k - from];
		j->p++;
		return 0;
	}
	if (*j->p != 'u')
		return fail(j, "bad escape");
	/* four hex digits, each looked at only after the one before it (a "\u0" at the
	 * end of the text was read past its NUL: fuzz-vreport under ASan) */
	for (u = 0, k = j->p + 1; k < j->p + 5; k++) {
		if (!isxdigit((unsigned char)*k))
			return fail(j, "bad escape");
		u = u * 16 + (unsigned int)(isdigit((unsigned char)*k) ? *k - '0'
							  : (tolower((unsigned char)*k) - 'a' + 10));
	}
	*out = u < 0x80 ? (char)u : '?';
	j->p += 5;
	return 0;
}

/* A string into @buf (truncated to @len - 1); @buf may be NULL to skip. */
static int string(struct jp *j, char *buf, size_t len)
{
	size_t n = 0;
	char c;

	if (!lit(j, '"'))
		return fail(j, "expected a string");
	while (*j->p != '"') {
		if ((unsigned char)*j->p < 0x20)
			return fail(j, "unterminated string");
		c = *j->p++;
		if (c == '\\' && escape(j, &c) < 0)
			return -EINVAL;
		if (buf && n + 1 < len)
			buf[n++] = c;
	}
	j->p++;
	if (buf)
		buf[n] = '\0';
	return 0;
}

static int number(struct jp *j, double *v)
{
	char *end;

	ws(j);
	if (strncmp(j->p, "null", 4) == 0) {
		j->p += 4;
		*v = NAN;
		return 0;
	}
	if (*j->p != '-' && !isdigit((unsigned char)*j->p))
		return fail(j, "expected a number");
	*v = strtod(j->p, &end);
	j->p = end;
	return 0;
}

/* A whole number 0..UINT64_MAX, exactly (a double would round seeds above 2^53). */
static int uinteger(struct jp *j, uint64_t *v)
{
	char *end;

	ws(j);
	if (!isdigit((unsigned char)*j->p))
		return fail(j, "expected a whole number");
	errno = 0;
	*v = strtoull(j->p, &end, 10);
	if (errno)
		return fail(j, "number out of range");
	j->p = end;
	return 0;
}

static int skip_value(struct jp *j);

static int skip_container(struct jp *j, char close)
{
	if (++j->depth > 32)
		return fail(j, "nested too deep");
	if (lit(j, close))
		return j->depth--, 0;
	do {
		if (close == '}' && (string(j, NULL, 0) < 0 || !lit(j, ':')))
			return fail(j, "expected a key");
		if (skip_value(j) < 0)
			return -EINVAL;
	} while (lit(j, ','));
	if (!lit(j, close))
		return fail(j, "expected , or end of container");
	j->depth--;
	return 0;
}

static int skip_value(struct jp *j)
{
	double v;

	ws(j);
	if (*j->p == '"')
		return string(j, NULL, 0);
	if (lit(j, '{'))
		return skip_container(j, '}');
	if (lit(j, '['))
		return skip_container(j, ']');
	if (strncmp(j->p, "true", 4) == 0 || strncmp(j->p, "false", 5) == 0) {
		j->p += *j->p == 't' ? 4 : 5;
		return 0;
	}
	return number(j, &v);
}

/* Iterate the members of an object: @member is called with the key, positioned at the
 * value, and must consume it. */
static int object(struct jp *j, int (*member)(struct jp *, const char *, void *), void *data)
{
	char key[32];

	if (!lit(j, '{'))
		return fail(j, "expected an object");
	if (lit(j, '}'))
		return 0;
	do {
		if (string(j, key, sizeof(key)) < 0)
			return -EINVAL;
		if (!lit(j, ':'))
			return fail(j, "expected :");
		if (member(j, key, data) < 0)
			return -EINVAL;
	} while (lit(j, ','));
	return lit(j, '}') ? 0 : fail(j, "expected , or }");
}

static int quantity_member(struct jp *j, const char *k, void *data)
{
	struct cgctl_vquantity *q = data;
	char v[16];

	if (strcmp(k, "name") == 0)
		return string(j, q->name, sizeof(q->name));
	if (strcmp(k, "unit") == 0)
		return string(j, q->unit, sizeof(q->unit));
	if (strcmp(k, "reason") == 0)
		return string(j, q->reason, sizeof(q->reason));
	if (strcmp(k, "predicted") == 0)
		return number(j, &q->predicted);
	if (strcmp(k, "observed_mean") == 0)
		return number(j, &q->observed.mean);
	if (strcmp(k, "observed_sd") == 0)
		return number(j, &q->observed.sd);
	if (strcmp(k, "tolerance") == 0)
		return number(j, &q->tolerance);
	if (strcmp(k, "verdict") != 0)
		return skip_value(j);
	if (string(j, v, sizeof(v)) < 0)
		return -EINVAL;
	return cgctl_verdict_parse(v, &q->verdict) < 0 ? fail(j, "unknown verdict") : 0;
}

/* Quantities are counted first (a dry pass) so the array is allocated once. */
static int quantities(struct jp *j, struct cgctl_vscenario_result *s)
{
	const char *save = j->p;
	size_t n = 0;

	if (skip_value(j) < 0)
		return -EINVAL;
	for (const char *p = save; p < j->p; p++)
		n += *p == '{';	/* names/reasons with '{' only over-allocate */
	j->p = save;
	s->quantities = calloc(n ? n : 1, sizeof(*s->quantities));
	if (!s->quantities)
		return -ENOMEM;
	if (!lit(j, '['))
		return fail(j, "expected quantities array");
	if (lit(j, ']'))
		return 0;
	do {
		struct cgctl_vquantity *q = &s->quantities[s->n_quantities];

		q->predicted = q->observed.mean = q->observed.sd = NAN;
		q->verdict = CGCTL_VERDICT_NA;
		if (s->n_quantities >= n || object(j, quantity_member, q) < 0)
			return -EINVAL;
		q->observed.n = 0;
		q->deviation = q->observed.mean - q->predicted;
		q->observed.rsd = q->observed.mean ? q->observed.sd / fabs(q->observed.mean) : 0;
		s->n_quantities++;
	} while (lit(j, ','));
	return lit(j, ']') ? 0 : fail(j, "expected , or ]");
}

static int scenario_member(struct jp *j, const char *k, void *data)
{
	struct cgctl_vscenario_result *s = data;

	if (strcmp(k, "name") == 0)
		return string(j, s->name, sizeof(s->name));
	if (strcmp(k, "summary") == 0)
		return string(j, s->summary, sizeof(s->summary));
	if (strcmp(k, "quantities") == 0 && !s->quantities)
		return quantities(j, s);
	return skip_value(j);
}

static int scenarios(struct jp *j, struct cgctl_vreport *r)
{
	struct cgctl_vscenario_result *s;

	if (!lit(j, '['))
		return fail(j, "expected scenarios array");
	if (lit(j, ']'))
		return 0;
	do {
		s = cgctl_vreport_add(r, "", "", 0);
		if (!s)
			return -ENOMEM;
		free(s->quantities);
		s->quantities = NULL;
		if (object(j, scenario_member, s) < 0)
			return -EINVAL;
	} while (lit(j, ','));
	return lit(j, ']') ? 0 : fail(j, "expected , or ]");
}

/* "sweep": its cases, seed and CPUs; the distribution is computed again from the
 * scenarios (cgctl_vreport_sweep_stats()) */
static int sweep_member(struct jp *j, const char *k, void *data)
{
	struct cgctl_vreport *r = data;
	uint64_t v;

	if (strcmp(k, "seed") == 0)
		return uinteger(j, &r->seed);
	if (strcmp(k, "cases") == 0) {
		if (uinteger(j, &v) < 0)
			return -EINVAL;
		if (v < 1 || v > 10000)
			return fail(j, "sweep cases not in 1..10000");
		r->sweep = (unsigned int)v;
		return 0;
	}
	if (strcmp(k, "cpus") == 0) {
		if (uinteger(j, &v) < 0)
			return -EINVAL;
		if (v > 1u << 20)
			return fail(j, "bad sweep cpus");
		r->cpus = (unsigned int)v;
		return 0;
	}
	return skip_value(j);
}

static int report_member(struct jp *j, const char *k, void *data)
{
	struct cgctl_vreport *r = data;
	char v[16];
	double d;

	if (strcmp(k, "kernel") == 0)
		return string(j, r->kernel, sizeof(r->kernel));
	if (strcmp(k, "target") == 0)
		return string(j, r->target, sizeof(r->target));
	if (strcmp(k, "scenarios") == 0)
		return scenarios(j, r);
	if (strcmp(k, "sweep") == 0)
		return object(j, sweep_member, r);
	if (strcmp(k, "runs") == 0) {
		if (number(j, &d) < 0 || !(d >= 0 && d < 1e6))
			return fail(j, "bad runs");
		r->runs = (unsigned int)d;
		return 0;
	}
	if (strcmp(k, "verdict") != 0)
		return skip_value(j);
	if (string(j, v, sizeof(v)) < 0)
		return -EINVAL;
	return cgctl_verdict_parse(v, &r->verdict) < 0 ? fail(j, "unknown verdict") : 0;
}

int cgctl_vreport_parse_json(const char *json, struct cgctl_vreport **ret,
			     struct cgctl_error *e)
{
	struct jp j = { .p = json, .start = json, .e = e };
	struct cgctl_vreport *r;
	int err;

	if (!json)
		return -EINVAL;
	err = cgctl_vreport_new(&r, "", "", 0);
	if (err < 0)
		return err;
	err = object(&j, report_member, r);
	ws(&j);
	if (!err && *j.p)
		err = fail(&j, "trailing data");
	/* a refusal without its own words (a member's check that returns -EINVAL, such as
	 * a quantity that is no object): name the place, never an empty reason */
	if (err == -EINVAL && e && !e->msg[0])
		err = fail(&j, "unexpected value");
	if (err < 0) {
		cgctl_vreport_free(r);
		return err;
	}
	*ret = r;
	return 0;
}
