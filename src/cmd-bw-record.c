/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl bw record PID...|PATH [--duration DUR] [-o FILE]
 * Records the context switches of the processes (their threads and the children they
 * create while recording) or of a cgroup's processes, and writes their CPU demand as a
 * trace (format v1, cgctl-bw(1)) for `bw predict --trace` and `bw recommend --trace`.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd-bw-record.h"

static const char *opt_duration, *opt_output;

static const struct poptOption options[] = {
	{ "duration", '\0', POPT_ARG_STRING, &opt_duration, 0,
	  "record this long (default: until the processes exit or Ctrl-C)", "DUR" },
	{ "output", '\0', POPT_ARG_STRING, &opt_output, 0,
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

/* The progress callback's data: where to say it, and the duration asked for. */
struct progress_to {
	struct cli *cli;
	uint64_t duration_ns;	/* 0: until the tasks exit or Ctrl-C */
};

/* On a terminal, while recording (stderr, erased after; nothing in a pipe or with -q):
 * "bw record: 2.5/10.0 s, 3 threads, 1234 switches", from the library's progress
 * callback after each read of the ring buffers. */
static void progress(void *data, const struct cgctl_bw_record_result *p)
{
	const struct progress_to *to = data;
	struct cli *cli = to->cli;
	char lost[48] = "";

	if (p->lost)
		snprintf(lost, sizeof(lost), ", %" PRIu64 " lost", p->lost);
	if (to->duration_ns)
		cli_progress(cli, "bw record: %.1f/%.1f s, %u thread%s, %" PRIu64 " switches%s",
			     p->duration_ns / 1e9, to->duration_ns / 1e9, p->threads,
			     p->threads == 1 ? "" : "s", p->switches, lost);
	else
		cli_progress(cli, "bw record: %.1f s, %u thread%s, %" PRIu64 " switches%s "
			     "(Ctrl-C ends it)", p->duration_ns / 1e9,
			     p->threads, p->threads == 1 ? "" : "s", p->switches, lost);
}

int bw_record_run(struct cli *cli, int argc, const char **argv, uint64_t duration_ns,
		  struct cgctl_bw_record_result *res)
{
	struct progress_to to = { .cli = cli, .duration_ns = duration_ns };
	struct cgctl_bw_record_opts o = {
		.size = sizeof(o), .duration_ns = duration_ns, .stop = &stop_flag,
		.progress = cli->quiet || !cli->stderr_tty ? NULL : progress, .progress_data = &to,
	};
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct cgctl_error e = CGCTL_ERROR_INIT;
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
	cli_progress_clear();
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

/* The -o file, opened before recording so that a file that cannot be written fails at
 * once, not after the whole duration (issue 33).  An existing file keeps its contents
 * until the trace replaces them; one created here goes again if recording fails. */
struct trace_out {
	int fd;			/* -1: stdout */
	bool created;
};

static int open_trace(struct cli *cli, struct trace_out *to)
{
	to->fd = -1;
	to->created = false;
	if (!opt_output)
		return EXIT_OK;
	to->fd = open(opt_output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (to->fd >= 0)
		to->created = true;
	else if (errno == EEXIST)
		to->fd = open(opt_output, O_WRONLY | O_CLOEXEC);
	if (to->fd < 0)
		return cli_error(cli, opt_output, -errno, NULL);
	return EXIT_OK;
}

static void drop_trace(struct trace_out *to)
{
	if (to->fd < 0)
		return;
	close(to->fd);
	if (to->created)
		unlink(opt_output);
	to->fd = -1;
}

static int write_trace(struct cli *cli, struct trace_out *to,
		       const struct cgctl_bw_record_result *res)
{
	struct stat st;
	size_t off = 0;
	int err = 0;

	if (to->fd < 0) {
		bool ok = fwrite(res->trace, 1, res->len, stdout) == res->len;

		if (!(fflush(stdout) == 0 && ok))
			return cli_error(cli, "stdout", -EIO, "cannot write the trace");
		return EXIT_OK;
	}
	if (fstat(to->fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(to->fd, 0) < 0)
		err = errno;
	while (!err && off < res->len) {
		ssize_t w = write(to->fd, res->trace + off, res->len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			err = w < 0 ? errno : EIO;
		else
			off += (size_t)w;
	}
	if (close(to->fd) < 0 && !err)
		err = errno;
	to->fd = -1;
	if (err)
		return cli_error(cli, opt_output, -err, "cannot write the trace: %s",
				 cli_strerror(-err));
	return EXIT_OK;
}

static int record(struct cli *cli, int argc, const char **argv)
{
	struct cgctl_bw_record_result res = { .size = sizeof(res) };
	struct trace_out to;
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
	rc = open_trace(cli, &to);
	if (rc)
		return rc;
	rc = bw_record_run(cli, argc, argv, dur, &res);
	if (rc) {
		drop_trace(&to);
		return rc;
	}
	rc = write_trace(cli, &to, &res);
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
