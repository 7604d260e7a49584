/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of cgroup path resolution (lib/kernel/cgfs.c): openat2(RESOLVE_BENEATH|
 * RESOLVE_NO_SYMLINKS) and the component walk it falls back to must open the same
 * directories and refuse the same paths with the same errno; the hierarchy fd is opened
 * once even when two threads race for it; memstat can leave out memsw.failcnt; a file
 * opened in one openat2() (cgctl_cg_open_file()) is the file cgctl_cg_open() + openat()
 * open, or their errno, and the lean memstat reads the same figures through it;
 * cgctl_stat_read_many() gives each of many cgroups what one read of it gives, also
 * when it splits them between two threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libcgctl.h"
#include "kernel/cgfs.h"
#include "testutil.h"

/* v1 memory hierarchy: a/b/c, a symlinked cgroup inside and one leading outside, a
 * regular file where a directory is expected. */
static char *make_root(void)
{
	char *root = tu_mkdtemp(), p[PATH_MAX];

	ck_assert_ptr_nonnull(root);
	tu_write(root, "cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n");
	tu_write(root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	tu_write(root, "sys/fs/cgroup/memory/a/b/c/memory.usage_in_bytes", "4096\n");
	tu_write(root, "sys/fs/cgroup/memory/a/b/c/memory.limit_in_bytes", "1048576\n");
	tu_write(root, "sys/fs/cgroup/memory/a/b/c/memory.failcnt", "3\n");
	tu_write(root, "sys/fs/cgroup/memory/a/b/c/memory.max_usage_in_bytes", "8192\n");
	tu_write(root, "sys/fs/cgroup/memory/a/b/c/memory.memsw.usage_in_bytes", "4096\n");
	tu_write(root, "sys/fs/cgroup/memory/a/b/c/memory.memsw.limit_in_bytes", "max\n");
	tu_write(root, "sys/fs/cgroup/memory/a/b/c/memory.memsw.failcnt", "7\n");
	tu_write(root, "sys/fs/cgroup/memory/a/file", "x\n");
	tu_write(root, "outside/memory.usage_in_bytes", "1\n");
	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/memory/escape", root);
	ck_assert_int_eq(symlink("../../../../outside", p), 0);
	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/memory/a/inner", root);
	ck_assert_int_eq(symlink("b", p), 0);
	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/memory/a/b/abs", root);
	ck_assert_int_eq(symlink("/", p), 0);
	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/memory/a/b/c/link", root);
	ck_assert_int_eq(symlink("memory.failcnt", p), 0);
	return root;
}

/* The result of cgctl_cg_open(): the directory's inode, or the -errno. */
static long long open_result(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			     const char *path)
{
	struct stat st;
	int fd = cgctl_cg_open(ctx, m, path);

	if (fd < 0)
		return fd;
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	close(fd);
	return (long long)st.st_ino;
}

static long long ino_of(const char *root, const char *rel)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/memory/%s", root, rel);
	ck_assert_int_eq(lstat(p, &st), 0);
	return (long long)st.st_ino;
}

static const struct {
	const char *path;
	const char *dir;	/* expected directory, or NULL */
	int err;		/* else the expected errno */
} cases[] = {
	{ "/", ".", 0 },
	{ "/a", "a", 0 },
	{ "/a/b/c", "a/b/c", 0 },
	{ "a//b/./c/", "a/b/c", 0 },
	{ "/escape", NULL, ELOOP },		/* symlink leading out of the mount */
	{ "/escape/x", NULL, ELOOP },
	{ "/a/inner", NULL, ELOOP },		/* symlink to a sibling inside */
	{ "/a/inner/c", NULL, ELOOP },
	{ "/a/b/abs", NULL, ELOOP },		/* absolute symlink */
	{ "/a/b/abs/etc", NULL, ELOOP },
	{ "/a/file", NULL, ENOTDIR },
	{ "/a/file/x", NULL, ENOTDIR },
	{ "/nope", NULL, ENOENT },
	{ "/nope/x", NULL, ENOENT },
	{ "/a/b/c/nope", NULL, ENOENT },
	{ "/a/../a", NULL, EINVAL },
	{ "/a/b/..", NULL, EINVAL },
};

