/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/scan: page inventory of a task with 1 GiB resident (4 KiB pages; --thp for
 * 2 MiB THPs), against two references measured in the same run on the same task:
 *
 *   page-types  the per-page method of the kernel's tools/mm/page-types -p -C:
 *               pagemap in batches of 64 Ki entries per VMA, then for each present
 *               page one 8-byte pread each of kpageflags, kpagecgroup and kpagecount
 *               (walk_task() -> walk_vma() -> walk_pfn(..., count = 1)).
 *   floor       reading the task's pagemap alone (1 MiB preads, one thread): no
 *               inventory can avoid that.
 *
 * and where the time goes: each source file read alone over the task's PFNs sorted and
 * cut into the inventory's windows (one thread): pagemap, kpagecgroup, kpageflags,
 * kpagecount, kpageflags sampled once per 2 MiB PFN block; then the least any
 * inventory needs (pagemap and kpagecgroup, which have no substitute) spread over both
 * CPUs, against the floor.
 *
 * Prints the median of several runs of each and the ratios.  Needs root (PFNs and
 * /proc/kpage*); exits 77 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libcgctl.h"

#define MIB (1024UL * 1024)
#define REPS 15		/* runs of the inventory and the floor (interleaved): medians of 15
			 * are steadier than of 7 on this noisy machine, at 0.2 s more */
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define PM_PRESENT (1ULL << 63)
#define PM_PFN ((1ULL << 55) - 1)

