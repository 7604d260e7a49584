/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `cgctl move`: the totals of a move of many PIDs for people (move-summary.h). */
#include <limits.h>
#include <stdlib.h>

#include "move-summary.h"

bool move_summary_wanted(const struct cli *cli, size_t n)
{
	return cli->fmt == OUT_HUMAN && !cli->verbose && n > MOVE_SUMMARY_ROWS;
}

/* Threads in @path of @m (v1 "tasks", v2 "cgroup.threads"); < 0 when unreadable. */
static ssize_t threads_in(struct cli *cli, const struct cgctl_mount *m, const char *path)
{
	pid_t *tids = NULL;
	ssize_t r = cgctl_cg_pids(cli->ctx, m, path,
				  m->version == 2 ? "cgroup.threads" : "tasks", &tids);

	free(tids);
	return r;
}

void move_summary_begin(struct cli *cli, struct move_summary *s,
			const struct cgctl_mount *m, const char *to)
{
	*s = (struct move_summary){ .m = m, .to = to };
	s->threads_before = threads_in(cli, m, to);
}

void move_summary_emit(struct cli *cli, const struct move_summary *s, size_t shown,
		       size_t rows)
{
	ssize_t after = s->threads_before >= 0 ? threads_in(cli, s->m, s->to) : -1;
	char note[160], path[PATH_MAX];

	out_list_begin(cli->out, "summary");
	out_obj_begin(cli->out, NULL);
	out_str(cli->out, "to", cli_path_shown(cli, s->m, s->to, path, sizeof(path)));
	out_u64(cli->out, "tasks", s->tasks);
	/* the threads the destination gained: observed, like the charge */
	if (after >= 0)
		out_i64(cli->out, "threads", (int64_t)after - s->threads_before);
	else
		out_null(cli->out, "threads");
	if (s->expected_n)
		out_bytes(cli->out, "expected", s->expected_bytes);
	else
		out_null(cli->out, "expected");
	if (s->observed_n && s->observed_bytes >= 0)
		out_bytes(cli->out, "observed", (uint64_t)s->observed_bytes);
	else if (s->observed_n)
		out_sbytes(cli->out, "observed", s->observed_bytes);
	else
		out_null(cli->out, "observed");
	out_u64(cli->out, "failed", s->failed);
	out_obj_end(cli->out);
	out_list_end(cli->out);
	snprintf(note, sizeof(note), "%zu of %zu rows shown, failures above; every row: "
		 "--json, --tsv or -v", shown, rows);
	out_str(cli->out, "rows", note);
}
