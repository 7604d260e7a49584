/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl bw predict [PATH] [--quota DUR --period DUR --burst DUR] --threads N [--cpus M]
 *                  [--busy DUR --idle DUR | --duty FRACTION] [--jitter F --seed N]
 *                  [--trace FILE] [--duration DUR] [--kernel VERSION] [--timeline]
 *                  [--ascii]
 * Runs the CFS bandwidth simulator (lib/engine/bandwidth-sim.c) and prints what
 * cpu.stat would read once the workload has ended and the group has gone quiet.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-bw.h"
#include "cmd-bw-record.h"

#define MS 1000000ULL

static const char *opt_quota, *opt_period, *opt_burst, *opt_busy, *opt_idle, *opt_duty;
static const char *opt_jitter, *opt_trace, *opt_duration, *opt_kernel, *opt_other;
static const char *opt_cpus;
static int opt_threads = -1, opt_online = -1, opt_timeline, opt_ascii;
static long long opt_seed = 1;

static const struct poptOption options[] = {
	{ "quota", '\0', POPT_ARG_STRING, &opt_quota, 0,
	  "quota (\"max\" for none; default: PATH's, else none)", "DUR" },
	{ "period", '\0', POPT_ARG_STRING, &opt_period, 0, "period (default 100ms)", "DUR" },
	{ "burst", '\0', POPT_ARG_STRING, &opt_burst, 0, "burst (default 0)", "DUR" },
	{ "threads", '\0', POPT_ARG_INT, &opt_threads, 0, "number of threads", "N" },
	{ "cpus", '\0', POPT_ARG_STRING, &opt_cpus, 0,
	  "quota as a number of CPUs (quota = CPUS x period), as bw set takes it", "FLOAT" },
	{ "online-cpus", '\0', POPT_ARG_INT, &opt_online, 0,
	  "CPUs of the machine simulated (default: this one's online CPUs)", "M" },
	{ "busy", '\0', POPT_ARG_STRING, &opt_busy, 0,
	  "CPU time per busy phase (default: always busy)", "DUR" },
	{ "idle", '\0', POPT_ARG_STRING, &opt_idle, 0, "sleep after each busy phase", "DUR" },
	{ "duty", '\0', POPT_ARG_STRING, &opt_duty, 0,
	  "busy fraction of each period-long cycle", "FRACTION" },
	{ "jitter", '\0', POPT_ARG_STRING, &opt_jitter, 0,
	  "scale each phase by 1 +- U(0, F)", "F" },
	{ "seed", '\0', POPT_ARG_LONGLONG, &opt_seed, 0, "random seed (default 1)", "N" },
	{ "trace", '\0', POPT_ARG_STRING, &opt_trace, 0,
	  "a trace (bw record, or lines THREAD busy|idle DURATION)", "FILE" },
	{ "duration", '\0', POPT_ARG_STRING, &opt_duration, 0,
	  "how long the workload runs (default 10s)", "DUR" },
	{ "other-load", '\0', POPT_ARG_STRING, &opt_other, 0,
	  "CPU share unrelated tasks take while the group runs (default 0)", "F" },
	{ "kernel", '\0', POPT_ARG_STRING, &opt_kernel, 0,
	  "kernel era (default: the running kernel)", "VERSION" },
	{ "timeline", '\0', POPT_ARG_NONE, &opt_timeline, 0, "draw one row per period", NULL },
	{ "ascii", '\0', POPT_ARG_NONE, &opt_ascii, 0, "plain ASCII timeline", NULL },
	CLI_KV_OPTIONS,
	POPT_TABLEEND
};

struct pred {
	struct cgctl_bw_settings bw;
	unsigned int ncpus, threads;
	uint64_t busy_ns, idle_ns, duration_ns;
	uint32_t jitter_ppm, other_ppm;
	uint32_t kver;
	struct cgctl_bw_trace *trace;
	struct cgctl_bw_stat st;
	struct cgctl_bw_period *periods;
	ssize_t nperiods;
};

static int parse_fraction(struct cli *cli, const char *opt, const char *s, double max,
			  double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !(*v >= 0 && *v <= max))
		return cli_usage(cli, "--%s: '%s' is not a number in [0, %g]", opt, s, max);
	return EXIT_OK;
}

