// SPDX-License-Identifier: LGPL-2.1-or-later
/* Process tree helpers: /proc/PID/stat and status parsers, snapshot index, PID set. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/proctree.h"

static int ppid_of(const char *s, pid_t *ppid)
{
	size_t n = strlen(s);
	char *b = malloc(n ? n : 1);	/* exact size: no NUL to lean on */
	int r;

	memcpy(b, s, n);
	r = cgctl_proctree_parse_ppid(b, n, ppid);
	free(b);
	return r;
}

START_TEST(stat_ppid)
{
	pid_t p = 0;

	ck_assert_int_eq(ppid_of("1234 (bash) S 77 1234 1234 34816 ...\n", &p), 0);
	ck_assert_int_eq(p, 77);
	/* comm with spaces and ") " inside: the last ')' ends it */
	ck_assert_int_eq(ppid_of("9 (a) S 5 (b) R 42 9 9 0\n", &p), 0);
	ck_assert_int_eq(p, 42);
	ck_assert_int_eq(ppid_of("1 (init) S 0 1 1", &p), 0);
	ck_assert_int_eq(p, 0);
	ck_assert_int_eq(ppid_of("", &p), -EBADMSG);
	ck_assert_int_eq(ppid_of("1 (x", &p), -EBADMSG);
	ck_assert_int_eq(ppid_of("1 (x) S", &p), -EBADMSG);
	ck_assert_int_eq(ppid_of("1 (x) S ", &p), -EBADMSG);
	ck_assert_int_eq(ppid_of("1 (x) S -3 ", &p), -EBADMSG);
	ck_assert_int_eq(ppid_of("1 (x) S 12a ", &p), -EBADMSG);
	ck_assert_int_eq(ppid_of("1 (x) S 99999999999 ", &p), -EBADMSG);
}
END_TEST

START_TEST(status_tgid)
{
	const char *s = "Name:\tthreadchurn\nUmask:\t0022\nState:\tS (sleeping)\n"
			"Tgid:\t4242\nNgid:\t0\nPid:\t4250\nPPid:\t1\n";
	pid_t t = 0;

	ck_assert_int_eq(cgctl_proctree_parse_tgid(s, strlen(s), &t), 0);
	ck_assert_int_eq(t, 4242);
	ck_assert_int_eq(cgctl_proctree_parse_tgid("Tgid:\t7", 7, &t), 0);
	ck_assert_int_eq(t, 7);
	ck_assert_int_eq(cgctl_proctree_parse_tgid("Pid:\t7\n", 7, &t), -EBADMSG);
	ck_assert_int_eq(cgctl_proctree_parse_tgid("Tgid:\t\n", 7, &t), -EBADMSG);
	ck_assert_int_eq(cgctl_proctree_parse_tgid("Tgid:\t0\n", 8, &t), -EBADMSG);
	ck_assert_int_eq(cgctl_proctree_parse_tgid("Tgid:\t7x\n", 9, &t), -EBADMSG);
	/* cut inside the number: only what is there counts */
	ck_assert_int_eq(cgctl_proctree_parse_tgid("Tgid:\t4242", 8, &t), 0);
	ck_assert_int_eq(t, 42);
}
END_TEST

/* The shared /proc/PID/stat parser: comm with blanks and ") ", the fields cgctl uses,
 * exiting tasks, and text it must refuse. */
START_TEST(proc_stat_fields)
{
	const char *s = "4242 (a) b (c) D 1 4242 4242 0 -1 4194564 99 7 3 5 150 40 0 0 20 0 1 0 "
			"335698 12582912 768 18446744073709551615\n";
	struct cgctl_proc_stat st;

	ck_assert_int_eq(cgctl_proc_stat_parse(s, strlen(s), &st), 0);
	ck_assert_str_eq(st.comm, "a) b (c");
	ck_assert_int_eq(st.state, 'D');
	ck_assert_int_eq(st.ppid, 1);
	ck_assert_uint_eq(st.flags, 4194564);	/* PF_EXITING | ... */
	ck_assert_uint_eq(st.minflt, 99);
	ck_assert_uint_eq(st.majflt, 3);
	ck_assert_uint_eq(st.utime, 150);
	ck_assert_uint_eq(st.stime, 40);
	ck_assert(cgctl_proc_stat_exiting(&st));
	s = "7 (z) Z 1 7 7 0 -1 0 0 0 0 0 1 1 0 0";
	ck_assert_int_eq(cgctl_proc_stat_parse(s, strlen(s), &st), 0);
	ck_assert(cgctl_proc_stat_exiting(&st));
	s = "7 (r) R 1 7 7 0 -1 4194560 0 0 0 0 1 1 0 0";
	ck_assert_int_eq(cgctl_proc_stat_parse(s, strlen(s), &st), 0);
	ck_assert(!cgctl_proc_stat_exiting(&st));
	/* cut before stime, no ')', ')' before '(' */
	s = "7 (r) R 1 7 7 0 -1 0 0 0 0 0 1";
	ck_assert_int_eq(cgctl_proc_stat_parse(s, strlen(s), &st), -EBADMSG);
	ck_assert_int_eq(cgctl_proc_stat_parse("7 r R 1", 7, &st), -EBADMSG);
	ck_assert_int_eq(cgctl_proc_stat_parse("7 )r( R 1", 9, &st), -EBADMSG);
}
END_TEST

