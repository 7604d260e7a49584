/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Creating, listing and removing cgroups (directories of a hierarchy). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/cgfs.h"

/* Split "/a/b/c" into the parent "/a/b" and the name "c" (NAME_MAX+1 bytes).
 * Refuses the root with -EPERM. */
static int split_path(const char *path, char *parent, size_t len, char *name)
{
	char *slash;
	int r = cgctl_path_normalize(path, parent, len);

	if (r < 0)
		return r;
	if (strcmp(parent, "/") == 0)
		return -EPERM;
	slash = strrchr(parent, '/');
	snprintf(name, NAME_MAX + 1, "%s", slash + 1);
	if (slash == parent)
		slash[1] = '\0';
	else
		*slash = '\0';
	return 0;
}

/* Fixture trees are plain directories: give a new cgroup the parent's control files
 * (empty task lists) the way the kernel populates a new cgroup directory. */
static int fixture_populate(int pfd, int cfd)
{
	DIR *d;
	struct dirent *de;
	int dupfd = dup(pfd);

	if (dupfd < 0)
		return -errno;
	d = fdopendir(dupfd);
	if (!d) {
		close(dupfd);
		return -errno;
	}
	rewinddir(d);
	while ((de = readdir(d))) {
		char *buf = NULL;
		size_t len = 0;
		int in, out;

		if (de->d_type != DT_REG)
			continue;
		in = openat(pfd, de->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (in < 0)
			continue;
		if (cgctl_read_fd(in, &buf, &len) < 0)
			len = 0;
		close(in);
		out = openat(cfd, de->d_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (out >= 0) {
			bool tasks = strcmp(de->d_name, "cgroup.procs") == 0 ||
				     strcmp(de->d_name, "tasks") == 0 ||
				     strcmp(de->d_name, "cgroup.threads") == 0;

			if (!tasks && buf && write(out, buf, len) < 0)
				len = 0;
			close(out);
		}
		free(buf);
	}
	closedir(d);
	return 0;
}

CGCTL_EXPORT int cgctl_cg_create(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				 const char *path)
{
	char parent[PATH_MAX], name[NAME_MAX + 1];
	int pfd, cfd, r;

	if (!ctx || !m)
		return -EINVAL;
	r = split_path(path, parent, sizeof(parent), name);
	if (r < 0)
		return r == -EPERM ? -EEXIST : r;
	pfd = cgctl_cg_open(ctx, m, parent);
	if (pfd < 0)
		return pfd;
	r = mkdirat(pfd, name, 0755) < 0 ? -errno : 0;
	if (r == 0 && *ctx->root) {
		cfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd >= 0) {
			fixture_populate(pfd, cfd);
			close(cfd);
		}
	}
	close(pfd);
	dbg(ctx, "mkdir %s%s: %s", m->path, path, r ? strerror(-r) : "ok");
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

CGCTL_EXPORT void cgctl_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

CGCTL_EXPORT ssize_t cgctl_cg_children(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				       const char *path, char ***ret)
{
	struct dirent *de;
	char **v = NULL, **nv;
	size_t n = 0;
	DIR *d;
	int fd;

	if (!ret)
		return -EINVAL;
	fd = cgctl_cg_open(ctx, m, path);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv)
			goto oom;
		v = nv;
		v[n] = strdup(de->d_name);
		if (!v[n])
			goto oom;
		v[++n] = NULL;
	}
	closedir(d);
	if (!v) {
		v = calloc(1, sizeof(*v));
		if (!v)
			return -ENOMEM;
	}
	qsort(v, n, sizeof(*v), cmp_str);
	*ret = v;
	return (ssize_t)n;
oom:
	closedir(d);
	if (v)
		v[n] = NULL;
	cgctl_strv_free(v);
	return -ENOMEM;
}

CGCTL_EXPORT ssize_t cgctl_cg_pids(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				   const char *path, const char *file, pid_t **ret)
{
	_cleanup_(freep) char *buf = NULL;
	pid_t *v = NULL, *nv;
	size_t n = 0, len;
	char *p, *end;
	int r;

	if (!ret)
		return -EINVAL;
	r = cgctl_cg_read(ctx, m, path, file ? file : "cgroup.procs", &buf, &len);
	if (r < 0)
		return r;
	for (p = buf; *p;) {
		long pid;

		while (*p == '\n' || *p == ' ')
			p++;
		if (!*p)
			break;
		errno = 0;
		pid = strtol(p, &end, 10);
		if (errno || end == p || pid <= 0 || pid > INT32_MAX) {
			free(v);
			return -EINVAL;
		}
		p = end;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			return -ENOMEM;
		}
		v = nv;
		v[n++] = (pid_t)pid;
	}
	*ret = v;
	return (ssize_t)n;
}

