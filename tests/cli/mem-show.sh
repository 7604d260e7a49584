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
expect_out_has "honoured:" "human output"
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
expect_out_has "avg10" "v2 human pressure"

done_testing
