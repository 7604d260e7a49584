/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Validation inside a VM: the VM harness (tests/vm/run-vm; $CGCTL_VM_HARNESS; installed
 * as $(libexecdir)/cgctl/run-vm) boots a Debian kernel under qemu, packs the cgctl the
 * caller names, runs `cgctl validate --json` in the guest and hands back its stdout and a
 * status file (harness=ok|unavailable|..., reason=...).  The guest's report is parsed
 * and given the target "vm:CONFIG" and the scenarios' summaries (the guest runs the
 * same scenarios as this library).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "validate/validate.h"

/* 6.12-systemd: Debian 12 with systemd as PID 1 (cgroup v2), validate run from root's
 * login session (tests/vm/README.md); the harness reports it unavailable without the
 * root scripts/install-deps builds */
static const char *const vm_configs[] = {"6.1-v1", "6.1-v2", "6.12-v2", "6.12-systemd"};

size_t cgctl_validate_vm_configs(const char *const **ret)
{
	if (ret)
		*ret = vm_configs;
	return ARRAY_SIZE(vm_configs);
}

static bool executable(const char *p)
{
	return access(p, X_OK) == 0;
}

/* The harness: $CGCTL_VM_HARNESS, $top_srcdir (make check), the build tree @cgctl was
 * built in (beside it, libtool's .libs/ one level deeper), or the installed copy.  No
 * build path is compiled in: an installed cgctl never runs a build tree's file. */
static int find_harness(const char *cgctl, char *out, size_t len)
{
	static const char *const rel[] = {"/../tests/vm/run-vm", "/../../tests/vm/run-vm"};
	const char *env = secure_getenv("CGCTL_VM_HARNESS");
	char dir[PATH_MAX], *slash;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return executable(out) ? 0 : -ENOENT;
	}
	env = secure_getenv("top_srcdir");
	if (env && *env && (size_t)snprintf(out, len, "%s/tests/vm/run-vm", env) < len &&
	    executable(out))
		return 0;
	if ((size_t)snprintf(dir, sizeof(dir), "%s", cgctl) < sizeof(dir) &&
	    (slash = strrchr(dir, '/'))) {
		*slash = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(rel); i++)
			if ((size_t)snprintf(out, len, "%s%s", dir, rel[i]) < len &&
			    executable(out))
				return 0;
	}
	snprintf(out, len, "%s/cgctl/run-vm", CGCTL_LIBEXECDIR);
	return executable(out) ? 0 : -ENOENT;
}

/* Read the whole of @fd from offset 0.  Returns: a malloc'ed string, NULL (errno). */
static char *slurp(int fd)
{
	struct stat st;
	char *buf;
	ssize_t n;

	if (fstat(fd, &st) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return NULL;
	n = read(fd, buf, (size_t)st.st_size);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Run @argv with stdin /dev/null and stdout @out_fd; wait for it.  When *@cancel is set
 * (a signal handler of the caller's interrupted the wait), the harness is sent SIGTERM
 * (it takes its qemu down) and waited for.  Returns: 0 and its wait status, -EINTR when
 * cancelled, -errno. */
static int spawn_wait(const char *const *argv, int out_fd, volatile int *cancel,
		      int *status)
{
	bool killed = false;

	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (null < 0 || dup2(null, 0) < 0 || dup2(out_fd, 1) < 0)
			_exit(127);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
		if (cancel && *cancel && !killed) {
			kill(pid, SIGTERM);
			killed = true;
		}
	}
	return killed ? -EINTR : 0;
}

/* key=value of the harness's --status file, "" when absent */
static void status_value(const char *st, const char *key, char *out, size_t len)
{
	size_t k = strlen(key);

	out[0] = '\0';
	for (const char *p = st; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, k) == 0 && p[k] == '=') {
			snprintf(out, len, "%.*s", (int)strcspn(p + k + 1, "\n"), p + k + 1);
			return;
		}
	}
}

#define VM_MAX_NAMES 32
#define VM_MAX_ARGS (24 + VM_MAX_NAMES + 1)

/* The options of a sweep for the guest's cgctl: the same cases as on the host, drawn
 * there from the guest's CPUs (cgctl-validate(1)). */
static void sweep_args(const struct cgctl_validate_opts *o, const char **argv, size_t *a,
		       char *nbuf, char *sbuf, char *kbuf, size_t len)
{
	static const char *const kinds[] = { "bw", "mem", "move" };
	size_t k, used = 0;

	if (!o->sweep)
		return;
	snprintf(nbuf, len, "%u", o->sweep);
	snprintf(sbuf, len, "%llu", (unsigned long long)o->seed);
	kbuf[0] = '\0';
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		if (!o->sweep_kinds || (o->sweep_kinds & (1u << k)))
			used += (size_t)snprintf(kbuf + used, len - used, "%s%s",
						 used ? "," : "", kinds[k]);
	argv[(*a)++] = "--sweep";
	argv[(*a)++] = nbuf;
	argv[(*a)++] = "--seed";
	argv[(*a)++] = sbuf;
	argv[(*a)++] = "--kind";
	argv[(*a)++] = kbuf;
}

