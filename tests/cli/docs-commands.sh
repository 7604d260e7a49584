#!/bin/sh
# Every command and verb that `cgctl help` and `cgctl CMD --help` list is in the README's
# command table and in cgctl(1)'s COMMANDS section, and the package ships README and NEWS.
. "$top_srcdir/tests/lib.sh"

readme="$top_srcdir/README.md"
page="$top_srcdir/man/cgctl.1.scd"

cmds=$("$CGCTL" help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$cmds" ] && ok || fail "cgctl help lists no commands"
for c in $cmds; do
	verbs=$("$CGCTL" "$c" --help | sed -n '/^Verbs:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
	# the COMMANDS entry of cgctl(1): "*bw* set|show|predict|..."
	entry=$(sed -n '/^# COMMANDS$/,/^# OUTPUT$/p' "$page" | grep -E "^\*$c\*( |\$)")
	[ -n "$entry" ] && ok || fail "cgctl(1) COMMANDS has no *$c* entry"
	if [ -z "$verbs" ]; then
		grep -q "^| \`cgctl $c[ \`]" "$readme" && ok || fail "README's table lacks cgctl $c"
		continue
	fi
	for v in $verbs; do
		grep -q "^| \`cgctl $c $v[ \`]" "$readme" && ok ||
			fail "README's table lacks cgctl $c $v"
		printf '%s\n' "$entry" | grep -Eq "[ |]$v(\||\$| )" && ok ||
			fail "cgctl(1) COMMANDS: *$c* does not name $v"
	done
done
# the Debian package installs the README and NEWS
grep -qx 'README.md' "$top_srcdir/debian/cgctl.docs" && ok || fail "debian/cgctl.docs: no README.md"
grep -qx 'NEWS' "$top_srcdir/debian/cgctl.docs" && ok || fail "debian/cgctl.docs: no NEWS"
# examples in cgctl(1) survive zsh: a jq filter with brackets is quoted
grep -n 'jq [^'"'"'"-][^ ]*\[' "$page" && fail "cgctl(1): unquoted jq filter with [ (zsh globs it)" || ok
done_testing
