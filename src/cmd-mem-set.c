/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl mem set PATH [--limit SIZE] [--memsw-limit SIZE] [--soft-limit SIZE]
 *                    [--move-charge none|anon|file|anon,file]
 *                    [--high SIZE] [--low SIZE] [--min SIZE] [--swap-max SIZE]
 *                    [--oom-group 0|1]
 * Everything is validated before the first write; the library's executor
 * (struct cgctl_plan, lib/predict/settings-apply.c) writes limits going down before
 * limits going up (v1: memory <= memsw at every step), skips unchanged values, blocks
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT during the plan, and restores what was already written
 * if a write fails.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-file.h"
#include "mem-util.h"
#include "systemd-route.h"

static const char *opt_limit, *opt_memsw, *opt_soft, *opt_move;
static const char *opt_high, *opt_low, *opt_min, *opt_swap, *opt_oomg;

static const struct poptOption options[] = {
	{ "limit", '\0', POPT_ARG_STRING, &opt_limit, 0,
	  "memory limit (v1 memory.limit_in_bytes, v2 memory.max)", "SIZE" },
	{ "memsw-limit", '\0', POPT_ARG_STRING, &opt_memsw, 0,
	  "memory+swap limit (v1 memory.memsw.limit_in_bytes)", "SIZE" },
	{ "soft-limit", '\0', POPT_ARG_STRING, &opt_soft, 0,
	  "soft limit (v1 memory.soft_limit_in_bytes)", "SIZE" },
	{ "move-charge", '\0', POPT_ARG_STRING, &opt_move, 0,
	  "move_charge_at_immigrate (v1, 2.6.34 - 6.12)", "none|anon|file|anon,file" },
	{ "high", '\0', POPT_ARG_STRING, &opt_high, 0,
	  "throttle and reclaim above this (v2 memory.high)", "SIZE" },
	{ "low", '\0', POPT_ARG_STRING, &opt_low, 0,
	  "best-effort protection (v2 memory.low)", "SIZE" },
	{ "min", '\0', POPT_ARG_STRING, &opt_min, 0,
	  "hard protection (v2 memory.min)", "SIZE" },
	{ "swap-max", '\0', POPT_ARG_STRING, &opt_swap, 0,
	  "swap limit (v2 memory.swap.max)", "SIZE" },
	{ "oom-group", '\0', POPT_ARG_STRING, &opt_oomg, 0,
	  "kill the whole group on OOM (v2 memory.oom.group)", "0|1" },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, (void *)sd_route_options, 0, NULL, NULL },
	CLI_KV_OPTIONS,
	POPT_TABLEEND
};

struct plan {
	const struct cgctl_mount *m;
	char path[PATH_MAX];
	const char *arg;
	struct cgctl_mem_settings old, want;
	unsigned int which;
	struct mem_counters before;
};

/* The writes of a plan (at most one per knob), in plan order. */
#define MEM_WRITES_MAX 10
struct written {
	size_t n;
	const char *file[MEM_WRITES_MAX];
	const char *value[MEM_WRITES_MAX];
	const char *applied[MEM_WRITES_MAX];	/* "direct", or the systemd backend's */
};

static int parse_move(struct cli *cli, const char *s, unsigned int *bits)
{
	static const char *const names[] = { "none", "anon", "file", "anon,file" };

	for (unsigned int i = 0; i < 4; i++)
		if (!strcmp(s, names[i]) || (i == 3 && !strcmp(s, "file,anon"))) {
			*bits = i;
			return EXIT_OK;
		}
	return cli_usage(cli, "--move-charge: '%s' is not none, anon, file or anon,file", s);
}

static int parse_limit(struct cli *cli, struct plan *p, unsigned int bit, const char *opt,
		       const char *s, uint64_t *field)
{
	uint64_t v;
	int rc = cli_parse_size(cli, opt, s, &v);

	if (rc)
		return rc;
	*field = v == CGCTL_SIZE_MAX ? UINT64_MAX : v;
	p->which |= bit;
	return EXIT_OK;
}

