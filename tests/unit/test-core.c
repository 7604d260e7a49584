/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the core: errno -> exit mapping, kernel versions, path normalisation and
 * escape refusal in cgroupfs access (on a temporary fixture), the JSON writer. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "libcgctl.h"
#include "testutil.h"
#include "util/error.h"
#include "util/json.h"
#include "util/strbuf.h"

START_TEST(errno_map)
{
	static const struct {
		int err, exit;
	} cases[] = {
		{ 0, 0 },	    { EPERM, 3 },   { EACCES, 3 },  { EROFS, 3 },
		{ ENOENT, 4 },	    { ESRCH, 4 },   { ENODEV, 4 },  { EBUSY, 5 },
		{ EEXIST, 5 },	    { ENOTEMPTY, 5 }, { EOPNOTSUPP, 6 }, { ENOSYS, 6 },
		{ EINVAL, 1 },	    { ENOMEM, 1 },  { EIO, 1 },	    { ERANGE, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(cgctl_errno_to_exit(-cases[i].err) == cases[i].exit,
			      "errno %d -> %d, want %d", cases[i].err,
			      cgctl_errno_to_exit(-cases[i].err), cases[i].exit);
}
END_TEST

START_TEST(kver)
{
	uint32_t v;

	ck_assert_int_eq(cgctl_kver_parse("6.18.44-fc-v1045", &v), 0);
	ck_assert_uint_eq(v, CGCTL_KVER(6, 18, 44));
	ck_assert_int_eq(cgctl_kver_parse("2.6.34", &v), 0);
	ck_assert_uint_eq(v, CGCTL_KVER(2, 6, 34));
	ck_assert_int_eq(cgctl_kver_parse("6.1", &v), 0);
	ck_assert_uint_eq(v, CGCTL_KVER(6, 1, 0));
	ck_assert_int_eq(cgctl_kver_parse("6.12.118+deb12-cloud-amd64", &v), 0);
	ck_assert_uint_eq(v, CGCTL_KVER(6, 12, 118));
	ck_assert(CGCTL_KVER(6, 1, 158) < CGCTL_KVER(6, 2, 0));
	ck_assert(CGCTL_KVER(5, 14, 0) > CGCTL_KVER(5, 4, 255));
	ck_assert_int_eq(cgctl_kver_parse("", &v), -EINVAL);
	ck_assert_int_eq(cgctl_kver_parse("x6", &v), -EINVAL);
	ck_assert_int_eq(cgctl_kver_parse("6x", &v), -EINVAL);
	ck_assert_int_eq(cgctl_kver_parse("6.256", &v), -EINVAL);
	ck_assert_int_eq(cgctl_kver_parse(NULL, &v), -EINVAL);
	ck_assert_uint_gt(cgctl_kver_running(), CGCTL_KVER(2, 6, 0));
}
END_TEST

START_TEST(path_normalize)
{
	static const struct {
		const char *in, *out;
		int r;
	} cases[] = {
		{ "/", "/", 0 },	 { "", "/", 0 },	 { "01", "/01", 0 },
		{ "/01", "/01", 0 },	 { "01/02", "/01/02", 0 },
		{ "//a/./b/", "/a/b", 0 }, { "/a/b/.", "/a/b", 0 },
		{ "..", NULL, -EINVAL }, { "/a/../b", NULL, -EINVAL },
		{ "a/..", NULL, -EINVAL }, { "/a/\n", NULL, -EINVAL },
		{ "/a\tb", NULL, -EINVAL }, { "...", "/...", 0 }, { "..a", "/..a", 0 },
	};
	char out[PATH_MAX];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = cgctl_path_normalize(cases[i].in, out, sizeof(out));

		ck_assert_msg(r == cases[i].r, "'%s': %d", cases[i].in, r);
		if (r == 0)
			ck_assert_str_eq(out, cases[i].out);
	}
	ck_assert_int_eq(cgctl_path_normalize("/abcdef", out, 4), -ENAMETOOLONG);
}
END_TEST

/* A fixture with one v1 memory hierarchy, a symlinked "cgroup" pointing outside the
 * mount and a symlinked control file. */
static char *make_root(void)
{
	char *root = tu_mkdtemp(), p[PATH_MAX];

	ck_assert_ptr_nonnull(root);
	tu_write(root, "cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n"
					"2 /sys/fs/cgroup/unified -\n");
	tu_write(root, "sys/fs/cgroup/memory/cgroup.procs", "1\n");
	tu_write(root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	tu_write(root, "sys/fs/cgroup/memory/a/memory.limit_in_bytes", "1048576\n");
	tu_write(root, "sys/fs/cgroup/memory/a/cgroup.procs", "");
	tu_write(root, "sys/fs/cgroup/unified/cgroup.procs", "");
	tu_write(root, "outside/secret", "s3cret\n");
	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/memory/escape", root);
	ck_assert_int_eq(symlink("../../../../outside", p), 0);
	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/memory/a/memory.link", root);
	ck_assert_int_eq(symlink("../../../../../outside/secret", p), 0);
	tu_write(root, "proc/42/cgroup", "4:memory:/a\n0::/x\n");
	return root;
}

START_TEST(cgfs_escape)
{
	char *root = make_root(), *buf = NULL;
	const struct cgctl_mount *m, *all;
	struct cgctl_ctx *ctx;
	uint64_t v;
	size_t len;

	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	ck_assert_int_eq(cgctl_mounts(ctx, &all), 2);
	ck_assert_str_eq(all[1].path, "/sys/fs/cgroup/unified");
	ck_assert_int_eq(all[1].version, 2);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	ck_assert_int_eq(m->version, 1);
	ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &m), -ENODEV);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	/* reads inside work */
	ck_assert_int_eq(cgctl_cg_read_u64(ctx, m, "/a", "memory.limit_in_bytes", &v), 0);
	ck_assert_uint_eq(v, 1048576);
	ck_assert_int_eq(cgctl_cg_read_u64(ctx, m, "/", "memory.limit_in_bytes", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	/* "..", a symlinked directory, a symlinked file, a file name with '/' */
	ck_assert_int_eq(cgctl_cg_read(ctx, m, "/a/../..", "secret", &buf, &len), -EINVAL);
	ck_assert_int_eq(cgctl_cg_read(ctx, m, "/escape", "secret", &buf, &len), -ELOOP);
	ck_assert_int_eq(cgctl_cg_read(ctx, m, "/a", "memory.link", &buf, &len), -ELOOP);
	ck_assert_int_eq(cgctl_cg_read(ctx, m, "/a", "../a/memory.limit_in_bytes", &buf, &len),
			 -EINVAL);
	ck_assert_int_eq(cgctl_cg_read(ctx, m, "/a", "..", &buf, &len), -EINVAL);
	ck_assert_int_eq(cgctl_cg_write(ctx, m, "/escape", "secret", "x"), -ELOOP);
	ck_assert_int_eq(cgctl_cg_exists(ctx, m, "/escape"), -ELOOP);
	ck_assert_int_eq(cgctl_cg_exists(ctx, m, "/nope"), 0);
	ck_assert_int_eq(cgctl_cg_exists(ctx, m, "/a"), 1);
	ck_assert_ptr_null(buf);
	/* writes never create files */
	ck_assert_int_eq(cgctl_cg_write(ctx, m, "/a", "memory.new", "1"), -ENOENT);
	ck_assert_int_eq(cgctl_cg_write(ctx, m, "/a", "memory.limit_in_bytes", "2097152"), 0);
	ck_assert_int_eq(cgctl_cg_read_u64(ctx, m, "/a", "memory.limit_in_bytes", &v), 0);
	ck_assert_uint_eq(v, 2097152);
	cgctl_unref(ctx);
	/* the outside file is untouched */
	buf = tu_read(root, "outside/secret");
	ck_assert_str_eq(buf, "s3cret\n");
	free(buf);
	tu_rmtree(root);
	free(root);
}
END_TEST

START_TEST(cgfs_tree_ops)
{
	char *root = make_root(), *path = NULL, **kids = NULL;
	const struct cgctl_mount *m;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct cgctl_ctx *ctx;
	pid_t *pids = NULL;

	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	ck_assert_int_eq(cgctl_cg_create(ctx, m, "/a/b"), 0);
	ck_assert_int_eq(cgctl_cg_create(ctx, m, "/a/b"), -EEXIST);
	ck_assert_int_eq(cgctl_cg_create(ctx, m, "/x/y"), -ENOENT);
	ck_assert_int_eq(cgctl_cg_create(ctx, m, "/"), -EEXIST);
	/* the new cgroup got the parent's control files */
	ck_assert_int_eq(cgctl_cg_exists(ctx, m, "/a/b"), 1);
	ck_assert_int_eq(cgctl_cg_children(ctx, m, "/a", &kids), 1);
	ck_assert_str_eq(kids[0], "b");
	cgctl_strv_free(kids);
	/* attach: a PID without /proc/PID is ESRCH; one that exists is appended */
	ck_assert_int_eq(cgctl_cg_attach(ctx, m, "/a/b", 4242), -ESRCH);
	ck_assert_int_eq(tu_write(root, "proc/42/stat", "42 (x) S"), 0);
	ck_assert_int_eq(cgctl_cg_attach(ctx, m, "/a/b", 42), 0);
	ck_assert_int_eq(cgctl_cg_pids(ctx, m, "/a/b", "cgroup.procs", &pids), 1);
	ck_assert_int_eq(pids[0], 42);
	free(pids);
	/* removal refuses while tasks remain, without removing anything */
	ck_assert_int_eq(cgctl_cg_remove(ctx, m, "/a", 0, &e), -EBUSY);
	ck_assert_int_eq(cgctl_cg_remove(ctx, m, "/a", CGCTL_RM_RECURSIVE, &e), -EBUSY);
	ck_assert_ptr_nonnull(strstr(e.msg, "/a/b"));
	ck_assert_int_eq(cgctl_cg_exists(ctx, m, "/a/b"), 1);
	ck_assert_int_eq(cgctl_cg_remove(ctx, m, "/", CGCTL_RM_RECURSIVE, &e), -EPERM);
	ck_assert_int_eq(cgctl_cg_remove(ctx, m, "/nope", 0, &e), -ENOENT);
	/* with MOVE_TASKS the process goes to the parent of /a */
	ck_assert_int_eq(cgctl_cg_remove(ctx, m, "/a", CGCTL_RM_RECURSIVE | CGCTL_RM_MOVE_TASKS,
					 &e), 0);
	ck_assert_int_eq(cgctl_cg_exists(ctx, m, "/a"), 0);
	ck_assert_int_eq(cgctl_cg_pids(ctx, m, "/", "cgroup.procs", &pids), 2);
	ck_assert_int_eq(pids[1], 42);
	free(pids);
	/* /proc/PID/cgroup */
	ck_assert_int_eq(cgctl_pid_cgroup(ctx, 42, m, &path), 0);
	ck_assert_str_eq(path, "/a");
	free(path);
	ck_assert_int_eq(cgctl_pid_cgroup(ctx, 43, m, &path), -ESRCH);
	cgctl_unref(ctx);
	tu_rmtree(root);
	free(root);
}
END_TEST

START_TEST(ctx_errors)
{
	struct cgctl_ctx *ctx;

	ck_assert_int_eq(cgctl_new(&ctx, "/nonexistent/dir"), -ENOENT);
	ck_assert_int_eq(cgctl_new(NULL, NULL), -EINVAL);
	ck_assert_int_eq(cgctl_new(&ctx, NULL), 0);
	ck_assert_str_eq(cgctl_get_root(ctx), "");
	ck_assert_ptr_eq(cgctl_ref(ctx), ctx);
	ck_assert_ptr_eq(cgctl_unref(ctx), ctx);
	ck_assert_ptr_null(cgctl_unref(ctx));
}
END_TEST

static const char *js(void (*fn)(struct json *))
{
	static char out[512];
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb, false);
	fn(&j);
	snprintf(out, sizeof(out), "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return out;
}

static void j_escape(struct json *j)
{
	json_obj_begin(j, NULL);
	json_str(j, "q\"b\\", "line\nta\tb\r\x01\x1f\x7f");
	json_str(j, "utf8", "µs ✓");
	json_str(j, "bad", "a\xff" "b\xc3");
	json_str(j, "overlong", "\xc0\xaf");
	json_str(j, "surrogate", "\xed\xa0\x80");
	json_obj_end(j);
}

static void j_nest(struct json *j)
{
	json_obj_begin(j, NULL);
	json_arr_begin(j, "a");
	json_u64(j, NULL, 18446744073709551615ULL);
	json_i64(j, NULL, -5);
	json_double(j, NULL, 0.1);
	json_double(j, NULL, 2.0);
	json_double(j, NULL, 1.0 / 0.0);
	json_obj_begin(j, NULL);
	json_obj_end(j);
	json_arr_end(j);
	json_bool(j, "t", true);
	json_null(j, "n");
	json_arr_begin(j, "e");
	json_arr_end(j);
	json_obj_end(j);
}

/* struct cgctl_error carries its size: filled only when it is set (issue 28) */
START_TEST(error_sized)
{
	struct cgctl_error e = CGCTL_ERROR_INIT, bare = { 0 };

	ck_assert_int_eq(cgctl_error_set(&e, EINVAL, "bad %d", 7), -EINVAL);
	ck_assert_int_eq(e.err, EINVAL);
	ck_assert_str_eq(e.msg, "bad 7");
	cgctl_error_clear(&e);
	ck_assert_int_eq(e.err, 0);
	ck_assert_str_eq(e.msg, "");
	ck_assert_int_eq(cgctl_error_set(&bare, -ENOENT, "gone"), -ENOENT);
	ck_assert_int_eq(bare.err, 0);
	ck_assert_str_eq(bare.msg, "");
	ck_assert_int_eq(cgctl_error_set(NULL, ENOENT, "x"), -ENOENT);
}
END_TEST

/* structures the library fills carry their size (issue 28) */
static int kv_size(const struct cgctl_kv *kv, void *data)
{
	ck_assert_uint_eq(kv->size, sizeof(*kv));
	(*(int *)data)++;
	return 0;
}

START_TEST(filled_sized)
{
	const struct cgctl_mount *ms;
	struct cgctl_ctx *ctx;
	char *dir = tu_mkdtemp();
	int n = 0;

	ck_assert_int_eq(tu_write(dir, "cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n"
				  "2 /sys/fs/cgroup/unified cpu\n"), 0);
	ck_assert_int_eq(tu_write(dir, "sys/fs/cgroup/memory/memory.limit_in_bytes", "1\n"), 0);
	ck_assert_int_eq(tu_write(dir, "sys/fs/cgroup/unified/cpu.max", "max 100000\n"), 0);
	ck_assert_int_eq(cgctl_new(&ctx, dir), 0);
	ck_assert_int_eq(cgctl_mounts(ctx, &ms), 2);
	ck_assert_uint_eq(ms[0].size, sizeof(ms[0]));
	ck_assert_uint_eq(ms[1].size, sizeof(ms[1]));
	ck_assert_int_eq(cgctl_parse_keyed("a 1\nb x\n", 8, kv_size, &n), 2);
	ck_assert_int_eq(n, 2);
	cgctl_unref(ctx);
	tu_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(json_writer)
{
	ck_assert_str_eq(js(j_escape),
			 "{\"q\\\"b\\\\\":\"line\\nta\\tb\\r\\u0001\\u001f\\u007f\","
			 "\"utf8\":\"µs ✓\",\"bad\":\"a\\ufffdb\\ufffd\","
			 "\"overlong\":\"\\ufffd\\ufffd\",\"surrogate\":\"\\ufffd\\ufffd\\ufffd\"}");
	ck_assert_str_eq(js(j_nest), "{\"a\":[18446744073709551615,-5,0.1,2,null,{}],"
				     "\"t\":true,\"n\":null,\"e\":[]}");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, errno_map);
	tcase_add_test(tc, kver);
	tcase_add_test(tc, path_normalize);
	tcase_add_test(tc, cgfs_escape);
	tcase_add_test(tc, cgfs_tree_ops);
	tcase_add_test(tc, ctx_errors);
	tcase_add_test(tc, json_writer);
	tcase_add_test(tc, error_sized);
	tcase_add_test(tc, filled_sized);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
