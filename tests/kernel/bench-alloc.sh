#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl bench alloc`, short: with and without a memcg, placed as claimed, pgfault
# of the memcg as predicted; and a run below a PATH given (scratch named with the PID).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CTRL=memory
. "$top_srcdir/tests/kernel/bench-lib.sh"

cg --json bench --repeat 2 --duration 300ms --threads 2 alloc
[ "$RC" = 0 ] && ok || fail "bench alloc: rc $RC: $ERR"
bench_check "own=0 memcg=1" alloc

# below a given PATH: the scratch is PATH/cgctl-bench-PID-N/...
scratch base memory "bench-alloc-$$"
cg --json bench --repeat 2 --duration 200ms --threads 1 alloc "$base"
[ "$RC" = 0 ] && ok || fail "bench alloc PATH: rc $RC: $ERR"
c=$(json_get '[c["cgroup"] for c in j["configurations"] if c["name"] == "memcg"][0]')
case $c in "$base"/cgctl-bench-*/l1-*) ok ;; *) fail "ran in $c, not below $base" ;; esac
[ -z "$(ls -d "$MNT$base"/*/ 2>/dev/null)" ] && ok || fail "left below $base: $(ls "$MNT$base")"
bench_expect_clean "bench alloc"
done_testing
