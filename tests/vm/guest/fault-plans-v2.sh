#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 15 on real cgroup v2 (tests/kernel/fault-plans.sh runs v2 on fixtures only: the
# development host's cgroup2 has no controllers).  Every write plan of `bw set`,
# `mem set` and `set` on a parent with a limited child is run once to learn its writes
# (N, and which file each one writes), then for each write k = 1..N:
#   * write k fails (the LD_PRELOAD shim tests/helpers/faultshim.c; the errno turns
#     through EINVAL EIO EBUSY ENOSPC EPERM EAGAIN, and a short write, which the kernel
#     takes whole): cgctl exits non-zero with one line and every file reads back old;
#   * k = 1: SIGINT or SIGTERM (in turn) while the write is paused: blocked during a
#     plan of 2+ writes, so the group ends in the new state and cgctl then dies of the
#     signal (a one-write plan may end in the old state);
#   * k > 1: SIGKILL while the write is paused: exactly writes 1..k-1 done, each file at
#     its old or its new value (v2 writes quota and period as one cpu.max: no detour).
# Each cgctl run costs 0.3-1 s under TCG with ASan: one signal a step, four plans, 36
# runs on 6.12; 6.1-v2 runs the one plan that touches every file (13 runs).
# Covers cpu.max, cpu.max.burst, memory.max/high/low/min/swap.max and memory.oom.group,
# with the parent set below its child and the child above its parent (v2 accepts both).
. "$VMLIB"
vm_need_mode v2
vm_need_cgctl
SHIM=/vm/files/faultshim.so
[ -f "$SHIM" ] || vm_skip "faultshim.so was not packed (make check builds it)"
R=/sys/fs/cgroup
G=/fault-v2
D=$R$G
for c in cpu memory; do
	grep -qw $c $R/cgroup.subtree_control || vm_skip "no $c controller in the v2 root"
done
ASAN="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
cleanup() {
	vm_cleanup
	rmdir $D/child $D 2>/dev/null
}
trap cleanup EXIT
mkdir $D && echo "+cpu +memory" >$D/cgroup.subtree_control && mkdir $D/child ||
	vm_fail "cannot create $D with a child"
[ -f $D/cpu.max.burst ] && [ -f $D/memory.swap.max ] ||
	vm_skip "no cpu.max.burst or memory.swap.max on $VM_KRELEASE"

FILES="cpu.max cpu.max.burst child/cpu.max child/cpu.max.burst memory.max memory.high
memory.low memory.min memory.swap.max memory.oom.group child/memory.max"
FAILS=0 SIGS=0 KILLS=0 STEPS=0 PLANS=0 CHECKS=0
ACTS="EINVAL EIO EBUSY ENOSPC EPERM EAGAIN short"

# state: "FILE=VALUE" per file of $FILES (read builtin: no fork per file under TCG)
state() {
	for f in $FILES; do
		v=
		read -r v <"$D/$f" || v="(unreadable)"
		echo "$f=$v"
	done
}

# shim VAR=VALUE... CGCTL ARGS...: cgctl with the shim counting the writes below $D
shim() {
	env FAULT_PREFIX=$D ASAN_OPTIONS="$ASAN" LD_PRELOAD=$SHIM "$@"
}

# ok: one more check passed
ok() { CHECKS=$((CHECKS + 1)); }

