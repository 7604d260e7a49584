/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel-tier check of the RSS counter model.  A child process touches PAGES anonymous
 * pages in each of NTHREADS threads and then sits still; the parent reads the child's
 * /proc/PID/status, statm, stat and smaps_rollup (the exact page-table walk) and checks
 * that each counter-based figure is within the bound cgctl_rss_bound() predicts for
 * this kernel, CPU count and thread count.
 * Usage: rss-touch NTHREADS PAGES.  Exit: 0 within bounds, 1 outside, 77 cannot run.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libcgctl.h"

static long npages;
static pthread_barrier_t barrier;

static void *toucher(void *arg)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)npages * ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long i;

	if (p != MAP_FAILED)
		for (i = 0; i < npages; i++)
			p[(size_t)i * ps] = 1;
	pthread_barrier_wait(&barrier);
	for (;;)
		pause();
	return arg;
}

static void child(int nthreads, int wfd)
{
	pthread_t t;
	int i;

	pthread_barrier_init(&barrier, NULL, (unsigned int)nthreads + 1);
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&t, NULL, toucher, NULL) != 0)
			_exit(2);
	pthread_barrier_wait(&barrier);
	if (write(wfd, "x", 1) != 1)
		_exit(2);
	for (;;)
		pause();
}

/* two reads that agree on the exact figures: the child has stopped faulting */
static int read_stable(struct cgctl_ctx *ctx, pid_t pid, struct cgctl_procrss *r)
{
	struct cgctl_procrss prev;
	int i;

	if (cgctl_procrss_read(ctx, pid, &prev) < 0)
		return -1;
	for (i = 0; i < 20; i++) {
		usleep(20000);
		if (cgctl_procrss_read(ctx, pid, r) < 0)
			return -1;
		if (r->smaps_rss_kb == prev.smaps_rss_kb && r->vmrss_kb == prev.vmrss_kb)
			return 0;
		prev = *r;
	}
	return -1;
}

static int within(const char *what, uint64_t got_kb, uint64_t exact_kb, uint64_t bound_pages,
		  uint64_t kb_per_page)
{
	uint64_t diff = got_kb > exact_kb ? got_kb - exact_kb : exact_kb - got_kb;
	int ok = diff <= bound_pages * kb_per_page;

	printf("%-22s %8llu kB, exact %8llu kB, |diff| %6llu kB, bound %6llu kB: %s\n", what,
	       (unsigned long long)got_kb, (unsigned long long)exact_kb,
	       (unsigned long long)diff, (unsigned long long)(bound_pages * kb_per_page),
	       ok ? "match" : "DIFFERS");
	return ok ? 0 : 1;
}

static int compare(uint32_t kver, unsigned int ncpu, int nthreads,
		   const struct cgctl_procrss *r)
{
	uint64_t kpp = (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	struct cgctl_rss_bound st, sm, ss;
	int bad = 0;

	/* the child's own main thread counts too */
	if (cgctl_rss_bound(kver, ncpu, (unsigned int)nthreads + 1, CGCTL_RSS_FILE_STATUS, &st) ||
	    cgctl_rss_bound(kver, ncpu, (unsigned int)nthreads + 1, CGCTL_RSS_FILE_STATM, &sm) ||
	    cgctl_rss_bound(kver, ncpu, (unsigned int)nthreads + 1, CGCTL_RSS_FILE_STAT, &ss))
		return 1;
	printf("kernel %u.%u.%u, %u CPUs, %d+1 threads, status source %d, stat source %d\n",
	       CGCTL_KVER_MAJOR(kver), CGCTL_KVER_MINOR(kver), CGCTL_KVER_PATCH(kver), ncpu,
	       nthreads, st.source, ss.source);
	bad |= within("status VmRSS", r->vmrss_kb, r->smaps_rss_kb, st.vmrss_pages, kpp);
	bad |= within("status RssAnon", r->rssanon_kb, r->smaps_anon_kb, st.anon_pages, kpp);
	bad |= within("statm resident", r->statm_resident_pages * kpp, r->smaps_rss_kb,
		      sm.vmrss_pages, kpp);
	bad |= within("stat rss", r->stat_rss_pages * kpp, r->smaps_rss_kb, ss.vmrss_pages, kpp);
	if (r->smaps_anon_kb < (uint64_t)nthreads * (uint64_t)npages * kpp) {
		printf("smaps Anonymous %llu kB < the %ld pages touched per thread\n",
		       (unsigned long long)r->smaps_anon_kb, npages);
		bad = 1;
	}
	return bad;
}

static int run(struct cgctl_ctx *ctx, int nthreads)
{
	struct cgctl_procrss r;
	int fds[2], ret = 77, ncpu = cgctl_online_ncpu(ctx);
	uint32_t kver = cgctl_kver_running();
	char c;
	pid_t pid;

	if (ncpu <= 0 || kver == 0 || pipe(fds) < 0)
		return 77;
	pid = fork();
	if (pid < 0)
		return 77;
	if (pid == 0) {
		close(fds[0]);
		child(nthreads, fds[1]);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) != 1)
		printf("SKIP: the child did not start its threads\n");
	else if (read_stable(ctx, pid, &r) < 0)
		printf("SKIP: cannot read a stable /proc/%d\n", (int)pid);
	else if (r.smaps_rss_kb == UINT64_MAX || r.rssanon_kb == UINT64_MAX)
		printf("SKIP: no smaps_rollup or RssAnon (kernel < 4.14)\n");
	else
		ret = compare(kver, (unsigned int)ncpu, nthreads, &r);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fds[0]);
	return ret;
}

int main(int argc, char **argv)
{
	struct cgctl_ctx *ctx;
	int nthreads, ret;

	if (argc != 3 || (nthreads = atoi(argv[1])) < 1 || (npages = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: rss-touch NTHREADS PAGES\n");
		return 2;
	}
	if (cgctl_new(&ctx, NULL) < 0)
		return 77;
	ret = run(ctx, nthreads);
	cgctl_unref(ctx);
	return ret;
}
