/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fixture trees v1/, v2/ and hybrid/ against the parsers: every control file parses
 * with the parser for its name, and the numbers are consistent the way the kernel keeps
 * them (tests/fixtures/README).  A broken fixture or a parser regression fails here.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libcgctl.h"
#include "testutil.h"

#ifndef FIXTURE_DIR
#define FIXTURE_DIR "tests/fixtures"
#endif

static const char *const trees[] = { "v1", "v2", "hybrid" };

static char *fixture_path(const char *tree, const char *rel)
{
	const char *top = getenv("top_srcdir");
	char *p;

	if (top && *top)
		ck_assert_int_ge(asprintf(&p, "%s/tests/fixtures/%s%s", top, tree, rel), 0);
	else
		ck_assert_int_ge(asprintf(&p, "%s/%s%s", FIXTURE_DIR, tree, rel), 0);
	return p;
}

/* Read @rel of @tree; NULL if it does not exist (or is a directory). */
static char *slurp(const char *tree, const char *rel, size_t *len)
{
	char *dir = fixture_path(tree, ""), *s = tu_read(dir, rel[0] == '/' ? rel + 1 : rel);

	free(dir);
	if (s && len)
		*len = strlen(s);
	return s;
}

static uint64_t read_u64(const char *tree, const char *rel)
{
	size_t len;
	char *s = slurp(tree, rel, &len);
	uint64_t v = 0;

	ck_assert_msg(s, "%s%s missing", tree, rel);
	ck_assert_msg(cgctl_parse_u64(s, len, &v) == 0, "%s%s: not a number", tree, rel);
	free(s);
	return v;
}

/* ---- per-file checks by name ---- */

static const char *const u64_files[] = {
	"memory.usage_in_bytes", "memory.max_usage_in_bytes", "memory.failcnt",
	"memory.memsw.usage_in_bytes", "memory.kmem.usage_in_bytes", "memory.swappiness",
	"memory.current", "memory.peak", "memory.swap.current", "cpuacct.usage",
	"cpuacct.usage_user", "cpuacct.usage_sys", "cpu.shares", "cpu.cfs_period_us",
	"cpu.cfs_burst_us", "cpu.max.burst", "cpu.weight", "pids.current",
	"memory.move_charge_at_immigrate", "memory.use_hierarchy",
};
static const char *const limit_files[] = {
	"memory.limit_in_bytes", "memory.soft_limit_in_bytes", "memory.memsw.limit_in_bytes",
	"memory.kmem.limit_in_bytes", "memory.kmem.tcp.limit_in_bytes", "memory.max",
	"memory.high", "memory.low", "memory.min", "memory.swap.max", "memory.swap.high",
};
static const char *const keyed_files[] = {
	"memory.events", "memory.events.local", "memory.swap.events", "memory.oom_control",
	"cgroup.stat", "cgroup.events", "cpuacct.stat", "cpu.stat.local", "pids.events",
};

static bool in(const char *name, const char *const *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, set[i]))
			return true;
	return false;
}
#define IN(name, set) in(name, set, sizeof(set) / sizeof(set[0]))

struct tally {
	int files, parsed;
};

static int count_kv(const struct cgctl_kv *kv, void *data)
{
	(void)data;
	return kv->has_u ? 0 : -EDOM;	/* every fixture value is a u64 */
}

static void check_file(const char *path, const char *name, int version, struct tally *t)
{
	char *dir = strdup(path), *slash = strrchr(dir, '/'), *buf;
	uint64_t a, b;
	size_t len;
	int r = 0;
	struct cgctl_cpu_stat st = { 0 };

	*slash = '\0';
	buf = tu_read(dir, name);
	free(dir);
	ck_assert_msg(buf, "%s unreadable", path);
	len = strlen(buf);
	t->files++;
	if (IN(name, u64_files))
		r = cgctl_parse_u64(buf, len, &a);
	else if (IN(name, limit_files))
		r = cgctl_parse_mem_limit(buf, len, &a);
	else if (IN(name, keyed_files))
		r = cgctl_parse_keyed(buf, len, count_kv, NULL) > 0 ? 0 : -EINVAL;
	else if (!strcmp(name, "cpu.cfs_quota_us"))
		r = cgctl_parse_cfs_quota(buf, len, &a);
	else if (!strcmp(name, "cpu.max")) {
		r = cgctl_parse_cpu_max(buf, len, &a, &b);
		if (r == 0 && b < 1000)
			r = -ERANGE;	/* the kernel's minimum period is 1 ms */
	} else if (!strcmp(name, "memory.stat")) {
		r = cgctl_parse_keyed(buf, len, count_kv, NULL) > 20 ? 0 : -EINVAL;
	} else if (!strcmp(name, "cpu.stat")) {
		r = cgctl_parse_cpu_stat(buf, len, version, &st);
		/* v1 cpu.stat is all bandwidth; v2 always has the usage lines */
		if (r == 0 && !(st.present & (version == 1 ? CGCTL_CPU_STAT_NR_PERIODS :
							 CGCTL_CPU_STAT_USAGE)))
			r = -ENOENT;
	} else
		t->parsed--;	/* not a file we have a parser for */
	t->parsed++;
	ck_assert_msg(r == 0, "%s: %d", path, r);
	free(buf);
}