/* The v2-only knobs on v1: say so, and name the v1 equivalent where there is one. */
static int v2_only(struct cli *cli, struct plan *p)
{
	static const struct {
		const char **opt;
		const char *name, *why;
	} k[] = {
		{ &opt_high, "--high", "memory.high is v2 only; v1 has no throttling "
				       "threshold (--soft-limit only steers global reclaim)" },
		{ &opt_low, "--low", "memory.low is v2 only; v1 has no protection" },
		{ &opt_min, "--min", "memory.min is v2 only; v1 has no protection" },
		{ &opt_swap, "--swap-max", "memory.swap.max is v2 only; the v1 equivalent "
					   "limits memory+swap: --memsw-limit" },
		{ &opt_oomg, "--oom-group", "memory.oom.group is v2 only; v1 kills one task" },
	};

	if (p->m->version == 2)
		return EXIT_OK;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (*k[i].opt)
			return cli_error(cli, p->arg, -EOPNOTSUPP, "%s: not on cgroup v1 (%s)",
					 k[i].name, k[i].why);
	return EXIT_OK;
}

/* The options of the other cgroup version: exit 6, one line naming the option.  The
 * kernel's rules (memory <= memsw, the era of move_charge_at_immigrate) are the
 * library's (cgctl_plan_add_mem(), lib/predict/settings-apply.c). */
static int check_support(struct cli *cli, struct plan *p, unsigned int move)
{
	int rc = v2_only(cli, p);

	if (rc)
		return rc;
	if (p->m->version == 2) {
		if (opt_memsw)
			return cli_error(cli, p->arg, -EOPNOTSUPP, "--memsw-limit: cgroup v2 "
					 "has no memory+swap counter (it limits swap alone, "
					 "memory.swap.max)");
		if (opt_soft)
			return cli_error(cli, p->arg, -EOPNOTSUPP, "--soft-limit: cgroup v2 has "
					 "no soft limit (memory.low is a protection)");
		if (move)
			return cli_error(cli, p->arg, -EOPNOTSUPP, "--move-charge: cgroup v2 "
					 "never moves charges");
		return EXIT_OK;
	}
	if (opt_memsw && !(p->old.present & CGCTL_MEMSET_MEMSW))
		return cli_error(cli, p->arg, -EOPNOTSUPP, "--memsw-limit: swap accounting is "
				 "off (no memory.memsw.limit_in_bytes)");
	return EXIT_OK;
}

static int parse_oom_group(struct cli *cli, struct plan *p)
{
	if (strcmp(opt_oomg, "0") && strcmp(opt_oomg, "1"))
		return cli_usage(cli, "--oom-group: '%s' is not 0 or 1", opt_oomg);
	p->want.oom_group = opt_oomg[0] == '1';
	p->which |= CGCTL_MEMSET_OOMGROUP;
	return EXIT_OK;
}

static int parse_all(struct cli *cli, struct plan *p)
{
	const struct {
		const char *opt, *name;
		unsigned int bit;
		uint64_t *field;
	} lim[] = {
		{ opt_limit, "limit", CGCTL_MEMSET_MAX, &p->want.max },
		{ opt_memsw, "memsw-limit", CGCTL_MEMSET_MEMSW, &p->want.memsw_max },
		{ opt_soft, "soft-limit", CGCTL_MEMSET_SOFT, &p->want.soft },
		{ opt_high, "high", CGCTL_MEMSET_HIGH, &p->want.high },
		{ opt_low, "low", CGCTL_MEMSET_LOW, &p->want.low },
		{ opt_min, "min", CGCTL_MEMSET_MIN, &p->want.min },
		{ opt_swap, "swap-max", CGCTL_MEMSET_SWAP, &p->want.swap_max },
	};
	unsigned int move = 0;
	int rc = EXIT_OK;

	p->want = p->old;
	for (size_t i = 0; i < sizeof(lim) / sizeof(lim[0]) && !rc; i++)
		if (lim[i].opt)
			rc = parse_limit(cli, p, lim[i].bit, lim[i].name, lim[i].opt,
					 lim[i].field);
	if (!rc && opt_move)
		rc = parse_move(cli, opt_move, &move);
	if (!rc && opt_oomg)
		rc = parse_oom_group(cli, p);
	if (rc)
		return rc;
	if (opt_move && p->m->version == 1) {
		p->want.move_charge = move;
		p->which |= CGCTL_MEMSET_MOVE;
	}
	rc = check_support(cli, p, move);
	if (!rc && !strcmp(p->path, "/") && (p->which & ~CGCTL_MEMSET_MOVE))
		rc = cli_error(cli, p->arg, -EOPNOTSUPP, "the root memory cgroup has no limits");
	return rc;
}

