#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The ABI of the built libcgctl.so.1 against the baseline kept in the tree
# (lib/libcgctl.abi, written by scripts/update-abi): abidiff (abigail-tools).  Added
# functions and types pass; a change that breaks a program linked against the baseline
# (a removed or changed function, a changed public struct) fails unless the soname was
# bumped past the baseline's.
. "$top_srcdir/tests/lib.sh"
command -v abidiff >/dev/null && command -v abidw >/dev/null ||
	skip "no abidiff / abidw (Debian package abigail-tools)"
so=$(ls "$top_builddir"/lib/.libs/libcgctl.so.1.* 2>/dev/null | head -n 1)
[ -n "$so" ] || skip "no shared library built"
base="$top_srcdir/lib/libcgctl.abi"
[ -f "$base" ] || fail "no ABI baseline $base (scripts/update-abi)"
abidw --no-corpus-path --no-comp-dir-path --drop-private-types \
	--headers-dir "$top_srcdir/lib" --header-file "$top_srcdir/lib/libcgctl.h" \
	--out-file "$T_TMP/now.abi" "$so" || fail "abidw failed on $so"
abidiff --no-added-syms "$base" "$T_TMP/now.abi" >"$T_TMP/diff" 2>&1
rc=$?
# abidiff's exit status is a bit field: 1 error, 2 usage, 4 ABI change, 8 incompatible
[ $((rc & 3)) = 0 ] && ok || fail "abidiff failed ($rc): $(head -5 "$T_TMP/diff")"
soname() { sed -n 's/.*soname=.\([^"'"'"']*\).*/\1/p' "$1" | head -n 1; }
old=$(soname "$base") new=$(soname "$T_TMP/now.abi")
echo "# baseline $old, built $new; abidiff status $rc"
if [ $((rc & 8)) != 0 ] && [ "$old" = "$new" ]; then
	fail "an incompatible ABI change without a soname bump ($new):"
	sed -n 1,40p "$T_TMP/diff" >&2
else
	ok
fi
# the change that is compatible (rc 4) is reported, not failed
[ $((rc & 4)) != 0 ] && sed -n 1,15p "$T_TMP/diff" | sed 's/^/# /'
done_testing
