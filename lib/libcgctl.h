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
 *
 * Bad arguments: a NULL pointer argument is refused with -EINVAL and changes nothing,
 * unless its comment gives NULL a meaning (a default, "not wanted"); functions that
 * return no errno return 0, NULL or false for a NULL object, and the *_free() and
 * *_close() functions take NULL.  tests/unit/test-nullargs.c calls every export so.
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

/* ===== core ===== */
/* contexts, logging, kernel versions, units, exit codes */

/* One line explaining the last failure, filled by functions that take it.  The caller
 * sets size (CGCTL_ERROR_INIT); the library fills only a structure whose size it
 * knows, and leaves one without it (or too small) as it is. */
struct cgctl_error {
	size_t size;	/* sizeof(struct cgctl_error) */
	int err;	/* positive errno, 0 if none */
	char msg[256];	/* "0.6 CPU exceeds parent /a's 0.5 CPU; ..." */
};
#define CGCTL_ERROR_INIT { .size = sizeof(struct cgctl_error) }

struct cgctl_ctx;

/*
 * cgctl_new: create a context.  @root is a prefix prepended to every absolute path the
 * kernel layer opens (/proc, /sys/fs/cgroup); NULL means the live system, "" is refused
 * (an empty variable must not silently mean the live system).  With a root, hierarchy
 * discovery reads the fixture's mount map ROOT/cgctl-mounts instead of asking libcgroup;
 * each hierarchy directory it names is opened beneath the root (no "..", no symlink, no
 * mount crossed).  On the live system a hierarchy directory must be a cgroup
 * filesystem, and no cgroup directory or file on another mount (a bind mount over it)
 * is followed: -EXDEV.  Returns: 0, or -errno (-ENOMEM, -EINVAL for "", -ENOENT if
 * @root does not exist).
 */
int cgctl_new(struct cgctl_ctx **ret, const char *root);
/* Returns: NULL when the last reference was dropped, @ctx otherwise. */
struct cgctl_ctx *cgctl_unref(struct cgctl_ctx *ctx);
/* Returns: the root prefix ("" for the live system), NULL for a NULL @ctx. */
const char *cgctl_get_root(const struct cgctl_ctx *ctx);

/* Log callback: syslog priorities (LOG_ERR ... LOG_DEBUG). Default: stderr, LOG_ERR;
 * environment CGCTL_LOG=debug|info|notice|warning|err overrides the default priority. */
typedef void (*cgctl_log_fn)(void *data, int priority, const char *file, int line,
			     const char *fn, const char *format, va_list args);
/* A NULL @ctx is ignored by cgctl_set_log_fn() and cgctl_set_log_priority(). */
void cgctl_set_log_fn(struct cgctl_ctx *ctx, cgctl_log_fn fn, void *data);
/* Returns: the priority up to which messages reach the callback (LOG_ERR without a
 * context). */
int cgctl_get_log_priority(const struct cgctl_ctx *ctx);
void cgctl_set_log_priority(struct cgctl_ctx *ctx, int priority);

/* Kernel versions as one comparable number: CGCTL_KVER(6, 1, 0). */
#define CGCTL_KVER(a, b, c) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | (uint32_t)(c))
#define CGCTL_KVER_MAJOR(v) ((v) >> 24)
#define CGCTL_KVER_MINOR(v) (((v) >> 16) & 0xff)
#define CGCTL_KVER_PATCH(v) ((v) & 0xffff)
/* The newest kernel the models were checked against: what they model when the kernel
 * is unknown (a fixture tree without osrelease, an unparsable uname). */
#define CGCTL_KVER_NEWEST CGCTL_KVER(6, 18, 0)

#define CGCTL_SIZE_MAX UINT64_MAX	/* "max" */

/* ===== end: core ===== */

/* ===== kernel: cgroupfs ===== */
/* hierarchy discovery and confined cgroupfs access (lib/kernel) */

/* A mounted cgroup hierarchy, as discovered (libcgroup) or read from a fixture's map;
 * the library fills it, size included. */
struct cgctl_mount {
	size_t size;			/* sizeof(struct cgctl_mount) */
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

/* Returns: 1 if it exists, 0 if not, -errno on other errors. */
int cgctl_cg_exists(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path);
/* Read a control file whole (NUL-terminated, *len without the NUL; @len may be NULL).
 * Returns: 0 / -errno. */
int cgctl_cg_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		  const char *file, char **buf, size_t *len);
/* Read a number; "max" and the v1 "unlimited" values read as UINT64_MAX, "-1" too.
 * Returns: 0, -errno, -EINVAL when the file is not one number. */
int cgctl_cg_read_u64(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		      const char *file, uint64_t *v);
/* Write @value with one write(2) (file must exist; never created).  A value holding a
 * newline is refused (-EINVAL, nothing written): one call, one value.  Returns: 0 or the
 * kernel's -errno unchanged (-EINVAL, -EBUSY, ...). */
int cgctl_cg_write(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		   const char *file, const char *value);
/* Create @path (the parent must exist).  Returns: 0, -EEXIST, -ENOENT, -errno. */
int cgctl_cg_create(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path);

#define CGCTL_RM_RECURSIVE	(1u << 0)	/* remove descendants first (depth first) */
#define CGCTL_RM_MOVE_TASKS	(1u << 1)	/* move remaining tasks to the parent of @path */
#define CGCTL_RM_DRY_RUN	(1u << 2)	/* check everything, remove nothing */
/* Remove @path.  Without CGCTL_RM_MOVE_TASKS nothing is moved: -EBUSY (and nothing
 * removed) when any cgroup to remove still has tasks.  The root is refused (-EPERM).
 * Returns: 0, -EBUSY, -EPERM, -ENOENT, or the kernel's -errno of rmdir(2). */
int cgctl_cg_remove(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		    unsigned int flags, struct cgctl_error *e);
/* PIDs (cgroup.procs; @file NULL) or TIDs (tasks / cgroup.threads) of @path.  Returns:
 * count and a malloc'ed array in *ret, or -errno. */
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
/* The hierarchy's cgroup inode number of @path (st_ino; what /proc/kpagecgroup holds).
 * Returns: 0 and *ino set, or -errno (-ENOENT: no such cgroup). */
int cgctl_cg_ino(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		 uint64_t *ino);
/* Read a whole system file below the root prefix (@len may be NULL).
 * Returns: 0 / -errno. */
int cgctl_read_sys(struct cgctl_ctx *ctx, const char *abspath, char **buf, size_t *len);

/*
 * The cgroup lock.  Every cgctl writer of settings (cgctl_plan_apply(): `cgctl bw set`,
 * `mem set`, `set`, validate's writes) holds an
 * exclusive flock(2) on the directory of each cgroup it writes, from its read of the
 * current state to the end of its rollback; another program serializes with cgctl by
 * taking the same lock (open the cgroup directory O_RDONLY, flock(fd, LOCK_EX)) or by
 * calling cgctl_cgroup_lock().  Locks are counted per context: taking one again through
 * @ctx nests (a library call inside a caller's lock does not wait for itself); a
 * context's locks belong to the thread that writes through it.  Lock several cgroups in
 * the order of their paths (strcmp) to avoid deadlocks.
 */
#define CGCTL_CGROUP_LOCK_WAIT_MS 30000	/* then -EBUSY */
/* Returns: 0 (held), -EBUSY (another held it for 30 s), -ENOENT, -errno. */
int cgctl_cgroup_lock(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path);
/* Returns: 0 (released, or one nesting level less), -ENOLCK (not held), -EINVAL. */
int cgctl_cgroup_unlock(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			const char *path);
/*
 * Block SIGINT, SIGTERM, SIGHUP and SIGQUIT while a plan of more than one write runs in
 * @ctx (off by default; cgctl turns it on, as libmount's mnt_lock_block_signals()), so
 * those signals are delivered once the plan finished or was rolled back.
 * Returns: 0, -EINVAL.
 */
int cgctl_set_block_signals(struct cgctl_ctx *ctx, bool enable);
/* The @i-th interface file cgctl knows (its table of knobs: v1 files, then v2 ones),
 * as `cgctl set --help` lists them.  Returns: the name, NULL past the last one. */
const char *cgctl_knob_file(size_t i);

/* ===== end: kernel: cgroupfs ===== */

/* ===== kernel: systemd ===== */
/* units that own cgroups, delegation, and systemd's D-Bus API (lib/kernel/systemd*.c) */

/* The systemd unit that owns a cgroup: the caller sets size (CGCTL_UNIT_INIT), the
 * library fills the rest. */
struct cgctl_unit {
	size_t size;		/* sizeof(struct cgctl_unit) */
	char name[256];		/* as systemd names it: "system-serial\x2dgetty.slice" */
	char cgroup[4096];	/* the unit's own cgroup: "/system.slice/hog.service" */
	bool below;		/* the path asked for is below the unit's own cgroup */
	bool delegated;		/* the unit's cgroup carries trusted.delegate=1 */
};
#define CGCTL_UNIT_INIT { .size = sizeof(struct cgctl_unit) }
/* Returns: true when PID 1 is systemd, as sd_booted() decides it (the directory
 * /run/systemd/system below the root prefix); false for @ctx NULL.  cgctl's delegated
 * scopes (validate, bench, --self) start only then. */
bool cgctl_systemd_booted(struct cgctl_ctx *ctx);
/*
 * cgctl_cgroup_unit: the unit that owns @path of hierarchy @m on a host whose PID 1 is
 * systemd, by the path's names (systemd's cg_path_get_unit()), and whether the unit's
 * cgroup is delegated (its trusted.delegate or user.delegate extended attribute is "1").
 * Returns: 1 and @u filled, 0 when systemd does not run (nothing owns it), -EINVAL (also
 * @u without its size), -ENOENT (no such cgroup), -errno.
 */
int cgctl_cgroup_unit(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		      struct cgctl_unit *u);

/* Who writes a cgroup's settings (systemd's rule: one writer per cgroup). */
enum cgctl_writer {
	CGCTL_WRITER_DIRECT,	/* no systemd, or below a delegated unit: cgctl writes */
	CGCTL_WRITER_SYSTEMD,	/* a unit's own cgroup: its properties, via D-Bus */
	CGCTL_WRITER_REFUSED,	/* below a unit that is not delegated: nobody but systemd */
};
/* Returns: the writer of @u's cgroup settings (@u NULL: CGCTL_WRITER_DIRECT). */
enum cgctl_writer cgctl_unit_writer(const struct cgctl_unit *u);

/* One interface file value for a unit, and how it was applied; each with its size
 * (CGCTL_UNIT_KNOB()). */
struct cgctl_unit_knob {
	size_t size;		/* sizeof(struct cgctl_unit_knob) */
	const char *file;	/* "cpu.max", "memory.high", "cpu.max.burst" */
	const char *value;	/* as the file takes it: "20000 100000", "512M"->bytes, "max" */
	const char *how;	/* set by cgctl_unit_apply(): "systemd" or "direct" */
};
#define CGCTL_UNIT_KNOB(f, v) \
	((struct cgctl_unit_knob){ .size = sizeof(struct cgctl_unit_knob), .file = (f), \
				   .value = (v), .how = NULL })
