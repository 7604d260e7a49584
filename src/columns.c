/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The human columns of stat, tree, move and mem where.  The default sets (D) fit 80
 * columns on the fixtures (tests/cli/table-width.sh); numbers are right-aligned (R);
 * paths and notes give way first on a narrow terminal (T).  A key renamed in a command
 * must be renamed here: tests/cli/table-columns.sh compares each --output-all header.
 */
#include "columns.h"

#define D OUT_COL_DEFAULT
#define R OUT_COL_RIGHT
#define T OUT_COL_TRUNC
#define P OUT_COL_PRESENT	/* systemd hosts only (cgctl(1), SYSTEMD) */
#define TABLE(list, cols) { list, cols, sizeof(cols) / sizeof(cols[0]) }

static const struct out_col stat_cgroups[] = {
	{ "PATH", "path", D, "the cgroup, as given" },
	{ "UNIT", "unit", D | P, "the systemd unit that owns it (systemd hosts)" },
	{ "USAGE", "memory.usage_bytes", D | R, "memory charged to the cgroup" },
	{ "LIMIT", "memory.limit_bytes", D | R, "its memory limit" },
	{ "FAILCNT", "memory.failcnt", R, "times usage hit the limit (v1)" },
	{ "MAX-USAGE", "memory.max_usage_bytes", R, "peak of the memory usage" },
	{ "MEMSW", "memory.memsw_usage_bytes", R, "memory + swap usage (v1)" },
	{ "MEMSW-LIMIT", "memory.memsw_limit_bytes", R, "memory + swap limit (v1)" },
	{ "SWAP", "memory.swap_usage_bytes", R, "swap usage (v2)" },
	{ "SWAP-LIMIT", "memory.swap_limit_bytes", R, "swap limit (v2)" },
	{ "HIGH", "memory.high_bytes", R,
	  "memory.high: reclaim and throttling above it (v2)" },
	{ "LOW-EVENTS", "memory.events_low", R, "reclaims below memory.low (v2)" },
	{ "HIGH-EVENTS", "memory.events_high", R,
	  "times usage went over memory.high (v2)" },
	{ "MAX-EVENTS", "memory.events_max", R, "times usage reached memory.max (v2)" },
	{ "OOM", "memory.events_oom", R,
	  "times the limit was hit and reclaim failed (v2)" },
	{ "OOM-KILL", "memory.events_oom_kill", R,
	  "processes killed by the OOM killer (v2)" },
	{ "SOME-AVG10", "memory.pressure.some.avg10_ratio", R,
	  "share of time some task waited for memory, 10 s" },
	{ "SOME-AVG60", "memory.pressure.some.avg60_ratio", R, "the same, 60 s average" },
	{ "SOME-AVG300", "memory.pressure.some.avg300_ratio", R,
	  "the same, 300 s average" },
	{ "SOME-STALL", "memory.pressure.some.total_usec", R,
	  "total time some task waited for memory" },
	{ "FULL-AVG10", "memory.pressure.full.avg10_ratio", R,
	  "share of time all tasks waited for memory, 10 s" },
	{ "FULL-AVG60", "memory.pressure.full.avg60_ratio", R, "the same, 60 s average" },
	{ "FULL-AVG300", "memory.pressure.full.avg300_ratio", R,
	  "the same, 300 s average" },
	{ "FULL-STALL", "memory.pressure.full.total_usec", R,
	  "total time all tasks waited for memory" },
	{ "CPU", "cpu.usage_usec", D | R, "CPU time used" },
	{ "QUOTA", "cpu.quota_usec", R, "CPU time allowed per period (max: unlimited)" },
	{ "PERIOD", "cpu.period_usec", R, "the bandwidth period" },
	{ "BURST-LIMIT", "cpu.burst_limit_usec", R,
	  "unused quota that may be spent later" },
	{ "PERIODS", "cpu.nr_periods", D | R, "bandwidth periods with runnable tasks" },
	{ "NR-THROTTLED", "cpu.nr_throttled", D | R,
	  "periods the cgroup was throttled in" },
	{ "THROTTLED", "cpu.throttled_usec", D | R, "time its tasks were throttled" },
	{ "THROTTLED-LOCAL", "cpu.throttled_local_usec", R,
	  "of that, by its own quota (6.6+)" },
	{ "BURSTS", "cpu.nr_bursts", R, "periods that ran on burst" },
	{ "BURST-TIME", "cpu.burst_usec", R, "CPU time run on burst" },
	{ "RUNNING", "tasks.running", R, "tasks (threads) running or runnable" },
	{ "SLEEPING", "tasks.sleeping", R, "tasks sleeping" },
	{ "UNINTERRUPTIBLE", "tasks.uninterruptible", R,
	  "tasks in uninterruptible sleep" },
	{ "STOPPED", "tasks.stopped", R, "tasks stopped" },
	{ "IO-WAIT", "tasks.io_wait", R, "tasks waiting for I/O" },
	{ "STATES-FROM", "tasks.source", 0, "where the task states were read" },
};

