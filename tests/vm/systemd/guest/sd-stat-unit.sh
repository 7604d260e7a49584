# issue 27: stat, tree, JSON and --openmetrics name the unit that owns a cgroup; a unit
# name with systemd's escape prints as it is (system-serial\x2dgetty.slice) and can be
# pasted back; watch shows CPU usage of a v2 cgroup without the cpu controller.
. "$VMLIB"
vm_need_systemd
vm_need_jq
u=sd-stat-a
cleanup() {
	systemctl stop $u.service sdstat.slice 2>/dev/null
	rm -f /run/systemd/system/$u.service
	systemctl daemon-reload
	vm_cleanup
}
trap cleanup EXIT
# its own slices: no other unit's CPU property enables cpu there; the inner one's name
# has systemd's escape of "-" (as system-serial\x2dgetty.slice, which this VM's console
# does not have)
esc='sdstat-serial\x2dgetty.slice'
cat >/run/systemd/system/$u.service <<UNIT
[Service]
Slice=$esc
ExecStart=/bin/sh -c 'while :; do :; done'
UNIT
vm_ok systemctl daemon-reload
vm_ok systemctl start $u.service
p=/sdstat.slice/$esc/$u.service
[ -d "/sys/fs/cgroup$p" ] || vm_fail "no cgroup $p: $(ls /sys/fs/cgroup/sdstat.slice)"
vm_ok cgctl --json stat $p
vm_jq '[.. | objects | select(has("unit")) | .unit] | index("'$u.service'") != null' \
	"the unit in stat's JSON"
vm_ok cgctl stat $p
vm_match "$OUT" "$u\\.service.*$u\\.service|UNIT" "the unit in stat's table"
vm_ok cgctl stat --openmetrics $p
vm_match "$OUT" "unit=\"$u\\.service\"" "the unit label in --openmetrics"
vm_ok cgctl tree /sdstat.slice
vm_match "$(printf '%s\n' "$OUT" | head -n 1)" 'UNIT' "tree's UNIT column"
case $OUT in
*"$esc"*) ;;
*) vm_fail "tree does not print $esc as it is: $OUT" ;;
esac
vm_nomatch "$OUT" 'x5c' "tree's escaping of a backslash"
vm_ok cgctl --json stat "/sdstat.slice/$esc"
# (jq: the backslash doubled)
vm_jq '.cgroups[0].unit == "sdstat-serial\\x2dgetty.slice"' "the unit of the pasted path"
case " $(cat /sys/fs/cgroup$p/cgroup.controllers) " in
*" cpu "*) vm_log "note: $p has the cpu controller; watch is checked all the same" ;;
esac
vm_ok cgctl --json watch --count 2 -i 300ms $p
n=$(printf '%s\n' "$OUT" |
	jq -s 'map(select(.usage_usec != null and .usage_usec > 0)) | length')
vm_eq "$n" 2 "watch lines with CPU usage"
