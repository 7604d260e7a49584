/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Human output of `cgctl validate`, modelled on `perf stat -r`: per scenario the
 * observed mean with its relative standard deviation, the prediction, the deviation and
 * the verdict; then one summary line.  JSON comes from the library (stable, documented
 * keys), so tools and the VM merge read exactly what the tests check.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate-cli.h"

/* ns as ms/µs/s with a sign when asked; other units as plain numbers. */
static void fmt_value(char *buf, size_t len, double v, const char *unit, bool sign)
{
	const char *sfx = "";
	double a = fabs(v), d = v;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (strcmp(unit, "ns") == 0) {
		if (a >= 1e9)
			d = v / 1e9, sfx = "s";
		else if (a >= 1e6)
			d = v / 1e6, sfx = "ms";
		else if (a >= 1e3)
			d = v / 1e3, sfx = "us";
		else
			sfx = "ns";
	}
	if (d == floor(d) && fabs(d) < 1e12)
		snprintf(buf, len, sign ? "%+.0f%s" : "%.0f%s", d, sfx);
	else
		snprintf(buf, len, sign ? "%+.2f%s" : "%.2f%s", d, sfx);
}

static void print_quantity(const struct cgctl_vquantity *q)
{
	char obs[32], pred[32], dev[32], sd[16];

	if (q->verdict == CGCTL_VERDICT_NA) {
		printf("  %-24s %12s %9s %12s %12s  n/a: %s\n", q->name, "-", "", "-", "-",
		       q->reason);
		return;
	}
	fmt_value(obs, sizeof(obs), q->observed.mean, q->unit, false);
	fmt_value(pred, sizeof(pred), q->predicted, q->unit, false);
	fmt_value(dev, sizeof(dev), q->deviation, q->unit, true);
	snprintf(sd, sizeof(sd), "%.1f%%", q->observed.rsd * 100);
	printf("  %-24s %12s +- %6s %12s %12s  %s\n", q->name, obs, sd, pred, dev,
	       cgctl_verdict_name(q->verdict));
}

static void print_report(const struct cgctl_vreport *r, size_t *count)
{
	size_t i, j;

	printf("# %s: Linux %s, %u run%s per scenario\n", r->target, r->kernel, r->runs,
	       r->runs == 1 ? "" : "s");
	for (i = 0; i < r->n_scenarios; i++) {
		const struct cgctl_vscenario_result *s = &r->scenarios[i];

		printf("\n%s: %s\n", s->name, s->summary);
		printf("  %-24s %12s %9s %12s %12s  %s\n", "quantity", "observed", "+- sd",
		       "predicted", "deviation", "verdict");
		for (j = 0; j < s->n_quantities; j++) {
			print_quantity(&s->quantities[j]);
			count[s->quantities[j].verdict]++;
		}
	}
	printf("\n");
}

bool validate_any_failed(const struct cgctl_vreport *r)
{
	size_t i;

	for (i = 0; i < r->n_scenarios; i++)
		if (r->scenarios[i].failed)
			return true;
	return false;
}

static int print_json(struct cli *cli, struct cgctl_vreport *const *r, size_t n)
{
	bool differs = false;
	char *js;
	size_t i;
	int err;

	if (n > 1)
		fputs("{\"targets\":[", stdout);
	for (i = 0; i < n; i++) {
		err = cgctl_vreport_json(r[i], &js);
		if (err < 0)
			return cli_error(cli, NULL, err, NULL);
		printf("%s%s", i ? "," : "", js);
		free(js);
		differs |= r[i]->verdict == CGCTL_VERDICT_DIFFERS;
	}
	if (n > 1)
		printf("],\"verdict\":\"%s\"}", differs ? "differs" : "match");
	putchar('\n');
	return EXIT_OK;
}

/* A sweep's distribution: a row per quantity, the worst case named to replay it. */
static int print_sweep(struct cli *cli, const struct cgctl_vreport *r)
{
	struct cgctl_vsweep_stat *st;
	ssize_t n = cgctl_vreport_sweep_stats(r, &st);

	if (n < 0)
		return cli_error(cli, NULL, (int)n, NULL);
	printf("sweep: %u cases from seed %llu", r->sweep, (unsigned long long)r->seed);
	/* bw and mem cases are drawn for the target's CPUs: a replay needs as many */
	if (r->cpus)
		printf(" on %s, drawn for %u CPU%s", r->target, r->cpus, r->cpus == 1 ? "" : "s");
	printf("\n");
	printf("  %-24s %6s %8s %8s %10s %10s  %s\n", "quantity", "cases", "decided",
	       "within", "median err", "worst err", "worst case");
	for (ssize_t i = 0; i < n; i++) {
		if (!st[i].decided) {
			printf("  %-24s %6u %8u %8s %10s %10s  -\n", st[i].name, st[i].cases, 0u,
			       "-", "-", "-");
			continue;
		}
		printf("  %-24s %6u %8u %7.0f%% %9.1f%% %9.1f%%  %s\n", st[i].name,
		       st[i].cases, st[i].decided, 100.0 * st[i].within / st[i].decided,
		       100 * st[i].median_rel_error, 100 * st[i].worst_rel_error,
		       st[i].worst_case);
	}
	printf("\n");
	free(st);
	return EXIT_OK;
}

int validate_print(struct cli *cli, struct cgctl_vreport *const *r, size_t n, bool json)
{
	size_t count[3] = { 0 }, i, ns = 0;

	if (json)
		return print_json(cli, r, n);
	for (i = 0; i < n; i++) {
		print_report(r[i], count);
		ns += r[i]->n_scenarios;
		if (r[i]->sweep && print_sweep(cli, r[i]) != EXIT_OK)
			return EXIT_FAIL;
	}
	printf("validate: %zu scenario%s on %zu target%s: %zu match, %zu differ, %zu n/a\n", ns,
	       ns == 1 ? "" : "s", n, n == 1 ? "" : "s", count[CGCTL_VERDICT_MATCH],
	       count[CGCTL_VERDICT_DIFFERS], count[CGCTL_VERDICT_NA]);
	return EXIT_OK;
}
