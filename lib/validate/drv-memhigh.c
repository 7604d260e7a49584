/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Driver of the cgroup v2 memory.high scenarios: a workload reads a file or faults in
 * anonymous memory in a scratch cgroup with memory.high (and low/max) set; the
 * memory.high model (lib/engine/memcg-high-*.c) is fed the same settings and the pages
 * the cgroup held before the workload started (as unreclaimable anon: the workload's own
 * binary, stack, page tables) and predicts memory.current, memory.events, the swap and
 * the memory stall: memory.pressure "some" total counts the psi_memstall_enter() regions,
 * the throttling sleeps and reclaim_high()'s reclaim, whose cost per page of clean
 * cache the driver measures with memory.reclaim (reclaim_cost()).  The
 * peak is the kernel's memory.peak: the driver writes the file the workload reads, so
 * that its preparation is not charged to the scratch cgroup.
 * Kernel HZ is taken as 250 (Debian's CONFIG_HZ).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "validate/validate.h"
#include "validate/scenarios.h"

#define PG 4096ULL
#define MH_HZ 250
#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6

struct mh_obs {
	uint64_t base, peak, current, ev_high, ev_low, swap, stall_ns, wall_ns;
	uint64_t reclaim_file_ns; /* measured cost of a reclaimed page, 0: unmeasured */
};

/* a directory whose files have clean, evictable page cache (not tmpfs, not ramfs) */
static const char *file_dir(void)
{
	static const char *const dirs[] = {"/var/tmp", "/tmp", "."};
	struct statfs sf;

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (statfs(dirs[i], &sf) == 0 && sf.f_type != TMPFS_MAGIC_ &&
		    sf.f_type != RAMFS_MAGIC_ && access(dirs[i], W_OK) == 0)
			return dirs[i];
	return NULL;
}

/* the LRU reclaim runs on (the era's default when it cannot be read) */
static unsigned int lru_kind(struct vrun *run)
{
	bool on;

	if (cgctl_lru_gen_read(run->ctx, &on) < 0)
		return CGCTL_MEMHIGH_LRU_DEFAULT;
	return on ? CGCTL_MEMHIGH_LRU_GEN : CGCTL_MEMHIGH_LRU_CLASSIC;
}

static int mh_applies(struct vrun *run, const struct vscenario *s, char *reason,
		      size_t len)
{
	const struct vmemhigh_params *p = s->params;
	struct cgctl_memhigh_era era;
	const struct cgctl_mount *m;

	if (cgctl_mount_find(run->ctx, "memory", &m) < 0 || m->version != 2) {
		snprintf(reason, len,
			 "no cgroup v2 memory controller (memory.high is v2 only)");
		return 1;
	}
	if (cgctl_memhigh_era_get(run->kver, &era) < 0) {
		snprintf(reason, len,
			 "the memory.high model covers kernels 6.1 and later");
		return 1;
	}
	if ((p->kind == VMH_FILE || p->kind == VMH_PROTECT) && !file_dir()) {
		snprintf(reason, len,
			 "no disk-backed directory for clean page cache (only "
			 "tmpfs/ramfs, whose pages are not file cache)");
		return 1;
	}
	if (p->kind == VMH_SWAP && !vrun_have_swap(run, 0)) {
		snprintf(reason, len, "no swap device (/proc/swaps)");
		return 1;
	}
	return 0;
}

/* memory.pressure "some ... total=USEC" in ns */
static uint64_t pressure_ns(struct vrun *run, const struct cgctl_mount *m,
			    const char *path)
{
	char *buf = NULL, *t;
	size_t len;
	uint64_t v = 0;

	if (cgctl_cg_read(run->ctx, m, path, "memory.pressure", &buf, &len) < 0)
		return 0;
	t = strstr(buf, "total=");
	if (t)
		v = strtoull(t + 6, NULL, 10) * 1000;
	free(buf);
	return v;
}

static int write_pages(struct vrun *run, const struct cgctl_mount *m, const char *path,
		       const char *file, uint64_t pages, char *reason, size_t len)
{
	char v[32];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)(pages * PG));
	return vcg_write(run, m, path, file, v, reason, len);
}

