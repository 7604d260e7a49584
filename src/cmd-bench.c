/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `cgctl bench`: the measurements behind the kernel's cgroup accounting patches, rerun
 * on this kernel in scratch cgroups, repeated in a seeded random order, with Welch's
 * t-test against the baseline and the model's count of the mechanism beside each cost
 * (lib/bench).  `--compare BEFORE.json AFTER.json` prints two runs side by side.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench-cli.h"
#include "systemd-scope.h"
#include "validate-cli.h"

static int opt_list, opt_compare, opt_runs = 5, opt_threads, opt_rounds = -1, opt_procs = 2000;
static const char *opt_seed, *opt_duration;

static const struct poptOption options[] = {
	{ "list", '\0', POPT_ARG_NONE, &opt_list, 0, "list the experiments and exit", NULL },
	{ "compare", '\0', POPT_ARG_NONE, &opt_compare, 0,
	  "compare the JSON output of two runs: BEFORE.json AFTER.json", NULL },
	{ "repeat", '\0', POPT_ARG_INT, &opt_runs, 0, "run each configuration N times (5)",
	  "N" },
	{ "seed", '\0', POPT_ARG_STRING, &opt_seed, 0,
	  "seed of the random run order (default: from the clock; printed)", "S" },
	{ "threads", '\0', POPT_ARG_INT, &opt_threads, 0,
	  "fault, alloc: loop threads (the online CPUs)", "N" },
	{ "duration", '\0', POPT_ARG_STRING, &opt_duration, 0,
	  "fault, alloc: each run's length (3s)", "DURATION" },
	{ "rounds", '\0', POPT_ARG_INT, &opt_rounds, 0,
	  "pipe: round trips per run (10000); procread: reads of every process (10)", "N" },
	{ "procs", '\0', POPT_ARG_INT, &opt_procs, 0, "procread: sleeping processes (2000)",
	  "N" },
	/* the table options of cgctl(1), but -r is --repeat here (validate's spelling) */
	{ "output", 'o', POPT_ARG_STRING, &cli_table_args.output, 0,
	  "the columns to print, by name (+COLUMNS: after the default ones)", "COLUMNS" },
	{ "output-all", '\0', POPT_ARG_NONE, &cli_table_args.all, 0, "print every column",
	  NULL },
	{ "noheadings", 'n', POPT_ARG_NONE, &cli_table_args.noheadings, 0,
	  "print no header line", NULL },
	{ "bytes", 'b', POPT_ARG_NONE, &cli_table_args.bytes, 0,
	  "sizes in bytes and times in microseconds", NULL },
	{ "raw", '\0', POPT_ARG_NONE, &cli_table_args.raw, 0,
	  "cells unaligned, one space apart (blanks escaped)", NULL },
	POPT_TABLEEND
};

static int list(void)
{
	size_t n;
	const struct bexp *e = bench_experiments(&n);

	for (size_t i = 0; i < n; i++) {
		printf("%-10s %s\n", e[i].name, e[i].summary);
		for (size_t j = 0; j < e[i].nconf; j++)
			printf("  %-14s %s%s\n", e[i].conf[j].name, e[i].conf[j].summary,
			       j == 0 ? " (baseline)" : "");
	}
	return EXIT_OK;
}

static void progress(void *data, const char *conf, unsigned int i, unsigned int n)
{
	cli_progress(data, "bench: run %u/%u: %s", i, n, conf);
}

