#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl move --tree`: the fork storm moved back and forth 5 times leaves no live process
# behind, the JSON reports the tree (connector, counts), and the plan of a copy-on-write
# tree counts the shared pages once (the union, not the sum over processes).
. "$top_srcdir/tests/kernel/netlink-lib.sh"
TOUCH="$top_builddir/tests/kernel/mem-touch"
[ -x "$TOUCH" ] || skip "tests/kernel/mem-touch not built"

# ---- the fork storm ----
start_in a "$H/forkstorm" -i 1000 -l 1000 -g
sleep 1.2
echo "fork storm: $(procs a) processes"
src=a dst=b
for i in 1 2 3 4 5; do
	cg --self --json move --tree "$STARTED" "$BASE/$dst"
	expect_rc 0 "move --tree $i to $dst: $ERR"
	sleep 0.02
	set -- $(live_left $src)
	[ "$1" = 0 ] && ok || fail "move $i: $1 live tasks left in $src"
	[ "$(json_get 'j["moves"][0]["tree"]["connector"]')" = True ] && ok ||
		fail "move $i: the proc connector was not used: $OUT"
	[ "$(json_get 'j["moves"][0]["tree"]["moved"] >= 1')" = True ] && ok ||
		fail "move $i: nothing moved: $OUT"
	# the storm allocates and frees while it moves: no verdict on its counters
	[ "$(json_get 'j["moves"][0]["verdict"]')" != differs ] && ok ||
		fail "move $i: verdict: $OUT"
	t=$src src=$dst dst=$t
done
/bin/kill -KILL -- "-$STARTED"

# ---- a copy-on-write tree: 32 MiB touched, then 3 children ----
ready="$T_TMP/ready"
start_in c "$TOUCH" 32 "$ready" 3
i=0
while [ ! -e "$ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$ready" ] || skip "mem-touch did not start"
cg --self --json move --dry-run "$STARTED" "$BASE/d"
expect_rc 0 "plan of the parent alone"
one=$(json_get 'j["moves"][0]["expected"]["stays_bytes"] + j["moves"][0]["expected"]["total_bytes"]')
cg --self --json move --tree --dry-run "$STARTED" "$BASE/d"
expect_rc 0 "plan of the tree"
all=$(json_get 'j["moves"][0]["expected"]["stays_bytes"] + j["moves"][0]["expected"]["total_bytes"]')
n=$(json_get 'j["moves"][0]["tree"]["processes"]')
echo "plan: parent $one B, tree of $n processes $all B"
[ "$n" = 4 ] && ok || fail "tree of $n processes, expected 4: $OUT"
[ "$one" -ge $((32 << 20)) ] && ok || fail "the parent's plan misses its 32 MiB: $one"
# the children share the 32 MiB: the union adds only their own few pages (stack, ...)
[ "$all" -ge "$one" ] && [ "$all" -lt $((one + (8 << 20))) ] && ok ||
	fail "tree plan $all B, parent alone $one B: shared pages counted more than once?"
cg --self --json move --tree "$STARTED" "$BASE/d"
expect_rc 0 "move the tree: $ERR"
[ "$(procs c)" = 0 ] && [ "$(procs d)" = 4 ] && ok ||
	fail "after the move: $(procs c) in c, $(procs d) in d"
[ "$(json_get 'j["moves"][0]["tree"]["moved"]')" = 4 ] && ok || fail "moved: $OUT"
[ "$(json_get 'j["moves"][0]["verdict"]')" = match ] && ok || fail "verdict: $OUT"
[ "$(json_get 'j["moves"][0]["tree"]["in_other_memcg"]')" = 0 ] && ok || fail "other: $OUT"

# ---- errors: a PID that does not exist changes nothing ----
sh -c 'exit 0' &
gone=$!
wait $gone
cg --self move --tree "$gone" "$BASE/d"
[ "$RC" = 4 ] && ok || fail "missing PID: rc $RC, want 4 ($ERR)"
[ -z "$OUT" ] && ok || fail "missing PID printed on stdout: $OUT"
done_testing
