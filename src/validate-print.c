/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Human output of `cgctl validate`, modelled on `perf stat -r`: per scenario the
 * observed mean with its relative standard deviation, the prediction, the deviation and
 * the verdict; then one summary line.  JSON comes from the library (stable, documented
 * keys), so tools and the VM merge read exactly what the tests check.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* The columns of a quantity's row (2 + 26 + 1 + 10 + 1 + 9 + 1 + 10 + 1 + 10 + 1 + 7
 * ("differs"): 79 columns with all of them); -o picks some, in its order. */
const struct out_col validate_cols[VCOL_N] = {
	{ "QUANTITY", "quantity", OUT_COL_DEFAULT, "what is measured and predicted" },
	{ "OBSERVED", "observed", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "the mean of the runs on the kernel" },
	{ "SD", "rsd", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "the runs' relative standard deviation (+- %)" },
	{ "PREDICTED", "predicted", OUT_COL_DEFAULT | OUT_COL_RIGHT, "what the model predicts" },
	{ "DEVIATION", "deviation", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "predicted minus observed" },
	{ "VERDICT", "verdict", OUT_COL_DEFAULT, "match, differs or n/a (the reason below)" },
};
const struct out_table validate_tables[1] = { { "quantities", validate_cols, VCOL_N } };

static const int col_width[VCOL_N] = { -26, 10, 9, 10, 10, -7 };
static int cols[VCOL_N] = { 0, 1, 2, 3, 4, 5 };
static size_t ncols = VCOL_N;

int validate_set_columns(const char *list, char *bad, size_t len)
{
	int pick[VCOL_N];
	size_t n = 0;
	const char *p = list;

	bad[0] = '\0';
	if (!list)
		return 0;
	if (*p == '+') {	/* after the default ones: every column is one already */
		if (validate_set_columns(p + 1, bad, len) < 0)
			return -EINVAL;
		for (n = 0; n < VCOL_N; n++)
			cols[n] = (int)n;
		ncols = VCOL_N;
		return 0;
	}
	for (;;) {
		size_t l = strcspn(p, ","), c;

		for (c = 0; c < VCOL_N; c++)
			if (l == strlen(validate_cols[c].name) &&
			    (strncasecmp(p, validate_cols[c].name, l) == 0 ||
			     (c == VCOL_SD && strncasecmp(p, "rsd", l) == 0)))
				break;
		if (c == VCOL_N || n == VCOL_N) {
			snprintf(bad, len, "%.*s", (int)l, p);
			return -EINVAL;
		}
		pick[n++] = (int)c;
		if (!p[l])
			break;
		p += l + 1;
	}
	memcpy(cols, pick, n * sizeof(pick[0]));
	ncols = n;
	return 0;
}

/* A row of the chosen columns, the last one unpadded. */
static void print_row(const char *const cell[VCOL_N])
{
	fputs("  ", stdout);
	for (size_t i = 0; i < ncols; i++) {
		int w = col_width[cols[i]];

		if (i + 1 == ncols)
			fputs(cell[cols[i]], stdout);
		else
			printf("%*s ", w, cell[cols[i]]);
	}
	putchar('\n');
}

static void print_quantity(const struct cgctl_vquantity *q)
{
	char obs[32], pred[32], dev[32], sd[16];
	const char *cell[VCOL_N] = { q->name, obs, sd, pred, dev, cgctl_verdict_name(q->verdict) };

	if (q->verdict == CGCTL_VERDICT_NA) {
		const char *na[VCOL_N] = { q->name, "-", "", "-", "-", "n/a" };

		print_row(na);
		return;
	}
	fmt_value(obs, sizeof(obs), q->observed.mean, q->unit, false);
	fmt_value(pred, sizeof(pred), q->predicted, q->unit, false);
	fmt_value(dev, sizeof(dev), q->deviation, q->unit, true);
	snprintf(sd, sizeof(sd), "+- %.1f%%", q->observed.rsd * 100);
	print_row(cell);
}

