/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libcgctl: models of the Linux kernel's cgroup accounting algorithms (memcg page
 * counters and charge stock, move charge, CFS bandwidth, per-cpu counters, per-cpu
 * page lists) and safe access to cgroupfs.
 *
 * Conventions: every function returns 0 (or a count) on success and a negative errno on
 * failure; the library never prints to stdout and never exits.  Functions that can fail
 * for a reason worth explaining take a struct cgctl_error * (may be NULL) and fill it
 * with one human-readable line.  Sizes are bytes, times are nanoseconds unless a name
 * says otherwise (_us, _pages).
 */
#ifndef LIBCGCTL_H
#define LIBCGCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CGCTL_EXPORT __attribute__((visibility("default")))

/* ===== section: core (owner: lead) ===== */

/* One line explaining the last failure, filled by functions that take it. */
struct cgctl_error {
	int err;	/* positive errno, 0 if none */
	char msg[256];	/* "0.6 CPU exceeds parent /a's 0.5 CPU; ..." */
};

struct cgctl_ctx;

/*
 * cgctl_new: create a context.  @root is a prefix prepended to every absolute path the
 * kernel layer opens (/proc, /sys/fs/cgroup); NULL or "" means the live system.  With a
 * root, hierarchy discovery reads the fixture's mount map ROOT/cgctl-mounts instead of
 * asking libcgroup.  Returns: 0, or -errno (-ENOMEM, -ENOENT if @root does not exist).
 */
int cgctl_new(struct cgctl_ctx **ret, const char *root);
struct cgctl_ctx *cgctl_ref(struct cgctl_ctx *ctx);
/* Returns: NULL when the last reference was dropped, @ctx otherwise. */
struct cgctl_ctx *cgctl_unref(struct cgctl_ctx *ctx);
/* Returns: the root prefix ("" for the live system). */
const char *cgctl_get_root(const struct cgctl_ctx *ctx);

/* Log callback: syslog priorities (LOG_ERR ... LOG_DEBUG). Default: stderr, LOG_ERR;
 * environment CGCTL_LOG=debug|info|notice|warning|err overrides the default priority. */
typedef void (*cgctl_log_fn)(void *data, int priority, const char *file, int line,
			     const char *fn, const char *format, va_list args);
void cgctl_set_log_fn(struct cgctl_ctx *ctx, cgctl_log_fn fn, void *data);
int cgctl_get_log_priority(const struct cgctl_ctx *ctx);
void cgctl_set_log_priority(struct cgctl_ctx *ctx, int priority);

/* Kernel versions as one comparable number: CGCTL_KVER(6, 1, 0). */
#define CGCTL_KVER(a, b, c) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | (uint32_t)(c))
#define CGCTL_KVER_MAJOR(v) ((v) >> 24)
#define CGCTL_KVER_MINOR(v) (((v) >> 16) & 0xff)
#define CGCTL_KVER_PATCH(v) ((v) & 0xffff)
/* Parse "6.18.44-fc-v1045", "6.1", "2.6.34": Returns 0 and sets *ret, or -EINVAL. */
int cgctl_kver_parse(const char *s, uint32_t *ret);
/* Returns: the running kernel's version (uname), or 0 if it cannot be parsed. */
uint32_t cgctl_kver_running(void);

/* ---- units ---- */
#define CGCTL_SIZE_MAX UINT64_MAX	/* "max" */
/*
 * cgctl_parse_size: "4096", "512K", "1.5G", "512MiB", "max" (-> CGCTL_SIZE_MAX).
 * K/M/G/T/P/E and KiB.. are powers of 1024; a fraction must come to a whole number of
 * bytes.  Returns: 0, -EINVAL (empty, negative, junk, fractional bytes), -ERANGE (overflow).
 */
int cgctl_parse_size(const char *s, uint64_t *ret);
/*
 * cgctl_parse_duration: "500us", "50ms", "1.5s", "2m", "100ns"; a plain number is taken
 * in @plain_unit_ns (1000 for files in µs).  Result in ns, exact.
 * Returns: 0, -EINVAL, -ERANGE.
 */
int cgctl_parse_duration(const char *s, uint64_t plain_unit_ns, uint64_t *ret);
/* Format for humans: "512MiB", "1.50GiB", "max"; "50ms", "1.5s".  Returns the length
 * that was (or would have been) written, like snprintf. */
int cgctl_format_size(char *buf, size_t len, uint64_t bytes);
int cgctl_format_duration(char *buf, size_t len, uint64_t ns);

/* Exit status the CLI uses for a -errno (see cgctl(1) EXIT STATUS). */
int cgctl_errno_to_exit(int neg_errno);

/* ===== end: core ===== */

/* ===== section: cgroupfs (owner: lead) ===== */

