# issue 27: `cgctl validate --repeat 1` from a service (cgctl-vm-run@sd-validate.service, in
# system.slice): no failed run, no more n/a than on vm:6.12-v2 (sdlib.sh).
# The report stays in /tmp/sd-validate-service.json.
. "$VMLIB"
vm_need_systemd
vm_need_jq
vm_plain_workload
. /vm/sdlib.sh
sd_validate service
