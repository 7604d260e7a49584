/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pagescan-toucher: make a task with known resident memory for the page inventory
 * tests, print "ready PID", then wait until standard input closes.
 *
 *   -a MIB   private anonymous memory, written page by page (4 KiB pages)
 *   -t       ... as transparent huge pages instead (MADV_HUGEPAGE, 2 MiB aligned)
 *   -s MIB   private anonymous memory, written, then shared with a forked child
 *            (copy-on-write: both map every page); the child dies with us
 *   -m MIB   shared anonymous memory (shmem), written
 *   -f FILE  FILE mapped shared, read-only, every page read
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024UL * 1024)

static volatile unsigned long sink;

static char *map_aligned(size_t len, int flags)
{
	char *m = mmap(NULL, len + 2 * MIB, PROT_READ | PROT_WRITE, flags, -1, 0);

	if (m == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return (char *)(((unsigned long)m + 2 * MIB - 1) & ~(2 * MIB - 1));
}

static void touch(char *m, size_t len)
{
	for (size_t i = 0; i < len; i += 4096)
		m[i] = 1;
}

static void anon(size_t mib, int thp)
{
	char *m = map_aligned(mib * MIB, MAP_PRIVATE | MAP_ANONYMOUS);

	madvise(m, mib * MIB, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	touch(m, mib * MIB);
}

static void shared_with_child(size_t mib)
{
	char *m = map_aligned(mib * MIB, MAP_PRIVATE | MAP_ANONYMOUS);
	pid_t pid;

	madvise(m, mib * MIB, MADV_NOHUGEPAGE);
	touch(m, mib * MIB);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(0);
		for (;;)
			pause();
	}
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
}

static void shmem(size_t mib)
{
	char *m = map_aligned(mib * MIB, MAP_SHARED | MAP_ANONYMOUS);

	touch(m, mib * MIB);
}

static void file(const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	char *m;

	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(path);
		exit(1);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	for (off_t i = 0; i < st.st_size; i += 4096)
		sink += (unsigned char)m[i];
}

int main(int argc, char **argv)
{
	int thp = 0, c;
	size_t a = 0;
	char buf[64];

	while ((c = getopt(argc, argv, "a:ts:m:f:")) != -1) {
		switch (c) {
		case 'a': a = strtoul(optarg, NULL, 10); break;
		case 't': thp = 1; break;
		case 's': shared_with_child(strtoul(optarg, NULL, 10)); break;
		case 'm': shmem(strtoul(optarg, NULL, 10)); break;
		case 'f': file(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-a MIB [-t]] [-s MIB] [-m MIB] [-f FILE]\n",
				argv[0]);
			return 2;
		}
	}
	if (a)
		anon(a, thp);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return 0;
}