/* A mounted cgroup hierarchy, as discovered (libcgroup) or read from a fixture's map. */
struct cgctl_mount {
	const char *path;		/* mount point without the root prefix */
	const char *controllers;	/* "cpu,cpuacct"; v2: root's cgroup.controllers */
	int version;			/* 1 or 2 */
};

/* cgctl_mounts: all hierarchies.  Returns: the count, *ret points into @ctx; or -errno. */
int cgctl_mounts(struct cgctl_ctx *ctx, const struct cgctl_mount **ret);
/*
 * cgctl_mount_find: the hierarchy that carries @controller ("memory", "cpu"); a v1
 * mount wins over v2 for a controller bound to v1 (that is how the kernel binds it).
 * @controller NULL: the cgroup2 mount.  Returns: 0, or -ENODEV when no hierarchy has it.
 */
int cgctl_mount_find(struct cgctl_ctx *ctx, const char *controller,
		     const struct cgctl_mount **ret);
/* Returns: true if @m carries @controller. */
bool cgctl_mount_has(const struct cgctl_mount *m, const char *controller);

/*
 * cgctl_path_normalize: "/01", "01/02", "//a/./b/" -> "/01", "/01/02", "/a/b"; "/" for
 * the root.  Refuses ".." components (-EINVAL) and control characters (-EINVAL).
 * Returns: 0, -EINVAL, -ENAMETOOLONG.
 */
int cgctl_path_normalize(const char *in, char *out, size_t len);

/* Open the directory of cgroup @path in @m: openat() component by component with
 * O_NOFOLLOW|O_DIRECTORY below the mount's fd.  Returns: an fd, or -errno
 * (-ENOENT missing, -ELOOP/-ENOTDIR symlink or file, -EINVAL bad path). */
int cgctl_cg_open(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path);
/* Returns: 1 if it exists, 0 if not, -errno on other errors. */
int cgctl_cg_exists(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path);
/* Read a control file whole (NUL-terminated, *len without the NUL).  Returns: 0 / -errno. */
int cgctl_cg_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		  const char *file, char **buf, size_t *len);
/* Read a number; "max" and the v1 "unlimited" values read as UINT64_MAX, "-1" too.
 * Returns: 0, -errno, -EINVAL when the file is not one number. */
int cgctl_cg_read_u64(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		      const char *file, uint64_t *v);
/* Write @value with one write(2) (file must exist; never created).  Returns: 0 or the
 * kernel's -errno unchanged (-EINVAL, -EBUSY, ...). */
int cgctl_cg_write(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		   const char *file, const char *value);
/* Create @path (the parent must exist).  Returns: 0, -EEXIST, -ENOENT, -errno. */
int cgctl_cg_create(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path);

#define CGCTL_RM_RECURSIVE	(1u << 0)	/* remove descendants first (depth first) */
#define CGCTL_RM_MOVE_TASKS	(1u << 1)	/* move remaining tasks to the parent of @path */
/* Remove @path.  Without CGCTL_RM_MOVE_TASKS nothing is moved: -EBUSY (and nothing
 * removed) when any cgroup to remove still has tasks.  The root is refused (-EPERM). */
int cgctl_cg_remove(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		    unsigned int flags, struct cgctl_error *e);
/* PIDs (cgroup.procs) or TIDs (tasks / cgroup.threads) of @path.  Returns: count and a
 * malloc'ed array in *ret, or -errno. */
ssize_t cgctl_cg_pids(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		      const char *file, pid_t **ret);
/* Names of child cgroups, sorted.  Returns: count and a malloc'ed NULL-terminated array
 * (free with cgctl_strv_free), or -errno. */
ssize_t cgctl_cg_children(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			  const char *path, char ***ret);
void cgctl_strv_free(char **v);
/* Move the thread group @pid into @path: one write(2) of the PID to cgroup.procs;
 * EINVAL from a task that is still being forked is retried 5 times, 30 ms apart.
 * Returns: 0, -ESRCH (no such process), -EINVAL, -errno. */
int cgctl_cg_attach(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		    pid_t pid);
/* The cgroup of @pid (0 = self) in hierarchy @m, from /proc/PID/cgroup.
 * Returns: 0 and a malloc'ed path, -ESRCH, -ENOENT (not in that hierarchy). */
int cgctl_pid_cgroup(struct cgctl_ctx *ctx, pid_t pid, const struct cgctl_mount *m,
		     char **ret);
/* The hierarchy's cgroup inode number of @path (st_ino; what /proc/kpagecgroup holds). */
int cgctl_cg_ino(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		 uint64_t *ino);
/* Open an absolute system path (e.g. "/proc/123/pagemap") below the root prefix.
 * Returns: fd or -errno. */
