#!/bin/sh
# cgctl bw against the running kernel (v1 cpu + cpuacct hierarchies), in scratch cgroups
# below our own: (1) the kernel accepts or refuses exactly what cgctl accepts or refuses
# for the cases of kernel-cpu-bandwidth-model.md 7.2; (2) bw set round-trips through
# the files and bw show; (3) real spinners throttle as bw predict says, given the CPU
# time the rest of the machine took meanwhile.  About 15 s on an idle machine.
. "$top_srcdir/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "no cgctl binary"
CPU=$(mount_of cpu)
ACCT=$(mount_of cpuacct)
[ -n "$CPU" ] && [ -f "$CPU/cpu.cfs_quota_us" ] || skip "no v1 cpu hierarchy with CFS bandwidth"
[ -n "$ACCT" ] || skip "no v1 cpuacct hierarchy"
NCPU=$(getconf _NPROCESSORS_ONLN)

# scratch() runs in a command substitution here, so its removal list is lost: keep our own
SELF_CPU=$(self_cgroup cpu) SELF_ACCT=$(self_cgroup cpuacct)
P="${SELF_CPU%/}/bw-test-$$"		# the parent (a path in the hierarchy)
K="$P/k"				# its child: kernel writes
G="$P/g"				# its child: cgctl writes
A="${SELF_ACCT%/}/bw-test-$$"
SPIN=""
kill_spinners() {
	for pid in $SPIN; do kill -9 "$pid" 2>/dev/null; done
	for pid in $SPIN; do wait "$pid" 2>/dev/null; done
	SPIN=""
}
remove_groups() {
	kill_spinners
	for d in "$CPU$P" "$ACCT$A"; do
		[ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
	return 0
}
at_exit remove_groups
mkdir "$CPU$P" "$CPU$K" "$CPU$G" "$ACCT$A" 2>/dev/null ||
	skip "cannot create cgroups below $SELF_CPU"

kw() { # kw CGROUP FILE VALUE: the kernel's verdict on one write (0 accepted)
	( printf '%s' "$3" >"$CPU$1/$2" ) 2>/dev/null
}
reset() { # reset CGROUP QUOTA PERIOD BURST (through the files, in a safe order)
	kw "$1" cpu.cfs_burst_us 0; kw "$1" cpu.cfs_quota_us -1
	kw "$1" cpu.cfs_period_us "$3"; kw "$1" cpu.cfs_quota_us "$2"; kw "$1" cpu.cfs_burst_us "$4"
}

# ---- (1) accept/refuse agreement: the same single-file change through both paths ----
agree() { # agree DESC FILE VALUE SETUP_Q SETUP_P SETUP_B CGCTL_OPTS...
	d=$1 f=$2 v=$3
	reset "$K" "$4" "$5" "$6"; reset "$G" "$4" "$5" "$6"
	shift 6
	kw "$K" "$f" "$v"; krc=$?
	before=$(cat "$CPU$G/$f")
	cg bw set "$@" "$G"
	if [ "$krc" = 0 ]; then
		[ "$RC" = 0 ] && ok || fail "$d: the kernel accepts, cgctl refused: $ERR"
		[ "$(cat "$CPU$G/$f")" = "$(cat "$CPU$K/$f")" ] && ok ||
			fail "$d: cgctl wrote $(cat "$CPU$G/$f"), the kernel has $(cat "$CPU$K/$f")"
	else
		# refused by cgctl's checks before any write: 2, "nothing was changed"
		[ "$RC" = 2 ] && ok || fail "$d: the kernel refuses, cgctl exit $RC: $ERR"
		[ "$(cat "$CPU$G/$f")" = "$before" ] && ok || fail "$d: cgctl wrote despite refusing"
	fi
}
reset "$P" -1 100000 0
agree "period 999" cpu.cfs_period_us 999 -1 100000 0 --period 999
agree "period 1000" cpu.cfs_period_us 1000 -1 100000 0 --period 1000
agree "period 1000000" cpu.cfs_period_us 1000000 -1 100000 0 --period 1000000
agree "period 1000001" cpu.cfs_period_us 1000001 -1 100000 0 --period 1000001
agree "quota 999" cpu.cfs_quota_us 999 -1 100000 0 --quota 999
agree "quota 1000" cpu.cfs_quota_us 1000 -1 100000 0 --quota 1000
agree "quota MAX_BW" cpu.cfs_quota_us 17592186044415 -1 100000 0 --quota 17592186044415
agree "quota MAX_BW + 1" cpu.cfs_quota_us 17592186044416 -1 100000 0 --quota 17592186044416
if [ -f "$CPU$K/cpu.cfs_burst_us" ]; then
	agree "burst 50001 > quota" cpu.cfs_burst_us 50001 50000 100000 0 --burst 50001
	agree "burst = quota" cpu.cfs_burst_us 50000 50000 100000 0 --burst 50000
	agree "burst while unlimited" cpu.cfs_burst_us 99999999 -1 100000 0 --burst 99999999
	agree "quota below burst" cpu.cfs_quota_us 10000 -1 100000 20000 --quota 10000
	agree "MAX_BW with burst 1" cpu.cfs_burst_us 1 17592186044415 100000 0 --burst 1
fi
reset "$K" -1 100000 0; reset "$G" -1 100000 0	# children first: P must fit above them
reset "$P" 50000 100000 0
[ "$(cat "$CPU$P/cpu.cfs_quota_us")" = 50000 ] && ok || fail "cannot limit the parent"
agree "child 0.6 under 0.5" cpu.cfs_quota_us 60000 -1 100000 0 --quota 60000
agree "child 0.5 under 0.5" cpu.cfs_quota_us 50000 -1 100000 0 --quota 50000
agree "child 100001/200000" cpu.cfs_quota_us 100001 -1 200000 0 --quota 100001
agree "child 100000/199999" cpu.cfs_quota_us 100000 -1 199999 0 --quota 100000
# lowering the parent below a child at 0.5
reset "$K" 50000 100000 0; reset "$G" -1 100000 0
kw "$P" cpu.cfs_quota_us 40000; krc=$?
cg bw set --quota 40000 "$P"
[ "$krc" != 0 ] && [ "$RC" = 2 ] && ok || fail "parent below child: kernel $krc, cgctl $RC"
case "$ERR" in *"is below descendant"*) ok ;; *) fail "parent below child: $ERR" ;; esac
cg bw set --quota 50ms /
[ "$RC" = 2 ] && ok || fail "the root must be refused: $RC"
[ "$(cat "$CPU/cpu.cfs_quota_us")" = -1 ] && ok || fail "the root was written"

