/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The printer's JSON form, written as it is recorded instead of kept as a tree and
 * rendered at the end (output.c keeps the tree for the tables of the human and TSV
 * forms).  The text is kept until jout_render(): a failed command prints nothing.  The
 * same calls give the same bytes as rendering the tree would.
 */
#ifndef CGCTL_OUTPUT_JSON_H
#define CGCTL_OUTPUT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct jout;

/* Returns: NULL without memory. */
struct jout *jout_new(void);
void jout_free(struct jout *jo);

/* An object (@list false) or list under the innermost open one; @key NULL in lists. */
void jout_begin(struct jout *jo, bool list, const char *key);
/* Closes the innermost open object or list (not the top-level object). */
void jout_end(struct jout *jo);
void jout_str(struct jout *jo, const char *key, const char *v);	/* NULL: null */
void jout_u64(struct jout *jo, const char *key, uint64_t v);
void jout_i64(struct jout *jo, const char *key, int64_t v);
void jout_double(struct jout *jo, const char *key, double v);
void jout_bool(struct jout *jo, const char *key, bool v);
void jout_null(struct jout *jo, const char *key);

/* Nothing recorded since the last render? */
bool jout_empty(const struct jout *jo);
/* Close what is open, write the document and a newline to @fp, and start over.
 * Returns: 0, -EIO. */
int jout_render(struct jout *jo, FILE *fp);

#endif
