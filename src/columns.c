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
	{ "PATH", "path", D },
	{ "UNIT", "unit", D | P },
	{ "USAGE", "memory.usage_bytes", D | R },
	{ "LIMIT", "memory.limit_bytes", D | R },
	{ "FAILCNT", "memory.failcnt", R },
	{ "MAX-USAGE", "memory.max_usage_bytes", R },
	{ "MEMSW", "memory.memsw_usage_bytes", R },
	{ "MEMSW-LIMIT", "memory.memsw_limit_bytes", R },
	{ "SWAP", "memory.swap_usage_bytes", R },
	{ "SWAP-LIMIT", "memory.swap_limit_bytes", R },
	{ "HIGH", "memory.high_bytes", R },
	{ "LOW-EVENTS", "memory.events_low", R },
	{ "HIGH-EVENTS", "memory.events_high", R },
	{ "MAX-EVENTS", "memory.events_max", R },
	{ "OOM", "memory.events_oom", R },
	{ "OOM-KILL", "memory.events_oom_kill", R },
	{ "SOME-AVG10", "memory.pressure.some.avg10_ratio", R },
	{ "SOME-AVG60", "memory.pressure.some.avg60_ratio", R },
	{ "SOME-AVG300", "memory.pressure.some.avg300_ratio", R },
	{ "SOME-STALL", "memory.pressure.some.total_usec", R },
	{ "FULL-AVG10", "memory.pressure.full.avg10_ratio", R },
	{ "FULL-AVG60", "memory.pressure.full.avg60_ratio", R },
	{ "FULL-AVG300", "memory.pressure.full.avg300_ratio", R },
	{ "FULL-STALL", "memory.pressure.full.total_usec", R },
	{ "CPU", "cpu.usage_usec", D | R },
	{ "QUOTA", "cpu.quota_usec", R },
	{ "PERIOD", "cpu.period_usec", R },
	{ "BURST-LIMIT", "cpu.burst_limit_usec", R },
	{ "PERIODS", "cpu.nr_periods", D | R },
	{ "NR-THROTTLED", "cpu.nr_throttled", D | R },
	{ "THROTTLED", "cpu.throttled_usec", D | R },
	{ "THROTTLED-LOCAL", "cpu.throttled_local_usec", R },
	{ "BURSTS", "cpu.nr_bursts", R },
	{ "BURST-TIME", "cpu.burst_usec", R },
	{ "RUNNING", "tasks.running", R },
	{ "SLEEPING", "tasks.sleeping", R },
	{ "UNINTERRUPTIBLE", "tasks.uninterruptible", R },
	{ "STOPPED", "tasks.stopped", R },
	{ "IO-WAIT", "tasks.io_wait", R },
	{ "STATES-FROM", "tasks.source", 0 },
};

/* stat --tasks */
static const struct out_col stat_processes[] = {
	{ "PID", "pid", D | R },
	{ "COMMAND", "comm", D | T },
	{ "CGROUP", "cgroup", D },
	{ "CPU", "cpu_usec", D | R },
	{ "CPU-DELAY", "cpu_delay_usec", D | R },
	{ "IO-DELAY", "blkio_delay_usec", D | R },
	{ "SWAPIN-DELAY", "swapin_delay_usec", R },
	{ "RECLAIM-DELAY", "reclaim_delay_usec", R },
	{ "THRASHING-DELAY", "thrashing_delay_usec", R },
	{ "COMPACT-DELAY", "compact_delay_usec", R },
	{ "WPCOPY-DELAY", "wpcopy_delay_usec", R },
	{ "IRQ-DELAY", "irq_delay_usec", R },
	{ "VOL-SWITCHES", "voluntary_switches", R },
	{ "INVOL-SWITCHES", "involuntary_switches", R },
	{ "MINFLT", "minor_faults", R },
	{ "MAJFLT", "major_faults", D | R },
};

const struct out_table stat_tables[2] = {
	TABLE("cgroups", stat_cgroups),
	TABLE("processes", stat_processes),
};

