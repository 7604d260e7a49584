#!/bin/sh
# Issue 33: move --tree run by a user who may move nothing of the tree (nobody, into a
# cgroup whose cgroup.procs only root may write): one line, exit 3 (permission), not a
# partial move (8) with its stragglers and a proc connector warning.  The plain move of
# the same PID exits 3 too.
# run-test: shared (permission refusals of its own nobody sleepers; no time, no counter)
. "$top_srcdir/tests/lib.sh"

require_root
nobody_runs_cgctl || skip "user nobody cannot run $CGCTL (setpriv missing or build tree closed)"
scratch dst memory cgctl-noperm-$$
mnt=$(mount_of memory)

# a tree of three processes owned by nobody: a shell and two sleeps
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'sleep 60 & sleep 60 & wait' &
root=$!
kids=""
kill_tree() {
	for p in $kids; do kill "$p" 2>/dev/null; done
	sleep 0.2
	kill "$root" 2>/dev/null
	wait 2>/dev/null
}
at_exit kill_tree
for _ in 1 2 3 4 5 6 7 8 9 10; do
	kids=$(cat "/proc/$root/task/$root/children" 2>/dev/null)
	[ "$(echo $kids | wc -w)" = 2 ] && break
	sleep 0.1
done
[ "$(echo $kids | wc -w)" = 2 ] || skip "the test tree did not start"

asnobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CGCTL" "$@" \
		>"$T_TMP/out" 2>"$T_TMP/err" </dev/null
	RC=$?
	OUT=$(cat "$T_TMP/out")
	ERR=$(cat "$T_TMP/err")
}

for tree in --tree ""; do
	asnobody move -c memory $tree "$root" "$dst"
	expect_rc 3 "move $tree as nobody"
	expect_err_line "move $tree as nobody"
	expect_no_out "move $tree as nobody"
	case $ERR in *"permission denied"*) ok ;; *) fail "move $tree: '$ERR'" ;; esac
done
[ -z "$(cat "$mnt$dst/cgroup.procs")" ] && ok || fail "something moved: $(cat "$mnt$dst/cgroup.procs")"
done_testing
