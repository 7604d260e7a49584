#!/bin/sh
# cgctl mem set against the v1 (6.18) and v2 (6.12) fixtures: every bad input leaves
# the tree byte-identical with its documented exit code; good writes land in order.
. "$top_srcdir/tests/lib.sh"

M=sys/fs/cgroup/memory
fixture mem-v1

# ---- usage errors (2) ----
bad_input 2 "no setting" --root "$ROOT" mem set /a
bad_input 2 "no path" --root "$ROOT" mem set --limit 1G
bad_input 2 "two paths" --root "$ROOT" mem set /a /c --limit 1G
bad_input 2 "junk size" --root "$ROOT" mem set /a --limit 12X
bad_input 2 "negative size" --root "$ROOT" mem set /a --limit -5
bad_input 2 "empty size" --root "$ROOT" mem set /a --soft-limit ""
bad_input 2 "overflow" --root "$ROOT" mem set /a --limit 99999999999999999999
bad_input 2 "bad mode" --root "$ROOT" mem set /a --move-charge all
bad_input 2 "unknown option" --root "$ROOT" mem set /a --limt 1G
bad_input 2 "memory above memsw" --root "$ROOT" mem set /a --limit 2G --memsw-limit 1G
# ---- not found (4) ----
bad_input 4 "no such cgroup" --root "$ROOT" mem set /nope --limit 1G
# ---- not supported (6) ----
bad_input 6 "move charge on 6.18" --root "$ROOT" mem set /a --move-charge anon
expect_err "cgctl: mem set: /a: memory.move_charge_at_immigrate: this kernel no longer moves charges; removed in 6.13 (kernel 6.18)" "6.13 message"
bad_input 6 "root limit" --root "$ROOT" mem set / --limit 1G
# ---- invalid against the current state, refused before any write (2): memsw limit of
# /lim is 1G ----
bad_input 2 "limit above current memsw" --root "$ROOT" mem set /lim --limit 2G
# ---- the second write fails (ro: memsw limit file is a directory): first restored ----
bad_input 1 "memsw write refused, memory restored" --root "$ROOT" mem set /ro --limit 512M \
	--memsw-limit 2G

# ---- good writes ----
cg --root "$ROOT" mem set /a --limit 1G
expect_rc 0 "limit 1G"
[ "$(cat "$ROOT/$M/a/memory.limit_in_bytes")" = 1073741824 ] && ok || fail "1G not written"
# lower case as the kernel's memparse() takes it (echo 512m > memory.limit_in_bytes)
cg --root "$ROOT" mem set /a --limit 512m
expect_rc 0 "limit 512m"
[ "$(cat "$ROOT/$M/a/memory.limit_in_bytes")" = 536870912 ] && ok || fail "512m not written"
cg --root "$ROOT" mem set --limit max /a
expect_rc 0 "limit max (options first)"
[ "$(cat "$ROOT/$M/a/memory.limit_in_bytes")" = -1 ] && ok || fail "max is -1 on v1"
cg --root "$ROOT" mem set /a --limit 1M
expect_rc 0 "limit below usage"
case "$ERR" in *"drains the per-cpu charge stock, then reclaims"*) ok ;;
	*) fail "no below-usage explanation: $ERR" ;; esac
cg --root "$ROOT" --json mem set /lim --limit 3G --memsw-limit 4G
expect_rc 0 "both limits up (memsw first)"
[ "$(json_get '[w["file"] for w in j["written"]]')" = "['memory.memsw.limit_in_bytes', 'memory.limit_in_bytes']" ] \
	&& ok || fail "raising both must write memsw first: $OUT"
cg --root "$ROOT" --json mem set /lim --limit 1G --memsw-limit 2G
[ "$(json_get '[w["file"] for w in j["written"]]')" = "['memory.limit_in_bytes', 'memory.memsw.limit_in_bytes']" ] \
	&& ok || fail "lowering both must write memory first: $OUT"
[ "$(cat "$ROOT/$M/lim/memory.memsw.limit_in_bytes")" = 2147483648 ] && ok || fail "memsw 2G"

# ---- a kernel that still moves charges ----
echo 6.1.0 >"$ROOT/proc/sys/kernel/osrelease"
cg --root "$ROOT" mem set /a --move-charge anon,file
expect_rc 0 "move charge on 6.1"
[ "$(cat "$ROOT/$M/a/memory.move_charge_at_immigrate")" = 3 ] && ok || fail "3 not written"
echo 2.6.34 >"$ROOT/proc/sys/kernel/osrelease"
bad_input 6 "file bit on 2.6.34" --root "$ROOT" mem set /a --move-charge file

