#!/bin/sh
# VM tier: boot Debian's 6.1 kernel with cgroup v1 and run tests/vm/guest/*.sh; in the
# same boot, `cgctl validate --sweep --target vm:6.1-v1` from the host
# (vm-validate-sweep.sh, reported as the case validate-sweep), so that 6.1-v1 boots once.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/vm/vmcheck.sh"
vm_check_prereq 6.1-v1
if vm_selected validate-sweep; then
	sh=/bin/bash
	[ -x $sh ] || sh=/bin/sh
	if ! command -v jq >/dev/null; then
		echo "6.1-v1: SKIP validate-sweep: needs jq" >&2
	elif [ ! -x "${CGCTL:-${top_builddir:-.}/src/cgctl}" ]; then
		echo "6.1-v1: SKIP validate-sweep: cgctl not built" >&2
	else
		VM_SWEEP_GUESTS=1 exec $sh "$srcdir/tests/vm/vm-validate-sweep.sh"
	fi
fi
vm_check 6.1-v1
