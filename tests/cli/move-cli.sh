#!/bin/sh
# cgctl move against the v1 fixture: bad input leaves the tree byte-identical; vanished,
# kernel-thread and zombie PIDs get one line each while the others are moved (exit 8).
. "$top_srcdir/tests/lib.sh"

M=sys/fs/cgroup/memory
fixture mem-v1

# fake_task PID STATE FLAGS CGROUP
fake_task() {
	mkdir -p "$ROOT/proc/$1"
	echo "$1 (t) $2 1 $1 $1 0 -1 $3 0 0 0 0 0 0 0 0 20 0 1 0" >"$ROOT/proc/$1/stat"
	printf '4:memory:%s\n0::/\n' "$4" >"$ROOT/proc/$1/cgroup"
}
fake_task 100 S 4194304 /a
fake_task 101 S 4194304 /a
fake_task 102 S 2097152 /	# PF_KTHREAD
fake_task 103 Z 4194304 /a

bad_input 2 "no PID" --root "$ROOT" move /c
bad_input 2 "not a PID" --root "$ROOT" move 12x /c
bad_input 2 "PID 0" --root "$ROOT" move 0 /c
bad_input 4 "no such cgroup" --root "$ROOT" move 100 /nope
bad_input 4 "no such controller" --root "$ROOT" move -c bogus 100 /c
bad_input 4 "vanished PID" --root "$ROOT" move 4242 /c
expect_err "cgctl: move: 4242: no such process (it exited)" "vanished line"
bad_input 1 "kernel thread" --root "$ROOT" move 102 /c
bad_input 4 "zombie" --root "$ROOT" move 103 /c

snapshot before
cg --root "$ROOT" --json move --dry-run --no-plan 100 /c
expect_rc 0 "dry run"
expect_unchanged "dry run"
[ "$(json_get '"observed" in j["moves"][0], j["moves"][0]["verdict"]')" = "False n/a" ] \
	&& ok || fail "dry run: no observed: $OUT"

cg --root "$ROOT" --json move --no-plan 100 4242 102 101 /c
expect_rc 8 "partial"
[ "$(printf '%s\n' "$ERR" | grep -c '^cgctl: move: ')" = 2 ] && ok || fail "two lines: $ERR"
[ "$(cat "$ROOT/$M/c/cgroup.procs" | tr '\n' ' ')" = "100 101 " ] && ok || \
	fail "100 and 101 moved: $(cat "$ROOT/$M/c/cgroup.procs")"
[ "$(json_get 'len(j["moves"]), j["moves"][0]["from"], j["moves"][1]["pid"]')" = \
	"2 /a 101" ] && ok || fail "json moves: $OUT"

fixture mem-v1
fake_task 100 S 4194304 /a
fake_task 101 S 4194304 /a
cg_in "100
101
" --root "$ROOT" -q move --no-plan - /c
expect_rc 0 "PIDs on stdin"
[ "$(cat "$ROOT/$M/c/cgroup.procs" | tr '\n' ' ')" = "100 101 " ] && ok || fail "stdin moved"

# PIDs separated by any blanks (echo "$P1 $P2" | cgctl move - X)
fixture mem-v1
fake_task 100 S 4194304 /a
fake_task 101 S 4194304 /a
cg_in "100	101
" --root "$ROOT" -q move --no-plan - /c
expect_rc 0 "two PIDs on one stdin line"
[ "$(cat "$ROOT/$M/c/cgroup.procs" | tr '\n' ' ')" = "100 101 " ] && ok || fail "line moved"
# an empty source: nothing to do is success, with the destination still checked
cg --root "$ROOT" --json move --no-plan - /c
expect_rc 0 "empty stdin"
[ "$OUT" = '{"moves":[]}' ] && ok || fail "empty stdin prints an empty list: $OUT"
bad_input 4 "empty stdin, missing destination" --root "$ROOT" move --no-plan - /nope
cg --root "$ROOT" --json mem where -
expect_rc 0 "mem where, empty stdin"
cg_in "100 x
" --root "$ROOT" move --no-plan - /c
expect_rc 2 "a bad token"
expect_err "cgctl: move: stdin line 1: 'x' is not a PID" "the token, not the line"

done_testing
