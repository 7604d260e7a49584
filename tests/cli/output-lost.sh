#!/bin/sh
# Issue 33: a change that was made and whose output could not then be written (standard
# output closed or full) exits 9, "done, output lost", with one line, so that a script
# does not retry it; a command that changed nothing still exits 1.  bw set, mem set and
# set against the v1 fixtures.
. "$top_srcdir/tests/lib.sh"

[ -w /dev/full ] || skip "no writable /dev/full"

# lost CASE REDIR ARGS...: run cgctl with stdout closed (REDIR=closed) or /dev/full
lost() {
	d=$1 how=$2
	shift 2
	if [ "$how" = closed ]; then
		"$CGCTL" "$@" >&- 2>"$T_TMP/err" </dev/null
	else
		"$CGCTL" "$@" >/dev/full 2>"$T_TMP/err" </dev/null
	fi
	RC=$?
	ERR=$(cat "$T_TMP/err")
}

one_line() {
	n=$(printf '%s\n' "$ERR" | wc -l)
	if [ "$n" -eq 1 ] && [ -n "$ERR" ]; then ok; else fail "$1: $n lines: $ERR"; fi
}

fixture bw-v1
C=$ROOT/sys/fs/cgroup/cpu
for how in closed full; do
	lost "bw set $how" $how --root "$ROOT" bw set --quota 20ms --period 100ms /x
	expect_rc 9 "bw set, stdout $how"
	one_line "bw set, stdout $how"
	case "$ERR" in *"change was made"*) ok ;; *) fail "bw set $how: '$ERR'" ;; esac
	[ "$(cat "$C/x/cpu.cfs_quota_us")" = 20000 ] && ok || fail "bw set $how: not written"
	echo 50000 >"$C/x/cpu.cfs_quota_us"
	lost "set $how" $how --root "$ROOT" --json set /x cpu.cfs_quota_us=30000
	expect_rc 9 "set --json, stdout $how"
	one_line "set, stdout $how"
	[ "$(cat "$C/x/cpu.cfs_quota_us")" = 30000 ] && ok || fail "set $how: not written"
	# nothing changed: a read-only command whose output is lost fails (1)
	lost "bw show $how" $how --root "$ROOT" bw show /x
	expect_rc 1 "bw show, stdout $how"
	# a refused change is still 2, whatever stdout is
	lost "bw set refused $how" $how --root "$ROOT" bw set --quota 500us /x
	expect_rc 2 "bw set refused, stdout $how"
done

fixture mem-v1
M=$ROOT/sys/fs/cgroup/memory
for how in closed full; do
	lost "mem set $how" $how --root "$ROOT" mem set /a --soft-limit 64M
	expect_rc 9 "mem set, stdout $how"
	one_line "mem set, stdout $how"
	[ "$(cat "$M/a/memory.soft_limit_in_bytes")" = 67108864 ] && ok ||
		fail "mem set $how: not written"
	echo 0 >"$M/a/memory.soft_limit_in_bytes"
done
# -o names no key of the output: known only once the change is made, so exit 9 and one
# line, not 2 ("nothing was changed")
cg --root "$ROOT" mem set -o nosuchkey /a --soft-limit 32M
expect_rc 9 "mem set -o nosuchkey"
one_line "mem set -o nosuchkey"
[ "$(cat "$M/a/memory.soft_limit_in_bytes")" = 33554432 ] && ok || fail "mem set -o: not written"
cg --root "$ROOT" mem show -o nosuchkey /a
expect_rc 2 "mem show -o nosuchkey (nothing changed)"
done_testing
