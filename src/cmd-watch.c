/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl watch PATH [-i DUR] [-n COUNT]: per-interval deltas of cpu.stat (usage, periods,
 * throttling) and the memory usage of one cgroup, one line per interval like
 * `perf stat -I`; --json prints one object per line, --tsv one header and a row per
 * interval.  Intervals run on an absolute schedule, and each line reports the interval it
 * actually measured, so a late wake-up shows up as a longer interval, not as drift.
 * --openmetrics prints the cgroup's totals instead of deltas (a scraper takes rate()
 * itself), one whole exposition per sample as `stat --openmetrics` writes it, each
 * ending in "# EOF": the first at once, so that COUNT samples take COUNT - 1 intervals.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgctl.h"
#include "stat-openmetrics.h"

static const char *opt_interval, *opt_count;
static int opt_om;

static const struct poptOption options[] = {
	{ "interval", 'i', POPT_ARG_STRING, &opt_interval, 0,
	  "length of an interval with its unit (default 1s)", "DUR" },
	{ "count", '\0', POPT_ARG_STRING, &opt_count, 0,
	  "stop after COUNT intervals (--openmetrics: samples; default: until interrupted)",
	  "COUNT" },
	{ "openmetrics", '\0', POPT_ARG_NONE, &opt_om, 0,
	  "each sample's totals as an OpenMetrics exposition ending in '# EOF'", NULL },
	POPT_TABLEEND
};

struct watch {
	const struct cgctl_mount *cm, *am, *mm;
	char cpath[PATH_MAX], apath[PATH_MAX], mpath[PATH_MAX];
};

struct sample {
	uint64_t t_ns;
	struct cgctl_cpubw bw;
	struct cgctl_memstat ms;
	bool has_cpu, has_mem;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Hierarchies and paths of @path for cpu, cpuacct (v1, when separate) and memory. */
static int watch_setup(struct cli *cli, const char *path, struct watch *w)
{
	int rc;

	if (cgctl_mount_find(cli->ctx, "cpu", &w->cm) == 0) {
		rc = cli_path(cli, w->cm, path, w->cpath, sizeof(w->cpath));
		if (rc)
			return rc;
		/* v1 usage is cpuacct's, in its own hierarchy or co-mounted with cpu
		 * (cpu,cpuacct: the same directory) */
		if (cgctl_mount_find(cli->ctx, "cpuacct", &w->am) < 0)
			w->am = NULL;
		else if (w->am == w->cm)
			memcpy(w->apath, w->cpath, sizeof(w->apath));
		else if ((rc = cli_path(cli, w->am, path, w->apath, sizeof(w->apath))))
			return rc;
	}
	if (cgctl_mount_find(cli->ctx, "memory", &w->mm) == 0) {
		rc = cli_path(cli, w->mm, path, w->mpath, sizeof(w->mpath));
		if (rc)
			return rc;
	}
	if (!w->cm && !w->mm)
		return cli_error(cli, path, -ENODEV, "no cpu or memory hierarchy");
	return EXIT_OK;
}

/* Returns: 0, or -ENOENT when the cgroup exists in neither hierarchy (any more). */
static int take(struct cli *cli, const struct watch *w, struct sample *s)
{
	s->t_ns = mono_ns();
	s->has_cpu = w->cm && cgctl_cpubw_read(cli->ctx, w->cm, w->cpath, w->am,
					       w->am ? w->apath : NULL, &s->bw) == 0;
	/* stat does not print memsw.failcnt (stat --openmetrics reads the same) */
	s->has_mem = w->mm && cgctl_memstat_read_flags(cli->ctx, w->mm, w->mpath,
						       CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT,
						       &s->ms) == 0;
	return s->has_cpu || s->has_mem ? 0 : -ENOENT;
}

static uint64_t delta(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;	/* a counter reset (cgroup recreated) reads as 0 */
}

struct row {
	double time_s, cpu_pct;
	uint64_t interval_ns, usage_ns, periods, throttled, throttled_ns, mem;
	int64_t mem_delta;
	bool cpu, usage_ok, mem_ok;
};

static void row_fill(const struct sample *a, const struct sample *b, uint64_t t0,
		     struct row *r)
{
	const struct cgctl_cpu_stat *x = &a->bw.stat, *y = &b->bw.stat;

