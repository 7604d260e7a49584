#!/bin/sh
# Issue 29: one input grammar.  A bare duration is microseconds everywhere; where it
# meant milliseconds or seconds (watch -i, move --sample, bw record/recommend and bench
# --duration) a bare number is refused with a hint, not read anew.  "max" is accepted
# wherever unlimited is (bw set --quota max).  Checks that fail before any write exit 2.
. "$top_srcdir/tests/lib.sh"

fixture bw-v1
C=$ROOT/sys/fs/cgroup/cpu
# ---- bare numbers that meant ms or s: refused, exit 2, one line with the unit ----
for args in "watch -i 500 /x" "watch --interval=250 /x" "move --no-plan --sample 300 1 /x" \
	    "bw record --duration 5 1" "bw recommend --trace 1 --duration 2" "bench --duration 3 fault"; do
	# shellcheck disable=SC2086
	bad_input 2 "$args" --root "$ROOT" $args
	case $ERR in *"needs a unit"*"microseconds"*) ok ;; *) fail "$args: '$ERR'" ;; esac
done
# with a unit, or 0, they are read
cg --root "$ROOT" watch -i 10ms --count 1 /x
expect_rc 0 "watch -i 10ms"
# ---- a bare quota is microseconds ----
cg --root "$ROOT" bw set --quota 20000 --period 100000 /x
expect_rc 0 "bw set --quota 20000"
[ "$(cat "$C/x/cpu.cfs_quota_us")" = 20000 ] && ok || fail "quota 20000us"
# ---- max wherever unlimited is ----
cg --root "$ROOT" bw set --quota max /x
expect_rc 0 "bw set --quota max (v1)"
[ "$(cat "$C/x/cpu.cfs_quota_us")" = -1 ] && ok || fail "v1 quota max: $(cat "$C/x/cpu.cfs_quota_us")"
bad_input 2 "--quota max --unlimited" --root "$ROOT" bw set --quota max --unlimited /x
fixture bw-v2
cg --root "$ROOT" bw set --quota 50ms /a
expect_rc 0 "v2 quota 50ms"
cg --root "$ROOT" bw set --quota max /a
expect_rc 0 "bw set --quota max (v2)"
[ "$(cut -d' ' -f1 "$ROOT/sys/fs/cgroup/a/cpu.max")" = max ] && ok ||
	fail "v2 quota max: $(cat "$ROOT/sys/fs/cgroup/a/cpu.max")"
# ---- checks before any write: exit 2, nothing changed ----
fixture bw-v1
bad_input 2 "quota 500us" --root "$ROOT" bw set --quota 500us /x
expect_unchanged "quota 500us"
bad_input 2 "period 2s" --root "$ROOT" bw set --period 2s /x
expect_unchanged "period 2s"
fixture mem-v1
bad_input 2 "memsw below the limit" --root "$ROOT" mem set /lim --memsw-limit 64M
expect_unchanged "memsw below the limit"
done_testing