int cgctl_open_sys(struct cgctl_ctx *ctx, const char *abspath, int flags);
/* Read a whole system file below the root prefix.  Returns: 0 / -errno. */
int cgctl_read_sys(struct cgctl_ctx *ctx, const char *abspath, char **buf, size_t *len);

/* ===== end: cgroupfs ===== */

/* ===== section: parse (owner: parsers) ===== */

/*
 * Parsers of kernel control files.  Each one is a pure function over @buf/@len (the
 * file's bytes; need not be NUL-terminated, may contain NULs), never reads outside it,
 * does no I/O and returns 0 (or a count) or -errno.  Callbacks return 0 to go on; any
 * other value stops the walk and is returned as is.
 */

/* One cgroup or cgroup2 line of /proc/PID/mountinfo.  Strings are NUL-terminated and
 * valid only during the callback. */
struct cgctl_mountinfo {
	unsigned int mount_id, parent_id, major, minor;
	int version;			/* 1 (fs type "cgroup") or 2 ("cgroup2") */
	const char *root;		/* unescaped ("\040" -> ' '): "/" or "/sub" */
	const char *mount_point;	/* unescaped: "/sys/fs/cgroup/cpu,cpuacct" */
	const char *fstype;		/* "cgroup" or "cgroup2" */
	const char *super_opts;		/* raw (still escaped): "rw,cpu,cpuacct" */
	const char *controllers;	/* v1 controllers from super_opts: "cpu,cpuacct";
					 * "" for v2 and for name=-only hierarchies */
	const char *name;		/* v1 "name=systemd" -> "systemd" (unescaped); or NULL */
};
typedef int (*cgctl_mountinfo_fn)(const struct cgctl_mountinfo *mi, void *data);
/*
 * cgctl_parse_mountinfo: call @fn for each cgroup/cgroup2 mount in a mountinfo buffer;
 * other file systems are skipped.  Returns: the number of cgroup mounts, -EINVAL on a
 * malformed line, -ENOMEM, or @fn's nonzero return.
 */
int cgctl_parse_mountinfo(const char *buf, size_t len, cgctl_mountinfo_fn fn, void *data);

/*
 * cgctl_parse_proc_cgroup: the path of a /proc/PID/cgroup buffer's line for
 * @controller: a v1 controller ("cpu" matches "4:cpu,cpuacct:/p"), a named hierarchy
 * ("name=systemd"), or NULL for the cgroup2 line "0::/p".  A trailing " (deleted)" is
 * stripped and reported in *@deleted (may be NULL).  Returns: 0 and a malloc'ed path
 * in *@ret, -ENOENT (no such line), -EINVAL (malformed line), -ENOMEM.
 */
int cgctl_parse_proc_cgroup(const char *buf, size_t len, const char *controller,
			    char **ret, bool *deleted);

/* One "key value" line of a flat keyed file (memory.stat, cpu.stat, memory.events). */
struct cgctl_kv {
	const char *key;	/* NUL-terminated, valid during the callback */
	const char *value;	/* the value text, NUL-terminated */
	uint64_t u;		/* the value, if has_u */
	int64_t s;		/* the value, if has_s ("-5" has only has_s) */
	bool has_u, has_s;
};
typedef int (*cgctl_kv_fn)(const struct cgctl_kv *kv, void *data);
/*
 * cgctl_parse_keyed: call @fn for each line "key value" (one or more blanks between;
 * empty lines skipped; key < 128, value < 64 bytes).  Returns: the number of lines,
 * -EINVAL (a line without a value, with a third field, or too long), or @fn's return.
 */
int cgctl_parse_keyed(const char *buf, size_t len, cgctl_kv_fn fn, void *data);
/* Look up @key (first match).  Returns: 0, -ENOENT (absent), -EINVAL (malformed file,
 * or the value is not a number of that type), -ERANGE (does not fit). */
int cgctl_parse_keyed_u64(const char *buf, size_t len, const char *key, uint64_t *ret);
int cgctl_parse_keyed_s64(const char *buf, size_t len, const char *key, int64_t *ret);
/* A file holding one decimal u64 (memory.current, cpuacct.usage), optional trailing
 * newline.  Returns: 0, -EINVAL, -ERANGE. */
int cgctl_parse_u64(const char *buf, size_t len, uint64_t *ret);

