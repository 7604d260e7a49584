/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl-workload: the built-in workloads of cgctl_validate_run() (`cgctl validate`).
 * A program of its own, installed in $(pkglibexecdir), so that the library never execs
 * its caller (lib/validate/spawn.c says how the library finds it):
 *
 *   cgctl-workload spin THREADS MS                  THREADS busy threads for MS ms of wall time
 *   cgctl-workload duty THREADS BUSY_MS IDLE_MS MS  each thread: BUSY_MS of CPU time, sleep IDLE_MS
 *   cgctl-workload touch PAGES [THREADS]            fault in PAGES anonymous 4 KiB pages (no THP)
 *   cgctl-workload touch-steps PAGES STEPS          PAGES more on each "go", STEPS times
 *   cgctl-workload fork-touch PAGES                 touch, then fork a child sharing them (COW)
 *   cgctl-workload file-touch PATH PAGES            write a PAGES-page file, map it shared, touch it
 *
 * Protocol on stdin/stdout: "ready pid=P" -> waits for a line "go" -> works ->
 * "done key=value..." -> exits 0 when stdin reaches EOF.  spin and duty also say where
 * each worker thread ran: a line "place THREAD AT_NS CPU" (CLOCK_MONOTONIC) each time
 * one was found on another CPU, before "done", or while working on a line "where"
 * (then ended by "where-end").  Exit status 2: bad arguments,
 * 1: a system call failed.  It links nothing but libc (and libpthread): the workloads'
 * cgroups measure its start-up too, so it stays small.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

#define PAGE 4096UL
#define HPAGE (512 * PAGE)	/* a PMD-sized THP */
#define MAX_THREADS 64
#define MIN(a, b) ((a) < (b) ? (a) : (b))

uint64_t wl_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int wl_say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(line) - 1)
		return -1;
	line[n++] = '\n';
	return write(STDOUT_FILENO, line, (size_t)n) == n ? 0 : -1;
}

/* Read stdin until a line "go" (returns 0) or EOF (-1). */
int wl_wait_go(void)
{
	char c, line[16];
	size_t n = 0;

	while (read(STDIN_FILENO, &c, 1) == 1) {
		if (c != '\n') {
			if (n < sizeof(line) - 1)
				line[n++] = c;
			continue;
		}
		line[n] = '\0';
		if (strcmp(line, "go") == 0)
			return 0;
		n = 0;
	}
	return -1;
}

/* Hold (memory stays mapped) until the parent closes our stdin. */
void wl_wait_eof(void)
{
	char buf[64];

	while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
		;
}

int wl_num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return (errno || end == s || *end || *v > max) ? -1 : 0;
}

/* ---- CPU: spin and duty cycle ---- */
#define PLACE_MAX 1024	/* CPU changes logged per thread */

/* Where one worker ran: each change of CPU (sched_getcpu(), rseq-cheap), timestamped. */
struct cpu_log {
	uint64_t at[PLACE_MAX];
	int cpu[PLACE_MAX];
	unsigned int n;		/* entries published (release) */
	int last;
};

struct cpu_job {
	uint64_t until_ns;	/* wall deadline (CLOCK_MONOTONIC) */
	uint64_t busy_ns, idle_ns;	/* duty: CPU time per busy phase, sleep after it */
	uint64_t delay_ns;	/* Σ over threads of the run_delay they gained (atomic) */
	uint64_t phase_ns, phases;	/* duty: CPU time of the completed busy phases */
	uint64_t reads;			/* duty: CPU-clock reads in the completed phases */
	uint64_t cycle_ns, cycles;	/* duty: CPU time from a phase's start to the next
					 * one's (the sleep and wake-up paths included) */
	pthread_barrier_t warm, start;	/* every thread warmed up; "go" */
	struct cpu_log *log;		/* [threads] */
	unsigned int next;		/* the next thread's index (atomic) */
};

static void log_cpu(struct cpu_log *l)
{
	int c = sched_getcpu();
	unsigned int n = l->n;

	if (c == l->last || n == PLACE_MAX)
		return;
	l->last = c;
	l->at[n] = wl_clock_ns(CLOCK_MONOTONIC);
	l->cpu[n] = c;
	__atomic_store_n(&l->n, n + 1, __ATOMIC_RELEASE);
}

