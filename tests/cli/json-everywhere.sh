#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: --json was ignored silently by `validate --list`, `bw record` and `help`.
# Now validate --list prints JSON; the other two refuse it with exit 2 (usage).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v python3 >/dev/null || skip "needs python3"

cg --json validate --list
expect_rc 0 "--json validate --list"
n=$("$CGCTL" validate --list | wc -l)
[ "$(json_get 'len(j["scenarios"])' 2>/dev/null)" = "$n" ] && ok ||
	fail "--json validate --list: not $n scenarios as JSON: $OUT"
json_get 'all(s["name"] and s["summary"] for s in j["scenarios"])' | grep -q True && ok ||
	fail "names and summaries"
cg validate --list --json
expect_rc 0 "validate --list --json"
[ "$(json_get 'len(j["scenarios"])' 2>/dev/null)" = "$n" ] && ok || fail "validate --list --json: $OUT"

for args in "help" "help bw" "bw record --duration 1s $$"; do
	# shellcheck disable=SC2086
	cg --json $args
	expect_rc 2 "--json $args"
	[ -z "$OUT" ] && ok || fail "--json $args printed: $OUT"
	case $ERR in "cgctl: "*"--json"*) ok ;; *) fail "--json $args: stderr '$ERR'" ;; esac
done
cg --tsv help
expect_rc 2 "--tsv help"

done_testing