static int read_trace(struct cli *cli, struct pred *p)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	char *buf;
	size_t len;
	int r = bw_read_file(cli, opt_trace, &buf, &len);

	if (r)
		return r;
	r = cgctl_bw_trace_parse(buf, len, &p->trace, &e);
	free(buf);
	if (r < 0)
		return cli_error(cli, opt_trace, r, "%s", e.msg[0] ? e.msg : cli_strerror(r));
	return EXIT_OK;
}

/* quota, period and burst of @path through the cgroup object's getters; the v2 root
 * (no cpu.max) keeps the kernel's default, no limit in 100 ms; no burst file: 0 */
static int read_bw(struct cli *cli, const struct bw_target *t, struct cgctl_bw_settings *bw)
{
	struct cgctl_cgroup *cg;
	uint64_t v;
	int r = cgctl_cgroup_new(cli->ctx, "cpu", t->path, &cg);

	if (r < 0)
		return r;
	r = cgctl_cgroup_get_cpu_quota_us(cg, &v);
	if (r == 0)
		bw->quota_us = v;
	if (r == 0)
		r = cgctl_cgroup_get_cpu_period_us(cg, &bw->period_us);
	if (r == -ENODATA && t->m->version == 2 && !strcmp(t->path, "/"))
		r = 0;
	else if (r == -ENODATA)
		r = -ENOENT;	/* no such file */
	if (r == 0 && cgctl_cgroup_get_cpu_burst_us(cg, &v) == 0)
		bw->burst_us = v;
	cgctl_cgroup_unref(cg);
	return r;
}

static int parse_settings(struct cli *cli, int argc, const char **argv, struct pred *p)
{
	int rc;

	p->bw = CGCTL_BW_SETTINGS(CGCTL_BW_INF, 100000, 0);
	if (argc > 0) {
		struct bw_target t;
		int r;

		rc = bw_resolve(cli, argv[0], &t);
		if (rc)
			return rc;
		r = read_bw(cli, &t, &p->bw);
		if (r < 0)
			return cli_error(cli, argv[0], r, "cannot read the bandwidth setting: %s",
					 cli_strerror(r));
	}
	if (opt_period && (rc = bw_parse_us(cli, "period", opt_period, &p->bw.period_us)))
		return rc;
	if (opt_quota && opt_cpus)
		return cli_usage(cli, "--quota and --cpus exclude each other");
	if (opt_cpus && (rc = bw_parse_cpus(cli, opt_cpus, p->bw.period_us, &p->bw.quota_us)))
		return rc;
	if (opt_quota && !strcmp(opt_quota, "max"))
		p->bw.quota_us = CGCTL_BW_INF;
	else if (opt_quota && (rc = bw_parse_us(cli, "quota", opt_quota, &p->bw.quota_us)))
		return rc;
	if (opt_burst && (rc = bw_parse_us(cli, "burst", opt_burst, &p->bw.burst_us)))
		return rc;
	return EXIT_OK;
}

