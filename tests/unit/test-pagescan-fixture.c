/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The whole inventory scan against a fake /proc and memory hierarchy below a temporary
 * root: maps, a sparse pagemap, kpagecgroup/kpageflags/kpagecount written at the PFNs
 * used, and cgroup directories whose st_ino the kpagecgroup entries name.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/pagescan.h"
#include "testutil.h"

#define PID 4242
#define PID_HIDDEN 4243
#define VA1 0x10000000UL	/* 1024 pages, private anon */
#define VA2 0x20000000UL	/* 16 pages, shared file */
#define VA3 0x30000000UL	/* 1 page, maps PFN 5000 again */
#define VA4 0x40000000UL	/* BIG pages, private anon: enough for two threads */
#define BIG 20000
#define KF(b) KPF_BIT(b)

static char *root;
static uint64_t ino_a, ino_ab, ino_c;

/* Open files of the fixture, kept open while it is written (40000+ entries). */
static struct {
	char rel[64];
	int fd;
} files[8];

static int fixture_fd(const char *rel)
{
	char path[4096];
	size_t i;

	for (i = 0; i < 8 && files[i].rel[0]; i++)
		if (strcmp(files[i].rel, rel) == 0)
			return files[i].fd;
	ck_assert_uint_lt(i, 8);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	files[i].fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	ck_assert_int_ge(files[i].fd, 0);
	snprintf(files[i].rel, sizeof(files[i].rel), "%s", rel);
	return files[i].fd;
}

static void close_fixture_fds(void)
{
	for (size_t i = 0; i < 8 && files[i].rel[0]; i++) {
		close(files[i].fd);
		files[i].rel[0] = '\0';
	}
}

static void put(const char *rel, uint64_t index, uint64_t v)
{
	ck_assert_int_eq(pwrite(fixture_fd(rel), &v, 8, (off_t)(index * 8)), 8);
}

static void page(const char *pagemap, uint64_t va, uint64_t pm, uint64_t pfn, uint64_t cg,
		 uint64_t kf, uint64_t kc)
{
	put(pagemap, va / 4096, pm | pfn);
	put("proc/kpagecgroup", pfn, cg);
	put("proc/kpageflags", pfn, kf);
	put("proc/kpagecount", pfn, kc);
}

static uint64_t ino_of(const char *rel)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_ino;
}

static void make_hierarchy(void)
{
	ck_assert_int_eq(tu_write(root, "cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n"), 0);
	ck_assert_int_eq(tu_write(root, "sys/fs/cgroup/memory/a/b/memory.stat", ""), 0);
	ck_assert_int_eq(tu_write(root, "sys/fs/cgroup/memory/c/memory.stat", ""), 0);
	ino_a = ino_of("sys/fs/cgroup/memory/a");
	ino_ab = ino_of("sys/fs/cgroup/memory/a/b");
	ino_c = ino_of("sys/fs/cgroup/memory/c");
}

static void make_task(void)
{
	const char *pm = "proc/4242/pagemap";
	char maps[512];
	const uint64_t X = PM_PRESENT | PM_EXCLUSIVE, S = PM_PRESENT, F = PM_PRESENT | PM_FILE;

	snprintf(maps, sizeof(maps),
		 "%lx-%lx rw-p 00000000 00:00 0\n"
		 "%lx-%lx rw-s 00000000 fe:01 77 /data/file\n"
		 "%lx-%lx rw-p 00000000 00:00 0\n"
		 "%lx-%lx rw-p 00000000 00:00 0\n",
		 VA1, VA1 + 1024 * 4096, VA2, VA2 + 16 * 4096, VA3, VA3 + 4096, VA4,
		 VA4 + BIG * 4096UL);
	ck_assert_int_eq(tu_write(root, "proc/4242/maps", maps), 0);
	ck_assert_int_eq(tu_write(root, "proc/4242/cgroup", "4:memory:/a/b\n0::/\n"), 0);
	for (uint64_t i = 0; i < 100; i++)	/* anon exclusive in a/b */
		page(pm, VA1 + i * 4096, X, 5000 + i, ino_ab, KF(KPF_ANON), 1);
	for (uint64_t i = 100; i < 110; i++)	/* swapped */
		put(pm, VA1 / 4096 + i, PM_SWAP | (i << 5));
	for (uint64_t i = 0; i < 20; i++)	/* anon shared in a: mapcount 2, 3, 2, ... */
		page(pm, VA1 + (200 + i) * 4096, S, 9000 + i, ino_a, KF(KPF_ANON), 2 + i % 2);
	page(pm, VA1 + 300 * 4096, S, 77, 0, KF(KPF_ZERO_PAGE), 1);
	page(pm, VA1 + 301 * 4096, X, 9999, 999999, KF(KPF_ANON), 1);	/* unknown inode */
	for (uint64_t i = 0; i < 512; i++)	/* one PMD THP: vpn and pfn 512-aligned */
		page(pm, VA1 + (512 + i) * 4096, X, 16384 + i, ino_ab,
		     KF(KPF_ANON) | KF(KPF_THP) |
		     KF(i ? KPF_COMPOUND_TAIL : KPF_COMPOUND_HEAD), 1);
	for (uint64_t i = 0; i < 6; i++)	/* 4 file pages, 2 shmem in c */
		page(pm, VA2 + i * 4096, F, 20000 + i, ino_c, i < 4 ? 0 : KF(KPF_SWAPBACKED),
		     1);
	put(pm, VA3 / 4096, X | 5000);	/* PFN 5000 a second time */
	for (uint64_t i = 0; i < BIG; i++)	/* PFNs in reverse: sorting matters */
		page(pm, VA4 + i * 4096, X, 100000 + BIG - i, ino_a, KF(KPF_ANON), 1);
}

