/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl bw recommend --trace FILE|PID|PATH [--trace FILE...] [--confidence P%]
 *                    [--max-throttled P%] [--max-delay DUR] [--period DUR[,DUR...]]
 *                    [--burst auto|DUR] [--online-cpus N] [--duration DUR]
 *                    [--kernel VERSION] [--apply PATH]
 * The smallest quota (and burst and period, when allowed to vary) whose replay of the
 * recorded demand keeps throttling within the budget, with its predicted cpu.stat, the
 * slack, and what a percentile recommender would set and cost.  Several recordings of
 * one workload: a quota that holds for its next run too (cgctl_bw_recommend_runs).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd-bw-record.h"

#define MAX_PERIODS 16
#define MAX_TRACES 64

static char **opt_trace;
static const char *opt_confidence, *opt_max_thr, *opt_max_delay, *opt_period, *opt_burst;
static const char *opt_duration, *opt_kernel, *opt_apply;
static int opt_online = -1;
static long long opt_seed = 1;

static const struct poptOption options[] = {
	{ "trace", '\0', POPT_ARG_ARGV, &opt_trace, 0,
	  "a trace file (\"-\": stdin), or PIDs / a cgroup PATH to record first; "
	  "again for more recordings of the workload", "FILE|PID|PATH" },
	{ "confidence", '\0', POPT_ARG_STRING, &opt_confidence, 0,
	  "that a next run fits (several recordings, or windows of one; default 95%)", "P%" },
	{ "max-throttled", '\0', POPT_ARG_STRING, &opt_max_thr, 0,
	  "budget: throttled periods, percent (default 1%)", "P%" },
	{ "max-delay", '\0', POPT_ARG_STRING, &opt_max_delay, 0,
	  "budget: throttled time in any one period (default: none)", "DUR" },
	{ "period", '\0', POPT_ARG_STRING, &opt_period, 0,
	  "period, or candidate periods (default 100ms)", "DUR[,DUR...]" },
	{ "burst", '\0', POPT_ARG_STRING, &opt_burst, 0,
	  "burst: \"auto\" searches it too (default 0)", "auto|DUR" },
	{ "online-cpus", '\0', POPT_ARG_INT, &opt_online, 0,
	  "CPUs to replay on (default: the trace's)", "N" },
	{ "duration", '\0', POPT_ARG_STRING, &opt_duration, 0,
	  "how long to record a PID or PATH (default 10s)", "DUR" },
	{ "kernel", '\0', POPT_ARG_STRING, &opt_kernel, 0,
	  "kernel era (default: the running kernel)", "VERSION" },
	{ "seed", '\0', POPT_ARG_LONGLONG, &opt_seed, 0, "random seed (default 1)", "N" },
	{ "apply", '\0', POPT_ARG_STRING, &opt_apply, 0,
	  "write the recommendation to PATH (safe write order, undone on failure)", "PATH" },
	CLI_KV_OPTIONS,
	POPT_TABLEEND
};

/* What a recording holds (cgctl_bw_trace_get()), or several summed. */
struct trace_sum {
	uint64_t threads, ncpus, lost;
	uint64_t busy_ns, wait_ns, ready_ns, duration_ns;
};

struct rec {
	struct cgctl_bw_recommend_opts o;
	uint64_t periods[MAX_PERIODS];
	size_t n;
	double confidence;
	bool no_delay;	/* --max-delay 0: no throttled time at all (the library has 1 ns) */
	bool no_throttle;	/* --max-throttled 0%: none (the library has 1 ppm) */
	struct cgctl_bw_trace *trace[MAX_TRACES];
	struct trace_sum info[MAX_TRACES];
	struct cgctl_bw_run runs[MAX_TRACES];
};

/* "P%" or "P" in [lo, hi] percent. */
static int parse_percent(struct cli *cli, const char *opt, const char *s, double lo, double hi,
			 double *pct)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*end == '%')
		end++;
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		return cli_usage(cli, "--%s: '%s' is not a percentage in [%g, %g]", opt, s, lo, hi);
	*pct = v;
	return EXIT_OK;
}

