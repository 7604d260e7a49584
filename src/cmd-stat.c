/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgctl stat [--long] [--tasks] PATH...: memory and CPU-bandwidth figures, the same keys
 * on v1 and v2.  By default the figures only (memory usage, limit, failcnt; CPU
 * usage and cpu.stat's counts), from the fewest files: 2 to 5 a cgroup.  --long adds max
 * usage, memsw/swap, events, quota/period/burst and the states of the cgroup's tasks
 * (cgroupstats on v1, /proc on v2); --tasks the task states and each process's CPU time
 * and delays (taskstats).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgctl.h"
#include "cmd-stat.h"
#include "util/cputhread.h"
#include "kernel/cgfs.h"
#include "kernel/proctree.h"

/* The "memory" object; @full: everything read (--long), else usage, limit, failcnt. */
static void out_memstat(struct out *o, const struct cgctl_memstat *st, bool full)
{
	out_obj_begin(o, "memory");
	if (st->present & CGCTL_MEMSTAT_NO_USAGE)
		out_null(o, "usage_bytes");
	else
		out_bytes(o, "usage_bytes", st->usage);
	out_bytes(o, "limit_bytes", st->limit);
	if (st->present & CGCTL_MEMSTAT_FAILCNT)
		out_u64(o, "failcnt", st->failcnt);
	if (!full) {
		out_obj_end(o);
		return;
	}
	if (st->present & CGCTL_MEMSTAT_PEAK)
		out_bytes(o, "max_usage_bytes", st->peak);
	if (st->present & CGCTL_MEMSTAT_MEMSW) {
		out_bytes(o, "memsw_usage_bytes", st->memsw_usage);
		out_bytes(o, "memsw_limit_bytes", st->memsw_limit);
	}
	if (st->present & CGCTL_MEMSTAT_SWAP) {
		out_bytes(o, "swap_usage_bytes", st->swap_usage);
		out_bytes(o, "swap_limit_bytes", st->swap_limit);
	}
	if (st->present & CGCTL_MEMSTAT_EVENTS) {
		out_u64(o, "events_max", st->events_max);
		out_u64(o, "events_oom", st->events_oom);
		out_u64(o, "events_oom_kill", st->events_oom_kill);
	}
	out_obj_end(o);
}

void cli_out_memstat(struct cli *cli, const struct cgctl_memstat *st)
{
	out_memstat(cli->out, st, true);
}

/* The "cpu" object; @full: with quota, period, burst limit and local throttling. */
static void out_cpubw(struct out *o, const struct cgctl_cpubw *bw, bool full)
{
	const struct cgctl_cpu_stat *s = &bw->stat;

	out_obj_begin(o, "cpu");
	if (s->present & CGCTL_CPU_STAT_USAGE)
		out_usec(o, "usage_usec", s->usage_ns);
	if (full) {
		out_usec(o, "quota_usec",
			 bw->quota_us == UINT64_MAX ? UINT64_MAX : bw->quota_us * 1000);
		if (bw->period_us)
			out_usec(o, "period_usec", bw->period_us * 1000);
		if (bw->present & CGCTL_CPUBW_BURST)
			out_usec(o, "burst_limit_usec", bw->burst_us * 1000);
	}
	if (s->present & CGCTL_CPU_STAT_NR_PERIODS)
		out_u64(o, "nr_periods", s->nr_periods);
	if (s->present & CGCTL_CPU_STAT_NR_THROTTLED)
		out_u64(o, "nr_throttled", s->nr_throttled);
	if (s->present & CGCTL_CPU_STAT_THROTTLED)
		out_usec(o, "throttled_usec", s->throttled_ns);
	if (full && (bw->present & CGCTL_CPUBW_LOCAL))
		out_usec(o, "throttled_local_usec", bw->throttled_local_ns);
	if (s->present & CGCTL_CPU_STAT_NR_BURSTS)
		out_u64(o, "nr_bursts", s->nr_bursts);
	if (s->present & CGCTL_CPU_STAT_BURST)
		out_usec(o, "burst_usec", s->burst_ns);
	out_obj_end(o);
}

void cli_out_cpubw(struct cli *cli, const struct cgctl_cpubw *bw)
{
	out_cpubw(cli->out, bw, true);
}

static int opt_tasks, opt_long;

static const struct poptOption options[] = {
	{ "long", 'l', POPT_ARG_NONE, &opt_long, 0,
	  "everything: also max usage, swap, memory events, quota, period, burst limit and "
	  "task states", NULL },
	{ "tasks", 't', POPT_ARG_NONE, &opt_tasks, 0,
	  "also the task states and each process's CPU time and delays (taskstats)", NULL },
	POPT_TABLEEND
};

/* The hierarchy to count tasks in: cpu's, else memory's. */
static const struct cgctl_mount *task_mount(struct cli *cli, const char *path, char *rel,
					    size_t len)
{
	const struct cgctl_mount *m;

	if (cgctl_mount_find(cli->ctx, "cpu", &m) < 0 &&
	    cgctl_mount_find(cli->ctx, "memory", &m) < 0)
		return NULL;
	return cli_path(cli, m, path, rel, len) ? NULL : m;
}

/* Task states from /proc/TID/stat of the threads listed in @file (v2, or no netlink). */
static int states_from_proc(struct cli *cli, const struct cgctl_mount *m, const char *rel,
			    struct cgctl_cgroupstats *cs)
{
	const char *file = m->version == 2 ? "cgroup.threads" : "tasks";
	char *buf = NULL, *p, *end;
	size_t len;
	int r = cgctl_cg_read(cli->ctx, m, rel, file, &buf, &len);

	if (r < 0)
		return r;
	memset(cs, 0, sizeof(*cs));
	for (p = buf;; p = end) {
		long tid = strtol(p, &end, 10);
		struct cgctl_proc_stat st;

		if (end == p)
			break;
		if (cgctl_proc_stat_read(cli->ctx, (pid_t)tid, &st) < 0)
			continue;	/* exited meanwhile */
		switch (st.state) {
		case 'R': cs->nr_running++; break;
		case 'D': cs->nr_uninterruptible++; break;
		case 'T': case 't': cs->nr_stopped++; break;
		case 'S': case 'I': cs->nr_sleeping++; break;
		default: break;	/* zombies, dead */
		}
	}
	free(buf);
	return 0;
}

/* --tasks: one row per process of @path (cgroup.procs), from taskstats. */
static int emit_processes(struct cli *cli, const char *path)
{
	static bool warned;
	const struct cgctl_mount *m;
	char rel[PATH_MAX], *buf = NULL, *p, *end;
	size_t len;
	int r;

	m = task_mount(cli, path, rel, sizeof(rel));
	if (!m)
		return EXIT_OK;
	r = cgctl_cg_read(cli->ctx, m, rel, "cgroup.procs", &buf, &len);
	if (r < 0)
		return EXIT_OK;	/* the cgroup's error was reported by stat_one */
	for (p = buf;; p = end) {
		long pid = strtol(p, &end, 10);
		struct cgctl_taskstats ts;
		struct cgctl_error e = { 0 };
		/* comm and faults from /proc: a thread group's taskstats
		 * (fill_stats_for_tgid()) sum only delays, CPU times and switches */
		struct cgctl_proc_stat ps;
		bool have_ps;

		if (end == p)
			break;
		r = cgctl_taskstats_get(cli->ctx, (pid_t)pid, true, &ts, &e);
		if (r == -ESRCH)
			continue;	/* exited meanwhile */
		if (r < 0) {
			free(buf);
			return cli_error(cli, path, r, "taskstats of %ld: %s", pid,
					 e.msg[0] ? e.msg : cli_strerror(r));
		}
		if (!warned) {
			struct cgctl_error de = { 0 };

			if (cgctl_delayacct_enabled(cli->ctx, &de) == 0)
				cli_warn(cli, "%s", de.msg[0] ? de.msg : "delay accounting is off: "
					 "delays other than cpu_delay read 0");
			warned = true;
		}
		out_obj_begin(cli->out, NULL);
		out_str(cli->out, "cgroup", path);
		out_i64(cli->out, "pid", pid);
		have_ps = cgctl_proc_stat_read(cli->ctx, (pid_t)pid, &ps) == 0;
		out_str(cli->out, "comm", have_ps ? ps.comm : ts.comm);
		out_usec(cli->out, "cpu_usec", ts.cpu_run_virtual_total_ns);
		out_usec(cli->out, "cpu_delay_usec", ts.cpu_delay_total_ns);
		out_usec(cli->out, "blkio_delay_usec", ts.blkio_delay_total_ns);
		out_usec(cli->out, "swapin_delay_usec", ts.swapin_delay_total_ns);
		out_usec(cli->out, "reclaim_delay_usec", ts.freepages_delay_total_ns);
		out_usec(cli->out, "thrashing_delay_usec", ts.thrashing_delay_total_ns);
		out_usec(cli->out, "compact_delay_usec", ts.compact_delay_total_ns);
		out_usec(cli->out, "wpcopy_delay_usec", ts.wpcopy_delay_total_ns);
		out_usec(cli->out, "irq_delay_usec", ts.irq_delay_total_ns);
		out_u64(cli->out, "voluntary_switches", ts.nvcsw);
		out_u64(cli->out, "involuntary_switches", ts.nivcsw);
		out_u64(cli->out, "minor_faults", have_ps ? ps.minflt : 0);
		out_u64(cli->out, "major_faults", have_ps ? ps.majflt : 0);
		out_obj_end(cli->out);
	}
	free(buf);
	return EXIT_OK;
}

/*
 * One PATH of `cgctl stat`: the figures are gathered first (from two threads when there
 * are many PATHs: the time is the kernel's, one open + read + close per file) and printed
 * afterwards in argument order, so the output is the same either way.
 */
struct stat_row {
	const char *path;
	int rm, rc;			/* cgctl_memstat_read(), cgctl_cpubw_read() */
	int states;			/* -1 none, 0 from /proc, 1 from cgroupstats */
	int fail;			/* exit status of a path error; EXIT_OK */
	struct cgctl_memstat ms;
	struct cgctl_cpubw bw;
	struct cgctl_cgroupstats cs;
};

/* The hierarchies a row reads in: memory, cpu, cpuacct (when not cpu's). */
#define N_HIER 3

/* A row's path in each hierarchy: m[h] (NULL: not mounted, or a cpuacct path that
 * failed: cpu's is used), in @buf one after the other (the few bytes written are then
 * in one page, not one each: a first touch costs ~10 us on a paravirtualised machine);
 * m[2] == m[1] when cpuacct is cpu's hierarchy or our cgroup is the same in both. */
struct row_paths {
	const char *m[N_HIER];
	char buf[N_HIER * PATH_MAX];
};

/* Where the next path of @p goes after @m (the last one written, NULL: none). */
static char *paths_next(struct row_paths *p, const char *m)
{
	return m ? (char *)m + strlen(m) + 1 : p->buf;
}

struct stat_run {
	struct cli *cli;
	const struct cgctl_mount *mm, *cm, *am;	/* memory, cpu, cpuacct (may be cpu's) */
	const char **argv;
	size_t n;
	bool full;				/* --long: everything */
	bool states;				/* --long or --tasks: the task states */
	/* the threaded order */
	char *self[N_HIER];			/* --self: our cgroup in each hierarchy */
	struct stat_row *rows;			/* a ring of STAT_RING chunks */
	size_t next;				/* next unclaimed row (atomic) */
	unsigned char *done;			/* per chunk: read (atomic) */
	size_t emitted;				/* rows printed (atomic, main thread) */
	pthread_mutex_t lock;			/* with @moved: a chunk read or printed */
	pthread_cond_t moved;
	bool own_fds;				/* the second thread is to unshare its
						 * fds (false once it did) */
	int failed, last;			/* failed rows, the last one's status */
};

/* Rows a thread claims at once. */
#define STAT_CHUNK 32
/* Chunks read but not printed yet, at most: the rows live in a ring of that many chunks
 * (a few pages, reused) instead of one row each for thousands of PATHs (fresh pages, a
 * fault of tens of microseconds each on a paravirtualised machine). */
#define STAT_RING 4

/* The paths of @path in each hierarchy (memory's first, then cpu's: the order of the
 * errors).  A cpuacct path error is printed and ignored (cpu's path is used).
 * Returns: EXIT_OK or the exit status of the error printed. */
static int row_prepare(struct stat_run *sr, const char *path, struct row_paths *p)
{
	const struct cgctl_mount *ms[N_HIER] = { sr->mm, sr->cm, sr->am };
	const char *last = NULL;
	int rc;

	for (size_t h = 0; h < N_HIER; h++) {
		char *buf = paths_next(p, last);

		p->m[h] = NULL;
		if (!ms[h] || (h == 2 && !sr->cm))
			continue;
		if (h == 2 && sr->am == sr->cm) {
			p->m[h] = p->m[1];
			continue;
		}
		rc = cli_path(sr->cli, ms[h], path, buf, PATH_MAX);
		if (rc && h < 2)
			return rc;
		p->m[h] = rc ? NULL : buf;
		if (p->m[h])
			last = buf;
	}
	return EXIT_OK;
}

/* row_prepare() in a reading thread: paths_quiet() made sure that nothing fails (what
 * cli_path() does, without its messages).  Returns: 0, -errno. */
static int row_paths(const struct stat_run *sr, const char *path, struct row_paths *p)
{
	const struct cgctl_mount *ms[N_HIER] = { sr->mm, sr->cm, sr->am };
	char joined[PATH_MAX], *buf;
	const char *last = NULL;
	int r;

	for (size_t h = 0; h < N_HIER; h++) {
		const char *in = path;

		p->m[h] = NULL;
		if (!ms[h] || (h == 2 && !sr->cm))
			continue;
		if (h == 2 && (sr->am == sr->cm || !sr->self[2] ||
			       (sr->self[1] && strcmp(sr->self[1], sr->self[2]) == 0))) {
			p->m[h] = p->m[1];	/* the same path as in cpu's hierarchy */
			continue;
		}
		if (sr->self[h]) {
			if ((size_t)snprintf(joined, sizeof(joined), "%s/%s", sr->self[h],
					     path) >= sizeof(joined))
				return -ENAMETOOLONG;
			in = joined;
		}
		buf = paths_next(p, last);
		r = cgctl_path_normalize(in, buf, PATH_MAX);
		if (r < 0)
			return r;
		p->m[h] = last = buf;
	}
	return 0;
}

/* Task states from cgroupstats (v1, live system) or /proc; -1 when neither answers. */
static int row_states(struct cli *cli, const struct cgctl_mount *m, const char *rel,
		      struct cgctl_cgroupstats *cs)
{
	if (m->version == 1 && !cgctl_get_root(cli->ctx)[0] &&
	    cgctl_cgroupstats_get(cli->ctx, m, rel, cs, NULL) == 0)
		return 1;
	return states_from_proc(cli, m, rel, cs) < 0 ? -1 : 0;
}

/*
 * A reading thread's open parent directory in one hierarchy: the lean reads of the
 * children of one cgroup (the usual many PATHs) open their files two components below
 * it instead of by the whole path, and when it does not exist, none of its children is
 * opened at all (cgctl_cg_at: CGCTL_CG_GONE).
 */
struct parent_fd {
	bool open;
	int fd;			/* cgctl_cg_open_parent()'s fd, or CGCTL_CG_GONE */
	size_t len;
	char parent[512];	/* @len bytes, not NUL-terminated; a longer one is not kept
				 * (its rows go by their whole paths) */
};

static void parent_close(struct parent_fd *pf)
{
	if (pf->open && pf->fd >= 0)
		close(pf->fd);
	pf->open = false;
}

/* The length of @path's parent ("/a/b": 2, "/a": 0), or -1 for the root. */
static ssize_t parent_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash - path : -1;
}

