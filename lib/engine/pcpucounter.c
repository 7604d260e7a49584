// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Model of struct percpu_counter: a global s64 count under a spinlock plus an s32 delta
 * per CPU that is folded into the count once its magnitude reaches the batch.
 *
 * Mirrors lib/percpu_counter.c (v2.6.33 and v6.12; the fold rule is the same in both:
 * 6.x only adds a cmpxchg fast path for the non-folding case).  Pure: no I/O, no clock.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"
#include "engine/pcpucounter.h"

/* mirrors lib/percpu_counter.c:compute_batch_value() (v6.12; same in v2.6.33's
 * percpu_counter_hotcpu_callback()) */
int cgctl_pcpuc_batch(uint32_t kver, unsigned int ncpu)
{
	(void)kver;	/* max(32, 2 * ncpu) from 2.6.27 through 6.18 */
	if (ncpu == 0 || ncpu > CGCTL_PCPUC_MAX_CPUS)
		return -EINVAL;
	return (int)MAX((unsigned int)PCPUC_MIN_BATCH, 2 * ncpu);
}

/* Each delta stays within (-batch, batch) after an add, so the global count misses at
 * most batch - 1 per CPU. */
uint64_t cgctl_pcpuc_error_bound(int32_t batch, unsigned int ncpu)
{
	if (batch <= 1)
		return 0;
	return (uint64_t)(batch - 1) * ncpu;
}

int cgctl_pcpuc_new(struct cgctl_pcpuc **ret, unsigned int ncpu, int32_t batch,
		    int64_t init)
{
	struct cgctl_pcpuc *c;

	if (!ret || ncpu == 0 || ncpu > CGCTL_PCPUC_MAX_CPUS || batch < 1)
		return -EINVAL;
	c = calloc(1, sizeof(*c) + ncpu * sizeof(c->delta[0]));
	if (!c)
		return -ENOMEM;
	c->count = init;
	c->batch = batch;
	c->ncpu = ncpu;
	*ret = c;
	return 0;
}

void cgctl_pcpuc_free(struct cgctl_pcpuc *c)
{
	free(c);
}

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

/* mirrors lib/percpu_counter.c:percpu_counter_add_batch() (v6.12) */
int cgctl_pcpuc_add(struct cgctl_pcpuc *c, unsigned int cpu, int64_t amount)
{
	int64_t d;

	if (!c || cpu >= c->ncpu)
		return -EINVAL;
	d = (int64_t)c->delta[cpu] + amount;
	if (abs64(d) >= c->batch) {
		/* the locked slow path: the whole delta, this add included, moves */
		c->count += d;
		c->delta[cpu] = 0;
		return 1;
	}
	c->delta[cpu] = (int32_t)d;
	return 0;
}

/* mirrors include/linux/percpu_counter.h:percpu_counter_read() (v6.12) */
int64_t cgctl_pcpuc_read(const struct cgctl_pcpuc *c)
{
	return c ? c->count : 0;
}

/* mirrors include/linux/percpu_counter.h:percpu_counter_read_positive() (v6.12) */
int64_t cgctl_pcpuc_read_positive(const struct cgctl_pcpuc *c)
{
	return c && c->count >= 0 ? c->count : 0;
}

/* mirrors lib/percpu_counter.c:__percpu_counter_sum() (v6.12) */
int64_t cgctl_pcpuc_sum(const struct cgctl_pcpuc *c)
{
	int64_t sum;
	unsigned int cpu;

	if (!c)
		return 0;
	sum = c->count;
	for (cpu = 0; cpu < c->ncpu; cpu++)
		sum += c->delta[cpu];
	return sum;
}

int32_t cgctl_pcpuc_delta(const struct cgctl_pcpuc *c, unsigned int cpu)
{
	if (!c || cpu >= c->ncpu)
		return 0;
	return c->delta[cpu];
}

static int cmp64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* mirrors lib/percpu_counter.c:__percpu_counter_compare() (v6.12) */
int cgctl_pcpuc_compare(const struct cgctl_pcpuc *c, int64_t rhs)
{
	if (!c)
		return -EINVAL;
	/* the rough count decides when it is further than batch * ncpu from rhs */
	if (abs64(c->count - rhs) > (int64_t)c->batch * c->ncpu)
		return c->count > rhs ? 1 : -1;
	return cmp64(cgctl_pcpuc_sum(c), rhs);
}

static uint64_t err_now(const struct cgctl_pcpuc *c)
{
	return (uint64_t)abs64(cgctl_pcpuc_read(c) - cgctl_pcpuc_sum(c));
}

int cgctl_pcpuc_sim_run(unsigned int ncpu, int32_t batch,
			const struct cgctl_pcpuc_op *ops, size_t n,
			struct cgctl_pcpuc_sim *ret)
{
	struct cgctl_pcpuc *c;
	size_t i;
	int r;

	if (!ret || (n && !ops))
		return -EINVAL;
	r = cgctl_pcpuc_new(&c, ncpu, batch, 0);
	if (r < 0)
		return r;
	*ret = (struct cgctl_pcpuc_sim){ 0 };
	for (i = 0; i < n; i++) {
		r = cgctl_pcpuc_add(c, ops[i].cpu, ops[i].amount);
		if (r < 0)
			goto out;
		ret->folds += (uint64_t)r;
		ret->max_abs_err = MAX(ret->max_abs_err, err_now(c));
	}
	ret->read = cgctl_pcpuc_read(c);
	ret->sum = cgctl_pcpuc_sum(c);
	r = 0;
out:
	cgctl_pcpuc_free(c);
	return r;
}
