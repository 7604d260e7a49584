#!/bin/sh
# Kernel tier: touch N MiB in a scratch memory cgroup (pinned to CPU 0, then unpinned);
# the interval `cgctl mem show` derives from the stock bound must contain the truly
# charged pages, measured by forcing drain_all_stock (a limit one page below usage,
# kernel-memory-model.md 2.7 run 3).
. "$top_srcdir/tests/lib.sh"
require_root
TOUCH="$top_builddir/tests/kernel/mem-touch"
[ -x "$TOUCH" ] || skip "tests/kernel/mem-touch not built"
command -v taskset >/dev/null || skip "no taskset"
MNT=$(mount_of memory)
[ -n "$MNT" ] || skip "no v1 memory hierarchy"

PIDS=""
kill_tasks() { for p in $PIDS; do kill -9 "$p" 2>/dev/null; done; sleep 0.1; }
at_exit kill_tasks

# run_case NAME MIB PIN: start the toucher in a fresh cgroup, check the interval
run_case() {
	scratch cgp memory "cgctl-memint-$1-$$"
	ready="$T_TMP/ready-$1"
	# shellcheck disable=SC2016
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$MNT$cgp" \
		$3 "$TOUCH" "$2" "$ready" &
	PIDS="$PIDS $!"
	i=0
	while [ ! -e "$ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$ready" ] || { fail "$1: toucher did not start"; return; }
	cg --json mem show "$cgp"
	expect_rc 0 "$1: mem show"
	lo=$(json_get 'j["charged"]["min_bytes"]')
	hi=$(json_get 'j["charged"]["max_bytes"]')
	usage=$(cat "$MNT$cgp/memory.usage_in_bytes")
	# force drain_all_stock: the first set fails, the kernel drains, the retry fits
	echo $((usage - 4096)) >"$MNT$cgp/memory.limit_in_bytes" 2>/dev/null
	sleep 0.2
	true_b=$(cat "$MNT$cgp/memory.usage_in_bytes")
	echo -1 >"$MNT$cgp/memory.limit_in_bytes"
	echo "$1: interval [$lo, $hi], usage $usage, after drain $true_b"
	if [ "$true_b" -ge "$lo" ] && [ "$true_b" -le "$hi" ]; then ok; else
		fail "$1: truly charged $true_b outside [$lo, $hi]"
	fi
	want=$((hi - lo))
	[ "$want" -gt 0 ] && ok || fail "$1: empty interval"
}

run_case pinned 16 "taskset -c 0"
run_case unpinned 16 ""
run_case pinned64 64 "taskset -c 0"
done_testing
