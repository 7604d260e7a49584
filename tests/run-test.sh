#!/bin/sh
# Test driver wrapper (SH_LOG_COMPILER for tests/*/*.sh, LOG_COMPILER for the unit and
# fuzz-corpus programs), so that `make -j2 check` is safe.  Two locks in $TMPDIR:
#
#  * cgctl-live-tier.lock: a kernel-tier test that measures the live machine (CPU time,
#    throttling, latencies, cgroup counters another test's processes would move) holds it
#    exclusively: no other test of any tier runs beside it.  Every other test holds it
#    shared, so unit, fixture, CLI, fuzz-corpus, VM tests and the kernel-tier tests that
#    measure nothing run in parallel with each other, never beside a measuring one.
#    A kernel-tier test is exclusive unless its first 30 lines carry the line
#        # run-test: shared (WHY it measures nothing another test could disturb)
#  * cgctl-vm-tier.lock: a VM-tier test (two emulated CPUs of qemu TCG, a boot timeout)
#    holds it exclusively: one guest at a time.
#
# An exclusive kernel-tier test also starts only once the machine has settled (what an
# earlier test left dying, e.g. a fork storm's two thousand processes, has finished): at
# most as many runnable tasks as CPUs in five samples 100 ms apart, or 30 s passed.
# The last line of each test's log says how long it ran, waited for its locks and how
# much CPU time its processes took (`make check-times` lists the slowest).
# CGCTL_TEST_NOLOCK=1 runs the test without the locks (a single test by hand).
sh=/bin/bash
[ -x "$sh" ] || sh=/bin/sh
dir=${TMPDIR:-/tmp}
live=$dir/cgctl-live-tier.lock
vm=$dir/cgctl-vm-tier.lock

# how to run $1: a shell script through the shell, anything else (an ELF test program,
# a libtool wrapper) directly
case $1 in
*.sh) run=$sh ;;
*) run= ;;
esac

# The fixture and CLI tier copies fixture trees (~360 files each) hundreds of times:
# 0.35 s of system time a copy on this machine's ext4 /tmp, 0.02 s on a tmpfs.  Its
# scratch files go to /dev/shm when that is a tmpfs and no TMPDIR was chosen (the locks
# stay in /tmp, shared with every other build on the machine).  Not the kernel tier:
# a file there must be page cache of a regular file, not shmem.
case $1 in
*/cli/*)
	if [ -z "${TMPDIR:-}" ] && [ -w /dev/shm ] &&
		[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
		TMPDIR=/dev/shm
		export TMPDIR
	fi ;;
esac

# now: seconds since the epoch with centiseconds
now() { date +%s.%N | cut -c1-13; }
t0=$(now)

if [ "${CGCTL_TEST_NOLOCK:-0}" = 1 ] || ! command -v flock >/dev/null; then
	how=nolock
else
	how=shared
	case $1 in
	*/kernel/*)
		how=exclusive
		head -n 30 "$1" 2>/dev/null | grep -q '^# run-test: shared' && how=shared ;;
	*/vm/*)
		exec 8>>"$vm" && flock -x 8 ;;
	esac
	exec 9>>"$live" || exit 99
	if [ $how = exclusive ]; then
		flock -x 9
		ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
		quiet=0 waited=0
		while [ $quiet -lt 5 ] && [ $waited -lt 300 ]; do
			# procs_running counts this shell too
			r=$(awk '/^procs_running/ { print $2 }' /proc/stat 2>/dev/null || echo 0)
			if [ "${r:-0}" -le $((ncpu + 1)) ]; then quiet=$((quiet + 1)); else quiet=0; fi
			sleep 0.1
			waited=$((waited + 1))
		done
		[ $quiet -ge 5 ] || echo "run-test: machine still busy after 30 s ($r runnable)"
	else
		flock -s 9
	fi
fi

t1=$(now)
# the test does not inherit the lock descriptors (a process it leaves behind must not
# hold a lock); this shell holds them until the test has ended
$run "$@" 8>&- 9>&-
rc=$?
t2=$(now)
# the CPU time of the test's processes (this shell's cutime and cstime, in clock
# ticks), a figure a loaded machine inflates less than the wall time
cpu=$(sed 's/^.*) //' /proc/$$/stat 2>/dev/null |
	awk -v hz="$(getconf CLK_TCK 2>/dev/null || echo 100)" '{ print ($14 + $15) / hz }')
echo "$t0 $t1 $t2 ${cpu:-0}" | awk -v how=$how -v rc=$rc '{
	printf "run-test: %.2f s, exit %d (%s; %.2f s waiting for the locks and a quiet machine; %.2f s CPU)\n",
		$3 - $2, rc, how, $2 - $1, $4 }'
exit $rc