/* write @path (@pages pages), fsync it and drop it from the page cache: a clean,
 * uncached file.  The driver writes it, not the workload, so that the writing is not
 * charged to the scratch cgroup and its memory.peak shows the workload's reads only
 * (the writer's cgroup holds the dirty pages briefly; POSIX_FADV_DONTNEED after the
 * fsync frees them). */
static int prepare_file(const char *path, unsigned long pages, char *reason, size_t len)
{
	static char buf[64 * PG];
	unsigned long done = 0;
	int fd, err = 0;

	memset(buf, 'x', sizeof(buf));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		snprintf(reason, len, "%s: %s", path, strerror(errno));
		return err;
	}
	while (done < pages && err == 0) {
		size_t n = (pages - done < 64 ? pages - done : 64) * PG;

		if (write(fd, buf, n) != (ssize_t)n)
			err = errno ? -errno : -ENOSPC;
		done += n / PG;
	}
	if (err == 0 && fsync(fd) < 0)
		err = -errno;
	if (err == 0)
		err = -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (err < 0)
		snprintf(reason, len, "%s: %s", path, strerror(-err));
	return err;
}

static int start(struct vrun *run, const struct cgctl_mount *m, const char *path,
		 const struct vmemhigh_params *p, bool file, unsigned int pages,
		 struct vwork *w, char *fname, char *reason, size_t len)
{
	struct vwork_spec ws = {.m = {m}, .path = {path}, .cpu = 0};
	char n[16], c[16], line[128];
	int err = 0;

	snprintf(n, sizeof(n), "%u", pages);
	snprintf(c, sizeof(c), "%u", p->chunk);
	if (file) {
		snprintf(fname, 128, "%s/cgctl-memhigh-%d-%u", file_dir(), (int)getpid(),
			 run->seq++);
		err = prepare_file(fname, pages, reason, len);
		ws.argv[0] = "read-file";
		ws.argv[1] = fname;
		ws.argv[2] = n;
		ws.argv[3] = c;
	} else {
		ws.argv[0] = "touch-timed";
		ws.argv[1] = n;
	}
	if (err >= 0)
		err = vwork_start(run, &ws, w, reason, len);
	if (err >= 0)
		err =
		    vwork_expect(run, w, "ready", line, sizeof(line), 60000, reason, len);
	return err;
}

