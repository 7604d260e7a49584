/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The settings executor (lib/predict/settings-apply.c) on fixture trees: every write of
 * every plan fails in turn (EINVAL, EIO, EBUSY) and every file must read back its old
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
		    struct cgctl_bw_applied *res, struct cgctl_error *e)
{
	const struct cgctl_mount *m;
	struct predict_writer wr = { faulty, f };

	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), 0);
	return predict_bw_apply_with(ctx, m, path, &want, res, e, &wr);
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
			struct cgctl_bw_applied res;
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
	struct cgctl_bw_applied res;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct fault f = { 0, -1, -1, 0 };

	cpu_v1_tree();
	/* 0.4 -> 0.45 between the child's 0.4 and the parent's 0.5: only via quota -1 */
	every_step("/a/b", (struct cgctl_bw_settings){ 225000, 500000, 0 }, 3, "40000",
		   "100000");
	ck_assert_int_eq(bw_apply("/a/b", (struct cgctl_bw_settings){ 225000, 500000, 0 }, &f,
				  &res, &e), 3);
	ck_assert_str_eq(res.w[0].value, "-1");
	expect(C "/a/b/cpu.cfs_quota_us", "225000");
	expect(C "/a/b/cpu.cfs_period_us", "500000");
	done();
}
END_TEST

START_TEST(bw_parent_and_child_limited)
{
	cpu_v1_tree();
	/* /p 0.5 above /p/k 0.4: 50/100 -> 200/400 must never put /p below 0.4 */
	every_step("/p", (struct cgctl_bw_settings){ 200000, 400000, 0 }, 2, "50000", "100000");
	/* and down to 45/90 (quota first would be 0.45 of 100, period first 0.55) */
	every_step("/p", (struct cgctl_bw_settings){ 45000, 90000, 0 }, 2, "50000", "100000");
	expect(C "/p/k/cpu.cfs_quota_us", "40000");
	done();
}
END_TEST

