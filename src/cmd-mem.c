/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl mem show PATH: counters, stat, the truly charged interval, move-charge state. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mem-util.h"
#include "pressure.h"

extern const struct cgctl_cmd cmd_mem_set, cmd_mem_where __attribute__((weak));
extern const struct cgctl_cmd cmd_mem_predict __attribute__((weak));	/* memhigh */

/* JSON and TSV keep a key the hierarchy lacks, null (the same keys on v1 and v2); the
 * human form leaves it out. */
static bool keep_keys(const struct cli *cli)
{
	return cli->fmt != OUT_HUMAN;
}

static void emit_limit(struct out *o, const char *key, uint64_t v)
{
	out_bytes(o, key, v);	/* UINT64_MAX prints as max / null */
}

/* Whether memory.stat's @key counts events, not bytes: v1's pgpgin/pgfault and
 * workingset_* (mm/memcontrol-v1.c memcg1_stat_format(), v6.12), v2's event entries
 * after the byte sizes of memory_stats[] (mm/memcontrol.c memcg_stat_format(), v6.12):
 * pg*, workingset_*, thp_*, pswp*, zswpin/zswpout/zswpwb, numa_*, swpin_zero/swpout_zero.
 * Every other key is a size in bytes. */
static bool stat_is_count(const char *key)
{
	static const char *const prefix[] = { "pg", "workingset_", "thp_", "pswp", "zswpin",
					      "zswpout", "zswpwb", "numa_", "swpin_", "swpout_" };

	if (!strncmp(key, "total_", 6))
		key += 6;	/* v1's hierarchical sums */
	for (size_t i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(key, prefix[i], strlen(prefix[i])))
			return true;
	return false;
}

/* Print memory.stat (or any flat keyed file) as an object of numbers, sizes as bytes
 * (human: converted like usage); v1's hierarchical_*_limit print unlimited as
 * PAGE_COUNTER_MAX pages: null (max). */
static int emit_kv(const struct cgctl_kv *kv, void *data)
{
	struct out *o = data;

	if (cli_unlimited_text(NULL, kv->value))
		out_bytes(o, kv->key, UINT64_MAX);
	else if (kv->has_u && !stat_is_count(kv->key))
		out_bytes(o, kv->key, kv->u);
	else if (kv->has_u)
		out_u64(o, kv->key, kv->u);
	else
		out_str(o, kv->key, kv->value);
	return 0;
}

static void emit_keyed(struct cli *cli, const struct cgctl_mount *m, const char *path,
		       const char *file, const char *key)
{
	char *buf = NULL;
	size_t len;

	if (cgctl_cg_read(cli->ctx, m, path, file, &buf, &len) < 0) {
		if (keep_keys(cli))
			out_null(cli->out, key);
		return;
	}
	out_obj_begin(cli->out, key);
	cgctl_parse_keyed(buf, len, emit_kv, cli->out);
	out_obj_end(cli->out);
	free(buf);
}

/* The interval of truly charged bytes: usage minus the most the per-cpu stock of the
 * subtree can hold (kernel-memory-model.md 2.5).  The root's usage is a statistic. */
static void emit_interval(struct cli *cli, uint32_t kver, const char *path,
			  const struct cgctl_mount *m, uint64_t usage)
{
	unsigned int ncpu = mem_ncpu(cli), nsub = 0;
	uint64_t lo, hi;

	out_obj_begin(cli->out, "charged");
	/* the subtree is walked only where its size is printed: not for the root (every
	 * cgroup of the hierarchy) */
	if (kver && strcmp(path, "/"))
		nsub = cgctl_mem_subtree_size(cli->ctx, m, path);
	if (!nsub ||
	    cgctl_memcg_usage_interval(kver, ncpu, nsub, usage / CGCTL_PAGE_SIZE, &lo, &hi) < 0) {
		out_null(cli->out, "min_bytes");
		out_null(cli->out, "max_bytes");
		if (keep_keys(cli)) {
			out_null(cli->out, "stock_bound_bytes");
			out_null(cli->out, "online_cpus");
			out_null(cli->out, "subtree_cgroups");
		}
		out_str(cli->out, "note", usage == UINT64_MAX ? "the v2 root has no usage" :
			!strcmp(path, "/") ? "the root's usage is a statistic, not a counter" :
			"unknown kernel");
	} else {
		out_bytes(cli->out, "min_bytes", lo * CGCTL_PAGE_SIZE + usage % CGCTL_PAGE_SIZE);
		out_bytes(cli->out, "max_bytes", usage);
		out_bytes(cli->out, "stock_bound_bytes",
			  cgctl_memcg_stock_max_pages(kver, ncpu, nsub) * CGCTL_PAGE_SIZE);
		out_u64(cli->out, "online_cpus", ncpu);
		out_u64(cli->out, "subtree_cgroups", nsub);
		if (keep_keys(cli))
			out_null(cli->out, "note");
	}
	out_obj_end(cli->out);
}

/* What the era table says of move_charge_at_immigrate on this kernel. */
static void emit_move(struct cli *cli, uint32_t kver, const struct cgctl_mount *m,
		      uint64_t val)
{
	struct cgctl_memcg_era era = { .size = sizeof(era) };
	bool known = kver && cgctl_memcg_era_get(kver, &era) == 0;
	bool honoured = m->version == 1 && val != UINT64_MAX && (val & era.move_bits);

	out_obj_begin(cli->out, "move_charge");
	if (val == UINT64_MAX)
		out_null(cli->out, "value");
	else
		out_u64(cli->out, "value", val);
	out_bool(cli->out, "honoured", honoured);
	if (m->version == 2)
		out_str(cli->out, "note", "cgroup v2 never moves charges");
	else if (!known)
		out_str(cli->out, "note", "unknown kernel");
	else if (era.move_none)
		out_str(cli->out, "note", era.move_none);
	else if (keep_keys(cli))
		out_null(cli->out, "note");
	out_obj_end(cli->out);
}