static int parse_periods(struct cli *cli, struct rec *p)
{
	char *list = strdup(opt_period), *save = NULL;
	int rc = EXIT_OK;

	if (!list)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	for (char *tok = strtok_r(list, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		if (p->o.nperiods == MAX_PERIODS)
			rc = cli_usage(cli, "--period: at most %d periods", MAX_PERIODS);
		else
			rc = bw_parse_us(cli, "period", tok, &p->periods[p->o.nperiods++]);
	}
	free(list);
	if (!rc && !p->o.nperiods)
		rc = cli_usage(cli, "--period: no period given");
	p->o.periods_us = p->periods;
	return rc;
}

static int parse_opts(struct cli *cli, struct rec *p)
{
	int rc = EXIT_OK;
	double v;

	if (!opt_trace || !opt_trace[0])
		return cli_usage(cli, "--trace FILE|PID|PATH is required");
	while (opt_trace[p->n])
		if (++p->n > MAX_TRACES)
			return cli_usage(cli, "--trace: at most %d recordings", MAX_TRACES);
	if (opt_max_thr && (rc = parse_percent(cli, "max-throttled", opt_max_thr, 0, 100, &v)))
		return rc;
	if (opt_max_thr) {
		p->o.max_throttled_ppm = (uint32_t)(v * 10000 + 0.5);
		if (!p->o.max_throttled_ppm) {
			p->o.max_throttled_ppm = 1;	/* 0 is "default" to the library */
			p->no_throttle = true;		/* and 0 is printed */
		}
	}
	if (opt_confidence && (rc = parse_percent(cli, "confidence", opt_confidence, 50, 99.5,
						  &v)))
		return rc;
	p->confidence = opt_confidence ? v / 100 : 0;
	if (opt_max_delay && (rc = cli_parse_duration(cli, "max-delay", opt_max_delay, 1000,
						      &p->o.max_delay_ns)))
		return rc;
	if (opt_max_delay && !p->o.max_delay_ns) {
		/* 0 is "no budget" to the library: ask for at most 1 ns (throttled
		 * time is whole nanoseconds), and print the 0 that was asked for */
		p->o.max_delay_ns = 1;
		p->no_delay = true;
	}
	if (opt_period && (rc = parse_periods(cli, p)))
		return rc;
	if (opt_burst && !strcmp(opt_burst, "auto"))
		p->o.burst_auto = true;
	else if (opt_burst && (rc = bw_parse_us(cli, "burst", opt_burst, &p->o.burst_us)))
		return rc;
	if (opt_online == 0 || opt_online > 4096 || opt_online < -1)
		return cli_usage(cli, "--online-cpus: %d is not in 1..4096", opt_online);
	if (opt_kernel && cgctl_kver_parse(opt_kernel, &p->o.kver) < 0)
		return cli_usage(cli, "--kernel: '%s' is not a version (e.g. 6.18, 5.3)",
				 opt_kernel);
	if (!opt_kernel)
		p->o.kver = bw_kver(cli);
	p->o.seed = (uint64_t)opt_seed;
	return EXIT_OK;
}

static bool is_file(const char *name)
{
	struct stat st;

	return !strcmp(name, "-") || stat(name, &st) == 0;
}

/* Recording @i: a file (or "-") is read; anything else is PIDs or a cgroup to record
 * first (alone: load_traces() wants several recordings to be files). */
static int load_trace(struct cli *cli, struct rec *p, size_t i)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct cgctl_bw_record_result res = { .size = sizeof(res) };
	const char *name = opt_trace[i];
	char *buf = NULL;
	size_t len = 0;
	int rc, r;

	if (is_file(name)) {
		rc = bw_read_file(cli, name, &buf, &len);
	} else {
		uint64_t dur = 10000000000ULL;
		const char *args[1] = { name };

		if (opt_duration && (rc = cli_parse_duration(cli, "duration", opt_duration,
							     1000000000ULL, &dur)))
			return rc;
		rc = bw_record_run(cli, 1, args, dur, &res);
		if (!rc)
			bw_record_summary(cli, &res);
		buf = res.trace;
		len = res.len;
		res.trace = NULL;
	}
	if (rc)
		return rc;
	r = cgctl_bw_trace_parse(buf, len, &p->trace[i], &e);
	free(buf);
	if (r < 0)
		return cli_error(cli, name, r, "%s", e.msg[0] ? e.msg : cli_strerror(r));
	const struct cgctl_bw_trace *t = p->trace[i];

	p->info[i] = (struct trace_sum){
		.threads = cgctl_bw_trace_get(t, CGCTL_BW_TRACE_THREADS),
		.ncpus = cgctl_bw_trace_get(t, CGCTL_BW_TRACE_NCPUS),
		.lost = cgctl_bw_trace_get(t, CGCTL_BW_TRACE_LOST),
		.busy_ns = cgctl_bw_trace_get(t, CGCTL_BW_TRACE_BUSY_NS),
		.wait_ns = cgctl_bw_trace_get(t, CGCTL_BW_TRACE_WAIT_NS),
		.ready_ns = cgctl_bw_trace_get(t, CGCTL_BW_TRACE_READY_NS),
		.duration_ns = cgctl_bw_trace_get(t, CGCTL_BW_TRACE_DURATION_NS),
	};
	if (p->info[i].lost)
		cli_warn(cli, "%s: the recording lost %" PRIu64 " records: its demand is "
			 "approximate", name, p->info[i].lost);
	return EXIT_OK;
}

