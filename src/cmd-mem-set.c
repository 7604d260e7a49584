/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl mem set PATH [--limit SIZE] [--memsw-limit SIZE] [--soft-limit SIZE]
 *                    [--move-charge none|anon|file|anon,file]
 * Everything is validated before the first write; the two v1 limits are written in the
 * order the kernel accepts (memory.limit <= memsw.limit at every step); a failed write
 * restores what was already written.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mem-util.h"

static const char *opt_limit, *opt_memsw, *opt_soft, *opt_move;

static const struct poptOption options[] = {
	{ "limit", '\0', POPT_ARG_STRING, &opt_limit, 0,
	  "memory limit (v1 memory.limit_in_bytes, v2 memory.max)", "SIZE" },
	{ "memsw-limit", '\0', POPT_ARG_STRING, &opt_memsw, 0,
	  "memory+swap limit (v1 memory.memsw.limit_in_bytes)", "SIZE" },
	{ "soft-limit", '\0', POPT_ARG_STRING, &opt_soft, 0,
	  "soft limit (v1 memory.soft_limit_in_bytes)", "SIZE" },
	{ "move-charge", '\0', POPT_ARG_STRING, &opt_move, 0,
	  "move_charge_at_immigrate (v1, 2.6.34 - 6.12)", "none|anon|file|anon,file" },
	POPT_TABLEEND
};

enum { W_SOFT, W_MEM, W_MEMSW, W_MOVE, W_N };

struct wr {
	bool set;
	const char *file;
	char value[32];
	char *old;
	uint64_t bytes;	/* limits: new value, UINT64_MAX = max */
};