/* The harness's time limit: its 900 s default, and for a sweep 60 s per run of a case
 * more (a move case under TCG takes ~5 s, a bw case its 1.3 s of work times the
 * emulation's slowdown). */
static unsigned int guest_timeout(const struct cgctl_validate_opts *o)
{
	return 900 + (o->sweep ? 60 * o->sweep * o->runs : 0);
}

static int run_guest(const char *harness, const char *config, const char *cgctl,
		     const struct cgctl_validate_opts *o, const char *const *names,
		     size_t n, char **json, char **st)
{
	char statpath[] = "/tmp/cgctl-validate-vm-XXXXXX", rbuf[16], tbuf[16];
	char nbuf[24], sbuf[24], kbuf[24];
	const char *argv[VM_MAX_ARGS], *wl = o->workload_exe;
	size_t a = 0;
	int out, sfd, status, err;

	out = memfd_create("cgctl-vm-out", MFD_CLOEXEC);
	sfd = mkostemp(statpath, O_CLOEXEC);
	if (out < 0 || sfd < 0) {
		err = -errno;
		goto out;
	}
	snprintf(rbuf, sizeof(rbuf), "%u", o->runs);
	snprintf(tbuf, sizeof(tbuf), "%u", guest_timeout(o));
	const char *head[] = {harness, "--config", config, "--timeout", tbuf, "--cgctl",
			      cgctl, "--status", statpath};
	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		argv[a++] = head[i];
	/* the workload helper the host would run (CGCTL_WORKLOAD_EXE: e.g. one built
	 * without sanitizers); else the harness packs the one beside @cgctl */
	if (!wl)
		wl = secure_getenv("CGCTL_WORKLOAD_EXE");
	if (wl && *wl) {
		argv[a++] = "--workload";
		argv[a++] = wl;
	}
	/* a move case in three pushes half of its pages to swap first (n/a without):
	 * a sweep of move cases gets zram swap in the guest, the size move-swap.sh uses;
	 * nothing else, so the named memhigh scenarios keep their swapless guest */
	if (o->sweep && (!o->sweep_kinds || (o->sweep_kinds & CGCTL_VSWEEP_MOVE))) {
		argv[a++] = "--swap";
		argv[a++] = "128M";
	}
	argv[a++] = "--";
	argv[a++] = "cgctl";
	argv[a++] = "validate";
	argv[a++] = "--json";
	argv[a++] = "--repeat";
	argv[a++] = rbuf;
	sweep_args(o, argv, &a, nbuf, sbuf, kbuf, sizeof(nbuf));
	if (o->perturb && *o->perturb) {
		argv[a++] = "--model-param";
		argv[a++] = o->perturb;
	}
	for (size_t i = 0; i < n; i++)
		argv[a++] = names[i];
	argv[a] = NULL;
	err = spawn_wait(argv, out, o->cancel, &status);
	if (err >= 0) {
		*json = slurp(out);
		*st = slurp(sfd);
		err = *json && *st ? 0 : -ENOMEM;
	}
out:
	if (out >= 0)
		close(out);
	if (sfd >= 0) {
		close(sfd);
		unlink(statpath);
	}
	return err;
}

/* The JSON of an older guest carries no summaries: take them from the scenario table
 * (a sweep case's summary, its drawn parameters, comes from the guest). */
static void add_summaries(struct cgctl_vreport *r)
{
	const struct cgctl_vscenario_info *info;
	size_t n = cgctl_validate_scenarios(&info);

	for (size_t i = 0; i < r->n_scenarios; i++)
		for (size_t j = 0; j < n && !r->scenarios[i].summary[0]; j++)
			if (strcmp(r->scenarios[i].name, info[j].name) == 0)
				snprintf(r->scenarios[i].summary,
					 sizeof(r->scenarios[i].summary), "%s",
					 info[j].summary);
}

/* A sweep's report says what was asked for: a guest that ran something else (an older
 * cgctl without --sweep would have run the named scenarios) is an error. */
static int check_sweep(const struct cgctl_validate_opts *o, const struct cgctl_vreport *r,
		       const char *config, struct cgctl_error *e)
{
	if (r->sweep == o->sweep && (!o->sweep || r->seed == o->seed))
		return 0;
	return cgctl_error_set(e, EIO, "%s: the guest ran %u sweep cases from seed %llu, "
			       "not %u from %llu", config, r->sweep,
			       (unsigned long long)r->seed, o->sweep,
			       (unsigned long long)o->seed);
}

