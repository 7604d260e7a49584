/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * struct cgctl_cgroup on fixture trees of cgroup v1 and v2 (issue 28): every knob read
 * (a limit, the unlimited spelling), written (a number, unlimited) through the one
 * executor, absent (-ENODATA: no file on this version, or the file missing as on an
 * older kernel); a cgroup that goes away reads -ENOENT; the references.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcgctl.h"
#include "testutil.h"

#define V1_LIMIT_MAX "9223372036854771712"	/* PAGE_COUNTER_MAX with 4 KiB pages */

/* One knob on one version: the file, a limited value as the kernel prints it, the
 * number it reads as, its unlimited spelling (NULL: none), a value to write and how
 * the file then reads. */
struct row {
	enum cgctl_knob k;
	const char *ctrl, *file;
	const char *text;
	uint64_t value;
	const char *unlimited;		/* as read */
	const char *unlimited_written;	/* as written */
	uint64_t set;
	const char *set_text;
};

/* the order matters only for the v1 rule memory <= memsw: memsw is unlimited before
 * the memory limit is lifted */
static const struct row v1_rows[] = {
	{ CGCTL_KNOB_MEM_MEMSW, "memory", "memory.memsw.limit_in_bytes", "4194304", 4194304,
	  V1_LIMIT_MAX, "-1", 8388608, "8388608" },
	{ CGCTL_KNOB_MEM_LIMIT, "memory", "memory.limit_in_bytes", "1048576", 1048576,
	  V1_LIMIT_MAX, "-1", 2097152, "2097152" },
	{ CGCTL_KNOB_MEM_SOFT, "memory", "memory.soft_limit_in_bytes", "1048576", 1048576,
	  V1_LIMIT_MAX, "-1", 2097152, "2097152" },
	{ CGCTL_KNOB_MEM_SWAPPINESS, "memory", "memory.swappiness", "60", 60, NULL, NULL,
	  10, "10" },
	{ CGCTL_KNOB_CPU_BURST, "cpu", "cpu.cfs_burst_us", "0", 0, NULL, NULL, 1000,
	  "1000" },
	{ CGCTL_KNOB_CPU_QUOTA, "cpu", "cpu.cfs_quota_us", "50000", 50000, "-1", "-1", 20000,
	  "20000" },
	{ CGCTL_KNOB_CPU_PERIOD, "cpu", "cpu.cfs_period_us", "100000", 100000, NULL, NULL,
	  200000, "200000" },
	{ CGCTL_KNOB_CPU_SHARES, "cpu", "cpu.shares", "1024", 1024, NULL, NULL, 2048,
	  "2048" },
	{ CGCTL_KNOB_PIDS_MAX, "pids", "pids.max", "100", 100, "max", "max", 50, "50" },
	{ CGCTL_KNOB_MEM_MOVE_CHARGE, "memory", "memory.move_charge_at_immigrate", "3", 3,
	  NULL, NULL, 1, "1" },
};
static const enum cgctl_knob v1_absent[] = {
	CGCTL_KNOB_MEM_HIGH, CGCTL_KNOB_MEM_LOW, CGCTL_KNOB_MEM_MIN, CGCTL_KNOB_MEM_SWAP,
	CGCTL_KNOB_CPU_WEIGHT,
};

