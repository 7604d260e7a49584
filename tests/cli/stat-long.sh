#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: `cgctl stat` prints the lean keys by default (memory usage, limit,
# failcnt; cpu usage and cpu.stat's counts), `stat --long` everything, byte for byte the
# output stat printed before the default became lean (tests/fixtures/expected/; the human
# table with every column of cgctl-stat(1), named as there), and the lean view needs none
# of the files only --long reads.
. "$top_srcdir/tests/lib.sh"

exp="$top_srcdir/tests/fixtures/expected"
paths="/ /a /a/b /01 /01/02 /ro /esc /nope"

# lean_check TREE: every key of the default JSON is a lean key, in --long's order, with
# --long's value, and nothing else of --long is there
lean_check() {
	cg --root="$ROOT" --json stat -l $paths
	long=$OUT
	cg --root="$ROOT" --json stat $paths
	expect_rc 8 "$1: lean stat, /nope fails"
	printf '%s' "$long" >"$T_TMP/long.json"
	r=$(printf '%s' "$OUT" | python3 -c '
import json, sys
lean = json.load(sys.stdin)["cgroups"]
full = {r["path"]: r for r in json.load(open(sys.argv[1]))["cgroups"]}
keys = {"memory": ["usage_bytes", "limit_bytes", "failcnt"],
        "cpu": ["usage_usec", "nr_periods", "nr_throttled", "throttled_usec",
                "nr_bursts", "burst_usec"]}
bad = []
for r in lean:
    if set(r) - {"path", "memory", "cpu"}:
        bad.append("%s: extra sections %s" % (r["path"], sorted(set(r) - {"path", "memory", "cpu"})))
    f = full.get(r["path"])
    for sec, allowed in keys.items():
        if sec not in r:
            continue
        got = list(r[sec].items())
        if any(k not in allowed for k, _ in got):
            bad.append("%s.%s: not lean: %s" % (r["path"], sec, [k for k, _ in got]))
        if f is not None and sec in f:
            want = [(k, v) for k, v in f[sec].items() if k in allowed]
            if got != want:
                bad.append("%s.%s: %s, --long has %s" % (r["path"], sec, got, want))
print("; ".join(bad) if bad else "ok", len(lean))
' "$T_TMP/long.json")
	case $r in
	"ok "[1-9]*) ok ;;
	*) fail "$1: lean output: $r: $OUT" ;;
	esac
}

for tree in v1 v2 hybrid; do
	fixture "$tree"
	snapshot before
	# --long: the old output, all three formats, errors included
	for fmt in human json tsv; do
		o=$([ $fmt = human ] || echo "--$fmt")
		cg --root="$ROOT" $o stat --long $paths
		expect_rc 8 "$tree $fmt: stat --long"
		[ "$OUT" = "$(cat "$exp/stat-long-$tree.$fmt")" ] && ok ||
			fail "$tree $fmt: stat --long differs: $(printf '%s\n' "$OUT" |
				diff "$exp/stat-long-$tree.$fmt" - | head -5)"
		[ "$ERR" = "$(cat "$exp/stat-long-$tree.err")" ] && ok ||
			fail "$tree $fmt: stat --long errors: $ERR"
	done
	cg --root="$ROOT" --json stat -l /a
	[ "$(json_get '"tasks" in j["cgroups"][0] and "quota_usec" in j["cgroups"][0]["cpu"]')" = True ] &&
		ok || fail "$tree: -l is --long: $OUT"
	lean_check "$tree"
	# the default: no task states, no limits of the cpu controller
	cg --root="$ROOT" --json stat /a
	expect_rc 0 "$tree: stat /a"
	[ "$(json_get 'sorted(j["cgroups"][0])')" = "['cpu', 'memory', 'path']" ] && ok ||
		fail "$tree: default sections: $OUT"
	cg --root="$ROOT" --tsv stat /a /a/b
	# (hybrid: cpu,cpuacct co-mounted, the usage from cpuacct.usage of the cpu directory)
	# (v2 has no failcnt: the column stays, "-", the same columns on v1 and v2)
	want="path memory.usage_bytes memory.limit_bytes memory.failcnt cpu.usage_usec cpu.nr_periods cpu.nr_throttled"
	want="$want cpu.throttled_usec cpu.nr_bursts cpu.burst_usec"
	[ "$(printf '%s\n' "$OUT" | head -n 1 | tr -s '\t' ' ')" = "$want" ] &&
		ok || fail "$tree: lean tsv header: $OUT"
	expect_unchanged "$tree: stat reads only"
done

# 64 PATHs or more are read by two threads and printed while they read: the same output
# and errors, in argument order, as the one-thread order (-v keeps to one thread)
many=""
for k in 1 2 3 4 5 6 7 8 9; do many="$many $paths"; done
# threaded WHAT ARGS...: `cgctl --json stat ARGS` from two threads prints what one
# thread (-v) prints, exits 8 with it and reports the same errors (the threaded run's
# are left in $out and $err)
threaded() {
	what=$1
	shift
	cg --root="$ROOT" --json stat "$@"
	out=$OUT err=$ERR rc=$RC
	cg -v --root="$ROOT" --json stat "$@"
	[ "$rc" = 8 ] && [ "$RC" = 8 ] && [ "$out" = "$OUT" ] && ok ||
		fail "$what differs: $rc $RC"
	[ "$err" = "$(printf '%s\n' "$ERR" | grep '^cgctl: stat:')" ] && ok ||
		fail "$what, errors: $err"
}

