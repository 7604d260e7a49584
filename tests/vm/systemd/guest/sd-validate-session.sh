# issue 27: `cgctl validate --repeat 1` from root's login session (session-N.scope: not
# delegated, it holds processes) reports no failed run, and no more n/a quantities than on
# vm:6.12-v2 (the count vm-6.12-systemd.sh measured there, /vm/files/sd-na-baseline;
# without it the count is only reported).  The report stays in
# /tmp/sd-validate-session.json for a guest command to print.
. "$VMLIB"
vm_need_systemd
vm_need_jq
vm_plain_workload
. /vm/sdlib.sh
sd_validate session
