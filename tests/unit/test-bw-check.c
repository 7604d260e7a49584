/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CFS bandwidth write rules (kernel-cpu-bandwidth-model.md 7.2, every case verified on
 * 6.18.44) and the safe write order (7.3).
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "libcgctl.h"
#include "testutil.h"

#define INF CGCTL_BW_INF
#define BW(q, p, b) (CGCTL_BW_SETTINGS((q), (p), (b)))

static struct cgctl_error e = CGCTL_ERROR_INIT;

/* A lone group below the root: ranges only matter. */
static int check1(uint64_t q, uint64_t p, uint64_t b)
{
	struct cgctl_bw_node t[2] = {
		{ -1, "/", BW(INF, 100000, 0) },
		{ 0, "/g", BW(INF, 100000, 0) },
	};
	struct cgctl_bw_settings s = BW(q, p, b);

	e = (struct cgctl_error)CGCTL_ERROR_INIT;
	return cgctl_bw_check(t, 2, 1, &s, 1, &e);
}

START_TEST(ranges_rejected)
{
	ck_assert_int_eq(check1(50000, 999, 0), -EINVAL);
	ck_assert_str_eq(e.msg, "period 999us is below the minimum 1000us (1 ms)");
	ck_assert_int_eq(e.err, EINVAL);
	ck_assert_int_eq(check1(50000, 1000001, 0), -EINVAL);
	ck_assert_str_eq(e.msg, "period 1000001us exceeds the maximum 1000000us (1 s)");
	ck_assert_int_eq(check1(50000, 0, 0), -EINVAL);
	ck_assert_int_eq(check1(INF, 0, 0), -EINVAL);	/* the period is checked with INF too */
	ck_assert_int_eq(check1(999, 100000, 0), -EINVAL);
	ck_assert_str_eq(e.msg, "quota 999us is below the minimum 1000us (1 ms)");
	ck_assert_int_eq(check1(0, 100000, 0), -EINVAL);
	ck_assert_int_eq(check1(17592186044416ULL, 100000, 0), -EINVAL);
	ck_assert_str_eq(e.msg, "quota 17592186044416us exceeds the maximum 17592186044415us "
			 "(MAX_BW, 2^44-1)");
	ck_assert_int_eq(check1(50000, 100000, 50001), -EINVAL);
	ck_assert_str_eq(e.msg, "burst 50001us exceeds quota 50000us; burst must not exceed "
			 "quota");
	ck_assert_int_eq(check1(10000, 100000, 20000), -EINVAL);
	ck_assert_int_eq(check1(17592186044415ULL, 100000, 1), -EINVAL);
	ck_assert_str_eq(e.msg, "quota 17592186044415us + burst 1us exceeds the maximum "
			 "17592186044415us (MAX_BW, 2^44-1)");
	/* overflow checks (6.17+ names) */
	ck_assert_int_eq(check1(50000, UINT64_MAX / 1000 + 1, 0), -EINVAL);
	ck_assert_int_eq(check1(INF, 100000, UINT64_MAX / 1000 + 1), -EINVAL);
	ck_assert_str_eq(e.msg, "burst 18446744073709552us overflows (U64_MAX/1000)");
}
END_TEST

START_TEST(ranges_accepted)
{
	ck_assert_int_eq(check1(50000, 1000, 0), 0);
	ck_assert_int_eq(check1(50000, 1000000, 0), 0);
	ck_assert_int_eq(check1(1000, 100000, 0), 0);
	ck_assert_int_eq(check1(17592186044415ULL, 100000, 0), 0);
	ck_assert_int_eq(check1(INF, 100000, 0), 0);
	ck_assert_int_eq(check1(50000, 100000, 50000), 0);	/* burst = quota */
	ck_assert_int_eq(check1(INF, 100000, 99999999), 0);	/* any burst while INF */
	ck_assert_int_eq(check1(1000, 100000, 99999999), -EINVAL);	/* ... until a quota */
	ck_assert_int_eq(e.err, EINVAL);
	ck_assert_int_eq(check1(INF, 100000, UINT64_MAX / 1000), 0);
}
END_TEST

START_TEST(root_refused)
{
	struct cgctl_bw_node t[1] = { { -1, "/", BW(INF, 100000, 0) } };
	struct cgctl_bw_settings s = BW(50000, 100000, 0);

	ck_assert_int_eq(cgctl_bw_check(t, 1, 0, &s, 1, &e), -EINVAL);
	ck_assert_str_eq(e.msg, "the root cgroup's CPU bandwidth cannot be set");
	ck_assert_int_eq(cgctl_bw_check(t, 1, 0, &s, 2, &e), -EINVAL);
}
END_TEST

/* / -> /a (0.5) -> /a/b -> /a/b/c */
static struct cgctl_bw_node tree[4] = {
	{ -1, "/", BW(INF, 100000, 0) },
	{ 0, "/a", BW(50000, 100000, 0) },
	{ 1, "/a/b", BW(INF, 100000, 0) },
	{ 2, "/a/b/c", BW(INF, 100000, 0) },
};

