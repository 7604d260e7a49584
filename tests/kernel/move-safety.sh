#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 15's move safety on the live cgroupfs (v1 cpu and memory scratch cgroups):
#  - two concurrent moves of one PID to different cgroups never leave it split (the
#    move lock), with the second write of each move paused by the fault shim so that,
#    unserialized, they would interleave;
#  - a write refused in the second hierarchy is reported as a split, exit 8;
#  - move --no-plan of a zombie does not report it moved (the kernel accepts the write
#    and moves nothing);
#  - a batch of 300 PIDs (written on two CPUs: the first hierarchy, then a second thread
#    the others) with a zombie, a gone PID and one refused cpu write: every other PID
#    whole in the destination, the one refused reported split, exit 8;
#  - a dry run predicts what the real run meets: a kernel thread (also with --no-plan),
#    and a caller that is not root (v1: euid against the task's real/saved UID).
. "$top_srcdir/tests/kernel/netlink-lib.sh"
SHIM="$top_builddir/tests/helpers/.libs/faultshim.so"
[ -f "$SHIM" ] || skip "$SHIM not built"
PAIRS=${MOVE_PAIRS:-300}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# side_of PID CTRL: a, b, c or d: where PID is in the hierarchy of CTRL
side_of() {
	awk -F: -v c="$2" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' \
		"/proc/$1/cgroup" | sed 's,.*/,,'
}

# ---- concurrent moves of one PID ----
start_in a sleep 600
P=$STARTED
sleep 0.1
splits=0 i=0
while [ $i -lt "$PAIRS" ]; do
	i=$((i + 1))
	# each move writes memory, then cpu; the cpu write waits 3 ms (the shim)
	movers=""
	for s in a b; do
		FAULT_PREFIX="$CPU$CPU_REL" FAULT_OP=write FAULT_ACTION=pause:3 \
		FAULT_COUNT=0 LD_PRELOAD="$SHIM" \
			"$CGCTL" --self -q move --no-plan "$P" "$BASE/$s" >/dev/null 2>&1 &
		movers="$movers $!"
	done
	wait $movers
	m=$(side_of "$P" memory) c=$(side_of "$P" cpu)
	[ "$m" = "$c" ] || splits=$((splits + 1))
done
echo "concurrent moves: $PAIRS pairs, $splits split tasks"
[ "$splits" = 0 ] && ok || fail "$splits of $PAIRS concurrent move pairs split the task"

# ---- a refused second write: a split, reported ----
cg --self move --no-plan "$P" "$BASE/a"
expect_rc 0 "move back to a: $ERR"
FAULT_PREFIX="$CPU$CPU_REL/b" FAULT_OP=write FAULT_ACTION=EPERM LD_PRELOAD="$SHIM" \
	cg --self move --no-plan "$P" "$BASE/b"
expect_rc 8 "cpu write refused"
printf '%s\n' "$ERR" | grep -q "^cgctl: move: $P: split: moved in memory but not in cpu" && ok ||
	fail "split not reported: $ERR"
[ "$(side_of "$P" memory)/$(side_of "$P" cpu)" = b/a ] && ok ||
	fail "split state: memory $(side_of "$P" memory), cpu $(side_of "$P" cpu)"
cg --self move --no-plan "$P" "$BASE/a"
expect_rc 0 "whole again: $ERR"

# ---- a zombie ----
start_in c sh -c 'sleep 0.05 & exec sleep 600'
sleep 0.4
Z=$(ps -o pid= --ppid "$STARTED" | tr -d ' ')
[ -n "$Z" ] && [ "$(cut -d' ' -f3 "/proc/$Z/stat")" = Z ] || skip "no zombie to move"
for plan in --no-plan ""; do
	cg --self --json move $plan "$Z" "$BASE/d"
	expect_rc 4 "zombie $plan"
	printf '%s\n' "$ERR" | grep -q "$Z: a zombie" && ok || fail "zombie $plan: $ERR"
	[ -z "$OUT" ] && ok || fail "zombie $plan reported: $OUT"
done
cg --self --json move --no-plan "$Z" "$P" "$BASE/d"
expect_rc 8 "zombie among others"
[ "$(json_get 'len(j["moves"]), j["moves"][0]["pid"]')" = "1 $P" ] && ok ||
	fail "zombie among others reported moved: $OUT"

