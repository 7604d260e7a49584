#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `cgctl mem where` on the live kernel: formats, PIDs from stdin, one error line per
# failed PID with exit 8 (partial) or the PID's own status, and the unprivileged view
# (PFNs hidden: owner, shmem, thp unknown and printed as null, never guessed).
# run-test: shared (formats and errors of mem where on its own helper; no time)
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require_root
helper="$top_builddir/tests/helpers/pagescan-toucher"
[ -x "$helper" ] || skip "$helper not built"
[ -x "$CGCTL" ] || skip "$CGCTL not built"
[ -r /proc/kpagecgroup ] || skip "no /proc/kpagecgroup"
command -v python3 >/dev/null || skip "needs python3"

H=""
stop_helper() {
	exec 9>&-
	[ -n "$H" ] && kill -9 "$H" 2>/dev/null
	return 0
}
at_exit stop_helper

# start [RUNAS...] -- ARGS: the helper (optionally through setpriv); sets H
start() {
	rm -f "$T_TMP/in" "$T_TMP/ready"
	mkfifo "$T_TMP/in"
	chmod 644 "$T_TMP/in"
	"$@" <"$T_TMP/in" >"$T_TMP/ready" &
	exec 9>"$T_TMP/in"
	for _ in $(seq 300); do
		grep -q '^ready' "$T_TMP/ready" 2>/dev/null && break
		sleep 0.1
	done
	H=$(awk '/^ready/ { print $2 }' "$T_TMP/ready")
	[ -n "$H" ] || { fail "helper did not start"; done_testing; }
}

# a PID that does not exist: beyond pid_max
nopid=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
[ "$nopid" -le 4194304 ] || nopid=4194303

start "$helper" -a 16
self=$(self_cgroup memory)

cg --json mem where "$H"
expect_rc 0 "json"
[ "$(json_get "[t['pid'] for t in j['tasks']]")" = "[$H]" ] && ok || fail "json pid"
n=$(json_get "sum(c['anon_exclusive_bytes'] for c in j['tasks'][0]['charged'] if c['cgroup'] == '$self')")
[ "$n" -ge $((16 * 1048576)) ] && ok || fail "16 MiB anon in $self: $n"
keys=$(json_get "sorted(j['tasks'][0]['charged'][0].keys())")
expect_out_has '"swap_bytes"' "json swap_bytes"
[ "$keys" = "['anon_exclusive_bytes', 'anon_shared_bytes', 'bytes', 'cgroup', 'file_bytes', 'ino', 'shmem_bytes', 'thp_bytes']" ] &&
	ok || fail "json keys: $keys"

cg --tsv mem where "$H"
expect_rc 0 "tsv"
[ "$(printf '%s\n' "$OUT" | head -n 1)" = "$(printf 'pid\tcgroup\tbytes\tanon_exclusive_bytes\tanon_shared_bytes\tfile_bytes\tshmem_bytes\tthp_bytes')" ] &&
	ok || fail "tsv header: $(printf '%s\n' "$OUT" | head -n 1)"

cg mem where --inodes "$H"
expect_rc 0 "human"
expect_out_has "$self" "human table names the cgroup"
expect_out_has "INODE" "--inodes column"

# PIDs from stdin, one of them bad: rows for the good one, one error line, exit 8
cg_in "$H
$nopid
" --json mem where -
expect_rc 8 "partial"
expect_err_line "partial"
expect_out_has "\"pid\":$H" "partial keeps the good PID"
case "$ERR" in *"$nopid"*"no such process"*) ok ;; *) fail "error line: $ERR" ;; esac

cg mem where "$nopid"
expect_rc 4 "only a missing PID"
expect_err_line "only a missing PID"
expect_no_out "only a missing PID"

cg mem where notapid
expect_rc 2 "bad PID is a usage error"

stop_helper

# unprivileged: PFNs are hidden, the owner is unknown and said so
if nobody_runs_cgctl && setpriv --reuid=65534 --regid=65534 --clear-groups \
	test -x "$helper" 2>/dev/null; then
	start setpriv --reuid=65534 --regid=65534 --clear-groups "$helper" -a 8
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CGCTL" --json mem where "$H" \
		>"$T_TMP/out" 2>"$T_TMP/err"
	RC=$? OUT=$(cat "$T_TMP/out") ERR=$(cat "$T_TMP/err")
	expect_rc 0 "unprivileged"
	[ "$(json_get "j['tasks'][0]['unknown']")" = "['owner', 'shmem', 'thp', 'mapcount']" ] &&
		ok || fail "unprivileged unknown: $OUT"
	[ "$(json_get "[c['cgroup'] for c in j['tasks'][0]['charged']]")" = "[None]" ] &&
		ok || fail "unprivileged cgroup must be null: $OUT"
	[ "$(json_get "j['tasks'][0]['charged'][0]['thp_bytes']")" = None ] && ok ||
		fail "unprivileged thp must be null"
	n=$(json_get "j['tasks'][0]['charged'][0]['anon_exclusive_bytes']")
	[ "$n" -ge $((8 * 1048576)) ] && ok || fail "unprivileged anon exclusive: $n"
	stop_helper
else
	echo "note: unprivileged part skipped (no setpriv or build not readable by nobody)"
fi
done_testing
