#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 33: `cgctl validate --keep` with two scenarios runs both: the second found the
# scratch base cgctl-validate-PID the first kept and failed ("cannot create
# /cgctl-validate-PID: File exists").  What --keep kept is removed here.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "cgctl not built"
cpu=$(mount_of cpu)
[ -n "$cpu" ] || skip "no v1 cpu hierarchy"

scratch_dirs() { find "$cpu" -maxdepth 6 -type d -name 'cgctl-validate-*' 2>/dev/null | sort; }
scratch_dirs >"$T_TMP/before"
# what this test's cgctl kept: the scratch directories that were not there before
remove_kept() {
	scratch_dirs | comm -13 "$T_TMP/before" - | while read -r d; do
		find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
}
at_exit remove_kept

cg validate --repeat 1 --keep bw-quota-50-1t bw-small-quota
case $RC in
0 | 7) ok ;;	# 7: a verdict differs on a loaded machine; both scenarios ran
*) fail "validate --keep of two scenarios: exit $RC: $ERR" ;;
esac
case $ERR in
*"File exists"*) fail "the second scenario could not make its scratch: $ERR" ;;
*) ok ;;
esac
kept=$(scratch_dirs | comm -13 "$T_TMP/before" - | while read -r d; do
	find "$d" -mindepth 1 -maxdepth 1 -type d; done | wc -l)
[ "$kept" -ge 2 ] && ok || fail "--keep kept $kept scenario cgroups, expected both scenarios'"
done_testing
