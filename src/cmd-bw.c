/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl bw: CFS bandwidth control (the verb table is src/cli-verbs.c).  This file:
 * `bw show`, and the helpers shared with `bw set` (cmd-bw-set.c) and `bw predict`
 * (cmd-bw-predict.c).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-bw.h"
#include "util/num.h"
#include "pressure.h"

int bw_resolve(struct cli *cli, const char *arg, struct bw_target *t)
{
	int rc = cli_resolve(cli, "cpu", arg, &t->m, t->path, sizeof(t->path));
	int r;

	if (rc)
		return rc;
	r = cgctl_cg_exists(cli->ctx, t->m, t->path);
	if (r == 0)
		return cli_error(cli, arg, -ENOENT, "no such cgroup");
	if (r < 0)
		return cli_error(cli, arg, r, NULL);
	return EXIT_OK;
}

uint32_t bw_kver(struct cli *cli)
{
	return cli_kver(cli);
}


unsigned int bw_ncpu(struct cli *cli)
{
	return cli_ncpu(cli);
}

int bw_parse_us(struct cli *cli, const char *opt, const char *s, uint64_t *us)
{
	uint64_t ns;
	int rc = cli_parse_duration(cli, opt, s, 1000, &ns);

	if (rc)
		return rc;
	if (ns % 1000)
		return cli_usage(cli, "--%s: '%s' is not a whole number of microseconds", opt, s);
	*us = ns / 1000;
	return EXIT_OK;
}

/* ---- bw show ---- */

/* The bandwidth setting of @cg: quota CGCTL_BW_INF unlimited; *has_burst: the kernel has
 * the burst file.  The v2 root has no cpu.max: the kernel's default, no limit with a
 * 100 ms period.  Returns: 0, -ENOENT (no cpu.max or cpu.cfs_quota_us), -errno. */
static int read_setting(struct cgctl_cgroup *cg, const char *path, int version,
			struct cgctl_bw_settings *bw, bool *has_burst)
{
	int r;

	*bw = CGCTL_BW_SETTINGS(CGCTL_BW_INF, 100000, 0);
	r = cgctl_cgroup_get_cpu_quota_us(cg, &bw->quota_us);
	if (r == -ENODATA && version == 2 && !strcmp(path, "/"))
		r = 0;
	else if (r == 0)
		r = cgctl_cgroup_get_cpu_period_us(cg, &bw->period_us);
	if (r == -ENODATA)
		r = -ENOENT;	/* no bandwidth files: the controller is not enabled */
	if (r < 0)
		return r;
	*has_burst = cgctl_cgroup_get_cpu_burst_us(cg, &bw->burst_us) == 0;
	if (!*has_burst)
		bw->burst_us = 0;
	return 0;
}

static void emit_settings(struct out *o, const struct cgctl_bw_settings *bw, bool has_burst)
{
	bool inf = bw->quota_us == CGCTL_BW_INF;

	out_usec(o, "quota_usec", inf ? UINT64_MAX : bw->quota_us * 1000);
	out_usec(o, "period_usec", bw->period_us * 1000);
	if (has_burst)
		out_usec(o, "burst_usec", bw->burst_us * 1000);
	else
		out_null(o, "burst_usec");
	if (inf)
		out_null(o, "limit_cpus");
	else
		out_cpus(o, "limit_cpus", (double)bw->quota_us / bw->period_us);
}

