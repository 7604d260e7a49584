#!/bin/sh
# The key/value commands (bw set/show/predict/recommend, mem set/show/predict) print one
# key a line through libsmartcols (src/kv.c): labels without units for people, the JSON
# keys and raw values with -b, -o to pick keys; values converted alike (issue 29).
. "$top_srcdir/tests/lib.sh"

# line KEY: the line of $OUT whose label (after the indent) is KEY
line() { printf '%s\n' "$OUT" | awk -v k="$1" '$1 == k { $1 = ""; sub(/^ +/, ""); print; exit }'; }

fixture bw-v1
cg --root "$ROOT" bw show /a
expect_rc 0 "bw show"
[ "$(line QUOTA)" = 50ms ] && ok || fail "bw show: QUOTA 50ms: $OUT"
[ "$(line THROTTLED-LOCAL)" = 4.52s ] && ok || fail "bw show: THROTTLED-LOCAL: $OUT"
printf '%s\n' "$OUT" | grep -q '_usec\|usec' && fail "a unit in a human label: $OUT" || ok
printf '%s\n' "$OUT" | grep -q '^  QUOTA ' && ok || fail "QUOTA indented under SETTINGS: $OUT"
# -b: the JSON keys, the JSON values
cg --root "$ROOT" bw show -b /a
expect_rc 0 "bw show -b"
[ "$(line quota_usec)" = 50000 ] && ok || fail "bw show -b: quota_usec 50000: $OUT"
[ "$(line throttled_usec)" = 4519000 ] && ok || fail "bw show -b: throttled_usec: $OUT"
[ "$(line settings)" = "" ] && printf '%s\n' "$OUT" | grep -q '^settings$' && ok ||
	fail "bw show -b: section heading: $OUT"
# -o: a key, its section above it; a dotted path; a whole section
cg --root "$ROOT" bw show -o quota /a
expect_out "SETTINGS
  QUOTA  50ms" "bw show -o quota"
cg --root "$ROOT" bw show -b -o stat.throttled,effective /a
expect_out "effective
  limit_cpus     0.500
  limited_by     /a
stat
  throttled_usec 4519000" "bw show -b -o stat.throttled,effective"
cg --root "$ROOT" bw show -o no-such-key /a
expect_rc 2 "-o unknown key"
expect_out "" "-o unknown key prints nothing"
expect_err "cgctl: bw show: --output: no key 'no-such-key' in this output" "-o unknown key"
cg --root "$ROOT" --json bw show -o quota /a
expect_rc 2 "-o with --json"
cg --root "$ROOT" --json bw show -b /a
expect_rc 0 "-b with --json changes nothing"
[ "$(json_get 'j["settings"]["quota_usec"]')" = 50000 ] && ok || fail "-b --json: $OUT"

# bw set: the written values under labels without units; -b as JSON
cg --root "$ROOT" bw set /x --quota 20ms
expect_rc 0 "bw set"
[ "$(line QUOTA)" = 20ms ] && ok || fail "bw set: QUOTA 20ms: $OUT"
cg --root "$ROOT" bw set -b /x --quota 20ms
expect_rc 0 "bw set -b"
[ "$(line quota_usec)" = 20000 ] && ok || fail "bw set -b: quota_usec 20000: $OUT"

# bw predict and recommend take -o and -b
cg bw predict -b -o predicted.throttled --quota 50ms --threads 2 --online-cpus 2 --duration 1s --kernel 6.18
expect_rc 0 "bw predict -b -o"
[ "$(printf '%s\n' "$OUT" | sed -n 2p | awk '{ print $1 }')" = throttled_usec ] && ok ||
	fail "bw predict -b -o: $OUT"
awk 'BEGIN { print "cgctl-bw-trace 1"; print "cpus 2"
	for (i = 0; i < 30; i++) { print "0 busy 40ms"; print "0 idle 60ms" } }' >"$T_TMP/trace"
cg bw recommend -o recommended.quota --trace "$T_TMP/trace"
expect_rc 0 "bw recommend -o"
[ "$(printf '%s\n' "$OUT" | wc -l)" = 2 ] && [ "$(line RECOMMENDED)" = "" ] && ok ||
	fail "bw recommend -o recommended.quota: $OUT"

