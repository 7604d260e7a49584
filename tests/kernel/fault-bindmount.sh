#!/bin/sh
# Kernel tier, confinement: a bind mount over a cgroup directory or over a cgroup's
# cgroup.procs is never followed, read or written; not by get/set, and not by move's
# attach (lib/kernel/attach.c goes through cgfs.c's mount checks).  The mounts are made
# and removed beneath our own memory cgroup.
. "$top_srcdir/tests/lib.sh"
require_root
command -v mount >/dev/null && command -v umount >/dev/null || skip "needs mount(8)"

mem=$(mount_of memory)
[ -n "$mem" ] || skip "needs a v1 memory hierarchy"
self=$(self_cgroup memory)
base="${self%/}/cgctl-bind-$$"
dir="$mem$base"
mkdir "$dir" "$dir/victim" "$dir/target" || skip "cannot create cgroups below $self"
MOUNTS=""
unmount_all() {
	for m in $MOUNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
	MOUNTS=""
}
cleanup() {
	unmount_all
	for d in "$dir/victim" "$dir/target" "$dir"; do
		for pid in $(cat "$d/cgroup.procs" 2>/dev/null); do
			kill -9 "$pid" 2>/dev/null
			echo "$pid" >"$mem${self}/cgroup.procs" 2>/dev/null
		done
	done
	[ -n "${SLEEPER:-}" ] && kill -9 "$SLEEPER" 2>/dev/null
	sleep 0.1
	rmdir "$dir/victim" "$dir/target" "$dir" 2>/dev/null
	true
}
at_exit cleanup

echo 12345678 >"$dir/victim/memory.soft_limit_in_bytes"
sleep 300 &
SLEEPER=$!
R="--root="

# ---- a bind mount of another cgroup over the victim's directory ----
mount --bind "$dir/target" "$dir/victim" || skip "cannot bind-mount on cgroupfs"
MOUNTS="$dir/victim"
target_before=$(cat "$dir/target/memory.soft_limit_in_bytes")

cg -c memory get "$base/victim" memory.soft_limit_in_bytes
[ "$RC" != 0 ] && ok || fail "get followed a bind-mounted cgroup: $OUT"
expect_err_line "get through a bind mount"
cg set "$base/victim" memory.soft_limit_in_bytes=4096
[ "$RC" != 0 ] && ok || fail "set wrote through a bind-mounted cgroup"
expect_err_line "set through a bind mount"
[ "$(cat "$dir/target/memory.soft_limit_in_bytes")" = "$target_before" ] && ok ||
	fail "set changed the cgroup mounted over the victim"
cg move --no-plan "$SLEEPER" "$base/victim"
[ "$RC" != 0 ] && ok || fail "move attached through a bind-mounted cgroup"
grep -qx "$SLEEPER" "$dir/target/cgroup.procs" && fail "move put the task in the mounted-over cgroup" || ok
unmount_all

# ---- a bind mount over the victim's cgroup.procs alone (attach.c opened it itself) ----
decoy="$T_TMP/decoy.procs"
: >"$decoy"
mount --bind "$decoy" "$dir/victim/cgroup.procs" || skip "cannot bind-mount a file on cgroupfs"
MOUNTS="$dir/victim/cgroup.procs"
cg move --no-plan "$SLEEPER" "$base/victim"
[ "$RC" != 0 ] && ok || fail "move wrote through a bind-mounted cgroup.procs (rc 0)"
expect_err_line "move through a bind-mounted cgroup.procs"
[ ! -s "$decoy" ] && ok || fail "the PID was written to the file mounted over cgroup.procs"
unmount_all

mount --bind "$dir/target/cgroup.procs" "$dir/victim/cgroup.procs" ||
	skip "cannot bind-mount a cgroup file"
MOUNTS="$dir/victim/cgroup.procs"
cg move --no-plan "$SLEEPER" "$base/victim"
[ "$RC" != 0 ] && ok || fail "move wrote through another cgroup's cgroup.procs"
grep -qx "$SLEEPER" "$dir/target/cgroup.procs" && fail "the task landed in the mounted-over cgroup" || ok
unmount_all

# without the mounts the same move works (the refusals above were the mounts)
cg move --no-plan "$SLEEPER" "$base/victim"
expect_rc 0 "move without a bind mount"
grep -qx "$SLEEPER" "$dir/victim/cgroup.procs" && ok || fail "task not in the victim after a plain move"
done_testing
