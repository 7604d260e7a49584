#!/bin/sh
# VM tier: boot Debian 12 with systemd as PID 1 (kernel 6.12, cgroup v2; the root from
# scripts/install-deps) and run tests/vm/systemd/guest/*.sh from root's login session,
# all in one boot.  Case names (patterns) as arguments or in CGCTL_VM_TESTS run only
# those:  tests/vm/vm-6.12-systemd.sh 'sd-bw-*' sd-zz-leftovers
#
# The sd-validate-* cases compare their n/a count with vm:6.12-v2's:
# CGCTL_SD_NA_BASELINE=N gives it, else tests/vm/sd-na-baseline when vm-6.12-v2.sh
# counted it in its boot of this build (make check runs that test first: one 6.12-v2
# boot for both), else one 6.12-v2 boot counts it first (`cgctl validate --json
# --repeat 1`, as the cases run it; several minutes under TCG).
[ $# -gt 0 ] && CGCTL_VM_TESTS="$*" && export CGCTL_VM_TESTS
# make check runs every case (issue 27): settings through SetUnitProperties, moves into
# units, --self and validate from the session and from a service in delegated scopes,
# the UNIT column, and nothing left behind.
: "${CGCTL_VM_TESTS:=sd-*}"
export CGCTL_VM_TESTS
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmcheck.sh"
vm_check_prereq 6.12-systemd

# sd_na_baseline: the number of n/a quantities of `cgctl validate` on vm:6.12-v2
sd_na_baseline() {
	[ -n "${CGCTL_SD_NA_BASELINE:-}" ] && { echo "$CGCTL_SD_NA_BASELINE"; return 0; }
	if sd_baseline_fresh; then
		echo "vm:6.12-v2: the n/a count of vm-6.12-v2.sh's boot ($base)" >&2
		cat "$base"
		return 0
	fi
	command -v jq >/dev/null || return 1
	set -- --config 6.12-v2 --timeout "${CGCTL_VM_TIMEOUT:-1800}"
	[ -x "${top_builddir:-.}/tests/vm/cgctl-workload-plain" ] &&
		set -- "$@" --workload "${top_builddir:-.}/tests/vm/cgctl-workload-plain"
	"$srcdir/tests/vm/run-vm" "$@" -- cgctl validate --json --repeat 1 |
		jq -e '[.scenarios[].quantities[] | select(.verdict == "n/a")] | length'
}

# sd_baseline_fresh: vm-6.12-v2.sh left a count after this build's cgctl, library and
# workload helper were made (a later build counts again)
sd_baseline_fresh() {
	[ -s "$base" ] || return 1
	for f in "${CGCTL:-${top_builddir:-.}/src/cgctl}" \
		"${top_builddir:-.}"/lib/.libs/libcgctl.so.* \
		"${top_builddir:-.}/tests/vm/cgctl-workload-plain"; do
		[ -e "$f" ] || continue
		[ -n "$(find "$base" -newer "$f" 2>/dev/null)" ] || return 1
	done
	return 0
}

# sd_wants_validate: the cases chosen include an sd-validate-* one
sd_wants_validate() {
	[ -z "${CGCTL_VM_TESTS:-}" ] && return 0
	for pat in $CGCTL_VM_TESTS; do
		for c in sd-validate-session sd-validate-service; do
			# shellcheck disable=SC2254
			case $c in $pat) return 0 ;; esac
		done
	done
	return 1
}

base=${top_builddir:-.}/tests/vm/sd-na-baseline
if sd_wants_validate; then
	if n=$(sd_na_baseline) && [ -n "$n" ]; then
		echo "vm:6.12-v2: $n n/a quantities"
		# a given count is not this build's: it goes to the guest, not into $base
		packed=$base
		[ -n "${CGCTL_SD_NA_BASELINE:-}" ] && packed=$base.given
		[ "$(cat "$packed" 2>/dev/null)" = "$n" ] || echo "$n" >"$packed"
		CGCTL_VM_FILES="${CGCTL_VM_FILES:+$CGCTL_VM_FILES }$packed:/vm/files/sd-na-baseline"
		export CGCTL_VM_FILES
	else
		echo "vm:6.12-v2 gave no n/a count: the sd-validate cases only report theirs"
	fi
fi
# systemd's boot under TCG and two whole validate runs: more than the tier's 600 s
CGCTL_VM_TIMEOUT=${CGCTL_VM_TIMEOUT:-1500}
vm_check 6.12-systemd systemd/guest
