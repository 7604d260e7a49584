/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers of `cgctl mem` and `cgctl move`. */
#include <stdio.h>

#include "mem-util.h"

uint32_t mem_kver(struct cli *cli)
{
	return cli_kver(cli);
}

const char *mem_kver_str(uint32_t kver, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u", CGCTL_KVER_MAJOR(kver), CGCTL_KVER_MINOR(kver));
	return buf;
}

unsigned int mem_ncpu(struct cli *cli)
{
	return cli_ncpu(cli);
}
