#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# VM tier: `cgctl validate --sweep 6 --seed 14 --kind move --target vm:6.1-v1 --json`
# end to end (one boot of 6.1 with cgroup v1, the kernel that moves charges; seeds 14-19
# draw a mapped file every 6th page, anon, THPs with 4 split, shared anon, anon half
# on swap, a file): the guest runs the same six configurations as the host draws (their
# summaries), every one of them decided (the guest gets swap for the squeeze case),
# every move quantity within the stock bound, the sweep's distribution in the report,
# and no scratch cgroup left in the guest (the harness is wrapped to look after the
# command).
# vm-6.1-v1.sh runs this with VM_SWEEP_GUESTS=1: the same boot then first runs the
# guest tests of 6.1-v1 (vmcheck.sh), each reported on its own line, and the test fails
# if one of them fails (one boot of the kernel for all its tests).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmcheck.sh"
vm_check_prereq 6.1-v1
command -v jq >/dev/null || { echo "SKIP: needs jq"; exit 77; }
CGCTL=${CGCTL:-${top_builddir:-.}/src/cgctl}
[ -x "$CGCTL" ] || { echo "SKIP: cgctl not built"; exit 77; }
# the workloads without sanitizers, also under CI's sanitizer build (guestlib.sh,
# vm_plain_workload): cgctl packs the helper CGCTL_WORKLOAD_EXE names
plain=${top_builddir:-.}/tests/vm/cgctl-workload-plain
[ -x "$plain" ] && CGCTL_WORKLOAD_EXE=$(cd "${plain%/*}" && pwd)/${plain##*/} &&
	export CGCTL_WORKLOAD_EXE

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vm-validate-sweep.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
guests_failed=0
fail() {
	echo "FAIL: validate-sweep: $*"
	echo "6.1-v1: FAIL validate-sweep" >&2
	exit 1
}

# the guest tests of this boot: run-vm's arguments for them (vmcheck.sh)
: >"$tmp/guestargs"
[ "${VM_SWEEP_GUESTS:-0}" = 1 ] && VM_ARGS_TO=$tmp/guestargs vm_check 6.1-v1

# the real harness, with the guest tests added; after the guest's cgctl, a look for
# scratch cgroups (on stderr); run-vm's status file kept for the guest tests' results
cat >"$tmp/harness" <<EOF
#!/bin/bash
for ((i = 1; i <= \$#; i++)); do [ "\${!i}" = -- ] && break; done
st=
for ((j = 1; j < i; j++)); do [ "\${!j}" = --status ] && k=\$((j + 1)) && st=\${!k}; done
mapfile -d '' extra <"$tmp/guestargs"
"$srcdir/tests/vm/run-vm" --timeout "${CGCTL_VM_TIMEOUT:-600}" "\${@:1:i-1}" \\
	"\${extra[@]}" -- sh -c '"\$@"; rc=\$?
		left=\$(find /sys/fs/cgroup -maxdepth 4 -type d -name "cgctl-validate-*")
		echo "scratch left: \${left:-none}" >&2; exit \$rc' sh "\${@:i+1}"
rc=\$?
[ -n "\$st" ] && cp "\$st" "$tmp/status"
exit \$rc
EOF
chmod +x "$tmp/harness"

set -- validate --json --sweep 6 --seed 14 --kind move --repeat 1
CGCTL_VM_HARNESS=$tmp/harness "$CGCTL" "$@" --target vm:6.1-v1 >"$tmp/vm.json" \
	2>"$tmp/err"
rc=$?
cat "$tmp/err"
if [ "${VM_SWEEP_GUESTS:-0}" = 1 ]; then
	# each guest test's line is in run-vm's output above; here their verdict
	[ -f "$tmp/status" ] || { echo "FAIL: no status file from run-vm"; exit 99; }
	guests_failed=$(awk -F'\t' '$1 == "job" && $2 != "@command" && $3 != 0 && $3 != 77' \
		"$tmp/status" | wc -l)
	echo "guest tests: $(grep -c '^job	[^@]' "$tmp/status") run, $guests_failed failed"
fi
[ $rc = 0 ] || fail "exit $rc"
j() { jq -r "$@" "$tmp/vm.json"; }
[ "$(j '.target')" = vm:6.1-v1 ] || fail "target $(j '.target')"
[ "$(j '[.sweep.cases, .sweep.seed, .sweep.cpus] | map(tostring) | join(" ")')" = "6 14 2" ] ||
	fail "sweep header: $(j -c .sweep)"
[ "$(j '[.scenarios[].name] | join(" ")')" = \
  "sweep-move-14 sweep-move-15 sweep-move-16 sweep-move-17 sweep-move-18 sweep-move-19" ] ||
	fail "cases: $(j '[.scenarios[].name] | join(" ")')"
# the host draws the same configurations (the move draws do not depend on the CPUs;
# on a kernel without charge moving they are n/a, and nothing runs)
"$CGCTL" "$@" --target host >"$tmp/host.json" 2>/dev/null
[ "$(jq -c '[.scenarios[].summary]' "$tmp/host.json")" = "$(j -c '[.scenarios[].summary]')" ] ||
	fail "host and guest drew differently: $(jq -c '[.scenarios[].summary]' \
		"$tmp/host.json") / $(j -c '[.scenarios[].summary]')"
# every move quantity decided and within the stock bound; the distribution says so
[ "$(j '[.scenarios[].quantities[] | select(.verdict != "match")] | length')" = 0 ] ||
	fail "not match: $(j -c '[.scenarios[] | {name, summary, q: [.quantities[] |
		select(.verdict != "match")]} | select(.q | length > 0)]')"
[ "$(j '[.sweep.quantities[] | select(.name | test("usage_change")) |
	.cases == 6 and .decided == 6 and .within == 6] | all')" = true ] ||
	fail "distribution: $(j -c .sweep)"
[ "$(j '[.sweep.quantities[] | select(.name | test("memsw_change")) |
	.cases == 1 and .decided == 1 and .within == 1] | length')" = 2 ] ||
	fail "the swap case: $(j -c .sweep)"
[ "$(j '.verdict')" = match ] || fail "verdict $(j .verdict)"
grep -qx 'scratch left: none' "$tmp/err" || fail "scratch cgroups left in the guest"
echo "sweep ok: $(j -c '[.sweep.quantities[] | {name, decided, within, worst_rel_error}]')"
echo "6.1-v1: PASS validate-sweep" >&2
[ "$guests_failed" = 0 ] || exit 1
