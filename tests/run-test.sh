#!/bin/sh
# Test driver wrapper (SH_LOG_COMPILER for tests/*/*.sh, LOG_COMPILER for the unit and
# fuzz-corpus programs), so that `make -j2 check` is safe.  Two locks in $TMPDIR:
#
#  * cgctl-live-tier.lock: kernel-tier tests measure CPU time, throttling and cgroup
#    counters of the live machine, so each holds it exclusively (no other test of any
#    tier runs beside it); every other test holds it shared, so unit, fixture, CLI,
#    fuzz-corpus and VM tests run in parallel with each other and never beside a
#    kernel-tier test.
#  * cgctl-vm-tier.lock: a VM-tier test (two emulated CPUs of qemu TCG, a boot timeout)
#    holds it exclusively: one guest at a time.
#
# A kernel-tier test also starts only once the machine has settled (what an earlier test
# left dying, e.g. a fork storm's two thousand processes, has finished): at most as many
# runnable tasks as CPUs in five samples 100 ms apart, or 30 s passed.
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

if [ "${CGCTL_TEST_NOLOCK:-0}" = 1 ] || ! command -v flock >/dev/null; then
	exec $run "$@"
fi

case $1 in
*/kernel/*)
	exec flock -x "$live" "$sh" -c '
		ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
		quiet=0 waited=0
		while [ $quiet -lt 5 ] && [ $waited -lt 300 ]; do
			# procs_running counts this shell too
			r=$(awk "/^procs_running/ { print \$2 }" /proc/stat 2>/dev/null || echo 0)
			if [ "${r:-0}" -le $((ncpu + 1)) ]; then quiet=$((quiet + 1)); else quiet=0; fi
			sleep 0.1
			waited=$((waited + 1))
		done
		[ $quiet -ge 5 ] || echo "run-test: machine still busy after 30 s ($r runnable)"
		exec "$0" "$@"' "$sh" "$@" ;;
*/vm/*)
	exec flock -x "$vm" flock -s "$live" $run "$@" ;;
esac
exec flock -s "$live" $run "$@"
