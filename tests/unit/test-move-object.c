/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of struct cgctl_move (lib/kernel/move.c) on a fixture tree: the PIDs of a
 * batch and what each met (cgctl_move_pid_get(): err, kind, held, from, taken once),
 * a dry run that writes nothing, bad destinations, and the size check of
 * cgctl_move_tree()'s result.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcgctl.h"
#include "testutil.h"

/* /proc/PID/stat of a fake task: state @st, flags @flags (0x200000 PF_KTHREAD) */
static void fake_task(const char *root, int pid, char st, unsigned int flags,
		      const char *cg)
{
	char rel[64], buf[256];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(buf, sizeof(buf), "%d (t) %c 1 %d %d 0 -1 %u 0 0 0 0 0 0 0 0 20 0 1 0\n",
		 pid, st, pid, pid, flags);
	ck_assert_int_eq(tu_write(root, rel, buf), 0);
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	snprintf(buf, sizeof(buf), "4:memory:%s\n0::/\n", cg);
	ck_assert_int_eq(tu_write(root, rel, buf), 0);
}

static char *root;
static struct cgctl_ctx *ctx;
static const struct cgctl_mount *mem;

static void setup(void)
{
	root = tu_mkdtemp();
	ck_assert_ptr_nonnull(root);
	tu_write(root, "cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n");
	tu_write(root, "sys/fs/cgroup/memory/cgroup.procs", "100\n101\n");
	tu_write(root, "sys/fs/cgroup/memory/a/cgroup.procs", "");
	tu_write(root, "sys/fs/cgroup/memory/c/cgroup.procs", "");
	fake_task(root, 100, 'S', 0x400000, "/a");
	fake_task(root, 101, 'S', 0x400000, "/a");
	fake_task(root, 102, 'S', 0x200000, "/");
	fake_task(root, 103, 'Z', 0x400000, "/a");
	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &mem), 0);
}

static void teardown(void)
{
	cgctl_unref(ctx);
	tu_rmtree(root);
	free(root);
}

START_TEST(batch_results)
{
	const struct cgctl_mount *ms[1] = { mem };
	const char *paths[1] = { "/c" };
	const pid_t pids[] = { 100, 4242, 102, 103, 101 };
	struct cgctl_move *mv = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	uint32_t held;
	char *from, *procs;
	int err, kind;

	ck_assert_int_eq(cgctl_move_new(ctx, ms, paths, 1, &mv), 0);
	ck_assert_int_eq(cgctl_move_pids(mv, pids, 5, CGCTL_MOVE_PIDS_FROM, &e), 2);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 0, &err, &kind, &held, &from), 0);
	ck_assert_int_eq(err, 0);
	ck_assert_int_eq(kind, CGCTL_TASK_MOVABLE);
	ck_assert_uint_eq(held, 1);
	ck_assert_str_eq(from, "/a");
	free(from);
	/* the from string was handed over: a second get has none */
	ck_assert_int_eq(cgctl_move_pid_get(mv, 0, NULL, NULL, NULL, &from), 0);
	ck_assert_ptr_null(from);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 1, &err, &kind, &held, NULL), 0);
	ck_assert_int_eq(err, -ESRCH);
	ck_assert_int_eq(kind, CGCTL_TASK_GONE);
	ck_assert_uint_eq(held, 0);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 2, &err, &kind, NULL, NULL), 0);
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_int_eq(kind, CGCTL_TASK_KTHREAD);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 3, &err, &kind, NULL, NULL), 0);
	ck_assert_int_eq(err, -ESRCH);
	ck_assert_int_eq(kind, CGCTL_TASK_ZOMBIE);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 4, &err, NULL, &held, NULL), 0);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq(held, 1);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 5, &err, NULL, NULL, NULL), -EINVAL);
	procs = tu_read(root, "sys/fs/cgroup/memory/c/cgroup.procs");
	ck_assert_ptr_nonnull(procs);
	ck_assert_str_eq(procs, "100\n101\n");
	free(procs);
	/* the next batch replaces the results */
	ck_assert_int_eq(cgctl_move_pids(mv, pids + 1, 1, 0, &e), 0);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 0, &err, &kind, NULL, NULL), 0);
	ck_assert_int_eq(err, -ESRCH);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 1, &err, NULL, NULL, NULL), -EINVAL);
	cgctl_move_free(mv);
}
END_TEST

START_TEST(dry_run_and_bad_targets)
{
	const struct cgctl_mount *ms[2] = { mem, mem };
	const char *paths[2] = { "/c", "/nope" };
	const pid_t pid = 100;
	struct cgctl_move *mv = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	char *procs;
	int err;

	ck_assert_int_eq(cgctl_move_new(ctx, ms, paths, 1, &mv), 0);
	ck_assert_int_eq(cgctl_move_pids(mv, &pid, 1, CGCTL_MOVE_PIDS_DRY_RUN, &e), 1);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 0, &err, NULL, NULL, NULL), 0);
	ck_assert_int_eq(err, 0);
	procs = tu_read(root, "sys/fs/cgroup/memory/c/cgroup.procs");
	ck_assert_str_eq(procs, "");
	free(procs);
	cgctl_move_free(mv);
	/* a destination that does not exist: nothing tried */
	ck_assert_int_eq(cgctl_move_new(ctx, ms + 1, paths + 1, 1, &mv), 0);
	ck_assert_int_eq(cgctl_move_pids(mv, &pid, 1, 0, &e), -ENOENT);
	ck_assert_int_eq(cgctl_move_pid_get(mv, 0, &err, NULL, NULL, NULL), 0);
	cgctl_move_free(mv);
	ck_assert_int_eq(cgctl_move_new(ctx, ms, paths, 0, &mv), -EINVAL);
	ck_assert_ptr_null(mv);
	ck_assert_int_eq(cgctl_move_new(ctx, ms, paths, CGCTL_MOVE_PIDS_MAX_TARGETS + 1, &mv),
			 -EINVAL);
}
END_TEST

START_TEST(tree_result_size)
{
	const struct cgctl_mount *ms[1] = { mem };
	const char *paths[1] = { "/c" };
	struct cgctl_move_tree_result res;
	struct cgctl_move *mv = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	const pid_t pid = 100;

	ck_assert_int_eq(cgctl_move_new(ctx, ms, paths, 1, &mv), 0);
	memset(&res, 0xa5, sizeof(res));
	res.size = offsetof(struct cgctl_move_tree_result, note);	/* too small */
	ck_assert_int_eq(cgctl_move_tree(mv, &pid, 1, NULL, &res, &e), -EINVAL);
	ck_assert_int_eq(e.err, EINVAL);
	/* a result of the first release's size: the appended members stay untouched */
	memset(&res, 0xa5, sizeof(res));
	res.size = offsetof(struct cgctl_move_tree_result, connector_deaf);
	ck_assert_int_eq(cgctl_move_tree(mv, NULL, 0, NULL, &res, &e), -EINVAL);
	ck_assert_uint_eq(res.size, offsetof(struct cgctl_move_tree_result, connector_deaf));
	ck_assert_uint_eq(res.moved, 0);
	ck_assert_uint_eq(res.stopped, (size_t)0xa5a5a5a5a5a5a5a5ull);
	cgctl_move_free(mv);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("move-object");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, batch_results);
	tcase_add_test(tc, dry_run_and_bad_targets);
	tcase_add_test(tc, tree_result_size);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