/*
 * This thread's run_delay: time runnable on a runqueue but not running (sched_info, the
 * cpu_delay_total of taskstats), field 2 of /proc/thread-self/schedstat.  It includes
 * the time the thread's group was throttled.  0 if unavailable (no CONFIG_SCHED_INFO).
 */
static uint64_t run_delay_ns(void)
{
	char buf[128];
	unsigned long long run = 0, wait = 0;
	ssize_t n;
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return 0;
	return wait;
}

/*
 * Spin until @busy_ns of this thread's CPU time (0: forever) or the deadline.  Returns
 * the CPU time the phase took when it completed (it overshoots by one loop iteration:
 * microseconds here, milliseconds under an emulator), 0 when the deadline cut it;
 * *reads: the CPU-clock reads it made (each one charges the run time: update_curr()).
 */
static uint64_t spin(uint64_t until_ns, uint64_t busy_ns, struct cpu_log *l, uint64_t *reads)
{
	uint64_t start = wl_clock_ns(CLOCK_THREAD_CPUTIME_ID), used = 0, n = 0;

	while (wl_clock_ns(CLOCK_MONOTONIC) < until_ns &&
	       (!busy_ns || (n++, used = wl_clock_ns(CLOCK_THREAD_CPUTIME_ID) - start) < busy_ns))
		if (l)
			log_cpu(l);
	*reads = n;
	return busy_ns && used >= busy_ns ? used : 0;
}

static void nap_ns(uint64_t ns)
{
	struct timespec t = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };

	nanosleep(&t, NULL);
}

static void *cpu_thread(void *arg)
{
	struct cpu_job *j = arg;
	struct cpu_log *l = &j->log[__atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)];
	uint64_t now, delay0, used, reads, last_top = 0;

	/*
	 * Warm-up before the thread is counted: run every path of the measured loop once
	 * (clock reads, a sleep, schedstat), so that first-touch costs (page faults, lazy
	 * binding, and under an emulator the translation of the code: measured 20-70 ms of
	 * CPU per run under qemu TCG) happen before the workload joins its cgroup.
	 */
	spin(wl_clock_ns(CLOCK_MONOTONIC) + 2000000ULL, 1000000ULL, NULL, &reads);
	sched_getcpu();
	nap_ns(1000000ULL);
	run_delay_ns();
	pthread_barrier_wait(&j->warm);
	pthread_barrier_wait(&j->start);
	delay0 = run_delay_ns();
	while (wl_clock_ns(CLOCK_MONOTONIC) < j->until_ns) {
		uint64_t top = wl_clock_ns(CLOCK_THREAD_CPUTIME_ID);

		/* the previous phase completed: its cycle ends here, after the wake-up */
		if (last_top) {
			__atomic_add_fetch(&j->cycle_ns, top - last_top, __ATOMIC_RELAXED);
			__atomic_add_fetch(&j->cycles, 1, __ATOMIC_RELAXED);
		}
		log_cpu(l);
		used = spin(j->until_ns, j->busy_ns, l, &reads);
		last_top = used ? top : 0;
		if (used) {
			__atomic_add_fetch(&j->phase_ns, used, __ATOMIC_RELAXED);
			__atomic_add_fetch(&j->phases, 1, __ATOMIC_RELAXED);
			__atomic_add_fetch(&j->reads, reads, __ATOMIC_RELAXED);
		}
		now = wl_clock_ns(CLOCK_MONOTONIC);
		if (!j->busy_ns || now >= j->until_ns)
			continue;
		/* never sleep past the deadline: every run ends at the same wall time */
		nap_ns(MIN(j->idle_ns, j->until_ns - now));
	}
	__atomic_add_fetch(&j->delay_ns, run_delay_ns() - delay0, __ATOMIC_RELAXED);
	return NULL;
}

/* The "place" lines of every thread from entry @from[i] on (advanced). */
static int say_places(const struct cpu_job *j, unsigned long threads, unsigned int *from)
{
	for (unsigned long i = 0; i < threads; i++) {
		const struct cpu_log *l = &j->log[i];
		unsigned int n = __atomic_load_n(&l->n, __ATOMIC_ACQUIRE);

		for (; from[i] < n; from[i]++)
			if (wl_say("place %lu %llu %d", i, (unsigned long long)l->at[from[i]],
				l->cpu[from[i]]) < 0)
				return -1;
	}
	return 0;
}

