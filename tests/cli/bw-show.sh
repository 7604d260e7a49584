#!/bin/sh
# cgctl bw show against the v1 and v2 fixtures: settings, effective limit through the
# ancestors, cpu.stat / cpu.stat.local in µs, cpuacct usage on v1, derived figures.
. "$top_srcdir/tests/lib.sh"

fixture bw-v1
cg --root "$ROOT" --json bw show /a
expect_rc 0 "show /a"
[ "$(json_get '[j["stat"][k] for k in ("nr_periods", "nr_throttled", "throttled_usec", "throttled_local_usec", "nr_bursts", "burst_usec", "usage_usec")]')" = \
	"[33, 31, 4519000, 4519000, 0, 0, 1555000]" ] && ok || fail "v1 stat: $OUT"
[ "$(json_get 'j["settings"]')" = \
	"{'quota_usec': 50000, 'period_usec': 100000, 'burst_usec': 0, 'limit_cpus': 0.5}" ] && ok ||
	fail "v1 settings: $OUT"
[ "$(json_get 'round(j["derived"]["throttled_ratio"], 4)')" = 0.9394 ] && ok ||
	fail "derived fraction: $OUT"
# a child under a throttled parent: own stat 0, stat.local = the parent's
cg --root "$ROOT" --json bw show /a/b/c
expect_rc 0 "show /a/b/c"
[ "$(json_get 'j["effective"]')" = "{'limit_cpus': 0.4, 'limited_by': '/a/b/c'}" ] && ok ||
	fail "effective of /a/b/c: $OUT"
cg --root "$ROOT" --json bw show /a/b
[ "$(json_get '(j["settings"]["quota_usec"], j["effective"]["limited_by"], j["stat"]["throttled_usec"], j["stat"]["throttled_local_usec"])')" = \
	"(None, '/a', 0, 4519000)" ] && ok || fail "unlimited child: $OUT"
cg --root "$ROOT" bw show /a
expect_rc 0 "human show"
expect_out_has "  LIMITED-BY           /a" "human effective"
bad_input 4 "no such cgroup" --root "$ROOT" bw show /nope
bad_input 2 "no path" --root "$ROOT" bw show

fixture bw-v2
cg --root "$ROOT" --json bw show /a
expect_rc 0 "v2 show"
[ "$(json_get '[j["stat"][k] for k in ("nr_periods", "nr_throttled", "throttled_usec", "throttled_local_usec", "usage_usec")]')" = \
	"[32, 30, 4464000, 4464000, 1549000]" ] && ok || fail "v2 stat: $OUT"
[ "$(json_get 'j["version"]')" = 2 ] && ok || fail "v2 version"
# cpu.pressure (PSI): psi_show()'s percentages as ratios, total in µs
[ "$(json_get 'j["pressure"]["some"], j["pressure"]["full"]["avg60_ratio"]')" = \
	"{'avg10_ratio': 0.12, 'avg60_ratio': 0.035, 'avg300_ratio': 0.009, 'total_usec': 987654} 0.0175" ] && ok ||
	fail "v2 cpu.pressure: $OUT"
# a group without the file (PSI off: psi=0 on the command line): null, not an error
cg --root "$ROOT" --json bw show /a/b
expect_rc 0 "v2 show without cpu.pressure"
[ "$(json_get 'j["pressure"]')" = None ] && ok || fail "absent cpu.pressure: $OUT"
# a malformed file is not silently zero: null
echo "some avg10=x" >"$ROOT/sys/fs/cgroup/a/cpu.pressure"
cg --root "$ROOT" --json bw show /a
[ "$(json_get 'j["pressure"]')" = None ] && ok || fail "malformed cpu.pressure: $OUT"
cg --root "$ROOT" bw show /a
expect_rc 0 "human v2 show"
# cpu.stat.local's throttled_usec is the group's own throttled time; a kernel without
# the file (before 6.6) does not report it: null and "-", never 0
cg --root "$ROOT" --json bw show /a
[ "$(json_get 'j["stat"]["throttled_local_usec"]')" = 4464000 ] && ok ||
	fail "v2 cpu.stat.local: $OUT"
rm "$ROOT/sys/fs/cgroup/a/cpu.stat.local"
cg --root "$ROOT" --json bw show /a
[ "$(json_get '(j["stat"]["throttled_local_usec"], j["stat"]["throttled_usec"])')" = \
	"(None, 4464000)" ] && ok || fail "absent cpu.stat.local: $OUT"
cg --root "$ROOT" bw show /a
expect_out_has "  THROTTLED-LOCAL      -" "human absent cpu.stat.local"
done_testing
