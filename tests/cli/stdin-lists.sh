#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A "-" argument reads PATHs (create, delete, stat) or PIDs (move) from stdin: separated
# by any blanks, or NUL-terminated with -z (names with blanks); an empty list does
# nothing and exits 0.
. "$top_srcdir/tests/lib.sh"

# zin FORMAT ARGS...: cgctl ARGS with printf FORMAT (NULs allowed) on stdin
zin() {
	fmt=$1
	shift
	# shellcheck disable=SC2059
	printf "$fmt" | "$CGCTL" "$@" >"$T_TMP/out" 2>"$T_TMP/err"
	RC=$?
	OUT=$(cat "$T_TMP/out")
	ERR=$(cat "$T_TMP/err")
}

fixture v2
CG="$ROOT/sys/fs/cgroup"
zin '/a\n/a/b  /01\n' --root "$ROOT" --json stat -
expect_rc 0 "stat - (blanks)"
[ "$(json_get '[r["path"] for r in j["cgroups"]]')" = "['/a', '/a/b', '/01']" ] && ok ||
	fail "stat - paths: $OUT"
zin '/a\0/01/02\0' --root "$ROOT" -z --json stat -
expect_rc 0 "stat -z -"
[ "$(json_get '[r["path"] for r in j["cgroups"]]')" = "['/a', '/01/02']" ] && ok ||
	fail "stat -z - paths: $OUT"
zin '/a\0/a/b\0' --root "$ROOT" --json stat -
expect_rc 2 "a NUL without -z"
case $ERR in *"use -z"*) ok ;; *) fail "NUL without -z: $ERR" ;; esac

# names with blanks: only -z keeps them whole (control characters are refused)
zin '/x y\0/z  w\0' --root "$ROOT" -z --json create -
expect_rc 0 "create -z -"
[ -d "$CG/x y" ] && [ -d "$CG/z  w" ] && ok || fail "create -z: $(ls "$CG")"
[ "$(json_get '[(c["path"], c["created"]) for c in j["cgroups"]]')" = \
	"[('/x y', True), ('/z  w', True)]" ] && ok || fail "create -z json: $OUT"
zin '/x y\0/z  w\0' --root "$ROOT" --json delete -z -
expect_rc 0 "delete -z - (the option after the command)"
[ ! -e "$CG/x y" ] && ok || fail "delete -z left /x y"

# an empty list: nothing done, exit 0, an empty document
for c in stat create delete; do
	zin '' --root "$ROOT" --json $c -
	expect_rc 0 "$c - with an empty stdin"
	[ "$OUT" = '{"cgroups":[]}' ] && ok || fail "$c - empty: $OUT"
	zin '' --root "$ROOT" -z $c -
	expect_rc 0 "$c -z - with an empty stdin"
done

# PIDs: NUL-terminated records, each exactly one PID
fixture mem-v1
mkdir -p "$ROOT/proc/100"
echo "100 (t) S 1 100 100 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0" >"$ROOT/proc/100/stat"
printf '4:memory:/a\n0::/\n' >"$ROOT/proc/100/cgroup"
zin '100\0' --root "$ROOT" -z --json move --dry-run --no-plan - /c
expect_rc 0 "move -z -"
[ "$(json_get '[m["pid"] for m in j["moves"]]')" = "[100]" ] && ok || fail "move -z: $OUT"
zin '100\n\0' --root "$ROOT" -z move --dry-run --no-plan - /c
expect_rc 2 "move -z: a record with a newline"
expect_err "cgctl: move: stdin record 1: '100\\x0a' is not a PID" "-z record error"
zin '' --root "$ROOT" -z --json move - /c
expect_rc 0 "move -z - with an empty stdin"

done_testing
