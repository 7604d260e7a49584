/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl set PATH FILE=VALUE...: raw writes, all or nothing. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cgctl.h"
#include "cmd-file.h"

static const char *opt_ctrls;

static const struct poptOption options[] = {
	{ "controllers", 'c', POPT_ARG_STRING, &opt_ctrls, 0,
	  "hierarchy for files without a controller prefix (cgroup.procs, tasks)", "LIST" },
	POPT_TABLEEND
};

struct assignment {
	char file[256];
	const char *value;
	const struct cgctl_mount *m;
	char norm[PATH_MAX];
	char *old;
};

/* Files whose write is an action, not a setting: nothing to restore. */
static bool is_action(const char *file)
{
	return strcmp(file, "cgroup.procs") == 0 || strcmp(file, "tasks") == 0 ||
	       strcmp(file, "cgroup.threads") == 0 || strcmp(file, "cgroup.kill") == 0 ||
	       strstr(file, "force_empty") || strstr(file, "reclaim") ||
	       strstr(file, "max_usage_in_bytes") || strstr(file, "failcnt");
}

static int parse_assignment(struct cli *cli, const char *path, const char *arg,
			    struct assignment *a)
{
	const char *eq = strchr(arg, '=');
	char *buf = NULL;
	size_t len;
	int r, rc;

	if (!eq || eq == arg)
		return cli_usage(cli, "'%s': expected FILE=VALUE", arg);
	if ((size_t)(eq - arg) >= sizeof(a->file))
		return cli_usage(cli, "'%.*s': file name too long", (int)(eq - arg), arg);
	snprintf(a->file, sizeof(a->file), "%.*s", (int)(eq - arg), arg);
	a->value = eq + 1;
	if (strpbrk(a->value, "\n\r"))
		return cli_usage(cli, "%s: a value cannot contain a newline", a->file);
	rc = cli_file_target(cli, opt_ctrls, path, a->file, &a->m, a->norm);
	if (rc)
		return rc;
	r = cgctl_cg_read(cli->ctx, a->m, a->norm, a->file, &buf, &len);
	if (r == -ENOENT)
		return cli_error(cli, path, r, "%s: no such control file", a->file);
	if (r < 0 && r != -EINVAL && r != -EACCES && r != -EPERM)
		return cli_error(cli, path, r, "%s: %s", a->file, cli_strerror(r));
	if (buf) {
		while (len && buf[len - 1] == '\n')
			buf[--len] = '\0';
		/* multi-line settings cannot be written back as read */
		if (!strchr(buf, '\n') && !is_action(a->file))
			a->old = buf;
		else
			free(buf);
	}
	return EXIT_OK;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	int n = argc - 1, i, rc = EXIT_OK;
	struct assignment *as = calloc((size_t)n, sizeof(*as));

	if (!as)
		return cli_error(cli, NULL, -ENOMEM, NULL);
	for (i = 0; i < n && rc == EXIT_OK; i++)
		rc = parse_assignment(cli, argv[0], argv[i + 1], &as[i]);
	for (i = 0; i < n && rc == EXIT_OK; i++) {
		int r = cgctl_cg_write(cli->ctx, as[i].m, as[i].norm, as[i].file, as[i].value);

		if (r == 0)
			continue;
		rc = cli_error(cli, argv[0], r, "%s=%s: %s%s", as[i].file, as[i].value,
			       r == -EINVAL ? "the kernel refused the value" : cli_strerror(r),
			       r == -EINVAL ? " (invalid argument)" : "");
		/* undo the writes that succeeded, newest first */
		for (int k = i - 1; k >= 0; k--) {
			if (!as[k].old)
				continue;
			r = cgctl_cg_write(cli->ctx, as[k].m, as[k].norm, as[k].file, as[k].old);
			if (r < 0)
				cli_error(cli, argv[0], r, "%s: could not restore '%s': %s",
					  as[k].file, as[k].old, cli_strerror(r));
		}
	}
	for (i = 0; i < n; i++)
		free(as[i].old);
	free(as);
	return rc;
}

const struct cgctl_cmd cmd_set = {
	.name = "set",
	.args = "PATH FILE=VALUE...",
	.summary = "write control files (all or nothing)",
	.options = options,
	.run = run,
	.min_args = 2,
	.max_args = -1,
};
