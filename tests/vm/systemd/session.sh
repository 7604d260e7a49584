#!/bin/sh
# session.sh (/vm/session.sh in the systemd VM): run by root's login shell on ttyS0
# (serial-getty@ttyS0 logs root in: a logind session, session-N.scope).  Runs the jobs
# of /vm/jobs (jobs.sh) from this session, reports them on ttyS1 and powers off.
. /vm/env
export VM_KERNEL VM_MODE VM_CONFIG VM_INIT VM_CGROOT VMLIB CGCTL CGCTL_WORKLOAD_EXE
[ -n "${LD_LIBRARY_PATH:-}" ] && export LD_LIBRARY_PATH
VM_KRELEASE=$(uname -r)
export VM_KRELEASE
[ -f /vm/passenv ] && . /vm/passenv

exec 3>/dev/ttyS1 || { echo "session.sh: no result channel /dev/ttyS1"; exit 1; }
stty -F /dev/ttyS1 raw -echo 2>/dev/null
read -r up _ </proc/uptime
echo "@@CGCTL-BOOT $up@@" >&3
echo "@@CGCTL-SESSION $(cat /proc/self/cgroup)@@" >&3

. /vm/jobs.sh
run_jobs
exec 3>&-
sync
# the disk is a snapshot that qemu throws away: no orderly shutdown needed
systemctl poweroff -ff
