#!/bin/sh
# Kernel tier: move a task that touched 16 MiB to a sibling cgroup.  On this kernel
# (6.13+ or any v2) the plan says nothing moves and the observed deltas must match
# within the stock bound; on 2.6.34-6.12 with move_charge 0 the same holds.
. "$top_srcdir/tests/lib.sh"
require_root
TOUCH="$top_builddir/tests/kernel/mem-touch"
[ -x "$TOUCH" ] || skip "tests/kernel/mem-touch not built"
MNT=$(mount_of memory)
[ -n "$MNT" ] || skip "no v1 memory hierarchy"

PIDS=""
kill_tasks() { for p in $PIDS; do kill -9 "$p" 2>/dev/null; done; sleep 0.1; }
at_exit kill_tasks

scratch a memory "cgctl-move-a-$$"
scratch b memory "cgctl-move-b-$$"
ready="$T_TMP/ready"
# shellcheck disable=SC2016
sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" 16 "$3"' sh "$MNT$a" "$TOUCH" "$ready" &
pid=$!
PIDS=$pid
i=0
while [ ! -e "$ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$ready" ] || skip "toucher did not start"

cg --json move --dry-run -c memory "$pid" "$b"
expect_rc 0 "dry run"
[ "$(json_get 'j["moves"][0]["expected"]["total_bytes"]')" = 0 ] && ok || \
	fail "plan: nothing moves with move_charge 0 / removed: $OUT"
stays=$(json_get 'j["moves"][0]["expected"]["stays_bytes"]')
[ "$stays" -ge $((16 << 20)) ] && ok || fail "16 MiB stay behind: $stays"
grep -qx "$pid" "$MNT$a/cgroup.procs" && ok || fail "dry run moved the task"

cg --json move -c memory "$pid" "$b"
expect_rc 0 "move"
[ "$(json_get 'j["moves"][0]["verdict"]')" = match ] && ok || fail "verdict: $OUT"
grep -qx "$pid" "$MNT$b/cgroup.procs" && ok || fail "task not in the sibling"
[ "$(json_get 'j["moves"][0]["from"]')" = "$a" ] && ok || fail "from: $OUT"
# the charges stay with a: kpagecgroup still names a (mem where agrees)
usage_a=$(cat "$MNT$a/memory.usage_in_bytes")
[ "$usage_a" -ge $((16 << 20)) ] && ok || fail "a kept its charges: $usage_a"

# a vanished PID next to a live one: one line, the live one moved back, exit 8
cg move -c memory --no-plan "$pid" 999999999 "$a"
expect_rc 8 "partial"
grep -qx "$pid" "$MNT$a/cgroup.procs" && ok || fail "live PID moved back"

# 100 PIDs on stdin (from 64 on, their "from" is read ahead by a second thread): each
# moved with the right "from", a vanished one in the middle named, exit 8
# shellcheck disable=SC2016
sh -c 'echo $$ >"$1/cgroup.procs"; i=0; while [ $i -lt 100 ]; do sleep 600 & i=$((i + 1)); done
	wait' sh "$MNT$a" &
PIDS="$PIDS $!"
i=0
while [ "$(grep -c . "$MNT$a/cgroup.procs")" -lt 102 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
many=$(grep -vx "$pid" "$MNT$a/cgroup.procs")
PIDS="$PIDS $many"
[ "$(echo "$many" | grep -c .)" = 101 ] && ok || fail "101 tasks in a: $many"
list=$(echo "$many" | head -n 50; echo 999999999; echo "$many" | tail -n +51)
cg_in "$list" --json move -c memory --no-plan - "$b"
expect_rc 8 "many PIDs, one vanished"
[ "$(json_get 'len(j["moves"])')" = 101 ] && ok || fail "101 moves reported: $OUT"
[ "$(json_get 'sorted(set(m["from"] for m in j["moves"]))')" = "['$a']" ] && ok || \
	fail "every from is a: $OUT"
[ "$(json_get '",".join(str(m["pid"]) for m in j["moves"])')" = \
  "$(echo "$many" | tr '\n' ',' | sed 's/,$//')" ] && ok || fail "moves in input order"
[ "$(grep -c . "$MNT$b/cgroup.procs")" = 101 ] && ok || fail "all 101 in b"
case $ERR in *999999999*"no such process"*) ok ;; *) fail "vanished PID: $ERR" ;; esac
[ "$(echo "$ERR" | grep -c .)" = 1 ] && ok || fail "one error line: $ERR"
# PIDs spread over several cgroups: the reader's thread lists give each PID its own
# "from" (b for most, c1..c6 for six), both while the lists pay and after they stop
# paying (c1..c4 first: four list reads that find nothing more, then /proc per PID)
for k in 1 2 3 4 5 6; do
	scratch "c$k" memory "cgctl-move-c$k-$$"
done
six=$(echo "$many" | head -n 6)
k=1
expect=""
for p in $six; do
	eval "c=\$c$k"
	echo "$p" >"$MNT$c/cgroup.procs" || fail "into $c"
	expect="$expect$p:$c
"
	k=$((k + 1))
done
rest=$(echo "$many" | tail -n +7)
expect="$expect$(echo "$rest" | sed "s|\$|:$b|")"
for order in lists-stop lists-pay; do
	if [ $order = lists-stop ]; then
		list=$(echo "$six"; echo "$rest")
	else
		list=$(echo "$rest" | head -n 40; echo "$six"; echo "$rest" | tail -n +41)
	fi
	cg_in "$list" --json move -c memory --no-plan - "$a"
	expect_rc 0 "spread PIDs ($order)"
	got=$(json_get '"\n".join(sorted(set("%d:%s" % (m["pid"], m["from"]) for m in j["moves"])))')
	[ "$got" = "$(echo "$expect" | LC_ALL=C sort)" ] && ok || fail "every from ($order): $got"
	[ "$(json_get 'len(j["moves"])')" = 101 ] && ok || fail "101 moves ($order): $OUT"
	[ "$(grep -c . "$MNT$a/cgroup.procs")" = 102 ] && ok || fail "all in a ($order)"
	# back where they were for the next order
	k=1
	for p in $six; do
		eval "echo $p >\"\$MNT\$c$k/cgroup.procs\""
		k=$((k + 1))
	done
	for p in $rest; do echo "$p" >"$MNT$b/cgroup.procs"; done
done
done_testing
