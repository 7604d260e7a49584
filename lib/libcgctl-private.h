/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's internal functions and types (not installed, not exported from
 * libcgctl.so): the parsers, model steps and kernel helpers that only other layers of
 * the library and the tests call (issue 28: an export must have a caller in cgctl).
 * The build includes it into every file of the library and of the tests
 * (AM_CPPFLAGS -include), not into cgctl's own sources (src/), which see
 * lib/libcgctl.h only.  Tests link lib/libcgctl-internal.la, where these are defined
 * with hidden visibility.  Conventions as in lib/libcgctl.h.
 */
#ifndef LIBCGCTL_PRIVATE_H
#define LIBCGCTL_PRIVATE_H

#include "libcgctl.h"
#include "util/kver.h"
#include "util/units.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ===== core ===== */
/* Returns: @ctx, with one more reference. */
struct cgctl_ctx *cgctl_ref(struct cgctl_ctx *ctx);

/* ===== kernel: cgroupfs ===== */
/* Open the directory of cgroup @path in @m: openat() component by component with
 * O_NOFOLLOW|O_DIRECTORY below the mount's fd.  Returns: an fd, or -errno
 * (-ENOENT missing, -ELOOP/-ENOTDIR symlink or file, -EINVAL bad path). */
int cgctl_cg_open(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path);
/* Open an absolute system path (e.g. "/proc/123/pagemap") below the root prefix.
 * Returns: fd or -errno. */
int cgctl_open_sys(struct cgctl_ctx *ctx, const char *abspath, int flags);

/* ===== kernel: parsers ===== */
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
/* cpu.stat of either version (and v1 cpuacct), normalised to nanoseconds. */
#define CGCTL_CPU_STAT_USAGE		(1u << 0)	/* usage_ns */
#define CGCTL_CPU_STAT_USER		(1u << 1)	/* user_ns */
#define CGCTL_CPU_STAT_SYSTEM		(1u << 2)	/* system_ns */
#define CGCTL_CPU_STAT_NR_PERIODS	(1u << 3)
#define CGCTL_CPU_STAT_NR_THROTTLED	(1u << 4)
#define CGCTL_CPU_STAT_THROTTLED	(1u << 5)	/* throttled_ns */
#define CGCTL_CPU_STAT_NR_BURSTS	(1u << 6)	/* CGCTL_BW_FEAT_BURST_STATS */
#define CGCTL_CPU_STAT_BURST		(1u << 7)	/* burst_ns (CGCTL_BW_FEAT_BURST_STATS) */
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
 * are ignored.  For the cgroup snapshot and the cpubw reader: callers read these
 * figures with cgctl_cgroup_stat_get().
 * Returns: 0, -EINVAL (bad @version, malformed file), -ERANGE.
 */
int cgctl_parse_cpu_stat(const char *buf, size_t len, int version,
			 struct cgctl_cpu_stat *st);
int cgctl_parse_keyed_s64(const char *buf, size_t len, const char *key, int64_t *ret);
/* A file holding one decimal u64 (memory.current, cpuacct.usage), optional trailing
 * newline.  Returns: 0, -EINVAL, -ERANGE. */
int cgctl_parse_u64(const char *buf, size_t len, uint64_t *ret);
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

/* ===== kernel: statistics ===== */
/* The readers behind struct cgctl_cgroup_stat (lib/kernel/cgroup-stat.c): internal
 * since bw show, mem show and tree read through the snapshot (issue 28). */
/* Pressure stall information (cgroup v2 memory.pressure, cpu.pressure, io.pressure):
 * the averages in hundredths of a percent ("avg10=1.25" -> 125), total in µs. */
struct cgctl_psi_line {
	bool present;		/* the line was printed (cpu "full": 5.13+) */
	uint32_t avg10, avg60, avg300;
	uint64_t total_us;
};
struct cgctl_psi {
	struct cgctl_psi_line some, full;
};

/* Normalised statistics of a cgroup, v1 and v2 (lib/kernel/kstat.c). */
#define CGCTL_MEMSTAT_FAILCNT	(1u << 0)	/* v1 only */
#define CGCTL_MEMSTAT_PEAK	(1u << 1)	/* v1 max_usage, v2 memory.peak */
#define CGCTL_MEMSTAT_MEMSW	(1u << 2)	/* v1 memsw.* (swap accounting on) */
#define CGCTL_MEMSTAT_SWAP	(1u << 3)	/* v2 memory.swap.* */
#define CGCTL_MEMSTAT_EVENTS	(1u << 4)	/* v2 memory.events */
#define CGCTL_MEMSTAT_NO_USAGE	(1u << 5)	/* usage unknown: the v2 root has no
						 * memory.current (usage reads 0) */
#define CGCTL_MEMSTAT_HIGH	(1u << 6)	/* v2 memory.high */
#define CGCTL_MEMSTAT_PRESSURE	(1u << 7)	/* v2 memory.pressure (PSI on) */
#define CGCTL_MEMSTAT_MEMSW_PEAK	(1u << 8)	/* v1 memsw.max_usage_in_bytes */
struct cgctl_memstat {
	int version;
	uint64_t usage;		/* bytes: usage_in_bytes / memory.current */
	uint64_t limit;		/* bytes, UINT64_MAX = unlimited */
	uint64_t failcnt;
	uint64_t peak;		/* bytes */
	uint64_t memsw_usage, memsw_limit, memsw_failcnt;
	uint64_t memsw_peak;	/* bytes: v1 memsw.max_usage_in_bytes */
	uint64_t swap_usage, swap_limit;
	uint64_t events_max, events_oom, events_oom_kill;
	uint64_t events_low, events_high;	/* v2 memory.events, with the above */
	uint64_t high;		/* bytes: v2 memory.high, UINT64_MAX = unlimited */
	struct cgctl_psi pressure;	/* v2 memory.pressure (CGCTL_MEMSTAT_PRESSURE) */
	unsigned int present;	/* CGCTL_MEMSTAT_* */
};
/* Read the memory figures of @path in the memory hierarchy @m (v1 or v2).
 * Returns: 0, -ENOENT (no such cgroup), -errno. */
int cgctl_memstat_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		       struct cgctl_memstat *st);

#define CGCTL_CPUBW_BURST	(1u << 0)	/* the kernel has burst (CGCTL_BW_FEAT_BURST) */
#define CGCTL_CPUBW_LOCAL	(1u << 1)	/* cpu.stat.local present (6.6+) */
struct cgctl_cpubw {
	int version;
	uint64_t quota_us;	/* UINT64_MAX = unlimited */
	uint64_t period_us;
	uint64_t burst_us;
	struct cgctl_cpu_stat stat;	/* see the parse section */
	uint64_t throttled_local_ns;
	unsigned int present;	/* CGCTL_CPUBW_* */
};
/*
 * Read quota/period/burst and cpu.stat (+ cpu.stat.local) of @path in the cpu hierarchy
 * @m; with @acct (v1 cpuacct hierarchy, may be NULL or == @m) and @acct_path (NULL:
 * @path), the usage comes from cpuacct.usage.  Returns: 0, -ENOENT, -errno.
 */
int cgctl_cpubw_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		     const struct cgctl_mount *acct, const char *acct_path,
		     struct cgctl_cpubw *bw);

/* Read @file ("memory.pressure", ...) of @path.  Returns: 0, -EOPNOTSUPP on a v1
 * hierarchy (no pressure files), -ENOENT (no such file: PSI off or too old a kernel),
 * -errno, or cgctl_psi_parse()'s error. */
int cgctl_psi_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		   const char *file, struct cgctl_psi *ret);

/* memory.events / memory.events.local (v2), typed: count[e] is valid when bit
 * (1u << e) of present is set (the kernel printed the key). */
enum cgctl_mem_event {
	CGCTL_MEMEV_LOW,
	CGCTL_MEMEV_HIGH,
	CGCTL_MEMEV_MAX,
	CGCTL_MEMEV_OOM,
	CGCTL_MEMEV_OOM_KILL,		/* 4.19+ */
	CGCTL_MEMEV_OOM_GROUP_KILL,	/* 5.16+ */
	CGCTL_MEMEV_SOCK_THROTTLED,	/* 6.10+ */
	CGCTL_MEMEV_NR
};
struct cgctl_mem_events {
	unsigned int present;
	uint64_t count[CGCTL_MEMEV_NR];
};
/* Returns: the kernel's key of @e ("oom_kill"), NULL when @e is out of range. */
const char *cgctl_mem_event_name(enum cgctl_mem_event e);
/* memory.events (@local false: the subtree) or memory.events.local of @path.
 * Returns: 0, -EOPNOTSUPP on v1, -ENOENT (no such file), -errno, or the parse error. */
