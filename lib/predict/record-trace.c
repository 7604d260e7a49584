/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The workload trace: the one parser of the text `cgctl bw record` writes and `bw predict
 * --trace` / `bw recommend --trace` read (format in cgctl-bw(1), "TRACE FORMAT").
 *
 *   cgctl-bw-trace 1                  version line (absent: version 0, same grammar)
 *   cpus N | duration DUR | lost N    metadata of the recording
 *   thread THREAD TID [COMM]          names a thread (informational)
 *   THREAD busy|idle|wait|ready DUR [START]
 *                                     an interval; START: time since the trace began
 *
 * "wait" is time the thread was runnable but held back by its group's limit (throttled),
 * or behind its own group's threads on every CPU (in version 1 traces also any
 * preemption): the demand it did not get when it wanted
 * it.  The replay drops it, so the busy time around it joins up and the simulated kernel
 * decides the waiting anew; a replay under a looser limit then runs that work sooner, as
 * the thread would have.  "ready" (version 2) is time runnable while other tasks of the
 * machine held the CPU: no limit of the group gives it back, so the replay keeps it in
 * the timeline like idle time (lib/predict/record-demand.c says how they are told apart).
 *
 * Lines with START may come in any order: each thread's intervals are sorted by START,
 * overlaps are refused and gaps are idle.  Lines without START follow each other.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"
#include "predict/record-internal.h"

#define TRACE_MAX_THREADS 65536
#define TRACE_MAX_SPAN_NS (366ULL * 86400 * 1000000000ULL)	/* a year */
#define TRACE_VERSION 2

enum tstate { TS_BUSY, TS_IDLE, TS_WAIT, TS_READY };

struct raw_iv {
	uint64_t start, dur;
	enum tstate st;
};

struct raw_thread {
	struct raw_iv *iv;
	size_t n, cap;
	int timed;		/* 0: no line yet, 1: lines with START, -1: without */
};

struct parse {
	struct cgctl_bw_trace *t;
	struct raw_thread *raw;
	unsigned int nraw;
	bool seen_data, seen_version;
};

static int parse_dur(const char *s, uint64_t *ns)
{
	static const struct { const char *sfx; uint64_t mul; } u[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 }, { "", 1000 },
	};
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(u); i++) {
		if (strcmp(end, u[i].sfx))
			continue;
		if (v > TRACE_MAX_SPAN_NS / u[i].mul)
			return -EINVAL;
		*ns = v * u[i].mul;
		return 0;
	}
	return -EINVAL;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v > max ? -EINVAL : 0;
}

