#!/bin/sh
# vm-svc.sh NAME (/vm/vm-svc.sh): ExecStart of cgctl-vm-run@NAME.service.  Runs
# /run/cgctl-vm/NAME/cmd from the service with the VM's environment, its stdout and
# stderr in out and err and its exit status in rc of the same directory.
d=/run/cgctl-vm/$1
. /vm/jobs.sh
vm_env
sh "$d/cmd" </dev/null >"$d/out" 2>"$d/err"
echo $? >"$d/rc"
exit 0