int cgctl_mem_events_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			  const char *path, bool local, struct cgctl_mem_events *ret);
/*
 * cgctl_memstat_read() and cgctl_cpubw_read() reading only what the caller prints
 * (lib/kernel/kstat.c).  Memory: CGCTL_MEMSTAT_LEAN reads usage, limit and (v1) failcnt
 * only, each file in one openat2(): 2 or 3 files a cgroup instead of up to 7;
 * CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT leaves memsw_failcnt 0.  CPU: CGCTL_CPUBW_LEAN reads
 * only cpu.stat and (v1, with @acct) cpuacct.usage; quota_us is then UINT64_MAX,
 * period_us, burst_us and throttled_local_ns 0, and present has neither
 * CGCTL_CPUBW_BURST nor CGCTL_CPUBW_LOCAL.
 */
#define CGCTL_MEMSTAT_SKIP_MEMSW_FAILCNT	(1u << 0)
#define CGCTL_MEMSTAT_LEAN			(1u << 1)
/* Returns: as cgctl_memstat_read(): 0, -ENOENT, -EOPNOTSUPP (no memory controller
 * there), -errno. */
int cgctl_memstat_read_flags(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			     const char *path, unsigned int flags, struct cgctl_memstat *st);
#define CGCTL_CPUBW_LEAN			(1u << 0)

/* Parse a pressure file as psi_show() prints it.  Returns: 0, -EINVAL (no "some"
 * line, a line twice, a field missing or malformed), -ERANGE. */
int cgctl_psi_parse(const char *buf, size_t len, struct cgctl_psi *ret);
/* Returns: 0, -EINVAL (a known key twice or not a number), -ERANGE. */
int cgctl_mem_events_parse(const char *buf, size_t len, struct cgctl_mem_events *ret);

/* ===== kernel: page inventory ===== */
/* The layouts behind the opaque struct cgctl_inventory (lib/kernel/pagescan-get.c reads
 * them for callers). */
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
	uint64_t thp_pmd;	/* of thp: anon pages of PMD-mapped 2 MiB folios (3.5-6.12 move
				 * them as one unit, PTE-mapped parts of large folios are
				 * skipped).  Exact with the PAGEMAP_SCAN ioctl (6.7+); else
				 * whole folios mapped at one 2 MiB-aligned address */
	uint64_t thp_heads;	/* of thp: head pages, one per large folio whose head page
				 * the task maps (through a PMD or a PTE); the PTE-mapped
				 * folios' heads are thp_heads - thp_pmd / 512 */
};

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
	size_t n_tasks;		/* tasks whose pages are counted (1 for a single scan) */
	size_t gone_tasks;	/* tasks of cgctl_inventory_scan_tasks() that exited first */
};

/*
 * cgctl_inventory_scan_tasks: the union of the resident pages of @n_pids tasks (a process
 * tree): each physical page counted once however many of them map it, so the figures are
 * what the tasks are charged together.  task_cgroup/task_ino are those of @pids[0].  A
 * task other than the first that exits meanwhile is left out (gone_tasks).  Swap entries
 * carry no PFN: swap_pages is the sum over the tasks (a page swapped out while shared
 * counts once per task), as are n_vmas and virt_pages.
 * Returns: as cgctl_inventory_scan(); -ESRCH when @pids[0] does not exist.
 */
int cgctl_inventory_scan_tasks(struct cgctl_ctx *ctx, const pid_t *pids, size_t n_pids,
			       unsigned int flags, struct cgctl_inventory **ret,
			       struct cgctl_error *e);
/* Returns: the group charged with @ino in @inv, or NULL. */
const struct cgctl_inv_group *cgctl_inventory_group(const struct cgctl_inventory *inv,
						    uint64_t ino);

/* ===== kernel: netlink ===== */
/* cgctl_taskstats_get()'s /proc half: a thread group's comm, minflt and majflt from
 * /proc/@pid/stat below @ctx's root into @ts (left as they are when it cannot be read). */
void cgctl_taskstats_proc(struct cgctl_ctx *ctx, pid_t pid, struct cgctl_taskstats *ts);

enum cgctl_procev_what {
	CGCTL_PROCEV_OTHER = 0,	/* an event we do not decode (uid, comm, ptrace, ...) */
	CGCTL_PROCEV_FORK,
	CGCTL_PROCEV_EXEC,
	CGCTL_PROCEV_EXIT,
};
struct cgctl_procev {
	enum cgctl_procev_what what;
	pid_t pid, tgid;		/* fork: the child; exec/exit: the task */
	pid_t parent_pid, parent_tgid;	/* fork: the (real) parent; exit: its parent (>= 4.18) */
	uint32_t exit_code, exit_signal;	/* exit only */
	uint64_t timestamp_ns;		/* CLOCK_MONOTONIC of the event */
};
struct cgctl_procev_sock;
/* cgctl_procev_open: bind a proc connector socket and send PROC_CN_MCAST_LISTEN (on
 * 6.6+ with a filter: fork and exit events only).  Needs the initial user and PID
 * namespaces, and before 6.6 CAP_NET_ADMIN.  Returns: 0, -EPERM, -EPROTONOSUPPORT
 * (kernel without CONFIG_CONNECTOR), -errno; @e says which. */
int cgctl_procev_open(struct cgctl_ctx *ctx, struct cgctl_procev_sock **ret,
		      struct cgctl_error *e);
/* Returns: the socket fd for poll(2). */
int cgctl_procev_fd(const struct cgctl_procev_sock *s);
/* cgctl_procev_read: decode up to @max queued events into @ev, waiting at most
 * @timeout_ms (0: do not wait, -1: forever) for the first.  Returns: the count (0 when
 * nothing came), -ENOBUFS when the socket overran and events were lost (the socket stays
 * usable; events after the loss are returned by the next call), -errno. */
ssize_t cgctl_procev_read(struct cgctl_procev_sock *s, struct cgctl_procev *ev, size_t max,
			  int timeout_ms);
/* Send PROC_CN_MCAST_IGNORE and close.  NULL is fine. */
void cgctl_procev_close(struct cgctl_procev_sock *s);
/* cgroupstats: task states of one v1 cgroup (CGROUPSTATS_CMD_GET). */
struct cgctl_cgroupstats {
	uint64_t nr_sleeping, nr_running, nr_stopped, nr_uninterruptible, nr_io_wait;
};
/* cgctl_cgroupstats_get: @m must be a v1 hierarchy (the kernel refuses cgroup2 dirs).
 * Returns: 0, -EINVAL (v2 or not a cgroup dir), -ENOENT, -errno. */
int cgctl_cgroupstats_get(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			  const char *path, struct cgctl_cgroupstats *ret,
			  struct cgctl_error *e);

/* ---- the movers' internals (lib/kernel/proctree.c, lib/kernel/movebatch.c); `cgctl
 * move` goes through struct cgctl_move ---- */
/* One destination: cgroup @path of hierarchy @m. */
struct cgctl_move_target {
	const struct cgctl_mount *m;
	const char *path;
};
/* One process of cgctl_move_pids_v(): @pid in, the rest filled (see cgctl_move_pid_get). */
struct cgctl_move_pid {
	pid_t pid;		/* in: the process (a TID names its thread group) */
	int err;
	int kind;		/* CGCTL_TASK_* (MOVABLE unless err says otherwise) */
	uint32_t held;		/* bit j: targets[j] holds it at the end (dry run: would) */
	bool repaired;		/* the check found it outside a target and moved it again */
	char *from;		/* CGCTL_MOVE_PIDS_FROM: its cgroup in targets[0]'s hierarchy
				 * before the move (NULL: unknown); cgctl_move_pids_free() */
};
/* cgctl_move_pids() on an array of targets and of PIDs.  Returns: as cgctl_move_pids(). */
ssize_t cgctl_move_pids_v(struct cgctl_ctx *ctx, const struct cgctl_move_target *targets,
			  size_t n_targets, struct cgctl_move_pid *v, size_t n,
			  unsigned int flags, struct cgctl_error *e);
/* Free the from strings of @v[0..@n) (the array is the caller's).  Returns: nothing. */
void cgctl_move_pids_free(struct cgctl_move_pid *v, size_t n);
/* cgctl_move_tree() on an array of targets.  Returns: as cgctl_move_tree(). */
ssize_t cgctl_move_tree_v(struct cgctl_ctx *ctx, const pid_t *roots, size_t n_roots,
			  const struct cgctl_move_target *targets, size_t n_targets,
			  const struct cgctl_move_tree_opts *opts,
			  struct cgctl_move_tree_result *res, struct cgctl_error *e);