static int load_traces(struct cli *cli, struct rec *p)
{
	size_t stdin_uses = 0;
	int rc = EXIT_OK;

	for (size_t i = 0; i < p->n; i++) {
		stdin_uses += !strcmp(opt_trace[i], "-");
		if (p->n > 1 && !is_file(opt_trace[i]))	/* before anything is read */
			return cli_usage(cli, "--trace: '%s' is no file; several recordings are "
					 "files (record them first with cgctl bw record -o FILE)",
					 opt_trace[i]);
	}
	if (stdin_uses > 1)
		return cli_usage(cli, "--trace: standard input (\"-\") can be read once");
	for (size_t i = 0; i < p->n && !rc; i++)
		rc = load_trace(cli, p, i);
	if (rc)
		return rc;
	p->o.ncpus = opt_online > 0 ? (unsigned int)opt_online :
		     p->info[0].ncpus ? (unsigned int)p->info[0].ncpus : bw_ncpu(cli);
	return EXIT_OK;
}

static void emit_replay(struct out *o, const char *key, const struct cgctl_bw_replay *r,
			uint32_t kver)
{
	bool inf = r->bw.quota_us == CGCTL_BW_INF;

	out_obj_begin(o, key);
	out_usec(o, "quota_usec", inf ? UINT64_MAX : r->bw.quota_us * 1000);
	out_usec(o, "period_usec", r->bw.period_us * 1000);
	out_usec(o, "burst_usec", r->bw.burst_us * 1000);
	if (inf)
		out_null(o, "limit_cpus");
	else
		out_cpus(o, "limit_cpus", (double)r->bw.quota_us / r->bw.period_us);
	out_double(o, "slack", r->slack, 2);
	out_double(o, "throttled_ratio", r->throttled_frac, 4);
	out_usec(o, "worst_period_throttled_usec", r->max_period_throttled_ns);
	out_bool(o, "within_budget", r->within);
	out_i64(o, "nr_periods", r->st.nr_periods);
	out_i64(o, "nr_throttled", r->st.nr_throttled);
	out_usec(o, "throttled_usec", r->st.throttled_ns);
	if (cgctl_bw_era_has(kver, CGCTL_BW_FEAT_BURST_STATS)) {
		out_i64(o, "nr_bursts", r->st.nr_bursts);
		out_usec(o, "burst_time_usec", r->st.burst_ns);
	} else {	/* before 5.16 cpu.stat has neither: null, not 0 */
		out_null(o, "nr_bursts");
		out_null(o, "burst_time_usec");
	}
	out_usec(o, "usage_usec", r->st.usage_ns);
	out_obj_end(o);
}

