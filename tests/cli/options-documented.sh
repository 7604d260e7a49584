#!/bin/sh
# Every option that `cgctl [CMD [VERB]] --help` shows must be in the man page and in the
# command's block of the bash and zsh completions; every command has a man page with
# NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS, EXAMPLES and SEE ALSO.
. "$top_srcdir/tests/lib.sh"

man="$top_srcdir/man"
bash_comp="$top_srcdir/completions/bash/cgctl"
zsh_comp="$top_srcdir/completions/zsh/_cgctl"

opts_of() { grep -o -- '--[a-z][a-z0-9-]*' | sort -u; }

# block FILE NAME: the lines of FILE between "# --- begin NAME" and "# --- end NAME"
block() { sed -n "/# --- begin $2\$/,/# --- end $2\$/p" "$1"; }

check_cmd() { # check_cmd NAME (e.g. "create", "bw set")
	key=$(echo "$1" | tr ' ' -)
	page="$man/cgctl-$key.1.scd"
	[ -f "$page" ] || page="$man/cgctl-${key%%-*}.1.scd"
	if [ ! -f "$page" ]; then
		fail "$1: no man page (man/cgctl-$key.1.scd)"
		return
	fi
	ok
	bb=$(block "$bash_comp" "$key")
	zb=$(block "$zsh_comp" "$key")
	[ -n "$bb" ] && ok || fail "$1: no '# --- begin $key' block in the bash completion"
	[ -n "$zb" ] && ok || fail "$1: no '# --- begin $key' block in the zsh completion"
	# shellcheck disable=SC2086
	for o in $("$CGCTL" $1 --help | opts_of); do
		grep -q -- "$o" "$page" && ok || fail "$1: $o missing from $(basename "$page")"
		printf '%s\n' "$bb" | grep -q -- "$o" && ok || fail "$1: $o missing from bash completion"
		printf '%s\n' "$zb" | grep -q -- "$o" && ok || fail "$1: $o missing from zsh completion"
	done
}

# global options
for o in $("$CGCTL" --help | sed -n '/^Global options:/,$p' | opts_of); do
	grep -q -- "$o" "$man/cgctl.1.scd" && ok || fail "global $o missing from cgctl.1.scd"
	grep -q -- "$o" "$bash_comp" && ok || fail "global $o missing from bash completion"
	grep -q -- "$o" "$zsh_comp" && ok || fail "global $o missing from zsh completion"
done

cmds=$("$CGCTL" help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$cmds" ] || fail "cgctl help lists no commands"
for c in $cmds; do
	verbs=$("$CGCTL" "$c" --help | sed -n '/^Verbs:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
	if [ -n "$verbs" ]; then
		for v in $verbs; do check_cmd "$c $v"; done
	else
		check_cmd "$c"
	fi
	grep -q "$c" "$man/cgctl.1.scd" && ok || fail "$c not listed in cgctl.1.scd"
done
# every command's page has the sections a user looks for (cgctl(1): GLOBAL OPTIONS)
for page in "$man"/cgctl*.1.scd; do
	for sec in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -Eq "^# (GLOBAL )?$sec\$" "$page" && ok ||
			fail "$(basename "$page"): no $sec section"
	done
done
done_testing
