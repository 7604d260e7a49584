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

static int read_text(struct cli *cli, const struct cgctl_mount *m, const char *path,
		     const char *file, char **buf, size_t *len)
{
	*buf = NULL;
	return cgctl_cg_read(cli->ctx, m, path, file, buf, len);
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

static void emit_settings(struct out *o, const struct cgctl_cpu_settings *cs)
{
	const struct cgctl_bw_settings *bw = &cs->bw;
	bool has_burst = cs->present & CGCTL_CPUSET_BURST;
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
		struct cgctl_cpu_settings cs;
		char *slash;

		if (cgctl_cpu_settings_read(cli->ctx, t->m, path, &cs) == 0 &&
		    cs.bw.quota_us != CGCTL_BW_INF) {
			double c = (double)cs.bw.quota_us / cs.bw.period_us;

			if (best < 0 || c < best) {
				best = c;
				snprintf(limiter, sizeof(limiter), "%s", path);
			}
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

struct bw_stat_read {
	struct cgctl_cpu_stat st;
	uint64_t local_ns;
	bool has_local, has_usage;
};

static void read_stats(struct cli *cli, const struct bw_target *t, struct bw_stat_read *s)
{
	const struct cgctl_mount *acct;
	char *buf;
	size_t len;
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (read_text(cli, t->m, t->path, "cpu.stat", &buf, &len) == 0)
		cgctl_parse_cpu_stat(buf, len, t->m->version, &s->st);
	free(buf);
	if (read_text(cli, t->m, t->path, "cpu.stat.local", &buf, &len) == 0) {
		const char *key = t->m->version == 2 ? "throttled_usec" : "throttled_time";

		if (cgctl_parse_keyed_u64(buf, len, key, &v) == 0) {
			s->local_ns = t->m->version == 2 ? v * 1000 : v;
			s->has_local = true;
		}
	}
	free(buf);
	s->has_usage = s->st.present & CGCTL_CPU_STAT_USAGE;
	if (s->has_usage || t->m->version == 2)
		return;
	/* v1: usage lives in cpuacct, mounted with cpu or on its own */
	if (cgctl_mount_find(cli->ctx, "cpuacct", &acct) < 0)
		return;
	if (read_text(cli, acct, t->path, "cpuacct.usage", &buf, &len) == 0 &&
	    cgctl_parse_cpuacct_usage(buf, len, &s->st) == 0)
		s->has_usage = true;
	free(buf);
}

static void emit_u64_or_null(struct out *o, const char *key, bool have, uint64_t v)
{
	if (have)
		out_u64(o, key, v);
	else
		out_null(o, key);
}

static void emit_usec_or_null(struct out *o, const char *key, bool have, uint64_t ns)
{
	if (have)
		out_usec(o, key, ns);
	else
		out_null(o, key);
}

static void emit_stats(struct cli *cli, const struct bw_stat_read *s)
{
	const struct cgctl_cpu_stat *st = &s->st;
	bool np = st->present & CGCTL_CPU_STAT_NR_PERIODS;
	bool nt = st->present & CGCTL_CPU_STAT_NR_THROTTLED;
	bool nb = st->present & CGCTL_CPU_STAT_NR_BURSTS;
	struct out *o = cli->out;

	out_obj_begin(o, "stat");
	emit_u64_or_null(o, "nr_periods", np, st->nr_periods);
	emit_u64_or_null(o, "nr_throttled", nt, st->nr_throttled);
	emit_usec_or_null(o, "throttled_usec", st->present & CGCTL_CPU_STAT_THROTTLED,
			  st->throttled_ns);
	emit_usec_or_null(o, "throttled_local_usec", s->has_local, s->local_ns);
	emit_u64_or_null(o, "nr_bursts", nb, st->nr_bursts);
	emit_usec_or_null(o, "burst_usec", st->present & CGCTL_CPU_STAT_BURST, st->burst_ns);
	emit_usec_or_null(o, "usage_usec", s->has_usage, st->usage_ns);
	out_obj_end(o);

	/* derived: how often, and how long per throttled period (summed over CPUs) */
	out_obj_begin(o, "derived");
	if (np && nt && st->nr_periods)
		out_double(o, "throttled_ratio", (double)st->nr_throttled / st->nr_periods, 3);
	else
		out_null(o, "throttled_ratio");
	if (nt && st->nr_throttled)
		out_usec(o, "throttled_per_period_usec", st->throttled_ns / st->nr_throttled);
	else
		out_null(o, "throttled_per_period_usec");
	if (np && s->has_usage && st->nr_periods)
		out_usec(o, "usage_per_period_usec", st->usage_ns / st->nr_periods);
	else
		out_null(o, "usage_per_period_usec");
	out_obj_end(o);
}

static int show(struct cli *cli, int argc, const char **argv)
{
	struct cgctl_cpu_settings cs;
	struct bw_stat_read s;
	struct bw_target t;
	char shown[PATH_MAX];
	int rc, r;

	rc = cli_kv(cli, NULL, 0);
	if (!rc)
		rc = bw_resolve(cli, argv[0], &t);
	if (rc)
		return rc;
	r = cgctl_cpu_settings_read(cli->ctx, t.m, t.path, &cs);
	if (r < 0)
		return cli_error(cli, argv[0], r, "cannot read the bandwidth setting: %s",
				 cli_strerror(r));
	read_stats(cli, &t, &s);
	out_str(cli->out, "path", cli_path_shown(cli, t.m, t.path, shown, sizeof(shown)));
	out_u64(cli->out, "version", (uint64_t)t.m->version);
	out_obj_begin(cli->out, "settings");
	emit_settings(cli->out, &cs);
	out_obj_end(cli->out);
	emit_effective(cli, &t);
	emit_stats(cli, &s);
	if (t.m->version == 2) {
		struct cgctl_psi psi;

		r = cgctl_psi_read(cli->ctx, t.m, t.path, "cpu.pressure", &psi);
		emit_psi(cli->out, "pressure", r, &psi);
	} else if (cli->fmt != OUT_HUMAN) {
		out_null(cli->out, "pressure");	/* v1 has no PSI: the same keys as v2 */
	}
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