# mem show: every size converted (memory.stat's byte keys too), or none with -b
fixture mem-v1
# event counts beside the sizes (the fixture's memory.stat has sizes only)
printf 'pgfault 123456\ntotal_pgmajfault 7\n' >>"$ROOT/sys/fs/cgroup/memory/memory.stat"
cg --root "$ROOT" mem show /
expect_rc 0 "mem show"
[ "$(line USAGE)" = 1GiB ] && [ "$(line RSS)" = 1MiB ] && [ "$(line CACHE)" = 64KiB ] && ok ||
	fail "mem show: usage and rss both human: $OUT"
[ "$(line PGFAULT) $(line TOTAL-PGMAJFAULT)" = "123456 7" ] && ok ||
	fail "mem show: pgfault and total_pgmajfault are counts, not bytes: $OUT"
cg --root "$ROOT" mem show -b /
[ "$(line usage_bytes)" = 1073741824 ] && [ "$(line rss)" = 1048576 ] && ok ||
	fail "mem show -b: usage and rss both raw: $OUT"
cg --root "$ROOT" --json mem show /
[ "$(json_get 'j["stat"]["rss"]')" = 1048576 ] && ok || fail "mem show --json stat.rss: $OUT"
cg --root "$ROOT" mem set -b /a --limit 64M
expect_rc 0 "mem set -b"
[ "$(line usage_before_bytes)" != "" ] && ok || fail "mem set -b: usage_before_bytes: $OUT"
cg --root "$ROOT" mem set /a --limit 64M
printf '%s\n' "$OUT" | grep -q '_bytes\|USAGE-BEFORE-BYTES' && fail "mem set: unit in a label: $OUT" || ok

# mem predict: page_time is a time like stall, converted alike (0.250 raw before)
cg mem predict --anon 64M --max 32M --kernel 6.1 --online-cpus 2
expect_rc 0 "mem predict"
[ "$(line PAGE-TIME)" = 250ns ] && ok || fail "mem predict: PAGE-TIME 250ns: $OUT"
cg --json mem predict --anon 64M --max 32M --kernel 6.1 --online-cpus 2
[ "$(json_get 'j["workload"]["page_time_usec"]')" = 0.25 ] && ok || fail "mem predict json page_time_usec: $OUT"
cg mem predict -b -o page_time --anon 64M --max 32M --kernel 6.1 --online-cpus 2
[ "$(line page_time_usec)" = 0.25 ] && ok || fail "mem predict -b: page_time_usec 0.25: $OUT"

# "none" is not 0.  bw predict --kernel 5.3: cpu.stat has no nr_bursts (5.16) and there
# is no cpu.stat.local (6.6): null, "-"; 6.18 reports them
cg --json bw predict --kernel 5.3 --quota 50ms --threads 2 --online-cpus 2 --duration 1s
expect_rc 0 "bw predict --kernel 5.3"
[ "$(json_get '[j["predicted"][k] for k in ("throttled_local_usec", "nr_bursts", "burst_usec")]')" = \
	"[None, None, None]" ] && ok || fail "5.3: absent cpu.stat keys are null: $OUT"
cg bw predict --kernel 5.3 --quota 50ms --threads 2 --online-cpus 2 --duration 1s
[ "$(line THROTTLED-LOCAL) $(line NR-BURSTS)" = "- -" ] && ok || fail "5.3 human: $OUT"
cg --json bw predict --kernel 6.18 --quota 50ms --threads 2 --online-cpus 2 --duration 1s
[ "$(json_get '[j["predicted"][k] is None for k in ("throttled_local_usec", "nr_bursts")]')" = \
	"[False, False]" ] && ok || fail "6.18 reports them: $OUT"
cg --json bw recommend --kernel 5.3 --trace "$T_TMP/trace"
[ "$(json_get 'j["recommended"]["nr_bursts"], j["recommended"]["burst_time_usec"]')" = "None None" ] &&
	ok || fail "recommend --kernel 5.3: nr_bursts null: $OUT"