/*
 * @path (normalised, in @m) as @cg, by the parent directory in @pf: the one open, or the
 * parent of @path when @next (the next row's path, NULL: none) shares it, so that an
 * open parent serves at least two rows; else by the whole path, as before.
 */
static void row_at(struct stat_run *sr, const struct cgctl_mount *m, struct parent_fd *pf,
		   const char *path, const char *next, struct cgctl_cg_at *cg)
{
	ssize_t len = path ? parent_len(path) : -1;
	int fd;

	*cg = (struct cgctl_cg_at){ .path = path, .pfd = CGCTL_CG_NO_PARENT };
	if (len < 0 || !pf || (size_t)len >= sizeof(pf->parent))
		return;
	if (!pf->open || pf->len != (size_t)len || memcmp(pf->parent, path, len) != 0) {
		if (!next || parent_len(next) != len || memcmp(next, path, len) != 0)
			return;
		fd = cgctl_cg_open_parent(sr->cli->ctx, m, path);
		if (fd < 0 && fd != -ENOENT)
			return;	/* any other error is each row's own, as before */
		parent_close(pf);
		pf->open = true;
		pf->fd = fd < 0 ? CGCTL_CG_GONE : fd;
		pf->len = (size_t)len;
		memcpy(pf->parent, path, len);
	}
	cg->leaf = path + len + 1;
	cg->pfd = pf->fd;
}

