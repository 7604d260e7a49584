/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* lib/kernel/pagecache.c: the page cache a task's file mappings cover unmapped */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libcgctl.h"
#include "kernel/pagecache.h"
#include "kernel/pagescan.h"

#define PG 4096UL
#define BLOCK (512 * PG)

/* the scan's VMAs come from ps_parse_maps(): the file ones (an inode) with their offsets */
START_TEST(parse_file_vmas)
{
	const char *maps =
		"55d0a0000000-55d0a0002000 r--p 00000000 fe:01 1234   /usr/bin/x\n"
		"55d0a0002000-55d0a0006000 r-xp 00002000 fe:01 1234   /usr/bin/x\n"
		"55d0a1000000-55d0a1021000 rw-p 00000000 00:00 0      [heap]\n"
		"7f0000000000-7f0000800000 rw-s 00100000 00:01 99     /dev/shm/f (deleted)\n"
		"7f0000800000-7f0000801000 rw-p 00000000 00:00 0 \n"
		"7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0      [stack]\n";
	struct ps_vma *v = NULL, *f[6];
	ssize_t n = ps_parse_maps(maps, strlen(maps), &v);
	size_t nf = 0;

	ck_assert_int_eq(n, 6);
	for (ssize_t i = 0; i < n; i++)
		if (!v[i].anon)
			f[nf++] = &v[i];
	ck_assert_uint_eq(nf, 3);
	ck_assert_uint_eq(f[0]->start, 0x55d0a0000UL);
	ck_assert_uint_eq(f[0]->end, 0x55d0a0002UL);
	ck_assert_uint_eq(f[1]->pgoff, 2);
	ck_assert_uint_eq(f[2]->start, 0x7f0000000UL);
	ck_assert_uint_eq(f[2]->end, 0x7f0000800UL);
	ck_assert_uint_eq(f[2]->pgoff, 0x100);
	free(v);
	ck_assert_int_eq(ps_parse_maps("", 0, &v), 0);
	free(v);
	/* a line that is not a VMA, or an offset not page-aligned: malformed */
	ck_assert_int_eq(ps_parse_maps("garbage line\n", 13, &v), -EIO);
	maps = "1000-2000 r--p 00000010 fe:01 1 /x\n";
	ck_assert_int_eq(ps_parse_maps(maps, strlen(maps), &v), -EIO);
}
END_TEST

START_TEST(table_blocks)
{
	uint64_t *pm = calloc(70 * 512, 8), blocks[2] = { 0, 0 };

	pm[3] = 1ULL << 63;		/* present: block 0 */
	pm[512 * 2 + 511] = 1ULL << 62;	/* swapped: block 2 */
	pm[512 * 65] = 1ULL << 63;	/* block 65: the second word */
	pm[512 * 4] = 1ULL << 55;	/* soft-dirty only: no table seen */
	pc_table_blocks(pm, 70 * 512, blocks);
	ck_assert_uint_eq(blocks[0], 0x5);
	ck_assert_uint_eq(blocks[1], 0x2);
	free(pm);
}
END_TEST

/*
 * Live: a child writes a file (its page cache), maps it at a 2 MiB-aligned address and
 * writes every @stride-th page through the mapping; the scan must find the cached pages
 * between them, only in the blocks that have a page table.
 */
static void live(unsigned long stride, uint64_t want)
{
	char path[] = "/tmp/cgctl-pagecache-XXXXXX", buf[PG];
	int fd, sync_pipe[2], r;
	struct cgctl_ctx *ctx = NULL;
	struct cgctl_unmapped_cache c;
	uint64_t at;
	pid_t pid;

	if (geteuid() != 0)
		return;	/* map_files and PFNs are root's (the kernel tier runs as root) */
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	memset(buf, 7, sizeof(buf));
	for (unsigned long i = 0; i < 2048; i++)
		ck_assert_int_eq(pwrite(fd, buf, PG, (off_t)(i * PG)), (ssize_t)PG);
	ck_assert_int_eq(pipe(sync_pipe), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char *raw = mmap(NULL, 2048 * PG + BLOCK, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *p = (char *)(((uintptr_t)raw + BLOCK - 1) & ~(uintptr_t)(BLOCK - 1));

		p = mmap(p, 2048 * PG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
		if (raw == MAP_FAILED || p == MAP_FAILED)
			_exit(1);
		for (unsigned long i = 0; i < 2048; i += stride)
			p[i * PG] = 1;	/* a write fault maps one page (no fault-around) */
		at = (uintptr_t)p / PG;
		if (write(sync_pipe[1], &at, sizeof(at)) != sizeof(at))
			_exit(1);
		pause();
		_exit(0);
	}
	ck_assert_int_eq(read(sync_pipe[0], &at, sizeof(at)), sizeof(at));
	ck_assert_int_eq(cgctl_new(&ctx, NULL), 0);
	/* the file's VMA only: the libraries' cached pages count too, elsewhere */
	r = pc_scan_range(ctx, &pid, 1, at, at + 2048, 0, &c);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	cgctl_unref(ctx);
	close(fd);
	unlink(path);
	close(sync_pipe[0]);
	close(sync_pipe[1]);
	ck_assert_int_eq(r, 0);
	/* from_ino 0: every page is someone else's (each is charged) */
	ck_assert_uint_eq(c.file + c.shmem, 0);
	ck_assert_uint_eq(c.elsewhere, want);
}

START_TEST(live_every_other)
{
	live(2, 1024);		/* all four blocks have a table: the 1024 unmapped pages */
}
END_TEST

START_TEST(live_two_tables)
{
	live(1024, 1024 - 2);	/* pages 0 and 1024: blocks 0 and 2 only */
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pagecache");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_file_vmas);
	tcase_add_test(tc, table_blocks);
	tcase_add_test(tc, live_every_other);
	tcase_add_test(tc, live_two_tables);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
