/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal interface of lib/bench, the experiments of `cgctl bench` (cgctl-bench(1)).
 * Not part of libcgctl.so: a convenience library linked into cgctl only.  Scratch
 * cgroups and workloads are lib/validate's (env.c, spawn.c), called, not copied; the
 * "what the model says" counts come from the engine (stock, bandwidth, percpu_counter)
 * through libcgctl's API.
 */
#ifndef CGCTL_BENCH_H
#define CGCTL_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- stats.c ---- */
/* The test level of "above noise": Welch's two-sided p below this. */
#define BENCH_ALPHA 0.01

struct bstats {
	size_t n;
	double mean;
	double sd;		/* sample standard deviation (n - 1) */
};
struct bwelch {
	double t;		/* (mean_b - mean_a) / standard error */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided */
};
void bstats_compute(const double *x, size_t n, struct bstats *s);
/* Regularized incomplete beta function I_x(a, b).  Returns: the value, NAN on bad args. */
double bstats_ibeta(double a, double b, double x);
/* Student t distribution's CDF P(T <= t) with @df degrees of freedom (df > 0, real). */
double bstats_t_cdf(double t, double df);
/* Welch's t-test of @b against @a.  Returns: 0, -EINVAL (fewer than 2 samples in one). */
int bstats_welch(const struct bstats *a, const struct bstats *b, struct bwelch *w);
/* The run order: @reps times each of @nconf configurations, shuffled by a generator
 * seeded with @seed (same seed, same order).  Returns: 0 (*ret malloc'ed, nconf * reps
 * entries), -EINVAL, -ENOMEM. */
int bstats_order(unsigned int nconf, unsigned int reps, uint64_t seed, unsigned int **ret);

/* ---- the experiments (experiments.c) ---- */
enum bmetric { BM_WALL, BM_TASK, BM_CYCLES, BM_INSN, BM_BRANCH, BM_N };
extern const char *const bmetric_key[BM_N];	/* "wall_ns_per_op" ... */

#define BENCH_MAX_CONF 12
#define BENCH_MAX_RUNS 100

enum bkind { BK_FAULT, BK_ALLOC, BK_PIPE, BK_PROCREAD };

struct bconf {
	const char *name;
	const char *summary;
	const char *ctrl;	/* NULL: in cgctl's own cgroup (the baseline) */
	unsigned int depth;	/* scratch levels below the base */
	bool limit;		/* memory: a limit at each level */
	uint64_t period_us;	/* cpu: bandwidth on at this period (0: off) */
	const char *files;	/* procread: "stat", "statm", "both" */
};

struct bexp {
	const char *name;
	enum bkind kind;
	const char *summary;
	const char *op;		/* what one operation is: "fault", "round trip" */
	const struct bconf *conf;
	size_t nconf;
};

/* Returns: the experiments (*n of them). */
const struct bexp *bench_experiments(size_t *n);
const struct bexp *bench_find(const char *name);

struct bopts {
	unsigned int threads;	/* fault/alloc; 0: online CPUs */
	unsigned int duration_ms;	/* fault/alloc: per run */
	unsigned int rounds;	/* pipe: round trips; procread: reads of every process */
	unsigned int procs;	/* procread: sleepers */
	unsigned int reps;
	uint64_t seed;
	const char *parent;	/* PATH: scratch below it, NULL: below our own cgroup */
	const char *workload_exe;
	volatile int *cancel;
	void (*progress)(void *data, const char *conf, unsigned int i, unsigned int n);
	void *progress_data;
	/* one line the caller shows by default (a killed run's scratch removed) */
	void (*notice)(void *data, const char *msg);
	void *notice_data;
};

/* A kernel-reported count checked against the model's prediction, summed over runs. */
struct bcheck {
	const char *what;	/* "memory.stat pgfault", "cpu.stat nr_periods" */
	double pred, obs, tol;
	bool na, ok;
	char reason[128];
};

struct bconf_result {
	char name[32];
	char summary[96];
	unsigned int n;			/* runs done */
	double v[BM_N][BENCH_MAX_RUNS];
	char cgroup[256];		/* where the workload ran (/proc/PID/cgroup) */
	unsigned int depth;		/* levels below the base it ran at, read back */
	bool placed;			/* every run was where the configuration claims */
	/* what the model says, per run's figures averaged */
	const char *model_what;
	double model;
	const char *model2_what;
	double model2;
	struct bcheck check;
	/* --compare: the other side's figures */
};

struct bresult {
	char experiment[16];
	char op[24];
	unsigned int reps;
	uint64_t seed;
	bool hw;		/* hardware counters were available */
	char task_src[8];	/* "perf" or "rusage" */
	char kernel[65];
	unsigned int ncpu;
	int cgver;		/* hierarchy version the controller runs on (0: none) */
	size_t n;
	struct bconf_result c[BENCH_MAX_CONF];
};

/* Run every configuration of @e @o->reps times in the seeded order.  Returns: 0,
 * -EINTR (cancelled: scratch removed), -errno with @reason. */
struct cgctl_ctx;
int bench_run(struct cgctl_ctx *ctx, const struct bexp *e, const struct bopts *o,
	      struct bresult *r, char *reason, size_t len);

/* ---- model.c: the engine's counts for a configuration run ---- */
struct bmodel_in {
	uint32_t kver;
	unsigned int ncpu;
	unsigned int threads;
	unsigned int depth;	/* memcg levels charged (0: root, never charged) */
	bool v2;
	unsigned int unmap_pages;	/* pages freed together (fault: 256, alloc: 16) */
	uint64_t ops;
	uint64_t wall_ns, task_ns;
	uint64_t period_us, quota_us;	/* bandwidth; period 0: off */
	uint64_t slice_ns;
	bool pair_one_cpu;	/* pipe: both ends ran on one CPU (most round trips) */
	uint64_t colocated;	/* pipe: round trips both ends ran on one CPU */
	uint64_t stretches;	/* pipe: runs of such round trips on the same CPU (0: one) */
	uint64_t colocated_ns;	/* pipe: their wall time (0: not measured) */
	uint64_t colocated_task_ns;	/* pipe: their task-clock (0: not measured) */
	const char *files;
};
/* Charges reaching the shared page counter per 1,000 faults (stock batching). */
int bmodel_charges(const struct bmodel_in *in, double *per1000);
/* Period-timer firings (the leaf's nr_periods) and pool refills over the run, the
 * pipe pair placed as measured (one CPU or apart, round trip by round trip). */
int bmodel_bandwidth(const struct bmodel_in *in, double *periods, double *refills);
/* Per-CPU counter cells summed per process read of @in->files. */
double bmodel_read_cells(const struct bmodel_in *in);

/* ---- file.c: --compare's input ---- */
/* Read what `cgctl bench --json` wrote (experiment, op, seed, reps and each
 * configuration's name and samples).  Returns: 0, -EINVAL with @reason, -errno. */
int bench_read_json(const char *buf, size_t len, struct bresult *r, char *reason,
		    size_t rlen);

#endif
