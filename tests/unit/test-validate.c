/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lib/validate pure parts: statistics, tolerance rules, verdicts, the runner against fake
 * observations, and the JSON writer/parser. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libcgctl.h"
#include "testutil.h"
#include "validate/validate.h"

START_TEST(test_stats_basic)
{
	const double x[] = { 1, 2, 3, 4 };
	struct cgctl_vstats s;

	ck_assert_int_eq(cgctl_vstats_compute(x, 4, &s), 0);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_double_eq_tol(s.mean, 2.5, 1e-12);
	/* sample sd: sqrt(((1.5^2 + 0.5^2) * 2) / 3) */
	ck_assert_double_eq_tol(s.sd, sqrt(5.0 / 3.0), 1e-12);
	ck_assert_double_eq_tol(s.rsd, sqrt(5.0 / 3.0) / 2.5, 1e-12);
}
END_TEST

START_TEST(test_stats_edges)
{
	const double one[] = { -7 }, bad[] = { 1, NAN }, zero[] = { -1, 1 };
	/* ns-sized values with a tiny spread: naive sum-of-squares loses it */
	const double big[] = { 4.5e9 + 1, 4.5e9 + 2, 4.5e9 + 3 };
	struct cgctl_vstats s;

	ck_assert_int_eq(cgctl_vstats_compute(one, 1, &s), 0);
	ck_assert_double_eq(s.mean, -7);
	ck_assert_double_eq(s.sd, 0);
	ck_assert_int_eq(cgctl_vstats_compute(one, 0, &s), -EINVAL);
	ck_assert_int_eq(cgctl_vstats_compute(bad, 2, &s), -EINVAL);
	ck_assert_int_eq(cgctl_vstats_compute(zero, 2, &s), 0);
	ck_assert_double_eq(s.rsd, 0);
	ck_assert_int_eq(cgctl_vstats_compute(big, 3, &s), 0);
	ck_assert_double_eq_tol(s.sd, 1.0, 1e-6);
}
END_TEST

START_TEST(test_tolerance_rule)
{
	struct vq_def d = { "q", "ns", 10, 0.05 };

	ck_assert_double_eq(vtolerance(&d, 100, 0), 10);	/* abs wins */
	ck_assert_double_eq(vtolerance(&d, -1000, 0), 50);	/* rel of |pred| wins */
	ck_assert_double_eq(vtolerance(&d, 1000, 64), 64);	/* model bound wins */
	ck_assert_double_eq(vtolerance(&d, 1000, -80), 80);
}
END_TEST

START_TEST(test_verdict_rule)
{
	ck_assert_int_eq(vverdict(100, 105, 10, 0), CGCTL_VERDICT_MATCH);
	ck_assert_int_eq(vverdict(100, 110, 10, 0), CGCTL_VERDICT_MATCH);	/* boundary */
	ck_assert_int_eq(vverdict(100, 111, 10, 0), CGCTL_VERDICT_DIFFERS);
	ck_assert_int_eq(vverdict(100, 89, 10, 0), CGCTL_VERDICT_DIFFERS);
	/* outside the tolerance but not above the noise (2 sd) */
	ck_assert_int_eq(vverdict(100, 130, 10, 20), CGCTL_VERDICT_MATCH);
	ck_assert_int_eq(vverdict(100, 141, 10, 20), CGCTL_VERDICT_DIFFERS);
	ck_assert_int_eq(vverdict(NAN, 141, 10, 20), CGCTL_VERDICT_NA);
	ck_assert_str_eq(cgctl_verdict_name(CGCTL_VERDICT_NA), "n/a");
	ck_assert_str_eq(cgctl_verdict_name(CGCTL_VERDICT_DIFFERS), "differs");
}
END_TEST

