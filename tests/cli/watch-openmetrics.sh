#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: `cgctl watch --openmetrics` prints one whole OpenMetrics exposition per
# sample, each ending in "# EOF" (tests/cli/openmetrics-check.py checks each): COUNT
# samples, the first at once and identical to `stat --openmetrics`; later samples carry
# the cgroup's totals as they are then; the reader of cgctl-watch(1)'s EXAMPLES (an
# exposition to a temporary file, renamed at "# EOF") leaves the last one whole; a
# cgroup that goes away ends the stream after complete expositions with exit 4; other
# formats are refused.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed"

check_om() { python3 "$top_srcdir/tests/cli/openmetrics-check.py" "$1"; }

# split FILE DIR: each exposition of FILE to DIR/1, DIR/2, ... (cut after "# EOF")
split_om() {
	rm -rf "$2" && mkdir -p "$2" &&
		awk -v d="$2" '{ print > (d "/" n + 1) } /^# EOF$/ { close(d "/" n + 1); n++ }' "$1"
}

# value FILE METRIC LABELS: the value of one sample
value() { awk -v k="$2{$3}" '$1 == k { print $2 }' "$1"; }

# wait_eof FILE N: FILE has N "# EOF" lines (10 s at most)
wait_eof() {
	i=0
	while [ "$(grep -c '^# EOF$' "$1" 2>/dev/null)" -lt "$2" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

for tree in v1 v2 hybrid; do
	fixture $tree
	snapshot before
	for p in / /a /a/b /01/02; do
		cg --root="$ROOT" watch --openmetrics --count 1 -i 10s "$p"
		expect_rc 0 "$tree: watch --openmetrics --count 1 $p"
		w=$OUT
		cg --root="$ROOT" stat --openmetrics "$p"
		[ "$w" = "$OUT" ] && ok || fail "$tree: $p: -n 1 is not stat --openmetrics"
	done
	# -n 3: three whole expositions, 2 intervals (not 3) apart: the first "# EOF"
	# arrives at once and the third 2 s after it (each exposition is flushed as it
	# ends; timed where it arrives, so that the start-up of cgctl is not counted)
	start=$(date +%s%N)
	{ "$CGCTL" --root="$ROOT" watch --openmetrics --count 3 -i 1s /a </dev/null
	  echo "rc $?" >"$T_TMP/rc"; } |
		while IFS= read -r l; do
			printf '%s\n' "$l" >&3
			[ "$l" = "# EOF" ] && echo "$(date +%s%N)"
		done >"$T_TMP/eofs" 3>"$T_TMP/om"
	total=$((($(date +%s%N) - start) / 1000000))
	OUT=$(cat "$T_TMP/om") RC=$(sed 's/^rc //' "$T_TMP/rc")
	expect_rc 0 "$tree: -n 3"
	n=$(wc -l <"$T_TMP/eofs")
	[ "$n" = 3 ] && ok || fail "$tree: -n 3 printed $n expositions, not 3"
	first=$(sed -n 1p "$T_TMP/eofs") last=$(sed -n '$p' "$T_TMP/eofs")
	took=$(((last - first) / 1000000))
	[ $took -ge 1950 ] && [ $took -lt 2900 ] && [ $total -lt 3000 ] && ok ||
		fail "$tree: -n 3 -i 1s: ${took}ms from the first exposition to the third (not 2 intervals), ${total}ms in all"
	split_om "$T_TMP/om" "$T_TMP/x"
	[ "$(ls "$T_TMP/x" | wc -l)" = 3 ] && ok || fail "$tree: -n 3: $(ls "$T_TMP/x")"
	for f in "$T_TMP"/x/*; do
		r=$(check_om "$f")
		case $r in "ok "*) ok ;; *) fail "$tree: exposition $(basename "$f"): $r" ;; esac
		[ "$(value "$f" cgctl_cpu_throttled_periods_total 'cgroup="/a"')" = 300 ] && ok ||
			fail "$tree: exposition $(basename "$f"): throttled periods: $(cat "$f")"
		# hybrid co-mounts cpu,cpuacct: usage from the cpu directory
		[ "$(value "$f" cgctl_cpu_usage_seconds_total 'cgroup="/a"')" = 55 ] && ok ||
			fail "$tree: exposition $(basename "$f"): CPU usage: $(cat "$f")"
	done
	expect_unchanged before "$tree: watch --openmetrics"
done

# a later sample reads the cgroup as it is then: totals, not deltas
fixture v2
G=$ROOT/sys/fs/cgroup/a
"$CGCTL" --root="$ROOT" watch --openmetrics --count 2 -i 1500ms /a >"$T_TMP/om" 2>"$T_TMP/err" &
pid=$!
wait_eof "$T_TMP/om" 1
echo 9437184 >"$G/memory.current"
sed -i 's/^usage_usec .*/usage_usec 56500000/' "$G/cpu.stat"
wait $pid
rc=$?
[ $rc = 0 ] && ok || fail "changing values: exit $rc: $(cat "$T_TMP/err")"
split_om "$T_TMP/om" "$T_TMP/y"
[ "$(value "$T_TMP/y/1" cgctl_memory_usage_bytes 'cgroup="/a"')" = 8388608 ] &&
	[ "$(value "$T_TMP/y/2" cgctl_memory_usage_bytes 'cgroup="/a"')" = 9437184 ] && ok ||
	fail "memory usage of the two samples: $(cat "$T_TMP/om")"
[ "$(value "$T_TMP/y/2" cgctl_cpu_usage_seconds_total 'cgroup="/a"')" = 56.5 ] && ok ||
	fail "CPU usage total of the second sample: $(cat "$T_TMP/y/2")"

# cgctl-watch(1)'s EXAMPLES reader: the collector's file is always one whole exposition
fixture v2
prom="$T_TMP/cgctl-web.prom"
cg --root="$ROOT" watch --openmetrics --count 3 -i 20ms /a
printf '%s\n' "$OUT" | awk -v f="$prom" '
	{ print > (f ".tmp") }
	/^# EOF$/ { close(f ".tmp"); system("mv " f ".tmp " f) }'
[ ! -e "$prom.tmp" ] && ok || fail "the reader left $prom.tmp"
r=$(check_om "$prom")
case $r in "ok "*) ok ;; *) fail "the collector's file: $r" ;; esac
[ "$(grep -c '^# EOF$' "$prom")" = 1 ] && ok || fail "the collector's file: $(cat "$prom")"

