/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* /proc/PID/cgroup, flat keyed files and single-number files. */
#include "test-parse.h"

/* This machine's /proc/self/cgroup (kernel 6.18, v1 hierarchies + empty cgroup2). */
static const char host_cgroup[] =
	"9:name=systemd:/\n"
	"8:pids:/\n"
	"7:blkio:/\n"
	"6:freezer:/\n"
	"5:devices:/\n"
	"4:memory:/process_api/3cd5e1f21d7ba9422f2f9de0e4a6ebca\n"
	"3:cpuset:/\n"
	"2:cpuacct:/user\n"
	"1:cpu:/\n"
	"0::/\n";

static void expect_path(const char *buf, size_t len, const char *ctrl, const char *want,
			bool want_deleted)
{
	char *p = NULL;
	bool del = !want_deleted;
	int r = cgctl_parse_proc_cgroup(buf, len, ctrl, &p, &del);

	ck_assert_int_eq(r, 0);
	ck_assert_str_eq(p, want);
	ck_assert(del == want_deleted);
	free(p);
}

static int proc_err(const char *buf, size_t len, const char *ctrl)
{
	char *p = NULL;
	int r = cgctl_parse_proc_cgroup(buf, len, ctrl, &p, NULL);

	if (r == 0)
		free(p);
	return r;
}

START_TEST(proc_host_file)
{
	expect_path(S(host_cgroup), "memory", "/process_api/3cd5e1f21d7ba9422f2f9de0e4a6ebca",
		    false);
	expect_path(S(host_cgroup), "cpuacct", "/user", false);
	expect_path(S(host_cgroup), "cpu", "/", false);
	expect_path(S(host_cgroup), "name=systemd", "/", false);
	expect_path(S(host_cgroup), NULL, "/", false);
	ck_assert_int_eq(proc_err(S(host_cgroup), "hugetlb"), -ENOENT);
	ck_assert_int_eq(proc_err(S(host_cgroup), "systemd"), -ENOENT);
}
END_TEST

START_TEST(proc_merged_controllers)
{
	const char f[] = "4:cpu,cpuacct:/p\n3:cpuset:/q\n1:name=systemd,memory:/m\n";

	expect_path(S(f), "cpu", "/p", false);
	expect_path(S(f), "cpuacct", "/p", false);
	expect_path(S(f), "cpuset", "/q", false);
	expect_path(S(f), "memory", "/m", false);
	expect_path(S(f), "name=systemd", "/m", false);
	/* no prefix matching: "cpu" must not find "cpuset" nor "cpu" inside "cpuacct" */
	ck_assert_int_eq(proc_err(S("3:cpuset:/q\n2:cpuacct:/a\n"), "cpu"), -ENOENT);
	ck_assert_int_eq(proc_err(S("3:cpuset:/q\n"), "cpus"), -ENOENT);
	/* v2 line only: there is no v2 line in a v1-only list */
	ck_assert_int_eq(proc_err(S(f), NULL), -ENOENT);
}
END_TEST

START_TEST(proc_v2_and_deleted)
{
	expect_path(S("0::/user.slice/a.scope\n"), NULL, "/user.slice/a.scope", false);
	expect_path(S("0::/gone (deleted)\n"), NULL, "/gone", true);
	expect_path(S("0::/ (deleted)\n"), NULL, "/", true);
	expect_path(S("0::/x (deleted) y\n"), NULL, "/x (deleted) y", false);
	/* a path may contain ':' (only the first two colons split) */
	expect_path(S("0::/a:b:c\n"), NULL, "/a:b:c", false);
	/* no trailing newline; first match wins */
	expect_path(S("0::/first\n0::/second"), NULL, "/first", false);
	/* "0:name=x:" is a v1 named hierarchy, not the v2 line */
	ck_assert_int_eq(proc_err(S("0:name=x:/n\n"), NULL), -ENOENT);
}
END_TEST