static const struct out_col tree_cgroups[] = {
	{ "PATH", "path", D | OUT_COL_TREE },
	{ "UNIT", "unit", D | P },
	{ "HIERARCHIES", "hierarchies", D | T },
	{ "PROCS", "procs", D | R },
	{ "USAGE", "memory_usage_bytes", D | R },
	{ "LIMIT", "memory_limit_bytes", D | R },
	{ "CPU-LIMIT", "cpu_limit_cpus", D | R },
};

const struct out_table tree_tables[1] = { TABLE("cgroups", tree_cgroups) };

/* the columns of a move after PID, FROM, TO; with --tree the tree's size too (when some
 * of it is in other memory cgroups, NOTE says so) */
#define MOVE_COLS(tree)								\
	{ "PROCS", "tree.processes", (tree) | R },				\
	{ "ELSEWHERE", "tree.in_other_memcg", R },				\
	{ "MOVED", "tree.moved", R },						\
	{ "ALREADY", "tree.already", R },					\
	{ "VANISHED", "tree.vanished", R },					\
	{ "FAILED", "tree.failed", R },						\
	{ "PASSES", "tree.passes", R },						\
	{ "FORKS", "tree.fork_events", R },					\
	{ "STOPPED", "tree.stopped", R },					\
	{ "CONNECTOR", "tree.connector", 0 },					\
	{ "ELAPSED", "tree.elapsed_usec", R },					\
	{ "MOVES-CHARGE", "kernel_moves_charge", 0 },				\
	{ "EXP-ANON", "expected.anon_bytes", R },				\
	{ "EXP-FILE", "expected.file_bytes", R },				\
	{ "EXP-SHMEM", "expected.shmem_bytes", R },				\
	{ "EXP-SWAP", "expected.swap_bytes", R },				\
	{ "EXPECTED", "expected.total_bytes", D | R },				\
	{ "STAYS", "expected.stays_bytes", R },					\
	{ "FROM-DELTA", "observed.from_delta_bytes", R },			\
	{ "OBSERVED", "observed.to_delta_bytes", D | R },			\
	{ "VERDICT", "verdict", D },						\
	{ "NOTE", "note", D | T }

static const struct out_col move_moves[] = {
	{ "PID", "pid", D | R },
	{ "FROM", "from", D },
	{ "TO", "to", D },
	{ "ATTACHED", "attached", D | P },
	MOVE_COLS(0),
};

static const struct out_col move_tree_moves[] = {
	{ "PID", "pid", D | R },
	{ "FROM", "from", D },
	{ "TO", "to", D },
	MOVE_COLS(D),
};

const struct out_table move_tables[1] = { TABLE("moves", move_moves) };
const struct out_table move_tree_tables[1] = { TABLE("moves", move_tree_moves) };

/* mem where: one row per (task, memory cgroup), then the tasks' totals */
#define CHARGED_COLS(ino)							\
	{ "PID", "pid", D | R },						\
	{ "CGROUP", "cgroup", D },						\
	{ "INODE", "ino", (ino) | R },						\
	{ "CHARGED", "bytes", D | R },						\
	{ "ANON", "anon_exclusive_bytes", D | R },				\
	{ "ANON-SHARED", "anon_shared_bytes", D | R },				\
	{ "FILE", "file_bytes", D | R },					\
	{ "SHMEM", "shmem_bytes", R },						\
	{ "THP", "thp_bytes", R }

static const struct out_col memwhere_charged[] = { CHARGED_COLS(0) };
static const struct out_col memwhere_ino_charged[] = { CHARGED_COLS(D) };

static const struct out_col memwhere_tasks[] = {
	{ "PID", "pid", D | R },
	{ "RESIDENT", "resident_bytes", D | R },
	{ "SWAP", "swap_bytes", D | R },
	{ "CGROUP", "task_cgroup", D },
	{ "UNKNOWN", "unknown", D },
};

const struct out_table memwhere_tables[2] = {
	TABLE("charged", memwhere_charged),
	TABLE("tasks", memwhere_tasks),
};

const struct out_table memwhere_ino_tables[2] = {
	TABLE("charged", memwhere_ino_charged),
	TABLE("tasks", memwhere_tasks),
};