/* ===== kernel: cgroup statistics readers ===== */
/* The states of the tasks of @path in @m (the cgroup snapshot's tasks.*): from
 * cgroupstats (v1 on a live system before 6.1, which miscounts freezable sleepers
 * since), else from /proc/TID/stat of each thread in its tasks / cgroup.threads
 * (nr_io_wait 0).  Returns: CGCTL_STATES_CGROUPSTATS or CGCTL_STATES_PROC, -ENOENT,
 * -EINVAL, -errno. */
int cgctl_task_states(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		      struct cgctl_cgroupstats *cs);
/* Returns: as cgctl_cpubw_read(): 0, -ENOENT, -EOPNOTSUPP (no cpu.stat; the root
 * reads 0), -errno. */
int cgctl_cpubw_read_flags(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			   const char *path, const struct cgctl_mount *acct,
			   const char *acct_path, unsigned int flags, struct cgctl_cpubw *bw);

/* ===== engine: memcg ===== */
/* ---- the move plan's types (issue 28: internal; `cgctl move` reads a plan through
 * struct cgctl_move_expect's getters) ---- */
/* One counter as the model holds it (pages). */
struct cgctl_memcg_counter {
	uint64_t usage, max, watermark, failcnt;
};
/* Resident pages of a task by class (base pages; 512 per PMD-mapped THP). */
struct cgctl_move_counts {
	uint64_t anon_excl;		/* anon, mapcount 1 */
	uint64_t anon_shared2;		/* anon, mapcount 2 */
	uint64_t anon_shared_more;	/* anon, mapcount > 2 */
	uint64_t file;			/* mapped regular-file page cache */
	uint64_t shmem;			/* shmem / tmpfs */
	uint64_t thp;			/* anon in whole PMD-mapped THPs (not in anon_*) */
	uint64_t swap;			/* anon swap entries */
	uint64_t thp_pte;		/* anon in PTE-mapped large folios (not in anon_*):
					 * precharged with bit 0, never moved */
	uint64_t file_large;		/* file/shmem pages in large folios (not in file,
					 * shmem): precharged with bit 1, never moved */
	uint64_t shmem_swap;		/* swapped-out pages of mapped shmem: their swap
					 * charge moves with bit 1 before 5.10 only */
	uint64_t thp_pte_counted;	/* of thp_pte: what the precharge counts before
					 * 6.6, the head page of each folio (a tail page's
					 * refcount is 0: get_page_unless_zero() fails) */
	uint64_t file_large_counted;	/* of file_large: likewise, heads of mapped folios
					 * and every unmapped page-cache page (whose folio
					 * mc_handle_file_pte() takes whole) */
};
/* Planner input: what the moving task holds, split by whom it is charged to. */
struct cgctl_move_input {
	struct cgctl_move_counts from;		/* charged to the task's memcg (`from`) */
	struct cgctl_move_counts elsewhere;	/* charged to other memcgs: never moved */
	bool not_mm_owner;	/* the task is not mm->owner (a thread, CLONE_VM child) */
};
#define CGCTL_MOVE_MAX_LEVELS 32
/* Counters of one memcg on the paths from/to -> common ancestor, before and after. */
struct cgctl_move_level {
	int id;
	bool common;		/* the common ancestor */
	struct cgctl_memcg_counter before, after;	/* memory */
	struct cgctl_memcg_counter memsw_before, memsw_after;
};
struct cgctl_move_plan {
	bool moves;		/* the kernel moves charges for this attach */
	const char *reason;	/* when !moves: why (static string) */
	unsigned int flags;	/* move_charge_at_immigrate sampled on `to` */
	struct cgctl_move_counts qualify;	/* pages (entries) that qualify, per class */
	uint64_t precharge;	/* pages the kernel tries to precharge */
	bool bulk_failed;	/* the bulk precharge failed: fell back to one by one */
	int err;		/* 0, or -ENOMEM: the attach (cgroup.procs write) fails */
	uint64_t moved;		/* M: pages whose charge moves */
	uint64_t moved_swap;	/* W: swap entries whose charge moves */
	uint64_t stays;		/* pages charged to `from` that stay there */
	uint64_t stays_swap;
	uint64_t elsewhere;	/* pages charged to other memcgs (untouched) */
	int common;		/* common ancestor id */
	unsigned int nlevels;
	struct cgctl_move_level levels[CGCTL_MOVE_MAX_LEVELS];
};
/* A memcg model of the cgroups a move touches, seeded from the kernel's counters:
 * node i of `tree` is the cgroup `paths[i]`; ancestors are added with their children. */
struct cgctl_mem_model {
	struct cgctl_memcg_tree *tree;
	const struct cgctl_mount *m;
	uint32_t kver;			/* the observed kernel (0: unknown, modelled as 6.18) */
	unsigned int ncpu;
	size_t n;
	char **paths;
	struct cgctl_move_expect **expects;	/* cgctl_move_expect_tasks()'s, owned */
	size_t n_expects;
};
/* What moving a task (or a process tree) is expected to do. */
struct cgctl_move_expect {
	bool have;			/* a plan was made */
	const char *why_none;		/* when !have: the reason (static) */
	struct cgctl_move_plan plan;
	uint64_t resident_pages;	/* resident pages of the tasks (zero page excluded) */
	uint64_t headroom_pages;	/* room below the limits of `to` and its ancestors */
	bool headroom_known;		/* some limit bounds the room */
	bool oom_risk;			/* the charges stay, but the resident pages exceed
					 * the headroom: re-faults in `to` reclaim or OOM */
	/* the change of the memory usage the kernel reports for `from` and `to`, pages:
	 * -moved and +moved, but 0 for the one that is an ancestor of the other (the
	 * charge stays in its subtree) and for the root (v1 reports its whole tree) */
	int64_t from_delta_pages, to_delta_pages;
};
/* cgctl_mem_model_init: cgctl_mem_model_new() into @mm (zeroed first).  Returns: as
 * cgctl_mem_model_new().  Undo with cgctl_mem_model_fini(). */
int cgctl_mem_model_init(struct cgctl_ctx *ctx, const struct cgctl_mount *m, uint32_t kver,
			 unsigned int ncpu, struct cgctl_mem_model *mm);
/* Free what cgctl_mem_model_init() allocated (a zeroed model is fine). */
void cgctl_mem_model_fini(struct cgctl_mem_model *mm);
/* cgctl_move_expect_tasks() into a caller's @e (zeroed first).  Returns: 0 (see
 * e->have), -ESRCH, -EINVAL. */
int cgctl_move_expect_tasks_into(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm,
				 const pid_t *pids, size_t n, const char *from, const char *to,
				 struct cgctl_move_expect *e, struct cgctl_error *err);
/* ---- end of the move plan's types ---- */
/* The move plan's pure half (lib/predict/moveinput.c, also in lib/libcgctl-memcg.la):
 * validate's move driver plans through it. */
/*
 * cgctl_move_input_from_inventory: the planner's input for a task whose memcg has inode
 * @from_ino (0: the inventory's task_ino): groups charged to it -> in->from, to other
 * memcgs -> in->elsewhere, uncharged pages (ino 0) nowhere; swap entries go to from.
 * When the owners are unknown (CGCTL_INV_UNKNOWN_OWNER) every page is taken as charged
 * to from.  Returns: 1 when each page's owner was known, 0 when assumed, -EINVAL.
 */
int cgctl_move_input_from_inventory(const struct cgctl_inventory *inv, uint64_t from_ino,
				    struct cgctl_move_input *in);
/*
 * cgctl_move_expect_input: plan moving a task holding @in from model id @from to @to of
 * @t (applied to @t: clone it first for a dry run) with cgctl_move_plan(), plus the
 * destination's headroom and the OOM risk (@resident_pages, the task's resident pages,
 * against the headroom).  Returns: 0 (see e->have), -EINVAL.
 */
int cgctl_move_expect_input(struct cgctl_memcg_tree *t, int from, int to,
			    const struct cgctl_move_input *in, uint64_t resident_pages,
			    struct cgctl_move_expect *e);
/* The model tree's own calls: validate and bench drive the tree directly; cgctl's
 * commands use it through cgctl_mem_model and the move expectation (issue 28).  Built
 * also into lib/libcgctl-memcg.la, which cgctl links for them. */
#define CGCTL_MEMCG_V2		(1u << 0)	/* cgroup v2 files and rules */
#define CGCTL_MEMCG_SWAP_ACCOUNT (1u << 1)	/* v1 memsw accounting enabled */
/* A tree with only the root (id CGCTL_MEMCG_ROOT).  @seed feeds the stock eviction PRNG.
 * Returns: 0, -EINVAL (kver, ncpu 0 or > 4096), -ENOMEM. */