/* ---- a fake driver: observations are scripted, nothing touches the kernel ---- */
struct fake {
	double pred[2];
	double offset;		/* added to every observation of quantity 0 */
	double jitter;		/* +/- alternating on quantity 0 */
	int applies;		/* returned by applies() */
	int fail_at;		/* run (1-based) that fails, 0: none */
	bool q1_na;
	int calls;
};

static int fake_applies(struct vrun *run, const struct vscenario *s, char *reason, size_t len)
{
	const struct fake *f = s->params;

	if (f->applies > 0)
		snprintf(reason, len, "kernel 6.13 removed charge moving");
	return f->applies;
}

static int fake_run(struct vrun *run, const struct vscenario *s, struct vsample *out,
		    char *reason, size_t len)
{
	struct fake *f = (struct fake *)s->params;

	f->calls++;
	if (f->calls == f->fail_at) {
		snprintf(reason, len, "workload killed by signal 9");
		return -ECHILD;
	}
	out[0].pred = f->pred[0];
	out[0].obs = f->pred[0] + f->offset + (f->calls % 2 ? f->jitter : -f->jitter);
	out[1].pred = f->pred[1] + f->calls;	/* prediction follows what the workload did */
	out[1].obs = out[1].pred + 1;
	out[1].bound = 2;
	if (f->q1_na) {
		out[1].na = true;
		snprintf(out[1].reason, sizeof(out[1].reason), "no cpu.stat.local before 6.6");
	}
	return 0;
}

static const struct vdriver fake_driver = { .applies = fake_applies, .run_once = fake_run };

static struct vscenario fake_scenario(struct fake *f)
{
	struct vscenario s = {
		.name = "fake", .summary = "scripted", .driver = &fake_driver, .params = f,
		.q = { { "throttled_time", "ns", 1000, 0.05 }, { "stock", "pages", 0, 0 } },
	};
	return s;
}

static struct cgctl_vreport *run_fake(struct fake *f, unsigned int runs, int *ret)
{
	struct vscenario s = fake_scenario(f);
	struct vrun_opts o = { .runs = runs };
	struct cgctl_vscenario_result *res;
	struct cgctl_vreport *r;

	ck_assert_int_eq(cgctl_vreport_new(&r, "6.18.44", "host", runs), 0);
	res = cgctl_vreport_add(r, s.name, s.summary, vscenario_nq(&s));
	ck_assert_ptr_nonnull(res);
	*ret = vrunner_run(NULL, &s, &o, res);
	return r;
}