static int parse_workload(struct cli *cli, struct pred *p)
{
	double d;
	int rc;

	if (opt_duty && (opt_busy || opt_idle))
		return cli_usage(cli, "--duty excludes --busy and --idle");
	if (opt_trace && (opt_duty || opt_busy || opt_idle))
		return cli_usage(cli, "--trace excludes --busy, --idle and --duty");
	if (opt_trace && (rc = read_trace(cli, p)))
		return rc;
	if (opt_threads < 0 && !p->trace)
		return cli_usage(cli, "--threads N is required (or --trace FILE)");
	if (opt_threads >= 0) {
		p->threads = (unsigned int)opt_threads;
	} else {
		p->threads = (unsigned int)cgctl_bw_trace_get(p->trace,
							      CGCTL_BW_TRACE_THREADS);
	}
	if (p->threads < 1 || p->threads > 100000)
		return cli_usage(cli, "--threads: %d is not in 1..100000", opt_threads);
	if (opt_online == 0 || opt_online > 4096 || opt_online < -1)
		return cli_usage(cli, "--online-cpus: %d is not in 1..4096", opt_online);
	p->ncpus = opt_online > 0 ? (unsigned int)opt_online : bw_ncpu(cli);
	if (opt_busy && (rc = cli_parse_duration(cli, "busy", opt_busy, 1000, &p->busy_ns)))
		return rc;
	if (opt_idle && (rc = cli_parse_duration(cli, "idle", opt_idle, 1000, &p->idle_ns)))
		return rc;
	if (opt_idle && !opt_busy)
		return cli_usage(cli, "--idle needs --busy");
	if (opt_duty) {
		if ((rc = parse_fraction(cli, "duty", opt_duty, 1, &d)))
			return rc;
		if (d < 1) {	/* d == 1: always busy */
			p->busy_ns = (uint64_t)(d * p->bw.period_us * 1000);
			p->idle_ns = p->bw.period_us * 1000 - p->busy_ns;
			if (!p->busy_ns)
				return cli_usage(cli, "--duty: '%s' leaves no busy time", opt_duty);
		}
	}
	if (opt_jitter) {
		if ((rc = parse_fraction(cli, "jitter", opt_jitter, 1, &d)))
			return rc;
		p->jitter_ppm = (uint32_t)(d * 1e6);
	}
	if (opt_other) {
		if ((rc = parse_fraction(cli, "other-load", opt_other, 0.99, &d)))
			return rc;
		p->other_ppm = (uint32_t)(d * 1e6);
	}
	p->duration_ns = 10 * 1000 * MS;
	if (p->trace && !opt_duration) {	/* the whole trace, and room for its delays */
		uint64_t span = cgctl_bw_trace_get(p->trace, CGCTL_BW_TRACE_SPAN_NS);

		if (2 * span + 1000 * MS > p->duration_ns)
			p->duration_ns = 2 * span + 1000 * MS;
	}
	if (opt_duration &&
	    (rc = cli_parse_duration(cli, "duration", opt_duration, 1000, &p->duration_ns)))
		return rc;
	/* the simulation costs time in proportion (~0.06 s per simulated hour and two
	 * threads here): a day is the most it runs */
	if (!p->duration_ns || p->duration_ns > 24ULL * 3600 * 1000 * MS)
		return cli_usage(cli, "--duration: '%s' is not in (0, 24h]", opt_duration);
	return EXIT_OK;
}

static int parse_kernel(struct cli *cli, struct pred *p)
{
	if (opt_kernel) {
		if (cgctl_kver_parse(opt_kernel, &p->kver) < 0)
			return cli_usage(cli, "--kernel: '%s' is not a version (e.g. 6.18, 5.3)",
					 opt_kernel);
		/* CFS bandwidth control (cpu.cfs_quota_us) came with 3.2: no era to model */
		if (p->kver < CGCTL_KVER(3, 2, 0))
			return cli_usage(cli, "--kernel: %s is before CFS bandwidth control "
					 "(3.2)", opt_kernel);
		return EXIT_OK;
	}
	p->kver = bw_kver(cli);
	if (!p->kver)
		p->kver = CGCTL_KVER_NEWEST;
	return EXIT_OK;
}

/* The replay every door uses (cgctl_bw_replay): --threads alike threads, or with a
 * trace thread i replaying its thread i mod its threads, since --threads may repeat or
 * leave out a trace's threads. */
static int simulate(struct cli *cli, struct pred *p)
{
	struct cgctl_bw_replay_result res = { .size = sizeof(res) };
	struct cgctl_bw_replay_spec sp = {
		.size = sizeof(sp), .kver = p->kver, .ncpus = p->ncpus,
		.duration_ns = p->duration_ns, .seed = (uint64_t)opt_seed,
		.record_periods = opt_timeline, .other_load_ppm = p->other_ppm,
		.levels = &p->bw, .nlevels = 1, .trace = p->trace, .threads = p->threads,
		.busy_ns = p->busy_ns, .idle_ns = p->idle_ns, .jitter_ppm = p->jitter_ppm,
	};
	struct cgctl_error e = CGCTL_ERROR_INIT;
	int r;

	r = cgctl_bw_replay(&sp, &res, &e);
	if (r < 0)
		return cli_error(cli, NULL, r, "%s", r == -EINVAL ?
				 "these settings cannot be simulated (the kernel would refuse "
				 "them; see cgctl bw set)" : e.msg);
	p->st = res.settled;
	p->periods = res.periods;	/* freed by predict() */
	p->nperiods = (ssize_t)res.nperiods;
	return EXIT_OK;
}

