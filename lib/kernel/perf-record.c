/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Context switches of chosen tasks from perf_event_open: one software dummy event per
 * (task, CPU) with context_switch (PERF_RECORD_SWITCH; PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
 * tells a preempted or throttled task from one that blocked), task (FORK/EXIT records)
 * and inherit (threads and children created while recording get their own copy of the
 * event, writing into ours).  The kernel refuses mmap on inherited per-task events
 * (cpu -1; kernel/events/core.c:perf_mmap()), so there is one event per CPU and task; the
 * first one on each CPU owns that CPU's ring buffer and the others are redirected into
 * it with PERF_EVENT_IOC_SET_OUTPUT, as perf-record does.  Timestamps use
 * CLOCK_MONOTONIC (use_clockid) so the caller's start and end times line up with them.
 * No tracefs, no BPF: what perf_event_paranoid allows is all it needs.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/perf.h"

/* sample_type PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU: the sample_id_all
 * trailer of every non-sample record. */
struct sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
};

struct task_body {		/* PERF_RECORD_FORK, PERF_RECORD_EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

static int sys_perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group,
			       unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

static void attr_init(struct perf_event_attr *a, unsigned int pages)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	a->sample_id_all = 1;
	a->context_switch = 1;
	a->task = 1;
	a->inherit = 1;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->watermark = 1;
	a->wakeup_watermark = pages * (unsigned int)sysconf(_SC_PAGESIZE) / 4;
}

int perf_rec_init(struct perf_rec *pr, unsigned int pages)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(pr, 0, sizeof(*pr));
	pr->ncpus = n > 0 ? (unsigned int)n : 1;
	pr->pages = pages;
	pr->ring = calloc(pr->ncpus, sizeof(*pr->ring));
	if (!pr->ring)
		return -ENOMEM;
	for (unsigned int c = 0; c < pr->ncpus; c++)
		pr->ring[c].fd = -1;
	return 0;
}

static int perm_error(int err, struct cgctl_error *e)
{
	char buf[16] = "?";
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			strcpy(buf, "?");
		buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	return cgctl_error_set(e, err, "perf_event_open: %s: recording needs root, "
			       "CAP_PERFMON, or kernel.perf_event_paranoid <= 1 (it is %s)",
			       strerror(err), buf);
}

static int ring_map(struct perf_ring *r, unsigned int pages)
{
	size_t len = (size_t)(pages + 1) * (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);

	if (p == MAP_FAILED)
		return -errno;
	r->base = p;
	r->len = len;
	return 0;
}

static int push_fd(struct perf_rec *pr, int fd)
{
	if (pr->nfds == pr->capfds) {
		size_t cap = pr->capfds ? 2 * pr->capfds : 64;
		int *n = realloc(pr->fds, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		pr->fds = n;
		pr->capfds = cap;
	}
	pr->fds[pr->nfds++] = fd;
	return 0;
}

/* One event of @tid on @cpu, into that CPU's ring.  Returns: 0, -errno. */
static int open_one(struct perf_rec *pr, pid_t tid, unsigned int cpu, struct cgctl_error *e)
{
	struct perf_event_attr a;
	struct perf_ring *ring = &pr->ring[cpu];
	int fd, r;

	attr_init(&a, pr->pages);
	fd = sys_perf_event_open(&a, tid, (int)cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		if (r == -EACCES || r == -EPERM)
			return perm_error(-r, e);
		return r;
	}
	if (ring->fd < 0) {
		ring->fd = fd;
		r = ring_map(ring, pr->pages);
		if (r < 0)
			return cgctl_error_set(e, -r, "perf ring buffer mmap: %s", strerror(-r));
		return 0;
	}
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd) < 0) {
		r = -errno;
		close(fd);
		return cgctl_error_set(e, -r, "PERF_EVENT_IOC_SET_OUTPUT: %s", strerror(-r));
	}
	r = push_fd(pr, fd);
	if (r < 0)
		close(fd);
	return r;
}

static bool tid_known(const struct perf_rec *pr, pid_t tid)
{
	for (size_t i = 0; i < pr->ntids; i++)
		if (pr->tids[i] == tid)
			return true;
	return false;
}

