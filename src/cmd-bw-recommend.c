/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl bw recommend --trace FILE|PID|PATH [--max-throttled P%] [--max-delay DUR]
 *                    [--period DUR[,DUR...]] [--burst auto|DUR] [--cpus N]
 *                    [--duration DUR] [--kernel VERSION] [--apply PATH]
 * The smallest quota (and burst and period, when allowed to vary) whose replay of the
 * recorded demand keeps throttling within the budget, with its predicted cpu.stat, the
 * slack, and what a percentile recommender would set and cost.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd-bw-record.h"

#define MAX_PERIODS 16

static const char *opt_trace, *opt_max_thr, *opt_max_delay, *opt_period, *opt_burst;
static const char *opt_duration, *opt_kernel, *opt_apply;
static int opt_online = -1;
static long long opt_seed = 1;

static const struct poptOption options[] = {
	{ "trace", '\0', POPT_ARG_STRING, &opt_trace, 0,
	  "a trace file (\"-\": stdin), or PIDs / a cgroup PATH to record first", "FILE|PID|PATH" },
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
	POPT_TABLEEND
};

struct rec {
	struct cgctl_bw_recommend_opts o;
	uint64_t periods[MAX_PERIODS];
	struct cgctl_bw_trace *trace;
	struct cgctl_bw_trace_info info;
};

static int parse_percent(struct cli *cli, const char *s, uint32_t *ppm)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*end == '%')
		end++;
	if (errno || end == s || *end || !(v >= 0 && v <= 100))
		return cli_usage(cli, "--max-throttled: '%s' is not a percentage in [0, 100]", s);
	*ppm = (uint32_t)(v * 10000 + 0.5);
	if (!*ppm)
		*ppm = 1;	/* 0 means "default" to the library: ask for the least */
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

	if (!opt_trace)
		return cli_usage(cli, "--trace FILE|PID|PATH is required");
	if (opt_max_thr && (rc = parse_percent(cli, opt_max_thr, &p->o.max_throttled_ppm)))
		return rc;
	if (opt_max_delay && (rc = cli_parse_duration(cli, "max-delay", opt_max_delay, 1000,
						      &p->o.max_delay_ns)))
		return rc;
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

