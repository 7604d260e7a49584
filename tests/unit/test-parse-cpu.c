/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cpu.stat (v1, v2), cpuacct, cpu.max, cfs_quota_us and memory limits. */
#include "test-parse.h"

#define ALL_V2 (CGCTL_CPU_STAT_USAGE | CGCTL_CPU_STAT_USER | CGCTL_CPU_STAT_SYSTEM | \
		CGCTL_CPU_STAT_NR_PERIODS | CGCTL_CPU_STAT_NR_THROTTLED |             \
		CGCTL_CPU_STAT_THROTTLED | CGCTL_CPU_STAT_NR_BURSTS | CGCTL_CPU_STAT_BURST)
#define V1_BW (CGCTL_CPU_STAT_NR_PERIODS | CGCTL_CPU_STAT_NR_THROTTLED | \
	       CGCTL_CPU_STAT_THROTTLED | CGCTL_CPU_STAT_NR_BURSTS | CGCTL_CPU_STAT_BURST)

START_TEST(cpu_stat_v1)
{
	/* this kernel's v1 cpu.stat layout, with numbers */
	const char f[] = "nr_periods 120\nnr_throttled 37\nthrottled_time 2500000123\n"
			 "nr_bursts 4\nburst_time 15000000\nwait_sum 99\n";
	struct cgctl_cpu_stat st = { 0 };

	ck_assert_int_eq(cgctl_parse_cpu_stat(S(f), 1, &st), 0);
	ck_assert_uint_eq(st.present, V1_BW);
	ck_assert_uint_eq(st.nr_periods, 120);
	ck_assert_uint_eq(st.nr_throttled, 37);
	ck_assert_uint_eq(st.throttled_ns, 2500000123ull);
	ck_assert_uint_eq(st.nr_bursts, 4);
	ck_assert_uint_eq(st.burst_ns, 15000000);
	/* the v2 names mean nothing in a v1 file */
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("usage_usec 5\nthrottled_usec 7\n"), 1, &st), 0);
	ck_assert_uint_eq(st.present, 0);
	/* pre-5.14 v1: no burst lines */
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("nr_periods 0\nnr_throttled 0\n"
						"throttled_time 0\n"), 1, &st), 0);
	ck_assert_uint_eq(st.present, CGCTL_CPU_STAT_NR_PERIODS | CGCTL_CPU_STAT_NR_THROTTLED |
				      CGCTL_CPU_STAT_THROTTLED);
}
END_TEST

START_TEST(cpu_stat_v2)
{
	const char f[] = "usage_usec 8500123\nuser_usec 6000000\nsystem_usec 2500123\n"
			 "core_sched.force_idle_usec 0\nnr_periods 50\nnr_throttled 10\n"
			 "throttled_usec 250000\nnr_bursts 2\nburst_usec 30000\n";
	struct cgctl_cpu_stat st = { 0 };

	ck_assert_int_eq(cgctl_parse_cpu_stat(S(f), 2, &st), 0);
	ck_assert_uint_eq(st.present, ALL_V2);
	ck_assert_uint_eq(st.usage_ns, 8500123000ull);
	ck_assert_uint_eq(st.user_ns, 6000000000ull);
	ck_assert_uint_eq(st.system_ns, 2500123000ull);
	ck_assert_uint_eq(st.nr_periods, 50);
	ck_assert_uint_eq(st.nr_throttled, 10);
	ck_assert_uint_eq(st.throttled_ns, 250000000ull);
	ck_assert_uint_eq(st.nr_bursts, 2);
	ck_assert_uint_eq(st.burst_ns, 30000000ull);
	/* controller not enabled: only the rstat lines */
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("usage_usec 1\nuser_usec 1\nsystem_usec 0\n"),
					      2, &st), 0);
	ck_assert_uint_eq(st.present, CGCTL_CPU_STAT_USAGE | CGCTL_CPU_STAT_USER |
				      CGCTL_CPU_STAT_SYSTEM);
	/* v1 names ignored in v2 */
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("throttled_time 5\n"), 2, &st), 0);
	ck_assert_uint_eq(st.present, 0);
}
END_TEST

