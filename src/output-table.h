/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Human tables (libsmartcols), the printer's internal interface (output.c). */
#ifndef CGCTL_OUTPUT_TABLE_H
#define CGCTL_OUTPUT_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "output.h"

/* a cell's text and length (s NULL: none, printed "-") */
struct tcell {
	const char *s;
	size_t len;
};

/* A table as output.c flattened it: a column per key, rows of cells (a row may be
 * shorter than ncols: the missing cells are empty). */
struct tview {
	char *const *cols;
	size_t ncols, nrows;
	struct tcell *const *cells;
	const size_t *lens;
};

/*
 * Print @t as a human table, with the columns @spec (NULL: every key under its own
 * name) and @opts select, @indent spaces before each line, and the line "@heading:"
 * above it, two columns to the left (NULL: none).  A table left without a column
 * prints nothing, not even its heading.
 * Returns: 0, or -ENOMEM.
 */
int table_print_human(const struct tview *t, const struct out_table *spec,
		      const struct out_table_opts *opts, FILE *fp, const char *heading,
		      int indent);

#endif
