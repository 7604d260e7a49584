#!/bin/sh
# libcgctl(3) lists every exported function with its return convention, as the header
# and the version script have them now (scripts/gen-libcgctl-functions --update).
. "$top_srcdir/tests/lib.sh"
command -v python3 >/dev/null || skip "no python3"
if out=$(python3 "$top_srcdir/scripts/gen-libcgctl-functions" --check 2>&1); then ok; else
	fail "$out"
fi
n=$(grep -c '^\*cgctl\\_' "$top_srcdir/man/libcgctl.3.scd")
s=$(sed -e 's|/\*.*\*/||' "$top_srcdir/lib/libcgctl.sym" | grep -cE '^[[:space:]]*cgctl_[a-z0-9_]+;')
[ "$n" = "$s" ] && ok || fail "libcgctl(3) lists $n functions, the library exports $s"
done_testing
