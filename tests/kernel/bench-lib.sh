# SPDX-License-Identifier: GPL-2.0-or-later
# Shared part of the kernel-tier tests of `cgctl bench` (tests/kernel/bench-*.sh): source
# after tests/lib.sh with CTRL set (memory or cpu).
require_root
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v python3 >/dev/null || skip "needs python3"
MNT=$(mount_of "$CTRL")
[ -n "$MNT" ] || skip "no v1 $CTRL hierarchy"
OWN=$(self_cgroup "$CTRL")
mkdir "$MNT${OWN%/}/cgctl-bench-probe-$$" 2>/dev/null ||
	skip "cannot create a $CTRL cgroup below $OWN"
rmdir "$MNT${OWN%/}/cgctl-bench-probe-$$"

# leftovers: scratch cgroups of a cgctl bench (a bench-N below validate's base, or a
# cgctl-bench-PID-N below a PATH) and running bench workloads.  Only bench's own: other
# engineers' validate runs on this shared machine come and go meanwhile.
bench_leftovers() {
	find "$MNT${OWN%/}" -maxdepth 8 -type d \( -path '*/cgctl-validate-*/bench-*' -o \
		-name 'cgctl-bench-*-*' \) ! -name 'cgctl-bench-probe-*' 2>/dev/null
	pgrep -f '^[^ ]*cgctl-workload bench-' 2>/dev/null
}
BENCH_BEFORE=$(bench_leftovers)
bench_expect_clean() {
	now=$(bench_leftovers)
	if [ "$now" = "$BENCH_BEFORE" ]; then ok; else fail "$1: left behind: $now"; fi
}

# bench_differs_only FILE KNOWN: every configuration of the JSON report FILE whose kernel
# count differs is one of KNOWN (names, blank-separated); says which when not
bench_differs_only() {
	KNOWN="$2" python3 -c '
import json, os, sys
j = json.load(open(sys.argv[1]))
bad = [c["name"] for c in j["configurations"]
       if c["kernel_check"]["status"] == "differs" and c["name"] not in os.environ["KNOWN"].split()]
print("\n".join("differs, not a known gap: " + n for n in bad))
sys.exit(1 if bad else 0)
' "$1"
}

# bench_check DEPTHS WHAT [KNOWN]: $OUT is `cgctl --json bench ...`; DEPTHS "name=depth
# ...".  Every configuration ran, in the cgroup and at the depth it claims (read back
# from /proc/PID/cgroup), each run counted; every kernel count matches the prediction,
# but those of the configurations KNOWN lists (open model gaps: printed, never hidden).
bench_check() {
	printf '%s' "$OUT" | OWN="$OWN" DEPTHS="$1" KNOWN="${3:-}" python3 -c '
import json, os, sys
j = json.load(sys.stdin)
own = os.environ["OWN"]
want = dict(x.split("=") for x in os.environ["DEPTHS"].split())
bad = []
names = [c["name"] for c in j["configurations"]]
if sorted(names) != sorted(want):
    bad.append("configurations %s, not %s" % (names, sorted(want)))
for c in j["configurations"]:
    n, d = c["name"], int(want.get(c["name"], -1))
    if not c["placed"] or c["depth"] != d:
        bad.append("%s: ran at depth %s in %s, claims %d" % (n, c["depth"], c["cgroup"], d))
    if d == 0 and c["cgroup"] != own:
        bad.append("%s: ran in %s, not our own %s" % (n, c["cgroup"], own))
    # own/cgctl-validate-PID/bench-N (the scratch base) and d levels below it
    if d > 0 and (not c["cgroup"].startswith(own.rstrip("/") + "/cgctl-validate-") or
                  c["cgroup"].count("/") - own.rstrip("/").count("/") != d + 2):
        bad.append("%s: %s is not %d level(s) below a scratch base below %s" %
                   (n, c["cgroup"], d, own))
    if len(c["samples"]["wall_ns_per_op"]) != j["repeat"]:
        bad.append("%s: %d runs, not %d" % (n, len(c["samples"]["wall_ns_per_op"]), j["repeat"]))
    k = c["kernel_check"]
    if k["status"] == "differs" and n in os.environ["KNOWN"].split():
        print("KNOWN model gap: %s: %s %s, predicted %s" % (n, k["what"], k["observed"],
                                                            k["predicted"]))
    elif k["status"] == "differs":
        bad.append("%s: %s %s, predicted %s +- %s" % (n, k["what"], k["observed"],
                                                    k["predicted"], k["tolerance"]))
    print("%-16s depth %d  %10.1f ns/op  model %s  %s %s" % (n, c["depth"],
          c["wall_ns_per_op"]["mean"], c["model"]["value"], k["what"], k["status"]))
if bad:
    print("\n".join(bad))
    sys.exit(1)
' && ok || fail "bench $2: configurations not as claimed or a count differs (rc $RC): $ERR"
}