for tree in v1 hybrid; do
	fixture "$tree"
	for l in "" --long; do
		threaded "$tree $l: threaded stat" $l $many
		[ "$(printf '%s\n' "$err" | wc -l)" -ge 18 ] && ok || fail "$tree $l: errors: $err"
	done
done

# the threads read the children of one parent below its directory fd, and none at all
# of a parent that does not exist: the same output and errors as one thread's whole
# paths, with children missing in one hierarchy (m/ has no cpuacct directory, a/c* no
# cpuacct cgroups, a/m* no cpu ones), below a missing parent (/nope/*), a symlink
# (memory's /link/*), a file (/a/b/memory.failcnt/*) and a directory file (/ro/*)
for tree in v1 hybrid; do
	fixture "$tree"
	cpu="$ROOT/sys/fs/cgroup/cpu" m="$ROOT/sys/fs/cgroup/memory"
	[ $tree = v1 ] || cpu="$ROOT/sys/fs/cgroup/cpu,cpuacct"
	for k in 1 2 3; do
		mkdir -p "$m/m" "$cpu/m"
		cp -a "$m/a/b" "$m/m/$k"
		cp -a "$cpu/a/b" "$cpu/m/$k"
		cp -a "$m/a/b" "$m/a/c$k"
		cp -a "$cpu/a/b" "$cpu/a/c$k"
		cp -a "$m/a/b" "$m/a/m$k"
	done
	kids=""
	for p in /m /a /nope /link /a/b/memory.failcnt /ro /01; do
		kids="$kids $p/1 $p/2 $p/3 $p/c1 $p/c2 $p/c3 $p/m1 $p/m2 $p/m3 $p/b $p/02"
	done
	# (more than STAT_RING chunks of 32 rows: the ring of rows wraps around)
	kids="$kids $kids $kids $kids"
	kids="$kids $kids / /a /a/b /m/1 /a/b /m/2 /nope/1 /m/3 /m/3"
	for l in "" --long; do
		threaded "$tree $l: threaded stat of siblings" $l $kids
		[ -n "$l" ] || lean_out=$out lean_err=$err
	done
	# the threads keep files open to close them together: at the descriptor limit
	# they close them and open again, no EMFILE reported
	(ulimit -n 20 && cg --root="$ROOT" --json stat $kids &&
		[ "$RC" = 8 ] && [ "$OUT" = "$lean_out" ] && [ "$ERR" = "$lean_err" ]) && ok ||
		fail "$tree: threaded stat at the descriptor limit differs"
	cg --root="$ROOT" --json stat /m/1 /m/2 /a/c1 /a/c2 /a/m1 /a/m2 /nope/1 /nope/2
	[ "$(json_get '[(r["path"], r["cpu"]["usage_usec"] is not None, r["memory"]["usage_bytes"] is not None) for r in j["cgroups"]]')" = \
	  "[('/m/1', $([ $tree = v1 ] && echo False || echo True), True), ('/m/2', $([ $tree = v1 ] && echo False || echo True), True), ('/a/c1', $([ $tree = v1 ] && echo False || echo True), True), ('/a/c2', $([ $tree = v1 ] && echo False || echo True), True), ('/a/m1', False, True), ('/a/m2', False, True)]" ] &&
		ok || fail "$tree: siblings' figures: $OUT"
	[ "$(printf '%s\n' "$ERR" | grep -c 'no such cgroup')" = 2 ] && ok ||
		fail "$tree: siblings below a missing parent: $ERR"
done

# the lean view reads none of what only --long needs: without those files it is the same
for tree in v1 v2; do
	fixture "$tree"
	cg --root="$ROOT" --json stat /a /a/b
	before=$OUT
	if [ $tree = v1 ]; then
		m="$ROOT/sys/fs/cgroup/memory" c="$ROOT/sys/fs/cgroup/cpu"
		extra="$m/a/memory.max_usage_in_bytes $m/a/memory.memsw.usage_in_bytes
			$m/a/memory.memsw.limit_in_bytes $m/a/memory.memsw.failcnt
			$c/a/cpu.cfs_quota_us $c/a/cpu.cfs_period_us $c/a/cpu.cfs_burst_us
			$c/a/cpu.stat.local $c/a/tasks $c/a/cgroup.procs"
	else
		m="$ROOT/sys/fs/cgroup"
		extra="$m/a/memory.peak $m/a/memory.swap.current $m/a/memory.swap.max
			$m/a/memory.events $m/a/cpu.max $m/a/cpu.max.burst $m/a/cpu.stat.local
			$m/a/cgroup.threads $m/a/cgroup.procs"
	fi
	for f in $extra; do
		[ -e "$f" ] && ok || fail "$tree: fixture lacks $f"
		rm -f "$f"
	done
	cg --root="$ROOT" --json stat /a /a/b
	expect_rc 0 "$tree: lean stat without the --long files"
	[ "$OUT" = "$before" ] && ok || fail "$tree: lean stat changed: $before -> $OUT"
	# --long did need them: no cpu figures (no quota file), no max usage; the keys
	# stay, null (the same keys on v1 and v2, whatever the kernel has)
	cg --root="$ROOT" --json stat --long /a
	[ "$(json_get 'set(j["cgroups"][0]["cpu"].values()) == {None} and j["cgroups"][0]["memory"]["max_usage_bytes"] is None')" = True ] &&
		ok || fail "$tree: --long without its files: $OUT"
done
done_testing
