/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl get PATH FILE...: read control files (raw), the hierarchy chosen by the file. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cgctl.h"
#include "cli-file.h"
#include "columns.h"

static const char *opt_ctrls;
static int opt_raw;

static const struct poptOption options[] = {
	{ "controllers", 'c', POPT_ARG_STRING, &opt_ctrls, 0,
	  "hierarchy for files without a controller prefix (cgroup.procs, tasks)", "LIST" },
	{ "raw", 'r', POPT_ARG_NONE, &opt_raw, 0,
	  "print the files' contents as they are, one after the other", NULL },
	{ "output", 'o', POPT_ARG_STRING, &cli_table_args.output, 0,
	  "the columns to print, by name (+COLUMNS: after the default ones)", "COLUMNS" },
	{ "output-all", '\0', POPT_ARG_NONE, &cli_table_args.all, 0, "print every column",
	  NULL },
	{ "noheadings", 'n', POPT_ARG_NONE, &cli_table_args.noheadings, 0,
	  "print no header line", NULL },
	{ "bytes", 'b', POPT_ARG_NONE, &cli_table_args.bytes, 0,
	  "sizes in bytes and times in microseconds, as the files hold them", NULL },
	POPT_TABLEEND
};

static const struct out_col get_cols[] = {
	{ "FILE", "file", OUT_COL_DEFAULT, "the control file" },
	{ "VALUE", "value", OUT_COL_DEFAULT | OUT_COL_TRUNC,
	  "its value, a row per line (readable unless -b)" },
};
static const struct out_table get_tables[] = { { "files", get_cols, N_TABLES(get_cols) } };

enum file_unit { UNIT_NONE, UNIT_BYTES, UNIT_USEC };

/* The unit of a one-number control file: v1's *_in_bytes and cpu's *_us, v2's memory
 * sizes (Documentation/admin-guide/cgroup-v2.rst, v6.12). */
static enum file_unit file_unit(const char *file)
{
	static const char *const v2_bytes[] = {
		"memory.current", "memory.min", "memory.low", "memory.high", "memory.max",
		"memory.peak", "memory.swap.current", "memory.swap.high", "memory.swap.max",
		"memory.swap.peak", "memory.zswap.current", "memory.zswap.max",
	};
	size_t l = strlen(file);

	if (l > 9 && strcmp(file + l - 9, "_in_bytes") == 0)
		return UNIT_BYTES;
	if (strncmp(file, "cpu.", 4) == 0 && l > 3 && strcmp(file + l - 3, "_us") == 0)
		return UNIT_USEC;
	for (size_t i = 0; i < N_TABLES(v2_bytes); i++)
		if (strcmp(file, v2_bytes[i]) == 0)
			return UNIT_BYTES;
	return UNIT_NONE;
}

/* One value: a size or time of a file with a unit, else as cli_out_file_value(). */
static void emit_value(struct cli *cli, const char *file, const char *text)
{
	enum file_unit u = file_unit(file);
	unsigned long long v;
	char *end;

	if (u != UNIT_NONE && text[0] >= '0' && text[0] <= '9' &&
	    !cli_unlimited_text(file, text)) {
		errno = 0;
		v = strtoull(text, &end, 10);
		if (!errno && *end == '\0' && (u == UNIT_BYTES || v < UINT64_MAX / 1000)) {
			if (u == UNIT_BYTES)
				out_bytes(cli->out, "value", v);
			else
				out_usec(cli->out, "value", (uint64_t)v * 1000);
			return;
		}
	}
	cli_out_file_value(cli, file, "value", text);
}

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
		emit_value(cli, file, buf);
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
		emit_value(cli, file, line);
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
	if (opt_raw && (cli_table_args.output || cli_table_args.all ||
			cli_table_args.noheadings || cli_table_args.bytes))
		return cli_usage(cli, "--raw prints the files as they are: no --output, "
				      "--output-all, --noheadings or --bytes");
	rc = cli_tables(cli, get_tables, N_TABLES(get_tables), false);
	if (rc != EXIT_OK)
		return rc;
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
	.columns = get_tables,
	.n_columns = N_TABLES(get_tables),
};
