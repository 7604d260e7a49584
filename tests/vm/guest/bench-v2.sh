#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cgctl bench fault and pipe on cgroup v2 (the development host's cgroup2 has no cpu or
# memory controller): short runs, each configuration in a scratch cgroup of the v2
# hierarchy at the depth it claims, the kernel counts (memory.stat pgfault; cpu.stat
# nr_periods, which counts only where cpu.max was written) as predicted, nothing left
# behind.  v2 configurations only; about 40 s of a TCG guest.
. "$VMLIB"
vm_need_jq
case "$VM_CONFIG" in
*-v1) vm_skip "cgroup v1: the host's kernel tier runs bench there" ;;
esac
vm_plain_workload
vm_ok cgctl --json bench --repeat 2 --duration 200ms --seed 3 fault
vm_json_eq '.cgroup_version' 2 "fault on cgroup v2"
vm_json_eq '[.configurations[] | select(.placed != true)] | length' 0 "fault: placed"
vm_json_eq '[.configurations[] | .depth] | join(",")' "0,1,3" "fault: depths"
vm_json_eq '[.configurations[] | select(.kernel_check.status == "differs")] | length' 0 \
	"fault: pgfault as predicted"
# Under TCG a round trip takes 3-4 ms of wall time and more task-clock than that (the
# two ends run apart, each on its own emulated CPU), so at a 1 ms period the timer is
# active in nearly every period; the model's gap there (6.12, 2026-12-06: 12313
# observed, 11646 predicted, tolerance 586) is emulation, not the kernel's bandwidth
# control (validate.sh leaves the bandwidth scenarios out for the same reason), and
# bw-1ms alone may differ: exit status 7 then.  Every other period must match.
vm_run cgctl --json bench --repeat 2 --rounds 300 --seed 3 pipe
case $RC in 0|7) ;; *) vm_fail "bench pipe exited $RC" ;; esac
vm_json_eq '.cgroup_version' 2 "pipe on cgroup v2"
vm_json_eq '[.configurations[] | select(.placed != true)] | length' 0 "pipe: placed"
vm_json_eq '[.configurations[] | select(.kernel_check.status == "differs" and .name != "bw-1ms") | .name] | join(",")' \
	"" "pipe: nr_periods as predicted"
vm_json_eq '[.configurations[] | select(.kernel_check.status == "match") | .name] | map(select(. != "bw-1ms")) | join(",")' \
	"bw-off,bw-10ms,bw-100ms,bw-1s,bw-off-d3,bw-100ms-d3" "pipe: checked configurations"
vm_json_eq '[.configurations[] | select(.name == "bw-off") | .kernel_check.observed] | .[0]' \
	0 "pipe: no period timer with bandwidth off"
left=$(find "$VM_CGROOT" -maxdepth 4 -type d -name 'cgctl-validate-*' | head -1)
vm_eq "$left" "" "scratch cgroups left behind"
exit 0
