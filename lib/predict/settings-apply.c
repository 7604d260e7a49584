/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Applying settings: the one executor of the ordered write plans of `bw set`, `mem set`
 * and validate.  A plan of several writes runs with SIGINT, SIGTERM, SIGHUP and SIGQUIT
 * blocked, so a signal never leaves it half done (or on the quota -1 detour): it is
 * delivered after the plan finished or was rolled back.  SIGKILL cannot be blocked; what
 * it can leave is one write of the plan (cgctl-bw(1), cgctl-mem(1)).  A failed write is
 * undone with a plan built with the same knowledge as the forward one (the whole tree
 * for bandwidth), and if the undo fails too the error names what every file holds.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "predict/settings-internal.h"

/* ---- writing, signals, messages ---- */

struct exec {
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *m;
	const char *path;
	const struct predict_writer *wr;
	sigset_t saved;
	bool blocked;
};

static int do_write(struct exec *x, const char *file, const char *value)
{
	if (x->wr && x->wr->write)
		return x->wr->write(x->wr->arg, x->ctx, x->m, x->path, file, value);
	return cgctl_cg_write(x->ctx, x->m, x->path, file, value);
}

static void guard(struct exec *x, int nwrites)
{
	sigset_t set;

	if (nwrites < 2)
		return;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	x->blocked = pthread_sigmask(SIG_BLOCK, &set, &x->saved) == 0;
}

static void unguard(struct exec *x)
{
	if (x->blocked)
		pthread_sigmask(SIG_SETMASK, &x->saved, NULL);
	x->blocked = false;
}

/* strerror() into the caller's buffer: two errors in one message stay two. */
static const char *errstr(int err, char *buf, size_t len)
{
	return strerror_r(err < 0 ? -err : err, buf, len);
}

/* Append "FILE=VALUE" of what @files hold now to @out. */
static void holdings(struct exec *x, const char *const *files, size_t n, char *out,
		     size_t len)
{
	size_t used = strlen(out);

	for (size_t i = 0; i < n && used < len; i++) {
		char *buf = NULL;
		size_t bl;

		if (cgctl_cg_read(x->ctx, x->m, x->path, files[i], &buf, &bl) < 0) {
			used += (size_t)snprintf(out + used, len - used, "%s%s=(unreadable)",
						 i ? " " : "", files[i]);
			continue;
		}
		while (bl && (buf[bl - 1] == '\n' || buf[bl - 1] == ' '))
			buf[--bl] = '\0';
		used += (size_t)snprintf(out + used, len - used, "%s%s=%s", i ? " " : "",
					 files[i], buf);
		free(buf);
	}
}

bool predict_unchanged(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		       const char *file, const char *old)
{
	char *buf = NULL;
	size_t bl, ol = strlen(old);
	bool same;

	if (cgctl_cg_read(ctx, m, path, file, &buf, &bl) < 0)
		return false;
	while (bl && (buf[bl - 1] == '\n' || buf[bl - 1] == ' '))
		bl--;
	while (ol && (old[ol - 1] == '\n' || old[ol - 1] == ' '))
		ol--;
	same = bl == ol && memcmp(buf, old, bl) == 0;
	free(buf);
	return same;
}

/* ---- CFS bandwidth ---- */

static int bw_files(int version, const char **f)
{
	if (version == 2) {
		f[0] = "cpu.max";
		f[1] = "cpu.max.burst";
		return 2;
	}
	f[0] = "cpu.cfs_quota_us";
	f[1] = "cpu.cfs_period_us";
	f[2] = "cpu.cfs_burst_us";
	return 3;
}

/* Undo: from @cur back to @old, planned against the same tree.  Returns: 0, -errno with
 * the step in @e. */