static void emit(struct cli *cli, const struct pred *p)
{
	struct out *o = cli->out;
	char kv[32];

	out_obj_begin(o, "settings");
	out_usec(o, "quota_usec", p->bw.quota_us == CGCTL_BW_INF ? UINT64_MAX :
		 p->bw.quota_us * 1000);
	out_usec(o, "period_usec", p->bw.period_us * 1000);
	out_usec(o, "burst_usec", p->bw.burst_us * 1000);
	/* as bw show: the limit in CPUs; the machine's CPUs are online_cpus */
	if (p->bw.quota_us == CGCTL_BW_INF)
		out_null(o, "limit_cpus");
	else
		out_cpus(o, "limit_cpus", (double)p->bw.quota_us / p->bw.period_us);
	out_obj_end(o);
	out_u64(o, "online_cpus", p->ncpus);
	out_obj_begin(o, "workload");
	out_u64(o, "threads", p->threads);
	if (p->trace) {
		out_str(o, "trace", opt_trace);
	} else {
		if (p->busy_ns)
			out_usec(o, "busy_usec", p->busy_ns);
		else
			out_null(o, "busy_usec");	/* always busy */
		out_usec(o, "idle_usec", p->idle_ns);
	}
	out_double(o, "jitter_ratio", p->jitter_ppm / 1e6, 3);
	if (p->other_ppm)
		out_double(o, "other_load", p->other_ppm / 1e6, 3);
	out_u64(o, "seed", (uint64_t)opt_seed);
	out_usec(o, "duration_usec", p->duration_ns);
	out_obj_end(o);
	snprintf(kv, sizeof(kv), "%u.%u", CGCTL_KVER_MAJOR(p->kver), CGCTL_KVER_MINOR(p->kver));
	out_str(o, "kernel", kv);
	out_obj_begin(o, "predicted");
	out_i64(o, "nr_periods", p->st.nr_periods);
	out_i64(o, "nr_throttled", p->st.nr_throttled);
	out_usec(o, "throttled_usec", p->st.throttled_ns);
	/* what this kernel does not report is null ("-"), not 0: cpu.stat.local came in
	 * 6.6, nr_bursts and burst_time in 5.16 */
	if (cgctl_bw_era_has(p->kver, CGCTL_BW_FEAT_LOCAL_STAT))
		out_usec(o, "throttled_local_usec", p->st.throttled_local_ns);
	else
		out_null(o, "throttled_local_usec");
	if (cgctl_bw_era_has(p->kver, CGCTL_BW_FEAT_BURST_STATS)) {
		out_i64(o, "nr_bursts", p->st.nr_bursts);
		out_usec(o, "burst_usec", p->st.burst_ns);
	} else {
		out_null(o, "nr_bursts");
		out_null(o, "burst_usec");
	}
	out_usec(o, "usage_usec", p->st.usage_ns);
	out_obj_end(o);
}

static void emit_timeline(struct cli *cli, const struct pred *p)
{
	struct out *o = cli->out;

	out_list_begin(o, "timeline");
	for (ssize_t i = 0; i < p->nperiods; i++) {
		const struct cgctl_bw_period *pd = &p->periods[i];

		out_obj_begin(o, NULL);
		out_usec(o, "end_usec", pd->end_ns);
		out_usec(o, "used_usec", pd->used_ns);
		out_usec(o, "throttled_usec", pd->throttled_ns);
		out_usec(o, "credit_usec", pd->credit_ns);
		out_bool(o, "counted", pd->counted);
		out_bool(o, "throttled", pd->throttled);
		out_obj_end(o);
	}
	out_list_end(o);
}

#define BAR 36
#define STRIP 64

