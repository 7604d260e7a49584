/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgctl validate's interface (lib/libcgctl-validate.la, not installed): linked into
 * cgctl and the tests, not into libcgctl.so, which boots no VM and runs no file of a
 * build tree (issue 28).  It calls libcgctl through its exported API only.
 */
#ifndef CGCTL_LIBCGCTL_VALIDATE_H
#define CGCTL_LIBCGCTL_VALIDATE_H

#include <signal.h>

#include "libcgctl.h"

/* ===== validate ===== */
/* scenarios, runs and verdicts (lib/validate) */

/* Verdict of one predicted quantity against repeated kernel observations. */
enum cgctl_verdict {
	CGCTL_VERDICT_MATCH = 0,	/* inside the tolerance, the model's bound or the noise */
	CGCTL_VERDICT_DIFFERS = 1,	/* |observed mean - predicted| above all of those */
	CGCTL_VERDICT_NA = 2,		/* not applicable; the reason says why */
};
/* Returns: "match", "differs" or "n/a". */
const char *cgctl_verdict_name(enum cgctl_verdict v);
/* Returns: 0 and sets *ret for "match"/"differs"/"n/a", or -EINVAL. */
int cgctl_verdict_parse(const char *s, enum cgctl_verdict *ret);

/* Sample statistics of repeated observations. */
struct cgctl_vstats {
	size_t n;
	double mean;
	double sd;	/* sample standard deviation (n - 1 divisor); 0 when n < 2 */
	double rsd;	/* sd / |mean|; 0 when the mean is 0 */
};
/* cgctl_vstats_compute: mean and sample sd of @x[0..n).
 * Returns: 0, -EINVAL when @n is 0 or a sample is not finite. */
int cgctl_vstats_compute(const double *x, size_t n, struct cgctl_vstats *ret);

/* One quantity of a scenario after all repetitions. */
struct cgctl_vquantity {
	char name[48];
	char unit[16];
	double predicted;		/* mean of the per-run predictions; NAN when n/a */
	struct cgctl_vstats observed;
	double tolerance;		/* max(absolute, relative * |predicted|, model bound) */
	double noise;			/* 2 * sd of (observed - predicted) over the runs */
	double deviation;		/* observed.mean - predicted */
	enum cgctl_verdict verdict;
	char reason[192];		/* why n/a, or the rule that decided */
};

struct cgctl_vscenario_result {
	char name[48];
	char summary[128];
	bool failed;			/* a run failed (workload crashed, write refused) */
	size_t n_quantities;
	struct cgctl_vquantity *quantities;
};

/* The result of one `cgctl validate` on one target (host or a VM). */
struct cgctl_vreport {
	char kernel[65];		/* uname release of the target */
	char target[32];		/* "host", "vm:6.1-v1", ... */
	unsigned int runs;
	size_t n_scenarios;
	struct cgctl_vscenario_result *scenarios;
	enum cgctl_verdict verdict;	/* DIFFERS if any quantity differs, else MATCH */
	unsigned int sweep;		/* a sweep's cases (0: named scenarios) */
	uint64_t seed;			/* and its first seed */
	/* the target's online CPUs, which a sweep's bw and mem cases are drawn for (a VM's:
	 * its vCPUs); 0 when unknown */
	unsigned int cpus;
};

/* A sweep's distribution of one quantity over its cases. */
struct cgctl_vsweep_stat {
	char name[48];
	unsigned int cases;		/* cases that have it */
	unsigned int decided;		/* of those, match or differs (not n/a) */
	unsigned int within;		/* of those, match */
	/* relative error |observed mean - predicted| / max(|predicted|, tolerance) */
	double median_rel_error, worst_rel_error;
	char worst_case[48];		/* the case (scenario name) of the worst error */
};
/* Per quantity name, over the decided cases of sweep report @r.  Returns: the number
 * of quantities (0 for none) and *ret (free() it), or -ENOMEM, -EINVAL. */
ssize_t cgctl_vreport_sweep_stats(const struct cgctl_vreport *r,
				  struct cgctl_vsweep_stat **ret);

/* Returns: 0 and an empty report, or -ENOMEM. */
int cgctl_vreport_new(struct cgctl_vreport **ret, const char *kernel, const char *target,
		      unsigned int runs);
/* Append a scenario with room for @n_quantities.  Returns: the new entry, NULL on ENOMEM. */
struct cgctl_vscenario_result *cgctl_vreport_add(struct cgctl_vreport *r, const char *name,
						 const char *summary, size_t n_quantities);
void cgctl_vreport_free(struct cgctl_vreport *r);
/* Render as one JSON object (documented in cgctl-validate(1)).
 * Returns: 0 and a malloc'ed NUL-terminated string, or -ENOMEM. */
int cgctl_vreport_json(const struct cgctl_vreport *r, char **ret);
/* Parse what cgctl_vreport_json() wrote (e.g. by a cgctl inside a VM).
 * Returns: 0, -EINVAL (malformed; @e says where), -ENOMEM. */
int cgctl_vreport_parse_json(const char *json, struct cgctl_vreport **ret,
			     struct cgctl_error *e);
/* One self-contained XHTML page (inline SVG chart per scenario, no script) for @n reports.
 * Returns: 0 and a malloc'ed string, or -ENOMEM. */
int cgctl_vreport_html(const struct cgctl_vreport *const *r, size_t n, char **ret);

/* A built-in scenario, for --list. */
struct cgctl_vscenario_info {
	const char *name;
	const char *summary;
};
/* Returns: the number of built-in scenarios and *ret (if @ret) pointing to a static
 * table. */
size_t cgctl_validate_scenarios(const struct cgctl_vscenario_info **ret);
/* Returns: the number of VM configurations cgctl_validate_vm() boots ("6.1-v1",
 * "6.1-v2", "6.12-v2", "6.12-systemd") and *ret (if @ret) pointing to their static names. */
