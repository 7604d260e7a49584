/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Built-in workloads: fork, join the scratch cgroups by writing our own PID to
 * cgroup.procs (through the library), pin if asked, then exec "cgctl-workload KIND ...".
 * The workload talks over two pipes: it prints "ready", waits for "go", works, prints
 * "done key=value ...", and exits when its stdin closes.  That lets the parent take a
 * baseline before and an observation after the work while the memory is still mapped.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "validate/validate.h"

#define WORKLOAD_NAME "cgctl-workload"

static bool executable(const char *path)
{
	return access(path, X_OK) == 0;
}

/*
 * @dir/cgctl-workload, or (@dir is libtool's .libs/ of an uninstalled program) the one in
 * its parent.  Returns: true with the path in @out when one is executable.
 */
static bool beside(const char *dir, char *out, size_t len)
{
	const char *base = strrchr(dir, '/');

	if ((size_t)snprintf(out, len, "%s/" WORKLOAD_NAME, dir) < len && executable(out))
		return true;
	base = base ? base + 1 : dir;
	return strcmp(base, ".libs") == 0 &&
	       (size_t)snprintf(out, len, "%s/../" WORKLOAD_NAME, dir) < len && executable(out);
}

/*
 * Which helper to exec, in this order: what the caller passes (@given); the environment
 * ($CGCTL_WORKLOAD_EXE: make check, the VM guest); cgctl-workload in the directory of the
 * running program (the file it was started as, AT_EXECFN: a build tree builds the helper
 * into src/ beside src/cgctl, so `src/cgctl validate` works uninstalled; a program and
 * the helper built with it belong together); the configured
 * $(pkglibexecdir)/cgctl-workload.  No /proc/self/exe: the library never runs its caller.
 */
int vwork_find_exe(const char *given, char *out, size_t len, struct cgctl_error *e)
{
	const char *env = secure_getenv("CGCTL_WORKLOAD_EXE");
	const char *fn = (const char *)getauxval(AT_EXECFN);
	char dir[PATH_MAX];
	char *slash;

	if (!given && env && *env)
		given = env;
	if (given) {
		if ((size_t)snprintf(out, len, "%s", given) >= len)
			return cgctl_error_set(e, ENAMETOOLONG, "workload helper %s: %s", given,
					       strerror(ENAMETOOLONG));
		if (!executable(out))
			return cgctl_error_set(e, ENOENT, "workload helper %s: %s", given,
					       strerror(errno));
		return 0;
	}
	if (fn && snprintf(dir, sizeof(dir), "%s", fn) < (int)sizeof(dir)) {
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			if (beside(*dir ? dir : "/", out, len))
				return 0;
		}
	}
	if ((size_t)snprintf(out, len, "%s/cgctl/" WORKLOAD_NAME, CGCTL_LIBEXECDIR) < len &&
	    executable(out))
		return 0;
	return cgctl_error_set(e, ENOENT,
			       "workload helper %s not found beside the program or in %s/cgctl "
			       "(set CGCTL_WORKLOAD_EXE)", WORKLOAD_NAME, CGCTL_LIBEXECDIR);
}

static void track(struct vrun *run, pid_t pid, bool add)
{
	size_t i;

	for (i = 0; i < VKIDS_MAX; i++) {
		if (add && run->kids[i] == 0) {
			run->kids[i] = pid;
			return;
		}
		if (!add && run->kids[i] == pid) {
			run->kids[i] = 0;
			return;
		}
	}
}

/* In the child: never returns. */
static void child(struct vrun *run, const struct vwork_spec *s, int in, int out)
{
	const char *argv[16] = { WORKLOAD_NAME };
	size_t i, n = 1;
	cpu_set_t set;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0)
		_exit(126);
	for (i = 0; i < 3 && s->m[i]; i++)
		if (cgctl_cg_attach(run->ctx, s->m[i], s->path[i], getpid()) < 0)
			_exit(125);
	if (s->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(s->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			_exit(124);
	}
	if (s->nice && setpriority(PRIO_PROCESS, 0, s->nice) < 0)
		_exit(124);
	for (i = 0; s->argv[i] && n < 15; i++)
		argv[n++] = s->argv[i];
	argv[n] = NULL;
	execv(run->exe, (char *const *)argv);
	_exit(127);
}

