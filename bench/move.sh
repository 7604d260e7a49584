#!/bin/sh
# bench/move.sh: cgctl move against cgclassify (libcgroup), both moving into the memory
# and cpu hierarchies.
# Both are measured in the same run, interleaved (cgctl, cgclassify, cgctl, ...), and
# compared by their medians; the load average is printed first: on a busy machine the
# ratios say little (quote them with it).
#  1. one PID: `cgctl -q move -c memory,cpu --no-plan PID PATH` vs
#     `cgclassify -g memory,cpu:PATH PID`, 60 interleaved pairs (target: ratio <= 1.5, issue 30:
#     cgctl locks and verifies each move, cgclassify does neither)
#  2. 10,000 PIDs: through stdin vs cgclassify with the PIDs as arguments (target >= 3x),
#     7 interleaved pairs once the spawned tasks have settled, medians;
#     and the writes alone from one thread: `move-spawn -w`, one write(2) per PID and
#     hierarchy and nothing else (the kernel's attach work; cgctl writes the later
#     hierarchies from a second thread, so it can take less); and the same move with
#     --tsv, to show what the human table costs (libsmartcols, about 80,000
#     instructions a row)
# Needs root, v1 memory and cpu hierarchies, cgclassify and python3.
set -u
: "${top_builddir:=.}"
: "${CGCTL:=$top_builddir/src/cgctl}"
# run by hand in a build tree, src/cgctl is libtool's wrapper script (a shell that
# execs src/.libs/cgctl: about 50 ms a run here): time the program, as `make bench` does
if [ -x "${CGCTL%/*}/.libs/cgctl" ] && head -c 2 "$CGCTL" | grep -q '#!'; then
	LD_LIBRARY_PATH="$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
	CGCTL="${CGCTL%/*}/.libs/cgctl"
fi
SPAWN="$top_builddir/bench/move-spawn"
N=${MOVE_BENCH_PIDS:-10000}

[ "$(id -u)" = 0 ] || { echo "bench/move: needs root"; exit 0; }
command -v cgclassify >/dev/null || { echo "bench/move: no cgclassify"; exit 0; }
command -v python3 >/dev/null || { echo "bench/move: no python3"; exit 0; }
[ -x "$SPAWN" ] || { echo "bench/move: $SPAWN not built (make bench)"; exit 0; }
MEM=/sys/fs/cgroup/memory
CPU=/sys/fs/cgroup/cpu
self=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
cpuself=$(awk -F: '$2 == "cpu" { print $3 }' /proc/self/cgroup)
# one PATH valid in both hierarchies: below our memory cgroup; in cpu it is below our
# cpu cgroup only if that is the root (it is here), otherwise skip
[ "$cpuself" = / ] || { echo "bench/move: cpu cgroup is not /, cannot share a path"; exit 0; }
A="${self%/}/cgctl-bench-a-$$"
B="${self%/}/cgctl-bench-b-$$"
TMP=$(mktemp -d)
CREATED=""
SPID=""

