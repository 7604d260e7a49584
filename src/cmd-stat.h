/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGCTL_CMD_STAT_H
#define CGCTL_CMD_STAT_H
#include "cgctl.h"
/* The "memory" / "cpu" objects of `cgctl stat`, reusable by other commands. */
void cli_out_memstat(struct cli *cli, const struct cgctl_memstat *st);
void cli_out_cpubw(struct cli *cli, const struct cgctl_cpubw *bw);
#endif