static int bw_undo(struct exec *x, struct cgctl_bw_tree *t, const struct cgctl_bw_settings *cur,
		   const struct cgctl_bw_settings *old, struct cgctl_error *e)
{
	struct cgctl_bw_write w[CGCTL_BW_PLAN_MAX];
	int n, r;

	t->nodes[t->target].bw = *cur;
	n = cgctl_bw_write_plan(cur, old, x->m->version, t->nodes, t->n, t->target, w, e);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		r = do_write(x, w[i].name, w[i].value);
		if (r < 0) {
			char eb[96];

			return cgctl_error_set(e, -r, "%s=%s: %s", w[i].name, w[i].value,
					       errstr(r, eb, sizeof(eb)));
		}
		t->nodes[t->target].bw = w[i].after;
	}
	return 0;
}

static int bw_failed(struct exec *x, struct cgctl_bw_tree *t, struct cgctl_bw_applied *res,
		     int i, int r, struct cgctl_error *e)
{
	const struct cgctl_bw_write *w = res->w;
	struct cgctl_error ue = { 0 };
	const char *files[3];
	char eb[96], msg[512];
	int rr;

	struct cgctl_cpu_settings now;
	struct cgctl_bw_settings cur = i ? w[i - 1].after : res->old.bw;
	bool taken;

	res->failed = i;
	/* the failed write may have been taken (a short write): undo from what the files
	 * hold, not from what the plan assumed */
	if (cgctl_cpu_settings_read(x->ctx, x->m, x->path, &now) == 0)
		cur = now.bw;
	taken = memcmp(&cur, i ? &w[i - 1].after : &res->old.bw, sizeof(cur)) != 0;
	if (i == 0 && !taken) {
		res->rolled_back = true;
		return cgctl_error_set(e, -r, "%s: %s", w[0].name, errstr(r, eb, sizeof(eb)));
	}
	rr = bw_undo(x, t, &cur, &res->old.bw, &ue);
	if (rr == 0) {
		res->rolled_back = true;
		return cgctl_error_set(e, -r, "%s: %s; the previous setting was restored",
				       w[i].name, errstr(r, eb, sizeof(eb)));
	}
	snprintf(msg, sizeof(msg), "now ");
	holdings(x, files, (size_t)bw_files(x->m->version, files), msg, sizeof(msg));
	return cgctl_error_set(e, -r, "%s: %s; restoring the previous setting failed too "
			       "(%s); %s", w[i].name, errstr(r, eb, sizeof(eb)), ue.msg, msg);
}

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

int predict_bw_apply_with(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			  const char *path, const struct cgctl_bw_settings *want,
			  struct cgctl_bw_applied *res, struct cgctl_error *e,
			  const struct predict_writer *wr)
{
	struct exec x = { .ctx = ctx, .m = m, .path = path, .wr = wr };
	struct cgctl_bw_tree t;
	int r, n;

	if (!ctx || !m || !path || !want || !res)
		return cgctl_error_set(e, EINVAL, "invalid argument");
	memset(res, 0, sizeof(*res));
	res->failed = -1;
	r = cgctl_cpu_settings_read(ctx, m, path, &res->old);
	if (r < 0)
		return cgctl_error_set(e, -r, "cannot read the bandwidth setting");
	r = bw_check_burst(&res->old, want, m->version, e);
	if (r < 0)
		return r;
	r = cgctl_bw_tree_read(ctx, m, path, &t);
	if (r < 0)
		return cgctl_error_set(e, -r, "cannot read the cpu hierarchy");
	if (!t.has_target) {
		cgctl_bw_tree_free(&t);
		return cgctl_error_set(e, ENOENT, "no such cgroup");
	}
	t.nodes[t.target].bw = res->old.bw;
	n = cgctl_bw_write_plan(&res->old.bw, want, m->version, t.nodes, t.n, t.target,
				res->w, e);
	if (n < 0) {
		cgctl_bw_tree_free(&t);
		return n;
	}
	res->n = n;
	guard(&x, n);
	for (int i = 0; i < n; i++) {
		r = do_write(&x, res->w[i].name, res->w[i].value);
		if (r < 0) {
			r = bw_failed(&x, &t, res, i, r, e);
			break;
		}
		t.nodes[t.target].bw = res->w[i].after;
	}
	unguard(&x);
	cgctl_bw_tree_free(&t);
	if (r < 0)
		return r;
	cgctl_error_clear(e);
	return n;
}

