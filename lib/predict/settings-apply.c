// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The typed items of a plan (cgctl_plan_add_bw(), cgctl_plan_add_mem(); `bw set` and
 * `mem set`) as steps of the one executor (lib/predict/plan.c): read the current state
 * under the cgroup lock, check the end state against the kernel's rules (the tree for
 * bandwidth; memory <= memsw and the kernel's era for memory), order the writes.  What
 * a SIGKILL can leave is one write of the plan (cgctl-bw(1), cgctl-mem(1)).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "kernel/knobs.h"
#include "predict/plan.h"
#include "predict/settings-internal.h"

/* ---- CFS bandwidth ---- */

static int bw_check_burst(const struct cgctl_cpu_settings *old,
			  const struct cgctl_bw_settings *want, int version,
			  struct cgctl_error *e)
{
	uint32_t since = cgctl_bw_era_since(CGCTL_BW_FEAT_BURST);

	if (want->burst_us == old->bw.burst_us || (old->present & CGCTL_CPUSET_BURST))
		return 0;
	return cgctl_error_set(e, EOPNOTSUPP, "this kernel has no burst (%s; %u.%u+)",
			       version == 2 ? "cpu.max.burst" : "cpu.cfs_burst_us",
			       CGCTL_KVER_MAJOR(since), CGCTL_KVER_MINOR(since));
}

/* The old text of @file before the next step: its last planned value, else as read. */
static int bw_old(struct plan *p, const struct cgctl_mount *m, const char *path,
		  const char *file, char *buf, size_t len, struct cgctl_error *e)
{
	char eb[96];
	int r;

	for (int k = p->n - 1; k >= 0; k--)
		if (p->s[k].m == m && !strcmp(p->s[k].path, path) &&
		    !strcmp(p->s[k].file, file)) {
			snprintf(buf, len, "%s", p->s[k].value);
			return 0;
		}
	r = plan_read_old(p->ctx, m, path, file, buf, len);
	if (r < 0)
		return cgctl_error_set(e, -r, "%s/%s: cannot read the old value: %s", path, file,
				       strerror_r(-r, eb, sizeof(eb)));
	return 0;
}

int predict_bw_steps(struct plan *p, const struct cgctl_mount *m, const char *path,
		     const struct cgctl_bw_settings *old, const struct cgctl_bw_settings *want,
		     size_t item, struct cgctl_error *e)
{
	struct cgctl_bw_write w[CGCTL_BW_PLAN_MAX];
	struct cgctl_bw_tree t;
	int n, r;

	r = predict_bw_tree(p->ctx, m, path, &t, e);
	if (r < 0)
		return r;
	t.nodes[t.target].bw = *old;
	n = cgctl_bw_write_plan(old, want, m->version, t.nodes, t.n, t.target, w, e);
	cgctl_bw_tree_free(&t);
	for (int k = 0; k < n; k++) {
		char ob[PLAN_OLD_MAX];
		struct plan_step *s;

		r = bw_old(p, m, path, w[k].name, ob, sizeof(ob), e);
		if (r < 0)
			return r;
		s = plan_add(p, m, path, w[k].name, NULL, ob, item);
		if (!s)
			return cgctl_error_set(e, E2BIG, "too many writes in one plan");
		snprintf(s->buf, sizeof(s->buf), "%s", w[k].value);
		/* an unlimited quota in between that no order of writes avoids */
		if (w[k].after.quota_us == CGCTL_BW_INF && want->quota_us != CGCTL_BW_INF)
			s->flags |= CGCTL_PLAN_STEP_DETOUR;
	}
	return n;
}

int predict_bw_plan(struct plan *p, const struct cgctl_mount *m, const char *path,
		    const struct cgctl_bw_settings *want, size_t item, struct cgctl_error *e)
{
	struct cgctl_cpu_settings old;
	int r = cgctl_cpu_settings_read(p->ctx, m, path, &old);

	if (r == -ENOENT)
		return cgctl_error_set(e, ENOENT, "no such cgroup");
	if (r < 0)
		return cgctl_error_set(e, -r, "cannot read the bandwidth setting");
	r = bw_check_burst(&old, want, m->version, e);
	if (r < 0)
		return r;
	return predict_bw_steps(p, m, path, &old.bw, want, item, e);
}

/* ---- memory ---- */

