/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `cgctl __workload KIND ...`: the built-in workloads `cgctl validate` starts in its
 * scratch cgroups (hidden; see workload.h). */
#include "cgctl.h"
#include "workload.h"

static int run(struct cli *cli, int argc, const char **argv)
{
	int rc = workload_main(argc, argv);

	if (rc == 2)
		return cli_usage(cli, "bad workload arguments (see src/workload.h)");
	return rc;
}

const struct cgctl_cmd cmd_workload = {
	.name = "__workload",
	.args = "KIND ARG...",
	.summary = "run a built-in workload of cgctl validate (internal)",
	.run = run,
	.min_args = 1,
	.max_args = -1,
	.hidden = true,
};
