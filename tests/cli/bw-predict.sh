#!/bin/sh
# cgctl bw predict: the JSON shape, the busy-loop case of kernel-cpu-bandwidth-model.md
# 6.5, settings read from a fixture cgroup, traces, the timeline, determinism, errors.
. "$top_srcdir/tests/lib.sh"

# 2 spinners, 50 ms / 100 ms, 2 CPUs, 3 s: about 30 throttled periods and 4.5 s
cg --json bw predict --quota 50ms --period 100ms --threads 2 --online-cpus 2 --duration 3s --kernel 6.18
expect_rc 0 "busy loop"
[ "$(json_get 'list(j.keys())')" = "['settings', 'online_cpus', 'workload', 'kernel', 'predicted']" ] && ok ||
	fail "top-level keys: $OUT"
[ "$(json_get 'list(j["predicted"].keys())')" = \
	"['nr_periods', 'nr_throttled', 'throttled_usec', 'throttled_local_usec', 'nr_bursts', 'burst_usec', 'usage_usec']" ] \
	&& ok || fail "predicted keys: $OUT"
[ "$(json_get 'j["settings"]')" = \
	"{'quota_usec': 50000, 'period_usec': 100000, 'burst_usec': 0, 'limit_cpus': 0.5}" ] && ok ||
	fail "settings: $OUT"
[ "$(json_get 'j["kernel"]')" = 6.18 ] && ok || fail "kernel: $OUT"
[ "$(json_get '29 <= j["predicted"]["nr_throttled"] <= 32 and 4.3e6 < j["predicted"]["throttled_usec"] < 4.7e6')" = True ] \
	&& ok || fail "busy-loop figures: $OUT"
first=$OUT
cg --json bw predict --quota 50ms --period 100ms --threads 2 --online-cpus 2 --duration 3s --kernel 6.18
[ "$OUT" = "$first" ] && ok || fail "same seed, different result"
cg --json bw predict --seed 7 --quota 50ms --threads 2 --online-cpus 2 --duration 3s --duty 0.4 \
	--jitter 0.5 --kernel 6.18
expect_rc 0 "duty and jitter"
[ "$OUT" != "$first" ] && ok || fail "workload options ignored"

# unlimited: no periods counted, usage = threads x duration
cg --json bw predict --threads 3 --online-cpus 4 --duration 2s
[ "$(json_get '(j["predicted"]["nr_periods"], j["predicted"]["usage_usec"], j["settings"]["quota_usec"])')" = \
	"(0, 6000000, None)" ] && ok || fail "unlimited: $OUT"

# settings from a cgroup (v1 fixture: /y is 20 ms/100 ms with a 20 ms burst; 2 CPUs)
fixture bw-v1
# 6.1: the period timer starts with the first busy phase, so each 30 ms phase falls in
# one period (6.4+ draws the timer's phase at random: a phase may straddle two periods)
cg --root "$ROOT" --json bw predict --threads 1 --busy 30ms --idle 970ms --duration 5s \
	--kernel 6.1 /y
expect_rc 0 "from PATH"
# 30 ms a second: 10 ms over quota each time, taken from the credit, never throttled
[ "$(json_get '(j["settings"]["burst_usec"], j["settings"]["limit_cpus"], j["online_cpus"], j["predicted"]["nr_throttled"], j["predicted"]["nr_bursts"], 50000 <= j["predicted"]["burst_usec"] <= 52000)')" = \
	"(20000, 0.2, 2, 0, 5, True)" ] && ok || fail "burst workload: $OUT"
# 6.18, any phase: never throttled, at most 10 ms (+ a slice's rounding) of burst a second
for seed in 1 2 3 4; do
	cg --root "$ROOT" --json bw predict --threads 1 --busy 30ms --idle 970ms --duration 5s \
		--kernel 6.18 --seed $seed /y
	[ "$(json_get '(j["predicted"]["nr_throttled"], j["predicted"]["nr_bursts"] <= 5, j["predicted"]["burst_usec"] <= 52000)')" = \
		"(0, True, True)" ] && ok || fail "burst workload, 6.18 seed $seed: $OUT"
done

# a trace
printf '0 busy 30ms\n0 idle 70ms\n1 idle 50ms\n1 busy 20ms\n' >"$T_TMP/trace"
cg --json bw predict --trace "$T_TMP/trace" --online-cpus 2 --duration 1s
[ "$(json_get '(j["workload"]["threads"], j["predicted"]["usage_usec"])')" = "(2, 50000)" ] &&
	ok || fail "trace: $OUT"
printf '0 busy\n' >"$T_TMP/bad"
cg bw predict --trace "$T_TMP/bad"
expect_rc 1 "bad trace"
expect_err_line "bad trace"
case "$ERR" in *"trace line 1"*) ok ;; *) fail "trace error: $ERR" ;; esac
# a trace that cannot be read is an error, not an empty trace (read error != end)
cg bw predict --trace "$T_TMP"
expect_rc 1 "trace is a directory"
expect_err_line "trace is a directory"
case "$ERR" in *"$T_TMP: is a directory"*) ok ;; *) fail "directory trace: $ERR" ;; esac
[ -z "$OUT" ] && ok || fail "directory trace printed: $OUT"

# the timeline: at most 80 columns, plain ASCII off a tty
cg bw predict --quota 20ms --threads 2 --online-cpus 2 --duration 1s --timeline --kernel 6.18
expect_rc 0 "timeline"
wide=$(printf '%s\n' "$OUT" | awk 'length($0) > 80' | wc -l)
[ "$wide" = 0 ] && ok || fail "timeline wider than 80 columns"
printf '%s\n' "$OUT" | grep -q '|##*-*' && ok || fail "no timeline rows: $OUT"
printf '%s' "$OUT" | LC_ALL=C grep -q '[^ -~]' && fail "non-ASCII timeline off a tty" || ok
cg bw predict --quota 20ms --threads 2 --online-cpus 2 --duration 60s --timeline --kernel 6.18
expect_rc 0 "long timeline"
printf '%s\n' "$OUT" | grep -q '^ *[0-9.]*s [#=.-]*$' && ok || fail "no strip: $OUT"
cg --json bw predict --quota 20ms --threads 2 --online-cpus 2 --duration 1s --timeline
[ "$(json_get 'len(j["timeline"]) >= 10')" = True ] && ok || fail "json timeline: $OUT"

# usage errors
bad_input 2 "no threads" bw predict --quota 50ms
bad_input 2 "duty and busy" bw predict --threads 1 --duty 0.5 --busy 1ms
bad_input 2 "bad duty" bw predict --threads 1 --duty 1.5
bad_input 2 "bad kernel" bw predict --threads 1 --kernel six
bad_input 2 "bad duration" bw predict --threads 1 --duration forever
bad_input 1 "quota the kernel refuses" bw predict --threads 1 --quota 500us
# --cpus is a limit in CPUs, as bw set takes it; the machine's CPUs are --online-cpus
cg --json bw predict --cpus 0.5 --period 100ms --threads 1 --online-cpus 2 --duration 1s \
	--kernel 6.18
expect_rc 0 "--cpus 0.5"
[ "$(json_get 'j["settings"]["quota_usec"], j["settings"]["limit_cpus"], j["online_cpus"]')" = \
	"50000 0.5 2" ] && ok || fail "--cpus as the limit: $OUT"
bad_input 2 "--quota and --cpus" bw predict --cpus 0.5 --quota 50ms --threads 1
bad_input 2 "--cpus 0" bw predict --cpus 0 --threads 1
bad_input 2 "--online-cpus 0" bw predict --online-cpus 0 --threads 1
done_testing
