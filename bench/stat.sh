#!/bin/bash
# bench/stat: `cgctl --json stat` (the default, lean view) and `cgctl --json stat --long`
# over N scratch cgroups (memory + cpu) against a loop of `cgget -g memory,cpu` over the
# same cgroups; prints the three times and cgget's time over each of cgctl's.
# Target: the default <= 50 ms for 2,000 cgroups.  Needs root, cgroup-tools and bash 5
# ($EPOCHREALTIME: the timed window holds cgctl only, no date or awk started in it).
set -eu
# `make bench` runs this with $(SHELL): go on in bash
if [ -z "${BASH_VERSION:-}" ]; then
	command -v bash >/dev/null || { echo "bench/stat: needs bash"; exit 0; }
	exec bash "$0" "$@"
fi
N=${N:-2000}
RUNS=${RUNS:-5}
CGCTL=${CGCTL:-src/cgctl}
[ -n "${EPOCHREALTIME:-}" ] || { echo "bench/stat: needs bash 5 (\$EPOCHREALTIME)"; exit 0; }
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

# $EPOCHREALTIME (bash 5) in microseconds: no process started inside the timed window
now_us() { echo "${EPOCHREALTIME/[.,]/}"; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b - a) / 1000 }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# run_ms ARGS...: wall-clock ms of one `cgctl --self --json stat ARGS... $list`
run_ms() {
	local t0 t1
	t0=${EPOCHREALTIME/[.,]/}
	# shellcheck disable=SC2086
	"$CGCTL" --self --json stat "$@" $list >/dev/null
	t1=${EPOCHREALTIME/[.,]/}
	ms "$t0" "$t1"
}

load0=$(cut -d' ' -f1 /proc/loadavg)
run_ms >/dev/null	# warm the dentries once
lean="" long=""
r=0
while [ $r -lt "$RUNS" ]; do	# interleaved: both see the same load
	lean="$lean $(run_ms)"
	long="$long $(run_ms --long)"
	r=$((r + 1))
done
ours=$(echo $lean | tr ' ' '\n' | median)
ours_long=$(echo $long | tr ' ' '\n' | median)

t0=$(now_us)
i=0
while [ $i -lt "$N" ]; do
	cgget -g "memory:$memrel/$i" -g "cpu:$cpurel/$i" >/dev/null
	i=$((i + 1))
done
t1=$(now_us)
theirs=$(ms "$t0" "$t1")

ratio() { awk -v a="$theirs" -v b="$1" 'BEGIN { printf "%.1f", a / b }'; }
echo "bench/stat: $N cgroups: cgctl --json stat ${ours} ms, ratio $(ratio "$ours")x faster" \
	"than cgget; stat --long ${ours_long} ms, ratio $(ratio "$ours_long")x (medians of" \
	"$RUNS, interleaved); cgget loop ${theirs} ms;" \
	"target <= 50 ms: $(awk -v a="$ours" 'BEGIN { print (a <= 50) ? "met" : "NOT met" }');" \
	"load $load0 -> $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs"