/* Walk a hierarchy directory (not following symlinks). */
static void walk(const char *dir, int version, struct tally *t)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	ck_assert_msg(d, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		char *p;
		struct stat s;

		if (de->d_name[0] == '.')
			continue;
		ck_assert_int_ge(asprintf(&p, "%s/%s", dir, de->d_name), 0);
		ck_assert_int_eq(lstat(p, &s), 0);
		if (S_ISDIR(s.st_mode) && !strchr(de->d_name, '.'))
			walk(p, version, t);		/* a child cgroup */
		else if (S_ISREG(s.st_mode))
			check_file(p, de->d_name, version, t);
		free(p);
	}
	closedir(d);
}

/* The mount map of @tree: fills paths/versions/controllers.  Returns: the count. */
struct mnt {
	int version;
	char path[128], ctrls[128];
};

static int read_mounts(const char *tree, struct mnt *m, int max)
{
	char *s = slurp(tree, "/cgctl-mounts", NULL), *save = NULL, *line;
	int n = 0;

	ck_assert_msg(s, "%s/cgctl-mounts missing", tree);
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		ck_assert_int_lt(n, max);
		ck_assert_int_eq(sscanf(line, "%d %127s %127s", &m[n].version, m[n].path,
					m[n].ctrls), 3);
		if (!strcmp(m[n].ctrls, "-"))
			m[n].ctrls[0] = '\0';
		n++;
	}
	free(s);
	return n;
}

START_TEST(every_file_parses)
{
	const char *tree = trees[_i];
	struct mnt m[8];
	int n = read_mounts(tree, m, 8);
	struct tally t = { 0, 0 };

	ck_assert_int_gt(n, 0);
	for (int i = 0; i < n; i++) {
		char *dir = fixture_path(tree, m[i].path);

		walk(dir, m[i].version, &t);
		free(dir);
	}
	ck_assert_int_gt(t.files, 50);
	ck_assert_int_gt(t.parsed, 30);
}
END_TEST

/* ---- consistency ---- */

static const char *const cgroups[] = { "/01", "/01/02", "/a", "/a/b" };

static char *cgfile(const char *mount, const char *cg, const char *file)
{
	char *p;

	ck_assert_int_ge(asprintf(&p, "%s%s/%s", mount, strcmp(cg, "/") ? cg : "", file), 0);
	return p;
}

static uint64_t cg_u64(const char *tree, const char *mount, const char *cg, const char *f)
{
	char *p = cgfile(mount, cg, f);
	uint64_t v = read_u64(tree, p);

	free(p);
	return v;
}

static uint64_t cg_keyed(const char *tree, const char *mount, const char *cg,
			 const char *f, const char *key)
{
	char *p = cgfile(mount, cg, f);
	size_t len;
	char *s = slurp(tree, p, &len);
	uint64_t v = 0;

	ck_assert_msg(s, "%s%s missing", tree, p);
	ck_assert_msg(cgctl_parse_keyed_u64(s, len, key, &v) == 0, "%s%s: no %s", tree, p, key);
	free(s);
	free(p);
	return v;
}

START_TEST(v1_memory_consistent)
{
	const char *tree = _i ? "hybrid" : "v1", *mem = "/sys/fs/cgroup/memory";

	/* a parent's usage covers its children; totals cover the local stats */
	ck_assert_uint_ge(cg_u64(tree, mem, "/a", "memory.usage_in_bytes"),
			  cg_u64(tree, mem, "/a/b", "memory.usage_in_bytes"));
	ck_assert_uint_ge(cg_u64(tree, mem, "/", "memory.usage_in_bytes"),
			  cg_u64(tree, mem, "/a", "memory.usage_in_bytes") +
			  cg_u64(tree, mem, "/01", "memory.usage_in_bytes"));
	for (size_t i = 0; i < sizeof(cgroups) / sizeof(cgroups[0]); i++) {
		const char *cg = cgroups[i];
		uint64_t usage = cg_u64(tree, mem, cg, "memory.usage_in_bytes");
		uint64_t total = cg_keyed(tree, mem, cg, "memory.stat", "total_rss") +
				 cg_keyed(tree, mem, cg, "memory.stat", "total_cache");
		char *lp = cgfile(mem, cg, "memory.limit_in_bytes");
		char *ls = slurp(tree, lp, NULL);
		uint64_t lim = 0, hier = cg_keyed(tree, mem, cg, "memory.stat",
						 "hierarchical_memory_limit");

		ck_assert_uint_eq(usage, total);
		ck_assert_uint_ge(cg_keyed(tree, mem, cg, "memory.stat", "total_rss"),
				  cg_keyed(tree, mem, cg, "memory.stat", "rss"));
		ck_assert_uint_le(usage, cg_u64(tree, mem, cg, "memory.max_usage_in_bytes"));
		ck_assert_int_eq(cgctl_parse_mem_limit(ls, strlen(ls), &lim), 0);
		/* hierarchical limit: the smallest on the path, v1 unlimited spelled out */
		ck_assert(hier <= lim || (lim == UINT64_MAX && hier == 9223372036854771712ull));
		free(ls);
		free(lp);
	}
}
END_TEST

