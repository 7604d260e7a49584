#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The simulator's speed-ups change no result (issue 30): 200 random replays
# (tests/unit/bw-identity.c: CPUs, threads, phases, jitter, eras, two levels, weights,
# other load, clock reads) give the same cpu.stat, byte for byte, as the simulator before
# the event-driven changes did (tests/cli/bw-identity.expected, made at b262916).
# After a change that is meant to change results, regenerate the file and say why.
. "$top_srcdir/tests/lib.sh"

"$top_builddir/tests/unit/bw-identity" 200 >"$T_TMP/out" ||
	fail "bw-identity failed"
if cmp -s "$top_srcdir/tests/cli/bw-identity.expected" "$T_TMP/out"; then
	ok
else
	diff "$top_srcdir/tests/cli/bw-identity.expected" "$T_TMP/out" | head -20
	fail "results differ from tests/cli/bw-identity.expected"
fi
done_testing
