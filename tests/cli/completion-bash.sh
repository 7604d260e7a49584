#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion (completions/bash/cgctl) offers what --help lists: the column
# names after -o/--output (after a comma too) and the TSV tables after --tsv= (whether
# or not bash splits the word at "="): the command's after it, every command's before.
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

# a column a line under "Columns (-o):" ("  NAME  meaning")
cols() { "$CGCTL" "$@" --help | sed -n '/^Columns (-o):$/,/^$/s/^  \([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' '; }
tables() { "$CGCTL" "$@" --help | sed -n 's/^TSV tables: //p' | tr , ' '; }

for c in stat tree move "mem where" watch; do
	# shellcheck disable=SC2086
	got=$(comp cgctl $c -o "")
	# shellcheck disable=SC2086
	n=0; for col in $(cols $c); do check "$col" "$got" "$c -o"; n=$((n + 1)); done
	[ $n -gt 3 ] && ok || fail "$c --help lists $n columns"
done
got=$(comp cgctl stat --output PATH,U)
check PATH,USAGE "$got" "stat --output PATH,U"
has PATH,PATH "$got" && fail "stat --output PATH,U offers PATH,PATH" || ok
for c in stat move "mem where" "bw predict" "bw recommend"; do
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
# before the command: every command's tables (cgctl(1) --tsv)
all=$(for c in stat move "mem where" "bw predict" "bw recommend"; do tables $c; done)
got=$(comp cgctl --tsv=)
split=$(comp cgctl --tsv = "")
n=0
for t in $all; do
	check "--tsv=$t" "$got" "--tsv= before the command"
	check "$t" "$split" "--tsv = before the command"
	n=$((n + 1))
done
[ $n -ge 8 ] && ok || fail "only $n tables: $all"
[ "$(printf '%s\n' "$got" | wc -l)" = "$(printf '%s\n' $all | sort -u | wc -l)" ] && ok ||
	fail "--tsv= before the command: not each table once: $(echo $got)"
got=$(comp cgctl -q --tsv=t)
[ "$(echo $got)" = "--tsv=tasks --tsv=throttle --tsv=timeline" ] && ok || fail "--tsv=t: $got"
# the table word after "--tsv =" is not taken for the command
got=$(comp cgctl --tsv = throttle move --s)
[ "$got" = --sample ] && ok || fail "--tsv = throttle move --s: $got"
got=$(comp cgctl --tsv = throttle stat --tsv = "")
[ "$(echo $got)" = "cgroups processes" ] && ok || fail "stat's tables after --tsv = NAME: $got"
check --openmetrics "$(comp cgctl watch --o)" "watch --o"
got=$(comp cgctl bw predict --tsv = t)
[ "$got" = timeline ] && ok || fail "bw predict --tsv=t: $got"
[ -s "$T_TMP/bash.err" ] && fail "bash wrote errors: $(head -n 3 "$T_TMP/bash.err")" || ok
done_testing
