#!/bin/sh
# cgctl bw recommend on synthetic traces (no kernel): one recording and several, the
# bound over their answers, the JSON shape, and bad input that reads and prints nothing.
. "$top_srcdir/tests/lib.sh"

# steady FILE MS: one thread busy MS of each 100 ms, 30 cycles (it needs MS of quota)
steady() {
	awk -v b="$2" 'BEGIN { print "cgctl-bw-trace 1"; print "cpus 2"
		for (i = 0; i < 30; i++) { print "0 busy " b "ms"; print "0 idle " 100 - b "ms" } }' >"$1"
}
steady "$T_TMP/a" 40; steady "$T_TMP/b" 44; steady "$T_TMP/c" 48

# one recording: its 30 periods are alike, so the bootstrap adds no margin to its answer
cg --json bw recommend --trace "$T_TMP/c"
expect_rc 0 "one recording"
[ "$(json_get 'j["workload"]["trace"]')" = "$T_TMP/c" ] && ok || fail "one recording: trace: $OUT"
[ "$(json_get '(j["workload"]["recordings"], len(j["runs"]), j["bound"]["method"], j["bound"]["samples"], j["bound"]["block_periods"], j["bound"]["blocks"], j["bound"]["resamples"], j["bound"]["sd_cpus"] < 1e-9, j["bound"]["confidence"])')" = \
	"(1, 1, 'bootstrap', 30, 1, 30, 1000, True, 0.95)" ] && ok || fail "one recording: runs and bound: $OUT"
[ "$(json_get '(j["cpus"], j["all_cpus"], j["saturated_ratio"])')" = "(1, False, 0)" ] && ok ||
	fail "one recording: the CPU cap: $OUT"
[ "$(json_get 'j["recommended"]["quota_usec"] == j["runs"][0]["quota_usec"]')" = True ] && ok ||
	fail "one recording: the quota is not its own answer: $OUT"
one=$(json_get 'j["recommended"]["quota_usec"]')
[ "$one" -ge 47000 ] && [ "$one" -le 50000 ] && ok || fail "48 ms of demand: quota $one us"
# the predicted cpu.stat's burst time has its own name, beside the burst setting
[ "$(printf '%s' "$OUT" | grep -o '"burst_usec"' | wc -l)" = 2 ] && ok ||
	fail "burst_usec once per replay object (recommended, percentile): $OUT"
[ "$(json_get '"burst_time_usec" in j["recommended"] and "burst_time_usec" in j["percentile"]')" = True ] &&
	ok || fail "burst_time_usec missing: $OUT"

# the same recording, the same answer (a fixed seed), in --tsv too
cg --tsv bw recommend --trace "$T_TMP/c"
expect_rc 0 "one recording, tsv"
printf '%s\n' "$OUT" | head -1 | tr '\t' '\n' | grep -qx 'bound.resamples' && ok ||
	fail "--tsv: no bound.resamples column: $OUT"
[ "$(printf '%s\n' "$OUT" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	NR == 2 { print $c["recommended.quota_usec"], $c["bound.method"] }')" = "$one bootstrap" ] &&
	ok || fail "--tsv: not the same answer and method as --json: $OUT"
# the whole recommendation: quota, period and burst (issue 29: --tsv printed the runs only)
[ "$(printf '%s\n' "$OUT" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	NR == 2 { print $c["recommended.quota_usec"], $c["recommended.period_usec"], $c["recommended.burst_usec"] }')" = \
	"$one 100000 0" ] && ok || fail "--tsv: quota, period, burst: $OUT"

# three recordings of one workload: above the largest answer by the prediction bound
cg --json bw recommend --trace "$T_TMP/a" --trace "$T_TMP/b" --trace "$T_TMP/c"
expect_rc 0 "three recordings"
[ "$(json_get '(j["workload"]["trace"], j["workload"]["recordings"], [r["trace"][-1] for r in j["runs"]])')" = \
	"(None, 3, ['a', 'b', 'c'])" ] && ok || fail "three recordings: workload and runs: $OUT"
[ "$(json_get 'j["recommended"]["quota_usec"] > max(r["quota_usec"] for r in j["runs"])')" = True ] &&
	ok || fail "three recordings: not above the largest answer: $OUT"