static const struct row v2_rows[] = {
	{ CGCTL_KNOB_MEM_LIMIT, "memory", "memory.max", "1048576", 1048576, "max", "max",
	  2097152, "2097152" },
	{ CGCTL_KNOB_MEM_HIGH, "memory", "memory.high", "1048576", 1048576, "max", "max",
	  2097152, "2097152" },
	{ CGCTL_KNOB_MEM_LOW, "memory", "memory.low", "1048576", 1048576, "max", "max",
	  2097152, "2097152" },
	{ CGCTL_KNOB_MEM_MIN, "memory", "memory.min", "1048576", 1048576, "max", "max",
	  2097152, "2097152" },
	{ CGCTL_KNOB_MEM_SWAP, "memory", "memory.swap.max", "1048576", 1048576, "max", "max",
	  2097152, "2097152" },
	{ CGCTL_KNOB_CPU_BURST, "cpu", "cpu.max.burst", "0", 0, NULL, NULL, 1000, "1000" },
	/* cpu.max holds both: the quota is written with the period it holds, and back */
	{ CGCTL_KNOB_CPU_QUOTA, "cpu", "cpu.max", "50000 100000", 50000, "max 100000",
	  "max 100000", 20000, "20000 100000" },
	{ CGCTL_KNOB_CPU_PERIOD, "cpu", "cpu.max", "50000 100000", 100000, NULL, NULL,
	  200000, "50000 200000" },
	{ CGCTL_KNOB_CPU_WEIGHT, "cpu", "cpu.weight", "100", 100, NULL, NULL, 200, "200" },
	{ CGCTL_KNOB_PIDS_MAX, "pids", "pids.max", "100", 100, "max", "max", 50, "50" },
};
static const enum cgctl_knob v2_absent[] = {
	CGCTL_KNOB_MEM_MEMSW, CGCTL_KNOB_MEM_SOFT, CGCTL_KNOB_MEM_SWAPPINESS,
	CGCTL_KNOB_CPU_SHARES, CGCTL_KNOB_MEM_MOVE_CHARGE,
};

static char *dir;
static struct cgctl_ctx *ctx;
static int version;

static const char *base(const char *ctrl)
{
	static char b[128];

	if (version == 2)
		return "sys/fs/cgroup/unified";
	snprintf(b, sizeof(b), "sys/fs/cgroup/%s", ctrl);
	return b;
}

static void put(const char *ctrl, const char *cg, const char *file, const char *v)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "%s%s/%s", base(ctrl), cg, file);
	ck_assert_int_eq(tu_write(dir, rel, v), 0);
}

static void expect(const char *ctrl, const char *file, const char *v)
{
	char rel[512], *s;
	size_t n;

	snprintf(rel, sizeof(rel), "%s/g/%s", base(ctrl), file);
	s = tu_read(dir, rel);
	ck_assert_ptr_nonnull(s);
	n = strlen(s);
	while (n && s[n - 1] == '\n')
		s[--n] = '\0';
	ck_assert_msg(!strcmp(s, v), "%s: '%s', expected '%s'", rel, s, v);
	free(s);
}

static void unlink_file(const char *ctrl, const char *file)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/%s/g/%s", dir, base(ctrl), file);
	ck_assert_int_eq(unlink(p), 0);
}

/* the root and /g with every file of @rows at its limited value */
static void fixture(const struct row *rows, size_t n)
{
	dir = tu_mkdtemp();
	ck_assert_ptr_nonnull(dir);
	if (version == 2)
		ck_assert_int_eq(tu_write(dir, "cgctl-mounts",
					  "2 /sys/fs/cgroup/unified cpu,memory,pids\n"), 0);
	else
		ck_assert_int_eq(tu_write(dir, "cgctl-mounts",
					  "1 /sys/fs/cgroup/memory memory\n"
					  "1 /sys/fs/cgroup/cpu cpu,cpuacct\n"
					  "1 /sys/fs/cgroup/pids pids\n"), 0);
	for (size_t i = 0; i < n; i++) {
		const char *rt = rows[i].unlimited ? rows[i].unlimited : rows[i].text;

		put(rows[i].ctrl, "", rows[i].file, rt);
		put(rows[i].ctrl, "/g", rows[i].file, rows[i].text);
	}
	ck_assert_int_eq(cgctl_new(&ctx, dir), 0);
}

static void teardown(void)
{
	cgctl_unref(ctx);
	ctx = NULL;
	tu_rmtree(dir);
	free(dir);
}