/* The tightest limit on the way to the root: every level enforces its own pool. */
static void emit_effective(struct cli *cli, const struct bw_target *t)
{
	char path[PATH_MAX], limiter[PATH_MAX] = "";
	double best = -1;

	snprintf(path, sizeof(path), "%s", t->path);
	for (;;) {
		struct cgctl_bw_settings bw;
		struct cgctl_cgroup *cg;
		bool has_burst;
		char *slash;

		if (cgctl_cgroup_new(cli->ctx, "cpu", path, &cg) == 0) {
			if (read_setting(cg, path, t->m->version, &bw, &has_burst) == 0 &&
			    bw.quota_us != CGCTL_BW_INF) {
				double c = (double)bw.quota_us / bw.period_us;

				if (best < 0 || c < best) {
					best = c;
					snprintf(limiter, sizeof(limiter), "%s", path);
				}
			}
			cgctl_cgroup_unref(cg);
		}
		if (!strcmp(path, "/"))
			break;
		slash = strrchr(path, '/');
		if (slash == path)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	out_obj_begin(cli->out, "effective");
	if (best < 0) {
		out_null(cli->out, "limit_cpus");
		out_null(cli->out, "limited_by");
	} else {
		out_cpus(cli->out, "limit_cpus", best);
		out_str(cli->out, "limited_by", limiter);
	}
	out_obj_end(cli->out);
}

/* The figure @key of @st; false where the kernel does not report it (never 0). */
static bool fig(const struct cgctl_cgroup_stat *st, const char *key, uint64_t *v)
{
	return st && cgctl_cgroup_stat_get(st, key, v) == 0;
}

/* @key of @st as a count, null where absent */
static void fig_u64(struct out *o, const char *name, const struct cgctl_cgroup_stat *st,
		    const char *key)
{
	uint64_t v;

	if (fig(st, key, &v))
		out_u64(o, name, v);
	else
		out_null(o, name);
}

/* @key of @st (ns) as a duration, null where absent */
static void fig_usec(struct out *o, const char *name, const struct cgctl_cgroup_stat *st,
		     const char *key)
{
	uint64_t v;

	if (fig(st, key, &v))
		out_usec(o, name, v);
	else
		out_null(o, name);
}

static void emit_stats(struct cli *cli, const struct cgctl_cgroup_stat *st)
{
	uint64_t np, nt, thr, usage;
	bool has_np = fig(st, "cpu.stat.nr_periods", &np);
	bool has_nt = fig(st, "cpu.stat.nr_throttled", &nt);
	bool has_thr = fig(st, "cpu.stat.throttled_ns", &thr);
	bool has_usage = fig(st, "cpu.stat.usage_ns", &usage);
	struct out *o = cli->out;

	out_obj_begin(o, "stat");
	fig_u64(o, "nr_periods", st, "cpu.stat.nr_periods");
	fig_u64(o, "nr_throttled", st, "cpu.stat.nr_throttled");
	fig_usec(o, "throttled_usec", st, "cpu.stat.throttled_ns");
	/* cpu.stat.local (6.6+): v2 throttled_usec, v1 throttled_time */
	fig_usec(o, "throttled_local_usec", st, "cpu.stat.throttled_local_ns");
	fig_u64(o, "nr_bursts", st, "cpu.stat.nr_bursts");
	fig_usec(o, "burst_usec", st, "cpu.stat.burst_ns");
	fig_usec(o, "usage_usec", st, "cpu.stat.usage_ns");
	out_obj_end(o);

	/* derived: how often, and how long per throttled period (summed over CPUs) */
	out_obj_begin(o, "derived");
	if (has_np && has_nt && np)
		out_double(o, "throttled_ratio", (double)nt / np, 3);
	else
		out_null(o, "throttled_ratio");
	if (has_nt && nt && has_thr)
		out_usec(o, "throttled_per_period_usec", thr / nt);
	else
		out_null(o, "throttled_per_period_usec");
	if (has_np && has_usage && np)
		out_usec(o, "usage_per_period_usec", usage / np);
	else
		out_null(o, "usage_per_period_usec");
	out_obj_end(o);
}

static int show(struct cli *cli, int argc, const char **argv)
{
	struct cgctl_cgroup_stat *st = NULL;
	struct cgctl_cgroup *cg = NULL;
	struct cgctl_bw_settings bw;
	struct bw_target t;
	char shown[PATH_MAX];
	bool has_burst;
	int rc, r;

	rc = cli_kv(cli, NULL, 0);
	if (!rc)
		rc = bw_resolve(cli, argv[0], &t);
	if (rc)
		return rc;
	r = cgctl_cgroup_new(cli->ctx, "cpu", t.path, &cg);
	if (r == 0)
		r = read_setting(cg, t.path, t.m->version, &bw, &has_burst);
	if (r < 0) {
		cgctl_cgroup_unref(cg);
		return cli_error(cli, argv[0], r, "cannot read the bandwidth setting: %s",
				 cli_strerror(r));
	}
	/* a figure that cannot be read prints null, as one the kernel lacks */
	if (cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_CPU_ALL | CGCTL_CGSTAT_PSI, &st) < 0)
		st = NULL;
	out_str(cli->out, "path", cli_path_shown(cli, t.m, t.path, shown, sizeof(shown)));
	out_u64(cli->out, "version", (uint64_t)t.m->version);
	out_obj_begin(cli->out, "settings");
	emit_settings(cli->out, &bw, has_burst);
	out_obj_end(cli->out);
	emit_effective(cli, &t);
	emit_stats(cli, st);
	if (t.m->version == 2)
		emit_psi_stat(cli->out, "pressure", st, "cpu.pressure.");
	else if (cli->fmt != OUT_HUMAN)
		out_null(cli->out, "pressure");	/* v1 has no PSI: the same keys as v2 */
	cgctl_cgroup_stat_free(st);
	cgctl_cgroup_unref(cg);
	(void)argc;
	return EXIT_OK;
}

static const struct poptOption show_options[] = {
	CLI_KV_OPTIONS,
	POPT_TABLEEND
};

const struct cgctl_cmd cmd_bw_show = {
	.name = "show",
	.options = show_options,
	.args = "PATH",
	.summary = "bandwidth setting, effective limit, cpu.stat and cpu.stat.local",
	.run = show,
	.min_args = 1,
	.max_args = 1,
};

int bw_parse_cpus(struct cli *cli, const char *s, uint64_t period_us, uint64_t *quota_us)
{
	double c;

	if (cli_parse_decimal(s, &c) < 0 || !isfinite(c) || c <= 0 || c > 1e9)
		return cli_usage(cli, "--cpus: '%s' is not a positive number of CPUs", s);
	*quota_us = num_round_u64(c * (double)period_us);
	return EXIT_OK;
}
