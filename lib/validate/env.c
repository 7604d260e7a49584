/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The environment of one `cgctl validate`: the running kernel, the model parameters
 * (possibly perturbed on purpose), and the scratch cgroups.  Scratch cgroups live only
 * below the cgroup /proc/self/cgroup names for each hierarchy, are recorded as they are
 * created and removed deepest first by vrun_cleanup() on every path.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "validate/validate.h"

void vlog(int priority, const struct cgctl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (!ctx || cgctl_get_log_priority(ctx) < priority)
		return;
	fputs("cgctl: validate: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int perturb_one(struct vperturb *p, const char *key, const char *val,
		       struct cgctl_error *e)
{
	uint64_t v;

	if (strcmp(key, "slice") == 0 || strcmp(key, "quota") == 0) {
		if (cgctl_parse_duration(val, 1000, &v) < 0 || v == 0)
			return cgctl_error_set(e, EINVAL, "perturb %s=%s: not a duration", key,
					       val);
		if (key[0] == 's')
			p->slice_ns = v;
		else
			p->quota_us = v / 1000;
	} else if (strcmp(key, "hz") == 0) {
		if (cgctl_parse_size(val, &v) < 0 || v < 24 || v > 10000)
			return cgctl_error_set(e, EINVAL, "perturb hz=%s: 24..10000", val);
		p->hz = (unsigned int)v;
	} else if (strcmp(key, "kver") == 0) {
		if (cgctl_kver_parse(val, &p->kver) < 0)
			return cgctl_error_set(e, EINVAL, "perturb kver=%s: not a version", val);
	} else {
		return cgctl_error_set(e, EINVAL,
				       "perturb: unknown model parameter '%s' (slice, quota, hz, kver)",
				       key);
	}
	p->any = true;
	return 0;
}

int vperturb_parse(const char *s, struct vperturb *p, struct cgctl_error *e)
{
	char buf[256], *tok, *save = NULL, *eq;
	int err;

	memset(p, 0, sizeof(*p));
	if (!s || !*s)
		return 0;
	if (strlen(s) >= sizeof(buf))
		return cgctl_error_set(e, EINVAL, "perturb: too long");
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			return cgctl_error_set(e, EINVAL, "perturb: '%s' is not NAME=VALUE", tok);
		*eq = '\0';
		err = perturb_one(p, tok, eq + 1, e);
		if (err < 0)
			return err;
	}
	return 0;
}

/* The kernel's bandwidth slice is a setting the model takes, like quota and period. */
static uint64_t read_slice_ns(struct cgctl_ctx *ctx)
{
	char *buf = NULL;
	uint64_t us = 5000;
	size_t n;

	if (cgctl_read_sys(ctx, "/proc/sys/kernel/sched_cfs_bandwidth_slice_us", &buf, &n) == 0)
		us = strtoull(buf, NULL, 10);
	free(buf);
	return us ? us * 1000 : 5000000;
}

int vrun_init(struct vrun *run, struct cgctl_ctx *ctx, const struct cgctl_validate_opts *o,
	      struct cgctl_error *e)
{
	struct utsname u;
	long n;
	int err;

	memset(run, 0, sizeof(*run));
	err = vperturb_parse(o->perturb, &run->perturb, e);
	if (err < 0)
		return err;
	run->ctx = ctx;
	run->kver = cgctl_kver_running();
	run->model_kver = run->perturb.kver ? run->perturb.kver : run->kver;
	if (uname(&u) == 0)
		snprintf(run->release, sizeof(run->release), "%s", u.release);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	run->ncpu = n > 0 ? (unsigned int)n : 1;
	run->slice_ns = read_slice_ns(ctx);
	err = vwork_find_exe(o->workload_exe, run->exe, sizeof(run->exe), e);
	if (err < 0)
		return err;
	run->keep = o->keep;
	run->notice = o->notice;
	run->notice_data = o->notice_data;
	run->cancel = o->cancel;
	run->scratch_parent = o->scratch_parent;
	return 0;
}