int cgctl_memcg_tree_new(struct cgctl_memcg_tree **ret, uint32_t kver, unsigned int ncpu,
			 unsigned int flags, uint64_t seed);
void cgctl_memcg_tree_free(struct cgctl_memcg_tree *t);
/* mkdir: a child of @parent; use_hierarchy is inherited.  Returns: the new id, -EINVAL
 * (bad parent), -ENOMEM. */
int cgctl_memcg_create(struct cgctl_memcg_tree *t, int parent);
/* memory.move_charge_at_immigrate write, validated per era.  Returns: 0, -EINVAL,
 * -ENOENT (no such file: before 2.6.34 or v2). */
int cgctl_memcg_set_move_charge(struct cgctl_memcg_tree *t, int id, unsigned int val);

/* Options of one charge (how the caller's world answers reclaim and OOM). */
struct cgctl_memcg_charge_opts {
	uint64_t reclaim_per_round;	/* pages one reclaim round frees (0: nothing) */
	uint64_t oom_frees;		/* pages an OOM kill frees (0: OOM kills nothing) */
	unsigned int gfp;		/* CGCTL_MEMCG_GFP_* */
};
#define CGCTL_MEMCG_GFP_NOWAIT	(1u << 0)	/* no direct reclaim (atomic) */
#define CGCTL_MEMCG_GFP_NORETRY	(1u << 1)	/* __GFP_NORETRY */
#define CGCTL_MEMCG_GFP_NOFAIL	(1u << 2)	/* force the charge instead of failing */
#define CGCTL_MEMCG_GFP_NOOOM	(1u << 3)	/* no OOM killer (__GFP_RETRY_MAYFAIL) */

/* What one charge (cgctl_memcg_charge) or limit write (cgctl_memcg_set_limit) did.  A
 * limit write fills drained, reclaim_rounds, reclaimed and ooms (v2 memory.max: OOM
 * rounds); over is -1 and the rest 0. */
struct cgctl_memcg_charge_result {
	int over;		/* memcg whose limit failed last, -1 if none */
	unsigned int failures;	/* failed counter attempts (each failcnt++ candidate) */
	unsigned int reclaim_rounds;
	uint64_t reclaimed;	/* pages freed by reclaim and OOM */
	unsigned int ooms;	/* mem_cgroup_oom() invocations */
	bool from_stock;	/* satisfied by consume_stock */
	bool drained;		/* drain_all_stock() ran */
	bool forced;		/* charged above the limit (NOFAIL) */
	uint64_t counter_pages;	/* pages added to the counters by the successful attempt */
};

/*
 * cgctl_memcg_charge: charge @n pages to @id from @cpu: consume_stock, else a batch
 * charge (refilling the stock with the surplus), else @n pages, else reclaim rounds,
 * drain_all_stock, retries, OOM.  The root is never charged (its statistic grows).
 * @opts and @res may be NULL.  Returns: 0, -ENOMEM, -EINVAL (bad id/cpu/n).
 */
int cgctl_memcg_charge(struct cgctl_memcg_tree *t, int id, unsigned int cpu, uint64_t n,
		       const struct cgctl_memcg_charge_opts *opts,
		       struct cgctl_memcg_charge_result *res);
#define CGCTL_MEMCG_UNCHARGE_STOCK (1u << 0)	/* kmem/objcg path: refill_stock (4.15+) */
/* Free @n pages charged to @id (user pages: straight to the counters; with
 * CGCTL_MEMCG_UNCHARGE_STOCK through refill_stock on @cpu).  Returns: 0, -EINVAL. */
int cgctl_memcg_uncharge(struct cgctl_memcg_tree *t, int id, unsigned int cpu, uint64_t n,
			 unsigned int flags);
/* v1 swap-out of @n pages of @id: memory uncharged, memsw kept.  Returns: 0, -EINVAL. */
int cgctl_memcg_swapout(struct cgctl_memcg_tree *t, int id, uint64_t n);
/* drain_all_stock(@id): every CPU's slots holding @id or a descendant.
 * Returns: pages returned to the counters, or -EINVAL. */
int64_t cgctl_memcg_drain_all(struct cgctl_memcg_tree *t, int id);

enum cgctl_memcg_ctr { CGCTL_MEMCG_MEMORY, CGCTL_MEMCG_MEMSW };
/*
 * cgctl_memcg_set_limit: write memory.limit_in_bytes / memory.memsw.limit_in_bytes (v1)
 * or memory.max (v2, CGCTL_MEMCG_MEMORY only) as @pages.  Below usage: drain the stock,
 * reclaim (@opts->reclaim_per_round per round) until it fits, else -EBUSY (v1); v2 keeps
 * the new max and OOM-kills (@opts->oom_frees).  Returns: 0, -EINVAL (root; memory >
 * memsw on v1; memsw on v2), -EBUSY.
 */
int cgctl_memcg_set_limit(struct cgctl_memcg_tree *t, int id, enum cgctl_memcg_ctr which,
			  uint64_t pages, const struct cgctl_memcg_charge_opts *opts,
			  struct cgctl_memcg_charge_result *res);

struct cgctl_memcg_state {
	struct cgctl_memcg_counter memory, memsw;
	uint64_t charged;	/* true pages charged to this memcg itself */
	uint64_t swap;		/* swap entries charged to it (memsw only) */
	uint64_t stock;		/* its pages in all CPUs' stocks */
	uint64_t events_max, events_oom;	/* local */
	unsigned int move_charge;
	bool use_hierarchy;
};
/* Returns: 0, -EINVAL. */
int cgctl_memcg_get(const struct cgctl_memcg_tree *t, int id, struct cgctl_memcg_state *s);

/*
 * cgctl_move_plan: simulate moving a task holding @in from @from to @to on @cpu and apply
 * it to @t (clone first for a dry run): qualification per era and flags, precharge
 * through the normal stock logic (bulk, then one by one with @opts's reclaim, NORETRY),
 * page moves, clear_mc.  Without move charge (6.13+, v2, flags 0) nothing moves; new
 * allocations then charge @to.  Returns: 0 (see plan->err for the kernel's verdict),
 * -EINVAL (bad ids, from == to, tree deeper than CGCTL_MOVE_MAX_LEVELS).
 */
int cgctl_move_plan(struct cgctl_memcg_tree *t, int from, int to, unsigned int cpu,
		    const struct cgctl_move_input *in, const struct cgctl_memcg_charge_opts *opts,
		    struct cgctl_move_plan *plan);

/* Pages a written limit of @bytes becomes (era A rounds up, page_counter rounds down);
 * CGCTL_SIZE_MAX stays CGCTL_MEMCG_UNLIMITED.  Returns: the pages. */
uint64_t cgctl_memcg_limit_pages(uint32_t kver, uint64_t bytes);
/* Deep copy (counters, stocks, PRNG state).  Returns: 0, -ENOMEM. */
int cgctl_memcg_tree_clone(const struct cgctl_memcg_tree *t, struct cgctl_memcg_tree **ret);
/* Returns: the era of the tree. */
const struct cgctl_memcg_era *cgctl_memcg_tree_era(const struct cgctl_memcg_tree *t);
/* Returns: the parent's id, -1 for the root, -EINVAL for a bad id. */
int cgctl_memcg_parent(const struct cgctl_memcg_tree *t, int id);
/* Returns: the number of memcgs in the subtree of @id (itself included), or -EINVAL. */
int cgctl_memcg_subtree_size(const struct cgctl_memcg_tree *t, int id);
/* memory.use_hierarchy write.  Returns: 0, -EINVAL (0 on 5.11+, bad id, v2), -EBUSY
 * (the memcg has children, or its parent is hierarchical: pre-5.11 rules). */
int cgctl_memcg_set_use_hierarchy(struct cgctl_memcg_tree *t, int id, bool on);
/* Returns: pages in @cpu's stock slots for @id (not descendants), or -EINVAL. */
int64_t cgctl_memcg_stock_pages(const struct cgctl_memcg_tree *t, int id, unsigned int cpu);
/* Replace the counters of @id with observed values (e.g. read from a kernel) so that a
 * plan starts from them; charged/swap are set from usage (charged = memory usage minus
 * the children's, swap = memsw - memory).  Returns: 0, -EINVAL. */