START_TEST(cpu_stat_errors_keep_st)
{
	struct cgctl_cpu_stat st = { .nr_periods = 7, .present = CGCTL_CPU_STAT_NR_PERIODS };

	/* 18446744073709552 µs overflows ns */
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("nr_periods 1\nusage_usec 18446744073709552\n"),
					      2, &st), -ERANGE);
	ck_assert_uint_eq(st.nr_periods, 7);
	ck_assert_uint_eq(st.present, CGCTL_CPU_STAT_NR_PERIODS);
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("usage_usec 18446744073709551\n"), 2, &st), 0);
	ck_assert_uint_eq(st.usage_ns, 18446744073709551000ull);
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("nr_periods x\n"), 2, &st), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("nr_periods -1\n"), 1, &st), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("nr_periods\n"), 1, &st), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("nr_periods 1\n"), 3, &st), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("nr_periods 1\n"), 0, &st), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("nr_periods 1\n"), 1, NULL), -EINVAL);
	ck_assert_uint_eq(st.nr_periods, 7);
}
END_TEST

START_TEST(cpuacct_merge)
{
	struct cgctl_cpu_stat st = { 0 };

	ck_assert_int_eq(cgctl_parse_cpuacct_usage(S("123456789\n"), &st), 0);
	ck_assert_int_eq(cgctl_parse_cpu_stat(S("nr_periods 3\nnr_throttled 1\n"
						"throttled_time 500\n"), 1, &st), 0);
	ck_assert_int_eq(cgctl_parse_cpuacct_stat(S("user 150\nsystem 25\n"), 100, &st), 0);
	ck_assert_uint_eq(st.usage_ns, 123456789);
	ck_assert_uint_eq(st.user_ns, 1500000000ull);
	ck_assert_uint_eq(st.system_ns, 250000000ull);
	ck_assert_uint_eq(st.throttled_ns, 500);
	ck_assert_uint_eq(st.present, CGCTL_CPU_STAT_USAGE | CGCTL_CPU_STAT_USER |
		CGCTL_CPU_STAT_SYSTEM | CGCTL_CPU_STAT_NR_PERIODS |
		CGCTL_CPU_STAT_NR_THROTTLED | CGCTL_CPU_STAT_THROTTLED);
	/* USER_HZ that does not divide 1e9: 1 tick at 300 Hz = 3333333 ns (floor) */
	ck_assert_int_eq(cgctl_parse_cpuacct_stat(S("user 1\nsystem 3\n"), 300, &st), 0);
	ck_assert_uint_eq(st.user_ns, 3333333);
	ck_assert_uint_eq(st.system_ns, 10000000);
	ck_assert_int_eq(cgctl_parse_cpuacct_stat(S("user 1\nsystem 3\n"), 0, &st), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpuacct_stat(S("user 1\n"), 100, &st), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpuacct_stat(S("user 18446744073709551615\nsystem 0\n"),
						  100, &st), -ERANGE);
	ck_assert_int_eq(cgctl_parse_cpuacct_usage(S("-5\n"), &st), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpuacct_usage(S(""), &st), -EINVAL);
	ck_assert_uint_eq(st.usage_ns, 123456789);
}
END_TEST

START_TEST(cpu_max)
{
	uint64_t q = 1, p = 1;

	ck_assert_int_eq(cgctl_parse_cpu_max(S("max 100000\n"), &q, &p), 0);
	ck_assert_uint_eq(q, UINT64_MAX);
	ck_assert_uint_eq(p, 100000);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("50000 100000\n"), &q, &p), 0);
	ck_assert_uint_eq(q, 50000);
	ck_assert_uint_eq(p, 100000);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("max"), &q, &p), 0);
	ck_assert_uint_eq(q, UINT64_MAX);
	ck_assert_uint_eq(p, 0);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("2500\n"), &q, &p), 0);
	ck_assert_uint_eq(q, 2500);
	ck_assert_uint_eq(p, 0);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("1000  20000\n"), &q, &p), 0);
	ck_assert_uint_eq(p, 20000);
	q = p = 77;
	ck_assert_int_eq(cgctl_parse_cpu_max(S(""), &q, &p), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("\n"), &q, &p), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("max max\n"), &q, &p), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("1 2 3\n"), &q, &p), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("-1 100000\n"), &q, &p), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("maxx 100000\n"), &q, &p), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("50000 100000x\n"), &q, &p), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("18446744073709551616 100000\n"), &q, &p),
			 -ERANGE);
	ck_assert_int_eq(cgctl_parse_cpu_max(S("5\0 100000\n"), &q, &p), -EINVAL);
	ck_assert_uint_eq(q, 77);
	ck_assert_uint_eq(p, 77);
	/* bounded: "50000 1" */
	ck_assert_int_eq(cgctl_parse_cpu_max("50000 100000", 7, &q, &p), 0);
	ck_assert_uint_eq(p, 1);
}
END_TEST

