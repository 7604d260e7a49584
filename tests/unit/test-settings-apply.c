/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The settings executor (struct cgctl_plan, lib/predict/plan*.c, settings-apply.c,
 * settings-set.c) on fixture trees: every write of every plan fails in turn (EINVAL, EIO, EBUSY) and every file must read back its old
 * value; a rollback planned against the tree (parent and child both limited, the quota
 * -1 detour); a rollback that fails too names what the files hold; old values of 19+
 * digits come back as themselves.
 */
#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"
#include "predict/settings-internal.h"
#include "testutil.h"

/* Fails the @fail_at-th write (0-based) with @err, and the @fail_too-th as well; with
 * @taken the failing write is done all the same (as the kernel takes a short write). */
struct fault {
	int count, fail_at, fail_too, err;
	bool taken;
};

static int faulty(void *arg, struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		  const char *path, const char *file, const char *value)
{
	struct fault *f = arg;
	int n = f->count++;

	if ((n == f->fail_at || n == f->fail_too) && f->taken)
		(void)cgctl_cg_write(ctx, m, path, file, value);
	if (n == f->fail_at || n == f->fail_too)
		return -f->err;
	return cgctl_cg_write(ctx, m, path, file, value);
}

static char *dir;
static struct cgctl_ctx *ctx;

/* What a plan did, read through its getters. */
#define STEPS 32
struct outcome {
	int n, failed, refused;
	bool rolled_back;
	char file[STEPS][64], value[STEPS][64];
	bool has_old[STEPS];
	unsigned int flags[STEPS];
};

static void outcome_of(const struct cgctl_plan *p, struct outcome *o)
{
	const char *file, *value, *old;

	memset(o, 0, sizeof(*o));
	while (o->n < STEPS && cgctl_plan_step(p, (size_t)o->n, NULL, NULL, &file, &value,
					       &old, &o->flags[o->n]) == 0) {
		snprintf(o->file[o->n], sizeof(o->file[o->n]), "%s", file);
		snprintf(o->value[o->n], sizeof(o->value[o->n]), "%s", value);
		o->has_old[o->n] = old != NULL;
		ck_assert(!old == !!(o->flags[o->n] & CGCTL_PLAN_STEP_IRREVERSIBLE));
		o->n++;
	}
	ck_assert_int_eq(cgctl_plan_step(p, (size_t)o->n, NULL, NULL, NULL, NULL, NULL, NULL),
			 -ERANGE);
	o->failed = cgctl_plan_failed(p);
	o->rolled_back = cgctl_plan_rolled_back(p);
	o->refused = cgctl_plan_refused(p);
}

static struct cgctl_plan *plan_new(struct fault *f, struct predict_writer *wr)
{
	struct cgctl_plan *p;

	ck_assert_int_eq(cgctl_plan_new(ctx, &p), 0);
	*wr = (struct predict_writer){ faulty, f };
	predict_plan_set_writer(p, wr);
	return p;
}

/* Apply @p, its outcome into @res; the plan is freed. */
static int apply_free(struct cgctl_plan *p, struct outcome *res, struct cgctl_error *e)
{
	int r = cgctl_plan_apply(p, e);

	outcome_of(p, res);
	cgctl_plan_free(p);
	return r;
}

static void put(const char *rel, const char *v)
{
	ck_assert_int_eq(tu_write(dir, rel, v), 0);
}

static char *get(const char *rel)
{
	char *s = tu_read(dir, rel);
	size_t n;

	ck_assert_ptr_nonnull(s);
	n = strlen(s);
	while (n && s[n - 1] == '\n')
		s[--n] = '\0';
	return s;
}

static void expect(const char *rel, const char *v)
{
	char *s = get(rel);

	ck_assert_msg(!strcmp(s, v), "%s: '%s', expected '%s'", rel, s, v);
	free(s);
}

#define C "sys/fs/cgroup/cpu"
static void v1_group(const char *g, const char *q, const char *p)
{
	char rel[256];

	snprintf(rel, sizeof(rel), C "%s/cpu.cfs_quota_us", g);
	put(rel, q);
	snprintf(rel, sizeof(rel), C "%s/cpu.cfs_period_us", g);
	put(rel, p);
	snprintf(rel, sizeof(rel), C "%s/cpu.cfs_burst_us", g);
	put(rel, "0");
}

