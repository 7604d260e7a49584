#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The zsh completion (completions/zsh/_cgctl), driven in a real interactive zsh
# (tests/cli/complete.zsh): --tsv=NAME offers the command's tables after the command
# (wherever --tsv stands) and every command's before it; options of the commands are
# offered, watch --openmetrics among them.
. "$top_srcdir/tests/lib.sh"
command -v zsh >/dev/null || skip "zsh not installed"
[ -x "$CGCTL" ] || skip "cgctl not built"
zsh -f -c 'zmodload zsh/zpty' 2>/dev/null || skip "zsh has no zpty module"
mkdir -p "$T_TMP/bin"
ln -s "$CGCTL" "$T_TMP/bin/cgctl"

# comp LINE: the candidates, one a line
comp() {
	timeout 30 zsh -f "$top_srcdir/tests/cli/complete.zsh" "$top_srcdir/completions/zsh" \
		"$T_TMP/bin" "$1" 2>"$T_TMP/zsh.err"
	r=$?
	[ $r = 0 ] || fail "zsh: '$1': exit $r: $(head -n 3 "$T_TMP/zsh.err")"
}
has() { printf '%s\n' "$2" | grep -qxF -- "$1"; }
check() { has "$1" "$2" && ok || fail "$3: '$1' not offered: $(echo $2)"; }
tables() { "$CGCTL" "$@" --help | sed -n 's/^TSV tables: //p' | tr , ' '; }
# the candidates are exactly WANT (words, any order)
same() {
	a=$(printf '%s\n' $1 | sort) b=$(printf '%s\n' $2 | sort)
	[ "$a" = "$b" ] && ok || fail "$3: offered '$(echo $1)', want '$(echo $2)'"
}

all=""
for c in stat move "mem where" "bw predict" "bw recommend"; do
	# shellcheck disable=SC2086
	want=$(for t in $(tables $c); do echo "--tsv=$t"; done)
	all="$all $want"
	same "$(comp "cgctl $c --tsv=")" "$want" "$c --tsv="
	# a global option after the command's arguments
	same "$(comp "cgctl $c /a --tsv=")" "$want" "$c /a --tsv="
done
same "$(comp "cgctl --tsv=")" "$(printf '%s\n' $all | sort -u)" "--tsv= before the command"
same "$(comp "cgctl -q --tsv=t")" "--tsv=tasks --tsv=throttle --tsv=timeline" "-q --tsv=t"
check --json "$(comp "cgctl --js")" "--js"
check --openmetrics "$(comp "cgctl watch --o")" "watch --o"
check --openmetrics "$(comp "cgctl stat --op")" "stat --op"
check move "$(comp "cgctl --tsv=moves mo")" "a command after --tsv=NAME"
# the harness itself: a line with nothing to offer offers nothing
same "$(comp "cgctl --tsv=nosuch")" "" "--tsv=nosuch"
done_testing
