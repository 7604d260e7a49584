#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cgctl validate --sweep N --target vm:CONFIG` through a stand-in VM harness
# ($CGCTL_VM_HARNESS) that records its arguments and answers like a guest: the sweep's
# cases, seed and kinds reach the guest's cgctl (a move sweep with swap), the guest's
# sweep comes back with its distribution in text and JSON, several targets each carry
# their own sweep, a guest that ran another sweep is an error, and bad combinations
# are refused with one line and exit 2 before any harness runs.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v python3 >/dev/null || skip "needs python3"

H=$T_TMP/harness
ARGV=$T_TMP/argv
# the guest's report: N cases named sweep-move-SEED.., from_usage_change 2 pages off in
# the first (within its tolerance 4; relative error 2 / 512), exact in the others; the
# fake ignores the sweep when $FAKE_IGNORE is set (an older guest cgctl)
cat >"$H" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >>"$ARGV"
st= cfg= sweep=0 seed=1
while [ $# -gt 0 ]; do
	case $1 in
	--status) st=$2; shift ;;
	--config) cfg=$2; shift ;;
	--sweep) sweep=$2; shift ;;
	--seed) seed=$2; shift ;;
	esac
	shift
done
[ -n "${FAKE_IGNORE:-}" ] && sweep=0
# a long boot, stopped by cgctl's SIGTERM
if [ -n "${FAKE_SLEEP:-}" ]; then
	trap 'kill $!; echo stopped >"$ARGV.term"; exit 99' TERM
	sleep 30 &
	echo started >"$ARGV.started"
	wait
	exit 0
fi
python3 - "$sweep" "$seed" "$cfg" <<'PY'
import json, sys
n, seed, cfg = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
sc = []
for i in range(n):
    obs = 514 if i == 0 else 512
    sc.append({"name": "sweep-move-%d" % (seed + i),
               "summary": "move: anon, 512 pages, bits 1 (%s)" % cfg,
               "quantities": [{"name": "from_usage_change", "predicted": 512,
                               "observed_mean": obs, "observed_sd": 0, "tolerance": 4,
                               "unit": "pages", "verdict": "match", "reason": "x"}]})
r = {"kernel": "6.1.0-fake", "target": "host", "runs": 1, "scenarios": sc}
if n:
    r["sweep"] = {"cases": n, "seed": seed, "cpus": 2, "quantities": []}
r["verdict"] = "match"
print(json.dumps(r))
PY
echo harness=ok >"$st"
EOF
chmod +x "$H"
CGCTL_VM_HARNESS=$H ARGV=$ARGV
export CGCTL_VM_HARNESS ARGV

# ---- bad combinations: exit 2, one line, no harness ----
for args in "--sweep 2 --target vm:bogus" "--sweep 0 --target vm:6.1-v1" \
	    "--seed 3 --target vm:6.1-v1" "--kind move --target vm:6.1-v1" \
	    "--sweep 2 --target vm:6.1-v1 move-anon" "--sweep 2 --kind disk --target vm:6.1-v1" \
	    "--sweep 2 --target vm:6.1-v1,vm:6.1-v1" "--sweep 2 --target host," \
	    "--sweep 2 --target vm:6.1-v1,all" "--sweep 2 --target ,host"; do
	rm -f "$ARGV"
	# shellcheck disable=SC2086
	cg validate $args
	expect_rc 2 "validate $args"
	expect_err_line "validate $args"
	expect_no_out "validate $args"
	[ ! -e "$ARGV" ] && ok || fail "validate $args: the harness ran"
done

# ---- a move sweep in a VM: the guest is asked for it, the host prints it ----
rm -f "$ARGV"
cg validate --sweep 3 --seed 7 --kind move --repeat 2 --target vm:6.1-v1
expect_rc 0 "vm sweep"
case "$ERR" in *"host only"*) fail "the sweep is still refused: $ERR" ;; *) ok ;; esac
args=$(tr '\n' ' ' <"$ARGV")
case "$args" in
*"--config 6.1-v1 "*"--swap 128M -- cgctl validate --json --repeat 2 --sweep 3 --seed 7 --kind move "*)
	ok ;;
*) fail "harness arguments: $args" ;;
esac
expect_out_has "# vm:6.1-v1: Linux 6.1.0-fake, 1 run per scenario" "vm report header"
expect_out_has "sweep-move-9: move: anon, 512 pages, bits 1 (6.1-v1)" "the guest's case summary"
expect_out_has "sweep: 3 cases from seed 7 on vm:6.1-v1, drawn for 2 CPUs" "sweep header"
# the distribution's heading in capitals, as every table's (issue 29)
printf '%s\n' "$OUT" | grep -Eq '^  QUANTITY +CASES +DECIDED +WITHIN +MEDIAN-ERR +WORST-ERR  WORST-CASE$' &&
	ok || fail "distribution heading: $OUT"