#define CGCTL_UNIT_PERSISTENT	(1u << 0)	/* survive a reboot (runtime=false) */
#define CGCTL_UNIT_CHECK_ONLY	(1u << 1)	/* check the values, set each how, no more */
/*
 * cgctl_unit_apply: apply @knobs (v2 files) to the unit @u's own cgroup in hierarchy @m:
 * the knobs systemd has a property for (cpu.max: CPUQuotaPerSecUSec and
 * CPUQuotaPeriodUSec; memory.max/high/low/min/swap.max: MemoryMax/High/Low/Min/SwapMax;
 * cpu.weight: CPUWeight) with one SetUnitProperties call (runtime unless
 * CGCTL_UNIT_PERSISTENT), the others (cpu.max.burst on systemd 252) written directly
 * afterwards.  Every value is checked before anything changes; when a direct write
 * fails, the properties set are set back to the values the files held.
 * Returns: the number of knobs applied, -EINVAL (a value or a knob without its size,
 * in @e), -ENOTCONN (no system bus), -EOPNOTSUPP (with a root prefix), or the
 * failure's -errno (@e names it).
 */
int cgctl_unit_apply(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		     const struct cgctl_unit *u, struct cgctl_unit_knob *knobs, size_t n,
		     unsigned int flags, struct cgctl_error *e);

/* ===== end: kernel: systemd ===== */

/* ===== kernel: parsers ===== */
/* the kernel's file formats (lib/kernel/parse*) */

/*
 * Parsers of kernel control files.  Each one is a pure function over @buf/@len (the
 * file's bytes; need not be NUL-terminated, may contain NULs), never reads outside it,
 * does no I/O and returns 0 (or a count) or -errno.  Callbacks return 0 to go on; any
 * other value stops the walk and is returned as is.
 */

/* One "key value" line of a flat keyed file (memory.stat, cpu.stat, memory.events); the
 * library fills it, size included. */
struct cgctl_kv {
	size_t size;		/* sizeof(struct cgctl_kv) */
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

/*
 * cgctl_parse_mem_limit: memory.max/high/low/min/swap.max ("max" or bytes) and v1
 * *limit_in_bytes, where unlimited reads as PAGE_COUNTER_MAX pages
 * (9223372036854771712 with 4 KiB pages; any value within 64 KiB of INT64_MAX is taken
 * as unlimited) or "-1" -> UINT64_MAX.  Returns: 0, -EINVAL, -ERANGE.
 */
int cgctl_parse_mem_limit(const char *buf, size_t len, uint64_t *bytes);

/* ===== end: kernel: parsers ===== */

/* ===== kernel: statistics ===== */
/* memory and CPU statistics, PSI, memory.events (lib/kernel) */
/* Bring @path's v2 memory.stat up to date before it is read: since 6.8 the kernel flushes
 * a small group's per-cpu statistics only past a threshold of its own.  Returns: 0
 * (nothing to do on v1), or -errno of the read that flushes (cpu.stat). */
int cgctl_mem_stat_flush(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			 const char *path);
/* Whether reclaim runs on the multi-gen LRU (/sys/kernel/mm/lru_gen/enabled bit 0; under
 * --root, the fixture's copy).  Returns: 0 (*on false when the file is absent:
 * CONFIG_LRU_GEN=n), -EINVAL (not a hex mask), -errno. */
int cgctl_lru_gen_read(struct cgctl_ctx *ctx, bool *on);

/* ===== end: kernel: statistics ===== */

/* ===== kernel: page inventory ===== */
/* where a task's pages are and who they are charged to (lib/kernel/pagescan*) */

/*
 * Page inventory of one task: which memory cgroup each resident page is charged to,
 * read from /proc/PID/maps, /proc/PID/pagemap, /proc/kpagecgroup, /proc/kpageflags and
 * /proc/kpagecount.  Counts are base pages (PAGE_SIZE); a 2 MiB THP counts 512.  A
 * physical page mapped at several addresses of the task is counted once (charged bytes,
 * not RSS).  kpagecgroup reports the nearest online ancestor for pages of a removed
 * cgroup and the hierarchy root for pages charged to the root memcg.
 */
/* The result of a scan, opaque: its figures are read with cgctl_inventory_get() and,
 * per memory cgroup the pages are charged to, cgctl_inventory_group_get(). */
struct cgctl_inventory;

/* Figures that could not be determined; they read as 0 (never guessed). */
#define CGCTL_INV_UNKNOWN_OWNER		(1u << 0)	/* PFNs hidden (opener lacks
			CAP_SYS_ADMIN) or no kpagecgroup: one group, ino 0, path NULL */
#define CGCTL_INV_UNKNOWN_SHMEM		(1u << 1)	/* no kpageflags: shmem counted
							 * in file */
#define CGCTL_INV_UNKNOWN_THP		(1u << 2)	/* no kpageflags: thp, thp_pmd */
#define CGCTL_INV_UNKNOWN_MAPCOUNT	(1u << 3)	/* no kpagecount: anon_shared_mc2 */

#define CGCTL_INV_SINGLE_THREAD	(1u << 0)	/* accepted, no effect: always one thread */
#define CGCTL_INV_NO_PATHS	(1u << 1)	/* do not resolve inodes to paths */
#define CGCTL_INV_NO_MAPCOUNT	(1u << 2)	/* skip kpagecount (anon_shared_mc2 unknown) */

/*
 * cgctl_inventory_scan: inventory the resident pages of @pid (CGCTL_INV_* flags).  Needs
 * ptrace-read access to @pid; without CAP_SYS_ADMIN the owner is unknown (see unknown).
 * The memory hierarchy is the one cgctl_mount_find(ctx, "memory") names.  The scan runs
 * in the calling thread and keeps nothing in @ctx: its scratch memory is freed before
 * it returns (lib/kernel/pagescan.c).
 * Returns: 0 and a result to free with cgctl_inventory_free(), or -ESRCH (no such
 * process), -EACCES/-EPERM, -ENOMEM, -EIO (malformed /proc file), -errno.
 */
int cgctl_inventory_scan(struct cgctl_ctx *ctx, pid_t pid, unsigned int flags,
			 struct cgctl_inventory **ret, struct cgctl_error *e);
/* Free a result of cgctl_inventory_scan (NULL is fine). */
void cgctl_inventory_free(struct cgctl_inventory *inv);
/*
 * cgctl_inventory_get: the figure @key of the task(s) of @inv: "pid", "pfn_visible"
 * (pagemap carried PFNs), "unknown" (CGCTL_INV_UNKNOWN_*), "present_pages" (resident,
 * each physical page once, the zero page included), "zero_pages" (mappings of the
 * shared zero page: never charged, in no group), "swap_pages" (swapped-out entries,
 * assumed charged to the task's cgroup: swap_cgroup is not exported), "virt_pages"
 * (walked), "vmas", "task_ino" (0: unknown), "groups" (their number), "tasks" (whose
 * pages are counted), "gone_tasks" (exited first).  Returns: 0 and *@ret, -EINVAL (an
 * unknown @key).
 */
int cgctl_inventory_get(const struct cgctl_inventory *inv, const char *key, uint64_t *ret);
/* Returns: the task's memory cgroup now ("/a/b"), NULL if unknown. */
const char *cgctl_inventory_task_cgroup(const struct cgctl_inventory *inv);
/*
 * cgctl_inventory_group_get: the figure @key of group @i of @inv (0 <= @i < "groups";
 * descending by pages, then by inode), in base pages unless named otherwise: "ino" (the
 * memcg inode as in /proc/kpagecgroup; 0: not charged), "pages" (all resident pages of
 * the task charged there: the sum of the classes), "anon_exclusive" (mapped by this task
 * only, pagemap bit 56), "anon_shared" (also mapped by others: COW after fork, KSM),
 * "anon_shared_mc2" (of those, mapcount exactly 2: 2.6.35-3.4's move-charge test),
 * "file" (page cache of regular files), "shmem" (shmem, tmpfs, SysV SHM,
 * MAP_SHARED|MAP_ANONYMOUS), "thp" (of the above, in transparent huge or large
 * folios), "thp_pmd" (of thp, anon pages of PMD-mapped 2 MiB folios: 3.5-6.12 move them
 * as one unit; exact with the PAGEMAP_SCAN ioctl, 6.7+), "thp_heads" (head pages of the
 * large folios whose head the task maps).  Figures a CGCTL_INV_UNKNOWN_* bit names read
 * 0.  Returns: 0 and *@ret, -ERANGE (no group @i), -EINVAL (an unknown @key).
 */
int cgctl_inventory_group_get(const struct cgctl_inventory *inv, size_t i, const char *key,
			      uint64_t *ret);
/* Returns: the path of group @i in the memory hierarchy ("/" the root), NULL when the
 * inode is found nowhere in it, the owner is unknown (CGCTL_INV_UNKNOWN_OWNER), or there
 * is no group @i. */
const char *cgctl_inventory_group_path(const struct cgctl_inventory *inv, size_t i);

/* ===== end: kernel: page inventory ===== */

/* ===== kernel: netlink ===== */
/* proc connector, taskstats, process-tree moves (lib/kernel) */

/* ---- taskstats (generic netlink "TASKSTATS") ---- */
/* Times in ns, converted from the kernel's µs fields where needed.  Which CPU time to
 * trust (kernel/delayacct.c:delayacct_add_tsk()): cpu_run_virtual_total is the
 * scheduler's sum_exec_runtime, exact, and what getrusage() totals to; cpu_run_real_total
 * is utime+stime as sampled by the tick, off by whole ticks (25% on a busy VM).
 * cpu_count and cpu_delay_total come from sched_info and are there even with delay
 * accounting off; the other delay fields then read 0 (see cgctl_delayacct_enabled()). */
struct cgctl_taskstats {
	size_t size;			/* sizeof(struct cgctl_taskstats): CGCTL_TASKSTATS_INIT */
	uint32_t version;		/* TASKSTATS_VERSION the kernel sent */
	uint32_t ac_pid;		/* 0 when asked for a tgid */
	char comm[64];			/* a tgid: /proc/PID/stat's field 2, as minflt, majflt */
	uint64_t cpu_count;		/* times on a runqueue */
	uint64_t cpu_run_real_total_ns;	/* utime + stime, tick-sampled */
	uint64_t cpu_run_virtual_total_ns;	/* sum_exec_runtime: exact CPU time run */
	uint64_t cpu_delay_total_ns;	/* waiting on a runqueue */
	uint64_t blkio_count, blkio_delay_total_ns;
	uint64_t swapin_count, swapin_delay_total_ns;
	uint64_t freepages_count, freepages_delay_total_ns;	/* memory reclaim */
	uint64_t thrashing_count, thrashing_delay_total_ns;	/* v8+, else 0 */
	uint64_t compact_count, compact_delay_total_ns;		/* v11+, else 0 */
	uint64_t wpcopy_count, wpcopy_delay_total_ns;		/* v13+, else 0 */
	uint64_t irq_count, irq_delay_total_ns;			/* v14+, else 0 */
	uint64_t utime_ns, stime_ns;	/* ac_utime/ac_stime (tick-sampled, scaled) */
	uint64_t nvcsw, nivcsw;
	uint64_t minflt, majflt;
	uint64_t read_bytes, write_bytes;	/* storage I/O (CONFIG_TASK_IO_ACCOUNTING) */
};
#define CGCTL_TASKSTATS_INIT { .size = sizeof(struct cgctl_taskstats) }
/*
 * cgctl_taskstats_get: TASKSTATS_CMD_GET for one task (@tgid false: @id is a TID) or a
 * whole thread group summed over its live threads (@tgid true).  The kernel sums only
 * delays, CPU times and switches of a thread group: for @tgid the comm and the faults
 * come from /proc/@id/stat (below the context's root), which sums every thread's; if it
 * cannot be read they stay the reply's (faults 0).  @ret->size must be set
 * (CGCTL_TASKSTATS_INIT).  Needs CAP_NET_ADMIN for other users' tasks on some kernels.
 * Returns: 0, -ESRCH (no such task), -EPROTONOSUPPORT (no TASKSTATS family), -EINVAL
 * (@ret NULL or its size too small), -errno.
 */
