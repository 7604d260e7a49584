/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgroupfs access.  Every cgroup path is resolved below the hierarchy's directory fd
 * after ".." has been refused: in one openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS|
 * RESOLVE_NO_XDEV) where the kernel has it, else one component at a time with
 * O_NOFOLLOW|O_DIRECTORY (the util-linux ul_path approach) and a mount check per
 * component, so no path can leave the mount.  Kernel errnos are returned unchanged.
 *
 * Confinement (issue 15):
 * - The hierarchy's directory itself is opened beneath the root prefix by the same
 *   rules (no symlink, no "..", no mount crossed), so a --root map cannot name a
 *   directory outside the tree.  On the live system it must be a cgroup filesystem
 *   (fstatfs(): CGROUP_SUPER_MAGIC or CGROUP2_SUPER_MAGIC), else -ENODEV.  Fixture
 *   trees under a root prefix are plain directories: there the magic is not checked;
 *   what holds them below the root is the resolution rules alone.
 * - Nothing below the hierarchy's fd may be on another mount: a bind mount over a
 *   cgroup directory or file is refused with -EXDEV, read or written.  As every
 *   directory is then on the very mount whose magic was checked, each open directory
 *   is on cgroupfs without a statfs per open.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/cgfs.h"
#include "kernel/hier.h"

#ifndef SYS_openat2
#define SYS_openat2 437	/* the same number on every architecture */
#endif

CGCTL_EXPORT int cgctl_mounts(struct cgctl_ctx *ctx, const struct cgctl_mount **ret)
{
	int r;

	if (!ctx || !ret)
		return -EINVAL;
	r = cgctl_hier_load(ctx);
	if (r < 0)
		return r;
	*ret = ctx->mounts;
	return (int)ctx->n_mounts;
}

CGCTL_EXPORT bool cgctl_mount_has(const struct cgctl_mount *m, const char *controller)
{
	size_t n;
	const char *p;

	if (!m || !controller)
		return false;
	n = strlen(controller);
	p = m->controllers;
	while (p && *p) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == n && strncmp(p, controller, n) == 0)
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

CGCTL_EXPORT int cgctl_mount_find(struct cgctl_ctx *ctx, const char *controller,
				  const struct cgctl_mount **ret)
{
	size_t i;
	int r;

	if (!ctx || !ret)
		return -EINVAL;
	r = cgctl_hier_load(ctx);
	if (r < 0)
		return r;
	for (int pass = 1; pass <= 2; pass++)
		for (i = 0; i < ctx->n_mounts; i++) {
			const struct cgctl_mount *m = &ctx->mounts[i];

			if (m->version != pass)
				continue;
			if (controller ? cgctl_mount_has(m, controller) : m->version == 2) {
				*ret = m;
				return 0;
			}
		}
	return -ENODEV;
}

/* Index of @m in ctx->mounts, or -1 for a pointer that is not one of ours. */
static ssize_t mount_index(const struct cgctl_ctx *ctx, const struct cgctl_mount *m)
{
	if (!ctx->n_mounts || m < ctx->mounts || m >= ctx->mounts + ctx->n_mounts)
		return -1;
	return m - ctx->mounts;
}