START_TEST(test_runner_match)
{
	struct fake f = { .pred = { 100000, 10 }, .offset = 2000, .jitter = 500 };
	struct cgctl_vreport *r;
	struct cgctl_vquantity *q;
	int ret;

	r = run_fake(&f, 4, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(f.calls, 4);
	q = &r->scenarios[0].quantities[0];
	ck_assert_str_eq(q->name, "throttled_time");
	ck_assert_double_eq(q->predicted, 100000);
	ck_assert_double_eq(q->observed.mean, 102000);
	ck_assert_double_eq_tol(q->observed.sd, sqrt(4 * 500.0 * 500 / 3), 1e-9);
	ck_assert_double_eq(q->tolerance, 5000);	/* 5 % of 100000 */
	ck_assert_int_eq(q->verdict, CGCTL_VERDICT_MATCH);
	q = &r->scenarios[0].quantities[1];
	ck_assert_double_eq(q->predicted, 10 + 2.5);	/* mean of per-run predictions */
	ck_assert_double_eq(q->deviation, 1);
	ck_assert_double_eq(q->noise, 0);	/* residuals are constant */
	ck_assert_int_eq(q->verdict, CGCTL_VERDICT_MATCH);	/* inside the bound 2 */
	ck_assert_int_eq(vreport_verdict(r), CGCTL_VERDICT_MATCH);
	cgctl_vreport_free(r);
}
END_TEST

START_TEST(test_runner_differs)
{
	struct fake f = { .pred = { 100000, 10 }, .offset = 8000, .jitter = 500 };
	struct cgctl_vreport *r;
	int ret;

	r = run_fake(&f, 3, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(r->scenarios[0].quantities[0].verdict, CGCTL_VERDICT_DIFFERS);
	ck_assert_int_eq(vreport_verdict(r), CGCTL_VERDICT_DIFFERS);
	ck_assert_ptr_nonnull(strstr(r->scenarios[0].quantities[0].reason, "above"));
	cgctl_vreport_free(r);
	/* the same offset drowned in noise is not a difference */
	f = (struct fake){ .pred = { 100000, 10 }, .offset = 8000, .jitter = 6000 };
	r = run_fake(&f, 4, &ret);
	ck_assert_int_eq(r->scenarios[0].quantities[0].verdict, CGCTL_VERDICT_MATCH);
	ck_assert_ptr_nonnull(strstr(r->scenarios[0].quantities[0].reason, "noise"));
	cgctl_vreport_free(r);
}
END_TEST

START_TEST(test_runner_na)
{
	struct fake f = { .pred = { 1, 1 }, .applies = 1 };
	struct cgctl_vreport *r;
	int ret;

	r = run_fake(&f, 3, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(f.calls, 0);
	ck_assert_int_eq(r->scenarios[0].quantities[0].verdict, CGCTL_VERDICT_NA);
	ck_assert_str_eq(r->scenarios[0].quantities[1].reason,
			 "kernel 6.13 removed charge moving");
	ck_assert_int_eq(vreport_verdict(r), CGCTL_VERDICT_MATCH);
	cgctl_vreport_free(r);

	f = (struct fake){ .pred = { 5, 1 }, .q1_na = true };
	r = run_fake(&f, 2, &ret);
	ck_assert_int_eq(r->scenarios[0].quantities[0].verdict, CGCTL_VERDICT_MATCH);
	ck_assert_int_eq(r->scenarios[0].quantities[1].verdict, CGCTL_VERDICT_NA);
	ck_assert_str_eq(r->scenarios[0].quantities[1].reason, "no cpu.stat.local before 6.6");
	cgctl_vreport_free(r);
}
END_TEST

START_TEST(test_runner_failure)
{
	struct fake f = { .pred = { 5, 1 }, .fail_at = 2 };
	struct cgctl_vreport *r;
	int ret;

	r = run_fake(&f, 3, &ret);
	ck_assert_int_eq(ret, 0);
	ck_assert(r->scenarios[0].failed);
	ck_assert_int_eq(r->scenarios[0].quantities[0].verdict, CGCTL_VERDICT_NA);
	ck_assert_str_eq(r->scenarios[0].quantities[0].reason,
			 "run 2 failed: workload killed by signal 9");
	cgctl_vreport_free(r);
}
END_TEST

static volatile int cancel_flag;

static void cancel_progress(void *data, const char *scenario, unsigned int run,
			    unsigned int runs)
{
	if (run == 2)
		cancel_flag = 1;
}

START_TEST(test_runner_cancel)
{
	struct fake f = { .pred = { 5, 1 } };
	struct vscenario s = fake_scenario(&f);
	struct vrun_opts o = { .runs = 5, .cancel = &cancel_flag, .progress = cancel_progress };
	struct cgctl_vscenario_result *res;
	struct cgctl_vreport *r;

	ck_assert_int_eq(cgctl_vreport_new(&r, "6.18.44", "host", 5), 0);
	res = cgctl_vreport_add(r, s.name, s.summary, vscenario_nq(&s));
	ck_assert_int_eq(vrunner_run(NULL, &s, &o, res), -EINTR);
	ck_assert_int_eq(f.calls, 2);
	cgctl_vreport_free(r);
	cancel_flag = 0;
}
END_TEST

static struct cgctl_vreport *sample_report(void)
{
	struct cgctl_vscenario_result *s;
	struct cgctl_vreport *r;

	ck_assert_int_eq(cgctl_vreport_new(&r, "6.18.44", "host", 3), 0);
	s = cgctl_vreport_add(r, "bw-quota", "quota \"50ms\" <2 threads>", 2);
	ck_assert_ptr_nonnull(s);
	snprintf(s->quantities[0].name, 48, "throttled_time");
	snprintf(s->quantities[0].unit, 16, "ns");
	s->quantities[0].predicted = 1500000000;
	s->quantities[0].observed.mean = 1490000000;
	s->quantities[0].observed.sd = 11000000.5;
	s->quantities[0].tolerance = 75000000;
	s->quantities[0].verdict = CGCTL_VERDICT_MATCH;
	snprintf(s->quantities[0].reason, 192, "inside tolerance");
	snprintf(s->quantities[1].name, 48, "local");
	snprintf(s->quantities[1].unit, 16, "ns");
	s->quantities[1].predicted = NAN;
	s->quantities[1].verdict = CGCTL_VERDICT_NA;
	snprintf(s->quantities[1].reason, 192, "no cpu.stat.local\n& <v1>");
	return r;
}

/* a quantity of a sweep case */
static void sweep_q(struct cgctl_vscenario_result *s, size_t i, const char *name,
		    double pred, double obs, double tol, enum cgctl_verdict v)
{
	snprintf(s->quantities[i].name, 48, "%s", name);
	snprintf(s->quantities[i].unit, 16, "ns");
	s->quantities[i].predicted = pred;
	s->quantities[i].observed.mean = obs;
	s->quantities[i].tolerance = tol;
	s->quantities[i].verdict = v;
}

START_TEST(test_sweep_stats)
{
	struct cgctl_vsweep_stat *st;
	struct cgctl_vscenario_result *s;
	struct cgctl_vreport *r;
	char *js;

	ck_assert_int_eq(cgctl_vreport_new(&r, "6.18.44", "host", 1), 0);
	r->sweep = 3;
	r->seed = 40;
	r->cpus = 2;
	s = cgctl_vreport_add(r, "sweep-bw-40", "bw: a", 2);
	sweep_q(s, 0, "usage", 100, 110, 5, CGCTL_VERDICT_DIFFERS);	/* 10% */
	sweep_q(s, 1, "nr_throttled", 0, 1, 2, CGCTL_VERDICT_MATCH);	/* 1 / tol 2 */
	s = cgctl_vreport_add(r, "sweep-bw-41", "bw: b", 2);
	sweep_q(s, 0, "usage", 200, 199, 10, CGCTL_VERDICT_MATCH);	/* 0.5% */
	sweep_q(s, 1, "nr_throttled", NAN, 0, 0, CGCTL_VERDICT_NA);
	s = cgctl_vreport_add(r, "sweep-bw-42", "bw: c", 1);
	sweep_q(s, 0, "usage", 400, 280, 20, CGCTL_VERDICT_DIFFERS);	/* 30% */
	ck_assert_int_eq(cgctl_vreport_sweep_stats(r, &st), 2);
	ck_assert_str_eq(st[0].name, "usage");
	ck_assert_uint_eq(st[0].cases, 3);
	ck_assert_uint_eq(st[0].decided, 3);
	ck_assert_uint_eq(st[0].within, 1);
	ck_assert_double_eq_tol(st[0].median_rel_error, 0.10, 1e-9);
	ck_assert_double_eq_tol(st[0].worst_rel_error, 0.30, 1e-9);
	ck_assert_str_eq(st[0].worst_case, "sweep-bw-42");
	ck_assert_str_eq(st[1].name, "nr_throttled");
	ck_assert_uint_eq(st[1].cases, 2);
	ck_assert_uint_eq(st[1].decided, 1);
	ck_assert_uint_eq(st[1].within, 1);
	ck_assert_double_eq_tol(st[1].median_rel_error, 0.5, 1e-9);
	ck_assert_str_eq(st[1].worst_case, "sweep-bw-40");
	free(st);
	ck_assert_int_eq(cgctl_vreport_json(r, &js), 0);
	ck_assert_ptr_nonnull(strstr(js, "],\"sweep\":{\"cases\":3,\"seed\":40,\"cpus\":2,"
					 "\"quantities\":["
					 "{\"name\":\"usage\",\"cases\":3,\"decided\":3,"
					 "\"within\":1,\"within_ratio\":0.3333,"
					 "\"median_rel_error\":0.1000,\"worst_rel_error\":0.3000,"
					 "\"worst_case\":\"sweep-bw-42\"},"));
	free(js);
	/* a quantity no case decided has nulls, not numbers */
	r->scenarios[0].quantities[1].verdict = CGCTL_VERDICT_NA;
	ck_assert_int_eq(cgctl_vreport_json(r, &js), 0);
	ck_assert_ptr_nonnull(strstr(js, "{\"name\":\"nr_throttled\",\"cases\":2,\"decided\":0,"
					 "\"within\":0,\"within_ratio\":null,"
					 "\"median_rel_error\":null,\"worst_rel_error\":null,"
					 "\"worst_case\":null}]},\"verdict\":\"differs\"}"));
	free(js);
	cgctl_vreport_free(r);
}
END_TEST

/* A sweep read back (a VM's report) renders the same JSON: cases, seed (exact above
 * 2^53), CPUs, the summaries, and the distribution computed again from the tolerances */
START_TEST(test_sweep_roundtrip)
{
	struct cgctl_vscenario_result *s;
	struct cgctl_vreport *r, *p;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	char *js, *js2;

	ck_assert_int_eq(cgctl_vreport_new(&r, "6.1.0-0", "host", 1), 0);
	r->sweep = 2;
	r->seed = 18446744073709551614ull;
	r->cpus = 2;
	s = cgctl_vreport_add(r, "sweep-move-18446744073709551614", "move: anon, 512 pages", 2);
	sweep_q(s, 0, "from_usage_change", 0, 3, 4, CGCTL_VERDICT_MATCH);	/* tol 4 */
	sweep_q(s, 1, "to_usage_change", 512, 511.5, 4, CGCTL_VERDICT_MATCH);
	s = cgctl_vreport_add(r, "sweep-move-18446744073709551615", "move: thp", 1);
	sweep_q(s, 0, "from_usage_change", -1024, -1000, 4, CGCTL_VERDICT_DIFFERS);
	ck_assert_int_eq(cgctl_vreport_json(r, &js), 0);
	ck_assert_ptr_nonnull(strstr(js, "\"seed\":18446744073709551614,\"cpus\":2,"));
	/* 3 / max(|0|, 4) and 24 / 1024 */
	ck_assert_ptr_nonnull(strstr(js, "\"median_rel_error\":0.3867,\"worst_rel_error\":"
					 "0.7500,\"worst_case\":\"sweep-move-18446744073709551614\""));
	ck_assert_int_eq(cgctl_vreport_parse_json(js, &p, &e), 0);
	ck_assert_uint_eq(p->sweep, 2);
	ck_assert(p->seed == 18446744073709551614ull);
	ck_assert_uint_eq(p->cpus, 2);
	ck_assert_str_eq(p->scenarios[1].summary, "move: thp");
	ck_assert_int_eq(cgctl_vreport_json(p, &js2), 0);
	ck_assert_str_eq(js, js2);
	free(js);
	free(js2);
	cgctl_vreport_free(p);
	cgctl_vreport_free(r);
	/* a sweep object that cannot be */
	ck_assert_int_eq(cgctl_vreport_parse_json("{\"sweep\":{\"cases\":0}}", &p, &e),
			 -EINVAL);
	ck_assert_int_eq(cgctl_vreport_parse_json("{\"sweep\":{\"seed\":-1}}", &p, &e),
			 -EINVAL);
	ck_assert_int_eq(cgctl_vreport_parse_json("{\"sweep\":{\"seed\":1e99}}", &p, &e),
			 -EINVAL);
}
END_TEST

START_TEST(test_json_exact)
{
	struct cgctl_vreport *r = sample_report();
	char *js;

	ck_assert_int_eq(cgctl_vreport_json(r, &js), 0);
	ck_assert_str_eq(js,
		"{\"kernel\":\"6.18.44\",\"target\":\"host\",\"runs\":3,\"scenarios\":["
		"{\"name\":\"bw-quota\",\"summary\":\"quota \\\"50ms\\\" <2 threads>\","
		"\"quantities\":["
		"{\"name\":\"throttled_time\",\"predicted\":1500000000,"
		"\"observed_mean\":1490000000,\"observed_sd\":11000000.5,"
		"\"tolerance\":75000000,\"unit\":\"ns\","
		"\"verdict\":\"match\",\"reason\":\"inside tolerance\"},"
		"{\"name\":\"local\",\"predicted\":null,\"observed_mean\":null,"
		"\"observed_sd\":null,\"tolerance\":null,\"unit\":\"ns\",\"verdict\":\"n/a\","
		"\"reason\":\"no cpu.stat.local\\n& <v1>\"}]}],\"verdict\":\"match\"}");
	free(js);
	r->scenarios[0].quantities[0].verdict = CGCTL_VERDICT_DIFFERS;
	ck_assert_int_eq(cgctl_vreport_json(r, &js), 0);
	ck_assert_ptr_nonnull(strstr(js, "],\"verdict\":\"differs\"}"));
	free(js);
	cgctl_vreport_free(r);
}
END_TEST

START_TEST(test_json_roundtrip)
{
	struct cgctl_vreport *r = sample_report(), *p;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	char *js, *js2;

	ck_assert_int_eq(cgctl_vreport_json(r, &js), 0);
	ck_assert_int_eq(cgctl_vreport_parse_json(js, &p, &e), 0);
	ck_assert_str_eq(p->kernel, "6.18.44");
	ck_assert_uint_eq(p->runs, 3);
	ck_assert_uint_eq(p->n_scenarios, 1);
	ck_assert_uint_eq(p->scenarios[0].n_quantities, 2);
	ck_assert_str_eq(p->scenarios[0].quantities[1].reason, "no cpu.stat.local\n& <v1>");
	ck_assert(isnan(p->scenarios[0].quantities[1].predicted));
	ck_assert_int_eq(p->scenarios[0].quantities[1].verdict, CGCTL_VERDICT_NA);
	ck_assert_str_eq(p->scenarios[0].summary, "quota \"50ms\" <2 threads>");
	ck_assert_double_eq(p->scenarios[0].quantities[0].tolerance, 75000000);
	ck_assert_uint_eq(p->sweep, 0);
	ck_assert_int_eq(cgctl_vreport_json(p, &js2), 0);
	ck_assert_str_eq(js, js2);
	free(js);
	free(js2);
	cgctl_vreport_free(p);
	cgctl_vreport_free(r);
}
END_TEST

START_TEST(test_json_malformed)
{
	static const char *const bad[] = {
		"", "{", "[]", "{\"kernel\":}", "{\"runs\":-1}", "{\"verdict\":\"maybe\"}",
		"{\"scenarios\":[{\"quantities\":[{\"verdict\":\"x\"}]}]}",
		"{\"kernel\":\"a\"} junk", "{\"kernel\":\"a\\q\"}", "{\"kernel\":\"a",
		"{\"scenarios\":[{\"quantities\":[{\"predicted\":\"1\"}]}]}",
	};
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct cgctl_vreport *p;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(cgctl_vreport_parse_json(bad[i], &p, &e) == -EINVAL, "%s", bad[i]);
		ck_assert_int_eq(e.err, EINVAL);
	}
	ck_assert_int_eq(cgctl_vreport_parse_json("{\"extra\":[1,{\"a\":true}],\"runs\":2}",
						  &p, &e), 0);
	ck_assert_uint_eq(p->runs, 2);
	cgctl_vreport_free(p);
}
END_TEST

/* A small XML well-formedness check: tags balance, attributes are quoted, entities are
 * known.  Enough to catch what an HTML writer gets wrong. */
static bool xml_well_formed(const char *p, char *why, size_t len)
{
	char stack[64][24];
	int depth = 0;

	while (*p) {
		if (*p == '&') {
			if (strncmp(p, "&lt;", 4) && strncmp(p, "&gt;", 4) && strncmp(p, "&amp;", 5) &&
			    strncmp(p, "&quot;", 6) && strncmp(p, "&#", 2))
				return snprintf(why, len, "bad entity %.8s", p), false;
			p++;
			continue;
		}
		if (*p != '<') {
			p++;
			continue;
		}
		if (p[1] == '?' || p[1] == '!') {
			p = strchr(p, '>');
			if (!p)
				return snprintf(why, len, "unterminated declaration"), false;
			continue;
		}
		bool close = p[1] == '/';
		const char *n = p + 1 + close, *e = n;
		char name[24];

		while (*e && !strchr(" />\n", *e))
			e++;
		snprintf(name, sizeof(name), "%.*s", (int)(e - n), n);
		for (; *e && *e != '>'; e++) {
			if (*e == '"') {
				e = strchr(e + 1, '"');
				if (!e)
					return snprintf(why, len, "unterminated attribute"), false;
			} else if (*e == '<' || *e == '\'') {
				return snprintf(why, len, "bad char in tag %s", name), false;
			} else if (*e == '=' && e[1] != '"') {
				return snprintf(why, len, "unquoted attribute in %s", name), false;
			}
		}
		if (!*e)
			return snprintf(why, len, "unterminated tag %s", name), false;
		if (close) {
			if (depth == 0 || strcmp(stack[--depth], name))
				return snprintf(why, len, "</%s> does not close", name), false;
		} else if (e[-1] != '/') {
			if (depth == 64)
				return snprintf(why, len, "too deep"), false;
			snprintf(stack[depth++], sizeof(stack[0]), "%s", name);
		}
		p = e + 1;
	}
	if (depth)
		return snprintf(why, len, "<%s> not closed", stack[depth - 1]), false;
	return true;
}

START_TEST(test_xml_checker)
{
	char why[64];

	ck_assert(xml_well_formed("<a x=\"1\"><b/>&amp;</a>", why, sizeof(why)));
	ck_assert(!xml_well_formed("<a><b></a></b>", why, sizeof(why)));
	ck_assert(!xml_well_formed("<a>x & y</a>", why, sizeof(why)));
	ck_assert(!xml_well_formed("<a x=1></a>", why, sizeof(why)));
	ck_assert(!xml_well_formed("<a>", why, sizeof(why)));
}
END_TEST

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s++;
	}
	return n;
}

