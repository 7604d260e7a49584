#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: `get` printed a file of several lines (memory.stat, cgroup.procs) as one
# cell with \x0a inside.  Now a table has a row per line, each with the file's name, and
# JSON's value is the array of the lines.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v python3 >/dev/null || skip "needs python3"

fixture v1
mem=$ROOT/sys/fs/cgroup/memory
printf '11\n22\n' >"$mem/a/cgroup.procs"
lines=$(grep -c . "$mem/a/memory.stat")

cg --root="$ROOT" get /a memory.stat cgroup.procs memory.limit_in_bytes
expect_rc 0 "get, several lines"
case $OUT in *'\x0a'*) fail "a line break escaped in a cell: $OUT" ;; *) ok ;; esac
[ "$(printf '%s\n' "$OUT" | grep -c '^  memory.stat ')" = "$lines" ] && ok ||
	fail "memory.stat: not $lines rows: $OUT"
printf '%s\n' "$OUT" | grep -q '^  memory.stat  *cache [0-9]' && ok || fail "first line's row"
[ "$(printf '%s\n' "$OUT" | grep -c '^  cgroup.procs  *[0-9]')" = 2 ] && ok || fail "2 PIDs: $OUT"
printf '%s\n' "$OUT" | grep -q '^  memory.limit_in_bytes  *64MiB$' && ok || fail "one-line file (a size: readable)"

cg --root="$ROOT" --json get /a memory.stat cgroup.procs memory.limit_in_bytes
expect_rc 0 "--json get"
[ "$(json_get 'j["files"][1]["value"]')" = "['11', '22']" ] && ok || fail "cgroup.procs: $OUT"
[ "$(json_get 'len(j["files"][0]["value"])')" = "$lines" ] && ok || fail "memory.stat lines"
[ "$(json_get 'j["files"][0]["value"][0].split()[0]')" = cache ] && ok || fail "first line"
[ "$(json_get 'j["files"][2]["value"]')" = 67108864 ] && ok || fail "one line: a number"

cg --root="$ROOT" --tsv get /a cgroup.procs
[ "$OUT" = "$(printf 'file\tvalue\ncgroup.procs\t11\ncgroup.procs\t22')" ] && ok ||
	fail "--tsv: $OUT"
# --raw: the contents as they are
cg --root="$ROOT" get --raw /a cgroup.procs
[ "$OUT" = "$(printf '11\n22')" ] && ok || fail "--raw: $OUT"

done_testing
