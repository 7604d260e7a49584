/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lib/kernel/systemd*.c on canned values: the unit that owns a cgroup path (slices,
 * escapes such as "\x2d", cg_escape()'s "_"), unit name rules, the writer of a cgroup,
 * delegation marks (trusted.delegate) on a fixture tree, and the interface file ->
 * unit property mapping with systemd's cpu.max rounding.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "libcgctl.h"
#include "kernel/systemd.h"
#include "util/sdbus.h"
#include "testutil.h"

static void owner(const char *path, const char *name, const char *cgroup, bool below)
{
	struct cgctl_unit u = CGCTL_UNIT_INIT;

	ck_assert_int_eq(sd_unit_from_path(path, &u), 0);
	ck_assert_msg(!strcmp(u.name, name), "%s: unit %s, expected %s", path, u.name, name);
	ck_assert_msg(!strcmp(u.cgroup, cgroup), "%s: cgroup %s, expected %s", path,
		      u.cgroup, cgroup);
	ck_assert_msg(u.below == below, "%s: below %d", path, u.below);
}

/* libsystemd is loaded at first use, not linked: the load finds every function, and
 * what follows is sd_bus_open_system()'s own answer (no bus here: an error, not
 * -ELIBACC) */
START_TEST(sdbus_loaded_on_demand)
{
	sd_bus *bus = NULL;
	int r = sdbus_open_system(&bus);

	ck_assert_int_ne(r, -ELIBACC);
	ck_assert_ptr_nonnull(sym_sd_bus_call_method);
	ck_assert_ptr_nonnull(sym_sd_bus_wait);
	if (r >= 0)
		sym_sd_bus_flush_close_unref(bus);
	else
		ck_assert_ptr_null(bus);
	ck_assert_int_eq(sdbus_open_system(NULL), -EINVAL);
}
END_TEST

START_TEST(unit_of_path)
{
	owner("/", "-.slice", "/", false);
	owner("/system.slice", "system.slice", "/system.slice", false);
	owner("/system.slice/hog.service", "hog.service", "/system.slice/hog.service", false);
	owner("/system.slice/hog.service/sub/x", "hog.service", "/system.slice/hog.service",
	      true);
	owner("/user.slice/user-0.slice/session-1.scope", "session-1.scope",
	      "/user.slice/user-0.slice/session-1.scope", false);
	owner("/user.slice/user-0.slice", "user-0.slice", "/user.slice/user-0.slice", false);
	owner("/user.slice/user-0.slice/user@0.service/app.slice/x.service", "user@0.service",
	      "/user.slice/user-0.slice/user@0.service", true);
	/* an escaped dash is part of the name, not a slice separator */
	owner("/system.slice/system-serial\\x2dgetty.slice",
	      "system-serial\\x2dgetty.slice", "/system.slice/system-serial\\x2dgetty.slice",
	      false);
	owner("/system.slice/system-serial\\x2dgetty.slice/serial-getty@ttyS0.service",
	      "serial-getty@ttyS0.service",
	      "/system.slice/system-serial\\x2dgetty.slice/serial-getty@ttyS0.service", false);
	/* cg_escape(): "cpu.service" would look like a cpu controller file */
	owner("/system.slice/_cpu.service", "cpu.service", "/system.slice/_cpu.service", false);
	/* cgroups systemd did not make: the slice (or the root slice) above them */
	owner("/cgctl-validate-12", "-.slice", "/", true);
	owner("/system.slice/scratch/a", "system.slice", "/system.slice", true);
	/* "b.slice" is no child of "a.slice": not a slice of systemd's */
	owner("/a.slice/b.slice", "a.slice", "/a.slice", true);
	owner("/a.slice/a-b.slice", "a-b.slice", "/a.slice/a-b.slice", false);
	/* a unit name that is not valid is no unit */
	owner("/system.slice/bad$.service", "system.slice", "/system.slice", true);
	owner("/system.slice/tmpl@.service", "system.slice", "/system.slice", true);
}
END_TEST

START_TEST(unit_names)
{
	static const char *const good[] = {
		"a.service", "getty@tty1.service", "session-1.scope", "-.slice",
		"dev-disk-by\\x2duuid-1.swap", "x:y_z.socket", "home.mount",
	};
	static const char *const bad[] = {
		"", ".service", "a", "a.target", "a.timer", "a.servic", "a b.service",
		"@x.service", "tmpl@.service", "a/b.service",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(sd_unit_name_valid(good[i], strlen(good[i])), "%s", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!sd_unit_name_valid(bad[i], strlen(bad[i])), "%s", bad[i]);
	ck_assert_int_eq(sd_unit_from_path("system.slice", &(struct cgctl_unit){ 0 }),
			 -EINVAL);
}
END_TEST

START_TEST(writer)
{
	struct cgctl_unit u = { .below = false };

	ck_assert_int_eq(cgctl_unit_writer(NULL), CGCTL_WRITER_DIRECT);
	ck_assert_int_eq(cgctl_unit_writer(&u), CGCTL_WRITER_SYSTEMD);
	u.delegated = true;
	ck_assert_int_eq(cgctl_unit_writer(&u), CGCTL_WRITER_SYSTEMD);
	u.below = true;
	ck_assert_int_eq(cgctl_unit_writer(&u), CGCTL_WRITER_DIRECT);
	u.delegated = false;
	ck_assert_int_eq(cgctl_unit_writer(&u), CGCTL_WRITER_REFUSED);
}
END_TEST

static int props(const char *file, const char *value, struct sd_prop p[2])
{
	memset(p, 0, 2 * sizeof(*p));
	return sd_props_of_knob(file, value, p);
}

START_TEST(property_mapping)
{
	struct sd_prop p[2];

	ck_assert_int_eq(props("cpu.max", "20000 100000", p), 2);
	ck_assert_str_eq(p[0].name, "CPUQuotaPerSecUSec");
	ck_assert_uint_eq(p[0].value, 200000);
	ck_assert_str_eq(p[1].name, "CPUQuotaPeriodUSec");
	ck_assert_uint_eq(p[1].value, 100000);
	ck_assert_int_eq(props("cpu.max", "max 100000\n", p), 2);
	ck_assert_uint_eq(p[0].value, UINT64_MAX);
	ck_assert_int_eq(props("cpu.max", "max", p), 2);
	ck_assert_uint_eq(p[1].value, 100000);
	ck_assert_int_eq(props("memory.high", "536870912", p), 1);
	ck_assert_str_eq(p[0].name, "MemoryHigh");
	ck_assert_uint_eq(p[0].value, 536870912);
	ck_assert_int_eq(props("memory.max", "max\n", p), 1);
	ck_assert_str_eq(p[0].name, "MemoryMax");
	ck_assert_uint_eq(p[0].value, UINT64_MAX);
	ck_assert_int_eq(props("memory.low", "0", p), 1);
	ck_assert_str_eq(p[0].name, "MemoryLow");
	ck_assert_int_eq(props("memory.min", "4096", p), 1);
	ck_assert_str_eq(p[0].name, "MemoryMin");
	ck_assert_int_eq(props("memory.swap.max", "0", p), 1);
	ck_assert_str_eq(p[0].name, "MemorySwapMax");
	ck_assert_int_eq(props("cpu.weight", "500", p), 1);
	ck_assert_str_eq(p[0].name, "CPUWeight");
	ck_assert_uint_eq(p[0].value, 500);
	/* no property on systemd 252: written directly */
	ck_assert_int_eq(props("cpu.max.burst", "5000", p), 0);
	ck_assert_int_eq(props("memory.oom.group", "1", p), 0);
	/* values systemd cannot hold */
	ck_assert_int_eq(props("cpu.max", "20000", p), -EINVAL);
	ck_assert_int_eq(props("cpu.max", "20000 0", p), -EINVAL);
	ck_assert_int_eq(props("cpu.max", "20000 2000000", p), -EINVAL);
	ck_assert_int_eq(props("cpu.max", "x 100000", p), -EINVAL);
	ck_assert_int_eq(props("cpu.weight", "0", p), -EINVAL);
	ck_assert_int_eq(props("cpu.weight", "10001", p), -EINVAL);
	ck_assert_int_eq(props("cpu.weight", "max", p), -EINVAL);
	ck_assert_int_eq(props("memory.max", "-1", p), -EINVAL);
	ck_assert_int_eq(props("memory.max", "12k", p), -EINVAL);
	ck_assert_int_eq(props("memory.max", "", p), -EINVAL);
}
END_TEST

/* systemd writes quota = CPUQuotaPerSecUSec * period / 1 s, rounded down
 * (src/core/cgroup.c:cgroup_apply_unified_cpu_quota(), v252): every quota comes back */
START_TEST(cpu_quota_round_trip)
{
	static const uint64_t periods[] = { 1000, 3000, 7000, 33333, 100000, 300000,
					    777777, 999999, 1000000 };
	struct sd_prop p[2];
	char v[64];

	for (size_t i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		for (uint64_t q = 1000; q < 5000000; q = q * 3 / 2 + 7) {
			snprintf(v, sizeof(v), "%llu %llu", (unsigned long long)q,
				 (unsigned long long)periods[i]);
			ck_assert_int_eq(props("cpu.max", v, p), 2);
			ck_assert_msg(p[0].value * periods[i] / 1000000 == q,
				      "%s: %llu per second gives back %llu", v,
				      (unsigned long long)p[0].value,
				      (unsigned long long)(p[0].value * periods[i] / 1000000));
		}
	}
}
END_TEST

static char *dir;

static struct cgctl_ctx *tree(bool booted)
{
	struct cgctl_ctx *ctx;

	dir = tu_mkdtemp();
	ck_assert_int_eq(tu_write(dir, "cgctl-mounts", "2 /sys/fs/cgroup cpu,memory\n"), 0);
	ck_assert_int_eq(tu_write(dir, "sys/fs/cgroup/cgroup.controllers", "cpu memory\n"),
			 0);
	ck_assert_int_eq(tu_write(dir, "sys/fs/cgroup/system.slice/d.service/cpu.max",
				  "max 100000\n"), 0);
	ck_assert_int_eq(tu_write(dir, "sys/fs/cgroup/system.slice/d.service/w/cpu.max",
				  "max 100000\n"), 0);
	ck_assert_int_eq(tu_write(dir, "sys/fs/cgroup/system.slice/p.service/w/cpu.max",
				  "max 100000\n"), 0);
	if (booted)
		ck_assert_int_eq(tu_write(dir, "run/systemd/system/.keep", ""), 0);
	ck_assert_int_eq(cgctl_new(&ctx, dir), 0);
	return ctx;
}

static void untree(struct cgctl_ctx *ctx)
{
	cgctl_unref(ctx);
	tu_rmtree(dir);
	free(dir);
}

START_TEST(not_booted_nothing_owns)
{
	struct cgctl_ctx *ctx = tree(false);
	const struct cgctl_mount *m;
	struct cgctl_unit u = CGCTL_UNIT_INIT;

	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), 0);
	ck_assert(!cgctl_systemd_booted(ctx));
	ck_assert_int_eq(cgctl_cgroup_unit(ctx, m, "/system.slice/d.service", &u), 0);
	ck_assert_int_eq(cgctl_cgroup_unit(ctx, m, "/nope", &u), -ENOENT);
	untree(ctx);
}
END_TEST

