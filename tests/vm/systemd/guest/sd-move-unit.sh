# issue 27: a move into a service's cgroup goes through systemd (AttachProcessesToUnit):
# `systemctl status` lists the process; and a unit without any CPU property (its
# cgroup has no cpu controller) takes moves without --no-plan.
. "$VMLIB"
vm_need_systemd
u=sd-move-plain
cleanup() {
	vm_cleanup
	systemctl stop $u.service 2>/dev/null
	rm -f /run/systemd/system/$u.service
	systemctl daemon-reload
}
trap cleanup EXIT
cat >/run/systemd/system/$u.service <<UNIT
[Service]
ExecStart=/bin/sleep 1000
UNIT
vm_ok systemctl daemon-reload
vm_ok systemctl start $u.service
vm_log "controllers: $(cat /sys/fs/cgroup/system.slice/$u.service/cgroup.controllers)"
vm_spawn sleep 1001
vm_ok cgctl move $PID /system.slice/$u.service
vm_eq "$(vm_cgroup_of $PID cpu)" /system.slice/$u.service "the moved PID's cgroup"
vm_run systemctl status --no-pager -l $u.service
vm_match "$OUT" "[^0-9]$PID[^0-9]" "the PID in systemctl status"
