#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: `stat -o quota,period,max-usage` and `--output-all` printed "-" for the
# columns that --long reads unless --long was also given.  They imply it now: the cells
# are those of --long.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"

for tree in v1 v2; do
	fixture "$tree"
	cols=path,quota,period,max-usage,memsw,running
	[ $tree = v2 ] && cols=path,quota,period,high,oom,running
	cg --root="$ROOT" stat -o "$cols" /a
	expect_rc 0 "$tree: stat -o $cols"
	want=$OUT
	cg --root="$ROOT" stat --long -o "$cols" /a
	[ "$OUT" = "$want" ] && ok || fail "$tree: -o $cols without --long: $want; with: $OUT"
	# the quota of /a is set in the fixture: never "-"
	q=$(printf '%s\n' "$want" | awk 'NR == 2 { print $2 }')
	[ -n "$q" ] && [ "$q" != - ] && ok || fail "$tree: QUOTA is '$q'"
	cg --root="$ROOT" stat --output-all /a
	want=$OUT
	cg --root="$ROOT" stat --long --output-all /a
	[ "$OUT" = "$want" ] && ok || fail "$tree: --output-all without --long differs"
	# "+COLS" too
	cg --root="$ROOT" stat -o +quota /a
	q=$(printf '%s\n' "$OUT" | awk 'NR == 2 { print $NF }')
	[ "$q" != - ] && ok || fail "$tree: -o +quota: $OUT"
done

done_testing
