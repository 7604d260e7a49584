/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tests of the CLI printer's JSON form (src/output.c, src/output-json.c): every value
 * kind and nesting against hand-written documents, the text that crosses the 32 KiB
 * spill and the 2 MiB block boundaries against a copy built with snprintf, one document
 * after another, and the tree forms (TSV, human) still fed by the same calls.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "testutil.h"

/* @o rendered, as a string (free()). */
static char *render(struct out *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(out_render(o, fp), 0);
	fclose(fp);
	return text;
}

START_TEST(json_kinds)
{
	struct out *o = out_new(OUT_JSON);
	char *s;

	ck_assert(out_empty(o));
	out_str(o, "name", "a\"b\\c\n\x01 é");
	ck_assert(!out_empty(o));
	out_str(o, "none", NULL);
	out_u64(o, "u", UINT64_MAX);
	out_i64(o, "i", -42);
	out_double(o, "d", 0.25, 2);
	out_double(o, "whole", 3.0, 1);
	out_bool(o, "yes", true);
	out_null(o, "nil");
	out_bytes(o, "bytes", 4096);
	out_bytes(o, "max", UINT64_MAX);
	out_usec(o, "usec", 1500999);
	out_usec(o, "forever", UINT64_MAX);
	out_obj_begin(o, "empty");
	out_obj_end(o);
	out_list_begin(o, "nums");
	out_u64(o, NULL, 1);
	out_u64(o, NULL, 2);
	out_list_end(o);
	out_list_begin(o, "rows");
	out_obj_begin(o, NULL);
	out_str(o, "k", "v");
	out_list_begin(o, "inner");
	out_list_end(o);
	out_obj_end(o);
	out_list_end(o);
	out_obj_end(o);	/* one too many: the top level stays open */
	out_u64(o, "after", 7);
	s = render(o);
	ck_assert_str_eq(s, "{\"name\":\"a\\\"b\\\\c\\n\\u0001 é\",\"none\":null,"
			 "\"u\":18446744073709551615,\"i\":-42,\"d\":0.25,\"whole\":3,"
			 "\"yes\":true,\"nil\":null,\"bytes\":4096,\"max\":null,\"usec\":1500,"
			 "\"forever\":null,\"empty\":{},\"nums\":[1,2],"
			 "\"rows\":[{\"k\":\"v\",\"inner\":[]}],\"after\":7}\n");
	free(s);
	ck_assert(out_empty(o));
	out_free(o);
}
END_TEST

/* What is still open at the render is closed, innermost first, each with its bracket. */
START_TEST(json_closes_open)
{
	struct out *o = out_new(OUT_JSON);
	char *s;

	out_list_begin(o, "a");
	out_obj_begin(o, NULL);
	out_list_begin(o, "b");
	out_u64(o, NULL, 1);
	s = render(o);
	ck_assert_str_eq(s, "{\"a\":[{\"b\":[1]}]}\n");
	free(s);
	/* and the next document starts afresh */
	out_str(o, "x", "y");
	s = render(o);
	ck_assert_str_eq(s, "{\"x\":\"y\"}\n");
	free(s);
	/* an empty one is an empty object */
	s = render(o);
	ck_assert_str_eq(s, "{}\n");
	free(s);
	out_free(o);
}
END_TEST

/* Rows enough for ~5 MiB of text: spills every 32 KiB and three 2 MiB blocks. */
START_TEST(json_big)
{
	const int rows = 110000;
	struct out *o = out_new(OUT_JSON);
	size_t cap = 64u << 20, len = 0;
	char *want = malloc(cap), *s;

	ck_assert_ptr_nonnull(want);
	len += (size_t)snprintf(want + len, cap - len, "{\"rows\":[");
	out_list_begin(o, "rows");
	for (int i = 0; i < rows; i++) {
		char name[32];

		snprintf(name, sizeof(name), "/cg/%d", i);
		out_obj_begin(o, NULL);
		out_str(o, "path", name);
		out_u64(o, "n", (uint64_t)i * 4099);
		out_bool(o, "odd", i & 1);
		out_obj_end(o);
		len += (size_t)snprintf(want + len, cap - len, "%s{\"path\":\"%s\",\"n\":%llu,"
					"\"odd\":%s}", i ? "," : "", name,
					(unsigned long long)i * 4099, i & 1 ? "true" : "false");
	}
	out_list_end(o);
	len += (size_t)snprintf(want + len, cap - len, "]}\n");
	ck_assert_uint_gt(len, 2 * (2u << 20));
	s = render(o);
	ck_assert_uint_eq(strlen(s), len);
	ck_assert(memcmp(s, want, len) == 0);
	free(s);
	free(want);
	out_free(o);
}
END_TEST