static void say_below_usage(struct cli *cli, const struct plan *p)
{
	uint64_t lim = p->want.max;
	char u[32], l[32];

	if (!(p->which & CGCTL_MEMSET_MAX) || lim == UINT64_MAX || lim >= p->before.usage)
		return;
	cgctl_format_size(u, sizeof(u), p->before.usage);
	cgctl_format_size(l, sizeof(l), lim);
	if (p->m->version == 1)
		cli_warn(cli, "%s: usage %s is above the new limit %s: the kernel drains the "
			 "per-cpu charge stock, then reclaims; the write fails with EBUSY if "
			 "reclaim cannot get below it", p->path, u, l);
	else
		cli_warn(cli, "%s: usage %s is above the new memory.max %s: the kernel sets it, "
			 "drains the stock, reclaims, then OOM-kills until usage fits",
			 p->path, u, l);
}

/* The executor's error, with what the kernel's refusal means for memory files. */
static int apply_fail(struct cli *cli, struct plan *p, const struct cgctl_plan *plan,
		      int r, const struct cgctl_error *e)
{
	int failed = cgctl_plan_failed(plan);
	bool rolled_back = cgctl_plan_rolled_back(plan);
	const char *file = NULL, *value = NULL;

	/* a kernel rule checked before any write: nothing was changed */
	if (r == -EINVAL && cgctl_plan_refused(plan) >= 0)
		return cli_usage(cli, "%s: %s", p->arg, e->msg[0] ? e->msg : cli_strerror(r));
	if (failed >= 0)
		cgctl_plan_step(plan, (size_t)failed, NULL, NULL, &file, &value, NULL, NULL);
	if (file && rolled_back && r == -EBUSY)
		return cli_error(cli, p->arg, r, "%s=%s: reclaim could not get usage below the "
				 "limit (EBUSY); %s", file, value, failed ?
				 "the previous setting was restored" : "nothing changed");
	if (file && rolled_back && r == -EINVAL &&
	    !strcmp(file, "memory.move_charge_at_immigrate"))
		return cli_error(cli, p->arg, -EOPNOTSUPP, "%s=%s: the kernel refused it "
				 "(EINVAL): it does not move charges", file, value);
	return cli_error(cli, p->arg, r, "%s", e->msg[0] ? e->msg : cli_strerror(r));
}

static const char *move_name(unsigned int bits)
{
	static const char *const names[] = { "none", "anon", "file", "anon,file" };

	return names[bits & 3];
}

/* The settings of @s under stable keys, the same on v1 and v2: null where this
 * hierarchy has no such file, and where the limit is unlimited. */
static void emit_settings(struct out *o, const char *key, const struct cgctl_mem_settings *s)
{
	static const struct {
		const char *key;
		unsigned int bit;
		size_t off;
	} lim[] = {
		{ "limit_bytes", CGCTL_MEMSET_MAX, offsetof(struct cgctl_mem_settings, max) },
		{ "memsw_limit_bytes", CGCTL_MEMSET_MEMSW,
		  offsetof(struct cgctl_mem_settings, memsw_max) },
		{ "soft_limit_bytes", CGCTL_MEMSET_SOFT, offsetof(struct cgctl_mem_settings, soft) },
		{ "high_bytes", CGCTL_MEMSET_HIGH, offsetof(struct cgctl_mem_settings, high) },
		{ "low_bytes", CGCTL_MEMSET_LOW, offsetof(struct cgctl_mem_settings, low) },
		{ "min_bytes", CGCTL_MEMSET_MIN, offsetof(struct cgctl_mem_settings, min) },
		{ "swap_max_bytes", CGCTL_MEMSET_SWAP,
		  offsetof(struct cgctl_mem_settings, swap_max) },
	};

	out_obj_begin(o, key);
	for (size_t i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		const uint64_t *v = (const uint64_t *)((const char *)s + lim[i].off);

		if (s->present & lim[i].bit)
			out_bytes(o, lim[i].key, *v);
		else
			out_null(o, lim[i].key);
	}
	out_str(o, "move_charge", s->present & CGCTL_MEMSET_MOVE ?
		move_name(s->move_charge) : NULL);
	if (s->present & CGCTL_MEMSET_OOMGROUP)
		out_bool(o, "oom_group", s->oom_group);
	else
		out_null(o, "oom_group");
	out_obj_end(o);
}

/* What was done: the writes in plan order (file, text written), the settings before
 * and after (read back: the kernel rounds limits to pages), and the usage. */
