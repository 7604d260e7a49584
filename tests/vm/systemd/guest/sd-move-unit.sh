# issue 27: a move into a service's cgroup: `systemctl status` lists the process; a
# unit without any CPU property (its cgroup has no cpu controller) takes moves without
# --no-plan.  systemd 252 refuses AttachProcessesToUnit for a unit that is not delegated:
# cgctl writes cgroup.procs and says "direct"; a delegated unit takes it ("systemd").
. "$VMLIB"
vm_need_systemd
vm_need_jq
u=sd-move-plain
d=sd-move-deleg
cleanup() {
	vm_cleanup
	systemctl stop $u.service $d.service 2>/dev/null
	rm -f /run/systemd/system/$u.service /run/systemd/system/$d.service
	systemctl daemon-reload
}
trap cleanup EXIT
cat >/run/systemd/system/$u.service <<UNIT
[Service]
ExecStart=/bin/sleep 1000
UNIT
cat >/run/systemd/system/$d.service <<UNIT
[Service]
ExecStart=/bin/sleep 1000
Delegate=yes
UNIT
vm_ok systemctl daemon-reload
vm_ok systemctl start $u.service $d.service
vm_log "controllers: $(cat /sys/fs/cgroup/system.slice/$u.service/cgroup.controllers)"
vm_spawn sleep 1001
# exit 7 (a prediction differs) is no failure here: the units' own sleep, just started,
# may still change the cgroup's usage while the move is observed
moved() {
	vm_run cgctl --json move $PID "$1"
	case $RC in 0|7) ;; *) vm_fail "cgctl move $PID $1 exited $RC: $ERR" ;; esac
}
moved /system.slice/$u.service
vm_jq '.moves[0].attached == "direct"' "how the move into $u was done"
vm_eq "$(vm_cgroup_of $PID cpu)" /system.slice/$u.service "the moved PID's cgroup"
vm_run systemctl status --no-pager -l $u.service
vm_match "$OUT" "[^0-9]$PID[^0-9]" "the PID in systemctl status"
moved /system.slice/$d.service
vm_jq '.moves[0].attached == "systemd"' "how the move into $d was done"
vm_eq "$(vm_cgroup_of $PID cpu)" /system.slice/$d.service "the PID moved into $d"
vm_run systemctl status --no-pager -l $d.service
vm_match "$OUT" "[^0-9]$PID[^0-9]" "the PID in systemctl status of $d"
