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
#include <strings.h>
#include <time.h>

#include "cgctl.h"
#include "columns.h"
#include "stat-openmetrics.h"
#include "util/strbuf.h"

static const char *opt_interval, *opt_count, *opt_output;
static int opt_om, opt_bytes;

static const struct poptOption options[] = {
	{ "interval", 'i', POPT_ARG_STRING, &opt_interval, 0,
	  "length of an interval with its unit (default 1s)", "DUR" },
	{ "count", '\0', POPT_ARG_STRING, &opt_count, 0,
	  "stop after COUNT intervals (--openmetrics: samples; default: until interrupted)",
	  "COUNT" },
	{ "openmetrics", '\0', POPT_ARG_NONE, &opt_om, 0,
	  "each sample's totals as an OpenMetrics exposition ending in '# EOF'", NULL },
	{ "output", 'o', POPT_ARG_STRING, &opt_output, 0,
	  "the columns to print, by name (any case), in that order", "COLUMNS" },
	{ "bytes", 'b', POPT_ARG_NONE, &opt_bytes, 0,
	  "sizes in bytes and times in microseconds", NULL },
	POPT_TABLEEND
};

struct watch {
	const struct cgctl_mount *cm, *mm;
	char cpath[PATH_MAX], mpath[PATH_MAX];
	struct cgctl_cgroup *ccg, *mcg;	/* NULL: not in that hierarchy (at the start) */
	unsigned int cwhat, mwhat;	/* what a sample reads (CGCTL_CGSTAT_*) */
	char unit[256];		/* systemd's unit that owns it (--openmetrics label) */
};

/* One sample: the snapshots of each side (NULL: not read) */
struct sample {
	uint64_t t_ns;
	struct cgctl_cgroup_stat *cs, *ms;
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
	struct cgctl_unit u = CGCTL_UNIT_INIT;
	int rc;

	if (cgctl_mount_find(cli->ctx, "cpu", &w->cm) == 0) {
		rc = cli_path(cli, w->cm, path, w->cpath, sizeof(w->cpath));
		if (rc)
			return rc;
		/* (v1 usage is cpuacct's: the snapshot reads it) */
		if (cgctl_cgroup_new(cli->ctx, "cpu", w->cpath, &w->ccg) < 0)
			w->ccg = NULL;
	}
	if (cgctl_mount_find(cli->ctx, "memory", &w->mm) == 0) {
		rc = cli_path(cli, w->mm, path, w->mpath, sizeof(w->mpath));
		if (rc)
			return rc;
		if (cgctl_cgroup_new(cli->ctx, "memory", w->mpath, &w->mcg) < 0)
			w->mcg = NULL;
	}
	if (!w->cm && !w->mm)
		return cli_error(cli, path, -ENODEV, "no cpu or memory hierarchy");
	/* as stat --openmetrics labels it (memory's hierarchy first) */
	if (cgctl_cgroup_unit(cli->ctx, w->mm ? w->mm : w->cm, w->mm ? w->mpath : w->cpath,
			      &u) == 1)
		snprintf(w->unit, sizeof(w->unit), "%s", u.name);
	return EXIT_OK;
}

static void sample_free(struct sample *s)
{
	cgctl_cgroup_stat_free(s->cs);
	cgctl_cgroup_stat_free(s->ms);
	s->cs = s->ms = NULL;
}

/* A snapshot of @cg into *ret, NULL when nothing of it could be read. */
static void snap(struct cgctl_cgroup *cg, unsigned int what, const char *key,
		 struct cgctl_cgroup_stat **ret)
{
	uint64_t v;

	*ret = NULL;
	if (!cg || cgctl_cgroup_stat_new(cg, what, ret) < 0)
		return;
	/* @key: there whenever the side was read (a v2 cgroup without the cpu
	 * controller: cpu.stat's usage alone, issue 27) */
	if (cgctl_cgroup_stat_get(*ret, key, &v) < 0) {
		cgctl_cgroup_stat_free(*ret);
		*ret = NULL;
	}
}