/* / unlimited; /a 0.5; /a/b unlimited -> 0.4; /a/b/c 0.4; /p 0.5 with /p/k 0.4 */
static void cpu_v1_tree(void)
{
	dir = tu_mkdtemp();
	put("cgctl-mounts", "1 /sys/fs/cgroup/cpu cpu\n");
	v1_group("", "-1", "100000");
	v1_group("/a", "50000", "100000");
	v1_group("/a/b", "40000", "100000");
	v1_group("/a/b/c", "40000", "100000");
	v1_group("/p", "50000", "100000");
	v1_group("/p/k", "40000", "100000");
	ck_assert_int_eq(cgctl_new(&ctx, dir), 0);
}

static void done(void)
{
	cgctl_unref(ctx);
	tu_rmtree(dir);
	free(dir);
}

static int bw_apply(const char *path, struct cgctl_bw_settings want, struct fault *f,
		    struct outcome *res, struct cgctl_error *e)
{
	const struct cgctl_mount *m;
	struct predict_writer wr;
	struct cgctl_plan *p = plan_new(f, &wr);

	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), 0);
	ck_assert_int_eq(cgctl_plan_add_bw(p, m, path, &want), 0);
	return apply_free(p, res, e);
}

/* Fail each write of the plan @path -> @want with each errno, and with EIO after the
 * write was taken: all files keep @q/@p. */
static void every_step(const char *path, struct cgctl_bw_settings want, int nwrites,
		       const char *q, const char *p)
{
	static const int errs[] = { EINVAL, EIO, EBUSY, EIO };
	char rq[256], rp[256], rb[256];

	snprintf(rq, sizeof(rq), C "%s/cpu.cfs_quota_us", path);
	snprintf(rp, sizeof(rp), C "%s/cpu.cfs_period_us", path);
	snprintf(rb, sizeof(rb), C "%s/cpu.cfs_burst_us", path);
	for (size_t k = 0; k < sizeof(errs) / sizeof(errs[0]); k++)
		for (int step = 0; step < nwrites; step++) {
			struct fault f = { 0, step, -1, errs[k], k == 3 };
			struct cgctl_error e = CGCTL_ERROR_INIT;
			struct outcome res;
			int r = bw_apply(path, want, &f, &res, &e);

			ck_assert_int_eq(r, -errs[k]);
			ck_assert_int_eq(res.n, nwrites);
			ck_assert_int_eq(res.failed, step);
			ck_assert(res.rolled_back);
			ck_assert_msg((step == 0 && k < 3) ||
				      strstr(e.msg, "previous setting was restored"),
				      "%s", e.msg);
			expect(rq, q);
			expect(rp, p);
			expect(rb, "0");
		}
}

START_TEST(bw_detour_every_step)
{
	struct outcome res;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct fault f = { 0, -1, -1, 0 };

	cpu_v1_tree();
	/* 0.4 -> 0.45 between the child's 0.4 and the parent's 0.5: only via quota -1 */
	every_step("/a/b", CGCTL_BW_SETTINGS(225000, 500000, 0), 3, "40000",
		   "100000");
	ck_assert_int_eq(bw_apply("/a/b", CGCTL_BW_SETTINGS(225000, 500000, 0), &f,
				  &res, &e), 3);
	ck_assert_str_eq(res.value[0], "-1");
	expect(C "/a/b/cpu.cfs_quota_us", "225000");
	expect(C "/a/b/cpu.cfs_period_us", "500000");
	done();
}
END_TEST

START_TEST(bw_parent_and_child_limited)
{
	cpu_v1_tree();
	/* /p 0.5 above /p/k 0.4: 50/100 -> 200/400 must never put /p below 0.4 */
	every_step("/p", CGCTL_BW_SETTINGS(200000, 400000, 0), 2, "50000", "100000");
	/* and down to 45/90 (quota first would be 0.45 of 100, period first 0.55) */
	every_step("/p", CGCTL_BW_SETTINGS(45000, 90000, 0), 2, "50000", "100000");
	expect(C "/p/k/cpu.cfs_quota_us", "40000");
	done();
}
END_TEST