# mean + t(0.95, 2) s sqrt(1 + 1/3), from the answers printed
[ "$(json_get 'abs(j["bound"]["bound_cpus"] - (lambda q: sum(q) / 3 + 2.92 * (sum((x - sum(q) / 3) ** 2 for x in q) / 2) ** 0.5 * (4 / 3) ** 0.5)([r["quota_usec"] / 1e5 for r in j["runs"]])) < 0.005')" = True ] &&
	ok || fail "three recordings: the bound is not m + t s sqrt(1 + 1/n): $OUT"
[ "$(json_get 'j["recommended"]["within_budget"] and all(r["throttled_ratio"] == 0 for r in j["runs"])')" = True ] &&
	ok || fail "three recordings: throttled under the recommendation: $OUT"
q95=$(json_get 'j["recommended"]["quota_usec"]')
cg --json bw recommend --trace "$T_TMP/a" --trace "$T_TMP/b" --trace "$T_TMP/c" --confidence 99%
expect_rc 0 "--confidence 99%"
[ "$(json_get 'j["recommended"]["quota_usec"]')" -gt "$q95" ] && ok ||
	fail "99% asks no more than 95% ($q95 us): $OUT"

# --max-delay 0 is a budget of no throttled time in any period, not "no budget" (the
# library's 0): one period of 100 needs 90 ms, the others 10 ms; 1% may be throttled
awk 'BEGIN { print "cgctl-bw-trace 1"; print "cpus 2"
	for (i = 0; i < 100; i++) { b = i == 50 ? 90 : 10; print "0 busy " b "ms"; print "0 idle " 100 - b "ms" } }' >"$T_TMP/spike"
cg --json bw recommend --trace "$T_TMP/spike"
nobudget=$(json_get 'j["runs"][0]["quota_usec"]')
cg --json bw recommend --trace "$T_TMP/spike" --max-delay 1us
us1=$(json_get 'j["runs"][0]["quota_usec"]')
cg --json bw recommend --trace "$T_TMP/spike" --max-delay 0
expect_rc 0 "--max-delay 0"
[ "$(json_get 'j["budget"]["max_delay_usec"]')" = 0 ] && ok || fail "--max-delay 0: budget: $OUT"
zero=$(json_get 'j["runs"][0]["quota_usec"]')
[ "$zero" -ge "$us1" ] && [ "$us1" -gt "$nobudget" ] && ok ||
	fail "--max-delay 0: quota $zero us, 1us: $us1 us, no budget: $nobudget us"
cg bw recommend --trace "$T_TMP/spike" --max-delay 0
printf '%s\n' "$OUT" | grep -qx '  MAX-DELAY  *0ns' && ok || fail "--max-delay 0: table: $OUT"

# --max-throttled 0%: the budget printed is the 0 asked for (the library's 0 is its
# default, 1%, so 1 ppm is asked: it printed 1e-06)
cg --json bw recommend --trace "$T_TMP/spike" --max-throttled 0%
expect_rc 0 "--max-throttled 0%"
[ "$(json_get 'j["budget"]["max_throttled_ratio"]')" = 0 ] && ok || fail "--max-throttled 0%: budget: $OUT"

# two threads busy throughout on two CPUs: all of them (or no limit), said on stderr
printf 'cgctl-bw-trace 2\ncpus 2\n0 busy 3s\n1 busy 3s\n' >"$T_TMP/sat"
cg --json bw recommend --trace "$T_TMP/sat"
expect_rc 0 "saturating"
[ "$(json_get '(j["cpus"], j["all_cpus"], j["saturated_ratio"], j["recommended"]["quota_usec"] in (None, 200000))')" = \
	"(2, True, 1, True)" ] && ok || fail "saturating: not all CPUs: $OUT"
[ "$ERR" = "cgctl: warning: the demand reaches all 2 CPUs its threads may use (100.0% of periods): no limit below 2 CPUs meets the budget" ] &&
	ok || fail "saturating: stderr '$ERR'"

# bad input: exit 2, nothing on stdout, nothing recorded or read
for args in "--trace $T_TMP/a --trace 999999" "--trace - --trace -" \
	"--trace $T_TMP/a --confidence 100%" "--trace $T_TMP/a --confidence 40" \
	"--trace $T_TMP/a --trace $T_TMP/nosuch"; do
	# shellcheck disable=SC2086
	cg bw recommend $args
	expect_rc 2 "bw recommend $args"
	[ -z "$OUT" ] && ok || fail "bw recommend $args: printed $OUT"
	case $ERR in "cgctl: bw recommend: --"*) ok ;; *) fail "bw recommend $args: stderr $ERR" ;; esac
done
done_testing