int cgctl_taskstats_get(struct cgctl_ctx *ctx, pid_t id, bool tgid,
			struct cgctl_taskstats *ret, struct cgctl_error *e);
/* cgctl_delayacct_enabled: read /proc/sys/kernel/task_delayacct.  When it is off, @e
 * (if given) says how to turn it on.  Returns: 1 on, 0 off, -errno (-ENOENT: kernel
 * without CONFIG_TASK_DELAY_ACCT or before 5.14, where only the boot option existed). */
int cgctl_delayacct_enabled(struct cgctl_ctx *ctx, struct cgctl_error *e);

/* ---- moving processes (lib/kernel/move*.c, proctree*.c) ---- */
/*
 * struct cgctl_move: a move into one cgroup of one or more hierarchies (v1: one per
 * hierarchy to move in), opaque: its destinations, and what each PID of its last
 * cgctl_move_pids() met.  Not for use by two threads at once.
 */
struct cgctl_move;
#define CGCTL_MOVE_PIDS_MAX_TARGETS 16
/*
 * cgctl_move_new: a move into cgroup @paths[j] of hierarchy @ms[j], j < @n, written in
 * that order (put memory first: a refused precharge leaves the task where it was).  The
 * paths are copied; the hierarchies and @ctx must outlive the move.  Nothing is opened
 * yet.  Returns: 0 and *@ret (free with cgctl_move_free()), -EINVAL (@n 0 or above
 * CGCTL_MOVE_PIDS_MAX_TARGETS, a NULL hierarchy or path), -ENOMEM.
 */
int cgctl_move_new(struct cgctl_ctx *ctx, const struct cgctl_mount *const *ms,
		   const char *const *paths, size_t n, struct cgctl_move **ret);
/* Free @mv and what its last cgctl_move_pids() left (NULL: nothing).  Returns: nothing. */
void cgctl_move_free(struct cgctl_move *mv);

/* ---- moving many processes at once ---- */
#define CGCTL_MOVE_PIDS_FROM	(1u << 0)	/* read each PID's cgroup in the first
						 * destination's hierarchy before the move
						 * (one thread list read per source cgroup
						 * while that pays) */
#define CGCTL_MOVE_PIDS_DRY_RUN	(1u << 1)	/* write nothing: what the real move would
						 * meet (task kind, the kernel's
						 * permission checks) */
/*
 * cgctl_move_pids: move the thread groups @pids[0..@n) (a TID names its thread group)
 * into every destination of @mv, in its order, one write(2) per PID and destination
 * with cgroup.procs kept open.  The writes happen under the move lock (flock(2) on the
 * root directory of each destination hierarchy, taken in mount-path order, by every
 * cgctl move and cgctl_move_tree()), so two concurrent moves of one task cannot leave
 * it split.  Then a check on the live system: each PID must be in every destination
 * (one cgroup.procs read per destination for long lists, else /proc/PID/cgroup): a
 * zombie or exiting task the kernel skipped silently fails with -ESRCH (kind ZOMBIE);
 * a task found outside a destination is moved there again and checked again; still
 * outside is -EBUSY.  A write error stops that PID's writes.  What each PID met:
 * cgctl_move_pid_get(), until the next call on @mv.  From 256 PIDs and two
 * destinations, on a caller that may run on two CPUs (not a dry run, a fixture or a
 * caller that is not root), the destinations after the first are written by one
 * thread this call starts (every signal blocked) and joins, each PID once the first
 * destination took it.
 * Returns: the number of PIDs moved (dry run: that would move); or -EINVAL, -ENOENT (a
 * destination does not exist), -EBUSY (the lock is held for 30 s), -ENOMEM, -errno,
 * when none was tried (@e says why).
 */
ssize_t cgctl_move_pids(struct cgctl_move *mv, const pid_t *pids, size_t n,
			unsigned int flags, struct cgctl_error *e);
/*
 * cgctl_move_pid_get: what PID @i of the last cgctl_move_pids() on @mv met; each
 * pointer may be NULL.  *@err: 0 moved (dry run: would move); -ESRCH gone (kind GONE) or
 * a zombie (kind ZOMBIE); -EINVAL a kernel thread (kind KTHREAD); -ENOMEM precharge
 * refused; -EACCES, -EPERM; -EBUSY still outside a destination after moving it again.
 * *@kind: a CGCTL_TASK_*.  *@held: bit j set when destination j holds it at the end (dry
 * run: would); some bits but not all: a task split across hierarchies.  *@from
 * (CGCTL_MOVE_PIDS_FROM): its cgroup in the first destination's hierarchy before the
 * move, now the caller's (free()); NULL when unknown or taken before.
 * Returns: 0, -EINVAL (no such @i).
 */
int cgctl_move_pid_get(struct cgctl_move *mv, size_t i, int *err, int *kind,
		       uint32_t *held, char **from);

/* ---- move a whole process tree (race-free with the proc connector) ---- */

#define CGCTL_MOVE_TREE_NO_CONNECTOR	(1u << 0)	/* use repeated walks only */
#define CGCTL_MOVE_TREE_ONE_SHOT	(1u << 1)	/* one walk, no re-walk (comparison) */
/* Stop the trees with SIGSTOP while they move (a stopped process cannot fork:
 * kernel/fork.c:copy_process() restarts a fork once a signal is pending), and SIGCONT
 * every process stopped this way when done, on every path (by pidfd, so a reused PID is
 * never signalled).  Processes already stopped (state T) are left stopped.  Their
 * parents may see the stop and the continue in waitpid(WUNTRACED|WCONTINUED).  Opt-in:
 * a stopped service misses its deadlines while the tree moves. */
#define CGCTL_MOVE_TREE_FREEZE		(1u << 2)

struct cgctl_move_tree_opts {
	size_t size;			/* sizeof(struct cgctl_move_tree_opts) */
	unsigned int flags;		/* CGCTL_MOVE_TREE_* */
	unsigned int max_passes;	/* 0: 64 */
	uint64_t timeout_ns;		/* 0: 10 s */
	/* Optional, instead of @targets: move thread group @tgid; return 0 moved, 1 it was
	 * already there, -ESRCH gone, -errno.  Optional too: @in_target returns 1 if @tgid
	 * is already in the destination, 0 if not, -errno; without it a process found in a
	 * re-walk is moved again and counts as new, so a tree that keeps forking never
	 * converges. */
	int (*attach)(void *data, pid_t tgid);
	int (*in_target)(void *data, pid_t tgid);
	void *data;
};

struct cgctl_move_tree_result {
	size_t size;		/* sizeof(struct cgctl_move_tree_result), set by the caller */
	size_t moved;		/* thread groups written to cgroup.procs */
	size_t already;		/* found already in the destination (born there) */
	size_t vanished;	/* exited before they could be moved */
	size_t failed;		/* other errors (first one in @e and first_error*) */
	size_t passes;		/* walks done, the first one included */
	size_t fork_events;	/* fork events of the tree seen on the connector */
	bool used_connector;	/* false: fallback to repeated walks (reason in note) */
	bool overrun;		/* the connector lost events; re-walks covered them */
	int first_error;	/* -errno of the first failure, 0 if none */
	pid_t first_error_pid;
	uint64_t elapsed_ns;
	char note[128];		/* why the connector was not used, "" otherwise */
	/* appended (safety): */
	bool connector_deaf;	/* subscribed, but our probe thread's fork event never came:
				 * not used, re-walks did the job */
	size_t rewalk_moved;	/* moved by a re-walk (pass 2+) though no event announced
				 * them: forks the connector missed, or raced a move */
	size_t stopped;		/* CGCTL_MOVE_TREE_FREEZE: processes stopped and continued */
	size_t verified;	/* live members found in every target by the final pass */
	size_t repaired;	/* found outside the destination (or split) by the final pass
				 * and moved again */
	size_t splits;		/* of those, in some targets but not all */
	size_t n_stragglers;	/* live members still outside a target at the end */
	pid_t stragglers[16];	/* the first 16 of them */
};
/*
 * cgctl_move_tree: move the process trees rooted at @roots (thread groups; a TID is
 * taken as its thread group) into every destination of @mv.  Subscribes to fork events
 * first, then walks /proc/PID/task/TID/children, writing each process once to
 * cgroup.procs (whole thread groups, v1 too), and keeps draining events and re-walking
 * until a pass finds no process outside the destination.  Without the connector (not root, no
 * CONFIG_PROC_EVENTS) it falls back to repeated walks and says so in @res.  @opts may be
 * NULL.  A process that exits meanwhile is not an error.
 * Before it trusts the connector it creates and joins a thread of its own and waits
 * for that fork event (500 ms); a socket that stays silent is a failure of the
 * connector, not a quiet tree: it is closed and re-walks do the job (connector_deaf).
 * It finishes only after a final pass found every live member (not exiting) of the
 * trees in every target (by /proc/PID/cgroup; with a caller's attach(), by in_target(),
 * and not at all without one): a member outside the destination, or split across
 * hierarchies, is moved again and checked again, up to 4 rounds.
 * Returns: the number of processes moved; -ESRCH when no root exists; -EAGAIN when the
 * tree kept growing faster than it could be moved (max_passes or timeout reached);
 * -EBUSY when live members are still outside a target after the final pass (the first
 * 16 in @res->stragglers, named in @e); -EINVAL (also a @res->size below the members
 * up to note; fields past @res->size are not written); or the first attach error
 * when some processes could not be moved (the rest were; counts in @res, reason in @e).
 */
ssize_t cgctl_move_tree(struct cgctl_move *mv, const pid_t *roots, size_t n_roots,
			const struct cgctl_move_tree_opts *opts,
			struct cgctl_move_tree_result *res, struct cgctl_error *e);

/* ===== end: kernel: netlink ===== */

/* ===== kernel: cgroup statistics readers ===== */
/* stat/watch (lib/kernel) */

/* Where a cgroup's task states were counted (the snapshot's tasks.source): cgroupstats
 * (v1 on a live system before 6.1, which miscounts freezable sleepers since) has
 * tasks.io_wait; /proc/TID/stat of each thread in its tasks / cgroup.threads does not. */
#define CGCTL_STATES_PROC		0
#define CGCTL_STATES_CGROUPSTATS	1

/* The kernel version of the context: ROOT/proc/sys/kernel/osrelease below a root prefix
 * (a fixture names its kernel), else the running kernel's.  Returns: CGCTL_KVER(...),
 * 0 when unknown (a fixture without the file, or an unparsable one). */
uint32_t cgctl_kver_of(struct cgctl_ctx *ctx);
/* ===== end: kernel: cgroup statistics readers ===== */

/* ===== cgroup object ===== */
/* one cgroup of one hierarchy: its knobs, and one snapshot of its figures
 * (lib/kernel/cgroup.c, lib/kernel/cgroup-stat.c; issue 28) */

