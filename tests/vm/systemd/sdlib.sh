# shellcheck shell=sh
# sdlib.sh (/vm/sdlib.sh in the systemd VM): helpers shared by the sd-* guest cases,
# sourced after guestlib.sh.

# sd_validate WHERE: `cgctl validate --json --repeat 1` (every scenario) from the login session
# (WHERE=session) or from a service (WHERE=service); fails on a failed run (exit 1, a
# "run N failed" line) and on more n/a quantities than vm:6.12-v2 gave
# (/vm/files/sd-na-baseline, written by vm-6.12-systemd.sh; without it the count is
# only reported).  Differing verdicts are reported, not failed: the bandwidth scenarios'
# CPU time under TCG on a loaded host is no measurement of the kernel (validate.sh).
sd_validate() {
	local json=/tmp/sd-validate-$1.json na base counts
	if [ "$1" = service ]; then
		vm_service sd-validate env CGCTL_WORKLOAD_EXE="$CGCTL_WORKLOAD_EXE" \
			cgctl validate --json --repeat 1
	else
		vm_run cgctl validate --json --repeat 1
	fi
	printf '%s\n' "$OUT" >"$json"
	counts=$(jq -r '[.scenarios[].quantities[].verdict] | group_by(.) |
		map("\(.[0]) \(length)") | join(", ")' "$json" 2>/dev/null)
	echo "validate from the $1: exit $RC: ${counts:-no report}"
	case $RC in
	0|7) ;;
	*) vm_fail "validate from the $1 exited $RC" ;;
	esac
	vm_nomatch "$ERR" 'run [0-9]+ failed' "validate's failed runs from the $1"
	na=$(jq '[.scenarios[].quantities[] | select(.verdict == "n/a")] | length' "$json")
	base=/vm/files/sd-na-baseline
	if [ -s $base ]; then
		echo "n/a: $na here, $(cat $base) on vm:6.12-v2"
		[ "$na" -le "$(cat $base)" ] ||
			vm_fail "$na n/a quantities from the $1, $(cat $base) on vm:6.12-v2"
	else
		echo "n/a: $na here (no vm:6.12-v2 count to compare with)"
	fi
}
