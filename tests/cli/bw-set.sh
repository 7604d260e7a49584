#!/bin/sh
# cgctl bw set against the v1 (6.18) and v2 (6.12) fixtures: every EINVAL rule of
# kernel-cpu-bandwidth-model.md 7.2 is refused before any write (tree unchanged, one
# line naming the rule); good settings are written in the safe order of 7.3, unchanged
# values are not rewritten, and a failed write restores the previous setting.
. "$top_srcdir/tests/lib.sh"

C=sys/fs/cgroup/cpu
fixture bw-v1
q() { cat "$ROOT/$C$1/cpu.cfs_quota_us"; }
p() { cat "$ROOT/$C$1/cpu.cfs_period_us"; }
b() { cat "$ROOT/$C$1/cpu.cfs_burst_us"; }

# ---- usage errors (2) ----
bad_input 2 "nothing to set" --root "$ROOT" bw set /x
bad_input 2 "no path" --root "$ROOT" bw set --quota 50ms
bad_input 2 "quota and cpus" --root "$ROOT" bw set --quota 50ms --cpus 1 /x
bad_input 2 "quota and unlimited" --root "$ROOT" bw set --quota 50ms --unlimited /x
bad_input 2 "period -1" --root "$ROOT" bw set --period -1 /x
bad_input 2 "period abc" --root "$ROOT" bw set --period abc /x
bad_input 2 "quota 50000x" --root "$ROOT" bw set --quota 50000x /x
bad_input 2 "sub-microsecond" --root "$ROOT" bw set --quota 1500ns /x
bad_input 2 "cpus junk" --root "$ROOT" bw set --cpus 0.5x /x
bad_input 2 "cpus zero" --root "$ROOT" bw set --cpus 0 /x
# ---- not found (4) ----
bad_input 4 "no such cgroup" --root "$ROOT" bw set --quota 50ms /nope

# ---- every EINVAL of 7.2, refused before writing: nothing changed (2) ----
einval() { # einval DESC MESSAGE ARGS...
	d=$1; msg=$2; shift 2
	bad_input 2 "$d" --root "$ROOT" bw set "$@"
	case "$ERR" in *"$msg"*) ok ;; *) fail "$d: message '$ERR' lacks '$msg'" ;; esac
}
einval "root" "the root cgroup's CPU bandwidth cannot be set" --quota 50ms /
einval "period 999" "period 999us is below the minimum 1000us" --quota 50ms --period 999 /x
einval "period 1000001" "exceeds the maximum 1000000us" --quota 50ms --period 1000001 /x
einval "period 0" "period 0us is below" --quota 50ms --period 0 /x
einval "quota 999" "quota 999us is below the minimum" --quota 999 /x
einval "quota 0" "quota 0us is below the minimum" --quota 0 /x
einval "quota 2^44" "exceeds the maximum 17592186044415us" --quota 17592186044416 /x
einval "burst > quota" "burst 50001us exceeds quota 50000us" --quota 50000 --burst 50001 /x
einval "quota below burst" "burst 20000us exceeds quota 10000us" --quota 10000 /y
einval "quota + burst > MAX_BW" "exceeds the maximum" --quota 17592186044415 --burst 1 /x
einval "child 0.6 under 0.5" "0.6 CPU exceeds parent /a's 0.5 CPU; cgroup v1 requires child ≤ parent" --quota 60000 /a/d
einval "child 100001/200000" "exceeds parent /a's 0.5 CPU" --quota 100001 --period 200000 /a/d
einval "child 100000/199999 (integer ratio)" "exceeds parent /a's" --quota 100000 --period 199999 /a/d
einval "lower parent below child" "0.3 CPU is below descendant /a/b/c's 0.4 CPU" --quota 30ms /a
einval "grandchild via unlimited child" "exceeds ancestor /a's 0.5 CPU" --quota 60ms /a/b/c