static void check_rows(const struct row *rows, size_t n, const enum cgctl_knob *absent,
		       size_t n_absent)
{
	fixture(rows, n);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const char *back = r->unlimited ? r->unlimited : r->text;
		struct cgctl_cgroup *cg;
		struct cgctl_error e = CGCTL_ERROR_INIT;
		uint64_t v = 0;
		int rc;

		ck_assert_int_eq(cgctl_cgroup_new(ctx, r->ctrl, "g", &cg), 0);
		put(r->ctrl, "/g", r->file, r->text);	/* a row before may share the file */
		/* read: a limit */
		ck_assert_int_eq(cgctl_cgroup_get(cg, r->k, &v), 0);
		ck_assert_msg(v == r->value, "%s: %llu", r->file, (unsigned long long)v);
		/* read: unlimited */
		if (r->unlimited) {
			put(r->ctrl, "/g", r->file, r->unlimited);
			ck_assert_int_eq(cgctl_cgroup_get(cg, r->k, &v), 0);
			ck_assert_msg(v == UINT64_MAX, "%s unlimited: %llu", r->file,
				      (unsigned long long)v);
			put(r->ctrl, "/g", r->file, r->text);
		}
		/* write: a number, then unlimited (or refused when the file has none) */
		rc = cgctl_cgroup_set(cg, r->k, r->set, &e);
		ck_assert_msg(rc == 0, "%s: set %d %s", r->file, rc, e.msg);
		expect(r->ctrl, r->file, r->set_text);
		ck_assert_int_eq(cgctl_cgroup_get(cg, r->k, &v), 0);
		ck_assert_msg(v == r->set, "%s: %llu after the write", r->file,
			      (unsigned long long)v);
		rc = cgctl_cgroup_set(cg, r->k, UINT64_MAX, &e);
		if (r->unlimited_written) {
			ck_assert_msg(rc == 0, "%s: set max %d %s", r->file, rc, e.msg);
			expect(r->ctrl, r->file, r->unlimited_written);
			ck_assert_int_eq(cgctl_cgroup_get(cg, r->k, &v), 0);
			ck_assert(v == UINT64_MAX);
		} else {
			ck_assert_int_eq(rc, -EINVAL);
		}
		/* absent: the kernel has no such file */
		unlink_file(r->ctrl, r->file);
		ck_assert_int_eq(cgctl_cgroup_get(cg, r->k, &v), -ENODATA);
		ck_assert_int_eq(cgctl_cgroup_set(cg, r->k, r->set, &e), -ENODATA);
		put(r->ctrl, "/g", r->file, back);
		ck_assert_ptr_null(cgctl_cgroup_unref(cg));
	}
	for (size_t i = 0; i < n_absent; i++) {
		struct cgctl_cgroup *cg;
		uint64_t v;

		ck_assert_int_eq(cgctl_cgroup_new(ctx, "memory", "/g", &cg), 0);
		ck_assert_int_eq(cgctl_cgroup_get(cg, absent[i], &v), -ENODATA);
		ck_assert_int_eq(cgctl_cgroup_set(cg, absent[i], 1, NULL), -ENODATA);
		cgctl_cgroup_unref(cg);
	}
	teardown();
}

START_TEST(test_v1_knobs)
{
	version = 1;
	check_rows(v1_rows, sizeof(v1_rows) / sizeof(v1_rows[0]), v1_absent,
		   sizeof(v1_absent) / sizeof(v1_absent[0]));
}
END_TEST

START_TEST(test_v2_knobs)
{
	version = 2;
	check_rows(v2_rows, sizeof(v2_rows) / sizeof(v2_rows[0]), v2_absent,
		   sizeof(v2_absent) / sizeof(v2_absent[0]));
}
END_TEST

/* the per-knob getters are the same door */
START_TEST(test_named_getters)
{
	struct cgctl_cgroup *cg;
	uint64_t v;

	version = 2;
	fixture(v2_rows, sizeof(v2_rows) / sizeof(v2_rows[0]));
	ck_assert_int_eq(cgctl_cgroup_new(ctx, "memory", "/g", &cg), 0);
	ck_assert_int_eq(cgctl_cgroup_get_mem_limit(cg, &v), 0);
	ck_assert(v == 1048576);
	ck_assert_int_eq(cgctl_cgroup_get_cpu_period_us(cg, &v), 0);
	ck_assert(v == 100000);
	ck_assert_int_eq(cgctl_cgroup_get_mem_memsw(cg, &v), -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_set_pids_max(cg, 7, NULL), 0);
	expect("pids", "pids.max", "7");
	cgctl_cgroup_unref(cg);
	teardown();
}
END_TEST