static int check_tree(size_t target, uint64_t q, uint64_t p, int version)
{
	struct cgctl_bw_settings s = BW(q, p, 0);

	e = (struct cgctl_error)CGCTL_ERROR_INIT;
	return cgctl_bw_check(tree, 4, target, &s, version, &e);
}

START_TEST(v1_child_within_parent)
{
	ck_assert_int_eq(check_tree(2, 60000, 100000, 1), -EINVAL);
	ck_assert_str_eq(e.msg, "0.6 CPU exceeds parent /a's 0.5 CPU; cgroup v1 requires "
			 "child ≤ parent");
	ck_assert_int_eq(check_tree(2, 100001, 200000, 1), -EINVAL);
	ck_assert_str_eq(e.msg, "0.500005 CPU exceeds parent /a's 0.5 CPU; cgroup v1 requires "
			 "child ≤ parent");
	/* exact integer ratios: 524290 > 524288 */
	ck_assert_int_eq(check_tree(2, 100000, 199999, 1), -EINVAL);
	ck_assert_int_eq(check_tree(2, 50000, 100000, 1), 0);
	ck_assert_int_eq(check_tree(2, 100000, 200000, 1), 0);
	ck_assert_int_eq(check_tree(2, INF, 100000, 1), 0);
	/* a grandchild under an unlimited child is held to the limited ancestor */
	ck_assert_int_eq(check_tree(3, 60000, 100000, 1), -EINVAL);
	ck_assert_str_eq(e.msg, "0.6 CPU exceeds ancestor /a's 0.5 CPU; cgroup v1 requires "
			 "child ≤ parent");
	ck_assert_int_eq(check_tree(3, 40000, 100000, 1), 0);
	/* v2 has no hierarchy rule */
	ck_assert_int_eq(check_tree(2, 60000, 100000, 2), 0);
	ck_assert_int_eq(check_tree(3, 900000, 100000, 2), 0);
}
END_TEST

START_TEST(v1_parent_above_descendants)
{
	tree[3].bw = BW(50000, 100000, 0);	/* /a/b/c at 0.5 */
	ck_assert_int_eq(check_tree(1, 40000, 100000, 1), -EINVAL);
	ck_assert_str_eq(e.msg, "0.4 CPU is below descendant /a/b/c's 0.5 CPU; cgroup v1 "
			 "requires child ≤ parent");
	ck_assert_int_eq(check_tree(1, 50000, 100000, 1), 0);
	ck_assert_int_eq(check_tree(1, INF, 100000, 1), 0);	/* -1 is always valid */
	ck_assert_int_eq(check_tree(1, 40000, 100000, 2), 0);
	tree[3].bw = BW(INF, 100000, 0);
}
END_TEST

static int plan(const struct cgctl_bw_settings *o, const struct cgctl_bw_settings *n,
		int version, const struct cgctl_bw_node *t, size_t nn, size_t target,
		struct cgctl_bw_write *w)
{
	e = (struct cgctl_error)CGCTL_ERROR_INIT;
	return cgctl_bw_write_plan(o, n, version, t, nn, target, w, &e);
}

static void expect(const struct cgctl_bw_write *w, const char *name, const char *value)
{
	ck_assert_str_eq(w->name, name);
	ck_assert_str_eq(w->value, value);
}

START_TEST(plan_scaling_up_period_first)
{
	/* verified: 50000/100000 -> 400000/800000 under a 0.5 parent, period first */
	struct cgctl_bw_node t[3] = {
		{ -1, "/", BW(INF, 100000, 0) },
		{ 0, "/p", BW(50000, 100000, 0) },
		{ 1, "/p/c", BW(50000, 100000, 0) },
	};
	struct cgctl_bw_settings o = BW(50000, 100000, 0), n = BW(400000, 800000, 0);
	struct cgctl_bw_settings qfirst = BW(400000, 100000, 0);
	struct cgctl_bw_write w[CGCTL_BW_PLAN_MAX];

	ck_assert_int_eq(cgctl_bw_check(t, 3, 2, &qfirst, 1, &e), -EINVAL);
	ck_assert_int_eq(plan(&o, &n, 1, t, 3, 2, w), 2);
	expect(&w[0], "cpu.cfs_period_us", "800000");
	expect(&w[1], "cpu.cfs_quota_us", "400000");
	ck_assert_uint_eq(w[0].after.quota_us, 50000);
	ck_assert_uint_eq(w[1].after.period_us, 800000);
	/* the same without a tree: the rule alone picks the undershoot */
	ck_assert_int_eq(plan(&o, &n, 1, NULL, 0, 0, w), 2);
	expect(&w[0], "cpu.cfs_period_us", "800000");
	/* both decreasing: quota first */
	ck_assert_int_eq(plan(&n, &o, 1, NULL, 0, 0, w), 2);
	expect(&w[0], "cpu.cfs_quota_us", "50000");
	expect(&w[1], "cpu.cfs_period_us", "100000");
}
END_TEST