/* The options, checked before anything runs. */
static int bench_opts(struct cli *cli, const struct bexp *e, struct bopts *o)
{
	uint64_t ns = 3000000000ULL, seed;

	if (opt_runs < 2 || opt_runs > BENCH_MAX_RUNS)
		return cli_usage(cli, "--repeat: 2..%d (a stddev needs two runs)", BENCH_MAX_RUNS);
	if (opt_threads < 0 || opt_threads > 64)
		return cli_usage(cli, "--threads: 1..64");
	if (opt_procs < 1 || opt_procs > 100000)
		return cli_usage(cli, "--procs: 1..100000");
	if (opt_rounds != -1 && (opt_rounds < 1 || opt_rounds > 100000000))
		return cli_usage(cli, "--rounds: 1..100000000");
	if (opt_duration && cli_parse_duration(cli, "--duration", opt_duration, 1000000000ULL,
					       &ns) != EXIT_OK)
		return EXIT_USAGE;
	if (ns < 10000000ULL || ns > 3600000000000ULL)
		return cli_usage(cli, "--duration: 10ms..1h");
	if (opt_seed && cli_parse_seed(cli, "--seed", opt_seed, &seed) != EXIT_OK)
		return EXIT_USAGE;
	if (!opt_seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	*o = (struct bopts){
		.threads = opt_threads ? (unsigned int)opt_threads :
			   (unsigned int)sysconf(_SC_NPROCESSORS_ONLN),
		.duration_ms = (unsigned int)(ns / 1000000ULL),
		.rounds = opt_rounds > 0 ? (unsigned int)opt_rounds :
			  e->kind == BK_PIPE ? 10000 : 10,
		.procs = (unsigned int)opt_procs, .reps = (unsigned int)opt_runs, .seed = seed,
		.cancel = validate_cancel_flag(), .progress = progress, .progress_data = cli,
		.notice = cli_notice, .notice_data = cli,
	};
	if (o->threads < 1 || o->threads > 64)
		o->threads = o->threads < 1 ? 1 : 64;
	return EXIT_OK;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	char reason[256] = "";
	const struct bexp *e;
	struct bresult *r;
	struct sd_scope s;
	struct bopts o;
	int rc, err;

	if (opt_list)
		return argc ? cli_usage(cli, "--list takes no arguments") : list();
	if (opt_compare) {
		if (argc != 2)
			return cli_usage(cli, "--compare takes BEFORE.json AFTER.json");
		return bench_compare(cli, argv[0], argv[1]);
	}
	if (argc < 1)
		return cli_usage(cli, "which experiment? (cgctl bench --list)");
	e = bench_find(argv[0]);
	if (!e)
		return cli_usage(cli, "'%s' is not an experiment (cgctl bench --list)", argv[0]);
	rc = bench_opts(cli, e, &o);
	if (rc != EXIT_OK)
		return rc;
	/* a bad --output is refused before the runs, not after them (bench_print) */
	rc = cli_tables(cli, bench_tables, 1, false);
	if (rc != EXIT_OK)
		return rc;
	if (argc > 1) {
		if (argv[1][0] != '/' || strstr(argv[1], "/../") || strstr(argv[1], "/./"))
			return cli_usage(cli, "PATH: '%s' is not an absolute cgroup path",
					 cli_escape(argv[1]));
		o.parent = argv[1];
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	validate_catch_signals(true);
	sd_scope_enter(cli, "bench", &s);	/* systemd: a delegated scope */
	if (s.active && !o.parent)
		o.parent = s.cgroup;
	err = bench_run(cli->ctx, e, &o, r, reason, sizeof(reason));
	sd_scope_leave(cli, &s);
	validate_catch_signals(false);
	cli_progress(cli, "%s", "");
	if (err == -EINTR)
		rc = cli_error(cli, e->name, err, "interrupted; scratch cgroups removed");
	else if (err < 0)
		rc = cli_error(cli, e->name, err, "%s", reason[0] ? reason : cli_strerror(err));
	else
		rc = bench_print(cli, e, r);
	free(r);
	return rc;
}

const struct cgctl_cmd cmd_bench = {
	.name = "bench",
	.args = "EXPERIMENT [PATH] | --compare BEFORE.json AFTER.json",
	.summary = "measure what cgroup accounting costs on this kernel, above noise or not",
	.options = options,
	.run = run,
	.min_args = 0,
	.max_args = 2,
	.columns = bench_tables,
	.n_columns = 1,
};
