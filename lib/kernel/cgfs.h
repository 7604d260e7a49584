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
/* cgctl_cg_read()'s open without its directory fd: @file of the cgroup @path below @m,
 * read-only, in one openat2() where the kernel has it.  Errors are cgctl_cg_open()'s and
 * then openat()'s.  Returns: the fd, -ENOENT (no such cgroup or no such file), -errno. */
int cgctl_cg_open_file(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		       const char *file);
/* @file in the cgroup directory @dfd (from cgctl_cg_open()) with @flags, by the rules of
 * every cgroupfs access: no symlink, no mount crossed (a file bind-mounted over it is
 * refused before it is opened for real: O_TRUNC acts only then).
 * Returns: the fd, -EINVAL (bad file name), -ELOOP, -EXDEV, -ENOENT, -errno. */
int cgctl_cg_open_in(int dfd, const char *file, int flags);
/* One value file of the cgroup directory @dfd, opened as cgctl_cg_open_in() does:
 * "max", "-1" and PAGE_COUNTER_MAX read as UINT64_MAX (cgctl_parse_mem_limit()).
 * Returns: 0, -ENOENT (absent), -EOVERFLOW (longer than a value), -EINVAL, -errno. */
int cgctl_cg_read_u64_in(int dfd, const char *file, uint64_t *v);
/* @file of the cgroup @path below @m opened for appending (cgroup.procs: one PID per
 * write), by the same rules as every cgroupfs access: no symlink, no mount crossed (a
 * bind mount over the cgroup or the file is refused before the write).
 * Returns: the fd, -EINVAL (bad file name), -ELOOP, -EXDEV, -ENOENT, -errno. */
int cgctl_cg_open_append(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			 const char *path, const char *file);
/* A file name inside a cgroup directory: no '/', not "." or "..", not empty. */
bool cgctl_valid_filename(const char *name);

/* Tests: resolve cgroup paths by the component walk only (false), or by openat2() where
 * the kernel has it (true, the default). */
void cgctl_cgfs_use_openat2(bool on);

/* Fixture trees only: the error a sibling "FILE.errno" file asks a write of FILE to
 * fail with (0 when none, or on the live system). */
int cgctl_fixture_write_error(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			      const char *path, const char *file);

#endif