/* cpu.stat of either version (and v1 cpuacct), normalised to nanoseconds. */
#define CGCTL_CPU_STAT_USAGE		(1u << 0)	/* usage_ns */
#define CGCTL_CPU_STAT_USER		(1u << 1)	/* user_ns */
#define CGCTL_CPU_STAT_SYSTEM		(1u << 2)	/* system_ns */
#define CGCTL_CPU_STAT_NR_PERIODS	(1u << 3)
#define CGCTL_CPU_STAT_NR_THROTTLED	(1u << 4)
#define CGCTL_CPU_STAT_THROTTLED	(1u << 5)	/* throttled_ns */
#define CGCTL_CPU_STAT_NR_BURSTS	(1u << 6)	/* kernel >= 5.14 */
#define CGCTL_CPU_STAT_BURST		(1u << 7)	/* burst_ns, kernel >= 5.14 */
struct cgctl_cpu_stat {
	uint64_t usage_ns, user_ns, system_ns;
	uint64_t nr_periods, nr_throttled, throttled_ns;
	uint64_t nr_bursts, burst_ns;
	unsigned int present;		/* CGCTL_CPU_STAT_* of the fields that were read */
};
/*
 * cgctl_parse_cpu_stat: fill @st from a cpu.stat buffer of hierarchy @version (1:
 * throttled_time/burst_time in ns; 2: *_usec).  Fields not in the file keep their value
 * and flag, so v1 cpu.stat and cpuacct files can be merged into one @st; unknown keys
 * are ignored.  Returns: 0, -EINVAL (bad @version, malformed file), -ERANGE.
 */
int cgctl_parse_cpu_stat(const char *buf, size_t len, int version,
			 struct cgctl_cpu_stat *st);
/* v1 cpuacct.usage (ns) -> st->usage_ns.  Returns: 0, -EINVAL, -ERANGE. */
int cgctl_parse_cpuacct_usage(const char *buf, size_t len, struct cgctl_cpu_stat *st);
/* v1 cpuacct.stat ("user N\nsystem N" in USER_HZ ticks, @user_hz from
 * sysconf(_SC_CLK_TCK)) -> st->user_ns, system_ns.  Returns: 0, -EINVAL, -ERANGE. */
int cgctl_parse_cpuacct_stat(const char *buf, size_t len, unsigned long user_hz,
			     struct cgctl_cpu_stat *st);

/*
 * cgctl_parse_cpu_max: v2 cpu.max "max 100000" / "50000 100000" -> quota in µs
 * (UINT64_MAX for "max") and period in µs; a lone quota (as written, "max") leaves
 * *@period_us 0.  Returns: 0, -EINVAL, -ERANGE.
 */
int cgctl_parse_cpu_max(const char *buf, size_t len, uint64_t *quota_us,
			uint64_t *period_us);
/* v1 cpu.cfs_quota_us: a negative value ("-1") is unlimited -> UINT64_MAX.
 * Returns: 0, -EINVAL, -ERANGE. */
int cgctl_parse_cfs_quota(const char *buf, size_t len, uint64_t *quota_us);
/*
 * cgctl_parse_mem_limit: memory.max/high/low/min/swap.max ("max" or bytes) and v1
 * *limit_in_bytes, where unlimited reads as PAGE_COUNTER_MAX pages
 * (9223372036854771712 with 4 KiB pages; any value within 64 KiB of INT64_MAX is taken
 * as unlimited) or "-1" -> UINT64_MAX.  Returns: 0, -EINVAL, -ERANGE.
 */
int cgctl_parse_mem_limit(const char *buf, size_t len, uint64_t *bytes);

/* ===== end: parse ===== */

/* ===== section: memcg (owner: memcg) ===== */
/* ===== end: memcg ===== */

/* ===== section: pagescan (owner: pagescan) ===== */

/*
 * Page inventory of one task: which memory cgroup each resident page is charged to,
 * read from /proc/PID/maps, /proc/PID/pagemap, /proc/kpagecgroup, /proc/kpageflags and
 * /proc/kpagecount.  Counts are base pages (PAGE_SIZE); a 2 MiB THP counts 512.  A
 * physical page mapped at several addresses of the task is counted once (charged bytes,
 * not RSS).  kpagecgroup reports the nearest online ancestor for pages of a removed
 * cgroup and the hierarchy root for pages charged to the root memcg.
 */
struct cgctl_inv_group {
	uint64_t ino;		/* memcg inode as in /proc/kpagecgroup; 0: not charged */
	char *path;		/* "/a/b" in the memory hierarchy ("/" root); NULL: inode not
				 * found there, or owner unknown (CGCTL_INV_UNKNOWN_OWNER) */
	uint64_t pages;		/* all resident pages of the task charged here (sum below) */
	uint64_t anon_exclusive;	/* anon, mapped by this task only (pagemap bit 56) */
	uint64_t anon_shared;	/* anon, also mapped by others (COW after fork, KSM) */
	uint64_t anon_shared_mc2;	/* of anon_shared: mapcount exactly 2 (2.6.35-3.4's
					 * move-charge test "mapcount <= 2") */
	uint64_t file;		/* page cache of regular files (not shmem) */
	uint64_t shmem;		/* shmem/tmpfs, SysV SHM, MAP_SHARED|MAP_ANONYMOUS */
	uint64_t thp;		/* of the above: pages in transparent huge/large folios */
	uint64_t thp_pmd;	/* of thp: anon pages of whole 2 MiB folios mapped at one
				 * 2 MiB-aligned address (PMD-mapped; 3.5-6.12 move them as one
				 * unit, PTE-mapped parts of large folios are skipped) */
};