/* Until @until_ns: answer each line "where" on stdin with the places so far. */
static int serve_where(const struct cpu_job *j, unsigned long threads, uint64_t until_ns,
		       unsigned int *from)
{
	char c, line[16];
	size_t n = 0;
	uint64_t now;

	while ((now = wl_clock_ns(CLOCK_MONOTONIC)) < until_ns) {
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		int ms = (int)MIN((until_ns - now) / 1000000ULL + 1, 1000ULL);

		if (poll(&p, 1, ms) <= 0)
			continue;
		if (read(STDIN_FILENO, &c, 1) != 1)
			return 0;	/* EOF: the caller went away; the threads finish */
		if (c != '\n') {
			if (n < sizeof(line) - 1)
				line[n++] = c;
			continue;
		}
		line[n] = '\0';
		n = 0;
		if (strcmp(line, "where") == 0 &&
		    (say_places(j, threads, from) < 0 || wl_say("where-end") < 0))
			return -1;
	}
	return 0;
}

/*
 * The threads are created and warmed up before "ready" (the caller attaches the
 * workload to its cgroup between "ready" and "go"), then released together by "go".
 */
static int run_cpu(unsigned long threads, struct cpu_job *j, uint64_t wall_ns)
{
	pthread_t t[MAX_THREADS];
	unsigned int from[MAX_THREADS] = { 0 };
	uint64_t t0, cpu0;
	unsigned long i;

	j->log = calloc(threads, sizeof(*j->log));
	if (!j->log)
		return 1;
	for (i = 0; i < threads; i++)
		j->log[i].last = -1;

	if (pthread_barrier_init(&j->warm, NULL, (unsigned int)threads + 1) != 0 ||
	    pthread_barrier_init(&j->start, NULL, (unsigned int)threads + 1) != 0)
		return 1;
	for (i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, cpu_thread, j) != 0)
			return 1;
	/* the main thread warms its own path too: it only waits and reports */
	wl_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	pthread_barrier_wait(&j->warm);
	if (wl_say("ready pid=%d", (int)getpid()) < 0 || wl_wait_go() < 0)
		return 1;
	t0 = wl_clock_ns(CLOCK_MONOTONIC);
	cpu0 = wl_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	j->until_ns = t0 + wall_ns;
	pthread_barrier_wait(&j->start);
	if (serve_where(j, threads, j->until_ns, from) < 0)
		return 1;
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	if (say_places(j, threads, from) < 0)
		return 1;
	if (wl_say("done wall_ns=%llu cpu_ns=%llu threads=%lu delay_ns=%llu phases=%llu "
		"phase_ns=%llu reads=%llu cycles=%llu cycle_ns=%llu",
		(unsigned long long)(wl_clock_ns(CLOCK_MONOTONIC) - t0),
		(unsigned long long)(wl_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0), threads,
		(unsigned long long)__atomic_load_n(&j->delay_ns, __ATOMIC_RELAXED),
		(unsigned long long)j->phases, (unsigned long long)j->phase_ns,
		(unsigned long long)j->reads, (unsigned long long)j->cycles,
		(unsigned long long)j->cycle_ns) < 0)
		return 1;
	wl_wait_eof();
	free(j->log);
	return 0;
}

static int wl_spin(int argc, const char **argv)
{
	struct cpu_job j = { 0 };
	unsigned long n, ms;

	if (argc != 3 || wl_num(argv[1], MAX_THREADS, &n) < 0 || n == 0 ||
	    wl_num(argv[2], 600000, &ms) < 0)
		return 2;
	return run_cpu(n, &j, ms * 1000000ULL);
}

static int wl_duty(int argc, const char **argv)
{
	unsigned long n, busy, idle, ms;
	struct cpu_job j;

	if (argc != 5 || wl_num(argv[1], MAX_THREADS, &n) < 0 || n == 0 ||
	    wl_num(argv[2], 60000, &busy) < 0 || busy == 0 || wl_num(argv[3], 60000, &idle) < 0 ||
	    wl_num(argv[4], 600000, &ms) < 0)
		return 2;
	j = (struct cpu_job){ .busy_ns = busy * 1000000ULL, .idle_ns = idle * 1000000ULL };
	return run_cpu(n, &j, ms * 1000000ULL);
}

/* ---- memory: touch anonymous, shared with a child, or file pages ---- */
struct touch_job {
	volatile char *base;
	size_t pages;
};

