#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: a key/value result's labels carry no unit (BUSY 1.2s; busy_usec 1200000
# with -b), but a table inside it (bw recommend's runs) still headed its columns with
# the JSON keys beside readable values: "busy_usec  quota_usec" over "1.2s  40.03ms".
# Now its headings are labels too, and the keys with -b; JSON and TSV keep the keys.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v python3 >/dev/null || skip "needs python3"

# one thread busy 40 ms of each 100 ms, 30 periods
awk 'BEGIN { print "cgctl-bw-trace 1"; print "cpus 2"
	for (i = 0; i < 30; i++) { print "0 busy 40ms"; print "0 idle 60ms" } }' >"$T_TMP/t"
runs() { printf '%s\n' "$OUT" | sed -n '/^runs:$/,/^[^ ]/p' | sed -n 2,3p; }

cg bw recommend --trace "$T_TMP/t"
expect_rc 0 "bw recommend"
runs | head -1 | grep -q '^  TRACE  *BUSY  *QUOTA  *THROTTLED-RATIO$' && ok ||
	fail "runs headings: $(runs | head -1)"
case $(runs) in *_usec*) fail "a unit in a heading: $(runs)" ;; *) ok ;; esac
runs | tail -1 | grep -q '  1\.2s  *40' && ok || fail "runs values readable: $(runs | tail -1)"

cg bw recommend -b --trace "$T_TMP/t"
expect_rc 0 "bw recommend -b"
runs | head -1 | grep -q '^  trace  *busy_usec  *quota_usec  *throttled_ratio$' && ok ||
	fail "-b runs headings: $(runs | head -1)"
runs | tail -1 | grep -q '  1200000  *40' && ok || fail "-b runs values: $(runs | tail -1)"

cg --tsv=runs bw recommend --trace "$T_TMP/t"
expect_rc 0 "--tsv=runs bw recommend"
[ "$(printf '%s\n' "$OUT" | head -1)" = "$(printf 'trace\tbusy_usec\tquota_usec\tthrottled_ratio')" ] &&
	ok || fail "--tsv=runs header: $(printf '%s\n' "$OUT" | head -1)"
cg --json bw recommend --trace "$T_TMP/t"
[ "$(json_get 'sorted(j["runs"][0])')" = "['busy_usec', 'quota_usec', 'throttled_ratio', 'trace']" ] &&
	ok || fail "--json runs keys: $OUT"

done_testing
