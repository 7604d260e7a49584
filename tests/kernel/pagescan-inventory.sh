#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Page inventory on the live kernel: a helper in a scratch memory cgroup (below our own)
# touches known amounts of memory; `cgctl --json mem where` must attribute >= 99% of its
# anon pages to that cgroup, classify pages shared with a forked child as anon shared,
# pages of a mapped regular file as file, shared anonymous memory as shmem, and (when
# the kernel gave THPs) at least the AnonHugePages of smaps_rollup as thp.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require_root
helper="$top_builddir/tests/helpers/pagescan-toucher"
[ -x "$helper" ] || skip "$helper not built"
[ -x "$CGCTL" ] || skip "$CGCTL not built"
[ -r /proc/kpagecgroup ] || skip "no /proc/kpagecgroup (CONFIG_MEMCG off?)"
command -v python3 >/dev/null || skip "needs python3"

mnt=$(mount_of memory)
scratch cg memory "pagescan-$$"
H=""

stop_helper() {
	exec 9>&-
	[ -n "$H" ] && kill -9 "$H" 2>/dev/null
	return 0
}
at_exit stop_helper

# start ARGS...: the helper inside $cg; sets H to its PID
start() {
	stop_helper
	rm -f "$T_TMP/in" "$T_TMP/ready"
	mkfifo "$T_TMP/in"
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$mnt$cg" "$helper" "$@" \
		<"$T_TMP/in" >"$T_TMP/ready" &
	exec 9>"$T_TMP/in"
	for _ in $(seq 300); do
		grep -q '^ready' "$T_TMP/ready" 2>/dev/null && break
		sleep 0.1
	done
	H=$(awk '/^ready/ { print $2 }' "$T_TMP/ready")
	[ -n "$H" ] || { fail "helper $* did not start"; done_testing; }
}

# pick FIELD: FIELD summed over the charged rows of cgroup $cg, then over all rows
mine() { json_get "sum(c['$1'] or 0 for c in j['tasks'][0]['charged'] if c['cgroup'] == '$cg')"; }
all() { json_get "sum(c['$1'] or 0 for c in j['tasks'][0]['charged'])"; }

# at_least DESC VALUE MIN
at_least() {
	if [ "$2" -ge "$3" ]; then ok; else fail "$1: $2 < $3"; fi
}

MIB=1048576

# 1. 64 MiB of private anon: >= 99% of it attributed to the scratch cgroup
start -a 64
cg --json mem where "$H"
expect_rc 0 "anon: exit"
a_mine=$(mine anon_exclusive_bytes)
a_all=$(all anon_exclusive_bytes)
at_least "anon in $cg" "$a_mine" $((64 * MIB * 99 / 100))
at_least "anon share in $cg (x100)" $((a_mine * 100)) $((a_all * 99))
[ "$(json_get "j['tasks'][0]['task_cgroup']")" = "$cg" ] && ok || fail "task_cgroup"
[ "$(json_get "j['tasks'][0]['unknown']")" = "[]" ] && ok || fail "unknown figures as root"

# 2. 32 MiB shared with a forked child: anon shared, not exclusive
start -s 32
cg --json mem where "$H"
expect_rc 0 "shared: exit"
at_least "anon shared in $cg" "$(mine anon_shared_bytes)" $((32 * MIB * 99 / 100))
ex=$(mine anon_exclusive_bytes)
[ "$ex" -lt $((MIB * 4)) ] && ok || fail "shared pages counted exclusive: $ex"

# 3. a mapped 16 MiB regular file (not on tmpfs): file pages; shmem stays apart
dir="$top_builddir"
fstype=$(stat -f -c %T "$dir")
[ "$fstype" = tmpfs ] && dir=/var/tmp
dd if=/dev/urandom of="$dir/pagescan-file.$$" bs=1M count=16 status=none
rm_file() { rm -f "$dir/pagescan-file.$$"; }
at_exit rm_file
start -f "$dir/pagescan-file.$$" -m 8
cg --json mem where "$H"
expect_rc 0 "file: exit"
if [ "$(stat -f -c %T "$dir")" != tmpfs ]; then
	at_least "file pages" "$(all file_bytes)" $((16 * MIB * 99 / 100))
fi
at_least "shmem in $cg" "$(mine shmem_bytes)" $((8 * MIB * 99 / 100))

# 4. THP: at least what smaps_rollup calls AnonHugePages, all in whole PMD folios
start -a 64 -t
huge=$(awk '/^AnonHugePages:/ { print $2 * 1024 }' "/proc/$H/smaps_rollup")
cg --json mem where "$H"
expect_rc 0 "thp: exit"
at_least "thp pages" "$(mine thp_bytes)" "$huge"
at_least "thp anon in $cg" "$(mine anon_exclusive_bytes)" $((64 * MIB * 99 / 100))

stop_helper
done_testing