static const unsigned int limit_bits[] = {
	CGCTL_MEMSET_MAX, CGCTL_MEMSET_MEMSW, CGCTL_MEMSET_SOFT, CGCTL_MEMSET_HIGH,
	CGCTL_MEMSET_LOW, CGCTL_MEMSET_MIN, CGCTL_MEMSET_SWAP,
};
/* ... then the modes. */
static const unsigned int mode_bits[] = { CGCTL_MEMSET_OOMGROUP, CGCTL_MEMSET_MOVE };

static uint64_t mode_of(const struct cgctl_mem_settings *s, unsigned int bit)
{
	return bit == CGCTL_MEMSET_MOVE ? s->move_charge : s->oom_group;
}

/* The pages the running kernel keeps of @bytes (cgctl_memcg_limit_pages()). */
static uint64_t pages(uint32_t kver, uint64_t bytes)
{
	return cgctl_memcg_limit_pages(knob_kver(kver), bytes);
}

struct mem_plan {
	struct plan *p;
	struct cgctl_mem_settings old;
	const struct cgctl_mem_settings *want;
	const struct cgctl_mount *m;
	const char *path;
	uint32_t kver;
	size_t item;
};

static int add(struct mem_plan *mp, unsigned int bit, const char *value, const char *old)
{
	const char *file = knob_file(knob_by_memset(bit, mp->m->version), mp->m->version);
	struct plan_step *s;
	char ob[PLAN_OLD_MAX];

	/* the old value byte for byte as read (a v1 limit of PAGE_COUNTER_MAX pages goes
	 * back as those digits, not as "-1"), else as formatted */
	if (plan_read_old(mp->p->ctx, mp->m, mp->path, file, ob, sizeof(ob)) < 0 || !*ob)
		snprintf(ob, sizeof(ob), "%s", old);
	s = plan_add(mp->p, mp->m, mp->path, file, NULL, ob, mp->item);
	if (!s)
		return -E2BIG;
	snprintf(s->buf, sizeof(s->buf), "%s", value);
	return 0;
}

/* Old values are written back as the kernel printed them; only "unlimited" is written
 * as the table's token (the res_counter era printed U64_MAX, which it did not take). */
