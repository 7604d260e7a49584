# cgctl tree/create/set/get/attach/stat/delete against a real kernel, every configuration.
# The kernel's own files are the oracle: each cgctl result is checked against cgroupfs.
. "$VMLIB"
vm_need_cgctl
vm_need_jq

cg=/vmbasic
if [ "$VM_MODE" = v1 ]; then
	dirs="$VM_CGROOT/memory$cg $VM_CGROOT/cpu$cg $VM_CGROOT/cpuacct$cg"
	limit_file=memory.limit_in_bytes
	mem=$VM_CGROOT/memory
else
	dirs="$VM_CGROOT$cg"
	limit_file=memory.max
	mem=$VM_CGROOT
fi

cleanup() {
	rm -f /dev/shm/vmbasic
	vm_cleanup
	for d in $dirs; do
		rmdir "$d/child" "$d" 2>/dev/null
	done
}
trap cleanup EXIT

# ---- tree of an untouched system ----
vm_ok cgctl tree
vm_match "$OUT" '^PATH +HIERARCHIES' "human tree header"
vm_match "$OUT" '^/ ' "human tree starts at the root"
# The root holds every process, kernel threads included, and early boot
# still starts and reaps kworkers: count before and after cgctl's read and
# accept the range, plus the few processes the shell starts around it.
nbefore=$(wc -l <"$mem/cgroup.procs")
vm_ok cgctl --json tree
nafter=$(wc -l <"$mem/cgroup.procs")
lo=$((nbefore < nafter ? nbefore : nafter))
hi=$((nbefore > nafter ? nbefore : nafter))
vm_jq ".cgroups[0].path == \"/\" and .cgroups[0].procs >= $lo - 4 and
	.cgroups[0].procs <= $hi + 4 and
	.cgroups[0].memory_limit_bytes == null" "tree of the root ($lo..$hi processes, +-4)"
vm_ok cgctl --tsv tree
vm_match "$OUT" '^path	hierarchies	' "tsv header"
vm_match "$OUT" '^/	' "tsv root row"

# ---- create ----
vm_ok cgctl create $cg
for d in $dirs; do
	[ -d "$d" ] || vm_fail "create did not make $d"
done
[ -f "$mem$cg/$limit_file" ] || vm_fail "no $limit_file in $mem$cg"
vm_status 5 cgctl create $cg
vm_status 4 cgctl create $cg/a/b
vm_ok cgctl create -p $cg/child
for d in $dirs; do
	[ -d "$d/child" ] || vm_fail "create -p did not make $d/child"
done
vm_ok cgctl --json tree $cg
vm_jq "[.cgroups[].path] == [\"$cg\", \"$cg/child\"] and
	all(.cgroups[]; .procs == 0)" "tree of $cg"

# ---- set / get, on the leaf (v2: no processes in inner cgroups) ----
t=$cg/child
if [ "$VM_MODE" = v1 ]; then
	vm_ok cgctl set $t memory.limit_in_bytes=64M cpu.cfs_period_us=100000 \
		cpu.cfs_quota_us=50000
	vm_eq "$(cat "$VM_CGROOT/cpu$t/cpu.cfs_quota_us")" 50000 "cpu.cfs_quota_us"
	vm_eq "$(cat "$VM_CGROOT/cpu$t/cpu.cfs_period_us")" 100000 "cpu.cfs_period_us"
	bad_set="cpu.cfs_quota_us=notanumber"
	cpu_file=cpu.cfs_quota_us
else
	vm_ok cgctl set $t memory.max=64M "cpu.max=50000 100000"
	vm_eq "$(cat "$VM_CGROOT$t/cpu.max")" "50000 100000" "cpu.max"
	bad_set="cpu.max=notanumber"
	cpu_file=cpu.max
fi
vm_eq "$(cat "$mem$t/$limit_file")" 67108864 "$limit_file after set"
vm_ok cgctl --json get $t $limit_file $cpu_file
vm_jq ".path == \"$t\" and .files[0].file == \"$limit_file\" and
	.files[0].value == 67108864 and .files[1].file == \"$cpu_file\"" "get"
cpu_before=$(vm_json '.files[1].value')

# all or nothing: the kernel refuses the second value, the first is restored
vm_run cgctl set $t $limit_file=32M "$bad_set"
[ "$RC" != 0 ] || vm_fail "set with a refused value exited 0"
vm_eq "$(cat "$mem$t/$limit_file")" 67108864 "$limit_file after a refused set"
vm_eq "$(cat "$(vm_cgdir cpu)$t/$cpu_file")" "$cpu_before" "$cpu_file after a refused set"
vm_status 4 cgctl get $t memory.nosuchfile

# ---- attach ----
vm_spawn sleep 1000
sleeper=$PID
if cgctl move --help >/dev/null 2>&1; then
	vm_ok cgctl move --no-plan $sleeper $t
else
	vm_log "(no 'cgctl move' yet: attaching through cgroup.procs)"
	for d in $dirs; do
		echo $sleeper >"$d/child/cgroup.procs" || vm_fail "cannot attach to $d/child"
	done
fi
for c in memory cpu; do
	vm_eq "$(vm_cgroup_of $sleeper $c)" $t "cgroup of the sleeper ($c)"
done
vm_ok cgctl get $t cgroup.procs
vm_match "$OUT" "(^|[^0-9])$sleeper([^0-9]|\$)" "cgroup.procs lists the sleeper"
vm_ok cgctl --json tree $t
vm_jq ".cgroups[0].procs == 1 and .cgroups[0].memory_limit_bytes == 67108864 and
	.cgroups[0].cpu_limit_cpus == 0.5" "tree after attach"

# ---- stat: charge 8 MiB of tmpfs pages to $t, then read them back ----
join=""
for d in $dirs; do join="$join echo \$\$ >$d/child/cgroup.procs &&"; done
sh -c "$join dd if=/dev/zero of=/dev/shm/vmbasic bs=1M count=8 2>/dev/null" ||
	vm_fail "cannot charge tmpfs pages to $t"
usage=$(cat "$mem$t/memory.usage_in_bytes" 2>/dev/null || cat "$mem$t/memory.current")
[ "$usage" -ge 8388608 ] || vm_fail "kernel usage $usage < 8 MiB after writing 8 MiB"
vm_ok cgctl --json stat --long $t
vm_jq ".cgroups[0].path == \"$t\" and .cgroups[0].memory.limit_bytes == 67108864 and
	.cgroups[0].memory.usage_bytes >= 8388608 and .cgroups[0].cpu.quota_usec == 50000 and
	.cgroups[0].cpu.period_usec == 100000 and .cgroups[0].cpu.usage_usec > 0" "stat"
vm_ok cgctl stat $t
vm_match "$OUT" '64(\.0+)? ?MiB' "human stat shows the limit"
rm -f /dev/shm/vmbasic

# ---- delete ----
vm_status 5 cgctl delete --recursive $cg
for d in $dirs; do
	[ -d "$d/child" ] || vm_fail "a refused delete removed $d/child"
done
vm_cleanup
vm_ok cgctl delete --recursive $cg
for d in $dirs; do
	[ -d "$d" ] && vm_fail "delete --recursive left $d"
done
vm_status 4 cgctl delete $cg
vm_ok cgctl delete -f $cg
echo "cgctl basic commands ok on $VM_CONFIG"
