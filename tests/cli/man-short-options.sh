#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: short options keep one meaning across commands, and the spellings retired
# for it (delete -r, watch -n, mem where -i, bench -r/-t/-d, validate -r/-l, bw record
# -o) are refused.  The man pages still showed them in their synopses and text.  Every
# short option a command's page names (*-X*) must be one its --help lists (or a global
# one); "no *-X*" is a page saying the option does not exist.  *-n 1* (watch) and *-r 5*
# (validate) had slipped through: the check read only *-X* alone.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"

"$CGCTL" --help >"$T_TMP/global" 2>&1
n=0
for f in "$top_srcdir"/man/cgctl-*.1.scd; do
	c=$(basename "$f" .1.scd)
	c=$(printf '%s' "${c#cgctl-}" | tr - ' ')
	{
		cat "$T_TMP/global"
		# shellcheck disable=SC2086
		"$CGCTL" $c --help 2>/dev/null
		# shellcheck disable=SC2086
		for v in $("$CGCTL" $c --help 2>/dev/null |
			awk '/^Verbs:/ { on = 1; next } on && /^  [a-z]/ { print $1 } /^$/ { on = 0 }'); do
			"$CGCTL" $c "$v" --help 2>/dev/null
		done
	} >"$T_TMP/help"
	# *-X* alone, or with its argument inside the asterisks (*-n 1*)
	for s in $(sed 's/no \*-[a-zA-Z]\*//g' "$f" | grep -o '\*-[a-zA-Z]\( [^*]*\)\{0,1\}\*' |
		cut -c2-3 | sort -u); do
		n=$((n + 1))
		grep -q -- "^  $s, --" "$T_TMP/help" && ok ||
			fail "$(basename "$f"): $s is no option of 'cgctl $c' (--help)"
	done
done
[ "$n" -gt 10 ] && ok || fail "only $n short options in the man pages: the check reads nothing?"

done_testing
