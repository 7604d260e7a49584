/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Delegated transient scopes for scratch work on systemd hosts (see systemd-scope.h).
 * The D-Bus calls are systemd's Manager API (org.freedesktop.systemd1(5)): Subscribe,
 * StartTransientUnit and its JobRemoved signal, as systemd-run --scope uses them.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


#include "systemd-scope.h"
#include "util/sdbus.h"

/* systemd's job to start a scope; under TCG a loaded VM takes seconds */
#define JOB_TIMEOUT_USEC (60ULL * 1000000ULL)
#define LEAF "cgctl"

static const char *const mgr_dest = "org.freedesktop.systemd1";
static const char *const mgr_path = "/org/freedesktop/systemd1";
static const char *const mgr_iface = "org.freedesktop.systemd1.Manager";

/* The unified hierarchy when it is the one that carries the controllers. */
static const struct cgctl_mount *unified(struct cli *cli)
{
	static const char *const ctrls[] = { "memory", "cpu", "pids" };
	const struct cgctl_mount *m;

	for (size_t i = 0; i < sizeof(ctrls) / sizeof(ctrls[0]); i++)
		if (cgctl_mount_find(cli->ctx, ctrls[i], &m) == 0)
			return m->version == 2 ? m : NULL;
	return NULL;
}

/*
 * Whether @own of @m is a cgroup systemd manages and has not delegated: the place where
 * cgctl may not make scratch cgroups.  Fills @u.  Returns: 1 yes, 0 no.
 */
static int managed(struct cli *cli, const struct cgctl_mount *m, const char *own,
		   struct cgctl_unit *u)
{
	if (cli->root || !strcmp(own, "/"))
		return 0;
	if (cgctl_cgroup_unit(cli->ctx, m, own, u) != 1)
		return 0;
	return !u->delegated;
}

/* The slice that holds the unit's cgroup: the last component above it, if a slice. */
static void parent_slice(const struct cgctl_unit *u, char *out, size_t len)
{
	const char *end = strrchr(u->cgroup, '/'), *beg;
	size_t n;

	out[0] = '\0';
	if (!end || end == u->cgroup) {
		snprintf(out, len, "-.slice");
		return;
	}
	for (beg = end - 1; beg > u->cgroup && *beg != '/'; beg--)
		;
	beg++;
	n = (size_t)(end - beg);
	if (n > 6 && !memcmp(end - 6, ".slice", 6) && n < len)
		snprintf(out, len, "%.*s", (int)n, beg);
}

struct job_wait {
	const char *path;
	bool done;
	char result[32];
};

static int on_job_removed(sd_bus_message *msg, void *data, sd_bus_error *err)
{
	struct job_wait *w = data;
	const char *path, *unit, *result;
	uint32_t id;

	(void)err;
	if (sym_sd_bus_message_read(msg, "uoss", &id, &path, &unit, &result) < 0)
		return 0;
	if (w->path && !strcmp(path, w->path)) {
		w->done = true;
		snprintf(w->result, sizeof(w->result), "%s", result);
	}
	return 0;
}

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

/*
 * StartTransientUnit(@unit) holding @pid, Delegate=yes, in @slice (empty: systemd's
 * default), and wait for its job.  Returns: 0, -errno with @why.
 */