struct vma {
	unsigned long start, end;
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* CPU time of this process (all threads): robust against a busy machine. */
static double cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* User and system CPU time of this process (all threads), apart. */
static void cpu_split_ms(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (double)ru.ru_utime.tv_sec * 1e3 + (double)ru.ru_utime.tv_usec / 1e3;
	*sys = (double)ru.ru_stime.tv_sec * 1e3 + (double)ru.ru_stime.tv_usec / 1e3;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), dbl_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The task under test: maps @mib MiB anonymous, touches every page, then waits. */
static pid_t start_toucher(size_t mib, int thp)
{
	int p[2];
	pid_t pid;
	char c = 0;

	if (pipe(p) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		size_t len = mib * MIB;
		char *m = mmap(NULL, len + 2 * MIB, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			_exit(1);
		m = (char *)(((unsigned long)m + 2 * MIB - 1) & ~(2 * MIB - 1));
		madvise(m, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
		for (size_t i = 0; i < len; i += 4096)
			m[i] = 1;
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &c, 1) != 1) {
		close(p[0]);
		return -1;
	}
	close(p[0]);
	return pid;
}

static int load_vmas(pid_t pid, struct vma *v, int max)
{
	char path[64], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (n < max && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &v[n].start, &v[n].end) == 2 &&
		    v[n].start < 0x800000000000UL)
			n++;
	fclose(f);
	return n;
}

static int open_pagemap(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* The floor: the whole pagemap once, 1 MiB per pread, buffer reused. */
static double run_floor(pid_t pid, unsigned long *present, double *cpu)
{
	double c = cpu_ms();
	static unsigned long long buf[128 * 1024];
	struct vma v[4096];
	int n = load_vmas(pid, v, 4096), fd = open_pagemap(pid);
	double t = now_ms();

	*present = 0;
	for (int i = 0; i < n; i++)
		for (unsigned long a = v[i].start / 4096; a < v[i].end / 4096;) {
			size_t want = v[i].end / 4096 - a;
			ssize_t k;

			if (want > 128 * 1024)
				want = 128 * 1024;
			k = pread(fd, buf, want * 8, (off_t)a * 8);
			if (k <= 0)
				break;
			for (ssize_t j = 0; j < k / 8; j++)
				*present += !!(buf[j] & PM_PRESENT);
			a += (unsigned long)k / 8;
		}
	t = now_ms() - t;
	*cpu = cpu_ms() - c;
	close(fd);
	return t;
}

/* tools/mm/page-types -p PID -C: three single-entry preads per present page. */
static double run_page_types(pid_t pid, unsigned long *found, double *cpu)
{
	double c = cpu_ms();
	static unsigned long long buf[64 * 1024];
	int kf = open("/proc/kpageflags", O_RDONLY), kcg = open("/proc/kpagecgroup", O_RDONLY);
	int kc = open("/proc/kpagecount", O_RDONLY), fd;
	struct vma v[4096];
	int n;
	double t = now_ms();

	n = load_vmas(pid, v, 4096);
	fd = open_pagemap(pid);
	*found = 0;
	for (int i = 0; i < n; i++)
		for (unsigned long a = v[i].start / 4096; a < v[i].end / 4096;) {
			size_t want = v[i].end / 4096 - a;
			ssize_t k;

			if (want > 64 * 1024)
				want = 64 * 1024;
			k = pread(fd, buf, want * 8, (off_t)a * 8);
			if (k <= 0)
				break;
			for (ssize_t j = 0; j < k / 8; j++) {
				unsigned long long pfn = buf[j] & PM_PFN, x;

				if (!(buf[j] & PM_PRESENT))
					continue;
				if (pread(kf, &x, 8, (off_t)(pfn * 8)) == 8 &&
				    pread(kcg, &x, 8, (off_t)(pfn * 8)) == 8 &&
				    pread(kc, &x, 8, (off_t)(pfn * 8)) == 8)
					(*found)++;
			}
			a += (unsigned long)k / 8;
		}
	t = now_ms() - t;
	*cpu = cpu_ms() - c;
	close(fd);
	close(kf);
	close(kcg);
	close(kc);
	return t;
}

static int u64_cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

/* The task's PFNs, sorted (the breakdown's reads follow the inventory's order). */
static unsigned long long *task_pfns(pid_t pid, size_t *n)
{
	static unsigned long long buf[128 * 1024];
	struct vma v[4096];
	int nv = load_vmas(pid, v, 4096), fd = open_pagemap(pid);
	unsigned long long *p = NULL;
	size_t cap = 0;

	*n = 0;
	for (int i = 0; i < nv; i++)
		for (unsigned long a = v[i].start / 4096; a < v[i].end / 4096;) {
			size_t want = v[i].end / 4096 - a;
			ssize_t k;

			if (want > 128 * 1024)
				want = 128 * 1024;
			k = pread(fd, buf, want * 8, (off_t)a * 8);
			if (k <= 0)
				break;
			for (ssize_t j = 0; j < k / 8; j++) {
				if (!(buf[j] & PM_PRESENT) || !(buf[j] & PM_PFN))
					continue;
				if (*n == cap) {
					cap = cap ? 2 * cap : 65536;
					p = realloc(p, cap * sizeof(*p));
					if (!p)
						exit(1);
				}
				p[(*n)++] = buf[j] & PM_PFN;
			}
			a += (unsigned long)k / 8;
		}
	close(fd);
	qsort(p, *n, sizeof(*p), u64_cmp);
	return p;
}

/*
 * Read @file for the sorted @pfn in windows of up to 64 Ki PFNs that bridge gaps of up
 * to 32 (the inventory's), or with @sample one entry per 2 MiB PFN block.  Returns: ms.
 */
static double read_pfns(const char *file, const unsigned long long *pfn, size_t n, int sample)
{
	static unsigned long long buf[64 * 1024];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	double t = now_ms();

	for (size_t i = 0, j; i < n; i = j) {
		unsigned long long base = pfn[i];

		for (j = i + 1; j < n; j++) {
			if (sample ? pfn[j] / 512 != base / 512 :
				     pfn[j] > pfn[j - 1] + 32 || pfn[j] - base >= 64 * 1024)
				break;
		}
		if (pread(fd, buf, sample ? 8 : (pfn[j - 1] - base + 1) * 8,
			  (off_t)(base * 8)) < 0)
			break;
	}
	t = now_ms() - t;
	close(fd);
	return t;
}

/* The pagemap read by two threads, each half of the task's VMAs' pages. */
struct half {
	pid_t pid;
	int i;
	double ms;
};

static void *pagemap_half(void *arg)
{
	struct half *h = arg;
	static unsigned long long bufs[2][128 * 1024];
	unsigned long long *buf = bufs[h->i];
	struct vma v[4096];
	int n = load_vmas(h->pid, v, 4096), fd = open_pagemap(h->pid);
	unsigned long total = 0, lo, hi, pos = 0;
	double t = now_ms();

	for (int i = 0; i < n; i++)
		total += (v[i].end - v[i].start) / 4096;
	lo = total * (unsigned long)h->i / 2;
	hi = total * (unsigned long)(h->i + 1) / 2;
	for (int i = 0; i < n; i++) {
		unsigned long len = (v[i].end - v[i].start) / 4096, a = pos > lo ? pos : lo;
		unsigned long b = pos + len < hi ? pos + len : hi;

		for (; a < b;) {
			size_t want = b - a > 128 * 1024 ? 128 * 1024 : b - a;
			ssize_t k = pread(fd, buf, want * 8, (off_t)(v[i].start / 4096 + a - pos) * 8);

			if (k <= 0)
				break;
			a += (unsigned long)k / 8;
		}
		pos += len;
	}
	h->ms = now_ms() - t;
	close(fd);
	return NULL;
}

static double run_pagemap2(pid_t pid)
{
	struct half h[2] = { { pid, 0, 0 }, { pid, 1, 0 } };
	pthread_t t;
	double w = now_ms();

	if (pthread_create(&t, NULL, pagemap_half, &h[1]) != 0)
		return -1;
	pagemap_half(&h[0]);
	pthread_join(t, NULL);
	return now_ms() - w;
}

#define BD_FILES 6
static const char *const bd_name[BD_FILES] = { "kpagecgroup", "kpageflags", "kpagecount",
					       "kpageflags sampled", "pagemap 2 threads",
					       "kpagecgroup sampled" };

static void breakdown(pid_t pid, double floor_ms, double inv_ms, int thp)
{
	double t[BD_FILES][7], m[BD_FILES], least;
	size_t n;
	unsigned long long *pfn = task_pfns(pid, &n);

	for (int r = 0; r < 7; r++) {
		t[0][r] = read_pfns("/proc/kpagecgroup", pfn, n, 0);
		t[1][r] = read_pfns("/proc/kpageflags", pfn, n, 0);
		t[2][r] = read_pfns("/proc/kpagecount", pfn, n, 0);
		t[3][r] = read_pfns("/proc/kpageflags", pfn, n, 1);
		t[4][r] = run_pagemap2(pid);
		t[5][r] = read_pfns("/proc/kpagecgroup", pfn, n, 1);
	}
	free(pfn);
	printf("scan: breakdown, each file alone over the task's %zu PFNs, 1 thread, median ms "
	       "(ns/page): pagemap %.2f (%.1f)", n, floor_ms, floor_ms * 1e6 / (double)n);
	for (int f = 0; f < BD_FILES; f++) {
		m[f] = median(t[f], 7);
		printf(", %s %.2f (%.1f)", bd_name[f], m[f], m[f] * 1e6 / (double)n);
	}
	/*
	 * pagemap and kpagecgroup (every page; one per PMD-mapped THP) cannot be skipped;
	 * two CPUs at best halve them, and never go below the one-thread pagemap read
	 */
	least = (floor_ms + m[thp ? 5 : 0]) / 2;
	if (least < floor_ms)
		least = floor_ms;
	printf("\nscan: least any inventory needs: max(pagemap, (pagemap + kpagecgroup%s) / 2 "
	       "CPUs) = %.2f ms = %.2fx the floor; inventory is %.2fx that\n",
	       thp ? " sampled" : "", least, least / floor_ms, inv_ms / least);
}

static double run_inventory(struct cgctl_ctx *ctx, pid_t pid, unsigned int flags,
			    unsigned long *pages, double *cpu)
{
	struct cgctl_inventory *inv = NULL;
	struct cgctl_error e = CGCTL_ERROR_INIT;
	double c = cpu_ms(), t = now_ms();
	int r = cgctl_inventory_scan(ctx, pid, flags, &inv, &e);

	t = now_ms() - t;
	*cpu = cpu_ms() - c;
	if (r < 0) {
		fprintf(stderr, "scan: %s\n", e.msg);
		exit(1);
	}
	*pages = 0;
	for (size_t i = 0; i < inv->n_groups; i++)
		*pages += inv->groups[i].pages;
	cgctl_inventory_free(inv);
	return t;
}

int main(int argc, char **argv)
{
	int thp = argc > 1 && strcmp(argv[1], "--thp") == 0, reps = REPS, pt_reps = 3;
	double inv[REPS], inv1[REPS], flo[REPS], pt[3], cinv[REPS], cinv1[REPS], cflo[REPS], cpt[3];
	double mi, mi1, mf, mp, usr1 = 0, sys1 = 0;
	unsigned long pinv = 0, pflo = 0, ppt = 0;
	struct cgctl_ctx *ctx = NULL;
	pid_t pid;

	if (geteuid() != 0 || access("/proc/kpagecgroup", R_OK) != 0) {
		printf("scan: SKIP needs root and /proc/kpagecgroup\n");
		return 77;
	}
	if (cgctl_new(&ctx, NULL) < 0)
		return 1;
	pid = start_toucher(1024, thp);
	if (pid < 0) {
		fprintf(stderr, "scan: cannot start the toucher\n");
		return 1;
	}
	for (int i = 0; i < reps; i++) {	/* interleaved, so load changes hit all alike */
		double u0, s0, u1, s1;

		flo[i] = run_floor(pid, &pflo, &cflo[i]);
		inv[i] = run_inventory(ctx, pid, 0, &pinv, &cinv[i]);
		cpu_split_ms(&u0, &s0);
		inv1[i] = run_inventory(ctx, pid, CGCTL_INV_SINGLE_THREAD, &pinv, &cinv1[i]);
		cpu_split_ms(&u1, &s1);
		usr1 += u1 - u0;	/* summed: rusage splits user/system by ticks */
		sys1 += s1 - s0;
	}
	for (int i = 0; i < pt_reps; i++)
		pt[i] = run_page_types(pid, &ppt, &cpt[i]);
	mi = median(inv, reps);
	mi1 = median(inv1, reps);
	mf = median(flo, reps);
	mp = median(pt, pt_reps);
	printf("scan: 1 GiB resident (%s), %lu present pages, inventory found %lu, "
	       "page-types style %lu\n", thp ? "2 MiB THP" : "4 KiB pages", pflo, pinv, ppt);
	printf("scan: medians, wall (cpu) ms: inventory %.2f (%.2f), 1 thread %.2f (%.2f), "
	       "page-types %.2f (%.2f), pagemap floor %.2f (%.2f)\n", mi, median(cinv, reps),
	       mi1, median(cinv1, reps), mp, median(cpt, pt_reps), mf, median(cflo, reps));
	printf("scan: inventory %.2f ms per GiB; %.1fx faster than page-types; %.2fx the "
	       "pagemap-only floor\n", mi, mp / mi, mi / mf);
	/*
	 * what the kernel alone costs the inventory: its system time, which two CPUs can
	 * at best halve (and never below the one-thread pagemap read)
	 */
	printf("scan: inventory 1 thread, mean CPU per run: user %.2f ms, kernel %.2f ms; "
	       "its kernel work on 2 CPUs takes at least %.2f ms = %.2fx the floor\n",
	       usr1 / reps, sys1 / reps, MAX(sys1 / reps / 2, mf), MAX(sys1 / reps / 2, mf) / mf);
	breakdown(pid, mf, mi, thp);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	cgctl_unref(ctx);
	return pinv + 1024 < pflo ? 1 : 0;	/* the inventory must find the pages */
}
