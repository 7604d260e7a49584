#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: the bad-input catalogue of issue 15.  Each row is one command line with
# its expected exit code and a pattern its one stderr line must match; every row is also
# checked for an empty stdout and a fixture tree left byte-identical (a snapshot of
# every file before and after).
#
# Row: RC | TREE | PATTERN (grep -E) | SETUP (sh, run in the tree's cgroup root) |
#      STDIN (printf format, "-" for none) | ARGS (sh words)
. "$top_srcdir/tests/lib.sh"

# MEM: the v1 memory hierarchy's /a, CPU: the v1 cpu one's, U: v2's /a (in SETUP)
catalogue() {
	cat <<'ROWS'
2|v1|memory.limit_in_bytes=abc: not a size|:|-|set /a memory.limit_in_bytes=abc
2|v1|memory.limit_in_bytes=12Q: not a size|:|-|set /a memory.limit_in_bytes=12Q
2|v1|memory.limit_in_bytes=99999999999999999999: too large|:|-|set /a memory.limit_in_bytes=99999999999999999999
2|v1|memory.limit_in_bytes=1.5G: not a size|:|-|set /a memory.limit_in_bytes=1.5G
2|v1|memory.limit_in_bytes=max: not a size|:|-|set /a memory.limit_in_bytes=max
2|v2|memory.max=-1: not a size|:|-|set /a memory.max=-1
2|v2|memory.max=0x10: not a size|:|-|set /a memory.max=0x10
2|v2|memory.max= 1: not a size|:|-|set /a 'memory.max= 1'
2|v2|memory.max=: not a size|:|-|set /a memory.max=
2|v2|pids.max=lots: not a number or max|:|-|set /a pids.max=lots
2|v2|memory.oom.group=2: takes 0 or 1|:|-|set /a memory.oom.group=2
2|v2|cpu.weight=-5: not a decimal number|:|-|set /a cpu.weight=-5
2|v2|cpu.max=max max: not 'max'|:|-|set /a 'cpu.max=max max'
2|v2|cpu.max=50000 100000 7: not 'max'|:|-|set /a 'cpu.max=50000 100000 7'
2|v1|memory.swappiness=1e2: not a decimal number|:|-|set /a memory.swappiness=1e2
2|v1|cgroup.procs: moving tasks is not a setting; use cgctl move|:|-|set /a cgroup.procs=4242
2|v1|tasks: moving tasks is not a setting|:|-|set /a tasks=4242
2|v2|cgroup.threads: moving tasks is not a setting|:|-|set /a cgroup.threads=4242
2|v1|memory.limit_in_bytes: given twice|:|-|set /a memory.limit_in_bytes=8M memory.limit_in_bytes=16M
2|v2|cgroup.kill: a second irreversible write|:|-|set /a memory.reclaim=1M cgroup.kill=1
2|v1|memory.oom_control: a second irreversible write|:|-|set /a memory.force_empty=0 memory.oom_control=1
2|v1|memory.max_usage_in_bytes: a second irreversible write|:|-|set /a memory.force_empty=0 memory.max_usage_in_bytes=0
2|v1|would exceed memory.memsw.limit_in_bytes|echo 134217728 >memory/a/memory.memsw.limit_in_bytes|-|set /a memory.limit_in_bytes=256M
2|v1|would exceed memory.memsw.limit_in_bytes|:|-|set /a memory.limit_in_bytes=2G memory.memsw.limit_in_bytes=1G
2|v1|cannot contain a newline|:|-|set /a 'memory.limit_in_bytes=1
2'
2|bw-v1|below the minimum|:|-|set /a cpu.cfs_quota_us=10 cpu.cfs_period_us=100000
2|bw-v1|below descendant|:|-|set /a cpu.cfs_quota_us=20000
4|v1|memory.reclaim: no such control file|:|-|set /a memory.limit_in_bytes=8M memory.reclaim=1
1|v1|memory.limit_in_bytes=8M: Invalid argument; the earlier writes were restored|echo EINVAL >memory/a/memory.limit_in_bytes.errno|-|set /a memory.soft_limit_in_bytes=4M memory.limit_in_bytes=8M
1|v1|memory.force_empty=0: Input/output error; the earlier writes were restored|echo EIO >memory/a/memory.force_empty.errno|-|set /a memory.force_empty=0 memory.soft_limit_in_bytes=4M memory.limit_in_bytes=32M
5|bw-v1|cpu.cfs_period_us=[0-9]+: Device or resource busy|echo EBUSY >cpu/a/cpu.cfs_period_us.errno|-|set /a cpu.cfs_quota_us=300000 cpu.cfs_period_us=600000
1|v1|memory.memsw.limit_in_bytes=2147483648: Invalid argument; the previous setting was restored|echo 1000000000000000000 >memory/a/memory.memsw.limit_in_bytes; echo EINVAL >memory/a/memory.memsw.limit_in_bytes.errno|-|mem set /a --soft-limit 32M --limit 2G --memsw-limit 2G
1|v1|Invalid argument; the earlier writes were restored|echo 1000000000000000000 >memory/a/memory.memsw.limit_in_bytes; echo 9999999999999999999 >memory/a/memory.soft_limit_in_bytes; echo EINVAL >memory/a/memory.limit_in_bytes.errno|-|set /a memory.soft_limit_in_bytes=4M memory.memsw.limit_in_bytes=2G memory.limit_in_bytes=1G
2|bw-v1|--cpus: '0x10' is not a positive number of CPUs|:|-|bw set /a --cpus 0x10
2|bw-v1|--cpus: ' 1' is not a positive number of CPUs|:|-|bw set /a --cpus ' 1'
2|bw-v1|--cpus: '1e3' is not a positive number|:|-|bw set /a --cpus 1e3
2|bw-v1|--cpus: 'inf' is not a positive number|:|-|bw set /a --cpus inf
2|bw-v1|--cpus: '-1' is not a positive number|:|-|bw set /a --cpus -1
2|bw-v1|--cpus: '\+2' is not a positive number|:|-|bw set /a --cpus +2
2|bw-v1|--cpus: '0' is not a positive number|:|-|bw set /a --cpus 0
2|v1|--depth: '-1' is not a number of levels|:|-|tree --depth -1
2|v1|--depth: '0x2' is not a number of levels|:|-|tree --depth 0x2
2|v1|--depth: ' 1' is not a number of levels|:|-|tree --depth ' 1'
2|v1|--depth: '' is not a number of levels|:|-|tree --depth ''
2|v1|stdin line 1: a NUL byte is not part of a PID|:|4242\0005001\n|move - /a
2|v1|stdin line 2: a NUL byte is not part of a PID|:|4242\n\0005001\n|move - /a
2|v1|stdin line 1: '42x' is not a PID|:|42x\n|move - /a
2|bw-v1|--duration: '1000h' is not in \(0, 24h\]|:|-|bw predict /a --threads 1 --duration 1000h
2|bw-v1|--duration: '0' is not in|:|-|bw predict /a --threads 1 --duration 0
2|v1|--interval: 10000h: longer than 24h|:|-|watch -i 10000h /a
2|v1|--interval: 1ms: shorter than 10ms|:|-|watch -i 1ms /a
1|v1|/a: memory figures not shown: a memory.\* file is malformed|echo garbage >memory/a/memory.usage_in_bytes|-|stat /a
1|v1|/a: memory figures not shown: a memory.\* file is malformed|echo 12x >memory/a/memory.limit_in_bytes|-|stat /a
1|v2|/a: memory figures not shown: a memory.\* file is malformed|echo lots >a/memory.current|-|stat /a
ROWS
}