START_TEST(bw_rollback_fails_too)
{
	struct outcome res;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct fault f = { 0, 2, 3, EIO };
	int r;

	cpu_v1_tree();
	r = bw_apply("/a/b", CGCTL_BW_SETTINGS(225000, 500000, 0), &f, &res, &e);
	ck_assert_int_eq(r, -EIO);
	ck_assert(!res.rolled_back);
	/* the detour is half undone: the message says what every file holds */
	ck_assert_msg(strstr(e.msg, "restoring the previous setting failed too") &&
		      strstr(e.msg, "cpu.cfs_quota_us=-1") &&
		      strstr(e.msg, "cpu.cfs_period_us=500000") &&
		      strstr(e.msg, "cpu.cfs_burst_us=0"), "%s", e.msg);
	done();
}
END_TEST

START_TEST(bw_unchanged_not_written)
{
	struct outcome res;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct fault f = { 0, 0, -1, EIO };	/* any write would fail */

	cpu_v1_tree();
	ck_assert_int_eq(bw_apply("/p", CGCTL_BW_SETTINGS(50000, 100000, 0), &f,
				  &res, &e), 0);
	ck_assert_int_eq(f.count, 0);
	done();
}
END_TEST

/* A cgroup another program removed while the tree is read (listed, its files gone) is
 * left out, as the kernel's walk leaves it out; the target and its ancestors are not. */
START_TEST(bw_tree_skips_removed)
{
	const struct cgctl_mount *m;
	struct cgctl_bw_tree t;
	struct outcome res;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct fault f = { 0, -1, -1, 0 };

	cpu_v1_tree();
	put(C "/gone/.keep", "");
	put(C "/a/gone/x/.keep", "");
	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), 0);
	ck_assert_int_eq(cgctl_bw_tree_read(ctx, m, "/p", &t), 0);
	ck_assert(t.has_target);
	ck_assert_uint_eq(t.n, 6);
	for (size_t i = 0; i < t.n; i++)
		ck_assert_msg(!strstr(t.nodes[i].path, "gone"), "%s", t.nodes[i].path);
	cgctl_bw_tree_free(&t);
	ck_assert_int_eq(bw_apply("/p", CGCTL_BW_SETTINGS(60000, 100000, 0), &f,
				  &res, &e), 1);
	expect(C "/p/cpu.cfs_quota_us", "60000");
	/* the target gone, or an ancestor of it: an error */
	ck_assert_int_eq(cgctl_bw_tree_read(ctx, m, "/gone", &t), -ENOENT);
	ck_assert_int_eq(cgctl_bw_tree_read(ctx, m, "/a/gone/x", &t), -ENOENT);
	done();
}
END_TEST

START_TEST(bw_era_table)
{
	ck_assert(!cgctl_bw_era_has(CGCTL_KVER(5, 13, 0), CGCTL_BW_FEAT_BURST));
	ck_assert(cgctl_bw_era_has(CGCTL_KVER(5, 14, 0), CGCTL_BW_FEAT_BURST));
	ck_assert(!cgctl_bw_era_has(CGCTL_KVER(5, 15, 0), CGCTL_BW_FEAT_BURST_STATS));
	ck_assert(cgctl_bw_era_has(CGCTL_KVER(5, 16, 0), CGCTL_BW_FEAT_BURST_STATS));
	ck_assert(cgctl_bw_era_has(CGCTL_KVER(5, 3, 0), CGCTL_BW_FEAT_EXPIRE));
	ck_assert(!cgctl_bw_era_has(CGCTL_KVER(5, 4, 0), CGCTL_BW_FEAT_EXPIRE));
	ck_assert_uint_eq(cgctl_bw_era_since(CGCTL_BW_FEAT_EXPIRE), CGCTL_KVER(5, 4, 0));
	ck_assert_uint_eq(cgctl_bw_era_since(CGCTL_BW_FEAT_LOCAL_STAT), CGCTL_KVER(6, 6, 0));
	ck_assert(!cgctl_bw_era_has(CGCTL_KVER(6, 18, 0), CGCTL_BW_FEAT_COUNT));
}
END_TEST

/* ---- memory ---- */

#define M1 "sys/fs/cgroup/memory/g/"
static void mem_v1_tree(const char *limit, const char *memsw)
{
	dir = tu_mkdtemp();
	put("cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n");
	put("sys/fs/cgroup/memory/memory.use_hierarchy", "1");
	put(M1 "memory.limit_in_bytes", limit);
	put(M1 "memory.memsw.limit_in_bytes", memsw);
	put(M1 "memory.soft_limit_in_bytes", "9223372036854771712");
	put(M1 "memory.move_charge_at_immigrate", "0");
	put(M1 "memory.use_hierarchy", "1");
	ck_assert_int_eq(cgctl_new(&ctx, dir), 0);
}