size_t cgctl_validate_vm_configs(const char *const **ret);
/*
 * Boot the VM configuration @config with the VM harness ($CGCTL_VM_HARNESS, a build
 * tree's tests/vm/run-vm, or $(libexecdir)/cgctl/run-vm), pack @cgctl (an absolute
 * path: the program the guest runs) and run `cgctl validate --json --repeat @runs NAMES...`
 * (@n names, none: all) in the guest; *ret is the guest's report, target "vm:CONFIG".
 * Blocks for the whole boot (minutes under emulation); a sweep: cgctl_validate_vm_run().
 * Returns: 0; -EOPNOTSUPP when
 * the VM tier cannot run here (no harness, qemu or kernel: @e says why); -EINVAL (an
 * unknown @config, a relative @cgctl, a malformed guest report); -EIO (the harness
 * failed); -E2BIG (more than 32 names); -errno.
 */
int cgctl_validate_vm(struct cgctl_ctx *ctx, const char *config, const char *cgctl,
		      const char *const *names, size_t n, unsigned int runs,
		      struct cgctl_vreport **ret, struct cgctl_error *e);

struct cgctl_validate_opts {
	unsigned int runs;			/* repetitions per scenario (>= 1) */
	/* the workload helper to exec ("cgctl-workload KIND ..."); NULL: $CGCTL_WORKLOAD_EXE,
	 * else cgctl-workload beside the running program, else the installed
	 * $(pkglibexecdir)/cgctl-workload (cgctl-validate(1), FILES) */
	const char *workload_exe;
	/* deliberately wrong model parameters "name=value,..." (slice=4ms, batch=32,
	 * quota=30ms, ...): proves that verdicts can fail; NULL for none */
	const char *perturb;
	bool keep;				/* keep scratch cgroups (debugging) */
	volatile int *cancel;	/* set (to non-zero) from a signal handler: stop, clean up */
	void (*progress)(void *data, const char *scenario, unsigned int run,
			 unsigned int runs);
	void *progress_data;
	/* called (with @progress_data) as soon as a scenario is done: its result is the last
	 * of @r's scenarios (@r is the report being built; it is not yet final); NULL: none */
	void (*done)(void *data, const struct cgctl_vreport *r);
	/* a sweep: instead of named scenarios, @sweep random configurations of the kinds
	 * in @sweep_kinds (0: all) drawn from the ranges cgctl-validate(1) documents;
	 * case i uses seed @seed + i and is named "sweep-KIND-SEED" (it replays alone with
	 * that seed, @sweep 1 and its kind) */
	unsigned int sweep;
	uint64_t seed;
	unsigned int sweep_kinds;		/* CGCTL_VSWEEP_* */
	/* cgroup v2: the scratch base goes below this cgroup (a delegated scope's, on a
	 * systemd host: src/systemd-scope.h), not below the caller's own; NULL: own */
	const char *scratch_parent;
	/* one line the caller shows at its default level (the scratch of a dead run
	 * removed, issue 33); NULL: the library's log at LOG_NOTICE */
	void (*notice)(void *data, const char *msg);
	void *notice_data;
};
#define CGCTL_VSWEEP_BW		(1u << 0)
#define CGCTL_VSWEEP_MEM	(1u << 1)
#define CGCTL_VSWEEP_MOVE	(1u << 2)
#define CGCTL_VSWEEP_ALL	(CGCTL_VSWEEP_BW | CGCTL_VSWEEP_MEM | CGCTL_VSWEEP_MOVE)

/*
 * cgctl_validate_run: run the scenarios named in @names (NULL/@n_names 0: all) on the
 * live kernel of @ctx: scratch cgroups below the caller's own cgroup of each controller,
 * built-in workloads, engine predictions, kernel observations, @opts->runs times.
 * Everything created is removed before returning (unless @opts->keep), also on failure
 * and cancellation.  Returns: 0 and *ret (verdicts inside; n/a for missing features),
 * -ENOENT for an unknown scenario name or no workload helper (@e says which), -EINTR
 * when cancelled, -EINVAL for a bad @opts->perturb, -errno.
 */
int cgctl_validate_run(struct cgctl_ctx *ctx, const struct cgctl_validate_opts *opts,
		       const char *const *names, size_t n_names, struct cgctl_vreport **ret,
		       struct cgctl_error *e);
/*
 * cgctl_validate_vm_run: cgctl_validate_vm() with the options of cgctl_validate_run():
 * the guest runs `cgctl validate --json --repeat RUNS` with the same sweep (@opts->sweep cases
 * from @opts->seed of @opts->sweep_kinds, drawn in the guest for its CPUs) and
 * @opts->perturb; the workload helper packed is @opts->workload_exe, else
 * $CGCTL_WORKLOAD_EXE, else the harness's choice (beside @cgctl).  *@opts->cancel set by
 * a signal handler (installed without SA_RESTART) stops the harness and its VM.
 * @opts->keep and ->progress are not used (the guest is discarded).  Returns: as
 * cgctl_validate_vm(); -EINVAL also for bad @opts (as cgctl_validate_run()), -EIO when
 * the guest's report is not the sweep asked for, -EINTR when cancelled.
 */
int cgctl_validate_vm_run(struct cgctl_ctx *ctx, const char *config, const char *cgctl,
			  const struct cgctl_validate_opts *opts, const char *const *names,
			  size_t n, struct cgctl_vreport **ret, struct cgctl_error *e);

/* ===== end: validate ===== */

/* Returns: true when the VM kernel cache (what `validate --target all` boots) holds a
 * kernel. */
bool cgctl_validate_vm_kernels_present(void);

#endif