/* One row per period: used (#) and throttled (-) CPU time against period x CPUs. */
static void draw_rows(FILE *fp, const struct pred *p, bool ascii)
{
	double cap = (double)p->bw.period_us * 1000 * p->ncpus;

	fprintf(fp, "period end  %-*s  used     throttled\n", BAR + 2,
		ascii ? "[# used, - throttled]" : "[█ used, ░ throttled]");
	fprintf(fp, "%*s(T: counted in nr_throttled; off: timer idle, not counted)\n", 12, "");
	for (ssize_t i = 0; i < p->nperiods; i++) {
		const struct cgctl_bw_period *pd = &p->periods[i];
		int u = (int)(pd->used_ns / cap * BAR + 0.5);
		int t = (int)(pd->throttled_ns / cap * BAR + 0.5);

		u = u > BAR ? BAR : u;
		t = t > BAR - u ? BAR - u : t;
		fprintf(fp, "%9.3fs  |", pd->end_ns / 1e9);
		for (int k = 0; k < BAR; k++)
			fputs(k < u ? (ascii ? "#" : "█") : k < u + t ? (ascii ? "-" : "░") : " ",
			      fp);
		fprintf(fp, "| %7.1fms %8.1fms%s\n", pd->used_ns / 1e6, pd->throttled_ns / 1e6,
			pd->throttled ? " T" : pd->counted ? "" : " off");
	}
}

/* Long runs: one character per period. */
static void draw_strip(FILE *fp, const struct pred *p, bool ascii)
{
	static const char *const uni[] = { " ", "·", "░", "▓", "█" };
	static const char *const asc[] = { " ", ".", "-", "=", "#" };
	uint64_t q = p->bw.quota_us == CGCTL_BW_INF ? UINT64_MAX : p->bw.quota_us * 1000;

	for (ssize_t i = 0; i < p->nperiods; i++) {
		const struct cgctl_bw_period *pd = &p->periods[i];
		int lvl = pd->throttled ? 4 : pd->used_ns * 2 >= q ? 3 : pd->used_ns ? 2 :
			  pd->counted ? 1 : 0;

		if (i % STRIP == 0)
			fprintf(fp, "%s%9.1fs ", i ? "\n" : "", pd->end_ns / 1e9);
		fputs(ascii ? asc[lvl] : uni[lvl], fp);
	}
	fprintf(fp, "\n%s throttled  %s used >= half the quota  %s used  %s idle (counted)\n",
		ascii ? asc[4] : uni[4], ascii ? asc[3] : uni[3], ascii ? asc[2] : uni[2],
		ascii ? asc[1] : uni[1]);
}

/* Drop the quiet rows after the workload once the timer has stopped counting. */
static void trim_settle(struct pred *p)
{
	ssize_t last = 0;

	for (ssize_t i = 0; i < p->nperiods; i++)
		if (p->periods[i].end_ns <= p->duration_ns + p->bw.period_us * 1000 ||
		    p->periods[i].counted)
			last = i + 1;
	p->nperiods = last;
}

static int predict(struct cli *cli, int argc, const char **argv)
{
	struct pred p = { 0 };
	int rc;

	if (cli->fmt == OUT_TSV && !cli_tsv_skip(cli, "timeline"))
		opt_timeline = 1;	/* --tsv=timeline records the periods */
	rc = cli_kv(cli, NULL, 0);
	if (!rc)
		rc = parse_settings(cli, argc, argv, &p);
	if (!rc)
		rc = parse_workload(cli, &p);
	if (!rc)
		rc = parse_kernel(cli, &p);
	if (!rc)
		rc = simulate(cli, &p);
	if (rc)
		goto out;
	/* --tsv=timeline: the periods' table instead of the one-row summary */
	if (!cli_tsv_skip(cli, "summary"))
		emit(cli, &p);
	if (opt_timeline && cli->fmt != OUT_HUMAN && !cli_tsv_skip(cli, "timeline"))
		emit_timeline(cli, &p);
	if (opt_timeline && cli->fmt == OUT_HUMAN) {
		bool ascii = opt_ascii || !isatty(STDOUT_FILENO);

		if (out_render(cli->out, stdout) < 0) {
			rc = cli_error(cli, NULL, -EIO, "cannot write to stdout");
			goto out;
		}
		fputc('\n', stdout);
		trim_settle(&p);
		if (p.nperiods <= 60)
			draw_rows(stdout, &p, ascii);
		else
			draw_strip(stdout, &p, ascii);
	}
out:
	free(p.periods);
	cgctl_bw_trace_free(p.trace);
	return rc;
}

const struct cgctl_cmd cmd_bw_predict = {
	.name = "predict",
	.args = "[PATH]",
	.summary = "simulate a workload under a bandwidth limit: cpu.stat to expect",
	.options = options,
	.run = predict,
	.min_args = 0,
	.max_args = 1,
	.tsv_tables = "summary,timeline",
};