CGCTL_EXPORT int cgctl_bw_apply(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				const char *path, const struct cgctl_bw_settings *want,
				struct cgctl_bw_applied *res, struct cgctl_error *e)
{
	return predict_bw_apply_with(ctx, m, path, want, res, e, NULL);
}

/* ---- memory ---- */

/* Decreases first (tighter before looser), in this order: ... */
static const unsigned int order_down[] = {
	CGCTL_MEMSET_SOFT, CGCTL_MEMSET_HIGH, CGCTL_MEMSET_MAX, CGCTL_MEMSET_MEMSW,
	CGCTL_MEMSET_SWAP, CGCTL_MEMSET_LOW, CGCTL_MEMSET_MIN,
};
/* ... then increases (v1 memsw before memory: memory <= memsw at every step) ... */
static const unsigned int order_up[] = {
	CGCTL_MEMSET_MEMSW, CGCTL_MEMSET_SWAP, CGCTL_MEMSET_MAX, CGCTL_MEMSET_HIGH,
	CGCTL_MEMSET_SOFT, CGCTL_MEMSET_MIN, CGCTL_MEMSET_LOW,
};
/* ... then the modes. */
static const unsigned int order_mode[] = { CGCTL_MEMSET_OOMGROUP, CGCTL_MEMSET_MOVE };

static uint64_t *mem_field(struct cgctl_mem_settings *s, unsigned int bit)
{
	switch (bit) {
	case CGCTL_MEMSET_MAX: return &s->max;
	case CGCTL_MEMSET_MEMSW: return &s->memsw_max;
	case CGCTL_MEMSET_SOFT: return &s->soft;
	case CGCTL_MEMSET_HIGH: return &s->high;
	case CGCTL_MEMSET_LOW: return &s->low;
	case CGCTL_MEMSET_MIN: return &s->min;
	case CGCTL_MEMSET_SWAP: return &s->swap_max;
	default: return NULL;
	}
}

static uint64_t mode_of(const struct cgctl_mem_settings *s, unsigned int bit)
{
	return bit == CGCTL_MEMSET_MOVE ? s->move_charge : s->oom_group;
}

/* The kernel keeps whole pages (page_counter_memparse() divides by PAGE_SIZE, 3.19+). */
static uint64_t pages(uint64_t bytes)
{
	return bytes == UINT64_MAX ? UINT64_MAX : bytes / CGCTL_PAGE_SIZE;
}

/* Old values are written back as the kernel printed them, 19 digits or not; only
 * "unlimited" is written as the token (the res_counter era printed U64_MAX, which it
 * did not take back). */
static void format_bytes(char *buf, size_t len, uint64_t v, int version)
{
	if (v == UINT64_MAX)
		snprintf(buf, len, "%s", version == 2 ? "max" : "-1");
	else
		snprintf(buf, len, "%" PRIu64, v);
}

struct mem_plan {
	struct cgctl_mem_applied *res;
	const struct cgctl_mem_settings *want;
	char old[CGCTL_APPLY_MAX][48];
	int version;
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *m;
	const char *path;
};

/* What @bit's file holds, byte for byte as read (restored as is: a v1 limit of
 * PAGE_COUNTER_MAX pages goes back as those digits, not as "-1"), else @fallback
 * (which may be @out). */
static void raw_old(const struct mem_plan *p, unsigned int bit, const char *fallback,
		    char *out, size_t len)
{
	char *buf = NULL;
	size_t bl;

	if (out != fallback)
		snprintf(out, len, "%s", fallback);
	if (!p->ctx || cgctl_cg_read(p->ctx, p->m, p->path, predict_mem_file(bit, p->version),
				     &buf, &bl) < 0)
		return;
	while (bl && buf[bl - 1] == '\n')
		buf[--bl] = '\0';
	if (bl && bl < len && !strchr(buf, '\n'))
		memcpy(out, buf, bl + 1);
	free(buf);
}

