/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth model: the workload side.  Threads are always busy, cycle between a
 * busy phase (CPU time to consume) and an idle phase (wall time asleep), optionally
 * jittered from the simulation's seeded generator, or follow a parsed trace.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "engine/bandwidth.h"

/* @v scaled by 1 + u, u uniform in [-ppm, +ppm] parts per million. */
uint64_t bw_jitter(uint64_t *state, uint64_t v, uint32_t ppm)
{
	int64_t r;

	if (!ppm || !v)
		return v;
	ppm = MIN(ppm, BW_CAP_ONE);
	r = (int64_t)(bw_rand(state) % (2 * (uint64_t)ppm + 1)) - ppm;
	return bw_jitter_scale(v, r);
}

/*
 * The divider of libdivide's libdivide_u64_gen(): magic = floor(2^(64 + l) / d) + 1 with
 * l = floor(log2 d) when that is within 2^l of exact, else the 65-bit multiplier
 * 2 floor(2^(64 + l) / d) + 1 (its top bit implicit) and the add-and-halve step.
 */
void bw_divu64_init(struct bw_divu64 *d, uint64_t div)
{
	unsigned int l = 63 - __builtin_clzll(div | 1);
	unsigned __int128 num = (unsigned __int128)1 << (64 + l);
	uint64_t m, rem, twice;

	d->shift = l;
	d->add = false;
	d->magic = 0;
	if (!(div & (div - 1)))
		return;		/* 1 or a power of 2 */
	m = (uint64_t)(num / div);
	rem = (uint64_t)(num - (unsigned __int128)m * div);
	if (div - rem >= (1ULL << l)) {
		twice = rem + rem;
		m += m;
		if (twice >= div || twice < rem)
			m++;
		d->add = true;
	}
	d->magic = m + 1;
}

void bw_thread_jitter_init(struct bw_thread *t)
{
	bw_divu64_init(&t->jdiv, 2 * (uint64_t)t->ppm + 1);
}

static int add_interval(struct bw_trace_thread *tt, bool busy, uint64_t ns)
{
	if (!busy && tt->n) {
		tt->idle[tt->n - 1] += ns;
		return 0;
	}
	if (busy && tt->n && !tt->idle[tt->n - 1]) {
		tt->busy[tt->n - 1] += ns;	/* two busy lines in a row */
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
		if (v > UINT64_MAX / u[i].mul / 4)
			return -EINVAL;
		*ns = v * u[i].mul;
		return 0;
	}
	return -EINVAL;
}

#define TRACE_MAX_THREADS 65536

static int grow_threads(struct cgctl_bw_trace *t, unsigned long id)
{
	struct bw_trace_thread *n;

	if (id < t->nthr)
		return 0;
	n = realloc(t->thr, (id + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memset(n + t->nthr, 0, (id + 1 - t->nthr) * sizeof(*n));
	t->thr = n;
	t->nthr = id + 1;
	return 0;
}

static int parse_line(struct cgctl_bw_trace *t, char *line, size_t lineno,
		      struct cgctl_error *e)
{
	char *f[4], *save = NULL, *end;
	int nf = 0, r;
	unsigned long id;
	uint64_t ns;
	bool busy;

	for (char *tok = strtok_r(line, "\t ", &save); tok; tok = strtok_r(NULL, "\t ", &save)) {
		if (nf == 3)
			return cgctl_error_set(e, EINVAL, "trace line %zu: more than 3 fields",
					       lineno);
		f[nf++] = tok;
	}
	if (nf == 0)
		return 0;
	if (nf != 3)
		return cgctl_error_set(e, EINVAL,
				       "trace line %zu: expected THREAD busy|idle DURATION",
				       lineno);
	errno = 0;
	id = strtoul(f[0], &end, 10);
	if (errno || *end || end == f[0] || id >= TRACE_MAX_THREADS)
		return cgctl_error_set(e, EINVAL, "trace line %zu: bad thread number '%s'",
				       lineno, f[0]);
	if (strcmp(f[1], "busy") && strcmp(f[1], "idle"))
		return cgctl_error_set(e, EINVAL, "trace line %zu: '%s' is not busy or idle",
				       lineno, f[1]);
	busy = !strcmp(f[1], "busy");
	if (parse_dur(f[2], &ns) < 0)
		return cgctl_error_set(e, EINVAL, "trace line %zu: bad duration '%s'",
				       lineno, f[2]);
	r = grow_threads(t, id);
	if (r < 0)
		return r;
	return add_interval(&t->thr[id], busy, ns);
}

CGCTL_EXPORT int cgctl_bw_trace_parse(const char *buf, size_t len,
				      struct cgctl_bw_trace **ret, struct cgctl_error *e)
{
	struct cgctl_bw_trace *t = calloc(1, sizeof(*t));
	size_t lineno = 0, i = 0;
	int r = 0;

	if (!t)
		return -ENOMEM;
	while (i < len && r == 0) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (buf + i)) : len - i;
		char *line = strndup(buf + i, l);

		lineno++;
		i += l + 1;
		if (!line) {
			r = -ENOMEM;
			break;
		}
		line[strcspn(line, "#\r")] = '\0';
		r = parse_line(t, line, lineno, e);
		free(line);
	}
	if (r == 0 && t->nthr == 0)
		r = cgctl_error_set(e, EINVAL, "trace has no intervals");
	if (r < 0) {
		cgctl_bw_trace_free(t);
		return r;
	}
	*ret = t;
	return 0;
}

CGCTL_EXPORT unsigned int cgctl_bw_trace_threads(const struct cgctl_bw_trace *t)
{
	return t ? t->nthr : 0;
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
