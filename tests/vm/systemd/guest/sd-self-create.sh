# issue 27: `cgctl --self create -c LIST` from a login session gives a cgroup with the
# controllers asked for (the session scope is not delegated: cgctl works in a delegated
# transient scope of its own), and no warning.
. "$VMLIB"
vm_need_systemd
cleanup() {
	find /sys/fs/cgroup -depth -type d -name sd-self-a -exec rmdir {} \; 2>/dev/null
	# the --self scope and its holder (cgctl(1), SYSTEMD): stopping it removes it
	systemctl stop 'cgctl-self-*.scope' 2>/dev/null
	vm_cleanup
}
trap cleanup EXIT
vm_ok cgctl --self create -c cpu,memory sd-self-a
vm_eq "$ERR" "" "stderr of --self create"
d=$(find /sys/fs/cgroup -type d -name sd-self-a | head -n 1)
[ -n "$d" ] || vm_fail "no cgroup sd-self-a anywhere below /sys/fs/cgroup"
vm_log "created: $d"
ctl=$(cat "$d/cgroup.controllers")
vm_match " $ctl " ' cpu ' "controllers of $d"
vm_match " $ctl " ' memory ' "controllers of $d"
# below a delegated unit: the nearest unit above it (a .scope or .service directory)
# has Delegate=yes
p=$d
while [ "$p" != /sys/fs/cgroup ]; do
	case ${p##*/} in *.scope|*.service) break ;; esac
	p=${p%/*}
done
[ "$p" != /sys/fs/cgroup ] || vm_fail "$d is below no unit's cgroup"
vm_ok systemctl show -p Delegate --value "${p##*/}"
vm_eq "$OUT" yes "Delegate of ${p##*/}, the unit above $d"
# a second --self finds the same scope: no second holder, no second scope
vm_ok cgctl --self create sd-self-b
vm_eq "$(find /sys/fs/cgroup -type d -name sd-self-b | sed 's,/sd-self-b$,,')" "$p" \
	"the scope of a second --self"
rmdir "$p/sd-self-b"
vm_ok systemctl list-units --all --plain --no-legend --no-pager 'cgctl-self-*.scope'
vm_eq "$(printf '%s\n' "$OUT" | grep -c 'cgctl-self-')" 1 "--self scopes"