static int add(struct mem_plan *p, unsigned int bit, const char *value, const char *old)
{
	struct cgctl_setting_write *w = &p->res->w[p->res->n];

	w->file = predict_mem_file(bit, p->version);
	snprintf(w->value, sizeof(w->value), "%s", value);
	snprintf(p->old[p->res->n], sizeof(p->old[0]), "%s", old);
	p->res->n++;
	return 0;
}

static void plan_limits(struct mem_plan *p, unsigned int which, const unsigned int *order,
			size_t n, bool down)
{
	struct cgctl_mem_settings o = p->res->old, want = *p->want;

	for (size_t i = 0; i < n; i++) {
		uint64_t ov, nv;
		char v[48], ovs[48];

		if (!(which & order[i]))
			continue;
		ov = *mem_field(&o, order[i]);
		nv = *mem_field(&want, order[i]);
		if (pages(nv) == pages(ov) || (pages(nv) < pages(ov)) != down)
			continue;
		format_bytes(v, sizeof(v), nv, p->version);
		format_bytes(ovs, sizeof(ovs), ov, p->version);
		raw_old(p, order[i], ovs, ovs, sizeof(ovs));
		add(p, order[i], v, ovs);
	}
}

/* Every knob asked for exists here and the end state obeys the kernel's rules. */
static int mem_check(const struct cgctl_mem_settings *old,
		     const struct cgctl_mem_settings *want, unsigned int which, int version,
		     struct cgctl_error *e)
{
	static const unsigned int all[] = {
		CGCTL_MEMSET_MAX, CGCTL_MEMSET_MEMSW, CGCTL_MEMSET_SOFT, CGCTL_MEMSET_MOVE,
		CGCTL_MEMSET_HIGH, CGCTL_MEMSET_LOW, CGCTL_MEMSET_MIN, CGCTL_MEMSET_SWAP,
		CGCTL_MEMSET_OOMGROUP,
	};
	uint64_t mem, memsw;

	if (which & ~(CGCTL_MEMSET_MAX | CGCTL_MEMSET_MEMSW | CGCTL_MEMSET_SOFT |
		      CGCTL_MEMSET_MOVE | CGCTL_MEMSET_HIGH | CGCTL_MEMSET_LOW |
		      CGCTL_MEMSET_MIN | CGCTL_MEMSET_SWAP | CGCTL_MEMSET_OOMGROUP))
		return cgctl_error_set(e, EINVAL, "unknown memory setting");
	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		const char *f = predict_mem_file(all[i], version);

		if (!(which & all[i]))
			continue;
		if (!f)
			return cgctl_error_set(e, EOPNOTSUPP, "%s: not on cgroup v%d",
					       predict_mem_file(all[i], version == 1 ? 2 : 1),
					       version);
		if (!(old->present & all[i]))
			return cgctl_error_set(e, EOPNOTSUPP, "this cgroup has no %s", f);
	}
	if ((which & CGCTL_MEMSET_MOVE) && want->move_charge > 3)
		return cgctl_error_set(e, EINVAL, "move_charge_at_immigrate takes 0..3");
	/* mem_cgroup_resize_max(): memory.limit_in_bytes <= memory.memsw.limit_in_bytes */
	mem = pages(which & CGCTL_MEMSET_MAX ? want->max : old->max);
	memsw = pages(which & CGCTL_MEMSET_MEMSW ? want->memsw_max : old->memsw_max);
	if (version == 1 && (old->present & CGCTL_MEMSET_MEMSW) && mem > memsw)
		return cgctl_error_set(e, EINVAL, "memory.limit_in_bytes would exceed "
				       "memory.memsw.limit_in_bytes (memory must not exceed "
				       "memory+swap)");
	return 0;
}