/* Figures that could not be determined; they read as 0 (never guessed). */
#define CGCTL_INV_UNKNOWN_OWNER		(1u << 0)	/* PFNs hidden (opener lacks
			CAP_SYS_ADMIN) or no kpagecgroup: one group, ino 0, path NULL */
#define CGCTL_INV_UNKNOWN_SHMEM		(1u << 1)	/* no kpageflags: shmem counted
							 * in file */
#define CGCTL_INV_UNKNOWN_THP		(1u << 2)	/* no kpageflags: thp, thp_pmd */
#define CGCTL_INV_UNKNOWN_MAPCOUNT	(1u << 3)	/* no kpagecount: anon_shared_mc2 */

struct cgctl_inventory {
	pid_t pid;
	bool pfn_visible;	/* pagemap carried PFNs */
	unsigned int unknown;	/* CGCTL_INV_UNKNOWN_* */
	uint64_t present_pages;	/* resident pages (each physical page once), incl. zero */
	uint64_t zero_pages;	/* mappings of the shared zero page: never charged, in no
				 * group */
	uint64_t swap_pages;	/* swapped-out entries (pagemap bit 62).  Their owner is not
				 * visible from /proc (swap_cgroup is not exported); assume
				 * them charged to task_cgroup (true unless the task moved
				 * after swap-out without move charge) */
	uint64_t virt_pages;	/* virtual pages walked (all VMAs) */
	size_t n_vmas;
	char *task_cgroup;	/* the task's memory cgroup now; NULL if unknown */
	uint64_t task_ino;	/* its inode, 0 if unknown */
	size_t n_groups;
	struct cgctl_inv_group *groups;	/* descending by pages, then by ino */
};

#define CGCTL_INV_SINGLE_THREAD	(1u << 0)	/* one thread (default: one per CPU, max 2) */
#define CGCTL_INV_NO_PATHS	(1u << 1)	/* do not resolve inodes to paths */
#define CGCTL_INV_NO_MAPCOUNT	(1u << 2)	/* skip kpagecount (anon_shared_mc2 unknown) */

/*
 * cgctl_inventory_scan: inventory the resident pages of @pid (CGCTL_INV_* flags).  Needs
 * ptrace-read access to @pid; without CAP_SYS_ADMIN the owner is unknown (see unknown).
 * The memory hierarchy is the one cgctl_mount_find(ctx, "memory") names.
 * Returns: 0 and a result to free with cgctl_inventory_free(), or -ESRCH (no such
 * process), -EACCES/-EPERM, -ENOMEM, -EIO (malformed /proc file), -errno.
 */
int cgctl_inventory_scan(struct cgctl_ctx *ctx, pid_t pid, unsigned int flags,
			 struct cgctl_inventory **ret, struct cgctl_error *e);
/* Free a result of cgctl_inventory_scan (NULL is fine). */
void cgctl_inventory_free(struct cgctl_inventory *inv);
/* Returns: the group charged with @ino in @inv, or NULL. */
const struct cgctl_inv_group *cgctl_inventory_group(const struct cgctl_inventory *inv,
						    uint64_t ino);

/* ===== end: pagescan ===== */

/* ===== section: bandwidth (owner: bandwidth) ===== */

/*
 * CFS bandwidth control (cpu.cfs_quota_us / cpu.max): a discrete-event model of the
 * kernel's pools, per-CPU silos and period timer, the write rules and a safe write order.
 * Times in ns unless a name ends in _us.
 */
#define CGCTL_BW_INF UINT64_MAX		/* quota: unlimited ("max", v1 "-1") */
#define CGCTL_BW_MAX_US ((1ULL << 44) - 1)	/* MAX_BW: largest finite quota, µs */

/* One group's setting as the interface files hold it, in µs. */
struct cgctl_bw_settings {
	uint64_t quota_us;	/* CGCTL_BW_INF: unlimited */
	uint64_t period_us;
	uint64_t burst_us;
};