/* stat --tasks */
static const struct out_col stat_processes[] = {
	{ "PID", "pid", D | R, "process ID" },
	{ "COMMAND", "comm", D | T, "its command name" },
	{ "CGROUP", "cgroup", D, "its cgroup" },
	{ "CPU", "cpu_usec", D | R, "its CPU time" },
	{ "CPU-DELAY", "cpu_delay_usec", D | R, "time it waited for a CPU" },
	{ "IO-DELAY", "blkio_delay_usec", D | R, "time it waited for block I/O" },
	{ "SWAPIN-DELAY", "swapin_delay_usec", R, "time it waited for swap-in" },
	{ "RECLAIM-DELAY", "reclaim_delay_usec", R, "time it spent in memory reclaim" },
	{ "THRASHING-DELAY", "thrashing_delay_usec", R,
	  "time it waited on thrashing pages" },
	{ "COMPACT-DELAY", "compact_delay_usec", R,
	  "time it spent in memory compaction" },
	{ "WPCOPY-DELAY", "wpcopy_delay_usec", R,
	  "time it copied pages on write faults" },
	{ "IRQ-DELAY", "irq_delay_usec", R, "time interrupts took from it" },
	{ "VOL-SWITCHES", "voluntary_switches", R, "voluntary context switches" },
	{ "INVOL-SWITCHES", "involuntary_switches", R, "involuntary context switches" },
	{ "MINFLT", "minor_faults", R, "minor page faults" },
	{ "MAJFLT", "major_faults", D | R, "major page faults (read from disk)" },
};

const struct out_table stat_tables[2] = {
	TABLE("cgroups", stat_cgroups),
	TABLE("processes", stat_processes),
};

static const struct out_col tree_cgroups[] = {
	{ "PATH", "path", D | OUT_COL_TREE, "the cgroup, drawn as a tree" },
	{ "UNIT", "unit", D | P, "the systemd unit that owns it (systemd hosts)" },
	{ "HIERARCHIES", "hierarchies", D | T, "the hierarchies it exists in" },
	{ "PROCS", "procs", D | R, "processes in it" },
	{ "USAGE", "memory_usage_bytes", D | R, "memory charged to it" },
	{ "LIMIT", "memory_limit_bytes", D | R, "its memory limit" },
	{ "CPU-LIMIT", "cpu_limit_cpus", D | R,
	  "its CPU bandwidth, in CPUs (quota / period)" },
};

const struct out_table tree_tables[1] = { TABLE("cgroups", tree_cgroups) };

/* the columns of a move after PID, FROM, TO; with --tree the tree's size too (when some
 * of it is in other memory cgroups, NOTE says so) */