static void plan_modes(struct mem_plan *p, unsigned int which)
{
	for (size_t i = 0; i < ARRAY_SIZE(order_mode); i++) {
		unsigned int b = order_mode[i];
		char v[48], o[48];

		if (!(which & b) || mode_of(p->want, b) == mode_of(&p->res->old, b))
			continue;
		snprintf(v, sizeof(v), "%" PRIu64, mode_of(p->want, b));
		snprintf(o, sizeof(o), "%" PRIu64, mode_of(&p->res->old, b));
		add(p, b, v, o);
	}
}

/* Undo writes [0, upto) in reverse: the states passed are those of the forward plan. */
static int mem_undo(struct exec *x, const struct mem_plan *p, int upto, struct cgctl_error *e)
{
	for (int i = upto - 1; i >= 0; i--) {
		int r = do_write(x, p->res->w[i].file, p->old[i]);

		if (r < 0) {
			char eb[96];

			return cgctl_error_set(e, -r, "%s=%s: %s", p->res->w[i].file, p->old[i],
					       errstr(r, eb, sizeof(eb)));
		}
	}
	return 0;
}

static int mem_failed(struct exec *x, const struct mem_plan *p, int i, int r,
		      struct cgctl_error *e)
{
	struct cgctl_mem_applied *res = p->res;
	struct cgctl_error ue = { 0 };
	const char *files[CGCTL_APPLY_MAX];
	char eb[96], msg[512];

	int upto = i;

	res->failed = i;
	/* a failed write the kernel took all the same (a short write) is undone too */
	if (!predict_unchanged(x->ctx, x->m, x->path, res->w[i].file, p->old[i]))
		upto = i + 1;
	if (mem_undo(x, p, upto, &ue) == 0) {
		res->rolled_back = true;
		return cgctl_error_set(e, -r, "%s=%s: %s%s", res->w[i].file, res->w[i].value,
				       errstr(r, eb, sizeof(eb)),
				       upto ? "; the previous setting was restored" : "");
	}
	for (int k = 0; k < res->n; k++)
		files[k] = res->w[k].file;
	snprintf(msg, sizeof(msg), "now ");
	holdings(x, files, (size_t)res->n, msg, sizeof(msg));
	return cgctl_error_set(e, -r, "%s=%s: %s; restoring the previous setting failed too "
			       "(%s); %s", res->w[i].file, res->w[i].value,
			       errstr(r, eb, sizeof(eb)), ue.msg, msg);
}

int predict_mem_apply_with(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			   const char *path, const struct cgctl_mem_settings *want,
			   unsigned int which, struct cgctl_mem_applied *res,
			   struct cgctl_error *e, const struct predict_writer *wr)
{
	struct exec x = { .ctx = ctx, .m = m, .path = path, .wr = wr };
	struct mem_plan p = { .res = res, .want = want, .version = m ? m->version : 0,
			      .ctx = ctx, .m = m, .path = path };
	int r = 0;

	if (!ctx || !m || !path || !want || !res)
		return cgctl_error_set(e, EINVAL, "invalid argument");
	memset(res, 0, sizeof(*res));
	res->failed = -1;
	r = cgctl_mem_settings_read(ctx, m, path, &res->old);
	if (r < 0)
		return cgctl_error_set(e, -r, "cannot read the memory settings");
	r = mem_check(&res->old, want, which, m->version, e);
	if (r < 0)
		return r;
	plan_limits(&p, which, order_down, ARRAY_SIZE(order_down), true);
	plan_limits(&p, which, order_up, ARRAY_SIZE(order_up), false);
	plan_modes(&p, which);
	guard(&x, res->n);
	for (int i = 0; i < res->n; i++) {
		r = do_write(&x, res->w[i].file, res->w[i].value);
		if (r < 0) {
			r = mem_failed(&x, &p, i, r, e);
			break;
		}
	}
	unguard(&x);
	if (r < 0)
		return r;
	cgctl_error_clear(e);
	return res->n;
}

CGCTL_EXPORT int cgctl_mem_apply(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				 const char *path, const struct cgctl_mem_settings *want,
				 unsigned int which, struct cgctl_mem_applied *res,
				 struct cgctl_error *e)
{
	return predict_mem_apply_with(ctx, m, path, want, which, res, e, NULL);
}