/*
 * struct cgctl_cgroup: a cgroup directory of one hierarchy, opaque and reference counted
 * (it holds a reference to its context).  The knobs are numbers: bytes for memory,
 * microseconds for CPU bandwidth, UINT64_MAX for unlimited ("max", "-1", v1's
 * PAGE_COUNTER_MAX), whatever the file's spelling on cgroup v1 or v2; the getters hide
 * the version (v2 keeps the CFS quota and period in one file, cpu.max).  Not for use by
 * two threads at once (as its context).
 */
struct cgctl_cgroup;
/*
 * cgctl_cgroup_new: the cgroup @path (normalised as cgctl_path_normalize() does) of the
 * hierarchy that carries @controller ("memory", "cpu", "pids"; NULL: the cgroup2
 * mount, as cgctl_mount_find() finds it).  The directory must exist.
 * Returns: 0 and *@ret (one reference), -ENODEV (no such hierarchy), -ENOENT (no such
 * cgroup), -EINVAL (a bad path), -ENOMEM.
 */
int cgctl_cgroup_new(struct cgctl_ctx *ctx, const char *controller, const char *path,
		     struct cgctl_cgroup **ret);
/* Returns: @cg, with one more reference. */
struct cgctl_cgroup *cgctl_cgroup_ref(struct cgctl_cgroup *cg);
/* Returns: NULL when the last reference was dropped, @cg otherwise. */
struct cgctl_cgroup *cgctl_cgroup_unref(struct cgctl_cgroup *cg);

/* The numeric knobs (append only: the values are ABI). */
enum cgctl_knob {
	CGCTL_KNOB_MEM_LIMIT,		/* memory.limit_in_bytes, memory.max: bytes */
	CGCTL_KNOB_MEM_MEMSW,		/* v1 memory.memsw.limit_in_bytes: bytes */
	CGCTL_KNOB_MEM_SOFT,		/* v1 memory.soft_limit_in_bytes: bytes */
	CGCTL_KNOB_MEM_HIGH,		/* v2 memory.high: bytes */
	CGCTL_KNOB_MEM_LOW,		/* v2 memory.low: bytes */
	CGCTL_KNOB_MEM_MIN,		/* v2 memory.min: bytes */
	CGCTL_KNOB_MEM_SWAP,		/* v2 memory.swap.max: bytes */
	CGCTL_KNOB_MEM_SWAPPINESS,	/* v1 memory.swappiness */
	CGCTL_KNOB_CPU_QUOTA,		/* cpu.cfs_quota_us, cpu.max's first field: µs */
	CGCTL_KNOB_CPU_PERIOD,		/* cpu.cfs_period_us, cpu.max's second field: µs */
	CGCTL_KNOB_CPU_BURST,		/* cpu.cfs_burst_us, cpu.max.burst: µs */
	CGCTL_KNOB_CPU_SHARES,		/* v1 cpu.shares */
	CGCTL_KNOB_CPU_WEIGHT,		/* v2 cpu.weight */
	CGCTL_KNOB_PIDS_MAX,		/* pids.max */
	CGCTL_KNOB_MEM_MOVE_CHARGE,	/* v1 memory.move_charge_at_immigrate: bits, 1 anon,
					 * 2 file */
	CGCTL_KNOB_COUNT_		/* not a knob: the number of them */
};
/*
 * cgctl_cgroup_get: read knob @k.  Returns: 0 and *@ret, -ENODATA (no such file on this
 * hierarchy's version, or not on this kernel), -ENOENT (the cgroup is gone), -EINVAL
 * (an unknown @k, or the file is not a number), -ERANGE, -errno.
 */
int cgctl_cgroup_get(struct cgctl_cgroup *cg, enum cgctl_knob k, uint64_t *ret);

/* One getter per knob, e.g. cgctl_cgroup_get_mem_limit(cg, &bytes). */
#define CGCTL_CGROUP_GET_(name, knob)                                                    \
	static inline int cgctl_cgroup_get_##name(struct cgctl_cgroup *cg, uint64_t *ret) \
	{                                                                                \
		return cgctl_cgroup_get(cg, knob, ret);                                  \
	}
CGCTL_CGROUP_GET_(mem_limit, CGCTL_KNOB_MEM_LIMIT)
CGCTL_CGROUP_GET_(mem_memsw, CGCTL_KNOB_MEM_MEMSW)
CGCTL_CGROUP_GET_(mem_soft, CGCTL_KNOB_MEM_SOFT)
CGCTL_CGROUP_GET_(mem_high, CGCTL_KNOB_MEM_HIGH)
CGCTL_CGROUP_GET_(mem_low, CGCTL_KNOB_MEM_LOW)
CGCTL_CGROUP_GET_(mem_min, CGCTL_KNOB_MEM_MIN)
CGCTL_CGROUP_GET_(mem_swap, CGCTL_KNOB_MEM_SWAP)
CGCTL_CGROUP_GET_(mem_swappiness, CGCTL_KNOB_MEM_SWAPPINESS)
CGCTL_CGROUP_GET_(cpu_quota_us, CGCTL_KNOB_CPU_QUOTA)
CGCTL_CGROUP_GET_(cpu_period_us, CGCTL_KNOB_CPU_PERIOD)
CGCTL_CGROUP_GET_(cpu_burst_us, CGCTL_KNOB_CPU_BURST)
CGCTL_CGROUP_GET_(cpu_shares, CGCTL_KNOB_CPU_SHARES)
CGCTL_CGROUP_GET_(cpu_weight, CGCTL_KNOB_CPU_WEIGHT)
CGCTL_CGROUP_GET_(pids_max, CGCTL_KNOB_PIDS_MAX)
CGCTL_CGROUP_GET_(mem_move_charge, CGCTL_KNOB_MEM_MOVE_CHARGE)

/*
 * struct cgctl_cgroup_stat: the figures of one cgroup read once (what `cgctl stat`,
 * `watch`, `bw show` and `mem show` print), opaque; each looked up by name with
 * cgctl_cgroup_stat_get().  Only the cgroup's own hierarchy is read: on cgroup v1 the
 * memory figures need a cgroup of the memory hierarchy, the CPU ones one of the cpu
 * hierarchy (its usage comes from cpuacct, co-mounted or at the same path).
 * What to read (CGCTL_CGSTAT_*):
 *   MEM      memory.usage, memory.limit, memory.failcnt (v1): 2 or 3 files
 *   MEM_ALL  MEM and memory.peak, memory.memsw(.usage, .failcnt, .peak) (v1),
 *            memory.swap(.usage) and memory.high (v2), memory.events.{low,high,max,oom,
 *            oom_kill} (v2), memory.pressure.* (v2, PSI on)
 *   CPU      cpu.stat.{usage,user,system,throttled,burst}_ns, cpu.stat.nr_{periods,
 *            throttled,bursts} (v1: usage from cpuacct.usage; a v2 cgroup without the
 *            cpu controller: usage, user and system only)
 *   CPU_ALL  CPU and cpu.quota, cpu.period, cpu.burst (µs, quota UINT64_MAX: unlimited),
 *            cpu.stat.throttled_local_ns (cpu.stat.local, 6.6+)
 *   PSI      cpu.pressure.* (a cgroup of the cpu hierarchy) and memory.pressure.* (of
 *            the memory hierarchy), v2: {some,full}.{avg10,avg60,avg300} (hundredths
 *            of a percent), {some,full}.total_us
 *   EVENTS   memory.events.KEY and memory.events.local.KEY (v2), KEY low, high, max,
 *            oom, oom_kill (4.13+), oom_group_kill (5.16+), sock_throttled (6.10+)
 *   TASKS    tasks.{running,sleeping,uninterruptible,stopped}, tasks.io_wait
 *            (cgroupstats only), tasks.source (CGCTL_STATES_*)
 * Memory figures are bytes (memory.limit, .memsw, .swap, .high UINT64_MAX: unlimited),
 * CPU statistics nanoseconds on both versions.
 */
struct cgctl_cgroup_stat;
#define CGCTL_CGSTAT_MEM	(1u << 0)
#define CGCTL_CGSTAT_MEM_ALL	(1u << 1)
#define CGCTL_CGSTAT_CPU	(1u << 2)
#define CGCTL_CGSTAT_CPU_ALL	(1u << 3)
#define CGCTL_CGSTAT_PSI	(1u << 4)
#define CGCTL_CGSTAT_EVENTS	(1u << 5)
#define CGCTL_CGSTAT_TASKS	(1u << 6)
/*
 * cgctl_cgroup_stat_new: read the figures @what asks for of @cg.  A file that cannot be
 * read makes its figures fail in cgctl_cgroup_stat_get(), not this call.
 * Returns: 0 and *@ret (free with cgctl_cgroup_stat_free()), -ENOENT (the cgroup is
 * gone), -EINVAL, -ENOMEM.
 */
int cgctl_cgroup_stat_new(struct cgctl_cgroup *cg, unsigned int what,
			  struct cgctl_cgroup_stat **ret);
/* Free @st (NULL: nothing). */
void cgctl_cgroup_stat_free(struct cgctl_cgroup_stat *st);
/*
 * cgctl_cgroup_stat_get: the figure @key of @st.  Returns: 0 and *@ret; -ENODATA when
 * the figure is absent (not on this hierarchy, version or kernel, PSI off, the v2
 * root's memory.usage and cpu.period, or not asked for); -EINVAL (an unknown @key, or
 * the file was malformed), -ERANGE, or the -errno that the read of its file met.
 */
int cgctl_cgroup_stat_get(const struct cgctl_cgroup_stat *st, const char *key,
			  uint64_t *ret);
/* ===== end: cgroup object ===== */

/* ===== engine: memcg ===== */
/* page counters, per-cpu charge stock, move charge (lib/engine) */

/*
 * Memory cgroup accounting model: hierarchical page counters (res_counter before 3.19,
 * page_counter since), the per-cpu charge stock, the charge/reclaim/fail sequence of
 * try_charge, and move_charge_at_immigrate.  Pure: the kernel version is a parameter,
 * randomness (6.16+ stock slot eviction) comes from a seed.  Amounts are base pages
 * (CGCTL_PAGE_SIZE bytes) unless a name says _bytes.
 */
#define CGCTL_PAGE_SIZE		4096u
#define CGCTL_MEMCG_UNLIMITED	UINT64_MAX	/* limit in pages: no limit */
#define CGCTL_MEMCG_ROOT	0		/* id of the root memcg of a model tree */
#define CGCTL_MEMCG_STOCK_SLOTS_MAX 7		/* NR_MEMCG_STOCK (6.16+) */

/* Constants and rules of one kernel version (see kernel-memory-model.md, quick reference).
 * The caller sets @size; the library fills what fits. */
