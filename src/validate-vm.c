/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of `cgctl validate`: the host, and VMs booted by the VM engineer's harness
 * (tests/vm/run-vm; $CGCTL_VM_HARNESS; installed as $(libexecdir)/cgctl/run-vm), which
 * packs this very binary, runs `cgctl validate --json` in the guest and hands back its
 * stdout; the guest's report is parsed and merged under the target's name.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "validate-cli.h"

static const char *const vm_configs[] = { "6.1-v1", "6.1-v2", "6.12-v2" };

static bool executable(const char *p)
{
	return access(p, X_OK) == 0;
}

/* The harness: $CGCTL_VM_HARNESS, $top_srcdir (make check), next to the binary (build
 * tree, libtool's .libs/ too), or the installed copy. */
static int find_harness(char *out, size_t len)
{
	static const char *const rel[] = { "/../tests/vm/run-vm", "/../../tests/vm/run-vm" };
	const char *env = getenv("CGCTL_VM_HARNESS");
	char exe[PATH_MAX], *slash;
	ssize_t n;
	size_t i;

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return executable(out) ? 0 : -ENOENT;
	}
	env = getenv("top_srcdir");
	if (env && snprintf(out, len, "%s/tests/vm/run-vm", env) > 0 && executable(out))
		return 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			if (strlen(exe) + strlen(rel[i]) >= len)
				continue;
			strcpy(out, exe);
			strcat(out, rel[i]);
			if (executable(out))
				return 0;
		}
	}
#ifdef CGCTL_ABS_SRCDIR
	/* a build tree outside the source tree */
	snprintf(out, len, "%s/tests/vm/run-vm", CGCTL_ABS_SRCDIR);
	if (executable(out))
		return 0;
#endif
	snprintf(out, len, "%s/cgctl/run-vm", CGCTL_LIBEXECDIR);
	return executable(out) ? 0 : -ENOENT;
}

/* Read the whole of @fd from offset 0. */
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

static int spawn_harness(const char *const *argv, int out_fd, int *status)
{
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
	}
	return 0;
}

/* key=value from the harness's --status file. */
static void status_value(const char *st, const char *key, char *out, size_t len)
{
	const char *p = st;
	size_t k = strlen(key);

	out[0] = '\0';
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, k) == 0 && p[k] == '=') {
			snprintf(out, len, "%.*s", (int)strcspn(p + k + 1, "\n"), p + k + 1);
			return;
		}
	}
}

static int run_guest(struct cli *cli, const char *harness, const char *config,
		     const char *const *names, size_t n, int runs, char **json, char **st)
{
	char exe[PATH_MAX], statpath[] = "/tmp/cgctl-validate-vm-XXXXXX", rbuf[16];
	const char *argv[32 + 16];
	size_t a = 0, i;
	int out, sfd, status, err;
	ssize_t len;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return -errno;
	exe[len] = '\0';
	out = memfd_create("cgctl-vm-out", MFD_CLOEXEC);
	sfd = mkstemp(statpath);
	if (out < 0 || sfd < 0) {
		err = -errno;
		goto out;
	}
	snprintf(rbuf, sizeof(rbuf), "%d", runs);
	const char *head[] = { harness, "--config", config, "--timeout", "900", "--cgctl", exe,
			       "--status", statpath, "--", "cgctl", "validate", "--json", "-r",
			       rbuf };
	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		argv[a++] = head[i];
	for (i = 0; i < n && a < 46; i++)
		argv[a++] = names[i];
	argv[a] = NULL;
	cli_progress(cli, "validate: booting %s", config);
	err = spawn_harness(argv, out, &status);
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

/* The JSON carries no summaries: take them from our own table (same binary). */
static void add_summaries(struct cgctl_vreport *r)
{
	const struct cgctl_vscenario_info *info;
	size_t n = cgctl_validate_scenarios(&info), i, j;

	for (i = 0; i < r->n_scenarios; i++)
		for (j = 0; j < n; j++)
			if (strcmp(r->scenarios[i].name, info[j].name) == 0)
				snprintf(r->scenarios[i].summary, sizeof(r->scenarios[i].summary),
					 "%s", info[j].summary);
}

int validate_vm(struct cli *cli, const char *config, const char *const *names, size_t n,
		int runs, struct cgctl_vreport **ret, char *why, size_t len)
{
	char harness[PATH_MAX], val[160], *json = NULL, *st = NULL;
	struct cgctl_error e = { 0 };
	int err;

	if (find_harness(harness, sizeof(harness)) < 0) {
		snprintf(why, len, "no VM harness (set CGCTL_VM_HARNESS to tests/vm/run-vm)");
		return EXIT_UNSUPP;
	}
	err = run_guest(cli, harness, config, names, n, runs, &json, &st);
	if (err < 0) {
		free(json);
		free(st);
		return cli_error(cli, config, err, NULL);
	}
	status_value(st, "harness", val, sizeof(val));
	if (strcmp(val, "unavailable") == 0) {
		status_value(st, "reason", val, sizeof(val));
		snprintf(why, len, "%s: %s", config, val[0] ? val : "VM tier unavailable");
		err = EXIT_UNSUPP;
	} else if (strcmp(val, "ok") != 0) {
		err = cli_error(cli, config, 0, "VM harness: %s", val[0] ? val : "failed");
	} else if (cgctl_vreport_parse_json(json, ret, &e) < 0) {
		err = cli_error(cli, config, 0, "guest report: %s", e.msg);
	} else {
		snprintf((*ret)->target, sizeof((*ret)->target), "vm:%s", config);
		add_summaries(*ret);
		err = EXIT_OK;
	}
	free(json);
	free(st);
	return err;
}

static int add_vm(struct cli *cli, const char *config, bool all, const char *const *names,
		  size_t n, int runs, struct cgctl_vreport **r, size_t *nr)
{
	char why[256];
	int rc;

	rc = validate_vm(cli, config, names, n, runs, &r[*nr], why, sizeof(why));
	if (rc == EXIT_OK)
		(*nr)++;
	else if (rc == EXIT_UNSUPP && all)
		cli_warn(cli, "skipping vm:%s: %s", config, why);
	else if (rc == EXIT_UNSUPP)
		cli_error(cli, NULL, 0, "%s", why);
	return rc == EXIT_UNSUPP && all ? EXIT_OK : rc;
}

int validate_targets(struct cli *cli, const char *target, const char *const *names,
		     size_t n, int runs, struct cgctl_vreport **r, size_t *nr)
{
	bool all = strcmp(target, "all") == 0;
	size_t i;
	int rc = EXIT_OK;

	*nr = 0;
	if (all || strcmp(target, "host") == 0) {
		rc = validate_host(cli, names, n, &r[0]);
		if (rc != EXIT_OK)
			return rc;
		*nr = 1;
	}
	for (i = 0; i < sizeof(vm_configs) / sizeof(vm_configs[0]) && rc == EXIT_OK; i++) {
		if (all || (strncmp(target, "vm:", 3) == 0 && strcmp(target + 3, vm_configs[i]) == 0))
			rc = add_vm(cli, vm_configs[i], all, names, n, runs, r, nr);
	}
	if (rc == EXIT_OK && *nr == 0 && !all)
		return cli_usage(cli, "--target: host, vm:6.1-v1, vm:6.1-v2, vm:6.12-v2 or all");
	return rc;
}
