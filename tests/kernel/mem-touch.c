/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem-touch MIB READY_FILE: map MIB MiB of anonymous memory without THP, write one byte
 * per page, create READY_FILE, then sleep until killed.  Helper of tests/kernel/mem-*.sh.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len, page = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p;
	int fd;

	if (argc != 3)
		return 2;
	len = (size_t)strtoul(argv[1], NULL, 10) << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += page)
		p[i] = 1;
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	close(fd);
	for (;;)
		pause();
}
