/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The PSI and memory.events parsers against what kernel/sched/psi.c's psi_show() and
 * mm/memcontrol.c's __memory_events_show() print, and malformed variants of them.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "libcgctl.h"
#include "testutil.h"

#define S(x) x, sizeof(x) - 1

START_TEST(psi_memory)
{
	struct cgctl_psi p;
	const char f[] = "some avg10=1.25 avg60=0.40 avg300=0.00 total=123456\n"
			 "full avg10=100.00 avg60=0.07 avg300=12.30 total=18446744073709551615\n";

	ck_assert_int_eq(cgctl_psi_parse(S(f), &p), 0);
	ck_assert(p.some.present && p.full.present);
	ck_assert_uint_eq(p.some.avg10, 125);
	ck_assert_uint_eq(p.some.avg60, 40);
	ck_assert_uint_eq(p.some.avg300, 0);
	ck_assert_uint_eq(p.some.total_us, 123456);
	ck_assert_uint_eq(p.full.avg10, 10000);
	ck_assert_uint_eq(p.full.avg60, 7);
	ck_assert_uint_eq(p.full.avg300, 1230);
	ck_assert_uint_eq(p.full.total_us, UINT64_MAX);
}
END_TEST

START_TEST(psi_cpu_before_5_13)
{
	struct cgctl_psi p;

	/* psi_show() printed no "full" line for PSI_CPU before 5.13 */
	ck_assert_int_eq(cgctl_psi_parse(S("some avg10=0.00 avg60=0.00 avg300=0.00 total=7"),
					 &p), 0);
	ck_assert(p.some.present && !p.full.present);
	ck_assert_uint_eq(p.some.total_us, 7);
}
END_TEST

START_TEST(psi_bad)
{
	static const char *const bad[] = {
		"",
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=1\n",	/* no some */
		"some avg10=0.00 avg60=0.00 avg300=0.00\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=1 x=2\n",
		"some avg10=0.001 avg60=0.00 avg300=0.00 total=1\n",
		"some avg10=.5 avg60=0.00 avg300=0.00 total=1\n",
		"some avg10=5. avg60=0.00 avg300=0.00 total=1\n",
		"some avg10=-1 avg60=0.00 avg300=0.00 total=1\n",
		"some avg60=0.00 avg10=0.00 avg300=0.00 total=1\n",
		"some avg10=0.00  avg60=0.00 avg300=0.00 total=1\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n"
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=1\n",
		"none avg10=0.00 avg60=0.00 avg300=0.00 total=1\n",
	};
	struct cgctl_psi p = { .some = { .avg10 = 77 } };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(cgctl_psi_parse(bad[i], strlen(bad[i]), &p) == -EINVAL,
			      "accepted: %s", bad[i]);
	ck_assert_uint_eq(p.some.avg10, 77);	/* untouched on error */
	ck_assert_int_eq(cgctl_psi_parse(S("some avg10=0.00 avg60=0.00 avg300=0.00 "
					   "total=18446744073709551616"), &p), -ERANGE);
}
END_TEST

START_TEST(events_6_12)
{
	struct cgctl_mem_events ev;
	const char f[] = "low 0\nhigh 42\nmax 3\noom 1\noom_kill 1\noom_group_kill 0\n"
			 "sock_throttled 0\nfuture_key 9\n";

	ck_assert_int_eq(cgctl_mem_events_parse(S(f), &ev), 0);
	ck_assert_uint_eq(ev.present, (1u << CGCTL_MEMEV_NR) - 1);
	ck_assert_uint_eq(ev.count[CGCTL_MEMEV_HIGH], 42);
	ck_assert_uint_eq(ev.count[CGCTL_MEMEV_MAX], 3);
	ck_assert_uint_eq(ev.count[CGCTL_MEMEV_OOM_KILL], 1);
	ck_assert_str_eq(cgctl_mem_event_name(CGCTL_MEMEV_OOM_GROUP_KILL), "oom_group_kill");
	ck_assert_ptr_null(cgctl_mem_event_name(CGCTL_MEMEV_NR));
}
END_TEST

START_TEST(events_6_1_and_bad)
{
	struct cgctl_mem_events ev;

	/* 6.1 prints oom_group_kill (5.16+) but not sock_throttled (6.10+) */
	ck_assert_int_eq(cgctl_mem_events_parse(S("low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n"
						  "oom_group_kill 0\n"), &ev), 0);
	ck_assert(!(ev.present & (1u << CGCTL_MEMEV_SOCK_THROTTLED)));
	ck_assert(ev.present & (1u << CGCTL_MEMEV_OOM_GROUP_KILL));
	ck_assert_int_eq(cgctl_mem_events_parse(S("high 1\nhigh 2\n"), &ev), -EINVAL);
	ck_assert_int_eq(cgctl_mem_events_parse(S("high -1\n"), &ev), -EINVAL);
	ck_assert_int_eq(cgctl_mem_events_parse(S("high\n"), &ev), -EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pressure");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, psi_memory);
	tcase_add_test(tc, psi_cpu_before_5_13);
	tcase_add_test(tc, psi_bad);
	tcase_add_test(tc, events_6_12);
	tcase_add_test(tc, events_6_1_and_bad);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
