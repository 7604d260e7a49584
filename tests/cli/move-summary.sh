#!/bin/sh
# cgctl move of many PIDs in the human output: a screenful of rows (20), then one line
# for the destination with the totals (tasks, threads, failures), which PIDs failed (one
# line each on stderr) and how to get every row; --json, --tsv and -v keep one row per
# PID, and a move of 20 PIDs or fewer prints every row as before.
. "$top_srcdir/tests/lib.sh"

M=sys/fs/cgroup/memory

# fake_task PID CGROUP: a sleeping task of one thread
fake_task() {
	mkdir -p "$ROOT/proc/$1"
	echo "$1 (t) S 1 $1 $1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0" >"$ROOT/proc/$1/stat"
	printf '4:memory:%s\n0::/\n' "$2" >"$ROOT/proc/$1/cgroup"
}
# setup N: a fresh fixture with tasks 1000..1000+N-1 in /a; $PIDS lists them
setup() {
	fixture mem-v1
	PIDS=
	i=0
	while [ $i -lt "$1" ]; do
		fake_task $((1000 + i)) /a
		PIDS="$PIDS $((1000 + i))"
		i=$((i + 1))
	done
}
# rows: the data rows of the human "moves" table in $OUT (lines starting with a PID)
rows() { printf '%s\n' "$OUT" | grep -cE '^ *1[0-9]{3} '; }

setup 30
# shellcheck disable=SC2086
cg --root "$ROOT" move --no-plan $PIDS 4242 /c
expect_rc 8 "30 moved, one vanished"
[ "$(rows)" = 20 ] && ok || fail "a screenful of rows, not $(rows): $OUT"
printf '%s\n' "$OUT" | grep -qE '^ */c +30 +[-0-9]+ +- +- +1$' && ok ||
	fail "one line for /c: 30 tasks, 1 failed: $OUT"
expect_out_has "20 of 30 rows shown, failures above; every row: --json, --tsv or -v"
expect_err "cgctl: move: 4242: no such process (it exited)" "the failure, one line"
[ "$(wc -l <"$ROOT/$M/c/cgroup.procs")" = 30 ] && ok || fail "all 30 moved"

for opt in -v --tsv; do
	setup 30
	# shellcheck disable=SC2086
	cg --root "$ROOT" $opt move --no-plan $PIDS /c
	expect_rc 0 "$opt"
	n=$(printf '%s\n' "$OUT" | grep -cE '^ *1[0-9]{3}[ 	]')
	[ "$n" = 30 ] && ok || fail "$opt: every row, not $n: $OUT"
	printf '%s\n' "$OUT" | grep -q 'rows shown' && fail "$opt: a summary: $OUT" || ok
done

setup 30
# shellcheck disable=SC2086
cg --root "$ROOT" --json move --no-plan $PIDS /c
expect_rc 0 "--json"
[ "$(json_get 'len(j["moves"]), "summary" in j')" = "30 False" ] && ok ||
	fail "--json: one row per PID, no summary: $OUT"

setup 20
# shellcheck disable=SC2086
cg --root "$ROOT" move --no-plan $PIDS /c
expect_rc 0 "20 PIDs"
[ "$(rows)" = 20 ] && ok || fail "20 PIDs: every row, not $(rows): $OUT"
printf '%s\n' "$OUT" | grep -q 'rows shown' && fail "20 PIDs: a summary: $OUT" || ok

done_testing
