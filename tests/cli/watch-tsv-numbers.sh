#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: `cgctl --tsv watch` prints usage_cpus as every other TSV prints a number
# that is not whole, and as its --json prints it: the shortest form that reads back
# (output.c, strbuf_put_double).  It printed "%.3f" ("0.000" where JSON says 0, 0.333
# for 0.33333333333333331), the only TSV number rounded to fixed decimals.
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null || skip "needs python3"

fixture v2	# the files do not change: no CPU used between two samples
cg --root="$ROOT" --tsv watch --count 2 -i 10ms /a/b
expect_rc 0 "--tsv watch"
cells=$(printf '%s\n' "$OUT" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	NR > 1 { print $c["usage_cpus"] }' | tr '\n' ' ')
[ "$cells" = "0 0 " ] && ok || fail "usage_cpus of no CPU used: '$cells', want '0 0 ': $OUT"
cg --root="$ROOT" --json watch --count 1 -i 10ms /a/b
expect_rc 0 "--json watch"
expect_out_has '"usage_cpus":0,' "--json watch: usage_cpus"

# a figure that is not whole: usage_cpus is usage over interval, whose nanoseconds the
# microseconds printed bound; "%.3f" was up to 0.0005 off (0.062 for 0.06202837826)
d=$ROOT/sys/fs/cgroup/a/b
(i=0; while [ $i -lt 400 ]; do
	i=$((i + 1))
	sed "s/^usage_usec .*/usage_usec $((20000000 + i * 777))/" "$d/cpu.stat" >"$d/cpu.stat.new" &&
		mv "$d/cpu.stat.new" "$d/cpu.stat"
	sleep 0.005
done) &
writer=$!
cg --root="$ROOT" --tsv watch --count 3 -i 50ms /a/b
kill "$writer" 2>/dev/null; wait "$writer" 2>/dev/null
expect_rc 0 "--tsv watch of a growing usage"
bad=$(printf '%s\n' "$OUT" | python3 -c '
import sys
rows = [l.rstrip("\n").split("\t") for l in sys.stdin]
c = {k: i for i, k in enumerate(rows[0])}
for r in rows[1:]:
    u, n, v = int(r[c["usage_usec"]]), int(r[c["interval_usec"]]), float(r[c["usage_cpus"]])
    if not u / (n + 1) - 1e-12 <= v <= (u + 1) / n + 1e-12:
        print(r[c["usage_cpus"]], "for", u, "/", n)')
[ -z "$bad" ] && ok || fail "usage_cpus off usage / interval: $bad: $OUT"
done_testing