/* Sanitizer builds: the stores must fault in exactly the pages counted, not shadow
 * memory as well. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#if !defined(NO_ASAN) && defined(__SANITIZE_ADDRESS__)
#define NO_ASAN __attribute__((no_sanitize_address))
#endif
#ifndef NO_ASAN
#define NO_ASAN
#endif

NO_ASAN static void *touch_thread(void *arg)
{
	const struct touch_job *j = arg;
	size_t i;

	for (i = 0; i < j->pages; i++)
		j->base[i * PAGE] = 1;
	return NULL;
}

/* Fault in @pages pages of @p with @threads threads, each its own contiguous part. */
static int touch(char *p, size_t pages, unsigned long threads)
{
	struct touch_job j[MAX_THREADS] = { { 0 } };
	pthread_t t[MAX_THREADS];
	size_t per, i;

	if (threads == 0 || threads > MAX_THREADS)
		return -1;
	per = pages / threads;

	for (i = 0; i < threads; i++) {
		j[i].base = p + i * per * PAGE;
		j[i].pages = i == threads - 1 ? pages - per * i : per;
		if (i && pthread_create(&t[i], NULL, touch_thread, &j[i]) != 0)
			return -1;
	}
	touch_thread(&j[0]);
	for (i = 1; i < threads; i++)
		pthread_join(t[i], NULL);
	return 0;
}

static char *map_anon(size_t pages)
{
	char *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, pages * PAGE, MADV_NOHUGEPAGE);	/* base pages: the stock sees them */
	return p;
}

static int wl_touch(int argc, const char **argv)
{
	unsigned long pages, threads = 1;
	char *p;

	if (argc < 2 || argc > 3 || wl_num(argv[1], 1UL << 22, &pages) < 0 || pages == 0 ||
	    (argc == 3 && (wl_num(argv[2], MAX_THREADS, &threads) < 0 || threads == 0)))
		return 2;
	p = map_anon(pages);
	if (!p)
		return 1;
	if (wl_say("ready pid=%d", (int)getpid()) < 0 || wl_wait_go() < 0)
		return 1;
	if (touch(p, pages, threads) < 0 || wl_say("done pages=%lu threads=%lu", pages, threads) < 0)
		return 1;
	wl_wait_eof();
	return 0;
}

/* touch-steps PAGES STEPS: STEPS times, on "go", fault in PAGES more pages; between the
 * steps the caller moves this task to another memory cgroup (stock across memcgs) */
static int wl_touch_steps(int argc, const char **argv)
{
	unsigned long pages, steps;
	char *p;

	if (argc != 3 || wl_num(argv[1], 1UL << 20, &pages) < 0 || pages == 0 ||
	    wl_num(argv[2], 64, &steps) < 0 || steps == 0)
		return 2;
	p = map_anon(pages * steps);
	if (!p || wl_say("ready pid=%d", (int)getpid()) < 0)
		return 1;
	for (unsigned long i = 0; i < steps; i++)
		if (wl_wait_go() < 0 || touch(p + i * pages * PAGE, pages, 1) < 0 ||
		    wl_say("done step=%lu pages=%lu", i, pages) < 0)
			return 1;
	wl_wait_eof();
	return 0;
}

static int wl_fork_touch(int argc, const char **argv)
{
	unsigned long pages;
	pid_t kid;
	char *p;

	if (argc != 2 || wl_num(argv[1], 1UL << 22, &pages) < 0 || pages == 0)
		return 2;
	p = map_anon(pages);
	if (!p)
		return 1;
	if (wl_say("ready pid=%d", (int)getpid()) < 0 || wl_wait_go() < 0 || touch(p, pages, 1) < 0)
		return 1;
	kid = fork();
	if (kid == 0) {
		/* the child only keeps the COW-shared pages mapped, as long as we live */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(STDOUT_FILENO);
		wl_wait_eof();
		_exit(0);
	}
	if (kid < 0 || wl_say("done pages=%lu child=%d", pages, (int)kid) < 0)
		return 1;
	wl_wait_eof();
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	return 0;
}

NO_ASAN static void file_touch(volatile char *p, unsigned long pages, unsigned long stride,
				char *sink)
{
	unsigned long i;

	/* first touch: the page cache is charged to us.  Written, with a stride too: a
	 * read fault would map the cached pages around it (do_fault_around()) */
	for (i = 0; i < pages; i += stride)
		p[i * PAGE] = 1;
	for (i = 0; i < pages; i += stride)
		*sink += p[i * PAGE];
}

