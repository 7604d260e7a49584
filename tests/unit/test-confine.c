/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Confinement of lib/kernel/cgfs.c (issue 15), each escape through openat2() and through
 * the component walk it falls back to:
 * - an empty root is refused (NULL keeps meaning the live system);
 * - a --root mount map naming "/../x" is refused at discovery;
 * - a symlinked hierarchy directory (or a symlinked directory above it) is not followed:
 *   -ELOOP, and nothing outside the root is read or written;
 * - a bind mount over a cgroup directory or file is not followed, read or written:
 *   -EXDEV (needs root for the private mount namespace; skipped otherwise);
 * - on the live system, the hierarchies libcgroup found open (they are cgroupfs).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libcgctl.h"
#include "kernel/cgfs.h"
#include "testutil.h"

#define LIMIT "sys/fs/cgroup/memory/a/memory.limit_in_bytes"

/* ROOT: a memory hierarchy with cgroup a, and ROOT/outside with a file of the same name */
static char *make_root(const char *map)
{
	char *root = tu_mkdtemp();

	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(tu_write(root, "cgctl-mounts", map), 0);
	ck_assert_int_eq(tu_write(root, LIMIT, "1048576\n"), 0);
	ck_assert_int_eq(tu_write(root, "outside/memory.limit_in_bytes", "42\n"), 0);
	ck_assert_int_eq(tu_write(root, "outside/a/memory.limit_in_bytes", "43\n"), 0);
	return root;
}

static void drop_root(char *root)
{
	tu_rmtree(root);
	free(root);
}

static void expect_outside_unchanged(const char *root)
{
	char *a = tu_read(root, "outside/memory.limit_in_bytes");
	char *b = tu_read(root, "outside/a/memory.limit_in_bytes");

	ck_assert_str_eq(a, "42\n");
	ck_assert_str_eq(b, "43\n");
	free(a);
	free(b);
}

START_TEST(empty_root)
{
	struct cgctl_ctx *ctx = NULL;

	ck_assert_int_eq(cgctl_new(&ctx, ""), -EINVAL);
	ck_assert_ptr_null(ctx);
	ck_assert_int_eq(cgctl_new(&ctx, NULL), 0);
	ck_assert_str_eq(cgctl_get_root(ctx), "");
	cgctl_unref(ctx);
}
END_TEST

START_TEST(map_dotdot)
{
	static const char *const maps[] = {
		"1 /../outside memory\n",
		"1 /sys/fs/cgroup/../../../outside memory\n",
		"1 /sys/fs/cgroup/memory/.. memory\n",
	};
	const struct cgctl_mount *m;
	struct cgctl_ctx *ctx;

	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		char *root = make_root(maps[i]);

		ck_assert_int_eq(cgctl_new(&ctx, root), 0);
		ck_assert_msg(cgctl_mount_find(ctx, "memory", &m) == -EINVAL, "map %s", maps[i]);
		cgctl_unref(ctx);
		expect_outside_unchanged(root);
		drop_root(root);
	}
}
END_TEST

/* The hierarchy directory ROOT/@link is a symlink to @target: nothing below it opens. */
static void symlinked_hier(const char *link, const char *target, const char *map,
			   bool openat2)
{
	char *root = make_root(map), p[PATH_MAX];
	const struct cgctl_mount *m;
	struct cgctl_ctx *ctx;
	char *buf = NULL;
	size_t len;

	snprintf(p, sizeof(p), "%s/%s", root, link);
	ck_assert_int_eq(symlink(target, p), 0);
	cgctl_cgfs_use_openat2(openat2);
	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	ck_assert_int_eq(cgctl_cg_open(ctx, m, "/"), -ELOOP);
	ck_assert_int_eq(cgctl_cg_read(ctx, m, "/", "memory.limit_in_bytes", &buf, &len),
			 -ELOOP);
	ck_assert_int_eq(cgctl_cg_read(ctx, m, "/a", "memory.limit_in_bytes", &buf, &len),
			 -ELOOP);
	ck_assert_int_eq(cgctl_cg_open_file(ctx, m, "/a", "memory.limit_in_bytes"), -ELOOP);
	ck_assert_int_eq(cgctl_cg_write(ctx, m, "/", "memory.limit_in_bytes", "7"), -ELOOP);
	ck_assert_int_eq(cgctl_cg_write(ctx, m, "/a", "memory.limit_in_bytes", "7"), -ELOOP);
	cgctl_unref(ctx);
	cgctl_cgfs_use_openat2(true);
	expect_outside_unchanged(root);
	drop_root(root);
}

START_TEST(symlinked_hierarchy)
{
	for (int o = 0; o <= 1; o++) {
		/* the hierarchy directory itself, relative and absolute */
		symlinked_hier("memlink", "outside", "1 /memlink memory\n", o);
		symlinked_hier("memlink", "../../../../../../../../tmp", "1 /memlink memory\n",
			       o);
		/* a directory above it */
		symlinked_hier("up", "outside", "1 /up memory\n", o);
	}
}
END_TEST