static int mem_apply(const struct cgctl_mem_settings *want, unsigned int which,
		     struct fault *f, struct outcome *res, struct cgctl_error *e)
{
	const struct cgctl_mount *m;
	struct predict_writer wr;
	struct cgctl_plan *p = plan_new(f, &wr);

	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	ck_assert_int_eq(cgctl_plan_add_mem(p, m, "/g", want, which), 0);
	return apply_free(p, res, e);
}

/* `cgctl set`'s raw writes @it as one plan. */
struct raw {
	const struct cgctl_mount *m;
	const char *path, *file, *value;
};

static int set_apply(const struct raw *it, size_t n, struct fault *f, struct outcome *res,
		     struct cgctl_error *e)
{
	struct predict_writer wr;
	struct cgctl_plan *p = plan_new(f, &wr);

	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(cgctl_plan_add(p, it[i].m, it[i].path, it[i].file,
						it[i].value), (int)i);
	return apply_free(p, res, e);
}

START_TEST(mem_v1_every_step)
{
	static const int errs[] = { EINVAL, EIO, EBUSY };
	/* 19 digits: a finite limit, restored as itself (not as -1) */
	const char *lim = "1000000000000000000", *sw = "2000000000000000000";
	struct cgctl_mem_settings want = { .max = 3ULL << 30, .memsw_max = 4ULL << 30,
					   .soft = 1ULL << 30, .move_charge = 3 };
	unsigned int which = CGCTL_MEMSET_MAX | CGCTL_MEMSET_MEMSW | CGCTL_MEMSET_SOFT |
			     CGCTL_MEMSET_MOVE;
	mem_v1_tree(lim, sw);
	for (size_t k = 0; k < 3; k++)
		for (int step = 0; step < 4; step++) {
			struct fault f = { 0, step, -1, errs[k] };
			struct cgctl_error e = CGCTL_ERROR_INIT;
			struct outcome res;

			ck_assert_int_eq(mem_apply(&want, which, &f, &res, &e), -errs[k]);
			ck_assert_int_eq(res.n, 4);
			ck_assert(res.rolled_back);
			expect(M1 "memory.limit_in_bytes", lim);
			expect(M1 "memory.memsw.limit_in_bytes", sw);
			/* restored byte for byte as read */
			expect(M1 "memory.soft_limit_in_bytes", "9223372036854771712");
			expect(M1 "memory.move_charge_at_immigrate", "0");
		}
	done();
}
END_TEST

START_TEST(mem_v1_order)
{
	struct cgctl_mem_settings want = { .max = 3ULL << 30, .memsw_max = 4ULL << 30 };
	struct fault f = { 0, -1, -1, 0 };
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct outcome res;

	mem_v1_tree("1073741824", "2147483648");
	/* both up: memsw first */
	ck_assert_int_eq(mem_apply(&want, CGCTL_MEMSET_MAX | CGCTL_MEMSET_MEMSW, &f, &res,
				   &e), 2);
	ck_assert_str_eq(res.file[0], "memory.memsw.limit_in_bytes");
	/* both down: memory first */
	want.max = 1ULL << 29;
	want.memsw_max = 1ULL << 30;
	ck_assert_int_eq(mem_apply(&want, CGCTL_MEMSET_MAX | CGCTL_MEMSET_MEMSW, &f, &res,
				   &e), 2);
	ck_assert_str_eq(res.file[0], "memory.limit_in_bytes");
	/* memory above memsw: refused before any write */
	want.max = 2ULL << 30;
	f.count = 0;
	ck_assert_int_eq(mem_apply(&want, CGCTL_MEMSET_MAX, &f, &res, &e), -EINVAL);
	ck_assert_int_eq(f.count, 0);
	/* v2 knobs on v1 */
	ck_assert_int_eq(mem_apply(&want, CGCTL_MEMSET_HIGH, &f, &res, &e), -EOPNOTSUPP);
	ck_assert_msg(strstr(e.msg, "memory.high: not on cgroup v1"), "%s", e.msg);
	done();
}
END_TEST

