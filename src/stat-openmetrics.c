/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `cgctl stat --openmetrics`: the figures of every PATH in the OpenMetrics text format
 * (which Prometheus' text format 0.0.4 parsers, node_exporter's textfile collector
 * among them, also read): one family at a time, all its samples together, HELP and
 * TYPE first; base units (bytes, seconds); counters' samples end in _total; the
 * cgroup as the label "cgroup"; unlimited is +Inf; "# EOF" last.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stat-openmetrics.h"

enum om_kind { OM_GAUGE, OM_COUNTER };

struct om_family {
	const char *name;	/* without _total */
	enum om_kind kind;
	const char *help;
	const char *label;	/* an extra label, or NULL */
	/* the samples of one row: *n values (and label values), 0 when absent */
	size_t (*get)(const struct stat_om_row *r, double *v, const char **lv);
};

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

static double bytes_or_inf(uint64_t b)
{
	return b == UINT64_MAX ? 1.0 / 0.0 : (double)b;
}

static const struct cgctl_memstat *mem_of(const struct stat_om_row *r)
{
	return r->rm == 0 ? &r->ms : NULL;
}

static size_t mem_usage(const struct stat_om_row *r, double *v, const char **lv)
{
	(void)lv;
	if (r->rm != 0 || (r->ms.present & CGCTL_MEMSTAT_NO_USAGE))
		return 0;
	v[0] = (double)r->ms.usage;
	return 1;
}

static size_t mem_limit(const struct stat_om_row *r, double *v, const char **lv)
{
	(void)lv;
	if (r->rm != 0)
		return 0;
	v[0] = bytes_or_inf(r->ms.limit);
	return 1;
}

static size_t mem_high(const struct stat_om_row *r, double *v, const char **lv)
{
	(void)lv;
	if (r->rm != 0 || !(r->ms.present & CGCTL_MEMSTAT_HIGH))
		return 0;
	v[0] = bytes_or_inf(r->ms.high);
	return 1;
}

static size_t mem_peak(const struct stat_om_row *r, double *v, const char **lv)
{
	(void)lv;
	if (r->rm != 0 || !(r->ms.present & CGCTL_MEMSTAT_PEAK))
		return 0;
	v[0] = (double)r->ms.peak;
	return 1;
}

static size_t mem_swap(const struct stat_om_row *r, double *v, const char **lv)
{
	(void)lv;
	if (r->rm != 0 || !(r->ms.present & CGCTL_MEMSTAT_SWAP))
		return 0;
	v[0] = (double)r->ms.swap_usage;
	return 1;
}

static size_t mem_failcnt(const struct stat_om_row *r, double *v, const char **lv)
{
	(void)lv;
	if (r->rm != 0 || !(r->ms.present & CGCTL_MEMSTAT_FAILCNT))
		return 0;
	v[0] = (double)r->ms.failcnt;
	return 1;
}

static size_t mem_events(const struct stat_om_row *r, double *v, const char **lv)
{
	const struct cgctl_memstat *m = mem_of(r);

	if (!m || !(m->present & CGCTL_MEMSTAT_EVENTS))
		return 0;
	lv[0] = "low", v[0] = (double)m->events_low;
	lv[1] = "high", v[1] = (double)m->events_high;
	lv[2] = "max", v[2] = (double)m->events_max;
	lv[3] = "oom", v[3] = (double)m->events_oom;
	lv[4] = "oom_kill", v[4] = (double)m->events_oom_kill;
	return 5;
}

static size_t mem_pressure(const struct stat_om_row *r, double *v, const char **lv)
{
	const struct cgctl_memstat *m = mem_of(r);
	size_t n = 0;

	if (!m || !(m->present & CGCTL_MEMSTAT_PRESSURE))
		return 0;
	lv[n] = "some", v[n++] = (double)m->pressure.some.total_us / 1e6;
	if (m->pressure.full.present)
		lv[n] = "full", v[n++] = (double)m->pressure.full.total_us / 1e6;
	return n;
}

static size_t cpu_usage(const struct stat_om_row *r, double *v, const char **lv)
{
	(void)lv;
	if (r->rc != 0 || !(r->bw.stat.present & CGCTL_CPU_STAT_USAGE))
		return 0;
	v[0] = sec(r->bw.stat.usage_ns);
	return 1;
}

static size_t cpu_limit(const struct stat_om_row *r, double *v, const char **lv)
{
	(void)lv;
	if (r->rc != 0 || !r->bw.period_us)
		return 0;
	v[0] = r->bw.quota_us == UINT64_MAX ? 1.0 / 0.0 :
					      (double)r->bw.quota_us / (double)r->bw.period_us;
	return 1;
}

#define CPU_STAT_FN(fn, flag, expr)                                                      \
	static size_t fn(const struct stat_om_row *r, double *v, const char **lv)        \
	{                                                                                \
		(void)lv;                                                                \
		if (r->rc != 0 || !(r->bw.stat.present & (flag)))                           \
			return 0;                                                        \
		v[0] = (expr);                                                           \
		return 1;                                                                \
	}
