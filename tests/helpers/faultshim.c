// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * faultshim: an LD_PRELOAD library that makes the n-th open or write under a directory
 * fail, come out short or pause, for the fault-injection tier (issue 15).  Built as
 * tests/helpers/.libs/faultshim.so; tests/unit/fault-shim.sh shows (and proves) its use.
 *
 * Environment (read once, at the first intercepted call):
 *   FAULT_PREFIX=DIR     only calls on paths under DIR count (the path an fd was opened
 *                        with, as /proc/self/fd/N reads; DIR is canonicalized with
 *                        realpath(); required: without it the shim does nothing)
 *   FAULT_OP=write|open  which calls count (default write); open covers open(),
 *                        openat() and openat2() (through syscall()), write covers
 *                        write() on an fd whose path is under DIR
 *   FAULT_NTH=N          the first counted call to hit, 1-based (default 1)
 *   FAULT_COUNT=K        hit K calls from the N-th on (default 1; 0: every one)
 *   FAULT_ACTION=A       EINVAL, EIO, EBUSY, EPERM, ENOSPC, EAGAIN (fail with that errno,
 *                        nothing done), short (write: write all but the last byte and
 *                        return that count; open: as EIO), pause:MS (sleep MS ms, then
 *                        do the call: time for a test to send a signal), default EIO
 *   FAULT_LOG=FILE       append "OP INDEX HIT|pass PATH" per counted call (the step
 *                        numbers of a plan, for a test that walks every step)
 *   FAULT_SIGDFL=1       at load, SIGINT and SIGQUIT back to their default action: a
 *                        shell without job control starts a background job (`cmd &`)
 *                        with both ignored, so a test's `kill -INT $!` would do nothing
 *
 * Example: fail the 2nd write of a set with EBUSY, the first one goes through:
 *   FAULT_PREFIX=$ROOT/sys/fs/cgroup FAULT_NTH=2 FAULT_ACTION=EBUSY \
 *   LD_PRELOAD=tests/helpers/.libs/faultshim.so cgctl --root $ROOT set ...
 * Under an ASan build add ASAN_OPTIONS=verify_asan_link_order=0 (libasan must otherwise
 * come first).
 *
 * Fixture files are plain files, where O_TRUNC empties the file at open; on cgroupfs a
 * failed write leaves the old value.  So with FAULT_OP=write the shim opens files under
 * DIR without O_TRUNC and truncates at the first write that goes through: a failed or
 * paused write leaves the fixture file as the kernel leaves a cgroup file.  (An fd from
 * dup() or another call the shim does not see inherits no such deferral.)
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* the project builds with -fvisibility=hidden: the interposed calls must be seen */
#define SHIM_EXPORT __attribute__((visibility("default")))

enum act { ACT_ERRNO, ACT_SHORT, ACT_PAUSE };

static struct {
	bool on, want_write;
	char prefix[PATH_MAX];
	size_t plen;
	long nth, count;
	enum act act;
	int err;
	long pause_ms;
	const char *log;
} cfg;
static long counter;
#define MAX_FDS 4096
static unsigned char trunc_later[MAX_FDS];	/* O_TRUNC deferred to the first write */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static long (*real_syscall)(long, ...);

static const struct {
	const char *name;
	int err;
} errs[] = { { "EINVAL", EINVAL }, { "EIO", EIO }, { "EBUSY", EBUSY }, { "EPERM", EPERM },
	     { "ENOSPC", ENOSPC }, { "EAGAIN", EAGAIN }, { "EACCES", EACCES } };

static void init(void)
{
	const char *p = getenv("FAULT_PREFIX"), *v;

	real_write = dlsym(RTLD_NEXT, "write");
	real_open = dlsym(RTLD_NEXT, "open");
	real_openat = dlsym(RTLD_NEXT, "openat");
	real_syscall = dlsym(RTLD_NEXT, "syscall");
	if (!p || !*p || !realpath(p, cfg.prefix))
		return;
	cfg.plen = strlen(cfg.prefix);
	v = getenv("FAULT_OP");
	cfg.want_write = !v || strcmp(v, "open") != 0;
	v = getenv("FAULT_NTH");
	cfg.nth = v ? atol(v) : 1;
	v = getenv("FAULT_COUNT");
	cfg.count = v ? atol(v) : 1;
	cfg.act = ACT_ERRNO;
	cfg.err = EIO;
	v = getenv("FAULT_ACTION");
	if (v && !strcmp(v, "short")) {
		cfg.act = ACT_SHORT;
	} else if (v && !strncmp(v, "pause:", 6)) {
		cfg.act = ACT_PAUSE;
		cfg.pause_ms = atol(v + 6);
	} else if (v) {
		for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
			if (!strcmp(v, errs[i].name))
				cfg.err = errs[i].err;
	}
	cfg.log = getenv("FAULT_LOG");
	cfg.on = true;
}

/* Runs at load, before main(): a background job of a script ignores SIGINT and SIGQUIT
 * (POSIX sh, asynchronous lists without job control); undo that on request. */
__attribute__((constructor)) static void sigdfl(void)
{
	const char *v = getenv("FAULT_SIGDFL");

	if (v && !strcmp(v, "1")) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
	}
}

static bool under(const char *path)
{
	return !strncmp(path, cfg.prefix, cfg.plen) &&
	       (path[cfg.plen] == '/' || path[cfg.plen] == '\0');
}

/* The path of @dirfd joined with @rel (absolute @rel alone); truncated paths just do
 * not match a prefix. */
