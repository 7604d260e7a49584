#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl bench fault`, short: each configuration ran in the memory cgroup and at the
# depth it claims, and memory.stat pgfault of the leaf grew by the faults the loop made.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CTRL=memory
. "$top_srcdir/tests/kernel/bench-lib.sh"

cg --json bench --repeat 2 --duration 500ms --seed 3 fault
[ "$RC" = 0 ] && ok || fail "bench fault: rc $RC: $ERR"
bench_check "own=0 depth1=1 depth3-limited=3" fault
# the depth-3 configuration wrote a limit at each level: the model counts charges
v=$(json_get '[c["model"]["value"] for c in j["configurations"] if c["name"] == "depth1"][0]')
python3 -c "import sys; sys.exit(not (5 < $v < 40))" && ok ||
	fail "model: $v charges per 1,000 faults (one batch of 32-64 pages each)"
bench_expect_clean "bench fault"
done_testing
