// SPDX-License-Identifier: LGPL-2.1-or-later
/* Process tree snapshots from /proc and a PID set (see proctree.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "kernel/proctree.h"

/* A decimal PID at @p (no sign, no leading junk), ending at a non-digit.
 * Returns: the pointer after it, or NULL. */
static const char *parse_pid(const char *p, const char *end, pid_t *ret)
{
	long v = 0;
	const char *start = p;

	while (p < end && *p >= '0' && *p <= '9') {
		v = v * 10 + (*p - '0');
		if (v > INT32_MAX)
			return NULL;
		p++;
	}
	if (p == start)
		return NULL;
	*ret = (pid_t)v;
	return p;
}

int cgctl_proctree_parse_ppid(const char *buf, size_t len, pid_t *ppid)
{
	const char *end = buf + len, *p;

	/* "pid (comm) S ppid ...": comm may contain ") ", so take the last ')' */
	p = memrchr(buf, ')', len);
	if (!p || end - p < 5 || p[1] != ' ' || p[3] != ' ')
		return -EBADMSG;
	p = parse_pid(p + 4, end, ppid);
	if (!p || (p < end && *p != ' ' && *p != '\n'))
		return -EBADMSG;
	return 0;
}

int cgctl_proctree_parse_tgid(const char *buf, size_t len, pid_t *tgid)
{
	const char *end = buf + len, *p = buf;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *eol = nl ? nl : end;

		if (eol - p > 5 && !memcmp(p, "Tgid:", 5)) {
			p += 5;
			while (p < eol && (*p == '\t' || *p == ' '))
				p++;
			p = parse_pid(p, eol, tgid);
			return p && p == eol && *tgid > 0 ? 0 : -EBADMSG;
		}
		p = eol + 1;
	}
	return -EBADMSG;
}

int cgctl_proc_stat_parse(const char *buf, size_t len, struct cgctl_proc_stat *st)
{
	const char *open_ = memchr(buf, '(', len), *close_ = memrchr(buf, ')', len);
	char tail[512];
	size_t n;
	int ppid;

	if (!open_ || !close_ || close_ < open_)
		return -EBADMSG;
	memset(st, 0, sizeof(*st));
	n = (size_t)(close_ - open_ - 1);
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open_ + 1, n);
	/* sscanf needs a NUL: the fields up to stime fit in 512 bytes */
	n = MIN((size_t)(buf + len - close_ - 1), sizeof(tail) - 1);
	memcpy(tail, close_ + 1, n);
	tail[n] = '\0';
	/* state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime
	 * stime */
	if (sscanf(tail, " %c %d %*d %*d %*d %*d %llu %llu %*u %llu %*u %llu %llu",
		   &st->state, &ppid, &st->flags, &st->minflt, &st->majflt, &st->utime,
		   &st->stime) != 7)
		return -EBADMSG;
	st->ppid = ppid;
	return 0;
}

int cgctl_proc_stat_read(struct cgctl_ctx *ctx, pid_t pid, struct cgctl_proc_stat *st)
{
	char path[40], *buf = NULL;
	size_t len;
	int r;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = cgctl_read_sys(ctx, path, &buf, &len);
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	r = cgctl_proc_stat_parse(buf, len, st);
	free(buf);
	return r;
}

int cgctl_proc_snap_add(struct cgctl_proc_snap *s, pid_t pid, pid_t ppid)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		struct cgctl_proc_pair *v = reallocarray(s->v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v, s->cap = cap;
	}
	s->v[s->n].pid = pid;
	s->v[s->n].ppid = ppid;
	s->n++;
	return 0;
}