/* the setter is the executor's door: the v1 rule memory <= memsw refuses, nothing written */
START_TEST(test_set_rules)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct cgctl_cgroup *cg;

	version = 1;
	fixture(v1_rows, sizeof(v1_rows) / sizeof(v1_rows[0]));
	ck_assert_int_eq(cgctl_cgroup_new(ctx, "memory", "/g", &cg), 0);
	ck_assert_int_eq(cgctl_cgroup_set_mem_limit(cg, 8388608, &e), -EINVAL);
	ck_assert_msg(e.msg[0], "no reason given");
	expect("memory", "memory.limit_in_bytes", "1048576");
	ck_assert_int_eq(cgctl_cgroup_set_mem_limit(cg, UINT64_MAX, &e), -EINVAL);
	expect("memory", "memory.limit_in_bytes", "1048576");
	ck_assert_int_eq(cgctl_cgroup_set_mem_memsw(cg, UINT64_MAX, &e), 0);
	ck_assert_int_eq(cgctl_cgroup_set_mem_limit(cg, UINT64_MAX, &e), 0);
	expect("memory", "memory.limit_in_bytes", "-1");
	cgctl_cgroup_unref(cg);
	teardown();
}
END_TEST

/* one parser of limits: v1's unlimited with 64 KiB pages (arm64, ppc64: PAGE_COUNTER_MAX
 * is 9223372036854710272) reads as no limit through the object and the settings reader */
START_TEST(test_one_reader)
{
	struct cgctl_mem_settings ms;
	const struct cgctl_mount *m;
	struct cgctl_cgroup *cg;
	uint64_t v;

	version = 1;
	fixture(v1_rows, sizeof(v1_rows) / sizeof(v1_rows[0]));
	put("memory", "/g", "memory.limit_in_bytes", "9223372036854710272");
	put("memory", "/g", "memory.soft_limit_in_bytes", "9223372036854771712");
	ck_assert_int_eq(cgctl_cgroup_new(ctx, "memory", "/g", &cg), 0);
	ck_assert_int_eq(cgctl_cgroup_get_mem_limit(cg, &v), 0);
	ck_assert(v == UINT64_MAX);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	ck_assert_int_eq(cgctl_mem_settings_read(ctx, m, "/g", &ms), 0);
	ck_assert_msg(ms.max == UINT64_MAX, "settings read %llu", (unsigned long long)ms.max);
	ck_assert(ms.soft == UINT64_MAX);
	ck_assert(ms.memsw_max == 4194304);
	ck_assert_uint_eq(ms.size, sizeof(ms));
	cgctl_cgroup_unref(cg);
	teardown();
}
END_TEST

START_TEST(test_lifetime)
{
	struct cgctl_cgroup *cg, *none = NULL;
	char p[4096];
	uint64_t v;

	version = 1;
	fixture(v1_rows, sizeof(v1_rows) / sizeof(v1_rows[0]));
	ck_assert_int_eq(cgctl_cgroup_new(ctx, "memory", "/nope", &none), -ENOENT);
	ck_assert_ptr_null(none);
	ck_assert_int_eq(cgctl_cgroup_new(ctx, "nosuch", "/g", &none), -ENODEV);
	ck_assert_int_eq(cgctl_cgroup_new(ctx, "memory", "/../g", &none), -EINVAL);
	ck_assert_int_eq(cgctl_cgroup_new(ctx, "memory", "//g/", &cg), 0);
	/* the object keeps the context alive */
	ck_assert_ptr_nonnull(cgctl_unref(cgctl_ref(ctx)));
	ck_assert_ptr_eq(cgctl_cgroup_ref(cg), cg);
	ck_assert_ptr_eq(cgctl_cgroup_unref(cg), cg);
	ck_assert_int_eq(cgctl_cgroup_get(cg, CGCTL_KNOB_COUNT_, &v), -EINVAL);
	ck_assert_int_eq(cgctl_cgroup_get(cg, (enum cgctl_knob)-1, &v), -EINVAL);
	/* gone: -ENOENT, not -ENODATA */
	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/memory/g", dir);
	ck_assert_int_eq(tu_rmtree(p), 0);
	ck_assert_int_eq(cgctl_cgroup_get(cg, CGCTL_KNOB_MEM_LIMIT, &v), -ENOENT);
	ck_assert_ptr_null(cgctl_cgroup_unref(cg));
	teardown();
}
END_TEST

