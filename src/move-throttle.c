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
			 struct cgctl_move_throttle **mt)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	int r = cgctl_move_throttle_limits(cli->ctx, m, dest, cli_ncpu(cli), mt, &e);

	if (r < 0)
		return cli_error(cli, NULL, r, "%s", e.msg);
	return EXIT_OK;
}

/* The number @key of @mt (0 for a key the library does not know). */
static uint64_t mt_u64(const struct cgctl_move_throttle *mt, const char *key)
{
	uint64_t v;

	return cgctl_move_throttle_get(mt, key, &v) == 0 ? v : 0;
}

/* The CPU count @key of @mt (0 for a key the library does not know). */
static double mt_cpus(const struct cgctl_move_throttle *mt, const char *key)
{
	double v;

	return cgctl_move_throttle_cpus(mt, key, &v) == 0 ? v : 0;
}

/* "before.KEY" or "after.KEY" of @mt. */
static uint64_t side_u64(const struct cgctl_move_throttle *mt, const char *side,
			 const char *key)
{
	char k[64];

	snprintf(k, sizeof(k), "%s.%s", side, key);
	return mt_u64(mt, k);
}

bool move_throttle_limited(const struct cgctl_move_throttle *mt)
{
	return mt_u64(mt, "limited") != 0;
}

int move_throttle_sample(struct cli *cli, const struct cgctl_mount *m, const char *dest,
			 const pid_t *pids, size_t n, uint64_t sample_ns,
			 struct cgctl_move_throttle *mt)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	int r;

	cli_progress(cli, "recording the CPU demand of the moving tasks and of %s for %.1f s",
		     dest, (double)sample_ns / 1e9);
	r = cgctl_move_throttle_predict(cli->ctx, m, dest, pids, n, sample_ns, cli_kver(cli),
					mt, &e);
	cli_progress_clear();	/* before the table: no header on the progress line */
	if (r < 0)
		return cli_error(cli, NULL, r, "%s", e.msg);
	if (mt_u64(mt, "demand") == CGCTL_MOVE_DEMAND_CPUTIME)
		cli_warn(cli, "cannot record (%s): the throttling is predicted from CPU-time "
			 "deltas, which do not say when the threads ran",
			 cgctl_move_throttle_str(mt, "why_not_recorded"));
	return EXIT_OK;
}

/*
 * The keys below are printed whether or not there is a value (null, "-" in TSV), so that
 * --tsv=throttle has one column set whatever was measured: a null object stands for its
 * keys in JSON, but a TSV table cannot say that.
 */
static bool tsv(const struct cli *cli)
{
	return out_format(cli->out) == OUT_TSV;
}

static void opt_u64(struct out *o, const char *key, bool have, uint64_t v)
{
	if (have)
		out_u64(o, key, v);
	else
		out_null(o, key);
}

static void opt_i64(struct out *o, const char *key, bool have, int64_t v)
{
	if (have)
		out_i64(o, key, v);
	else
		out_null(o, key);
}

static void opt_double(struct out *o, const char *key, bool have, double v, int dec)
{
	if (have)
		out_double(o, key, v, dec);
	else
		out_null(o, key);
}

static void opt_cpus(struct out *o, const char *key, bool have, double cpus)
{
	if (have)
		out_cpus(o, key, cpus);
	else
		out_null(o, key);
}

static void opt_usec(struct out *o, const char *key, bool have, uint64_t ns)
{
	if (have)
		out_usec(o, key, ns);
	else
		out_null(o, key);
}

/* "before" or "after"; !@h: nothing sampled (null, or in TSV every key null) */
static void emit_side(struct cli *cli, const char *key,
		      const struct cgctl_move_throttle *mt, bool h)
{
	struct out *o = cli->out;
	uint64_t period = mt ? mt_u64(mt, "period_us") * 1000ULL : 0;
	double periods = h && period ? (double)side_u64(mt, key, "run_ns") / (double)period : 0;
	int64_t np = h ? (int32_t)side_u64(mt, key, "nr_periods") : 0;
	int64_t nt = h ? (int32_t)side_u64(mt, key, "nr_throttled") : 0;
	char k[64];

	if (!h && !tsv(cli)) {
		out_null(o, key);
		return;
	}
	snprintf(k, sizeof(k), "%s.demand_cpus", key);
	out_obj_begin(o, key);
	opt_u64(o, "threads", h, h ? side_u64(mt, key, "threads") : 0);
	opt_cpus(o, "demand_cpus", h, h ? mt_cpus(mt, k) : 0);
	opt_i64(o, "nr_periods", h, np);
	opt_i64(o, "nr_throttled", h, nt);
	opt_double(o, "throttled_periods_ratio", h, np > 0 ? (double)nt / np : 0, 3);
	opt_usec(o, "throttled_per_period_usec", h,
		 np > 0 ? side_u64(mt, key, "throttled_ns") / (uint64_t)np : 0);
	opt_usec(o, "usage_per_period_usec", h,
		 periods > 0 ? (uint64_t)((double)side_u64(mt, key, "usage_ns") / periods) : 0);
	out_obj_end(o);
}

void move_throttle_emit(struct cli *cli, const struct cgctl_move_throttle *mt)
{
	struct out *o = cli->out;
	bool h = mt != NULL, limited = h && move_throttle_limited(mt);
	bool sampled = limited && mt_u64(mt, "sample_ns");
	uint64_t quota = h ? mt_u64(mt, "quota_us") : CGCTL_BW_INF;
	uint64_t demand = h ? mt_u64(mt, "demand") : 0;

	if (!mt && !tsv(cli)) {
		if (out_format(o) == OUT_JSON)
			out_null(o, "throttling");	/* the key stays */
		return;
	}
	out_obj_begin(o, "throttling");
	out_str(o, "cgroup", h ? cgctl_move_throttle_str(mt, "path") : NULL);
	opt_usec(o, "quota_usec", h, quota == CGCTL_BW_INF ? UINT64_MAX : quota * 1000);
	opt_usec(o, "period_usec", h, h ? mt_u64(mt, "period_us") * 1000 : 0);
	opt_usec(o, "burst_usec", h, h ? mt_u64(mt, "burst_us") * 1000 : 0);
	if (h)
		out_bool(o, "limited", limited);
	else
		out_null(o, "limited");
	out_str(o, "limited_by", limited ? cgctl_move_throttle_str(mt, "limit_path") : NULL);
	opt_cpus(o, "limit_cpus", limited, limited ? mt_cpus(mt, "limit_cpus") : 0);
	opt_u64(o, "online_cpus", h, h ? mt_u64(mt, "ncpus") : 0);
	/* what only a sample has: null (JSON, TSV) or left out (the human lines) */
	if (sampled || out_format(o) != OUT_HUMAN) {
		opt_usec(o, "sample_usec", sampled, sampled ? mt_u64(mt, "sample_ns") : 0);
		out_str(o, "demand_from", !sampled ? NULL :
			demand == CGCTL_MOVE_DEMAND_RECORD ? "recording" : "cpu-time");
		out_str(o, "not_recorded_because", sampled &&
			demand == CGCTL_MOVE_DEMAND_CPUTIME ?
			cgctl_move_throttle_str(mt, "why_not_recorded") : NULL);
	}
	emit_side(cli, "before", mt, sampled);
	emit_side(cli, "after", mt, sampled);
	out_obj_end(o);
}
