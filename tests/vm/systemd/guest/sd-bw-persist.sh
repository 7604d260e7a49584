# issue 27: `bw set`, `mem set` and `set cpu.weight` on a service's cgroup keep their
# values across `systemctl daemon-reload` and `systemctl set-property` of another
# property (cgctl changes the unit's properties through systemd, which otherwise
# rewrites the cgroup from the unit's own CPUQuota=50%, MemoryHigh=, CPUWeight=).
. "$VMLIB"
vm_need_systemd
u=sd-bw-hog
cg=/sys/fs/cgroup/system.slice/$u.service
cleanup() {
	systemctl stop $u.service 2>/dev/null
	rm -f /run/systemd/system/$u.service
	rm -rf /run/systemd/system.control/$u.service.d /etc/systemd/system.control/$u.service.d
	systemctl daemon-reload
	vm_cleanup
}
trap cleanup EXIT
cat >/run/systemd/system/$u.service <<UNIT
[Service]
ExecStart=/bin/sleep 1000
CPUQuota=50%
MemoryHigh=200M
CPUWeight=100
UNIT
vm_ok systemctl daemon-reload
vm_ok systemctl start $u.service
vm_eq "$(cat $cg/cpu.max)" "50000 100000" "the unit's own cpu.max"

vm_ok cgctl bw set /system.slice/$u.service --quota 20ms --period 100ms
vm_ok cgctl mem set /system.slice/$u.service --high 64M
vm_ok cgctl set /system.slice/$u.service cpu.weight=500
check() {
	vm_eq "$(cat $cg/cpu.max)" "20000 100000" "cpu.max $1"
	vm_eq "$(cat $cg/memory.high)" 67108864 "memory.high $1"
	vm_eq "$(cat $cg/cpu.weight)" 500 "cpu.weight $1"
}
check "after cgctl"
vm_ok systemctl daemon-reload
check "after systemctl daemon-reload"
vm_ok systemctl set-property --runtime $u.service TasksMax=100
check "after systemctl set-property TasksMax=100"
# the unit says so too
vm_ok systemctl show -p CPUQuotaPerSecUSec -p MemoryHigh -p CPUWeight $u.service
vm_match "$OUT" 'CPUQuotaPerSecUSec=200ms' "the unit's CPUQuotaPerSecUSec"
vm_match "$OUT" 'MemoryHigh=67108864' "the unit's MemoryHigh"
vm_match "$OUT" 'CPUWeight=500' "the unit's CPUWeight"
# runtime by default: nothing persistent in /etc
vm_eq "$(ls /etc/systemd/system.control 2>/dev/null)" "" "persistent drop-ins"