int cgctl_memcg_seed(struct cgctl_memcg_tree *t, int id, const struct cgctl_memcg_state *s);
/*
 * cgctl_memcg_file: the content of control file @name of @id exactly as the kernel of
 * the tree's era prints it, newline included ("memory.usage_in_bytes",
 * "memory.max_usage_in_bytes", "memory.failcnt", "memory.limit_in_bytes",
 * "memory.memsw.*" of those, "memory.soft_limit_in_bytes", "memory.use_hierarchy",
 * "memory.move_charge_at_immigrate"; v2: "memory.current", "memory.max", "memory.peak",
 * "memory.events").  Root usage is the statistic, not the counter.
 * Returns: the length (as snprintf), -ENOENT (no such file in this era/version), -EINVAL.
 */
int cgctl_memcg_file(const struct cgctl_memcg_tree *t, int id, const char *name, char *buf,
		     size_t len);
/* The interval of truly charged pages of @id implied by its reported usage and the era's
 * stock bound for its subtree.  Returns: 0, -EINVAL. */
int cgctl_memcg_true_interval(const struct cgctl_memcg_tree *t, int id, uint64_t *lo,
			      uint64_t *hi);

/* ===== engine: memory.high ===== */
#include "engine/libcgctl-memhigh.h"

/* ===== engine: CFS bandwidth ===== */
/*
 * The simulator itself: the one door into it from outside the library is
 * cgctl_bw_replay() (issue 28); its layers, validate, the benches and the unit tests
 * build simulations here.
 */
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

/* A thread of the workload.  busy_ns 0 and no trace: always busy.  Also the entries of
 * cgctl_bw_replay_spec.list (their group ignored). */
struct cgctl_bw_thread {
	int group;		/* from cgctl_bw_sim_add_group */
	uint64_t start_ns;	/* becomes runnable at this time */
	uint64_t busy_ns;	/* CPU time per busy phase (however long throttling stretches it) */
	uint64_t idle_ns;	/* sleep after each busy phase */
	uint32_t jitter_ppm;	/* each phase is scaled by 1 ± U(0, jitter) */
	const struct cgctl_bw_trace *trace;	/* if set: busy/idle from trace thread ... */
	unsigned int trace_thread;		/* ... this one; the thread exits at its end */
	uint64_t account_ns;	/* how often its run time is charged while it runs: 0, at
				 * the tick; a thread that reads its own CPU clock
				 * (CLOCK_THREAD_CPUTIME_ID: task_sched_runtime() calls
				 * update_curr()) at each read, this far apart */
};

struct cgctl_bw_sim;

/* Returns: 0 and a new simulator in *ret, -EINVAL (bad config), -ENOMEM (*ret NULL). */
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
/* Run once.  Returns: the number of events simulated (>= 0), -EINVAL, -ENOMEM, -EALREADY. */
int64_t cgctl_bw_sim_run(struct cgctl_bw_sim *sim);
/* Statistics of @group at the end of the workload (@settled false: what cpu.stat reads
 * at duration_ns) or at the end of the settle time.  Returns: 0, -EINVAL. */
int cgctl_bw_sim_stat(const struct cgctl_bw_sim *sim, int group, bool settled,
		      struct cgctl_bw_stat *ret);

/*
 * cgctl_bw_sim_set_silos: the group's prior state.  Without it a group starts as a
 * configuration write leaves it (every silo 1 ns on 6.18+, 0 before); a group that ran
 * before keeps up to min_cfs_rq_runtime (1 ms) in the silo of each CPU its tasks left
 * (return_cfs_rq_runtime()), across any idle time.  @silo_ns[ncpus]: 0..1 ms each.
 * Returns: 0, -EINVAL (unknown group, @n not ncpus, a value out of range), -ENOMEM.
 */
int cgctl_bw_sim_set_silos(struct cgctl_bw_sim *sim, int group, const int64_t *silo_ns,
			   unsigned int n);
/*
 * cgctl_bw_sim_silos: the silos @group leaves at the end of the run (settled), as the
 * prior state of a next run: a debt counts as paid (1 ns, what distribution leaves).
 * Returns: 0, -EINVAL (not run, unknown group, @n not ncpus).
 */
int cgctl_bw_sim_silos(const struct cgctl_bw_sim *sim, int group, int64_t *silo_ns,
		       unsigned int n);
/*
 * cgctl_bw_sim_place: the placement the kernel chose, observed: from @at_ns on, thread
 * @thread (0-based, in the order added) runs on @cpu; a busy thread elsewhere migrates
 * there then, as the load balancer moves a task, and wakes there until told otherwise.
 * Threads never told are placed by the model's own rule.  The kernel's wake-up stacking
 * (select_idle_sibling() finds no idle CPU) and the balancer's choice between layouts of
 * equal load are not predicted: a caller that measured them tells them here.
 * Returns: 0, -EINVAL (already run, unknown thread, @cpu not below ncpus), -ENOMEM.
 */
int cgctl_bw_sim_place(struct cgctl_bw_sim *sim, int thread, uint64_t at_ns, int cpu);
/* Schedule a configuration write of @bw to @group at @at_ns (refill, silo reset,
 * unthrottle, as tg_set_cfs_bandwidth does).  Returns: 0, -EINVAL, -ENOMEM. */
int cgctl_bw_sim_write(struct cgctl_bw_sim *sim, int group, uint64_t at_ns,
		       const struct cgctl_bw_settings *bw);
/* Per-period detail of @group (record_periods).  Returns: the count, *ret valid until
 * cgctl_bw_sim_free; -EINVAL. */
ssize_t cgctl_bw_sim_periods(const struct cgctl_bw_sim *sim, int group,
			     const struct cgctl_bw_period **ret);
/* The effective (period, quota, burst) of @group after the run (the overload guard
 * may have doubled them).  Returns: 0, -EINVAL. */
int cgctl_bw_sim_settings(const struct cgctl_bw_sim *sim, int group,
			  struct cgctl_bw_settings *ret);

/* ===== engine: per-cpu counters and page lists ===== */
/* The RSS, pcp and zoneinfo models and readers are test-only (issue 28): they are in
 * lib/libcgctl-models.la, linked into cgctl for validate and bench and into the tests,
 * not in libcgctl.so. */


/* ---- process RSS counters (mm->rss_stat) per era ---- */

/* How a /proc file obtains an mm RSS counter in a given kernel. */
enum cgctl_rss_source {
	CGCTL_RSS_ATOMIC = 1,	/* <= 2.6.33: one atomic per mm, exact */
	CGCTL_RSS_TASK_CACHE,	/* 2.6.34-6.1: atomic + per-thread deltas flushed every
				 * TASK_RSS_EVENTS_THRESH faults; reader sees the atomic */
	CGCTL_RSS_PCPU_READ,	/* 6.2+: percpu_counter, read_positive (approximate) */
	CGCTL_RSS_PCPU_SUM,	/* 6.16+ (6.12.y backport): percpu_counter sum (exact) */
};
/* The /proc file the figure is read from. */
enum cgctl_rss_file {
	CGCTL_RSS_FILE_STATUS = 1,	/* /proc/PID/status VmRSS, RssAnon, RssFile, RssShmem */
	CGCTL_RSS_FILE_STATM,		/* /proc/PID/statm resident */
	CGCTL_RSS_FILE_STAT,		/* /proc/PID/stat field 24 (rss) */
};
/* Predicted gap between a /proc RSS figure and the exact (page-table walk) figure of
 * smaps_rollup, in pages. */
struct cgctl_rss_bound {
	enum cgctl_rss_source source;
	uint64_t counter_pages;	/* bound per counter (RssAnon, RssFile, RssShmem) */
	uint64_t anon_pages;	/* bound on RssAnon (anon faults add one page each) */
	uint64_t vmrss_pages;	/* bound on VmRSS = anon + file + shmem */
	uint64_t read_cells;	/* counter cells one read of the file touches */
	int32_t batch;		/* percpu_counter batch (PCPU_*), 0 otherwise */
};
/* Bound for a process with @nthreads threads on @ncpu online CPUs.
 * Returns: 0, -EINVAL (ncpu/nthreads 0, bad file). */
int cgctl_rss_bound(uint32_t kver, unsigned int ncpu, unsigned int nthreads,
		    enum cgctl_rss_file file, struct cgctl_rss_bound *ret);
/* Read-side cost of reading @file for @nproc processes: counter cells summed
 * (an atomic is 1 cell, a percpu sum is 1 + ncpu).  Returns: the count, or 0 on bad args. */
uint64_t cgctl_rss_read_cost(uint32_t kver, unsigned int ncpu, enum cgctl_rss_file file,
			     uint64_t nproc);

/* Observed RSS figures of one process (kernel layer).  Sizes in kB as printed;
 * a field the kernel does not print stays at UINT64_MAX. */