struct cgctl_memcg_era {
	size_t size;			/* sizeof(struct cgctl_memcg_era), set by the caller */
	uint32_t kver;
	unsigned int batch;		/* charge batch in pages: 1 (2.6.32), 32, 64 (6.1+) */
	unsigned int stock_slots;	/* memcgs cached per CPU: 0 (2.6.32), 1, 7 (6.16+) */
	unsigned int stock_max;		/* most pages one (cpu, memcg) slot can hold */
	unsigned int reclaim_retries;	/* 5, 16 (5.9+) */
	bool page_counter;		/* 3.19+: page_counter, memsw charged before memory */
	bool stock_cap;			/* 4.15+: refill drains a slot above the batch */
	bool failcnt_leaf_only;		/* 6.15+: failcnt only via the v1 memory counter */
	bool always_hierarchical;	/* 5.11+: use_hierarchy is always 1 */
	bool limit_round_up;		/* < 3.19 limits round up to pages; later: down */
	unsigned int move_bits;		/* move_charge_at_immigrate bits honoured: 0, 1, 3 */
	bool move_shmem_swap;		/* 2.6.35-5.9: bit 1 moves swapped shmem's swap charge */
	const char *move_none;		/* move_bits 0: why no charge moves (static) */
	uint64_t unlimited_v1;		/* "unlimited" as v1 *limit_in_bytes prints it */
	bool move_pte_tails;		/* 6.6+: the precharge counts every PTE-mapped page
					 * of a large folio; before, only its head page */
};
/* Fill @ret (@ret->size set by the caller) for @kver.  Returns: 0, or -EINVAL for
 * kernels before 2.6.32 and for a @ret->size smaller than this release's structure. */
int cgctl_memcg_era_get(uint32_t kver, struct cgctl_memcg_era *ret);

/*
 * cgctl_memcg_stock_max_pages: the most pages the per-cpu stock can hold for a memcg
 * whose subtree (itself included) has @nsubtree memcgs, on @ncpu CPUs: stock_max * ncpu *
 * min(stock_slots, nsubtree).  usage_in_bytes / memory.current exceed the truly charged
 * pages by at most this.  Returns: the bound in pages (0 on 2.6.32 or bad @kver).
 */
uint64_t cgctl_memcg_stock_max_pages(uint32_t kver, unsigned int ncpu, unsigned int nsubtree);
/*
 * cgctl_memcg_usage_interval: truly charged pages implied by a reported usage of
 * @usage_pages: [usage - stock bound, usage] clamped at 0.  Returns: 0, -EINVAL.
 */
int cgctl_memcg_usage_interval(uint32_t kver, unsigned int ncpu, unsigned int nsubtree,
			       uint64_t usage_pages, uint64_t *lo, uint64_t *hi);

/* A model tree of memory cgroups with per-cpu stocks. */
struct cgctl_memcg_tree;
/* ---- move charge at immigrate (mm/memcontrol.c, 2.6.34 - 6.12) ---- */
#define CGCTL_MOVE_CHARGE_ANON	(1u << 0)
#define CGCTL_MOVE_CHARGE_FILE	(1u << 1)
/* The planner's input (what a moving task holds, by class) and its plan are internal
 * (lib/libcgctl-private.h); validate's move driver fills an input for
 * cgctl_move_input_add_cache(). */
struct cgctl_move_input;
/* ===== end: engine: memcg ===== */

/* ===== engine: CFS bandwidth ===== */
/* pool, slices, period timer, slack, burst (lib/engine) */

/*
 * CFS bandwidth control (cpu.cfs_quota_us / cpu.max): a discrete-event model of the
 * kernel's pools, per-CPU silos and period timer, the write rules and a safe write order.
 * Times in ns unless a name ends in _us.
 */
#define CGCTL_BW_INF UINT64_MAX		/* quota: unlimited ("max", v1 "-1") */
#define CGCTL_BW_MAX_US ((1ULL << 44) - 1)	/* MAX_BW: largest finite quota, µs */

/* One group's setting as the interface files hold it, in µs. */
struct cgctl_bw_settings {
	size_t size;		/* sizeof(struct cgctl_bw_settings): CGCTL_BW_SETTINGS() */
	uint64_t quota_us;	/* CGCTL_BW_INF: unlimited */
	uint64_t period_us;
	uint64_t burst_us;
};
/* An initializer and a value of the settings, with their size set: a function that
 * takes settings (cgctl_plan_add_bw(), the levels of cgctl_bw_replay()) refuses a
 * size it does not know with -EINVAL; the settings the library fills carry it. */
#define CGCTL_BW_SETTINGS_INIT(quota, period, burst) \
	{ .size = sizeof(struct cgctl_bw_settings), .quota_us = (quota), \
	  .period_us = (period), .burst_us = (burst) }
#define CGCTL_BW_SETTINGS(quota, period, burst) \
	((struct cgctl_bw_settings)CGCTL_BW_SETTINGS_INIT(quota, period, burst))

/* What cpu.stat / cpu.stat.local report; nr_* are the kernel's 32-bit ints (they wrap).
 * The library fills it inside its results (cgctl_bw_replay_result, cgctl_bw_replay). */
struct cgctl_bw_stat {
	size_t size;		/* sizeof(struct cgctl_bw_stat), set by the library */
	int32_t nr_periods;
	int32_t nr_throttled;
	int32_t nr_bursts;
	uint64_t throttled_ns;		/* cpu.stat throttled_time: own quota, Σ over CPUs */
	uint64_t throttled_local_ns;	/* cpu.stat.local (6.6+): self or ancestor, Σ CPUs */
	uint64_t burst_ns;		/* burst_time */
	uint64_t usage_ns;		/* CPU time of the group and its descendants */
	uint64_t wait_ns;		/* Σ over its threads (and descendants') of the time
					 * runnable, not throttled, not running: run_delay
					 * without throttling; processor sharing makes it up
					 * to twice the kernel's for threads sharing a CPU */
	uint64_t delay_ns;		/* Σ over its threads of run_delay (schedstat): the
					 * wait above plus the time each spent parked by
					 * throttling (several per CPU count several times;
					 * throttled_ns counts a CPU once) */
};

/* One period of a group, for pictures (recorded on the group's phase grid); the
 * replay's result holds an array of them, each @size bytes. */
struct cgctl_bw_period {
	size_t size;		/* sizeof(struct cgctl_bw_period), set by the library */
	uint64_t end_ns;	/* boundary at which this period ended */
	uint64_t used_ns;	/* CPU time used during the period */
	uint64_t throttled_ns;	/* Σ over CPUs of own-quota throttled time in the period */
	uint64_t credit_ns;	/* pool above quota right after the refill (burst credit) */
	bool counted;		/* the period timer was armed: counted in nr_periods */
	bool throttled;		/* counted in nr_throttled */
};

struct cgctl_bw_trace;	/* parsed busy/idle trace */

/* A thread of the replayed workload: lib/libcgctl-private.h (the model's own layers,
 * validate and the benches give lists of them; cgctl_bw_replay_spec says how many
 * alike threads to replay instead). */
struct cgctl_bw_thread;

/*
 * cgctl_bw_trace_parse: a workload trace, one interval per line
 * "THREAD<TAB>busy|idle<TAB>DURATION" (DURATION: µs, or with ns/us/ms/s), '#' comments.
 * Returns: 0, -EINVAL (with the line number in @e), -ENOMEM.
 */
int cgctl_bw_trace_parse(const char *buf, size_t len, struct cgctl_bw_trace **ret,
			 struct cgctl_error *e);
void cgctl_bw_trace_free(struct cgctl_bw_trace *t);



/* ===== end: engine: CFS bandwidth ===== */

/* ===== engine: per-cpu counters and page lists ===== */
/* percpu_counter, RSS counters, the page allocator's per-cpu lists (lib/engine) */

/* ---- percpu_counter model: internal (lib/engine/pcpucounter.h) ---- */

#define CGCTL_PCPUC_MAX_CPUS 8192	/* the CPUs a per-cpu counter or zone is read for */

/* ---- online CPUs ---- */

/* Online CPUs of NUMA node @node (/sys/devices/system/node/nodeN/cpulist; without NUMA
 * sysfs, /sys/devices/system/cpu/online).  Returns: the count, or -errno. */
int cgctl_node_ncpu(struct cgctl_ctx *ctx, int node);
/* Online CPUs of the system (/sys/devices/system/cpu/online).  Returns: count, -errno. */
int cgctl_online_ncpu(struct cgctl_ctx *ctx);

/* ===== end: engine: per-cpu counters and page lists ===== */

/* ===== predict: memory and moves ===== */
/* memcg model seeding and the move plan (lib/predict); the tasks a move meets
 * (lib/kernel/moveexec.c) */

/*
 * The memory half of the prediction layer: a memcg model seeded from the memory page
 * counters (read by the library; callers read them with cgctl_cgroup_stat_get()), and
 * the move plan of a page inventory (one rule turning an inventory into move-charge
 * classes), used alike by `cgctl mem`, `cgctl move` and validate's move driver.
 */

/* Returns: the number of cgroups in the subtree of @path, itself included (>= 1; an
 * unreadable directory counts as a leaf). */
unsigned int cgctl_mem_subtree_size(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				    const char *path);

/*
 * struct cgctl_mem_model: a memcg model (lib/engine) of the memory cgroups a move
 * touches, each seeded from the kernel's counters when the plan first needs it; the
 * plans made on it accumulate (a second task moves into what the first left).  Opaque.
 */
struct cgctl_mem_model;
/*
 * cgctl_mem_model_new: a model of @m's root on kernel @kver (0: unknown, modelled as
 * 6.18) with @ncpu CPUs; v1 memsw accounting when the root has memory.memsw.*.
 * Returns: 0 and *@ret (free with cgctl_mem_model_free()), -EINVAL (ncpu 0), -ENOMEM,
 * -errno (the root's counters cannot be read).
 */
int cgctl_mem_model_new(struct cgctl_ctx *ctx, const struct cgctl_mount *m, uint32_t kver,
			unsigned int ncpu, struct cgctl_mem_model **ret);
/* Free @mm and the expectations planned on it (NULL: nothing).  Returns: nothing. */
void cgctl_mem_model_free(struct cgctl_mem_model *mm);

/*
 * cgctl_move_input_add_cache: add to @in the page cache of the files @pids map that lies
 * between their mapped pages and is charged to the memcg of inode @from_ino, as
 * `cgctl move` plans with move_charge_at_immigrate bit 1 (lib/kernel/pagecache.c).
 * Returns: 0, -errno of the scan (nothing added).
 */
int cgctl_move_input_add_cache(struct cgctl_ctx *ctx, const pid_t *pids, size_t n,
			       uint64_t from_ino, struct cgctl_move_input *in);

/*
 * struct cgctl_move_expect: what moving a task (or a process tree) is expected to do,
 * by the engine's plan of move_charge_at_immigrate for the model's kernel, opaque.
 * Its figures, by name, with cgctl_move_expect_get() (pages unless said otherwise):
 *   planned            1: a plan was made; 0: none (cgctl_move_expect_note() says why)
 *   moves              1: the kernel moves charges for this attach
 *   err                0, or -ENOMEM: the kernel would refuse the attach (precharge)
 *   precharge          pages the kernel tries to precharge
 *   anon, file, shmem  pages of each class that qualify (anon: THP included)
 *   moved, moved_swap  pages and swap entries whose charge moves
 *   stays              pages charged to the source that stay there
 *   resident           resident pages of the tasks (zero page excluded)
 *   headroom           room below the limits of the destination and its ancestors
 *   oom_risk           1: the charges stay, but the resident pages exceed the headroom
 *                      (re-faults in the destination reclaim or OOM)
 *   from_delta, to_delta  the change of the memory usage the kernel reports for the
 *                      source and the destination: -moved and +moved, but 0 for the one
 *                      that is an ancestor of the other and for the root
 */
