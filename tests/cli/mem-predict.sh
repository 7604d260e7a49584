#!/bin/sh
# cgctl mem predict: the JSON shape, a run worked by hand (tests/unit/test-memhigh.c
# run_anon_no_swap), page cache held at high, the OOM end, settings read from a v2
# fixture cgroup, the timeline, determinism, errors.
. "$top_srcdir/tests/lib.sh"

# high 1000 pages, 1200 pages of anon, one CPU, 1 us a page: the 16th-19th 64-page
# batches land above high; penalties 9 + 123 + 369 + 500 jiffies at HZ 250 = 4.004 s,
# 17 high events each (reclaim_high + 16 retries), peak 19 batches = 1216 pages
cg --json mem predict --anon 4800K --high 4096000 --online-cpus 1 --page-time 1us --kernel 6.12
expect_rc 0 "anon over high"
[ "$(json_get 'list(j.keys())')" = "['settings', 'workload', 'kernel', 'lru', 'predicted']" ] && ok ||
	fail "top-level keys: $OUT"
[ "$(json_get 'list(j["predicted"].keys())')" = \
	"['current_bytes', 'peak_bytes', 'swap_bytes', 'events', 'stall_usec', 'throttle_sleeps', 'reclaim_usec', 'wall_usec', 'oom_killed']" ] \
	&& ok || fail "predicted keys: $OUT"
[ "$(json_get '(j["predicted"]["events"]["high"], j["predicted"]["stall_usec"], j["predicted"]["peak_bytes"], j["predicted"]["throttle_sleeps"], j["predicted"]["wall_usec"], j["predicted"]["oom_killed"])')" = \
	"(68, 4004000, 4980736, 4, 4005200, False)" ] && ok || fail "hand-worked run: $OUT"
[ "$(json_get 'j["settings"]')" = \
	"{'high_bytes': 4096000, 'max_bytes': None, 'swap_max_bytes': None, 'swap_free_bytes': 0, 'online_cpus': 1, 'hz': 250}" ] \
	&& ok || fail "settings: $OUT"
first=$OUT
cg --json mem predict --anon 4800K --high 4096000 --online-cpus 1 --page-time 1us --kernel 6.12
[ "$OUT" = "$first" ] && ok || fail "same input, different result"
# 6.1: the same over-high path
cg --json mem predict --anon 4800K --high 4096000 --online-cpus 1 --page-time 1us --kernel 6.1
[ "$(json_get '(j["kernel"], j["predicted"]["events"]["high"], j["predicted"]["stall_usec"])')" = \
	"('6.1', 68, 4004000)" ] && ok || fail "6.1: $OUT"

# the LRU: --kernel's era default (6.12 gen, 6.1 classic), --lru, the machine's file
[ "$(json_get 'j["lru"]')" = classic ] && ok || fail "6.1's LRU: $OUT"
cg --json mem predict --anon 4800K --high 4096000 --online-cpus 1 --kernel 6.12 --lru classic
[ "$(json_get 'j["lru"]')" = classic ] && ok || fail "--lru classic: $OUT"
cg mem predict --anon 4800K --high 4096000 --lru lru
expect_rc 2 "--lru lru"
expect_err "cgctl: mem predict: --lru: 'lru' is not gen or classic" "--lru lru"
fixture v2
mkdir -p "$ROOT/sys/kernel/mm/lru_gen"
printf '0x0007\n' >"$ROOT/sys/kernel/mm/lru_gen/enabled"
cg --root="$ROOT" --json mem predict --file 200M --high 100M --online-cpus 1 --kernel 6.1
[ "$(json_get 'j["lru"]')" = classic ] && ok || fail "--kernel's, not the machine's: $OUT"
cg --root="$ROOT" --json mem predict --file 200M --high 100M --online-cpus 1
[ "$(json_get 'j["lru"]')" = gen ] && ok || fail "lru_gen/enabled 0x0007: $OUT"
printf '0x0000\n' >"$ROOT/sys/kernel/mm/lru_gen/enabled"
cg --root="$ROOT" --json mem predict --file 200M --high 100M --online-cpus 1
[ "$(json_get 'j["lru"]')" = classic ] && ok || fail "lru_gen/enabled 0: $OUT"