static void report(struct cli *cli, struct plan *p, const struct written *w)
{
	struct cgctl_mem_settings now;
	struct mem_counters after;
	struct out *o = cli->out;
	bool have_after = mem_read_counters(cli, p->m, p->path, &after) == 0;
	char shown[PATH_MAX];

	out_str(o, "path", cli_path_shown(cli, p->m, p->path, shown, sizeof(shown)));
	out_u64(o, "version", (uint64_t)p->m->version);
	out_list_begin(o, "written");
	for (size_t i = 0; i < w->n; i++) {
		out_obj_begin(o, NULL);
		out_str(o, "file", w->file[i]);
		cli_out_file_value(cli, w->file[i], "value", w->value[i]);
		out_str(o, "applied", w->applied[i]);
		out_obj_end(o);
	}
	out_list_end(o);
	emit_settings(o, "before", &p->old);
	if (cgctl_mem_settings_read(cli->ctx, p->m, p->path, &now) == 0)
		emit_settings(o, "after", &now);
	else
		out_null(o, "after");
	out_bytes(o, "usage_before_bytes", p->before.usage);
	if (have_after)
		out_bytes(o, "usage_after_bytes", after.usage);
	else
		out_null(o, "usage_after_bytes");
}

/* v2 knobs by their CGCTL_MEMSET_* bit, for the systemd backend */
static const struct {
	unsigned int bit;
	const char *file;
} v2_files[] = {
	{ CGCTL_MEMSET_MAX, "memory.max" },	{ CGCTL_MEMSET_HIGH, "memory.high" },
	{ CGCTL_MEMSET_LOW, "memory.low" },	{ CGCTL_MEMSET_MIN, "memory.min" },
	{ CGCTL_MEMSET_SWAP, "memory.swap.max" }, { CGCTL_MEMSET_OOMGROUP, "memory.oom.group" },
};
#define N_V2_FILES (sizeof(v2_files) / sizeof(v2_files[0]))

static uint64_t want_of(const struct cgctl_mem_settings *w, unsigned int bit)
{
	switch (bit) {
	case CGCTL_MEMSET_MAX:	return w->max;
	case CGCTL_MEMSET_HIGH:	return w->high;
	case CGCTL_MEMSET_LOW:	return w->low;
	case CGCTL_MEMSET_MIN:	return w->min;
	case CGCTL_MEMSET_SWAP:	return w->swap_max;
	default:		return w->oom_group;
	}
}

/* A unit's own cgroup on a systemd host: the checked knobs handed to systemd as one
 * list (lib/kernel/systemd-bus.c); memory.oom.group has no property and is written. */
static int via_systemd(struct cli *cli, struct plan *p, const struct sd_route *sr)
{
	struct cgctl_unit_knob k[N_V2_FILES];
	char value[N_V2_FILES][48];
	struct written w = { 0 };
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < N_V2_FILES; i++) {
		uint64_t v = want_of(&p->want, v2_files[i].bit);

		if (!(p->which & v2_files[i].bit))
			continue;
		if (v == UINT64_MAX)
			snprintf(value[n], sizeof(value[n]), "max");
		else
			snprintf(value[n], sizeof(value[n]), "%llu", (unsigned long long)v);
		k[n] = CGCTL_UNIT_KNOB(v2_files[i].file, value[n]);
		n++;
	}
	rc = sd_route_apply(cli, p->arg, p->m, sr, k, n);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		w.file[i] = k[i].file;
		w.value[i] = k[i].value;
		w.applied[i] = k[i].how;
	}
	w.n = n;
	out_str(cli->out, "unit", sr->unit.name);
	report(cli, p, &w);
	return EXIT_OK;
}