# nth N WORD...: the (N mod count)-th WORD, 0-based
nth() {
	n_=$1
	shift
	shift $((n_ % $#))
	echo "$1"
}

# expected J: the state after the first J writes of the plan (their files new, the rest
# old), from old.s, new.s and files.s; a v2 plan writes each file once
expected() {
	head -n "$1" files.s >w.s
	awk 'FILENAME == "w.s" { w[$0] = 1; next }
		FILENAME == "old.s" { o[FNR] = $0; next }
		{ split($0, a, "="); print (a[1] in w) ? $0 : o[FNR] }' w.s old.s new.s
}

# paused K PAUSE_MS SIG: run the plan with write K paused, send SIG once the shim logged
# it; $RC is cgctl's status, $SENT whether the signal found it running
paused() {
	: >plog
	pk=$1 pms=$2 psig=$3
	shift 3
	# env execs cgctl: $! is the process the signal is for (not a subshell running a
	# function); FAULT_SIGDFL undoes the SIGINT a background job starts ignoring
	env FAULT_PREFIX=$D ASAN_OPTIONS="$ASAN" LD_PRELOAD=$SHIM FAULT_SIGDFL=1 \
		FAULT_NTH="$pk" FAULT_ACTION=pause:"$pms" FAULT_LOG="$PWD/plog" \
		"$CGCTL" "$@" >/dev/null 2>perr &
	p=$!
	w=0
	until grep -q "^write $pk HIT" plog; do
		w=$((w + 1))
		[ $w -lt 3000 ] || { kill -9 $p; vm_fail "$desc: write $pk never came"; }
		sleep 0.01
	done
	SENT=0
	kill -s "$psig" $p 2>/dev/null && SENT=1
	wait $p
	RC=$?
}

# plan DESC SETUP ARGS...: SETUP puts the groups in their old state; cgctl ARGS takes
# them to the new one
plan() {
	desc=$1 setup=$2
	shift 2
	PLANS=$((PLANS + 1))
	read -r t0 _ </proc/uptime
	$setup || vm_fail "$desc: setup"
	old=$(state)
	: >log
	shim FAULT_NTH=1000000 FAULT_LOG="$PWD/log" "$CGCTL" "$@" >/dev/null 2>err ||
		vm_fail "$desc: clean run: $(cat err)"
	new=$(state)
	printf '%s\n' "$old" >old.s
	printf '%s\n' "$new" >new.s
	sed -n "s|^write [0-9]* pass $D/||p" log >files.s
	n=$(wc -l <files.s)
	[ "$n" -ge 1 ] && [ "$old" != "$new" ] ||
		vm_fail "$desc: the plan wrote $n files and changed nothing"
	[ "$(expected "$n")" = "$new" ] ||
		vm_fail "$desc: writes $(tr '\n' ' ' <files.s)do not make the new state: $new"
	ok
	vm_log "$desc: $n writes: $(tr '\n' ' ' <files.s)"
	k=0
	while [ $k -lt "$n" ]; do
		k=$((k + 1))
		STEPS=$((STEPS + 1))
		at="$desc: write $k/$n ($(sed -n "${k}p" files.s))"

		# an injected failure: everything back to old
		act=$(nth $FAILS $ACTS)
		FAILS=$((FAILS + 1))
		$setup
		shim FAULT_NTH=$k FAULT_ACTION="$act" "$CGCTL" "$@" >/dev/null 2>err
		rc=$?
		[ $rc != 0 ] && [ "$(grep -c . err)" = 1 ] ||
			vm_fail "$at $act: exit $rc, stderr: $(cat err)"
		now=$(state)
		[ "$now" = "$old" ] || vm_fail "$at $act: not restored ($(cat err)):
$(printf '%s\n' "$now" | grep -vxF "$old")"
		ok

		if [ $k = 1 ]; then
			# SIGINT or SIGTERM during write 1: the plan finishes, then the signal
			sig=INT st=130
			[ $((SIGS % 2)) = 1 ] && sig=TERM st=143
			SIGS=$((SIGS + 1))
			$setup
			paused $k 300 $sig "$@"
			if [ "$SENT" = 0 ] || [ "$RC" = 0 ]; then
				# the pause ran out before the signal (a loaded host): again, longer
				$setup
				paused $k 3000 $sig "$@"
			fi
			now=$(state)
			if [ "$n" -ge 2 ]; then
				[ "$now" = "$new" ] && [ "$RC" = $st ] ||
					vm_fail "$at SIG$sig: exit $RC (sent: $SENT), want $st and new:
$(printf '%s\n' "$now" | grep -vxF "$new")"
			else
				[ "$now" = "$new" ] || [ "$now" = "$old" ] ||
					vm_fail "$at SIG$sig: neither old nor new: $now"
			fi
			ok
			continue
		fi

		# SIGKILL before write k > 1: writes 1..k-1 done, nothing else
		KILLS=$((KILLS + 1))
		$setup
		paused $k 60000 KILL "$@"
		now=$(state)
		want=$(expected $((k - 1)))
		[ "$SENT" = 1 ] && [ "$now" = "$want" ] ||
			vm_fail "$at SIGKILL: not the state of writes 1..$((k - 1)):
$(printf '%s\n' "$now" | grep -vxF "$want")"
		ok
	done
	read -r t1 _ </proc/uptime
	vm_log "$desc: $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s"
}

old_state() {
	echo 0 >$D/cpu.max.burst && echo "50000 100000" >$D/cpu.max &&
		echo 0 >$D/child/cpu.max.burst && echo "30000 100000" >$D/child/cpu.max &&
		echo 64M >$D/memory.max && echo 32M >$D/memory.high && echo 4M >$D/memory.low &&
		echo 2M >$D/memory.min && echo 128M >$D/memory.swap.max &&
		echo 0 >$D/memory.oom.group && echo 48M >$D/child/memory.max
}
old_burst() { old_state && echo 20000 >$D/cpu.max.burst; }

full=1
[ "$VM_KERNEL" = 6.12 ] || full=0
# cpu.max is one write (quota and period together); cpu.max.burst before it when it
# goes down, after it when it goes up (tg_set_cfs_bandwidth(): burst <= quota).  The
# parent goes below its limited child, a child above its limited parent: v2 refuses
# neither (tg_cfs_schedulable_down() caps the child's effective quota instead).
if [ $full = 1 ]; then
	plan "bw v2 below child" old_burst bw set $G --quota 10ms --period 50ms --burst 5ms
	plan "bw v2 child above" old_state bw set $G/child --quota 200ms --period 100ms \
		--burst 50ms
	# memory: tighter first (max, low), then looser (swap.max, high, min), then the mode
	plan "mem v2 cross" old_state mem set $G --limit 20M --high 64M --low 1M --min 4M \
		--swap-max max --oom-group 1
fi
plan "set v2 mixed" old_burst set $G memory.max=20M memory.high=max memory.low=1M \
	"cpu.max=300000 600000" cpu.max.burst=2000 memory.swap.max=0

echo "fault-plans-v2 ($VM_KRELEASE): $PLANS plans, $STEPS write steps, $FAILS injected" \
	"failures, $SIGS SIGINT/SIGTERM, $KILLS SIGKILL; $CHECKS checks passed"
vm_log "fault-plans-v2: $PLANS plans, $STEPS steps, $FAILS failures, $SIGS SIGINT/SIGTERM," \
	"$KILLS SIGKILL"
