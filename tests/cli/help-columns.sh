#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: the "Columns (-o):" of --help was one line of 200-540 characters with no
# meanings.  Now a column a line with what it means (as lsblk --help), under its table's
# name when a command prints several, each line within 80 columns.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"

for c in stat tree move "mem where" bench validate watch; do
	# shellcheck disable=SC2086
	"$CGCTL" $c --help >"$T_TMP/help" 2>&1 || { fail "$c --help: exit $?"; continue; }
	sed -n '/^Columns (-o):$/,/^$/p' "$T_TMP/help" | sed 1d >"$T_TMP/cols"
	n=$(grep -c '^  [A-Z]' "$T_TMP/cols")
	[ "$n" -gt 3 ] && ok || fail "$c --help: $n column lines: $(grep Columns "$T_TMP/help" | cut -c1-100)"
	# every column line: NAME, then its meaning in words
	bad=$(grep -v '^ [a-z]*:$' "$T_TMP/cols" | grep -v '^  [A-Z][A-Z0-9/%-]*  *[a-zA-Z(].* ' || true)
	[ -z "$bad" ] && ok || fail "$c --help: lines without a meaning: $bad"
	long=$(awk 'length($0) > 80' "$T_TMP/cols")
	[ -z "$long" ] && ok || fail "$c --help: lines over 80 columns: $long"
done
# stat's two tables, each named
"$CGCTL" stat --help | grep -qx ' processes:' && ok || fail "stat --help: no processes: heading"
"$CGCTL" stat --help | grep -q '^  QUOTA  *CPU time allowed per period' && ok ||
	fail "stat --help: QUOTA's meaning"

done_testing
