#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion (completions/bash/cgctl) offers what --help lists: the column
# names after -o/--output (after a comma too) and the TSV tables after --tsv= (whether
# or not bash splits the word at "=").
. "$top_srcdir/tests/lib.sh"
command -v bash >/dev/null || skip "bash not installed"
[ -x "$CGCTL" ] || skip "cgctl not built"
mkdir -p "$T_TMP/bin"
ln -s "$CGCTL" "$T_TMP/bin/cgctl"

# comp WORD...: the candidates bash's _cgctl gives for the words (the last is completed),
# without bash-completion's _init_completion (COMP_WORDS as given)
comp() {
	PATH="$T_TMP/bin:$PATH" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"
		_cgctl; printf "%s\n" "${COMPREPLY[@]}"' \
		sh "$top_srcdir/completions/bash/cgctl" "$@" 2>"$T_TMP/bash.err"
}
# has WORD CANDIDATES: WORD is a line of CANDIDATES
has() { printf '%s\n' "$2" | grep -qxF -- "$1"; }
check() { has "$1" "$2" && ok || fail "$3: '$1' not offered: $(echo $2)"; }

cols() { "$CGCTL" "$@" --help | sed -n 's/^Columns (-o): //p' | tr , ' '; }
tables() { "$CGCTL" "$@" --help | sed -n 's/^TSV tables: //p' | tr , ' '; }

for c in stat tree move "mem where"; do
	# shellcheck disable=SC2086
	got=$(comp cgctl $c -o "")
	# shellcheck disable=SC2086
	n=0; for col in $(cols $c); do check "$col" "$got" "$c -o"; n=$((n + 1)); done
	[ $n -gt 3 ] && ok || fail "$c --help lists $n columns"
done
got=$(comp cgctl stat --output PATH,U)
check PATH,USAGE "$got" "stat --output PATH,U"
has PATH,PATH "$got" && fail "stat --output PATH,U offers PATH,PATH" || ok
for c in stat move "mem where" "bw predict"; do
	# shellcheck disable=SC2086
	got=$(comp cgctl $c --tsv=)
	# shellcheck disable=SC2086
	split=$(comp cgctl $c --tsv = "")
	# shellcheck disable=SC2086
	for t in $(tables $c); do
		check "--tsv=$t" "$got" "$c --tsv="
		check "$t" "$split" "$c --tsv ="
	done
done
got=$(comp cgctl bw predict --tsv = t)
[ "$got" = timeline ] && ok || fail "bw predict --tsv=t: $got"
[ -s "$T_TMP/bash.err" ] && fail "bash wrote errors: $(head -n 3 "$T_TMP/bash.err")" || ok
done_testing