int cgctl_open_sys(struct cgctl_ctx *ctx, const char *abspath, int flags)
{
	char path[PATH_MAX];
	int fd;

	if (!ctx || !abspath || abspath[0] != '/')
		return -EINVAL;
	if ((size_t)snprintf(path, sizeof(path), "%s%s", ctx->root, abspath) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

ssize_t cgctl_read_small_open(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t k;

	while (n < size - 1) {
		k = read(fd, buf + n, size - 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		n += (size_t)k;
		if (n < size - 1)
			break;	/* a short read is the end */
	}
	buf[n] = '\0';
	return (ssize_t)n;
}

ssize_t cgctl_read_small(int fd, char *buf, size_t size)
{
	ssize_t n = cgctl_read_small_open(fd, buf, size);

	close(fd);
	return n;
}

int cgctl_read_fd(int fd, char **buf, size_t *len)
{
	size_t size = 4096, n = 0;
	char *b = malloc(size), *nb;
	ssize_t k;

	if (!b)
		return -ENOMEM;
	for (;;) {
		if (n + 1 >= size) {
			nb = realloc(b, size * 2);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			size *= 2;
		}
		k = read(fd, b + n, size - n - 1);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			k = -errno;
			free(b);
			return (int)k;
		}
		if (k == 0)
			break;
		n += (size_t)k;
	}
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

CGCTL_EXPORT int cgctl_read_sys(struct cgctl_ctx *ctx, const char *abspath, char **buf,
				size_t *len)
{
	int fd, r;

	if (!buf)
		return -EINVAL;
	fd = cgctl_open_sys(ctx, abspath, O_RDONLY);
	if (fd < 0)
		return fd;
	r = cgctl_read_fd(fd, buf, len);
	close(fd);
	return r;
}

static int open_hier_dir(struct cgctl_ctx *ctx, const struct cgctl_mount *m);

/* The hierarchy's directory fd, opened on first use; two threads may race to open it
 * (stat): one fd wins, the other is closed. */
static int mount_fd(struct cgctl_ctx *ctx, const struct cgctl_mount *m)
{
	ssize_t i = ctx && m ? mount_index(ctx, m) : -1;
	int fd, cur;

	if (i < 0)
		return -EINVAL;
	cur = __atomic_load_n(&ctx->mount_fds[i], __ATOMIC_ACQUIRE);
	if (cur >= 0)
		return cur;
	fd = open_hier_dir(ctx, m);
	if (fd < 0)
		return fd == -ENOENT ? -ENODEV : fd;
	if (!__atomic_compare_exchange_n(&ctx->mount_fds[i], &cur, fd, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		close(fd);
		return cur;
	}
	return fd;
}

CGCTL_EXPORT int cgctl_path_normalize(const char *in, char *out, size_t len)
{
	const char *p = in;
	size_t o = 0;

	if (!in || len < 2)
		return -EINVAL;
	for (const char *c = in; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return -EINVAL;
	while (*p) {
		const char *e;
		size_t l;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		e = strchr(p, '/');
		l = e ? (size_t)(e - p) : strlen(p);
		if (l == 2 && p[0] == '.' && p[1] == '.')
			return -EINVAL;
		if (!(l == 1 && p[0] == '.')) {
			if (l > NAME_MAX || o + l + 2 > len)
				return -ENAMETOOLONG;
			out[o++] = '/';
			memcpy(out + o, p, l);
			o += l;
		}
		p += l;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return 0;
}

bool cgctl_valid_filename(const char *name)
{
	return name && *name && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

/* The mount of @fd: its mount id (statx, 5.8+), else its device, in *@id.
 * Returns: 0, -errno. */
static int mount_id_of(int fd, uint64_t *id)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_MNT_ID, &stx) < 0)
		return -errno;
	if (stx.stx_mask & STATX_MNT_ID)
		*id = stx.stx_mnt_id;
	else	/* a bind mount of the same filesystem goes unseen: openat2() sees it */
		*id = ((uint64_t)stx.stx_dev_major << 32) | stx.stx_dev_minor;
	return 0;
}

/* Is @fd on @dfd's mount?  Returns: 0 yes, -EXDEV no, -errno. */
static int same_mount(int dfd, int fd)
{
	uint64_t a, b;
	int r = mount_id_of(dfd, &a);

	if (r == 0)
		r = mount_id_of(fd, &b);
	return r < 0 ? r : a == b ? 0 : -EXDEV;
}

/* The component walk: every component with O_NOFOLLOW|O_DIRECTORY below @mfd, on
 * @mfd's mount.  Returns: the directory fd, -ELOOP for a symlinked component, -EXDEV for
 * a mount crossed, -errno. */
static int cg_walk(int mfd, char *norm)
{
	char *p, *save = NULL;
	int fd, r;

	fd = openat(mfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (p = strtok_r(norm, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		int nfd = openat(fd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;

		r = -errno;
		/* O_DIRECTORY reports a symlink as ENOTDIR: say what it is */
		if (nfd < 0 && r == -ENOTDIR && fstatat(fd, p, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode))
			r = -ELOOP;
		if (nfd >= 0) {
			r = same_mount(fd, nfd);
			if (r < 0) {
				close(nfd);
				nfd = -1;
			}
		}
		close(fd);
		if (nfd < 0)
			return r;
		fd = nfd;
	}
	return fd;
}

/* 0 unknown, 1 openat2() works, -1 the kernel (or a seccomp filter) lacks it; atomic:
 * stat reads cgroups from two threads */
static int have_openat2;

/*
 * The whole walk in one openat2() (5.6+): beneath @mfd, no symlink anywhere, no magic
 * link, no mount crossed, "." and ".." already gone from @rel.  Returns: the fd, -ENOENT, or -EAGAIN when
 * the caller must walk: any other failure is re-done by cg_walk() (and openat()) so that
 * every error (ELOOP, ENOTDIR, EACCES, ...) is exactly the walk's.
 */
static int openat2_beneath(int mfd, const char *rel, uint64_t flags)
{
	struct open_how how = {
		.flags = flags,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	int fd, e;

	int have = __atomic_load_n(&have_openat2, __ATOMIC_RELAXED);

	if (have < 0)
		return -EAGAIN;
	fd = (int)syscall(SYS_openat2, mfd, rel, &how, sizeof(how));
	if (fd >= 0) {
		if (!have)
			__atomic_store_n(&have_openat2, 1, __ATOMIC_RELAXED);
		return fd;
	}
	e = errno;
	/* ENOSYS: old kernel; EPERM from seccomp is only believed before a success */
	if (e == ENOSYS || (e == EPERM && have == 0))
		__atomic_store_n(&have_openat2, -1, __ATOMIC_RELAXED);
	return e == ENOENT ? -ENOENT : -EAGAIN;
}

static int cg_openat2(int mfd, const char *rel)
{
	return openat2_beneath(mfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* A file below @mfd in one openat2() (RESOLVE_NO_SYMLINKS has O_NOFOLLOW's effect on the
 * last component): the fd, -ENOENT, or -EAGAIN (see above). */
static int cg_openat2_file(int mfd, const char *rel)
{
	return openat2_beneath(mfd, rel, O_RDONLY | O_CLOEXEC);
}

void cgctl_cgfs_use_openat2(bool on)
{
	__atomic_store_n(&have_openat2, on ? 0 : -1, __ATOMIC_RELAXED);
}

/*
 * The hierarchy's directory: beneath the root prefix by the rules of a cgroup path (a
 * --root map naming "/../x" or a symlinked directory does not escape), and on the live
 * system a cgroup filesystem.  Returns: the fd, -EINVAL (a path with ".."), -ELOOP,
 * -EXDEV, -ENODEV (not cgroupfs), -errno.
 */
static int open_hier_dir(struct cgctl_ctx *ctx, const struct cgctl_mount *m)
{
	char norm[PATH_MAX];
	struct statfs sf;
	int rfd, fd, r;

	if (!*ctx->root) {
		fd = cgctl_open_sys(ctx, m->path, O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			return fd;
		if (fstatfs(fd, &sf) < 0 || ((unsigned long)sf.f_type != CGROUP_SUPER_MAGIC &&
					     (unsigned long)sf.f_type != CGROUP2_SUPER_MAGIC)) {
			close(fd);
			return -ENODEV;
		}
		return fd;
	}
	r = cgctl_path_normalize(m->path, norm, sizeof(norm));
	if (r < 0)
		return r;
	rfd = open(ctx->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rfd < 0)
		return -errno;
	fd = norm[1] ? openat2_beneath(rfd, norm + 1, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
		     : -EAGAIN;
	if (fd == -EAGAIN)
		fd = cg_walk(rfd, norm);
	close(rfd);
	return fd;
}

int cgctl_cg_open(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		  const char *path)
{
	char norm[PATH_MAX];
	int fd, mfd, r;

	r = cgctl_path_normalize(path, norm, sizeof(norm));
	if (r < 0)
		return r;
	mfd = mount_fd(ctx, m);
	if (mfd < 0)
		return mfd;
	if (norm[1]) {
		fd = cg_openat2(mfd, norm + 1);
		if (fd != -EAGAIN)
			return fd;
	}
	return cg_walk(mfd, norm);
}

int cgctl_cg_open_in(int dfd, const char *file, int flags)
{
	int fd, e;

	if (!cgctl_valid_filename(file))
		return -EINVAL;
	/* O_TRUNC of a bind-mounted file would act at open: decide before it */
	fd = openat2_beneath(dfd, file, (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC));
	if (fd == -EAGAIN) {	/* no openat2(), or an error the walk tells exactly */
		fd = openat(dfd, file, (flags & ~O_TRUNC) | O_NOFOLLOW | O_CLOEXEC);
		e = fd < 0 ? -errno : same_mount(dfd, fd);
		if (fd >= 0 && e < 0)
			close(fd);
		if (e < 0)
			fd = e;
		else if (flags & O_TRUNC)	/* fixtures; cgroupfs ignores it (kernfs) */
			(void)!ftruncate(fd, 0);
	}
	return fd;
}

int cgctl_cg_read_u64_in(int dfd, const char *file, uint64_t *v)
{
	char buf[64];
	ssize_t n;
	int fd = cgctl_cg_open_in(dfd, file, O_RDONLY);

	if (fd < 0)
		return fd;
	n = cgctl_read_small(fd, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if ((size_t)n >= sizeof(buf) - 1)
		return -EOVERFLOW;
	return cgctl_parse_mem_limit(buf, (size_t)n, v);
}

/* @file in cgroup @path, on the hierarchy's mount (a file bind-mounted over it is
 * refused with -EXDEV, before anything is read or written). */
static int open_file(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		     const char *file, int flags)
{
	int dfd, fd;

	if (!cgctl_valid_filename(file))
		return -EINVAL;
	dfd = cgctl_cg_open(ctx, m, path);
	if (dfd < 0)
		return dfd;
	fd = cgctl_cg_open_in(dfd, file, flags);
	close(dfd);
	return fd;
}

int cgctl_cg_open_append(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			 const char *path, const char *file)
{
	return open_file(ctx, m, path, file, O_WRONLY | O_APPEND);
}

/*
 * @file of the cgroup @path below @m, opened read-only: the cgroup path and the file in
 * one openat2() (no directory fd to open and close: stat of thousands of cgroups pays
 * per syscall).  Any failure but ENOENT is re-done by cgctl_cg_open() + openat() so the
 * error is exactly theirs.  Returns: the fd, -ENOENT (no such cgroup or file), -errno.
 */
int cgctl_cg_open_file(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		       const char *file)
{
	char norm[PATH_MAX], rel[PATH_MAX];
	int dfd, fd, e;

	if (!cgctl_valid_filename(file))
		return -EINVAL;
	e = cgctl_path_normalize(path, norm, sizeof(norm));
	if (e < 0)
		return e;
	if (__atomic_load_n(&have_openat2, __ATOMIC_RELAXED) >= 0 &&
	    (size_t)snprintf(rel, sizeof(rel), "%s%s%s", norm + 1, norm[1] ? "/" : "",
			     file) < sizeof(rel)) {
		dfd = mount_fd(ctx, m);
		if (dfd < 0)
			return dfd;
		fd = cg_openat2_file(dfd, rel);
		if (fd != -EAGAIN)
			return fd;
	}
	return open_file(ctx, m, norm, file, O_RDONLY);
}

CGCTL_EXPORT int cgctl_cg_exists(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				 const char *path)
{
	int fd = cgctl_cg_open(ctx, m, path);

	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	close(fd);
	return 1;
}


CGCTL_EXPORT int cgctl_cg_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			       const char *path, const char *file, char **buf, size_t *len)
{
	struct stat st;
	int fd, r;

	if (!buf)
		return -EINVAL;
	fd = open_file(ctx, m, path, file, O_RDONLY);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	r = cgctl_read_fd(fd, buf, len);
	close(fd);
	return r;
}

CGCTL_EXPORT int cgctl_cg_read_u64(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				   const char *path, const char *file, uint64_t *v)
{
	_cleanup_(freep) char *buf = NULL;
	size_t len;
	int r;

	if (!v)
		return -EINVAL;
	r = cgctl_cg_read(ctx, m, path, file, &buf, &len);
	if (r < 0)
		return r;
	return cgctl_parse_mem_limit(buf, len, v);
}

static int write_fd_once(int fd, const char *value)
{
	size_t n = strlen(value);
	char *line = malloc(n + 2);
	ssize_t k;
	int e;

	if (!line)
		return -ENOMEM;
	memcpy(line, value, n);
	line[n] = '\n';
	k = write(fd, line, n + 1);
	e = errno;
	free(line);
	if (k < 0)
		return -e;
	return (size_t)k == n + 1 ? 0 : -EIO;
}

/*
 * Fixture trees are plain files, so nothing refuses a write the way the kernel does.  A
 * fixture simulates that with a sibling file "FILE.errno" holding an errno number or
 * name (EINVAL, EBUSY, ...): the write of FILE then fails with it and changes nothing.
 * Only with a root prefix; the live system is never affected.
 */
int cgctl_fixture_write_error(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			      const char *path, const char *file)
{
	static const struct {
		const char *name;
		int err;
	} names[] = { { "EINVAL", EINVAL }, { "EBUSY", EBUSY },   { "EPERM", EPERM },
		      { "EACCES", EACCES }, { "ENOMEM", ENOMEM }, { "ENOSPC", ENOSPC },
		      { "EIO", EIO },	    { "ESRCH", ESRCH },	  { "EINTR", EINTR } };
	char name[NAME_MAX + 1], *buf = NULL, *end;
	size_t len, i;
	long v;

	if (!*ctx->root || (size_t)snprintf(name, sizeof(name), "%s.errno", file) >= sizeof(name))
		return 0;
	if (cgctl_cg_read(ctx, m, path, name, &buf, &len) < 0)
		return 0;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	v = strtol(buf, &end, 10);
	if (*end || v <= 0) {
		v = EIO;
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (strcmp(buf, names[i].name) == 0)
				v = names[i].err;
	}
	free(buf);
	return -(int)v;
}

CGCTL_EXPORT int cgctl_cg_write(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				const char *path, const char *file, const char *value)
{
	int fd, r;

	/* one value, one line: a newline would hand the kernel a second write's worth */
	if (!ctx || !m || !value || strchr(value, '\n'))
		return -EINVAL;
	r = cgctl_valid_filename(file) ? cgctl_fixture_write_error(ctx, m, path, file) : 0;
	if (r < 0)
		return r;
	fd = open_file(ctx, m, path, file, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return fd;
	r = write_fd_once(fd, value);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	info(ctx, "write %s%s/%s = %s: %s", m->path, path, file, value, r ? strerror(-r) : "ok");
	return r;
}