static int start_scope(const char *unit, const char *slice, pid_t pid, char *why,
		       size_t len)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL, *reply = NULL;
	struct job_wait w = { 0 };
	sd_bus *bus = NULL;
	const char *job;
	uint64_t end;
	int r;

	r = sdbus_open_system(&bus);
	if (r < 0) {
		snprintf(why, len, "cannot connect to systemd's bus: %s", strerror(-r));
		return r;
	}
	r = sym_sd_bus_match_signal(bus, NULL, mgr_dest, mgr_path, mgr_iface, "JobRemoved",
				on_job_removed, &w);
	/* systemd sends job signals on the system bus only while a client subscribed */
	if (r >= 0)
		r = sym_sd_bus_call_method(bus, mgr_dest, mgr_path, mgr_iface, "Subscribe", &err,
				       NULL, "");
	if (r >= 0)
		r = sym_sd_bus_message_new_method_call(bus, &m, mgr_dest, mgr_path, mgr_iface,
						   "StartTransientUnit");
	if (r >= 0)
		r = sym_sd_bus_message_append(m, "ss", unit, "fail");
	if (r >= 0)
		r = sym_sd_bus_message_open_container(m, 'a', "(sv)");
	if (r >= 0)
		r = sym_sd_bus_message_append(m, "(sv)(sv)(sv)(sv)",
					  "Description", "s", "cgctl scratch cgroups (delegated)",
					  "Delegate", "b", 1,
					  "CollectMode", "s", "inactive-or-failed",
					  "PIDs", "au", 1, (uint32_t)pid);
	if (r >= 0 && slice[0])
		r = sym_sd_bus_message_append(m, "(sv)", "Slice", "s", slice);
	if (r >= 0)
		r = sym_sd_bus_message_close_container(m);
	if (r >= 0)
		r = sym_sd_bus_message_append(m, "a(sa(sv))", 0);
	if (r >= 0)
		r = sym_sd_bus_call(bus, m, 0, &err, &reply);
	if (r >= 0)
		r = sym_sd_bus_message_read(reply, "o", &job);
	if (r < 0) {
		snprintf(why, len, "StartTransientUnit %s: %s", unit,
			 err.message ? err.message : strerror(-r));
		goto out;
	}
	w.path = job;
	end = now_usec() + JOB_TIMEOUT_USEC;
	while (!w.done) {
		uint64_t t = now_usec();

		r = sym_sd_bus_process(bus, NULL);
		if (r > 0)
			continue;
		if (r == 0 && t < end)
			r = sym_sd_bus_wait(bus, end - t);
		if (r >= 0 && t >= end)
			r = -ETIMEDOUT;
		if (r < 0) {
			snprintf(why, len, "%s: waiting for systemd's job: %s", unit,
				 strerror(-r));
			goto out;
		}
	}
	if (strcmp(w.result, "done")) {
		r = -EIO;
		snprintf(why, len, "%s: systemd's job ended '%s'", unit, w.result);
	}
out:
	sym_sd_bus_error_free(&err);
	sym_sd_bus_message_unref(reply);
	sym_sd_bus_message_unref(m);
	sym_sd_bus_flush_close_unref(bus);
	return r < 0 ? r : 0;
}

/* "+cpu +memory ..." of @cg's cgroup.controllers, each into its cgroup.subtree_control */
static void enable_all(struct cli *cli, const struct cgctl_mount *m, const char *cg)
{
	char *buf = NULL, *save = NULL, *tok, plus[64];
	size_t n;

	if (cgctl_cg_read(cli->ctx, m, cg, "cgroup.controllers", &buf, &n) < 0)
		return;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		snprintf(plus, sizeof(plus), "+%s", tok);
		(void)cgctl_cg_write(cli->ctx, m, cg, "cgroup.subtree_control", plus);
	}
	free(buf);
}

/* The scope's cgroup: systemd placed @pid in it.  Then @pid into its leaf. */
static int settle_in(struct cli *cli, const struct cgctl_mount *m, pid_t pid,
		     struct sd_scope *s, char *why, size_t len)
{
	char *at = NULL;
	int r = cgctl_pid_cgroup(cli->ctx, pid, m, &at);

	if (r < 0) {
		snprintf(why, len, "the scope's cgroup: %s", strerror(-r));
		return r;
	}
	snprintf(s->cgroup, sizeof(s->cgroup), "%s", at);
	free(at);
	if ((size_t)snprintf(s->leaf, sizeof(s->leaf), "%s/" LEAF, s->cgroup) >=
	    sizeof(s->leaf))
		return -ENAMETOOLONG;
	r = cgctl_cg_create(cli->ctx, m, s->leaf);
	if (r == 0 || r == -EEXIST)
		r = cgctl_cg_attach(cli->ctx, m, s->leaf, pid ? pid : getpid());
	if (r < 0) {
		snprintf(why, len, "%.200s: %s", s->leaf, strerror(-r));
		return r;
	}
	enable_all(cli, m, s->cgroup);
	return 0;
}

