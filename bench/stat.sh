#!/bin/sh
# bench/stat: `cgctl --json stat` over N scratch cgroups (memory + cpu) against a loop of
# `cgget -g memory,cpu` over the same cgroups; prints both times and the ratio.
# Target: cgctl <= 50 ms for 2,000 cgroups.  Needs root and cgroup-tools.
set -eu
N=${N:-2000}
RUNS=${RUNS:-5}
CGCTL=${CGCTL:-src/cgctl}
[ "$(id -u)" = 0 ] || { echo "bench/stat: needs root"; exit 0; }
command -v cgget >/dev/null || { echo "bench/stat: needs cgget (cgroup-tools)"; exit 0; }

self_of() { awk -F: -v c="$1" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' /proc/self/cgroup; }
mem=/sys/fs/cgroup/memory$(self_of memory | sed 's|/$||')/cgctl-bench-$$
cpu=/sys/fs/cgroup/cpu$(self_of cpu | sed 's|/$||')/cgctl-bench-$$
memrel=${mem#/sys/fs/cgroup/memory}
cpurel=${cpu#/sys/fs/cgroup/cpu}
cleanup() { rmdir "$mem"/* "$mem" "$cpu"/* "$cpu" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
mkdir "$mem" "$cpu"
i=0
while [ $i -lt "$N" ]; do mkdir "$mem/$i" "$cpu/$i"; i=$((i + 1)); done
# the same relative names in both hierarchies only if memory and cpu share the prefix:
# use --self so each hierarchy gets its own prefix
list=$(i=0; while [ $i -lt "$N" ]; do echo "cgctl-bench-$$/$i"; i=$((i + 1)); done)

now_ms() { date +%s%N | awk '{ printf "%.3f", $1 / 1000000 }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

load0=$(cut -d' ' -f1 /proc/loadavg)
times=""
r=0
while [ $r -lt "$RUNS" ]; do
	t0=$(now_ms)
	# shellcheck disable=SC2086
	"$CGCTL" --self --json stat $list >/dev/null
	t1=$(now_ms)
	times="$times $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')"
	r=$((r + 1))
done
ours=$(echo $times | tr ' ' '\n' | median)

t0=$(now_ms)
i=0
while [ $i -lt "$N" ]; do
	cgget -g "memory:$memrel/$i" -g "cpu:$cpurel/$i" >/dev/null
	i=$((i + 1))
done
t1=$(now_ms)
theirs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')

echo "bench/stat: $N cgroups: cgctl --json stat ${ours} ms (median of $RUNS)," \
	"cgget loop ${theirs} ms, ratio $(awk -v a="$theirs" -v b="$ours" 'BEGIN { printf "%.1f", a / b }')x faster;" \
	"target <= 50 ms: $(awk -v a="$ours" 'BEGIN { print (a <= 50) ? "met" : "NOT met" }');" \
	"load $load0 -> $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs"