static int grow_raw(struct parse *p, unsigned long id)
{
	struct raw_thread *n;

	if (id < p->nraw)
		return 0;
	n = realloc(p->raw, (id + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memset(n + p->nraw, 0, (id + 1 - p->nraw) * sizeof(*n));
	p->raw = n;
	p->nraw = id + 1;
	return 0;
}

static int raw_push(struct raw_thread *rt, const struct raw_iv *iv)
{
	if (rt->n == rt->cap) {
		size_t cap = rt->cap ? 2 * rt->cap : 16;
		struct raw_iv *n = realloc(rt->iv, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		rt->iv = n;
		rt->cap = cap;
	}
	rt->iv[rt->n++] = *iv;
	return 0;
}

/* "cgctl-bw-trace V", "cpus N", "duration DUR", "lost N", "thread ...": 1 if @f was
 * metadata, 0 if not, -EINVAL. */
static int parse_meta(struct parse *p, char **f, int nf, size_t lineno,
		      struct cgctl_error *e)
{
	unsigned long long v;

	if (!strcmp(f[0], "cgctl-bw-trace")) {
		if (nf != 2 || parse_uint(f[1], UINT32_MAX, &v) < 0)
			return cgctl_error_set(e, EINVAL, "trace line %zu: expected "
					       "'cgctl-bw-trace VERSION'", lineno);
		if (p->seen_version || p->seen_data)
			return cgctl_error_set(e, EINVAL, "trace line %zu: the version line "
					       "must come first, once", lineno);
		if (v > TRACE_VERSION)
			return cgctl_error_set(e, EINVAL, "trace line %zu: format version %llu "
					       "is newer than this cgctl's (%d)", lineno, v,
					       TRACE_VERSION);
		p->t->version = (unsigned int)v;
		p->seen_version = true;
		return 1;
	}
	if (!strcmp(f[0], "thread"))
		return nf >= 3 ? 1 : cgctl_error_set(e, EINVAL, "trace line %zu: expected "
						     "'thread THREAD TID [COMM]'", lineno);
	if (strcmp(f[0], "cpus") && strcmp(f[0], "duration") && strcmp(f[0], "lost"))
		return 0;
	if (nf != 2)
		return cgctl_error_set(e, EINVAL, "trace line %zu: '%s' takes one value",
				       lineno, f[0]);
	if (!strcmp(f[0], "duration")) {
		if (parse_dur(f[1], &p->t->duration_ns) < 0)
			return cgctl_error_set(e, EINVAL, "trace line %zu: bad duration '%s'",
					       lineno, f[1]);
		return 1;
	}
	if (parse_uint(f[1], !strcmp(f[0], "cpus") ? 65536 : UINT64_MAX, &v) < 0 ||
	    (!strcmp(f[0], "cpus") && !v))
		return cgctl_error_set(e, EINVAL, "trace line %zu: bad %s '%s'", lineno, f[0],
				       f[1]);
	if (!strcmp(f[0], "cpus"))
		p->t->ncpus = (unsigned int)v;
	else
		p->t->lost = v;
	return 1;
}

static int parse_state(const char *s, enum tstate *st)
{
	static const char *const names[] = { "busy", "idle", "wait", "ready" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*st = (enum tstate)i;
			return 0;
		}
	return -EINVAL;
}

static int parse_interval(struct parse *p, char **f, int nf, size_t lineno,
			  struct cgctl_error *e)
{
	unsigned long long id;
	struct raw_iv iv = { 0 };
	struct raw_thread *rt;
	int r;

	if (nf != 3 && nf != 4)
		return cgctl_error_set(e, EINVAL, "trace line %zu: expected THREAD "
				       "busy|idle|wait|ready DURATION [START]", lineno);
	if (parse_uint(f[0], TRACE_MAX_THREADS - 1, &id) < 0)
		return cgctl_error_set(e, EINVAL, "trace line %zu: bad thread number '%s'",
				       lineno, f[0]);
	if (parse_state(f[1], &iv.st) < 0)
		return cgctl_error_set(e, EINVAL, "trace line %zu: '%s' is not busy, idle, "
				       "wait or ready", lineno, f[1]);
	if (parse_dur(f[2], &iv.dur) < 0)
		return cgctl_error_set(e, EINVAL, "trace line %zu: bad duration '%s'",
				       lineno, f[2]);
	if (nf == 4 && parse_dur(f[3], &iv.start) < 0)
		return cgctl_error_set(e, EINVAL, "trace line %zu: bad start '%s'", lineno,
				       f[3]);
	r = grow_raw(p, (unsigned long)id);
	if (r < 0)
		return r;
	rt = &p->raw[id];
	if (rt->timed && rt->timed != (nf == 4 ? 1 : -1))
		return cgctl_error_set(e, EINVAL, "trace line %zu: thread %llu mixes lines "
				       "with and without START", lineno, id);
	rt->timed = nf == 4 ? 1 : -1;
	p->seen_data = true;
	return raw_push(rt, &iv);
}

static int parse_line(struct parse *p, char *line, size_t lineno, struct cgctl_error *e)
{
	char *f[5], *save = NULL;
	int nf = 0, r;

	for (char *tok = strtok_r(line, "\t ", &save); tok; tok = strtok_r(NULL, "\t ", &save)) {
		if (nf == 5)
			break;	/* "thread" lines may carry a COMM with blanks */
		f[nf++] = tok;
	}
	if (nf == 0)
		return 0;
	r = parse_meta(p, f, nf, lineno, e);
	if (r)
		return r < 0 ? r : 0;
	if (nf > 4)
		return cgctl_error_set(e, EINVAL, "trace line %zu: more than 4 fields", lineno);
	return parse_interval(p, f, nf, lineno, e);
}

int bw_trace_add_interval(struct bw_trace_thread *tt, bool busy, uint64_t ns)
{
	if (!busy && tt->n) {
		tt->idle[tt->n - 1] += ns;
		return 0;
	}
	if (busy && tt->n && !tt->idle[tt->n - 1]) {
		tt->busy[tt->n - 1] += ns;	/* busy, wait, busy: one busy phase */
		return 0;
	}
	if (tt->n == tt->cap) {
		size_t cap = tt->cap ? 2 * tt->cap : 16;
		uint64_t *b = realloc(tt->busy, cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		tt->busy = b;
		b = realloc(tt->idle, cap * sizeof(*b));
		if (!b)
			return -ENOMEM;
		tt->idle = b;
		tt->cap = cap;
	}
	tt->busy[tt->n] = busy ? ns : 0;
	tt->idle[tt->n] = busy ? 0 : ns;
	tt->n++;
	return 0;
}

static int cmp_start(const void *a, const void *b)
{
	const struct raw_iv *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort a timed thread, refuse overlaps, turn gaps into idle, then build busy/idle pairs. */
static int finish_thread(struct raw_thread *rt, struct bw_trace_thread *tt, unsigned int id,
			 struct cgctl_error *e)
{
	uint64_t at = 0;
	int r;

	if (rt->timed > 0)
		qsort(rt->iv, rt->n, sizeof(*rt->iv), cmp_start);
	for (size_t i = 0; i < rt->n; i++) {
		const struct raw_iv *iv = &rt->iv[i];

		if (rt->timed > 0) {
			if (iv->start < at)
				return cgctl_error_set(e, EINVAL, "trace: thread %u: the interval "
						       "at %" PRIu64 "ns overlaps the one before",
						       id, iv->start);
			r = iv->start > at ? bw_trace_add_interval(tt, false, iv->start - at) : 0;
			if (r < 0)
				return r;
			at = iv->start;
		}
		if (at + iv->dur > TRACE_MAX_SPAN_NS)
			return cgctl_error_set(e, EINVAL, "trace: thread %u lasts more than a year",
					       id);
		at += iv->dur;
		if (iv->st == TS_WAIT) {
			tt->wait_ns += iv->dur;
			continue;
		}
		if (iv->st == TS_READY)		/* kept: idle to the replay */
			tt->ready_ns += iv->dur;
		r = bw_trace_add_interval(tt, iv->st == TS_BUSY, iv->dur);
		if (r < 0)
			return r;
	}
	return 0;
}

static int finish(struct parse *p, struct cgctl_error *e)
{
	struct cgctl_bw_trace *t = p->t;
	int r;

	if (!p->nraw)
		return cgctl_error_set(e, EINVAL, "trace has no intervals");
	t->thr = calloc(p->nraw, sizeof(*t->thr));
	if (!t->thr)
		return -ENOMEM;
	t->nthr = p->nraw;
	for (unsigned int i = 0; i < p->nraw; i++)
		if ((r = finish_thread(&p->raw[i], &t->thr[i], i, e)) < 0)
			return r;
	return 0;
}

static int parse_all(struct parse *p, const char *buf, size_t len, struct cgctl_error *e)
{
	size_t lineno = 0, i = 0;
	int r = 0;

	while (i < len && r == 0) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (buf + i)) : len - i;
		char *line = strndup(buf + i, l);

		lineno++;
		i += l + 1;
		if (!line)
			return -ENOMEM;
		if (strlen(line) != l)
			r = cgctl_error_set(e, EINVAL, "trace line %zu: contains a NUL byte",
					    lineno);
		line[strcspn(line, "#\r")] = '\0';
		if (!r)
			r = parse_line(p, line, lineno, e);
		free(line);
	}
	return r < 0 ? r : finish(p, e);
}

CGCTL_EXPORT int cgctl_bw_trace_parse(const char *buf, size_t len,
				      struct cgctl_bw_trace **ret, struct cgctl_error *e)
{
	struct parse p = { 0 };
	int r;

	p.t = calloc(1, sizeof(*p.t));
	if (!p.t)
		return -ENOMEM;
	r = parse_all(&p, buf, len, e);
	for (unsigned int i = 0; i < p.nraw; i++)
		free(p.raw[i].iv);
	free(p.raw);
	if (r < 0) {
		cgctl_bw_trace_free(p.t);
		return r;
	}
	*ret = p.t;
	return 0;
}

int cgctl_bw_trace_info(const struct cgctl_bw_trace *t, struct cgctl_bw_trace_info *ret)
{
	if (!t || !ret || ret->size < sizeof(*ret))
		return -EINVAL;
	*ret = (struct cgctl_bw_trace_info){ .size = sizeof(*ret) };
	ret->version = t->version;
	ret->threads = t->nthr;
	ret->ncpus = t->ncpus;
	ret->lost = t->lost;
	for (unsigned int i = 0; i < t->nthr; i++) {
		const struct bw_trace_thread *tt = &t->thr[i];
		uint64_t span = 0;

		for (size_t k = 0; k < tt->n; k++) {
			ret->busy_ns += tt->busy[k];
			span += tt->busy[k] + tt->idle[k];
		}
		ret->wait_ns += tt->wait_ns;
		ret->ready_ns += tt->ready_ns;
		ret->span_ns = MAX(ret->span_ns, span);
	}
	ret->duration_ns = t->duration_ns ? t->duration_ns : ret->span_ns;
	return 0;
}

CGCTL_EXPORT uint64_t cgctl_bw_trace_get(const struct cgctl_bw_trace *t,
				     enum cgctl_bw_trace_key key)
{
	struct cgctl_bw_trace_info ti = { .size = sizeof(ti) };

	if (cgctl_bw_trace_info(t, &ti) < 0)
		return 0;
	switch (key) {
	case CGCTL_BW_TRACE_VERSION:
		return ti.version;
	case CGCTL_BW_TRACE_THREADS:
		return ti.threads;
	case CGCTL_BW_TRACE_NCPUS:
		return ti.ncpus;
	case CGCTL_BW_TRACE_LOST:
		return ti.lost;
	case CGCTL_BW_TRACE_BUSY_NS:
		return ti.busy_ns;
	case CGCTL_BW_TRACE_WAIT_NS:
		return ti.wait_ns;
	case CGCTL_BW_TRACE_SPAN_NS:
		return ti.span_ns;
	case CGCTL_BW_TRACE_DURATION_NS:
		return ti.duration_ns;
	case CGCTL_BW_TRACE_READY_NS:
		return ti.ready_ns;
	}
	return 0;
}

CGCTL_EXPORT void cgctl_bw_trace_free(struct cgctl_bw_trace *t)
{
	if (!t)
		return;
	for (unsigned int i = 0; i < t->nthr; i++) {
		free(t->thr[i].busy);
		free(t->thr[i].idle);
	}
	free(t->thr);
	free(t);
}