int sd_scope_enter(struct cli *cli, const char *what, struct sd_scope *s)
{
	char why[512] = "", slice[256];
	struct cgctl_unit u = CGCTL_UNIT_INIT;
	char *own = NULL;
	int r;

	memset(s, 0, sizeof(*s));
	if (!cgctl_systemd_booted(cli->ctx))
		return EXIT_OK;
	s->m = unified(cli);
	if (!s->m || cgctl_pid_cgroup(cli->ctx, 0, s->m, &own) < 0)
		return EXIT_OK;
	r = managed(cli, s->m, own, &u);
	snprintf(s->home, sizeof(s->home), "%s", own);
	free(own);
	if (r != 1)
		return EXIT_OK;
	parent_slice(&u, slice, sizeof(slice));
	snprintf(s->unit, sizeof(s->unit), "cgctl-%s-%d.scope", what, (int)getpid());
	r = start_scope(s->unit, slice, getpid(), why, sizeof(why));
	if (r == 0)
		r = settle_in(cli, s->m, 0, s, why, sizeof(why));
	if (r < 0) {
		cli_warn(cli, "%s is systemd's (unit %s) and a delegated scope could not be "
			 "started: %s; working there all the same", s->home, u.name, why);
		s->active = s->cgroup[0] != '\0';	/* started: back home, it stops */
		sd_scope_leave(cli, s);
		return EXIT_OK;
	}
	s->active = true;
	if (cli->verbose)
		fprintf(stderr, "cgctl: %s: working below %s (delegated scope %s)\n",
			cli->cmdname, s->cgroup, s->unit);
	return EXIT_OK;
}

void sd_scope_leave(struct cli *cli, struct sd_scope *s)
{
	if (!s->active)
		return;
	/* back where we came from; the scope is then empty and systemd stops it
	 * (CollectMode=inactive-or-failed: then it is gone) */
	if (s->home[0])
		(void)cgctl_cg_attach(cli->ctx, s->m, s->home, getpid());
	if (s->leaf[0])
		(void)cgctl_cg_remove(cli->ctx, s->m, s->leaf, 0, NULL);
	s->active = false;
}

/* The holder of a --self scope: sleeps until the scope is stopped. */
static pid_t holder(void)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	setsid();
	(void)prctl(PR_SET_NAME, "cgctl-self", 0, 0, 0);
	for (int fd = 0; fd < 3; fd++)
		close(fd);
	for (;;)
		pause();
}

/* systemd's scope name for the --self scope of unit @u: "cgctl-self-STEM.scope" */
static int self_name(const struct cgctl_unit *u, char *out, size_t len)
{
	const char *dot = strrchr(u->name, '.');
	size_t n = dot ? (size_t)(dot - u->name) : strlen(u->name);
	size_t w;

	w = (size_t)snprintf(out, len, "cgctl-self-%.*s.scope", (int)n, u->name);
	if (w >= len || w >= 256)
		return -ENAMETOOLONG;
	for (char *p = out; *p; p++)	/* "@" makes an instance name: none here */
		if (*p == '@')
			*p = '_';
	return 0;
}

int sd_scope_self(struct cli *cli, const struct cgctl_mount *m, char *out, size_t len)
{
	char why[512] = "", slice[256], name[256], cg[4096];
	struct sd_scope s = { .m = m };
	struct cgctl_unit u = CGCTL_UNIT_INIT;
	const char *end;
	char *own = NULL;
	pid_t pid;
	int r;

	if (m->version != 2 || !cgctl_systemd_booted(cli->ctx))
		return 0;
	r = cgctl_pid_cgroup(cli->ctx, 0, m, &own);
	if (r < 0)
		return r;
	r = managed(cli, m, own, &u);
	free(own);
	if (r != 1)
		return 0;
	r = self_name(&u, name, sizeof(name));
	if (r < 0)
		return r;
	end = strrchr(u.cgroup, '/');
	if ((size_t)snprintf(cg, sizeof(cg), "%.*s/%s", (int)(end - u.cgroup), u.cgroup,
			     name) >= sizeof(cg))
		return -ENAMETOOLONG;
	if (cgctl_cg_exists(cli->ctx, m, cg) != 1) {
		parent_slice(&u, slice, sizeof(slice));
		pid = holder();
		if (pid < 0)
			return -errno;
		r = start_scope(name, slice, pid, why, sizeof(why));
		if (r == 0)
			r = settle_in(cli, m, pid, &s, why, sizeof(why));
		if (r < 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			cli_warn(cli, "--self: %s: %s", name, why);
			return r;
		}
		snprintf(cg, sizeof(cg), "%s", s.cgroup);
		if (cli->verbose)
			fprintf(stderr, "cgctl: --self: started the delegated scope %s (%s); "
				"`systemctl stop %s` removes it\n", name, cg, name);
	}
	if ((size_t)snprintf(out, len, "%s", cg) >= len)
		return -ENAMETOOLONG;
	return 1;
}
