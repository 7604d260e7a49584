/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `cgctl validate`: every model checked against real kernels, repeated, with noise and
 * verdicts.  The library runs the scenarios (lib/validate); this file picks targets,
 * prints a perf-stat-like table per scenario (or the library's JSON / HTML) and maps the
 * verdicts to the exit status: 0 nothing differs, 7 something differs.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgctl.h"
#include "systemd-scope.h"
#include "validate-cli.h"

static int opt_list, opt_runs = 5, opt_json, opt_keep, opt_sweep = INT_MIN;	/* not given */
static const char *opt_target, *opt_html, *opt_model, *opt_seed, *opt_kind, *opt_output;
static unsigned int sweep_kinds;
static uint64_t sweep_seed = 1;

static const struct poptOption options[] = {
	{ "list", '\0', POPT_ARG_NONE, &opt_list, 0, "list the scenarios and exit", NULL },
	{ "repeat", '\0', POPT_ARG_INT, &opt_runs, 0, "run each scenario N times (5)", "N" },
	{ "target", '\0', POPT_ARG_STRING, &opt_target, 0,
	  "host, vm:6.1-v1, vm:6.1-v2, vm:6.12-v2, vm:6.12-systemd, comma-separated, "
	  "or all (host)",
	  "TARGET" },
	{ "json", '\0', POPT_ARG_NONE, &opt_json, 0, "print one JSON object", NULL },
	{ "output", 'o', POPT_ARG_STRING, &opt_output, 0,
	  "the columns of the quantity tables, by name", "COLUMNS" },
	{ "html", '\0', POPT_ARG_STRING, &opt_html, 0,
	  "also write a self-contained HTML report to FILE", "FILE" },
	{ "keep", '\0', POPT_ARG_NONE, &opt_keep, 0, "keep the scratch cgroups (debugging)",
	  NULL },
	{ "model-param", '\0', POPT_ARG_STRING, &opt_model, 0,
	  "feed the models deliberately wrong parameters (slice=4ms,quota=30ms,hz=1000,"
	  "kver=6.1; also $CGCTL_VALIDATE_PERTURB)", "LIST" },
	{ "sweep", '\0', POPT_ARG_INT, &opt_sweep, 0,
	  "run N random configurations instead of the scenarios", "N" },
	{ "seed", '\0', POPT_ARG_STRING, &opt_seed, 0, "the sweep's first seed (1)", "S" },
	{ "kind", '\0', POPT_ARG_STRING, &opt_kind, 0,
	  "the sweep's kinds: bw, mem, move, comma-separated (all)", "LIST" },
	POPT_TABLEEND
};

static volatile int cancelled;

static void on_signal(int sig)
{
	cancelled = sig;
}

/* No SA_RESTART: blocking reads and sleeps return so the runner can clean up. */
void validate_catch_signals(bool on)
{
	struct sigaction sa = { .sa_handler = on ? on_signal : SIG_DFL };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

volatile int *validate_cancel_flag(void)
{
	return &cancelled;
}

static struct vstream stream;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ", about 2m10s left": the time per finished run so far times the runs still to come,
 * the scenarios not started counted in the share that ran so far (the others are n/a
 * at once); "" before a run has finished. */
static void eta(const struct vstream *vs, unsigned int run, unsigned int runs, char *buf,
		size_t len)
{
	double left, frac = vs->k ? (double)vs->ran / (double)vs->k : 1.0;
	long s;

	buf[0] = '\0';
	if (vs->runs_done == 0 || vs->n <= vs->k)
		return;
	left = (double)(runs - run + 1) + (double)(vs->n - vs->k - 1) * runs * frac;
	s = lround(left * (now() - vs->t0) / vs->runs_done);
	if (s >= 60)
		snprintf(buf, len, ", about %ldm%02lds left", s / 60, s % 60);
	else
		snprintf(buf, len, ", about %lds left", s);
}

static void progress(void *data, const char *scenario, unsigned int run, unsigned int runs)
{
	struct vstream *vs = data;
	char left[48];

	if (run > 1)
		vs->runs_done++;	/* the one before */
	vs->cur_ran = true;
	eta(vs, run, runs, left, sizeof(left));
	cli_progress(vs->cli, "validate: %zu/%zu %s: run %u/%u%s", vs->k + 1, vs->n, scenario,
		     run, runs, left);
}

/* A scenario is done: count it, and print its table now (human output). */
static void scenario_done(void *data, const struct cgctl_vreport *r)
{
	struct vstream *vs = data;

	vs->k++;
	if (vs->cur_ran) {
		vs->runs_done++;
		vs->ran++;
	}
	vs->cur_ran = false;
	if (!vs->tables || r->n_scenarios == 0)
		return;
	cli_progress(vs->cli, "%s", "");
	if (r->n_scenarios == 1)
		validate_print_header(r);
	validate_print_scenario(&r->scenarios[r->n_scenarios - 1]);
	fflush(stdout);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* --list: a line per scenario, or {"scenarios":[{"name":..,"summary":..}]} */
static int list(struct cli *cli)
{
	const struct cgctl_vscenario_info *info;
	size_t i, n = cgctl_validate_scenarios(&info);

	if (cli->fmt == OUT_TSV)
		return cli_usage(cli, "--tsv: validate --list prints text or --json");
	if (!(opt_json || cli->fmt == OUT_JSON)) {
		for (i = 0; i < n; i++)
			printf("%-18s %s\n", info[i].name, info[i].summary);
		return EXIT_OK;
	}
	fputs("{\"scenarios\":[", stdout);
	for (i = 0; i < n; i++) {
		printf("%s{\"name\":", i ? "," : "");
		json_string(info[i].name);
		fputs(",\"summary\":", stdout);
		json_string(info[i].summary);
		putchar('}');
	}
	fputs("]}\n", stdout);
	return EXIT_OK;
}

/* The options of this invocation: the host runs them, and every VM target too. */
static void validate_opts(struct cli *cli, struct cgctl_validate_opts *o)
{
	*o = (struct cgctl_validate_opts){
		.runs = (unsigned int)opt_runs, .keep = opt_keep, .cancel = &cancelled,
		.progress = progress, .progress_data = &stream, .done = scenario_done,
		.notice = cli_notice, .notice_data = cli,
		.perturb = opt_model ? opt_model : getenv("CGCTL_VALIDATE_PERTURB"),
		.sweep = opt_sweep > 0 ? (unsigned int)opt_sweep : 0, .seed = sweep_seed,
		.sweep_kinds = sweep_kinds,
	};
}

int validate_host(struct cli *cli, const struct cgctl_validate_opts *o,
		  const char *const *names, size_t n, struct cgctl_vreport **ret)
{
	struct cgctl_validate_opts vo = *o;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct sd_scope s;
	int r;

	stream.k = stream.ran = stream.runs_done = 0;
	stream.cur_ran = false;
	stream.t0 = now();
	validate_catch_signals(true);
	sd_scope_enter(cli, "validate", &s);	/* systemd: a delegated scope */
	if (s.active)
		vo.scratch_parent = s.cgroup;
	r = cgctl_validate_run(cli->ctx, &vo, names, n, ret, &e);
	sd_scope_leave(cli, &s);
	validate_catch_signals(false);
	cli_progress(cli, "%s", "");
	if (r == -EINVAL)
		return cli_usage(cli, "%s", e.msg[0] ? e.msg : "invalid option");
	if (r < 0)
		return cli_error(cli, NULL, r, "%s", e.msg[0] ? e.msg : cli_strerror(r));
	return EXIT_OK;
}

static int write_html(struct cli *cli, struct cgctl_vreport **r, size_t n)
{
	char *html;
	FILE *f;
	int err;

	err = cgctl_vreport_html((const struct cgctl_vreport *const *)r, n, &html);
	if (err < 0)
		return cli_error(cli, opt_html, err, NULL);
	f = fopen(opt_html, "we");
	if (!f) {
		free(html);
		return cli_error(cli, opt_html, -errno, NULL);
	}
	fputs(html, f);
	free(html);
	if (fclose(f) != 0)
		return cli_error(cli, opt_html, -EIO, "write error");
	return EXIT_OK;
}

/* --sweep N [--seed S] [--kind LIST]: checked before anything runs */
static int sweep_opts(struct cli *cli, int argc)
{
	static const char *const kinds[] = { "bw", "mem", "move" };
	char *list, *tok, *save = NULL;

	if (opt_sweep == INT_MIN && (opt_seed || opt_kind))
		return cli_usage(cli, "--seed and --kind go with --sweep N");
	if (opt_sweep == INT_MIN)
		return EXIT_OK;
	if (opt_sweep < 1 || opt_sweep > 10000)
		return cli_usage(cli, "--sweep: %d: not in 1..10000", opt_sweep);
	if (argc > 0)
		return cli_usage(cli, "--sweep draws its own scenarios: no SCENARIO names");
	if (opt_seed && cli_parse_seed(cli, "--seed", opt_seed, &sweep_seed) != EXIT_OK)
		return EXIT_USAGE;
	if (!opt_kind)
		return EXIT_OK;
	list = strdup(opt_kind);
	if (!list)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t k;

		for (k = 0; k < 3 && strcmp(tok, kinds[k]) != 0; k++)
			;
		if (k == 3) {
			int rc = cli_usage(cli, "--kind: '%s' is not bw, mem or move", tok);

			free(list);
			return rc;
		}
		sweep_kinds |= 1u << k;
	}
	free(list);
	return sweep_kinds ? EXIT_OK : cli_usage(cli, "--kind: '%s' names no kind", opt_kind);
}

/* The exit status 1 says a run failed: one line on stderr for each scenario that did
 * (its quantities are n/a, the reason in each; the report alone would not say). */
static void say_failed(struct cli *cli, const struct cgctl_vreport *r, bool named)
{
	for (size_t i = 0; i < r->n_scenarios; i++) {
		const struct cgctl_vscenario_result *s = &r->scenarios[i];

		if (!s->failed)
			continue;
		cli_error(cli, s->name, -EIO, "%s%s%s", named ? r->target : "", named ? ": " : "",
			  s->n_quantities ? s->quantities[0].reason : "a run failed");
	}
}

static int run(struct cli *cli, int argc, const char **argv)
{
	struct cgctl_vreport *r[VALIDATE_MAX_TARGETS] = { NULL };
	struct cgctl_validate_opts o;
	const char *target;
	size_t n = 0, i;
	bool differs = false, failed = false;
	int rc;

	if (opt_list && opt_output)
		return cli_usage(cli, "--output picks the quantity tables' columns: not with --list");
	if (opt_list)
		return list(cli);
	if (opt_output && (opt_json || cli->fmt != OUT_HUMAN))
		return cli_usage(cli, "--output picks the quantity tables' columns: not with --%s",
				 cli->fmt == OUT_TSV ? "tsv" : "json");
	if (opt_output) {
		char bad[64];

		if (validate_set_columns(opt_output, bad, sizeof(bad)) < 0)
			return cli_usage(cli, bad[0] ? "--output: unknown column '%s' (columns: "
					 "QUANTITY,OBSERVED,SD,PREDICTED,DEVIATION,VERDICT)" :
					 "--output: an empty column name%s", bad);
	}
	if (opt_runs < 1 || opt_runs > 1000)
		return cli_usage(cli, "--repeat: 1..1000");
	rc = sweep_opts(cli, argc);
	if (rc != EXIT_OK)
		return rc;
	validate_opts(cli, &o);
	stream = (struct vstream){
		.cli = cli, .tables = !(opt_json || cli->fmt == OUT_JSON),
		.n = o.sweep ? o.sweep : argc ? (size_t)argc : cgctl_validate_scenarios(NULL),
	};
	target = opt_target ? opt_target : "host";
	rc = validate_targets(cli, target, &o, argv, (size_t)argc,
			      r, &n);
	for (i = 0; rc == EXIT_OK && i < n; i++) {
		differs |= r[i]->verdict == CGCTL_VERDICT_DIFFERS;
		failed |= validate_any_failed(r[i]);
	}
	if (rc == EXIT_OK && opt_html)
		rc = write_html(cli, r, n);
	if (rc == EXIT_OK)
		rc = validate_print_end(cli, r, n, !stream.tables, strcmp(target, "host") != 0);
	if (rc == EXIT_OK && failed)
		for (i = 0; i < n; i++)
			say_failed(cli, r[i], n > 1);
	for (i = 0; i < n; i++)
		cgctl_vreport_free(r[i]);
	if (rc != EXIT_OK)
		return rc;
	if (differs)
		return EXIT_DIFFERS;
	return failed ? EXIT_FAIL : EXIT_OK;
}

const struct cgctl_cmd cmd_validate = {
	.name = "validate",
	.args = "[SCENARIO...]",
	.summary = "check every model against the running kernel (and VMs): repeated runs, "
		   "noise, verdicts",
	.options = options,
	.run = run,
	.min_args = 0,
	.max_args = -1,
	.columns = validate_tables,
	.n_columns = 1,
};