#define M2 "sys/fs/cgroup/g/"
START_TEST(mem_v2_every_step)
{
	struct cgctl_mem_settings want = { .max = 1ULL << 30, .high = 1ULL << 29,
					   .low = 1ULL << 20, .min = 0, .swap_max = 0,
					   .oom_group = true };
	unsigned int which = CGCTL_MEMSET_MAX | CGCTL_MEMSET_HIGH | CGCTL_MEMSET_LOW |
			     CGCTL_MEMSET_SWAP | CGCTL_MEMSET_OOMGROUP;

	dir = tu_mkdtemp();
	put("cgctl-mounts", "2 /sys/fs/cgroup memory\n");
	put(M2 "memory.max", "max");
	put(M2 "memory.high", "2147483648");
	put(M2 "memory.low", "0");
	put(M2 "memory.min", "0");
	put(M2 "memory.swap.max", "max");
	put(M2 "memory.oom.group", "0");
	ck_assert_int_eq(cgctl_new(&ctx, dir), 0);
	for (int step = 0; step < 10; step++) {
		/* then each write fails after the kernel took it */
		struct fault f = { 0, step % 5, -1, EIO, step >= 5 };
		struct cgctl_error e = CGCTL_ERROR_INIT;
		struct outcome res;

		ck_assert_int_eq(mem_apply(&want, which, &f, &res, &e), -EIO);
		ck_assert_int_eq(res.n, 5);
		/* tighter first: high, max and swap.max go down before low goes up */
		ck_assert_str_eq(res.file[0], "memory.high");
		ck_assert_str_eq(res.file[1], "memory.max");
		ck_assert_str_eq(res.file[2], "memory.swap.max");
		ck_assert_str_eq(res.file[3], "memory.low");
		ck_assert_str_eq(res.file[4], "memory.oom.group");
		expect(M2 "memory.max", "max");
		expect(M2 "memory.high", "2147483648");
		expect(M2 "memory.low", "0");
		expect(M2 "memory.swap.max", "max");
		expect(M2 "memory.oom.group", "0");
	}
	done();
}
END_TEST

/* set: memory down first, other files as given, memory up, the action last; every
 * step failed in turn restores all earlier ones (the action has nothing to restore). */
START_TEST(set_order_and_rollback)
{
	const struct cgctl_mount *m;
	struct raw it[4];
	static const char *const order[] = {
		"memory.limit_in_bytes", "memory.swappiness", "memory.memsw.limit_in_bytes",
		"memory.force_empty",
	};

	mem_v1_tree("1073741824", "2147483648");
	put(M1 "memory.swappiness", "60");
	put(M1 "memory.force_empty", "");
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	it[0] = (struct raw){ m, "/g", "memory.force_empty", "0" };
	it[1] = (struct raw){ m, "/g", "memory.memsw.limit_in_bytes", "4G" };
	it[2] = (struct raw){ m, "/g", "memory.swappiness", "10" };
	it[3] = (struct raw){ m, "/g", "memory.limit_in_bytes", "512M" };
	/* each step fails, then each fails after the write was taken, then none */
	for (int i = 0; i <= 8; i++) {
		int step = i < 8 ? i % 4 : 4;
		struct fault f = { 0, step, -1, EBUSY, i >= 4 };
		struct cgctl_error e = CGCTL_ERROR_INIT;
		struct outcome res;

		ck_assert_int_eq(set_apply(it, 4, &f, &res, &e), step != 4 ? -EBUSY : 4);
		ck_assert_int_eq(res.n, 4);
		for (int k = 0; k < 4; k++)
			ck_assert_str_eq(res.file[k], order[k]);
		ck_assert(!res.has_old[3]);
		if (step != 4) {
			ck_assert_int_eq(res.failed, step);
			ck_assert(res.rolled_back);
			expect(M1 "memory.limit_in_bytes", "1073741824");
			expect(M1 "memory.memsw.limit_in_bytes", "2147483648");
			expect(M1 "memory.swappiness", "60");
		} else {
			ck_assert_int_eq(res.failed, -1);
			expect(M1 "memory.limit_in_bytes", "512M");
			expect(M1 "memory.memsw.limit_in_bytes", "4G");
		}
	}
	/* refused before any write: a bad size, two actions, a task file */
	{
		struct raw bad[2] = {
			{ m, "/g", "memory.limit_in_bytes", "1.5G" },
			{ m, "/g", "memory.force_empty", "0" },
		};
		struct fault f = { 0, -1, -1, 0 };
		struct cgctl_error e = CGCTL_ERROR_INIT;
		struct outcome res;

		ck_assert_int_eq(set_apply(bad, 2, &f, &res, &e), -EINVAL);
		ck_assert_int_eq(res.refused, 0);
		ck_assert_int_eq(res.n, 0);
		bad[0] = (struct raw){ m, "/g", "memory.force_empty", "0" };
		bad[1] = (struct raw){ m, "/g", "memory.max_usage_in_bytes", "0" };
		put(M1 "memory.max_usage_in_bytes", "0");
		ck_assert_int_eq(set_apply(bad, 2, &f, &res, &e), -EINVAL);
		ck_assert_int_eq(res.refused, 1);
		bad[0] = (struct raw){ m, "/g", "cgroup.procs", "1" };
		ck_assert_int_eq(set_apply(bad, 1, &f, &res, &e), -EINVAL);
		ck_assert_int_eq(f.count, 0);
	}
	done();
}
END_TEST