# ---- accepted, with the files written ----
cg --root "$ROOT" --json bw set --quota 1000 --period 1000 /x
expect_rc 0 "quota 1000 period 1000"
[ "$(q /x) $(p /x)" = "1000 1000" ] && ok || fail "1000/1000 not written: $(q /x) $(p /x)"
cg --root "$ROOT" bw set --unlimited --burst 99999999 /x
expect_rc 0 "any burst while unlimited"
[ "$(q /x) $(b /x)" = "-1 99999999" ] && ok || fail "-1 burst 99999999: $(q /x) $(b /x)"
bad_input 2 "quota 1000 with that burst" --root "$ROOT" bw set --quota 1000 /x
cg --root "$ROOT" bw set --quota 17592186044415 --burst 0 --period 1000000 /x
expect_rc 0 "MAX_BW quota"
[ "$(q /x) $(p /x) $(b /x)" = "17592186044415 1000000 0" ] && ok || fail "MAX_BW: $(q /x)"

# scaling up under a 0.5 parent: period first (quota first would pass 4 CPUs)
cg --root "$ROOT" --json bw set --quota 400ms --period 800ms /a/d
expect_rc 0 "400/800 under 0.5"
[ "$(json_get '[w["file"] for w in j["written"]]')" = "['cpu.cfs_period_us', 'cpu.cfs_quota_us']" ] && ok || fail "scaling up must write the period first: $OUT"
[ "$(q /a/d) $(p /a/d)" = "400000 800000" ] && ok || fail "400000/800000 not written"
# and back down: quota first
cg --root "$ROOT" --json bw set --quota 50ms --period 100ms /a/d
[ "$(json_get '[w["file"] for w in j["written"]]')" = "['cpu.cfs_quota_us', 'cpu.cfs_period_us']" ] && ok || fail "scaling down must write the quota first: $OUT"
# --cpus and unchanged values: only the quota file is written
cg --root "$ROOT" --json bw set --cpus 0.25 --period 100ms /a/d
[ "$(json_get '[w["value"] for w in j["written"]]')" = "[25000]" ] && ok ||
	fail "--cpus 0.25: only the quota should be written: $OUT"
cg --root "$ROOT" --json bw set --quota 25ms /a/d
[ "$(json_get 'j["written"]')" = "[]" ] && ok || fail "an unchanged value was rewritten: $OUT"
# burst: lowered before the quota, raised after it
cg --root "$ROOT" --json bw set --quota 10ms --burst 5ms /y
[ "$(json_get '[w["file"] for w in j["written"]]')" = "['cpu.cfs_burst_us', 'cpu.cfs_quota_us']" ] && ok || fail "burst must go down first: $OUT"
cg --root "$ROOT" --json bw set --quota 30ms --burst 30ms /y
[ "$(json_get '[w["file"] for w in j["written"]]')" = "['cpu.cfs_quota_us', 'cpu.cfs_burst_us']" ] && ok || fail "burst must go up last: $OUT"
# no two-write path: /a/b/c at 0.4 under /a/b (unlimited) under /a 0.5 -> 225ms/500ms
cg --root "$ROOT" bw set --quota 40ms /a/b
expect_rc 0 "/a/b at 0.4"
cg --root "$ROOT" --json bw set --quota 225ms --period 500ms /a/b
expect_rc 0 "0.4 -> 0.45 between 0.4 and 0.5"
# (unlimited, -1 written to the v1 quota, is null as get prints it)
[ "$(json_get '[w["value"] for w in j["written"]]')" = "[None, 500000, 225000]" ] && ok ||
	fail "expected the quota -1 detour: $OUT"
# no order avoids it (the valid quotas at 100ms, 40-50ms, and at 500ms, 200-250ms, do not
# meet): the one line says what a SIGKILL can leave
case "$ERR" in *"/a/b: no order of writes avoids an unlimited quota"*"SIGKILL"*) ok ;;
	*) fail "the detour must be said: $ERR" ;; esac
# one does when the grandchild leaves room: /a 0.5 > /a/b 0.3 > /a/b/c 0.25, /a/b to
# 90ms/200ms (quota first 0.9, period first 0.15: both refused): a third quota, 50ms,
# is valid with both periods, so quota, period, quota and never -1
echo 30000 >"$ROOT/$C/a/b/cpu.cfs_quota_us"
echo 100000 >"$ROOT/$C/a/b/cpu.cfs_period_us"
echo 25000 >"$ROOT/$C/a/b/c/cpu.cfs_quota_us"
cg --root "$ROOT" --json bw set --quota 90ms --period 200ms /a/b
expect_rc 0 "0.3 -> 0.45 without the detour"
[ "$(json_get '[(w["file"], w["value"]) for w in j["written"]]')" = "[('cpu.cfs_quota_us', 50000), ('cpu.cfs_period_us', 200000), ('cpu.cfs_quota_us', 90000)]" ] && ok ||
	fail "expected quota 50000, period, quota without -1: $OUT"