/* What cpu.stat / cpu.stat.local report; nr_* are the kernel's 32-bit ints (they wrap). */
struct cgctl_bw_stat {
	int32_t nr_periods;
	int32_t nr_throttled;
	int32_t nr_bursts;
	uint64_t throttled_ns;		/* cpu.stat throttled_time: own quota, Σ over CPUs */
	uint64_t throttled_local_ns;	/* cpu.stat.local (6.6+): self or ancestor, Σ CPUs */
	uint64_t burst_ns;		/* burst_time */
	uint64_t usage_ns;		/* CPU time of the group and its descendants */
};

/* One period of a group, for pictures (recorded on the group's phase grid). */
struct cgctl_bw_period {
	uint64_t end_ns;	/* boundary at which this period ended */
	uint64_t used_ns;	/* CPU time used during the period */
	uint64_t throttled_ns;	/* Σ over CPUs of own-quota throttled time in the period */
	uint64_t credit_ns;	/* pool above quota right after the refill (burst credit) */
	bool counted;		/* the period timer was armed: counted in nr_periods */
	bool throttled;		/* counted in nr_throttled */
};

/* Simulation parameters; zero fields take the defaults noted. */
struct cgctl_bw_sim_config {
	uint32_t kver;		/* era; 0: CGCTL_KVER(6,18,0) */
	unsigned int ncpus;	/* 0: 1 */
	unsigned int hz;	/* 0: 250 */
	uint64_t slice_ns;	/* sched_cfs_bandwidth_slice; 0: 5 ms */
	uint64_t duration_ns;	/* the workload runs this long, then its threads are killed */
	uint64_t settle_ns;	/* ... and the model runs this much longer ("settled" stats) */
	uint64_t seed;		/* timer phases and jitter */
	uint32_t other_load_ppm; /* CPU share taken by unrelated tasks while the group runs */
	uint64_t timer_cost_ns;	/* period-timer callback run time (drives the overload guard) */
	bool record_periods;	/* keep per-period detail (cgctl_bw_sim_periods) */
};

struct cgctl_bw_trace;	/* parsed busy/idle trace */

/* A thread of the workload.  busy_ns 0 and no trace: always busy. */
struct cgctl_bw_thread {
	int group;		/* from cgctl_bw_sim_add_group */
	uint64_t start_ns;	/* becomes runnable at this time */
	uint64_t busy_ns;	/* CPU time per busy phase (however long throttling stretches it) */
	uint64_t idle_ns;	/* sleep after each busy phase */
	uint32_t jitter_ppm;	/* each phase is scaled by 1 ± U(0, jitter) */
	const struct cgctl_bw_trace *trace;	/* if set: busy/idle from trace thread ... */
	unsigned int trace_thread;		/* ... this one; the thread exits at its end */
};

struct cgctl_bw_sim;

/* Returns: 0 and a new simulator in *ret, -EINVAL (bad config), -ENOMEM. */
int cgctl_bw_sim_new(struct cgctl_bw_sim **ret, const struct cgctl_bw_sim_config *cfg);
void cgctl_bw_sim_free(struct cgctl_bw_sim *sim);
/*
 * cgctl_bw_sim_add_group: a group below @parent (-1: below the root) with @bw, configured
 * long before time 0 and idle since (pool full, timer off).  Parents before children.
 * Returns: the group index (>= 0), -EINVAL, -ENOMEM.
 */
int cgctl_bw_sim_add_group(struct cgctl_bw_sim *sim, int parent,
			   const struct cgctl_bw_settings *bw);
/* Returns: 0, -EINVAL (unknown group, trace thread out of range), -ENOMEM. */
int cgctl_bw_sim_add_thread(struct cgctl_bw_sim *sim, const struct cgctl_bw_thread *t);
/* Schedule a configuration write of @bw to @group at @at_ns (refill, silo reset,
 * unthrottle, as tg_set_cfs_bandwidth does).  Returns: 0, -EINVAL, -ENOMEM. */
int cgctl_bw_sim_write(struct cgctl_bw_sim *sim, int group, uint64_t at_ns,
		       const struct cgctl_bw_settings *bw);
/* Run once.  Returns: the number of events simulated (>= 0), -EINVAL, -ENOMEM, -EALREADY. */
int64_t cgctl_bw_sim_run(struct cgctl_bw_sim *sim);
/* Statistics of @group at the end of the workload (@settled false: what cpu.stat reads
 * at duration_ns) or at the end of the settle time.  Returns: 0, -EINVAL. */
int cgctl_bw_sim_stat(const struct cgctl_bw_sim *sim, int group, bool settled,
		      struct cgctl_bw_stat *ret);
/* Per-period detail of @group (record_periods).  Returns: the count, *ret valid until
 * cgctl_bw_sim_free; -EINVAL. */
ssize_t cgctl_bw_sim_periods(const struct cgctl_bw_sim *sim, int group,
			     const struct cgctl_bw_period **ret);