#define MOVE_COLS(tree)								\
	{ "PROCS", "tree.processes", (tree) | R, "processes of the moved tree" },	\
	{ "ELSEWHERE", "tree.in_other_memcg", R, "of them in other memory cgroups" },	\
	{ "MOVED", "tree.moved", R, "processes moved" },			\
	{ "ALREADY", "tree.already", R, "processes already in the destination" },	\
	{ "VANISHED", "tree.vanished", R, "processes that exited meanwhile" },	\
	{ "FAILED", "tree.failed", R, "processes that could not be moved" },	\
	{ "PASSES", "tree.passes", R, "passes over the tree until no new child" },	\
	{ "FORKS", "tree.fork_events", R, "forks seen while moving" },		\
	{ "STOPPED", "tree.stopped", R, "processes stopped while moving" },	\
	{ "CONNECTOR", "tree.connector", 0,					\
	  "whether the process connector saw the forks" },			\
	{ "ELAPSED", "tree.elapsed_usec", R, "time the move took" },		\
	{ "MOVES-CHARGE", "kernel_moves_charge", 0,				\
	  "whether the kernel moves the charges" },				\
	{ "EXP-ANON", "expected.anon_bytes", R, "anon memory expected to move" },	\
	{ "EXP-FILE", "expected.file_bytes", R, "file memory expected to move" },	\
	{ "EXP-SHMEM", "expected.shmem_bytes", R, "shmem expected to move" },	\
	{ "EXP-SWAP", "expected.swap_bytes", R, "swap expected to move" },	\
	{ "EXPECTED", "expected.total_bytes", D | R, "memory expected to move, in all" },	\
	{ "STAYS", "expected.stays_bytes", R, "memory expected to stay behind" },	\
	{ "FROM-DELTA", "observed.from_delta_bytes", R, "change of the source's usage" },	\
	{ "OBSERVED", "observed.to_delta_bytes", D | R,				\
	  "change of the destination's usage" },				\
	{ "VERDICT", "verdict", D, "observed against expected" },		\
	{ "NOTE", "note", D | T, "why, when it differs or cannot say" }

static const struct out_col move_moves[] = {
	{ "PID", "pid", D | R, "process ID" },
	{ "FROM", "from", D | T, "cgroup it was in" },
	{ "TO", "to", D | T, "cgroup it moved to" },
	{ "ATTACHED", "attached", D | P,
	  "how it was moved: systemd (AttachProcessesToUnit) or cgroup.procs" },
	MOVE_COLS(0),
};

static const struct out_col move_tree_moves[] = {
	{ "PID", "pid", D | R, "process ID" },
	{ "FROM", "from", D | T, "cgroup it was in" },
	{ "TO", "to", D | T, "cgroup it moved to" },
	MOVE_COLS(D),
};

const struct out_table move_tables[1] = { TABLE("moves", move_moves) };
const struct out_table move_tree_tables[1] = { TABLE("moves", move_tree_moves) };

/* mem where: one row per (task, memory cgroup), then the tasks' totals */
#define CHARGED_COLS(ino)							\
	{ "PID", "pid", D | R, "process ID" },					\
	{ "CGROUP", "cgroup", D, "memory cgroup charged" },			\
	{ "INODE", "ino", (ino) | R, "that cgroup's inode number" },		\
	{ "CHARGED", "bytes", D | R, "memory of the task charged to it" },	\
	{ "ANON", "anon_exclusive_bytes", D | R, "anon memory only this task maps" },	\
	{ "ANON-SHARED", "anon_shared_bytes", D | R,				\
	  "anon memory shared with other tasks" },				\
	{ "FILE", "file_bytes", D | R, "file pages it maps" },			\
	{ "SHMEM", "shmem_bytes", R, "shared memory it maps" },			\
	{ "THP", "thp_bytes", R, "of that, transparent huge pages" }

static const struct out_col memwhere_charged[] = { CHARGED_COLS(0) };
static const struct out_col memwhere_ino_charged[] = { CHARGED_COLS(D) };

static const struct out_col memwhere_tasks[] = {
	{ "PID", "pid", D | R, "process ID" },
	{ "RESIDENT", "resident_bytes", D | R, "resident memory of the task" },
	{ "SWAP", "swap_bytes", D | R, "its memory on swap" },
	{ "CGROUP", "task_cgroup", D, "its own memory cgroup" },
	{ "UNKNOWN", "unknown", D, "memory whose cgroup could not be told" },
};

const struct out_table memwhere_tables[2] = {
	TABLE("charged", memwhere_charged),
	TABLE("tasks", memwhere_tasks),
};

const struct out_table memwhere_ino_tables[2] = {
	TABLE("charged", memwhere_ino_charged),
	TABLE("tasks", memwhere_tasks),
};