static void make_hidden_task(void)
{
	char maps[128];

	snprintf(maps, sizeof(maps), "%lx-%lx rw-p 00000000 00:00 0\n", VA1, VA1 + 8 * 4096);
	ck_assert_int_eq(tu_write(root, "proc/4243/maps", maps), 0);
	ck_assert_int_eq(tu_write(root, "proc/4243/cgroup", "4:memory:/c\n"), 0);
	for (uint64_t i = 0; i < 3; i++)
		put("proc/4243/pagemap", VA1 / 4096 + i, PM_PRESENT | PM_EXCLUSIVE);
	put("proc/4243/pagemap", VA1 / 4096 + 3, PM_PRESENT);
	put("proc/4243/pagemap", VA1 / 4096 + 4, PM_PRESENT | PM_FILE);
	put("proc/4243/pagemap", VA1 / 4096 + 5, PM_SWAP);
}

static void setup(void)
{
	root = tu_mkdtemp();
	ck_assert_ptr_nonnull(root);
	make_hierarchy();
	make_task();
	make_hidden_task();
	close_fixture_fds();
}

static void teardown(void)
{
	tu_rmtree(root);
	free(root);
}

static struct cgctl_inventory *scan_in(struct cgctl_ctx *ctx, pid_t pid, unsigned int flags,
				       int want)
{
	struct cgctl_inventory *inv = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	int r = cgctl_inventory_scan(ctx, pid, flags, &inv, &e);

	ck_assert_msg(r == want, "scan: %d (%s)", r, e.msg);
	return inv;
}

static struct cgctl_inventory *scan(pid_t pid, unsigned int flags, int want)
{
	struct cgctl_ctx *ctx = NULL;
	struct cgctl_inventory *inv;

	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	inv = scan_in(ctx, pid, flags, want);
	cgctl_unref(ctx);
	return inv;
}