START_TEST(symlinked_parent)
{
	for (int o = 0; o <= 1; o++) {
		char *root = make_root("1 /link/memory memory\n"), p[PATH_MAX];
		const struct cgctl_mount *m;
		struct cgctl_ctx *ctx;

		/* ROOT/link -> ROOT/sys/fs/cgroup: inside the root, but a symlink */
		snprintf(p, sizeof(p), "%s/link", root);
		ck_assert_int_eq(symlink("sys/fs/cgroup", p), 0);
		cgctl_cgfs_use_openat2(o);
		ck_assert_int_eq(cgctl_new(&ctx, root), 0);
		ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
		ck_assert_int_eq(cgctl_cg_write(ctx, m, "/a", "memory.limit_in_bytes", "7"),
				 -ELOOP);
		cgctl_unref(ctx);
		cgctl_cgfs_use_openat2(true);
		drop_root(root);
	}
}
END_TEST

/* In a child with a private mount namespace: bind ROOT/outside over cgroup a (@over_dir)
 * or over a's limit file; every access through cgfs must say -EXDEV and change nothing. */
static int bind_child(const char *root, bool over_dir, bool openat2)
{
	char src[PATH_MAX], dst[PATH_MAX], *buf = NULL;
	const struct cgctl_mount *m;
	struct cgctl_ctx *ctx;
	size_t len;

	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return 77;
	snprintf(src, sizeof(src), "%s/outside%s", root,
		 over_dir ? "/a" : "/memory.limit_in_bytes");
	snprintf(dst, sizeof(dst), "%s/%s", root,
		 over_dir ? "sys/fs/cgroup/memory/a" : LIMIT);
	if (mount(src, dst, NULL, MS_BIND, NULL) < 0)
		return 77;
	cgctl_cgfs_use_openat2(openat2);
	if (cgctl_new(&ctx, root) < 0 || cgctl_mount_find(ctx, "memory", &m) < 0)
		return 10;
	if (over_dir && cgctl_cg_open(ctx, m, "/a") != -EXDEV)
		return 11;
	if (cgctl_cg_read(ctx, m, "/a", "memory.limit_in_bytes", &buf, &len) != -EXDEV)
		return 12;
	if (cgctl_cg_open_file(ctx, m, "/a", "memory.limit_in_bytes") != -EXDEV)
		return 13;
	if (cgctl_cg_write(ctx, m, "/a", "memory.limit_in_bytes", "7") != -EXDEV)
		return 14;
	/* the root of the hierarchy is still fine */
	if (cgctl_cg_exists(ctx, m, "/") != 1)
		return 15;
	cgctl_unref(ctx);
	return 0;
}

START_TEST(bind_mount)
{
	if (geteuid() != 0)
		return;	/* needs CAP_SYS_ADMIN for the namespace: covered by root CI */
	for (int over_dir = 0; over_dir <= 1; over_dir++)
		for (int o = 0; o <= 1; o++) {
			char *root = make_root("1 /sys/fs/cgroup/memory memory\n");
			int st = 0;
			pid_t pid = fork();

			ck_assert_int_ge(pid, 0);
			if (pid == 0)
				_exit(bind_child(root, over_dir, o));
			ck_assert_int_eq(waitpid(pid, &st, 0), pid);
			ck_assert_msg(WIFEXITED(st) && (WEXITSTATUS(st) == 0 ||
							WEXITSTATUS(st) == 77),
				      "bind over %s (%s): child status %d",
				      over_dir ? "cgroup" : "file", o ? "openat2" : "walk",
				      WEXITSTATUS(st));
			expect_outside_unchanged(root);
			char *v = tu_read(root, LIMIT);

			ck_assert_str_eq(v, "1048576\n");
			free(v);
			drop_root(root);
		}
}
END_TEST

START_TEST(live_hierarchies)
{
	const struct cgctl_mount *m;
	struct cgctl_ctx *ctx;
	int n;

	ck_assert_int_eq(cgctl_new(&ctx, NULL), 0);
	n = cgctl_mounts(ctx, &m);
	/* every hierarchy libcgroup reports is cgroupfs: its root opens */
	for (int i = 0; i < n; i++)
		ck_assert_msg(cgctl_cg_exists(ctx, &m[i], "/") == 1, "%s", m[i].path);
	cgctl_unref(ctx);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("confine");
	TCase *tc = tcase_create("confine");

	tcase_add_test(tc, empty_root);
	tcase_add_test(tc, map_dotdot);
	tcase_add_test(tc, symlinked_hierarchy);
	tcase_add_test(tc, symlinked_parent);
	tcase_add_test(tc, bind_mount);
	tcase_add_test(tc, live_hierarchies);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
