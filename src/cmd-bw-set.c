/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl bw set PATH (--quota DUR [--period DUR] | --cpus FLOAT [--period DUR] |
 *                    --unlimited | --period DUR) [--burst DUR]
 * Every kernel rule is checked first against the tree as it is (lib/engine
 * bandwidth-check.c), the files are written in an order whose every step the kernel
 * accepts, unchanged values are not rewritten (a write refills the pool and forgives
 * debt), and a failed write restores the previous setting: all of it in the library's
 * executor (struct cgctl_plan, lib/predict/plan-object.c).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-bw.h"
#include "cli-file.h"
#include "systemd-route.h"
#include "util/num.h"

static const char *opt_quota, *opt_period, *opt_burst, *opt_cpus;
static int opt_unlimited;

static const struct poptOption options[] = {
	{ "quota", '\0', POPT_ARG_STRING, &opt_quota, 0,
	  "runtime per period (plain numbers are µs; \"max\": no limit)", "DUR" },
	{ "period", '\0', POPT_ARG_STRING, &opt_period, 0,
	  "period, 1ms..1s (plain numbers are µs)", "DUR" },
	{ "cpus", '\0', POPT_ARG_STRING, &opt_cpus, 0,
	  "quota as a number of CPUs (quota = CPUS x period)", "FLOAT" },
	{ "unlimited", '\0', POPT_ARG_NONE, &opt_unlimited, 0,
	  "no limit (v1 quota -1, v2 max)", NULL },
	{ "burst", '\0', POPT_ARG_STRING, &opt_burst, 0,
	  "unused quota that may accumulate (plain numbers are µs)", "DUR" },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, (void *)sd_route_options, 0, NULL, NULL },
	CLI_KV_OPTIONS,
	POPT_TABLEEND
};

/* The setting asked for, from the current one and the options. */
static int wanted(struct cli *cli, const struct cgctl_bw_settings *old,
		  struct cgctl_bw_settings *bw)
{
	/* "max", as bw predict --quota and v2's cpu.max take it: --unlimited */
	bool quota_max = opt_quota && !strcmp(opt_quota, "max");
	int rc, n = !!opt_quota + !!opt_cpus + !!opt_unlimited;

	if (n > 1)
		return cli_usage(cli, "--quota, --cpus and --unlimited exclude each other");
	if (!n && !opt_period && !opt_burst)
		return cli_usage(cli, "nothing to set: give --quota, --cpus, --unlimited, "
				      "--period or --burst");
	*bw = *old;
	if (opt_period && (rc = bw_parse_us(cli, "period", opt_period, &bw->period_us)))
		return rc;
	if (quota_max)
		bw->quota_us = CGCTL_BW_INF;
	else if (opt_quota && (rc = bw_parse_us(cli, "quota", opt_quota, &bw->quota_us)))
		return rc;
	if (opt_cpus && (rc = bw_parse_cpus(cli, opt_cpus, bw->period_us, &bw->quota_us)))
		return rc;
	if (opt_unlimited)
		bw->quota_us = CGCTL_BW_INF;
	if (opt_burst && (rc = bw_parse_us(cli, "burst", opt_burst, &bw->burst_us)))
		return rc;
	return EXIT_OK;
}

static void emit_head(struct cli *cli, const struct bw_target *t,
		      const struct cgctl_bw_settings *bw)
{
	struct out *o = cli->out;
	char shown[PATH_MAX];

	out_str(o, "path", cli_path_shown(cli, t->m, t->path, shown, sizeof(shown)));
	out_usec(o, "quota_usec", bw->quota_us == CGCTL_BW_INF ? UINT64_MAX : bw->quota_us * 1000);
	out_usec(o, "period_usec", bw->period_us * 1000);
	out_usec(o, "burst_usec", bw->burst_us * 1000);
}

/* one written file; @applied: "direct" (cgctl wrote it) or "systemd" (a property) */
static void emit_write(struct cli *cli, const char *file, const char *value,
		       const char *applied)
{
	out_obj_begin(cli->out, NULL);
	out_str(cli->out, "file", file);
	cli_out_file_value(cli, file, "value", value);
	out_str(cli->out, "applied", applied);
	out_obj_end(cli->out);
}

static void emit(struct cli *cli, const struct bw_target *t,
		 const struct cgctl_bw_settings *bw, const struct cgctl_plan *p)
{
	const char *file, *value;

	emit_head(cli, t, bw);
	out_list_begin(cli->out, "written");
	for (size_t i = 0; cgctl_plan_step(p, i, NULL, NULL, &file, &value, NULL, NULL) == 0;
	     i++)
		emit_write(cli, file, value, "direct");
	out_list_end(cli->out);
}

/* The plan of @bw for @t, checked (@apply false) or written.  Returns: as
 * cgctl_plan_check() and cgctl_plan_apply(); -ENOMEM with *@ret NULL. */
static int plan_bw(struct cli *cli, const struct bw_target *t,
		   const struct cgctl_bw_settings *bw, bool apply, struct cgctl_plan **ret,
		   struct cgctl_error *e)
{
	int r = cgctl_plan_new(cli->ctx, ret);

	if (r < 0)
		return r;
	r = cgctl_plan_add_bw(*ret, t->m, t->path, bw);
	if (r < 0)
		return r;
	return apply ? cgctl_plan_apply(*ret, e) : cgctl_plan_check(*ret, e);
}

