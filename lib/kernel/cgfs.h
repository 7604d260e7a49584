/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CGCTL_KERNEL_CGFS_H
#define CGCTL_KERNEL_CGFS_H

#include "ctx.h"

/* Read everything from @fd into a NUL-terminated malloc'ed buffer. */
int cgctl_read_fd(int fd, char **buf, size_t *len);
/*
 * Read a small kernel file from @fd into @buf (NUL-terminated) and close @fd.  Reads
 * until a short read: kernfs and proc seq_files hand out all of show()'s output that
 * fits, regular (fixture) files all there is, so one read(2) in the common case.
 * Returns: the length (size - 1: the buffer filled, the file may go on), -errno.
 */
ssize_t cgctl_read_small(int fd, char *buf, size_t size);
/* cgctl_read_small() leaving @fd open.  Returns: the length, -errno. */
ssize_t cgctl_read_small_open(int fd, char *buf, size_t size);
/*
 * Descriptors closed together: a thread reading thousands of small files keeps each
 * until the batch is full (or closed), then closes each run of consecutive numbers in
 * one close_range() (5.9+; else one close() each): one system call for up to
 * CGCTL_FD_BATCH files instead of one each.
 */
#define CGCTL_FD_BATCH 64
struct cgctl_fd_batch {
	unsigned int n;
	int fd[CGCTL_FD_BATCH];
};
/* Keep @fd in @b to close later; a full @b is closed first. */
void cgctl_fd_batch_add(struct cgctl_fd_batch *b, int fd);
/* Close every descriptor of @b; @b is empty afterwards. */
void cgctl_fd_batch_close(struct cgctl_fd_batch *b);
/* cgctl_cg_read()'s open without its directory fd: @file of the cgroup @path below @m,
 * read-only, in one openat2() where the kernel has it.  Errors are cgctl_cg_open()'s and
 * then openat()'s.  Returns: the fd, -ENOENT (no such cgroup or no such file), -errno. */
int cgctl_cg_open_file(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		       const char *file);
/* Open @m's directory fd now, not at its first use: before threads that unshare their
 * descriptor table.  Returns: 0, -ENODEV (not mounted), -errno. */
int cgctl_mount_open(struct cgctl_ctx *ctx, const struct cgctl_mount *m);
/* The parent directory of the cgroup @path (O_PATH where openat2() is), for reading
 * many of its children: their files are then two components away instead of the whole
 * path.  Returns: the fd, -EINVAL for the root, -ENOENT (no such parent), -errno. */
int cgctl_cg_open_parent(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path);
/* @file of the child @leaf (one component) of @pfd from cgctl_cg_open_parent(), in one
 * openat2() beneath @pfd.  Returns: the fd, -ENOENT, or -EAGAIN (any other failure, or
 * no openat2()): cgctl_cg_open_file() of the whole path then has the exact error. */
int cgctl_cg_open_file_at(int pfd, const char *leaf, const char *file);
/* A file name inside a cgroup directory: no '/', not "." or "..", not empty. */
bool cgctl_valid_filename(const char *name);

/* Tests: resolve cgroup paths by the component walk only (false), or by openat2() where
 * the kernel has it (true, the default). */
void cgctl_cgfs_use_openat2(bool on);

/* Fixture trees only: the error a sibling "FILE.errno" file asks a write of FILE to
 * fail with (0 when none, or on the live system). */
int cgctl_fixture_write_error(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			      const char *path, const char *file);

/*
 * One cgroup of one hierarchy for the lean reads of many cgroups (stat): @path below the
 * mount; @pfd its parent's directory from cgctl_cg_open_parent() and @leaf the last
 * component of @path, or CGCTL_CG_NO_PARENT (every file by the whole path), or
 * CGCTL_CG_GONE (the parent does not exist: every file is -ENOENT, no system call);
 * @closes: the files are closed together there, not each after its read.
 */
struct cgctl_cg_at {
	const char *path;
	const char *leaf;
	int pfd;
	struct cgctl_fd_batch *closes;	/* NULL: each file closed after its read */
};
#define CGCTL_CG_NO_PARENT (-1)
#define CGCTL_CG_GONE (-2)

/* cgctl_memstat_read() leaving out what the caller does not print: with
 * CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT, memsw_failcnt stays 0 (one file less per cgroup). */
#define CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT (1u << 0)
/* CGCTL_MEMSTAT_LEAN: usage, limit and (v1) failcnt only, each file in one openat2()
 * (cgctl_cg_open_file()): 2 or 3 files a cgroup instead of up to 7. */
#define CGCTL_MEMSTAT_LEAN (1u << 1)
int cgctl_memstat_read_flags(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			     const char *path, unsigned int flags,
			     struct cgctl_memstat *st);
/* cgctl_memstat_read_flags() of @cg; with CGCTL_MEMSTAT_LEAN below its parent's fd. */
int cgctl_memstat_read_at(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			  const struct cgctl_cg_at *cg, unsigned int flags,
			  struct cgctl_memstat *st);

/* cgctl_cpubw_read() leaving out what the caller does not print: with CGCTL_CPUBW_LEAN,
 * only cpu.stat and (v1, with @acct) cpuacct.usage, each in one openat2(); quota_us is
 * then UINT64_MAX, period_us, burst_us and throttled_local_ns 0, and present has neither
 * CGCTL_CPUBW_BURST nor CGCTL_CPUBW_LOCAL (none of them read).  Errors as
 * cgctl_cpubw_read()'s: -EOPNOTSUPP for a cgroup without cpu.stat (the root: 0). */
#define CGCTL_CPUBW_LEAN (1u << 0)
int cgctl_cpubw_read_flags(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			   const char *path, const struct cgctl_mount *acct,
			   const char *acct_path, unsigned int flags, struct cgctl_cpubw *bw);
/* cgctl_cpubw_read_flags() of @cg, cpuacct.usage from @acg in @acct (never NULL, the
 * same as @cg when @acct is @m); with CGCTL_CPUBW_LEAN below their parents' fds. */
int cgctl_cpubw_read_at(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			const struct cgctl_cg_at *cg, const struct cgctl_mount *acct,
			const struct cgctl_cg_at *acg, unsigned int flags,
			struct cgctl_cpubw *bw);

#endif