struct cgctl_move_expect;
/*
 * cgctl_move_expect_tasks: inventory the @n tasks @pids (a process tree, @pids[0] its
 * root, in @from) and plan their move from @from to @to on @mm (the model keeps the
 * result, so successive moves accumulate).  A failed inventory is no plan ("planned"
 * 0, @err says why).  The expectation belongs to @mm: it lives until
 * cgctl_mem_model_free().
 * Returns: 0 and *@ret, -ESRCH (@pids[0] is gone; *@ret NULL), -EINVAL, -ENOMEM.
 */
int cgctl_move_expect_tasks(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm,
			    const pid_t *pids, size_t n, const char *from, const char *to,
			    const struct cgctl_move_expect **ret, struct cgctl_error *err);
/*
 * cgctl_move_expect_get: the figure @key of @e (see struct cgctl_move_expect).
 * Returns: 0 and *@ret; -ENODATA (no plan was made, and @key is not "planned"),
 * -EINVAL (an unknown @key).
 */
int cgctl_move_expect_get(const struct cgctl_move_expect *e, const char *key,
			  int64_t *ret);
/* Returns: why no plan was made; or, planned but the kernel moves no charge, why not;
 * else NULL (static strings). */
const char *cgctl_move_expect_note(const struct cgctl_move_expect *e);
/*
 * cgctl_move_tolerance_bytes: how far an observed usage change of @path may be from the
 * plan: the most the per-cpu stock of its subtree can hold on the model's kernel.
 * Returns: the bound in bytes.
 */
uint64_t cgctl_move_tolerance_bytes(struct cgctl_ctx *ctx, const struct cgctl_mem_model *mm,
				    const char *path);

/* ---- executing a move ---- */
enum cgctl_task_kind {
	CGCTL_TASK_MOVABLE,	/* a user task that can be attached */
	CGCTL_TASK_GONE,	/* no such process */
	CGCTL_TASK_KTHREAD,	/* a kernel thread: cgroup.procs refuses it */
	CGCTL_TASK_ZOMBIE,	/* a zombie or dead task: nothing left to move */
};
/* cgctl_move_task_kind: what /proc/@pid/stat says of @pid for a move.
 * Returns: a CGCTL_TASK_* (>= 0), or -EINVAL, -errno (unreadable stat). */
int cgctl_move_task_kind(struct cgctl_ctx *ctx, pid_t pid);
/*
 * cgctl_move_tree_members: the process tree of @pid now: its thread group leader first,
 * then every descendant process (from one snapshot of /proc's ppids, as
 * cgctl_move_tree() walks it).  Returns: 0 and *@ret (free()) of *@n PIDs, -ESRCH (no
 * such process), -EINVAL, -ENOMEM, -errno.
 */
int cgctl_move_tree_members(struct cgctl_ctx *ctx, pid_t pid, pid_t **ret, size_t *n);
/* cgctl_move_tree_elsewhere: how many of @pids[1..@n) are in another cgroup of @m than
 * @from (exiting tasks, which may read as the root, are not counted).
 * Returns: the count. */
size_t cgctl_move_tree_elsewhere(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				 const pid_t *pids, size_t n, const char *from);

/* ===== end: predict: memory and moves ===== */

/* ===== predict: settings ===== */
/* read and apply with rollback, throttling prediction (lib/predict) */

/*
 * ---- CFS bandwidth kernel eras (lib/engine/bandwidth-era.c) ----
 * The one table of which kernel has which bandwidth behaviour or file.
 */
enum cgctl_bw_feature {
	CGCTL_BW_FEAT_EXPIRE,		/* per-CPU runtime expired each period (until 5.4) */
	CGCTL_BW_FEAT_BURST,		/* cpu.cfs_burst_us / cpu.max.burst (5.14+) */
	CGCTL_BW_FEAT_BURST_STATS,	/* nr_bursts, burst_time / burst_usec (5.16+) */
	CGCTL_BW_FEAT_RANDOM_PHASE,	/* period timer phase follows the first wakeup */
	CGCTL_BW_FEAT_EMPTY_RULE,	/* an empty cfs_rq is not throttled */
	CGCTL_BW_FEAT_LOCAL_STAT,	/* cpu.stat.local (6.6+) */
	CGCTL_BW_FEAT_TASK_THROTTLE,	/* task-based throttling at return to user */
	CGCTL_BW_FEAT_EEVDF,		/* EEVDF placement by lag, no sleeper credit (6.6+) */
	CGCTL_BW_FEAT_DELAY_DEQUEUE,	/* delayed dequeue: a sleeper wakes with no
					 * negative lag and preempts for a slice (6.12+) */
	CGCTL_BW_FEAT_COUNT
};
/* Returns: true if kernel @kver (CGCTL_KVER) has @f. */
bool cgctl_bw_era_has(uint32_t kver, enum cgctl_bw_feature f);
/* Returns: the first kernel with @f, or for a feature that was removed (EXPIRE) the
 * first kernel without it; 0 for an unknown @f. */
uint32_t cgctl_bw_era_since(enum cgctl_bw_feature f);

/*
 * ---- settings as the interface files hold them (lib/predict/settings-read.c) ----
 */
#define CGCTL_CPUSET_BURST	(1u << 0)	/* the burst file exists */
#define CGCTL_CPUSET_DEFAULT	(1u << 1)	/* no cpu.max (the v2 root): the kernel's
						 * default, unlimited with a 100 ms period */
struct cgctl_cpu_settings {
	size_t size;			/* sizeof(struct cgctl_cpu_settings): set by the reader */
	int version;
	struct cgctl_bw_settings bw;	/* quota CGCTL_BW_INF: unlimited; burst 0 if absent */
	unsigned int present;		/* CGCTL_CPUSET_* */
};
/*
 * cgctl_cpu_settings_read: quota, period and burst of @path in the cpu hierarchy @m
 * (v1 cpu.cfs_quota_us/cpu.cfs_period_us/cpu.cfs_burst_us, v2 cpu.max/cpu.max.burst).
 * The v2 root, which has no cpu.max, reads as unlimited with CGCTL_CPUSET_DEFAULT.
 * Returns: 0, -ENOENT (no such cgroup or file), -EINVAL (malformed), -errno.
 */
int cgctl_cpu_settings_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			    const char *path, struct cgctl_cpu_settings *ret);


#define CGCTL_MEMSET_MAX	(1u << 0)	/* v1 limit_in_bytes, v2 memory.max */
#define CGCTL_MEMSET_MEMSW	(1u << 1)	/* v1 memsw.limit_in_bytes (swap accounting) */
#define CGCTL_MEMSET_SOFT	(1u << 2)	/* v1 soft_limit_in_bytes */
#define CGCTL_MEMSET_MOVE	(1u << 3)	/* v1 move_charge_at_immigrate */
#define CGCTL_MEMSET_HIER	(1u << 4)	/* v1 use_hierarchy */
#define CGCTL_MEMSET_HIGH	(1u << 5)	/* v2 memory.high */
#define CGCTL_MEMSET_LOW	(1u << 6)	/* v2 memory.low */
#define CGCTL_MEMSET_MIN	(1u << 7)	/* v2 memory.min */
#define CGCTL_MEMSET_SWAP	(1u << 8)	/* v2 memory.swap.max */
#define CGCTL_MEMSET_OOMGROUP	(1u << 9)	/* v2 memory.oom.group */
struct cgctl_mem_settings {
	size_t size;			/* sizeof(struct cgctl_mem_settings): set by the reader */
	int version;
	uint64_t max, memsw_max, soft, high, low, min, swap_max;	/* bytes; UINT64_MAX:
						 * unlimited ("max", v1 "-1") */
	unsigned int move_charge;	/* bits: 1 anon, 2 file */
	bool use_hierarchy, oom_group;
	unsigned int present;		/* CGCTL_MEMSET_*: files that exist */
};
/*
 * cgctl_mem_settings_read: the configured memory knobs of @path in the memory hierarchy
 * @m.  A v1 limit the kernel prints as its largest value (PAGE_COUNTER_MAX pages, or
 * the res_counter era's U64_MAX) reads as UINT64_MAX.  The root (no limit files) reads
 * with those bits absent from present.  Returns: 0, -ENOENT, -EINVAL, -errno.
 */
int cgctl_mem_settings_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			    const char *path, struct cgctl_mem_settings *ret);

/*
 * ---- one executor: a plan of settings (lib/predict/plan*.c) ----
 * struct cgctl_plan holds what to write: raw writes (FILE=VALUE, as `cgctl set`), a cpu
 * cgroup's bandwidth (`cgctl bw set`), a memory cgroup's knobs (`cgctl mem set`), at
 * most CGCTL_SET_MAX items.  cgctl_plan_check() and cgctl_plan_apply() plan them anew
 * each time, under the cgroup lock (cgctl_cgroup_lock()) of every cgroup they name, from
 * the read of the current state to the end of the rollback.  Every item is checked
 * before anything is written: the file exists, the value has the syntax the file takes
 * (memory sizes, numbers, cpu.max ...), the end state obeys the kernel's rules (memory
 * <= memsw on v1 and the era's move_charge_at_immigrate; the CPU bandwidth rules against
 * the whole cpu tree, tg_set_cfs_bandwidth() and tg_cfs_schedulable_down()).  The
 * steps: the typed items first, in the order added, each in an order whose every state
 * the kernel accepts (memory limits going down before limits going up, v1 memory before
 * memsw when they shrink and after when they grow; bandwidth by the engine's write
 * order), unchanged values skipped; then the raw writes: memory limits going down, CPU
 * bandwidth and the other files in the order given, memory limits going up, then at most
 * one irreversible write (an action file such as memory.force_empty, memory.reclaim,
 * cgroup.kill, memory.oom_control or a counter reset, or a value that cannot be read
 * back) last.  Task files (cgroup.procs, tasks, cgroup.threads) are refused: use the
 * move API.  A cgroup of a typed item takes no other item.  When the context says so
 * (cgctl_set_block_signals()) SIGINT, SIGTERM, SIGHUP and SIGQUIT are blocked while a
 * plan of more than one write runs; a failed write is undone newest first, and if that
 * fails too the message in @e names every file and the value it holds now.
 */
#define CGCTL_SET_MAX 16		/* items of one plan */
struct cgctl_plan;
/* Returns: 0 and an empty plan in *ret, -EINVAL, -ENOMEM. */
int cgctl_plan_new(struct cgctl_ctx *ctx, struct cgctl_plan **ret);
void cgctl_plan_free(struct cgctl_plan *p);
/*
 * cgctl_plan_add: write @value (without newline) to @file of @path (normalised) in @m.
 * Returns: the item's index (>= 0), -EINVAL (a cgroup of a typed item), -E2BIG, -ENOMEM.
 */
int cgctl_plan_add(struct cgctl_plan *p, const struct cgctl_mount *m, const char *path,
		   const char *file, const char *value);
/*
 * cgctl_plan_add_bw: take @path of the cpu hierarchy @m to @want (a kernel without
 * burst refuses a changed burst with -EOPNOTSUPP).  Returns: as cgctl_plan_add().
 */
int cgctl_plan_add_bw(struct cgctl_plan *p, const struct cgctl_mount *m, const char *path,
		      const struct cgctl_bw_settings *want);
/*
 * cgctl_plan_add_mem: the knobs of @want named in @which (CGCTL_MEMSET_*, not HIER) to
 * @path of the memory hierarchy @m; knobs of the other cgroup version or missing files
 * are refused with -EOPNOTSUPP.  Returns: as cgctl_plan_add().
 */
