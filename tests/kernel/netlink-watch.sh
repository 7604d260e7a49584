#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# cgctl watch on a scratch cgroup (paths relative to our own cgroup: --self) with a
# spinner in it: one line per interval in every format, CPU time that moves, the
# interval it measured, and the errors.
. "$top_srcdir/tests/kernel/netlink-lib.sh"
[ -x "$CGCTL" ] || skip "$CGCTL not built"

start_in a "$H/spinner" 0
sleep 0.2

cg --self --json watch -i 200ms --count 3 "$BASE/a"
expect_rc 0 "json"
n=$(printf '%s\n' "$OUT" | grep -c .)
[ "$n" = 3 ] && ok || fail "json: $n lines, expected 3: $OUT"
printf '%s\n' "$OUT" | python3 -c '
import json, sys
for line in sys.stdin:
    j = json.loads(line)
    assert j["usage_usec"] > 0, j
    assert 150000 <= j["interval_usec"] <= 2000000, j
    assert j["usage_cpus"] > 0, j
    for k in ("nr_periods", "nr_throttled", "throttled_usec", "memory_bytes",
              "memory_delta_bytes", "time_usec"):
        assert k in j, (k, j)
' && ok || fail "json content: $OUT"

cg --self watch -i 100ms --count 2 "$BASE/a"
expect_rc 0 "human"
n=$(printf '%s\n' "$OUT" | grep -c .)
[ "$n" = 3 ] && ok || fail "human: $n lines, expected header + 2: $OUT"
case $OUT in *CPU-USAGE*THROTTLED*MEMORY*) ok ;; *) fail "human header: $OUT" ;; esac

cg --self --tsv watch -i 100ms --count 2 "$BASE/b"
expect_rc 0 "tsv"
[ "$(printf '%s\n' "$OUT" | head -1 | cut -f1,3)" = "$(printf 'time_usec\tusage_usec')" ] &&
	ok || fail "tsv header: $OUT"
[ "$(printf '%s\n' "$OUT" | sed -n 2p | cut -f3)" = 0 ] && ok ||
	fail "an empty cgroup used CPU: $OUT"

cg --self watch --count 1 "$BASE/nonexistent"
expect_rc 4 "missing cgroup"
expect_err_line "missing cgroup"
cg --self watch -i 5ms --count 1 "$BASE/a"
expect_rc 2 "interval too short"
cg --self watch --count 0 "$BASE/a"
expect_rc 2 "count 0"
cg --self watch -i 1x "$BASE/a"
expect_rc 2 "bad interval"
done_testing
