/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One self-contained XHTML page: per target a table like perf stat -r, and per scenario
 * an inline SVG chart (one row per quantity, own scale: tolerance band around the
 * prediction, observed mean with a +/- sd error bar).  No script, no external resource;
 * the output is well-formed XML so it can be checked with any XML parser.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "validate/validate.h"

#define ROW_H 34
#define LABEL_W 210
#define PLOT_W 380
#define CHART_W (LABEL_W + PLOT_W + 20)

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
				fputc(*s, f);
		}
	}
}

static const char *color(enum cgctl_verdict v)
{
	return v == CGCTL_VERDICT_MATCH ? "#2a7d2a" : v == CGCTL_VERDICT_DIFFERS ? "#c0262d" :
								       "#777777";
}

struct scale {
	double lo, hi;
};

static struct scale row_scale(const struct cgctl_vquantity *q)
{
	double p = q->predicted, m = q->observed.mean, sd = q->observed.sd;
	struct scale s;

	s.lo = MIN(0, MIN(p - q->tolerance, m - sd));
	s.hi = MAX(p + q->tolerance, m + sd);
	if (s.hi <= s.lo)
		s.hi = s.lo + 1;
	s.hi += (s.hi - s.lo) * 0.08;
	return s;
}

static double px(const struct scale *s, double v)
{
	return LABEL_W + (v - s->lo) / (s->hi - s->lo) * PLOT_W;
}

static void svg_row(FILE *f, const struct cgctl_vquantity *q, int y)
{
	struct scale s;
	double a, b, m;

	fprintf(f, "<text x=\"4\" y=\"%d\" font-size=\"12\">", y + 20);
	esc(f, q->name);
	fputs(" [", f);
	esc(f, q->unit);
	fputs("]</text>\n", f);
	if (q->verdict == CGCTL_VERDICT_NA || !isfinite(q->predicted)) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#777777\">n/a: ",
			LABEL_W, y + 20);
		esc(f, q->reason);
		fputs("</text>\n", f);
		return;
	}
	s = row_scale(q);
	a = px(&s, q->predicted - q->tolerance);
	b = px(&s, q->predicted + q->tolerance);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#bbbbbb\"/>\n",
		LABEL_W, y + 26, LABEL_W + PLOT_W, y + 26);
	fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"20\" fill=\"#cfe8cf\">"
		"<title>tolerance</title></rect>\n", a, y + 6, MAX(b - a, 1.0));
	m = px(&s, q->predicted);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1f4e9c\" "
		"stroke-width=\"3\"><title>predicted %g</title></line>\n", m, y + 3, m, y + 29,
		q->predicted);
	a = px(&s, q->observed.mean - q->observed.sd);
	b = px(&s, q->observed.mean + q->observed.sd);
	fprintf(f, "<path d=\"M%.1f %dv8M%.1f %dh%.1fM%.1f %dv8\" stroke=\"%s\" fill=\"none\"/>\n",
		a, y + 12, a, y + 16, b - a, b, y + 12, color(q->verdict));
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\"><title>observed %g "
		"&#177; %g</title></circle>\n", px(&s, q->observed.mean), y + 16,
		color(q->verdict), q->observed.mean, q->observed.sd);
}

static void svg_chart(FILE *f, const struct cgctl_vscenario_result *sc)
{
	size_t i;
	int h = (int)sc->n_quantities * ROW_H + 8;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\">\n", CHART_W, h, CHART_W, h);
	for (i = 0; i < sc->n_quantities; i++)
		svg_row(f, &sc->quantities[i], (int)i * ROW_H);
	fputs("</svg>\n", f);
}

static void td_num(FILE *f, double v, const char *suffix)
{
	if (isfinite(v))
		fprintf(f, "<td class=\"n\">%.6g%s</td>", v, suffix);
	else
		fputs("<td class=\"n\">-</td>", f);
}

static void table_row(FILE *f, const struct cgctl_vquantity *q)
{
	bool na = q->verdict == CGCTL_VERDICT_NA;

	fputs("<tr><td>", f);
	esc(f, q->name);
	fputs("</td>", f);
	td_num(f, na ? NAN : q->observed.mean, "");
	td_num(f, na ? NAN : q->observed.rsd * 100, " %");
	td_num(f, na ? NAN : q->predicted, "");
	td_num(f, na ? NAN : q->deviation, "");
	fputs("<td>", f);
	esc(f, q->unit);
	fprintf(f, "</td><td style=\"color:%s\">%s</td><td>", color(q->verdict),
		cgctl_verdict_name(q->verdict));
	esc(f, q->reason);
	fputs("</td></tr>\n", f);
}

static void scenario(FILE *f, const struct cgctl_vscenario_result *sc)
{
	size_t i;

	fputs("<h3>", f);
	esc(f, sc->name);
	fputs("</h3>\n<p>", f);
	esc(f, sc->summary);
	fputs("</p>\n", f);
	svg_chart(f, sc);
	fputs("<table>\n<tr><th>quantity</th><th>observed</th><th>&#177; sd</th>"
	      "<th>predicted</th><th>deviation</th><th>unit</th><th>verdict</th>"
	      "<th>reason</th></tr>\n", f);
	for (i = 0; i < sc->n_quantities; i++)
		table_row(f, &sc->quantities[i]);
	fputs("</table>\n", f);
}

static void target(FILE *f, const struct cgctl_vreport *r)
{
	size_t i;

	fputs("<h2>", f);
	esc(f, r->target);
	fputs(": Linux ", f);
	esc(f, r->kernel);
	fprintf(f, ", %u runs: %s</h2>\n", r->runs, cgctl_verdict_name(vreport_verdict(r)));
	for (i = 0; i < r->n_scenarios; i++)
		scenario(f, &r->scenarios[i]);
}

static const char style[] =
	"body{font-family:sans-serif;margin:1em 2em}table{border-collapse:collapse}"
	"td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}td.n{text-align:right}"
	"svg{display:block;margin:4px 0}";

int vreport_write_html(const struct cgctl_vreport *const *r, size_t n, FILE *f)
{
	size_t i;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"
	      "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"UTF-8\"/>\n<title>cgctl validate</title>\n<style>", f);
	fputs(style, f);
	fputs("</style>\n</head>\n<body>\n<h1>cgctl validate</h1>\n<p>Blue line: prediction; "
	      "green band: tolerance; dot and bar: observed mean &#177; sd.</p>\n", f);
	for (i = 0; i < n; i++)
		target(f, r[i]);
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}

int cgctl_vreport_html(const struct cgctl_vreport *const *r, size_t n, char **ret)
{
	size_t len;
	FILE *f;
	int err;

	if ((!r && n) || !ret)
		return -EINVAL;
	f = open_memstream(ret, &len);
	if (!f)
		return -ENOMEM;
	err = vreport_write_html(r, n, f);
	if (fclose(f) != 0 && !err)
		err = -ENOMEM;
	if (err) {
		free(*ret);
		*ret = NULL;
	}
	return err;
}