[ -z "$ERR" ] && ok || fail "no detour, nothing to say: $ERR"
[ "$(q /a/b) $(p /a/b)" = "90000 200000" ] && ok || fail "90000/200000: $(q /a/b) $(p /a/b)"

# ---- a write fails: the previous setting is restored ----
# 25ms/100ms -> 80ms/200ms: the period goes first, then the quota write fails
echo EINVAL >"$ROOT/$C/a/d/cpu.cfs_quota_us.errno"
before="$(q /a/d) $(p /a/d)"
cg --root "$ROOT" bw set --quota 80ms --period 200ms /a/d
expect_rc 1 "quota write refused"
expect_err_line "quota write refused"
expect_no_out "quota write refused"
case "$ERR" in *"cpu.cfs_quota_us: "*"previous setting was restored"*) ok ;;
	*) fail "rollback message: $ERR" ;; esac
[ "$(q /a/d) $(p /a/d)" = "$before" ] && ok || fail "not restored: $(q /a/d) $(p /a/d)"
# the period write itself fails: nothing to restore
mv "$ROOT/$C/a/d/cpu.cfs_quota_us.errno" "$ROOT/$C/a/d/cpu.cfs_period_us.errno"
bad_input 1 "period write refused" --root "$ROOT" bw set --quota 80ms --period 200ms /a/d
rm "$ROOT/$C/a/d/cpu.cfs_period_us.errno"
echo EACCES >"$ROOT/$C/a/d/cpu.cfs_quota_us.errno"
bad_input 3 "first write refused (permission)" --root "$ROOT" bw set --quota 20ms /a/d
rm "$ROOT/$C/a/d/cpu.cfs_quota_us.errno"

# ---- a broken cgroup elsewhere (v1 fixture: /ro/cpu.cfs_quota_us is a directory) ----
# no rule of a write to /a or /01 involves /ro: it does not stop them
fixture v1
cg --root "$ROOT" bw set --quota 40ms /a
expect_rc 0 "bw set /a beside a broken /ro"
[ "$(q /a)" = 40000 ] && ok || fail "/a quota: $(q /a)"
cg --root "$ROOT" set /01 cpu.cfs_quota_us=30000
expect_rc 0 "set /01 beside a broken /ro"
[ "$(q /01)" = 30000 ] && ok || fail "/01 quota: $(q /01)"
# a broken descendant is needed by the check of its ancestor: named with its file
mkdir -p "$ROOT/$C/a/b/cpu.cfs_period_us.d" && rm "$ROOT/$C/a/b/cpu.cfs_period_us" &&
	mv "$ROOT/$C/a/b/cpu.cfs_period_us.d" "$ROOT/$C/a/b/cpu.cfs_period_us"
bad_input 1 "broken descendant" --root "$ROOT" bw set --quota 45ms /a
case "$ERR" in *"/a/b/cpu.cfs_period_us: "*) ok ;; *) fail "name the file: $ERR" ;; esac
[ "$(q /a)" = 40000 ] && ok || fail "/a changed: $(q /a)"

# ---- v2 ----
fixture bw-v2
V=sys/fs/cgroup
bad_input 2 "v2 root" --root "$ROOT" bw set --quota 50ms /
bad_input 2 "v2 burst > quota" --root "$ROOT" bw set --burst 60ms /a
cg --root "$ROOT" bw set --quota 90ms /a/b
expect_rc 0 "v2: a child above its parent is accepted"
[ "$(cat "$ROOT/$V/a/b/cpu.max")" = "90000 100000" ] && ok || fail "cpu.max: $(cat "$ROOT/$V/a/b/cpu.max")"
cg --root "$ROOT" --json bw set --quota 10ms --burst 5ms /y
[ "$(json_get '[(w["file"], w["value"]) for w in j["written"]]')" = "[('cpu.max.burst', 5000), ('cpu.max', '10000 100000')]" ] && ok ||
	fail "v2 order: $OUT"
cg --root "$ROOT" bw set --unlimited /y
[ "$(cat "$ROOT/$V/y/cpu.max")" = "max 100000" ] && ok || fail "v2 max"
done_testing