/* Depth-first list of @path and its descendants, children before parents. */
static int collect(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		   char ***list, size_t *n)
{
	char **kids = NULL, **nl;
	ssize_t k;
	int r = 0;

	k = cgctl_cg_children(ctx, m, path, &kids);
	if (k < 0)
		return (int)k;
	for (ssize_t i = 0; i < k && r == 0; i++) {
		char child[PATH_MAX];

		snprintf(child, sizeof(child), "%s/%s", strcmp(path, "/") ? path : "", kids[i]);
		r = collect(ctx, m, child, list, n);
	}
	cgctl_strv_free(kids);
	if (r < 0)
		return r;
	nl = realloc(*list, (*n + 2) * sizeof(**list));
	if (!nl)
		return -ENOMEM;
	*list = nl;
	nl[*n] = strdup(path);
	if (!nl[*n])
		return -ENOMEM;
	nl[++*n] = NULL;
	return 0;
}

/* Fixture directories hold regular files; cgroupfs directories can be removed as is. */
static int rmdir_at(struct cgctl_ctx *ctx, int pfd, const char *name)
{
	int cfd;
	DIR *d;
	struct dirent *de;

	if (unlinkat(pfd, name, AT_REMOVEDIR) == 0)
		return 0;
	if (errno != ENOTEMPTY || !*ctx->root)
		return -errno;
	cfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0)
		return -errno;
	d = fdopendir(cfd);
	if (!d) {
		close(cfd);
		return -errno;
	}
	while ((de = readdir(d)))
		if (de->d_type != DT_DIR)
			unlinkat(cfd, de->d_name, 0);
	closedir(d);
	return unlinkat(pfd, name, AT_REMOVEDIR) == 0 ? 0 : -errno;
}

static int remove_one(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path)
{
	char parent[PATH_MAX], name[NAME_MAX + 1];
	int pfd, r;

	r = split_path(path, parent, sizeof(parent), name);
	if (r < 0)
		return r;
	pfd = cgctl_cg_open(ctx, m, parent);
	if (pfd < 0)
		return pfd;
	r = rmdir_at(ctx, pfd, name);
	close(pfd);
	dbg(ctx, "rmdir %s%s: %s", m->path, path, r ? strerror(-r) : "ok");
	return r;
}

static int move_tasks_up(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *from,
			 const char *to)
{
	pid_t *pids = NULL;
	ssize_t n = cgctl_cg_pids(ctx, m, from, "cgroup.procs", &pids);
	int r = 0;

	if (n < 0)
		return (int)n;
	for (ssize_t i = 0; i < n; i++) {
		int q = cgctl_cg_attach(ctx, m, to, pids[i]);

		if (q < 0 && q != -ESRCH)
			r = q;
	}
	free(pids);
	return r;
}

CGCTL_EXPORT int cgctl_cg_remove(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				 const char *path, unsigned int flags, struct cgctl_error *e)
{
	char norm[PATH_MAX], parent[PATH_MAX], name[NAME_MAX + 1];
	char **list = NULL;
	size_t n = 0, i;
	int r;

	if (!ctx || !m)
		return cgctl_error_set(e, EINVAL, "no context or hierarchy");
	r = cgctl_path_normalize(path, norm, sizeof(norm));
	if (r < 0)
		return cgctl_error_set(e, -r, "invalid cgroup path");
	if (strcmp(norm, "/") == 0)
		return cgctl_error_set(e, EPERM, "refusing to remove the root cgroup");
	r = cgctl_cg_exists(ctx, m, norm);
	if (r <= 0)
		return cgctl_error_set(e, r ? -r : ENOENT, r ? "%s" : "no such cgroup",
				       r ? strerror(-r) : "");
	if (flags & CGCTL_RM_RECURSIVE) {
		r = collect(ctx, m, norm, &list, &n);
	} else {
		ssize_t k;
		char **kids = NULL;

		k = cgctl_cg_children(ctx, m, norm, &kids);
		cgctl_strv_free(kids);
		if (k > 0)
			return cgctl_error_set(e, EBUSY, "has %zd child cgroup%s (use -r)", k,
					       k == 1 ? "" : "s");
		r = collect(ctx, m, norm, &list, &n);
	}
	if (r < 0)
		goto out;
	/* check every cgroup first: refuse before removing anything */
	for (i = 0; i < n && !(flags & CGCTL_RM_MOVE_TASKS); i++) {
		pid_t *pids = NULL;
		ssize_t k = cgctl_cg_pids(ctx, m, list[i], "cgroup.procs", &pids);

		free(pids);
		if (k > 0) {
			r = cgctl_error_set(e, EBUSY, "%s still has %zd process%s (nothing removed)",
					    list[i], k, k == 1 ? "" : "es");
			goto out;
		}
	}
	if (flags & CGCTL_RM_DRY_RUN)
		goto out;
	split_path(norm, parent, sizeof(parent), name);
	for (i = 0; i < n; i++) {
		if (flags & CGCTL_RM_MOVE_TASKS) {
			r = move_tasks_up(ctx, m, list[i], parent);
			if (r < 0) {
				cgctl_error_set(e, -r, "%s: moving tasks to %s: %s", list[i], parent,
						strerror(-r));
				goto out;
			}
		}
		r = remove_one(ctx, m, list[i]);
		if (r < 0) {
			cgctl_error_set(e, -r, "%s: %s", list[i], strerror(-r));
			goto out;
		}
	}
out:
	cgctl_strv_free(list);
	return r;
}