START_TEST(booted_delegation)
{
	struct cgctl_ctx *ctx = tree(true);
	const struct cgctl_mount *m;
	struct cgctl_unit u = CGCTL_UNIT_INIT;
	char cg[4096];

	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), 0);
	ck_assert(cgctl_systemd_booted(ctx));
	snprintf(cg, sizeof(cg), "%s/sys/fs/cgroup/system.slice/d.service", dir);
	if (setxattr(cg, "trusted.delegate", "1", 1, 0) < 0) {
		untree(ctx);
		return;	/* not root, or no trusted xattrs here: the live VM tier covers it */
	}
	ck_assert_int_eq(cgctl_cgroup_unit(ctx, m, "/system.slice/d.service/w", &u), 1);
	ck_assert_str_eq(u.name, "d.service");
	ck_assert(u.below && u.delegated);
	ck_assert_int_eq(cgctl_unit_writer(&u), CGCTL_WRITER_DIRECT);
	ck_assert_int_eq(cgctl_cgroup_unit(ctx, m, "/system.slice/d.service", &u), 1);
	ck_assert_int_eq(cgctl_unit_writer(&u), CGCTL_WRITER_SYSTEMD);
	ck_assert_int_eq(cgctl_cgroup_unit(ctx, m, "/system.slice/p.service/w", &u), 1);
	ck_assert(u.below && !u.delegated);
	ck_assert_int_eq(cgctl_unit_writer(&u), CGCTL_WRITER_REFUSED);
	untree(ctx);
}
END_TEST

