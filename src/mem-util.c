/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers of `cgctl mem` and `cgctl move`. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

bool mem_kernel_moves(uint32_t kver)
{
	return kver >= CGCTL_KVER(2, 6, 34) && kver < CGCTL_KVER(6, 13, 0);
}

uint64_t mem_read_or_max(struct cli *cli, const struct cgctl_mount *m, const char *path,
			 const char *file)
{
	uint64_t v;

	if (cgctl_cg_read_u64(cli->ctx, m, path, file, &v) < 0)
		return UINT64_MAX;
	return v;
}

static int read_v2(struct cli *cli, const struct cgctl_mount *m, const char *path,
		   struct mem_counters *c)
{
	int r = cgctl_cg_read_u64(cli->ctx, m, path, "memory.current", &c->usage);

	if (r < 0)
		return r;
	c->limit = mem_read_or_max(cli, m, path, "memory.max");
	c->max_usage = mem_read_or_max(cli, m, path, "memory.peak");
	c->memsw_usage = mem_read_or_max(cli, m, path, "memory.swap.current");
	c->memsw_limit = mem_read_or_max(cli, m, path, "memory.swap.max");
	return 0;
}

int mem_read_counters(struct cli *cli, const struct cgctl_mount *m, const char *path,
		      struct mem_counters *c)
{
	int r;

	memset(c, 0xff, sizeof(*c));
	c->present_memsw = false;
	if (m->version == 2)
		return read_v2(cli, m, path, c);
	r = cgctl_cg_read_u64(cli->ctx, m, path, "memory.usage_in_bytes", &c->usage);
	if (r < 0)
		return r;
	c->limit = mem_read_or_max(cli, m, path, "memory.limit_in_bytes");
	c->failcnt = mem_read_or_max(cli, m, path, "memory.failcnt");
	c->max_usage = mem_read_or_max(cli, m, path, "memory.max_usage_in_bytes");
	c->soft_limit = mem_read_or_max(cli, m, path, "memory.soft_limit_in_bytes");
	c->move_charge = mem_read_or_max(cli, m, path, "memory.move_charge_at_immigrate");
	c->memsw_usage = mem_read_or_max(cli, m, path, "memory.memsw.usage_in_bytes");
	c->present_memsw = c->memsw_usage != UINT64_MAX;
	c->memsw_limit = mem_read_or_max(cli, m, path, "memory.memsw.limit_in_bytes");
	c->memsw_failcnt = mem_read_or_max(cli, m, path, "memory.memsw.failcnt");
	c->memsw_max_usage = mem_read_or_max(cli, m, path, "memory.memsw.max_usage_in_bytes");
	return 0;
}

unsigned int mem_subtree_size(struct cli *cli, const struct cgctl_mount *m, const char *path)
{
	char **kids = NULL;
	ssize_t n = cgctl_cg_children(cli->ctx, m, path, &kids);
	unsigned int total = 1;

	for (ssize_t i = 0; i < n; i++) {
		char sub[PATH_MAX];

		snprintf(sub, sizeof(sub), "%s/%s", strcmp(path, "/") ? path : "", kids[i]);
		total += mem_subtree_size(cli, m, sub);
	}
	if (n >= 0)
		cgctl_strv_free(kids);
	return total;
}