/* Returns: 0, or -ENOENT when the cgroup exists in neither hierarchy (any more). */
static int take(const struct watch *w, struct sample *s)
{
	s->t_ns = mono_ns();
	snap(w->ccg, w->cwhat, "cpu.stat.usage_ns", &s->cs);
	if (s->cs == NULL)	/* v1 without cpuacct at PATH: cpu.stat's counts */
		snap(w->ccg, w->cwhat, "cpu.stat.nr_periods", &s->cs);
	snap(w->mcg, w->mwhat, "memory.limit", &s->ms);
	return s->cs || s->ms ? 0 : -ENOENT;
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

/* Figure @key of both snapshots.  Returns: whether both have it. */
static bool fig2(const struct cgctl_cgroup_stat *a, const struct cgctl_cgroup_stat *b,
		 const char *key, uint64_t *va, uint64_t *vb)
{
	return a && b && cgctl_cgroup_stat_get(a, key, va) == 0 &&
	       cgctl_cgroup_stat_get(b, key, vb) == 0;
}

static void row_fill(const struct sample *a, const struct sample *b, uint64_t t0,
		     struct row *r)
{
	uint64_t x[3], y[3], ma, mb;

	memset(r, 0, sizeof(*r));
	r->time_s = (double)(b->t_ns - t0) / 1e9;
	r->interval_ns = b->t_ns - a->t_ns;
	/* v2 without the cpu controller: usage only, no periods */
	r->cpu = fig2(a->cs, b->cs, "cpu.stat.nr_periods", &x[0], &y[0]) &&
		 fig2(a->cs, b->cs, "cpu.stat.nr_throttled", &x[1], &y[1]) &&
		 fig2(a->cs, b->cs, "cpu.stat.throttled_ns", &x[2], &y[2]);
	if (r->cpu) {
		r->periods = delta(x[0], y[0]);
		r->throttled = delta(x[1], y[1]);
		r->throttled_ns = delta(x[2], y[2]);
	}
	/* v1 usage comes from cpuacct, which may lack PATH where cpu has it */
	r->usage_ok = fig2(a->cs, b->cs, "cpu.stat.usage_ns", &x[0], &y[0]);
	if (r->usage_ok) {
		r->usage_ns = delta(x[0], y[0]);
		r->cpu_pct = r->interval_ns ? 100.0 * r->usage_ns / r->interval_ns : 0;
	}
	r->mem_ok = a->ms && b->ms;
	if (r->mem_ok) {
		/* (the v2 root has no memory.current: 0, as before) */
		ma = mb = 0;
		fig2(a->ms, b->ms, "memory.usage", &ma, &mb);
		r->mem = mb;
		r->mem_delta = (int64_t)(mb - ma);
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
		out_cpus(o, "usage_cpus", r->cpu_pct / 100.0);
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

/* the human columns, in their order (--help lists them a line each with their meaning,
 * as every table's), their widths, and the -o choice of them */
enum { C_TIME, C_USAGE, C_PCT, C_PER, C_NTH, C_THR, C_MEM, C_MDELTA, C_N };
static const struct out_col watch_cols[C_N] = {
	{ "TIME", "time_usec", OUT_COL_DEFAULT, "end of the interval, since the start" },
	{ "CPU-USAGE", "usage_usec", OUT_COL_DEFAULT, "CPU time used in the interval" },
	{ "CPU%", "usage_cpus", OUT_COL_DEFAULT,
	  "that time per interval, in % of one CPU (200: two CPUs)" },
	{ "PERIODS", "nr_periods", OUT_COL_DEFAULT, "enforcement periods that elapsed" },
	{ "THROTTLED", "nr_throttled", OUT_COL_DEFAULT, "of them throttled" },
	{ "THROTTLED-T", "throttled_usec", OUT_COL_DEFAULT, "time spent throttled" },
	{ "MEMORY", "memory_bytes", OUT_COL_DEFAULT, "memory usage at the interval's end" },
	{ "MEM-DELTA", "memory_delta_bytes", OUT_COL_DEFAULT, "its change over the interval" },
};
static const struct out_table watch_tables[] = { { "samples", watch_cols, C_N } };
static const int wwidth[C_N] = { 10, 10, 7, 8, 9, 12, 12, 12 };
static int wsel[C_N], nsel;

/* -o LIST: the columns by name (any case).  Returns: EXIT_OK or EXIT_USAGE. */
static int pick_columns(struct cli *cli)
{
	const char *p = opt_output;

	nsel = 0;
	if (!p) {
		for (int c = 0; c < C_N; c++)
			wsel[nsel++] = c;
		return EXIT_OK;
	}
	if (cli->fmt != OUT_HUMAN)
		return cli_usage(cli, "--output picks the human columns: not with --%s",
				 cli->fmt == OUT_JSON ? "json" : "tsv");
	do {
		size_t l = strcspn(p, ",");
		int c;

		for (c = 0; c < C_N; c++)
			if (strlen(watch_cols[c].name) == l &&
			    !strncasecmp(watch_cols[c].name, p, l))
				break;
		if (c == C_N)
			return cli_usage(cli, "--output: unknown column '%.*s' (columns: TIME,"
					 "CPU-USAGE,CPU%%,PERIODS,THROTTLED,THROTTLED-T,MEMORY,"
					 "MEM-DELTA)", (int)l, p);
		if (nsel < C_N)
			wsel[nsel++] = c;
		p += l;
	} while (*p++ == ',');
	return EXIT_OK;
}

/* The chosen columns of one line: @cells[C_N]. */
static void print_cells(char cells[][32])
{
	for (int i = 0; i < nsel; i++)
		printf("%s%*s", i ? " " : "", wwidth[wsel[i]], cells[wsel[i]]);
	putchar('\n');
}
/* the JSON keys (print_json()) */
#define TSV_HEAD "time_usec\tinterval_usec\tusage_usec\tusage_cpus\tnr_periods\t" \
		 "nr_throttled\tthrottled_usec\tmemory_bytes\tmemory_delta_bytes\n"

static void print_header(struct cli *cli)
{
	if (cli->fmt == OUT_TSV)
		fputs(TSV_HEAD, stdout);
	else if (cli->fmt == OUT_HUMAN) {
		char cells[C_N][32];

		for (int c = 0; c < C_N; c++)
			snprintf(cells[c], sizeof(cells[c]), "%s", watch_cols[c].name);
		print_cells(cells);
	}
}

/* @ns as a readable duration, or in µs with -b */
static void cell_usec(char *buf, size_t len, uint64_t ns)
{
	if (opt_bytes)
		snprintf(buf, len, "%" PRIu64, ns / 1000);
	else
		cgctl_format_duration(buf, len, ns);
}

static void print_row(struct cli *cli, const struct row *r)
{
	char cells[C_N][32];

	if (cli->fmt == OUT_JSON) {
		print_json(cli, r);
		return;
	}
	if (cli->fmt == OUT_TSV) {
		printf("%" PRIu64 "\t%" PRIu64, (uint64_t)(r->time_s * 1e6 + 0.5),
		       r->interval_ns / 1000);
		if (r->usage_ok) {
			/* as --json and every other TSV: the shortest form that reads back */
			struct strbuf sb = STRBUF_INIT;

			if (strbuf_put_double(&sb, r->cpu_pct / 100.0) < 0)
				strbuf_puts(&sb, "-");
			printf("\t%" PRIu64 "\t%s", r->usage_ns / 1000, strbuf_str(&sb));
			strbuf_release(&sb);
		} else {
			printf("\t-\t-");
		}
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
	for (int c = 0; c < C_N; c++)
		strcpy(cells[c], "-");
	if (opt_bytes)	/* -b: the TSV's numbers (µs, bytes) */
		snprintf(cells[C_TIME], sizeof(cells[0]), "%" PRIu64,
			 (uint64_t)(r->time_s * 1e6 + 0.5));
	else
		snprintf(cells[C_TIME], sizeof(cells[0]), "%.3fs", r->time_s);
	if (r->usage_ok) {
		cell_usec(cells[C_USAGE], sizeof(cells[0]), r->usage_ns);
		snprintf(cells[C_PCT], sizeof(cells[0]), "%.1f", r->cpu_pct);
	}
	if (r->cpu) {
		snprintf(cells[C_PER], sizeof(cells[0]), "%" PRIu64, r->periods);
		snprintf(cells[C_NTH], sizeof(cells[0]), "%" PRIu64, r->throttled);
		cell_usec(cells[C_THR], sizeof(cells[0]), r->throttled_ns);
	}
	if (r->mem_ok && opt_bytes) {
		snprintf(cells[C_MEM], sizeof(cells[0]), "%" PRIu64, r->mem);
		snprintf(cells[C_MDELTA], sizeof(cells[0]), "%+" PRId64, r->mem_delta);
	} else if (r->mem_ok) {
		cgctl_format_size(cells[C_MEM], sizeof(cells[0]), r->mem);
		cells[C_MDELTA][0] = r->mem_delta < 0 ? '-' : '+';
		cgctl_format_size(cells[C_MDELTA] + 1, sizeof(cells[0]) - 1,
				  r->mem_delta < 0 ? -(uint64_t)r->mem_delta : (uint64_t)r->mem_delta);
	}
	print_cells(cells);
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
static int print_om(const struct watch *w, const char *path, const struct sample *s)
{
	struct stat_om_row row = {
		.path = path,
		.ms = s->ms,
		.cs = s->cs,
	};

	snprintf(row.unit, sizeof(row.unit), "%s", w->unit);
	return stat_openmetrics(stdout, &row, 1);
}

/* --openmetrics: COUNT samples (the first at once) on the schedule of the deltas. */
static int run_om(struct cli *cli, const struct watch *w, const char *path,
		  uint64_t interval, uint64_t count)
{
	struct sample s;
	uint64_t t0;
	int rc;

	if (take(w, &s) < 0)
		return cli_error(cli, path, -ENOENT, "no such cgroup");
	t0 = s.t_ns;
	for (uint64_t i = 1;; i++) {
		rc = print_om(w, path, &s) < 0 ? cli_error(cli, "stdout", -EIO, NULL) : EXIT_OK;
		sample_free(&s);
		if (rc)
			return rc;
		if (count && i >= count)
			return EXIT_OK;
		sleep_until(t0 + i * interval);
		if (take(w, &s) < 0)
			return cli_error(cli, path, -ENOENT, "the cgroup went away");
	}
}

/* The samples of PATH, printed as they come.  Returns: an exit status. */
static int run_rows(struct cli *cli, const struct watch *w, const char *path,
		    uint64_t interval, uint64_t count)
{
	struct sample prev, cur;
	uint64_t i, t0;
	struct row r;
	int rc = EXIT_OK;

	if (take(w, &prev) < 0)
		return cli_error(cli, path, -ENOENT, "no such cgroup");
	t0 = prev.t_ns;
	print_header(cli);
	for (i = 1; !count || i <= count; i++) {
		sleep_until(t0 + i * interval);
		if (take(w, &cur) < 0) {
			rc = cli_error(cli, path, -ENOENT, "the cgroup went away");
			break;
		}
		row_fill(&prev, &cur, t0, &r);
		sample_free(&prev);
		prev = cur;
		print_row(cli, &r);
		if ((cli->fmt == OUT_JSON ? out_render(cli->out, stdout) : fflush(stdout)) != 0 ||
		    ferror(stdout)) {
			rc = cli_error(cli, "stdout", -EIO, NULL);
			break;
		}
	}
	sample_free(&prev);
	return rc;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	struct watch w = { 0 };
	uint64_t interval, count;
	int rc;

	rc = parse_opts(cli, &interval, &count);
	if (!rc)
		rc = pick_columns(cli);
	if (rc)
		return rc;
	if (opt_om && cli->fmt != OUT_HUMAN)
		return cli_usage(cli, "--openmetrics is a format of its own: not with --json "
				 "or --tsv");
	rc = watch_setup(cli, argv[0], &w);
	if (!rc) {
		/* stat --openmetrics's figures, else the columns' */
		w.cwhat = opt_om ? CGCTL_CGSTAT_CPU_ALL : CGCTL_CGSTAT_CPU;
		w.mwhat = opt_om ? CGCTL_CGSTAT_MEM_ALL : CGCTL_CGSTAT_MEM;
		rc = opt_om ? run_om(cli, &w, argv[0], interval, count) :
			      run_rows(cli, &w, argv[0], interval, count);
	}
	cgctl_cgroup_unref(w.ccg);
	cgctl_cgroup_unref(w.mcg);
	return rc;
}

const struct cgctl_cmd cmd_watch = {
	.name = "watch",
	.args = "PATH",
	.summary = "per-interval CPU and memory deltas of a cgroup, like perf stat -I",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = 1,
	.columns = watch_tables,
	.n_columns = N_TABLES(watch_tables),
};