START_TEST(bw_rollback_fails_too)
{
	struct cgctl_bw_applied res;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct fault f = { 0, 2, 3, EIO };
	int r;

	cpu_v1_tree();
	r = bw_apply("/a/b", (struct cgctl_bw_settings){ 225000, 500000, 0 }, &f, &res, &e);
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
	struct cgctl_bw_applied res;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct fault f = { 0, 0, -1, EIO };	/* any write would fail */

	cpu_v1_tree();
	ck_assert_int_eq(bw_apply("/p", (struct cgctl_bw_settings){ 50000, 100000, 0 }, &f,
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
	struct cgctl_bw_applied res;
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
	ck_assert_int_eq(bw_apply("/p", (struct cgctl_bw_settings){ 60000, 100000, 0 }, &f,
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
		     struct fault *f, struct cgctl_mem_applied *res, struct cgctl_error *e)
{
	const struct cgctl_mount *m;
	struct predict_writer wr = { faulty, f };

	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	return predict_mem_apply_with(ctx, m, "/g", want, which, res, e, &wr);
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
			struct cgctl_mem_applied res;

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
	struct cgctl_mem_applied res;

	mem_v1_tree("1073741824", "2147483648");
	/* both up: memsw first */
	ck_assert_int_eq(mem_apply(&want, CGCTL_MEMSET_MAX | CGCTL_MEMSET_MEMSW, &f, &res,
				   &e), 2);
	ck_assert_str_eq(res.w[0].file, "memory.memsw.limit_in_bytes");
	/* both down: memory first */
	want.max = 1ULL << 29;
	want.memsw_max = 1ULL << 30;
	ck_assert_int_eq(mem_apply(&want, CGCTL_MEMSET_MAX | CGCTL_MEMSET_MEMSW, &f, &res,
				   &e), 2);
	ck_assert_str_eq(res.w[0].file, "memory.limit_in_bytes");
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
		struct cgctl_mem_applied res;

		ck_assert_int_eq(mem_apply(&want, which, &f, &res, &e), -EIO);
		ck_assert_int_eq(res.n, 5);
		/* tighter first: high, max and swap.max go down before low goes up */
		ck_assert_str_eq(res.w[0].file, "memory.high");
		ck_assert_str_eq(res.w[1].file, "memory.max");
		ck_assert_str_eq(res.w[2].file, "memory.swap.max");
		ck_assert_str_eq(res.w[3].file, "memory.low");
		ck_assert_str_eq(res.w[4].file, "memory.oom.group");
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
	struct cgctl_set_item it[4];
	static const char *const order[] = {
		"memory.limit_in_bytes", "memory.swappiness", "memory.memsw.limit_in_bytes",
		"memory.force_empty",
	};

	mem_v1_tree("1073741824", "2147483648");
	put(M1 "memory.swappiness", "60");
	put(M1 "memory.force_empty", "");
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	it[0] = (struct cgctl_set_item){ m, "/g", "memory.force_empty", "0" };
	it[1] = (struct cgctl_set_item){ m, "/g", "memory.memsw.limit_in_bytes", "4G" };
	it[2] = (struct cgctl_set_item){ m, "/g", "memory.swappiness", "10" };
	it[3] = (struct cgctl_set_item){ m, "/g", "memory.limit_in_bytes", "512M" };
	/* each step fails, then each fails after the write was taken, then none */
	for (int i = 0; i <= 8; i++) {
		int step = i < 8 ? i % 4 : 4;
		struct fault f = { 0, step, -1, EBUSY, i >= 4 };
		struct predict_writer wr = { faulty, &f };
		struct cgctl_error e = CGCTL_ERROR_INIT;
		struct cgctl_set_applied *res = calloc(1, sizeof(*res));

		ck_assert_ptr_nonnull(res);
		ck_assert_int_eq(predict_set_apply_with(ctx, it, 4, res, &e, &wr),
				 step != 4 ? -EBUSY : 4);
		ck_assert_int_eq(res->n, 4);
		for (int k = 0; k < 4; k++)
			ck_assert_str_eq(res->s[k].file, order[k]);
		ck_assert(!res->s[3].has_old);
		if (step != 4) {
			ck_assert(res->rolled_back);
			expect(M1 "memory.limit_in_bytes", "1073741824");
			expect(M1 "memory.memsw.limit_in_bytes", "2147483648");
			expect(M1 "memory.swappiness", "60");
		} else {
			expect(M1 "memory.limit_in_bytes", "512M");
			expect(M1 "memory.memsw.limit_in_bytes", "4G");
		}
		free(res);
	}
	/* refused before any write: a bad size, two actions, a task file */
	{
		struct cgctl_set_item bad[2] = {
			{ m, "/g", "memory.limit_in_bytes", "1.5G" },
			{ m, "/g", "memory.force_empty", "0" },
		};
		struct fault f = { 0, -1, -1, 0 };
		struct predict_writer wr = { faulty, &f };
		struct cgctl_error e = CGCTL_ERROR_INIT;
		struct cgctl_set_applied *res = calloc(1, sizeof(*res));

		ck_assert_ptr_nonnull(res);
		ck_assert_int_eq(predict_set_apply_with(ctx, bad, 2, res, &e, &wr), -EINVAL);
		ck_assert_int_eq(res->refused, 0);
		bad[0] = (struct cgctl_set_item){ m, "/g", "memory.force_empty", "0" };
		bad[1] = (struct cgctl_set_item){ m, "/g", "memory.max_usage_in_bytes", "0" };
		put(M1 "memory.max_usage_in_bytes", "0");
		ck_assert_int_eq(predict_set_apply_with(ctx, bad, 2, res, &e, &wr), -EINVAL);
		ck_assert_int_eq(res->refused, 1);
		bad[0] = (struct cgctl_set_item){ m, "/g", "cgroup.procs", "1" };
		ck_assert_int_eq(predict_set_apply_with(ctx, bad, 1, res, &e, &wr), -EINVAL);
		ck_assert_int_eq(f.count, 0);
		free(res);
	}
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
	suite_add_tcase(s, tc);
	return tu_run(s);
}