/* The recordings together: their threads and times summed. */
static void emit_workload(struct out *o, const struct rec *p,
			  const struct cgctl_bw_recommendation *r)
{
	struct trace_sum sum = { 0 };

	for (size_t i = 0; i < p->n; i++) {
		sum.threads += p->info[i].threads;
		sum.duration_ns += p->info[i].duration_ns;
		sum.busy_ns += p->info[i].busy_ns;
		sum.wait_ns += p->info[i].wait_ns;
		sum.ready_ns += p->info[i].ready_ns;
		sum.lost += p->info[i].lost;
	}
	out_obj_begin(o, "workload");
	out_str(o, "trace", p->n == 1 ? opt_trace[0] : NULL);
	out_u64(o, "recordings", p->n);
	out_u64(o, "threads", sum.threads);
	out_u64(o, "online_cpus", p->o.ncpus);
	out_usec(o, "duration_usec", sum.duration_ns);
	out_usec(o, "busy_usec", sum.busy_ns);
	out_usec(o, "wait_usec", sum.wait_ns);
	out_usec(o, "ready_usec", sum.ready_ns);
	out_cpus(o, "mean_use_cpus", r->mean_use);
	out_u64(o, "lost_records", sum.lost);
	out_obj_end(o);
}

/* Each recording's own answer (not in --tsv's summary row: --tsv=runs), and how the
 * bound over them came out. */
static void emit_runs(struct cli *cli, const struct rec *p,
		      const struct cgctl_bw_recommendation *r)
{
	struct out *o = cli->out;

	if (cli_tsv_skip(cli, "runs"))
		goto bound;
	out_list_begin(o, "runs");
	for (size_t i = 0; i < p->n; i++) {
		bool inf = p->runs[i].quota_us == CGCTL_BW_INF;

		out_obj_begin(o, NULL);
		out_str(o, "trace", opt_trace[i]);
		out_usec(o, "busy_usec", p->info[i].busy_ns);
		out_usec(o, "quota_usec", inf ? UINT64_MAX : p->runs[i].quota_us * 1000);
		out_double(o, "throttled_ratio", p->runs[i].throttled_frac, 4);
		out_obj_end(o);
	}
	out_list_end(o);
	if (cli_tsv_skip(cli, "summary"))
		return;	/* --tsv=runs: that table alone */
bound:;
	static const char *const methods[] = { "none", "recordings", "windows", "bootstrap" };
	int m = r->bound.method;

	out_obj_begin(o, "bound");
	/* where the spread came from: several recordings, windows of one, or none */
	out_str(o, "method", methods[m >= 0 && m <= CGCTL_BW_BOUND_BOOTSTRAP ? m : 0]);
	out_u64(o, "samples", r->bound.samples);
	out_usec(o, "window_usec", r->bound.window_ns);
	/* bootstrap: periods per block, blocks per resampled run, resampled runs */
	out_u64(o, "block_periods", r->bound.block_periods);
	out_u64(o, "blocks", r->bound.blocks);
	out_u64(o, "resamples", r->bound.resamples);
	if (m == CGCTL_BW_BOUND_WINDOWS || m == CGCTL_BW_BOUND_BOOTSTRAP)
		out_cpus(o, "own_cpus", r->bound.own_cpus);
	else
		out_null(o, "own_cpus");
	out_double(o, "confidence", m == CGCTL_BW_BOUND_NONE ? 0 : r->bound.confidence, 3);
	out_cpus(o, "mean_cpus", r->bound.mean_cpus);
	out_cpus(o, "sd_cpus", r->bound.sd_cpus);
	out_double(o, "t", r->bound.t, 3);
	out_cpus(o, "bound_cpus", r->bound.bound_cpus);
	out_obj_end(o);
}

static void emit(struct cli *cli, const struct rec *p, const struct cgctl_bw_recommendation *r)
{
	struct out *o = cli->out;

	emit_workload(o, p, r);
	out_obj_begin(o, "budget");
	out_double(o, "max_throttled_ratio", p->no_throttle ? 0 :
		   (p->o.max_throttled_ppm ? p->o.max_throttled_ppm : 10000) / 1e6, 4);
	if (p->o.max_delay_ns)
		out_usec(o, "max_delay_usec", p->no_delay ? 0 : p->o.max_delay_ns);
	else
		out_null(o, "max_delay_usec");	/* no delay budget: none, not 0 */
	out_obj_end(o);
	out_bool(o, "feasible", r->feasible);
	out_u64(o, "cpus", r->cpus);
	out_double(o, "saturated_ratio", r->saturated_frac, 4);
	out_bool(o, "all_cpus", r->all_cpus);
	emit_replay(o, "recommended", &r->best, p->o.kver ? p->o.kver : CGCTL_KVER_NEWEST);
	emit_runs(cli, p, r);
	out_cpus(o, "percentile_use_cpus", r->pct_use);
	emit_replay(o, "percentile", &r->pct, p->o.kver ? p->o.kver : CGCTL_KVER_NEWEST);
	out_u64(o, "replays", r->replays);
}

