#!/bin/sh
# Every command and verb that `cgctl help` and `cgctl CMD --help` list is in the README's
# command table and in cgctl(1)'s COMMANDS section, its page named there and under SEE
# ALSO, and the package ships README and NEWS.
# The README has an Install section; what the docs say of libm is what libcgctl.so links.
. "$top_srcdir/tests/lib.sh"

readme="$top_srcdir/README.md"
page="$top_srcdir/man/cgctl.1.scd"

cmds=$("$CGCTL" help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
seealso=$(sed -n '/^# SEE ALSO$/,$p' "$page")
[ -n "$cmds" ] && ok || fail "cgctl help lists no commands"
for c in $cmds; do
	verbs=$("$CGCTL" "$c" --help | sed -n '/^Verbs:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
	# the COMMANDS entry of cgctl(1): "*bw* set|show|predict|..."
	entry=$(sed -n '/^# COMMANDS$/,/^# OUTPUT$/p' "$page" | grep -E "^\*$c\*( |\$)")
	[ -n "$entry" ] && ok || fail "cgctl(1) COMMANDS has no *$c* entry"
	# the entry's paragraph and SEE ALSO name the command's page (help's named none)
	para=$(sed -n '/^# COMMANDS$/,/^# OUTPUT$/p' "$page" |
		awk -v c="*$c*" 'index($0, c) == 1 { p = 1 } p && /^$/ { exit } p')
	printf '%s\n' "$para" | tr '\n' ' ' | grep -qF "*cgctl-$c*(1)" && ok ||
		fail "cgctl(1) COMMANDS: *$c* does not say See *cgctl-$c*(1)"
	printf '%s\n' "$seealso" | grep -qF "*cgctl-$c*(1)" && ok ||
		fail "cgctl(1) SEE ALSO: no *cgctl-$c*(1)"
	if [ -z "$verbs" ]; then
		grep -q "^| \`cgctl $c[ \`]" "$readme" && ok || fail "README's table lacks cgctl $c"
		continue
	fi
	for v in $verbs; do
		grep -q "^| \`cgctl $c $v[ \`]" "$readme" && ok ||
			fail "README's table lacks cgctl $c $v"
		printf '%s\n' "$entry" | grep -Eq "[ |]$v(\||\$| )" && ok ||
			fail "cgctl(1) COMMANDS: *$c* does not name $v"
		printf '%s\n' "$seealso" | grep -qF "*cgctl-$c-$v*(1)" && ok ||
			fail "cgctl(1) SEE ALSO: no *cgctl-$c-$v*(1)"
	done
done
# the Debian package installs the README and NEWS
grep -qx 'README.md' "$top_srcdir/debian/cgctl.docs" && ok || fail "debian/cgctl.docs: no README.md"
grep -qx 'NEWS' "$top_srcdir/debian/cgctl.docs" && ok || fail "debian/cgctl.docs: no NEWS"
# examples in cgctl(1) survive zsh: a jq filter with brackets is quoted
grep -n 'jq [^'"'"'"-][^ ]*\[' "$page" && fail "cgctl(1): unquoted jq filter with [ (zsh globs it)" || ok
# the README says how to install (it had no such section)
grep -qx '## Install' "$readme" && ok || fail "README.md: no '## Install' section"
sed -n '/^## Install$/,/^## /p' "$readme" | grep -q 'make install' && ok ||
	fail "README.md's Install section does not say make install"
# libm: the ChangeLog's newest word on it and libcgctl.pc's Libs.private agree with what
# libcgctl.so links (the ChangeLog said "no longer" while log() had come back)
so="$top_builddir/lib/.libs/libcgctl.so"
if command -v readelf >/dev/null && [ -f "$so" ]; then
	if readelf -d "$so" | grep -q 'NEEDED.*\[libm\.so'; then
		grep -q '^Libs.private:.*-lm' "$top_srcdir/lib/libcgctl.pc.in" && ok ||
			fail "libcgctl.so links libm, libcgctl.pc does not say -lm"
		grep -A1 'libcgctl[^ ]* [a-z ]*links\{0,1\} libm' "$top_srcdir/ChangeLog" | head -2 |
			grep -q 'no longer' && fail "ChangeLog's newest libm entry says no longer; it does" || ok
	else
		grep -q '^Libs.private:.*-lm' "$top_srcdir/lib/libcgctl.pc.in" &&
			fail "libcgctl.pc says -lm, libcgctl.so does not link libm" || ok
	fi
else
	echo "# no readelf or no lib/.libs/libcgctl.so: libm not checked"
fi
done_testing
