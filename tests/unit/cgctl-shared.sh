#!/bin/sh
# cgctl runs on the shared libcgctl it installs: the binary needs libcgctl.so.1, and each
# libcgctl name it takes from a shared library is exported by lib/libcgctl.sym
# (versioned LIBCGCTL_*), none from the library's internals, and it defines none of them.
. "$top_srcdir/tests/lib.sh"
command -v readelf >/dev/null && command -v nm >/dev/null || skip "no readelf or nm"
# src/cgctl is libtool's wrapper script; the program is src/.libs/cgctl (lt-cgctl once run)
bin=""
for b in "$top_builddir/src/.libs/cgctl" "$top_builddir/src/.libs/lt-cgctl" \
	 "$top_builddir/src/cgctl"; do
	if [ -f "$b" ] && readelf -h "$b" >/dev/null 2>&1; then bin=$b; break; fi
done
[ -n "$bin" ] || fail "no cgctl ELF binary below $top_builddir/src"

readelf -d "$bin" | grep -q 'NEEDED.*\[libcgctl\.so\.1\]' && ok ||
	fail "$bin does not need libcgctl.so.1 (linked against the internal library?)"

sed -e 's|/\*.*\*/||' "$top_srcdir/lib/libcgctl.sym" | tr -d ' \t' |
	grep -E '^[a-z_][a-z0-9_]*;$' | tr -d ';' | sort -u >"$T_TMP/script"
# the names cgctl takes from shared libraries that look like libcgctl's own
nm -D --undefined-only "$bin" | awk '{ print $NF }' |
	grep -E '^(cgctl_|ps_|json_|strbuf_|fmt_)' | sort -u >"$T_TMP/undef"
[ -s "$T_TMP/undef" ] && ok || fail "$bin takes no cgctl_* symbol from a shared library"
sed 's/@.*//' "$T_TMP/undef" | sort -u >"$T_TMP/names"
comm -23 "$T_TMP/names" "$T_TMP/script" >"$T_TMP/outside"
if [ -s "$T_TMP/outside" ]; then
	fail "cgctl references names outside lib/libcgctl.sym: $(tr '\n' ' ' <"$T_TMP/outside")"
else
	ok
fi
grep -v '@LIBCGCTL_' "$T_TMP/undef" >"$T_TMP/unversioned"
if [ -s "$T_TMP/unversioned" ]; then
	fail "unversioned references: $(tr '\n' ' ' <"$T_TMP/unversioned")"
else
	ok
fi
# and defines none of libcgctl's exports itself: a static copy linked in from an
# internal library (lib/libcgctl-memcg.la, ...) would take cgctl's calls away from the
# library's, and show as a defined dynamic symbol
nm -D --defined-only "$bin" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$T_TMP/defined"
comm -12 "$T_TMP/defined" "$T_TMP/script" >"$T_TMP/copies"
if [ -s "$T_TMP/copies" ]; then
	fail "cgctl defines its own copies of exports: $(tr '\n' ' ' <"$T_TMP/copies")"
else
	ok
fi
done_testing
