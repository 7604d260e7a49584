#!/bin/sh
# Issue 33: bw record -o FILE checks FILE before it records, not after the whole
# duration: a file that cannot be created fails at once (one line naming it, exit 4),
# even before the PIDs are looked at; a recording that fails leaves an existing FILE as
# it was and no new one behind.
. "$top_srcdir/tests/lib.sh"

# a PID that no process has
max=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 32768)
gone=$((max - 1))
while [ -e "/proc/$gone" ]; do gone=$((gone - 1)); done

cg bw record --duration 30s --output /no/such/dir/x "$gone"
expect_rc 4 "-o in a missing folder"
expect_err "cgctl: bw record: /no/such/dir/x: no such file or directory" "-o in a missing folder"
expect_no_out "-o in a missing folder"

echo keep >"$T_TMP/old"
cg bw record --duration 30s --output "$T_TMP/old" "$gone"
expect_rc 4 "no such process"
[ "$(cat "$T_TMP/old")" = keep ] && ok || fail "a failed recording changed the -o file"
cg bw record --duration 30s --output "$T_TMP/new" "$gone"
expect_rc 4 "no such process, new file"
[ -e "$T_TMP/new" ] && fail "a failed recording left its -o file behind" || ok
done_testing
