#!/bin/sh
# Kernel tier: on the live hierarchies, below our own cgroup: create, set, attach a
# process we started, read back with get and stat (text, JSON, TSV), refuse what must be
# refused, remove everything.
# run-test: shared (its own scratch cgroups and process; no time, no shared counter)
. "$top_srcdir/tests/lib.sh"
require_root

mem=$(mount_of memory)
cpu=$(mount_of cpu)
[ -n "$mem" ] && [ -n "$cpu" ] || skip "needs v1 memory and cpu hierarchies"
self_mem=$(self_cgroup memory)
name="cgctl-core-$$"

# --self: the same relative name below our own cgroup in each hierarchy
cg --self create -c memory,cpu "$name"
expect_rc 0 "create"
[ -d "$mem${self_mem%/}/$name" ] && ok || fail "memory cgroup not created"
[ -d "$cpu$(self_cgroup cpu | sed 's|/$||')/$name" ] && ok || fail "cpu cgroup not created"
T_SCRATCH="$mem${self_mem%/}/$name $cpu$(self_cgroup cpu | sed 's|/$||')/$name $T_SCRATCH"

cg --self create -c memory,cpu "$name"
expect_rc 5 "create existing"
expect_err_line "create existing"

cg --self set "$name" memory.limit_in_bytes=64M cpu.cfs_quota_us=50000
expect_rc 0 "set"
cg --self get "$name" memory.limit_in_bytes cpu.cfs_quota_us cpu.cfs_period_us
expect_rc 0 "get"
cg --self --json get "$name" memory.limit_in_bytes
[ "$(json_get 'j["files"][0]["value"]')" = 67108864 ] && ok || fail "get json: $OUT"

# a value the kernel's rules refuse is refused before anything is written: exit 2
cg --self set "$name" memory.limit_in_bytes=32M cpu.cfs_quota_us=10
expect_rc 2 "quota below the minimum"
expect_err_line "quota below the minimum"
[ "$(cat "$mem${self_mem%/}/$name/memory.limit_in_bytes")" = 67108864 ] && ok ||
	fail "limit written although the plan was refused"

# a value the kernel refuses: exit 1, the earlier write of the same call restored
cg --self set "$name" memory.limit_in_bytes=32M memory.swappiness=500
expect_rc 1 "kernel EINVAL"
expect_err_line "kernel EINVAL"
[ "$(cat "$mem${self_mem%/}/$name/memory.limit_in_bytes")" = 67108864 ] && ok ||
	fail "limit not restored after the failed set"

# attach a process we started, by PID, read it back
sleep 30 &
child=$!
cg --self move --no-plan "$child" "$name" 2>/dev/null
if [ "$RC" != 0 ]; then
	# until `move` exists: attach through set (one write of the PID)
	cg --self set -c memory "$name" "cgroup.procs=$child"
	expect_rc 0 "attach by set"
	cg --self set -c cpu "$name" "cgroup.procs=$child"
fi
grep -qx "$child" "$mem${self_mem%/}/$name/cgroup.procs" && ok || fail "child not in the memory cgroup"
cg --self get --raw -c memory "$name" cgroup.procs
expect_out "$child" "get --raw cgroup.procs"

cg --self --json stat --long "$name"
expect_rc 0 "stat json"
[ "$(json_get 'j["cgroups"][0]["memory"]["limit_bytes"]')" = 67108864 ] && ok || fail "stat limit: $OUT"
[ "$(json_get 'j["cgroups"][0]["cpu"]["quota_usec"]')" = 50000 ] && ok || fail "stat quota: $OUT"
[ "$(json_get 'type(j["cgroups"][0]["memory"]["usage_bytes"]).__name__')" = int ] && ok || fail "stat usage: $OUT"
# the default: the lean keys only, the same values
cg --self --json stat "$name"
expect_rc 0 "stat json lean"
[ "$(json_get 'j["cgroups"][0]["memory"]["limit_bytes"]')" = 67108864 ] && ok || fail "lean limit: $OUT"
# (usage_usec only where cpuacct has the cgroup too)
[ "$(json_get '"nr_throttled" in j["cgroups"][0]["cpu"] and set(j["cgroups"][0]["cpu"]) <= {"usage_usec", "nr_periods", "nr_throttled", "throttled_usec", "nr_bursts", "burst_usec"} and "tasks" not in j["cgroups"][0]')" = True ] &&
	ok || fail "lean keys: $OUT"
cg --self --tsv stat "$name"
[ "$(printf '%s\n' "$OUT" | head -n 1 | cut -f1)" = path ] && ok || fail "stat tsv header: $OUT"
[ "$(printf '%s\n' "$OUT" | wc -l)" = 2 ] && ok || fail "stat tsv rows: $OUT"

cg --self tree "$name"
expect_rc 0 "tree"
# one row where our own cgroups of both hierarchies are one path, else a row for each
# (they are two cgroups: issue 29, tree --self merged them)
if [ "$(self_cgroup memory)" = "$(self_cgroup cpu)" ]; then
	expect_out_has "memory,cpu" "tree hierarchies"
else
	[ "$(printf '%s\n' "$OUT" | grep -c "^/$name ")" = 2 ] && ok ||
		fail "tree: not a row per own cgroup: $OUT"
fi

# removal refuses while our child is inside, and leaves everything in place
cg --self delete -c memory,cpu "$name"
expect_rc 5 "delete busy"
expect_err_line "delete busy"
[ -d "$mem${self_mem%/}/$name" ] && ok || fail "busy delete removed the cgroup"

kill "$child"
wait "$child" 2>/dev/null
cg --self delete -c memory,cpu "$name"
expect_rc 0 "delete"
[ ! -d "$mem${self_mem%/}/$name" ] && ok || fail "memory cgroup left behind"

# errors: a missing cgroup, a path escape, a bad PID
cg --self stat "nope-$$"
expect_rc 4 "stat missing"
cg --self get "../x" cgroup.procs
expect_rc 2 "path escape"
done_testing
