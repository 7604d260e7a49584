/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The loops of `cgctl bench` (cgctl-bench(1)), each the experiment behind a kernel patch:
 *
 *   bench-fault THREADS MS      map 1 MiB, write each 4 KiB page, unmap; for MS ms on
 *                               THREADS threads (memcg charge batching, cdec2e4265df)
 *   bench-alloc THREADS MS      fault in 16 pages, MADV_DONTNEED them; for MS ms on THREADS
 *                               threads: order-0 page allocation and free (per-cpu lists)
 *   bench-pipe ROUNDS           pipe-test: two processes ping-pong one int ROUNDS times
 *                               (CFS bandwidth control v7)
 *   bench-procread PROCS ROUNDS FILES
 *                               PROCS sleeping children (cat on a pipe); read /proc/PID/stat and statm
 *                               (FILES: both) of each, or one of them (stat, statm),
 *                               ROUNDS times, as top does (per-cpu mm counters)
 *
 * Protocol as the other workloads: "ready pid=P" (procread: after its sleepers exist),
 * "go", then one line "done ops=N wall_ns=W task_ns=T hw=0|1 cycles=C instructions=I
 * branches=B" (pipe: and colocated=K, the round trips both ends ran on one CPU,
 * stretches=S, the runs of consecutive such round trips on the same CPU, colocated_ns=N,
 * their wall time, colocated_self_ns=C, this end's CPU time in them, read with
 * CLOCK_THREAD_CPUTIME_ID where a stretch starts and ends).  Task-clock and the hardware counters come from perf_event_open(2)
 * counters inherited by the threads and the child the loop starts (task-clock from
 * getrusage(2) where perf_event_open is refused: task_src=rusage).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

extern char **environ;

#define PAGE 4096UL
#define BENCH_THREADS 64
#define FAULT_PAGES 256		/* 1 MiB */
#define ALLOC_PAGES 16

enum { C_TASK, C_CYCLES, C_INSN, C_BRANCH, C_N };

struct counters {
	int fd[C_N];
	struct rusage ru0;
	uint64_t t0;
};

