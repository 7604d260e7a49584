/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `cgctl move`: the CPU throttling predicted at the destination once the tasks join.
 * The library records the tasks and replays them (cgctl_move_throttle_predict,
 * lib/predict/move-throttle.c); this prints it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-bw.h"
#include "move-throttle.h"

int move_throttle_limits(struct cli *cli, const struct cgctl_mount *m, const char *dest,
			 struct cgctl_move_throttle *mt)
{
	struct cgctl_error e = { 0 };
	int r = cgctl_move_throttle_limits(cli->ctx, m, dest, cli_ncpu(cli), mt, &e);

	if (r < 0)
		return cli_error(cli, NULL, r, "%s", e.msg);
	return EXIT_OK;
}

int move_throttle_sample(struct cli *cli, const struct cgctl_mount *m, const char *dest,
			 const pid_t *pids, size_t n, uint64_t sample_ns,
			 struct cgctl_move_throttle *mt)
{
	struct cgctl_error e = { 0 };
	int r;

	cli_progress(cli, "recording the CPU demand of the moving tasks and of %s for %.1f s",
		     dest, (double)sample_ns / 1e9);
	r = cgctl_move_throttle_predict(cli->ctx, m, dest, pids, n, sample_ns, cli_kver(cli),
					mt, &e);
	if (r < 0)
		return cli_error(cli, NULL, r, "%s", e.msg);
	if (mt->demand == CGCTL_MOVE_DEMAND_CPUTIME)
		cli_warn(cli, "cannot record (%s): the throttling is predicted from CPU-time "
			 "deltas, which do not say when the threads ran", mt->why_not_recorded);
	return EXIT_OK;
}

static void emit_side(struct cli *cli, const char *key,
		      const struct cgctl_move_throttle *mt,
		      const struct cgctl_move_throttle_side *s)
{
	uint64_t period = mt->bw.period_us * 1000ULL;
	double periods = period ? (double)s->run_ns / (double)period : 0;

	out_obj_begin(cli->out, key);
	out_u64(cli->out, "threads", s->threads);
	out_double(cli->out, "demand_cpus", s->demand_cpus, 2);
	out_i64(cli->out, "nr_periods", s->st.nr_periods);
	out_i64(cli->out, "nr_throttled", s->st.nr_throttled);
	out_double(cli->out, "throttled_periods_ratio", s->st.nr_periods > 0 ?
		   (double)s->st.nr_throttled / s->st.nr_periods : 0, 3);
	out_usec(cli->out, "throttled_usec_per_period", s->st.nr_periods > 0 ?
		 s->st.throttled_ns / (uint64_t)s->st.nr_periods : 0);
	out_usec(cli->out, "usage_usec_per_period", periods > 0 ?
		 (uint64_t)((double)s->st.usage_ns / periods) : 0);
	out_obj_end(cli->out);
}

void move_throttle_emit(struct cli *cli, const struct cgctl_move_throttle *mt)
{
	out_obj_begin(cli->out, "throttling");
	out_str(cli->out, "cgroup", mt->path);
	out_usec(cli->out, "quota_usec", mt->bw.quota_us == CGCTL_BW_INF ? UINT64_MAX :
		 mt->bw.quota_us * 1000);
	out_usec(cli->out, "period_usec", mt->bw.period_us * 1000);
	out_usec(cli->out, "burst_usec", mt->bw.burst_us * 1000);
	out_bool(cli->out, "limited", mt->limited);
	if (mt->limited) {
		out_str(cli->out, "limited_by", mt->limit_path);
		out_double(cli->out, "limit_cpus", mt->limit_cpus, 2);
	} else {
		out_null(cli->out, "limited_by");
		out_null(cli->out, "limit_cpus");
	}
	out_u64(cli->out, "online_cpus", mt->ncpus);
	if (mt->limited && mt->sample_ns) {
		out_usec(cli->out, "sample_usec", mt->sample_ns);
		out_str(cli->out, "demand_from", mt->demand == CGCTL_MOVE_DEMAND_RECORD ?
			"recording" : "cpu-time");
		if (mt->demand == CGCTL_MOVE_DEMAND_CPUTIME)
			out_str(cli->out, "not_recorded_because", mt->why_not_recorded);
		emit_side(cli, "before", mt, &mt->before);
		emit_side(cli, "after", mt, &mt->after);
	} else {
		out_null(cli->out, "before");
		out_null(cli->out, "after");
	}
	out_obj_end(cli->out);
}