/* the snapshot: figures by name, v2; absent -> -ENODATA, never 0 */
START_TEST(test_stat_v2)
{
	struct cgctl_cgroup_stat *st;
	struct cgctl_cgroup *cg;
	uint64_t v = 7;

	version = 2;
	fixture(v2_rows, sizeof(v2_rows) / sizeof(v2_rows[0]));
	put("memory", "/g", "memory.current", "4096");
	put("cpu", "/g", "cpu.stat", "usage_usec 5\nnr_periods 3\nnr_throttled 1\n"
	    "throttled_usec 2\n");
	put("cpu", "/g", "cpu.pressure", "some avg10=1.25 avg60=0.00 avg300=0.00 total=9\n");
	ck_assert_int_eq(cgctl_cgroup_new(ctx, NULL, "/g", &cg), 0);
	ck_assert_int_eq(cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_MEM | CGCTL_CGSTAT_CPU_ALL |
					       CGCTL_CGSTAT_PSI, &st), 0);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.usage", &v), 0);
	ck_assert(v == 4096);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.limit", &v), 0);
	ck_assert(v == 1048576);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.failcnt", &v), -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.peak", &v), -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.stat.usage_ns", &v), 0);
	ck_assert(v == 5000);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.stat.throttled_ns", &v), 0);
	ck_assert(v == 2000);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.stat.nr_bursts", &v), -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.quota", &v), 0);
	ck_assert(v == 50000);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.period", &v), 0);
	ck_assert(v == 100000);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.pressure.some.avg10", &v), 0);
	ck_assert(v == 125);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.pressure.full.avg10", &v), -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "tasks.running", &v), -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "no.such.key", &v), -EINVAL);
	cgctl_cgroup_stat_free(st);
	cgctl_cgroup_unref(cg);
	teardown();
}
END_TEST

/* what `bw show` and `mem show` read through the snapshot (v2): cpu.stat.local, PSI of
 * both hierarchies' pressure files, memory.events; absent -> -ENODATA, never 0 */
START_TEST(test_stat_v2_show)
{
	struct cgctl_cgroup_stat *st;
	struct cgctl_cgroup *cg;
	uint64_t v = 7;

	version = 2;
	fixture(v2_rows, sizeof(v2_rows) / sizeof(v2_rows[0]));
	put("memory", "/g", "memory.current", "4096");
	put("cpu", "/g", "cpu.stat", "usage_usec 5\nnr_periods 3\nnr_throttled 1\n"
	    "throttled_usec 2\n");
	put("cpu", "/g", "cpu.stat.local", "throttled_usec 3\n");
	put("memory", "/g", "memory.pressure", "some avg10=0.50 avg60=0.00 avg300=0.00 "
	    "total=7\nfull avg10=0.25 avg60=0.00 avg300=0.00 total=3\n");
	put("memory", "/g", "memory.events", "low 0\nhigh 1\nmax 2\noom 0\noom_kill 0\n");
	ck_assert_int_eq(cgctl_cgroup_new(ctx, "memory", "/g", &cg), 0);
	ck_assert_int_eq(cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_CPU_ALL | CGCTL_CGSTAT_PSI |
					       CGCTL_CGSTAT_EVENTS, &st), 0);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.stat.throttled_local_ns", &v), 0);
	ck_assert(v == 3000);
	/* PSI reads memory.pressure without MEM_ALL */
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.pressure.some.avg10", &v), 0);
	ck_assert(v == 50);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.pressure.full.total_us", &v), 0);
	ck_assert(v == 3);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.pressure.some.avg10", &v), -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.events.high", &v), 0);
	ck_assert(v == 1);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.events.sock_throttled", &v),
			 -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.events.local.low", &v), -ENODATA);
	cgctl_cgroup_stat_free(st);
	/* a kernel before 6.6: no cpu.stat.local */
	unlink_file("cpu", "cpu.stat.local");
	unlink_file("memory", "memory.pressure");
	ck_assert_int_eq(cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_CPU_ALL | CGCTL_CGSTAT_PSI,
					       &st), 0);
	v = 7;
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "cpu.stat.throttled_local_ns", &v),
			 -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.pressure.some.avg10", &v),
			 -ENODATA);
	ck_assert(v == 7);
	cgctl_cgroup_stat_free(st);
	cgctl_cgroup_unref(cg);
	teardown();
}
END_TEST

