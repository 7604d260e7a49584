#!/bin/sh
# Six real programs (Debian's, installed by scripts/install-deps), each recorded ONCE with
# `cgctl bw record` and then run REPS times (default 5) under `bw recommend
# --max-throttled 1%`'s answer, as a new user would (issue 32): a multi-threaded
# compressor (xz -T2), a single-threaded one in a shell pipeline (gzip), a parallel build
# (make -j2 of the small C tree tests/kernel/bw-programs/), a Python worker pool
# (multiprocessing), a forking shell loop of random bursts, and a program that sleeps and
# wakes on timers.  Each run reports its throttled periods against the budget and the
# slack (the limit / the run's mean use).  Judged: throttled periods at most 3% (1% plus
# noise) in at least 95% of the runs; the slack target (median at most 1.35) only with
# MAX_SLACK=1.35.  Neither is met yet, so this script is not in make check (by hand:
# make check TESTS=tests/kernel/bw-programs.sh).  Measured 2026-12-06 under load 12-95
# on the shared machine, three runs of this script: 1, 3 and 3 of 30 runs over 3%
# (each one throttled period in a run of 14-28 periods), median slack 2.23, 1.86, 2.24.
# The programs run 4-47 periods; a start-up period at a whole CPU, or one window holding
# most of the work, sets a 1% budget's answer (python's start made timer.py's own answer
# 0.9-0.99 CPU against a mean use of 0.2-0.3, and its windows' spread doubles it).
# Recorded and limited runs run below one parent of the largest cpu.shares, so that the
# rest of the shared machine weighs on both alike (tests/kernel/bw-record.sh says why).
. "$top_srcdir/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "no cgctl binary"
CPU=$(mount_of cpu)
[ -n "$CPU" ] && [ -f "$CPU/cpu.cfs_quota_us" ] || skip "no v1 cpu hierarchy with CFS bandwidth"
[ -x /usr/bin/time ] || skip "no /usr/bin/time"
for p in xz gzip make python3 cc; do command -v $p >/dev/null || skip "no $p"; done
REPS=${REPS:-5}
PROGRAMS=${PROGRAMS:-xz gzip make pool fork timer}
MAX_SLACK=${MAX_SLACK:-}
. "$top_srcdir/tests/kernel/bw-record-lib.sh"
bw_scratch bw-programs
SRC="$top_srcdir/tests/kernel/bw-programs"
mkdir -p "$W/build"

head -c 1500000 /dev/urandom | base64 >"$W/input"
cat >"$W/pool.py" <<'EOS'
import multiprocessing, time
def work(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s
if __name__ == "__main__":
    with multiprocessing.Pool(2) as p:
        for k in range(12):
            p.map(work, [60000 + 20000 * (k % 3)] * 4)
            time.sleep(0.05)
EOS
cat >"$W/timer.py" <<'EOS'
import time
t = time.monotonic()
for k in range(150):
    t += 0.02
    end = time.monotonic() + 0.002 + 0.004 * (k % 3 == 0)
    while time.monotonic() < end:
        pass
    time.sleep(max(0, t - time.monotonic()))
EOS
cat >"$W/fork.sh" <<'EOS'
i=0; r=7
while [ $i -lt 40 ]; do
	r=$(( (r * 1103515245 + 12345) % 2147483648 ))
	sh -c "j=0; while [ \$j -lt $(( 1000 + r % 6000 )) ]; do j=\$((j + 1)); done"
	sleep 0.0$(( r % 5 ))
	i=$((i + 1))
done
EOS
cmd_of() {
	case $1 in
	xz) echo "xz -T2 --block-size=128KiB -3 -c $W/input" ;;
	gzip) echo "sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do cat $W/input; done |
		gzip -6 | wc -c'" ;;
	make) echo "sh -c 'cd $W/build && for i in 1 2; do make -s -j2 -B -f $SRC/Makefile SRC=$SRC; done'" ;;
	pool) echo "python3 $W/pool.py" ;;
	fork) echo "sh $W/fork.sh" ;;
	timer) echo "python3 $W/timer.py" ;;
	esac
}
# start_gated NAME CGROUP: NAME in CGROUP, timed, waiting on a fifo; sets GPID
start_gated() {
	rm -f "$W/gate"; mkfifo "$W/gate"
	sh -c "echo \$\$ > $CPU$2/cgroup.procs; read x < $W/gate;
		exec /usr/bin/time -f '%e %U %S' -o $W/time $(cmd_of "$1") >/dev/null" &
	GPID=$!
	KIDS="$KIDS $GPID"
}
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$CPU$1/cpu.stat"; }
# run_limited NAME QUOTA_US: "THROTTLED PERIODS SLACK" of one run
run_limited() {
	g="$P/$1-run"
	mkdir -p "$CPU$g"
	echo 100000 >"$CPU$g/cpu.cfs_period_us"; echo "$2" >"$CPU$g/cpu.cfs_quota_us"
	start_gated "$1" "$g"
	np0=$(stat_of "$g" nr_periods); nt0=$(stat_of "$g" nr_throttled)
	echo go >"$W/gate"; wait "$GPID"
	echo "$(( $(stat_of "$g" nr_throttled) - nt0 )) $(( $(stat_of "$g" nr_periods) - np0 ))" \
	     "$(awk -v q="$2" '{ u = ($2 + $3) / $1; printf "%.2f\n", (u > 0 ? q / 1e5 / u : 0) }' \
		"$W/time")"
	rmdir "$CPU$g"
}