/*
 * A unit's own cgroup on a systemd host: the same kernel rules checked against the
 * tree (the plan's check, nothing written), then cpu.max (and a changed burst) handed
 * to systemd as one list.
 */
static int set_via_systemd(struct cli *cli, const char *arg, const struct bw_target *t,
			   const struct sd_route *sr, const struct cgctl_cpu_settings *old,
			   const struct cgctl_bw_settings *bw)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct cgctl_unit_knob k[2];
	char max[48], burst[24];
	struct cgctl_plan *p = NULL;
	size_t n = 0;
	int r, rc;

	if (bw->burst_us != old->bw.burst_us && !(old->present & CGCTL_CPUSET_BURST))
		return cli_error(cli, arg, -EOPNOTSUPP, "this kernel has no cpu.max.burst");
	r = plan_bw(cli, t, bw, false, &p, &e);
	cgctl_plan_free(p);
	if (r < 0)
		return cli_error(cli, arg, r, "%s", e.msg[0] ? e.msg : cli_strerror(r));
	if (bw->quota_us == CGCTL_BW_INF)
		snprintf(max, sizeof(max), "max %llu", (unsigned long long)bw->period_us);
	else
		snprintf(max, sizeof(max), "%llu %llu", (unsigned long long)bw->quota_us,
			 (unsigned long long)bw->period_us);
	k[n++] = CGCTL_UNIT_KNOB("cpu.max", max);
	if (bw->burst_us != old->bw.burst_us) {
		snprintf(burst, sizeof(burst), "%llu", (unsigned long long)bw->burst_us);
		k[n++] = CGCTL_UNIT_KNOB("cpu.max.burst", burst);
	}
	rc = sd_route_apply(cli, arg, t->m, sr, k, n);
	if (rc)
		return rc;
	emit_head(cli, t, bw);
	out_str(cli->out, "unit", sr->unit.name);
	out_list_begin(cli->out, "written");
	for (size_t i = 0; i < n; i++)
		emit_write(cli, k[i].file, k[i].value, k[i].how);
	out_list_end(cli->out);
	return EXIT_OK;
}

/* A plan that passes through an unlimited quota it did not ask for: no order of writes
 * avoids it (CGCTL_PLAN_STEP_DETOUR), and a SIGKILL between two writes can leave it. */
static void say_detour(struct cli *cli, const struct bw_target *t, const struct cgctl_plan *p,
		       int n)
{
	const char *file, *value;
	unsigned int flags;

	for (int i = 0; i + 1 < n; i++) {
		if (cgctl_plan_step(p, (size_t)i, NULL, NULL, &file, &value, NULL, &flags) < 0)
			return;
		if (flags & CGCTL_PLAN_STEP_DETOUR) {
			cli_warn(cli, "%s: no order of writes avoids an unlimited quota in "
				 "between: a SIGKILL after write %d of %d would leave %s=%s (no "
				 "limit)", t->path, i + 1, n, file, value);
			return;
		}
	}
}

/* @sr: where the change goes (sd_route()): systemd's unit properties or the files */
static int apply(struct cli *cli, const char *arg, const struct bw_target *t,
		 const struct sd_route *sr)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct cgctl_cpu_settings old;
	struct cgctl_plan *p = NULL;
	struct cgctl_bw_settings bw;
	int rc, r;

	r = cgctl_cpu_settings_read(cli->ctx, t->m, t->path, &old);
	if (r < 0)
		return cli_error(cli, arg, r, "cannot read the bandwidth setting: %s",
				 cli_strerror(r));
	rc = wanted(cli, &old.bw, &bw);
	if (rc)
		return rc;
	if (sr->via_systemd)
		return set_via_systemd(cli, arg, t, sr, &old, &bw);
	r = plan_bw(cli, t, &bw, true, &p, &e);
	/* a kernel rule checked before any write: nothing was changed */
	if (r == -EINVAL && cgctl_plan_refused(p) >= 0)
		rc = cli_usage(cli, "%s: %s", arg, e.msg[0] ? e.msg : cli_strerror(r));
	else if (r < 0)
		rc = cli_error(cli, arg, r, "%s", e.msg[0] ? e.msg : cli_strerror(r));
	if (r >= 0) {
		cli->changed = true;
		say_detour(cli, t, p, r);
		emit(cli, t, &bw, p);
	}
	cgctl_plan_free(p);
	return r < 0 ? rc : EXIT_OK;
}

static int set(struct cli *cli, int argc, const char **argv)
{
	struct bw_target t;
	struct sd_route sr;
	int rc, r;

	rc = cli_kv(cli, NULL, 0);
	if (!rc)
		rc = bw_resolve(cli, argv[0], &t);
	if (rc)
		return rc;
	/* the cgroup lock from the read the options complete to the end of the plan */
	r = cgctl_cgroup_lock(cli->ctx, t.m, t.path);
	if (r < 0)
		return cli_error(cli, argv[0], r, r == -ENOENT ? "no such cgroup" : NULL);
	rc = sd_route(cli, argv[0], t.m, t.path, &sr);
	if (!rc)
		rc = apply(cli, argv[0], &t, &sr);
	cgctl_cgroup_unlock(cli->ctx, t.m, t.path);
	(void)argc;
	return rc;
}

const struct cgctl_cmd cmd_bw_set = {
	.name = "set",
	.args = "PATH",
	.summary = "set quota, period and burst, checked and written in a safe order",
	.options = options,
	.run = set,
	.min_args = 1,
	.max_args = 1,
};
