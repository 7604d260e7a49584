#!/bin/sh
# VM tier: boot Debian's 6.12 kernel with cgroup v2 and run tests/vm/guest/*.sh.
# In the same boot, after the guest tests, the baseline of the systemd tier (reported as
# the case sd-na-baseline): the number of n/a quantities of `cgctl validate --json
# --repeat 1` (every scenario, validate's workloads without sanitizers) on vm:6.12-v2,
# which vm-6.12-systemd.sh's sd-validate cases compare theirs with.  It is left in
# tests/vm/sd-na-baseline, and make check runs vm-6.12-systemd.sh after this test, so
# that 6.12-v2 boots once.  Counted only when the systemd tier can run here, jq is
# installed, CGCTL_SD_NA_BASELINE gives no count and CGCTL_VM_TESTS, if set, names
# sd-na-baseline; otherwise the guest tests run alone.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmcheck.sh"
vm_check_prereq 6.12-v2
if [ -n "${CGCTL_SD_NA_BASELINE:-}" ] || ! command -v jq >/dev/null ||
	! vm_selected sd-na-baseline || ! (vm_check_prereq 6.12-systemd) >/dev/null 2>&1
then
	vm_check 6.12-v2
fi

base=${top_builddir:-.}/tests/vm/sd-na-baseline
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vm-6.12-v2.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
# run-vm's arguments for the guest tests (vmcheck.sh); the count is the guest command
VM_ARGS_TO=$tmp/args vm_check 6.12-v2
cmd='cgctl validate --json --repeat 1'
# as the systemd cases run it: the workloads without sanitizers (vmcheck.sh packs them)
[ -x "${top_builddir:-.}/tests/vm/cgctl-workload-plain" ] &&
	cmd="env CGCTL_WORKLOAD_EXE=/usr/bin/cgctl-workload-plain $cmd"
# the time limit: the guest tests' 600 s and the baseline's 1800 s (every scenario under
# TCG); the guest tests' lines and the command's stderr go to this test's log
VM_CMD=$cmd xargs -0 -a "$tmp/args" sh -c 'exec "$@" -- $VM_CMD' sh \
	"$srcdir/tests/vm/run-vm" --config 6.12-v2 --timeout "${CGCTL_VM_TIMEOUT:-2400}" \
	--status "$tmp/status" >"$tmp/validate.json" </dev/null
rc=$?
st() { sed -n "s/^$1=//p" "$tmp/status" 2>/dev/null; }
[ "$(st harness)" = ok ] || { echo "FAIL: the guest did not finish (run-vm exit $rc)"; exit 99; }
if n=$(jq -e '[.scenarios[].quantities[] | select(.verdict == "n/a")] | length' \
	"$tmp/validate.json" 2>/dev/null) && [ -n "$n" ]; then
	echo "$n" >"$base"
	secs=$(awk -F'\t' '$1 == "job" && $2 == "@command" { print $4 }' "$tmp/status")
	echo "6.12-v2: PASS sd-na-baseline: $n n/a quantities (validate exit" \
		"$(st command_status), ${secs}s)" >&2
else
	# as when vm-6.12-systemd.sh counts them itself: its sd-validate cases only report
	rm -f "$base"
	echo "6.12-v2: SKIP sd-na-baseline: validate gave no n/a count" \
		"(exit $(st command_status)): the sd-validate cases only report theirs" >&2
fi
[ "$(st failed)" = 0 ] || exit 1
[ "$(st passed)" = 0 ] && [ "$(st skipped)" != 0 ] && exit 77
exit 0
