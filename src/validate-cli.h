/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `cgctl validate` internals shared by cmd-validate.c, validate-print.c, validate-vm.c. */
#ifndef CGCTL_VALIDATE_CLI_H
#define CGCTL_VALIDATE_CLI_H

#include "cgctl.h"
#include "validate/libcgctl-validate.h"

#define VALIDATE_MAX_TARGETS 5

/* Catch SIGINT, SIGTERM and SIGHUP into the options' cancel flag (on) or not (off). */
void validate_catch_signals(bool on);
/* The flag those signals set (also `cgctl bench`'s: one signal handling for both). */
volatile int *validate_cancel_flag(void);
/* Run the scenarios (or @o's sweep) on this machine.  Returns: an exit status; *ret on
 * EXIT_OK. */
int validate_host(struct cli *cli, const struct cgctl_validate_opts *o,
		  const char *const *names, size_t n, struct cgctl_vreport **ret);
/* Boot @config ("6.1-v1") with the VM harness and run `cgctl validate --json` inside with
 * @o's runs and sweep.  Returns: EXIT_OK and *ret, EXIT_UNSUPP when the harness cannot
 * run here (@why), or another exit status after printing the error. */
int validate_vm(struct cli *cli, const char *config, const struct cgctl_validate_opts *o,
		const char *const *names, size_t n, struct cgctl_vreport **ret, char *why,
		size_t len);
/* "host", "vm:CONFIG", a comma-separated list of those, or "all" -> reports in @r (at
 * most VALIDATE_MAX_TARGETS), each target with its own run of @o (its own sweep). */
int validate_targets(struct cli *cli, const char *target,
		     const struct cgctl_validate_opts *o, const char *const *names, size_t n,
		     struct cgctl_vreport **r, size_t *nr);
/* Print as tables (human) or JSON (one report: its object; several: {"targets":[...]}). */
int validate_print(struct cli *cli, struct cgctl_vreport *const *r, size_t n, bool json);
/* Returns: true if any scenario of @r had a failed run. */
bool validate_any_failed(const struct cgctl_vreport *r);

#endif