/* The same calls through the tree forms. */
START_TEST(tree_forms)
{
	struct out *o = out_new(OUT_TSV);
	char *s;

	out_list_begin(o, "rows");
	for (int i = 0; i < 2; i++) {
		out_obj_begin(o, NULL);
		out_str(o, "path", i ? "/b" : "/a");
		out_bytes(o, "limit", i ? UINT64_MAX : 4096);
		/* the shortest form that reads back: not 0.20000000000000001 */
		out_double(o, "ratio", i ? 0.1 + 0.2 : 0.2, 3);
		out_obj_end(o);
	}
	out_list_end(o);
	s = render(o);
	ck_assert_str_eq(s, "path\tlimit\tratio\n/a\t4096\t0.2\n"
			 "/b\tmax\t0.30000000000000004\n");
	free(s);
	out_free(o);

	o = out_new(OUT_HUMAN);
	out_str(o, "path", "/a");
	out_bytes(o, "limit", 4096);
	s = render(o);
	ck_assert_str_eq(s, "path:  /a\nlimit: 4KiB\n");
	free(s);
	out_free(o);
}
END_TEST

/* Rows for the column-table tests: two cgroups, one with a nested object, one with it
 * null, and a key the table does not name. */
static void table_rows(struct out *o)
{
	out_list_begin(o, "cgroups");
	out_obj_begin(o, NULL);
	out_str(o, "path", "/a b");
	out_obj_begin(o, "mem");
	out_bytes(o, "usage_bytes", 8192);
	out_obj_end(o);
	out_u64(o, "extra_key", 7);
	out_obj_end(o);
	out_obj_begin(o, NULL);
	out_str(o, "path", "/c");
	out_null(o, "mem");
	out_list_begin(o, "names");
	out_list_end(o);
	out_obj_end(o);
	out_list_end(o);
}

START_TEST(table_columns)
{
	static const struct out_col cols[] = {
		{ "PATH", "path", OUT_COL_DEFAULT },
		{ "USAGE", "mem.usage_bytes", OUT_COL_DEFAULT | OUT_COL_RIGHT },
		{ "NAMES", "names", 0 },
	};
	static const struct out_table tab[] = { { "cgroups", cols, 3 } };
	struct out_table_opts opts = { 0 };
	char bad[32];
	struct out *o;
	char *s;

	/* the default set: a null object is "-" under its columns */
	o = out_new(OUT_HUMAN);
	out_set_tables(o, tab, 1, &opts);
	table_rows(o);
	s = render(o);
	ck_assert_str_eq(s, "PATH  USAGE\n/a b   8KiB\n/c        -\n");
	free(s);
	/* every column: the unnamed key by its own name, upper-cased; an empty list "-" */
	opts.all = true;
	out_set_tables(o, tab, 1, &opts);
	table_rows(o);
	s = render(o);
	ck_assert_str_eq(s, "PATH  USAGE  NAMES  EXTRA-KEY\n/a b   8KiB  -      7\n"
			 "/c        -  -      -\n");
	free(s);
	/* -o in its order, any case; -b; -r escapes blanks; -n */
	opts = (struct out_table_opts){ .columns = "usage,Path", .bytes = true, .raw = true,
					.noheadings = true };
	out_set_tables(o, tab, 1, &opts);
	table_rows(o);
	s = render(o);
	ck_assert_str_eq(s, "8192 /a\\x20b\n- /c\n");
	free(s);
	out_free(o);

	/* a table after other keys: "key:" at their indent, the table two columns in;
	 * without a column table every key, as before */
	o = out_new(OUT_HUMAN);
	out_str(o, "pid", "1");
	table_rows(o);
	s = render(o);
	ck_assert_str_eq(s, "pid: 1\ncgroups:\n  path  mem.usage_bytes  extra_key  mem  names\n"
			 "  /a b  8KiB             7          -    -\n"
			 "  /c    -                -          -    \n");
	free(s);
	out_free(o);

	opts = (struct out_table_opts){ .columns = "+names" };
	ck_assert_int_eq(out_tables_check(tab, 1, &opts, bad, sizeof(bad)), 0);
	opts.columns = "path,nope,usage";
	ck_assert_int_eq(out_tables_check(tab, 1, &opts, bad, sizeof(bad)), -EINVAL);
	ck_assert_str_eq(bad, "nope");
	opts.columns = "path,";
	ck_assert_int_eq(out_tables_check(tab, 1, &opts, bad, sizeof(bad)), -EINVAL);
	ck_assert_str_eq(bad, "");
}
END_TEST