START_TEST(cfs_quota)
{
	uint64_t q = 0;

	ck_assert_int_eq(cgctl_parse_cfs_quota(S("-1\n"), &q), 0);
	ck_assert_uint_eq(q, UINT64_MAX);
	ck_assert_int_eq(cgctl_parse_cfs_quota(S("-1000\n"), &q), 0);
	ck_assert_uint_eq(q, UINT64_MAX);
	ck_assert_int_eq(cgctl_parse_cfs_quota(S("50000\n"), &q), 0);
	ck_assert_uint_eq(q, 50000);
	ck_assert_int_eq(cgctl_parse_cfs_quota(S("0"), &q), 0);
	ck_assert_uint_eq(q, 0);
	ck_assert_int_eq(cgctl_parse_cfs_quota(S(""), &q), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cfs_quota(S("max\n"), &q), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cfs_quota(S("- 1\n"), &q), -EINVAL);
	ck_assert_int_eq(cgctl_parse_cfs_quota(S("9223372036854775808\n"), &q), -ERANGE);
	ck_assert_int_eq(cgctl_parse_cfs_quota(S("1\n"), NULL), -EINVAL);
}
END_TEST

START_TEST(mem_limit)
{
	uint64_t b = 0;

	ck_assert_int_eq(cgctl_parse_mem_limit(S("max\n"), &b), 0);
	ck_assert_uint_eq(b, UINT64_MAX);
	b = 0;
	ck_assert_int_eq(cgctl_parse_mem_limit(S("9223372036854771712\n"), &b), 0);
	ck_assert_uint_eq(b, UINT64_MAX);
	b = 0;	/* 64 KiB pages */
	ck_assert_int_eq(cgctl_parse_mem_limit(S("9223372036854710272\n"), &b), 0);
	ck_assert_uint_eq(b, UINT64_MAX);
	ck_assert_int_eq(cgctl_parse_mem_limit(S("9223372036854710271\n"), &b), 0);
	ck_assert_uint_eq(b, 9223372036854710271ull);
	ck_assert_int_eq(cgctl_parse_mem_limit(S("-1\n"), &b), 0);
	ck_assert_uint_eq(b, UINT64_MAX);
	ck_assert_int_eq(cgctl_parse_mem_limit(S("1073741824\n"), &b), 0);
	ck_assert_uint_eq(b, 1073741824);
	ck_assert_int_eq(cgctl_parse_mem_limit(S("0\n"), &b), 0);
	ck_assert_uint_eq(b, 0);
	b = 5;
	ck_assert_int_eq(cgctl_parse_mem_limit(S(""), &b), -EINVAL);
	ck_assert_int_eq(cgctl_parse_mem_limit(S("1G\n"), &b), -EINVAL);
	ck_assert_int_eq(cgctl_parse_mem_limit(S("-2\n"), &b), -EINVAL);
	ck_assert_int_eq(cgctl_parse_mem_limit(S("Max\n"), &b), -EINVAL);
	ck_assert_int_eq(cgctl_parse_mem_limit(S("max\n\n"), &b), -EINVAL);
	ck_assert_int_eq(cgctl_parse_mem_limit(S("18446744073709551616\n"), &b), -ERANGE);
	ck_assert_uint_eq(b, 5);
	/* bounded: "ma" */
	ck_assert_int_eq(cgctl_parse_mem_limit("max", 2, &b), -EINVAL);
}
END_TEST

Suite *suite_parse_cpu(void)
{
	Suite *s = suite_create("parse-cpu-mem");
	TCase *tc = tcase_create("cpu");

	tcase_add_test(tc, cpu_stat_v1);
	tcase_add_test(tc, cpu_stat_v2);
	tcase_add_test(tc, cpu_stat_errors_keep_st);
	tcase_add_test(tc, cpuacct_merge);
	tcase_add_test(tc, cpu_max);
	tcase_add_test(tc, cfs_quota);
	tcase_add_test(tc, mem_limit);
	suite_add_tcase(s, tc);
	return s;
}