/* what `mem show` reads through the snapshot and the getters on v1 (issue 28: one
 * reader of the memory counters): memsw usage, limit, failcnt and peak; absent and
 * unlimited; move_charge_at_immigrate through its knob */
START_TEST(test_stat_v1_mem_show)
{
	struct cgctl_cgroup_stat *st;
	struct cgctl_cgroup *cg;
	uint64_t v = 7;

	version = 1;
	fixture(v1_rows, sizeof(v1_rows) / sizeof(v1_rows[0]));
	put("memory", "/g", "memory.usage_in_bytes", "8192");
	put("memory", "/g", "memory.failcnt", "4");
	put("memory", "/g", "memory.max_usage_in_bytes", "12288");
	put("memory", "/g", "memory.memsw.usage_in_bytes", "16384");
	put("memory", "/g", "memory.memsw.failcnt", "2");
	put("memory", "/g", "memory.memsw.max_usage_in_bytes", "20480");
	ck_assert_int_eq(cgctl_cgroup_new(ctx, "memory", "/g", &cg), 0);
	ck_assert_int_eq(cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_MEM_ALL, &st), 0);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.usage", &v), 0);
	ck_assert(v == 8192);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.peak", &v), 0);
	ck_assert(v == 12288);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.memsw.usage", &v), 0);
	ck_assert(v == 16384);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.memsw", &v), 0);
	ck_assert(v == 4194304);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.memsw.failcnt", &v), 0);
	ck_assert(v == 2);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.memsw.peak", &v), 0);
	ck_assert(v == 20480);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.swap.usage", &v), -ENODATA);
	cgctl_cgroup_stat_free(st);
	/* not asked for: -ENODATA, never 0 */
	ck_assert_int_eq(cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_MEM, &st), 0);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.memsw.peak", &v), -ENODATA);
	cgctl_cgroup_stat_free(st);
	/* unlimited memsw; no max_usage file */
	put("memory", "/g", "memory.memsw.limit_in_bytes", V1_LIMIT_MAX);
	unlink_file("memory", "memory.memsw.max_usage_in_bytes");
	ck_assert_int_eq(cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_MEM_ALL, &st), 0);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.memsw", &v), 0);
	ck_assert(v == UINT64_MAX);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.memsw.peak", &v), -ENODATA);
	cgctl_cgroup_stat_free(st);
	/* no swap accounting: no memsw figure at all */
	unlink_file("memory", "memory.memsw.usage_in_bytes");
	ck_assert_int_eq(cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_MEM_ALL, &st), 0);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.memsw.usage", &v), -ENODATA);
	ck_assert_int_eq(cgctl_cgroup_stat_get(st, "memory.memsw.failcnt", &v), -ENODATA);
	cgctl_cgroup_stat_free(st);
	ck_assert_int_eq(cgctl_cgroup_get_mem_move_charge(cg, &v), 0);
	ck_assert(v == 3);
	cgctl_cgroup_unref(cg);
	teardown();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cgroup");
	TCase *tc = tcase_create("object");

	tcase_add_test(tc, test_v1_knobs);
	tcase_add_test(tc, test_v2_knobs);
	tcase_add_test(tc, test_named_getters);
	tcase_add_test(tc, test_set_rules);
	tcase_add_test(tc, test_one_reader);
	tcase_add_test(tc, test_lifetime);
	tcase_add_test(tc, test_stat_v2);
	tcase_add_test(tc, test_stat_v2_show);
	tcase_add_test(tc, test_stat_v1_mem_show);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
