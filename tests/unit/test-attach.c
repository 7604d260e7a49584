/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of lib/kernel/attach.c: cgctl_pid_cgroup() reads /proc/PID/cgroup into a
 * stack buffer and falls back to a growing read when the file does not fit (a file of
 * exactly the buffer's size, and a much longer one); v1 hierarchies with several
 * controllers, cgroup2, PID 0 (self), vanished PIDs; on the live system PID 0 and
 * getpid() agree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcgctl.h"
#include "testutil.h"

/* the stack buffer of cgctl_pid_cgroup(): its content is at most this minus one */
#define SMALL 2048

/* @n name=... lines of 100 bytes each (a deep path), then the real ones. */
static char *long_cgroup_file(size_t n, const char *tail)
{
	size_t len = n * 100 + strlen(tail) + 1;
	char *s = malloc(len), *p = s;

	ck_assert_ptr_nonnull(s);
	for (size_t i = 0; i < n; i++) {
		int k = snprintf(p, 101, "%zu:name=h%04zu:/", 100 + i, i);

		memset(p + k, 'x', (size_t)(99 - k));
		p[99] = '\n';
		p += 100;
	}
	strcpy(p, tail);
	return s;
}

/* A file of exactly @size bytes whose last line is "4:memory:/m\n". */
static char *sized_cgroup_file(size_t size)
{
	static const char tail[] = "4:memory:/m\n";
	char *s = malloc(size + 1);
	size_t head = size - (sizeof(tail) - 1);
	int k;

	ck_assert_ptr_nonnull(s);
	k = snprintf(s, size, "9:name=pad:/");
	memset(s + k, 'p', head - 1 - (size_t)k);
	s[head - 1] = '\n';
	memcpy(s + head, tail, sizeof(tail));
	ck_assert_uint_eq(strlen(s), size);
	return s;
}

static char *make_root(void)
{
	char *root = tu_mkdtemp(), *s;

	ck_assert_ptr_nonnull(root);
	tu_write(root, "cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n"
					"1 /sys/fs/cgroup/cpu cpu,cpuacct\n"
					"2 /sys/fs/cgroup/unified -\n");
	tu_write(root, "sys/fs/cgroup/memory/cgroup.procs", "");
	tu_write(root, "sys/fs/cgroup/cpu/cgroup.procs", "");
	tu_write(root, "sys/fs/cgroup/unified/cgroup.procs", "");
	tu_write(root, "proc/42/cgroup", "5:cpuacct,cpu:/c\n4:memory:/a\n0::/u\n");
	tu_write(root, "proc/self/cgroup", "4:memory:/me\n0::/\n");
	s = long_cgroup_file(60, "5:cpu,cpuacct:/deep\n4:memory:/far/away\n0::/v2\n");
	tu_write(root, "proc/44/cgroup", s);
	free(s);
	s = sized_cgroup_file(SMALL - 1);	/* fills the buffer: the fallback reads it */
	tu_write(root, "proc/45/cgroup", s);
	free(s);
	s = sized_cgroup_file(SMALL - 2);	/* one byte short: read in one go */
	tu_write(root, "proc/46/cgroup", s);
	free(s);
	tu_write(root, "proc/47/cgroup", "");
	return root;
}

static void expect_cg(struct cgctl_ctx *ctx, pid_t pid, const struct cgctl_mount *m,
		      const char *want)
{
	char *path = NULL;

	ck_assert_int_eq(cgctl_pid_cgroup(ctx, pid, m, &path), 0);
	ck_assert_str_eq(path, want);
	free(path);
}

START_TEST(pid_cgroup_fixture)
{
	char *root = make_root(), *path = NULL;
	const struct cgctl_mount *mem, *cpu, *v2;
	struct cgctl_ctx *ctx;

	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &mem), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "cpuacct", &cpu), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, NULL, &v2), 0);
	expect_cg(ctx, 42, mem, "/a");
	expect_cg(ctx, 42, cpu, "/c");	/* "cpuacct,cpu" in /proc, "cpu,cpuacct" mounted */
	expect_cg(ctx, 42, v2, "/u");
	expect_cg(ctx, 0, mem, "/me");
	/* 6 KB: longer than the stack buffer */
	expect_cg(ctx, 44, mem, "/far/away");
	expect_cg(ctx, 44, cpu, "/deep");
	expect_cg(ctx, 44, v2, "/v2");
	/* at the boundary: exactly full, and one byte less */
	expect_cg(ctx, 45, mem, "/m");
	expect_cg(ctx, 46, mem, "/m");
	/* empty file: no such line; no file: the process is gone */
	ck_assert_int_eq(cgctl_pid_cgroup(ctx, 47, mem, &path), -ENOENT);
	ck_assert_int_eq(cgctl_pid_cgroup(ctx, 4242, mem, &path), -ESRCH);
	ck_assert_int_eq(cgctl_pid_cgroup(ctx, -1, mem, &path), -ESRCH);
	ck_assert_ptr_null(path);
	cgctl_unref(ctx);
	tu_rmtree(root);
	free(root);
}
END_TEST

START_TEST(pid_cgroup_live)
{
	const struct cgctl_mount *all;
	struct cgctl_ctx *ctx;
	int n;

	ck_assert_int_eq(cgctl_new(&ctx, NULL), 0);
	n = cgctl_mounts(ctx, &all);
	for (int i = 0; i < n; i++) {
		char *self = NULL, *mine = NULL;
		int a = cgctl_pid_cgroup(ctx, 0, &all[i], &self);
		int b = cgctl_pid_cgroup(ctx, getpid(), &all[i], &mine);

		ck_assert_int_eq(a, b);
		if (a == 0)
			ck_assert_str_eq(self, mine);
		free(self);
		free(mine);
	}
	cgctl_unref(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("attach");
	TCase *tc = tcase_create("pid_cgroup");

	tcase_add_test(tc, pid_cgroup_fixture);
	tcase_add_test(tc, pid_cgroup_live);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
