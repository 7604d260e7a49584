#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: every default table (stat, tree, move -n, move -n --tree) fits 80
# columns on the v1, v2 and hybrid fixtures, not on a terminal (full cells); on a
# terminal narrower than a table, the table is fitted to it (text columns truncated).
# mem where and a planned move need a live task: tests/kernel/table-width-live.sh.
. "$top_srcdir/tests/lib.sh"

paths="/ /a /a/b /01 /01/02 /ro /esc"

# fits WHAT WIDTH: every line of $OUT is at most WIDTH characters, and there is a table
fits() {
	widest=$(printf '%s\n' "$OUT" | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }')
	rows=$(printf '%s\n' "$OUT" | grep -c .)
	if [ "$widest" -le "$2" ] && [ "$rows" -ge 2 ]; then
		ok
	else
		fail "$1: $rows lines, the widest $widest columns (> $2):
$OUT"
	fi
}

for tree in v1 v2 hybrid; do
	fixture "$tree"
	cg --root "$ROOT" stat $paths
	fits "$tree: stat" 80
	cg --root "$ROOT" tree
	expect_rc 0 "$tree: tree"
	fits "$tree: tree" 80
	cg --root "$ROOT" --self tree
	fits "$tree: tree --self" 80
	cg --root "$ROOT" move --dry-run --no-plan 4242 /a
	expect_rc 0 "$tree: move -n"
	fits "$tree: move -n" 80
	cg --root "$ROOT" move --dry-run --no-plan --tree 4242 /a
	expect_rc 0 "$tree: move --dry-run --tree"
	fits "$tree: move --dry-run --tree" 80
	# every column: wider than 80, and still whole when stdout is no terminal
	cg --root "$ROOT" stat --output-all $paths
	widest=$(printf '%s\n' "$OUT" | awk '{ if (length($0) > w) w = length($0) } END { print w }')
	[ "$widest" -gt 200 ] && ok || fail "$tree: stat --output-all is $widest wide"
done

# On a terminal: fitted to its width.  script(1) gives cgctl a terminal, stty its width.
if command -v script >/dev/null 2>&1 && command -v stty >/dev/null 2>&1; then
	fixture v1
	cg --root "$ROOT" tree
	fits "v1 tree, no terminal" 80
	full=$OUT
	# 72 columns: HIERARCHIES ("memory,cpu,cpuacct") is cut, the paths stay whole
	OUT=$(script -qec "stty cols 72; '$CGCTL' --root '$ROOT' tree" /dev/null </dev/null |
		tr -d '\r')
	fits "v1 tree on a 72-column terminal" 72
	printf '%s\n' "$OUT" | grep -q '^  `-memory.limit_in_bytes ' && ok ||
		fail "a path was truncated: $OUT"
	[ "$OUT" != "$full" ] && ok || fail "not fitted to 72 columns: $OUT"
	# wide enough: the same table as in a pipe
	OUT=$(script -qec "stty cols 200; '$CGCTL' --root '$ROOT' tree" /dev/null </dev/null |
		tr -d '\r')
	[ "$OUT" = "$full" ] && ok || fail "200 columns: the table changed: $OUT"
else
	echo "# no script(1) or stty: terminal fitting not checked"
fi
done_testing
