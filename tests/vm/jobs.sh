# shellcheck shell=sh
# jobs.sh: the guest's job loop, sourced by /init (init.sh, busybox VMs) and by the
# systemd VM's login session (systemd/session.sh).  Runs each job of /vm/jobs and
# reports it on fd 3 (the result channel, /dev/ttyS1):
#
#   @@CGCTL-START <name>@@
#   @@CGCTL-STDOUT <name>@@      base64 of the job's stdout follows
#   @@CGCTL-STDERR <name>@@      base64 of the job's stderr follows
#   @@CGCTL-RESULT <name> <exit status> <seconds>@@
#
# A line of /vm/jobs is "NAME SCRIPT [service]"; "service" (systemd VM only) runs SCRIPT
# as cgctl-vm-run@NAME.service (systemd/vm-svc.sh) instead of in the caller.

# vm_env: the guest's environment (/vm/env, written by run-vm) exported, with
# VM_KRELEASE and the host's settings run-vm passes on (/vm/passenv)
vm_env() {
	. /vm/env
	export VM_KERNEL VM_MODE VM_INIT VM_CONFIG VM_CGROOT VMLIB CGCTL CGCTL_WORKLOAD_EXE
	[ -n "${LD_LIBRARY_PATH:-}" ] && export LD_LIBRARY_PATH
	VM_KRELEASE=$(uname -r)
	export VM_KRELEASE
	[ -f /vm/passenv ] && . /vm/passenv
}

# uptime_cs: uptime in hundredths of a second
uptime_cs() {
	read -r u _ </proc/uptime
	echo "${u%.*}${u#*.}"
}

# run_service_job NAME SCRIPT: SCRIPT as a oneshot service, its output in /tmp/job.out,
# /tmp/job.err; its status (125 when the service did not report one)
run_service_job() {
	d=/run/cgctl-vm/$1
	rm -rf "$d"
	mkdir -p "$d"
	echo "cd /tmp/job/$1 && exec sh $2" >"$d/cmd"
	systemctl start "cgctl-vm-run@$1.service" >/tmp/job.sys 2>&1
	cp "$d/out" /tmp/job.out 2>/dev/null || : >/tmp/job.out
	{ cat "$d/err" 2>/dev/null; cat /tmp/job.sys; } >/tmp/job.err
	rc=$(cat "$d/rc" 2>/dev/null) || rc=125
	return "${rc:-125}"
}

run_job() { # run_job NAME SCRIPT [service]
	name=$1
	echo "@@CGCTL-START $name@@" >&3
	echo "vm-init: running $name" >/dev/console
	mkdir -p "/tmp/job/$name"
	t0=$(uptime_cs)
	if [ "${3:-}" = service ]; then
		run_service_job "$name" "$2"
	else
		(cd "/tmp/job/$name" && exec sh "$2") </dev/null >/tmp/job.out 2>/tmp/job.err
	fi
	rc=$?
	t1=$(uptime_cs)
	dt=$((t1 - t0))
	echo "@@CGCTL-STDOUT $name@@" >&3
	base64 /tmp/job.out >&3
	echo "@@CGCTL-STDERR $name@@" >&3
	base64 /tmp/job.err >&3
	printf '@@CGCTL-RESULT %s %d %d.%02d@@\n' "$name" "$rc" $((dt / 100)) $((dt % 100)) >&3
}

# run_jobs: every job of /vm/jobs, then @@CGCTL-DONE@@
run_jobs() {
	while read -r name script how; do
		[ -n "$name" ] && run_job "$name" "$script" $how
	done </vm/jobs
	echo "@@CGCTL-DONE@@" >&3
}
