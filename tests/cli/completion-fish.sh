#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fish completion (completions/fish/cgctl.fish), driven by fish's own `complete -C`
# on fixture trees: every command, verb and option that --help shows is offered, option
# values, cgroup paths of every hierarchy (no symbolic links), PIDs, control files and
# validate's scenarios.
. "$top_srcdir/tests/lib.sh"
command -v fish >/dev/null || skip "fish not installed (apt-get install fish)"
[ -x "$CGCTL" ] || skip "cgctl not built"

comp="$top_srcdir/completions/fish/cgctl.fish"
v1="$top_srcdir/tests/fixtures/v1"
v2="$top_srcdir/tests/fixtures/v2"
mkdir -p "$T_TMP/bin" "$T_TMP/home"
# the completion runs `cgctl`: the one under test, first in PATH
ln -s "$CGCTL" "$T_TMP/bin/cgctl"

# complete LINE...: "== LINE" then fish's candidates for each (word, tab, description)
complete_lines() {
	HOME="$T_TMP/home" XDG_CONFIG_HOME="$T_TMP/home" XDG_DATA_HOME="$T_TMP/home" \
		PATH="$T_TMP/bin:$PATH" fish -N -c '
		source $argv[1]; or exit 1
		for l in $argv[2..-1]
			echo "== $l"
			complete -C"$l"
		end' "$comp" "$@" 2>"$T_TMP/fish.err"
}
# offered LINE WORD: WORD is among the candidates of LINE (from $T_TMP/out)
offered() {
	awk -v l="== $1" -v w="$2" '
		/^== / { on = ($0 == l); next }
		on { sub(/\t.*/, ""); if ($0 == w) f = 1 }
		END { exit !f }' "$T_TMP/out"
}
expect() { offered "$1" "$2" && ok || fail "'$1': '$2' not offered"; }
expect_not() { offered "$1" "$2" && fail "'$1': '$2' offered" || ok; }

# every command, verb and option of --help
cmds=$("$CGCTL" help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$cmds" ] && ok || fail "cgctl help lists no commands"
lines="cgctl"
for c in $cmds; do
	verbs=$("$CGCTL" "$c" --help | sed -n '/^Verbs:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
	for v in ${verbs:-""}; do lines="$lines|cgctl $c${v:+ $v}"; done
done
IFS='|'
# shellcheck disable=SC2086
set -f
set -- $(echo "$lines" | sed 's/[^|]*/& -/g') $(echo "$lines" | sed 's/[^|]*/& /g')
set +f
unset IFS
# the TSV tables (--tsv=NAME) and -o columns each command's --help lists
tables_of() { "$CGCTL" "$@" --help | sed -n 's/^TSV tables: //p' | tr , ' '; }
columns_of() { "$CGCTL" "$@" --help | sed -n '/^Columns (-o):$/,/^$/s/^  \([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' '; }
[ "$(tables_of stat)" = "cgroups processes" ] && ok || fail "stat --help tables: $(tables_of stat)"
[ "$(tables_of move)" = "moves throttle" ] && ok || fail "move --help tables"
[ "$(tables_of bw predict)" = "summary timeline" ] && ok || fail "bw predict --help tables"
case " $(columns_of tree) " in *" PATH "*" USAGE "*) ok ;; *) fail "tree --help columns" ;; esac
complete_lines "$@" "cgctl " "cgctl mem " "cgctl bw " "cgctl help " "cgctl st" \
	"cgctl mem set --move-charge " "cgctl validate pcp" \
	"cgctl --root $v1 stat /" "cgctl --root $v1 stat /a/" "cgctl --root $v1 tree -c " \
	"cgctl --root $v2 stat /" "cgctl --root $v1 move " "cgctl --root $v1 mem where 4" \
	"cgctl --root $v1 get /a memory.l" "cgctl --root $v1 set /a memory.l" \
	"cgctl --root $v1 create -c memory /" "cgctl -" "cgctl --tsv=" "cgctl stat -o PATH,U" \
	"cgctl stat --tsv=" "cgctl move --tsv=" "cgctl mem where --tsv=" "cgctl bw predict --tsv=" "cgctl bw recommend --tsv=" \
	"cgctl stat -o " "cgctl move -o " "cgctl mem where -o " "cgctl watch -o " "cgctl tree --output " \
	>"$T_TMP/out"
[ -s "$T_TMP/fish.err" ] && fail "fish wrote errors: $(head -n 5 "$T_TMP/fish.err")" || ok

for o in $("$CGCTL" --help | sed -n '/^Global options:/,$p' | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
do
	expect "cgctl -" "$o"
done
for c in $cmds; do
	expect "cgctl " "$c"
	expect "cgctl help " "$c"
	verbs=$("$CGCTL" "$c" --help | sed -n '/^Verbs:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
	for v in ${verbs:-""}; do
		[ -n "$v" ] && expect "cgctl $c " "$v"
		# shellcheck disable=SC2086
		for o in $("$CGCTL" $c $v --help | sed -n '/^Options:/,$p' |
			grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
			expect "cgctl $c${v:+ $v} -" "$o"
		done
	done
done
expect_not "cgctl " "--no-plan"		# a command's option is not a global one
expect "cgctl st" stat
for m in none anon file anon,file; do expect "cgctl mem set --move-charge " "$m"; done
expect "cgctl validate pcp" pcp-lists

# global -z/--null; --tsv=NAME: every table of the command (before it: of all);
# -o/--output: every column, and after a comma
expect "cgctl -" -z
expect "cgctl -" --null
for c in stat move "mem where" "bw predict" "bw recommend"; do
	# shellcheck disable=SC2086
	for t in $(tables_of $c); do
		expect "cgctl $c --tsv=" "--tsv=$t"
		expect "cgctl --tsv=" "--tsv=$t"
	done
done
expect_not "cgctl stat --tsv=" --tsv=throttle
for c in stat move "mem where" watch; do
	# shellcheck disable=SC2086
	for col in $(columns_of $c); do expect "cgctl $c -o " "$col"; done
done
for col in $(columns_of tree); do expect "cgctl tree --output " "$col"; done
expect "cgctl stat -o PATH,U" PATH,USAGE
expect_not "cgctl stat -o PATH,U" PATH,PATH

# cgroup paths of every hierarchy, hierarchy-absolute, no symbolic links
expect "cgctl --root $v1 stat /" /a
expect "cgctl --root $v1 stat /" /01
expect_not "cgctl --root $v1 stat /" /link
expect "cgctl --root $v1 stat /a/" /a/b
expect_not "cgctl --root $v1 stat /a/" /01
for c in memory cpu cpuacct; do expect "cgctl --root $v1 tree -c " $c; done
expect "cgctl --root $v2 stat /" /a
expect "cgctl --root $v1 create -c memory /" /a
# PIDs of the fixture's /proc, and - for standard input
expect "cgctl --root $v1 move " 4242
expect "cgctl --root $v1 move " -
expect "cgctl --root $v1 move " /a
expect "cgctl --root $v1 mem where 4" 4242
expect_not "cgctl --root $v1 mem where 4" /a
# control files of the cgroup named first; set offers FILE=
expect "cgctl --root $v1 get /a memory.l" memory.limit_in_bytes
expect "cgctl --root $v1 set /a memory.l" memory.limit_in_bytes=
done_testing