# ---- (2) round trip, including the period-first case under a 0.5 parent ----
reset "$K" -1 100000 0
reset "$G" 50000 100000 0
cg bw set --quota 400ms --period 800ms "$G"
expect_rc 0 "400/800 under 0.5 (period first)"
[ "$(cat "$CPU$G/cpu.cfs_quota_us") $(cat "$CPU$G/cpu.cfs_period_us")" = "400000 800000" ] &&
	ok || fail "400000/800000 not in the files"
cg bw set --quota 30ms --period 50ms "$G"
expect_rc 2 "30/50 is 0.6 under 0.5"
expect_err_line "30/50 is 0.6 under 0.5"
[ "$(cat "$CPU$G/cpu.cfs_quota_us") $(cat "$CPU$G/cpu.cfs_period_us")" = "400000 800000" ] &&
	ok || fail "a refused setting changed the files"
cg bw set --quota 20ms --period 50ms --unlimited "$G"
expect_rc 2 "--quota with --unlimited"
cg bw set --quota 20ms --period 50ms "$G"
expect_rc 0 "20/50"
cg --json bw show "$G"
[ "$(json_get '(j["settings"]["quota_usec"], j["settings"]["period_usec"], j["effective"]["limit_cpus"])')" = \
	"(20000, 50000, 0.4)" ] && ok || fail "bw show after set: $OUT"
reset "$G" -1 100000 0

# ---- (3) spinners against the prediction ----
busy_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$CPU$1/cpu.stat"; }