/*
 * Read everything @row prints (nothing more) from its paths @p; no output, safe from
 * several threads.  @pf (NULL: none): the thread's parent directories, for the lean
 * reads, @next the paths of the row it reads next (NULL: none), @closes (NULL: none)
 * where it keeps the files it read.
 */
static void row_gather(struct stat_run *sr, struct stat_row *row, const struct row_paths *p,
		       struct parent_fd *pf, const struct row_paths *next,
		       struct cgctl_fd_batch *closes)
{
	/* stat does not print memsw.failcnt */
	const unsigned int mflags = sr->full ? CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT :
					       CGCTL_MEMSTAT_LEAN;
	struct cgctl_cg_at cg[N_HIER];

	if (sr->full)
		pf = NULL;
	row->rm = row->rc = -ENODEV;
	row->states = -1;
	for (size_t h = 0; h < N_HIER; h++) {
		const struct cgctl_mount *ms[N_HIER] = { sr->mm, sr->cm, sr->am };

		if (h == 2 && (sr->am == sr->cm || !p->m[2]))
			/* cpuacct is cpu's hierarchy, or its path failed (cpu's is used, as
			 * cgctl_cpubw_read() with no acct_path) */
			cg[h] = (struct cgctl_cg_at){
				.path = p->m[1], .leaf = sr->am == sr->cm ? cg[1].leaf : NULL,
				.pfd = sr->am == sr->cm ? cg[1].pfd : CGCTL_CG_NO_PARENT,
			};
		else
			row_at(sr, ms[h], pf ? &pf[h] : NULL, p->m[h], next ? next->m[h] : NULL,
			       &cg[h]);
		cg[h].closes = closes;
	}
	if (sr->mm)
		row->rm = cgctl_memstat_read_at(sr->cli->ctx, sr->mm, &cg[0], mflags, &row->ms);
	if (sr->cm)
		row->rc = cgctl_cpubw_read_at(sr->cli->ctx, sr->cm, &cg[1], sr->am, &cg[2],
					      sr->full ? 0 : CGCTL_CPUBW_LEAN, &row->bw);
	if ((row->rm < 0 && row->rc < 0) || !sr->states)
		return;
	/* the hierarchy to count tasks in: cpu's, else memory's */
	row->states = row_states(sr->cli, sr->cm ? sr->cm : sr->mm,
				 sr->cm ? p->m[1] : p->m[0], &row->cs);
}

