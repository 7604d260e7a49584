#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: the bash and zsh completions ignored --self, offered cgroups (/process_api)
# after `get PATH` and commands after `help bw`.  In bash, zsh and fish alike, on the v1
# fixture (--root): --self offers the paths below cgctl's own cgroup (/01: "02"), `get
# PATH` the control files of PATH, `help bw` bw's verbs and `help bw set` nothing.
. "$top_srcdir/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"
mkdir -p "$T_TMP/bin"
ln -s "$CGCTL" "$T_TMP/bin/cgctl"
fixture v1
R=$ROOT

# the candidates of each shell for LINE (its last word completed; a LINE ending in a
# space completes an empty word), one a line
bash_comp() {
	# shellcheck disable=SC2086
	set -- $1 $(case $1 in *" ") echo "''" ;; esac)
	PATH="$T_TMP/bin:$PATH" bash -c '
		. "$1"; shift
		[ "${*: -1}" = "'"''"'" ] && set -- "${@:1:$#-1}" ""
		COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"
		_cgctl; printf "%s\n" "${COMPREPLY[@]}"' \
		sh "$top_srcdir/completions/bash/cgctl" "$@" 2>"$T_TMP/err" | grep .
}
zsh_comp() {
	timeout 30 zsh -f "$top_srcdir/tests/cli/complete.zsh" "$top_srcdir/completions/zsh" \
		"$T_TMP/bin" "$1" 2>"$T_TMP/err" | grep -v '^-'
}
fish_comp() {
	PATH="$T_TMP/bin:$PATH" fish -c "source '$top_srcdir/completions/fish/cgctl.fish'
		complete -C '$1'" 2>"$T_TMP/err" | cut -f1
}
# same SHELL WANT LINE: exactly WANT (words, any order)
same() {
	got=$("${1}_comp" "$3" | sort | tr '\n' ' ')
	want=$([ -z "$2" ] || printf '%s\n' $2 | sort | tr '\n' ' ')
	[ "$got" = "$want" ] && ok || fail "$1: '$3': offered '$got', want '$want'"
}

shells=bash
command -v zsh >/dev/null && zsh -f -c 'zmodload zsh/zpty' 2>/dev/null && shells="$shells zsh"
command -v fish >/dev/null && shells="$shells fish"
files=$(cd "$R/sys/fs/cgroup/memory/a" && ls memory.s*)
cfs=$(cd "$R/sys/fs/cgroup/cpu/01/02" && ls cpu.cfs_*)
for sh in $shells; do
	same $sh "02" "cgctl --root $R --self stat "
	same $sh "/a/b" "cgctl --root $R tree /a/"
	same $sh "$files" "cgctl --root $R get /a memory.s"
	same $sh "$cfs" "cgctl --root $R --self get 02 cpu.cfs_"
	same $sh "set show predict record recommend" "cgctl help bw "
	same $sh "" "cgctl help bw set "
done
echo "# shells: $shells"

done_testing