/* The ppid of process @name below /proc.  Returns: 0, -ENOENT (gone), -errno. */
static int read_ppid(int procfd, const char *name, pid_t *ppid)
{
	char path[32], buf[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/stat", name);
	fd = openat(procfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return errno == ESRCH ? -ENOENT : -errno;
	return cgctl_proctree_parse_ppid(buf, n, ppid);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/*
 * A readdir of /proc is no atomic snapshot: a parent that exits after its child's stat
 * was read but before its own entry is reached leaves the child hanging from a PID the
 * snapshot lacks, and a walk from the roots never reaches it, though it was re-parented
 * (to a subreaper of the tree, or init).  Re-read the ppid of each such entry.
 * Returns: 0, -ENOMEM.
 */
static int fix_orphans(int procfd, struct cgctl_proc_snap *s)
{
	pid_t *pids = malloc((s->n + 1) * sizeof(*pids));
	size_t i;

	if (!pids)
		return -ENOMEM;
	for (i = 0; i < s->n; i++)
		pids[i] = s->v[i].pid;
	qsort(pids, s->n, sizeof(*pids), cmp_pid);
	for (i = 0; i < s->n; i++) {
		pid_t pp = s->v[i].ppid, now;
		char name[16];

		if (pp <= 2 || bsearch(&pp, pids, s->n, sizeof(*pids), cmp_pid))
			continue;
		snprintf(name, sizeof(name), "%d", (int)s->v[i].pid);
		if (read_ppid(procfd, name, &now) == 0)
			s->v[i].ppid = now;
	}
	free(pids);
	return 0;
}

ssize_t cgctl_proc_snap_take(struct cgctl_ctx *ctx, struct cgctl_proc_snap *s)
{
	struct dirent *de;
	pid_t pid, ppid;
	DIR *d;
	int fd, r = 0;

	s->n = 0;
	fd = cgctl_open_sys(ctx, "/proc", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while (r >= 0 && (de = readdir(d))) {
		if (!all_digits(de->d_name))
			continue;
		if (read_ppid(dirfd(d), de->d_name, &ppid) < 0)
			continue;	/* exited meanwhile, or a stat we cannot read */
		pid = (pid_t)atoi(de->d_name);
		r = cgctl_proc_snap_add(s, pid, ppid);
	}
	if (r >= 0)
		r = fix_orphans(dirfd(d), s);
	closedir(d);
	if (r < 0)
		return r;
	cgctl_proc_snap_index(s);
	return s->n;
}

static int cmp_ppid(const void *a, const void *b)
{
	const struct cgctl_proc_pair *x = a, *y = b;

	if (x->ppid != y->ppid)
		return x->ppid < y->ppid ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

void cgctl_proc_snap_index(struct cgctl_proc_snap *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_ppid);
}

size_t cgctl_proc_snap_children(const struct cgctl_proc_snap *s, pid_t ppid, size_t *first)
{
	size_t lo = 0, hi = s->n, end;

	while (lo < hi) {	/* first index with v[i].ppid >= ppid */
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].ppid < ppid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < s->n && s->v[end].ppid == ppid; end++)
		;
	*first = lo;
	return end - lo;
}

void cgctl_proc_snap_free(struct cgctl_proc_snap *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* ---- PID set ---- */

static size_t slot_of(pid_t pid, size_t cap)
{
	/* Fibonacci hashing: PIDs are dense and sequential */
	return (size_t)(((uint32_t)pid * 2654435769u) & (cap - 1));
}

struct cgctl_pident *cgctl_pidset_get(struct cgctl_pidset *s, pid_t pid)
{
	size_t i;

	if (!s->cap || pid <= 0)
		return NULL;
	for (i = slot_of(pid, s->cap);; i = (i + 1) & (s->cap - 1)) {
		if (s->v[i].pid == pid)
			return &s->v[i];
		if (s->v[i].pid == 0)
			return NULL;
	}
}

static int pidset_grow(struct cgctl_pidset *s)
{
	size_t cap = s->cap ? s->cap : 256, i, j;
	struct cgctl_pident *v;

	if (s->live * 4 >= cap)	/* rehash alone suffices when tombstones fill it */
		cap *= 2;
	v = calloc(cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < s->cap; i++) {
		if (s->v[i].pid <= 0)
			continue;
		for (j = slot_of(s->v[i].pid, cap); v[j].pid; j = (j + 1) & (cap - 1))
			;
		v[j] = s->v[i];
	}
	free(s->v);
	s->v = v, s->cap = cap, s->used = s->live;
	return 0;
}

struct cgctl_pident *cgctl_pidset_add(struct cgctl_pidset *s, pid_t pid, bool *created)
{
	struct cgctl_pident *e = cgctl_pidset_get(s, pid);
	size_t i;

	*created = false;
	if (e)
		return e;
	if (pid <= 0)
		return NULL;
	if ((s->used + 1) * 2 > s->cap && pidset_grow(s) < 0)
		return NULL;
	for (i = slot_of(pid, s->cap); s->v[i].pid > 0; i = (i + 1) & (s->cap - 1))
		;
	if (s->v[i].pid == 0)
		s->used++;
	memset(&s->v[i], 0, sizeof(s->v[i]));
	s->v[i].pid = pid;
	s->live++;
	*created = true;
	return &s->v[i];
}

void cgctl_pidset_del(struct cgctl_pidset *s, pid_t pid)
{
	struct cgctl_pident *e = cgctl_pidset_get(s, pid);

	if (!e)
		return;
	e->pid = -1;
	s->live--;
}

void cgctl_pidset_free(struct cgctl_pidset *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