int perf_rec_add_task(struct perf_rec *pr, pid_t tid, struct cgctl_error *e)
{
	int r;

	if (tid <= 0)
		return -EINVAL;
	if (tid_known(pr, tid))
		return 0;
	if (pr->ntids == pr->captids) {
		size_t cap = pr->captids ? 2 * pr->captids : 64;
		pid_t *n = realloc(pr->tids, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		pr->tids = n;
		pr->captids = cap;
	}
	for (unsigned int c = 0; c < pr->ncpus; c++) {
		r = open_one(pr, tid, c, e);
		if (r == -ESRCH && c > 0)
			break;	/* exited meanwhile: its EXIT record is in the ring */
		if (r < 0)
			return r;
	}
	pr->tids[pr->ntids++] = tid;
	pr->live++;
	return 1;
}

/* Returns: the threads newly opened, 0 when every thread was recorded already (a
 * process listed twice, or also in a recorded cgroup), -ESRCH when it is gone. */
int perf_rec_add_process(struct perf_rec *pr, pid_t pid, struct cgctl_error *e)
{
	char path[64];
	int total = 0, added;
	bool known = false;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	do {	/* threads created while we open the others: read the list again */
		DIR *d = opendir(path);
		struct dirent *de;
		int r = 0;

		if (!d)
			return total || known ? total : -ESRCH;
		added = 0;
		while (r >= 0 && (de = readdir(d))) {
			long tid = strtol(de->d_name, NULL, 10);

			if (tid <= 0)
				continue;
			r = perf_rec_add_task(pr, (pid_t)tid, e);
			if (r > 0)
				added++;
			else if (r == 0)
				known = true;
			if (r == -ESRCH)
				r = 0;
		}
		closedir(d);
		if (r < 0)
			return r;
		total += added;
	} while (added);
	return total || known ? total : -ESRCH;
}

static int push_sw(struct perf_rec *pr, const struct cgctl_bw_switch *sw)
{
	if (pr->nsw == pr->capsw) {
		size_t cap = pr->capsw ? 2 * pr->capsw : 4096;
		struct cgctl_bw_switch *n = realloc(pr->sw, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		pr->sw = n;
		pr->capsw = cap;
	}
	pr->sw[pr->nsw++] = *sw;
	return 0;
}

int perf_rec_parse(struct perf_rec *pr, const void *rec, size_t size,
		   struct cgctl_bw_switch *sw)
{
	const struct perf_event_header *h = rec;
	const char *p = rec;
	struct sample_id id;
	struct task_body tb;

	if (size < sizeof(*h) + sizeof(id))
		return 0;
	memcpy(&id, p + size - sizeof(id), sizeof(id));
	switch (h->type) {
	case PERF_RECORD_LOST:
		if (size >= sizeof(*h) + 16 + sizeof(id)) {
			uint64_t lost;

			memcpy(&lost, p + sizeof(*h) + 8, sizeof(lost));
			pr->lost += lost;
		}
		return 0;
	case PERF_RECORD_SWITCH:
		sw->tid = id.tid;
		sw->time_ns = id.time;
		if (!(h->misc & PERF_RECORD_MISC_SWITCH_OUT))
			sw->kind = CGCTL_BW_SW_IN;
		else if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			sw->kind = CGCTL_BW_SW_PREEMPT;
		else
			sw->kind = CGCTL_BW_SW_SLEEP;
		pr->switches++;
		return 1;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (size < sizeof(*h) + sizeof(tb) + sizeof(id))
			return 0;
		memcpy(&tb, p + sizeof(*h), sizeof(tb));
		sw->tid = tb.tid;
		sw->time_ns = tb.time;
		sw->kind = h->type == PERF_RECORD_FORK ? CGCTL_BW_SW_FORK : CGCTL_BW_SW_EXIT;
		pr->live += h->type == PERF_RECORD_FORK ? 1 : -1;
		return 1;
	}
	return 0;
}

/* Read every complete record of one ring, then hand the space back to the kernel. */
static int ring_drain(struct perf_rec *pr, struct perf_ring *r)
{
	struct perf_event_mmap_page *pg = r->base;
	const char *data = (const char *)r->base + pg->data_offset;
	uint64_t size = pg->data_size;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	struct cgctl_bw_switch sw;

	while (tail < head) {
		struct perf_event_header h;
		uint64_t off = tail % size;
		const void *rec = data + off;

		memcpy(&h, data + off, MIN(sizeof(h), size - off));
		if (size - off < sizeof(h))
			memcpy((char *)&h + (size - off), data, sizeof(h) - (size - off));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;	/* cannot happen with a sane kernel; do not loop */
		if (off + h.size > size) {	/* wraps: copy it out whole */
			memcpy(pr->scratch, data + off, size - off);
			memcpy(pr->scratch + (size - off), data, h.size - (size - off));
			rec = pr->scratch;
		}
		if (perf_rec_parse(pr, rec, h.size, &sw) && push_sw(pr, &sw) < 0)
			pr->err = -ENOMEM;
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return pr->err;
}

int perf_rec_poll(struct perf_rec *pr, int timeout_ms)
{
	struct pollfd pfd[256];
	unsigned int n = 0;
	int r = 0;

	for (unsigned int c = 0; c < pr->ncpus && n < ARRAY_SIZE(pfd); c++)
		if (pr->ring[c].fd >= 0)
			pfd[n++] = (struct pollfd){ .fd = pr->ring[c].fd, .events = POLLIN };
	if (timeout_ms > 0 && poll(pfd, n, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	for (unsigned int c = 0; c < pr->ncpus && r == 0; c++)
		if (pr->ring[c].base)
			r = ring_drain(pr, &pr->ring[c]);
	return r;
}

void perf_rec_close(struct perf_rec *pr)
{
	for (size_t i = 0; i < pr->nfds; i++)
		close(pr->fds[i]);
	for (unsigned int c = 0; pr->ring && c < pr->ncpus; c++) {
		if (pr->ring[c].base)
			munmap(pr->ring[c].base, pr->ring[c].len);
		if (pr->ring[c].fd >= 0)
			close(pr->ring[c].fd);
	}
	free(pr->ring);
	free(pr->fds);
	free(pr->tids);
	free(pr->sw);
	memset(pr, 0, sizeof(*pr));
}

int perf_task_threads(pid_t pid, pid_t **tids, size_t *n)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int added = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -ESRCH;
	while ((de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);
		pid_t *v;

		if (tid <= 0)
			continue;
		v = realloc(*tids, (*n + 1) * sizeof(*v));
		if (!v) {
			closedir(d);
			return -ENOMEM;
		}
		*tids = v;
		v[(*n)++] = (pid_t)tid;
		added++;
	}
	closedir(d);
	return added;
}

int perf_task_oncpu(pid_t tid, uint64_t *ns)
{
	char path[64], buf[128];
	unsigned long long v;
	int fd, r = -EINVAL;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		if (sscanf(buf, "%llu", &v) == 1) {
			*ns = v;
			r = 0;
		}
	}
	close(fd);
	return r;
}
