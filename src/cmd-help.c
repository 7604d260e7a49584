/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgctl help [COMMAND [VERB]]: the same text as `cgctl COMMAND --help`. */
#include <string.h>

#include "cgctl.h"

static const struct cgctl_cmd *lookup(const struct cgctl_cmd *const *t, size_t n,
				      const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (t[i] && strcmp(t[i]->name, name) == 0)
			return t[i];
	return NULL;
}

static int run(struct cli *cli, int argc, const char **argv)
{
	const struct cgctl_cmd *cmd;
	size_t n = cgctl_n_commands;
	char prefix[64] = "";

	if (cli->fmt != OUT_HUMAN)
		return cli_usage(cli, "--%s: help is text only",
				 cli->fmt == OUT_JSON ? "json" : "tsv");
	if (argc == 0) {
		printf("Commands:\n");
		for (size_t i = 0; i < n; i++)
			if (cgctl_commands[i] && !cgctl_commands[i]->hidden)
				printf("  %-10s %s\n", cgctl_commands[i]->name,
				       cgctl_commands[i]->summary);
		printf("\nRun 'cgctl help COMMAND' for a command's options; see cgctl(1).\n");
		return EXIT_OK;
	}
	cmd = lookup(cgctl_commands, n, argv[0]);
	if (!cmd)
		return cli_usage(cli, "unknown command '%s'", argv[0]);
	if (argc > 1) {
		const struct cgctl_cmd *verb;

		if (!cmd->verbs)
			return cli_usage(cli, "'%s' has no verbs", argv[0]);
		verb = lookup(cmd->verbs, cmd->n_verbs, argv[1]);
		if (!verb)
			return cli_usage(cli, "unknown verb '%s %s'", argv[0], argv[1]);
		snprintf(prefix, sizeof(prefix), "%s ", cmd->name);
		cmd = verb;
	}
	cli_cmd_help(cmd, prefix, stdout);
	return EXIT_OK;
}

const struct cgctl_cmd cmd_help = {
	.name = "help",
	.args = "[COMMAND [VERB]]",
	.summary = "show help for a command",
	.run = run,
	.min_args = 0,
	.max_args = 2,
};
