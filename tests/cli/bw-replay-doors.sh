#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One replay (issue 28): `cgctl bw predict` gives the cpu.stat of cgctl_bw_replay() for
# the same demand and settings (one always-busy thread, the README's third pipeline's
# 20 ms / 100 ms with a 10 ms burst, two CPUs, 2 s), as `move`'s throttling prediction
# and `bw recommend`'s replay do (tests/unit/test-bw-replay.c); and no source but the
# replay (lib/predict/replay.c) sets up the bandwidth simulation.
. "$top_srcdir/tests/lib.sh"

want=$("$top_builddir/tests/unit/bw-replay-print" 20000 100000 10000 2 2000) ||
	fail "bw-replay-print failed"
cg --json bw predict --quota 20ms --period 100ms --burst 10ms --threads 1 \
	--online-cpus 2 --duration 2s --kernel 6.1
expect_rc 0 "bw predict"
got=$(json_get '"%d %d %d %d" % (j["predicted"]["nr_periods"], j["predicted"]["nr_throttled"], j["predicted"]["throttled_usec"], j["predicted"]["usage_usec"])')
echo "# replay: $want; bw predict: $got"
[ -n "$want" ] && [ "$got" = "$want" ] && ok || fail "bw predict $got, the replay $want"
# and about 80 ms of each period throttled: one busy thread is one thread
set -- $got
[ "$1" -ge 20 ] && [ $(( $3 / $2 )) -ge 70000 ] && [ $(( $3 / $2 )) -le 85000 ] && ok ||
	fail "throttled per throttled period: $got"

# one set-up: the simulator is built in the replay and nowhere else
others=$(grep -ln 'cgctl_bw_sim_new\|cgctl_bw_sim_add_group\|cgctl_bw_sim_add_thread' \
	"$top_srcdir"/src/*.c "$top_srcdir"/lib/predict/*.c "$top_srcdir"/lib/validate/*.c |
	grep -v '/lib/predict/replay\.c$')
[ -z "$others" ] && ok || fail "a second simulation set-up in: $others"
grep -q 'cgctl_bw_replay(&sp' "$top_srcdir/lib/validate/drv-bw.c" && ok ||
	fail "validate's bandwidth driver does not call cgctl_bw_replay()"
grep -q 'cgctl_bw_sim_place' "$top_srcdir/lib/validate/drv-bw.c" \
	"$top_srcdir/lib/validate/drv-bw-place.c" && fail "validate tells the model the placement" ||
	ok
done_testing