int cgctl_validate_vm(struct cgctl_ctx *ctx, const char *config,
		      const char *cgctl, const char *const *names, size_t n,
		      unsigned int runs, struct cgctl_vreport **ret,
		      struct cgctl_error *e)
{
	struct cgctl_validate_opts o = { .runs = runs };

	return cgctl_validate_vm_run(ctx, config, cgctl, &o, names, n, ret, e);
}

int cgctl_validate_vm_run(struct cgctl_ctx *ctx, const char *config,
			  const char *cgctl, const struct cgctl_validate_opts *o,
			  const char *const *names, size_t n,
			  struct cgctl_vreport **ret, struct cgctl_error *e)
{
	char harness[PATH_MAX], val[160], *json = NULL, *st = NULL;
	struct cgctl_error pe = CGCTL_ERROR_INIT;
	const char *const *cfgs;
	size_t nc = cgctl_validate_vm_configs(&cfgs), i;
	int err;

	if (!ctx || !config || !cgctl || !ret || (!names && n))
		return cgctl_error_set(e, EINVAL, "validate: a NULL argument");
	*ret = NULL;
	if (!o || o->runs == 0 || o->runs > 1000)
		return cgctl_error_set(e, EINVAL, "runs must be 1..1000");
	if (o->sweep && n)
		return cgctl_error_set(e, EINVAL, "a sweep draws its own scenarios: no names");
	if (o->sweep > 10000 || (o->sweep_kinds & ~CGCTL_VSWEEP_ALL))
		return cgctl_error_set(e, EINVAL, "sweep: 1..10000 cases of bw, mem, move");
	for (i = 0; i < nc && strcmp(cfgs[i], config) != 0; i++)
		;
	if (i == nc)
		return cgctl_error_set(e, EINVAL, "%s: not a VM configuration (6.1-v1, "
				       "6.1-v2, 6.12-v2, 6.12-systemd)", config);
	if (n > VM_MAX_NAMES)
		return cgctl_error_set(e, E2BIG, "more than %d scenarios for a VM",
				       VM_MAX_NAMES);
	if (!cgctl || cgctl[0] != '/')
		return cgctl_error_set(e, EINVAL, "the cgctl to pack must be an absolute "
				       "path");
	if (find_harness(cgctl, harness, sizeof(harness)) < 0)
		return cgctl_error_set(e, EOPNOTSUPP, "no VM harness (set "
				       "CGCTL_VM_HARNESS to tests/vm/run-vm)");
	vlog(LOG_INFO, ctx, "%s boots %s", harness, config);
	err = run_guest(harness, config, cgctl, o, names, n, &json, &st);
	if (err == -EINTR) {
		cgctl_error_set(e, EINTR, "%s: interrupted; the VM was stopped", config);
		goto out;
	}
	if (err < 0) {
		cgctl_error_set(e, -err, "%s: VM harness: %s", config, strerror(-err));
		goto out;
	}
	status_value(st, "harness", val, sizeof(val));
	if (strcmp(val, "unavailable") == 0) {
		status_value(st, "reason", val, sizeof(val));
		err = cgctl_error_set(e, EOPNOTSUPP, "%s: %s", config,
				      val[0] ? val : "VM tier unavailable");
	} else if (strcmp(val, "ok") != 0) {
		err = cgctl_error_set(e, EIO, "%s: VM harness: %s", config,
				      val[0] ? val : "failed");
	} else if ((err = cgctl_vreport_parse_json(json, ret, &pe)) < 0) {
		cgctl_error_set(e, -err, "%s: guest report: %s", config, pe.msg);
	} else if ((err = check_sweep(o, *ret, config, e)) < 0) {
		cgctl_vreport_free(*ret);
		*ret = NULL;
	} else {
		snprintf((*ret)->target, sizeof((*ret)->target), "vm:%s", config);
		add_summaries(*ret);
	}
out:
	free(json);
	free(st);
	return err;
}

/* Whether the VM kernel cache ($CGCTL_KERNEL_CACHE, else /var/cache/cgctl/kernels, as
 * tests/vm/run-vm reads it) holds a kernel: an entry other than . and .. */
bool cgctl_validate_vm_kernels_present(void)
{
	const char *dir = getenv("CGCTL_KERNEL_CACHE");
	struct dirent *de;
	bool any = false;
	DIR *d;

	d = opendir(dir && *dir ? dir : "/var/cache/cgctl/kernels");
	if (!d)
		return false;
	while (!any && (de = readdir(d)))
		any = de->d_name[0] != '.';
	closedir(d);
	return any;
}