void validate_print_header(const struct cgctl_vreport *r)
{
	printf("# %s: Linux %s, %u run%s per scenario\n", r->target, r->kernel, r->runs,
	       r->runs == 1 ? "" : "s");
}

void validate_print_wrapped(const char *lead, const char *text, size_t indent)
{
	const char *p = text;
	size_t start = strlen(lead), col = start, w;

	fputs(lead, stdout);
	while (*p) {
		w = strcspn(p, " ");
		if (col > start && col + 1 + w > 79) {
			printf("\n%*s", (int)indent, "");
			col = start = indent;
		} else if (col > start) {
			putchar(' ');
			col++;
		}
		fwrite(p, 1, w, stdout);
		col += w;
		p += w;
		p += strspn(p, " ");
	}
	putchar('\n');
}

/* The table of one scenario; the reasons of its n/a rows below it, each once. */
void validate_print_scenario(const struct cgctl_vscenario_result *s)
{
	const char *title[VCOL_N];	/* the -o names, as every table's heading */
	char lead[64];
	size_t j, k;

	for (j = 0; j < VCOL_N; j++)
		title[j] = validate_cols[j].name;
	snprintf(lead, sizeof(lead), "%s: ", s->name);
	putchar('\n');
	validate_print_wrapped(lead, s->summary, 2);
	print_row(title);
	for (j = 0; j < s->n_quantities; j++)
		print_quantity(&s->quantities[j]);
	for (j = 0; j < s->n_quantities; j++) {
		const struct cgctl_vquantity *q = &s->quantities[j];

		if (q->verdict != CGCTL_VERDICT_NA)
			continue;
		for (k = 0; k < j; k++)
			if (s->quantities[k].verdict == CGCTL_VERDICT_NA &&
			    strcmp(s->quantities[k].reason, q->reason) == 0)
				break;
		if (k == j)
			validate_print_wrapped("  n/a: ", q->reason, 7);
	}
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
	printf("  %-24s %6s %8s %8s %10s %10s  %s\n", "QUANTITY", "CASES", "DECIDED",
	       "WITHIN", "MEDIAN-ERR", "WORST-ERR", "WORST-CASE");
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

/* After a target's last scenario: its sweep's distribution, if a sweep. */
int validate_print_target_end(struct cli *cli, const struct cgctl_vreport *r)
{
	printf("\n");
	if (r->sweep && print_sweep(cli, r) != EXIT_OK)
		return EXIT_FAIL;
	return EXIT_OK;
}

void validate_print_report(struct cli *cli, const struct cgctl_vreport *r)
{
	validate_print_header(r);
	for (size_t i = 0; i < r->n_scenarios; i++)
		validate_print_scenario(&r->scenarios[i]);
	validate_print_target_end(cli, r);
}

int validate_print_end(struct cli *cli, struct cgctl_vreport *const *r, size_t n, bool json,
		       bool vms_checked)
{
	size_t count[3] = { 0 }, i, j, k, ns = 0;

	if (json)
		return print_json(cli, r, n);
	for (i = 0; i < n; i++) {
		ns += r[i]->n_scenarios;
		for (j = 0; j < r[i]->n_scenarios; j++)
			for (k = 0; k < r[i]->scenarios[j].n_quantities; k++)
				count[r[i]->scenarios[j].quantities[k].verdict]++;
	}
	printf("validate: %zu scenario%s on %zu target%s: %zu match, %zu differ, %zu n/a\n", ns,
	       ns == 1 ? "" : "s", n, n == 1 ? "" : "s", count[CGCTL_VERDICT_MATCH],
	       count[CGCTL_VERDICT_DIFFERS], count[CGCTL_VERDICT_NA]);
	if (count[CGCTL_VERDICT_NA])
		return validate_print_na(cli, r, n, vms_checked);
	return EXIT_OK;
}
