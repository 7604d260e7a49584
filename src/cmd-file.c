/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "cmd-file.h"

static bool generic_file(const char *prefix)
{
	return strcmp(prefix, "cgroup") == 0 || strcmp(prefix, "tasks") == 0 ||
	       strcmp(prefix, "notify_on_release") == 0 || strcmp(prefix, "release_agent") == 0;
}

int cli_file_target(struct cli *cli, const char *ctrls, const char *path, const char *file,
		    const struct cgctl_mount **m, char *norm)
{
	char prefix[64];
	const char *dot = strchr(file, '.');
	int rc, r;

	if (!*file || strchr(file, '/') || strcmp(file, ".") == 0 || strcmp(file, "..") == 0)
		return cli_usage(cli, "'%s' is not a control file name", file);
	snprintf(prefix, sizeof(prefix), "%.*s", dot ? (int)(dot - file) : (int)strlen(file),
		 file);
	if (!generic_file(prefix)) {
		rc = cli_resolve(cli, prefix, path, m, norm, PATH_MAX);
		if (rc)
			return rc;
	} else {
		const struct cgctl_mount *ms[CLI_MAX_MOUNTS];
		size_t n, i;

		rc = cli_hierarchies(cli, ctrls, ms, &n);
		if (rc)
			return rc;
		for (i = 0; i < n; i++) {
			rc = cli_path(cli, ms[i], path, norm, PATH_MAX);
			if (rc)
				return rc;
			if (cgctl_cg_exists(cli->ctx, ms[i], norm) > 0)
				break;
		}
		*m = ms[i < n ? i : 0];
		if (i == n)
			cli_path(cli, *m, path, norm, PATH_MAX);
	}
	r = cgctl_cg_exists(cli->ctx, *m, norm);
	if (r == 0)
		return cli_error(cli, path, -ENOENT, "no such cgroup");
	if (r < 0)
		return cli_error(cli, path, r, NULL);
	return EXIT_OK;
}