START_TEST(test_html)
{
	struct cgctl_vreport *r[2] = { sample_report(), sample_report() };
	char why[64] = "", *html, path[] = "/tmp/test-validate-XXXXXX";
	FILE *f;
	int fd;

	snprintf(r[1]->target, sizeof(r[1]->target), "vm:6.1-v1");
	r[1]->scenarios[0].quantities[0].verdict = CGCTL_VERDICT_DIFFERS;
	ck_assert_int_eq(cgctl_vreport_html((const struct cgctl_vreport *const *)r, 2, &html), 0);
	ck_assert_msg(xml_well_formed(html, why, sizeof(why)), "%s", why);
	ck_assert_uint_eq(count(html, "<svg "), 2);
	ck_assert_uint_eq(count(html, "<circle"), 2);	/* n/a quantities have no marker */
	ck_assert_uint_eq(count(html, "<script"), 0);
	ck_assert_uint_eq(count(html, "href="), 0);
	ck_assert_uint_eq(count(html, "src="), 0);
	ck_assert_ptr_nonnull(strstr(html, "vm:6.1-v1: Linux 6.18.44, 3 runs: differs"));
	ck_assert_ptr_nonnull(strstr(html, "quota &quot;50ms&quot; &lt;2 threads&gt;"));
	/* and a real XML parser agrees, when there is one */
	if (access("/usr/bin/xmllint", X_OK) == 0) {
		char cmd[128];

		fd = mkstemp(path);
		ck_assert_int_ge(fd, 0);
		f = fdopen(fd, "w");
		fputs(html, f);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "/usr/bin/xmllint --noout --nonet %s", path);
		ck_assert_int_eq(system(cmd), 0);
		unlink(path);
	}
	free(html);
	cgctl_vreport_free(r[0]);
	cgctl_vreport_free(r[1]);
}
END_TEST

