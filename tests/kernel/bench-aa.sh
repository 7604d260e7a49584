#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A/A: two runs of the same experiment on the same kernel, compared with --compare.
# At the level p < 0.01 Welch's test marks 1% of the rows above noise when the runs are
# independent samples of one distribution (tests/unit/test-bench.c checks that rate on
# synthetic samples): here 8 configurations x 2 metrics = 16 rows, 0.16 expected.  The
# test allows 3 (under independence 4 or more have probability about 2e-5), the margin
# being a load that drifts between the two runs on a shared machine; more is a bug in
# the statistics or in the run order.  Also: --compare of a file with itself marks none.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CTRL=cpu
. "$top_srcdir/tests/kernel/bench-lib.sh"

for run in a b; do
	"$CGCTL" --json bench --repeat 5 --rounds 2000 pipe >"$T_TMP/$run.json" 2>"$T_TMP/err"
	rc=$?
	# 7 only for bench-pipe.sh's KNOWN model gap (bw-1ms's period count)
	if [ "$rc" = 0 ] || { [ "$rc" = 7 ] &&
		bench_differs_only "$T_TMP/$run.json" bw-1ms; }; then
		ok
	else
		fail "run $run: rc $rc: $(cat "$T_TMP/err")"
	fi
done
cg --json bench --compare "$T_TMP/a.json" "$T_TMP/b.json"
[ "$RC" = 0 ] && ok || fail "compare: rc $RC: $ERR"
rows=$(json_get 'j["rows"]')
above=$(json_get 'j["above_noise"]')
echo "A/A: $above of $rows rows above noise (p < 0.01)"
[ "$rows" = 16 ] && ok || fail "compare: $rows rows, not 16"
[ "$above" -le 3 ] && ok || fail "A/A: $above of $rows rows above noise: $OUT"

cg --json bench --compare "$T_TMP/a.json" "$T_TMP/a.json"
[ "$(json_get 'j["above_noise"]')" = 0 ] && ok || fail "A against itself: $OUT"
bench_expect_clean "bench A/A"
done_testing
