#!/bin/sh
# vm-svc.sh NAME (/vm/vm-svc.sh): ExecStart of cgctl-vm-run@NAME.service.  Runs
# /run/cgctl-vm/NAME/cmd from the service with the VM's environment, its stdout and
# stderr in out and err and its exit status in rc of the same directory.
d=/run/cgctl-vm/$1
. /vm/env
export VM_KERNEL VM_MODE VM_CONFIG VM_INIT VM_CGROOT VMLIB CGCTL CGCTL_WORKLOAD_EXE
[ -n "${LD_LIBRARY_PATH:-}" ] && export LD_LIBRARY_PATH
VM_KRELEASE=$(uname -r)
export VM_KRELEASE
[ -f /vm/passenv ] && . /vm/passenv
sh "$d/cmd" </dev/null >"$d/out" 2>"$d/err"
echo $? >"$d/rc"
exit 0
