/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's contract for bad arguments (issue 33): every export called with NULL
 * for its pointer arguments returns -EINVAL (functions returning no errno must not
 * crash), first with every pointer NULL, then, where the other arguments can be made
 * valid, with one pointer NULL at a time on a fixture context.  Each export runs in a
 * child process so that a crash names it.  The list of exports is read from
 * lib/libcgctl.sym: an export without a case here fails the test.  The functions that
 * stopped being exports (issue 28, lib/libcgctl-private.h) keep their cases: the
 * library's layers call them with the same contract.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libcgctl.h"
#include "testutil.h"

/* valid arguments for the one-NULL-at-a-time calls */
static struct cgctl_ctx *ctx;
static const struct cgctl_mount *mem;
static uint64_t u64;
static uint32_t u32;
static int64_t s64;
static char *str;
static char **strv;
static size_t sz;
static bool b;
static pid_t *pids;
static const struct cgctl_mount *mp;
static struct cgctl_error err = CGCTL_ERROR_INIT;
static _Alignas(64) unsigned char scratch[1 << 16];

/* counts of the current case, in memory shared with the parent */
struct tally {
	unsigned int calls, bad;
};
static struct tally *tally;

static void check_ret(long r, bool want_einval, const char *call, int line)
{
	tally->calls++;
	if (want_einval && r != -EINVAL) {
		fprintf(stderr, "line %d: %s returned %ld, not -EINVAL\n", line, call, r);
		tally->bad++;
	}
}

/* the call must return -EINVAL */
#define WANT_EINVAL(call) check_ret((long)(call), true, #call, __LINE__)
/* the call returns no errno (a value, a pointer, void): it must only not crash */
#define NOCRASH(call) do { (void)(call); check_ret(0, false, #call, __LINE__); } while (0)
/* NULL documented as a default (the cgroup2 mount, cgroup.procs, no length wanted) */
#define ALLOWED(call) NOCRASH(call)
/* any -errno (a file this branch does not own) */
#define WANT_FAIL(call) do { long r_ = (long)(call); check_ret(r_ < 0 ? -EINVAL : r_, true, #call, __LINE__); } while (0)
/* the export takes no pointer */
#define NOPTR() do { } while (0)

static void n_cgctl_new(void)
{
	WANT_EINVAL(cgctl_new(NULL, NULL));
}

static void n_cgctl_ref(void)
{
	NOCRASH(cgctl_ref(NULL));
}

static void n_cgctl_unref(void)
{
	NOCRASH(cgctl_unref(NULL));
}

static void n_cgctl_get_root(void)
{
	NOCRASH(cgctl_get_root(NULL));
}

static void n_cgctl_set_log_fn(void)
{
	NOCRASH(cgctl_set_log_fn(NULL, NULL, NULL));
}

static void n_cgctl_get_log_priority(void)
{
	NOCRASH(cgctl_get_log_priority(NULL));	/* LOG_ERR */
}

static void n_cgctl_set_log_priority(void)
{
	NOCRASH(cgctl_set_log_priority(NULL, 0));
}

static void n_cgctl_kver_parse(void)
{
	WANT_EINVAL(cgctl_kver_parse(NULL, NULL));
	WANT_EINVAL(cgctl_kver_parse(NULL, &u32));
	WANT_EINVAL(cgctl_kver_parse("1", NULL));
}

static void n_cgctl_kver_running(void)
{
	NOPTR();
}

static void n_cgctl_parse_size(void)
{
	WANT_EINVAL(cgctl_parse_size(NULL, NULL));
	WANT_EINVAL(cgctl_parse_size(NULL, &u64));
	WANT_EINVAL(cgctl_parse_size("1", NULL));
}

static void n_cgctl_parse_duration(void)
{
	WANT_EINVAL(cgctl_parse_duration(NULL, 0, NULL));
	WANT_EINVAL(cgctl_parse_duration(NULL, 0, &u64));
	WANT_EINVAL(cgctl_parse_duration("1", 0, NULL));
}

static void n_cgctl_format_size(void)
{
	ALLOWED(cgctl_format_size(NULL, 0, 0));	/* snprintf's length query */
	WANT_EINVAL(cgctl_format_size(NULL, 8, 0));
}

static void n_cgctl_format_duration(void)
{
	ALLOWED(cgctl_format_duration(NULL, 0, 0));
	WANT_EINVAL(cgctl_format_duration(NULL, 8, 0));
}

static void n_cgctl_errno_to_exit(void)
{
	NOPTR();
}

static void n_cgctl_mounts(void)
{
	WANT_EINVAL(cgctl_mounts(NULL, NULL));
	WANT_EINVAL(cgctl_mounts(NULL, &mp));
	WANT_EINVAL(cgctl_mounts(ctx, NULL));
}

static void n_cgctl_mount_find(void)
{
	WANT_EINVAL(cgctl_mount_find(NULL, NULL, NULL));
	WANT_EINVAL(cgctl_mount_find(NULL, "memory", &mp));
	ALLOWED(cgctl_mount_find(ctx, NULL, &mp));	/* the cgroup2 mount */
	WANT_EINVAL(cgctl_mount_find(ctx, "memory", NULL));
}

static void n_cgctl_mount_has(void)
{
	NOCRASH(cgctl_mount_has(NULL, NULL));
	NOCRASH(cgctl_mount_has(NULL, "memory"));
	NOCRASH(cgctl_mount_has(mem, NULL));
}

static void n_cgctl_path_normalize(void)
{
	WANT_EINVAL(cgctl_path_normalize(NULL, NULL, 0));
}

