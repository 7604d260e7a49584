#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The knob table (lib/kernel/knobs.c) is the one list of interface files: `cgctl set
# --help` prints it (cgctl_knob_file()), cgctl-set(1) lists the same files in "KNOWN
# FILES", the bash completion offers each as FILE= after set's PATH, and the zsh and
# fish completions read the same --help line.
. "$top_srcdir/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"
knobs=$("$CGCTL" set --help | sed -n 's/^Knobs (FILE=): //p' | tr , '\n')
n=$(printf '%s\n' "$knobs" | grep -c .)
[ "$n" -ge 25 ] && ok || fail "set --help lists $n knob files"
for f in memory.limit_in_bytes memory.max cpu.cfs_quota_us cpu.max pids.max; do
	printf '%s\n' "$knobs" | grep -qxF "$f" && ok || fail "$f not in the table"
done

# the man page: the files of its KNOWN FILES section, *name* each, are the table's
man=$(sed -n '/^# KNOWN FILES/,/^# /p' "$top_srcdir/man/cgctl-set.1.scd" |
	grep -o '\*[a-z][a-z0-9_.]*\*' | tr -d '*' | sort -u)
[ "$(printf '%s\n' "$knobs" | sort -u)" = "$man" ] && ok ||
	fail "cgctl-set(1) KNOWN FILES differs from the table: $(printf '%s\n' "$knobs" |
		sort -u | diff - "$(printf '%s\n' "$man" >"$T_TMP/man"; echo "$T_TMP/man")" | head -5)"

# bash: after PATH, every knob as FILE=
if command -v bash >/dev/null; then
	mkdir -p "$T_TMP/bin"
	ln -s "$CGCTL" "$T_TMP/bin/cgctl"
	got=$(PATH="$T_TMP/bin:$PATH" bash -c '
		. "$1"; COMP_WORDS=(cgctl set /a ""); COMP_CWORD=3; COMP_LINE="cgctl set /a "
		_cgctl; printf "%s\n" "${COMPREPLY[@]}"' sh "$top_srcdir/completions/bash/cgctl")
	for f in $knobs; do
		printf '%s\n' "$got" | grep -qxF "$f=" && ok || fail "bash: $f= not offered"
	done
	# the first argument is still the cgroup
	got=$(PATH="$T_TMP/bin:$PATH" bash -c '
		. "$1"; COMP_WORDS=(cgctl set memory.); COMP_CWORD=2; _cgctl
		printf "%s\n" "${COMPREPLY[@]}"' sh "$top_srcdir/completions/bash/cgctl")
	printf '%s\n' "$got" | grep -q '=$' && fail "bash: knobs offered for PATH: $got" || ok
fi
# zsh and fish read the same line
grep -q 'Knobs (FILE=)' "$top_srcdir/completions/zsh/_cgctl" && ok || fail "zsh ignores the table"
grep -q 'Knobs (FILE=)' "$top_srcdir/completions/fish/cgctl.fish" && ok || fail "fish ignores the table"
done_testing
