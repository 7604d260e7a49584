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

/* Figure @key of the row's memory (@cpu false) or CPU snapshot.  Returns: whether the
 * figure is there (cgctl_cgroup_stat_get()'s -ENODATA and errors: not printed). */
static bool fig(const struct stat_om_row *r, bool cpu, const char *key, uint64_t *v)
{
	const struct cgctl_cgroup_stat *st = cpu ? r->cs : r->ms;

	return st && cgctl_cgroup_stat_get(st, key, v) == 0;
}

#define ONE_FN(fn, cpu, key, expr)                                                      \
	static size_t fn(const struct stat_om_row *r, double *v, const char **lv)        \
	{                                                                                \
		uint64_t x;                                                              \
                                                                                         \
		(void)lv;                                                                \
		if (!fig(r, cpu, key, &x))                                               \
			return 0;                                                        \
		v[0] = (expr);                                                           \
		return 1;                                                                \
	}
ONE_FN(mem_usage, false, "memory.usage", (double)x)
ONE_FN(mem_limit, false, "memory.limit", bytes_or_inf(x))
ONE_FN(mem_high, false, "memory.high", bytes_or_inf(x))
ONE_FN(mem_peak, false, "memory.peak", (double)x)
ONE_FN(mem_swap, false, "memory.swap.usage", (double)x)
ONE_FN(mem_failcnt, false, "memory.failcnt", (double)x)

static size_t mem_events(const struct stat_om_row *r, double *v, const char **lv)
{
	static const char *const ev[] = { "low", "high", "max", "oom", "oom_kill" };
	char key[64];
	uint64_t x;

	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		snprintf(key, sizeof(key), "memory.events.%s", ev[i]);
		if (!fig(r, false, key, &x))
			return 0;	/* memory.events (v2) has all five */
		lv[i] = ev[i], v[i] = (double)x;
	}
	return sizeof(ev) / sizeof(ev[0]);
}

static size_t mem_pressure(const struct stat_om_row *r, double *v, const char **lv)
{
	uint64_t x;
	size_t n = 0;

	if (!fig(r, false, "memory.pressure.some.total_us", &x))
		return 0;
	lv[n] = "some", v[n++] = (double)x / 1e6;
	if (fig(r, false, "memory.pressure.full.total_us", &x))
		lv[n] = "full", v[n++] = (double)x / 1e6;
	return n;
}

static size_t cpu_limit(const struct stat_om_row *r, double *v, const char **lv)
{
	uint64_t quota, period;

	(void)lv;
	if (!fig(r, true, "cpu.period", &period) || !period || !fig(r, true, "cpu.quota", &quota))
		return 0;
	v[0] = quota == UINT64_MAX ? 1.0 / 0.0 : (double)quota / (double)period;
	return 1;
}

ONE_FN(cpu_usage, true, "cpu.stat.usage_ns", sec(x))
ONE_FN(cpu_periods, true, "cpu.stat.nr_periods", (double)x)
ONE_FN(cpu_nr_throttled, true, "cpu.stat.nr_throttled", (double)x)
ONE_FN(cpu_throttled, true, "cpu.stat.throttled_ns", sec(x))
ONE_FN(cpu_nr_bursts, true, "cpu.stat.nr_bursts", (double)x)
ONE_FN(cpu_burst, true, "cpu.stat.burst_ns", sec(x))

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
