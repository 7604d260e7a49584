#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: the path printed back is "/a/b" in every command (tree, stat and get printed
# "02" as typed under --self, "a/b/" as typed without), and `tree --self -d 0` merged
# two hierarchies whose own cgroups differ into one row (the counts of one cgroup under
# the name of both).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v python3 >/dev/null || skip "needs python3"

fixture v2	# our own cgroup: /01
for c in "tree 02" "stat 02" "stat 02/" "get 02 memory.max" "bw show 02" "mem show 02"; do
	# shellcheck disable=SC2086
	cg --root="$ROOT" --json --self $c
	expect_rc 0 "--self $c"
	p=$(json_get 'j["path"] if "path" in j else j["cgroups"][0]["path"]')
	[ "$p" = /02 ] && ok || fail "--self $c: path '$p', want /02"
done
fixture v1
for c in "tree a/b/" "stat a//b" "get a/b/ memory.limit_in_bytes"; do
	# shellcheck disable=SC2086
	cg --root="$ROOT" --json $c
	p=$(json_get 'j["path"] if "path" in j else j["cgroups"][0]["path"]')
	[ "$p" = /a/b ] && ok || fail "$c: path '$p', want /a/b"
done

# our own cgroup differs by hierarchy: memory /01, cpu and cpuacct /a
fixture v1
sed -i 's|^\([0-9]*:cpu[a-z]*:\).*|\1/a|' "$ROOT/proc/self/cgroup"
cg --root="$ROOT" --json --self tree -d 0
expect_rc 0 "--self tree -d 0"
[ "$(json_get '[(c["path"], c["hierarchies"], c["procs"]) for c in j["cgroups"]]')" = \
	"[('/', ['memory'], $(grep -c . "$ROOT/sys/fs/cgroup/memory/01/cgroup.procs")), ('/', ['cpu', 'cpuacct'], $(grep -c . "$ROOT/sys/fs/cgroup/cpu/a/cgroup.procs"))]" ] &&
	ok || fail "--self tree -d 0: one row per own cgroup: $OUT"
cg --root="$ROOT" --self tree -d 0
[ "$(printf '%s\n' "$OUT" | grep -c '^/ ')" = 2 ] && ok || fail "table: $OUT"

done_testing