/* The effective (period, quota, burst) of @group after the run (the overload guard
 * may have doubled them).  Returns: 0, -EINVAL. */
int cgctl_bw_sim_settings(const struct cgctl_bw_sim *sim, int group,
			  struct cgctl_bw_settings *ret);

/*
 * cgctl_bw_trace_parse: a workload trace, one interval per line
 * "THREAD<TAB>busy|idle<TAB>DURATION" (DURATION: µs, or with ns/us/ms/s), '#' comments.
 * Returns: 0, -EINVAL (with the line number in @e), -ENOMEM.
 */
int cgctl_bw_trace_parse(const char *buf, size_t len, struct cgctl_bw_trace **ret,
			 struct cgctl_error *e);
/* Returns: the number of threads (highest THREAD + 1). */
unsigned int cgctl_bw_trace_threads(const struct cgctl_bw_trace *t);
void cgctl_bw_trace_free(struct cgctl_bw_trace *t);

/* A cgroup tree for the write rules: node 0 is the root; parents come before children. */
struct cgctl_bw_node {
	int parent;			/* -1 for the root */
	const char *path;		/* for messages ("/a/b") */
	struct cgctl_bw_settings bw;	/* current setting */
};

/*
 * cgctl_bw_check: would the kernel accept @proposed for @nodes[@target]?  Mirrors
 * tg_set_cfs_bandwidth()/tg_set_bandwidth() and, for @version 1, the whole-tree walk of
 * tg_cfs_schedulable_down().  @nodes may be NULL (n 0) to check the ranges only.
 * Returns: 0, or -EINVAL with a message naming the rule in @e.
 */
int cgctl_bw_check(const struct cgctl_bw_node *nodes, size_t n, size_t target,
		   const struct cgctl_bw_settings *proposed, int version,
		   struct cgctl_error *e);

enum cgctl_bw_file {
	CGCTL_BW_FILE_QUOTA,	/* v1 cpu.cfs_quota_us */
	CGCTL_BW_FILE_PERIOD,	/* v1 cpu.cfs_period_us */
	CGCTL_BW_FILE_BURST,	/* v1 cpu.cfs_burst_us, v2 cpu.max.burst */
	CGCTL_BW_FILE_MAX,	/* v2 cpu.max ("QUOTA PERIOD") */
};

#define CGCTL_BW_PLAN_MAX 4

/* One file write of a plan. */
struct cgctl_bw_write {
	enum cgctl_bw_file file;
	const char *name;		/* "cpu.cfs_quota_us" */
	char value[48];			/* what to write: "50000", "-1", "max 100000" */
	struct cgctl_bw_settings after;	/* the group's setting once this write is done */
};

/*
 * cgctl_bw_write_plan: the writes that take a group from @old to @new, skipping
 * unchanged values, in an order whose every intermediate state the kernel accepts
 * (burst down first / up last; period first when both grow, quota first when both
 * shrink; via quota -1 when no two-write path exists).  With @nodes (n > 0) every
 * intermediate is checked against the tree (cgctl_bw_check).
 * Returns: the number of writes in @out (0..CGCTL_BW_PLAN_MAX), -EINVAL with @e.
 */
int cgctl_bw_write_plan(const struct cgctl_bw_settings *old,
			const struct cgctl_bw_settings *new, int version,
			const struct cgctl_bw_node *nodes, size_t n, size_t target,
			struct cgctl_bw_write out[CGCTL_BW_PLAN_MAX], struct cgctl_error *e);

/* ===== end: bandwidth ===== */

/* ===== section: pcp (owner: pcp) ===== */
/* ===== end: pcp ===== */

/* ===== section: netlink (owner: netlink) ===== */
/* ===== end: netlink ===== */

/* ===== section: validate (owner: validate) ===== */

/* Verdict of one predicted quantity against repeated kernel observations. */
enum cgctl_verdict {
	CGCTL_VERDICT_MATCH = 0,	/* inside the tolerance, the model's bound or the noise */
	CGCTL_VERDICT_DIFFERS = 1,	/* |observed mean - predicted| above all of those */
	CGCTL_VERDICT_NA = 2,		/* not applicable; the reason says why */
};
/* Returns: "match", "differs" or "n/a". */
const char *cgctl_verdict_name(enum cgctl_verdict v);
/* Returns: 0 and sets *ret for "match"/"differs"/"n/a", or -EINVAL. */
int cgctl_verdict_parse(const char *s, enum cgctl_verdict *ret);

/* Sample statistics of repeated observations. */
struct cgctl_vstats {
	size_t n;
	double mean;
	double sd;	/* sample standard deviation (n - 1 divisor); 0 when n < 2 */
	double rsd;	/* sd / |mean|; 0 when the mean is 0 */
};
/* cgctl_vstats_compute: mean and sample sd of @x[0..n).
 * Returns: 0, -EINVAL when @n is 0 or a sample is not finite. */