rows=0
# rows may span lines (a value with a newline): join a line that does not start a row
catalogue | awk '/^[0-9]+\|/ { if (r != "") print r; r = $0; next } { r = r "\\n" $0 }
	END { if (r != "") print r }' >"$T_TMP/rows"
while IFS='|' read -r want tree pat setup input args; do
	rows=$((rows + 1))
	fixture "$tree"
	(cd "$ROOT/sys/fs/cgroup" && eval "$setup") || fail "row $rows: setup failed: $setup"
	args=$(printf '%b' "$args")
	eval "set -- $args"
	desc="row $rows ($tree: $args)"
	snapshot before
	if [ "$input" = - ]; then
		cg --root="$ROOT" "$@"
	else
		printf "$input" | "$CGCTL" --root="$ROOT" "$@" >"$T_TMP/out" 2>"$T_TMP/err"
		RC=$? OUT=$(cat "$T_TMP/out") ERR=$(cat "$T_TMP/err")
	fi
	expect_rc "$want" "$desc"
	expect_err_line "$desc"
	printf '%s\n' "$ERR" | grep -Eq -- "$pat" && ok || fail "$desc: stderr '$ERR' lacks /$pat/"
	expect_no_out "$desc"
	expect_unchanged "$desc"
done <"$T_TMP/rows"
[ "$rows" -ge 50 ] && ok || fail "only $rows rows read"

# ---- the rollback message keeps both errors apart (cli_strerror used one buffer) ----
SHIM="$top_builddir/tests/helpers/.libs/faultshim.so"
if [ -f "$SHIM" ]; then
	fixture v1
	M="$ROOT/sys/fs/cgroup/memory/a"
	echo EINVAL >"$M/memory.limit_in_bytes.errno"
	# write 1: soft limit (goes through), limit: refused by .errno, write 2: the soft
	# limit's restore, failed by the shim with EBUSY
	FAULT_PREFIX="$ROOT/sys/fs/cgroup" FAULT_NTH=2 FAULT_ACTION=EBUSY \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		LD_PRELOAD="$SHIM" "$CGCTL" --root="$ROOT" set /a memory.soft_limit_in_bytes=4M \
		memory.limit_in_bytes=8M >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$? ERR=$(cat "$T_TMP/err")
	expect_rc 1 "failed rollback"
	expect_err_line "failed rollback"
	case $ERR in
	*"Invalid argument; restoring failed too (memory.soft_limit_in_bytes="*"Device or resource busy); now "*"memory.soft_limit_in_bytes=4M"*) ok ;;
	*) fail "failed rollback message: $ERR" ;;
	esac
else
	fail "tests/helpers/.libs/faultshim.so not built"
fi
echo "bad-input: $rows rows"
done_testing
