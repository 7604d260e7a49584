/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What `cgctl stat` reads of a cgroup beyond its memory and CPU figures (kstat.c): the
 * states of its tasks, from cgroupstats (v1, live system) or from /proc/TID/stat of each
 * thread it lists, and the few /proc fields it prints of each process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernel/proctree.h"

/* Count the state of each thread listed in @file of @path.  Returns: 0, -errno. */
static int states_from_proc(struct cgctl_ctx *ctx, const struct cgctl_mount *m,
			    const char *path, struct cgctl_cgroupstats *cs)
{
	const char *file = m->version == 2 ? "cgroup.threads" : "tasks";
	char *buf = NULL, *p, *end;
	size_t len;
	int r = cgctl_cg_read(ctx, m, path, file, &buf, &len);

	if (r < 0)
		return r;
	memset(cs, 0, sizeof(*cs));
	for (p = buf;; p = end) {
		long tid = strtol(p, &end, 10);
		struct cgctl_proc_stat st;

		if (end == p)
			break;
		if (cgctl_proc_stat_read(ctx, (pid_t)tid, &st) < 0)
			continue;	/* exited meanwhile */
		switch (st.state) {
		case 'R': cs->nr_running++; break;
		case 'D': cs->nr_uninterruptible++; break;
		case 'T': case 't': cs->nr_stopped++; break;
		case 'S': case 'I': cs->nr_sleeping++; break;
		default: break;	/* zombies, dead */
		}
	}
	free(buf);
	return 0;
}

int cgctl_task_states(struct cgctl_ctx *ctx, const struct cgctl_mount *m, const char *path,
		      struct cgctl_cgroupstats *cs)
{
	int r;

	if (!ctx || !m || !path || !cs)
		return -EINVAL;
	/*
	 * cgroupstats only before 6.1: kernel/cgroup/cgroup-v1.c cgroupstats_build()
	 * (v6.1 to v6.18) switches on the exact READ_ONCE(tsk->__state), and since the
	 * freezer rewrite of 6.1 (f5d39b020809) sleepers in nanosleep, poll, futex, ...
	 * carry TASK_INTERRUPTIBLE | TASK_FREEZABLE: no case matches, so two `sleep`s
	 * counted 0 sleeping beside the process list showing them (issue 29).
	 */
	if (m->version == 1 && !cgctl_get_root(ctx)[0] &&
	    cgctl_kver_of(ctx) && cgctl_kver_of(ctx) < CGCTL_KVER(6, 1, 0) &&
	    cgctl_cgroupstats_get(ctx, m, path, cs, NULL) == 0)
		return CGCTL_STATES_CGROUPSTATS;
	r = states_from_proc(ctx, m, path, cs);
	return r < 0 ? r : CGCTL_STATES_PROC;
}

CGCTL_EXPORT uint32_t cgctl_kver_of(struct cgctl_ctx *ctx)
{
	char *buf = NULL;
	size_t len;
	uint32_t v = 0;

	if (!ctx)
		return 0;
	/* below a root prefix the fixture's proc/sys/kernel/osrelease names the kernel */
	if (cgctl_read_sys(ctx, "/proc/sys/kernel/osrelease", &buf, &len) == 0) {
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
			buf[--len] = '\0';
		if (cgctl_kver_parse(buf, &v) < 0)
			v = 0;
	}
	free(buf);
	if (!v && !cgctl_get_root(ctx)[0])
		v = cgctl_kver_running();
	return v;
}