struct cgctl_procrss {
	uint64_t vmrss_kb, rssanon_kb, rssfile_kb, rssshmem_kb, vmswap_kb; /* status */
	unsigned int threads;					   /* status */
	uint64_t smaps_rss_kb, smaps_anon_kb;			   /* smaps_rollup */
	uint64_t statm_resident_pages;				   /* statm */
	uint64_t stat_rss_pages;				   /* stat field 24 */
};
/* Read status, smaps_rollup (skipped if missing: kernel < 4.14), statm and stat of
 * @pid (0 = self), status last so a caller can bracket it.
 * Returns: 0, -ESRCH, -errno. */
int cgctl_procrss_read(struct cgctl_ctx *ctx, pid_t pid, struct cgctl_procrss *ret);

/* ---- page allocator per-cpu page lists ---- */

/* What the pcp model needs about one zone (pages). */
struct cgctl_pcp_zone {
	uint64_t present_pages;
	uint64_t managed_pages;
	uint64_t low_wmark;		/* "low" in /proc/zoneinfo */
	unsigned int node_ncpu;		/* online CPUs of the zone's node; 0: memoryless */
	unsigned int high_fraction;	/* vm.percpu_pagelist_high_fraction (5.14+) or
					 * vm.percpu_pagelist_fraction (older); 0 = default */
	unsigned int page_shift;	/* 0 means 12 */
};
/* Predicted pageset values of every CPU of the zone. */
struct cgctl_pcp_pred {
	int batch;		/* exact */
	int high_min;		/* current high is auto-tuned in [high_min, high_max] (6.7+); */
	int high_max;		/* both equal the fixed high in older kernels */
	bool autotune;		/* 6.7+ without a high_fraction */
	int nr_lists;		/* NR_PCP_LISTS */
};
/* zone_batchsize()/zone_highsize()/zone_set_pageset_high_and_batch() of @kver with
 * @ncpu online CPUs.  Returns: 0, -EINVAL (ncpu 0, kver 0). */
int cgctl_pcp_predict(uint32_t kver, unsigned int ncpu, const struct cgctl_pcp_zone *z,
		      struct cgctl_pcp_pred *ret);
/* /proc/zoneinfo, parsed.  A value a kernel does not print is -1. */
struct cgctl_zone_pageset {
	int cpu;
	int64_t count, high, batch, high_min, high_max;
};
struct cgctl_zone {
	int node;
	char name[16];				/* "DMA32" */
	int64_t free, min, low, high;		/* pages */
	int64_t spanned, present, managed;	/* pages */
	size_t npagesets;
	struct cgctl_zone_pageset *pagesets;
};
struct cgctl_zoneinfo {
	size_t nzones;
	struct cgctl_zone *zones;
};
/* Read and parse /proc/zoneinfo below the ctx root.  Returns: 0, -errno. */
int cgctl_zoneinfo_read(struct cgctl_ctx *ctx, struct cgctl_zoneinfo **ret);
void cgctl_zoneinfo_free(struct cgctl_zoneinfo *zi);
/* Fill the model's input from a parsed zone; @node_ncpu and @high_fraction as read by
 * the caller.  Returns: 0, -EINVAL. */
int cgctl_zone_to_pcp(const struct cgctl_zone *z, unsigned int node_ncpu,
		      unsigned int high_fraction, struct cgctl_pcp_zone *ret);
/* vm.percpu_pagelist_high_fraction (5.14+) or vm.percpu_pagelist_fraction (older);
 * 0 when neither exists.  Returns: the value (>= 0), or -errno. */
int cgctl_pcp_fraction_read(struct cgctl_ctx *ctx);

/* Verdict bits of cgctl_pcp_check(). */
#define CGCTL_PCP_BATCH_OK	(1 << 0)	/* batch equals the prediction */
#define CGCTL_PCP_HIGH_OK	(1 << 1)	/* high in [high_min, high_max] (high_max
						 * when high_min > high_max); or 0 on a
						 * never-used auto-tuned pageset (count 0) */
#define CGCTL_PCP_LIMITS_OK	(1 << 2)	/* printed high_min/high_max (6.7+) equal
						 * the prediction, or are not printed */
#define CGCTL_PCP_ALL_OK	(CGCTL_PCP_BATCH_OK | CGCTL_PCP_HIGH_OK | CGCTL_PCP_LIMITS_OK)
/* Compare one observed pageset with a prediction.  Returns: the OK bits that hold. */
int cgctl_pcp_check(const struct cgctl_pcp_pred *p, const struct cgctl_zone_pageset *ps);

/* ---- internal helpers ---- */
/* Returns: the source @file uses in @kver, or -EINVAL (bad file, kver 0). */
int cgctl_rss_source(uint32_t kver, enum cgctl_rss_file file);
/* Returns: the 6.12.y release carrying the 6.16 exact-status backport (CGCTL_KVER). */
uint32_t cgctl_rss_backport_kver(void);
/* One thread's SPLIT_RSS_COUNTING cache (2.6.34-6.1): task->rss_stat for one counter. */
struct cgctl_rss_thread {
	int64_t cached;		/* task->rss_stat.count[member] */
	unsigned int events;	/* task->rss_stat.events */
};
/* A page fault by @t that maps @pages pages into its own mm, in @kver: the sync check
 * at fault entry (check_sync_rss_stat()), then the counter update (per-thread cache in
 * 2.6.34-6.1, straight into *@mm_counter otherwise).  Returns: 1 when the cache was
 * flushed into *@mm_counter, 0 otherwise, -EINVAL. */
int cgctl_rss_fault(uint32_t kver, struct cgctl_rss_thread *t, int64_t *mm_counter,
		    int64_t pages);
/* Parsers of the file text (pure; unknown lines ignored).  Returns: 0, -EINVAL. */
int cgctl_procrss_parse_status(const char *buf, struct cgctl_procrss *r);
int cgctl_procrss_parse_smaps_rollup(const char *buf, struct cgctl_procrss *r);
int cgctl_procrss_parse_statm(const char *buf, struct cgctl_procrss *r);
int cgctl_procrss_parse_stat(const char *buf, struct cgctl_procrss *r);
/* Parse the text of /proc/zoneinfo.  Returns: 0, -EINVAL (no zone), -ENOMEM. */
int cgctl_zoneinfo_parse(const char *buf, struct cgctl_zoneinfo **ret);

/* ===== predict: memory and moves ===== */
/* Counters of one memory cgroup, v1 or v2 names, in bytes (failcnt: a count).  A value
 * the kernel prints as unlimited ("max", PAGE_COUNTER_MAX, "-1") and a file that does
 * not exist both read UINT64_MAX; `present` tells which files existed. */
struct cgctl_mem_counters {
	unsigned int present;		/* CGCTL_MEMC_* of the files that were read */
	bool present_memsw;		/* v1 memory.memsw.* or v2 memory.swap.* exist */
	uint64_t usage;			/* usage_in_bytes / memory.current */
	uint64_t limit;			/* limit_in_bytes / memory.max */
	uint64_t failcnt;		/* v1 failcnt (v2: absent) */
	uint64_t max_usage;		/* max_usage_in_bytes / memory.peak (5.19+) */
	uint64_t soft_limit;		/* v1 soft_limit_in_bytes */
	uint64_t memsw_usage;		/* memsw.usage_in_bytes / memory.swap.current */
	uint64_t memsw_limit;		/* memsw.limit_in_bytes / memory.swap.max */
	uint64_t memsw_failcnt;		/* v1 memsw.failcnt */
	uint64_t memsw_max_usage;	/* memsw.max_usage_in_bytes / memory.swap.peak */
	uint64_t move_charge;		/* v1 move_charge_at_immigrate */
};
#define CGCTL_MEMC_LIMIT	(1u << 0)
#define CGCTL_MEMC_FAILCNT	(1u << 1)
#define CGCTL_MEMC_MAX_USAGE	(1u << 2)
#define CGCTL_MEMC_SOFT_LIMIT	(1u << 3)
#define CGCTL_MEMC_MOVE_CHARGE	(1u << 4)
#define CGCTL_MEMC_USAGE	(1u << 5)
/*
 * cgctl_mem_counters_read: the counters of @path in the memory hierarchy @m, to seed
 * the memcg model (cgctl_mem_model_init(), the move plan); `cgctl` and validate read
 * the same files through cgctl_cgroup_stat_get() and the knob getters.
 * Returns: 0, or -errno when the usage file cannot be read (-ENOENT: no such cgroup);
 * the other files are optional.  The v2 root has none of the counter files: 0, with
 * usage UINT64_MAX and CGCTL_MEMC_USAGE not in `present`.
 */
