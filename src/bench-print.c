/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output of `cgctl bench`: the table the kernel patches presented (per configuration the
 * mean per operation, its stddev, the change against the baseline and whether that is
 * above noise by Welch's t-test), the model's counts and the kernel's check; and
 * `--compare`, before against after.  Human table, --json (with every sample: what
 * --compare reads) and --tsv through the one printer.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-cli.h"
#include "cmd-bw-record.h"

static const struct out_col bench_cols[] = {
	{ "CONFIG", "name", OUT_COL_DEFAULT, "the configuration measured" },
	{ "DEPTH", "depth", OUT_COL_DEFAULT | OUT_COL_RIGHT, "its cgroup depth" },
	{ "WALL/OP", "wall_ns_per_op.mean", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "wall time per operation (mean)" },
	{ "SD", "wall_ns_per_op.stddev", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "its standard deviation" },
	{ "CHANGE%", "wall_ns_per_op.change_pct", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "change against the baseline configuration" },
	{ "P", "wall_ns_per_op.p", OUT_COL_RIGHT, "p-value of that change" },
	{ "NOISE", "wall_ns_per_op.verdict", OUT_COL_DEFAULT,
	  "the change above or within noise" },
	{ "TASK/OP", "task_ns_per_op.mean", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "task CPU time per operation (mean)" },
	{ "TASK-SD", "task_ns_per_op.stddev", OUT_COL_RIGHT, "its standard deviation" },
	{ "TASK-CHANGE%", "task_ns_per_op.change_pct", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "change against the baseline configuration" },
	{ "TASK-P", "task_ns_per_op.p", OUT_COL_RIGHT, "p-value of that change" },
	{ "TASK-NOISE", "task_ns_per_op.verdict", OUT_COL_DEFAULT,
	  "the change above or within noise" },
	{ "CYCLES/OP", "cycles_per_op.mean", OUT_COL_RIGHT, "CPU cycles per operation" },
	{ "INSNS/OP", "instructions_per_op.mean", OUT_COL_RIGHT,
	  "instructions per operation" },
	{ "BRANCHES/OP", "branches_per_op.mean", OUT_COL_RIGHT,
	  "branches per operation" },
	{ "MODEL", "model.value", OUT_COL_DEFAULT | OUT_COL_RIGHT, "the model's figure" },
	{ "MODEL2", "model.value2", OUT_COL_RIGHT, "the model's second figure" },
	{ "KERNEL", "kernel_check.observed", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "the kernel's figure checked" },
	{ "PREDICTED", "kernel_check.predicted", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "the model's prediction of it" },
	{ "CHECK", "kernel_check.status", OUT_COL_DEFAULT,
	  "the check: match, differs or n/a" },
	{ "CGROUP", "cgroup", OUT_COL_TRUNC, "the cgroup it ran in" },
	{ "SUMMARY", "summary", OUT_COL_TRUNC, "what the configuration does" },
};

const struct out_table bench_tables[1] = {
	{ "configurations", bench_cols, sizeof(bench_cols) / sizeof(bench_cols[0]) },
};

static const struct out_col compare_cols[] = {
	{ "CONFIG", "name", OUT_COL_DEFAULT, "the configuration compared" },
	{ "METRIC", "metric", OUT_COL_DEFAULT, "the metric compared" },
	{ "BEFORE", "before.mean", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "its mean in BEFORE.json" },
	{ "BEFORE-SD", "before.stddev", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "its standard deviation there" },
	{ "AFTER", "after.mean", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "its mean in AFTER.json" },
	{ "AFTER-SD", "after.stddev", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "its standard deviation there" },
	{ "CHANGE%", "change_pct", OUT_COL_DEFAULT | OUT_COL_RIGHT,
	  "change from BEFORE to AFTER" },
	{ "P", "p", OUT_COL_DEFAULT | OUT_COL_RIGHT, "p-value of that change" },
	{ "NOISE", "verdict", OUT_COL_DEFAULT, "the change above or within noise" },
};

const struct out_table bench_compare_tables[1] = {
	{ "comparison", compare_cols, sizeof(compare_cols) / sizeof(compare_cols[0]) },
};

#define ABOVE "above noise"
#define WITHIN "within noise"

/* mean, stddev, and against @base: change in %, p, verdict */
static void figure(struct out *o, const char *key, const double *v, size_t n,
		   const double *base, size_t nb, bool is_base, bool hw_metric)
{
	struct bstats s, b;
	struct bwelch w;

	bstats_compute(v, n, &s);
	out_obj_begin(o, key);
	if (!hw_metric) {
		out_null(o, "mean");
		out_obj_end(o);
		return;
	}
	out_double(o, "mean", s.mean, 1);
	out_double(o, "stddev", s.sd, 1);
	if (is_base) {
		out_str(o, "verdict", "baseline");
		out_obj_end(o);
		return;
	}
	bstats_compute(base, nb, &b);
	if (b.mean != 0)
		out_double(o, "change_pct", 100.0 * (s.mean - b.mean) / b.mean, 1);
	if (bstats_welch(&b, &s, &w) == 0) {
		out_double(o, "p", w.p, 4);
		out_str(o, "verdict", w.p < BENCH_ALPHA ? ABOVE : WITHIN);
	}
	out_obj_end(o);
}

static void samples(struct out *o, const struct bconf_result *c, bool hw)
{
	out_obj_begin(o, "samples");
	for (int m = 0; m < BM_N; m++) {
		out_list_begin(o, bmetric_key[m]);
		for (unsigned int i = 0; i < c->n; i++) {
			if (m >= BM_CYCLES && !hw)
				out_null(o, NULL);
			else
				out_double(o, NULL, c->v[m][i], 3);
		}
		out_list_end(o);
	}
	out_obj_end(o);
}

static void check(struct out *o, const struct bcheck *ck)
{
	out_obj_begin(o, "kernel_check");
	out_str(o, "what", ck->what);
	if (ck->na) {
		out_str(o, "status", "n/a");
		out_str(o, "reason", ck->reason);
	} else {
		out_double(o, "observed", ck->obs, 0);
		out_double(o, "predicted", ck->pred, 0);
		out_double(o, "tolerance", ck->tol, 0);
		out_str(o, "status", ck->ok ? "match" : "differs");
	}
	out_obj_end(o);
}

static void header(struct out *o, const struct bexp *e, const struct bresult *r)
{
	out_str(o, "experiment", e->name);
	out_str(o, "operation", e->op);
	out_str(o, "kernel", r->kernel);
	out_u64(o, "cpus", r->ncpu);
	out_u64(o, "cgroup_version", (uint64_t)r->cgver);
	out_u64(o, "repeat", r->reps);
	out_u64(o, "seed", r->seed);
	out_double(o, "alpha", BENCH_ALPHA, 2);
	out_str(o, "test", "Welch's t-test, two-sided, against the first configuration");
	out_str(o, "task_clock", r->task_src);
	if (r->hw)
		out_bool(o, "hardware_counters", true);
	else
		out_str(o, "hardware_counters",
			"not available: perf_event_open offers no cycles, instructions, "
			"branches here");
}

int bench_print(struct cli *cli, const struct bexp *e, const struct bresult *r)
{
	struct out *o = cli->out;
	bool placed = true, differs = false;
	int rc;

	rc = cli_tables(cli, bench_tables, 1, false);
	if (rc != EXIT_OK)
		return rc;
	if (cli->fmt != OUT_TSV)
		header(o, e, r);
	out_list_begin(o, "configurations");
	for (size_t i = 0; i < r->n; i++) {
		const struct bconf_result *c = &r->c[i];

		out_obj_begin(o, NULL);
		out_str(o, "name", c->name);
		out_str(o, "summary", c->summary);
		out_str(o, "cgroup", c->cgroup);
		out_u64(o, "depth", c->depth);
		out_bool(o, "placed", c->placed);
		for (int m = 0; m < BM_N; m++)
			figure(o, bmetric_key[m], c->v[m], c->n, r->c[0].v[m], r->c[0].n, i == 0,
			       m < BM_CYCLES || r->hw);
		out_obj_begin(o, "model");
		out_str(o, "what", c->model_what);
		out_double(o, "value", c->model, 2);
		if (c->model2_what) {
			out_str(o, "what2", c->model2_what);
			out_double(o, "value2", c->model2, 2);
		}
		out_obj_end(o);
		check(o, &c->check);
		if (cli->fmt == OUT_JSON)
			samples(o, c, r->hw);
		out_obj_end(o);
		placed &= c->placed;
		differs |= !c->check.na && !c->check.ok;
	}
	out_list_end(o);
	if (!placed)
		cli_error(cli, e->name, -EIO, "a configuration did not run where it claims");
	if (differs)
		cli_warn(cli, "%s: a kernel count differs from the model's prediction", e->name);
	return !placed ? EXIT_FAIL : differs ? EXIT_DIFFERS : EXIT_OK;
}

static int load(struct cli *cli, const char *path, struct bresult *r)
{
	char reason[160];
	char *buf;
	size_t len;
	int err;

	err = bw_read_file(cli, path, &buf, &len);	/* a file, or "-": stdin */
	if (err != EXIT_OK)
		return err;
	err = bench_read_json(buf, len, r, reason, sizeof(reason));
	free(buf);
	if (err < 0)
		return cli_error(cli, path, err, "%s", reason);
	return EXIT_OK;
}

static const struct bconf_result *find_conf(const struct bresult *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->c[i].name, name) == 0)
			return &r->c[i];
	return NULL;
}