RUNS=0; MISSES=0; SLACKS=""
for name in $PROGRAMS; do
	tr="$W/$name.trace"
	mkdir -p "$CPU$P/rec"
	start_gated "$name" "$P/rec"
	"$CGCTL" bw record "$GPID" --output "$tr" 2>"$tr.rec" &
	RPID=$!
	attached "$RPID"; echo go >"$W/gate"; wait "$GPID"; wait "$RPID" ||
		{ fail "$name: bw record failed: $(cat "$tr.rec")"; rmdir "$CPU$P/rec"; continue; }
	rmdir "$CPU$P/rec"
	[ -z "${KEEP_TRACES:-}" ] || cp "$tr" "$KEEP_TRACES/"	# a folder: each recording
	cg --json bw recommend --trace "$tr" --max-throttled 1% \
		--online-cpus "$(getconf _NPROCESSORS_ONLN)"
	[ "$RC" = 0 ] && ok || { fail "$name: bw recommend: $ERR"; continue; }
	set -- $(json_get '" ".join(str(x) for x in (j["recommended"]["quota_usec"] or 0,
		j["all_cpus"], j["bound"]["method"], j["bound"]["own_cpus"],
		j["bound"]["bound_cpus"]))')
	q=$1; info="all_cpus $2, bound $3 (own $4, bound $5)"
	if [ "$q" = 0 ]; then	# no limit: nothing can throttle
		echo "# $name: no limit ($info)"; continue
	fi
	line=""
	for r in $(seq "$REPS"); do
		set -- $(run_limited "$name" "$q")
		RUNS=$((RUNS + 1)); SLACKS="$SLACKS $3"
		line="$line $1/$2 x$3"
		awk -v t="$1" -v p="$2" 'BEGIN { exit !(p > 0 && t * 100 > 3 * p) }' &&
			MISSES=$((MISSES + 1))
	done
	echo "# $name: ${q}us per 100ms ($info); runs (throttled/periods, slack):$line"
done
med=$(echo $SLACKS | tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] + 0 }')
echo "# $RUNS runs: $MISSES over 3% throttled periods; median slack $med"
awk -v m="$MISSES" -v n="$RUNS" 'BEGIN { exit !(m <= n * 0.05) }' && ok ||
	fail "$MISSES of $RUNS runs throttled more than 3% of their periods"
[ -z "$MAX_SLACK" ] || [ "$RUNS" = 0 ] ||
	awk -v m="$med" -v x="$MAX_SLACK" 'BEGIN { exit !(m <= x) }' && ok ||
	fail "median slack $med above $MAX_SLACK"
done_testing