/* Signed sizes (move's FROM-DELTA) convert like the others: -8KiB beside 8KiB, not
 * -8192 beside 8KiB; -b prints both raw.  And the key/value form (src/kv.c). */
START_TEST(signed_and_kv)
{
	static const struct out_col cols[] = {
		{ "EXPECTED", "expected_bytes", OUT_COL_DEFAULT | OUT_COL_RIGHT },
		{ "FROM-DELTA", "from_delta_bytes", OUT_COL_DEFAULT | OUT_COL_RIGHT },
	};
	static const struct out_table tab[] = { { "moves", cols, 2 } };
	struct out_table_opts opts = { 0 };
	char bad[32];
	struct out *o = out_new(OUT_HUMAN);
	char *s;

	for (int pass = 0; pass < 2; pass++) {
		opts.bytes = pass;
		out_set_tables(o, tab, 1, &opts);
		out_list_begin(o, "moves");
		out_obj_begin(o, NULL);
		out_bytes(o, "expected_bytes", 8192);
		out_sbytes(o, "from_delta_bytes", -8192);
		out_obj_end(o);
		out_obj_begin(o, NULL);
		out_bytes(o, "expected_bytes", 0);
		out_sbytes(o, "from_delta_bytes", 0);
		out_obj_end(o);
		out_list_end(o);
		s = render(o);
		ck_assert_str_eq(s, pass ? "EXPECTED  FROM-DELTA\n    8192       -8192\n"
					   "       0           0\n"
					 : "EXPECTED  FROM-DELTA\n    8KiB       -8KiB\n"
					   "      0B          0B\n");
		free(s);
	}
	out_free(o);

	/* key/value lines: labels without units, sections indented; -b the keys */
	o = out_new(OUT_HUMAN);
	opts = (struct out_table_opts){ .kv = true };
	out_set_tables(o, NULL, 0, &opts);
	out_str(o, "path", "/a");
	out_obj_begin(o, "settings");
	out_usec(o, "quota_usec", 20000000);
	out_usec_frac(o, "page_time_usec", 0.25);
	out_obj_end(o);
	s = render(o);
	ck_assert_str_eq(s, "PATH        /a\nSETTINGS\n  QUOTA     20ms\n  PAGE-TIME 250ns\n");
	free(s);
	opts.bytes = true;
	opts.columns = "settings.quota";
	out_set_tables(o, NULL, 0, &opts);
	out_str(o, "path", "/a");
	out_obj_begin(o, "settings");
	out_usec(o, "quota_usec", 20000000);
	out_obj_end(o);
	ck_assert_int_eq(out_kv_check(o, bad, sizeof(bad)), 0);
	s = render(o);
	ck_assert_str_eq(s, "settings\n  quota_usec 20000\n");
	free(s);
	opts.columns = "quota,period";
	out_set_tables(o, NULL, 0, &opts);
	out_usec(o, "quota_usec", 1000);
	ck_assert_int_eq(out_kv_check(o, bad, sizeof(bad)), -EINVAL);
	ck_assert_str_eq(bad, "period");
	out_free(o);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("output");
	TCase *tc = tcase_create("json");

	tcase_add_test(tc, json_kinds);
	tcase_add_test(tc, json_closes_open);
	tcase_add_test(tc, json_big);
	tcase_add_test(tc, tree_forms);
	tcase_add_test(tc, table_columns);
	tcase_add_test(tc, signed_and_kv);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(su, tc);
	return tu_run(su);
}