/* ---- the plan object: check, typed and raw items together, refusals ---- */

/* cpu_v1_tree()'s cpu hierarchy beside mem_v1_tree()'s memory one, and a second
 * memory group /h. */
static void cpu_mem_v1_tree(void)
{
	dir = tu_mkdtemp();
	put("cgctl-mounts", "1 /sys/fs/cgroup/cpu cpu\n1 /sys/fs/cgroup/memory memory\n");
	v1_group("", "-1", "100000");
	v1_group("/a", "50000", "100000");
	v1_group("/a/b", "40000", "100000");
	v1_group("/p", "50000", "100000");
	put("sys/fs/cgroup/memory/memory.use_hierarchy", "1");
	put(M1 "memory.limit_in_bytes", "1073741824");
	put(M1 "memory.memsw.limit_in_bytes", "2147483648");
	put(M1 "memory.soft_limit_in_bytes", "9223372036854771712");
	put(M1 "memory.move_charge_at_immigrate", "0");
	put(M1 "memory.use_hierarchy", "1");
	put("sys/fs/cgroup/memory/h/memory.swappiness", "60");
	ck_assert_int_eq(cgctl_new(&ctx, dir), 0);
}

static void expect_cpu_mem_unchanged(void)
{
	expect(C "/a/b/cpu.cfs_quota_us", "40000");
	expect(C "/a/b/cpu.cfs_period_us", "100000");
	expect(C "/p/cpu.cfs_quota_us", "50000");
	expect(M1 "memory.limit_in_bytes", "1073741824");
	expect(M1 "memory.memsw.limit_in_bytes", "2147483648");
	expect("sys/fs/cgroup/memory/h/memory.swappiness", "60");
}

/* check plans against the tree and writes nothing; the steps say what apply writes */
START_TEST(plan_check_writes_nothing)
{
	struct cgctl_bw_settings want = CGCTL_BW_SETTINGS_INIT(225000, 500000, 0);
	const struct cgctl_mount *m;
	struct fault f = { 0, -1, -1, 0 };
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct predict_writer wr;
	struct cgctl_plan *p;
	struct outcome res;

	cpu_v1_tree();
	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), 0);
	p = plan_new(&f, &wr);
	ck_assert_int_eq(cgctl_plan_check(p, &e), -EINVAL);	/* empty */
	ck_assert_int_eq(cgctl_plan_add_bw(p, m, "/a/b", &want), 0);
	/* a cgroup of a typed item takes no other item */
	ck_assert_int_eq(cgctl_plan_add(p, m, "/a/b", "cpu.cfs_quota_us", "1000"), -EINVAL);
	ck_assert_int_eq(cgctl_plan_add_bw(p, m, "/a/b", &want), -EINVAL);
	ck_assert_int_eq(cgctl_plan_check(p, &e), 3);
	outcome_of(p, &res);
	ck_assert_int_eq(res.n, 3);
	ck_assert_int_eq(f.count, 0);
	expect(C "/a/b/cpu.cfs_quota_us", "40000");
	/* 0.4 -> 0.45 goes through quota -1: the first step is the detour, not the last */
	ck_assert_str_eq(res.file[0], "cpu.cfs_quota_us");
	ck_assert_str_eq(res.value[0], "-1");
	ck_assert(res.flags[0] & CGCTL_PLAN_STEP_DETOUR);
	ck_assert(!(res.flags[2] & CGCTL_PLAN_STEP_DETOUR));
	ck_assert(res.has_old[0] && res.has_old[1] && res.has_old[2]);
	ck_assert_int_eq(res.failed, -1);
	ck_assert_int_eq(res.refused, -1);
	/* apply plans anew from the state it finds */
	ck_assert_int_eq(cgctl_plan_apply(p, &e), 3);
	ck_assert_int_eq(f.count, 3);
	expect(C "/a/b/cpu.cfs_quota_us", "225000");
	ck_assert_int_eq(cgctl_plan_check(p, &e), 0);
	cgctl_plan_free(p);
	done();
}
END_TEST