	memset(r, 0, sizeof(*r));
	r->time_s = (double)(b->t_ns - t0) / 1e9;
	r->interval_ns = b->t_ns - a->t_ns;
	r->cpu = a->has_cpu && b->has_cpu;
	/* v1 usage comes from cpuacct, which may lack PATH where cpu has it */
	r->usage_ok = r->cpu && (x->present & y->present & CGCTL_CPU_STAT_USAGE);
	if (r->cpu) {
		r->usage_ns = delta(x->usage_ns, y->usage_ns);
		r->cpu_pct = r->interval_ns ? 100.0 * r->usage_ns / r->interval_ns : 0;
		r->periods = delta(x->nr_periods, y->nr_periods);
		r->throttled = delta(x->nr_throttled, y->nr_throttled);
		r->throttled_ns = delta(x->throttled_ns, y->throttled_ns);
	}
	r->mem_ok = a->has_mem && b->has_mem;
	if (r->mem_ok) {
		r->mem = b->ms.usage;
		r->mem_delta = (int64_t)(b->ms.usage - a->ms.usage);
	}
}

static void print_json(struct cli *cli, const struct row *r)
{
	struct out *o = cli->out;

	/* every key in every line, null where the figure is missing */
	out_u64(o, "time_usec", (uint64_t)(r->time_s * 1e6 + 0.5));
	out_usec(o, "interval_usec", r->interval_ns);
	if (r->usage_ok) {
		out_usec(o, "usage_usec", r->usage_ns);
		out_double(o, "usage_cpus", r->cpu_pct / 100.0, 3);
	} else {
		out_null(o, "usage_usec");
		out_null(o, "usage_cpus");
	}
	if (r->cpu) {
		out_u64(o, "nr_periods", r->periods);
		out_u64(o, "nr_throttled", r->throttled);
		out_usec(o, "throttled_usec", r->throttled_ns);
	} else {
		out_null(o, "nr_periods");
		out_null(o, "nr_throttled");
		out_null(o, "throttled_usec");
	}
	if (r->mem_ok) {
		out_bytes(o, "memory_bytes", r->mem);
		out_i64(o, "memory_delta_bytes", r->mem_delta);
	} else {
		out_null(o, "memory_bytes");
		out_null(o, "memory_delta_bytes");
	}
}

#define HUMAN_HEAD "%10s %10s %7s %8s %9s %12s %12s %12s\n"
/* the JSON keys (print_json()) */
#define TSV_HEAD "time_usec\tinterval_usec\tusage_usec\tusage_cpus\tnr_periods\t" \
		 "nr_throttled\tthrottled_usec\tmemory_bytes\tmemory_delta_bytes\n"

static void print_header(struct cli *cli)
{
	if (cli->fmt == OUT_TSV)
		fputs(TSV_HEAD, stdout);
	else if (cli->fmt == OUT_HUMAN)
		printf(HUMAN_HEAD, "time", "cpu-usage", "cpu%", "periods", "throttled",
		       "throttled-t", "memory", "mem-delta");
}

static void print_row(struct cli *cli, const struct row *r)
{
	char u[24] = "-", th[24] = "-", m[24] = "-", md[24] = "-", pct[16] = "-";
	char per[24] = "-", nth[24] = "-";

	if (cli->fmt == OUT_JSON) {
		print_json(cli, r);
		return;
	}
	if (cli->fmt == OUT_TSV) {
		printf("%" PRIu64 "\t%" PRIu64, (uint64_t)(r->time_s * 1e6 + 0.5),
		       r->interval_ns / 1000);
		if (r->usage_ok)
			printf("\t%" PRIu64 "\t%.3f", r->usage_ns / 1000, r->cpu_pct / 100.0);
		else
			printf("\t-\t-");
		if (r->cpu)
			printf("\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, r->periods, r->throttled,
			       r->throttled_ns / 1000);
		else
			printf("\t-\t-\t-");
		if (r->mem_ok)
			printf("\t%" PRIu64 "\t%" PRId64 "\n", r->mem, r->mem_delta);
		else
			printf("\t-\t-\n");
		return;
	}
	if (r->usage_ok) {
		cgctl_format_duration(u, sizeof(u), r->usage_ns);
		snprintf(pct, sizeof(pct), "%.1f", r->cpu_pct);
	}
	if (r->cpu) {
		snprintf(per, sizeof(per), "%" PRIu64, r->periods);
		snprintf(nth, sizeof(nth), "%" PRIu64, r->throttled);
		cgctl_format_duration(th, sizeof(th), r->throttled_ns);
	}
	if (r->mem_ok) {
		cgctl_format_size(m, sizeof(m), r->mem);
		md[0] = r->mem_delta < 0 ? '-' : '+';
		cgctl_format_size(md + 1, sizeof(md) - 1,
				  r->mem_delta < 0 ? -(uint64_t)r->mem_delta : (uint64_t)r->mem_delta);
	}
	printf("%9.3fs %10s %7s %8s %9s %12s %12s %12s\n", r->time_s, u, pct, per, nth, th, m,
	       md);
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = { t_ns / 1000000000ull, t_ns % 1000000000ull };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int parse_opts(struct cli *cli, uint64_t *interval_ns, uint64_t *count)
{
	char *end;

	*interval_ns = 1000000000ull;
	*count = 0;
	if (opt_interval &&
	    cli_parse_duration(cli, "interval", opt_interval, 1000000, interval_ns))
		return EXIT_USAGE;
	if (*interval_ns < 10000000ull)
		return cli_usage(cli, "--interval: %s: shorter than 10ms", opt_interval);
	if (*interval_ns > 24ull * 3600 * 1000000000ull)
		return cli_usage(cli, "--interval: %s: longer than 24h", opt_interval);
	if (opt_count) {
		errno = 0;
		*count = strtoull(opt_count, &end, 10);
		if (errno || end == opt_count || *end || *count == 0 || opt_count[0] == '-')
			return cli_usage(cli, "--count: %s: not a positive number", opt_count);
	}
	return EXIT_OK;
}

/* --openmetrics: sample @s of @path as one exposition, flushed whole.  Returns: 0, -1. */
static int print_om(const char *path, const struct sample *s)
{
	struct stat_om_row row = {
		.path = path,
		.rm = s->has_mem ? 0 : -ENOENT,
		.rc = s->has_cpu ? 0 : -ENOENT,
		.ms = s->ms,
		.bw = s->bw,
	};

	return stat_openmetrics(stdout, &row, 1);
}

/* --openmetrics: COUNT samples (the first at once) on the schedule of the deltas. */
static int run_om(struct cli *cli, const struct watch *w, const char *path,
		  uint64_t interval, uint64_t count)
{
	struct sample s;
	uint64_t t0;

	if (take(cli, w, &s) < 0)
		return cli_error(cli, path, -ENOENT, "no such cgroup");
	t0 = s.t_ns;
	for (uint64_t i = 1;; i++) {
		if (print_om(path, &s) < 0)
			return cli_error(cli, "stdout", -EIO, NULL);
		if (count && i >= count)
			return EXIT_OK;
		sleep_until(t0 + i * interval);
		if (take(cli, w, &s) < 0)
			return cli_error(cli, path, -ENOENT, "the cgroup went away");
	}
}

static int run(struct cli *cli, int argc, const char **argv)
{
	struct sample prev, cur;
	struct watch w = { 0 };
	uint64_t interval, count, i, t0;
	struct row r;
	int rc;

	rc = parse_opts(cli, &interval, &count);
	if (rc)
		return rc;
	if (opt_om && cli->fmt != OUT_HUMAN)
		return cli_usage(cli, "--openmetrics is a format of its own: not with --json "
				 "or --tsv");
	rc = watch_setup(cli, argv[0], &w);
	if (rc)
		return rc;
	if (opt_om)
		return run_om(cli, &w, argv[0], interval, count);
	if (take(cli, &w, &prev) < 0)
		return cli_error(cli, argv[0], -ENOENT, "no such cgroup");
	t0 = prev.t_ns;
	print_header(cli);
	for (i = 1; !count || i <= count; i++) {
		sleep_until(t0 + i * interval);
		if (take(cli, &w, &cur) < 0)
			return cli_error(cli, argv[0], -ENOENT, "the cgroup went away");
		row_fill(&prev, &cur, t0, &r);
		print_row(cli, &r);
		if ((cli->fmt == OUT_JSON ? out_render(cli->out, stdout) : fflush(stdout)) != 0 ||
		    ferror(stdout))
			return cli_error(cli, "stdout", -EIO, NULL);
		prev = cur;
	}
	return EXIT_OK;
}

const struct cgctl_cmd cmd_watch = {
	.name = "watch",
	.args = "PATH",
	.summary = "per-interval CPU and memory deltas of a cgroup, like perf stat -I",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = 1,
};
