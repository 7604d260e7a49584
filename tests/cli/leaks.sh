#!/bin/sh
# Issue 33: what LeakSanitizer finds in cgctl's option and stdin parsing, with leak
# detection on whatever the test environment says: a repeated string option (popt leaves
# the value it replaces to the caller) and a NUL byte in a line of a "-" list.
. "$top_srcdir/tests/lib.sh"
# only an ASan build can see a leak
if ! ldd "$CGCTL" 2>/dev/null | grep -q libasan; then skip "cgctl is not built with ASan"; fi
fixture v1

# leak_free NAME ARGS...: cgctl ARGS exits as it would and LeakSanitizer reports nothing
leak_free() {
	name=$1
	shift
	ASAN_OPTIONS=detect_leaks=1:exitcode=23 "$CGCTL" "$@" >/dev/null 2>"$T_TMP/err"
	rc=$?
	if grep -q 'LeakSanitizer' "$T_TMP/err" || [ "$rc" = 23 ]; then
		fail "$name: leaks: $(grep -E 'SUMMARY|#1 ' "$T_TMP/err" | head -3)"
	else
		ok
	fi
}

leak_free "bw set --quota twice" --root "$ROOT" bw set /01 --quota 50ms --quota 60ms
leak_free "mem set --limit twice" --root "$ROOT" mem set /01 --limit 1M --limit 2M
leak_free "--root twice" --root "$ROOT" --root "$ROOT" get /01 memory.limit_in_bytes
leak_free "get -o twice" --root "$ROOT" tree -o PATH -o PATH /
printf '/01\0/02\n' >"$T_TMP/nul"
ASAN_OPTIONS=detect_leaks=1:exitcode=23 "$CGCTL" --root "$ROOT" stat - <"$T_TMP/nul" \
	>/dev/null 2>"$T_TMP/err"
rc=$?
if grep -q 'LeakSanitizer' "$T_TMP/err" || [ "$rc" = 23 ]; then
	fail "stat - with a NUL in a line leaks: $(grep SUMMARY "$T_TMP/err")"
else
	ok
fi
[ "$rc" = 2 ] && ok || fail "stat - with a NUL in a line: exit $rc, not 2"
done_testing
