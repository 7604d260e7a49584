/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one printer.  Commands describe their result with out_*() calls (a tree of
 * objects, lists and typed scalars); out_render() prints it as
 *   - human: "key: value" lines, nested objects indented, every list of objects as an
 *     aligned table (nested keys flattened as "a.b"; libsmartcols, output-table.c),
 *     sizes and times made readable.  A list with a column table (out_set_tables())
 *     prints the columns chosen from it under their upper-case names;
 *   - --json: one object per invocation, numbers as numbers, bytes in bytes, times in
 *     microseconds, unlimited as null;
 *   - --tsv: every list of objects as a table (header line + tab-separated rows, raw
 *     numbers, tables separated by one empty line); a result without lists prints as a
 *     one-row table.
 */
#ifndef CGCTL_OUTPUT_H
#define CGCTL_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* units, kernel versions, exit codes: libcgctl-util.la, cgctl's own copy */
#include "util/kver.h"
#include "util/units.h"

enum out_format { OUT_HUMAN, OUT_JSON, OUT_TSV };

struct out;

struct out *out_new(enum out_format fmt);
void out_free(struct out *o);
enum out_format out_format(const struct out *o);

/* @key is NULL for list elements. */
void out_obj_begin(struct out *o, const char *key);
void out_obj_end(struct out *o);
void out_list_begin(struct out *o, const char *key);
void out_list_end(struct out *o);

void out_str(struct out *o, const char *key, const char *v);	/* NULL -> null / "-" */
void out_u64(struct out *o, const char *key, uint64_t v);
void out_i64(struct out *o, const char *key, int64_t v);
void out_double(struct out *o, const char *key, double v, int human_decimals);
/* A number of CPUs (a *_cpus key: a limit, a demand, a usage): JSON/TSV the number, the
 * human forms with the one precision every command prints CPUs with (output.c). */
void out_cpus(struct out *o, const char *key, double cpus);
void out_bool(struct out *o, const char *key, bool v);
void out_null(struct out *o, const char *key);
/* Bytes; UINT64_MAX means unlimited ("max"; JSON null). */
void out_bytes(struct out *o, const char *key, uint64_t bytes);
/* A time given in ns, printed in µs (JSON/TSV, integer) or readable (human);
 * UINT64_MAX means unlimited ("max"; JSON null). */
void out_usec(struct out *o, const char *key, uint64_t ns);

/*
 * A human table's column: @name (upper-case, unique in its table, "USAGE") shows the
 * row's flattened key @key ("memory.usage_bytes"; a row without it prints "-").
 */
struct out_col {
	const char *name;
	const char *key;
	unsigned int flags;
	const char *help;	/* its meaning, for --help's "Columns (-o):" (NULL: the key) */
};
#define OUT_COL_DEFAULT	0x1	/* in the default column set */
#define OUT_COL_RIGHT	0x2	/* right-aligned (numbers) */
#define OUT_COL_TRUNC	0x4	/* may be truncated to fit the terminal (paths, notes) */
/* cgroup paths drawn as a tree (not with -r): each row under the nearest row before it
 * whose path is its ancestor, showing its last component ("/" first rows: whole) */
#define OUT_COL_TREE	0x8
/* shown (by default and with --output-all) only when some row has the key: the UNIT of
 * stat and tree, on systemd hosts only */
#define OUT_COL_PRESENT	0x10

/* The columns of the human table printed for the list named @list. */
struct out_table {
	const char *list;
	const struct out_col *cols;
	size_t n;
};

/* How human tables print (the table options of cgctl(1)). */
struct out_table_opts {
	const char *columns;	/* -o LIST: names (any case), "+LIST" adds to the default */
	bool all;		/* --output-all */
	bool noheadings;	/* -n */
	bool bytes;		/* -b: sizes in bytes, times in microseconds */
	bool raw;		/* -r: no alignment, one space between cells */
	bool kv;		/* the keys outside tables as key/value lines (kv.c): labels
				 * without units; -o picks keys when no column table is set */
};

/*
 * The column tables of the lists a command prints, and how to print them (the arrays
 * must outlive @o's renders).  Lists without one print every key under its own name.
 */
void out_set_tables(struct out *o, const struct out_table *t, size_t n,
		    const struct out_table_opts *opts);
/* Print the keys outside tables as key/value lines (opts.kv), keeping the tables' -o. */
void out_set_kv(struct out *o);
/*
 * Check @opts->columns against @t: every name must be a column of one of the tables.
 * Returns: 0, or -EINVAL with the offending name in @bad (of @len bytes).
 */
int out_tables_check(const struct out_table *t, size_t n, const struct out_table_opts *opts,
		     char *bad, size_t len);

/*
 * Check the -o list of a key/value result (opts.kv, no column tables) against what was
 * recorded: every name must name a key, a section or a table.  Returns: 0, or -EINVAL
 * with the offending name in @bad (of @len bytes).
 */
int out_kv_check(struct out *o, char *bad, size_t len);
/* A time given in µs with a fraction (JSON/TSV: that number; human: readable). */
void out_usec_frac(struct out *o, const char *key, double usec);
/* Signed bytes (a delta): JSON/TSV the number; human readable, with its sign. */
void out_sbytes(struct out *o, const char *key, int64_t bytes);

/* Print what was collected to @fp and start a new record (for streaming, e.g. one JSON
 * object per line).  Returns: 0, or -EIO when writing @fp failed. */
int out_render(struct out *o, FILE *fp);
/* The terminal's width when stdout is one (the window size, else $COLUMNS), else 0:
 * the tables and the key/value form (src/kv.c) fit it. */
size_t out_term_width(void);
/* True when nothing was recorded since the last render. */
bool out_empty(const struct out *o);

#endif