# the cgroup goes away: the expositions before are whole, exit 4, one error line
fixture v2
"$CGCTL" --root="$ROOT" watch --openmetrics -i 1s /a/b >"$T_TMP/om" 2>"$T_TMP/err" &
pid=$!
wait_eof "$T_TMP/om" 1
rm -rf "$ROOT/sys/fs/cgroup/a/b"
wait $pid
rc=$?
[ $rc = 4 ] && ok || fail "a cgroup gone: exit $rc"
[ "$(cat "$T_TMP/err")" = "cgctl: watch: /a/b: the cgroup went away" ] && ok ||
	fail "a cgroup gone: stderr $(cat "$T_TMP/err")"
r=$(check_om "$T_TMP/om")
case $r in "ok "*) ok ;; *) fail "a cgroup gone: $r" ;; esac

# errors: no such cgroup, other formats, bad counts
fixture v2
bad_input 4 "--openmetrics: no such cgroup" --root="$ROOT" watch --openmetrics --count 1 /nope
expect_err "cgctl: watch: /nope: no such cgroup" "--openmetrics: no such cgroup"
for o in --json --tsv --tsv=x; do
	bad_input 2 "--openmetrics $o" --root="$ROOT" $o watch --openmetrics --count 1 /a
done
bad_input 2 "--openmetrics --count 0" --root="$ROOT" watch --openmetrics --count 0 /a
done_testing