CPU_STAT_FN(cpu_periods, CGCTL_CPU_STAT_NR_PERIODS, (double)r->bw.stat.nr_periods)
CPU_STAT_FN(cpu_nr_throttled, CGCTL_CPU_STAT_NR_THROTTLED, (double)r->bw.stat.nr_throttled)
CPU_STAT_FN(cpu_throttled, CGCTL_CPU_STAT_THROTTLED, sec(r->bw.stat.throttled_ns))
CPU_STAT_FN(cpu_nr_bursts, CGCTL_CPU_STAT_NR_BURSTS, (double)r->bw.stat.nr_bursts)
CPU_STAT_FN(cpu_burst, CGCTL_CPU_STAT_BURST, sec(r->bw.stat.burst_ns))

static const struct om_family families[] = {
	{"cgctl_memory_usage_bytes", OM_GAUGE,
	 "Memory charged to the cgroup (v1 memory.usage_in_bytes, v2 memory.current).",
	 NULL, mem_usage},
	{"cgctl_memory_limit_bytes", OM_GAUGE,
	 "Memory limit (v1 memory.limit_in_bytes, v2 memory.max); +Inf: none.", NULL,
	 mem_limit},
	{"cgctl_memory_high_bytes", OM_GAUGE,
	 "Memory throttling threshold (v2 memory.high); +Inf: none.", NULL, mem_high},
	{"cgctl_memory_peak_bytes", OM_GAUGE,
	 "Highest memory usage (v1 memory.max_usage_in_bytes, v2 memory.peak).", NULL,
	 mem_peak},
	{"cgctl_memory_swap_bytes", OM_GAUGE, "Swap charged to the cgroup (v2).", NULL,
	 mem_swap},
	{"cgctl_memory_failcnt", OM_COUNTER,
	 "Times the memory limit was hit (v1 memory.failcnt).", NULL, mem_failcnt},
	{"cgctl_memory_events", OM_COUNTER,
	 "Memory events of the cgroup and its descendants (v2 memory.events).", "event",
	 mem_events},
	{"cgctl_memory_pressure_seconds", OM_COUNTER,
	 "Time some or all tasks stalled on memory (v2 memory.pressure).", "kind",
	 mem_pressure},
	{"cgctl_cpu_usage_seconds", OM_COUNTER,
	 "CPU time used (v1 cpuacct.usage, v2 cpu.stat usage_usec).", NULL, cpu_usage},
	{"cgctl_cpu_limit_cpus", OM_GAUGE,
	 "CPU bandwidth limit, quota / period, in CPUs; +Inf: none.", NULL, cpu_limit},
	{"cgctl_cpu_periods", OM_COUNTER, "Enforcement periods with runnable tasks.", NULL,
	 cpu_periods},
	{"cgctl_cpu_throttled_periods", OM_COUNTER, "Periods in which the group was "
	 "throttled.", NULL, cpu_nr_throttled},
	{"cgctl_cpu_throttled_seconds", OM_COUNTER,
	 "Time the group's runqueues spent throttled.", NULL, cpu_throttled},
	{"cgctl_cpu_bursts", OM_COUNTER, "Periods in which the group used its burst.", NULL,
	 cpu_nr_bursts},
	{"cgctl_cpu_burst_seconds", OM_COUNTER, "CPU time used beyond the quota (burst).",
	 NULL, cpu_burst},
};

/* a label value: backslash, double quote and newline escaped */
static void label_value(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', fp), fputc(*s, fp);
		else if (*s == '\n')
			fputs("\\n", fp);
		else
			fputc(*s, fp);
	}
}

static void value(FILE *fp, double v)
{
	if (v == 1.0 / 0.0)
		fputs("+Inf", fp);
	else if (v == (double)(uint64_t)v && v < 9007199254740992.0)
		fprintf(fp, "%" PRIu64, (uint64_t)v);
	else
		fprintf(fp, "%.9g", v);
}

int stat_openmetrics(FILE *fp, const struct stat_om_row *rows, size_t n)
{
	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		const struct om_family *fam = &families[f];
		bool head = false;

		for (size_t i = 0; i < n; i++) {
			double v[8];
			const char *lv[8];
			size_t k = fam->get(&rows[i], v, lv);

			if (k && !head) {
				fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help,
					fam->name, fam->kind == OM_COUNTER ? "counter" : "gauge");
				head = true;
			}
			for (size_t j = 0; j < k; j++) {
				fprintf(fp, "%s%s{cgroup=\"", fam->name,
					fam->kind == OM_COUNTER ? "_total" : "");
				label_value(fp, rows[i].path);
				if (rows[i].unit[0]) {
					fputs("\",unit=\"", fp);
					label_value(fp, rows[i].unit);
				}
				if (fam->label)
					fprintf(fp, "\",%s=\"%s", fam->label, lv[j]);
				fputs("\"} ", fp);
				value(fp, v[j]);
				fputc('\n', fp);
			}
		}
	}
	fputs("# EOF\n", fp);
	return fflush(fp) == 0 && !ferror(fp) ? 0 : -1;
}