static int perf_open(uint32_t type, uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = 1;
	a.inherit = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static uint64_t ru_ns(const struct rusage *r)
{
	return ((uint64_t)r->ru_utime.tv_sec + (uint64_t)r->ru_stime.tv_sec) * 1000000000ULL +
	       ((uint64_t)r->ru_utime.tv_usec + (uint64_t)r->ru_stime.tv_usec) * 1000ULL;
}

static void rusage_all(struct rusage *r)
{
	struct rusage c;

	getrusage(RUSAGE_SELF, r);
	getrusage(RUSAGE_CHILDREN, &c);
	timeradd(&r->ru_utime, &c.ru_utime, &r->ru_utime);
	timeradd(&r->ru_stime, &c.ru_stime, &r->ru_stime);
}

/* Open (before any thread or child of the loop exists) and start the counters. */
static void counters_start(struct counters *c)
{
	c->fd[C_TASK] = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	c->fd[C_CYCLES] = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	c->fd[C_INSN] = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	c->fd[C_BRANCH] = perf_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	rusage_all(&c->ru0);
	for (int i = 0; i < C_N; i++)
		if (c->fd[i] >= 0)
			ioctl(c->fd[i], PERF_EVENT_IOC_ENABLE, 0);
	c->t0 = wl_clock_ns(CLOCK_MONOTONIC);
}

static uint64_t counter(const struct counters *c, int i)
{
	uint64_t v = 0;

	if (c->fd[i] < 0 || read(c->fd[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

/* Stop (after the threads were joined and the child reaped) and say "done"; @colocated
 * (pipe-test's round trips with both ends on one CPU), @stretches (runs of such round
 * trips on one CPU), @colocated_ns (their wall time) and @colocated_self_ns (the loop's
 * own CPU time in them) are said unless @colocated is negative. */
static int counters_done(struct counters *c, uint64_t ops, long long colocated,
			 long long stretches, uint64_t colocated_ns, uint64_t colocated_self_ns)
{
	char extra[128] = "";

	uint64_t wall = wl_clock_ns(CLOCK_MONOTONIC) - c->t0, task, v[C_N];
	bool hw = c->fd[C_CYCLES] >= 0 && c->fd[C_INSN] >= 0 && c->fd[C_BRANCH] >= 0;
	struct rusage r;
	int i;

	for (i = 0; i < C_N; i++)
		if (c->fd[i] >= 0)
			ioctl(c->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < C_N; i++)
		v[i] = counter(c, i);
	rusage_all(&r);
	task = c->fd[C_TASK] >= 0 ? v[C_TASK] : ru_ns(&r) - ru_ns(&c->ru0);
	for (i = 0; i < C_N; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	if (colocated >= 0)
		snprintf(extra, sizeof(extra), " colocated=%lld stretches=%lld colocated_ns=%llu"
			 " colocated_self_ns=%llu", colocated, stretches,
			 (unsigned long long)colocated_ns, (unsigned long long)colocated_self_ns);
	return wl_say("done ops=%llu wall_ns=%llu task_ns=%llu task_src=%s hw=%d cycles=%llu "
		      "instructions=%llu branches=%llu%s", (unsigned long long)ops,
		      (unsigned long long)wall, (unsigned long long)task,
		      c->fd[C_TASK] >= 0 ? "perf" : "rusage", hw,
		      (unsigned long long)v[C_CYCLES], (unsigned long long)v[C_INSN],
		      (unsigned long long)v[C_BRANCH], extra);
}

/* ---- fault and alloc: timed loops on threads ---- */
struct loop {
	uint64_t until_ns;
	bool alloc;
	uint64_t ops;		/* Σ over threads (atomic) */
	int failed;
};

static void *fault_thread(void *arg)
{
	struct loop *l = arg;
	uint64_t ops = 0;

	do {
		char *p = mmap(NULL, FAULT_PAGES * PAGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			__atomic_store_n(&l->failed, 1, __ATOMIC_RELAXED);
			break;
		}
		madvise(p, FAULT_PAGES * PAGE, MADV_NOHUGEPAGE);
		for (size_t i = 0; i < FAULT_PAGES; i++)
			((volatile char *)p)[i * PAGE] = 1;
		munmap(p, FAULT_PAGES * PAGE);
		ops += FAULT_PAGES;
	} while (wl_clock_ns(CLOCK_MONOTONIC) < l->until_ns);
	__atomic_add_fetch(&l->ops, ops, __ATOMIC_RELAXED);
	return NULL;
}

static void *alloc_thread(void *arg)
{
	struct loop *l = arg;
	uint64_t ops = 0;
	char *p = mmap(NULL, ALLOC_PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		__atomic_store_n(&l->failed, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	madvise(p, ALLOC_PAGES * PAGE, MADV_NOHUGEPAGE);
	do {
		for (size_t i = 0; i < ALLOC_PAGES; i++)
			((volatile char *)p)[i * PAGE] = 1;
		madvise(p, ALLOC_PAGES * PAGE, MADV_DONTNEED);
		ops += ALLOC_PAGES;
	} while (wl_clock_ns(CLOCK_MONOTONIC) < l->until_ns);
	munmap(p, ALLOC_PAGES * PAGE);
	__atomic_add_fetch(&l->ops, ops, __ATOMIC_RELAXED);
	return NULL;
}

static int timed_loop(int argc, const char **argv, bool alloc)
{
	unsigned long threads, ms, i;
	pthread_t t[BENCH_THREADS];
	struct loop l = { .alloc = alloc };
	struct counters c;

	if (argc != 3 || wl_num(argv[1], BENCH_THREADS, &threads) < 0 || threads == 0 ||
	    wl_num(argv[2], 3600000, &ms) < 0 || ms == 0)
		return 2;
	if (wl_say("ready pid=%d", (int)getpid()) < 0 || wl_wait_go() < 0)
		return 1;
	counters_start(&c);
	l.until_ns = c.t0 + ms * 1000000ULL;
	for (i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, alloc ? alloc_thread : fault_thread, &l) != 0)
			return 1;
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	if (l.failed || counters_done(&c, l.ops, -1, -1, 0, 0) < 0)
		return 1;
	wl_wait_eof();
	return 0;
}

int wl_bench_fault(int argc, const char **argv)
{
	return timed_loop(argc, argv, false);
}

int wl_bench_alloc(int argc, const char **argv)
{
	return timed_loop(argc, argv, true);
}

/* ---- pipe-test ---- */
/* The child answers each round trip with the CPU it ran on (sched_getcpu(3): the rseq
 * area or the vDSO, no system call), so the parent counts the round trips the pair
 * shared one CPU: where they ran decides how the bandwidth model drains the quota. */
static int echo_child(int in, int out, unsigned long rounds)
{
	int v;

	for (unsigned long i = 0; i < rounds; i++) {
		if (read(in, &v, sizeof(v)) != sizeof(v))
			return 1;
		v = sched_getcpu();
		if (write(out, &v, sizeof(v)) != sizeof(v))
			return 1;
	}
	return 0;
}

int wl_bench_pipe(int argc, const char **argv)
{
	unsigned long rounds, i;
	int a[2], b[2], v = 0, st;
	long long same = 0, stretches = 0;
	uint64_t t, last, same_ns = 0, self0 = 0, same_self = 0;
	int here, prev = -1;
	bool was = false;
	struct counters c;
	pid_t kid;

	if (argc != 2 || wl_num(argv[1], 100000000, &rounds) < 0 || rounds == 0)
		return 2;
	if (pipe(a) < 0 || pipe(b) < 0)
		return 1;
	if (wl_say("ready pid=%d", (int)getpid()) < 0 || wl_wait_go() < 0)
		return 1;
	counters_start(&c);
	kid = fork();
	if (kid < 0)
		return 1;
	if (kid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		_exit(echo_child(a[0], b[1], rounds));
	}
	last = wl_clock_ns(CLOCK_MONOTONIC);
	for (i = 0; i < rounds; i++) {
		if (write(a[1], &v, sizeof(v)) != sizeof(v) || read(b[0], &v, sizeof(v)) != sizeof(v))
			break;
		here = sched_getcpu();
		t = wl_clock_ns(CLOCK_MONOTONIC);	/* the vDSO: no system call */
		if (v >= 0 && v == here) {
			/* a stretch of round trips on one CPU starts: the first, or after
			 * round trips apart or on another CPU (a runqueue emptied) */
			stretches += here != prev;
			same++;
			same_ns += t - last;
		} else {
			here = -1;
		}
		if ((here >= 0) != was) {	/* into or out of a stretch: rare */
			uint64_t self = wl_clock_ns(CLOCK_THREAD_CPUTIME_ID);

			if (was)
				same_self += self - self0;
			self0 = self;
			was = here >= 0;
		}
		prev = here;
		last = t;
	}
	if (was)
		same_self += wl_clock_ns(CLOCK_THREAD_CPUTIME_ID) - self0;
	while (waitpid(kid, &st, 0) < 0 && errno == EINTR)
		;
	if (i < rounds || !WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
	    counters_done(&c, rounds, same, stretches, same_ns, same_self) < 0)
		return 1;
	wl_wait_eof();
	return 0;
}

/* ---- procread: top's reads of many mostly sleeping processes ---- */
static bool read_file(const char *path)
{
	char buf[1024];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0;
}

/* Reap the sleepers: they exit at the end of their stdin (our pipe's write end). */
static void reap_all(pid_t *kids, unsigned long n, int *wfd)
{
	if (*wfd >= 0)
		close(*wfd);
	*wfd = -1;
	for (unsigned long i = 0; i < n; i++)
		while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
			;
}

/*
 * PROCS sleepers: `cat` reading one pipe whose write end only this process holds, so
 * they all end with it however it ends (killed too).  posix_spawn (vfork-like): no copy
 * of this process's page tables per sleeper.
 */
static unsigned long spawn_sleepers(pid_t *kids, unsigned long n, int *wfd)
{
	static char cat[] = "cat";
	char *const argv[] = { cat, NULL };
	posix_spawn_file_actions_t fa;
	unsigned long i;
	int p[2];

	*wfd = -1;
	if (pipe2(p, O_CLOEXEC) < 0)
		return 0;
	*wfd = p[1];
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[0], STDIN_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	for (i = 0; i < n; i++)
		if (posix_spawnp(&kids[i], "cat", &fa, NULL, argv, environ) != 0)
			break;
	posix_spawn_file_actions_destroy(&fa);
	close(p[0]);
	return i;
}

static int procread_rounds(const pid_t *kids, unsigned long n, unsigned long rounds,
			   bool stat, bool statm)
{
	char path[64];
	struct counters c;

	counters_start(&c);
	for (unsigned long r = 0; r < rounds; r++) {
		for (unsigned long i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "/proc/%d/stat", (int)kids[i]);
			if (stat && !read_file(path))
				return 1;
			snprintf(path, sizeof(path), "/proc/%d/statm", (int)kids[i]);
			if (statm && !read_file(path))
				return 1;
		}
	}
	return counters_done(&c, (uint64_t)n * rounds, -1, -1, 0, 0) < 0;
}

int wl_bench_procread(int argc, const char **argv)
{
	unsigned long n, rounds, i;
	bool stat, statm;
	pid_t *kids;
	int rc = 1, wfd;

	if (argc != 4 || wl_num(argv[1], 100000, &n) < 0 || n == 0 ||
	    wl_num(argv[2], 100000, &rounds) < 0 || rounds == 0)
		return 2;
	stat = strcmp(argv[3], "statm") != 0;
	statm = strcmp(argv[3], "stat") != 0;
	if (!stat && !statm)
		return 2;
	if (strcmp(argv[3], "both") != 0 && strcmp(argv[3], "stat") != 0 &&
	    strcmp(argv[3], "statm") != 0)
		return 2;
	kids = calloc(n, sizeof(*kids));
	if (!kids)
		return 1;
	i = spawn_sleepers(kids, n, &wfd);
	if (i == n && wl_say("ready pid=%d", (int)getpid()) == 0 && wl_wait_go() == 0)
		rc = procread_rounds(kids, n, rounds, stat, statm);
	reap_all(kids, i, &wfd);
	free(kids);
	if (rc == 0)
		wl_wait_eof();
	return rc;
}