static void emit_counters(struct cli *cli, const struct mem_counters *c, int version)
{
	struct out *o = cli->out;
	bool keep = keep_keys(cli);

	/* the v2 root has neither memory.current nor memory.max: "-" / null */
	if (c->has_usage)
		out_bytes(o, "usage_bytes", c->usage);
	else
		out_null(o, "usage_bytes");
	if (c->has_limit)
		emit_limit(o, "limit_bytes", c->limit);
	else
		out_null(o, "limit_bytes");
	if (c->max_usage != UINT64_MAX)
		out_bytes(o, "max_usage_bytes", c->max_usage);
	else if (keep)
		out_null(o, "max_usage_bytes");
	if (version == 1) {
		out_u64(o, "failcnt", c->failcnt);
		emit_limit(o, "soft_limit_bytes", c->soft_limit);
	} else if (keep) {
		out_null(o, "failcnt");
		out_null(o, "soft_limit_bytes");
	}
	/* v1 counts memory+swap, v2 swap alone: the other object is null */
	if (keep)
		out_null(o, version == 1 ? "swap" : "memsw");
	if (!c->has_memsw) {
		if (keep)
			out_null(o, version == 1 ? "memsw" : "swap");
		return;
	}
	out_obj_begin(o, version == 1 ? "memsw" : "swap");
	out_bytes(o, "usage_bytes", c->memsw_usage);
	emit_limit(o, "limit_bytes", c->memsw_limit);
	if (version == 1) {
		out_u64(o, "failcnt", c->memsw_failcnt);
		out_bytes(o, "max_usage_bytes", c->memsw_max_usage);
	}
	out_obj_end(o);
}

/* v2: memory.events (the subtree), memory.events.local (the group alone, 5.2+) and
 * memory.pressure (PSI); each null where the kernel has no such file. */
static void emit_v2_signals(struct cli *cli, const char *path)
{
	struct cgctl_cgroup_stat *st = NULL;
	struct cgctl_cgroup *cg;

	if (cgctl_cgroup_new(cli->ctx, "memory", path, &cg) == 0) {
		if (cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_EVENTS | CGCTL_CGSTAT_PSI, &st) < 0)
			st = NULL;	/* gone meanwhile: null, as a file it lacks */
		cgctl_cgroup_unref(cg);
	}
	emit_mem_events_stat(cli->out, "events", st, "memory.events.");
	emit_mem_events_stat(cli->out, "events_local", st, "memory.events.local.");
	emit_psi_stat(cli->out, "pressure", st, "memory.pressure.");
	cgctl_cgroup_stat_free(st);
}

static int show(struct cli *cli, int argc, const char **argv)
{
	const struct cgctl_mount *m;
	struct mem_counters c;
	char norm[PATH_MAX], shown[PATH_MAX], kvs[32];
	uint32_t kver;
	int rc, r;

	rc = cli_kv(cli, NULL, 0);
	if (!rc)
		rc = cli_resolve(cli, "memory", argv[0], &m, norm, sizeof(norm));
	if (rc)
		return rc;
	r = cgctl_cg_exists(cli->ctx, m, norm);
	if (r <= 0)
		return cli_error(cli, argv[0], r ? r : -ENOENT, r ? NULL : "no such cgroup");
	r = mem_read_counters(cli, m, norm, &c);
	if (r < 0)
		return cli_error(cli, argv[0], r, "cannot read the memory counters: %s",
				 cli_strerror(r));
	kver = mem_kver(cli);
	out_str(cli->out, "path", cli_path_shown(cli, m, norm, shown, sizeof(shown)));
	out_u64(cli->out, "version", (uint64_t)m->version);
	out_str(cli->out, "kernel", kver ? mem_kver_str(kver, kvs, sizeof(kvs)) : NULL);
	emit_counters(cli, &c, m->version);
	emit_interval(cli, kver, norm, m, c.usage);
	if (m->version == 1)
		emit_move(cli, kver, m, c.move_charge);
	else
		emit_move(cli, kver, m, UINT64_MAX);
	cgctl_mem_stat_flush(cli->ctx, m, norm);	/* a new group's stat may lag */
	emit_keyed(cli, m, norm, "memory.stat", "stat");
	if (m->version == 2) {
		emit_v2_signals(cli, norm);
	} else if (keep_keys(cli)) {
		out_null(cli->out, "events");
		out_null(cli->out, "events_local");
		out_null(cli->out, "pressure");
	}
	(void)argc;
	return EXIT_OK;
}

static const struct poptOption show_options[] = {
	CLI_KV_OPTIONS,
	POPT_TABLEEND
};

const struct cgctl_cmd cmd_mem_show = {
	.name = "show",
	.options = show_options,
	.args = "PATH",
	.summary = "memory counters, stat, truly charged interval, move-charge state",
	.run = show,
	.min_args = 1,
	.max_args = 1,
};

static const struct cgctl_cmd *const verbs[] = { &cmd_mem_set, &cmd_mem_show,
						 &cmd_mem_where, &cmd_mem_predict };

const struct cgctl_cmd cmd_mem = {
	.name = "mem",
	.summary = "memory cgroup limits, counters and page whereabouts",
	.verbs = verbs,
	.n_verbs = sizeof(verbs) / sizeof(verbs[0]),
};
