/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem-touch MIB READY_FILE [CHILDREN]: map MIB MiB of anonymous memory without THP, write
 * one byte per page, fork CHILDREN children that share it copy-on-write (and die with
 * their parent), create READY_FILE, then sleep until killed.  Helper of
 * tests/kernel/mem-*.sh and move-tree-cli.sh.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len, page = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p;
	int fd, children = argc == 4 ? atoi(argv[3]) : 0;

	if (argc != 3 && argc != 4)
		return 2;
	len = (size_t)strtoul(argv[1], NULL, 10) << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += page)
		p[i] = 1;
	for (int c = 0; c < children; c++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	close(fd);
	for (;;)
		pause();
}