# ---- a batch: the later hierarchies written by a second thread ----
start_in c sh -c 'i=0; while [ $i -lt 300 ]; do sleep 600 & i=$((i + 1)); done; wait'
B=$STARTED
i=0
while [ "$(ps -o pid= --ppid "$B" | wc -l)" -lt 300 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
ps -o pid= --ppid "$B" | tr -d ' ' >"$T_TMP/batch"
[ "$(wc -l <"$T_TMP/batch")" = 300 ] || fail "batch: $(wc -l <"$T_TMP/batch") of 300 started"
sh -c 'exit 0' & GONE=$!
wait "$GONE"
R=$(sed -n 100p "$T_TMP/batch")	# the 100th cpu write is refused: R's
{ cat "$T_TMP/batch"; echo "$Z"; echo "$GONE"; } >"$T_TMP/batch-in"
FAULT_PREFIX="$CPU$CPU_REL/d" FAULT_OP=write FAULT_NTH=100 FAULT_ACTION=EPERM \
	LD_PRELOAD="$SHIM" cg_in "$(cat "$T_TMP/batch-in")" --self --json move --no-plan - \
	"$BASE/d"
expect_rc 8 "batch with a zombie, a gone PID and a refused write: $ERR"
printf '%s\n' "$ERR" | grep -q "^cgctl: move: $R: split: moved in memory but not in cpu" &&
	ok || fail "batch: split of $R not reported: $ERR"
printf '%s\n' "$ERR" | grep -q "$Z: a zombie" && ok || fail "batch: zombie not reported: $ERR"
whole=0 split=""
while read -r pid; do
	m=$(side_of "$pid" memory) c=$(side_of "$pid" cpu)
	if [ "$m/$c" = d/d ]; then
		whole=$((whole + 1))
	elif [ "$pid" != "$R" ] || [ "$m/$c" != d/c ]; then
		split="$split $pid:$m/$c"
	fi
done <"$T_TMP/batch"
[ "$whole" = 299 ] && [ -z "$split" ] && ok ||
	fail "batch: $whole of 299 whole in d, elsewhere:$split"
[ "$(json_get 'len(j["moves"])')" = 299 ] && ok ||
	fail "batch: $(json_get 'len(j["moves"])') moves reported, want 299"
kill -- -"$B" 2>/dev/null

# ---- dry runs against the real run ----
# kthreadd (PID 2 in the initial PID namespace) is a kernel thread
if [ "$(($(cut -d' ' -f9 /proc/2/stat 2>/dev/null || echo 0) & 0x200000))" != 0 ]; then
	for plan in --no-plan ""; do
		cg --self move --dry-run $plan 2 "$BASE/d"
		dry=$RC
		cg --self move $plan 2 "$BASE/d"
		[ "$dry" = "$RC" ] && [ "$RC" = 1 ] && ok ||
			fail "kernel thread $plan: dry run exit $dry, move exit $RC ($ERR)"
	done
fi
# not root: nobody moving root's task (v1 euid rule), and its own task, into d whose
# cgroup.procs nobody may write
NOBODY=65534
if ! nobody_runs_cgctl; then	# the checks so far stand; the unprivileged ones cannot run
	echo "move-safety: unprivileged moves not run: user nobody cannot run $CGCTL"
	done_testing
fi
for h in "$CPU$CPU_REL/d" "$MEM$MEM_REL/d" ${ACCT_DIR:+"$ACCT_DIR/d"}; do
	chown "$NOBODY" "$h/cgroup.procs" "$h/tasks" || skip "cannot delegate $h"
done
start_in c setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups sleep 600
N=$STARTED
sleep 0.2
as_nobody() {
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$CGCTL" "$@" \
		>"$T_TMP/out" 2>"$T_TMP/err" </dev/null
	RC=$?
	ERR=$(cat "$T_TMP/err")
}
# (the plan of nobody's own task is left out: its verdict may differ from a dry run's)
for run in "$P --no-plan" "$P --plan" "$N --no-plan"; do
	set -- $run
	pid=$1 plan=$2
	[ "$plan" = --plan ] && plan=""
	{
		as_nobody --self move --dry-run $plan "$pid" "$BASE/d"
		dry=$RC dryerr=$ERR
		as_nobody --self move $plan "$pid" "$BASE/d"
		[ "$dry" = "$RC" ] && ok ||
			fail "nobody moving $pid $plan: dry run exit $dry ($dryerr), move exit $RC ($ERR)"
		want=0
		[ "$pid" = "$P" ] && want=3
		[ "$RC" = "$want" ] && ok || fail "nobody moving $pid $plan: exit $RC, want $want ($ERR)"
		[ "$RC" = 0 ] && cg --self move --no-plan "$pid" "$BASE/c"
	}
done
done_testing