int cgctl_plan_add_mem(struct cgctl_plan *p, const struct cgctl_mount *m, const char *path,
		       const struct cgctl_mem_settings *want, unsigned int which);
/*
 * cgctl_plan_check: plan the items against the current state; nothing is written.
 * Returns: the number of steps (0: nothing to change), -EINVAL (a malformed item or a
 * kernel rule, cgctl_plan_refused() names the item), -EOPNOTSUPP, -ENOENT (no such
 * cgroup or file), -E2BIG, -errno, with @e.
 */
int cgctl_plan_check(struct cgctl_plan *p, struct cgctl_error *e);
/*
 * cgctl_plan_apply: plan (as cgctl_plan_check()) and write the steps.
 * Returns: the number of writes, an error of cgctl_plan_check() (nothing written), or
 * the failed write's -errno (cgctl_plan_failed() names the step,
 * cgctl_plan_rolled_back() says whether the old values are back; @e names the files
 * and what they hold when they are not).
 */
int cgctl_plan_apply(struct cgctl_plan *p, struct cgctl_error *e);
#define CGCTL_PLAN_STEP_IRREVERSIBLE	(1u << 0)	/* nothing to restore (*old NULL) */
#define CGCTL_PLAN_STEP_DETOUR		(1u << 1)	/* after it the CPU quota is
							 * unlimited, which the plan's end
							 * is not: no order of writes
							 * avoids it */
/*
 * cgctl_plan_step: step @i of the last check or apply, in plan order: its cgroup (@m,
 * @path), @file, the @value written, the @old value it restores (NULL: irreversible)
 * and CGCTL_PLAN_STEP_* @flags.  Any out pointer may be NULL; the strings live as long
 * as the plan until its next check or apply.  Returns: 0, -ERANGE (no step @i), -EINVAL.
 */
int cgctl_plan_step(const struct cgctl_plan *p, size_t i, const struct cgctl_mount **m,
		    const char **path, const char **file, const char **value,
		    const char **old, unsigned int *flags);
/* Returns: the index of the step whose write failed in the last apply, or -1. */
int cgctl_plan_failed(const struct cgctl_plan *p);
/* Returns: true if a write failed and every earlier one was undone. */
bool cgctl_plan_rolled_back(const struct cgctl_plan *p);
/* Returns: the index of the item refused before any write (cgctl_plan_add*()'s), or -1. */
int cgctl_plan_refused(const struct cgctl_plan *p);

/* ===== end: predict: settings ===== */

/* ===== predict: one replay ===== */
/*
 * cgctl_bw_replay(): the one set-up of the bandwidth simulation.  `cgctl move`'s
 * throttling, `cgctl bw predict`, `cgctl bw recommend` and validate's bandwidth driver
 * all replay through it, so the same demand under the same settings predicts the same
 * cpu.stat whichever door it enters by, and the threads are placed by the model's one
 * rule for everyone (only a caller that observed a kernel's placement gives @place).
 * struct cgctl_bw_replay_place is internal (validate's observed placements only): a
 * caller outside cgctl leaves @place NULL and gets the prediction users get.
 */
struct cgctl_bw_replay_place;

struct cgctl_bw_replay_spec {
	size_t size;			/* sizeof(struct cgctl_bw_replay_spec) */
	uint32_t kver;			/* era; 0: CGCTL_KVER_NEWEST */
	unsigned int ncpus;		/* 0: 1 */
	uint64_t seed;			/* period timer phases, jitter; 0: 1 */
	uint64_t duration_ns;		/* 0: a trace's 2 x span + 1 s, else 10 s */
	uint64_t settle_ns;		/* 0: 4 periods + 0.5 s */
	uint32_t other_load_ppm;	/* CPU share taken by unrelated tasks */
	unsigned int hz;		/* 0: 250 */
	uint64_t slice_ns;		/* 0: 5 ms */
	bool record_periods;		/* keep the group's periods (result's periods) */
	/* the limits from the top down, observed (cgctl_move_throttle_limits) or given:
	 * the last is the group replayed; quota CGCTL_BW_INF: unlimited */
	const struct cgctl_bw_settings *levels;
	unsigned int nlevels;		/* 1..CGCTL_BW_REPLAY_LEVELS */
	/* the demand, one of: a trace's threads (those with any interval); @threads
	 * alike threads (busy_ns 0: always busy); with a trace too, @threads threads,
	 * thread i replaying the trace's thread i mod its threads (empty ones too);
	 * @list's threads one by one (their group ignored; lib/libcgctl-private.h) */
	const struct cgctl_bw_trace *trace;
	uint64_t trace_loop_ns;		/* nonzero: the trace, recorded for this long,
					 * repeats back to back over the run, each
					 * thread's copy once its last one is done */
	unsigned int threads;
	uint64_t busy_ns, idle_ns;
	uint32_t jitter_ppm;
	uint64_t account_ns;		/* how often a running thread's run time is
					 * charged: 0, at the tick; a thread that reads
					 * its own CPU clock, this far apart */
	const struct cgctl_bw_thread *list;
	unsigned int nlist;
	/* prior state and neighbours (0 / NULL: none) */
	const int64_t *const *silos;	/* [nlevels] each NULL or [ncpus]: the silos a
					 * previous run left (its silos_out) */
	int64_t *const *silos_out;	/* [nlevels] each NULL or [ncpus]: the silos this
					 * run leaves, settled */
	uint32_t shares;		/* the group's cpu.shares (CFS weights on) */
	unsigned int bg_threads;	/* always-busy threads of an unlimited sibling */
	uint32_t bg_shares;		/* ... group below the group's parent at this weight */
	const struct cgctl_bw_settings *rewrite;	/* written to the group ... */
	uint64_t rewrite_at_ns;				/* ... at this time */
	/* where a kernel ran the threads, observed (NULL: the model's own rule, the
	 * prediction users get): threads numbered the background's first, then the
	 * demand's, in time order; a thread moves there at at_ns */
	const struct cgctl_bw_replay_place *place;
	size_t nplace;
};

#define CGCTL_BW_REPLAY_LEVELS 32

struct cgctl_bw_replay_result {
	size_t size;			/* sizeof(struct cgctl_bw_replay_result) */
	struct cgctl_bw_stat st;	/* the group's cpu.stat at the workload's end */
	struct cgctl_bw_stat settled;	/* ... once the group has gone quiet */
	struct cgctl_bw_stat parent_settled;	/* the level above, quiet (nlevels > 1) */
	uint64_t worst_period_ns;	/* most throttled time of one period (record_periods) */
	struct cgctl_bw_period *periods;	/* record_periods: the group's periods */
	size_t nperiods;
};

/*
 * cgctl_bw_replay: simulate @spec's demand under its settings.  @ret->size must be set;
 * free its periods with cgctl_bw_replay_result_free().
 * Returns: 0, -EINVAL (bad spec, settings the kernel refuses; said in @e), -ENOMEM.
 */
int cgctl_bw_replay(const struct cgctl_bw_replay_spec *spec,
		    struct cgctl_bw_replay_result *ret, struct cgctl_error *e);
void cgctl_bw_replay_result_free(struct cgctl_bw_replay_result *ret);

/* ===== end: predict: one replay ===== */

/* ===== predict: record and recommend ===== */
/* bw record, traces, recommend (lib/predict, lib/kernel/perf*) */

/*
 * Real workloads: record a group's threads with perf context-switch records, rebuild
 * their CPU demand as a trace (format v2, cgctl-bw(1) "TRACE FORMAT"), replay it in the
 * bandwidth model and search the smallest limit that keeps throttling within a budget.
 */

/* What a parsed trace (cgctl_bw_trace_parse) holds: cgctl_bw_trace_get()'s keys. */
enum cgctl_bw_trace_key {
	CGCTL_BW_TRACE_VERSION,		/* format version: 0 (no version line), 1 or 2 */
	CGCTL_BW_TRACE_THREADS,		/* highest thread number + 1 */
	CGCTL_BW_TRACE_NCPUS,		/* CPUs of the recording machine; 0: not stated */
	CGCTL_BW_TRACE_LOST,		/* records the kernel lost while recording */
	CGCTL_BW_TRACE_BUSY_NS,		/* Σ CPU time the threads used (their demand) */
	CGCTL_BW_TRACE_WAIT_NS,		/* Σ time runnable, held back by the limit (v1:
					 * also preempted) */
	CGCTL_BW_TRACE_SPAN_NS,		/* the longest thread's replay length (busy + idle
					 * + ready) */
	CGCTL_BW_TRACE_DURATION_NS,	/* the recording's stated length, else span */
	CGCTL_BW_TRACE_READY_NS,	/* Σ time runnable while other tasks held the CPU
					 * (v2) */
};
/* Returns: what @t holds for @key; 0 for a NULL @t or an unknown key. */
uint64_t cgctl_bw_trace_get(const struct cgctl_bw_trace *t, enum cgctl_bw_trace_key key);

/*
 * A recording: what cgctl_bw_record() recorded, and, as the progress callback's
 * argument while it records, how far it is (no trace yet; what is marked "so far").
 */
struct cgctl_bw_record_result {
	size_t size;		/* sizeof(struct cgctl_bw_record_result), set by the caller */
	char *trace;		/* v2 trace text (malloc'd); NULL while recording */
	size_t len;
	uint64_t duration_ns;	/* how long it recorded (so far) */
	uint64_t switches;	/* switch records read (so far) */
	uint64_t lost;		/* records the kernel lost (PERF_RECORD_LOST; so far); 0 is
				 * complete */
	unsigned int threads;	/* threads that appear in the trace; while recording:
				 * recorded tasks alive now (threads and children) */
	unsigned int ncpus;
	uint64_t self_cpu_ns;	/* CPU time the recorder itself used (so far) */
};

/* What to record. */
struct cgctl_bw_record_opts {
	size_t size;		/* sizeof(struct cgctl_bw_record_opts) */
	const int *pids;	/* these processes, all their threads, and every thread ... */
	size_t npids;		/* ... and child they create while recording */
	const char *cgroup;	/* or (pids NULL): the processes of this cpu-hierarchy cgroup */
	uint64_t duration_ns;	/* 0: until every recorded thread has exited or *stop */
	const volatile int *stop;	/* may be NULL; nonzero ends the recording */
	unsigned int pages;	/* ring buffer per CPU in pages, a power of 2; 0: 128 */
	/* may be NULL: called in the calling thread after each read of the ring buffers
	 * (at most every 100 ms) while recording, not after the last, with the recording
	 * so far (@now->trace NULL) */
	void (*progress)(void *data, const struct cgctl_bw_record_result *now);
	void *progress_data;
};

/*
 * cgctl_bw_record: record the context switches of @o's tasks with perf_event_open
 * (software dummy events, context_switch, inherit, one ring buffer per CPU; no tracefs,
 * no BPF) and rebuild their demand.  Needs root, CAP_PERFMON, or
 * kernel.perf_event_paranoid <= 1 for other users' tasks (0 for one's own, -1 for
 * everything): -EACCES then says which.
 * @res->size must be set (a smaller one: -EINVAL, nothing recorded).
 * Returns: 0 with @res filled (free with cgctl_bw_record_result_free), -EINVAL,
 * -ESRCH (no such process), -EACCES, -ENOENT (no such cgroup), -ENOMEM, -errno.
 */