struct cgctl_ctx *vrun_ctx(const struct vrun *run)
{
	return run->ctx;
}

bool vrun_cancelled(const struct vrun *run)
{
	return run->cancel && *run->cancel;
}

int vrun_sleep(struct vrun *run, unsigned int ms)
{
	struct timespec ts;

	while (ms > 0) {
		unsigned int step = MIN(ms, 50u);

		if (vrun_cancelled(run))
			return -EINTR;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)step * 1000000L;
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !vrun_cancelled(run))
			;
		ms -= step;
	}
	return vrun_cancelled(run) ? -EINTR : 0;
}

/* /proc/swaps: "Filename Type Size Used Priority", sizes in KiB, a line per device */
bool vrun_have_swap(struct vrun *run, uint64_t free_kb)
{
	unsigned long long size, used;
	uint64_t avail = 0;
	bool any = false;
	char *buf = NULL, *l;
	size_t len;

	if (cgctl_read_sys(run->ctx, "/proc/swaps", &buf, &len) < 0)
		return false;
	l = strchr(buf, '\n');	/* past the header */
	while (l && *++l) {
		if (sscanf(l, "%*s %*s %llu %llu", &size, &used) == 2) {
			any = true;
			avail += size > used ? size - used : 0;
		}
		l = strchr(l, '\n');
	}
	free(buf);
	return any && avail >= free_kb;
}

/* A cgroup we could not remove yet usually still has a dying task: retry briefly. */
static void remove_one(struct vrun *run, const struct cgctl_mount *m, const char *path)
{
	int i, err = 0;

	for (i = 0; i < 50; i++) {
		err = cgctl_cg_remove(run->ctx, m, path, 0, NULL);
		if (err != -EBUSY)
			break;
		usleep(20000);
	}
	if (err < 0 && err != -ENOENT)
		vlog(LOG_ERR, run->ctx, "cannot remove scratch cgroup %s: %s", path,
		    strerror(-err));
}

void vrun_cleanup(struct vrun *run)
{
	size_t i;

	for (i = 0; i < VKIDS_MAX; i++) {
		if (run->kids[i] > 0) {
			kill(run->kids[i], SIGKILL);
			while (waitpid(run->kids[i], NULL, 0) < 0 && errno == EINTR)
				;
			run->kids[i] = 0;
		}
	}
	while (run->n_scratch > 0) {
		i = --run->n_scratch;
		if (!run->keep)
			remove_one(run, run->scratch[i].m, run->scratch[i].path);
		free(run->scratch[i].path);
	}
}

static int remember(struct vrun *run, const struct cgctl_mount *m, char *path)
{
	if (run->n_scratch == VSCRATCH_MAX) {
		free(path);
		return -ENOSPC;
	}
	run->scratch[run->n_scratch].m = m;
	run->scratch[run->n_scratch].path = path;
	run->n_scratch++;
	return 0;
}

/* Whether PID @pid is a live cgctl (its scratch is in use): /proc/PID/comm, so a PID
 * reused by another program does not keep a dead run's scratch. */
static bool cgctl_alive(struct vrun *run, long pid)
{
	char path[48], *comm = NULL;
	size_t len;
	bool alive;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (cgctl_read_sys(run->ctx, path, &comm, &len) < 0)
		return false;
	alive = strncmp(comm, "cgctl", 5) == 0;
	free(comm);
	return alive;
}

/* @fmt to the caller's notice(), else to the log at LOG_NOTICE */
__attribute__((format(printf, 2, 3)))
static void notice(struct vrun *run, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (run->notice)
		run->notice(run->notice_data, msg);
	else
		vlog(LOG_NOTICE, run->ctx, "%s", msg);
}

