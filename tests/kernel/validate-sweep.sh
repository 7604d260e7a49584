#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl validate --sweep`: bad sweep options are refused with one line and exit 2
# before anything runs; as root, a sweep of memory cases runs on this kernel with the
# documented JSON (case names sweep-mem-SEED, the distribution per quantity), a case
# replays alone with its seed and kind (same configuration), and nothing is left behind.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"

# ---- refused before any cgroup is touched ----
for args in "--sweep 0" "--sweep -1" "--sweep 10001" "--sweep x" "--sweep 2 mem-stock-pinned" \
	    "--sweep 2 --kind cpu" "--sweep 2 --kind ," "--sweep 2 --seed -1" \
	    "--sweep 2 --seed 1x" "--seed 3" "--kind bw" "--sweep 2 --target vm:6.0-v1"; do
	# shellcheck disable=SC2086
	cg validate $args
	expect_rc 2 "validate $args"
	expect_err_line "validate $args"
	expect_no_out "validate $args"
done

require_root
command -v python3 >/dev/null || skip "needs python3"
mem=$(mount_of memory)
[ -n "$mem" ] || skip "no v1 memory hierarchy"
leftovers() { find "$mem" -maxdepth 6 -type d -name 'cgctl-validate-*' 2>/dev/null; }
before=$(leftovers)

cg --json validate --sweep 3 --seed 5 --kind mem --repeat 1
[ "$RC" = 0 ] || [ "$RC" = 7 ] && ok || fail "sweep: exit $RC: $ERR"
[ "$(json_get '[s["name"] for s in j["scenarios"]]')" = "['sweep-mem-5', 'sweep-mem-6', 'sweep-mem-7']" ] &&
	ok || fail "case names: $(json_get '[s["name"] for s in j["scenarios"]]')"
[ "$(json_get 'j["sweep"]["cases"], j["sweep"]["seed"]')" = "3 5" ] && ok ||
	fail "sweep header: $(json_get 'j["sweep"]')"
[ "$(json_get '[q["name"] for q in j["sweep"]["quantities"]]')" = \
  "['usage_delta', 'stock', 'stock_after_drain']" ] && ok ||
	fail "sweep quantities: $(json_get 'j["sweep"]["quantities"]')"
# each count adds up over the cases, every decided quantity has its figures
json_get 'all(q["cases"] == 3 and q["within"] <= q["decided"] <= 3 and (q["decided"] == 0 or (0 <= q["within_ratio"] <= 1 and q["median_rel_error"] <= q["worst_rel_error"] and q["worst_case"].startswith("sweep-mem-"))) for q in j["sweep"]["quantities"])' |
	grep -qx True && ok || fail "sweep distribution: $(json_get 'j["sweep"]')"
# a memory charge is exact on every kernel the model knows: the sweep must show it
[ "$(json_get '[q["within"] for q in j["sweep"]["quantities"] if q["name"] == "usage_delta"]')" = "[3]" ] &&
	ok || fail "usage_delta within tolerance: $(json_get 'j["sweep"]["quantities"][0]')"

# the third case alone: the same configuration (its summary line)
cg validate --sweep 3 --seed 5 --kind mem --repeat 1
want=$(printf '%s\n' "$OUT" | grep '^sweep-mem-7: ')
cg validate --sweep 1 --seed 7 --kind mem --repeat 1
[ "$RC" = 0 ] || [ "$RC" = 7 ] && ok || fail "replay: exit $RC: $ERR"
got=$(printf '%s\n' "$OUT" | grep '^sweep-mem-7: ')
[ -n "$want" ] && [ "$got" = "$want" ] && ok || fail "replay: '$got', in the sweep '$want'"
expect_out_has "sweep: 1 cases from seed 7" "replay summary"
[ "$(leftovers)" = "$before" ] && ok || fail "left behind: $(leftovers)"
done_testing
