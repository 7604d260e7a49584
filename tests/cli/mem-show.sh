#!/bin/sh
# cgctl mem show on the fixtures: counters, the truly-charged interval implied by the
# per-cpu stock bound (6.18, 2 CPUs: 128 pages per cached memcg), move-charge state.
. "$top_srcdir/tests/lib.sh"

fixture mem-v1
cg --root "$ROOT" --json mem show /a/b
expect_rc 0 "show leaf"
# usage 1 MiB = 256 pages; bound 64 * 2 CPUs * 1 memcg = 128 pages
[ "$(json_get 'j["charged"]["min_bytes"], j["charged"]["max_bytes"]')" = "524288 1048576" ] \
	&& ok || fail "leaf interval: $OUT"
[ "$(json_get 'j["move_charge"]["honoured"]')" = False ] && ok || fail "6.18 honours no move"
[ "$(json_get 'j["stat"]["rss"]')" = 1048576 ] && ok || fail "stat rss"
[ "$(json_get 'j["limit_bytes"]')" = None ] && ok || fail "unlimited is null"
cg --root "$ROOT" --json mem show /a
# /a has a child: 6.18 caches up to 7 memcgs per CPU, here 2 -> 256 pages = 1 MiB
[ "$(json_get 'j["charged"]["min_bytes"]')" = 1048576 ] && ok || fail "inner interval: $OUT"
cg --root "$ROOT" --json mem show /
[ "$(json_get 'j["charged"]["min_bytes"]')" = None ] && ok || fail "root: statistic"
echo 6.1.0 >"$ROOT/proc/sys/kernel/osrelease"
echo 1 >"$ROOT/sys/fs/cgroup/memory/a/memory.move_charge_at_immigrate"
cg --root "$ROOT" --json mem show /a
# 6.1: one slot per CPU whatever the subtree: 128 pages
[ "$(json_get 'j["charged"]["min_bytes"]')" = 1572864 ] && ok || fail "6.1 interval: $OUT"
[ "$(json_get 'j["move_charge"]["honoured"]')" = True ] && ok || fail "6.1 honours bit 0"
cg --root "$ROOT" mem show /a
expect_rc 0 "human"
expect_out_has "  HONOURED " "human output"
bad_input 4 "no such cgroup" --root "$ROOT" mem show /nope
bad_input 2 "two paths" --root "$ROOT" mem show /a /c

fixture mem-v2
cg --root "$ROOT" --json mem show /a
expect_rc 0 "v2"
[ "$(json_get 'j["usage_bytes"], j["events"]["oom"], j["move_charge"]["honoured"]')" = \
	"8388608 0 False" ] && ok || fail "v2 show: $OUT"
# 4 CPUs, 2 memcgs, 6.12: 64 * 4 = 256 pages
[ "$(json_get 'j["charged"]["stock_bound_bytes"]')" = 1048576 ] && ok || fail "v2 bound"
# events typed: a key this kernel does not print (6.12 fixture: no sock_throttled) is null
[ "$(json_get 'j["events"]["oom_kill"], j["events"]["sock_throttled"], j["events_local"]["oom_group_kill"]')" = \
	"0 None 0" ] && ok || fail "v2 events: $OUT"
[ "$(json_get 'j["pressure"]["some"]["avg10_ratio"], j["pressure"]["full"]["total_usec"]')" = \
	"0.0125 65432" ] && ok || fail "v2 memory.pressure: $OUT"
cg --root "$ROOT" --json mem show /a/b
[ "$(json_get 'j["pressure"], j["events_local"]')" = "None None" ] && ok ||
	fail "v2 files absent: $OUT"
cg --root "$ROOT" mem show /a
expect_rc 0 "v2 human"
expect_out_has "AVG10-RATIO" "v2 human pressure"

# the v2 root has no memory.current, memory.max, memory.swap.*, memory.events
# (CFTYPE_NOT_ON_ROOT), but memory.stat and memory.pressure: every key kept, null
cg --root "$ROOT" --json mem show /
expect_rc 0 "v2 root"
[ "$(json_get 'j["usage_bytes"], j["limit_bytes"], j["max_usage_bytes"], j["swap"], j["events"], j["charged"]["min_bytes"]')" = \
	"None None None None None None" ] && ok || fail "v2 root absent keys: $OUT"
[ "$(json_get 'j["stat"]["anon"], j["pressure"]["some"]["total_usec"]')" = "104857600 777" ] &&
	ok || fail "v2 root stat, pressure: $OUT"
cg --root "$ROOT" --tsv mem show /
expect_rc 0 "v2 root tsv"
[ "$(printf '%s\n' "$OUT" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	NR == 2 { print $c["usage_bytes"], $c["limit_bytes"], $c["stat.anon"] }')" = \
	"- - 104857600" ] && ok || fail "v2 root tsv: $OUT"
cg --root "$ROOT" mem show /
expect_rc 0 "v2 root human"
printf '%s\n' "$OUT" | grep -q '^USAGE  *-$' && ok || fail "v2 root human usage: $OUT"
rm "$ROOT/sys/fs/cgroup/memory.stat"
cg --root "$ROOT" --json mem show /
[ "$(json_get '"stat" in j and j["stat"] is None')" = True ] && ok ||
	fail "absent memory.stat is a null key: $OUT"

done_testing