int cgctl_vstats_compute(const double *x, size_t n, struct cgctl_vstats *ret);

/* One quantity of a scenario after all repetitions. */
struct cgctl_vquantity {
	char name[48];
	char unit[16];
	double predicted;		/* mean of the per-run predictions; NAN when n/a */
	struct cgctl_vstats observed;
	double tolerance;		/* max(absolute, relative * |predicted|, model bound) */
	double noise;			/* 2 * sd of (observed - predicted) over the runs */
	double deviation;		/* observed.mean - predicted */
	enum cgctl_verdict verdict;
	char reason[192];		/* why n/a, or the rule that decided */
};

struct cgctl_vscenario_result {
	char name[48];
	char summary[128];
	bool failed;			/* a run failed (workload crashed, write refused) */
	size_t n_quantities;
	struct cgctl_vquantity *quantities;
};

/* The result of one `cgctl validate` on one target (host or a VM). */
struct cgctl_vreport {
	char kernel[65];		/* uname release of the target */
	char target[32];		/* "host", "vm:6.1-v1", ... */
	unsigned int runs;
	size_t n_scenarios;
	struct cgctl_vscenario_result *scenarios;
	enum cgctl_verdict verdict;	/* DIFFERS if any quantity differs, else MATCH */
};

/* Returns: 0 and an empty report, or -ENOMEM. */
int cgctl_vreport_new(struct cgctl_vreport **ret, const char *kernel, const char *target,
		      unsigned int runs);
/* Append a scenario with room for @n_quantities.  Returns: the new entry, NULL on ENOMEM. */
struct cgctl_vscenario_result *cgctl_vreport_add(struct cgctl_vreport *r, const char *name,
						 const char *summary, size_t n_quantities);
void cgctl_vreport_free(struct cgctl_vreport *r);
/* Render as one JSON object (documented in cgctl-validate(1)).
 * Returns: 0 and a malloc'ed NUL-terminated string, or -ENOMEM. */
int cgctl_vreport_json(const struct cgctl_vreport *r, char **ret);
/* Parse what cgctl_vreport_json() wrote (e.g. by a cgctl inside a VM).
 * Returns: 0, -EINVAL (malformed; @e says where), -ENOMEM. */
int cgctl_vreport_parse_json(const char *json, struct cgctl_vreport **ret,
			     struct cgctl_error *e);
/* One self-contained XHTML page (inline SVG chart per scenario, no script) for @n reports.
 * Returns: 0 and a malloc'ed string, or -ENOMEM. */
int cgctl_vreport_html(const struct cgctl_vreport *const *r, size_t n, char **ret);

/* A built-in scenario, for --list. */
struct cgctl_vscenario_info {
	const char *name;
	const char *summary;
};
/* Returns: the number of built-in scenarios and *ret pointing to a static table. */
size_t cgctl_validate_scenarios(const struct cgctl_vscenario_info **ret);

struct cgctl_validate_opts {
	unsigned int runs;			/* repetitions per scenario (>= 1) */
	/* argv[0] to exec for built-in workloads ("EXE __workload KIND ..."); NULL: the
	 * running executable (/proc/self/exe) */
	const char *workload_exe;
	/* deliberately wrong model parameters "name=value,..." (slice=4ms, batch=32,
	 * quota=30ms, ...): proves that verdicts can fail; NULL for none */
	const char *perturb;
	bool keep;				/* keep scratch cgroups (debugging) */
	volatile int *cancel;	/* set (to non-zero) from a signal handler: stop, clean up */
	void (*progress)(void *data, const char *scenario, unsigned int run,
			 unsigned int runs);
	void *progress_data;
};

/*
 * cgctl_validate_run: run the scenarios named in @names (NULL/@n_names 0: all) on the
 * live kernel of @ctx: scratch cgroups below the caller's own cgroup of each controller,
 * built-in workloads, engine predictions, kernel observations, @opts->runs times.
 * Everything created is removed before returning (unless @opts->keep), also on failure
 * and cancellation.  Returns: 0 and *ret (verdicts inside; n/a for missing features),
 * -ENOENT for an unknown scenario name, -EINTR when cancelled, -EINVAL for a bad
 * @opts->perturb, -errno.
 */
int cgctl_validate_run(struct cgctl_ctx *ctx, const struct cgctl_validate_opts *opts,
		       const char *const *names, size_t n_names, struct cgctl_vreport **ret,
		       struct cgctl_error *e);

/* ===== end: validate ===== */

#ifdef __cplusplus
}
#endif
#endif /* LIBCGCTL_H */
