/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* struct cgctl_vreport: lifecycle and the JSON rendering documented in cgctl-validate(1). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "validate/validate.h"

int cgctl_vreport_new(struct cgctl_vreport **ret, const char *kernel,
		      const char *target, unsigned int runs)
{
	struct cgctl_vreport *r;

	if (!ret)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	snprintf(r->kernel, sizeof(r->kernel), "%s", kernel ? kernel : "");
	snprintf(r->target, sizeof(r->target), "%s", target ? target : "host");
	r->runs = runs;
	r->verdict = CGCTL_VERDICT_MATCH;
	*ret = r;
	return 0;
}

struct cgctl_vscenario_result *
cgctl_vreport_add(struct cgctl_vreport *r, const char *name, const char *summary,
		  size_t n_quantities)
{
	struct cgctl_vscenario_result *v, *s;

	if (!r)
		return NULL;
	v = realloc(r->scenarios, (r->n_scenarios + 1) * sizeof(*v));
	if (!v)
		return NULL;
	r->scenarios = v;
	s = &v[r->n_scenarios];
	memset(s, 0, sizeof(*s));
	s->quantities = calloc(n_quantities ? n_quantities : 1, sizeof(*s->quantities));
	if (!s->quantities)
		return NULL;
	s->n_quantities = n_quantities;
	snprintf(s->name, sizeof(s->name), "%s", name ? name : "");
	snprintf(s->summary, sizeof(s->summary), "%s", summary ? summary : "");
	r->n_scenarios++;
	return s;
}

void cgctl_vreport_free(struct cgctl_vreport *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n_scenarios; i++)
		free(r->scenarios[i].quantities);
	free(r->scenarios);
	free(r);
}

void vjson_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Whole numbers print as integers (counts, ns, pages); NAN/inf are null. */
void vjson_number(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.12g", v);
}

static void json_quantity(FILE *f, const struct cgctl_vquantity *q)
{
	bool na = q->verdict == CGCTL_VERDICT_NA;

	fputs("{\"name\":", f);
	vjson_string(f, q->name);
	fputs(",\"predicted\":", f);
	vjson_number(f, na ? NAN : q->predicted);
	fputs(",\"observed_mean\":", f);
	vjson_number(f, na ? NAN : q->observed.mean);
	fputs(",\"observed_sd\":", f);
	vjson_number(f, na ? NAN : q->observed.sd);
	/* the sweep's relative errors divide by it: a report read back (from a VM) gives
	 * the same distribution */
	fputs(",\"tolerance\":", f);
	vjson_number(f, na ? NAN : q->tolerance);
	fputs(",\"unit\":", f);
	vjson_string(f, q->unit);
	fputs(",\"verdict\":", f);
	vjson_string(f, cgctl_verdict_name(q->verdict));
	fputs(",\"reason\":", f);
	vjson_string(f, q->reason);
	fputc('}', f);
}

static void json_scenario(FILE *f, const struct cgctl_vscenario_result *s)
{
	size_t i;

	fputs("{\"name\":", f);
	vjson_string(f, s->name);
	fputs(",\"summary\":", f);
	vjson_string(f, s->summary);
	fputs(",\"quantities\":[", f);
	for (i = 0; i < s->n_quantities; i++) {
		if (i)
			fputc(',', f);
		json_quantity(f, &s->quantities[i]);
	}
	fputs("]}", f);
}

/* a ratio with 4 decimals, or null when it is not a number */
static void json_ratio(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.4f", v);
	else
		fputs("null", f);
}

/* "sweep": {"cases", "seed", "cpus", "quantities": [the distribution of each]} */
static void json_sweep(FILE *f, const struct cgctl_vreport *r)
{
	struct cgctl_vsweep_stat *st = NULL;
	ssize_t n = cgctl_vreport_sweep_stats(r, &st);

	fprintf(f, ",\"sweep\":{\"cases\":%u,\"seed\":%llu,\"cpus\":%u,\"quantities\":[",
		r->sweep, (unsigned long long)r->seed, r->cpus);
	for (ssize_t i = 0; i < n; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		vjson_string(f, st[i].name);
		fprintf(f, ",\"cases\":%u,\"decided\":%u,\"within\":%u,", st[i].cases,
			st[i].decided, st[i].within);
		if (st[i].decided) {
			/* a relative error is NaN where a decided figure has no observed
			 * mean (a report read back with one missing): null, never "nan" */
			fprintf(f, "\"within_ratio\":%.4f,\"median_rel_error\":",
				(double)st[i].within / st[i].decided);
			json_ratio(f, st[i].median_rel_error);
			fputs(",\"worst_rel_error\":", f);
			json_ratio(f, st[i].worst_rel_error);
			fputs(",\"worst_case\":", f);
		} else
			fputs("\"within_ratio\":null,\"median_rel_error\":null,"
			      "\"worst_rel_error\":null,\"worst_case\":", f);
		if (st[i].decided)
			vjson_string(f, st[i].worst_case);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputs("]}", f);
	free(st);
}

int vreport_write_json(const struct cgctl_vreport *r, FILE *f)
{
	size_t i;

	fputs("{\"kernel\":", f);
	vjson_string(f, r->kernel);
	fputs(",\"target\":", f);
	vjson_string(f, r->target);
	fprintf(f, ",\"runs\":%u,\"scenarios\":[", r->runs);
	for (i = 0; i < r->n_scenarios; i++) {
		if (i)
			fputc(',', f);
		json_scenario(f, &r->scenarios[i]);
	}
	fputc(']', f);
	if (r->sweep)
		json_sweep(f, r);
	fputs(",\"verdict\":", f);
	vjson_string(f, cgctl_verdict_name(vreport_verdict(r)));
	fputc('}', f);
	return ferror(f) ? -EIO : 0;
}

int cgctl_vreport_json(const struct cgctl_vreport *r, char **ret)
{
	size_t len;
	FILE *f;
	int err;

	if (!r || !ret)
		return -EINVAL;
	f = open_memstream(ret, &len);
	if (!f)
		return -ENOMEM;
	err = vreport_write_json(r, f);
	if (fclose(f) != 0 && !err)
		err = -ENOMEM;
	if (err) {
		free(*ret);
		*ret = NULL;
	}
	return err;
}