int cgctl_bw_record(struct cgctl_ctx *ctx, const struct cgctl_bw_record_opts *o,
		    struct cgctl_bw_record_result *res, struct cgctl_error *e);
void cgctl_bw_record_result_free(struct cgctl_bw_record_result *res);

/* Replay and search parameters. */
struct cgctl_bw_recommend_opts {
	size_t size;			/* sizeof(struct cgctl_bw_recommend_opts) */
	unsigned int ncpus;		/* 0: the trace's, else 1 */
	uint32_t kver;			/* 0: CGCTL_KVER(6,18,0) */
	uint32_t max_throttled_ppm;	/* budget: nr_throttled / nr_periods; 0: 1% */
	uint64_t max_delay_ns;		/* budget: throttled time in one period (Σ CPUs); 0: none */
	const uint64_t *periods_us;	/* candidate periods; NULL: 100 ms */
	size_t nperiods;
	bool burst_auto;		/* also try bursts of 1/4, 1/2 and 1 quota */
	uint64_t burst_us;		/* the burst, when not burst_auto */
	uint64_t seed;
};

/* One setting replayed on the trace. */
struct cgctl_bw_replay {
	size_t size;				/* sizeof(struct cgctl_bw_replay), set by
						 * the library */
	struct cgctl_bw_settings bw;
	struct cgctl_bw_stat st;		/* predicted cpu.stat at the workload's end */
	double throttled_frac;			/* nr_throttled / nr_periods */
	uint64_t max_period_throttled_ns;	/* the worst period's throttled time, Σ CPUs */
	double slack;				/* (quota / period) / mean use */
	bool within;				/* meets the budget */
};

/* Where the run-to-run spread of the bound of cgctl_bw_recommend_runs() comes from. */
enum cgctl_bw_bound_method {
	CGCTL_BW_BOUND_NONE = 0,	/* one recording too short to split: its own answer */
	CGCTL_BW_BOUND_RECORDINGS,	/* the answers of several recordings */
	CGCTL_BW_BOUND_WINDOWS,		/* the answers of equal windows of one recording */
	CGCTL_BW_BOUND_BOOTSTRAP,	/* a block bootstrap over one recording's periods */
};

struct cgctl_bw_recommendation {
	size_t size;			/* sizeof(struct cgctl_bw_recommendation),
					 * set by the caller */
	struct cgctl_bw_replay best;	/* smallest limit within budget (unlimited if none) */
	bool feasible;			/* false: no finite quota meets the budget */
	double mean_use;		/* CPUs: demand / trace length */
	double pct_use;			/* CPUs: 90th percentile of the 1 s windows' demand */
	struct cgctl_bw_replay pct;	/* percentile recommender: pct_use x 1.15 */
	unsigned int replays;		/* simulations run by the search */
	unsigned int cpus;		/* CPUs the threads may use: min(CPUs, threads) */
	double saturated_frac;		/* periods whose demand reaches all of them */
	bool all_cpus;			/* no quota below all of them meets the budget: the
					 * answer is cpus x period, or no limit when even
					 * that misses it (feasible false) */
	/* How the recommendation covers a next run: the per-sample answers as CPUs
	 * (quota / period; a sample is a recording, or a window of the one recording),
	 * their mean and sample standard deviation, Student's t at the confidence for
	 * n - 1 degrees of freedom (0 for one sample) and the bound it gives. */
	struct {
		double confidence;
		double mean_cpus, sd_cpus, t;
		double bound_cpus;	/* mean + t x sd x sqrt(1 + 1/n), at least the largest answer
					 * (windows: at least the whole recording's answer) */
		int method;		/* enum cgctl_bw_bound_method */
		unsigned int samples;	/* recordings or windows */
		uint64_t window_ns;	/* CGCTL_BW_BOUND_WINDOWS: each window's length */
		double own_cpus;	/* windows, bootstrap: the whole recording's own
					 * answer (several recordings: the bound over
					 * their answers) */
		/* CGCTL_BW_BOUND_BOOTSTRAP (samples: the recording's periods; mean_cpus,
		 * sd_cpus: of the resampled runs' answers; t: 0): periods per block,
		 * blocks per resampled run, resampled runs */
		unsigned int block_periods, blocks, resamples;
	} bound;
};

/* One recording's part in cgctl_bw_recommend_runs(). */
struct cgctl_bw_run {
	size_t size;		/* sizeof(struct cgctl_bw_run), by the caller in each */
	uint64_t quota_us;	/* the smallest quota within budget on this recording alone, at
				 * the recommended period and burst (CGCTL_BW_INF: none) */
	double throttled_frac;	/* this recording replayed under the recommendation */
};

/*
 * cgctl_bw_recommend_runs: as cgctl_bw_recommend, over @n recordings of one workload,
 * for a quota that also holds for its next run.  Each recording is searched alone; the
 * quota is the upper prediction bound at @confidence (0: 0.95; at most 0.995) for one
 * more run's answer, never below the largest answer and never above the CPUs the
 * recordings' threads can use (@ret->bound says the bound itself); the period (and
 * burst) with the smallest bound wins.  @ret replays the answer on every recording: throttled_frac over
 * all their periods, the cpu.stat their mean, mean_use all busy time over all spans, the
 * percentile recommender from all recordings' windows.  @runs (NULL or @n entries) and
 * @ret->bound say how each recording and the bound came out.  One recording
 * long enough (6 periods of demand) gives its own answer plus the @confidence quantile
 * of the difference of two runs' answers resampled by a circular block bootstrap over
 * its periods (1000 resamples, a fixed seed); it is also cut into 3 to 8 equal windows
 * of at least 2 periods (10 where it can), each searched alone, and their bound at
 * @confidence^(1/k) per window rules where it is the higher.  Several recordings are cut so too, and the bound over all their windows (at
 * @confidence^(1/k) for one window, a run's answer being the largest of its k) is the
 * quota where it is above the recordings' bound.  When the answer comes within 5% of all the CPUs the threads may use, or
 * more of the periods than the budget allows need all of them, the quota is all of them
 * (ret->all_cpus): a quota a hair below throttles every period that saturates them.
 * @ret->size and each of @runs' size must be set.
 * Returns: 0, -EINVAL (no recording, bad options or confidence, a recording without busy
 * time: the message names it; a size too small), -ENOMEM.
 */
int cgctl_bw_recommend_runs(const struct cgctl_bw_trace *const *t, size_t n,
			    const struct cgctl_bw_recommend_opts *o, double confidence,
			    struct cgctl_bw_recommendation *ret, struct cgctl_bw_run *runs,
			    struct cgctl_error *e);

/*
 * ---- the destination's throttling for `cgctl move` (lib/predict/move-throttle*.c) ----
 * A short recording of the moving tasks and of the tasks already in the destination
 * (and below it), replayed by the bandwidth engine under the destination's quota and
 * its limited ancestors: once with the tasks there now (before), once with both (after).
 */
enum cgctl_move_demand {
	CGCTL_MOVE_DEMAND_NONE = 0,	/* not observed (unlimited, or no sample asked) */
	CGCTL_MOVE_DEMAND_RECORD,	/* recorded context switches (cgctl_bw_record) */
	CGCTL_MOVE_DEMAND_CPUTIME,	/* CPU-time deltas: recording was not possible */
};
/*
 * struct cgctl_move_throttle: the destination's limits and the predicted throttling,
 * opaque.  Numbers by name with cgctl_move_throttle_get():
 *   limited       1: a finite quota at the destination or above
 *   quota_us, period_us, burst_us   the destination's own setting (quota_us
 *                 CGCTL_BW_INF: unlimited; a v2 destination without the cpu
 *                 controller: the setting of the deepest ancestor that has it)
 *   ncpus         CPUs modelled
 *   demand        an enum cgctl_move_demand
 *   sample_ns     how long the tasks were observed
 *   before.KEY, after.KEY   the prediction with the tasks there now, and with the
 *                 moving ones too (after cgctl_move_throttle_predict()), KEY one of
 *                 threads (that used any CPU while observed), nr_periods, nr_throttled
 *                 (the kernel's 32-bit counts, sign-extended), throttled_ns, usage_ns
 *                 (predicted cpu.stat over run_ns), run_ns (the simulated time)
 * CPUs with cgctl_move_throttle_cpus(): limit_cpus (the smallest quota / period of the
 * limited groups), before.demand_cpus and after.demand_cpus (the threads' CPU time /
 * the observation's length).  Strings with cgctl_move_throttle_str(): path (the
 * destination), limit_path (the group whose quota allows the fewest CPUs; "" when
 * none), why_not_recorded (CGCTL_MOVE_DEMAND_CPUTIME: the recording's error).
 */
struct cgctl_move_throttle;
/*
 * cgctl_move_throttle_limits: the bandwidth settings of @dest and of its limited
 * ancestors in the cpu hierarchy @m ("limited": a finite quota among them), for @ncpus
 * CPUs (0: the online ones).  On v2, a @dest without the cpu controller is throttled
 * by the deepest ancestor that has it: that one's setting is the destination's (the
 * root's: unlimited).  Returns: 0 and *@ret (free with cgctl_move_throttle_free()),
 * -ENOENT (no such cgroup), -EINVAL, -ENOMEM, -errno.
 */
int cgctl_move_throttle_limits(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			       const char *dest, unsigned int ncpus,
			       struct cgctl_move_throttle **ret, struct cgctl_error *e);
/*
 * cgctl_move_throttle_predict: after cgctl_move_throttle_limits() found a limit, record
 * for @sample_ns the threads of the @n thread groups @pids and the tasks in @dest and
 * below (perf context switches, as cgctl_bw_record), and predict the destination's
 * cpu.stat before and after the move for kernel @kver (0: 6.18).  Where recording is
 * refused (-EACCES, -EPERM: perf_event_paranoid, no CAP_PERFMON) the demand comes from
 * the threads' CPU-time deltas over the same window instead: mt->demand and
 * "why_not_recorded" say so.
 * Returns: 0, -ENOENT, -ENOMEM, -errno.
 */
int cgctl_move_throttle_predict(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				const char *dest, const pid_t *pids, size_t n,
				uint64_t sample_ns, uint32_t kver,
				struct cgctl_move_throttle *mt, struct cgctl_error *e);
/* Free @mt (NULL: nothing).  Returns: nothing. */
void cgctl_move_throttle_free(struct cgctl_move_throttle *mt);
/* cgctl_move_throttle_get: the number @key of @mt (see struct cgctl_move_throttle).
 * Returns: 0 and *@ret, -EINVAL (an unknown @key). */
int cgctl_move_throttle_get(const struct cgctl_move_throttle *mt, const char *key,
			    uint64_t *ret);
/* cgctl_move_throttle_cpus: the CPU count @key of @mt.  Returns: 0 and *@ret, -EINVAL. */
int cgctl_move_throttle_cpus(const struct cgctl_move_throttle *mt, const char *key,
			     double *ret);
/* Returns: the string @key of @mt (valid while @mt is), or NULL for an unknown @key. */
const char *cgctl_move_throttle_str(const struct cgctl_move_throttle *mt, const char *key);

/* ===== validate ===== */
/* cgctl validate (scenarios, runs, verdicts, the VM harness) is not part of the
 * library: lib/validate is linked into cgctl (lib/validate/libcgctl-validate.h). */
/* ===== end: validate ===== */

#ifdef __cplusplus
}
#endif
#endif /* LIBCGCTL_H */