/* file-touch PATH PAGES [STRIDE]: map a file of PAGES pages and touch each; with
 * STRIDE, write() the whole file first (page cache charged here) and write every
 * STRIDE-th page only through the mapping: the rest is cached, not mapped (move charge
 * takes it too) */
static int wl_file_touch(int argc, const char **argv)
{
	unsigned long pages, stride = 1;
	volatile char *p;
	char sink = 0, buf[PAGE];
	int fd;

	if (argc < 3 || argc > 4 || wl_num(argv[2], 1UL << 20, &pages) < 0 || pages == 0 ||
	    (argc == 4 && (wl_num(argv[3], 1024, &stride) < 0 || stride == 0)))
		return 2;
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)(pages * PAGE)) < 0)
		return 1;
	memset(buf, 1, sizeof(buf));
	for (unsigned long i = 0; argc == 4 && i < pages; i++)
		if (pwrite(fd, buf, PAGE, (off_t)(i * PAGE)) != (ssize_t)PAGE)
			return 1;
	p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	if (wl_say("ready pid=%d", (int)getpid()) < 0 || wl_wait_go() < 0)
		return 1;
	file_touch(p, pages, stride, &sink);
	if (wl_say("done pages=%lu sum=%d", pages, sink) < 0)
		return 1;
	wl_wait_eof();
	unlink(argv[1]);
	return 0;
}

/* AnonHugePages (kB) of its own VMAs within [p, p + len), from /proc/self/smaps */
static unsigned long smaps_thp_kb(const char *p, size_t len)
{
	unsigned long a, b, kb, sum = 0;
	bool in = false;
	char line[256];
	FILE *f = fopen("/proc/self/smaps", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = a >= (uintptr_t)p && b <= (uintptr_t)p + len;
		else if (in && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			sum += kb;
	}
	fclose(f);
	return sum;
}

/* thp-touch BLOCKS SPLIT: BLOCKS 2 MiB-aligned blocks of anon memory asked to be THPs
 * (MADV_HUGEPAGE) and written; then the second half of each of the first SPLIT blocks
 * is made read-only, which splits its PMD into PTEs (the folio stays whole: move charge
 * skips it, v6.1).  Reports the AnonHugePages of the blocks (PMD-mapped) as thp_kb. */
static int wl_thp_touch(int argc, const char **argv)
{
	unsigned long blocks, split;
	size_t len;
	char *raw, *p;

	if (argc != 3 || wl_num(argv[1], 1024, &blocks) < 0 || blocks == 0 ||
	    wl_num(argv[2], blocks, &split) < 0)
		return 2;
	len = blocks * HPAGE;
	raw = mmap(NULL, len + HPAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		   0);
	if (raw == MAP_FAILED)
		return 1;
	p = (char *)(((uintptr_t)raw + HPAGE - 1) & ~(uintptr_t)(HPAGE - 1));
	madvise(p, len, MADV_HUGEPAGE);	/* EINVAL without THP: base pages, thp_kb=0 */
	if (wl_say("ready pid=%d", (int)getpid()) < 0 || wl_wait_go() < 0)
		return 1;
	for (size_t i = 0; i < len / PAGE; i++)
		p[i * PAGE] = 1;
	for (unsigned long i = 0; i < split; i++)
		if (mprotect(p + i * HPAGE + HPAGE / 2, HPAGE / 2, PROT_READ) < 0)
			return 1;
	if (wl_say("done pages=%lu thp_kb=%lu", (unsigned long)(len / PAGE),
		smaps_thp_kb(p, len)) < 0)
		return 1;
	wl_wait_eof();
	return 0;
}

/* ---- memhigh: workloads of the memory.high scenarios (lib/validate/drv-memhigh.c) ---- */

/* touch-timed PAGES: fault in PAGES anonymous pages, report the wall time */
static int wl_touch_timed(int argc, const char **argv)
{
	unsigned long pages;
	uint64_t t0;
	char *p;

	if (argc != 2 || wl_num(argv[1], 1UL << 22, &pages) < 0 || pages == 0)
		return 2;
	p = map_anon(pages);
	if (!p)
		return 1;
	if (wl_say("ready pid=%d", (int)getpid()) < 0 || wl_wait_go() < 0)
		return 1;
	t0 = wl_clock_ns(CLOCK_MONOTONIC);
	if (touch(p, pages, 1) < 0)
		return 1;
	if (wl_say("done pages=%lu ns=%llu", pages,
		(unsigned long long)(wl_clock_ns(CLOCK_MONOTONIC) - t0)) < 0)
		return 1;
	wl_wait_eof();
	return 0;
}

/* open PATH (at least PAGES pages, written and fsynced by the caller) and drop what
 * the page cache holds of it: the reads below then charge every page to this task's
 * cgroup.  The caller prepares the file so that writing it is not charged here (the
 * cgroup's memory.peak must show the reads only). */
static int open_clean_file(const char *path, unsigned long pages)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (unsigned long)st.st_size / PAGE < pages ||
	    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* read-file PATH PAGES CHUNK_PAGES: read PAGES pages of the existing file PATH, uncached,
 * CHUNK_PAGES pages per read() into the page cache, report the wall time; the cache
 * stays after "done" (the caller removes the file) */
static int wl_read_file(int argc, const char **argv)
{
	static char buf[256 * PAGE];
	unsigned long pages, chunk, done = 0;
	uint64_t t0;
	int fd;

	if (argc != 4 || wl_num(argv[2], 1UL << 22, &pages) < 0 || pages == 0 ||
	    wl_num(argv[3], 256, &chunk) < 0 || chunk == 0)
		return 2;
	fd = open_clean_file(argv[1], pages);
	if (fd < 0)
		return 1;
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);	/* no readahead beyond each read */
	if (wl_say("ready pid=%d", (int)getpid()) < 0 || wl_wait_go() < 0)
		return 1;
	t0 = wl_clock_ns(CLOCK_MONOTONIC);
	while (done < pages) {
		size_t n = MIN(pages - done, chunk) * PAGE;

		if (read(fd, buf, n) != (ssize_t)n)
			return 1;
		done += n / PAGE;
	}
	if (wl_say("done pages=%lu ns=%llu", pages,
		(unsigned long long)(wl_clock_ns(CLOCK_MONOTONIC) - t0)) < 0)
		return 1;
	wl_wait_eof();
	close(fd);
	return 0;
}
/* ---- end memhigh ---- */