static void n_cgctl_cg_open(void)
{
	WANT_EINVAL(cgctl_cg_open(NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cg_open(NULL, mem, "/"));
	WANT_EINVAL(cgctl_cg_open(ctx, NULL, "/"));
	WANT_EINVAL(cgctl_cg_open(ctx, mem, NULL));
}

static void n_cgctl_cg_exists(void)
{
	WANT_EINVAL(cgctl_cg_exists(NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cg_exists(NULL, mem, "/"));
	WANT_EINVAL(cgctl_cg_exists(ctx, NULL, "/"));
	WANT_EINVAL(cgctl_cg_exists(ctx, mem, NULL));
}

static void n_cgctl_cg_read(void)
{
	WANT_EINVAL(cgctl_cg_read(NULL, NULL, NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cg_read(NULL, mem, "/", "memory.limit_in_bytes", &str, &sz));
	WANT_EINVAL(cgctl_cg_read(ctx, NULL, "/", "memory.limit_in_bytes", &str, &sz));
	WANT_EINVAL(cgctl_cg_read(ctx, mem, NULL, "memory.limit_in_bytes", &str, &sz));
	WANT_EINVAL(cgctl_cg_read(ctx, mem, "/", NULL, &str, &sz));
	WANT_EINVAL(cgctl_cg_read(ctx, mem, "/", "memory.limit_in_bytes", NULL, &sz));
	ALLOWED(cgctl_cg_read(ctx, mem, "/", "memory.limit_in_bytes", &str, NULL));
}

static void n_cgctl_cg_read_u64(void)
{
	WANT_EINVAL(cgctl_cg_read_u64(NULL, NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cg_read_u64(NULL, mem, "/", "memory.limit_in_bytes", &u64));
	WANT_EINVAL(cgctl_cg_read_u64(ctx, NULL, "/", "memory.limit_in_bytes", &u64));
	WANT_EINVAL(cgctl_cg_read_u64(ctx, mem, NULL, "memory.limit_in_bytes", &u64));
	WANT_EINVAL(cgctl_cg_read_u64(ctx, mem, "/", NULL, &u64));
	WANT_EINVAL(cgctl_cg_read_u64(ctx, mem, "/", "memory.limit_in_bytes", NULL));
}

static void n_cgctl_cg_write(void)
{
	/* one value, one line: a newline is refused in the library too, nothing written */
	WANT_EINVAL(cgctl_cg_write(ctx, mem, "/", "memory.limit_in_bytes", "2\n3"));
	WANT_EINVAL(cgctl_cg_write(ctx, mem, "/", "memory.limit_in_bytes", "2\n"));
	if (cgctl_cg_read_u64(ctx, mem, "/", "memory.limit_in_bytes", &u64) || u64 != 1) {
		fprintf(stderr, "a refused write changed memory.limit_in_bytes\n");
		tally->bad++;
	}
	WANT_EINVAL(cgctl_cg_write(NULL, NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cg_write(NULL, mem, "/", "memory.limit_in_bytes", "1"));
	WANT_EINVAL(cgctl_cg_write(ctx, NULL, "/", "memory.limit_in_bytes", "1"));
	WANT_EINVAL(cgctl_cg_write(ctx, mem, NULL, "memory.limit_in_bytes", "1"));
	WANT_EINVAL(cgctl_cg_write(ctx, mem, "/", NULL, "1"));
	WANT_EINVAL(cgctl_cg_write(ctx, mem, "/", "memory.limit_in_bytes", NULL));
}

static void n_cgctl_cg_create(void)
{
	WANT_EINVAL(cgctl_cg_create(NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cg_create(NULL, mem, "/"));
	WANT_EINVAL(cgctl_cg_create(ctx, NULL, "/"));
	WANT_EINVAL(cgctl_cg_create(ctx, mem, NULL));
}

static void n_cgctl_cg_remove(void)
{
	WANT_EINVAL(cgctl_cg_remove(NULL, NULL, NULL, 0, NULL));
	WANT_EINVAL(cgctl_cg_remove(NULL, mem, "/", 0, &err));
	WANT_EINVAL(cgctl_cg_remove(ctx, NULL, "/", 0, &err));
	WANT_EINVAL(cgctl_cg_remove(ctx, mem, NULL, 0, &err));
}

static void n_cgctl_cg_pids(void)
{
	WANT_EINVAL(cgctl_cg_pids(NULL, NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cg_pids(NULL, mem, "/", "memory.limit_in_bytes", &pids));
	WANT_EINVAL(cgctl_cg_pids(ctx, NULL, "/", "memory.limit_in_bytes", &pids));
	WANT_EINVAL(cgctl_cg_pids(ctx, mem, NULL, "memory.limit_in_bytes", &pids));
	ALLOWED(cgctl_cg_pids(ctx, mem, "/", NULL, &pids));	/* cgroup.procs */
	WANT_EINVAL(cgctl_cg_pids(ctx, mem, "/", "memory.limit_in_bytes", NULL));
}

static void n_cgctl_cg_children(void)
{
	WANT_EINVAL(cgctl_cg_children(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cg_children(NULL, mem, "/", &strv));
	WANT_EINVAL(cgctl_cg_children(ctx, NULL, "/", &strv));
	WANT_EINVAL(cgctl_cg_children(ctx, mem, NULL, &strv));
	WANT_EINVAL(cgctl_cg_children(ctx, mem, "/", NULL));
}

static void n_cgctl_strv_free(void)
{
	NOCRASH(cgctl_strv_free(NULL));
}

static void n_cgctl_cg_attach(void)
{
	WANT_EINVAL(cgctl_cg_attach(NULL, NULL, NULL, 0));
	WANT_EINVAL(cgctl_cg_attach(NULL, mem, "/", 0));
	WANT_EINVAL(cgctl_cg_attach(ctx, NULL, "/", 0));
	WANT_EINVAL(cgctl_cg_attach(ctx, mem, NULL, 0));
}

static void n_cgctl_pid_cgroup(void)
{
	WANT_EINVAL(cgctl_pid_cgroup(NULL, 0, NULL, NULL));
	WANT_EINVAL(cgctl_pid_cgroup(NULL, 0, mem, &str));
	WANT_EINVAL(cgctl_pid_cgroup(ctx, 0, NULL, &str));
	WANT_EINVAL(cgctl_pid_cgroup(ctx, 0, mem, NULL));
}

static void n_cgctl_cg_ino(void)
{
	WANT_EINVAL(cgctl_cg_ino(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cg_ino(NULL, mem, "/", &u64));
	WANT_EINVAL(cgctl_cg_ino(ctx, NULL, "/", &u64));
	WANT_EINVAL(cgctl_cg_ino(ctx, mem, NULL, &u64));
	WANT_EINVAL(cgctl_cg_ino(ctx, mem, "/", NULL));
}

static void n_cgctl_open_sys(void)
{
	WANT_EINVAL(cgctl_open_sys(NULL, NULL, 0));
	WANT_EINVAL(cgctl_open_sys(NULL, "/proc/self/status", 0));
	WANT_EINVAL(cgctl_open_sys(ctx, NULL, 0));
}

static void n_cgctl_read_sys(void)
{
	WANT_EINVAL(cgctl_read_sys(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_read_sys(NULL, "/proc/self/status", &str, &sz));
	WANT_EINVAL(cgctl_read_sys(ctx, NULL, &str, &sz));
	WANT_EINVAL(cgctl_read_sys(ctx, "/proc/self/status", NULL, &sz));
	ALLOWED(cgctl_read_sys(ctx, "/proc/self/status", &str, NULL));
}

static void n_cgctl_memstat_read(void)
{
	WANT_EINVAL(cgctl_memstat_read(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_memstat_read(NULL, mem, "/", (void *)scratch));
	WANT_EINVAL(cgctl_memstat_read(ctx, NULL, "/", (void *)scratch));
	WANT_EINVAL(cgctl_memstat_read(ctx, mem, NULL, (void *)scratch));
	WANT_EINVAL(cgctl_memstat_read(ctx, mem, "/", NULL));
}

static void n_cgctl_cpubw_read(void)
{
	WANT_EINVAL(cgctl_cpubw_read(NULL, NULL, NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cpubw_read(NULL, mem, "/", mem, "/", (void *)scratch));
	WANT_EINVAL(cgctl_cpubw_read(ctx, NULL, "/", mem, "/", (void *)scratch));
	WANT_EINVAL(cgctl_cpubw_read(ctx, mem, NULL, mem, "/", (void *)scratch));
	ALLOWED(cgctl_cpubw_read(ctx, mem, "/", NULL, "/", (void *)scratch));	/* no cpuacct */
	ALLOWED(cgctl_cpubw_read(ctx, mem, "/", mem, NULL, (void *)scratch));	/* @path */
	WANT_EINVAL(cgctl_cpubw_read(ctx, mem, "/", mem, "/", NULL));
}

static void n_cgctl_psi_parse(void)
{
	WANT_EINVAL(cgctl_psi_parse(NULL, 1, NULL));
	WANT_EINVAL(cgctl_psi_parse(NULL, 1, (void *)scratch));
	WANT_EINVAL(cgctl_psi_parse("1\n", 2, NULL));
}

static void n_cgctl_psi_read(void)
{
	WANT_EINVAL(cgctl_psi_read(NULL, NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_psi_read(NULL, mem, "/", "memory.limit_in_bytes", (void *)scratch));
	WANT_EINVAL(cgctl_psi_read(ctx, NULL, "/", "memory.limit_in_bytes", (void *)scratch));
	WANT_EINVAL(cgctl_psi_read(ctx, mem, NULL, "memory.limit_in_bytes", (void *)scratch));
	WANT_EINVAL(cgctl_psi_read(ctx, mem, "/", NULL, (void *)scratch));
	WANT_EINVAL(cgctl_psi_read(ctx, mem, "/", "memory.limit_in_bytes", NULL));
}

static void n_cgctl_mem_event_name(void)
{
	NOPTR();
}

static void n_cgctl_mem_events_parse(void)
{
	WANT_EINVAL(cgctl_mem_events_parse(NULL, 1, NULL));
	WANT_EINVAL(cgctl_mem_events_parse(NULL, 1, (void *)scratch));
	WANT_EINVAL(cgctl_mem_events_parse("1\n", 2, NULL));
}

static void n_cgctl_mem_events_read(void)
{
	WANT_EINVAL(cgctl_mem_events_read(NULL, NULL, NULL, 0, NULL));
	WANT_EINVAL(cgctl_mem_events_read(NULL, mem, "/", 0, (void *)scratch));
	WANT_EINVAL(cgctl_mem_events_read(ctx, NULL, "/", 0, (void *)scratch));
	WANT_EINVAL(cgctl_mem_events_read(ctx, mem, NULL, 0, (void *)scratch));
	WANT_EINVAL(cgctl_mem_events_read(ctx, mem, "/", 0, NULL));
}

static void n_cgctl_mem_stat_flush(void)
{
	WANT_EINVAL(cgctl_mem_stat_flush(NULL, NULL, NULL));
	WANT_EINVAL(cgctl_mem_stat_flush(NULL, mem, "/"));
	WANT_EINVAL(cgctl_mem_stat_flush(ctx, NULL, "/"));
	WANT_EINVAL(cgctl_mem_stat_flush(ctx, mem, NULL));
}

static void n_cgctl_lru_gen_read(void)
{
	WANT_EINVAL(cgctl_lru_gen_read(NULL, NULL));
	WANT_EINVAL(cgctl_lru_gen_read(NULL, &b));
	WANT_EINVAL(cgctl_lru_gen_read(ctx, NULL));
}

static void n_cgctl_parse_mountinfo(void)
{
	WANT_EINVAL(cgctl_parse_mountinfo(NULL, 1, NULL, NULL));
}

static void n_cgctl_parse_proc_cgroup(void)
{
	WANT_EINVAL(cgctl_parse_proc_cgroup(NULL, 1, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_parse_proc_cgroup(NULL, 1, "memory", &str, &b));
	ALLOWED(cgctl_parse_proc_cgroup("1\n", 2, NULL, &str, &b));	/* the cgroup2 line */
	WANT_EINVAL(cgctl_parse_proc_cgroup("1\n", 2, "memory", NULL, &b));
	ALLOWED(cgctl_parse_proc_cgroup("1\n", 2, "memory", &str, NULL));
}

static void n_cgctl_parse_keyed(void)
{
	WANT_EINVAL(cgctl_parse_keyed(NULL, 1, NULL, NULL));
}

static void n_cgctl_parse_keyed_u64(void)
{
	WANT_EINVAL(cgctl_parse_keyed_u64(NULL, 1, NULL, NULL));
	WANT_EINVAL(cgctl_parse_keyed_u64(NULL, 1, "a", &u64));
	WANT_EINVAL(cgctl_parse_keyed_u64("1\n", 2, NULL, &u64));
	WANT_EINVAL(cgctl_parse_keyed_u64("1\n", 2, "a", NULL));
}

static void n_cgctl_parse_keyed_s64(void)
{
	WANT_EINVAL(cgctl_parse_keyed_s64(NULL, 1, NULL, NULL));
	WANT_EINVAL(cgctl_parse_keyed_s64(NULL, 1, "a", &s64));
	WANT_EINVAL(cgctl_parse_keyed_s64("1\n", 2, NULL, &s64));
	WANT_EINVAL(cgctl_parse_keyed_s64("1\n", 2, "a", NULL));
}

static void n_cgctl_parse_u64(void)
{
	WANT_EINVAL(cgctl_parse_u64(NULL, 1, NULL));
	WANT_EINVAL(cgctl_parse_u64(NULL, 1, &u64));
	WANT_EINVAL(cgctl_parse_u64("1\n", 2, NULL));
}

static void n_cgctl_parse_cpu_stat(void)
{
	WANT_EINVAL(cgctl_parse_cpu_stat(NULL, 1, 1, NULL));
	WANT_EINVAL(cgctl_parse_cpu_stat(NULL, 1, 1, (void *)scratch));
	WANT_EINVAL(cgctl_parse_cpu_stat("1\n", 2, 1, NULL));
}

static void n_cgctl_parse_cpuacct_usage(void)
{
	WANT_EINVAL(cgctl_parse_cpuacct_usage(NULL, 1, NULL));
	WANT_EINVAL(cgctl_parse_cpuacct_usage(NULL, 1, (void *)scratch));
	WANT_EINVAL(cgctl_parse_cpuacct_usage("1\n", 2, NULL));
}

static void n_cgctl_parse_cpuacct_stat(void)
{
	WANT_EINVAL(cgctl_parse_cpuacct_stat(NULL, 1, 0, NULL));
	WANT_EINVAL(cgctl_parse_cpuacct_stat(NULL, 1, 0, (void *)scratch));
	WANT_EINVAL(cgctl_parse_cpuacct_stat("1\n", 2, 0, NULL));
}

static void n_cgctl_parse_cpu_max(void)
{
	WANT_EINVAL(cgctl_parse_cpu_max(NULL, 1, NULL, NULL));
	WANT_EINVAL(cgctl_parse_cpu_max(NULL, 1, &u64, &u64));
	WANT_EINVAL(cgctl_parse_cpu_max("1\n", 2, NULL, &u64));
	WANT_EINVAL(cgctl_parse_cpu_max("1\n", 2, &u64, NULL));
}

static void n_cgctl_parse_cfs_quota(void)
{
	WANT_EINVAL(cgctl_parse_cfs_quota(NULL, 1, NULL));
	WANT_EINVAL(cgctl_parse_cfs_quota(NULL, 1, &u64));
	WANT_EINVAL(cgctl_parse_cfs_quota("1\n", 2, NULL));
}

static void n_cgctl_parse_mem_limit(void)
{
	WANT_EINVAL(cgctl_parse_mem_limit(NULL, 1, NULL));
	WANT_EINVAL(cgctl_parse_mem_limit(NULL, 1, &u64));
	WANT_EINVAL(cgctl_parse_mem_limit("1\n", 2, NULL));
}

static void n_cgctl_memcg_era_get(void)
{
	WANT_EINVAL(cgctl_memcg_era_get(0, NULL));
}

static void n_cgctl_memcg_stock_max_pages(void)
{
	NOPTR();
}

static void n_cgctl_memcg_usage_interval(void)
{
	WANT_EINVAL(cgctl_memcg_usage_interval(0, 0, 0, 0, NULL, NULL));
	WANT_EINVAL(cgctl_memcg_usage_interval(0, 0, 0, 0, NULL, &u64));
	WANT_EINVAL(cgctl_memcg_usage_interval(0, 0, 0, 0, &u64, NULL));
}

static void n_cgctl_memcg_limit_pages(void)
{
	NOPTR();
}

static void n_cgctl_memcg_tree_new(void)
{
	WANT_EINVAL(cgctl_memcg_tree_new(NULL, 0, 0, 0, 0));
}

static void n_cgctl_memcg_tree_free(void)
{
	NOCRASH(cgctl_memcg_tree_free(NULL));
}

static void n_cgctl_memcg_tree_clone(void)
{
	WANT_EINVAL(cgctl_memcg_tree_clone(NULL, NULL));
}

static void n_cgctl_memcg_tree_era(void)
{
	NOCRASH(cgctl_memcg_tree_era(NULL));
}

static void n_cgctl_memcg_create(void)
{
	WANT_EINVAL(cgctl_memcg_create(NULL, 0));
}

static void n_cgctl_memcg_parent(void)
{
	WANT_EINVAL(cgctl_memcg_parent(NULL, 0));
}

static void n_cgctl_memcg_subtree_size(void)
{
	WANT_EINVAL(cgctl_memcg_subtree_size(NULL, 0));
}

static void n_cgctl_memcg_set_use_hierarchy(void)
{
	WANT_EINVAL(cgctl_memcg_set_use_hierarchy(NULL, 0, 0));
}

static void n_cgctl_memcg_set_move_charge(void)
{
	WANT_EINVAL(cgctl_memcg_set_move_charge(NULL, 0, 0));
}

static void n_cgctl_memcg_charge(void)
{
	WANT_EINVAL(cgctl_memcg_charge(NULL, 0, 0, 0, NULL, NULL));
}

static void n_cgctl_memcg_uncharge(void)
{
	WANT_EINVAL(cgctl_memcg_uncharge(NULL, 0, 0, 0, 0));
}

static void n_cgctl_memcg_swapout(void)
{
	WANT_EINVAL(cgctl_memcg_swapout(NULL, 0, 0));
}

static void n_cgctl_memcg_drain_all(void)
{
	NOCRASH(cgctl_memcg_drain_all(NULL, 0));
}

static void n_cgctl_memcg_stock_pages(void)
{
	NOCRASH(cgctl_memcg_stock_pages(NULL, 0, 0));
}

static void n_cgctl_memcg_set_limit(void)
{
	WANT_EINVAL(cgctl_memcg_set_limit(NULL, 0, 0, 0, NULL, NULL));
}

static void n_cgctl_memcg_get(void)
{
	WANT_EINVAL(cgctl_memcg_get(NULL, 0, NULL));
}

static void n_cgctl_memcg_seed(void)
{
	WANT_EINVAL(cgctl_memcg_seed(NULL, 0, NULL));
}

static void n_cgctl_memcg_file(void)
{
	WANT_EINVAL(cgctl_memcg_file(NULL, 0, NULL, NULL, 0));
}

static void n_cgctl_memcg_true_interval(void)
{
	WANT_EINVAL(cgctl_memcg_true_interval(NULL, 0, NULL, NULL));
}

static void n_cgctl_move_plan(void)
{
	WANT_EINVAL(cgctl_move_plan(NULL, 0, 0, 0, NULL, NULL, NULL));
}

static void n_cgctl_inventory_scan(void)
{
	WANT_EINVAL(cgctl_inventory_scan(NULL, 0, 0, NULL, NULL));
}

static void n_cgctl_inventory_scan_tasks(void)
{
	WANT_EINVAL(cgctl_inventory_scan_tasks(NULL, NULL, 0, 0, NULL, NULL));
}

static void n_cgctl_inventory_free(void)
{
	NOCRASH(cgctl_inventory_free(NULL));
}

static void n_cgctl_inventory_group(void)
{
	NOCRASH(cgctl_inventory_group(NULL, 0));
}

static void n_cgctl_inventory_get(void)
{
	WANT_EINVAL(cgctl_inventory_get(NULL, NULL, NULL));
	WANT_EINVAL(cgctl_inventory_get(NULL, "pid", &u64));
}

static void n_cgctl_inventory_task_cgroup(void)
{
	NOCRASH(cgctl_inventory_task_cgroup(NULL));
}

static void n_cgctl_inventory_group_get(void)
{
	WANT_EINVAL(cgctl_inventory_group_get(NULL, 0, NULL, NULL));
	WANT_EINVAL(cgctl_inventory_group_get(NULL, 0, "pages", &u64));
}

static void n_cgctl_inventory_group_path(void)
{
	NOCRASH(cgctl_inventory_group_path(NULL, 0));
}

static void n_cgctl_bw_sim_new(void)
{
	WANT_EINVAL(cgctl_bw_sim_new(NULL, NULL));
}

static void n_cgctl_bw_sim_free(void)
{
	NOCRASH(cgctl_bw_sim_free(NULL));
}

static void n_cgctl_bw_sim_add_group(void)
{
	WANT_EINVAL(cgctl_bw_sim_add_group(NULL, 0, NULL));
}

static void n_cgctl_bw_sim_add_thread(void)
{
	WANT_EINVAL(cgctl_bw_sim_add_thread(NULL, NULL));
}

static void n_cgctl_bw_sim_write(void)
{
	WANT_EINVAL(cgctl_bw_sim_write(NULL, 0, 0, NULL));
}

static void n_cgctl_bw_sim_run(void)
{
	NOCRASH(cgctl_bw_sim_run(NULL));
}

static void n_cgctl_bw_sim_stat(void)
{
	WANT_EINVAL(cgctl_bw_sim_stat(NULL, 0, 0, NULL));
}

static void n_cgctl_bw_sim_periods(void)
{
	WANT_EINVAL(cgctl_bw_sim_periods(NULL, 0, NULL));
}

static void n_cgctl_bw_sim_settings(void)
{
	WANT_EINVAL(cgctl_bw_sim_settings(NULL, 0, NULL));
}

static void n_cgctl_bw_sim_set_silos(void)
{
	WANT_EINVAL(cgctl_bw_sim_set_silos(NULL, 0, NULL, 0));
}

static void n_cgctl_bw_sim_silos(void)
{
	WANT_EINVAL(cgctl_bw_sim_silos(NULL, 0, NULL, 0));
}

static void n_cgctl_bw_sim_set_weight(void)
{
	WANT_EINVAL(cgctl_bw_sim_set_weight(NULL, 0, 0));
}

static void n_cgctl_bw_sim_place(void)
{
	WANT_EINVAL(cgctl_bw_sim_place(NULL, 0, 0, 0));
}

static void n_cgctl_bw_trace_parse(void)
{
	WANT_EINVAL(cgctl_bw_trace_parse(NULL, 0, NULL, NULL));
}

static void n_cgctl_bw_trace_free(void)
{
	NOCRASH(cgctl_bw_trace_free(NULL));
}

static void n_cgctl_bw_check(void)
{
	WANT_EINVAL(cgctl_bw_check(NULL, 0, 0, NULL, 0, NULL));
}

static void n_cgctl_bw_write_plan(void)
{
	WANT_EINVAL(cgctl_bw_write_plan(NULL, NULL, 0, NULL, 0, 0, NULL, NULL));
}

static void n_cgctl_rss_backport_kver(void)
{
	NOPTR();
}

static void n_cgctl_rss_source(void)
{
	NOPTR();
}

static void n_cgctl_rss_bound(void)
{
	WANT_EINVAL(cgctl_rss_bound(0, 0, 0, 0, NULL));
}

static void n_cgctl_rss_read_cost(void)
{
	NOPTR();
}

static void n_cgctl_rss_fault(void)
{
	WANT_EINVAL(cgctl_rss_fault(0, NULL, NULL, 0));
}

static void n_cgctl_pcp_predict(void)
{
	WANT_EINVAL(cgctl_pcp_predict(0, 0, NULL, NULL));
}

static void n_cgctl_pcp_check(void)
{
	NOCRASH(cgctl_pcp_check(NULL, NULL));	/* flags: nothing checked */
}

static void n_cgctl_zoneinfo_free(void)
{
	NOCRASH(cgctl_zoneinfo_free(NULL));
}

static void n_cgctl_zoneinfo_parse(void)
{
	WANT_EINVAL(cgctl_zoneinfo_parse(NULL, NULL));
}

static void n_cgctl_zoneinfo_read(void)
{
	WANT_EINVAL(cgctl_zoneinfo_read(NULL, NULL));
}

static void n_cgctl_zone_to_pcp(void)
{
	WANT_EINVAL(cgctl_zone_to_pcp(NULL, 0, 0, NULL));
}

static void n_cgctl_online_ncpu(void)
{
	WANT_EINVAL(cgctl_online_ncpu(NULL));
}

static void n_cgctl_node_ncpu(void)
{
	WANT_EINVAL(cgctl_node_ncpu(NULL, 0));
}

static void n_cgctl_pcp_fraction_read(void)
{
	WANT_EINVAL(cgctl_pcp_fraction_read(NULL));
}

static void n_cgctl_procrss_parse_status(void)
{
	WANT_EINVAL(cgctl_procrss_parse_status(NULL, NULL));
	WANT_EINVAL(cgctl_procrss_parse_status(NULL, (void *)scratch));
	WANT_EINVAL(cgctl_procrss_parse_status("1\n", NULL));
}

static void n_cgctl_procrss_parse_smaps_rollup(void)
{
	WANT_EINVAL(cgctl_procrss_parse_smaps_rollup(NULL, NULL));
	WANT_EINVAL(cgctl_procrss_parse_smaps_rollup(NULL, (void *)scratch));
	WANT_EINVAL(cgctl_procrss_parse_smaps_rollup("1\n", NULL));
}

static void n_cgctl_procrss_parse_statm(void)
{
	WANT_EINVAL(cgctl_procrss_parse_statm(NULL, NULL));
	WANT_EINVAL(cgctl_procrss_parse_statm(NULL, (void *)scratch));
	WANT_EINVAL(cgctl_procrss_parse_statm("1\n", NULL));
}

static void n_cgctl_procrss_parse_stat(void)
{
	WANT_EINVAL(cgctl_procrss_parse_stat(NULL, NULL));
	WANT_EINVAL(cgctl_procrss_parse_stat(NULL, (void *)scratch));
	WANT_EINVAL(cgctl_procrss_parse_stat("1\n", NULL));
}

static void n_cgctl_procrss_read(void)
{
	WANT_EINVAL(cgctl_procrss_read(NULL, 0, NULL));
	WANT_EINVAL(cgctl_procrss_read(NULL, 0, (void *)scratch));
	WANT_EINVAL(cgctl_procrss_read(ctx, 0, NULL));
}

static void n_cgctl_procev_open(void)
{
	WANT_EINVAL(cgctl_procev_open(NULL, NULL, NULL));
}

static void n_cgctl_procev_fd(void)
{
	WANT_EINVAL(cgctl_procev_fd(NULL));
}

static void n_cgctl_procev_read(void)
{
	WANT_EINVAL(cgctl_procev_read(NULL, NULL, 0, 0));
}

static void n_cgctl_procev_close(void)
{
	NOCRASH(cgctl_procev_close(NULL));
}

static void n_cgctl_taskstats_get(void)
{
	WANT_EINVAL(cgctl_taskstats_get(NULL, 0, 0, NULL, NULL));
	WANT_EINVAL(cgctl_taskstats_get(ctx, 1, true, NULL, NULL));
}

static void n_cgctl_delayacct_enabled(void)
{
	WANT_EINVAL(cgctl_delayacct_enabled(NULL, NULL));
	WANT_EINVAL(cgctl_delayacct_enabled(NULL, &err));
}

static void n_cgctl_cgroupstats_get(void)
{
	WANT_EINVAL(cgctl_cgroupstats_get(NULL, NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cgroupstats_get(NULL, mem, "/", (void *)scratch, &err));
	WANT_EINVAL(cgctl_cgroupstats_get(ctx, NULL, "/", (void *)scratch, &err));
	WANT_EINVAL(cgctl_cgroupstats_get(ctx, mem, NULL, (void *)scratch, &err));
	WANT_EINVAL(cgctl_cgroupstats_get(ctx, mem, "/", NULL, &err));
}

static void n_cgctl_move_new(void)
{
	const struct cgctl_mount *ms[1] = { mem };
	const char *paths[1] = { "/" };
	struct cgctl_move *mv = NULL;

	WANT_EINVAL(cgctl_move_new(NULL, NULL, NULL, 0, NULL));
	WANT_EINVAL(cgctl_move_new(NULL, ms, paths, 1, &mv));
	WANT_EINVAL(cgctl_move_new(ctx, NULL, paths, 1, &mv));
	WANT_EINVAL(cgctl_move_new(ctx, ms, NULL, 1, &mv));
	WANT_EINVAL(cgctl_move_new(ctx, ms, paths, 1, NULL));
}

static void n_cgctl_move_free(void)
{
	NOCRASH(cgctl_move_free(NULL));
}

static void n_cgctl_move_pid_get(void)
{
	WANT_EINVAL(cgctl_move_pid_get(NULL, 0, NULL, NULL, NULL, NULL));
}

static void n_cgctl_move_tree(void)
{
	const struct cgctl_mount *ms[1] = { mem };
	const char *paths[1] = { "/" };
	struct cgctl_move *mv = NULL;
	pid_t root = 1;

	WANT_EINVAL(cgctl_move_tree(NULL, NULL, 0, NULL, NULL, NULL));
	if (cgctl_move_new(ctx, ms, paths, 1, &mv) == 0) {
		WANT_EINVAL(cgctl_move_tree(mv, NULL, 1, NULL, NULL, NULL));
		WANT_EINVAL(cgctl_move_tree(NULL, &root, 1, NULL, NULL, NULL));
		cgctl_move_free(mv);
	}
}

static void n_cgctl_move_tree_v(void)
{
	WANT_EINVAL(cgctl_move_tree_v(NULL, NULL, 0, NULL, 0, NULL, NULL, NULL));
}

static void n_cgctl_mem_counters_read(void)
{
	WANT_EINVAL(cgctl_mem_counters_read(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_mem_counters_read(NULL, mem, "/", (void *)scratch));
	WANT_EINVAL(cgctl_mem_counters_read(ctx, NULL, "/", (void *)scratch));
	WANT_EINVAL(cgctl_mem_counters_read(ctx, mem, NULL, (void *)scratch));
	WANT_EINVAL(cgctl_mem_counters_read(ctx, mem, "/", NULL));
}

static void n_cgctl_mem_subtree_size(void)
{
	NOCRASH(cgctl_mem_subtree_size(NULL, NULL, NULL));
	NOCRASH(cgctl_mem_subtree_size(NULL, mem, "/"));
	NOCRASH(cgctl_mem_subtree_size(ctx, NULL, "/"));
	NOCRASH(cgctl_mem_subtree_size(ctx, mem, NULL));
}

static void n_cgctl_mem_model_init(void)
{
	WANT_EINVAL(cgctl_mem_model_init(NULL, NULL, 0, 0, NULL));
}

static void n_cgctl_mem_model_new(void)
{
	struct cgctl_mem_model *mm = NULL;

	WANT_EINVAL(cgctl_mem_model_new(NULL, NULL, 0, 0, NULL));
	WANT_EINVAL(cgctl_mem_model_new(NULL, mem, 0, 1, &mm));
	WANT_EINVAL(cgctl_mem_model_new(ctx, NULL, 0, 1, &mm));
	WANT_EINVAL(cgctl_mem_model_new(ctx, mem, 0, 1, NULL));
}

static void n_cgctl_mem_model_fini(void)
{
	NOCRASH(cgctl_mem_model_fini(NULL));
}

static void n_cgctl_mem_model_node(void)
{
	WANT_EINVAL(cgctl_mem_model_node(NULL, NULL, NULL));
}

static void n_cgctl_mem_model_free(void)
{
	NOCRASH(cgctl_mem_model_free(NULL));
}

static void n_cgctl_move_counts_add(void)
{
	NOCRASH(cgctl_move_counts_add(NULL, NULL));
}

static void n_cgctl_move_input_from_inventory(void)
{
	WANT_EINVAL(cgctl_move_input_from_inventory(NULL, 0, NULL));
}

static void n_cgctl_move_expect_input(void)
{
	WANT_EINVAL(cgctl_move_expect_input(NULL, 0, 0, NULL, 0, NULL));
}

static void n_cgctl_move_expect_inventory(void)
{
	WANT_EINVAL(cgctl_move_expect_inventory(NULL, 0, 0, NULL, 0, NULL));
}

static void n_cgctl_move_expect_tasks(void)
{
	WANT_EINVAL(cgctl_move_expect_tasks(NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL));
}

static void n_cgctl_move_expect_tasks_into(void)
{
	WANT_EINVAL(cgctl_move_expect_tasks_into(NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL));
}

static void n_cgctl_move_expect_get(void)
{
	WANT_EINVAL(cgctl_move_expect_get(NULL, NULL, NULL));
	WANT_EINVAL(cgctl_move_expect_get(NULL, "planned", &s64));
}

static void n_cgctl_move_expect_note(void)
{
	NOCRASH(cgctl_move_expect_note(NULL));
}

static void n_cgctl_move_tolerance_bytes(void)
{
	NOCRASH(cgctl_move_tolerance_bytes(NULL, NULL, NULL));
}

static void n_cgctl_memcg_moves_charges(void)
{
	NOPTR();
}

static void n_cgctl_move_task_kind(void)
{
	WANT_EINVAL(cgctl_move_task_kind(NULL, 0));
}

static void n_cgctl_move_tree_members(void)
{
	WANT_EINVAL(cgctl_move_tree_members(NULL, 0, NULL, NULL));
	WANT_EINVAL(cgctl_move_tree_members(NULL, 0, &pids, &sz));
	WANT_EINVAL(cgctl_move_tree_members(ctx, 0, NULL, &sz));
	WANT_EINVAL(cgctl_move_tree_members(ctx, 0, &pids, NULL));
}

static void n_cgctl_move_tree_elsewhere(void)
{
	NOCRASH(cgctl_move_tree_elsewhere(NULL, NULL, NULL, 0, NULL));
}

static void n_cgctl_move_dest_open(void)
{
	WANT_EINVAL(cgctl_move_dest_open(NULL, NULL, NULL, NULL));
}

static void n_cgctl_move_dest_attach(void)
{
	WANT_EINVAL(cgctl_move_dest_attach(NULL, 0));
}

static void n_cgctl_move_dest_close(void)
{
	NOCRASH(cgctl_move_dest_close(NULL));
}

static void n_cgctl_move_pids(void)
{
	const struct cgctl_mount *ms[1] = { mem };
	const char *paths[1] = { "/" };
	struct cgctl_move *mv = NULL;

	WANT_EINVAL(cgctl_move_pids(NULL, NULL, 0, 0, NULL));
	if (cgctl_move_new(ctx, ms, paths, 1, &mv) == 0) {
		WANT_EINVAL(cgctl_move_pids(mv, NULL, 1, 0, NULL));
		cgctl_move_free(mv);
	}
}

static void n_cgctl_move_pids_v(void)
{
	WANT_EINVAL(cgctl_move_pids_v(NULL, NULL, 0, NULL, 0, 0, NULL));
}

static void n_cgctl_move_pids_free(void)
{
	NOCRASH(cgctl_move_pids_free(NULL, 0));
}

static void n_cgctl_bw_era_has(void)
{
	NOPTR();
}

static void n_cgctl_bw_era_since(void)
{
	NOPTR();
}

static void n_cgctl_bw_era_what(void)
{
	NOPTR();
}

static void n_cgctl_cpu_settings_read(void)
{
	WANT_EINVAL(cgctl_cpu_settings_read(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cpu_settings_read(NULL, mem, "/", (void *)scratch));
	WANT_EINVAL(cgctl_cpu_settings_read(ctx, NULL, "/", (void *)scratch));
	WANT_EINVAL(cgctl_cpu_settings_read(ctx, mem, NULL, (void *)scratch));
	WANT_EINVAL(cgctl_cpu_settings_read(ctx, mem, "/", NULL));
}

static void n_cgctl_bw_tree_read(void)
{
	WANT_EINVAL(cgctl_bw_tree_read(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_bw_tree_read(NULL, mem, "/", (void *)scratch));
	WANT_EINVAL(cgctl_bw_tree_read(ctx, NULL, "/", (void *)scratch));
	/* lib/predict/settings-read.c (executor's, issue 33): -ENOENT, not -EINVAL */
	WANT_FAIL(cgctl_bw_tree_read(ctx, mem, NULL, (void *)scratch));
	WANT_EINVAL(cgctl_bw_tree_read(ctx, mem, "/", NULL));
}

static void n_cgctl_bw_tree_free(void)
{
	NOCRASH(cgctl_bw_tree_free(NULL));
}

static void n_cgctl_mem_settings_read(void)
{
	WANT_EINVAL(cgctl_mem_settings_read(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_mem_settings_read(NULL, mem, "/", (void *)scratch));
	WANT_EINVAL(cgctl_mem_settings_read(ctx, NULL, "/", (void *)scratch));
	WANT_EINVAL(cgctl_mem_settings_read(ctx, mem, NULL, (void *)scratch));
	WANT_EINVAL(cgctl_mem_settings_read(ctx, mem, "/", NULL));
}

static void n_cgctl_plan_new(void)
{
	WANT_EINVAL(cgctl_plan_new(NULL, NULL));
	WANT_EINVAL(cgctl_plan_new(ctx, NULL));
	WANT_EINVAL(cgctl_plan_new(NULL, (void *)scratch));
}

static void n_cgctl_plan_free(void)
{
	NOCRASH(cgctl_plan_free(NULL));
}

static struct cgctl_plan *plan_of_ctx(void)
{
	struct cgctl_plan *p = NULL;

	if (cgctl_plan_new(ctx, &p) < 0)
		exit(99);
	return p;
}

static void n_cgctl_plan_add(void)
{
	struct cgctl_plan *p = plan_of_ctx();

	WANT_EINVAL(cgctl_plan_add(NULL, NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_plan_add(NULL, mem, "/", "memory.limit_in_bytes", "1"));
	WANT_EINVAL(cgctl_plan_add(p, NULL, "/", "memory.limit_in_bytes", "1"));
	WANT_EINVAL(cgctl_plan_add(p, mem, NULL, "memory.limit_in_bytes", "1"));
	WANT_EINVAL(cgctl_plan_add(p, mem, "/", NULL, "1"));
	WANT_EINVAL(cgctl_plan_add(p, mem, "/", "memory.limit_in_bytes", NULL));
	cgctl_plan_free(p);
}

static void n_cgctl_plan_add_bw(void)
{
	struct cgctl_plan *p = plan_of_ctx();

	WANT_EINVAL(cgctl_plan_add_bw(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_plan_add_bw(NULL, mem, "/", (void *)scratch));
	WANT_EINVAL(cgctl_plan_add_bw(p, NULL, "/", (void *)scratch));
	WANT_EINVAL(cgctl_plan_add_bw(p, mem, NULL, (void *)scratch));
	WANT_EINVAL(cgctl_plan_add_bw(p, mem, "/", NULL));
	cgctl_plan_free(p);
}

static void n_cgctl_plan_add_mem(void)
{
	struct cgctl_plan *p = plan_of_ctx();

	WANT_EINVAL(cgctl_plan_add_mem(NULL, NULL, NULL, NULL, 0));
	WANT_EINVAL(cgctl_plan_add_mem(NULL, mem, "/", (void *)scratch, 0));
	WANT_EINVAL(cgctl_plan_add_mem(p, NULL, "/", (void *)scratch, 0));
	WANT_EINVAL(cgctl_plan_add_mem(p, mem, NULL, (void *)scratch, 0));
	WANT_EINVAL(cgctl_plan_add_mem(p, mem, "/", NULL, 0));
	cgctl_plan_free(p);
}

static void n_cgctl_plan_check(void)
{
	WANT_EINVAL(cgctl_plan_check(NULL, NULL));
	WANT_EINVAL(cgctl_plan_check(NULL, &err));
}

static void n_cgctl_plan_apply(void)
{
	WANT_EINVAL(cgctl_plan_apply(NULL, NULL));
	WANT_EINVAL(cgctl_plan_apply(NULL, &err));
}

static void n_cgctl_plan_step(void)
{
	WANT_EINVAL(cgctl_plan_step(NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_plan_step(NULL, 0, &mp, (void *)scratch, (void *)scratch,
				    (void *)scratch, (void *)scratch, &u32));
}

static void n_cgctl_plan_failed(void)
{
	NOCRASH(cgctl_plan_failed(NULL));
}

static void n_cgctl_plan_rolled_back(void)
{
	NOCRASH(cgctl_plan_rolled_back(NULL));
}

static void n_cgctl_plan_refused(void)
{
	NOCRASH(cgctl_plan_refused(NULL));
}

static void n_cgctl_bw_trace_info(void)
{
	WANT_EINVAL(cgctl_bw_trace_info(NULL, NULL));
}

static void n_cgctl_bw_trace_get(void)
{
	NOCRASH(cgctl_bw_trace_get(NULL, CGCTL_BW_TRACE_THREADS));
}

static void n_cgctl_bw_demand_new(void)
{
	WANT_EINVAL(cgctl_bw_demand_new(NULL, 0));
}

static void n_cgctl_bw_demand_free(void)
{
	NOCRASH(cgctl_bw_demand_free(NULL));
}

static void n_cgctl_bw_demand_add(void)
{
	WANT_EINVAL(cgctl_bw_demand_add(NULL, NULL, 0));
}

static void n_cgctl_bw_demand_known(void)
{
	WANT_EINVAL(cgctl_bw_demand_known(NULL, 0, 0));
}

static void n_cgctl_bw_demand_throttled(void)
{
	WANT_EINVAL(cgctl_bw_demand_throttled(NULL, 0, 0));
}

static void n_cgctl_bw_demand_trace(void)
{
	WANT_EINVAL(cgctl_bw_demand_trace(NULL, NULL, NULL, NULL));
}

static void n_cgctl_bw_record(void)
{
	WANT_EINVAL(cgctl_bw_record(NULL, NULL, NULL, NULL));
}

static void n_cgctl_bw_record_result_free(void)
{
	NOCRASH(cgctl_bw_record_result_free(NULL));
}

static void n_cgctl_bw_replay_run(void)
{
	WANT_EINVAL(cgctl_bw_replay_run(NULL, NULL, NULL, NULL, NULL));
}

static void n_cgctl_bw_recommend(void)
{
	WANT_EINVAL(cgctl_bw_recommend(NULL, NULL, NULL, NULL));
}

static void n_cgctl_bw_recommend_runs(void)
{
	WANT_EINVAL(cgctl_bw_recommend_runs(NULL, 0, NULL, 0, NULL, NULL, NULL));
}

static void n_cgctl_move_throttle_limits(void)
{
	WANT_EINVAL(cgctl_move_throttle_limits(NULL, NULL, NULL, 0, NULL, NULL));
}

static void n_cgctl_move_throttle_limits_into(void)
{
	WANT_EINVAL(cgctl_move_throttle_limits_into(NULL, NULL, NULL, 0, NULL, NULL));
}

static void n_cgctl_move_throttle_free(void)
{
	NOCRASH(cgctl_move_throttle_free(NULL));
}

static void n_cgctl_move_throttle_get(void)
{
	WANT_EINVAL(cgctl_move_throttle_get(NULL, NULL, NULL));
	WANT_EINVAL(cgctl_move_throttle_get(NULL, "limited", &u64));
}

static void n_cgctl_move_throttle_cpus(void)
{
	double d;

	WANT_EINVAL(cgctl_move_throttle_cpus(NULL, NULL, NULL));
	WANT_EINVAL(cgctl_move_throttle_cpus(NULL, "limit_cpus", &d));
}

static void n_cgctl_move_throttle_str(void)
{
	NOCRASH(cgctl_move_throttle_str(NULL, NULL));
	NOCRASH(cgctl_move_throttle_str(NULL, "path"));
}

static void n_cgctl_move_throttle_predict(void)
{
	WANT_EINVAL(cgctl_move_throttle_predict(NULL, NULL, NULL, NULL, 0, 0, 0, NULL, NULL));
}

static void n_cgctl_memhigh_era_get(void)
{
	WANT_EINVAL(cgctl_memhigh_era_get(0, NULL));
}

static void n_cgctl_memhigh_overage(void)
{
	NOPTR();
}

static void n_cgctl_memhigh_delay_jiffies(void)
{
	NOPTR();
}

static void n_cgctl_memhigh_penalty_jiffies(void)
{
	NOPTR();
}

static void n_cgctl_memhigh_effective_protection(void)
{
	NOCRASH(cgctl_memhigh_effective_protection(NULL, 0, 0, 0, 0, 0, 0));
}

static void n_cgctl_memhigh_run(void)
{
	WANT_EINVAL(cgctl_memhigh_run(NULL, NULL, NULL));
}

static void n_cgctl_memhigh_run_free(void)
{
	NOCRASH(cgctl_memhigh_run_free(NULL));
}

static void n_cgctl_memhigh_run_group(void)
{
	WANT_EINVAL(cgctl_memhigh_run_group(NULL, 0, NULL));
}

static void n_cgctl_memhigh_run_samples(void)
{
	WANT_EINVAL(cgctl_memhigh_run_samples(NULL, 0, NULL));
}

static void n_cgctl_memstat_read_flags(void)
{
	WANT_EINVAL(cgctl_memstat_read_flags(NULL, NULL, NULL, 0, NULL));
	WANT_EINVAL(cgctl_memstat_read_flags(NULL, mem, "/", 0, (void *)scratch));
	WANT_EINVAL(cgctl_memstat_read_flags(ctx, NULL, "/", 0, (void *)scratch));
	WANT_EINVAL(cgctl_memstat_read_flags(ctx, mem, NULL, 0, (void *)scratch));
	WANT_EINVAL(cgctl_memstat_read_flags(ctx, mem, "/", 0, NULL));
}

static void n_cgctl_cpubw_read_flags(void)
{
	WANT_EINVAL(cgctl_cpubw_read_flags(NULL, NULL, NULL, NULL, NULL, 0, NULL));
	WANT_EINVAL(cgctl_cpubw_read_flags(NULL, mem, "/", mem, "/", 0, (void *)scratch));
	WANT_EINVAL(cgctl_cpubw_read_flags(ctx, NULL, "/", mem, "/", 0, (void *)scratch));
	WANT_EINVAL(cgctl_cpubw_read_flags(ctx, mem, NULL, mem, "/", 0, (void *)scratch));
	ALLOWED(cgctl_cpubw_read_flags(ctx, mem, "/", NULL, "/", 0, (void *)scratch));
	ALLOWED(cgctl_cpubw_read_flags(ctx, mem, "/", mem, NULL, 0, (void *)scratch));
	WANT_EINVAL(cgctl_cpubw_read_flags(ctx, mem, "/", mem, "/", 0, NULL));
}

static void n_cgctl_stat_read_many(void)
{
	WANT_EINVAL(cgctl_stat_read_many(NULL, NULL, 0, NULL, NULL, 0, NULL, 0));
}

static void n_cgctl_task_states(void)
{
	WANT_EINVAL(cgctl_task_states(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_task_states(NULL, mem, "/", (void *)scratch));
	WANT_EINVAL(cgctl_task_states(ctx, NULL, "/", (void *)scratch));
	WANT_EINVAL(cgctl_task_states(ctx, mem, NULL, (void *)scratch));
	WANT_EINVAL(cgctl_task_states(ctx, mem, "/", NULL));
}

static void n_cgctl_kver_of(void)
{
	NOCRASH(cgctl_kver_of(NULL));
}

/* struct cgctl_cgroup (internal until cgctl calls it, lib/libcgctl-private.h) */
static void n_cgctl_cgroup_new(void)
{
	struct cgctl_cgroup *cg;

	WANT_EINVAL(cgctl_cgroup_new(NULL, NULL, NULL, NULL));
	WANT_EINVAL(cgctl_cgroup_new(NULL, "memory", "/", &cg));
	WANT_EINVAL(cgctl_cgroup_new(ctx, "memory", NULL, &cg));
	WANT_EINVAL(cgctl_cgroup_new(ctx, "memory", "/", NULL));
	ALLOWED(cgctl_cgroup_new(ctx, NULL, "/", &cg));	/* the cgroup2 mount */
}

static void n_cgctl_cgroup_ref(void)
{
	NOCRASH(cgctl_cgroup_ref(NULL));
}

static void n_cgctl_cgroup_unref(void)
{
	NOCRASH(cgctl_cgroup_unref(NULL));
}

static void n_cgctl_cgroup_get(void)
{
	struct cgctl_cgroup *cg = NULL;

	WANT_EINVAL(cgctl_cgroup_get(NULL, CGCTL_KNOB_MEM_LIMIT, NULL));
	WANT_EINVAL(cgctl_cgroup_get(NULL, CGCTL_KNOB_MEM_LIMIT, &u64));
	if (cgctl_cgroup_new(ctx, "memory", "/", &cg) == 0)
		WANT_EINVAL(cgctl_cgroup_get(cg, CGCTL_KNOB_MEM_LIMIT, NULL));
	cgctl_cgroup_unref(cg);
}

static void n_cgctl_cgroup_stat_new(void)
{
	struct cgctl_cgroup *cg = NULL;
	struct cgctl_cgroup_stat *st = NULL;

	WANT_EINVAL(cgctl_cgroup_stat_new(NULL, CGCTL_CGSTAT_MEM, NULL));
	WANT_EINVAL(cgctl_cgroup_stat_new(NULL, CGCTL_CGSTAT_MEM, &st));
	if (cgctl_cgroup_new(ctx, "memory", "/", &cg) == 0)
		WANT_EINVAL(cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_MEM, NULL));
	cgctl_cgroup_unref(cg);
}

static void n_cgctl_cgroup_stat_free(void)
{
	NOCRASH(cgctl_cgroup_stat_free(NULL));
}

static void n_cgctl_cgroup_stat_get(void)
{
	struct cgctl_cgroup *cg = NULL;
	struct cgctl_cgroup_stat *st = NULL;

	WANT_EINVAL(cgctl_cgroup_stat_get(NULL, "memory.usage", &u64));
	WANT_EINVAL(cgctl_cgroup_stat_get(NULL, NULL, NULL));
	if (cgctl_cgroup_new(ctx, "memory", "/", &cg) == 0 &&
	    cgctl_cgroup_stat_new(cg, CGCTL_CGSTAT_MEM, &st) == 0) {
		WANT_EINVAL(cgctl_cgroup_stat_get(st, NULL, &u64));
		WANT_EINVAL(cgctl_cgroup_stat_get(st, "memory.usage", NULL));
	}
	cgctl_cgroup_stat_free(st);
	cgctl_cgroup_unref(cg);
}

static void n_cgctl_cgroup_set(void)
{
	WANT_EINVAL(cgctl_cgroup_set(NULL, CGCTL_KNOB_MEM_LIMIT, 0, NULL));
	WANT_EINVAL(cgctl_cgroup_set(NULL, CGCTL_KNOB_MEM_LIMIT, 0, &err));
}

struct ncase {
	const char *name;
	void (*fn)(void);
};
#define C(f) { #f, n_##f }

static void n_cgctl_cgroup_lock(void)
{
	WANT_EINVAL(cgctl_cgroup_lock(NULL, mem, "/"));
	WANT_EINVAL(cgctl_cgroup_lock(ctx, NULL, "/"));
	WANT_EINVAL(cgctl_cgroup_lock(ctx, mem, NULL));
}

static void n_cgctl_cgroup_unlock(void)
{
	WANT_EINVAL(cgctl_cgroup_unlock(NULL, mem, "/"));
	WANT_EINVAL(cgctl_cgroup_unlock(ctx, NULL, "/"));
	WANT_EINVAL(cgctl_cgroup_unlock(ctx, mem, NULL));
}

static void n_cgctl_set_block_signals(void)
{
	WANT_EINVAL(cgctl_set_block_signals(NULL, true));
}

static void n_cgctl_knob_file(void)
{
	NOPTR();
}

static void n_cgctl_move_input_add_cache(void)
{
	struct cgctl_move_input in;
	pid_t pid = 1;

	memset(&in, 0, sizeof(in));
	WANT_EINVAL(cgctl_move_input_add_cache(NULL, &pid, 1, 0, &in));
	WANT_EINVAL(cgctl_move_input_add_cache(ctx, NULL, 1, 0, &in));
	WANT_EINVAL(cgctl_move_input_add_cache(ctx, &pid, 1, 0, NULL));
}

static void n_cgctl_bw_replay(void)
{
	struct cgctl_bw_replay_spec spec;
	struct cgctl_bw_replay_result res;

	memset(&spec, 0, sizeof(spec));
	memset(&res, 0, sizeof(res));
	spec.size = sizeof(spec);
	res.size = sizeof(res);
	WANT_EINVAL(cgctl_bw_replay(NULL, &res, NULL));
	WANT_EINVAL(cgctl_bw_replay(&spec, NULL, NULL));
}

static void n_cgctl_bw_replay_result_free(void)
{
	NOCRASH(cgctl_bw_replay_result_free(NULL));
}

static void n_cgctl_systemd_booted(void)
{
	NOCRASH(cgctl_systemd_booted(NULL));
}

static void n_cgctl_cgroup_unit(void)
{
	struct cgctl_unit u = CGCTL_UNIT_INIT;

	WANT_EINVAL(cgctl_cgroup_unit(NULL, mem, "/", &u));
	WANT_EINVAL(cgctl_cgroup_unit(ctx, NULL, "/", &u));
	WANT_EINVAL(cgctl_cgroup_unit(ctx, mem, NULL, &u));
	WANT_EINVAL(cgctl_cgroup_unit(ctx, mem, "/", NULL));
}

static void n_cgctl_unit_writer(void)
{
	NOCRASH(cgctl_unit_writer(NULL));
}

static void n_cgctl_unit_apply(void)
{
	struct cgctl_unit u = CGCTL_UNIT_INIT;
	struct cgctl_unit_knob k = CGCTL_UNIT_KNOB("cpu.max", "max 100000");

	memset(&u, 0, sizeof(u));
	WANT_EINVAL(cgctl_unit_apply(NULL, mem, &u, &k, 1, 0, NULL));
	WANT_EINVAL(cgctl_unit_apply(ctx, NULL, &u, &k, 1, 0, NULL));
	WANT_EINVAL(cgctl_unit_apply(ctx, mem, NULL, &k, 1, 0, NULL));
	WANT_EINVAL(cgctl_unit_apply(ctx, mem, &u, NULL, 1, 0, NULL));
}

static const struct ncase cases[] = {
	C(cgctl_systemd_booted),
	C(cgctl_cgroup_unit),
	C(cgctl_unit_writer),
	C(cgctl_unit_apply),
	C(cgctl_cgroup_lock),
	C(cgctl_cgroup_unlock),
	C(cgctl_set_block_signals),
	C(cgctl_knob_file),
	C(cgctl_move_input_add_cache),
	C(cgctl_bw_replay),
	C(cgctl_bw_replay_result_free),
	C(cgctl_new),
	C(cgctl_ref),
	C(cgctl_unref),
	C(cgctl_get_root),
	C(cgctl_set_log_fn),
	C(cgctl_get_log_priority),
	C(cgctl_set_log_priority),
	C(cgctl_kver_parse),
	C(cgctl_kver_running),
	C(cgctl_parse_size),
	C(cgctl_parse_duration),
	C(cgctl_format_size),
	C(cgctl_format_duration),
	C(cgctl_errno_to_exit),
	C(cgctl_mounts),
	C(cgctl_mount_find),
	C(cgctl_mount_has),
	C(cgctl_path_normalize),
	C(cgctl_cg_open),
	C(cgctl_cg_exists),
	C(cgctl_cg_read),
	C(cgctl_cg_read_u64),
	C(cgctl_cg_write),
	C(cgctl_cg_create),
	C(cgctl_cg_remove),
	C(cgctl_cg_pids),
	C(cgctl_cg_children),
	C(cgctl_strv_free),
	C(cgctl_cg_attach),
	C(cgctl_pid_cgroup),
	C(cgctl_cg_ino),
	C(cgctl_open_sys),
	C(cgctl_read_sys),
	C(cgctl_memstat_read),
	C(cgctl_cpubw_read),
	C(cgctl_psi_parse),
	C(cgctl_psi_read),
	C(cgctl_mem_event_name),
	C(cgctl_mem_events_parse),
	C(cgctl_mem_events_read),
	C(cgctl_mem_stat_flush),
	C(cgctl_lru_gen_read),
	C(cgctl_parse_mountinfo),
	C(cgctl_parse_proc_cgroup),
	C(cgctl_parse_keyed),
	C(cgctl_parse_keyed_u64),
	C(cgctl_parse_keyed_s64),
	C(cgctl_parse_u64),
	C(cgctl_parse_cpu_stat),
	C(cgctl_parse_cpuacct_usage),
	C(cgctl_parse_cpuacct_stat),
	C(cgctl_parse_cpu_max),
	C(cgctl_parse_cfs_quota),
	C(cgctl_parse_mem_limit),
	C(cgctl_memcg_era_get),
	C(cgctl_memcg_stock_max_pages),
	C(cgctl_memcg_usage_interval),
	C(cgctl_memcg_limit_pages),
	C(cgctl_memcg_tree_new),
	C(cgctl_memcg_tree_free),
	C(cgctl_memcg_tree_clone),
	C(cgctl_memcg_tree_era),
	C(cgctl_memcg_create),
	C(cgctl_memcg_parent),
	C(cgctl_memcg_subtree_size),
	C(cgctl_memcg_set_use_hierarchy),
	C(cgctl_memcg_set_move_charge),
	C(cgctl_memcg_charge),
	C(cgctl_memcg_uncharge),
	C(cgctl_memcg_swapout),
	C(cgctl_memcg_drain_all),
	C(cgctl_memcg_stock_pages),
	C(cgctl_memcg_set_limit),
	C(cgctl_memcg_get),
	C(cgctl_memcg_seed),
	C(cgctl_memcg_file),
	C(cgctl_memcg_true_interval),
	C(cgctl_move_plan),
	C(cgctl_inventory_scan),
	C(cgctl_inventory_scan_tasks),
	C(cgctl_inventory_free),
	C(cgctl_inventory_group),
	C(cgctl_inventory_get),
	C(cgctl_inventory_task_cgroup),
	C(cgctl_inventory_group_get),
	C(cgctl_inventory_group_path),
	C(cgctl_bw_sim_new),
	C(cgctl_bw_sim_free),
	C(cgctl_bw_sim_add_group),
	C(cgctl_bw_sim_add_thread),
	C(cgctl_bw_sim_write),
	C(cgctl_bw_sim_run),
	C(cgctl_bw_sim_stat),
	C(cgctl_bw_sim_periods),
	C(cgctl_bw_sim_settings),
	C(cgctl_bw_sim_set_silos),
	C(cgctl_bw_sim_silos),
	C(cgctl_bw_sim_set_weight),
	C(cgctl_bw_sim_place),
	C(cgctl_bw_trace_parse),
	C(cgctl_bw_trace_free),
	C(cgctl_bw_check),
	C(cgctl_bw_write_plan),
	C(cgctl_rss_backport_kver),
	C(cgctl_rss_source),
	C(cgctl_rss_bound),
	C(cgctl_rss_read_cost),
	C(cgctl_rss_fault),
	C(cgctl_pcp_predict),
	C(cgctl_pcp_check),
	C(cgctl_zoneinfo_free),
	C(cgctl_zoneinfo_parse),
	C(cgctl_zoneinfo_read),
	C(cgctl_zone_to_pcp),
	C(cgctl_online_ncpu),
	C(cgctl_node_ncpu),
	C(cgctl_pcp_fraction_read),
	C(cgctl_procrss_parse_status),
	C(cgctl_procrss_parse_smaps_rollup),
	C(cgctl_procrss_parse_statm),
	C(cgctl_procrss_parse_stat),
	C(cgctl_procrss_read),
	C(cgctl_procev_open),
	C(cgctl_procev_fd),
	C(cgctl_procev_read),
	C(cgctl_procev_close),
	C(cgctl_taskstats_get),
	C(cgctl_delayacct_enabled),
	C(cgctl_cgroupstats_get),
	C(cgctl_move_new),
	C(cgctl_move_free),
	C(cgctl_move_pid_get),
	C(cgctl_move_tree),
	C(cgctl_move_tree_v),
	C(cgctl_mem_counters_read),
	C(cgctl_mem_subtree_size),
	C(cgctl_mem_model_init),
	C(cgctl_mem_model_new),
	C(cgctl_mem_model_fini),
	C(cgctl_mem_model_node),
	C(cgctl_mem_model_free),
	C(cgctl_move_counts_add),
	C(cgctl_move_input_from_inventory),
	C(cgctl_move_expect_input),
	C(cgctl_move_expect_inventory),
	C(cgctl_move_expect_tasks),
	C(cgctl_move_expect_tasks_into),
	C(cgctl_move_expect_get),
	C(cgctl_move_expect_note),
	C(cgctl_move_tolerance_bytes),
	C(cgctl_memcg_moves_charges),
	C(cgctl_move_task_kind),
	C(cgctl_move_tree_members),
	C(cgctl_move_tree_elsewhere),
	C(cgctl_move_dest_open),
	C(cgctl_move_dest_attach),
	C(cgctl_move_dest_close),
	C(cgctl_move_pids),
	C(cgctl_move_pids_v),
	C(cgctl_move_pids_free),
	C(cgctl_bw_era_has),
	C(cgctl_bw_era_since),
	C(cgctl_bw_era_what),
	C(cgctl_cpu_settings_read),
	C(cgctl_bw_tree_read),
	C(cgctl_bw_tree_free),
	C(cgctl_mem_settings_read),
	C(cgctl_plan_new),
	C(cgctl_plan_free),
	C(cgctl_plan_add),
	C(cgctl_plan_add_bw),
	C(cgctl_plan_add_mem),
	C(cgctl_plan_check),
	C(cgctl_plan_apply),
	C(cgctl_plan_step),
	C(cgctl_plan_failed),
	C(cgctl_plan_rolled_back),
	C(cgctl_plan_refused),
	C(cgctl_bw_trace_info),
	C(cgctl_bw_trace_get),
	C(cgctl_bw_demand_new),
	C(cgctl_bw_demand_free),
	C(cgctl_bw_demand_add),
	C(cgctl_bw_demand_known),
	C(cgctl_bw_demand_throttled),
	C(cgctl_bw_demand_trace),
	C(cgctl_bw_record),
	C(cgctl_bw_record_result_free),
	C(cgctl_bw_replay_run),
	C(cgctl_bw_recommend),
	C(cgctl_bw_recommend_runs),
	C(cgctl_move_throttle_limits),
	C(cgctl_move_throttle_predict),
	C(cgctl_move_throttle_limits_into),
	C(cgctl_move_throttle_free),
	C(cgctl_move_throttle_get),
	C(cgctl_move_throttle_cpus),
	C(cgctl_move_throttle_str),
	C(cgctl_memhigh_era_get),
	C(cgctl_memhigh_overage),
	C(cgctl_memhigh_delay_jiffies),
	C(cgctl_memhigh_penalty_jiffies),
	C(cgctl_memhigh_effective_protection),
	C(cgctl_memhigh_run),
	C(cgctl_memhigh_run_free),
	C(cgctl_memhigh_run_group),
	C(cgctl_memhigh_run_samples),
	C(cgctl_memstat_read_flags),
	C(cgctl_cpubw_read_flags),
	C(cgctl_stat_read_many),
	C(cgctl_task_states),
	C(cgctl_kver_of),
	C(cgctl_cgroup_new),
	C(cgctl_cgroup_ref),
	C(cgctl_cgroup_unref),
	C(cgctl_cgroup_get),
	C(cgctl_cgroup_set),
	C(cgctl_cgroup_stat_new),
	C(cgctl_cgroup_stat_free),
	C(cgctl_cgroup_stat_get),
};

static bool listed(const char *name)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(cases[i].name, name) == 0)
			return true;
	return false;
}

/* every name of lib/libcgctl.sym has a case.  Returns: the number without one, or -1 */
static int check_sym_file(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096], line[256];
	int missing = 0, names = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/lib/libcgctl.sym", top ? top : TOP_SRCDIR);
	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[128];

		if (sscanf(line, " %127[a-z0-9_];", name) != 1 || strncmp(name, "cgctl_", 6))
			continue;
		names++;
		if (!listed(name)) {
			printf("not ok - %s: exported, but no NULL case in %s\n", name, __FILE__);
			missing++;
		}
	}
	fclose(f);
	if (names == 0) {
		fprintf(stderr, "%s lists no export\n", path);
		return -1;
	}
	return missing;
}

static void setup(char **root)
{
	*root = tu_mkdtemp();
	if (!*root || tu_write(*root, "cgctl-mounts", "1 /sys/fs/cgroup/memory memory\n") ||
	    tu_write(*root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "1\n") ||
	    tu_write(*root, "proc/self/status", "Name:\tx\n") ||
	    cgctl_new(&ctx, *root) || cgctl_mount_find(ctx, "memory", &mem)) {
		fprintf(stderr, "cannot set up the fixture root\n");
		exit(99);
	}
}

int main(void)
{
	unsigned int calls = 0, failed = 0;
	int missing;
	char *root;

	setup(&root);
	tally = mmap(NULL, sizeof(*tally), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (tally == MAP_FAILED)
		return 99;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int status;
		pid_t pid;

		memset(tally, 0, sizeof(*tally));
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			return 99;
		if (pid == 0) {
			cases[i].fn();
			fflush(NULL);
			_exit(tally->bad ? 3 : 0);
		}
		if (waitpid(pid, &status, 0) != pid)
			return 99;
		calls += tally->calls;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			printf("ok - %s: %u NULL calls\n", cases[i].name, tally->calls);
			continue;
		}
		failed++;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
			printf("not ok - %s: %u of %u NULL calls without -EINVAL\n",
			       cases[i].name, tally->bad, tally->calls);
		else
			printf("not ok - %s: crashed (%s %d) after %u NULL calls\n",
			       cases[i].name, WIFSIGNALED(status) ? "signal" : "exit",
			       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
			       tally->calls);
	}
	missing = check_sym_file();
	printf("# %zu functions, %u NULL calls, %u failed, %d without a case\n",
	       sizeof(cases) / sizeof(cases[0]), calls, failed, missing);
	cgctl_unref(ctx);
	tu_rmtree(root);
	free(root);
	return failed || missing ? 1 : 0;
}