START_TEST(cpuacct_consistent)
{
	const char *tree = _i ? "hybrid" : "v1";
	const char *acct = _i ? "/sys/fs/cgroup/cpu,cpuacct" : "/sys/fs/cgroup/cpuacct";

	for (size_t i = 0; i < sizeof(cgroups) / sizeof(cgroups[0]); i++) {
		const char *cg = cgroups[i];
		struct cgctl_cpu_stat st = { 0 };
		char *p = cgfile(acct, cg, "cpuacct.usage_percpu"), *s = slurp(tree, p, NULL);
		char *q = cgfile(acct, cg, "cpuacct.stat"), *qs = slurp(tree, q, NULL);
		unsigned long long c0 = 0, c1 = 0;
		uint64_t usage = cg_u64(tree, acct, cg, "cpuacct.usage");

		ck_assert_int_eq(sscanf(s, "%llu %llu", &c0, &c1), 2);
		ck_assert_uint_eq(usage, c0 + c1);
		ck_assert_uint_eq(usage, cg_u64(tree, acct, cg, "cpuacct.usage_user") +
					 cg_u64(tree, acct, cg, "cpuacct.usage_sys"));
		ck_assert_int_eq(cgctl_parse_cpuacct_stat(qs, strlen(qs), 100, &st), 0);
		/* USER_HZ rounds down: within one tick per field */
		ck_assert_uint_le(st.user_ns + st.system_ns, usage);
		ck_assert_uint_ge(st.user_ns + st.system_ns + 20000000, usage);
		free(s);
		free(p);
		free(qs);
		free(q);
	}
}
END_TEST

/* A cgroup's CPU time fits in what its quota allowed over nr_periods (+ burst). */
START_TEST(v2_cpu_consistent)
{
	const char *mnt = "/sys/fs/cgroup";

	for (size_t i = 0; i < sizeof(cgroups) / sizeof(cgroups[0]); i++) {
		const char *cg = cgroups[i];
		char *p = cgfile(mnt, cg, "cpu.stat"), *s = slurp("v2", p, NULL);
		char *mp = cgfile(mnt, cg, "cpu.max"), *ms = slurp("v2", mp, NULL);
		struct cgctl_cpu_stat st = { 0 };
		uint64_t quota, period;

		ck_assert_int_eq(cgctl_parse_cpu_stat(s, strlen(s), 2, &st), 0);
		ck_assert_uint_eq(st.present, 0xffu);
		ck_assert_uint_eq(st.usage_ns, st.user_ns + st.system_ns);
		ck_assert_int_eq(cgctl_parse_cpu_max(ms, strlen(ms), &quota, &period), 0);
		if (quota != UINT64_MAX)
			ck_assert_uint_le(st.usage_ns, st.nr_periods * quota * 1000 + st.burst_ns);
		ck_assert_uint_le(st.nr_throttled, st.nr_periods);
		free(s);
		free(p);
		free(ms);
		free(mp);
	}
	ck_assert_uint_ge(cg_u64("v2", mnt, "/a", "memory.current"),
			  cg_u64("v2", mnt, "/a/b", "memory.current"));
}
END_TEST

