/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * popt without its leak of a repeated string option: for POPT_ARG_STRING popt stores a
 * strdup() of each occurrence and leaves the one it replaces to the caller, so
 * "--quota 50ms --quota 60ms" lost the first.  The tables given to popt are copies in
 * which every string option returns from poptGetNextOpt() (a val of its own), so the
 * value it replaced can be freed at once.  The last one given still wins.
 */
#include <errno.h>
#include <popt.h>
#include <stdlib.h>
#include <string.h>

#include "cgctl.h"

#define CLI_POPT_STRING 0x53545200	/* the val of a string option without one */
#define STORED_MAX 128

/* what popt stored so far in this run (mem set parses its options a second time) */
static char *stored[STORED_MAX];
static size_t n_stored;

static bool is_end(const struct poptOption *o)
{
	return !o->longName && !o->shortName && !o->arg;
}

struct poptOption *cli_popt_table(const struct poptOption *opts, size_t extra)
{
	struct poptOption *t;
	size_t n = 0;

	while (opts && !is_end(&opts[n]))
		n++;
	t = calloc(n + extra + 1, sizeof(*t));
	if (!t)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		t[i] = opts[i];
		if ((t[i].argInfo & POPT_ARG_MASK) == POPT_ARG_STRING && t[i].arg && !t[i].val)
			t[i].val = CLI_POPT_STRING;
	}
	return t;
}

/* @old was replaced by @new in an option's slot: free @old if popt stored it */
static void replaced(char *old, char *new)
{
	for (size_t j = 0; j < n_stored; j++)
		if (stored[j] == old) {
			free(old);
			stored[j] = stored[--n_stored];
			break;
		}
	if (new && n_stored < STORED_MAX)
		stored[n_stored++] = new;
}

int cli_popt_next(poptContext pc, const struct poptOption *table)
{
	char **slots[STORED_MAX], *before[STORED_MAX];
	size_t n = 0;
	int rc;

	for (const struct poptOption *o = table; !is_end(o); o++)
		if (o->val == CLI_POPT_STRING && n < STORED_MAX)
			slots[n++] = o->arg;
	do {
		for (size_t i = 0; i < n; i++)
			before[i] = *slots[i];
		rc = poptGetNextOpt(pc);
		for (size_t i = 0; i < n; i++)
			if (*slots[i] != before[i])
				replaced(before[i], *slots[i]);
	} while (rc == CLI_POPT_STRING);
	return rc;
}