static int parse_args(struct cli *cli, int argc, const char **argv, const char **path)
{
	const char **av = calloc((size_t)argc + 2, sizeof(*av));
	const char **rest;
	struct poptOption *table;
	poptContext pc;
	int r, rc = EXIT_OK;

	if (!av)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	av[0] = "mem set";
	memcpy(av + 1, argv, (size_t)argc * sizeof(*av));
	table = cli_popt_table(options, 0);
	if (!table) {
		free(av);
		return cli_error(cli, NULL, -ENOMEM, NULL);
	}
	pc = poptGetContext("mem set", argc + 1, av, table, 0);
	while ((r = cli_popt_next(pc, table)) > 0)
		;
	if (r < -1)
		rc = cli_usage(cli, "%s: %s", poptBadOption(pc, 0), poptStrerror(r));
	rest = rc ? NULL : poptGetArgs(pc);
	if (!rc && (!rest || !rest[0] || rest[1]))
		rc = cli_usage(cli, "expected one PATH (usage: cgctl mem set PATH [--limit "
				 "SIZE] [--memsw-limit SIZE] [--soft-limit SIZE] [--move-charge "
				 "MODE])");
	if (!rc && !opt_limit && !opt_memsw && !opt_soft && !opt_move && !opt_high &&
	    !opt_low && !opt_min && !opt_swap && !opt_oomg)
		rc = cli_usage(cli, "nothing to set: give --limit, --memsw-limit, --soft-limit, "
				 "--move-charge, --high, --low, --min, --swap-max or "
				 "--oom-group");
	if (!rc)
		*path = strdup(rest[0]);
	poptFreeContext(pc);
	free(table);
	free(av);
	return rc;
}

static int locked(struct cli *cli, struct plan *pp);

static int run(struct cli *cli, int argc, const char **argv)
{
	struct plan p = { .arg = NULL };
	const char *path = NULL;
	int rc, r;

	rc = parse_args(cli, argc, argv, &path);
	if (!rc)
		rc = cli_kv(cli, NULL, 0);
	if (rc) {
		free((char *)path);
		return rc;
	}
	p.arg = path;
	rc = cli_resolve(cli, "memory", path, &p.m, p.path, sizeof(p.path));
	if (rc)
		goto out;
	r = cgctl_cg_exists(cli->ctx, p.m, p.path);
	if (r <= 0) {
		rc = cli_error(cli, path, r ? r : -ENOENT, r ? NULL : "no such cgroup");
		goto out;
	}
	/* the cgroup lock from the read the options complete to the end of the plan */
	r = cgctl_cgroup_lock(cli->ctx, p.m, p.path);
	if (r < 0) {
		rc = cli_error(cli, path, r, r == -ENOENT ? "no such cgroup" : NULL);
		goto out;
	}
	rc = locked(cli, &p);
	cgctl_cgroup_unlock(cli->ctx, p.m, p.path);
out:
	free((char *)path);
	return rc;
}

/* Under the cgroup lock: read, check, apply, report. */
static int locked(struct cli *cli, struct plan *pp)
{
	struct plan p = *pp;
	struct cgctl_plan *plan = NULL;
	struct written w = { 0 };
	struct cgctl_error e = CGCTL_ERROR_INIT;
	const char *path = p.arg;
	struct sd_route sr;
	int rc, r;

	r = mem_read_counters(cli, p.m, p.path, &p.before);
	if (r < 0)
		return cli_error(cli, path, r, "cannot read the memory counters: %s",
				 cli_strerror(r));
	r = cgctl_mem_settings_read(cli->ctx, p.m, p.path, &p.old);
	if (r < 0)
		return cli_error(cli, path, r, "cannot read the memory settings: %s",
				 cli_strerror(r));
	rc = parse_all(cli, &p);
	if (rc)
		return rc;
	say_below_usage(cli, &p);
	rc = sd_route(cli, path, p.m, p.path, &sr);
	if (rc)
		return rc;
	if (sr.via_systemd)
		return via_systemd(cli, &p, &sr);
	r = cgctl_plan_new(cli->ctx, &plan);
	if (r == 0)
		r = cgctl_plan_add_mem(plan, p.m, p.path, &p.want, p.which);
	if (r >= 0)
		r = cgctl_plan_apply(plan, &e);
	if (r < 0) {
		rc = apply_fail(cli, &p, plan, r, &e);
		cgctl_plan_free(plan);
		return rc;
	}
	cli->changed = true;
	while (w.n < MEM_WRITES_MAX &&
	       cgctl_plan_step(plan, w.n, NULL, NULL, &w.file[w.n], &w.value[w.n], NULL,
			       NULL) == 0)
		w.applied[w.n++] = "direct";
	report(cli, &p, &w);
	cgctl_plan_free(plan);
	return EXIT_OK;
}

const struct cgctl_cmd cmd_mem_set = {
	.name = "set",
	.args = "PATH [--limit SIZE] [--memsw-limit SIZE] [--soft-limit SIZE] "
		"[--move-charge MODE] [--high SIZE] [--low SIZE] [--min SIZE] "
		"[--swap-max SIZE] [--oom-group 0|1]",
	.summary = "set memory limits, protections and move-charge, all or nothing",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = -1,
};