int cgctl_mem_counters_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			    const char *path, struct cgctl_mem_counters *c);
/*
 * cgctl_mem_model_node: the model id of @path, adding it and its missing ancestors, each
 * seeded from cgctl_mem_counters_read() (usage, limit, peak, failcnt of memory and
 * memsw; v1 use_hierarchy and move_charge_at_immigrate).  A cgroup whose counters cannot
 * be read keeps the model's empty state.  Returns: the id (>= 0), -EINVAL, -ENOMEM.
 */
int cgctl_mem_model_node(struct cgctl_ctx *ctx, struct cgctl_mem_model *mm,
			 const char *path);
/*
 * cgctl_move_counts_add: add inventory group @g to move-charge classes @c, each page in
 * exactly one class: anon pages of PMD-mapped THPs -> thp (whatever their mapcount:
 * mm/memcontrol.c:get_mctgt_type_thp() v6.1 tests no mapcount), the rest of the large-
 * folio pages -> thp_pte (anon first) and file_large (they are precharged but not
 * moved), the others by mapping and mapcount.  Returns: nothing.
 */
void cgctl_move_counts_add(struct cgctl_move_counts *c, const struct cgctl_inv_group *g);
/*
 * cgctl_move_expect_inventory: cgctl_move_input_from_inventory(@inv, @from_ino) then
 * cgctl_move_expect_input().  Returns: 0 (see e->have), -EINVAL.
 */
int cgctl_move_expect_inventory(struct cgctl_memcg_tree *t, int from, int to,
				const struct cgctl_inventory *inv, uint64_t from_ino,
				struct cgctl_move_expect *e);
/*
 * cgctl_memcg_moves_charges: does kernel @kver move charges on a v1 attach at all
 * (the era table's move bits)?  Returns: true or false (false for @kver 0).
 */
bool cgctl_memcg_moves_charges(uint32_t kver);
/* A destination cgroup of many attaches: opened once, its cgroup.procs kept open on the
 * live system (one write(2) per PID); below a root prefix each attach is
 * cgctl_cg_attach(). */
struct cgctl_move_dest;
/* Returns: 0, -ENOENT (no such cgroup), -EINVAL, -ENOMEM, -errno. */
int cgctl_move_dest_open(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			 const char *path, struct cgctl_move_dest **ret);
/* Attach the thread group of @pid (cgroup.procs).  Returns: 0, -ESRCH, -EINVAL (a
 * kernel thread, or a task still being forked after the retries), -ENOMEM (the
 * precharge of move_charge_at_immigrate failed), -EACCES/-EPERM, -errno. */
int cgctl_move_dest_attach(struct cgctl_move_dest *d, pid_t pid);
/* Close @d (NULL is fine). */
void cgctl_move_dest_close(struct cgctl_move_dest *d);

/* ===== predict: settings ===== */
/* Returns: a short name of @f for messages ("CFS burst"), never NULL. */
const char *cgctl_bw_era_what(enum cgctl_bw_feature f);

/* ===== predict: one replay ===== */
/* Where a kernel ran replayed thread @thread from @at_ns on (cgctl_bw_replay_spec's
 * place): only validate, which observed it, gives one. */
struct cgctl_bw_replay_place {
	uint64_t at_ns;
	unsigned int thread, cpu;
};

/* ===== predict: record and recommend ===== */
/* ---- the move throttling's types (lib/predict/move-throttle*.c; `cgctl move` reads
 * them through struct cgctl_move_throttle's getters) ---- */
#define CGCTL_MOVE_THROTTLE_LEVELS 32	/* limited groups above the destination, at most */

struct cgctl_move_throttle_side {
	unsigned int threads;		/* threads that used any CPU while observed */
	double demand_cpus;		/* their CPU time / the observation's length */
	struct cgctl_bw_stat st;	/* predicted cpu.stat over run_ns */
	uint64_t run_ns;		/* simulated wall time */
};

struct cgctl_move_throttle {
	bool limited;			/* a finite quota at the destination or above */
	char path[4096];		/* the destination in the cpu hierarchy */
	struct cgctl_bw_settings bw;	/* the destination's own setting */
	char limit_path[4096];		/* the group whose quota allows the fewest CPUs */
	double limit_cpus;		/* that quota / period */
	unsigned int ncpus, levels;	/* CPUs; limited groups simulated (the destination
					 * counts always) */
	struct cgctl_bw_settings lv[CGCTL_MOVE_THROTTLE_LEVELS];	/* top down */
	int demand;			/* enum cgctl_move_demand */
	char why_not_recorded[256];	/* CGCTL_MOVE_DEMAND_CPUTIME: the recording's error */
	uint64_t sample_ns;		/* observed for this long */
	struct cgctl_move_throttle_side before, after;
};

/* cgctl_move_throttle_limits() into a caller's @mt (zeroed first).  Returns: as it. */
int cgctl_move_throttle_limits_into(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
				    const char *dest, unsigned int ncpus,
				    struct cgctl_move_throttle *mt, struct cgctl_error *e);
/* ---- end of the move throttling's types ---- */
/* One context switch of a recorded thread (from PERF_RECORD_SWITCH). */
enum cgctl_bw_switch_kind {
	CGCTL_BW_SW_IN = 0,	/* the thread starts running */
	CGCTL_BW_SW_PREEMPT,	/* switched out still runnable (..._SWITCH_OUT_PREEMPT) */
	CGCTL_BW_SW_SLEEP,	/* switched out blocked */
	CGCTL_BW_SW_EXIT,	/* the thread exited (PERF_RECORD_EXIT) */
	CGCTL_BW_SW_FORK,	/* the thread was created (PERF_RECORD_FORK): runnable */
};
struct cgctl_bw_switch {
	uint64_t time_ns;	/* CLOCK_MONOTONIC */
	uint32_t tid;
	uint32_t kind;		/* enum cgctl_bw_switch_kind */
};
/* Per-thread demand rebuilt from switch records (run, wait, sleep intervals). */
struct cgctl_bw_demand;
/* Returns: 0 and an empty demand recorded from @start_ns in *ret, -ENOMEM. */
int cgctl_bw_demand_new(struct cgctl_bw_demand **ret, uint64_t start_ns);
void cgctl_bw_demand_free(struct cgctl_bw_demand *d);
/* Add @n switch records, in any order (they are sorted by time when the trace is made).
 * Returns: 0, -EINVAL (unknown kind), -ENOMEM. */
int cgctl_bw_demand_add(struct cgctl_bw_demand *d, const struct cgctl_bw_switch *sw,
			size_t n);
/*
 * cgctl_bw_demand_known: @tid existed for the whole recording and used @oncpu_ns of CPU
 * time in it (/proc/TID/schedstat); a thread with no switch record (one that ran alone
 * on a CPU) is then busy for that long instead of missing.  Returns: 0, -ENOMEM.
 */
int cgctl_bw_demand_known(struct cgctl_bw_demand *d, uint32_t tid, uint64_t oncpu_ns);
/* Metadata written into the trace. */
struct cgctl_bw_demand_meta {
	uint64_t end_ns;	/* CLOCK_MONOTONIC end of the recording */
	unsigned int ncpus;
	uint64_t lost;		/* records the kernel dropped (ring buffer overruns) */
};
/*
 * cgctl_bw_demand_throttled: the recorded group (or a limited ancestor) may have been
 * throttled in [@from_ns, @to_ns) (CLOCK_MONOTONIC).  Once called (also with an empty
 * window: "never throttled"), runnable time outside every such window is written as
 * "ready" (others held the CPU; kept on replay) and inside as "wait" (demand the limit
 * withheld; dropped on replay).  Never called: all runnable time is "wait".
 * Returns: 0, -ENOMEM.
 */
int cgctl_bw_demand_throttled(struct cgctl_bw_demand *d, uint64_t from_ns, uint64_t to_ns);
/*
 * cgctl_bw_demand_trace: the demand as a v2 trace text, one thread per recorded TID in
 * order of first appearance (a "thread N TID" line each), every interval with its START.
 * Returns: 0 and a malloc'd NUL-terminated text in *text (length in *len), -ENOMEM.
 */
int cgctl_bw_demand_trace(struct cgctl_bw_demand *d, const struct cgctl_bw_demand_meta *m,
			  char **text, size_t *len);
/* Returns: 0 and @bw replayed on @t in *ret, -EINVAL (bad setting), -ENOMEM. */
int cgctl_bw_replay_run(const struct cgctl_bw_trace *t, const struct cgctl_bw_recommend_opts *o,
			const struct cgctl_bw_settings *bw, struct cgctl_bw_replay *ret,
			struct cgctl_error *e);