/* The same figures through the exported getters of the opaque result (issue 28). */
static void check_getters(const struct cgctl_inventory *inv)
{
	uint64_t v = 7;

	ck_assert_int_eq(cgctl_inventory_get(inv, "pid", &v), 0);
	ck_assert_uint_eq(v, PID);
	ck_assert_int_eq(cgctl_inventory_get(inv, "pfn_visible", &v), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(cgctl_inventory_get(inv, "unknown", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(cgctl_inventory_get(inv, "vmas", &v), 0);
	ck_assert_uint_eq(v, 4);
	ck_assert_int_eq(cgctl_inventory_get(inv, "swap_pages", &v), 0);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(cgctl_inventory_get(inv, "zero_pages", &v), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(cgctl_inventory_get(inv, "present_pages", &v), 0);
	ck_assert_uint_eq(v, 100 + 20 + 1 + 1 + 512 + 6 + BIG);
	ck_assert_int_eq(cgctl_inventory_get(inv, "task_ino", &v), 0);
	ck_assert_uint_eq(v, ino_ab);
	ck_assert_int_eq(cgctl_inventory_get(inv, "groups", &v), 0);
	ck_assert_uint_eq(v, 4);
	ck_assert_str_eq(cgctl_inventory_task_cgroup(inv), "/a/b");
	v = 7;
	ck_assert_int_eq(cgctl_inventory_get(inv, "no_such", &v), -EINVAL);
	ck_assert_uint_eq(v, 7);
	/* group 1: a/b (descending by pages) */
	ck_assert_int_eq(cgctl_inventory_group_get(inv, 1, "ino", &v), 0);
	ck_assert_uint_eq(v, ino_ab);
	ck_assert_int_eq(cgctl_inventory_group_get(inv, 1, "pages", &v), 0);
	ck_assert_uint_eq(v, 612);
	ck_assert_int_eq(cgctl_inventory_group_get(inv, 1, "thp_pmd", &v), 0);
	ck_assert_uint_eq(v, 512);
	ck_assert_str_eq(cgctl_inventory_group_path(inv, 1), "/a/b");
	/* group 0: a */
	ck_assert_int_eq(cgctl_inventory_group_get(inv, 0, "anon_shared", &v), 0);
	ck_assert_uint_eq(v, 20);
	ck_assert_int_eq(cgctl_inventory_group_get(inv, 0, "anon_shared_mc2", &v), 0);
	ck_assert_uint_eq(v, 10);
	/* group 2: c */
	ck_assert_int_eq(cgctl_inventory_group_get(inv, 2, "file", &v), 0);
	ck_assert_uint_eq(v, 4);
	ck_assert_int_eq(cgctl_inventory_group_get(inv, 2, "shmem", &v), 0);
	ck_assert_uint_eq(v, 2);
	/* group 3: an inode found nowhere: no path */
	ck_assert_ptr_null(cgctl_inventory_group_path(inv, 3));
	/* past the last group, an unknown key */
	v = 7;
	ck_assert_int_eq(cgctl_inventory_group_get(inv, 4, "pages", &v), -ERANGE);
	ck_assert_ptr_null(cgctl_inventory_group_path(inv, 4));
	ck_assert_int_eq(cgctl_inventory_group_get(inv, 0, "no_such", &v), -EINVAL);
	ck_assert_uint_eq(v, 7);
}

/* The fixture task's figures, whole (then freed). */
static void check_full_inv(struct cgctl_inventory *inv)
{
	const struct cgctl_inv_group *g;

	ck_assert(inv->pfn_visible);
	ck_assert_uint_eq(inv->unknown, 0);
	ck_assert_uint_eq(inv->n_vmas, 4);
	ck_assert_uint_eq(inv->swap_pages, 10);
	ck_assert_uint_eq(inv->zero_pages, 1);
	ck_assert_uint_eq(inv->present_pages, 100 + 20 + 1 + 1 + 512 + 6 + BIG);
	ck_assert_str_eq(inv->task_cgroup, "/a/b");
	ck_assert_uint_eq(inv->task_ino, ino_ab);
	ck_assert_uint_eq(inv->n_groups, 4);
	/* descending by pages: a (BIG + 20), a/b (612), c (6), unknown inode (1) */
	ck_assert_uint_eq(inv->groups[0].ino, ino_a);
	ck_assert_uint_eq(inv->groups[1].ino, ino_ab);
	ck_assert_uint_eq(inv->groups[2].ino, ino_c);

	g = cgctl_inventory_group(inv, ino_ab);
	ck_assert_str_eq(g->path, "/a/b");
	ck_assert_uint_eq(g->pages, 612);
	ck_assert_uint_eq(g->anon_exclusive, 612);
	ck_assert_uint_eq(g->thp, 512);
	ck_assert_uint_eq(g->thp_pmd, 512);
	g = cgctl_inventory_group(inv, ino_a);
	ck_assert_str_eq(g->path, "/a");
	ck_assert_uint_eq(g->anon_exclusive, BIG);
	ck_assert_uint_eq(g->anon_shared, 20);
	ck_assert_uint_eq(g->anon_shared_mc2, 10);
	ck_assert_uint_eq(g->thp, 0);
	g = cgctl_inventory_group(inv, ino_c);
	ck_assert_str_eq(g->path, "/c");
	ck_assert_uint_eq(g->file, 4);
	ck_assert_uint_eq(g->shmem, 2);
	ck_assert_uint_eq(g->pages, 6);
	g = cgctl_inventory_group(inv, 999999);
	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_null(g->path);
	ck_assert_uint_eq(g->pages, 1);
	ck_assert_ptr_null(cgctl_inventory_group(inv, 0));	/* zero page: no group */
	check_getters(inv);
	cgctl_inventory_free(inv);
}

static void check_full(unsigned int flags)
{
	check_full_inv(scan(PID, flags, 0));
}

/* The fixture task's figures in a few numbers, for where ck_assert() cannot be used
 * (another thread, a fork()ed child). */
static bool full_ok(struct cgctl_ctx *ctx)
{
	struct cgctl_inventory *inv = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	bool ok = cgctl_inventory_scan(ctx, PID, 0, &inv, &e) == 0 && inv->n_groups == 4 &&
		  cgctl_inventory_group(inv, ino_a)->anon_exclusive == BIG &&
		  cgctl_inventory_group(inv, ino_ab)->pages == 612 &&
		  cgctl_inventory_group(inv, ino_c)->shmem == 2;

	cgctl_inventory_free(inv);
	return ok;
}

/* Threads of this process now. */
static int threads_now(void)
{
	int n = tu_count_entries("/proc/self/task");

	ck_assert_int_gt(n, 0);
	return n;
}

struct scanner {
	struct cgctl_ctx *ctx;
	bool ok;
};

static void *scan_thread(void *arg)
{
	struct scanner *sc = arg;

	for (int i = 0; i < 20; i++)
		sc->ok &= full_ok(sc->ctx);
	return NULL;
}

/*
 * An inventory starts no thread, and none is left running between scans or after the
 * last cgctl_unref() (libcgctl(3)); a fork()ed child scans on the parent's context; two
 * scans at once on one context (from two threads of the caller's) both count right.
 */
START_TEST(no_threads_left)
{
	struct cgctl_ctx *ctx = NULL;
	int before = threads_now(), st;
	struct scanner sc;
	pthread_t t;
	pid_t pid;

	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	for (int i = 0; i < 3; i++) {
		check_full_inv(scan_in(ctx, PID, 0, 0));
		ck_assert_int_eq(threads_now(), before);
	}
	check_full_inv(scan_in(ctx, PID, CGCTL_INV_SINGLE_THREAD, 0));
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		bool ok = full_ok(ctx) && full_ok(ctx) && threads_now() == 1;

		cgctl_unref(ctx);
		_exit(ok && threads_now() == 1 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	sc = (struct scanner){ ctx, true };
	ck_assert_int_eq(pthread_create(&t, NULL, scan_thread, &sc), 0);
	for (int i = 0; i < 20; i++)
		ck_assert(full_ok(ctx));
	pthread_join(t, NULL);
	ck_assert(sc.ok);
	ck_assert_int_eq(threads_now(), before);
	cgctl_unref(ctx);
	ck_assert_int_eq(threads_now(), before);
}
END_TEST

/* Before PAGEMAP_SCAN (the fixture's pagemap is a plain file: ENOTTY) smaps tells a
 * PMD-mapped THP from a PTE-mapped one; where it cannot, whole aligned folios count. */
static const struct cgctl_inv_group *scan_ab(const char *smaps_thp_kb,
					     struct cgctl_inventory **inv)
{
	char smaps[512];

	snprintf(smaps, sizeof(smaps),
		 "%lx-%lx rw-p 00000000 00:00 0\nRss: 2500 kB\nAnonHugePages: %s kB\n"
		 "%lx-%lx rw-s 00000000 fe:01 77 /data/file\nShmemPmdMapped: 0 kB\n",
		 VA1, VA1 + 1024 * 4096, smaps_thp_kb, VA2, VA2 + 16 * 4096);
	ck_assert_int_eq(tu_write(root, "proc/4242/smaps", smaps), 0);
	*inv = scan(4242, 0, 0);
	/* the fixture is shared by the tests: leave no smaps behind */
	snprintf(smaps, sizeof(smaps), "%s/proc/4242/smaps", root);
	ck_assert_int_eq(unlink(smaps), 0);
	return cgctl_inventory_group(*inv, ino_ab);
}

START_TEST(smaps_pmd_mapped)
{
	struct cgctl_inventory *inv;
	const struct cgctl_inv_group *g = scan_ab("2048", &inv);

	ck_assert_uint_eq(g->thp, 512);
	ck_assert_uint_eq(g->thp_pmd, 512);
	ck_assert_uint_eq(g->thp_heads, 1);
	ck_assert_uint_eq(g->anon_exclusive, 612);
	cgctl_inventory_free(inv);
}
END_TEST

START_TEST(smaps_pte_mapped)
{
	struct cgctl_inventory *inv;
	const struct cgctl_inv_group *g = scan_ab("0", &inv);
	struct cgctl_move_input in;

	ck_assert_uint_eq(g->thp, 512);
	ck_assert_uint_eq(g->thp_pmd, 0);	/* the whole aligned folio is PTE-mapped */
	ck_assert_uint_eq(g->anon_exclusive, 612);
	/* and the move plan keeps it behind: counted, not moved (v6.1) */
	ck_assert_int_eq(cgctl_move_input_from_inventory(inv, ino_ab, &in), 1);
	ck_assert_uint_eq(in.from.thp, 0);
	ck_assert_uint_eq(in.from.thp_pte, 512);
	/* one head: what 6.1's precharge counts of it */
	ck_assert_uint_eq(g->thp_heads, 1);
	ck_assert_uint_eq(in.from.thp_pte_counted, 1);
	cgctl_inventory_free(inv);
}
END_TEST

START_TEST(smaps_not_told)
{
	struct cgctl_inventory *inv;
	/* malformed: the folio test decides, as without smaps */
	const struct cgctl_inv_group *g = scan_ab("1000", &inv);

	ck_assert_uint_eq(g->thp_pmd, 512);
	cgctl_inventory_free(inv);
}
END_TEST

/* 6.1: kpagecgroup says 0 for the THP's tail pages (page_memcg_check() of the page, not
 * of its folio); they are the head's, PMD-mapped or not */
START_TEST(tails_uncharged_61)
{
	struct cgctl_inventory *inv;
	const struct cgctl_inv_group *g;

	for (uint64_t i = 1; i < 512; i++)
		put("proc/kpagecgroup", 16384 + i, 0);
	close_fixture_fds();
	for (int pte = 0; pte < 2; pte++) {
		g = scan_ab(pte ? "0" : "2048", &inv);
		ck_assert_uint_eq(g->anon_exclusive, 612);
		ck_assert_uint_eq(g->thp, 512);
		ck_assert_uint_eq(g->thp_pmd, pte ? 0 : 512);
		ck_assert_ptr_null(cgctl_inventory_group(inv, 0));
		cgctl_inventory_free(inv);
	}
	for (uint64_t i = 1; i < 512; i++)
		put("proc/kpagecgroup", 16384 + i, ino_ab);
	close_fixture_fds();
}
END_TEST

START_TEST(full_default)
{
	check_full(0);
}
END_TEST

START_TEST(full_one_thread)
{
	check_full(CGCTL_INV_SINGLE_THREAD);
}
END_TEST

#define THP_SYS "sys/kernel/mm/transparent_hugepage"

/* A THP sysfs under the fixture root: @small_enabled is hugepages-64kB's setting,
 * @small_nr its stats/nr_anon (NULL: no such file, before 6.12); @pmd_nr the PMD
 * size's. */
static void make_thp_sysfs_pmd(const char *small_enabled, const char *small_nr,
			       const char *pmd_nr)
{
	ck_assert_int_eq(tu_write(root, THP_SYS "/hpage_pmd_size", "2097152\n"), 0);
	ck_assert_int_eq(tu_write(root, THP_SYS "/enabled", "always [madvise] never\n"), 0);
	ck_assert_int_eq(tu_write(root, THP_SYS "/hugepages-64kB/enabled", small_enabled), 0);
	if (small_nr)
		ck_assert_int_eq(tu_write(root, THP_SYS "/hugepages-64kB/stats/nr_anon",
					  small_nr), 0);
	ck_assert_int_eq(tu_write(root, THP_SYS "/hugepages-2048kB/enabled",
				  "always [inherit] madvise never\n"), 0);
	ck_assert_int_eq(tu_write(root, THP_SYS "/hugepages-2048kB/stats/nr_anon", pmd_nr), 0);
	ck_assert_int_eq(tu_write(root, THP_SYS "/hugepages-8kB/shmem_enabled",
				  "always inherit within_size advise [never]\n"), 0);
}

static void make_thp_sysfs(const char *small_enabled, const char *small_nr)
{
	make_thp_sysfs_pmd(small_enabled, small_nr, "7\n");
}

static void remove_thp_sysfs(void)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/sys/kernel", root);
	ck_assert_int_eq(tu_rmtree(path), 0);
}

/* The same figures when anon mTHP cannot exist (kpageflags sampled per 2 MiB block). */
START_TEST(sampled_same_figures)
{
	make_thp_sysfs("always inherit madvise [never]\n", "0\n");
	check_full(0);
	check_full(CGCTL_INV_SINGLE_THREAD);
	remove_thp_sysfs();
}
END_TEST

/* Which path ran: a THP flag planted on an anon exclusive page that is no block's
 * sample counts only when every page's kpageflags are read (mTHP possible, or unknown). */
static uint64_t planted_thp(void)
{
	struct cgctl_inventory *inv = scan(PID, 0, 0);
	uint64_t thp = cgctl_inventory_group(inv, ino_a)->thp;

	cgctl_inventory_free(inv);
	return thp;
}

START_TEST(sampled_reads_less)
{
	/* PFN 100500 (VA4) is inside block 100352..100863, sampled at 100352 */
	put("proc/kpageflags", 100500, KF(KPF_ANON) | KF(KPF_THP));
	close_fixture_fds();
	ck_assert_uint_eq(planted_thp(), 1);	/* no THP sysfs: unknown, all read */
	make_thp_sysfs("always inherit madvise [never]\n", "0\n");
	ck_assert_uint_eq(planted_thp(), 0);
	remove_thp_sysfs();
	make_thp_sysfs("always inherit [madvise] never\n", "0\n");	/* mTHP possible */
	ck_assert_uint_eq(planted_thp(), 1);
	remove_thp_sysfs();
	make_thp_sysfs("always inherit madvise [never]\n", "2\n");	/* some exist */
	ck_assert_uint_eq(planted_thp(), 1);
	remove_thp_sysfs();
	make_thp_sysfs("always inherit madvise [never]\n", NULL);	/* unknown */
	ck_assert_uint_eq(planted_thp(), 1);
	remove_thp_sysfs();
	put("proc/kpageflags", 100500, KF(KPF_ANON));
	close_fixture_fds();
}
END_TEST

/*
 * No anon THP of any size exists (every nr_anon reads 0): anon exclusive pages need no
 * kpageflags at all, so neither the planted flag nor the PMD folio's (which nr_anon
 * says cannot be one) count as THP.  Shared anon, file and shmem pages still have
 * theirs read: the zero page, file and shmem are told apart as before.
 */
START_TEST(no_anon_thp_no_flags)
{
	struct cgctl_inventory *inv;

	put("proc/kpageflags", 100500, KF(KPF_ANON) | KF(KPF_THP));
	close_fixture_fds();
	make_thp_sysfs_pmd("always inherit [madvise] never\n", "0\n", "0\n");
	for (int t = 0; t < 2; t++) {
		inv = scan(PID, t ? CGCTL_INV_SINGLE_THREAD : 0, 0);
		ck_assert_uint_eq(cgctl_inventory_group(inv, ino_a)->thp, 0);
		ck_assert_uint_eq(cgctl_inventory_group(inv, ino_a)->anon_exclusive, BIG);
		ck_assert_uint_eq(cgctl_inventory_group(inv, ino_a)->anon_shared, 20);
		ck_assert_uint_eq(cgctl_inventory_group(inv, ino_ab)->anon_exclusive, 612);
		ck_assert_uint_eq(cgctl_inventory_group(inv, ino_ab)->thp, 0);
		ck_assert_uint_eq(cgctl_inventory_group(inv, ino_c)->file, 4);
		ck_assert_uint_eq(cgctl_inventory_group(inv, ino_c)->shmem, 2);
		ck_assert_uint_eq(inv->zero_pages, 1);
		cgctl_inventory_free(inv);
	}
	remove_thp_sysfs();
	/* a PMD THP exists somewhere: all is read as before */
	make_thp_sysfs_pmd("always inherit [madvise] never\n", "0\n", "1\n");
	ck_assert_uint_eq(planted_thp(), 1);
	remove_thp_sysfs();
	/* an mTHP exists: the same */
	make_thp_sysfs_pmd("always inherit [madvise] never\n", "1\n", "0\n");
	ck_assert_uint_eq(planted_thp(), 1);
	remove_thp_sysfs();
	put("proc/kpageflags", 100500, KF(KPF_ANON));
	close_fixture_fds();
}
END_TEST

/* A FIFO standing for an nr_anon file: its first reader gets "0", every later one
 * nothing (not a count), until @stop. */
struct fifo_feed {
	char path[4096];
	int served;
	bool stop;
};

static void *fifo_writer(void *arg)
{
	struct fifo_feed *f = arg;
	struct timespec pause = { 0, 100000 };

	for (int tries = 0; tries < 100000 && !__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE);
	     tries++) {
		int fd = open(f->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);

		if (fd < 0) {	/* ENXIO: no reader yet */
			nanosleep(&pause, NULL);
			continue;
		}
		if (f->served++ == 0 && write(fd, "0\n", 2) != 2)
			f->served = -1000;
		close(fd);
	}
	return NULL;
}

/*
 * An mTHP size that may grow reads 0 when the scan starts and no longer after the
 * kpage pass (a FIFO serves its nr_anon file): the pass runs again with every
 * kpageflags entry read, and counts each page once.
 */
START_TEST(anon_thp_appears_meanwhile)
{
	struct fifo_feed f = { .served = 0 };
	struct cgctl_inventory *inv;
	pthread_t t;

	put("proc/kpageflags", 100500, KF(KPF_ANON) | KF(KPF_THP));
	close_fixture_fds();
	make_thp_sysfs_pmd("always inherit [madvise] never\n", NULL, "0\n");
	snprintf(f.path, sizeof(f.path), "%s/" THP_SYS "/hugepages-64kB/stats", root);
	ck_assert_int_eq(mkdir(f.path, 0700), 0);
	strcat(f.path, "/nr_anon");
	ck_assert_int_eq(mkfifo(f.path, 0600), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, fifo_writer, &f), 0);
	inv = scan(PID, 0, 0);
	__atomic_store_n(&f.stop, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	/* the fixture is shared: put it back before anything can fail */
	remove_thp_sysfs();
	put("proc/kpageflags", 100500, KF(KPF_ANON));
	close_fixture_fds();
	ck_assert_int_ge(f.served, 2);	/* read at the start, and again after */
	ck_assert_uint_eq(cgctl_inventory_group(inv, ino_a)->thp, 1);
	ck_assert_uint_eq(cgctl_inventory_group(inv, ino_a)->anon_exclusive, BIG);
	ck_assert_uint_eq(cgctl_inventory_group(inv, ino_a)->anon_shared, 20);
	ck_assert_uint_eq(cgctl_inventory_group(inv, ino_ab)->anon_exclusive, 612);
	ck_assert_uint_eq(cgctl_inventory_group(inv, ino_ab)->thp, 512);
	ck_assert_uint_eq(cgctl_inventory_group(inv, ino_c)->pages, 6);
	ck_assert_uint_eq(inv->zero_pages, 1);
	cgctl_inventory_free(inv);
}
END_TEST

START_TEST(no_paths_no_mapcount)
{
	struct cgctl_inventory *inv = scan(PID, CGCTL_INV_NO_PATHS | CGCTL_INV_NO_MAPCOUNT, 0);
	const struct cgctl_inv_group *g = cgctl_inventory_group(inv, ino_a);

	ck_assert_uint_eq(inv->unknown, CGCTL_INV_UNKNOWN_MAPCOUNT);
	ck_assert_ptr_null(g->path);
	ck_assert_uint_eq(g->anon_shared, 20);
	ck_assert_uint_eq(g->anon_shared_mc2, 0);
	cgctl_inventory_free(inv);
}
END_TEST

START_TEST(no_kpageflags)
{
	struct cgctl_inventory *inv;
	const struct cgctl_inv_group *g;
	char path[4096], saved[4096];

	snprintf(path, sizeof(path), "%s/proc/kpageflags", root);
	snprintf(saved, sizeof(saved), "%s/kpageflags.saved", root);
	ck_assert_int_eq(rename(path, saved), 0);
	inv = scan(PID, 0, 0);
	ck_assert_int_eq(rename(saved, path), 0);
	ck_assert_uint_eq(inv->unknown, CGCTL_INV_UNKNOWN_SHMEM | CGCTL_INV_UNKNOWN_THP);
	g = cgctl_inventory_group(inv, ino_c);
	ck_assert_uint_eq(g->file, 6);	/* shmem not told apart */
	ck_assert_uint_eq(g->shmem, 0);
	g = cgctl_inventory_group(inv, ino_ab);
	ck_assert_uint_eq(g->thp, 0);
	/* the zero page looks like anon shared with no owner: group 0 */
	g = cgctl_inventory_group(inv, 0);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(g->anon_shared, 1);
	cgctl_inventory_free(inv);
}
END_TEST

START_TEST(hidden_pfns)
{
	struct cgctl_inventory *inv = scan(PID_HIDDEN, 0, 0);

	ck_assert(!inv->pfn_visible);
	ck_assert_uint_eq(inv->unknown, CGCTL_INV_UNKNOWN_OWNER | CGCTL_INV_UNKNOWN_SHMEM |
						CGCTL_INV_UNKNOWN_THP |
						CGCTL_INV_UNKNOWN_MAPCOUNT);
	ck_assert_uint_eq(inv->n_groups, 1);
	ck_assert_uint_eq(inv->groups[0].ino, 0);
	ck_assert_ptr_null(inv->groups[0].path);
	ck_assert_uint_eq(inv->groups[0].anon_exclusive, 3);
	ck_assert_uint_eq(inv->groups[0].anon_shared, 1);
	ck_assert_uint_eq(inv->groups[0].file, 1);
	ck_assert_uint_eq(inv->swap_pages, 1);
	ck_assert_str_eq(inv->task_cgroup, "/c");
	cgctl_inventory_free(inv);
}
END_TEST

START_TEST(no_such_pid)
{
	ck_assert_ptr_null(scan(777, 0, -ESRCH));
}
END_TEST

static struct cgctl_inventory *scan_tasks(const pid_t *pids, size_t n, int want)
{
	struct cgctl_ctx *ctx = NULL;
	struct cgctl_inventory *inv = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	int r;

	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	r = cgctl_inventory_scan_tasks(ctx, pids, n, 0, &inv, &e);
	ck_assert_msg(r == want, "scan: %d (%s)", r, e.msg);
	cgctl_unref(ctx);
	return inv;
}

/* The same task twice: every page is in both, so the union is the task's own figures;
 * swap entries have no PFN and are summed. */
START_TEST(tasks_union)
{
	const pid_t pids[] = { PID, PID };
	struct cgctl_inventory *one = scan(PID, 0, 0), *two = scan_tasks(pids, 2, 0);

	ck_assert_uint_eq(two->n_tasks, 2);
	ck_assert_uint_eq(two->gone_tasks, 0);
	ck_assert_uint_eq(two->present_pages, one->present_pages);
	ck_assert_uint_eq(two->zero_pages, one->zero_pages);
	ck_assert_uint_eq(two->swap_pages, 2 * one->swap_pages);
	ck_assert_uint_eq(two->n_vmas, 2 * one->n_vmas);
	ck_assert_uint_eq(two->task_ino, one->task_ino);
	ck_assert_uint_eq(two->n_groups, one->n_groups);
	for (size_t i = 0; i < one->n_groups; i++) {
		const struct cgctl_inv_group *a = &one->groups[i], *b = &two->groups[i];

		ck_assert_uint_eq(a->ino, b->ino);
		ck_assert_uint_eq(a->pages, b->pages);
		ck_assert_uint_eq(a->anon_exclusive, b->anon_exclusive);
		ck_assert_uint_eq(a->anon_shared, b->anon_shared);
		ck_assert_uint_eq(a->file, b->file);
		ck_assert_uint_eq(a->shmem, b->shmem);
		ck_assert_uint_eq(a->thp_pmd, b->thp_pmd);
	}
	ck_assert_uint_eq(one->n_tasks, 1);
	cgctl_inventory_free(one);
	cgctl_inventory_free(two);
}
END_TEST

/* A member that is gone is left out; a root that is gone is -ESRCH; bad arguments. */
START_TEST(tasks_gone)
{
	const pid_t member_gone[] = { PID, 777 }, root_gone[] = { 777, PID }, bad[] = { PID, 0 };
	struct cgctl_inventory *inv = scan_tasks(member_gone, 2, 0);
	struct cgctl_ctx *ctx = NULL;

	ck_assert_uint_eq(inv->n_tasks, 1);
	ck_assert_uint_eq(inv->gone_tasks, 1);
	ck_assert_uint_eq(inv->present_pages, 100 + 20 + 1 + 1 + 512 + 6 + BIG);
	cgctl_inventory_free(inv);
	ck_assert_ptr_null(scan_tasks(root_gone, 2, -ESRCH));
	ck_assert_ptr_null(scan_tasks(bad, 2, -EINVAL));
	ck_assert_ptr_null(scan_tasks(bad, 0, -EINVAL));
	ck_assert_int_eq(cgctl_new(&ctx, root), 0);
	ck_assert_int_eq(cgctl_inventory_scan_tasks(ctx, NULL, 1, 0, &inv, NULL), -EINVAL);
	cgctl_unref(ctx);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pagescan-fixture");
	TCase *tc = tcase_create("fixture");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, full_default);
	tcase_add_test(tc, full_one_thread);
	tcase_add_test(tc, smaps_pmd_mapped);
	tcase_add_test(tc, smaps_pte_mapped);
	tcase_add_test(tc, smaps_not_told);
	tcase_add_test(tc, tails_uncharged_61);
	tcase_add_test(tc, sampled_same_figures);
	tcase_add_test(tc, sampled_reads_less);
	tcase_add_test(tc, no_anon_thp_no_flags);
	tcase_add_test(tc, anon_thp_appears_meanwhile);
	tcase_add_test(tc, no_threads_left);
	tcase_add_test(tc, no_paths_no_mapcount);
	tcase_add_test(tc, no_kpageflags);
	tcase_add_test(tc, hidden_pfns);
	tcase_add_test(tc, no_such_pid);
	tcase_add_test(tc, tasks_union);
	tcase_add_test(tc, tasks_gone);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
