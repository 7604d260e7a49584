#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl bench procread`, short: 200 sleepers, every configuration in our own cgroup,
# the model's per-CPU cells per read as the era says; no sleeper left behind.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
CTRL=memory
. "$top_srcdir/tests/kernel/bench-lib.sh"

cg --json bench --repeat 2 --procs 200 --rounds 2 procread
[ "$RC" = 0 ] && ok || fail "bench procread: rc $RC: $ERR"
bench_check "stat+statm=0 stat=0 statm=0" procread
# the cells of stat and statm add up to those of both
s=$(json_get '" ".join(str(c["model"]["value"]) for c in sorted(j["configurations"], key=lambda c: c["name"]))')
set -- $s
python3 -c "import sys; sys.exit(not ($1 + $3 == $2 and $2 > 0))" && ok ||
	fail "model cells: stat $1 + statm $3 != both $2"
bench_expect_clean "bench procread"
done_testing