static const char usage[] =
	"usage: cgctl-workload spin THREADS MS\n"
	"       cgctl-workload duty THREADS BUSY_MS IDLE_MS MS\n"
	"       cgctl-workload touch PAGES [THREADS]\n"
	"       cgctl-workload touch-steps PAGES STEPS\n"
	"       cgctl-workload fork-touch PAGES\n"
	"       cgctl-workload file-touch PATH PAGES [STRIDE]\n"
	"       cgctl-workload thp-touch BLOCKS SPLIT\n"
	"       cgctl-workload touch-timed PAGES\n"
	"       cgctl-workload read-file PATH PAGES CHUNK\n"
	"       cgctl-workload bench-fault THREADS MS\n"
	"       cgctl-workload bench-alloc THREADS MS\n"
	"       cgctl-workload bench-pipe ROUNDS\n"
	"       cgctl-workload bench-procread PROCS ROUNDS FILES\n"
	"(started by cgctl validate and cgctl bench; see cgctl-validate(1), cgctl-bench(1))\n";

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, const char **argv);
	} kinds[] = {
		{ "spin", wl_spin },	     { "duty", wl_duty },
		{ "touch", wl_touch },	     { "fork-touch", wl_fork_touch },
		{ "touch-steps", wl_touch_steps },
		{ "file-touch", wl_file_touch },     { "thp-touch", wl_thp_touch },
		{ "touch-timed", wl_touch_timed },  { "read-file", wl_read_file },	/* memhigh */
		{ "bench-fault", wl_bench_fault },  { "bench-alloc", wl_bench_alloc },
		{ "bench-pipe", wl_bench_pipe },    { "bench-procread", wl_bench_procread },
	};
	const char **args = (const char **)argv + 1;
	size_t i;
	int rc;

	signal(SIGPIPE, SIG_DFL);
	for (i = 0; argc > 1 && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(args[0], kinds[i].name) != 0)
			continue;
		rc = kinds[i].fn(argc - 1, args);
		if (rc == 2)
			fprintf(stderr, "cgctl-workload: %s: bad arguments\n%s", args[0], usage);
		return rc;
	}
	if (argc > 1)
		fprintf(stderr, "cgctl-workload: unknown workload '%s'\n", args[0]);
	fputs(usage, stderr);
	return 2;
}
