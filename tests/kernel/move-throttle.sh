#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl move` predicts the destination's throttling from a short recording of the tasks
# (perf context switches): two always-busy threads moved into a 0.5-CPU group are
# predicted throttled in (nearly) every period, the kernel then throttles them too; an
# unlimited destination is not recorded; a bad --sample changes nothing; without the
# right to record (CAP_PERFMON and CAP_SYS_ADMIN dropped, perf_event_paranoid >= 2) the
# prediction says it fell back to CPU-time deltas.
. "$top_srcdir/tests/lib.sh"
spinner_setup

scratch lim cpu "cgctl-move-thr-$$"
scratch free cpu "cgctl-move-free-$$"
echo 100000 >"$CPU$lim/cpu.cfs_period_us"
echo 50000 >"$CPU$lim/cpu.cfs_quota_us"
"$SPIN" 0 & PIDS="$PIDS $!"
"$SPIN" 0 & PIDS="$PIDS $!"
sleep 0.3

# ---- a bad --sample: usage error, nothing moved ----
cg move -c cpu --sample soon $PIDS "$lim"
expect_rc 2 "--sample soon"
[ -z "$(cat "$CPU$lim/cgroup.procs")" ] && ok || fail "a usage error moved tasks"

# ---- into the limited group ----
cg --json move -c cpu --sample 500ms $PIDS "$lim"
expect_rc 0 "move into the 0.5-CPU group"
echo "prediction: $(json_get 'j["throttling"]')"
[ "$(json_get 'j["throttling"]["limited"]')" = True ] && ok || fail "not limited: $OUT"
[ "$(json_get 'j["throttling"]["demand_from"]')" = recording ] && ok ||
	fail "root did not record the demand: $OUT"
[ "$(json_get 'j["throttling"]["limit_cpus"]')" = 0.5 ] && ok || fail "limit: $OUT"
[ "$(json_get 'j["throttling"]["before"]["threads"]')" = 0 ] && ok ||
	fail "the empty group had threads before: $OUT"
[ "$(json_get 'j["throttling"]["after"]["threads"]')" = 2 ] && ok ||
	fail "two spinning threads expected after: $OUT"
# even on a loaded machine two spinners want more than the 0.5 CPU the quota gives
[ "$(json_get 'j["throttling"]["after"]["demand_cpus"] > 0.6')" = True ] && ok ||
	fail "demand of two spinners: $OUT"
[ "$(json_get 'j["throttling"]["after"]["throttled_periods_ratio"] >= 0.9')" = True ] && ok ||
	fail "predicted throttling: $OUT"
[ "$(json_get 'j["throttling"]["before"]["throttled_periods_ratio"]')" = 0 ] && ok ||
	fail "predicted throttling before: $OUT"
# the kernel agrees: throttled in most periods over the next second
stat() { awk -v k="$1" '$1 == k { print $2 }' "$CPU$lim/cpu.stat"; }
p0=$(stat nr_periods) t0=$(stat nr_throttled) tt0=$(stat throttled_time)
sleep 1.5
p1=$(stat nr_periods) t1=$(stat nr_throttled) tt1=$(stat throttled_time)
np=$((p1 - p0))
per=$(( (tt1 - tt0) / 1000 / (np > 0 ? np : 1) ))
pred=$(json_get 'j["throttling"]["after"]["throttled_per_period_usec"]')
echo "kernel: $((t1 - t0)) of $np periods throttled, $per us throttled per period" \
	"(predicted $pred us)"
[ $np -ge 10 ] && [ $(( (t1 - t0) * 100 )) -ge $(( np * 80 )) ] && ok ||
	fail "kernel throttled $((t1 - t0)) of $np periods"
# throttled time per period within 35% (the demand was sampled on a shared machine)
[ $(( per * 100 )) -ge $(( pred * 65 )) ] && [ $(( per * 100 )) -le $(( pred * 135 )) ] &&
	ok || fail "kernel $per us throttled per period, predicted $pred us"

# ---- into an unlimited group: nothing sampled, no wait ----
start=$(date +%s%N)
cg --json move -c cpu $PIDS "$free"
end=$(date +%s%N)
expect_rc 0 "move into the unlimited group"
[ "$(json_get 'j["throttling"]["limited"]')" = False ] && ok || fail "limited: $OUT"
[ "$(json_get 'j["throttling"]["after"]')" = None ] && ok || fail "sampled: $OUT"
[ $(( (end - start) / 1000000 )) -lt 900 ] && ok ||
	fail "an unlimited destination took $(( (end - start) / 1000000 )) ms (sampled?)"

# ---- not allowed to record: CPU-time deltas, said so ----
if command -v capsh >/dev/null &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)" -ge 2 ]; then
	capsh --drop=cap_perfmon,cap_sys_admin -- -c \
		"'$CGCTL' --json move -c cpu --sample 300ms $PIDS '$lim'" \
		>"$T_TMP/fb.out" 2>"$T_TMP/fb.err"
	rc=$?
	OUT=$(cat "$T_TMP/fb.out")
	[ $rc = 0 ] && ok || fail "move without CAP_PERFMON: rc $rc: $(cat "$T_TMP/fb.err")"
	[ "$(json_get 'j["throttling"]["demand_from"]')" = cpu-time ] && ok ||
		fail "fallback not said: $OUT"
	json_get 'j["throttling"]["not_recorded_because"]' | grep -q perf_event_paranoid &&
		ok || fail "fallback reason: $OUT"
	grep -q "cannot record" "$T_TMP/fb.err" && ok || fail "no warning: $(cat "$T_TMP/fb.err")"
	[ "$(json_get 'j["throttling"]["after"]["threads"]')" = 2 ] && ok ||
		fail "fallback: two spinning threads expected after: $OUT"
else
	echo "# fallback not checked: no capsh, or perf_event_paranoid < 2"
fi

# ---- --sample 0: no prediction ----
cg --json move -c cpu --sample 0 $PIDS "$lim"
expect_rc 0 "--sample 0"
[ "$(json_get 'j["throttling"]["before"]')" = None ] && ok || fail "--sample 0: $OUT"

# ---- --tsv=throttle: the columns of a sampled run are those of an unsampled one ----
# (from $free)
cg --tsv=throttle move -c cpu $PIDS "$free"
expect_rc 0 "--tsv=throttle, unlimited"
head0=$(printf '%s\n' "$OUT" | head -1)
cg --tsv=throttle move -c cpu --sample 200ms $PIDS "$lim"
expect_rc 0 "--tsv=throttle --sample 200ms"
[ "$(printf '%s\n' "$OUT" | head -1)" = "$head0" ] && ok ||
	fail "--tsv=throttle: sampled columns differ: $OUT / $head0"
# every before.* and after.* cell has a value
printf '%s\n' "$OUT" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[i] = $i }
	NR == 2 { for (i = 1; i <= NF; i++) if (c[i] ~ /\.(before|after)\./ && $i == "-") bad++
		  exit bad > 0 }' && ok || fail "--tsv=throttle: sampled cells missing: $OUT"

# ---- tasks already in the destination: they are its load before and after (recorded
# once, not refused as gone) ----
cg move -c cpu $PIDS "$lim"
expect_rc 0 "into $lim"
cg --json move -c cpu --sample 200ms $PIDS "$lim"
expect_rc 0 "--sample 200ms with the tasks already there"
[ "$(json_get 'j["throttling"]["demand_from"]')" = recording ] && ok ||
	fail "already there: not recorded: $OUT"
done_testing
