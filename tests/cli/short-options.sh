#!/bin/sh
# Issue 29: a short option means one thing across every command.  Walks the option
# table of each command and verb (as its --help prints it) and of the global options,
# and fails on a letter given two long options.  The spellings retired for it are
# refused with one line naming the long option to use (exit 2, nothing done).
. "$top_srcdir/tests/lib.sh"

# every "cmd" and "cmd verb" of `cgctl help`
cmds=$("$CGCTL" help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$cmds" ] && ok || fail "cgctl help lists no commands"
all=""
for c in $cmds; do
	verbs=$("$CGCTL" "$c" --help 2>/dev/null |
		awk '/^Verbs:/ { on = 1; next } on && /^  [a-z]/ { print $1 } /^$/ { on = 0 }')
	if [ -n "$verbs" ]; then
		for v in $verbs; do all="$all$c $v
"; done
	else
		all="$all$c
"
	fi
done
# LETTER LONG WHERE lines of every table, the global one first
{
	"$CGCTL" --help | sed -n 's/^  -\([A-Za-z0-9]\), --\([a-z0-9-]*\).*/\1 \2 global/p'
	printf '%s' "$all" | while read -r c v; do
		# shellcheck disable=SC2086
		"$CGCTL" $c $v --help 2>/dev/null |
			sed -n "s/^  -\([A-Za-z0-9]\), --\([a-z0-9-]*\).*/\1 \2 $c${v:+-$v}/p"
	done
} >"$T_TMP/shorts"
n=$(wc -l <"$T_TMP/shorts")
[ "$n" -gt 20 ] && ok || fail "only $n short options found: the --help format changed?"
# a letter with more than one long option is a clash
clashes=$(awk '{ if (!($1 in long)) long[$1] = $2; else if (long[$1] != $2) print $1 }' \
	"$T_TMP/shorts" | sort -u)
for l in $clashes; do
	fail "-$l means several things: $(awk -v l="$l" '$1 == l { printf "%s(--%s) ", $3, $2 }' "$T_TMP/shorts")"
done
[ -z "$clashes" ] && ok
echo "short options: $n in $(printf '%s' "$all" | wc -l) commands, letters:" \
	"$(cut -d' ' -f1 "$T_TMP/shorts" | sort -u | tr -d '\n')"

# retired spellings: exit 2, one line naming the option to use
retired() { # NEW ARGS...
	new=$1
	shift
	bad_input 2 "$*" "$@"
	case $ERR in *"use $new"*) ok ;; *) fail "$*: no hint '$new': $ERR" ;; esac
}
fixture v1
retired --dry-run --root "$ROOT" move -n 4242 /a
retired --dry-run --root "$ROOT" move --no-plan -rn 4242 /a
retired --force --root "$ROOT" move -f 4242 /a
retired --count --root "$ROOT" watch -n 1 /a
retired --recursive --root "$ROOT" delete -r /a
retired --inodes --root "$ROOT" mem where -i 4242
retired --tasks --root "$ROOT" stat -t /a
retired --output --root "$ROOT" bw record -o "$T_TMP/x" 4242
retired --list validate -l
retired --repeat validate -r 1 pcp-lists
retired --target validate -t host pcp-lists
retired --list bench -l
retired --repeat bench -r 1 pipe
retired --threads bench -t 1 pipe
retired --duration bench -d 1s fault
retired --online-cpus mem predict --anon 1M --cpus 2
retired --online-cpus mem predict --anon 1M --cpus=2
[ -e "$T_TMP/x" ] && fail "bw record -o created its file" || ok
done_testing
