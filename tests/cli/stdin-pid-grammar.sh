#!/bin/sh
# Issue 33: a PID on stdin is what a PID argument is: ' 4242' and '4242\r' (a blank
# before, a CRLF line) are refused on stdin as they are as arguments (exit 2, one line,
# nothing moved).  A line holds PIDs one space or tab apart; empty lines hold none.
. "$top_srcdir/tests/lib.sh"

M=sys/fs/cgroup/memory
fixture mem-v1
fake_task() {
	mkdir -p "$ROOT/proc/$1"
	echo "$1 (t) S 1 $1 $1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0" >"$ROOT/proc/$1/stat"
	printf '4:memory:/a\n0::/\n' >"$ROOT/proc/$1/cgroup"
}
fake_task 100
fake_task 101

# pin FORMAT ARGS...: printf FORMAT | cgctl ARGS, as bad_input checks it
pin() {
	fmt=$1 desc=$2
	shift 2
	snapshot before
	# shellcheck disable=SC2059
	printf "$fmt" | "$CGCTL" "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(cat "$T_TMP/out")
	ERR=$(cat "$T_TMP/err")
}

for bad in ' 100\n' '100\r\n' '100 \n' '100  101\n' '100\t 101\n' '100\n\t101\n'; do
	pin "$bad" "stdin '$bad'" --root "$ROOT" -q move --no-plan - /c
	expect_rc 2 "move, stdin '$bad'"
	expect_err_line "move, stdin '$bad'"
	expect_no_out "move, stdin '$bad'"
	expect_unchanged "move, stdin '$bad'"
	pin "$bad" "stdin '$bad'" --root "$ROOT" mem where -
	expect_rc 2 "mem where, stdin '$bad'"
	# the same text as an argument is refused too: one grammar
	case $bad in *'\n'*'\n'*) continue ;; esac
	arg=$(printf "${bad%\\n}")
	cg --root "$ROOT" -q move --no-plan "$arg" /c
	expect_rc 2 "move, argument '$bad'"
done
pin '100\r\n' "CR" --root "$ROOT" -q move --no-plan - /c
expect_err "cgctl: move: stdin line 1: '100\\x0d' is not a PID" "CR escaped, named"

# good lists: one per line, one space or tab apart, empty lines
pin '100 101\n' "space" --root "$ROOT" -q move --no-plan - /c
expect_rc 0 "two PIDs one space apart"
fixture mem-v1
fake_task 100
fake_task 101
pin '\n100\t101\n\n' "tab, empty lines" --root "$ROOT" -q move --no-plan - /c
expect_rc 0 "a tab apart, empty lines"
[ "$(tr '\n' ' ' <"$ROOT/$M/c/cgroup.procs")" = "100 101 " ] && ok ||
	fail "moved: $(cat "$ROOT/$M/c/cgroup.procs")"
done_testing