/* Remove the scratch cgroups "<prefix><pid>" below @own of runs whose cgctl is gone
 * (killed with SIGKILL: nothing of theirs removed them): validate's "cgctl-validate-"
 * below its own cgroup, bench's "cgctl-bench-" below a PATH. */
void vscratch_reap(struct vrun *run, const struct cgctl_mount *m, const char *own,
		   const char *prefix)
{
	char **kids = NULL, *path, *end;
	ssize_t n = cgctl_cg_children(run->ctx, m, own, &kids);
	size_t plen = strlen(prefix);
	long pid;
	int err;

	for (ssize_t i = 0; i < n; i++) {
		if (strncmp(kids[i], prefix, plen) != 0)
			continue;
		pid = strtol(kids[i] + plen, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() || cgctl_alive(run, pid))
			continue;
		if (asprintf(&path, "%s/%s", strcmp(own, "/") ? own : "", kids[i]) < 0)
			break;
		err = cgctl_cg_remove(run->ctx, m, path, CGCTL_RM_RECURSIVE, NULL);
		if (err < 0)
			vlog(LOG_ERR, run->ctx, "cannot remove %s%s of a run that is gone (PID "
			     "%ld): %s", m->path, path, pid, strerror(-err));
		else	/* one line by default (issue 33): the caller's, which -q
			 * silences; the log's level hid it from cgctl without -v */
			notice(run, "removed %s%s of a run that is gone (PID %ld)", m->path,
			       path, pid);
		free(path);
	}
	if (n >= 0)
		cgctl_strv_free(kids);
}

/* "<own>/cgctl-validate-<pid>" of @m, created on first use. */
static int scratch_base(struct vrun *run, const struct cgctl_mount *m, const char **ret,
			char *reason, size_t len)
{
	char *own, *p;
	size_t i;
	int err;

	for (i = 0; i < run->n_scratch; i++) {
		/* the last component: a systemd scope above may be "cgctl-validate-N.scope" */
		const char *last = strrchr(run->scratch[i].path, '/');

		if (run->scratch[i].m == m && last && !strncmp(last, "/cgctl-validate-", 16)) {
			*ret = run->scratch[i].path;
			return 0;
		}
	}
	if (run->scratch_parent && m->version == 2)
		err = (own = strdup(run->scratch_parent)) ? 0 : -ENOMEM;
	else
		err = cgctl_pid_cgroup(run->ctx, 0, m, &own);
	if (err < 0) {
		snprintf(reason, len, "own cgroup in %s: %s", m->path, strerror(-err));
		return err;
	}
	vscratch_reap(run, m, own, "cgctl-validate-");
	err = asprintf(&p, "%s/cgctl-validate-%d", strcmp(own, "/") ? own : "", (int)getpid());
	free(own);
	if (err < 0)
		return -ENOMEM;
	err = cgctl_cg_create(run->ctx, m, p);
	/* --keep: an earlier scenario of this run made it and left it (and its cgroups,
	 * whose names do not repeat: run->seq) */
	if (err == -EEXIST && run->keep)
		err = 0;
	if (err < 0) {
		snprintf(reason, len, "cannot create %s in %s: %s", p, m->path, strerror(-err));
		free(p);
		return err;
	}
	err = remember(run, m, p);
	if (err < 0)
		return err;
	*ret = p;
	return 0;
}

int vscratch_create(struct vrun *run, const char *ctrl, const char *parent, const char *name,
		    const struct cgctl_mount **m, const char **path, char *reason, size_t len)
{
	const char *base;
	char *p;
	int err;

	err = cgctl_mount_find(run->ctx, ctrl, m);
	if (err < 0) {
		snprintf(reason, len, "no hierarchy carries the %s controller", ctrl);
		return -ENODEV;
	}
	if (!parent) {
		err = scratch_base(run, *m, &base, reason, len);
		if (err < 0)
			return err;
		parent = base;
	}
	/* cgroup v2: the parent must hand the controller down (root and our own scratch
	 * base have no processes, so this is allowed there) */
	if ((*m)->version == 2) {
		char plus[32];

		snprintf(plus, sizeof(plus), "+%s", ctrl);
		vcg_set(run, *m, parent, "cgroup.subtree_control", plus);
	}
	if (asprintf(&p, "%s/%s-%u", parent, name, ++run->seq) < 0)
		return -ENOMEM;
	err = cgctl_cg_create(run->ctx, *m, p);
	if (err < 0) {
		snprintf(reason, len, "cannot create %s: %s", p, strerror(-err));
		free(p);
		return err;
	}
	err = remember(run, *m, p);
	if (err < 0)
		return err;
	*path = p;
	return 0;
}

