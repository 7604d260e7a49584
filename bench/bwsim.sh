#!/bin/sh
# bench/bwsim.sh [SECONDS]: the CFS bandwidth simulator on issue 30's two cases (an hour
# of 256 threads on 64 CPUs, quota 32 CPUs: always busy, target <= 0.5 s; 3 ms busy /
# 5 ms idle, target <= 2 s), through cgctl_bw_replay() as `bw predict` calls it.
# Medians of BWSIM_RUNS (default 3) runs of thread CPU time.  The baseline: with
# BWSIM_BASELINE=DIR (the build tree of another commit, e.g. the merge base built from
# `git archive`), the same bench binary runs on DIR's libcgctl, interleaved with this
# tree's, and the ratio and the identity of the settled cpu.stat are printed.
set -e
top=${top_builddir:-.}
secs=${1:-3600}
runs=${BWSIM_RUNS:-3}
bin="$top/bench/.libs/bwsim"
[ -x "$bin" ] || bin="$top/bench/bwsim"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bwsim.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

run() {	# LIBDIR CASE OUT
	LD_LIBRARY_PATH="$1${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$bin" "$2" "$secs" >>"$3"
}
median() { cut -d' ' -f2 "$1" | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'; }
range() { cut -d' ' -f2 "$1" | sort -n | awk 'NR == 1 { a = $1 } { b = $1 } END { printf "%.3f-%.3f", a, b }'; }

for c in busy bursty; do
	case $c in
	busy) target=0.5 what="always busy" ;;
	*) target=2 what="3 ms busy / 5 ms idle" ;;
	esac
	target=$(awk "BEGIN { print $target * $secs / 3600 }")
	i=0
	while [ $i -lt "$runs" ]; do
		run "$top/lib/.libs" $c "$tmp/cur.$c"
		[ -z "$BWSIM_BASELINE" ] || run "$BWSIM_BASELINE/lib/.libs" $c "$tmp/base.$c"
		i=$((i + 1))
	done
	m=$(median "$tmp/cur.$c")
	echo "$c: $secs s of 64 CPUs, 256 threads $what, quota 32 CPUs / 100 ms"
	echo "  simulator: $m s CPU (median of $runs, $(range "$tmp/cur.$c")); target <= $target s:" \
		"$(awk "BEGIN { print ($m <= $target) ? \"met\" : \"MISSED\" }")" \
		"($(awk "BEGIN { printf \"%.2f\", $target / $m }")x)"
	echo "  cpu.stat: $(head -1 "$tmp/cur.$c" | cut -d' ' -f3-)"
	[ -n "$BWSIM_BASELINE" ] || continue
	b=$(median "$tmp/base.$c")
	if [ "$(cut -d' ' -f3- "$tmp/cur.$c" | sort -u)" = "$(cut -d' ' -f3- "$tmp/base.$c" | sort -u)" ]; then
		same="the same cpu.stat"
	else
		same="cpu.stat DIFFERS: $(head -1 "$tmp/base.$c" | cut -d' ' -f3-)"
	fi
	echo "  baseline ($BWSIM_BASELINE): $b s CPU (median of $runs, $(range "$tmp/base.$c"));" \
		"speed-up $(awk "BEGIN { printf \"%.2f\", $b / $m }")x; $same"
done
