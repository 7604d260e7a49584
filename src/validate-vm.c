/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of `cgctl validate`: the host, and VMs (cgctl_validate_vm_run(): the VM
 * harness boots a kernel, packs this very program and runs `cgctl validate --json` in
 * the guest, a sweep with the same cases, seed and kinds); the reports are merged under
 * the targets' names.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "validate-cli.h"

#define TARGETS_USAGE \
	"host, vm:6.1-v1, vm:6.1-v2, vm:6.12-v2, vm:6.12-systemd (comma-separated) or all"

int validate_vm(struct cli *cli, const char *config, const struct cgctl_validate_opts *o,
		const char *const *names, size_t n, struct cgctl_vreport **ret, char *why,
		size_t len)
{
	struct cgctl_error e = CGCTL_ERROR_INIT;
	const char *fn = (const char *)getauxval(AT_EXECFN);
	char exe[PATH_MAX];
	int err;

	/* the guest runs this very program: the file it was started as */
	if (!fn || !realpath(fn, exe))
		return cli_error(cli, config, fn ? -errno : -ENOENT,
				 "cannot name this program");
	cli_progress(cli, "validate: booting %s", config);
	validate_catch_signals(true);
	err = cgctl_validate_vm_run(cli->ctx, config, exe, o, names, n, ret, &e);
	validate_catch_signals(false);
	cli_progress(cli, "%s", "");
	if (err == -EOPNOTSUPP) {
		snprintf(why, len, "%s", e.msg);
		return EXIT_UNSUPP;
	}
	if (err < 0)
		return cli_error(cli, NULL, err, "%s", e.msg[0] ? e.msg : cli_strerror(err));
	return EXIT_OK;
}

static int add_vm(struct cli *cli, const char *config, bool all,
		  const struct cgctl_validate_opts *o, const char *const *names, size_t n,
		  struct cgctl_vreport **r, size_t *nr)
{
	char why[256];
	int rc;

	rc = validate_vm(cli, config, o, names, n, &r[*nr], why, sizeof(why));
	if (rc == EXIT_OK)
		(*nr)++;
	else if (rc == EXIT_UNSUPP && all)
		cli_warn(cli, "skipping vm:%s: %s", config, why);
	else if (rc == EXIT_UNSUPP)
		cli_error(cli, NULL, 0, "%s", why);
	return rc == EXIT_UNSUPP && all ? EXIT_OK : rc;
}

/* One item of --target: 0 for the host, 1 + the index of a VM configuration, -1. */
static int target_index(const char *t, size_t len)
{
	const char *const *vm;
	size_t nvm = cgctl_validate_vm_configs(&vm);

	if (len == 4 && strncmp(t, "host", 4) == 0)
		return 0;
	for (size_t i = 0; len > 3 && strncmp(t, "vm:", 3) == 0 && i < nvm; i++)
		if (strlen(vm[i]) == len - 3 && strncmp(t + 3, vm[i], len - 3) == 0)
			return (int)i + 1;
	return -1;
}

/* "host,vm:6.1-v1" -> the targets' indexes in the order given, each once; checked whole
 * before anything runs.  Returns: EXIT_OK, or the usage error printed. */
static int parse_targets(struct cli *cli, const char *target, int *idx, size_t *n)
{
	const char *p = target;
	size_t len, i;
	int k;

	*n = 0;
	do {
		len = strcspn(p, ",");
		k = target_index(p, len);
		if (k < 0)
			return cli_usage(cli, "--target: '%.*s' is not " TARGETS_USAGE, (int)len,
					 p);
		for (i = 0; i < *n; i++)
			if (idx[i] == k)
				return cli_usage(cli, "--target: '%.*s' given twice", (int)len, p);
		idx[(*n)++] = k;	/* at most 1 + 4 distinct: VALIDATE_MAX_TARGETS */
		p += len;
	} while (*p++ == ',');
	return EXIT_OK;
}

int validate_targets(struct cli *cli, const char *target,
		     const struct cgctl_validate_opts *o, const char *const *names, size_t n,
		     struct cgctl_vreport **r, size_t *nr)
{
	bool all = strcmp(target, "all") == 0;
	const char *const *vm_configs;
	size_t nvm = cgctl_validate_vm_configs(&vm_configs), nt = 0, i;
	int idx[VALIDATE_MAX_TARGETS], rc = EXIT_OK;

	*nr = 0;
	if (all) {
		for (i = 0; i <= nvm && i < VALIDATE_MAX_TARGETS; i++)
			idx[nt++] = (int)i;
	} else if ((rc = parse_targets(cli, target, idx, &nt)) != EXIT_OK) {
		return rc;
	}
	for (i = 0; i < nt && rc == EXIT_OK; i++) {
		struct vstream *vs = o->progress_data;
		size_t before = *nr;

		if (idx[i] == 0) {
			rc = validate_host(cli, o, names, n, &r[*nr]);
			*nr += rc == EXIT_OK;
		} else {
			rc = add_vm(cli, vm_configs[idx[i] - 1], all, o, names, n, r, nr);
		}
		/* the host's tables went out as its scenarios finished; a VM's come at once */
		if (rc == EXIT_OK && *nr > before && vs && vs->tables) {
			if (idx[i] == 0)
				rc = validate_print_target_end(cli, r[before]);
			else
				validate_print_report(cli, r[before]);
			fflush(stdout);
		}
	}
	return rc;
}
