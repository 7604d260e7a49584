#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The fault-injection shim (tests/helpers/faultshim.c) on a fixture `cgctl --root set`:
# inactive it changes nothing; it fails the n-th write under a directory with EINVAL,
# EIO or EBUSY (and the file keeps its value), shortens it, pauses it, fails the n-th
# open, and logs the calls it counts (the step numbers of a write plan).
. "$top_srcdir/tests/lib.sh"
SHIM="$top_builddir/tests/helpers/.libs/faultshim.so"
[ -f "$SHIM" ] || skip "$SHIM not built"
# an ASan build wants libasan first in the list; the shim does not need that
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

fixture v1
R="--root=$ROOT"
M="$ROOT/sys/fs/cgroup/memory"
lim=memory.limit_in_bytes
soft=memory.soft_limit_in_bytes
[ -f "$M/a/$lim" ] && [ -f "$M/a/$soft" ] || skip "fixture v1 lacks /a/$lim or $soft"

# shim VAR=VALUE... -- CGCTL ARGS: cg with the shim preloaded and these variables
shim() {
	unset FAULT_PREFIX FAULT_OP FAULT_NTH FAULT_COUNT FAULT_ACTION FAULT_LOG
	while [ "$1" != -- ]; do export "$1"; shift; done
	shift
	LD_PRELOAD="$SHIM" cg "$@"
	unset FAULT_PREFIX FAULT_OP FAULT_NTH FAULT_COUNT FAULT_ACTION FAULT_LOG
}
one_line() {
	[ -n "$ERR" ] && [ "$(printf '%s\n' "$ERR" | wc -l)" = 1 ] && ok ||
		fail "$1: want one line on stderr: $ERR"
}

# inactive (no FAULT_PREFIX): an ordinary set
shim -- "$R" set /a "$lim=1048576"
expect_rc 0 "shim without FAULT_PREFIX"
[ "$(cat "$M/a/$lim")" = 1048576 ] && ok || fail "inactive shim: $lim not written"

# the first write under the tree fails with each errno; nothing changes
for e in EINVAL EIO EBUSY; do
	snapshot before
	shim FAULT_PREFIX="$ROOT/sys/fs/cgroup" FAULT_ACTION=$e -- "$R" set /a "$lim=2097152"
	[ "$RC" != 0 ] && ok || fail "$e: set exited 0"
	one_line "$e"
	expect_unchanged "$e on the first write"
done
# the errno reaches the message: EBUSY's text
shim FAULT_PREFIX="$ROOT/sys/fs/cgroup" FAULT_ACTION=EBUSY -- "$R" set /a "$lim=2097152"
case $ERR in *busy*|*Busy*) ok ;; *) fail "EBUSY not in the message: $ERR" ;; esac

# a prefix elsewhere: the shim counts nothing, the write goes through
shim FAULT_PREFIX="$ROOT/sys/fs/cgroup/cpu" FAULT_ACTION=EIO FAULT_LOG="$T_TMP/log0" -- "$R" set /a "$lim=3145728"
expect_rc 0 "prefix elsewhere"
[ "$(cat "$M/a/$lim")" = 3145728 ] && ok || fail "prefix elsewhere: not written"
[ ! -s "$T_TMP/log0" ] && ok || fail "prefix elsewhere: calls counted: $(cat "$T_TMP/log0")"

# the log numbers the writes of a two-file set; never hit (N=100): both written
shim FAULT_PREFIX="$M" FAULT_NTH=100 FAULT_LOG="$T_TMP/log1" -- \
	"$R" set /a "$lim=4194304" "$soft=1048576"
expect_rc 0 "counting only"
n=$(grep -c '^write [0-9]* pass ' "$T_TMP/log1")
[ "$n" -ge 2 ] && ok || fail "log of a two-file set: $(cat "$T_TMP/log1")"
grep -q "pass $M/a/$lim\$" "$T_TMP/log1" && grep -q "pass $M/a/$soft\$" "$T_TMP/log1" &&
	ok || fail "log lacks the files: $(cat "$T_TMP/log1")"

# the last write of that plan fails: set fails, and the log says which call was hit
shim FAULT_PREFIX="$M" FAULT_NTH="$n" FAULT_ACTION=EINVAL FAULT_LOG="$T_TMP/log2" -- \
	"$R" set /a "$lim=8388608" "$soft=2097152"
[ "$RC" != 0 ] && ok || fail "write $n of $n failed, yet set exited 0"
[ "$(grep -c ' HIT ' "$T_TMP/log2")" = 1 ] && grep -q "^write $n HIT " "$T_TMP/log2" && ok ||
	fail "hit log: $(cat "$T_TMP/log2")"

# short: all but the last byte is written, cgfs reports the short write
shim FAULT_PREFIX="$M" FAULT_ACTION=short -- "$R" set /a "$lim=5242880"
[ "$RC" != 0 ] && ok || fail "short write: set exited 0"
one_line "short write"

# pause: the write happens, 300 ms late
t0=$(date +%s%N)
shim FAULT_PREFIX="$M" FAULT_ACTION=pause:300 -- "$R" set /a "$lim=6291456"
t1=$(date +%s%N)
expect_rc 0 "paused write"
[ "$(cat "$M/a/$lim")" = 6291456 ] && ok || fail "paused write not done"
[ $(((t1 - t0) / 1000000)) -ge 300 ] && ok || fail "pause: only $(((t1 - t0) / 1000000)) ms"

# open: the first open under the cgroup fails with EIO; nothing changes
snapshot before
shim FAULT_PREFIX="$M/a" FAULT_OP=open FAULT_ACTION=EIO FAULT_COUNT=0 -- \
	"$R" set /a "$lim=7340032"
[ "$RC" != 0 ] && ok || fail "failing opens: set exited 0"
one_line "failing opens"
expect_unchanged "failing opens"

# FAULT_SIGDFL=1: a background job (SIGINT ignored in a script) dies of SIGINT again
for dfl in 1 0; do
	env FAULT_SIGDFL=$dfl LD_PRELOAD="$SHIM" sleep 2 &
	p=$!
	sleep 0.3
	kill -INT $p
	wait $p
	rc=$?
	if [ $dfl = 1 ]; then
		[ $rc = 130 ] && ok || fail "FAULT_SIGDFL=1: SIGINT did not end the job ($rc)"
	else
		[ $rc = 0 ] && ok || fail "without FAULT_SIGDFL the job's SIGINT is ignored ($rc)"
	fi
done
done_testing