# Spinner i is pinned to CPU i mod NCPU, as bw predict assumes (threads spread over the
# CPUs).  Unpinned, two spinners started together may share one CPU until the load
# balancer moves one (traced on 6.18: 35-540 ms, issue 18), which the calibration then
# misreads as other load and the run as 3-5 unthrottled periods (make check, 2026-12-04:
# 14 of 22 periods throttled at 150 ms / 100 ms, 19 predicted, usage 2.88 s of 3.04 s).
# Where the kernel places threads is validate's `placement`, not this test's question.
start_spinners() { # start_spinners N
	i=0
	while [ $i -lt "$1" ]; do
		sh -c 'echo $$ >"$1/cgroup.procs"; echo $$ >"$2/cgroup.procs"; exec taskset -c "$3" sh -c "while :; do :; done"' \
			_ "$CPU$P" "$ACCT$A" $((i % NCPU)) &
		SPIN="$SPIN $!"
		i=$((i + 1))
	done
}

# The share of a CPU the rest of the machine leaves our spinners: run them unlimited
# for a second.  Prints the other load as a fraction.
calibrate() { # calibrate N
	reset "$P" -1 100000 0
	u0=$(cat "$ACCT$A/cpuacct.usage")
	start_spinners "$1"
	sleep 1
	kill_spinners
	u=$(( $(cat "$ACCT$A/cpuacct.usage") - u0 ))
	c=$(( $1 < NCPU ? $1 : NCPU ))
	awk -v u="$u" -v c="$c" 'BEGIN { o = 1 - u / (c * 1e9); if (o < 0) o = 0; if (o > 0.95) o = 0.95; printf "%.3f", o }'
}

run_case() { # run_case QUOTA_US NTHREADS
	q=$1 n=$2
	other=$(calibrate "$n")
	reset "$P" "$q" 100000 0
	sleep 0.5				# the period timer goes idle
	p0=$(stat_of "$P" nr_periods) t0=$(stat_of "$P" nr_throttled)
	th0=$(stat_of "$P" throttled_time) u0=$(cat "$ACCT$A/cpuacct.usage")
	start_spinners "$n"
	sleep 2
	kill_spinners
	sleep 0.5				# the last episodes end at the next refill
	np=$(( $(stat_of "$P" nr_periods) - p0 ))
	nt=$(( $(stat_of "$P" nr_throttled) - t0 ))
	th=$(( $(stat_of "$P" throttled_time) - th0 ))
	use=$(( $(cat "$ACCT$A/cpuacct.usage") - u0 ))
	cg --json bw predict --quota "$q" --period 100000 --threads "$n" --online-cpus "$NCPU" \
		--duration 2s --other-load "$other"
	expect_rc 0 "predict $q/$n"
	echo "quota ${q}us, $n spinners, other load $other: kernel periods $np throttled $nt" \
		"time $th ns usage $use ns | predicted $(json_get 'j["predicted"]')"
	printf '%s\n' "$OUT" | python3 -c '
import json, sys
p = json.load(sys.stdin)["predicted"]
np, nt, th, use, other = [float(x) for x in sys.argv[1:6]]
bad = []
if abs(p["nr_periods"] - np) > 2: bad.append("nr_periods")
if other <= 0.5:	# beyond that the machine is too busy for the figures to mean much
	if abs(p["nr_throttled"] - nt) > 3: bad.append("nr_throttled")
	# noisy machines: 20 % (or 0.2 s) and 15 % (or 0.1 s)
	if abs(p["throttled_usec"] * 1e3 - th) > max(0.2 * th, 0.2e9): bad.append("throttled_time")
	if abs(p["usage_usec"] * 1e3 - use) > max(0.15 * use, 0.1e9): bad.append("usage")
else:
	print("other load %.2f: only nr_periods compared" % other)
if bad: print("differ:", " ".join(bad))
sys.exit(1 if bad else 0)
' "$np" "$nt" "$th" "$use" "$other" && ok || fail "quota $q, $n spinners: kernel and prediction differ"
}
run_case 50000 1
[ "$NCPU" -ge 2 ] && run_case 150000 2
done_testing
