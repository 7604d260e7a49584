#!/bin/sh
# bw record / recommend against the running kernel (v1 cpu hierarchy), in scratch cgroups
# below our own.  Real programs of fixed work (a bursty shell script with sleeps, a
# process tree of busy children, xz -T2 over a fixed input fed in bursts; by hand also
# fed smoothly) are each recorded RECS times (default 5); one `bw recommend` over all the recordings sizes a
# quota for a 1% throttled-period budget that also holds for a next run (the upper 95%
# prediction bound of the recordings' own answers, or of all their windows' when that is
# higher: five recordings back to back agreed more closely than the next runs, and
# tree.sh was throttled 7.95% and 18.68% of its periods under the first); the program
# then runs REPS times
# (default 5) under that quota and REPS times under one 20% tighter, interleaved.  Summed
# over those runs, the kernel's cpu.stat must show throttled periods within the budget
# plus noise under the first, and more throttled time under the second.  A program that
# misses is recorded and run once more, and fails when it misses again.  Also:
# recording's CPU cost against an unrecorded run.
#
# Why so (measured on the shared 2-CPU build machine):
# - Recorded and limited runs both run in cgroups below one parent given the largest
#   cpu.shares: the other load of the machine is then the same for both, and small.
#   Recorded as a process of the test's own autogroup (the program in the root cpu
#   cgroup) and replayed in a cgroup of 1024 shares, tree.sh waited 175-227 ms of 260
#   ms busy for the CPU while recorded and ran in 300-400 ms instead of 560 ms
#   replayed; xz under 1024 shares spent 700 ms of 850 ms runnable behind other tasks,
#   and two recordings gave 124 and 190 ms.  Under 262144 shares xz's three recordings
#   waited 13-18 ms and gave 195-199 ms, and the kernel throttled 0 periods at it.
# - Fixed work costs a different amount of CPU from run to run, and more so from minute
#   to minute (tree.sh: 430-570 ms unrecorded in one minute; its recordings' busy time
#   450 ms, then 580-640 ms ten minutes later).  Model and kernel agreed on each
#   recording (tree.sh at 90-105 ms, four recordings, three kernel runs at each quota:
#   throttled periods within one or two of each other), but the largest of five
#   recordings' answers (96 ms) was below the kernel's threshold for later runs: 10 of
#   47 periods throttled at 96 ms, 1 of 56 at 100 ms, none at 110 ms.  Hence the bound
#   for a next run rather than the largest answer.
# - With a 1% budget, a short program's own answer is set by its worst period or two:
#   bursty.sh of 12 bursts (9 periods) answered 31-51 ms from one recording to the next
#   (two of its ~16 ms bursts slowed by the machine in one period), the bound over five
#   was 53-64 ms, and 20% below it the kernel throttled nothing in 40 periods.  Of 36
#   bursts (27 periods) the answers were 44-51 ms.  So the programs run 16-27 periods,
#   and the periods of all REPS runs are summed; one throttled period of the 80-135 is
#   well within what NOISE_PCT (5%) allows.
# - Near the recommendation the kernel throttles a few percent of the periods (xz: 2 of
#   66 at 131 ms, against answers of 108-147 ms; 3 of 73 at 130 ms and 1 of 74 at 170
#   ms for 512 KiB chunks): 66 periods under the tighter limit showed none one time in
#   three.  Five runs of each give 110 periods.
# - The 20% tighter runs are judged program by program only with TIGHTER=1: the
#   machine's speed drifts within minutes (tree.sh at 94 ms: no throttled period in 75,
#   then 45 of 88 five minutes later), and near a 1% quota the kernel throttles a few
#   percent of periods at most (xz: 1 of 118 at 160 ms), so 20% below a bound that
#   covers that drift showed no throttling about one program run in three (runs of the
#   test with TIGHTER=1: lib/predict/record.am).  Always judged: the programs
#   together throttle more under their tighter limits than under their recommendations
#   (none of them would if the recommendations were all 25% too generous:
#   QUOTA_SCALE=1.6 must fail).
# The quota the check applies can be scaled for a demonstration that it fails when the
# recommendation is wrong: QUOTA_SCALE=0.7 must fail.
. "$top_srcdir/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "no cgctl binary"
CPU=$(mount_of cpu)
[ -n "$CPU" ] && [ -f "$CPU/cpu.cfs_quota_us" ] || skip "no v1 cpu hierarchy with CFS bandwidth"
REPS=${REPS:-5}		# runs under each limit
RECS=${RECS:-5}		# recordings of each program
NOISE_PCT=${NOISE_PCT:-5}	# throttled periods above the 1% budget we accept as noise
QUOTA_SCALE=${QUOTA_SCALE:-1}
# the programs (smooth: by hand; it adds a minute, see above)
PROGRAMS=${PROGRAMS:-bursty tree xz}
# judge the 20% tighter runs too (by hand: see the head of this file)
TIGHTER=${TIGHTER:-0}
. "$top_srcdir/tests/kernel/bw-record-lib.sh"
bw_scratch bw-record