static void emit_states(struct cli *cli, const struct stat_row *row)
{
	const struct cgctl_cgroupstats *cs = &row->cs;

	if (row->states < 0)
		return;
	out_obj_begin(cli->out, "tasks");
	out_u64(cli->out, "running", cs->nr_running);
	out_u64(cli->out, "sleeping", cs->nr_sleeping);
	out_u64(cli->out, "uninterruptible", cs->nr_uninterruptible);
	out_u64(cli->out, "stopped", cs->nr_stopped);
	if (row->states)
		out_u64(cli->out, "io_wait", cs->nr_io_wait);
	else
		out_null(cli->out, "io_wait");
	out_str(cli->out, "source", row->states ? "cgroupstats" : "proc");
	out_obj_end(cli->out);
}

/* Returns: EXIT_OK or the exit status of the error printed. */
static int row_emit(struct cli *cli, const struct stat_run *sr, const struct stat_row *row)
{
	if (row->fail)
		return row->fail;
	if (row->rm < 0 && row->rc < 0) {
		int r = row->rm == -ENOENT || row->rc == -ENOENT ? -ENOENT : row->rm;

		if (r == -ENOENT)
			return cli_error(cli, row->path, r, "no such cgroup");
		return cli_error(cli, row->path, r, NULL);
	}
	out_obj_begin(cli->out, NULL);
	out_str(cli->out, "path", row->path);
	if (row->rm == 0)
		out_memstat(cli->out, &row->ms, sr->full);
	if (row->rc == 0)
		out_cpubw(cli->out, &row->bw, sr->full);
	emit_states(cli, row);
	out_obj_end(cli->out);
	return EXIT_OK;
}

