#!/bin/sh
# session.sh (/vm/session.sh in the systemd VM): run by root's login shell on ttyS0
# (cgctl-vm-console.service logs root in: a logind session, session-N.scope).  Runs
# the jobs of /vm/jobs (jobs.sh) from this session, reports them on ttyS1, powers off.
. /vm/jobs.sh
vm_env

exec 3>/dev/ttyS1 || { echo "session.sh: no result channel /dev/ttyS1"; exit 1; }
stty -F /dev/ttyS1 raw -echo 2>/dev/null
read -r up _ </proc/uptime
echo "@@CGCTL-BOOT $up@@" >&3
echo "@@CGCTL-SESSION $(cat /proc/self/cgroup)@@" >&3

run_jobs
exec 3>&-
sync
# the disk is a snapshot that qemu throws away: no orderly shutdown needed
systemctl poweroff -ff
