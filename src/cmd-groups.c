/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Commands that only hold verbs: `cgctl mem ...`, `cgctl bw ...`.  Each verb lives in its
 * own file and is referenced weakly, so a verb exists as soon as its file is linked. */
#include "cgctl.h"

#define WEAK __attribute__((weak))

extern const struct cgctl_cmd cmd_mem_set WEAK, cmd_mem_show WEAK, cmd_mem_where WEAK;
extern const struct cgctl_cmd cmd_bw_set WEAK, cmd_bw_show WEAK, cmd_bw_predict WEAK;

static const struct cgctl_cmd *const mem_verbs[] = { &cmd_mem_set, &cmd_mem_show,
						     &cmd_mem_where };
static const struct cgctl_cmd *const bw_verbs[] = { &cmd_bw_set, &cmd_bw_show,
						    &cmd_bw_predict };

const struct cgctl_cmd cmd_mem = {
	.name = "mem",
	.summary = "memory limits, charge breakdown, and where a task's pages are charged",
	.verbs = mem_verbs,
	.n_verbs = sizeof(mem_verbs) / sizeof(mem_verbs[0]),
};

const struct cgctl_cmd cmd_bw = {
	.name = "bw",
	.summary = "CPU bandwidth: set quota/period/burst, show throttling, predict it",
	.verbs = bw_verbs,
	.n_verbs = sizeof(bw_verbs) / sizeof(bw_verbs[0]),
};
