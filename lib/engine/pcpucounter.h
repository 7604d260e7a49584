/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal declarations of the percpu_counter model (lib/engine/pcpucounter.c). */
#ifndef CGCTL_ENGINE_PCPUCOUNTER_H
#define CGCTL_ENGINE_PCPUCOUNTER_H

#include "libcgctl.h"

/* Not exported (issue 28: no caller outside the library but tests): the engine's
 * percpu_counter, which the RSS counter model (rsscount.c) builds on. */
/* ---- percpu_counter model (lib/percpu_counter.c) ---- */
/* A simulated struct percpu_counter: global count plus one s32 delta per CPU. */
struct cgctl_pcpuc;

/* Default batch (percpu_counter_batch) for @ncpu online CPUs: max(32, 2 * ncpu).
 * Returns: the batch, or -EINVAL when @ncpu is 0 or above CGCTL_PCPUC_MAX_CPUS. */
int cgctl_pcpuc_batch(uint32_t kver, unsigned int ncpu);
/* Worst |read - sum| of a counter with @batch on @ncpu CPUs: (batch - 1) * ncpu.
 * Returns: the bound in counter units (0 for batch <= 1). */
uint64_t cgctl_pcpuc_error_bound(int32_t batch, unsigned int ncpu);
/* A counter starting at @init with every CPU delta 0.
 * Returns: 0, -EINVAL (ncpu 0 or too large, batch < 1), -ENOMEM. */
int cgctl_pcpuc_new(struct cgctl_pcpuc **ret, unsigned int ncpu, int32_t batch, int64_t init);
void cgctl_pcpuc_free(struct cgctl_pcpuc *c);
/* percpu_counter_add_batch() on @cpu.  Returns: 1 when the delta was folded into the
 * global count, 0 when it stayed in the CPU's delta, -EINVAL for a bad @cpu. */
int cgctl_pcpuc_add(struct cgctl_pcpuc *c, unsigned int cpu, int64_t amount);
/* Returns: percpu_counter_read(): the global count only (approximate). */
int64_t cgctl_pcpuc_read(const struct cgctl_pcpuc *c);
/* Returns: percpu_counter_read_positive(): max(0, count). */
int64_t cgctl_pcpuc_read_positive(const struct cgctl_pcpuc *c);
/* Returns: percpu_counter_sum(): count plus every CPU's delta (exact). */
int64_t cgctl_pcpuc_sum(const struct cgctl_pcpuc *c);
/* Returns: the pending delta of @cpu (0 for a bad @cpu). */
int32_t cgctl_pcpuc_delta(const struct cgctl_pcpuc *c, unsigned int cpu);
/* __percpu_counter_compare(c, rhs, batch): uses the exact sum only when the
 * approximate count is within batch * ncpu of @rhs.  Returns: -1, 0 or 1. */
int cgctl_pcpuc_compare(const struct cgctl_pcpuc *c, int64_t rhs);

/* One add of a simulated sequence. */
struct cgctl_pcpuc_op {
	unsigned int cpu;
	int64_t amount;
};
/* Outcome of cgctl_pcpuc_sim_run(). */
struct cgctl_pcpuc_sim {
	int64_t read;		/* percpu_counter_read() at the end */
	int64_t sum;		/* percpu_counter_sum() at the end */
	uint64_t folds;		/* adds that took the lock and folded into count */
	uint64_t max_abs_err;	/* largest |read - sum| seen after any add */
};
/* Apply @ops in order to a fresh counter (init 0).
 * Returns: 0, -EINVAL (bad ncpu/batch/cpu in an op), -ENOMEM. */
int cgctl_pcpuc_sim_run(unsigned int ncpu, int32_t batch, const struct cgctl_pcpuc_op *ops,
			size_t n, struct cgctl_pcpuc_sim *ret);

/* Online CPUs above which the batch stops being 32 (2 * ncpu > 32). */
#define PCPUC_MIN_BATCH 32

struct cgctl_pcpuc {
	int64_t count;		/* fbc->count */
	int32_t batch;
	unsigned int ncpu;
	int32_t delta[];	/* *fbc->counters, one per online CPU */
};

#endif
