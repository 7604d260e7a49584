/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal interface of lib/validate: a scenario is data (settings, workload, quantities
 * with tolerance rules) plus a driver that runs it once and returns, per quantity, the
 * engine's prediction and the kernel's observation.  The runner repeats, computes
 * statistics and verdicts; the writers render a struct cgctl_vreport.
 */
#ifndef CGCTL_VALIDATE_H
#define CGCTL_VALIDATE_H

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>

#include "libcgctl.h"
#include "validate/libcgctl-validate.h"

/*
 * vlog: a message of validate at @priority, to standard error as "cgctl: validate: ..."
 * when @ctx's priority lets it through.  validate is linked into cgctl, not into the
 * library, so the library's own log callback (internal) is not reachable from it.
 */
void vlog(int priority, const struct cgctl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define VQ_MAX 8		/* quantities per scenario */
#define VREASON_LEN 192

/* One predicted/observed quantity of a scenario and its tolerance rule. */
struct vq_def {
	const char *name;
	const char *unit;	/* "ns", "pages", "count", "bytes" */
	double abs_tol;		/* absolute tolerance in @unit */
	double rel_tol;		/* fraction of |predicted| */
};

/* What one repetition produced for one quantity. */
struct vsample {
	double pred;		/* engine prediction for this run */
	double bound;		/* model's own error bound for this run (0: none) */
	double obs;		/* what the kernel reported */
	bool na;		/* quantity does not apply; @reason says why */
	char reason[VREASON_LEN];
};

struct vrun;			/* per-invocation environment (ctx, scratch, options) */
struct vscenario;

/*
 * A driver: applies() returns 0 when the scenario can run, 1 with @reason when the kernel
 * lacks the feature (n/a), -errno on failure.  run_once() fills @out[0..nq) and returns
 * 0, or -errno with @reason (the run failed: workload crashed, write refused ...).
 */
struct vdriver {
	size_t state_size;	/* zeroed per-scenario state in run->state, kept across runs */
	void (*cleanup)(struct vrun *run, const struct vscenario *s);	/* may be NULL */
	int (*applies)(struct vrun *run, const struct vscenario *s, char *reason, size_t len);
	int (*run_once)(struct vrun *run, const struct vscenario *s, struct vsample *out,
			char *reason, size_t len);
};

struct vscenario {
	const char *name;
	const char *summary;
	const struct vdriver *driver;
	const void *params;		/* driver-specific settings (see scenarios.c) */
	struct vq_def q[VQ_MAX];	/* terminated by name == NULL */
};

size_t vscenario_nq(const struct vscenario *s);

/* ---- env.c: the per-invocation environment ---- */
#define VSCRATCH_MAX 32
#define VKIDS_MAX 8

/* Deliberately wrong model parameters (CGCTL_VALIDATE_PERTURB / --model-param). */
struct vperturb {
	uint64_t slice_ns;	/* bandwidth slice fed to the model; 0: the kernel's */
	uint64_t quota_us;	/* quota fed to the model instead of the one written */
	unsigned int hz;	/* tick rate fed to the model */
	uint32_t kver;		/* kernel version fed to the models */
	bool any;
};
int vperturb_parse(const char *s, struct vperturb *p, struct cgctl_error *e);

struct vrun {
	struct cgctl_ctx *ctx;
	uint32_t kver;			/* running kernel */
	uint32_t model_kver;		/* what the models are told (perturbable) */
	char release[65];
	unsigned int ncpu;
	uint64_t slice_ns;		/* sched_cfs_bandwidth_slice_us, in ns */
	double clock_ratio;		/* scheduler clock / CLOCK_MONOTONIC; 0 unmeasured */
	void *state;			/* the current scenario's driver state */
	char exe[PATH_MAX];		/* the workload helper (spawn.c) */
	bool keep;
	void (*notice)(void *data, const char *msg);	/* cgctl_validate_opts' */
	void *notice_data;
	volatile int *cancel;
	const char *scratch_parent;	/* v2: scratch below it, not our own cgroup */
	struct vperturb perturb;
	unsigned int seq;		/* names scratch cgroups uniquely */
	size_t n_scratch;
	struct {
		const struct cgctl_mount *m;
		char *path;
	} scratch[VSCRATCH_MAX];
	pid_t kids[VKIDS_MAX];
};

int vrun_init(struct vrun *run, struct cgctl_ctx *ctx, const struct cgctl_validate_opts *o,
	      struct cgctl_error *e);
/* Kill and reap every workload, remove every scratch cgroup (deepest first). */
void vrun_cleanup(struct vrun *run);
bool vrun_cancelled(const struct vrun *run);
struct cgctl_ctx *vrun_ctx(const struct vrun *run);
/* Sleep @ms, waking early on cancel.  Returns: 0, -EINTR. */
int vrun_sleep(struct vrun *run, unsigned int ms);
/* A swap device is active (/proc/swaps lists one) with at least @free_kb unused. */
bool vrun_have_swap(struct vrun *run, uint64_t free_kb);

/* Remove, with one notice each, the cgroups "<@prefix><pid>" below @own whose cgctl
 * run (PID) is gone. */
void vscratch_reap(struct vrun *run, const struct cgctl_mount *m, const char *own,
		   const char *prefix);
/*
 * vscratch_create: a new cgroup "<own>/cgctl-validate-<pid>/<name>-<seq>" (or below
 * @parent, a path returned earlier) in the hierarchy of @ctrl, where <own> is the cgroup
 * /proc/self/cgroup names for that hierarchy.  The path is stored in @run (freed by
 * vrun_cleanup) and returned in *@path.  Returns: 0, -ENODEV (no such controller), -errno
 * with @reason.
 */
int vscratch_create(struct vrun *run, const char *ctrl, const char *parent, const char *name,
		    const struct cgctl_mount **m, const char **path, char *reason, size_t len);
/* Read a number / write a value in a scratch cgroup; the reason names the file. */
int vcg_read_u64(struct vrun *run, const struct cgctl_mount *m, const char *path,
		 const char *file, uint64_t *v, char *reason, size_t len);
/* A write of @value to @file of @path under the cgroup's lock.  Returns: 0 / -errno. */
int vcg_set(struct vrun *run, const struct cgctl_mount *m, const char *path,
	    const char *file, const char *value);
int vcg_write(struct vrun *run, const struct cgctl_mount *m, const char *path,
	      const char *file, const char *value, char *reason, size_t len);
/* The memory figures @keys (cgctl_cgroup_stat_get() names) of @path of the memory
 * hierarchy, read once through the snapshot `cgctl stat` and `mem show` read (@what:
 * CGCTL_CGSTAT_*); an absent figure is UINT64_MAX with its bit clear in *@has (bit i:
 * @keys[i]).  Returns: 0, or -errno when the cgroup or its @keys[0] cannot be read
 * (-ENOENT: no such file), with @reason. */
int vcg_mem_figures(struct vrun *run, const char *path, unsigned int what,
		    const char *const *keys, size_t n, uint64_t *vals, unsigned int *has,
		    char *reason, size_t len);
/* A key of a flat keyed file (memory.stat, cpu.stat).  Returns: 0, -ENOENT, -errno. */
int vcg_read_key(struct vrun *run, const struct cgctl_mount *m, const char *path,
		 const char *file, const char *key, uint64_t *v, char *reason, size_t len);

/* ---- spawn.c: built-in workloads ("cgctl-workload KIND ARGS...") ---- */
/* The workload helper's path into @out (see spawn.c for where it is looked for).
 * Returns: 0, -ENOENT with @e (not found, or @given not executable). */
int vwork_find_exe(const char *given, char *out, size_t len, struct cgctl_error *e);
struct vwork_spec {
	const char *argv[12];		/* KIND ARGS..., NULL-terminated */
	const struct cgctl_mount *m[3];	/* cgroups to join before exec */
	const char *path[3];
	int cpu;			/* pin to this CPU; -1: not pinned */
	int nice;			/* nice value (-20: CFS weight 88761, so other
					 * runnable tasks barely steal from it) */
};
struct vwork {
	pid_t pid;
	int to, from;			/* pipes: its stdin, its stdout */
	char kind[16];
	char buf[512];
	size_t len;
	int status;
	struct rusage ru;
	bool reaped;
};
int vwork_start(struct vrun *run, const struct vwork_spec *s, struct vwork *w, char *reason,
		size_t len);
/* Wait (up to @timeout_ms) for a line starting with @word; copy it to @line.
 * Returns: 0, -ECHILD (the workload died: reason says how), -ETIMEDOUT, -EINTR. */
int vwork_expect(struct vrun *run, struct vwork *w, const char *word, char *line,
		 size_t linelen, unsigned int timeout_ms, char *reason, size_t len);
int vwork_send(struct vwork *w, const char *line);
/* Close its stdin and reap it (SIGKILL after @timeout_ms).  Returns: 0 when it exited 0,
 * -ECHILD with @reason otherwise. */
int vwork_finish(struct vrun *run, struct vwork *w, unsigned int timeout_ms, char *reason,
		 size_t len);
/* SIGKILL and reap (no error when already gone). */
void vwork_kill(struct vrun *run, struct vwork *w);
/* "key=value" of a workload's line.  Returns: 0, -ENOENT. */
int vline_u64(const char *line, const char *key, uint64_t *v);

/* ---- stats.c ---- */
/* Tolerance that applies: max(abs, rel*|pred|, bound). */
double vtolerance(const struct vq_def *d, double pred, double bound);
/*
 * The verdict rule ("above the noise", like perf stat -r): differs iff
 * |mean_obs - pred| > max(tolerance, k*sd_resid), k = VNOISE_K.
 */
#define VNOISE_K 2.0
enum cgctl_verdict vverdict(double pred, double mean_obs, double tol, double sd_resid);

/* Fill @q from @n samples (all of them applicable). */
void vquantity_finish(struct cgctl_vquantity *q, const struct vq_def *d,
		      const struct vsample *s, size_t n);

/* ---- runner.c ---- */
struct vrun_opts {
	unsigned int runs;
	volatile int *cancel;
	void (*progress)(void *data, const char *scenario, unsigned int run, unsigned int runs);
	void *progress_data;
};
/* Run @s @o->runs times in @run into @out (allocated by the caller, names copied). Returns:
 * 0 (verdicts filled, failures recorded as n/a with reason and @out->failed), -EINTR when
 * cancelled. */
int vrunner_run(struct vrun *run, const struct vscenario *s, const struct vrun_opts *o,
		struct cgctl_vscenario_result *out);
/* Overall verdict of @r: DIFFERS if any quantity differs, else MATCH. */
enum cgctl_verdict vreport_verdict(const struct cgctl_vreport *r);

/* ---- report.c ---- */
int vreport_write_json(const struct cgctl_vreport *r, FILE *f);
void vjson_string(FILE *f, const char *s);
void vjson_number(FILE *f, double v);
int vreport_write_html(const struct cgctl_vreport *const *r, size_t n, FILE *f);

#endif
