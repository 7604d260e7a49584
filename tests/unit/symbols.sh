#!/bin/sh
# The shared library exports exactly the names of lib/libcgctl.sym, each is declared in
# lib/libcgctl.h and defined with CGCTL_EXPORT.
. "$top_srcdir/tests/lib.sh"
so=$(ls "$top_builddir"/lib/.libs/libcgctl.so.* 2>/dev/null | head -n 1)
[ -n "$so" ] || skip "no shared library built"
command -v nm >/dev/null || skip "no nm"

nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | sed 's/@.*//' |
	grep -v '^LIBCGCTL_' | sort -u >"$T_TMP/exported"
sed -e 's|/\*.*\*/||' "$top_srcdir/lib/libcgctl.sym" | tr -d ' \t' |
	grep -E '^[a-z_][a-z0-9_]*;$' | tr -d ';' | sort -u >"$T_TMP/script"
if diff -u "$T_TMP/script" "$T_TMP/exported" >"$T_TMP/d"; then ok; else
	fail "exported symbols differ from lib/libcgctl.sym (- script, + library):"
	grep '^[-+][a-z]' "$T_TMP/d" >&2
fi
# every CGCTL_EXPORT definition is in the script (a missing one would be silently hidden)
find "$top_srcdir/lib" -name '*.c' -exec awk '
	/^CGCTL_EXPORT/ { want = 1 }
	want && match($0, /cgctl_[a-z0-9_]+ *\(/) {
		s = substr($0, RSTART, RLENGTH); sub(/ *\(/, "", s); print s; want = 0
	}' {} + | sort -u >"$T_TMP/marked"
if diff -u "$T_TMP/script" "$T_TMP/marked" >"$T_TMP/d2"; then ok; else
	fail "CGCTL_EXPORT definitions differ from lib/libcgctl.sym (- script, + marked):"
	grep '^[-+][a-z]' "$T_TMP/d2" >&2
fi
for s in $(cat "$T_TMP/script"); do
	grep -q "\\b$s\\b" "$top_srcdir/lib/libcgctl.h" && ok || fail "$s not declared in libcgctl.h"
done
done_testing
