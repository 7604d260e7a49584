#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: `validate` had no -o.  Now -o picks the columns of its quantity tables, in
# the order given (any case), --help lists them one a line with their meaning, and an
# unknown name, --json or --list with -o are usage errors (exit 2).  A fixture root:
# pcp-lists is n/a at once (no /proc/zoneinfo there), which is enough for the columns.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"

fixture v1
# the scenario's table: the header line and the rows up to the n/a reasons
table() { printf '%s\n' "$OUT" | sed -n '/^pcp-lists:/,/^  n\/a:/p' | sed '1d;$d'; }

cg --root="$ROOT" validate --repeat 1 pcp-lists
[ "$RC" = 0 ] || [ "$RC" = 1 ] && ok || fail "validate pcp-lists: exit $RC ($ERR)"
# the heading names the columns as -o does, in capitals like every other table's, each
# over its cells' side, in 79 columns (issue 29: it was "quantity observed +- sd ...")
[ "$(table | head -1)" = \
  "  QUANTITY                     OBSERVED        SD  PREDICTED  DEVIATION VERDICT" ] &&
	ok || fail "default columns: $(table | head -1)"

cg --root="$ROOT" validate --repeat 1 -o verdict,QUANTITY pcp-lists
[ "$RC" = 0 ] || [ "$RC" = 1 ] && ok || fail "validate -o: exit $RC ($ERR)"
[ "$(table | head -1)" = "  VERDICT QUANTITY" ] && ok || fail "-o header: $(table | head -1)"
[ "$(table | sed -n 2p)" = "  n/a     batch" ] && ok || fail "-o row: $(table | sed -n 2p)"
[ "$(table | wc -l)" -gt 3 ] && ok || fail "-o: rows missing: $OUT"

cg --root="$ROOT" validate --repeat 1 --output sd,deviation pcp-lists
[ "$(table | head -1)" = "         SD DEVIATION" ] && ok || fail "--output sd,deviation: $(table | head -1)"

bad_input 2 "unknown column" validate -o size pcp-lists
case $ERR in *"unknown column 'size'"*VERDICT*) ok ;; *) fail "unknown column: $ERR" ;; esac
bad_input 2 "-o with --json" validate --json -o verdict pcp-lists
bad_input 2 "-o with --list" validate --list -o verdict
bad_input 2 "an empty name" validate -o verdict,,quantity pcp-lists

"$CGCTL" validate --help >"$T_TMP/help"
for c in QUANTITY OBSERVED SD PREDICTED DEVIATION VERDICT; do
	grep -q "^  $c  *[a-z]" "$T_TMP/help" && ok || fail "validate --help: no $c column"
done
grep -q '^  -o, --output COLUMNS' "$T_TMP/help" && ok || fail "validate --help: no -o"

done_testing
