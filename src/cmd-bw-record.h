/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by `cgctl bw record`, `bw recommend` and `bw predict`: getting a trace. */
#ifndef CGCTL_CMD_BW_RECORD_H
#define CGCTL_CMD_BW_RECORD_H

#include "cmd-bw.h"

/*
 * Record PIDs (every argument a PID) or one cgroup PATH for @duration_ns (0: until they
 * exit or SIGINT).  @res->size set by the caller.  Errors printed.  Returns: exit
 * status; *res filled on EXIT_OK.
 */
int bw_record_run(struct cli *cli, int argc, const char **argv, uint64_t duration_ns,
		  struct cgctl_bw_record_result *res);
/* One summary line on stderr; a loud warning when records were lost. */
void bw_record_summary(struct cli *cli, const struct cgctl_bw_record_result *res);
/* Read FILE ("-": stdin) whole; a read error is an error, not its end.  Returns: exit
 * status (*buf NULL unless EXIT_OK). */
int bw_read_file(struct cli *cli, const char *name, char **buf, size_t *len);

#endif