START_TEST(proc_bounds_and_errors)
{
	char *p = NULL;
	const char nul[] = "0::/a\0b\n";

	/* the buffer is not NUL-terminated at len */
	expect_path("0::/abcdef", 6, NULL, "/ab", false);
	ck_assert_int_eq(proc_err("", 0, NULL), -ENOENT);
	ck_assert_int_eq(proc_err(NULL, 0, NULL), -ENOENT);
	ck_assert_int_eq(proc_err(NULL, 3, NULL), -EINVAL);
	ck_assert_int_eq(proc_err(S("garbage\n"), NULL), -EINVAL);
	ck_assert_int_eq(proc_err(S("1:cpu\n"), "cpu"), -EINVAL);
	ck_assert_int_eq(proc_err(S("x:cpu:/\n"), "cpu"), -EINVAL);
	ck_assert_int_eq(proc_err(S(":cpu:/\n"), "cpu"), -EINVAL);
	ck_assert_int_eq(proc_err(S("1:cpu:relative\n"), "cpu"), -EINVAL);
	ck_assert_int_eq(proc_err(S("1:cpu:\n"), "cpu"), -EINVAL);
	/* a damaged line after the match still fails the file */
	ck_assert_int_eq(proc_err(S("1:cpu:/\nbad\n"), "cpu"), -EINVAL);
	ck_assert_int_eq(proc_err(S(nul), NULL), -EINVAL);
	ck_assert_int_eq(proc_err(S("0::/\n"), ""), -EINVAL);
	ck_assert_int_eq(cgctl_parse_proc_cgroup(S("0::/\n"), NULL, NULL, NULL), -EINVAL);
	/* empty lines are ignored; *ret untouched on failure */
	expect_path(S("\n\n1:cpu:/c\n\n"), "cpu", "/c", false);
	ck_assert_int_eq(cgctl_parse_proc_cgroup(S("1:cpu:/c\n"), "memory", &p, NULL), -ENOENT);
	ck_assert_ptr_null(p);
}
END_TEST

/* ---- flat keyed ---- */

/* This machine's v1 memory.stat of the test's own memory cgroup (kernel 6.18). */
static const char host_memory_stat[] =
	"cache 266240\nrss 1683456\nrss_huge 0\nshmem 0\nmapped_file 0\ndirty 28672\n"
	"writeback 0\nworkingset_refault_anon 0\nworkingset_refault_file 72\nswap 0\n"
	"swapcached 0\npgpgin 12924\npgpgout 12448\npgfault 31040\npgmajfault 2\n"
	"inactive_anon 1490944\nactive_anon 12288\ninactive_file 28672\n"
	"active_file 237568\nunevictable 0\n"
	"hierarchical_memory_limit 9223372036854771712\n"
	"hierarchical_memsw_limit 9223372036854771712\n"
	"total_cache 266240\ntotal_rss 1683456\ntotal_rss_huge 0\ntotal_shmem 0\n"
	"total_mapped_file 0\ntotal_dirty 28672\ntotal_writeback 0\n"
	"total_workingset_refault_anon 0\ntotal_workingset_refault_file 72\n"
	"total_swap 0\ntotal_swapcached 0\ntotal_pgpgin 12924\ntotal_pgpgout 12448\n"
	"total_pgfault 31040\ntotal_pgmajfault 2\ntotal_inactive_anon 1490944\n"
	"total_active_anon 12288\ntotal_inactive_file 28672\ntotal_active_file 237568\n"
	"total_unevictable 0\n";

struct collect {
	int n, stop_at;
	uint64_t sum;
	char last_key[128];
	struct cgctl_kv last;
	char last_value[64];
};

static int collect_cb(const struct cgctl_kv *kv, void *data)
{
	struct collect *c = data;

	c->n++;
	if (kv->has_u)
		c->sum += kv->u;
	strcpy(c->last_key, kv->key);
	strcpy(c->last_value, kv->value);
	c->last = *kv;
	return c->n == c->stop_at ? 99 : 0;
}