/*
 * cgctl_bw_recommend: the smallest quota (per candidate period and burst; the smallest
 * quota / period wins, then the smaller burst) whose replay of @t keeps throttled periods
 * and per-period throttled time within @o's budget, found by bisection (throttling
 * falls as quota grows), and a VPA-like percentile recommendation replayed alongside;
 * covering a next run and capped at all CPUs as cgctl_bw_recommend_runs() of @t alone.
 * Returns: 0, -EINVAL (bad options, empty trace), -ENOMEM.
 */
int cgctl_bw_recommend(const struct cgctl_bw_trace *t, const struct cgctl_bw_recommend_opts *o,
		       struct cgctl_bw_recommendation *ret, struct cgctl_error *e);

/* What a parsed trace (cgctl_bw_trace_parse) holds, all at once (the library's own
 * callers and the tests; cgctl_bw_trace_get() is the export). */
struct cgctl_bw_trace_info {
	size_t size;		/* sizeof(struct cgctl_bw_trace_info), by the caller */
	unsigned int version;	/* format version: 0 (no version line), 1 or 2 */
	unsigned int threads;
	unsigned int ncpus;	/* CPUs of the recording machine; 0: not stated */
	uint64_t lost;		/* records the kernel lost while recording */
	uint64_t busy_ns;	/* Σ CPU time the threads used (their demand) */
	uint64_t wait_ns;	/* Σ time runnable, held back by the limit (v1: also preempted) */
	uint64_t span_ns;	/* the longest thread's replay length (busy + idle + ready) */
	uint64_t duration_ns;	/* the stated length of the recording, else span_ns */
	uint64_t ready_ns;	/* Σ time runnable while other tasks held the CPU (v2) */
};
/* Returns: 0, -EINVAL (NULL argument, @ret->size too small). */
int cgctl_bw_trace_info(const struct cgctl_bw_trace *t, struct cgctl_bw_trace_info *ret);

/*
 * cgctl_bw_sim_set_weight: @group's cpu.shares (2..262144; v2 cpu.weight w is
 * w * 1024 / 100).  Once any group has a weight, runnable threads share each CPU by CFS
 * weights (hierarchical, calc_group_shares() with PELT load averages; before 6.6
 * place_entity()'s sleeper credit, from 6.12 a woken thread's slice alone up to the
 * tick that ends it) instead of equally, so other load is simulated:
 * add it as threads of unlimited groups of its own (e.g. two spinners at 1024).
 * Returns: 0, -EINVAL (unknown group, out of range, already run).
 */
int cgctl_bw_sim_set_weight(struct cgctl_bw_sim *sim, int group, uint32_t shares);
/* The bandwidth write rules' view of the cpu hierarchy and its write order (issue 28:
 * internal since every cgctl write goes through struct cgctl_plan). */
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

/* A whole cpu hierarchy for the write rules (node 0 the root, parents first). */
struct cgctl_bw_tree {
	struct cgctl_bw_node *nodes;
	size_t n, target;		/* target: the node of the path asked for */
	bool has_target;
};
/*
 * cgctl_bw_tree_read: every cgroup of the cpu hierarchy @m with its setting; a group
 * without cpu.max (v2 controller not enabled) reads as unlimited.  @target names the
 * node to mark (may be NULL).  Free with cgctl_bw_tree_free().
 * Returns: 0, -ENOMEM, -errno.
 */
int cgctl_bw_tree_read(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
		       const char *target, struct cgctl_bw_tree *ret);
void cgctl_bw_tree_free(struct cgctl_bw_tree *t);

/*
 * cgctl_bw_write_plan: the writes that take a group from @old to @want, skipping
 * unchanged values, in an order whose every intermediate state the kernel accepts
 * (burst down first / up last; period first when both grow, quota first when both
 * shrink; via quota -1 when no two-write path exists).  With @nodes (n > 0) every
 * intermediate is checked against the tree (cgctl_bw_check).
 * Returns: the number of writes in @out (0..CGCTL_BW_PLAN_MAX), -EINVAL with @e.
 */
int cgctl_bw_write_plan(const struct cgctl_bw_settings *old,
			const struct cgctl_bw_settings *want, int version,
			const struct cgctl_bw_node *nodes, size_t n, size_t target,
			struct cgctl_bw_write out[CGCTL_BW_PLAN_MAX], struct cgctl_error *e);

/* ===== the cgroup object: the setter ===== */
/* (lib/predict/cgroup-set.c; the object itself is in lib/libcgctl.h, "cgroup object":
 * no cgctl command writes through it yet) */
/*
 * cgctl_cgroup_set: write knob @k (UINT64_MAX: unlimited) as a plan of one item
 * (struct cgctl_plan): under the cgroup lock, checked by the kernel's rules (memory <=
 * memsw on v1), restored if the write fails.  On v2 the CFS period is written with the
 * quota cpu.max holds.  Returns: 0, -ENODATA (no such file here), -EINVAL (unknown @k,
 * a value the file does not take or a rule refuses, @e says which), -errno.
 */
int cgctl_cgroup_set(struct cgctl_cgroup *cg, enum cgctl_knob k, uint64_t value,
		     struct cgctl_error *e);

/* One setter per knob, e.g. cgctl_cgroup_set_mem_limit(cg, bytes, &e). */
#define CGCTL_CGROUP_SET_(name, knob)                                                    \
	static inline int cgctl_cgroup_set_##name(struct cgctl_cgroup *cg, uint64_t v,    \
						  struct cgctl_error *e)                 \
	{                                                                                \
		return cgctl_cgroup_set(cg, knob, v, e);                                 \
	}
CGCTL_CGROUP_SET_(mem_limit, CGCTL_KNOB_MEM_LIMIT)
CGCTL_CGROUP_SET_(mem_memsw, CGCTL_KNOB_MEM_MEMSW)
CGCTL_CGROUP_SET_(mem_soft, CGCTL_KNOB_MEM_SOFT)
CGCTL_CGROUP_SET_(mem_high, CGCTL_KNOB_MEM_HIGH)
CGCTL_CGROUP_SET_(mem_low, CGCTL_KNOB_MEM_LOW)
CGCTL_CGROUP_SET_(mem_min, CGCTL_KNOB_MEM_MIN)
CGCTL_CGROUP_SET_(mem_swap, CGCTL_KNOB_MEM_SWAP)
CGCTL_CGROUP_SET_(mem_swappiness, CGCTL_KNOB_MEM_SWAPPINESS)
CGCTL_CGROUP_SET_(cpu_quota_us, CGCTL_KNOB_CPU_QUOTA)
CGCTL_CGROUP_SET_(cpu_period_us, CGCTL_KNOB_CPU_PERIOD)
CGCTL_CGROUP_SET_(cpu_burst_us, CGCTL_KNOB_CPU_BURST)
CGCTL_CGROUP_SET_(cpu_shares, CGCTL_KNOB_CPU_SHARES)
CGCTL_CGROUP_SET_(cpu_weight, CGCTL_KNOB_CPU_WEIGHT)
CGCTL_CGROUP_SET_(pids_max, CGCTL_KNOB_PIDS_MAX)


#ifdef __cplusplus
}
#endif

/* stat's batch reader before the cgroup object (lib/kernel/kstat-many.c): internal
 * since `cgctl stat` reads struct cgctl_cgroup snapshots (issue 28). */
/* One cgroup of cgctl_stat_read_many(). */
struct cgctl_stat_item {
	const char *mem_path;	/* in: the cgroup in the memory mount; NULL: not read */
	const char *cpu_path;	/* in: the cgroup in the cpu mount; NULL: not read */
	const char *acct_path;	/* in: the cgroup in the cpuacct mount (v1); NULL: cpu_path */
	int mem_r;		/* out: as cgctl_memstat_read_flags(); -ENODEV not read */
	int cpu_r;		/* out: as cgctl_cpubw_read_flags(); -ENODEV not read */
	struct cgctl_memstat mem;
	struct cgctl_cpubw cpu;
};
/*
 * cgctl_stat_read_many: cgctl_memstat_read_flags(@mem, @mem_flags) and
 * cgctl_cpubw_read_flags(@cpu, @acct, @cpu_flags) of each of the @n @items, each result
 * in its item.  @mem or @cpu NULL: that side is not read.  From 128 items, on a caller
 * that may run on two CPUs, the second half is read by a thread this call starts (every
 * signal blocked) and joins before it returns (lib/kernel/kstat-many.c).
 * Returns: 0 (each item has its own result), -EINVAL.
 */
int cgctl_stat_read_many(struct cgctl_ctx *ctx, const struct cgctl_mount *mem,
			 unsigned int mem_flags, const struct cgctl_mount *cpu,
			 const struct cgctl_mount *acct, unsigned int cpu_flags,
			 struct cgctl_stat_item *items, size_t n);

#endif