struct plan {
	const struct cgctl_mount *m;
	char path[PATH_MAX];
	const char *arg;
	uint32_t kver;
	struct wr w[W_N];
	int order[W_N];
	struct mem_counters before;
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

static int parse_limit(struct cli *cli, struct plan *p, int k, const char *opt,
		       const char *s, const char *file)
{
	struct wr *w = &p->w[k];
	int rc = cli_parse_size(cli, opt, s, &w->bytes);

	if (rc)
		return rc;
	w->set = true;
	w->file = file;
	if (w->bytes == CGCTL_SIZE_MAX)
		snprintf(w->value, sizeof(w->value), p->m->version == 2 ? "max" : "-1");
	else
		snprintf(w->value, sizeof(w->value), "%llu", (unsigned long long)w->bytes);
	return EXIT_OK;
}

/* Refusals that depend on the hierarchy version and the kernel: exit 6, one line. */
static int check_support(struct cli *cli, struct plan *p, unsigned int move)
{
	char kv[32];

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
	if (move && p->kver >= CGCTL_KVER(6, 13, 0))
		return cli_error(cli, p->arg, -EOPNOTSUPP, "--move-charge: this kernel (%s) "
				 "no longer moves charges; removed in 6.13",
				 mem_kver_str(p->kver, kv, sizeof(kv)));
	if (move && p->kver && p->kver < CGCTL_KVER(2, 6, 34))
		return cli_error(cli, p->arg, -EOPNOTSUPP, "--move-charge: this kernel (%s) "
				 "predates move charge (2.6.34)",
				 mem_kver_str(p->kver, kv, sizeof(kv)));
	if ((move & 2) && p->kver && p->kver < CGCTL_KVER(2, 6, 35))
		return cli_error(cli, p->arg, -EOPNOTSUPP, "--move-charge: this kernel (%s) "
				 "moves anon charges only (file since 2.6.35)",
				 mem_kver_str(p->kver, kv, sizeof(kv)));
	if (opt_memsw && !p->before.present_memsw)
		return cli_error(cli, p->arg, -EOPNOTSUPP, "--memsw-limit: swap accounting is "
				 "off (no memory.memsw.limit_in_bytes)");
	return EXIT_OK;
}

/* Limits as the kernel stores them, for the memory <= memsw comparison. */
static uint64_t eff(const struct plan *p, int k, uint64_t current)
{
	if (!p->w[k].set)
		return current;
	if (p->w[k].bytes == CGCTL_SIZE_MAX)
		return UINT64_MAX;
	return cgctl_memcg_limit_pages(p->kver, p->w[k].bytes) * CGCTL_PAGE_SIZE;
}

/* memory must never exceed memsw: validate the end state, then pick the order whose
 * intermediate state is valid too (memory first iff new memory <= current memsw). */
static int plan_order(struct cli *cli, struct plan *p)
{
	uint64_t mem = eff(p, W_MEM, p->before.limit);
	uint64_t memsw = eff(p, W_MEMSW, p->before.memsw_limit);
	bool memsw_first = false;
	int n = 0;

	if (p->m->version == 1 && p->before.present_memsw && mem > memsw) {
		if (p->w[W_MEM].set && p->w[W_MEMSW].set)
			return cli_usage(cli, "--limit %s exceeds --memsw-limit %s (memory must "
					 "not exceed memory+swap)", opt_limit, opt_memsw);
		return cli_error(cli, p->arg, -EINVAL, "%s would exceed the %s "
				 "(memory must not exceed memory+swap); set both",
				 p->w[W_MEM].set ? "--limit" : "the memory limit",
				 p->w[W_MEM].set ? "memsw limit" : "--memsw-limit");
	}
	memsw_first = p->w[W_MEMSW].set && mem > p->before.memsw_limit;
	p->order[n++] = W_SOFT;
	p->order[n++] = memsw_first ? W_MEMSW : W_MEM;
	p->order[n++] = memsw_first ? W_MEM : W_MEMSW;
	p->order[n++] = W_MOVE;
	return EXIT_OK;
}

static int parse_all(struct cli *cli, struct plan *p)
{
	unsigned int move = 0;
	const char *limf = p->m->version == 2 ? "memory.max" : "memory.limit_in_bytes";
	int rc = EXIT_OK;

	if (opt_limit)
		rc = parse_limit(cli, p, W_MEM, "limit", opt_limit, limf);
	if (!rc && opt_memsw)
		rc = parse_limit(cli, p, W_MEMSW, "memsw-limit", opt_memsw,
				 "memory.memsw.limit_in_bytes");
	if (!rc && opt_soft)
		rc = parse_limit(cli, p, W_SOFT, "soft-limit", opt_soft,
				 "memory.soft_limit_in_bytes");
	if (!rc && opt_move)
		rc = parse_move(cli, opt_move, &move);
	if (rc)
		return rc;
	if (opt_move && p->m->version == 1) {
		p->w[W_MOVE] = (struct wr){ .set = true, .file = "memory.move_charge_at_immigrate" };
		snprintf(p->w[W_MOVE].value, sizeof(p->w[W_MOVE].value), "%u", move);
	}
	rc = check_support(cli, p, move);
	if (!rc && !strcmp(p->path, "/") && (opt_limit || opt_memsw || opt_soft))
		rc = cli_error(cli, p->arg, -EOPNOTSUPP, "the root memory cgroup has no limits");
	return rc ? rc : plan_order(cli, p);
}

static void say_below_usage(struct cli *cli, const struct plan *p)
{
	uint64_t lim = p->w[W_MEM].bytes;
	char u[32], l[32];

	if (!p->w[W_MEM].set || lim == CGCTL_SIZE_MAX || lim >= p->before.usage)
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

static char *read_old(struct cli *cli, const struct plan *p, const char *file)
{
	char *buf = NULL;
	size_t len;

	if (cgctl_cg_read(cli->ctx, p->m, p->path, file, &buf, &len) < 0)
		return NULL;
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return buf;
}

static void restore(struct cli *cli, struct plan *p, int upto)
{
	for (int i = upto - 1; i >= 0; i--) {
		struct wr *w = &p->w[p->order[i]];
		int r;

		if (!w->set || !w->old)
			continue;
		/* the kernel prints unlimited as a number it does not accept back on v1 */
		r = cgctl_cg_write(cli->ctx, p->m, p->path, w->file,
				   strlen(w->old) >= 19 && p->m->version == 1 ? "-1" : w->old);
		if (r < 0)
			cli_error(cli, p->arg, r, "%s: could not restore '%s': %s", w->file,
				  w->old, cli_strerror(r));
	}
}

static int write_fail(struct cli *cli, struct plan *p, const struct wr *w, int r)
{
	if (r == -EBUSY)
		return cli_error(cli, p->arg, r, "%s=%s: reclaim could not get usage below the "
				 "limit (EBUSY); nothing changed", w->file, w->value);
	if (r == -EINVAL && !strcmp(w->file, "memory.move_charge_at_immigrate"))
		return cli_error(cli, p->arg, -EOPNOTSUPP, "%s=%s: the kernel refused it "
				 "(EINVAL): it does not move charges", w->file, w->value);
	return cli_error(cli, p->arg, r, "%s=%s: %s", w->file, w->value,
			 r == -EINVAL ? "the kernel refused the value (invalid argument)"
				      : cli_strerror(r));
}

static int apply(struct cli *cli, struct plan *p)
{
	for (int i = 0; i < W_N; i++) {
		struct wr *w = &p->w[p->order[i]];

		if (w->set)
			w->old = read_old(cli, p, w->file);
	}
	for (int i = 0; i < W_N; i++) {
		struct wr *w = &p->w[p->order[i]];
		int r;

		if (!w->set)
			continue;
		r = cgctl_cg_write(cli->ctx, p->m, p->path, w->file, w->value);
		if (r < 0) {
			int rc = write_fail(cli, p, w, r);

			restore(cli, p, i);
			return rc;
		}
	}
	return EXIT_OK;
}

static void report(struct cli *cli, struct plan *p)
{
	struct mem_counters after;

	out_str(cli->out, "path", p->path);
	for (int i = 0; i < W_N; i++) {
		struct wr *w = &p->w[p->order[i]];

		if (w->set)
			out_str(cli->out, w->file, w->value);
	}
	if (mem_read_counters(cli, p->m, p->path, &after) == 0) {
		out_bytes(cli->out, "usage_before_bytes", p->before.usage);
		out_bytes(cli->out, "usage_after_bytes", after.usage);
	}
}

static int parse_args(struct cli *cli, int argc, const char **argv, const char **path)
{
	const char **av = calloc((size_t)argc + 2, sizeof(*av));
	const char **rest;
	poptContext pc;
	int r, rc = EXIT_OK;

	if (!av)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	av[0] = "mem set";
	memcpy(av + 1, argv, (size_t)argc * sizeof(*av));
	pc = poptGetContext("mem set", argc + 1, av, options, 0);
	while ((r = poptGetNextOpt(pc)) > 0)
		;
	if (r < -1)
		rc = cli_usage(cli, "%s: %s", poptBadOption(pc, 0), poptStrerror(r));
	rest = rc ? NULL : poptGetArgs(pc);
	if (!rc && (!rest || !rest[0] || rest[1]))
		rc = cli_usage(cli, "expected one PATH (usage: cgctl mem set PATH [--limit "
				 "SIZE] [--memsw-limit SIZE] [--soft-limit SIZE] [--move-charge "
				 "MODE])");
	if (!rc && !opt_limit && !opt_memsw && !opt_soft && !opt_move)
		rc = cli_usage(cli, "nothing to set: give --limit, --memsw-limit, --soft-limit "
				 "or --move-charge");
	if (!rc)
		*path = strdup(rest[0]);
	poptFreeContext(pc);
	free(av);
	return rc;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	struct plan p = { .arg = NULL };
	const char *path = NULL;
	int rc, r;

	rc = parse_args(cli, argc, argv, &path);
	if (rc)
		return rc;
	p.arg = path;
	rc = cli_resolve(cli, "memory", path, &p.m, p.path, sizeof(p.path));
	if (rc)
		goto out;
	r = cgctl_cg_exists(cli->ctx, p.m, p.path);
	if (r <= 0) {
		rc = cli_error(cli, path, r ? r : -ENOENT, r ? NULL : "no such cgroup");
		goto out;
	}
	r = mem_read_counters(cli, p.m, p.path, &p.before);
	if (r < 0) {
		rc = cli_error(cli, path, r, "cannot read the memory counters: %s",
			       cli_strerror(r));
		goto out;
	}
	p.kver = mem_kver(cli);
	rc = parse_all(cli, &p);
	if (rc)
		goto out;
	say_below_usage(cli, &p);
	rc = apply(cli, &p);
	if (!rc)
		report(cli, &p);
out:
	for (int i = 0; i < W_N; i++)
		free(p.w[i].old);
	free((char *)path);
	return rc;
}

const struct cgctl_cmd cmd_mem_set = {
	.name = "set",
	.args = "PATH [--limit SIZE] [--memsw-limit SIZE] [--soft-limit SIZE] "
		"[--move-charge MODE]",
	.summary = "set memory limits and move-charge, all or nothing",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = -1,
};