START_TEST(apply_checks_first)
{
	struct cgctl_ctx *ctx = tree(true);
	struct cgctl_error e = CGCTL_ERROR_INIT;
	const struct cgctl_mount *m;
	struct cgctl_unit u = CGCTL_UNIT_INIT;
	struct cgctl_unit_knob k[2] = {
		CGCTL_UNIT_KNOB("cpu.max", "20000 100000"), CGCTL_UNIT_KNOB("cpu.max.burst", "5000"),
	};
	struct cgctl_unit bare = { 0 };

	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), 0);
	/* structures without their size are refused */
	ck_assert_int_eq(cgctl_cgroup_unit(ctx, m, "/system.slice/d.service", &bare), -EINVAL);
	ck_assert_int_eq(cgctl_cgroup_unit(ctx, m, "/system.slice/d.service", &u), 1);
	ck_assert_uint_eq(u.size, sizeof(u));
	k[1].size = 0;
	ck_assert_int_eq(cgctl_unit_apply(ctx, m, &u, k, 2, CGCTL_UNIT_CHECK_ONLY, &e),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "CGCTL_UNIT_KNOB"));
	k[1] = CGCTL_UNIT_KNOB("cpu.max.burst", "5000");
	/* a fixture root never reaches the host's bus; the values were checked first */
	ck_assert_int_eq(cgctl_unit_apply(ctx, m, &u, k, 2, 0, &e), -EOPNOTSUPP);
	ck_assert_str_eq(k[0].how, "systemd");
	ck_assert_str_eq(k[1].how, "direct");
	k[0].value = "20000";
	ck_assert_int_eq(cgctl_unit_apply(ctx, m, &u, k, 2, 0, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "cpu.max: '20000'"));
	untree(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("systemd");
	TCase *tc = tcase_create("units");

	tcase_add_test(tc, unit_of_path);
	tcase_add_test(tc, sdbus_loaded_on_demand);
	tcase_add_test(tc, unit_names);
	tcase_add_test(tc, writer);
	tcase_add_test(tc, property_mapping);
	tcase_add_test(tc, cpu_quota_round_trip);
	tcase_add_test(tc, not_booted_nothing_owns);
	tcase_add_test(tc, booted_delegation);
	tcase_add_test(tc, apply_checks_first);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
