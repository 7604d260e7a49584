#!/bin/sh
# cgctl bench: --compare on canned JSON (what `cgctl --json bench` prints), --list, and
# the bad-input errors that are checked before anything runs.
. "$top_srcdir/tests/lib.sh"

mk() {	# mk FILE EXPERIMENT OWN-SAMPLES BW-SAMPLES
	cat >"$T_TMP/$1" <<EOT
{"experiment":"$2","operation":"round trip","kernel":"6.1.0","cpus":2,"repeat":5,"seed":9,
 "hardware_counters":"not available","configurations":[
 {"name":"own","summary":"baseline","depth":0,"samples":{"wall_ns_per_op":[$3],
  "task_ns_per_op":[$3],"cycles_per_op":[null,null,null,null,null]}},
 {"name":"bw-1ms","depth":1,"samples":{"wall_ns_per_op":[$4],"task_ns_per_op":[$4]}}]}
EOT
}
mk before.json pipe "100,101,99,100,100" "100,101,99,100,100"
mk after.json pipe "100.5,99.5,100,101,99" "120,121,119,122,118"
mk other.json fault "1,2,3,4,5" "1,2,3,4,5"

cg --json bench --compare "$T_TMP/before.json" "$T_TMP/after.json"
expect_rc 0 "compare"
[ "$(json_get '(j["experiment"], j["rows"], j["above_noise"], j["alpha"])')" = \
	"('pipe', 4, 2, 0.01)" ] && ok || fail "compare header: $OUT"
[ "$(json_get '[(r["name"], r["metric"], r["verdict"]) for r in j["comparison"]]')" = \
	"[('own', 'wall_ns_per_op', 'within noise'), ('own', 'task_ns_per_op', 'within noise'), ('bw-1ms', 'wall_ns_per_op', 'above noise'), ('bw-1ms', 'task_ns_per_op', 'above noise')]" ] \
	&& ok || fail "verdicts: $OUT"
# 100 -> 120: +20%; Welch's p of the two 5-sample sets (t = 25.8, df 5.5): 5.5e-7
[ "$(json_get '(float(j["comparison"][2]["change_pct"]), j["comparison"][2]["before"]["mean"], j["comparison"][2]["after"]["mean"], 5.4e-7 < j["comparison"][2]["p"] < 5.6e-7)')" = \
	"(20.0, 100, 120, True)" ] && ok || fail "figures: $OUT"
# equal means: t = 0, p = 1
[ "$(json_get 'float(j["comparison"][0]["p"])')" = 1.0 ] && ok || fail "A/A row p: $OUT"

cg --tsv bench --compare "$T_TMP/before.json" "$T_TMP/after.json"
expect_rc 0 "compare --tsv"
[ "$(printf '%s\n' "$OUT" | head -n 1 | cut -f1-3)" = "$(printf 'name\tmetric\tbefore.mean')" ] && ok ||
	fail "tsv header: $OUT"
[ "$(printf '%s\n' "$OUT" | wc -l)" = 5 ] && ok || fail "tsv rows: $OUT"

cg bench --compare "$T_TMP/before.json" "$T_TMP/after.json"
expect_rc 0 "compare, human"
expect_out_has "above noise"
expect_out_has "CHANGE%"

"$CGCTL" bench --compare - "$T_TMP/after.json" <"$T_TMP/before.json" >/dev/null 2>&1 && ok ||
	fail "compare from stdin"

# errors: one line, documented exit status, nothing printed on stdout
cg bench --compare "$T_TMP/before.json" "$T_TMP/other.json"
expect_rc 1 "different experiments"
expect_err "cgctl: bench: $T_TMP/other.json: experiment fault, not pipe" "different experiments"
cg bench --compare "$T_TMP/before.json" "$T_TMP/nonexistent.json"
expect_rc 4 "missing file"
expect_no_out
printf '{"experiment":"pipe","configurations":[{"name":"x"}]}' >"$T_TMP/bad.json"
cg bench --compare "$T_TMP/before.json" "$T_TMP/bad.json"
[ "$RC" -ne 0 ] && ok || fail "malformed accepted"
case $ERR in *"not a bench report"*) ok ;; *) fail "malformed: $ERR" ;; esac
cg bench --compare "$T_TMP/before.json"
expect_rc 2 "one file"
cg bench
expect_rc 2 "no experiment"
cg bench nosuch
expect_rc 2 "unknown experiment"
expect_err "cgctl: bench: 'nosuch' is not an experiment (cgctl bench --list)" "unknown"
for bad in "-r 1" "-r 101" "--seed x" "--seed -1" "-t 65" "--procs 0" "--rounds 0" \
	"-d 1ms" "-d x" "-o NOSUCH"; do
	cg bench $bad pipe
	expect_rc 2 "bench $bad"
	expect_no_out
done
cg bench pipe relative/path
expect_rc 2 "relative PATH"

cg bench --list
expect_rc 0 "--list"
[ "$(printf '%s\n' "$OUT" | grep -v '^ ' | cut -d' ' -f1 | tr '\n' ' ')" = "fault pipe procread alloc " ] &&
	ok || fail "--list: $OUT"
expect_out_has "bw-100ms-d3"
done_testing