/* A file (or "-") is read; anything else is PIDs or a cgroup to record first. */
static int load_trace(struct cli *cli, struct rec *p)
{
	struct cgctl_error e = { 0 };
	struct cgctl_bw_record_result res = { 0 };
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int rc, r;

	if (!strcmp(opt_trace, "-") || stat(opt_trace, &st) == 0) {
		rc = bw_read_file(cli, opt_trace, &buf, &len);
	} else {
		uint64_t dur = 10000000000ULL;
		const char *args[1] = { opt_trace };

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
	r = cgctl_bw_trace_parse(buf, len, &p->trace, &e);
	free(buf);
	if (r < 0)
		return cli_error(cli, opt_trace, r, "%s", e.msg[0] ? e.msg : cli_strerror(r));
	cgctl_bw_trace_info(p->trace, &p->info);
	if (p->info.lost)
		cli_warn(cli, "%s: the recording lost %" PRIu64 " records: its demand is "
			 "approximate", opt_trace, p->info.lost);
	p->o.ncpus = opt_online > 0 ? (unsigned int)opt_online :
		     p->info.ncpus ? p->info.ncpus : bw_ncpu(cli);
	return EXIT_OK;
}

static void emit_replay(struct out *o, const char *key, const struct cgctl_bw_replay *r)
{
	bool inf = r->bw.quota_us == CGCTL_BW_INF;

	out_obj_begin(o, key);
	out_usec(o, "quota_usec", inf ? UINT64_MAX : r->bw.quota_us * 1000);
	out_usec(o, "period_usec", r->bw.period_us * 1000);
	out_usec(o, "burst_usec", r->bw.burst_us * 1000);
	if (inf)
		out_null(o, "limit_cpus");
	else
		out_double(o, "limit_cpus", (double)r->bw.quota_us / r->bw.period_us, 3);
	out_double(o, "slack", r->slack, 2);
	out_double(o, "throttled_ratio", r->throttled_frac, 4);
	out_usec(o, "worst_period_throttled_usec", r->max_period_throttled_ns);
	out_bool(o, "within_budget", r->within);
	out_i64(o, "nr_periods", r->st.nr_periods);
	out_i64(o, "nr_throttled", r->st.nr_throttled);
	out_usec(o, "throttled_usec", r->st.throttled_ns);
	out_i64(o, "nr_bursts", r->st.nr_bursts);
	out_usec(o, "burst_usec", r->st.burst_ns);
	out_usec(o, "usage_usec", r->st.usage_ns);
	out_obj_end(o);
}

static void emit(struct cli *cli, const struct rec *p, const struct cgctl_bw_recommendation *r)
{
	struct out *o = cli->out;

	out_obj_begin(o, "workload");
	out_str(o, "trace", opt_trace);
	out_u64(o, "threads", p->info.threads);
	out_u64(o, "online_cpus", p->o.ncpus);
	out_usec(o, "duration_usec", p->info.duration_ns);
	out_usec(o, "busy_usec", p->info.busy_ns);
	out_usec(o, "wait_usec", p->info.wait_ns);
	out_usec(o, "ready_usec", p->info.ready_ns);
	out_double(o, "mean_use_cpus", r->mean_use, 3);
	out_u64(o, "lost_records", p->info.lost);
	out_obj_end(o);
	out_obj_begin(o, "budget");
	out_double(o, "max_throttled_ratio",
		   (p->o.max_throttled_ppm ? p->o.max_throttled_ppm : 10000) / 1e6, 4);
	out_usec(o, "max_delay_usec", p->o.max_delay_ns);
	out_obj_end(o);
	out_bool(o, "feasible", r->feasible);
	emit_replay(o, "recommended", &r->best);
	out_double(o, "percentile_use_cpus", r->pct_use, 3);
	emit_replay(o, "percentile", &r->pct);
	out_u64(o, "replays", r->replays);
}

/* Write through the settings executor of `bw set` (checked against the tree, ordered,
 * rolled back on failure): cgctl_bw_apply(). */
static int apply(struct cli *cli, const struct cgctl_bw_settings *bw)
{
	struct cgctl_error e = { 0 };
	struct cgctl_bw_applied res;
	struct bw_target t;
	int rc, r;

	rc = bw_resolve(cli, opt_apply, &t);
	if (rc)
		return rc;
	r = cgctl_bw_apply(cli->ctx, t.m, t.path, bw, &res, &e);
	if (r < 0)
		return cli_error(cli, opt_apply, r, "%s", e.msg[0] ? e.msg : cli_strerror(r));
	out_str(cli->out, "applied_to", t.path);
	return EXIT_OK;
}

static int recommend(struct cli *cli, int argc, const char **argv)
{
	struct cgctl_bw_recommendation r;
	struct cgctl_error e = { 0 };
	struct rec p = { 0 };
	int rc, err;

	(void)argc;
	(void)argv;
	rc = parse_opts(cli, &p);
	if (!rc)
		rc = load_trace(cli, &p);
	if (rc)
		goto out;
	err = cgctl_bw_recommend(p.trace, &p.o, &r, &e);
	if (err < 0) {
		rc = cli_error(cli, opt_trace, err, "%s", e.msg[0] ? e.msg : cli_strerror(err));
		goto out;
	}
	emit(cli, &p, &r);
	if (opt_apply && !r.feasible)
		rc = cli_error(cli, opt_apply, -ERANGE, "no finite quota meets the budget; "
			       "nothing written");
	else if (opt_apply)
		rc = apply(cli, &r.best.bw);
out:
	cgctl_bw_trace_free(p.trace);
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
};
