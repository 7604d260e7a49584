/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One normalised view of a cgroup's memory and CPU-bandwidth figures for v1 and v2.
 * The cgroup directory is opened once and every file is read with openat() into a
 * stack buffer: stat over thousands of cgroups costs three syscalls per file (open, one
 * read, close).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/cgfs.h"

/* Returns: bytes read (NUL-terminated), -ENOENT if absent, -errno. */
static ssize_t read_at(int dfd, const char *file, char *buf, size_t size)
{
	int fd = openat(dfd, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : cgctl_read_small(fd, buf, size);
}


/* The lean reads: each file in one openat2() below the mount (cgctl_cg_open_file()), no
 * directory fd of the cgroup's own. */
static ssize_t read_cg(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		       const char *file, char *buf, size_t size)
{
	int fd = cgctl_cg_open_file(ctx, m, path, file);

	return fd < 0 ? fd : cgctl_read_small(fd, buf, size);
}

static int read_limit_cg(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			 const char *path, const char *file, uint64_t *v)
{
	char buf[64];
	ssize_t n = read_cg(ctx, m, path, file, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return cgctl_parse_mem_limit(buf, (size_t)n, v);
}

/* A first file of @path is missing: the cgroup's own error (no such cgroup, a symlink,
 * ...), else 0 (it exists). */
static int cg_error(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path)
{
	int dfd = cgctl_cg_open(ctx, m, path);

	if (dfd < 0)
		return dfd;
	close(dfd);
	return 0;
}

/* usage, limit and (v1) failcnt: what `cgctl stat` prints by default. */
static int memstat_lean(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			const char *path, struct cgctl_memstat *st)
{
	bool v2 = m->version == 2;
	int r;

	st->version = m->version;
	r = read_limit_cg(ctx, m, path, v2 ? "memory.current" : "memory.usage_in_bytes",
			  &st->usage);
	if (r == 0)
		r = read_limit_cg(ctx, m, path, v2 ? "memory.max" : "memory.limit_in_bytes",
				  &st->limit);
	if (r == -ENOENT) {
		r = cg_error(ctx, m, path);
		if (r < 0)
			return r;
		if (!(v2 && strcmp(path, "/") == 0))
			return -EOPNOTSUPP;	/* not with this controller */
		/* the v2 root has neither file: report it unlimited, usage unknown */
		st->limit = UINT64_MAX;
		st->usage = 0;
		st->present |= CGCTL_MEMSTAT_NO_USAGE;
		return 0;
	}
	if (r == 0 && !v2 &&
	    read_limit_cg(ctx, m, path, "memory.failcnt", &st->failcnt) == 0)
		st->present |= CGCTL_MEMSTAT_FAILCNT;
	return r;
}

static void memstat_v1(int dfd, unsigned int flags, struct cgctl_memstat *st)
{
	if (cgctl_cg_read_u64_in(dfd, "memory.failcnt", &st->failcnt) == 0)
		st->present |= CGCTL_MEMSTAT_FAILCNT;
	if (cgctl_cg_read_u64_in(dfd, "memory.max_usage_in_bytes", &st->peak) == 0)
		st->present |= CGCTL_MEMSTAT_PEAK;
	if (cgctl_cg_read_u64_in(dfd, "memory.memsw.usage_in_bytes", &st->memsw_usage) == 0 &&
	    cgctl_cg_read_u64_in(dfd, "memory.memsw.limit_in_bytes", &st->memsw_limit) == 0) {
		if (!(flags & CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT))
			cgctl_cg_read_u64_in(dfd, "memory.memsw.failcnt", &st->memsw_failcnt);
		if (!(flags & CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT) &&
		    cgctl_cg_read_u64_in(dfd, "memory.memsw.max_usage_in_bytes",
					 &st->memsw_peak) == 0)
			st->present |= CGCTL_MEMSTAT_MEMSW_PEAK;
		st->present |= CGCTL_MEMSTAT_MEMSW;
	}
}

static void memstat_v2(int dfd, struct cgctl_memstat *st)
{
	char buf[1024];
	ssize_t n;

	if (cgctl_cg_read_u64_in(dfd, "memory.peak", &st->peak) == 0)
		st->present |= CGCTL_MEMSTAT_PEAK;
	if (cgctl_cg_read_u64_in(dfd, "memory.swap.current", &st->swap_usage) == 0 &&
	    cgctl_cg_read_u64_in(dfd, "memory.swap.max", &st->swap_limit) == 0)
		st->present |= CGCTL_MEMSTAT_SWAP;
	n = read_at(dfd, "memory.events", buf, sizeof(buf));
	if (n >= 0) {
		cgctl_parse_keyed_u64(buf, (size_t)n, "max", &st->events_max);
		cgctl_parse_keyed_u64(buf, (size_t)n, "oom", &st->events_oom);
		cgctl_parse_keyed_u64(buf, (size_t)n, "oom_kill", &st->events_oom_kill);
		cgctl_parse_keyed_u64(buf, (size_t)n, "low", &st->events_low);
		cgctl_parse_keyed_u64(buf, (size_t)n, "high", &st->events_high);
		st->present |= CGCTL_MEMSTAT_EVENTS;
	}
	if (cgctl_cg_read_u64_in(dfd, "memory.high", &st->high) == 0)
		st->present |= CGCTL_MEMSTAT_HIGH;
	/* absent when the kernel runs without PSI (psi=0, CONFIG_PSI=n) */
	n = read_at(dfd, "memory.pressure", buf, sizeof(buf));
	if (n >= 0 && cgctl_psi_parse(buf, (size_t)n, &st->pressure) == 0)
		st->present |= CGCTL_MEMSTAT_PRESSURE;
}

int cgctl_memstat_read_flags(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
					  const char *path, unsigned int flags,
					  struct cgctl_memstat *st)
{
	int dfd, r;
	bool v2;

	if (!m || !st)
		return -EINVAL;
	v2 = m->version == 2;
	memset(st, 0, sizeof(*st));
	if (flags & CGCTL_MEMSTAT_LEAN)
		return memstat_lean(ctx, m, path, st);
	dfd = cgctl_cg_open(ctx, m, path);
	if (dfd < 0)
		return dfd;
	st->version = m->version;
	r = cgctl_cg_read_u64_in(dfd, v2 ? "memory.current" : "memory.usage_in_bytes", &st->usage);
	if (r == 0)
		r = cgctl_cg_read_u64_in(dfd, v2 ? "memory.max" : "memory.limit_in_bytes", &st->limit);
	if (r == -ENOENT && v2 && strcmp(path, "/") == 0) {
		/* the v2 root has neither file: report it unlimited, usage unknown */
		st->limit = UINT64_MAX;
		st->usage = 0;
		st->present |= CGCTL_MEMSTAT_NO_USAGE;
		r = 0;
	} else if (r == -ENOENT) {
		r = -EOPNOTSUPP;	/* directory exists but not with this controller */
	}
	if (r == 0) {
		if (v2)
			memstat_v2(dfd, st);
		else
			memstat_v1(dfd, flags, st);
	}
	close(dfd);
	return r;
}

int cgctl_memstat_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				    const char *path, struct cgctl_memstat *st)
{
	return cgctl_memstat_read_flags(ctx, m, path, 0, st);
}

static int cpu_limits(int dfd, int version, struct cgctl_cpubw *bw)
{
	char buf[128];
	ssize_t n;
	int r;

	if (version == 2) {
		n = read_at(dfd, "cpu.max", buf, sizeof(buf));
		if (n < 0)
			return n == -ENOENT ? -EOPNOTSUPP : (int)n;
		r = cgctl_parse_cpu_max(buf, (size_t)n, &bw->quota_us, &bw->period_us);
		if (r < 0)
			return r;
		if (cgctl_cg_read_u64_in(dfd, "cpu.max.burst", &bw->burst_us) == 0)
			bw->present |= CGCTL_CPUBW_BURST;
		return 0;
	}
	n = read_at(dfd, "cpu.cfs_quota_us", buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT ? -EOPNOTSUPP : (int)n;
	r = cgctl_parse_cfs_quota(buf, (size_t)n, &bw->quota_us);
	if (r == 0)
		r = cgctl_cg_read_u64_in(dfd, "cpu.cfs_period_us", &bw->period_us);
	if (r == 0 && cgctl_cg_read_u64_in(dfd, "cpu.cfs_burst_us", &bw->burst_us) == 0)
		bw->present |= CGCTL_CPUBW_BURST;
	return r;
}

static void cpu_usage_acct(struct cgctl_ctx *ctx, const struct cgctl_mount *acct,
			   const char *path, struct cgctl_cpubw *bw)
{
	char buf[64];
	ssize_t n;
	int dfd = cgctl_cg_open(ctx, acct, path);

	if (dfd < 0)
		return;
	n = read_at(dfd, "cpuacct.usage", buf, sizeof(buf));
	if (n >= 0)
		cgctl_parse_cpuacct_usage(buf, (size_t)n, &bw->stat);
	close(dfd);
}

/* cpu.stat and (v1) cpuacct.usage (@acg in @acct): what `cgctl stat` prints by default. */
static int cpubw_lean(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		      const struct cgctl_mount *acct, const char *acct_path,
		      struct cgctl_cpubw *bw)
{
	char buf[1024];
	ssize_t n;
	int r;

	bw->version = m->version;
	bw->quota_us = UINT64_MAX;	/* not read */
	n = read_cg(ctx, m, path, "cpu.stat", buf, sizeof(buf));
	if (n == -ENOENT) {
		r = cg_error(ctx, m, path);
		if (r < 0)
			return r;
		/* as cgctl_cpubw_read(): the root reads no limit, anything else needs one */
		return strcmp(path, "/") == 0 ? 0 : -EOPNOTSUPP;
	}
	if (n < 0)
		return (int)n;
	r = cgctl_parse_cpu_stat(buf, (size_t)n, m->version, &bw->stat);
	if (r == 0 && acct && m->version == 1) {
		n = read_cg(ctx, acct, acct_path, "cpuacct.usage", buf, sizeof(buf));
		if (n >= 0)
			cgctl_parse_cpuacct_usage(buf, (size_t)n, &bw->stat);
	}
	return r;
}

int cgctl_cpubw_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				  const char *path, const struct cgctl_mount *acct,
				  const char *acct_path, struct cgctl_cpubw *bw)
{
	return cgctl_cpubw_read_flags(ctx, m, path, acct, acct_path, 0, bw);
}

int cgctl_cpubw_read_flags(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			   const char *path, const struct cgctl_mount *acct,
			   const char *acct_path, unsigned int flags,
			   struct cgctl_cpubw *bw)
{
	int dfd, r;
	char buf[1024];
	ssize_t n;

	if (!bw)
		return -EINVAL;
	memset(bw, 0, sizeof(*bw));
	if (flags & CGCTL_CPUBW_LEAN)
		return cpubw_lean(ctx, m, path, acct, acct_path ? acct_path : path, bw);
	dfd = cgctl_cg_open(ctx, m, path);
	if (dfd < 0)
		return dfd;
	bw->version = m->version;
	r = strcmp(path, "/") == 0 ? 0 : cpu_limits(dfd, m->version, bw);
	if (strcmp(path, "/") == 0)
		bw->quota_us = UINT64_MAX;
	n = r == 0 ? read_at(dfd, "cpu.stat", buf, sizeof(buf)) : -ENOENT;
	if (n >= 0)
		r = cgctl_parse_cpu_stat(buf, (size_t)n, m->version, &bw->stat);
	/* cpu.stat.local (6.6+) on both versions: kernel/sched/core.c (v6.6)
	 * cpu_local_stat_show() prints v2's "throttled_usec" in µs, the legacy
	 * cpu_cfs_local_stat_show() v1's "throttled_time" in ns (as bw show reads it) */
	if (r == 0) {
		n = read_at(dfd, "cpu.stat.local", buf, sizeof(buf));
		if (n >= 0) {
			uint64_t v;

			if (cgctl_parse_keyed_u64(buf, (size_t)n, m->version == 2 ?
						  "throttled_usec" : "throttled_time", &v) == 0) {
				bw->throttled_local_ns = m->version == 2 ? v * 1000 : v;
				bw->present |= CGCTL_CPUBW_LOCAL;
			}
		}
	}
	close(dfd);
	if (r == 0 && acct && m->version == 1)
		cpu_usage_acct(ctx, acct, acct_path ? acct_path : path, bw);
	return r;
}
