/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Commands that only hold verbs: `cgctl bw ...` (`cgctl mem` lives in cmd-mem.c).  Each
 * verb lives in its own file and is referenced weakly, so it exists once linked. */
#include "cgctl.h"

#define WEAK __attribute__((weak))

extern const struct cgctl_cmd cmd_bw_set WEAK, cmd_bw_show WEAK, cmd_bw_predict WEAK;
extern const struct cgctl_cmd cmd_bw_record WEAK, cmd_bw_recommend WEAK;

static const struct cgctl_cmd *const bw_verbs[] = { &cmd_bw_set, &cmd_bw_show,
						    &cmd_bw_predict, &cmd_bw_record,
						    &cmd_bw_recommend };

const struct cgctl_cmd cmd_bw = {
	.name = "bw",
	.summary = "CPU bandwidth: set quota/period/burst, show throttling, predict it",
	.verbs = bw_verbs,
	.n_verbs = sizeof(bw_verbs) / sizeof(bw_verbs[0]),
};
