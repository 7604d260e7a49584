/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgctl_move_throttle_limits() (lib/predict/move-throttle.c) on v2 trees where the
 * destination, or a cgroup above it, has no cpu controller: systemd's
 * /system.slice/plain.service at boot (issue 27).  The limits are those of the deepest
 * cgroup that has the controller, never "cannot read the CPU bandwidth settings".
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"
#include "testutil.h"

#define C "sys/fs/cgroup"

static char *dir;
static struct cgctl_ctx *ctx;
static const struct cgctl_mount *m;

static void put(const char *rel, const char *v)
{
	ck_assert_int_eq(tu_write(dir, rel, v), 0);
}

/* a v2 cgroup: @cpu_max NULL means no cpu controller (no cpu.max, memory only) */
static void group(const char *g, const char *cpu_max)
{
	char rel[256];

	snprintf(rel, sizeof(rel), C "%s/cgroup.controllers", g);
	put(rel, cpu_max ? "cpu memory pids\n" : "memory pids\n");
	if (!cpu_max)
		return;
	snprintf(rel, sizeof(rel), C "%s/cpu.max", g);
	put(rel, cpu_max);
}

/*
 * / (cpu memory pids passed to /limited and /system.slice only as noted):
 * /system.slice            no cpu  -> /system.slice/plain.service no cpu
 * /limited 0.5 CPU         -> /limited/nocpu (no cpu) -> /limited/nocpu/x (no cpu)
 * /open unlimited, 50 ms   -> /open/nocpu (no cpu)
 */
static void tree(void)
{
	dir = tu_mkdtemp();
	put("cgctl-mounts", "2 /" C " cpu,memory,pids\n");
	put(C "/cgroup.controllers", "cpu memory pids\n");
	group("/system.slice", NULL);
	group("/system.slice/plain.service", NULL);
	group("/limited", "50000 100000\n");
	group("/limited/nocpu", NULL);
	group("/limited/nocpu/x", NULL);
	group("/open", "max 50000\n");
	group("/open/nocpu", NULL);
	ck_assert_int_eq(cgctl_new(&ctx, dir), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), 0);
}

static void done(void)
{
	cgctl_unref(ctx);
	tu_rmtree(dir);
	free(dir);
}

START_TEST(no_cpu_anywhere_above)
{
	struct cgctl_move_throttle mt;
	struct cgctl_error e = CGCTL_ERROR_INIT;

	tree();
	ck_assert_int_eq(cgctl_move_throttle_limits_into(ctx, m, "/system.slice/plain.service", 2,
						    &mt, &e), 0);
	ck_assert(!mt.limited);
	ck_assert_uint_eq(mt.levels, 1);
	ck_assert_uint_eq(mt.bw.quota_us, CGCTL_BW_INF);
	ck_assert_uint_eq(mt.bw.period_us, 100000);
	ck_assert_str_eq(mt.path, "/system.slice/plain.service");
	ck_assert_int_eq(cgctl_move_throttle_limits_into(ctx, m, "/system.slice", 2, &mt, &e), 0);
	ck_assert(!mt.limited);
	done();
}
END_TEST

START_TEST(limited_ancestor_still_throttles)
{
	struct cgctl_move_throttle mt;
	struct cgctl_error e = CGCTL_ERROR_INIT;

	tree();
	ck_assert_int_eq(cgctl_move_throttle_limits_into(ctx, m, "/limited/nocpu/x", 2, &mt, &e),
			 0);
	ck_assert(mt.limited);
	ck_assert_str_eq(mt.limit_path, "/limited");
	ck_assert_uint_eq(mt.levels, 1);
	ck_assert_uint_eq(mt.bw.quota_us, 50000);
	ck_assert_uint_eq(mt.bw.period_us, 100000);
	done();
}
END_TEST

START_TEST(unlimited_parent_period_kept)
{
	struct cgctl_move_throttle mt;
	struct cgctl_error e = CGCTL_ERROR_INIT;

	tree();
	ck_assert_int_eq(cgctl_move_throttle_limits_into(ctx, m, "/open/nocpu", 2, &mt, &e), 0);
	ck_assert(!mt.limited);
	ck_assert_uint_eq(mt.levels, 1);
	ck_assert_uint_eq(mt.bw.quota_us, CGCTL_BW_INF);
	ck_assert_uint_eq(mt.bw.period_us, 50000);
	done();
}
END_TEST

/* The object and its getters: what `cgctl move` prints of the limits. */
START_TEST(getters)
{
	struct cgctl_move_throttle *mt = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	uint64_t v;
	double d;

	tree();
	ck_assert_int_eq(cgctl_move_throttle_limits(ctx, m, "/limited/nocpu/x", 2, &mt, &e),
			 0);
	ck_assert_ptr_nonnull(mt);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "limited", &v), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "quota_us", &v), 0);
	ck_assert_uint_eq(v, 50000);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "period_us", &v), 0);
	ck_assert_uint_eq(v, 100000);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "burst_us", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "ncpus", &v), 0);
	ck_assert_uint_eq(v, 2);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "demand", &v), 0);
	ck_assert_uint_eq(v, CGCTL_MOVE_DEMAND_NONE);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "sample_ns", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "before.threads", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "after.nr_periods", &v), 0);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "after.nope", &v), -EINVAL);
	ck_assert_int_eq(cgctl_move_throttle_get(mt, "nope", &v), -EINVAL);
	ck_assert_int_eq(cgctl_move_throttle_cpus(mt, "limit_cpus", &d), 0);
	ck_assert(d == 0.5);
	ck_assert_int_eq(cgctl_move_throttle_cpus(mt, "before.demand_cpus", &d), 0);
	ck_assert(d == 0);
	ck_assert_int_eq(cgctl_move_throttle_cpus(mt, "ncpus", &d), -EINVAL);
	ck_assert_str_eq(cgctl_move_throttle_str(mt, "path"), "/limited/nocpu/x");
	ck_assert_str_eq(cgctl_move_throttle_str(mt, "limit_path"), "/limited");
	ck_assert_str_eq(cgctl_move_throttle_str(mt, "why_not_recorded"), "");
	ck_assert_ptr_null(cgctl_move_throttle_str(mt, "nope"));
	cgctl_move_throttle_free(mt);
	mt = NULL;
	ck_assert_int_eq(cgctl_move_throttle_limits(ctx, m, "/nope/x", 2, &mt, &e), -ENOENT);
	ck_assert_ptr_null(mt);
	done();
}
END_TEST

START_TEST(missing_cgroup_still_fails)
{
	struct cgctl_move_throttle mt;
	struct cgctl_error e = CGCTL_ERROR_INIT;

	tree();
	ck_assert_int_eq(cgctl_move_throttle_limits_into(ctx, m, "/nope/x", 2, &mt, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, "cannot read the CPU bandwidth settings"));
	ck_assert_int_eq(cgctl_move_throttle_limits_into(ctx, m, "/system.slice/nope", 2, &mt,
						    &e), -ENOENT);
	done();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("move-limits");
	TCase *tc = tcase_create("v2-no-cpu");

	tcase_add_test(tc, no_cpu_anywhere_above);
	tcase_add_test(tc, limited_ancestor_still_throttles);
	tcase_add_test(tc, unlimited_parent_period_kept);
	tcase_add_test(tc, missing_cgroup_still_fails);
	tcase_add_test(tc, getters);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