/* typed items first, in the order added, then the raw writes; a failing write anywhere
 * restores every earlier one, across cgroups and hierarchies */
START_TEST(plan_mixed_rollback)
{
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(20000, 100000, 0);
	struct cgctl_mem_settings mem = { .max = 1ULL << 29, .memsw_max = 1ULL << 30 };
	const struct cgctl_mount *cpu, *memory;
	static const char *const order[] = {
		"cpu.cfs_quota_us", "memory.limit_in_bytes", "memory.memsw.limit_in_bytes",
		"memory.swappiness",
	};

	cpu_mem_v1_tree();
	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &cpu), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &memory), 0);
	for (int step = 0; step <= 4; step++) {
		struct fault f = { 0, step, -1, EIO };
		struct cgctl_error e = CGCTL_ERROR_INIT;
		struct predict_writer wr;
		struct cgctl_plan *p = plan_new(&f, &wr);
		struct outcome res;

		ck_assert_int_eq(cgctl_plan_add(p, memory, "/h", "memory.swappiness", "10"), 0);
		ck_assert_int_eq(cgctl_plan_add_bw(p, cpu, "/p", &bw), 1);
		ck_assert_int_eq(cgctl_plan_add_mem(p, memory, "/g", &mem, CGCTL_MEMSET_MAX |
						    CGCTL_MEMSET_MEMSW), 2);
		ck_assert_int_eq(apply_free(p, &res, &e), step < 4 ? -EIO : 4);
		ck_assert_int_eq(res.n, 4);
		for (int k = 0; k < 4; k++)
			ck_assert_str_eq(res.file[k], order[k]);
		if (step == 4)
			break;
		ck_assert_int_eq(res.failed, step);
		ck_assert(res.rolled_back);
		ck_assert_msg(step == 0 || strstr(e.msg, "the earlier writes were restored"),
			      "%s", e.msg);
		expect_cpu_mem_unchanged();
	}
	expect(C "/p/cpu.cfs_quota_us", "20000");
	expect(M1 "memory.limit_in_bytes", "536870912");
	expect(M1 "memory.memsw.limit_in_bytes", "1073741824");
	expect("sys/fs/cgroup/memory/h/memory.swappiness", "10");
	done();
}
END_TEST

/* an item refused by a kernel rule: nothing of the plan is written, and the refusal
 * names that item */
START_TEST(plan_refused_changes_nothing)
{
	struct cgctl_bw_settings bw = CGCTL_BW_SETTINGS_INIT(20000, 100000, 0), high = CGCTL_BW_SETTINGS_INIT(60000, 100000, 0);
	struct cgctl_mem_settings mem = { .max = 3ULL << 30 };	/* above memsw 2G */
	const struct cgctl_mount *cpu, *memory;
	struct fault f = { 0, -1, -1, 0 };
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct predict_writer wr;
	struct cgctl_plan *p;
	struct outcome res;

	cpu_mem_v1_tree();
	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &cpu), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &memory), 0);
	p = plan_new(&f, &wr);
	ck_assert_int_eq(cgctl_plan_add_bw(p, cpu, "/p", &bw), 0);
	ck_assert_int_eq(cgctl_plan_add(p, memory, "/h", "memory.swappiness", "10"), 1);
	ck_assert_int_eq(cgctl_plan_add_mem(p, memory, "/g", &mem, CGCTL_MEMSET_MAX), 2);
	ck_assert_int_eq(apply_free(p, &res, &e), -EINVAL);
	ck_assert_int_eq(res.refused, 2);
	ck_assert_int_eq(res.failed, -1);
	ck_assert_int_eq(res.n, 0);
	ck_assert_msg(strstr(e.msg, "memory+swap"), "%s", e.msg);
	ck_assert_int_eq(f.count, 0);
	expect_cpu_mem_unchanged();
	/* the bandwidth rules against the tree: /a/b above its parent /a (0.5) */
	p = plan_new(&f, &wr);
	ck_assert_int_eq(cgctl_plan_add(p, memory, "/h", "memory.swappiness", "10"), 0);
	ck_assert_int_eq(cgctl_plan_add_bw(p, cpu, "/a/b", &high), 1);
	ck_assert_int_eq(apply_free(p, &res, &e), -EINVAL);
	ck_assert_int_eq(res.refused, 1);
	ck_assert_int_eq(f.count, 0);
	/* a raw item's bad syntax, after a typed item that would be fine */
	p = plan_new(&f, &wr);
	ck_assert_int_eq(cgctl_plan_add_bw(p, cpu, "/p", &bw), 0);
	ck_assert_int_eq(cgctl_plan_add(p, memory, "/h", "memory.swappiness", "ten"), 1);
	ck_assert_int_eq(apply_free(p, &res, &e), -EINVAL);
	ck_assert_int_eq(res.refused, 1);
	ck_assert_int_eq(f.count, 0);
	expect_cpu_mem_unchanged();
	done();
}
END_TEST
/* v2: cpu.max is one write (quota and period together), a burst going up comes last;
 * a failed burst write puts cpu.max back as it was read */