# the same under max 1100 pages without swap: OOM-killed after 18 max events
cg --json mem predict --anon 4800K --high 4096000 --max 4505600 --online-cpus 1 --kernel 6.12
[ "$(json_get '(j["predicted"]["oom_killed"], j["predicted"]["events"]["max"], j["predicted"]["events"]["oom_kill"], j["predicted"]["current_bytes"])')" = \
	"(True, 18, 1, 0)" ] && ok || fail "OOM: $OUT"
# with swap the task completes, swapping out above max
cg --json mem predict --anon 4800K --high 4096000 --max 4505600 --swap 100M --online-cpus 1 --kernel 6.12
[ "$(json_get '(j["predicted"]["oom_killed"], j["predicted"]["swap_bytes"] > 0, j["predicted"]["peak_bytes"] <= 4505600)')" = \
	"(False, True, True)" ] && ok || fail "swap: $OUT"

# page cache over high: current stays within high + one batch (64 pages), no sleeps
cg --json mem predict --file 200M --high 100M --online-cpus 1 --kernel 6.12
[ "$(json_get '(j["predicted"]["peak_bytes"] <= 100*2**20 + 64*4096, j["predicted"]["peak_bytes"] > 100*2**20, j["predicted"]["stall_usec"], j["predicted"]["events"]["high"] > 0)')" = \
	"(True, True, 0, True)" ] && ok || fail "file: $OUT"

# settings from a v2 cgroup (fixture v2: /a has max 64M, high max)
fixture v2
cg --root "$ROOT" --json mem predict --anon 10M /a
expect_rc 0 "from PATH"
[ "$(json_get '(j["settings"]["max_bytes"], j["settings"]["high_bytes"], j["settings"]["online_cpus"], j["kernel"])')" = \
	"(67108864, None, 2, '6.12')" ] && ok || fail "PATH settings: $OUT"
cg --root "$ROOT" --json mem predict --anon 10M --high 5M /a
[ "$(json_get '(j["settings"]["max_bytes"], j["settings"]["high_bytes"])')" = \
	"(67108864, 5242880)" ] && ok || fail "options over PATH: $OUT"
bad_input 4 "no such cgroup" --root "$ROOT" mem predict --anon 1M /nope
fixture v1
bad_input 6 "v1 PATH" --root "$ROOT" mem predict --anon 1M /
case "$ERR" in *"v2 only"*) ok ;; *) fail "v1 message: $ERR" ;; esac

# the timeline: at most 80 columns, ASCII off a tty, a JSON list
cg mem predict --anon 4800K --high 4096000 --online-cpus 1 --kernel 6.12 --timeline
expect_rc 0 "timeline"
wide=$(printf '%s\n' "$OUT" | awk 'length($0) > 80' | wc -l)
[ "$wide" = 0 ] && ok || fail "timeline wider than 80 columns"
printf '%s\n' "$OUT" | grep -q '|##*' && ok || fail "no timeline rows: $OUT"
printf '%s' "$OUT" | LC_ALL=C grep -q '[^ -~]' && fail "non-ASCII timeline off a tty" || ok
cg --json mem predict --anon 4800K --high 4096000 --online-cpus 1 --kernel 6.12 --timeline
[ "$(json_get 'len(j["timeline"]) >= 40 and j["timeline"][-1]["events_high"] == 68')" = True ] &&
	ok || fail "json timeline: $OUT"

# usage errors
bad_input 2 "no workload" mem predict --high 1M
bad_input 2 "both kinds" mem predict --anon 1M --file 1M
bad_input 2 "bad size" mem predict --anon lots
bad_input 2 "bad threads" mem predict --anon 1M --threads 0
bad_input 2 "chunk with anon" mem predict --anon 1M --chunk 64K
bad_input 2 "bad hz" mem predict --anon 1M --hz 123
bad_input 2 "bad kernel" mem predict --anon 1M --kernel six
bad_input 2 "max 0" mem predict --anon 1M --max 0
bad_input 6 "old kernel" mem predict --anon 1M --kernel 5.10
done_testing