static void check_cases(const char *root, bool openat2)
{
	const struct cgctl_mount *m;
	struct cgctl_ctx *ctx;

	cgctl_cgfs_use_openat2(openat2);
	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long long got = open_result(ctx, m, cases[i].path);
		long long want = cases[i].dir ? ino_of(root, cases[i].dir) : -cases[i].err;

		ck_assert_msg(got == want, "%s (%s): got %lld, want %lld", cases[i].path,
			      openat2 ? "openat2" : "walk", got, want);
	}
	cgctl_unref(ctx);
	cgctl_cgfs_use_openat2(true);
}

START_TEST(resolve_openat2)
{
	char *root = make_root();

	check_cases(root, true);
	tu_rmtree(root);
	free(root);
}
END_TEST

START_TEST(resolve_walk)
{
	char *root = make_root();

	check_cases(root, false);
	tu_rmtree(root);
	free(root);
}
END_TEST

static int count_fds(void)
{
	int n = tu_count_entries("/proc/self/fd");

	ck_assert_int_ge(n, 0);
	return n;
}

struct race {
	struct cgctl_ctx *ctx;
	const struct cgctl_mount *m;
	pthread_barrier_t *start;
	int bad;
};

static void *race_open(void *arg)
{
	struct race *r = arg;

	pthread_barrier_wait(r->start);
	for (int i = 0; i < 200; i++) {
		int fd = cgctl_cg_open(r->ctx, r->m, "/a/b/c");

		if (fd < 0)
			r->bad++;
		else
			close(fd);
	}
	return NULL;
}

/* Two threads open cgroups of a fresh context at once: no error, no fd left over. */
START_TEST(mount_fd_race)
{
	char *root = make_root();
	int before = count_fds();

	for (int round = 0; round < 20; round++) {
		pthread_barrier_t start;
		struct race r[2];
		pthread_t t[2];
		struct cgctl_ctx *ctx;
		const struct cgctl_mount *m;

		ck_assert_int_eq(cgctl_new(&ctx, root), 0);
		ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
		pthread_barrier_init(&start, NULL, 2);
		for (int i = 0; i < 2; i++) {
			r[i] = (struct race){ .ctx = ctx, .m = m, .start = &start };
			ck_assert_int_eq(pthread_create(&t[i], NULL, race_open, &r[i]), 0);
		}
		for (int i = 0; i < 2; i++) {
			pthread_join(t[i], NULL);
			ck_assert_int_eq(r[i].bad, 0);
		}
		pthread_barrier_destroy(&start);
		cgctl_unref(ctx);
		ck_assert_int_eq(count_fds(), before);
	}
	tu_rmtree(root);
	free(root);
}
END_TEST

START_TEST(memstat_skip_memsw_failcnt)
{
	char *root = make_root();
	const struct cgctl_mount *m;
	struct cgctl_memstat all, some;
	struct cgctl_ctx *ctx;

	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	ck_assert_int_eq(cgctl_memstat_read(ctx, m, "/a/b/c", &all), 0);
	ck_assert_int_eq(cgctl_memstat_read_flags(ctx, m, "/a/b/c",
						  CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT, &some), 0);
	ck_assert_uint_eq(all.usage, 4096);
	ck_assert_uint_eq(all.limit, 1048576);
	ck_assert_uint_eq(all.failcnt, 3);
	ck_assert_uint_eq(all.peak, 8192);
	ck_assert_uint_eq(all.memsw_limit, UINT64_MAX);
	ck_assert_uint_eq(all.memsw_failcnt, 7);
	ck_assert_uint_eq(some.memsw_failcnt, 0);
	some.memsw_failcnt = all.memsw_failcnt;
	ck_assert_mem_eq(&all, &some, sizeof(all));
	/* a symlinked cgroup is refused here too */
	ck_assert_int_eq(cgctl_memstat_read(ctx, m, "/escape", &all), -ELOOP);
	cgctl_unref(ctx);
	tu_rmtree(root);
	free(root);
}
END_TEST

