#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: `get` refused -b ("-b: unknown option", exit 2) and -o, which the other
# commands that print tables take.  Now its human table shows sizes and times readable
# (8MiB, 50ms) and -b prints them as the files hold them; -o picks FILE and VALUE,
# --help lists the columns; --json and --tsv keep the numbers as they were.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"

fixture v1
cg --root="$ROOT" get /a memory.usage_in_bytes cpu.cfs_quota_us memory.swappiness
expect_rc 0 "get"
printf '%s\n' "$OUT" | grep -q '^  memory.usage_in_bytes  *8MiB$' && ok || fail "bytes: $OUT"
printf '%s\n' "$OUT" | grep -q '^  cpu.cfs_quota_us  *50ms$' && ok || fail "usec: $OUT"
printf '%s\n' "$OUT" | grep -q '^  memory.swappiness  *[0-9][0-9]*$' && ok ||
	fail "a number without a unit: $OUT"

cg --root="$ROOT" get -b /a memory.usage_in_bytes cpu.cfs_quota_us
expect_rc 0 "get -b"
printf '%s\n' "$OUT" | grep -q '^  memory.usage_in_bytes  *8388608$' && ok || fail "-b bytes: $OUT"
printf '%s\n' "$OUT" | grep -q '^  cpu.cfs_quota_us  *50000$' && ok || fail "-b usec: $OUT"
cg --root="$ROOT" get --bytes /a memory.usage_in_bytes
expect_rc 0 "get --bytes"

# -o: the columns, in the order given
cg --root="$ROOT" get -o value /a memory.usage_in_bytes cgroup.procs
expect_rc 0 "get -o value"
printf '%s\n' "$OUT" | grep -q '^  8MiB$' && ok || fail "-o value: $OUT"
printf '%s\n' "$OUT" | grep -q 'memory.usage_in_bytes' && fail "-o value printed FILE: $OUT" || ok
cg --root="$ROOT" get -o VALUE,FILE -n /a memory.usage_in_bytes
expect_rc 0 "get -o VALUE,FILE -n"
printf '%s\n' "$OUT" | grep -q '^  8MiB  *memory.usage_in_bytes$' && ok || fail "-o VALUE,FILE: $OUT"
bad_input 2 "unknown column" --root="$ROOT" get -o size /a memory.usage_in_bytes
case $ERR in *"unknown column 'size'"*FILE*VALUE*) ok ;; *) fail "unknown column: $ERR" ;; esac
bad_input 2 "--raw with -o" --root="$ROOT" get --raw -o value /a memory.usage_in_bytes
bad_input 2 "--json with -b" --root="$ROOT" --json get -b /a memory.usage_in_bytes

# JSON and TSV: the numbers the files hold, unlimited as null
cg --root="$ROOT" --json get /a memory.usage_in_bytes cpu.cfs_quota_us memory.memsw.limit_in_bytes
expect_rc 0 "--json get"
[ "$(json_get '[f["value"] for f in j["files"]]')" = "[8388608, 50000, None]" ] && ok ||
	fail "--json values: $OUT"
cg --root="$ROOT" --tsv get /a cpu.cfs_quota_us
[ "$OUT" = "$(printf 'file\tvalue\ncpu.cfs_quota_us\t50000')" ] && ok || fail "--tsv: $OUT"

# --help: the columns, one a line with its meaning
"$CGCTL" get --help >"$T_TMP/help"
grep -q '^  FILE  *the control file' "$T_TMP/help" && ok || fail "get --help: no FILE column"
grep -q '^  VALUE  *its value' "$T_TMP/help" && ok || fail "get --help: no VALUE column"
grep -q '^  -b, --bytes' "$T_TMP/help" && ok || fail "get --help: no -b"

done_testing