/* Every PID a cgroup lists is in that cgroup according to its proc/PID/cgroup. */
static void check_pids(const char *tree, const struct mnt *m, const char *cg)
{
	char *p = cgfile(m->path, cg, "cgroup.procs"), *s = slurp(tree, p, NULL), *save = NULL;
	const char *ctrl = m->version == 2 ? NULL : m->ctrls[0] ? m->ctrls : "name=systemd";
	char first[128];

	snprintf(first, sizeof(first), "%s", ctrl ? ctrl : "");
	if (strchr(first, ','))
		*strchr(first, ',') = '\0';	/* "cpu,cpuacct": look up "cpu" */
	ck_assert_msg(s, "%s%s missing", tree, p);
	for (char *pid = strtok_r(s, "\n", &save); pid; pid = strtok_r(NULL, "\n", &save)) {
		char rel[64], *pc, *path = NULL;
		size_t len;

		snprintf(rel, sizeof(rel), "/proc/%s/cgroup", pid);
		pc = slurp(tree, rel, &len);
		if (!pc)
			continue;	/* a PID without a proc entry (57, 100) */
		ck_assert_int_eq(cgctl_parse_proc_cgroup(pc, len, ctrl ? first : NULL, &path, NULL),
				 0);
		ck_assert_msg(!strcmp(path, cg), "%s: pid %s in %s, proc says %s", tree, pid, cg,
			      path);
		free(path);
		free(pc);
	}
	free(s);
	free(p);
}

START_TEST(pids_consistent)
{
	const char *tree = trees[_i];
	struct mnt m[8];
	int n = read_mounts(tree, m, 8);
	char *self = slurp(tree, "/proc/self/cgroup", NULL);
	char *s6001 = slurp(tree, "/proc/6001/cgroup", NULL);

	for (int i = 0; i < n; i++) {
		bool small = strstr(m[i].path, "systemd") || strstr(m[i].path, "unified");

		check_pids(tree, &m[i], "/");
		check_pids(tree, &m[i], "/a");
		if (!small)
			for (size_t c = 0; c < sizeof(cgroups) / sizeof(cgroups[0]); c++)
				check_pids(tree, &m[i], cgroups[c]);
	}
	ck_assert_str_eq(self, s6001);
	free(self);
	free(s6001);
}
END_TEST

/* proc/self/mountinfo names the same cgroup mounts as cgctl-mounts. */
struct mi_seen {
	struct mnt *m;
	int n, matched;
};

static int mi_match(const struct cgctl_mountinfo *mi, void *data)
{
	struct mi_seen *w = data;

	for (int i = 0; i < w->n; i++)
		if (!strcmp(w->m[i].path, mi->mount_point) && w->m[i].version == mi->version &&
		    (mi->version == 2 || mi->name || !strcmp(w->m[i].ctrls, mi->controllers))) {
			w->matched++;
			return 0;
		}
	ck_abort_msg("mountinfo mount %s not in cgctl-mounts", mi->mount_point);
	return -EINVAL;
}

START_TEST(mountinfo_matches_map)
{
	const char *tree = trees[_i];
	struct mnt m[8];
	struct mi_seen w = { m, read_mounts(tree, m, 8), 0 };
	size_t len;
	char *s = slurp(tree, "/proc/self/mountinfo", &len);

	ck_assert_int_eq(cgctl_parse_mountinfo(s, len, mi_match, &w), w.n);
	ck_assert_int_eq(w.matched, w.n);
	free(s);
}
END_TEST

/* The escape symlinks are where the README says, and outside/ looks like a cgroup. */
START_TEST(escape_fixtures_present)
{
	char *l1 = fixture_path("v1", "/sys/fs/cgroup/memory/link");
	char *l2 = fixture_path("v2", "/sys/fs/cgroup/esc/memory.max");
	char *o = fixture_path("v2", "/outside");
	struct stat s;

	ck_assert_int_eq(lstat(l1, &s), 0);
	ck_assert(S_ISLNK(s.st_mode));
	ck_assert_int_eq(stat(l1, &s), 0);
	ck_assert(S_ISDIR(s.st_mode));
	ck_assert_int_eq(lstat(l2, &s), 0);
	ck_assert(S_ISLNK(s.st_mode));
	ck_assert_int_eq(stat(l2, &s), 0);
	ck_assert(S_ISREG(s.st_mode));
	ck_assert_uint_eq(read_u64("v2", "/outside/memory.max"), 12345);
	free(l1);
	free(l2);
	free(o);
}
END_TEST

static Suite *fixtures_suite(void)
{
	Suite *s = suite_create("parse-fixtures");
	TCase *tc = tcase_create("fixtures");
	int nt = sizeof(trees) / sizeof(trees[0]);

	tcase_add_loop_test(tc, every_file_parses, 0, nt);
	tcase_add_loop_test(tc, v1_memory_consistent, 0, 2);
	tcase_add_loop_test(tc, cpuacct_consistent, 0, 2);
	tcase_add_test(tc, v2_cpu_consistent);
	tcase_add_loop_test(tc, pids_consistent, 0, nt);
	tcase_add_loop_test(tc, mountinfo_matches_map, 0, nt);
	tcase_add_test(tc, escape_fixtures_present);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_run(fixtures_suite());
}
