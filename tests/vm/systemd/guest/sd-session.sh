# The systemd VM itself: PID 1 is systemd, cgroup v2 alone, and this test runs in root's
# logind session on the serial console (session-N.scope), a oneshot service
# (vm_service) in system.slice.  Harness facts every other sd-* case relies on.
. "$VMLIB"
vm_need_systemd
vm_eq "$(cat /proc/1/comm)" systemd "PID 1"
vm_eq "$(stat -f -c %T /sys/fs/cgroup)" cgroup2fs "/sys/fs/cgroup"
cg=$(vm_cgroup_of $$ cpu)
vm_match "$cg" '^/user\.slice/user-0\.slice/session-[0-9]+\.scope$' "the session's cgroup"
sid=$(basename "$cg" .scope | sed 's/^session-//')
vm_ok loginctl show-session "$sid" -p Type -p Class
vm_match "$OUT" 'Class=user' "logind's session"
vm_service sd-session sh -c 'cat /proc/self/cgroup'
vm_eq "$RC" 0 "the service's status"
svc='/system.slice/system-cgctl\x2dvm\x2drun.slice/cgctl-vm-run@sd-session.service'
vm_eq "$OUT" "0::$svc" "the service's cgroup"
vm_ok systemctl is-system-running --wait
vm_match "$OUT" '^(running|degraded)$' "the system's state"
vm_ok cgctl tree /