static void emit_one(struct stat_run *sr, const struct stat_row *row)
{
	int rc = row_emit(sr->cli, sr, row);

	if (rc) {
		sr->failed++;
		sr->last = rc;
	}
}

/* Row @i of the threaded order, in the ring. */
static struct stat_row *row_slot(const struct stat_run *sr, size_t i)
{
	return &sr->rows[i % (STAT_RING * STAT_CHUNK)];
}

/* Tell the other thread that a chunk was read or printed. */
static void moved(struct stat_run *sr)
{
	pthread_mutex_lock(&sr->lock);
	pthread_cond_broadcast(&sr->moved);
	pthread_mutex_unlock(&sr->lock);
}

/* Print the rows of every chunk read, in order, up to the first one not read yet. */
static void emit_ready(struct stat_run *sr)
{
	size_t from = sr->emitted;

	while (sr->emitted < sr->n &&
	       __atomic_load_n(&sr->done[sr->emitted / STAT_CHUNK], __ATOMIC_ACQUIRE)) {
		size_t end = sr->emitted + STAT_CHUNK < sr->n ? sr->emitted + STAT_CHUNK : sr->n;

		for (size_t i = sr->emitted; i < end; i++)
			emit_one(sr, row_slot(sr, i));
		__atomic_store_n(&sr->emitted, end, __ATOMIC_RELEASE);
	}
	if (sr->emitted != from)
		moved(sr);
}