START_TEST(snapshot_children)
{
	struct cgctl_proc_snap s = { 0 };
	size_t first, n;

	/* 1 -> {10, 11}, 10 -> {100, 101, 102}, 11 -> {} */
	ck_assert_int_eq(cgctl_proc_snap_add(&s, 101, 10), 0);
	ck_assert_int_eq(cgctl_proc_snap_add(&s, 10, 1), 0);
	ck_assert_int_eq(cgctl_proc_snap_add(&s, 100, 10), 0);
	ck_assert_int_eq(cgctl_proc_snap_add(&s, 11, 1), 0);
	ck_assert_int_eq(cgctl_proc_snap_add(&s, 102, 10), 0);
	ck_assert_int_eq(cgctl_proc_snap_add(&s, 1, 0), 0);
	cgctl_proc_snap_index(&s);
	n = cgctl_proc_snap_children(&s, 10, &first);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(s.v[first].pid, 100);
	ck_assert_int_eq(s.v[first + 2].pid, 102);
	n = cgctl_proc_snap_children(&s, 1, &first);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(s.v[first].pid, 10);
	ck_assert_uint_eq(cgctl_proc_snap_children(&s, 11, &first), 0);
	ck_assert_uint_eq(cgctl_proc_snap_children(&s, 999, &first), 0);
	cgctl_proc_snap_free(&s);
	ck_assert_uint_eq(cgctl_proc_snap_children(&s, 1, &first), 0);
}
END_TEST

START_TEST(pidset_basics)
{
	struct cgctl_pidset s = { 0 };
	struct cgctl_pident *e;
	bool created;
	pid_t p;

	ck_assert_ptr_null(cgctl_pidset_get(&s, 5));
	ck_assert_ptr_null(cgctl_pidset_add(&s, 0, &created));
	ck_assert_ptr_null(cgctl_pidset_add(&s, -1, &created));
	e = cgctl_pidset_add(&s, 5, &created);
	ck_assert_ptr_nonnull(e);
	ck_assert(created);
	e->state = PT_ATTACHED;
	e = cgctl_pidset_add(&s, 5, &created);
	ck_assert(!created);
	ck_assert_int_eq(e->state, PT_ATTACHED);
	/* grow across several rehashes; every PID stays findable with its state */
	for (p = 100; p < 20100; p++) {
		e = cgctl_pidset_add(&s, p, &created);
		ck_assert(created);
		e->mark = p;
	}
	for (p = 100; p < 20100; p++)
		ck_assert_uint_eq(cgctl_pidset_get(&s, p)->mark, (uint32_t)p);
	ck_assert_uint_eq(s.live, 20001);
	cgctl_pidset_free(&s);
}
END_TEST

START_TEST(pidset_delete_reuse)
{
	struct cgctl_pidset s = { 0 };
	bool created;
	pid_t p;
	int round;

	/* churn like a fork storm: add and delete far more PIDs than the table holds, so
	 * tombstones must be recycled rather than fill the table */
	for (round = 0; round < 50; round++) {
		for (p = 1; p <= 1000; p++)
			ck_assert_ptr_nonnull(cgctl_pidset_add(&s, round * 1000 + p, &created));
		for (p = 1; p <= 1000; p++)
			cgctl_pidset_del(&s, round * 1000 + p);
		ck_assert_uint_eq(s.live, 0);
	}
	ck_assert_uint_le(s.cap, 8192);
	ck_assert_ptr_null(cgctl_pidset_get(&s, 49500));
	cgctl_pidset_del(&s, 12345);	/* absent: no-op */
	ck_assert_ptr_nonnull(cgctl_pidset_add(&s, 49500, &created));
	ck_assert(created);
	ck_assert_ptr_nonnull(cgctl_pidset_get(&s, 49500));
	cgctl_pidset_free(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("proctree");
	TCase *tc = tcase_create("proctree");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, stat_ppid);
	tcase_add_test(tc, status_tgid);
	tcase_add_test(tc, proc_stat_fields);
	tcase_add_test(tc, snapshot_children);
	tcase_add_test(tc, pidset_basics);
	tcase_add_test(tc, pidset_delete_reuse);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