static void format_bytes(char *buf, size_t len, uint64_t v, const struct knob *k, int version)
{
	if (v == UINT64_MAX)
		snprintf(buf, len, "%s", k->unlimited[version - 1]);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/* Limits going down (@down, tighter first) or up (memsw before memory), by the ranks
 * of the knob table: memory <= memsw at every step. */
static int plan_limits(struct mem_plan *mp, unsigned int which, bool down)
{
	const struct cgctl_mem_settings *old = &mp->old;
	int v = mp->m->version;

	for (int rank = 0; rank < 8; rank++)
		for (size_t i = 0; i < ARRAY_SIZE(limit_bits); i++) {
			const struct knob *k = knob_by_memset(limit_bits[i], v);
			struct cgctl_mem_settings o = *old, w = *mp->want;
			uint64_t ov, nv;
			char vs[48], os[48];

			if (!(which & limit_bits[i]) || !k || (down ? k->down : k->up) != rank)
				continue;
			ov = *predict_mem_field(&o, limit_bits[i]);
			nv = *predict_mem_field(&w, limit_bits[i]);
			if (pages(mp->kver, nv) == pages(mp->kver, ov) ||
			    (pages(mp->kver, nv) < pages(mp->kver, ov)) != down)
				continue;
			format_bytes(vs, sizeof(vs), nv, k, v);
			format_bytes(os, sizeof(os), ov, k, v);
			if (add(mp, limit_bits[i], vs, os) < 0)
				return -E2BIG;
		}
	return 0;
}

static int plan_modes(struct mem_plan *mp, unsigned int which)
{
	for (size_t i = 0; i < ARRAY_SIZE(mode_bits); i++) {
		unsigned int b = mode_bits[i];
		char v[48], o[48];

		if (!(which & b) || mode_of(mp->want, b) == mode_of(&mp->old, b))
			continue;
		snprintf(v, sizeof(v), "%" PRIu64, mode_of(mp->want, b));
		snprintf(o, sizeof(o), "%" PRIu64, mode_of(&mp->old, b));
		if (add(mp, b, v, o) < 0)
			return -E2BIG;
	}
	return 0;
}

/* The kernel era's rule for move_charge_at_immigrate (cgctl_memcg_era_get()). */
static int mem_check_era(uint32_t kver, unsigned int move, struct cgctl_error *e)
{
	struct cgctl_memcg_era era = { .size = sizeof(era) };

	if (!kver || cgctl_memcg_era_get(kver, &era) < 0)
		return 0;
	if (!era.move_bits && move)
		return cgctl_error_set(e, EOPNOTSUPP, "memory.move_charge_at_immigrate: %s "
				       "(kernel %u.%u)", era.move_none, CGCTL_KVER_MAJOR(kver),
				       CGCTL_KVER_MINOR(kver));
	if (move & ~era.move_bits)
		return cgctl_error_set(e, EOPNOTSUPP, "memory.move_charge_at_immigrate: this "
				       "kernel (%u.%u) moves anon charges only (file since "
				       "2.6.35)", CGCTL_KVER_MAJOR(kver), CGCTL_KVER_MINOR(kver));
	return 0;
}

/* Every knob asked for exists here and the end state obeys the kernel's rules. */
int predict_mem_check(const struct cgctl_mem_settings *old,
		      const struct cgctl_mem_settings *want, unsigned int which, int version,
		      uint32_t kver, struct cgctl_error *e)
{
	static const unsigned int all[] = {
		CGCTL_MEMSET_MAX, CGCTL_MEMSET_MEMSW, CGCTL_MEMSET_SOFT, CGCTL_MEMSET_MOVE,
		CGCTL_MEMSET_HIGH, CGCTL_MEMSET_LOW, CGCTL_MEMSET_MIN, CGCTL_MEMSET_SWAP,
		CGCTL_MEMSET_OOMGROUP,
	};
	unsigned int known = 0;
	uint64_t mem, memsw;
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		known |= all[i];
	if (which & ~known)
		return cgctl_error_set(e, EINVAL, "unknown memory setting");
	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		const char *f = knob_file(knob_by_memset(all[i], version), version);

		if (!(which & all[i]))
			continue;
		if (!f)
			return cgctl_error_set(e, EOPNOTSUPP, "%s: not on cgroup v%d",
					       knob_file(knob_by_memset(all[i], 3 - version),
							 3 - version), version);
		if (!(old->present & all[i]))
			return cgctl_error_set(e, EOPNOTSUPP, "this cgroup has no %s", f);
	}
	if ((which & CGCTL_MEMSET_MOVE) && want->move_charge > 3)
		return cgctl_error_set(e, EINVAL, "move_charge_at_immigrate takes 0..3");
	if (which & CGCTL_MEMSET_MOVE) {
		r = mem_check_era(kver, want->move_charge, e);
		if (r < 0)
			return r;
	}
	mem = which & CGCTL_MEMSET_MAX ? want->max : old->max;
	memsw = which & CGCTL_MEMSET_MEMSW ? want->memsw_max : old->memsw_max;
	if (version == 1 && (old->present & CGCTL_MEMSET_MEMSW) &&
	    !knob_memsw_ok(kver, mem, memsw))
		return cgctl_error_set(e, EINVAL, "memory.limit_in_bytes would exceed "
				       "memory.memsw.limit_in_bytes (memory must not exceed "
				       "memory+swap)");
	return 0;
}

int predict_mem_plan(struct plan *p, const struct cgctl_mount *m, const char *path,
		     const struct cgctl_mem_settings *want, unsigned int which, size_t item,
		     struct cgctl_error *e)
{
	struct mem_plan mp = { .p = p, .want = want, .m = m, .path = path, .item = item };
	int n0 = p->n, r;

	mp.kver = cgctl_kver_of(p->ctx);
	r = cgctl_mem_settings_read(p->ctx, m, path, &mp.old);
	if (r == -ENOENT)
		return cgctl_error_set(e, ENOENT, "no such cgroup");
	if (r < 0)
		return cgctl_error_set(e, -r, "cannot read the memory settings");
	r = predict_mem_check(&mp.old, want, which, m->version, mp.kver, e);
	if (r < 0)
		return r;
	if (plan_limits(&mp, which, true) < 0 || plan_limits(&mp, which, false) < 0 ||
	    plan_modes(&mp, which) < 0)
		return cgctl_error_set(e, E2BIG, "too many writes in one plan");
	return p->n - n0;
}
