#!/bin/sh
# bw record / recommend against the running kernel (v1 cpu hierarchy), in scratch cgroups
# below our own.  Three real programs (a bursty shell script with sleeps, a process tree
# of busy children, xz -T2 over a fixed input) are recorded, `bw recommend` sizes a
# quota for a 1% throttled-period budget, and each program then runs under that quota
# and under one 20% tighter: the kernel's cpu.stat must show throttled periods within
# the budget plus noise under the first and more of them under the second.  Repeated
# (REPS, default 3); medians quoted.  Also: recording's CPU cost against an unrecorded
# run.  The machine is shared: the tolerance is for noise, not for the model.
. "$top_srcdir/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "no cgctl binary"
CPU=$(mount_of cpu)
[ -n "$CPU" ] && [ -f "$CPU/cpu.cfs_quota_us" ] || skip "no v1 cpu hierarchy with CFS bandwidth"
REPS=${REPS:-3}
NOISE_PCT=${NOISE_PCT:-5}	# throttled periods above the 1% budget we accept as noise
SELF=$(self_cgroup cpu)
P="${SELF%/}/bw-record-$$"
W="$T_TMP/work"
mkdir -p "$W"
KIDS=""
cleanup() {
	for p in $KIDS; do kill -9 "$p" 2>/dev/null; done
	[ -d "$CPU$P" ] && find "$CPU$P" -depth -type d -exec rmdir {} \; 2>/dev/null
	return 0
}
at_exit cleanup
mkdir "$CPU$P" 2>/dev/null || skip "cannot create a cgroup below $SELF"
# the perf check: can we open a context-switch event at all?
"$CGCTL" bw record --duration 0.1 $$ >/dev/null 2>"$T_TMP/perr" ||
	skip "bw record cannot record here: $(cat "$T_TMP/perr")"

head -c 3000000 /dev/urandom >"$W/input"
cat >"$W/bursty.sh" <<'EOS'
i=0
while [ $i -lt 12 ]; do
	j=0; while [ $j -lt 15000 ]; do j=$((j + 1)); done
	sleep 0.05; i=$((i + 1))
done
EOS
cat >"$W/tree.sh" <<'EOS'
for k in 1 2 3; do
	( i=0; while [ $i -lt 6 ]; do
		j=0; while [ $j -lt 10000 ]; do j=$((j + 1)); done
		sleep 0.03; i=$((i + 1)); done ) &
done
wait
EOS
cmd_of() { # the command line of workload $1
	case $1 in
	bursty) echo "sh $W/bursty.sh" ;;
	tree) echo "sh $W/tree.sh" ;;
	xz) echo "xz -T2 --block-size=256KiB -3 -c $W/input" ;;	# 2 busy threads
	esac
}

# start_gated NAME [CGROUP]: start the workload waiting on a fifo (so the recorder is
# attached before it runs); sets GPID.  release_gate starts it.
start_gated() {
	rm -f "$W/gate"; mkfifo "$W/gate"
	c=$(cmd_of "$1")
	if [ -n "${2:-}" ]; then
		sh -c "echo \$\$ > $CPU$2/cgroup.procs; read x < $W/gate; exec $c >/dev/null" &
	else
		sh -c "read x < $W/gate; exec $c >/dev/null" &
	fi
	GPID=$!
	KIDS="$KIDS $GPID"
}
release_gate() { echo go >"$W/gate"; }

stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$CPU$1/cpu.stat"; }
# run_limited NAME QUOTA_US: throttled-period percentage of one run under QUOTA_US
run_limited() {
	g="$P/$1-$2"
	mkdir -p "$CPU$g"
	echo 100000 >"$CPU$g/cpu.cfs_period_us"; echo "$2" >"$CPU$g/cpu.cfs_quota_us"
	start_gated "$1" "$g"
	np0=$(stat_of "$g" nr_periods); nt0=$(stat_of "$g" nr_throttled)
	release_gate; wait "$GPID"
	np=$(( $(stat_of "$g" nr_periods) - np0 )); nt=$(( $(stat_of "$g" nr_throttled) - nt0 ))
	rmdir "$CPU$g"
	echo "$nt $np" | awk '{ printf "%.2f\n", $2 ? 100 * $1 / $2 : 0 }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

for name in bursty tree xz; do
	[ "$name" = xz ] && ! command -v xz >/dev/null && { echo "# no xz: skipped"; continue; }
	start_gated "$name"
	"$CGCTL" bw record "$GPID" -o "$W/$name.trace" 2>"$W/$name.rec" &
	RPID=$!
	sleep 0.3; release_gate; wait "$GPID"; wait "$RPID"
	[ $? = 0 ] && ok || { fail "$name: bw record failed: $(cat "$W/$name.rec")"; continue; }
	echo "# $name: $(cat "$W/$name.rec")"
	grep -q '^lost 0$' "$W/$name.trace" && ok || fail "$name: records lost"
	cg --json bw recommend --trace "$W/$name.trace" --online-cpus "$(getconf _NPROCESSORS_ONLN)"
	[ "$RC" = 0 ] && ok || { fail "$name: bw recommend: $ERR"; continue; }
	q=$(json_get 'j["recommended"]["quota_usec"]')
	pq=$(json_get 'j["percentile"]["quota_usec"]')
	ppred=$(json_get 'j["percentile"]["throttled_ratio"]')
	slack=$(json_get 'j["recommended"]["slack"]')
	[ "$q" -gt 0 ] 2>/dev/null && ok || { fail "$name: no finite quota ($OUT)"; continue; }
	tight=$((q * 8 / 10)); [ $tight -ge 1000 ] || tight=1000
	at_q=""; at_t=""; at_p=""
	for r in $(seq "$REPS"); do
		at_q="$at_q $(run_limited "$name" "$q")"
		at_t="$at_t $(run_limited "$name" "$tight")"
		at_p="$at_p $(run_limited "$name" "$pq")"
	done
	mq=$(echo $at_q | tr ' ' '\n' | median); mt=$(echo $at_t | tr ' ' '\n' | median)
	mp=$(echo $at_p | tr ' ' '\n' | median)
	echo "# $name: recommended ${q}us (slack $slack): throttled ${mq}% (runs:$at_q);" \
	     "20% tighter: ${mt}% (runs:$at_t); percentile ${pq}us: ${mp}%" \
	     "(predicted ratio ${ppred})"
	awk -v m="$mq" -v n="$NOISE_PCT" 'BEGIN { exit !(m <= 1 + n) }' && ok ||
		fail "$name: ${mq}% throttled periods under the recommended ${q}us (budget 1% + $NOISE_PCT)"
	awk -v a="$mt" -v b="$mq" 'BEGIN { exit !(a > b) }' && ok ||
		fail "$name: 20% tighter (${tight}us) throttled ${mt}%, not more than ${mq}%"
done

# ---- recording cost: CPU time of the workload plus the recorder, against unrecorded ----
cpu_of_run() { # cpu_of_run recorded|plain: user+sys ms of bursty.sh (and the recorder)
	rm -f "$W/gate" "$W/cost"; mkfifo "$W/gate"
	sh -c "read x < $W/gate; exec /usr/bin/time -f '%U %S' -o $W/cost sh $W/bursty.sh" &
	GPID=$!; KIDS="$KIDS $GPID"
	if [ "$1" = recorded ]; then
		"$CGCTL" bw record "$GPID" -o /dev/null 2>"$W/cost.rec" &
		RPID=$!; sleep 0.3
	fi
	release_gate; wait "$GPID"
	self=0
	if [ "$1" = recorded ]; then
		wait "$RPID"
		self=$(sed -n 's/.*for \([0-9.]*\) s:.*recorder CPU \([0-9.]*\)% .*/\1 \2/p' \
			"$W/cost.rec" | awk '{ print $1 * $2 * 10 }')
	fi
	awk -v s="$self" '{ printf "%d\n", ($1 + $2) * 1000 + s }' "$W/cost"
}
if [ -x /usr/bin/time ]; then
	plain=""; rec=""
	for r in $(seq "$REPS"); do
		plain="$plain $(cpu_of_run plain)"; rec="$rec $(cpu_of_run recorded)"
	done
	mpl=$(echo $plain | tr ' ' '\n' | median); mre=$(echo $rec | tr ' ' '\n' | median)
	echo "# recording cost: bursty.sh used $mpl ms CPU unrecorded, $mre ms recorded" \
	     "(with the recorder; medians of $REPS; runs:$plain /$rec)"
	awk -v a="$mre" -v b="$mpl" 'BEGIN { exit !(a <= b * 1.25 + 20) }' && ok ||
		fail "recording cost: $mre ms against $mpl ms unrecorded"
else
	echo "# recording cost: not measured (no /usr/bin/time)"
fi
done_testing