head -c 6000000 /dev/urandom >"$W/input"
cat >"$W/bursty.sh" <<'EOS'
i=0
while [ $i -lt 36 ]; do
	j=0; while [ $j -lt 15000 ]; do j=$((j + 1)); done
	sleep 0.05; i=$((i + 1))
done
EOS
cat >"$W/tree.sh" <<'EOS'
for k in 1 2 3; do
	( i=0; while [ $i -lt 36 ]; do
		j=0; while [ $j -lt 10000 ]; do j=$((j + 1)); done
		sleep 0.03; i=$((i + 1)); done ) &
done
wait
EOS
# xz_feed FILE COUNT CHUNK SLEEP BLOCK: a script feeding xz -T2 (a block of BLOCK to each
# of its two threads at a time) COUNT chunks of the input, SLEEP seconds apart
xz_feed() {
	cat >"$1" <<EOS
i=0
while [ \$i -lt $2 ]; do
	dd if=$W/input bs=$3 skip=\$i count=1 2>/dev/null
	sleep $4; i=\$((i + 1))
done | xz -T2 --block-size=$5 -3 -c
EOS
}
# xz: fed 512 KiB every 200 ms: a multi-threaded compressor whose bursts take both
# CPUs.  Fed all at once, xz -T2 needs every CPU of a 2-CPU machine: the kernel
# throttled 4-5 of 7 periods at 1.9 CPUs of quota, none at 2 (and the model agreed, 5 of
# 8), so the only right recommendation there is no limit, and no tighter quota to
# compare it with.  Fed 256 KiB every 100 ms, two chunks' work fell in one period at
# some phases of some recordings and not of others (answers of 77-154 ms from one
# program), and 20% below the bound over them the kernel throttled 0 to 2 of 110
# periods; a chunk every 200 ms is two periods apart.
xz_feed "$W/xz.sh" 10 512K 0.2 128KiB
# smooth: xz fed 32 KiB every 20 ms, a smooth demand (0.44 CPU) where a quota near the
# mean use is enough: the kernel throttled 19 of 69 periods at 50 ms and none of 70 at
# 55 ms (1.24 x the mean use); a percentile recommender's own quota (about 1.15 x the
# mean) throttles.  Fed 60 times (13 periods), the recordings' answers were 1.3-1.5 x
# the mean use; 100 times (23 periods), 1.26-1.3 in one minute and 1.4-1.6 in another,
# and once the machine slowed during the runs (9 of 111 periods throttled under the
# recommendation, none in the rerun).  Not in make check's list (PROGRAMS): it takes a
# minute and shows the machine's drift more than the slack.
xz_feed "$W/smooth.sh" 100 32K 0.02 32KiB
cmd_of() { # the command line of workload $1
	case $1 in
	bursty) echo "sh $W/bursty.sh" ;;
	tree) echo "sh $W/tree.sh" ;;
	xz) echo "sh $W/xz.sh" ;;
	smooth) echo "sh $W/smooth.sh" ;;
	esac
}

# start_gated NAME CGROUP: start the workload in CGROUP waiting on a fifo (so the
# recorder is attached before it runs); sets GPID.  release_gate starts it.
start_gated() {
	rm -f "$W/gate"; mkfifo "$W/gate"
	sh -c "echo \$\$ > $CPU$2/cgroup.procs; read x < $W/gate; exec $(cmd_of "$1") >/dev/null" &
	GPID=$!
	KIDS="$KIDS $GPID"
}
release_gate() { echo go >"$W/gate"; }

stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$CPU$1/cpu.stat"; }
# run_limited NAME QUOTA_US: "THROTTLED PERIODS THROTTLED_US" of one run under QUOTA_US
run_limited() {
	g="$P/$1-$2"
	mkdir -p "$CPU$g"
	echo 100000 >"$CPU$g/cpu.cfs_period_us"; echo "$2" >"$CPU$g/cpu.cfs_quota_us"
	start_gated "$1" "$g"
	np0=$(stat_of "$g" nr_periods); nt0=$(stat_of "$g" nr_throttled)
	ns0=$(stat_of "$g" throttled_time)
	release_gate; wait "$GPID"
	echo "$(( $(stat_of "$g" nr_throttled) - nt0 )) $(( $(stat_of "$g" nr_periods) - np0 ))" \
	     "$(( ($(stat_of "$g" throttled_time) - ns0) / 1000 ))"
	rmdir "$CPU$g"
}
# attached RECORDER: wait (at most 5 s) until the recorder holds its perf events: a
# program released before that runs unrecorded (a recording of 1 ms busy was seen under
# load with a fixed 0.3 s start-up wait)
# record NAME FILE: record one unlimited run of NAME (in $P/rec) into FILE
record() {
	mkdir -p "$CPU$P/rec"
	start_gated "$1" "$P/rec"
	"$CGCTL" bw record "$GPID" --output "$2" 2>"$2.rec" &
	RPID=$!
	attached "$RPID"; release_gate; wait "$GPID"; wait "$RPID"
	rc=$?
	rmdir "$CPU$P/rec"
	return $rc
}
# pct "T1 P1 U1 T2 P2 U2 ...": throttled periods in percent of all periods of the runs
pct() { echo "$1" | awk '{ for (i = 1; i < NF; i += 3) { t += $i; p += $(i + 1) } }
	END { printf "%.2f\n", p ? 100 * t / p : 0 }'; }
# tsum "T1 P1 U1 ...": the throttled periods of the runs
tsum() { echo "$1" | awk '{ for (i = 1; i < NF; i += 3) t += $i } END { print t + 0 }'; }
# thr_us "T1 P1 U1 ...": the throttled time of the runs, in us
thr_us() { echo "$1" | awk '{ for (i = 3; i <= NF; i += 3) u += $i } END { print u + 0 }'; }
# runs "T1 P1 U1 ...": " T1/P1 ..." for the report
runs() { echo "$1" | awk '{ for (i = 1; i < NF; i += 3) printf " %s/%s", $i, $(i + 1) }'; }

# program NAME: record NAME RECS times, recommend from all recordings, run it under the
# recommendation and 20% tighter.  Hard failures (recording, recommend) count at once;
# the kernel's throttling is judged in $MISS ("" when the budget and the ordering held).
program() {
	name=$1; MISS=""
	trs=""
	for r in $(seq "$RECS"); do
		tr="$W/$name.$r.trace"
		record "$name" "$tr" && ok ||
			{ fail "$name: bw record failed: $(cat "$tr.rec")"; return 1; }
		echo "# $name: $(cat "$tr.rec")"
		grep -q '^lost 0$' "$tr" && ok || fail "$name: records lost"
		trs="$trs --trace $tr"
	done
	cg --json bw recommend $trs --online-cpus "$(getconf _NPROCESSORS_ONLN)"
	[ "$RC" = 0 ] && ok || { fail "$name: bw recommend: $ERR"; return 1; }
	set -- $(json_get 'j["recommended"]["quota_usec"], j["recommended"]["slack"],
		j["percentile"]["quota_usec"], j["percentile"]["throttled_ratio"],
		" ".join(str(r["quota_usec"]) for r in j["runs"])')
	q=$1; slack=$2; pq=$3; ppred=$4; shift 4; qs="$*"
	[ "$q" -gt 0 ] 2>/dev/null && ok || { fail "$name: no finite quota ($OUT)"; return 1; }
	q=$(awk -v q="$q" -v s="$QUOTA_SCALE" 'BEGIN { printf "%d\n", q * s }')
	tight=$((q * 8 / 10)); [ $tight -ge 1000 ] || tight=1000
	at_q=""; at_t=""
	for r in $(seq "$REPS"); do
		if [ $((r % 2)) = 1 ]; then
			at_q="$at_q $(run_limited "$name" "$q")"; at_t="$at_t $(run_limited "$name" "$tight")"
		else
			at_t="$at_t $(run_limited "$name" "$tight")"; at_q="$at_q $(run_limited "$name" "$q")"
		fi
	done
	at_p=$(run_limited "$name" "$pq")	# for the report only
	mq=$(pct "$at_q"); mt=$(pct "$at_t"); mp=$(pct "$at_p")
	uq=$(thr_us "$at_q"); ut=$(thr_us "$at_t")
	echo "# $name: recommended ${q}us (runs alone: $qs; slack $slack): throttled ${mq}%" \
	     "(throttled/periods:$(runs "$at_q"); ${uq} us); 20% tighter: ${mt}%" \
	     "($(runs "$at_t"); ${ut} us); percentile ${pq}us: ${mp}%" \
	     "(predicted ratio ${ppred})"
	awk -v m="$mq" -v n="$NOISE_PCT" 'BEGIN { exit !(m <= 1 + n) }' ||
		MISS="$MISS; ${mq}% throttled periods under the recommended ${q}us (budget 1% + $NOISE_PCT)"
	# more throttling: the kernel's throttled time, finer than whole periods, or more
	# throttled periods (a throttle undone at once adds a period and 0 us); a
	# recommendation 20% too generous shows none at all
	P_UQ=$uq; P_UT=$ut; P_TQ=$(tsum "$at_q"); P_TT=$(tsum "$at_t")
	[ "$P_UT" -gt "$P_UQ" ] || [ "$P_TT" -gt "$P_TQ" ] || {
		m="20% tighter (${tight}us) throttled ${ut} us (${mt}%), not more than ${uq} us (${mq}%)"
		if [ "$TIGHTER" = 1 ]; then MISS="$MISS; $m"; else echo "# $name: not judged: $m"; fi
	}
	return 0
}

ALL_UQ=0; ALL_UT=0; ALL_TQ=0; ALL_TT=0	# throttled us and periods, all programs
for name in $PROGRAMS; do
	case $name in xz|smooth) command -v xz >/dev/null || { echo "# no xz: $name skipped"; continue; } ;; esac
	program "$name" || continue
	if [ -n "$MISS" ]; then
		# once more from new recordings: the machine's noise passes, a recommendation
		# that is wrong for the program misses again
		echo "# $name: missed$MISS; recorded and run once more"
		program "$name" || continue
	fi
	[ -z "$MISS" ] && ok || fail "$name: twice:$MISS"
	ALL_UQ=$((ALL_UQ + P_UQ)); ALL_UT=$((ALL_UT + P_UT))
	ALL_TQ=$((ALL_TQ + P_TQ)); ALL_TT=$((ALL_TT + P_TT))
done
echo "# all programs (the last run of each): 20% tighter throttled $ALL_TT periods," \
     "$ALL_UT us; the recommendations $ALL_TQ periods, $ALL_UQ us"
[ "$ALL_UT" -gt "$ALL_UQ" ] || [ "$ALL_TT" -gt "$ALL_TQ" ] && ok ||
	fail "20% tighter limits throttled no more than the recommendations, over all programs"

# ---- recording cost: CPU time of the workload plus the recorder, against unrecorded ----
cpu_of_run() { # cpu_of_run recorded|plain: user+sys ms of bursty.sh (and the recorder)
	rm -f "$W/gate" "$W/cost"; mkfifo "$W/gate"
	mkdir -p "$CPU$P/cost"
	sh -c "echo \$\$ > $CPU$P/cost/cgroup.procs; read x < $W/gate;
		exec /usr/bin/time -f '%U %S' -o $W/cost sh $W/bursty.sh" &
	GPID=$!; KIDS="$KIDS $GPID"
	if [ "$1" = recorded ]; then
		"$CGCTL" bw record "$GPID" --output /dev/null 2>"$W/cost.rec" &
		RPID=$!; attached "$RPID"
	fi
	release_gate; wait "$GPID"
	self=0
	if [ "$1" = recorded ]; then
		wait "$RPID"
		self=$(sed -n 's/.*for \([0-9.]*\) s:.*recorder CPU \([0-9.]*\)% .*/\1 \2/p' \
			"$W/cost.rec" | awk '{ print $1 * $2 * 10 }')
	fi
	rmdir "$CPU$P/cost"
	awk -v s="$self" '{ printf "%d\n", ($1 + $2) * 1000 + s }' "$W/cost"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
if [ -x /usr/bin/time ]; then
	plain=""; rec=""
	# five interleaved pairs: bursty.sh forks a sleep per burst, and its CPU time
	# alone spread 590-700 ms over three runs (recorded: 595-887 ms) in one CI run
	for r in 1 2 3 4 5; do
		plain="$plain $(cpu_of_run plain)"; rec="$rec $(cpu_of_run recorded)"
	done
	mpl=$(echo $plain | tr ' ' '\n' | median); mre=$(echo $rec | tr ' ' '\n' | median)
	echo "# recording cost: bursty.sh used $mpl ms CPU unrecorded, $mre ms recorded" \
	     "(with the recorder; medians of 5; runs:$plain /$rec)"
	awk -v a="$mre" -v b="$mpl" 'BEGIN { exit !(a <= b * 1.25 + 20) }' && ok ||
		fail "recording cost: $mre ms against $mpl ms unrecorded"
else
	echo "# recording cost: not measured (no /usr/bin/time)"
fi
done_testing