/* cgctl_cg_open() + openat(O_NOFOLLOW): the file's inode or -errno. */
static long long file_by_dir(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			     const char *path, const char *file)
{
	int dfd = cgctl_cg_open(ctx, m, path), fd, e;
	struct stat st;

	if (dfd < 0)
		return dfd;
	fd = openat(dfd, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	e = errno;
	close(dfd);
	if (fd < 0)
		return -e;
	ck_assert_int_eq(fstat(fd, &st), 0);
	close(fd);
	return (long long)st.st_ino;
}

static long long file_at_once(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			      const char *path, const char *file)
{
	int fd = cgctl_cg_open_file(ctx, m, path, file);
	struct stat st;

	if (fd < 0)
		return fd;
	ck_assert_int_eq(fstat(fd, &st), 0);
	close(fd);
	return (long long)st.st_ino;
}

START_TEST(open_file_like_dir)
{
	static const char *files[] = { "memory.usage_in_bytes", "memory.limit_in_bytes",
				       "link", "nope", "c", ".", "..", "a/b", "" };
	char *root = make_root();
	int before = count_fds();

	for (int o2 = 1; o2 >= 0; o2--) {
		const struct cgctl_mount *m;
		struct cgctl_ctx *ctx;

		cgctl_cgfs_use_openat2(o2);
		ck_assert_int_eq(cgctl_new(&ctx, root), 0);
		ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
				const char *p = cases[i].path, *n = files[f];
				long long want = cgctl_valid_filename(n) ?
						 file_by_dir(ctx, m, p, n) : -EINVAL;
				long long got = file_at_once(ctx, m, p, n);

				ck_assert_msg(got == want, "%s %s (%s): got %lld, want %lld",
					      p, n, o2 ? "openat2" : "walk", got, want);
			}
		/* the cases: a file, a symlinked file, a symlinked cgroup, no file */
		ck_assert_int_gt(file_at_once(ctx, m, "/a/b/c", "memory.failcnt"), 0);
		ck_assert_int_eq(file_at_once(ctx, m, "/a/b/c", "link"), -ELOOP);
		ck_assert_int_eq(file_at_once(ctx, m, "/escape", "memory.usage_in_bytes"),
				 -ELOOP);
		ck_assert_int_eq(file_at_once(ctx, m, "/a/b/c", "nope"), -ENOENT);
		cgctl_unref(ctx);
	}
	cgctl_cgfs_use_openat2(true);
	ck_assert_int_eq(count_fds(), before);
	tu_rmtree(root);
	free(root);
}
END_TEST

START_TEST(memstat_lean)
{
	char *root = make_root();
	const struct cgctl_mount *m;
	struct cgctl_memstat all, lean;
	struct cgctl_ctx *ctx;

	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &m), 0);
	ck_assert_int_eq(cgctl_memstat_read(ctx, m, "/a/b/c", &all), 0);
	ck_assert_int_eq(cgctl_memstat_read_flags(ctx, m, "/a/b/c", CGCTL_MEMSTAT_LEAN,
						  &lean), 0);
	ck_assert_int_eq(lean.version, 1);
	ck_assert_uint_eq(lean.usage, all.usage);
	ck_assert_uint_eq(lean.limit, all.limit);
	ck_assert_uint_eq(lean.failcnt, 3);
	ck_assert_uint_eq(lean.present, CGCTL_MEMSTAT_FAILCNT);
	ck_assert_uint_eq(lean.peak, 0);
	ck_assert_uint_eq(lean.memsw_usage, 0);
	/* the errors of the full read: the cgroup's own, else no such controller */
	ck_assert_int_eq(cgctl_memstat_read_flags(ctx, m, "/escape", CGCTL_MEMSTAT_LEAN,
						  &lean), -ELOOP);
	ck_assert_int_eq(cgctl_memstat_read_flags(ctx, m, "/nope", CGCTL_MEMSTAT_LEAN,
						  &lean), -ENOENT);
	ck_assert_int_eq(cgctl_memstat_read_flags(ctx, m, "/a/file", CGCTL_MEMSTAT_LEAN,
						  &lean), -ENOTDIR);
	ck_assert_int_eq(cgctl_memstat_read(ctx, m, "/a", &all), -EOPNOTSUPP);
	ck_assert_int_eq(cgctl_memstat_read_flags(ctx, m, "/a", CGCTL_MEMSTAT_LEAN, &lean),
			 -EOPNOTSUPP);
	cgctl_unref(ctx);
	tu_rmtree(root);
	free(root);
}
END_TEST

