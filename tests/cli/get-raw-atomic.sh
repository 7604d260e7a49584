#!/bin/sh
# Issue 33: get --raw is all or nothing: when one file cannot be read, nothing of the
# files read before it is printed (one line on stderr, the error's exit code).
. "$top_srcdir/tests/lib.sh"

fixture bw-v1
X=$ROOT/sys/fs/cgroup/cpu/x
# a control file that cannot be read: cpu.stat is a directory here
rm "$X/cpu.stat"
mkdir "$X/cpu.stat"
for raw in --raw ""; do
	cg --root "$ROOT" get $raw /x cpu.cfs_quota_us cpu.cfs_period_us cpu.stat
	expect_rc 1 "get $raw, third file unreadable"
	expect_no_out "get $raw, third file unreadable"
	expect_err "cgctl: get: /x: cpu.stat: is a directory" "get $raw, third file unreadable"
done
cg --root "$ROOT" get --raw /x cpu.cfs_quota_us cpu.cfs_period_us
expect_rc 0 "get --raw, two files"
expect_out "$(printf '%s\n%s' -1 100000)" "get --raw, two files"
done_testing