START_TEST(plan_bw_v2)
{
	struct cgctl_bw_settings want = CGCTL_BW_SETTINGS_INIT(30000, 50000, 5000);
	const struct cgctl_mount *m;
	struct outcome res;

	dir = tu_mkdtemp();
	put("cgctl-mounts", "2 /sys/fs/cgroup cpu\n");
	put("sys/fs/cgroup/cgroup.subtree_control", "cpu");
	put("sys/fs/cgroup/g/cpu.max", "50000 100000");
	put("sys/fs/cgroup/g/cpu.max.burst", "0");
	ck_assert_int_eq(cgctl_new(&ctx, dir), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), 0);
	for (int step = 0; step <= 2; step++) {
		struct fault f = { 0, step, -1, EIO };
		struct cgctl_error e = CGCTL_ERROR_INIT;
		struct predict_writer wr;
		struct cgctl_plan *p = plan_new(&f, &wr);
		const char *pre;

		ck_assert_int_eq(cgctl_plan_add_bw(p, m, "/g", &want), 0);
		ck_assert_int_eq(apply_free(p, &res, &e), step < 2 ? -EIO : 2);
		ck_assert_int_eq(res.n, 2);
		ck_assert_str_eq(res.file[0], "cpu.max");
		ck_assert_str_eq(res.value[0], "30000 50000");
		ck_assert_str_eq(res.file[1], "cpu.max.burst");
		ck_assert_str_eq(res.value[1], "5000");
		ck_assert(!(res.flags[0] & CGCTL_PLAN_STEP_DETOUR));
		if (step == 2)
			break;
		ck_assert(res.rolled_back);
		/* bandwidth messages name the file, not the value */
		pre = step ? "cpu.max.burst: " : "cpu.max: ";
		ck_assert_msg(!strncmp(e.msg, pre, strlen(pre)), "%s", e.msg);
		expect("sys/fs/cgroup/g/cpu.max", "50000 100000");
		expect("sys/fs/cgroup/g/cpu.max.burst", "0");
	}
	expect("sys/fs/cgroup/g/cpu.max", "30000 50000");
	expect("sys/fs/cgroup/g/cpu.max.burst", "5000");
	done();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("settings-apply");
	TCase *tc = tcase_create("apply");

	tcase_add_test(tc, bw_detour_every_step);
	tcase_add_test(tc, bw_parent_and_child_limited);
	tcase_add_test(tc, bw_rollback_fails_too);
	tcase_add_test(tc, bw_unchanged_not_written);
	tcase_add_test(tc, bw_era_table);
	tcase_add_test(tc, bw_tree_skips_removed);
	tcase_add_test(tc, mem_v1_every_step);
	tcase_add_test(tc, mem_v1_order);
	tcase_add_test(tc, mem_v2_every_step);
	tcase_add_test(tc, set_order_and_rollback);
	tcase_add_test(tc, plan_check_writes_nothing);
	tcase_add_test(tc, plan_mixed_rollback);
	tcase_add_test(tc, plan_refused_changes_nothing);
	tcase_add_test(tc, plan_bw_v2);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