/* @n cgroups of their own figures in memory, cpu and cpuacct (v1, apart); some missing
 * in cpu (i % 7 == 3), in cpuacct (i % 5 == 1) or everywhere (i % 11 == 4). */
static char *make_many(int n)
{
	char *root = tu_mkdtemp(), p[PATH_MAX], v[128];

	ck_assert_ptr_nonnull(root);
	tu_write(root, "cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n"
		 "1 /sys/fs/cgroup/cpu cpu\n1 /sys/fs/cgroup/cpuacct cpuacct\n");
	for (int i = 0; i < n; i++) {
		if (i % 11 == 4)
			continue;
		snprintf(p, sizeof(p), "sys/fs/cgroup/memory/g/%d/memory.usage_in_bytes", i);
		snprintf(v, sizeof(v), "%d\n", 4096 * i);
		tu_write(root, p, v);
		snprintf(p, sizeof(p), "sys/fs/cgroup/memory/g/%d/memory.limit_in_bytes", i);
		snprintf(v, sizeof(v), "%d\n", 4096 * (i + 1000));
		tu_write(root, p, v);
		snprintf(p, sizeof(p), "sys/fs/cgroup/memory/g/%d/memory.failcnt", i);
		snprintf(v, sizeof(v), "%d\n", i);
		tu_write(root, p, v);
		if (i % 7 == 3)
			continue;
		snprintf(p, sizeof(p), "sys/fs/cgroup/cpu/g/%d/cpu.stat", i);
		snprintf(v, sizeof(v), "nr_periods %d\nnr_throttled %d\nthrottled_time %d\n",
			 i + 10, i, 1000 * i);
		tu_write(root, p, v);
		snprintf(p, sizeof(p), "sys/fs/cgroup/cpu/g/%d/cpu.cfs_quota_us", i);
		snprintf(v, sizeof(v), "%d\n", i % 2 ? -1 : 1000 * (i + 1));
		tu_write(root, p, v);
		snprintf(p, sizeof(p), "sys/fs/cgroup/cpu/g/%d/cpu.cfs_period_us", i);
		tu_write(root, p, "100000\n");
		if (i % 5 == 1)
			continue;
		snprintf(p, sizeof(p), "sys/fs/cgroup/cpuacct/g/%d/cpuacct.usage", i);
		snprintf(v, sizeof(v), "%d\n", 7000 * i);
		tu_write(root, p, v);
	}
	return root;
}