/* Returns: whether the row is above noise. */
static bool compare_row(struct out *o, const char *name, int m, const struct bconf_result *a,
			const struct bconf_result *b)
{
	bool above = false;
	struct bstats sa, sb;
	struct bwelch w;

	bstats_compute(a->v[m], a->n, &sa);
	bstats_compute(b->v[m], b->n, &sb);
	out_obj_begin(o, NULL);
	out_str(o, "name", name);
	out_str(o, "metric", bmetric_key[m]);
	out_obj_begin(o, "before");
	out_double(o, "mean", sa.mean, 1);
	out_double(o, "stddev", sa.sd, 1);
	out_u64(o, "runs", sa.n);
	out_obj_end(o);
	out_obj_begin(o, "after");
	out_double(o, "mean", sb.mean, 1);
	out_double(o, "stddev", sb.sd, 1);
	out_u64(o, "runs", sb.n);
	out_obj_end(o);
	if (sa.mean != 0)
		out_double(o, "change_pct", 100.0 * (sb.mean - sa.mean) / sa.mean, 1);
	if (bstats_welch(&sa, &sb, &w) == 0) {
		out_double(o, "p", w.p, 4);
		out_str(o, "verdict", w.p < BENCH_ALPHA ? ABOVE : WITHIN);
		above = w.p < BENCH_ALPHA;
	}
	out_obj_end(o);
	return above;
}

