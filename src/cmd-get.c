/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl get PATH FILE...: read control files (raw), the hierarchy chosen by the file. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cgctl.h"
#include "cli-file.h"

static const char *opt_ctrls;
static int opt_raw;

static const struct poptOption options[] = {
	{ "controllers", 'c', POPT_ARG_STRING, &opt_ctrls, 0,
	  "hierarchy for files without a controller prefix (cgroup.procs, tasks)", "LIST" },
	{ "raw", 'r', POPT_ARG_NONE, &opt_raw, 0,
	  "print the files' contents as they are, one after the other", NULL },
	POPT_TABLEEND
};

/* A file of several lines (memory.stat, cgroup.procs): JSON's value is the array of its
 * lines; a table has a row per line, each with the file's name.  One line: one value. */
static void emit_file(struct cli *cli, const char *file, char *buf)
{
	size_t l = strlen(buf);
	char *line, *nl;

	while (l && buf[l - 1] == '\n')
		buf[--l] = '\0';
	if (!strchr(buf, '\n')) {
		out_obj_begin(cli->out, NULL);
		out_str(cli->out, "file", file);
		cli_out_file_value(cli, file, "value", buf);
		out_obj_end(cli->out);
		return;
	}
	if (cli->fmt == OUT_JSON) {
		out_obj_begin(cli->out, NULL);
		out_str(cli->out, "file", file);
		out_list_begin(cli->out, "value");
		for (line = buf; line; line = nl ? nl + 1 : NULL) {
			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			out_str(cli->out, NULL, line);
		}
		out_list_end(cli->out);
		out_obj_end(cli->out);
		return;
	}
	for (line = buf; line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		out_obj_begin(cli->out, NULL);
		out_str(cli->out, "file", file);
		cli_out_file_value(cli, file, "value", line);
		out_obj_end(cli->out);
	}
}

static int run(struct cli *cli, int argc, const char **argv)
{
	const struct cgctl_mount *m;
	char norm[PATH_MAX], **bufs = NULL;
	size_t *lens = NULL;
	int rc, i;

	/* check every file's cgroup first: an error prints nothing on stdout */
	for (i = 1; i < argc; i++) {
		rc = cli_file_target(cli, opt_ctrls, argv[0], argv[i], &m, norm);
		if (rc)
			return rc;
	}
	if (opt_raw && cli->fmt != OUT_HUMAN)
		return cli_usage(cli, "--raw excludes --json and --tsv");
	/* read every file before printing any: all or nothing (issue 33) */
	bufs = calloc((size_t)argc, sizeof(*bufs));
	lens = calloc((size_t)argc, sizeof(*lens));
	if (!bufs || !lens) {
		rc = cli_error(cli, NULL, -ENOMEM, NULL);
		goto out;
	}
	for (i = 1; i < argc; i++) {
		int r;

		cli_file_target(cli, opt_ctrls, argv[0], argv[i], &m, norm);
		r = cgctl_cg_read(cli->ctx, m, norm, argv[i], &bufs[i], &lens[i]);
		if (r < 0) {
			rc = cli_error(cli, argv[0], r, "%s: %s", argv[i],
				       r == -ENOENT ? "no such control file" : cli_strerror(r));
			goto out;
		}
	}
	if (!opt_raw) {
		/* the "/a/b" form of every command (--self: below our own cgroup) */
		if (cgctl_path_normalize(argv[0], norm, sizeof(norm)) < 0)
			snprintf(norm, sizeof(norm), "%s", argv[0]);
		out_str(cli->out, "path", norm);
		out_list_begin(cli->out, "files");
	}
	for (i = 1; i < argc; i++) {
		if (opt_raw) {
			fwrite(bufs[i], 1, lens[i], stdout);
			if (lens[i] && bufs[i][lens[i] - 1] != '\n')
				fputc('\n', stdout);
			continue;
		}
		emit_file(cli, argv[i], bufs[i]);
	}
	if (!opt_raw)
		out_list_end(cli->out);
	rc = EXIT_OK;
out:
	for (i = 0; bufs && i < argc; i++)
		free(bufs[i]);
	free(bufs);
	free(lens);
	return rc;
}

const struct cgctl_cmd cmd_get = {
	.name = "get",
	.args = "PATH FILE...",
	.summary = "read control files",
	.options = options,
	.run = run,
	.min_args = 2,
	.max_args = -1,
};