START_TEST(keyed_host_memory_stat)
{
	struct collect c = { 0 };
	uint64_t v;

	/* returns the number of lines */
	ck_assert_int_eq(cgctl_parse_keyed(S(host_memory_stat), collect_cb, &c), 42);
	ck_assert_int_eq(c.n, 42);
	ck_assert_str_eq(c.last_key, "total_unevictable");
	ck_assert_int_eq(cgctl_parse_keyed_u64(S(host_memory_stat), "total_rss", &v), 0);
	ck_assert_uint_eq(v, 1683456);
	ck_assert_int_eq(cgctl_parse_keyed_u64(S(host_memory_stat), "rss", &v), 0);
	ck_assert_uint_eq(v, 1683456);
	ck_assert_int_eq(cgctl_parse_keyed_u64(S(host_memory_stat),
					       "hierarchical_memory_limit", &v), 0);
	ck_assert_uint_eq(v, 9223372036854771712ull);
	ck_assert_int_eq(cgctl_parse_keyed_u64(S(host_memory_stat), "total", &v), -ENOENT);
	ck_assert_int_eq(cgctl_parse_keyed_u64(S(host_memory_stat), "rss_hug", &v), -ENOENT);
	ck_assert_int_eq(cgctl_parse_keyed(S(host_memory_stat), NULL, NULL), 42);
}
END_TEST

START_TEST(keyed_callback_stops)
{
	struct collect c = { .stop_at = 2 };

	ck_assert_int_eq(cgctl_parse_keyed(S("a 1\nb 2\nc 3\n"), collect_cb, &c), 99);
	ck_assert_int_eq(c.n, 2);
	ck_assert_str_eq(c.last_key, "b");
	ck_assert_uint_eq(c.sum, 3);
}
END_TEST

START_TEST(keyed_value_types)
{
	struct collect c = { 0 };
	int64_t s;
	uint64_t u;

	ck_assert_int_eq(cgctl_parse_keyed(S("k -5\n"), collect_cb, &c), 1);
	ck_assert(!c.last.has_u && c.last.has_s);
	ck_assert_int_eq(c.last.s, -5);
	ck_assert_int_eq(cgctl_parse_keyed(S("k 18446744073709551615\n"), collect_cb, &c), 1);
	ck_assert(c.last.has_u && !c.last.has_s);
	ck_assert_uint_eq(c.last.u, UINT64_MAX);
	ck_assert_int_eq(cgctl_parse_keyed(S("k 7\n"), collect_cb, &c), 1);
	ck_assert(c.last.has_u && c.last.has_s);
	ck_assert_int_eq(cgctl_parse_keyed(S("k 18446744073709551616\n"), collect_cb, &c), 1);
	ck_assert(!c.last.has_u && !c.last.has_s);
	ck_assert_int_eq(cgctl_parse_keyed(S("k abc\n"), collect_cb, &c), 1);
	ck_assert(!c.last.has_u && !c.last.has_s);
	ck_assert_str_eq(c.last_value, "abc");

	ck_assert_int_eq(cgctl_parse_keyed_u64(S("k 18446744073709551616\n"), "k", &u), -ERANGE);
	ck_assert_int_eq(cgctl_parse_keyed_u64(S("k abc\n"), "k", &u), -EINVAL);
	ck_assert_int_eq(cgctl_parse_keyed_u64(S("k -1\n"), "k", &u), -EINVAL);
	ck_assert_int_eq(cgctl_parse_keyed_s64(S("k -9223372036854775808\n"), "k", &s), 0);
	ck_assert(s == INT64_MIN);
	ck_assert_int_eq(cgctl_parse_keyed_s64(S("k -9223372036854775809\n"), "k", &s),
			 -ERANGE);
	ck_assert_int_eq(cgctl_parse_keyed_s64(S("k 9223372036854775808\n"), "k", &s),
			 -ERANGE);
	ck_assert_int_eq(cgctl_parse_keyed_s64(S("a 1\nk 9223372036854775807"), "k", &s), 0);
	ck_assert(s == INT64_MAX);
	ck_assert_int_eq(cgctl_parse_keyed_s64(S("k -\n"), "k", &s), -EINVAL);
}
END_TEST

