/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl bw record PID...|PATH [--duration DUR] [-o FILE]
 * Records the context switches of the processes (their threads and the children they
 * create while recording) or of a cgroup's processes, and writes their CPU demand as a
 * trace (format v1, cgctl-bw(1)) for `bw predict --trace` and `bw recommend --trace`.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-bw-record.h"

static const char *opt_duration, *opt_output;

static const struct poptOption options[] = {
	{ "duration", '\0', POPT_ARG_STRING, &opt_duration, 0,
	  "record this long (default: until the processes exit or Ctrl-C)", "DUR" },
	{ "output", 'o', POPT_ARG_STRING, &opt_output, 0,
	  "write the trace to FILE (default: stdout)", "FILE" },
	POPT_TABLEEND
};

static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static int targets(struct cli *cli, int argc, const char **argv,
		   struct cgctl_bw_record_opts *o, pid_t **pids, struct bw_target *t)
{
	size_t n = 0;
	pid_t p;

	if (argc == 1 && cli_parse_pid(argv[0], &p) < 0) {
		int rc = bw_resolve(cli, argv[0], t);

		if (rc)
			return rc;
		o->cgroup = t->path;
		return EXIT_OK;
	}
	*pids = calloc((size_t)argc, sizeof(**pids));
	if (!*pids)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	for (int i = 0; i < argc; i++) {
		if (cli_parse_pid(argv[i], &(*pids)[n]) < 0)
			return cli_usage(cli, "'%s' is not a PID (give PIDs or one cgroup PATH)",
					 argv[i]);
		n++;
	}
	o->pids = *pids;
	o->npids = n;
	return EXIT_OK;
}

int bw_record_run(struct cli *cli, int argc, const char **argv, uint64_t duration_ns,
		  struct cgctl_bw_record_result *res)
{
	struct cgctl_bw_record_opts o = { .duration_ns = duration_ns, .stop = &stop_flag };
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct cgctl_error e = { 0 };
	struct bw_target t;
	pid_t *pids = NULL;
	int rc, r;

	rc = targets(cli, argc, argv, &o, &pids, &t);
	if (rc) {
		free(pids);
		return rc;
	}
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	r = cgctl_bw_record(cli->ctx, &o, res, &e);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(pids);
	if (r < 0)
		/* the library's message names the PID or PATH itself */
		return cli_error(cli, e.msg[0] || argc != 1 ? NULL : argv[0], r, "%s",
				 e.msg[0] ? e.msg : cli_strerror(r));
	return EXIT_OK;
}

void bw_record_summary(struct cli *cli, const struct cgctl_bw_record_result *res)
{
	double secs = res->duration_ns / 1e9;

	if (!cli->quiet)
		fprintf(stderr, "cgctl: bw record: recorded %u threads for %.1f s: %" PRIu64 " context switches "
			"(%.0f/s per CPU), %" PRIu64 " records lost, recorder CPU %.2f%% of "
			"one CPU\n", res->threads, secs, res->switches,
			secs > 0 ? res->switches / secs / (res->ncpus ? res->ncpus : 1) : 0.0,
			res->lost, secs > 0 ? 100.0 * res->self_cpu_ns / res->duration_ns : 0.0);
	if (res->lost)
		cli_warn(cli, "the kernel lost %" PRIu64 " records (ring buffer full): the "
			 "trace misses switches and its demand is approximate", res->lost);
}

int bw_read_file(struct cli *cli, const char *name, char **buf, size_t *len)
{
	FILE *f = strcmp(name, "-") ? fopen(name, "re") : stdin;
	size_t cap = 0;

	*buf = NULL;
	*len = 0;
	if (!f)
		return cli_error(cli, name, -errno, NULL);
	for (;;) {
		size_t got;

		if (*len + 4096 > cap) {
			char *n = realloc(*buf, cap = 2 * cap + 4096);

			if (!n) {
				free(*buf);
				*buf = NULL;
				if (f != stdin)
					fclose(f);
				return cli_error(cli, name, -ENOMEM, NULL);
			}
			*buf = n;
		}
		got = fread(*buf + *len, 1, cap - *len, f);
		*len += got;
		if (!got)
			break;
	}
	/* a read error is not the end of the file: the rest would be missing */
	int err = ferror(f) ? (errno ? errno : EIO) : 0;

	if (f != stdin)
		fclose(f);
	if (err) {
		free(*buf);
		*buf = NULL;
		return cli_error(cli, name, -err, NULL);
	}
	return EXIT_OK;
}

static int write_trace(struct cli *cli, const struct cgctl_bw_record_result *res)
{
	FILE *f = opt_output ? fopen(opt_output, "we") : stdout;
	bool ok;

	if (!f)
		return cli_error(cli, opt_output, -errno, NULL);
	ok = fwrite(res->trace, 1, res->len, f) == res->len;
	ok = (f == stdout ? fflush(f) == 0 : fclose(f) == 0) && ok;
	if (!ok)
		return cli_error(cli, opt_output ? opt_output : "stdout", -EIO,
				 "cannot write the trace");
	return EXIT_OK;
}

static int record(struct cli *cli, int argc, const char **argv)
{
	struct cgctl_bw_record_result res;
	uint64_t dur = 0;
	int rc;

	/* the trace is its own text format (cgctl-bw(1)): no JSON or TSV form of it */
	if (cli->fmt != OUT_HUMAN)
		return cli_usage(cli, "--%s: the trace has one format; see cgctl-bw(1)",
				 cli->fmt == OUT_JSON ? "json" : "tsv");
	if (opt_duration && (rc = cli_parse_duration(cli, "duration", opt_duration,
						     1000000000ULL, &dur)))
		return rc;
	if (opt_duration && !dur)
		return cli_usage(cli, "--duration: must be more than 0");
	rc = bw_record_run(cli, argc, argv, dur, &res);
	if (rc)
		return rc;
	rc = write_trace(cli, &res);
	bw_record_summary(cli, &res);
	cgctl_bw_record_result_free(&res);
	return rc;
}

const struct cgctl_cmd cmd_bw_record = {
	.name = "record",
	.args = "PID...|PATH",
	.summary = "record threads' CPU demand (context switches) as a trace",
	.options = options,
	.run = record,
	.min_args = 1,
	.max_args = -1,
};