START_TEST(stat_read_many)
{
	const int n = 300;	/* enough for a second thread */
	char *root = make_many(n);
	const struct cgctl_mount *mm, *cm, *am;
	struct cgctl_stat_item *v = calloc(n, sizeof(*v));
	char (*paths)[32] = calloc(n, sizeof(*paths));
	struct cgctl_ctx *ctx, *one;
	int read_cpu = 0, read_acct = 0;

	ck_assert_ptr_nonnull(v);
	ck_assert_ptr_nonnull(paths);
	for (unsigned int lean = 0; lean < 2; lean++) {
		/* a fresh context: the mounts' directories are opened during the call */
		ck_assert_int_eq(cgctl_new(&ctx, root), 0);
		ck_assert_int_eq(cgctl_new(&one, root), 0);
		ck_assert_int_eq(cgctl_mount_find(ctx, "memory", &mm), 0);
		ck_assert_int_eq(cgctl_mount_find(ctx, "cpu", &cm), 0);
		ck_assert_int_eq(cgctl_mount_find(ctx, "cpuacct", &am), 0);
		for (int i = 0; i < n; i++) {
			snprintf(paths[i], sizeof(paths[i]), "/g/%d", i);
			v[i] = (struct cgctl_stat_item){ .mem_path = paths[i],
				.cpu_path = i % 13 == 6 ? NULL : paths[i], .acct_path = paths[i],
				.mem_r = 12345, .cpu_r = 12345 };
		}
		ck_assert_int_eq(cgctl_stat_read_many(ctx, mm, lean ? CGCTL_MEMSTAT_LEAN : 0,
						      cm, am, lean ? CGCTL_CPUBW_LEAN : 0, v,
						      n), 0);
		for (int i = 0; i < n; i++) {
			const struct cgctl_mount *m1, *c1, *a1;
			struct cgctl_memstat ms;
			struct cgctl_cpubw bw;
			int r;

			ck_assert_int_eq(cgctl_mount_find(one, "memory", &m1), 0);
			ck_assert_int_eq(cgctl_mount_find(one, "cpu", &c1), 0);
			ck_assert_int_eq(cgctl_mount_find(one, "cpuacct", &a1), 0);
			r = cgctl_memstat_read_flags(one, m1, paths[i],
						     lean ? CGCTL_MEMSTAT_LEAN : 0, &ms);
			ck_assert_int_eq(v[i].mem_r, r);
			ck_assert_int_eq(r, i % 11 == 4 ? -ENOENT : 0);
			if (r == 0) {
				ck_assert_mem_eq(&v[i].mem, &ms, sizeof(ms));
				ck_assert_uint_eq(v[i].mem.usage, 4096u * (unsigned int)i);
				ck_assert_uint_eq(v[i].mem.failcnt, (unsigned int)i);
			}
			if (i % 13 == 6) {
				ck_assert_int_eq(v[i].cpu_r, -ENODEV);	/* not asked */
				continue;
			}
			r = cgctl_cpubw_read_flags(one, c1, paths[i], a1, paths[i],
						   lean ? CGCTL_CPUBW_LEAN : 0, &bw);
			ck_assert_int_eq(v[i].cpu_r, r);
			if (r == 0) {
				ck_assert_mem_eq(&v[i].cpu, &bw, sizeof(bw));
				ck_assert_uint_eq(v[i].cpu.stat.nr_periods, (unsigned int)i + 10);
				read_cpu++;
				read_acct += v[i].cpu.stat.usage_ns > 0;
			}
		}
		cgctl_unref(one);
		cgctl_unref(ctx);
	}
	/* the fixture's figures were read, not only errors compared */
	ck_assert_int_gt(read_cpu, n);
	ck_assert_int_gt(read_acct, n / 2);
	ck_assert_int_eq(cgctl_stat_read_many(NULL, NULL, 0, NULL, NULL, 0, v, 1), -EINVAL);
	ck_assert_int_eq(cgctl_stat_read_many(NULL, NULL, 0, NULL, NULL, 0, NULL, 0),
			 -EINVAL);
	free(paths);
	free(v);
	tu_rmtree(root);
	free(root);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cgfs-open");
	TCase *tc = tcase_create("cgfs-open");

	tcase_add_test(tc, resolve_openat2);
	tcase_add_test(tc, resolve_walk);
	tcase_add_test(tc, mount_fd_race);
	tcase_add_test(tc, memstat_skip_memsw_failcnt);
	tcase_add_test(tc, open_file_like_dir);
	tcase_add_test(tc, memstat_lean);
	tcase_add_test(tc, stat_read_many);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
