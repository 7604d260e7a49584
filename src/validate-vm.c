/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets of `cgctl validate`: the host, and VMs (cgctl_validate_vm(): the VM harness
 * boots a kernel, packs this very program and runs `cgctl validate --json` in the
 * guest); the reports are merged under the targets' names.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "validate-cli.h"

int validate_vm(struct cli *cli, const char *config, const char *const *names, size_t n,
		int runs, struct cgctl_vreport **ret, char *why, size_t len)
{
	struct cgctl_error e = {0};
	const char *fn = (const char *)getauxval(AT_EXECFN);
	char exe[PATH_MAX];
	int err;

	/* the guest runs this very program: the file it was started as */
	if (!fn || !realpath(fn, exe))
		return cli_error(cli, config, fn ? -errno : -ENOENT,
				 "cannot name this program");
	cli_progress(cli, "validate: booting %s", config);
	err = cgctl_validate_vm(cli->ctx, config, exe, names, n, (unsigned int)runs, ret, &e);
	if (err == -EOPNOTSUPP) {
		snprintf(why, len, "%s", e.msg);
		return EXIT_UNSUPP;
	}
	if (err < 0)
		return cli_error(cli, NULL, err, "%s", e.msg[0] ? e.msg : cli_strerror(err));
	return EXIT_OK;
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
	const char *const *vm_configs;
	size_t nvm = cgctl_validate_vm_configs(&vm_configs), i;
	int rc = EXIT_OK;

	*nr = 0;
	if (all || strcmp(target, "host") == 0) {
		rc = validate_host(cli, names, n, &r[0]);
		if (rc != EXIT_OK)
			return rc;
		*nr = 1;
	}
	for (i = 0; i < nvm && rc == EXIT_OK; i++) {
		if (all || (strncmp(target, "vm:", 3) == 0 && strcmp(target + 3, vm_configs[i]) == 0))
			rc = add_vm(cli, vm_configs[i], all, names, n, runs, r, nr);
	}
	if (rc == EXIT_OK && *nr == 0 && !all)
		return cli_usage(cli, "--target: host, vm:6.1-v1, vm:6.1-v2, vm:6.12-v2 or all");
	return rc;
}
