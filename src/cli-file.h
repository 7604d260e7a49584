/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGCTL_CLI_FILE_H
#define CGCTL_CLI_FILE_H
#include "cgctl.h"
/*
 * The hierarchy a control file lives in: "memory.max" -> the memory hierarchy,
 * "cpu.max" -> cpu; files without a controller prefix ("cgroup.procs", "tasks") -> the
 * first hierarchy of @ctrls (default memory,cpu,cpuacct) where PATH exists.  Checks the
 * cgroup exists and the file name is sane.  Returns: EXIT_OK or an exit status (printed).
 */
int cli_file_target(struct cli *cli, const char *ctrls, const char *path, const char *file,
		    const struct cgctl_mount **m, char *norm);
/*
 * The text of control file @file (trailing newlines dropped) as @key: one integer as a
 * number, the kernel's spelling of unlimited as null (JSON) / max (tables), anything
 * else as a string.
 */
void cli_out_file_value(struct cli *cli, const char *file, const char *key,
			const char *text);
#endif