# ---- the v2 knobs on v1: refused, the v1 equivalent named ----
for o in high low min swap-max; do
	bad_input 6 "--$o on v1" --root "$ROOT" mem set /a --$o 1G
	case "$ERR" in *"--$o: not on cgroup v1"*) ok ;; *) fail "--$o on v1: $ERR" ;; esac
done
case "$ERR" in *"--memsw-limit"*) ok ;; *) fail "--swap-max must name --memsw-limit: $ERR" ;; esac
bad_input 6 "--oom-group on v1" --root "$ROOT" mem set /a --oom-group 1
bad_input 2 "--oom-group 2" --root "$ROOT" mem set /a --oom-group 2
bad_input 2 "--oom-group yes" --root "$ROOT" mem set /a --oom-group yes
bad_input 2 "--high junk" --root "$ROOT" mem set /a --high 1Q

# ---- a 19-digit limit is restored as itself, not as unlimited ----
echo 1000000000000000000 >"$ROOT/$M/lim/memory.memsw.limit_in_bytes"
echo 500000000000000000 >"$ROOT/$M/lim/memory.limit_in_bytes"
echo EIO >"$ROOT/$M/lim/memory.limit_in_bytes.errno"
bad_input 1 "memsw up, then memory refused" --root "$ROOT" mem set /lim \
	--memsw-limit 2000000000000000000 --limit 1500000000000000000
case "$ERR" in *"memory.limit_in_bytes=1500000000000000000: "*"previous setting was restored"*) ok ;;
	*) fail "rollback message: $ERR" ;; esac
[ "$(cat "$ROOT/$M/lim/memory.memsw.limit_in_bytes")" = 1000000000000000000 ] && ok ||
	fail "19-digit memsw limit restored as $(cat "$ROOT/$M/lim/memory.memsw.limit_in_bytes")"
rm "$ROOT/$M/lim/memory.limit_in_bytes.errno"

# ---- no swap accounting ----
rm -f "$ROOT/$M"/a/memory.memsw.*
bad_input 6 "memsw without swap accounting" --root "$ROOT" mem set /a --memsw-limit 1G

# ---- v2 ----
fixture mem-v2
bad_input 6 "v2 memsw" --root "$ROOT" mem set /a --memsw-limit 1G
bad_input 6 "v2 soft limit" --root "$ROOT" mem set /a --soft-limit 1G
bad_input 6 "v2 move charge" --root "$ROOT" mem set /a --move-charge anon
cg --root "$ROOT" mem set /a/b --limit 64M
expect_rc 0 "v2 memory.max"
[ "$(cat "$ROOT/sys/fs/cgroup/a/b/memory.max")" = 67108864 ] && ok || fail "v2 max written"
cg --root "$ROOT" mem set /a/b --limit max --move-charge none
expect_rc 0 "v2 max, move-charge none is a no-op"
[ "$(cat "$ROOT/sys/fs/cgroup/a/b/memory.max")" = max ] && ok || fail "v2 'max' written"

# ---- v2 high, low, min, swap.max, oom.group: tighter first, all or nothing ----
V=sys/fs/cgroup/a/b
echo max >"$ROOT/$V/memory.high"
echo 0 >"$ROOT/$V/memory.low"
echo 0 >"$ROOT/$V/memory.min"
echo max >"$ROOT/$V/memory.swap.max"
echo 0 >"$ROOT/$V/memory.oom.group"
cg --root "$ROOT" --json mem set /a/b --low 16M --high 512M --swap-max 0 --oom-group 1
expect_rc 0 "v2 knobs"
[ "$(json_get '[w["file"] for w in j["written"]]')" = "['memory.high', 'memory.swap.max', 'memory.low', 'memory.oom.group']" ] \
	&& ok || fail "v2 order (down first, up last, modes last): $OUT"
[ "$(cat "$ROOT/$V/memory.high") $(cat "$ROOT/$V/memory.low") $(cat "$ROOT/$V/memory.swap.max") $(cat "$ROOT/$V/memory.oom.group")" = \
	"536870912 16777216 0 1" ] && ok || fail "v2 knobs not written"
echo EBUSY >"$ROOT/$V/memory.oom.group.errno"
bad_input 5 "v2 last write refused, all restored" --root "$ROOT" mem set /a/b --high 256M \
	--min 1M --oom-group 0
[ "$(cat "$ROOT/$V/memory.high") $(cat "$ROOT/$V/memory.min")" = "536870912 0" ] && ok ||
	fail "v2 not restored: $(cat "$ROOT/$V/memory.high") $(cat "$ROOT/$V/memory.min")"
rm "$ROOT/$V/memory.oom.group.errno"
rm "$ROOT/$V/memory.min"
bad_input 6 "v2 no memory.min" --root "$ROOT" mem set /a/b --min 1M

done_testing