# 3 cases, all decided and within; median error 0, worst 2 / max(512, 4) in the first
printf '%s\n' "$OUT" | grep -Eq '^  from_usage_change +3 +3 +100% +0\.0% +0\.4%  sweep-move-7$' &&
	ok || fail "distribution row: $OUT"

cg --json validate --sweep 3 --seed 18446744073709551615 --kind move,mem --target vm:6.1-v1
expect_rc 0 "vm sweep --json"
printf '%s' "$OUT" | python3 -c '
import json, sys
j = json.load(sys.stdin)
s = j["sweep"]
assert j["target"] == "vm:6.1-v1", j["target"]
assert (s["cases"], s["seed"], s["cpus"]) == (3, 18446744073709551615, 2), s
q = s["quantities"][0]
assert (q["name"], q["cases"], q["decided"], q["within"]) == ("from_usage_change", 3, 3, 3), q
assert q["worst_case"] == "sweep-move-18446744073709551615", q
assert abs(q["worst_rel_error"] - 2 / 512) < 1e-4, q
' && ok || fail "vm sweep JSON: $OUT"
grep -qx -- '--kind' "$ARGV" && grep -qx 'mem,move' "$ARGV" && ok ||
	fail "kinds for the guest: $(tr '\n' ' ' <"$ARGV")"

# a bw sweep: no swap for the guest
rm -f "$ARGV"
cg validate --sweep 1 --kind bw --target vm:6.1-v2
expect_rc 0 "bw sweep"
grep -qx -- '--swap' "$ARGV" && fail "a bw sweep asked for swap" || ok

# ---- several targets, each with its own sweep ----
rm -f "$ARGV"
cg --json validate --sweep 2 --seed 5 --kind move --target vm:6.1-v1,vm:6.1-v2
expect_rc 0 "two targets"
printf '%s' "$OUT" | python3 -c '
import json, sys
t = json.load(sys.stdin)["targets"]
assert [x["target"] for x in t] == ["vm:6.1-v1", "vm:6.1-v2"], t
assert all(x["sweep"]["cases"] == 2 and x["sweep"]["seed"] == 5 for x in t), t
assert [x["scenarios"][0]["summary"][-8:] for x in t] == ["(6.1-v1)", "(6.1-v2)"], t
' && ok || fail "two targets: $OUT"
[ "$(grep -c -- '^--sweep$' "$ARGV")" = 2 ] && ok || fail "each guest asked for the sweep"

# ---- a guest that ran the named scenarios instead ----
FAKE_IGNORE=1 cg validate --sweep 2 --seed 5 --kind move --target vm:6.1-v1
expect_rc 1 "a guest without the sweep"
expect_err_line "a guest without the sweep"
case "$ERR" in *"ran 0 sweep cases from seed 0, not 2 from 5"*) ok ;;
*) fail "a guest without the sweep: $ERR" ;; esac
expect_no_out "a guest without the sweep"

# ---- SIGTERM during a VM run stops the harness (which takes its qemu down) ----
rm -f "$ARGV" "$ARGV.term" "$ARGV.started"
FAKE_SLEEP=1 "$CGCTL" validate --sweep 2 --target vm:6.1-v1 >"$T_TMP/out" 2>"$T_TMP/err" &
pid=$!
n=0
while [ ! -e "$ARGV.started" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
kill -TERM $pid
wait $pid
RC=$? ERR=$(cat "$T_TMP/err") OUT=$(cat "$T_TMP/out")
expect_rc 1 "SIGTERM during a VM run"
expect_err_line "SIGTERM during a VM run"
case "$ERR" in *"interrupted; the VM was stopped"*) ok ;; *) fail "SIGTERM: $ERR" ;; esac
[ -e "$ARGV.term" ] && ok || fail "the harness was not stopped"
# ---- the systemd VM (issue 27): one more configuration for the harness ----
rm -f "$ARGV"
cg --json validate --sweep 1 --kind move --target vm:6.12-systemd
expect_rc 0 "vm:6.12-systemd"
grep -qx -- '6.12-systemd' "$ARGV" && ok ||
	fail "--config 6.12-systemd for the harness: $(tr '\n' ' ' <"$ARGV")"
printf '%s' "$OUT" | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["target"] == "vm:6.12-systemd", j["target"]
' && ok || fail "vm:6.12-systemd report: $OUT"
cg validate --target vm:6.12-v3
expect_rc 2 "an unknown VM configuration"
case "$ERR" in *vm:6.12-systemd*) ok ;; *) fail "the usage names vm:6.12-systemd: $ERR" ;; esac
done_testing