/* validate's writes take the cgroup lock (issue 33): while another process holds it (as
 * `bw set` would, with flock on the cgroup's directory), vcg_write waits for it, then
 * writes. */
START_TEST(test_write_takes_lock)
{
	char *dir = tu_mkdtemp(), cg[4096];
	const struct cgctl_mount *m;
	struct vrun run = { 0 };
	struct timespec t0, t1;
	char reason[256] = "";
	int pipefd[2], fd;
	pid_t pid;
	char *v;

	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(tu_write(dir, "cgctl-mounts", "1 /sys/fs/cgroup/cpu cpu,cpuacct\n"), 0);
	ck_assert_int_eq(tu_write(dir, "sys/fs/cgroup/cpu/g/cpu.shares", "1024\n"), 0);
	ck_assert_int_eq(cgctl_new(&run.ctx, dir), 0);
	ck_assert_int_eq(cgctl_mount_find(run.ctx, "cpu", &m), 0);
	snprintf(cg, sizeof(cg), "%s/sys/fs/cgroup/cpu/g", dir);
	ck_assert_int_eq(pipe(pipefd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		fd = open(cg, O_RDONLY | O_DIRECTORY);
		if (fd < 0 || flock(fd, LOCK_EX) < 0)
			_exit(1);
		if (write(pipefd[1], "x", 1) != 1)
			_exit(1);
		usleep(300000);
		_exit(0);
	}
	ck_assert_int_eq(read(pipefd[0], reason, 1), 1);	/* the child holds it */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(vcg_write(&run, m, "/g", "cpu.shares", "2048", reason,
				   sizeof(reason)), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_ge((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000,
			 200);
	v = tu_read(dir, "sys/fs/cgroup/cpu/g/cpu.shares");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(atoi(v), 2048);
	free(v);
	waitpid(pid, NULL, 0);
	close(pipefd[0]);
	close(pipefd[1]);
	cgctl_unref(run.ctx);
	tu_rmtree(dir);
	free(dir);
}
END_TEST

static Suite *validate_suite(void)
{
	Suite *s = suite_create("validate");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_stats_basic);
	tcase_add_test(tc, test_stats_edges);
	tcase_add_test(tc, test_tolerance_rule);
	tcase_add_test(tc, test_verdict_rule);
	tcase_add_test(tc, test_runner_match);
	tcase_add_test(tc, test_runner_differs);
	tcase_add_test(tc, test_runner_na);
	tcase_add_test(tc, test_runner_failure);
	tcase_add_test(tc, test_runner_cancel);
	tcase_add_test(tc, test_json_exact);
	tcase_add_test(tc, test_sweep_roundtrip);
	tcase_add_test(tc, test_sweep_stats);
	tcase_add_test(tc, test_json_roundtrip);
	tcase_add_test(tc, test_json_malformed);
	tcase_add_test(tc, test_xml_checker);
	tcase_add_test(tc, test_html);
	tcase_add_test(tc, test_write_takes_lock);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(validate_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