/* Wait until chunk @c has its place in the ring: chunk c - STAT_RING printed.  @emit
 * (the main thread): printing what is read meanwhile, it waits for the other thread to
 * read the first chunk not printed. */
static void ring_wait(struct stat_run *sr, size_t c, bool emit)
{
	size_t e;

	for (;;) {
		if (emit)
			emit_ready(sr);
		pthread_mutex_lock(&sr->lock);
		e = __atomic_load_n(&sr->emitted, __ATOMIC_ACQUIRE);
		if (c < e / STAT_CHUNK + STAT_RING) {
			pthread_mutex_unlock(&sr->lock);
			return;
		}
		if (!emit || !__atomic_load_n(&sr->done[e / STAT_CHUNK], __ATOMIC_ACQUIRE))
			pthread_cond_wait(&sr->moved, &sr->lock);
		pthread_mutex_unlock(&sr->lock);
	}
}

/* The main thread, its reading done: print the other thread's chunks as they come. */
static void emit_rest(struct stat_run *sr)
{
	for (;;) {
		emit_ready(sr);
		pthread_mutex_lock(&sr->lock);
		if (sr->emitted == sr->n) {
			pthread_mutex_unlock(&sr->lock);
			return;
		}
		if (!__atomic_load_n(&sr->done[sr->emitted / STAT_CHUNK], __ATOMIC_ACQUIRE))
			pthread_cond_wait(&sr->moved, &sr->lock);
		pthread_mutex_unlock(&sr->lock);
	}
}

/* Read chunks of rows until none is left; @emit (the main thread): print what is ready
 * between chunks, so that the output is built while the other thread still reads. */