cleanup() {
	[ -n "$SPID" ] && kill "$SPID" 2>/dev/null && wait "$SPID" 2>/dev/null
	for d in $CREATED; do
		for p in $(cat "$d/cgroup.procs" 2>/dev/null); do
			echo "$p" >"$(dirname "$d")/cgroup.procs" 2>/dev/null
		done
	done
	for d in $CREATED; do rmdir "$d" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkcg() {	# mkcg HIERARCHY PATH: create every missing component, remember it
	dir=$1
	for c in $(echo "$2" | tr / ' '); do
		dir="$dir/$c"
		[ -d "$dir" ] && continue
		mkdir "$dir" || exit 1
		CREATED="$dir $CREATED"
	done
}
mkcg "$MEM" "$A"; mkcg "$MEM" "$B"; mkcg "$CPU" "$A"; mkcg "$CPU" "$B"
echo "bench/move: $(uptime | sed 's/^ *//')"
echo "bench/move: ratios are only meaningful on a quiet machine (load well below $(getconf _NPROCESSORS_ONLN) CPUs)"

# ---- 1. one PID ----
sleep 600 &
P1=$!
SPID=$P1
python3 - "$CGCTL" "$P1" "$A" "$B" <<'PY' || exit 1
import statistics, subprocess, sys, time
cgctl, pid, a, b = sys.argv[1:]
def run(argv):
    t = time.perf_counter_ns()
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode:
        sys.exit("bench/move: %s exited %d" % (argv[0], r.returncode))
    return (time.perf_counter_ns() - t) / 1e6
c, g = [], []
for i in range(65):	# 5 warm-up pairs, then 60; each moves the PID to the other side
    d = a if i % 2 else b
    tc = run([cgctl, "-q", "move", "-c", "memory,cpu", "--no-plan", pid, d])
    tg = run(["cgclassify", "-g", "memory,cpu:" + (b if i % 2 else a), pid])
    if i >= 5:
        c.append(tc), g.append(tg)
mc, mg = statistics.median(c), statistics.median(g)
print("one PID: cgctl move %.3f ms, cgclassify %.3f ms (medians of 60 interleaved pairs), "
      "ratio %.2fx (target <= 1.5: %s)" % (mc, mg, mc / mg, "met" if mc <= 1.5 * mg else "NOT met"))
PY
kill "$P1"; wait "$P1" 2>/dev/null

# ---- 2. N PIDs ----
"$SPAWN" "$N" "$TMP/pids" &
SPID=$!
i=0
while [ ! -s "$TMP/pids" ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(wc -l <"$TMP/pids")" = "$N" ] || { echo "bench/move: could not spawn $N tasks"; exit 1; }
# the same quiet machine for all three: wait until the spawn's forks and exits have
# settled (runnable tasks <= CPUs, three samples in a row; at most 20 s)
ncpu=$(getconf _NPROCESSORS_ONLN)
calm=0
i=0
while [ $calm -lt 3 ] && [ $i -lt 100 ]; do
	sleep 0.2
	run=$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f1)
	if [ "$run" -le "$ncpu" ]; then calm=$((calm + 1)); else calm=0; fi
	i=$((i + 1))
done
t() { s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(((e - s) / 1000)); }
# median of the values on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
: >"$TMP/c"; : >"$TMP/g"; : >"$TMP/f"; : >"$TMP/t"
for r in 1 2 3 4 5 6 7; do
	dst=$A; [ $((r % 2)) = 0 ] && dst=$B
	t sh -c "$CGCTL -q move -c memory,cpu --no-plan - $dst <$TMP/pids" >>"$TMP/c"
	dst2=$B; [ "$dst" = "$B" ] && dst2=$A
	t sh -c "cgclassify -g memory,cpu:$dst2 \$(cat $TMP/pids)" >>"$TMP/g"
	t "$SPAWN" -w "$TMP/pids" "$MEM$dst" "$CPU$dst" >>"$TMP/f"
	t sh -c "$CGCTL --tsv -q move -c memory,cpu --no-plan - $dst2 <$TMP/pids" >>"$TMP/t"
done
best_c=$(median <"$TMP/c"); best_g=$(median <"$TMP/g"); best_f=$(median <"$TMP/f")
best_t=$(median <"$TMP/t")
# cgctl really moved every one of them
"$CGCTL" -q move -c memory,cpu --no-plan - "$A" <"$TMP/pids" >/dev/null
moved=$(grep -c . "$MEM$A/cgroup.procs")
[ "$moved" = "$N" ] || echo "bench/move: only $moved of $N PIDs in $A"
awk -v c="$best_c" -v g="$best_g" -v f="$best_f" -v t="$best_t" -v n="$N" 'BEGIN {
	printf "%d PIDs: cgctl move (stdin) %.1f ms, cgclassify (args) %.1f ms (medians of 7 interleaved), speed-up %.2fx (target >= 3: %s)\n",
		n, c / 1000, g / 1000, g / c, (g / c >= 3) ? "met" : "NOT met"
	printf "%d PIDs: one thread writing each PID to each hierarchy, nothing else, %.1f ms = %.0f%% of cgclassify (cgctl writes the later hierarchies from a second thread: it can go below this); cgctl is %.2fx it\n",
		n, f / 1000, 100 * f / g, c / f
	printf "%d PIDs: cgctl --tsv move %.1f ms, speed-up %.2fx (the same move without the human table libsmartcols draws, about 80,000 instructions a row)\n",
		n, t / 1000, g / t
}'
