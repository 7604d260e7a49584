#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two writers at once (issue 33): `cgctl bw set X --quota 225ms --period 500ms --burst 5ms`
# and `cgctl bw set X --quota 90ms --period 200ms --burst 0`, started together, on a
# child X with a limited parent (0.9 CPU) and a limited grandchild (0.2 CPU), from the
# same state every time (50ms/100ms, no burst).  Each writer holds the cgroup lock from
# its read of X to the end of its plan or rollback, so the group must end as one of the
# two settings whole (never a mix), and a writer that reported success must find its
# setting there unless the other, later, writer replaced it whole: a writer that fails
# must not undo the other's success.  CGCTL_PAIRS pairs (default 200).
# run-test: shared (the race is between its own two writers; no time measured)
. "$top_srcdir/tests/lib.sh"
require_root
cpu=$(mount_of cpu)
[ -n "$cpu" ] || skip "no v1 cpu hierarchy"
[ -f "$cpu/cpu.cfs_burst_us" ] || skip "no cpu.cfs_burst_us (kernel before 5.14)"
PAIRS=${CGCTL_PAIRS:-200}

scratch par cpu "cgctl-writers-$$"
x="$par/x"
mkdir "$cpu$x" "$cpu$x/g" || skip "cannot create cpu cgroups below $par"
P="$cpu$par" X="$cpu$x"
echo 90000 >"$P/cpu.cfs_quota_us" || skip "cannot limit $par"

reset() {
	echo -1 >"$X/g/cpu.cfs_quota_us" && echo 0 >"$X/cpu.cfs_burst_us" &&
		echo -1 >"$X/cpu.cfs_quota_us" && echo 100000 >"$X/cpu.cfs_period_us" &&
		echo 50000 >"$X/cpu.cfs_quota_us" && echo 20000 >"$X/g/cpu.cfs_quota_us"
}
now() { echo "$(cat "$X/cpu.cfs_quota_us") $(cat "$X/cpu.cfs_period_us") $(cat "$X/cpu.cfs_burst_us")"; }
A="225000 500000 5000" B="90000 200000 0" S0="50000 100000 0"

mixed=0 lost=0 both_ok=0 one_ok=0 none_ok=0
i=0
while [ $i -lt "$PAIRS" ]; do
	i=$((i + 1))
	reset || { fail "pair $i: cannot reset $x"; break; }
	"$CGCTL" bw set "$x" --quota 225ms --period 500ms --burst 5ms >/dev/null 2>"$T_TMP/ea" &
	pa=$!
	"$CGCTL" bw set "$x" --quota 90ms --period 200ms --burst 0 >/dev/null 2>"$T_TMP/eb" &
	pb=$!
	wait $pa; ra=$?
	wait $pb; rb=$?
	st=$(now)
	case "$st" in
	"$A"|"$B") ;;
	"$S0") [ $ra != 0 ] && [ $rb != 0 ] ||
		{ lost=$((lost + 1)); echo "pair $i: exits $ra $rb, old state left"; } ;;
	*) mixed=$((mixed + 1)); echo "pair $i: mixed state '$st' (exits $ra $rb)" ;;
	esac
	# a success that did not survive while the other writer failed: lost
	[ $ra = 0 ] && [ $rb != 0 ] && [ "$st" != "$A" ] &&
		{ lost=$((lost + 1)); echo "pair $i: A succeeded, B failed ($(cat "$T_TMP/eb")), left '$st'"; }
	[ $rb = 0 ] && [ $ra != 0 ] && [ "$st" != "$B" ] &&
		{ lost=$((lost + 1)); echo "pair $i: B succeeded, A failed ($(cat "$T_TMP/ea")), left '$st'"; }
	case $ra$rb in
	00) both_ok=$((both_ok + 1)) ;;
	0*|*0) one_ok=$((one_ok + 1)) ;;
	*) none_ok=$((none_ok + 1)); echo "pair $i: both failed: $(cat "$T_TMP/ea") / $(cat "$T_TMP/eb")" ;;
	esac
done
echo "pairs $i: both succeeded $both_ok, one $one_ok, none $none_ok; mixed states $mixed, lost successes $lost"
[ $mixed = 0 ] && ok || fail "$mixed of $i pairs left a mixed state"
[ $lost = 0 ] && ok || fail "$lost of $i pairs lost a reported success"
[ $none_ok = 0 ] && ok || fail "$none_ok of $i pairs: both writers failed"
done_testing