START_TEST(plan_burst_order)
{
	struct cgctl_bw_settings o = BW(50000, 100000, 50000), n = BW(20000, 100000, 10000);
	struct cgctl_bw_write w[CGCTL_BW_PLAN_MAX];

	/* lower the burst before the quota passes below it */
	ck_assert_int_eq(plan(&o, &n, 1, NULL, 0, 0, w), 2);
	expect(&w[0], "cpu.cfs_burst_us", "10000");
	expect(&w[1], "cpu.cfs_quota_us", "20000");
	/* raise it last */
	ck_assert_int_eq(plan(&n, &o, 1, NULL, 0, 0, w), 2);
	expect(&w[0], "cpu.cfs_quota_us", "50000");
	expect(&w[1], "cpu.cfs_burst_us", "50000");
	/* v2: one cpu.max write, burst around it */
	ck_assert_int_eq(plan(&o, &n, 2, NULL, 0, 0, w), 2);
	expect(&w[0], "cpu.max.burst", "10000");
	expect(&w[1], "cpu.max", "20000 100000");
	ck_assert_int_eq(plan(&n, &o, 2, NULL, 0, 0, w), 2);
	expect(&w[0], "cpu.max", "50000 100000");
	expect(&w[1], "cpu.max.burst", "50000");
}
END_TEST

START_TEST(plan_skips_unchanged_and_inf)
{
	struct cgctl_bw_settings a = BW(50000, 100000, 0), inf = BW(INF, 200000, 0);
	struct cgctl_bw_write w[CGCTL_BW_PLAN_MAX];

	ck_assert_int_eq(plan(&a, &a, 1, NULL, 0, 0, w), 0);
	ck_assert_int_eq(plan(&a, &a, 2, NULL, 0, 0, w), 0);
	ck_assert_int_eq(plan(&a, &inf, 1, NULL, 0, 0, w), 2);
	expect(&w[0], "cpu.cfs_quota_us", "-1");
	expect(&w[1], "cpu.cfs_period_us", "200000");
	ck_assert_int_eq(plan(&inf, &a, 1, NULL, 0, 0, w), 2);
	expect(&w[0], "cpu.cfs_period_us", "100000");
	expect(&w[1], "cpu.cfs_quota_us", "50000");
	ck_assert_int_eq(plan(&a, &inf, 2, NULL, 0, 0, w), 1);
	expect(&w[0], "cpu.max", "max 200000");
	/* only the period */
	inf.quota_us = 50000;
	ck_assert_int_eq(plan(&a, &inf, 1, NULL, 0, 0, w), 1);
	expect(&w[0], "cpu.cfs_period_us", "200000");
}
END_TEST

START_TEST(plan_no_two_write_path)
{
	/* parent 0.5, target 0.4 with a child at 0.4; target -> 225000/500000 (0.45) */
	struct cgctl_bw_node t[4] = {
		{ -1, "/", BW(INF, 100000, 0) },
		{ 0, "/p", BW(50000, 100000, 0) },
		{ 1, "/p/t", BW(40000, 100000, 0) },
		{ 2, "/p/t/c", BW(40000, 100000, 0) },
	};
	struct cgctl_bw_settings o = t[2].bw, n = BW(225000, 500000, 0);
	struct cgctl_bw_write w[CGCTL_BW_PLAN_MAX];

	ck_assert_int_eq(plan(&o, &n, 1, t, 4, 2, w), 3);
	expect(&w[0], "cpu.cfs_quota_us", "-1");
	expect(&w[1], "cpu.cfs_period_us", "500000");
	expect(&w[2], "cpu.cfs_quota_us", "225000");
	/* every intermediate passes the rules */
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(cgctl_bw_check(t, 4, 2, &w[i].after, 1, &e), 0);
}
END_TEST

START_TEST(plan_refuses_invalid_target)
{
	struct cgctl_bw_node t[3] = {
		{ -1, "/", BW(INF, 100000, 0) },
		{ 0, "/a", BW(50000, 100000, 0) },
		{ 1, "/a/b", BW(INF, 100000, 0) },
	};
	struct cgctl_bw_settings o = t[2].bw, n = BW(60000, 100000, 0);
	struct cgctl_bw_write w[CGCTL_BW_PLAN_MAX];

	ck_assert_int_eq(plan(&o, &n, 1, t, 3, 2, w), -EINVAL);
	ck_assert_str_eq(e.msg, "0.6 CPU exceeds parent /a's 0.5 CPU; cgroup v1 requires "
			 "child ≤ parent");
	n = BW(50000, 100000, 60000);
	ck_assert_int_eq(plan(&o, &n, 2, NULL, 0, 0, w), -EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bw-check");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, ranges_rejected);
	tcase_add_test(tc, ranges_accepted);
	tcase_add_test(tc, root_refused);
	tcase_add_test(tc, v1_child_within_parent);
	tcase_add_test(tc, v1_parent_above_descendants);
	tcase_add_test(tc, plan_scaling_up_period_first);
	tcase_add_test(tc, plan_burst_order);
	tcase_add_test(tc, plan_skips_unchanged_and_inf);
	tcase_add_test(tc, plan_no_two_write_path);
	tcase_add_test(tc, plan_refuses_invalid_target);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
