/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one printer.  Commands describe their result with out_*() calls (a tree of
 * objects, lists and typed scalars); out_render() prints it as
 *   - human: "key: value" lines, nested objects indented, every list of objects as an
 *     aligned table (nested keys flattened as "a.b"), sizes and times made readable;
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
void out_bool(struct out *o, const char *key, bool v);
void out_null(struct out *o, const char *key);
/* Bytes; UINT64_MAX means unlimited ("max"; JSON null). */
void out_bytes(struct out *o, const char *key, uint64_t bytes);
/* A time given in ns, printed in µs (JSON/TSV, integer) or readable (human);
 * UINT64_MAX means unlimited ("max"; JSON null). */
void out_usec(struct out *o, const char *key, uint64_t ns);

/* Print what was collected to @fp and start a new record (for streaming, e.g. one JSON
 * object per line).  Returns: 0, or -EIO when writing @fp failed. */
int out_render(struct out *o, FILE *fp);
/* True when nothing was recorded since the last render. */
bool out_empty(const struct out *o);

#endif