/* "go", then wait for "done" (the peak is the kernel's: memory.peak, read at the end) */
static int go(struct vrun *run, struct vwork *w, struct mh_obs *o, char *reason,
	      size_t len)
{
	char line[128];
	int err = vwork_send(w, "go\n");

	if (err >= 0)
		err = vwork_expect(run, w, "done", line, sizeof(line), 120000, reason, len);
	if (err >= 0)
		vline_u64(line, "ns", &o->wall_ns);
	return err;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* the wall time of one write of @value to @path's memory.reclaim; Returns: ns, or 0
 * when the write failed */
static uint64_t timed_reclaim(struct vrun *run, const struct cgctl_mount *m,
			      const char *path, const char *value)
{
	uint64_t t0 = mono_ns();

	if (cgctl_cg_write(run->ctx, m, path, "memory.reclaim", value) < 0)
		return 0;
	return mono_ns() - t0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * This machine's cost of reclaiming a clean page cache page, the way the stall counts
 * it.  memory.pressure's total is the wall time of reclaim_high()'s
 * try_to_free_mem_cgroup_pages(), inside psi_memstall_enter() (mm/memcontrol.c, v6.1
 * and v6.12), plus the throttling sleeps; the model charges reclaim per page reclaimed,
 * and the host's figure (reclaim_file_ns) is several times off under an emulator.  So
 * it is measured: after the workload its group still holds its page cache, and a write
 * of 64 pages to memory.reclaim runs the same try_to_free_mem_cgroup_pages() (64 pages:
 * memory_reclaim(), 5.19+); the overhead of the write itself is taken off by a write of
 * "0" (which reclaims nothing) before each.  Pages are counted by memory.current.
 * The cost is the median of the batches' costs per page: one batch in a few takes
 * ten times the others (an interrupt, or under an emulator the host descheduling the
 * vCPU), and a sum would hand that to every page of the prediction (a 6.1 guest:
 * batches of 73-116 pages at 3.5-5 us a page, and one at 58 us).
 * Returns: ns per page, 0 when it could not be measured (the model's default then).
 */
#define RECLAIM_BATCHES 24
static uint64_t reclaim_cost(struct vrun *run, const struct cgctl_mount *m,
			     const char *path)
{
	uint64_t before, after, t, t0, per_page[RECLAIM_BATCHES];
	unsigned int k = 0;

	for (unsigned int i = 0; i < RECLAIM_BATCHES; i++) {
		if (cgctl_cg_read_u64(run->ctx, m, path, "memory.current", &before) < 0)
			return 0;
		t0 = timed_reclaim(run, m, path, "0");
		t = timed_reclaim(run, m, path, "262144");
		if (!t0 || !t ||
		    cgctl_cg_read_u64(run->ctx, m, path, "memory.current", &after) < 0)
			return 0;
		if (before >= after + 16 * PG && t > t0)
			per_page[k++] = (t - t0) / ((before - after) / PG);
	}
	if (k < RECLAIM_BATCHES / 2)
		return 0;
	qsort(per_page, k, sizeof(*per_page), u64_cmp);
	return k % 2 ? per_page[k / 2] : (per_page[k / 2 - 1] + per_page[k / 2]) / 2;
}

static int observe_end(struct vrun *run, const struct cgctl_mount *m, const char *path,
		       struct mh_obs *o, uint64_t stall0, char *reason, size_t len)
{
	uint64_t cur = 0, sw = 0, pk = 0;
	int err = vcg_read_u64(run, m, path, "memory.current", &cur, reason, len);

	if (err >= 0)
		err = vcg_read_key(run, m, path, "memory.events", "high", &o->ev_high,
				   reason, len);
	if (err >= 0)
		err = vcg_read_key(run, m, path, "memory.events", "low", &o->ev_low,
				   reason, len);
	if (err < 0)
		return err;
	/* memory.peak: the page counter's watermark (page_counter_charge(), 5.19+), the
	 * peak a sampler of memory.current misses between a read()'s charges and the
	 * reclaim on its return to user space */
	if (vcg_read_u64(run, m, path, "memory.peak", &pk, reason, len) < 0)
		return -ENOENT;
	vcg_read_u64(run, m, path, "memory.swap.current", &sw, reason, len);
	o->current = cur / PG;
	o->peak = pk / PG;
	o->swap = sw / PG;
	o->stall_ns = pressure_ns(run, m, path) - stall0;
	return 0;
}

/* one group, one workload: FILE, ANON, SWAP */
static int observe_one(struct vrun *run, const struct vmemhigh_params *p,
		       struct mh_obs *o, char *reason, size_t len)
{
	const struct cgctl_mount *m;
	struct vwork w = {.pid = -1};
	const char *path;
	char fname[128] = "";
	uint64_t cur = 0, stall0;
	int err;

	err = vscratch_create(run, "memory", NULL, "memhigh", &m, &path, reason, len);
	if (err >= 0)
		err = start(run, m, path, p, p->kind == VMH_FILE, p->pages, &w, fname,
			    reason, len);
	if (err >= 0)
		err = vcg_read_u64(run, m, path, "memory.current", &cur, reason, len);
	o->base = cur / PG;
	stall0 = pressure_ns(run, m, path);
	if (err >= 0)
		err =
		    write_pages(run, m, path, "memory.high", p->high_pages, reason, len);
	/* "no swap" even where the machine has some */
	if (err >= 0 && p->kind == VMH_ANON && vrun_have_swap(run, 0))
		err = vcg_write(run, m, path, "memory.swap.max", "0", reason, len);
	if (err >= 0)
		err = go(run, &w, o, reason, len);
	if (err >= 0)
		err = observe_end(run, m, path, o, stall0, reason, len);
	/* the page cache the file workload leaves (after the observation: it shrinks
	 * it) */
	if (err >= 0 && p->kind == VMH_FILE)
		o->reclaim_file_ns = reclaim_cost(run, m, path);
	if (err >= 0)
		err = vwork_finish(run, &w, 5000, reason, len);
	vwork_kill(run, &w);
	if (fname[0])
		unlink(fname);
	return err;
}

static int model(struct vrun *run, const struct vmemhigh_params *p,
		 struct cgctl_memhigh_group *g, unsigned int ng,
		 struct cgctl_memhigh_workload *w, unsigned int nw, uint64_t swap,
		 uint64_t reclaim_file_ns, struct cgctl_memhigh_group_result *res,
		 char *reason, size_t len)
{
	struct cgctl_memhigh_config c = {
	    .size = sizeof(c),
	    .kver = run->model_kver,
	    .hz = MH_HZ,
	    .ncpus = run->ncpu,
	    .swap_free = swap,
	    .reclaim_file_ns = reclaim_file_ns,
	    .lru = lru_kind(run),
	    .ngroups = ng,
	    .nworkloads = nw,
	    .groups = g,
	    .workloads = w,
	};
	struct cgctl_error e = CGCTL_ERROR_INIT;
	struct cgctl_memhigh_run *r;
	int err = cgctl_memhigh_run(&c, &r, &e);

	(void)p;
	if (err < 0) {
		snprintf(reason, len, "memory.high model: %s", e.msg);
		return err;
	}
	for (unsigned int i = 0; i < ng; i++)
		cgctl_memhigh_run_group(r, (int)i, &res[i]);
	cgctl_memhigh_run_free(r);
	return 0;
}

static void set(struct vsample *o, double obs, double pred)
{
	o->obs = obs;
	o->pred = pred;
}

static void fill_one(const struct vscenario *s, const struct mh_obs *o,
		     const struct cgctl_memhigh_group_result *r, uint64_t high,
		     struct vsample *out)
{
	for (size_t i = 0; i < vscenario_nq(s); i++) {
		const char *n = s->q[i].name;

		if (!strcmp(n, "peak_over_high"))
			set(&out[i], (double)o->peak - high, (double)r->peak - high);
		else if (!strcmp(n, "end_over_high"))
			set(&out[i], (double)o->current - high,
			    (double)r->current - high);
		else if (!strcmp(n, "events_high"))
			set(&out[i], (double)o->ev_high, (double)r->ev_high);
		else if (!strcmp(n, "stall")) /* psi_memstall: the sleeps and reclaim */
			set(&out[i], (double)o->stall_ns,
			    (double)(r->stall_ns + r->reclaim_ns));
		else if (!strcmp(n, "wall"))
			set(&out[i], (double)o->wall_ns, (double)r->end_ns);
		else if (!strcmp(n, "swap"))
			set(&out[i], (double)o->swap, (double)r->swap);
	}
}

static int run_one(struct vrun *run, const struct vscenario *s, struct vsample *out,
		   char *reason, size_t len)
{
	const struct vmemhigh_params *p = s->params;
	struct cgctl_memhigh_group g = {-1, CGCTL_MEMHIGH_NO_LIMITS, 0, 0};
	struct cgctl_memhigh_workload w = {
	    .group = 0,
	    .kind = p->kind == VMH_FILE ? CGCTL_MEMHIGH_FILE : CGCTL_MEMHIGH_ANON,
	    .threads = 1,
	    .size_pages = p->pages,
	    .chunk_pages = p->chunk,
	    .stay = true,
	};
	struct cgctl_memhigh_group_result r;
	struct mh_obs o = {0};
	int err;

	err = observe_one(run, p, &o, reason, len);
	if (err < 0)
		return err;
	g.lim.high = p->high_pages;
	g.anon = o.base;
	/* swap taken as ample: the scenario's workload is far below any swap device's
	 * size */
	err = model(run, p, &g, 1, &w, 1, p->kind == VMH_SWAP ? 1ULL << 30 : 0,
		    o.reclaim_file_ns, &r, reason, len);
	if (err >= 0)
		fill_one(s, &o, &r, p->high_pages, out);
	return err;
}

/* ---- protection: A (low) reads its file, then B reads more under the parent's max ----
 */
static int protect_observe(struct vrun *run, const struct vmemhigh_params *p,
			   struct mh_obs *a, struct mh_obs *b, char *reason, size_t len)
{
	const struct cgctl_mount *m;
	struct vwork wa = {.pid = -1}, wb = {.pid = -1};
	const char *pp, *ap, *bp;
	char fa[128] = "", fb[128] = "";
	uint64_t cur = 0;
	int err;

	err = vscratch_create(run, "memory", NULL, "memhigh-prot", &m, &pp, reason, len);
	if (err >= 0)
		err = vcg_write(run, m, pp, "cgroup.subtree_control", "+memory", reason,
				len);
	if (err >= 0)
		err = write_pages(run, m, pp, "memory.max", p->max_pages, reason, len);
	if (err >= 0)
		err = vscratch_create(run, "memory", pp, "a", &m, &ap, reason, len);
	if (err >= 0)
		err = vscratch_create(run, "memory", pp, "b", &m, &bp, reason, len);
	if (err >= 0)
		err = write_pages(run, m, ap, "memory.low", p->low_pages, reason, len);
	if (err >= 0)
		err = start(run, m, ap, p, true, p->pages_a, &wa, fa, reason, len);
	if (err >= 0)
		err = vcg_read_u64(run, m, ap, "memory.current", &cur, reason, len);
	a->base = cur / PG;
	if (err >= 0)
		err = go(run, &wa, a, reason, len);
	if (err >= 0)
		err = start(run, m, bp, p, true, p->pages, &wb, fb, reason, len);
	if (err >= 0)
		err = vcg_read_u64(run, m, bp, "memory.current", &cur, reason, len);
	b->base = cur / PG;
	if (err >= 0)
		err = go(run, &wb, b, reason, len);
	if (err >= 0)
		err = observe_end(run, m, ap, a, 0, reason, len);
	if (err >= 0)
		err = observe_end(run, m, bp, b, 0, reason, len);
	vwork_kill(run, &wa);
	vwork_kill(run, &wb);
	if (fa[0])
		unlink(fa);
	if (fb[0])
		unlink(fb);
	return err;
}

static int run_protect(struct vrun *run, const struct vscenario *s, struct vsample *out,
		       char *reason, size_t len)
{
	const struct vmemhigh_params *p = s->params;
	struct cgctl_memhigh_group g[3] = {
	    {-1, CGCTL_MEMHIGH_NO_LIMITS, 0, 0},
	    {0, CGCTL_MEMHIGH_NO_LIMITS, 0, 0},
	    {0, CGCTL_MEMHIGH_NO_LIMITS, 0, 0},
	};
	struct cgctl_memhigh_workload w[2] = {
	    {.group = 1,
	     .kind = CGCTL_MEMHIGH_FILE,
	     .threads = 1,
	     .size_pages = p->pages_a,
	     .chunk_pages = p->chunk,
	     .stay = true},
	    {.group = 2,
	     .kind = CGCTL_MEMHIGH_FILE,
	     .threads = 1,
	     .size_pages = p->pages,
	     .chunk_pages = p->chunk,
	     .stay = true,
	     .start_ns = 3600ULL * 1000000000},
	};
	struct cgctl_memhigh_group_result r[3];
	struct mh_obs a = {0}, b = {0};
	int err;

	err = protect_observe(run, p, &a, &b, reason, len);
	if (err < 0)
		return err;
	g[0].lim.max = p->max_pages;
	g[1].lim.low = p->low_pages;
	g[1].anon = a.base;
	g[2].anon = b.base;
	err = model(run, p, g, 3, w, 2, 0, 0, r, reason, len);
	for (size_t i = 0; err >= 0 && i < vscenario_nq(s); i++) {
		const char *n = s->q[i].name;

		if (!strcmp(n, "a_current"))
			set(&out[i], (double)a.current, (double)r[1].current);
		else if (!strcmp(n, "b_current"))
			set(&out[i], (double)b.current, (double)r[2].current);
		else if (!strcmp(n, "a_events_low"))
			set(&out[i], (double)a.ev_low, (double)r[1].ev_low);
	}
	return err;
}

static int mh_run_once(struct vrun *run, const struct vscenario *s, struct vsample *out,
		       char *reason, size_t len)
{
	const struct vmemhigh_params *p = s->params;

	if (p->kind == VMH_PROTECT)
		return run_protect(run, s, out, reason, len);
	return run_one(run, s, out, reason, len);
}

const struct vdriver vdriver_memhigh = {
    .applies = mh_applies,
    .run_once = mh_run_once,
};