/* Write through the settings executor of `bw set` (checked against the tree, ordered,
 * rolled back on failure): a plan (cgctl_plan_add_bw()). */
static int apply(struct cli *cli, const struct cgctl_bw_settings *bw)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct cgctl_plan *p = NULL;
	struct bw_target t;
	int rc, r;

	rc = bw_resolve(cli, opt_apply, &t);
	if (rc)
		return rc;
	r = cgctl_plan_new(cli->ctx, &p);
	if (r == 0)
		r = cgctl_plan_add_bw(p, t.m, t.path, bw);
	if (r >= 0)
		r = cgctl_plan_apply(p, &e);
	cgctl_plan_free(p);
	if (r < 0)
		return cli_error(cli, opt_apply, r, "%s", e.msg[0] ? e.msg : cli_strerror(r));
	out_str(cli->out, "applied_to", t.path);
	return EXIT_OK;
}

static int recommend(struct cli *cli, int argc, const char **argv)
{
	struct cgctl_bw_recommendation r = { .size = sizeof(r) };
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct rec p = { .o.size = sizeof(p.o) };
	int rc, err;

	(void)argc;
	(void)argv;
	rc = cli_kv(cli, NULL, 0);
	if (rc)
		return rc;
	rc = parse_opts(cli, &p);
	if (!rc)
		rc = load_traces(cli, &p);
	if (rc)
		goto out;
	for (size_t i = 0; i < p.n; i++)
		p.runs[i].size = sizeof(p.runs[i]);
	err = cgctl_bw_recommend_runs((const struct cgctl_bw_trace *const *)p.trace, p.n, &p.o,
				      p.confidence, &r, p.runs, &e);
	if (err < 0) {
		rc = cli_error(cli, p.n == 1 ? opt_trace[0] : NULL, err, "%s",
			       e.msg[0] ? e.msg : cli_strerror(err));
		goto out;
	}
	emit(cli, &p, &r);
	if (r.all_cpus && r.feasible && r.saturated_frac * 1e6 <=
			  (p.o.max_throttled_ppm ? p.o.max_throttled_ppm : 10000))
		cli_warn(cli, "the bound for a next run (%s) reaches all %u CPUs its threads "
			 "may use, though %.1f%% of the recording's periods need them",
			 r.bound.method == CGCTL_BW_BOUND_WINDOWS ? "from the recording's "
			 "windows" : r.bound.method == CGCTL_BW_BOUND_BOOTSTRAP ? "from a "
			 "block bootstrap over the recording's periods" : r.bound.method == CGCTL_BW_BOUND_RECORDINGS ?
			 "from the recordings" : "the recording's own answer", r.cpus,
			 100 * r.saturated_frac);
	else if (r.all_cpus)
		cli_warn(cli, "the demand reaches all %u CPUs its threads may use (%.1f%% of "
			 "periods): no limit below %u CPUs meets the budget", r.cpus,
			 100 * r.saturated_frac, r.cpus);
	if (opt_apply && !r.feasible)
		rc = cli_error(cli, opt_apply, -ERANGE, "no finite quota meets the budget; "
			       "nothing written");
	else if (opt_apply)
		rc = apply(cli, &r.best.bw);
out:
	for (size_t i = 0; i < p.n && i < MAX_TRACES; i++)
		cgctl_bw_trace_free(p.trace[i]);
	for (size_t i = 0; opt_trace && opt_trace[i]; i++)
		free(opt_trace[i]);
	free(opt_trace);
	opt_trace = NULL;
	return rc;
}

const struct cgctl_cmd cmd_bw_recommend = {
	.name = "recommend",
	.args = "",
	.summary = "the smallest quota, burst and period a recorded workload needs",
	.options = options,
	.run = recommend,
	.min_args = 0,
	.max_args = 0,
	.tsv_tables = "summary,runs",
};