static void gather_chunks(struct stat_run *sr, bool emit)
{
	struct parent_fd pf[N_HIER] = { { 0 } };
	struct cgctl_fd_batch closes = { 0 };
	struct row_paths paths[2];	/* this row's and the next one's */
	size_t i, end;
	int r, rn;

	for (;;) {
		i = __atomic_fetch_add(&sr->next, STAT_CHUNK, __ATOMIC_RELAXED);
		if (i >= sr->n)
			break;
		end = i + STAT_CHUNK < sr->n ? i + STAT_CHUNK : sr->n;
		ring_wait(sr, i / STAT_CHUNK, emit);
		r = row_paths(sr, sr->argv[i], &paths[i & 1]);
		for (size_t k = i; k < end; k++, r = rn) {
			struct stat_row *row = row_slot(sr, k);
			const struct row_paths *next = NULL;

			rn = k + 1 < end ? row_paths(sr, sr->argv[k + 1], &paths[(k + 1) & 1]) : 0;
			if (k + 1 < end && rn == 0)
				next = &paths[(k + 1) & 1];
			row->path = sr->argv[k];
			row->fail = EXIT_OK;
			if (r < 0) {	/* (not after paths_quiet()) */
				row->rm = row->rc = r;
				continue;
			}
			row_gather(sr, row, &paths[k & 1], pf, next, sr->full ? NULL : &closes);
		}
		__atomic_store_n(&sr->done[i / STAT_CHUNK], 1, __ATOMIC_RELEASE);
		moved(sr);
		if (emit)
			emit_ready(sr);
	}
	cgctl_fd_batch_close(&closes);
	for (size_t h = 0; h < N_HIER; h++)
		parent_close(&pf[h]);
}

static void *gather_thread(void *arg)
{
	struct stat_run *sr = arg;

	/* a descriptor table of its own: no lock shared with the main thread for each
	 * open and close, and the files it keeps to close together are consecutive; the
	 * main thread opens nothing until then (its files would be copied here) */
	if (sr->own_fds) {
		(void)unshare(CLONE_FILES);
		pthread_mutex_lock(&sr->lock);
		sr->own_fds = false;
		pthread_cond_broadcast(&sr->moved);
		pthread_mutex_unlock(&sr->lock);
	}
	gather_chunks(sr, false);
	return NULL;
}

/* Would every cli_path() of @sr succeed?  Checked without printing, so that the
 * parallel order (all paths, then all reads, then all output) prints no error; with
 * --self, our cgroup in each hierarchy is kept in sr->self for row_paths(). */
static bool paths_quiet(struct stat_run *sr, int argc, const char **argv)
{
	const struct cgctl_mount *ms[N_HIER] = { sr->mm, sr->cm, sr->am };
	char joined[PATH_MAX], norm[PATH_MAX];

	for (size_t k = 0; k < N_HIER; k++) {
		bool ok = true;

		if (!ms[k] || !sr->cli->self)
			continue;	/* run() normalised every PATH already */
		if (cgctl_pid_cgroup(sr->cli->ctx, 0, ms[k], &sr->self[k]) < 0)
			return false;
		for (int i = 0; i < argc && ok; i++) {
			int n = snprintf(joined, sizeof(joined), "%s/%s", sr->self[k], argv[i]);

			ok = n >= 0 && (size_t)n < sizeof(joined) &&
			     cgctl_path_normalize(joined, norm, sizeof(norm)) == 0;
		}
		if (!ok)
			return false;
	}
	return true;
}

/*
 * May the second thread read with a descriptor table of its own?  Only when it opens
 * and closes nothing the main thread uses afterwards: every hierarchy's directory fd
 * (kept in the context) is opened before, and the lean view asks no netlink socket.
 */
static bool own_fds(struct stat_run *sr)
{
	const struct cgctl_mount *ms[N_HIER] = { sr->mm, sr->cm, sr->am };

	if (sr->states || sr->full)
		return false;
	for (size_t k = 0; k < N_HIER; k++)
		if (ms[k] && cgctl_mount_open(sr->cli->ctx, ms[k]) < 0)
			return false;
	return true;
}

/* Read and print every row: from this thread and one more (if it starts).
 * Returns: 0, -ENOMEM. */
