/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "cli-file.h"

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

/* @s (@len bytes) is one decimal integer, with a leading '-' if @sign. */
static bool is_integer(const char *s, size_t len, bool sign)
{
	if (sign && len > 1 && s[0] == '-')
		s++, len--;
	return len && strspn(s, "0123456789") >= len;
}

void cli_out_file_value(struct cli *cli, const char *file, const char *key, const char *text)
{
	size_t l = strlen(text);
	char buf[24], *end;

	while (l && text[l - 1] == '\n')
		l--;
	if (cli_unlimited_text(file, text)) {
		out_bytes(cli->out, key, UINT64_MAX);
		return;
	}
	if (l < sizeof(buf) && is_integer(text, l, true)) {
		memcpy(buf, text, l);
		buf[l] = '\0';
		errno = 0;
		if (buf[0] == '-') {
			long long v = strtoll(buf, &end, 10);

			if (!errno) {
				out_i64(cli->out, key, v);
				return;
			}
		} else {
			unsigned long long v = strtoull(buf, &end, 10);

			if (!errno) {
				out_u64(cli->out, key, v);
				return;
			}
		}
	}
	/* anything else (or out of range) as its text */
	end = strndup(text, l);
	out_str(cli->out, key, end ? end : text);
	free(end);
}
