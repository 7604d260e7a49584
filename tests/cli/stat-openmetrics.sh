#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: `cgctl stat --openmetrics` on v1, v2 and hybrid trees is well-formed
# OpenMetrics text (HELP and TYPE before a family's samples, each family's samples
# together, counters' samples *_total, label values escaped, "# EOF" last), carries the
# fixture's values in base units, and refuses to be combined with other formats.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed"

# check_om FILE: "ok FAMILIES SAMPLES" or what is wrong
check_om() { python3 "$top_srcdir/tests/cli/openmetrics-check.py" "$1"; }

# value METRIC LABELS: the value of one sample of $OUT
value() {
	printf '%s\n' "$OUT" | awk -v k="$1{$2}" '$1 == k { print $2 }'
}

for tree in v1 v2 hybrid; do
	fixture $tree
	snapshot before
	cg --root="$ROOT" stat --openmetrics / /a /a/b /01 /01/02
	expect_rc 0 "$tree: stat --openmetrics"
	printf '%s\n' "$OUT" >"$T_TMP/om"
	r=$(check_om "$T_TMP/om")
	case $r in
	"ok "*) ok ;;
	*) fail "$tree: $r" ;;
	esac
	[ "$(value cgctl_memory_limit_bytes 'cgroup="/a"')" = 67108864 ] && ok ||
		fail "$tree: /a memory limit: $OUT"
	[ "$(value cgctl_memory_limit_bytes 'cgroup="/a/b"')" = +Inf ] && ok ||
		fail "$tree: /a/b unlimited is +Inf: $OUT"
	[ "$(value cgctl_cpu_limit_cpus 'cgroup="/a"')" = 0.5 ] && ok ||
		fail "$tree: /a 0.5 CPU: $OUT"
	[ "$(value cgctl_cpu_throttled_periods_total 'cgroup="/a"')" = 300 ] && ok ||
		fail "$tree: /a throttled periods: $OUT"
	expect_unchanged before "$tree: --openmetrics"
done

# v1 counts failcnt, v2 memory.events and memory.pressure
fixture v1
cg --root="$ROOT" stat --openmetrics /a
printf '%s\n' "$OUT" | grep -q '^cgctl_memory_failcnt_total{cgroup="/a"} ' && ok ||
	fail "v1: no failcnt counter: $OUT"
fixture v2
cg --root="$ROOT" stat --openmetrics /01/02
[ "$(value cgctl_memory_events_total 'cgroup="/01/02",event="max"')" = 12 ] && ok ||
	fail "v2: memory.events max: $OUT"
printf '%s\n' "$OUT" | grep -q '^cgctl_memory_pressure_seconds_total{cgroup="/01/02",kind="some"} ' &&
	ok || fail "v2: no memory pressure: $OUT"

# a label value with a double quote and a backslash is escaped
fixture v2
cp -a "$ROOT/sys/fs/cgroup/a/b" "$ROOT/sys/fs/cgroup/q\"x\\y"
cg --root="$ROOT" stat --openmetrics '/q"x\y'
expect_rc 0 "quoted path"
printf '%s\n' "$OUT" >"$T_TMP/om"
case $(check_om "$T_TMP/om") in "ok "*) ok ;; *) fail "quoted path: $(check_om "$T_TMP/om")" ;; esac
printf '%s\n' "$OUT" | grep -qF 'cgctl_memory_usage_bytes{cgroup="/q\"x\\y"} 4194304' && ok ||
	fail "escaping: $OUT"

# errors: the other PATHs still printed, exit 8; other formats refused
cg --root="$ROOT" stat --openmetrics /a /nope
expect_rc 8 "a missing PATH"
expect_err "cgctl: stat: /nope: no such cgroup" "a missing PATH"
printf '%s\n' "$OUT" | grep -q '^cgctl_memory_usage_bytes{cgroup="/a"} ' && ok ||
	fail "the other PATH: $OUT"
for o in --json --tsv; do
	cg --root="$ROOT" $o stat --openmetrics /a
	expect_rc 2 "--openmetrics $o"
	expect_no_out "--openmetrics $o"
done
cg --root="$ROOT" stat --openmetrics --long /a
expect_rc 2 "--openmetrics --long"
done_testing