int vwork_start(struct vrun *run, const struct vwork_spec *s, struct vwork *w, char *reason,
		size_t len)
{
	int to[2], from[2];

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	if (pipe2(to, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(from, O_CLOEXEC) < 0) {
		close(to[0]);
		close(to[1]);
		return -errno;
	}
	fflush(NULL);
	w->pid = fork();
	if (w->pid == 0)
		child(run, s, to[0], from[1]);
	close(to[0]);
	close(from[1]);
	if (w->pid < 0) {
		snprintf(reason, len, "fork: %s", strerror(errno));
		close(to[1]);
		close(from[0]);
		return -EAGAIN;
	}
	track(run, w->pid, true);
	snprintf(w->kind, sizeof(w->kind), "%s", s->argv[0] ? s->argv[0] : "?");
	w->to = to[1];
	w->from = from[0];
	return 0;
}

static void describe_exit(const struct vwork *w, char *reason, size_t len)
{
	static const char *const codes[] = {
		[124] = "cannot pin to its CPU or set its nice value", [125] = "cannot join its cgroup",
		[126] = "cannot set up its pipes", [127] = "cannot exec the workload",
	};
	int st = w->status;

	if (WIFSIGNALED(st))
		snprintf(reason, len, "workload %s killed by signal %d (%s)", w->kind,
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WEXITSTATUS(st) >= 124 && WEXITSTATUS(st) <= 127)
		snprintf(reason, len, "workload %s: %s", w->kind, codes[WEXITSTATUS(st)]);
	else
		snprintf(reason, len, "workload %s exited with status %d", w->kind,
			 WEXITSTATUS(st));
}

/* Reap without blocking (@block false) or blocking.  Returns: true once reaped. */
static bool reap(struct vrun *run, struct vwork *w, bool block)
{
	pid_t r;

	if (w->reaped || w->pid <= 0)
		return true;
	do
		r = wait4(w->pid, &w->status, block ? 0 : WNOHANG, &w->ru);
	while (r < 0 && errno == EINTR);
	if (r == w->pid || (r < 0 && errno == ECHILD)) {
		w->reaped = true;
		track(run, w->pid, false);
		if (w->to >= 0)
			close(w->to);
		close(w->from);
		w->to = -1;
		w->from = -1;
	}
	return w->reaped;
}

static int died(struct vrun *run, struct vwork *w, char *reason, size_t len)
{
	reap(run, w, true);
	describe_exit(w, reason, len);
	return -ECHILD;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Take one complete line out of the buffer if there is one. */
static bool take_line(struct vwork *w, char *line, size_t linelen)
{
	char *nl = memchr(w->buf, '\n', w->len);
	size_t n;

	if (!nl)
		return false;
	n = (size_t)(nl - w->buf);
	snprintf(line, linelen, "%.*s", (int)n, w->buf);
	memmove(w->buf, nl + 1, w->len - n - 1);
	w->len -= n + 1;
	return true;
}

int vwork_expect(struct vrun *run, struct vwork *w, const char *word, char *line,
		 size_t linelen, unsigned int timeout_ms, char *reason, size_t len)
{
	uint64_t end = now_ms() + timeout_ms;
	struct pollfd p;
	ssize_t n;

	for (;;) {
		while (take_line(w, line, linelen))
			if (strncmp(line, word, strlen(word)) == 0)
				return 0;
		if (vrun_cancelled(run))
			return -EINTR;
		if (w->reaped || now_ms() >= end) {
			snprintf(reason, len, "workload %s: no '%s' within %u ms", w->kind, word,
				 timeout_ms);
			return w->reaped ? -ECHILD : -ETIMEDOUT;
		}
		p = (struct pollfd){ .fd = w->from, .events = POLLIN };
		if (poll(&p, 1, 50) <= 0)
			continue;
		if (w->len == sizeof(w->buf))
			w->len = 0;	/* a line this long is not ours: drop it */
		n = read(w->from, w->buf + w->len, sizeof(w->buf) - w->len);
		if (n == 0)
			return died(run, w, reason, len);
		if (n > 0)
			w->len += (size_t)n;
	}
}

/* A workload that died must not take us down with SIGPIPE: block it around the write
 * and consume the one it raised (the library never changes signal dispositions). */
int vwork_send(struct vwork *w, const char *line)
{
	static const struct timespec zero;
	size_t n = strlen(line);
	sigset_t pipe, old;
	ssize_t r;

	if (w->to < 0)
		return -EPIPE;
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe, &old);
	r = write(w->to, line, n);
	if (r < 0 && errno == EPIPE && !sigismember(&old, SIGPIPE))
		while (sigtimedwait(&pipe, NULL, &zero) < 0 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r == (ssize_t)n ? 0 : -EPIPE;
}

int vwork_finish(struct vrun *run, struct vwork *w, unsigned int timeout_ms, char *reason,
		 size_t len)
{
	uint64_t end = now_ms() + timeout_ms;

	if (w->pid <= 0)
		return 0;
	if (w->to >= 0) {
		close(w->to);
		w->to = -1;
	}
	while (!reap(run, w, false)) {
		if (vrun_cancelled(run) || now_ms() >= end) {
			bool late = !vrun_cancelled(run);

			vwork_kill(run, w);
			/* a SIGKILL of ours is not the workload's failure: say which it was */
			if (late && !(WIFEXITED(w->status) && WEXITSTATUS(w->status) == 0)) {
				snprintf(reason, len, "workload %s did not exit within %u ms "
					 "of its end: killed", w->kind, timeout_ms);
				return -ETIMEDOUT;
			}
			break;
		}
		usleep(2000);
	}
	if (WIFEXITED(w->status) && WEXITSTATUS(w->status) == 0)
		return 0;
	describe_exit(w, reason, len);
	return -ECHILD;
}

void vwork_kill(struct vrun *run, struct vwork *w)
{
	if (w->pid <= 0 || w->reaped)
		return;
	kill(w->pid, SIGKILL);
	reap(run, w, true);
}

int vline_u64(const char *line, const char *key, uint64_t *v)
{
	size_t k = strlen(key);
	const char *p = line;
	char *end;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[k] == '=') {
			*v = strtoull(p + k + 1, &end, 10);
			return end > p + k + 1 ? 0 : -EINVAL;
		}
		p += k;
	}
	return -ENOENT;
}