int bench_compare(struct cli *cli, const char *before, const char *after)
{
	struct bresult *a = calloc(2, sizeof(*a)), *b;
	size_t rows = 0, above = 0;
	int rc;

	if (!a)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	b = a + 1;
	rc = load(cli, before, a);
	if (rc == EXIT_OK)
		rc = load(cli, after, b);
	if (rc == EXIT_OK && strcmp(a->experiment, b->experiment) != 0)
		rc = cli_error(cli, after, -EINVAL, "experiment %s, not %s", b->experiment,
			       a->experiment);
	if (rc == EXIT_OK)
		rc = cli_tables(cli, bench_compare_tables, 1, false);
	if (rc != EXIT_OK) {
		free(a);
		return rc;
	}
	if (cli->fmt != OUT_TSV) {
		out_str(cli->out, "experiment", a->experiment);
		out_double(cli->out, "alpha", BENCH_ALPHA, 2);
	}
	out_list_begin(cli->out, "comparison");
	for (size_t i = 0; i < a->n; i++) {
		const struct bconf_result *c = find_conf(b, a->c[i].name);

		if (!c)
			continue;
		for (int m = BM_WALL; m <= BM_TASK; m++) {
			above += compare_row(cli->out, a->c[i].name, m, &a->c[i], c);
			rows++;
		}
	}
	out_list_end(cli->out);
	if (cli->fmt != OUT_TSV) {
		out_u64(cli->out, "rows", rows);
		out_u64(cli->out, "above_noise", above);
	}
	free(a);
	if (rows == 0)
		return cli_error(cli, after, -ENOENT, "no configuration in common with %s",
				 before);
	return EXIT_OK;
}