static int gather_parallel(struct stat_run *sr)
{
	size_t ring = sr->n < STAT_RING * STAT_CHUNK ? sr->n : STAT_RING * STAT_CHUNK;
	pthread_t t;
	bool two;

	sr->rows = calloc(ring, sizeof(*sr->rows));
	sr->done = calloc(sr->n / STAT_CHUNK + 1, 1);
	if (!sr->rows || !sr->done)
		return -ENOMEM;
	pthread_mutex_init(&sr->lock, NULL);
	pthread_cond_init(&sr->moved, NULL);
	sr->own_fds = own_fds(sr);
	two = cputhread_create(&t, gather_thread, sr) == 0;
	pthread_mutex_lock(&sr->lock);
	while (two && sr->own_fds)	/* until the other thread has its table */
		pthread_cond_wait(&sr->moved, &sr->lock);
	pthread_mutex_unlock(&sr->lock);

	gather_chunks(sr, true);
	emit_rest(sr);
	if (two)
		pthread_join(t, NULL);
	pthread_cond_destroy(&sr->moved);
	pthread_mutex_destroy(&sr->lock);
	return 0;
}

static bool want_threads(struct stat_run *sr, int argc, const char **argv)
{
	/* -v logs from the library: keep its lines in order */
	return argc >= 2 * STAT_CHUNK && !sr->cli->verbose &&
	       sysconf(_SC_NPROCESSORS_ONLN) > 1 && paths_quiet(sr, argc, argv);
}

static void stat_run_free(struct stat_run *sr)
{
	for (size_t k = 0; k < N_HIER; k++)
		free(sr->self[k]);
	free(sr->done);
	free(sr->rows);
}

/* Returns: the number of failed PATHs; *last the exit status of the last failure. */
static int stat_all(struct cli *cli, int argc, const char **argv, int *last)
{
	struct stat_run sr = {
		.cli = cli, .argv = argv, .n = (size_t)argc, .full = opt_long,
		.states = opt_long || opt_tasks,
	};

	if (cgctl_mount_find(cli->ctx, "memory", &sr.mm) < 0)
		sr.mm = NULL;
	if (cgctl_mount_find(cli->ctx, "cpu", &sr.cm) < 0)
		sr.cm = NULL;
	else if (cgctl_mount_find(cli->ctx, "cpuacct", &sr.am) < 0)
		sr.am = NULL;	/* (co-mounted: sr.am == sr.cm, usage from the cpu directory) */
	if (want_threads(&sr, argc, argv)) {
		if (gather_parallel(&sr) < 0) {
			stat_run_free(&sr);
			*last = cli_error(cli, NULL, -ENOMEM, NULL);
			return argc;
		}
	} else {
		struct row_paths p;
		struct stat_row row;

		for (int i = 0; i < argc; i++) {
			row.path = argv[i];
			row.fail = row_prepare(&sr, argv[i], &p);
			if (!row.fail)
				row_gather(&sr, &row, &p, NULL, NULL, NULL);
			emit_one(&sr, &row);
		}
	}
	if (sr.failed)
		*last = sr.last;
	stat_run_free(&sr);
	return sr.failed;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	int i, rc, failed = 0, last = EXIT_OK;

	for (i = 0; i < argc; i++) {
		char norm[PATH_MAX];

		if (cgctl_path_normalize(argv[i], norm, sizeof(norm)) < 0)
			return cli_usage(cli, "%s: invalid cgroup path ('..' and control "
					      "characters are refused)", argv[i]);
	}
	if (opt_tasks && cgctl_get_root(cli->ctx)[0])
		return cli_error(cli, NULL, -EOPNOTSUPP, "--tasks reads the running kernel's "
				 "taskstats: not with --root");
	out_list_begin(cli->out, "cgroups");
	failed = stat_all(cli, argc, argv, &last);
	out_list_end(cli->out);
	if (opt_tasks) {
		out_list_begin(cli->out, "processes");
		for (i = 0; i < argc; i++) {
			rc = emit_processes(cli, argv[i]);
			if (rc) {
				failed++;
				last = rc;
				break;
			}
		}
		out_list_end(cli->out);
	}
	if (failed && failed < argc)
		return EXIT_PARTIAL;
	return last;
}

const struct cgctl_cmd cmd_stat = {
	.name = "stat",
	.args = "PATH...",
	.summary = "memory and CPU figures of cgroups (v1 and v2 alike)",
	.options = options,
	.run = run,
	.min_args = 1,
	.max_args = -1,
};