static void join(int dirfd, const char *rel, char *out, size_t len)
{
	char link[64], dir[PATH_MAX - 256];
	ssize_t n;

	if (rel[0] == '/' || dirfd == AT_FDCWD) {
		if (rel[0] == '/' || !getcwd(dir, sizeof(dir)))
			snprintf(out, len, "%s", rel);
		else
			(void)!snprintf(out, len, "%.*s/%.200s", (int)sizeof(dir), dir, rel);
		return;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
	n = readlink(link, dir, sizeof(dir) - 1);
	dir[n < 0 ? 0 : n] = '\0';
	(void)!snprintf(out, len, "%.*s/%.200s", (int)sizeof(dir), dir, rel);
}

static void log_call(const char *op, long idx, bool hit, const char *path)
{
	char line[PATH_MAX + 64];
	int fd, n;

	if (!cfg.log)
		return;
	n = snprintf(line, sizeof(line), "%s %ld %s %s\n", op, idx, hit ? "HIT" : "pass", path);
	fd = real_open(cfg.log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	(void)!real_write(fd, line, (size_t)n);
	close(fd);
}

/* Count a call on @path.  Returns: true when this one is hit. */
static bool count_call(const char *op, const char *path)
{
	long idx, hi;
	bool hit;

	idx = __atomic_add_fetch(&counter, 1, __ATOMIC_SEQ_CST);
	hi = cfg.count ? cfg.nth + cfg.count - 1 : LONG_MAX;
	hit = idx >= cfg.nth && idx <= hi;
	log_call(op, idx, hit, path);
	return hit;
}

static void do_pause(void)
{
	struct timespec ts = { cfg.pause_ms / 1000, (cfg.pause_ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* With FAULT_OP=write, an open for writing under DIR with O_TRUNC: drop O_TRUNC from
 * *@flags.  Returns: true when it did (the truncation is due at the first write). */
static bool defer_trunc(int dirfd, const char *rel, int *flags)
{
	char path[PATH_MAX];

	if (!cfg.on || !cfg.want_write || !rel || !(*flags & O_TRUNC) ||
	    (*flags & O_ACCMODE) == O_RDONLY)
		return false;
	join(dirfd, rel, path, sizeof(path));
	if (!under(path))
		return false;
	*flags &= ~O_TRUNC;
	return true;
}

/* The fd of an open we saw: remember (or forget) its deferred truncation. */
static int opened(int fd, bool deferred)
{
	if (fd >= 0 && fd < MAX_FDS)
		trunc_later[fd] = deferred;
	return fd;
}

/* For an open on @path: 0 go on, -1 fail (errno set). */
static int open_fault(int dirfd, const char *rel)
{
	char path[PATH_MAX];

	pthread_once(&once, init);
	if (!cfg.on || cfg.want_write || !rel)
		return 0;
	join(dirfd, rel, path, sizeof(path));
	if (!under(path) || !count_call("open", path))
		return 0;
	if (cfg.act == ACT_PAUSE) {
		do_pause();
		return 0;
	}
	errno = cfg.act == ACT_SHORT ? EIO : cfg.err;
	return -1;
}

SHIM_EXPORT int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (open_fault(AT_FDCWD, path) < 0)
		return -1;
	bool d = defer_trunc(AT_FDCWD, path, &flags);

	return opened(real_open(path, flags, mode), d);
}
SHIM_EXPORT int open64(const char *path, int flags, ...) __attribute__((alias("open")));

SHIM_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if (open_fault(dirfd, path) < 0)
		return -1;
	bool d = defer_trunc(dirfd, path, &flags);

	return opened(real_openat(dirfd, path, flags, mode), d);
}
SHIM_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
	__attribute__((alias("openat")));

SHIM_EXPORT long syscall(long n, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	pthread_once(&once, init);
	if (n == SYS_openat2 && a[2]) {
		/* struct open_how starts with the u64 flags */
		uint64_t how[8] = { 0 };
		size_t sz = (size_t)a[3] < sizeof(how) ? (size_t)a[3] : sizeof(how);
		int fl;
		bool d;

		if (open_fault((int)a[0], (const char *)a[1]) < 0)
			return -1;
		memcpy(how, (const void *)a[2], sz);
		fl = (int)how[0];
		d = defer_trunc((int)a[0], (const char *)a[1], &fl);
		how[0] = (uint64_t)(unsigned int)fl;
		return opened((int)real_syscall(n, a[0], a[1], (long)how, a[3], a[4], a[5]), d);
	}
	return real_syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

SHIM_EXPORT ssize_t write(int fd, const void *buf, size_t len)
{
	char link[64], path[PATH_MAX];
	ssize_t n;

	pthread_once(&once, init);
	if (!cfg.on || !cfg.want_write)
		return real_write(fd, buf, len);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return real_write(fd, buf, len);
	path[n] = '\0';
	if (!under(path))
		return real_write(fd, buf, len);
	bool hit = count_call("write", path);

	if (hit && cfg.act == ACT_ERRNO) {
		errno = cfg.err;
		return -1;
	}
	if (hit && cfg.act == ACT_PAUSE)
		do_pause();
	if (fd >= 0 && fd < MAX_FDS && trunc_later[fd]) {
		trunc_later[fd] = 0;
		if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
			return -1;
	}
	if (hit && cfg.act == ACT_SHORT)
		return len > 1 ? real_write(fd, buf, len - 1) : 0;
	return real_write(fd, buf, len);
}
