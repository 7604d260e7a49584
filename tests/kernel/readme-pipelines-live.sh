#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Kernel tier: the README.md and cgctl(1) pipelines that need live processes
# (tests/cli/doc-examples.py extracts them; tests/cli/readme-pipelines.sh runs the
# others on fixtures) run on this machine's cgroups, each as written but for two
# rewrites so that it works below our own cgroups: "cgctl" runs with --self, and each
# absolute cgroup path of the example (/old, /new, /limited, /01, /web) is a scratch
# name created (and removed) for the test; PID 4242 is a sleep we start, "server" a
# spinner we start under that name.  Checked: exit 0, nothing on stderr, the output.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "$CGCTL not built"
command -v python3 >/dev/null || skip "python3 is needed"
command -v jq >/dev/null || skip "jq is needed (the examples pipe into it)"
command -v pidof >/dev/null || skip "pidof is needed"
SPIN="$top_builddir/tests/helpers/spinner"
[ -x "$SPIN" ] || skip "tests/helpers/spinner not built"
[ -z "$(mount_of cpu)" ] || [ -z "$(mount_of memory)" ] &&
	skip "needs the v1 cpu and memory hierarchies"
pidof server >/dev/null && skip "a process named 'server' runs already (pidof -s server)"

mkdir -p "$T_TMP/bin" "$T_TMP/ex"
# cgctl as the examples call it: with --self
printf '#!/bin/sh\nexec "%s" --self "$@"\n' "$CGCTL" >"$T_TMP/bin/cgctl"
chmod +x "$T_TMP/bin/cgctl"
cp "$SPIN" "$T_TMP/server"
python3 "$top_srcdir/tests/cli/doc-examples.py" "$T_TMP/ex" "$top_srcdir" >"$T_TMP/list" ||
	fail "no examples extracted"

S="rp$$"	# the scratch names: rp$$-old, rp$$-new, ...
PIDS=""
cleanup() {
	for p in $PIDS; do kill -9 "$p" 2>/dev/null; done
	sleep 0.2
	for c in old new limited 01 web; do
		"$CGCTL" --self delete --recursive -f "$S-$c" 2>/dev/null
	done
	return 0
}
at_exit cleanup
cgl() { "$CGCTL" --self "$@"; }

# run FILE: the example with its cgroup paths renamed; $OUT $ERR $RC
run() {
	sed -e "s#/old\\b#$S-old#g; s#/new\\b#$S-new#g; s#/limited\\b#$S-limited#g" \
	    -e "s#/01\\b#$S-01#g; s#/web\\b#$S-web#g; s#\\b4242\\b#$SLEEP#g" "$1" \
		>"$T_TMP/run.sh"
	OUT=$(cd "$T_TMP" && PATH="$T_TMP:$T_TMP/bin:$PATH" sh -e "$T_TMP/run.sh" \
		2>"$T_TMP/err")
	RC=$?
	ERR=$(cat "$T_TMP/err")
}
clean() {
	expect_rc 0 "$1"
	[ -z "$ERR" ] && ok || fail "$1: stderr: $ERR"
}

sleep 600 &
SLEEP=$!
PIDS="$SLEEP"
while read -r i src; do
	f="$T_TMP/ex/$i"
	case $(cat "$f") in
	"cgctl get --raw /old cgroup.procs | cgctl move - /new")
		sleep 600 & a=$!
		sleep 600 & b=$!
		PIDS="$PIDS $a $b"
		cgl create "$S-old" "$S-new" 2>/dev/null
		cgl -q move --no-plan $a $b "$S-old" >/dev/null || fail "cannot fill $S-old"
		run "$f"
		clean "$src #$i"
		got=$(cgl get --raw "$S-new" cgroup.procs)
		printf '%s\n' "$got" | grep -qx $a && printf '%s\n' "$got" | grep -qx $b && ok ||
			fail "$src #$i: $S-new has '$(echo $got)', not $a and $b"
		[ -z "$(cgl get --raw "$S-old" cgroup.procs)" ] && ok || fail "$src #$i: left"
		;;
	"cgctl --json move --tree \"\$(pidof -s server)\" /limited | jq .throttling.after")
		cgl create "$S-limited" || fail "create $S-limited"
		cgl bw set "$S-limited" --quota 50ms --period 100ms || fail "bw set $S-limited"
		"$T_TMP/server" 0 &
		PIDS="$PIDS $!"
		sleep 0.2
		run "$f"
		clean "$src #$i"
		printf '%s' "$OUT" | python3 -c 'import json, sys
a = json.load(sys.stdin)
sys.exit(not (a["threads"] >= 1 and a["demand_cpus"] > 0.3 and a["nr_throttled"] > 0))' &&
			ok || fail "$src #$i: a spinning server under 0.5 CPU: $OUT"
		;;
	"cgctl --json move --dry-run 4242 /01 | jq '.moves[0].expected.total_bytes'")
		cgl create "$S-01" || fail "create $S-01"
		run "$f"
		clean "$src #$i"
		case $OUT in '' | *[!0-9]*) fail "$src #$i: not a byte count: $OUT" ;; *) ok ;; esac
		cgl get --raw "$S-01" cgroup.procs | grep -qx "$SLEEP" &&
			fail "$src #$i: --dry-run moved $SLEEP" || ok
		;;
	"cgctl create /web
cgctl mem set /web --limit 512M
cgctl --json stat /web | jq '.cgroups[0].memory'")
		run "$f"
		clean "$src #$i"
		# (mem set's report first, then jq's object: from the last line "{")
		[ "$(printf '%s\n' "$OUT" | awk '/^\{$/ { j = "" } { j = j $0 "\n" }
			END { printf "%s", j }' | jq .limit_bytes)" = 536870912 ] && ok ||
			fail "$src #$i: $OUT"
		;;
	*) ;;	# the fixture tier's (tests/cli/readme-pipelines.sh fails on unknown ones)
	esac
done <"$T_TMP/list"
done_testing