START_TEST(keyed_layout)
{
	uint64_t v;
	char longkey[300];

	/* blanks: tabs and runs of spaces; empty and blank-only lines are skipped */
	ck_assert_int_eq(cgctl_parse_keyed(S("a\t1\n\n  \nb    2  \n"), NULL, NULL), 2);
	ck_assert_int_eq(cgctl_parse_keyed_u64(S("a\t1\n\nb    2  \n"), "b", &v), 0);
	ck_assert_uint_eq(v, 2);
	/* first match wins */
	ck_assert_int_eq(cgctl_parse_keyed_u64(S("a 1\na 2\n"), "a", &v), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(cgctl_parse_keyed(S(""), NULL, NULL), 0);
	ck_assert_int_eq(cgctl_parse_keyed(S("key\n"), NULL, NULL), -EINVAL);
	ck_assert_int_eq(cgctl_parse_keyed(S("a 1 2\n"), NULL, NULL), -EINVAL);
	ck_assert_int_eq(cgctl_parse_keyed(S("a 1\nb\n"), NULL, NULL), -EINVAL);
	ck_assert_int_eq(cgctl_parse_keyed(S("a 1\0\n"), NULL, NULL), -EINVAL);
	ck_assert_int_eq(cgctl_parse_keyed(NULL, 1, NULL, NULL), -EINVAL);
	/* bounded by len: "a 12" then nothing */
	ck_assert_int_eq(cgctl_parse_keyed_u64("a 123", 4, "a", &v), 0);
	ck_assert_uint_eq(v, 12);
	memset(longkey, 'k', sizeof(longkey));
	longkey[200] = ' ';
	longkey[201] = '1';
	ck_assert_int_eq(cgctl_parse_keyed(longkey, 202, NULL, NULL), -EINVAL);
	ck_assert_int_eq(cgctl_parse_keyed(longkey + 73, 129, NULL, NULL), 1);
	ck_assert_int_eq(cgctl_parse_keyed_u64(S("a 1\n"), NULL, &v), -EINVAL);
}
END_TEST

START_TEST(u64_file)
{
	uint64_t v = 0;

	ck_assert_int_eq(cgctl_parse_u64(S("123\n"), &v), 0);
	ck_assert_uint_eq(v, 123);
	ck_assert_int_eq(cgctl_parse_u64(S("18446744073709551615"), &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(cgctl_parse_u64(S("18446744073709551616\n"), &v), -ERANGE);
	ck_assert_int_eq(cgctl_parse_u64(S("99999999999999999999999\n"), &v), -ERANGE);
	ck_assert_int_eq(cgctl_parse_u64(S(""), &v), -EINVAL);
	ck_assert_int_eq(cgctl_parse_u64(S("\n"), &v), -EINVAL);
	ck_assert_int_eq(cgctl_parse_u64(S("12 \n"), &v), -EINVAL);
	ck_assert_int_eq(cgctl_parse_u64(S(" 12\n"), &v), -EINVAL);
	ck_assert_int_eq(cgctl_parse_u64(S("+1\n"), &v), -EINVAL);
	ck_assert_int_eq(cgctl_parse_u64(S("-1\n"), &v), -EINVAL);
	ck_assert_int_eq(cgctl_parse_u64(S("1\n\n"), &v), -EINVAL);
	ck_assert_int_eq(cgctl_parse_u64(S("0x10\n"), &v), -EINVAL);
	ck_assert_int_eq(cgctl_parse_u64("4567", 2, &v), 0);
	ck_assert_uint_eq(v, 45);
}
END_TEST

Suite *suite_parse_proc(void)
{
	Suite *s = suite_create("parse-proc-cgroup");
	TCase *tc = tcase_create("proc_cgroup");

	tcase_add_test(tc, proc_host_file);
	tcase_add_test(tc, proc_merged_controllers);
	tcase_add_test(tc, proc_v2_and_deleted);
	tcase_add_test(tc, proc_bounds_and_errors);
	suite_add_tcase(s, tc);
	return s;
}

Suite *suite_parse_keyed(void)
{
	Suite *s = suite_create("parse-keyed");
	TCase *tc = tcase_create("keyed");

	tcase_add_test(tc, keyed_host_memory_stat);
	tcase_add_test(tc, keyed_callback_stops);
	tcase_add_test(tc, keyed_value_types);
	tcase_add_test(tc, keyed_layout);
	tcase_add_test(tc, u64_file);
	suite_add_tcase(s, tc);
	return s;
}
