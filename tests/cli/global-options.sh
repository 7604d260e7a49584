#!/bin/sh
# Global options anywhere (before or after the command, not after "--"), -v / -vv, and
# no library line on stderr without -v.
. "$top_srcdir/tests/lib.sh"

fixture bw-v1
cg --root "$ROOT" --json bw show /a
expect_rc 0 "--json before"
before=$OUT
cg bw show /a --json --root "$ROOT"
expect_rc 0 "--json and --root after the command"
[ "$OUT" = "$before" ] && ok || fail "same document either way: $OUT"
cg bw show --root="$ROOT" /a --tsv
expect_rc 0 "--root= and --tsv after"
case "$OUT" in path"	"version*) ok ;; *) fail "tsv after the command: $OUT" ;; esac
cg --root "$ROOT" bw show /a -- --json
expect_rc 2 "nothing after -- is an option"
expect_err_line "after --"

# -v: what is written; -vv counts (popt once counted -v once)
cg --root "$ROOT" -v bw set /a --quota 60ms
expect_rc 0 "-v bw set"
case "$ERR" in *"write "*"cpu.cfs_quota_us = 60000: ok"*) ok ;; *) fail "-v: $ERR" ;; esac
cg --root "$ROOT" bw set /a --quota 70ms -vv
expect_rc 0 "-vv after the command"
case "$ERR" in *"cgctl: bw set: write "*) ok ;; *) fail "-vv: $ERR" ;; esac
# twice -v is debug: the cgroup lock's line is one only -vv shows
case "$ERR" in *"debug: cgroup lock of /a taken"*) ok ;; *) fail "-vv, no debug: $ERR" ;; esac
cg --root "$ROOT" bw set /a --quota 80ms
expect_rc 0 "quiet by default"
[ -z "$ERR" ] && ok || fail "no -v, yet stderr: $ERR"

# a broken mount map: one line without -v, the library's reason with it
echo garbage >>"$ROOT/cgctl-mounts"
cg --root "$ROOT" bw show /a
expect_rc 1 "broken map"
expect_err_line "broken map: one line"
cg --root "$ROOT" bw show /a -v
case "$ERR" in *"cgctl-mounts:"*"expected"*) ok ;; *) fail "-v says why: $ERR" ;; esac
done_testing