# bw recommend without --max-delay has no delay budget: null, not 0
cg --json bw recommend --trace "$T_TMP/trace"
[ "$(json_get 'j["budget"]["max_delay_usec"]')" = None ] && ok || fail "no max delay: $OUT"
cg --json bw recommend --max-delay 5ms --trace "$T_TMP/trace"
[ "$(json_get 'j["budget"]["max_delay_usec"]')" = 5000 ] && ok || fail "max delay 5ms: $OUT"
# --tsv bw recommend: the recommendation itself (quota, period, burst), the runs apart
cg --tsv bw recommend --trace "$T_TMP/trace"
expect_rc 0 "--tsv bw recommend"
[ "$(printf '%s\n' "$OUT" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	NR == 2 { print ($c["recommended.quota_usec"] > 0), $c["recommended.period_usec"], $c["recommended.burst_usec"] }')" = \
	"1 100000 0" ] && ok || fail "--tsv bw recommend: recommended quota, period, burst: $OUT"
cg --tsv=runs bw recommend --trace "$T_TMP/trace"
[ "$(printf '%s\n' "$OUT" | head -1)" = "$(printf 'trace\tbusy_usec\tquota_usec\tthrottled_ratio')" ] &&
	ok || fail "--tsv=runs: $OUT"

# cpu.stat.local on v1 (6.6+, throttled_time in ns): bw show and stat -l give one answer
fixture bw-v1
for p in /a/b /a/b/c; do
	cg --root "$ROOT" --json bw show $p
	a=$(json_get 'j["stat"]["throttled_local_usec"]')
	cg --root "$ROOT" --json stat -l $p
	b=$(json_get 'j["cgroups"][0]["cpu"]["throttled_local_usec"]')
	[ "$a" = "$b" ] && [ "$a" != None ] && ok || fail "$p: bw show $a, stat -l $b"
done

# watch: -b prints its sizes and times raw, -o picks its columns (both refused before)
fixture mem-v1
cg --root "$ROOT" watch -i 20ms --count 1 /a
expect_rc 0 "watch"
[ "$(printf '%s\n' "$OUT" | awk 'NR == 2 { print $7, $8 }')" = "2MiB +0B" ] && ok || fail "watch: $OUT"
cg --root "$ROOT" watch -b -o memory,MEM-DELTA -i 20ms --count 1 /a
expect_rc 0 "watch -b -o"
[ "$(printf '%s\n' "$OUT" | awk '{ print $1, $2 }' | tr '\n' ' ')" = "MEMORY MEM-DELTA 2097152 +0 " ] &&
	ok || fail "watch -b -o memory,mem-delta: $OUT"
cg --root "$ROOT" watch -o nope --count 1 /a
expect_rc 2 "watch -o unknown"
cg --root "$ROOT" --json watch -o memory --count 1 /a
expect_rc 2 "watch -o with --json"
# move's throttling block: the unit ends the key (the label leaves it out), as in bw
# show; "throttled_usec_per_period" printed THROTTLED-USEC-PER-PERIOD beside 0ns
fixture v1
cg --root "$ROOT" --tsv=throttle move --dry-run --sample 0 4242 /a
expect_rc 0 "move --tsv=throttle"
inner=$(printf '%s\n' "$OUT" | head -1 | tr '\t' '\n' | grep -E '_(usec|bytes|cpus|ratio)_' || true)
[ -z "$inner" ] && ok || fail "move: a unit inside a key: $inner"
printf '%s\n' "$OUT" | head -1 | tr '\t' '\n' | grep -qx 'throttling.after.throttled_per_period_usec' &&
	ok || fail "move: no throttled_per_period_usec: $OUT"
# a number of CPUs prints alike in every command's human form: move's LIMIT-CPUS and
# tree's CPU-LIMIT were 0.50 beside bw show's 0.500 (issue 29)
cg --root "$ROOT" bw show /a
cpus=$(line LIMIT-CPUS)
[ "$cpus" = 0.500 ] && ok || fail "bw show: LIMIT-CPUS 0.500: $OUT"
cg --root "$ROOT" move --dry-run --sample 0 4242 /a
expect_rc 0 "move (human)"
[ "$(line LIMIT-CPUS)" = "$cpus" ] && ok || fail "move: LIMIT-CPUS as bw show's $cpus: $OUT"
cg --root "$ROOT" tree -r -n -o cpu-limit /a
[ "$(printf '%s\n' "$OUT" | head -1)" = "$cpus" ] && ok ||
	fail "tree: CPU-LIMIT as bw show's $cpus: $OUT"
done_testing
