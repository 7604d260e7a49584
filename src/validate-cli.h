/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `cgctl validate` internals shared by cmd-validate.c, validate-print.c, validate-vm.c. */
#ifndef CGCTL_VALIDATE_CLI_H
#define CGCTL_VALIDATE_CLI_H

#include "cgctl.h"
#include "validate/libcgctl-validate.h"

#define VALIDATE_MAX_TARGETS 5

/* What `cgctl validate` shows while it runs (the options' progress_data): each
 * scenario's table as soon as it is done (human output), and on a terminal the count
 * k/N and an estimate of the time left (stderr, erased). */
struct vstream {
	struct cli *cli;
	bool tables;			/* print tables as scenarios finish */
	size_t k, n;			/* scenarios done on this target, of */
	size_t ran;			/* of those, the ones that ran (not n/a at once) */
	unsigned int runs_done;		/* runs finished on this target */
	bool cur_ran;			/* the current scenario has started a run */
	double t0;			/* CLOCK_MONOTONIC seconds at the target's start */
};

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
/* The human form: "# host: Linux ..." above a target's tables; one scenario's table;
 * after a target's last one (a sweep's distribution); a whole report at once (a VM's). */
void validate_print_header(const struct cgctl_vreport *r);
void validate_print_scenario(const struct cgctl_vscenario_result *s);
int validate_print_target_end(struct cli *cli, const struct cgctl_vreport *r);
void validate_print_report(struct cli *cli, const struct cgctl_vreport *r);
/* The end: JSON (one report: its object; several: {"targets":[...]}), or the summary
 * line and the n/a line (validate_print_na()).  @vms_checked: a VM target was asked for. */
int validate_print_end(struct cli *cli, struct cgctl_vreport *const *r, size_t n, bool json,
		       bool vms_checked);
/* @lead then @text, words wrapped at 79 columns, @indent spaces before each line after
 * the first (a word longer than a line stays whole). */
void validate_print_wrapped(const char *lead, const char *text, size_t indent);
/* "n/a: 88: 48 REASON, ...", and the --target all hint when only the host was checked
 * and VM kernels are present (validate-na.c). */
int validate_print_na(struct cli *cli, struct cgctl_vreport *const *r, size_t n,
		      bool vms_checked);
/* The columns of the quantity tables (--help, -o). */
enum { VCOL_QUANTITY, VCOL_OBSERVED, VCOL_SD, VCOL_PREDICTED, VCOL_DEVIATION, VCOL_VERDICT,
       VCOL_N };
extern const struct out_col validate_cols[VCOL_N];
extern const struct out_table validate_tables[1];
/* -o LIST: the quantity tables' columns, by name (any case), in that order; "+LIST"
 * keeps them all.  Returns: 0, or -EINVAL with the unknown (or empty) name in @bad. */
int validate_set_columns(const char *list, char *bad, size_t len);
/* Returns: true if any scenario of @r had a failed run. */
bool validate_any_failed(const struct cgctl_vreport *r);

#endif