int vcg_read_u64(struct vrun *run, const struct cgctl_mount *m, const char *path,
		 const char *file, uint64_t *v, char *reason, size_t len)
{
	int err = cgctl_cg_read_u64(run->ctx, m, path, file, v);

	if (err < 0)
		snprintf(reason, len, "read %s/%s: %s", path, file, strerror(-err));
	return err;
}

/* One write under the cgroup's lock (cgctl_cgroup_lock(), as bw set, mem set, set and
 * bench take it; issue 33): no other cgctl writer interleaves with validate's.  The lock
 * nests per context, so a write inside a caller's lock does not wait for itself.
 * Returns: 0 / -errno (-EBUSY: another writer held the lock for 30 s). */
int vcg_set(struct vrun *run, const struct cgctl_mount *m, const char *path,
	    const char *file, const char *value)
{
	int err = cgctl_cgroup_lock(run->ctx, m, path);

	if (err < 0)
		return err;
	err = cgctl_cg_write(run->ctx, m, path, file, value);
	cgctl_cgroup_unlock(run->ctx, m, path);
	return err;
}

int vcg_write(struct vrun *run, const struct cgctl_mount *m, const char *path,
	      const char *file, const char *value, char *reason, size_t len)
{
	int err = vcg_set(run, m, path, file, value);

	if (err < 0)
		snprintf(reason, len, "write %s to %s/%s: %s", value, path, file,
			 err == -EBUSY ? "its cgroup lock held by another writer for 30 s" :
			 strerror(-err));
	return err;
}

int vcg_mem_figures(struct vrun *run, const char *path, unsigned int what,
		    const char *const *keys, size_t n, uint64_t *vals, unsigned int *has,
		    char *reason, size_t len)
{
	struct cgctl_cgroup_stat *st = NULL;
	struct cgctl_cgroup *cg;
	int err;

	*has = 0;
	err = cgctl_cgroup_new(run->ctx, "memory", path, &cg);
	if (err == 0) {
		err = cgctl_cgroup_stat_new(cg, what, &st);
		cgctl_cgroup_unref(cg);
	}
	for (size_t i = 0; err == 0 && i < n; i++) {
		int r = cgctl_cgroup_stat_get(st, keys[i], &vals[i]);

		if (r == 0)
			*has |= 1u << i;
		else
			vals[i] = UINT64_MAX;
		if (i == 0 && r < 0)
			err = r == -ENODATA ? -ENOENT : r;
	}
	cgctl_cgroup_stat_free(st);
	if (err < 0)
		snprintf(reason, len, "%s: memory counters: %s", path, strerror(-err));
	return err;
}

int vcg_read_key(struct vrun *run, const struct cgctl_mount *m, const char *path,
		 const char *file, const char *key, uint64_t *v, char *reason, size_t len)
{
	size_t n;
	char *buf;
	int err;

	err = cgctl_cg_read(run->ctx, m, path, file, &buf, &n);
	if (err < 0) {
		snprintf(reason, len, "read %s/%s: %s", path, file, strerror(-err));
		return err;
	}
	err = cgctl_parse_keyed_u64(buf, n, key, v);
	free(buf);
	if (err < 0)
		snprintf(reason, len, "%s/%s: no number '%s'", path, file, key);
	return err;
}
