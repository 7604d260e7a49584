#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The installed libcgctl.so never runs, nor names, a file of the tree it was built in
# (issue 28: an installed package ran the packager's tests/vm/run-vm, whose path was
# compiled in).  The library is installed stripped (make install-strip, as a package
# ships it; its debug info, which names the build directory by design, goes to a -dbgsym
# package) into a scratch DESTDIR, and no string in it holds the source or build path.
. "$top_srcdir/tests/lib.sh"
command -v strings >/dev/null || skip "no strings (binutils)"
[ -f "$top_builddir/lib/libcgctl.la" ] || skip "no library built"
dest="$T_TMP/inst"
make -s -C "$top_builddir" install-libLTLIBRARIES DESTDIR="$dest" \
	INSTALL_STRIP_FLAG=-s >"$T_TMP/install.log" 2>&1 ||
	fail "make install-libLTLIBRARIES failed: $(tail -3 "$T_TMP/install.log")"
so=$(find "$dest" -name 'libcgctl.so.*.*' -type f | head -n 1)
[ -n "$so" ] && ok || fail "no libcgctl.so installed below $dest"
src=$(cd "$top_srcdir" && pwd -P)
bld=$(cd "$top_builddir" && pwd -P)
for p in "$src" "$bld" "$top_srcdir" "$top_builddir"; do
	hits=$(strings -a "$so" | grep -F -- "$p" | head -3)
	[ -z "$hits" ] && ok || fail "$so names the build path $p: $hits"
done
done_testing
