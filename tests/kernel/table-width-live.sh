#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The default tables that need a live task: mem where, move -n (planned) and
# move -n --tree fit 80 columns but for their cgroup paths (never truncated; this
# machine's may be long): the default columns leave mem where's path 30 characters,
# and move's FROM and TO 16 each (13 with --tree, which adds PROCS).
# run-test: shared (column widths of its own tasks' tables; no time)
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "$CGCTL not built"
[ -r /proc/kpagecgroup ] || skip "no /proc/kpagecgroup"
at_exit scratch_cleanup
P=""
stop() { [ -n "$P" ] && kill -9 "$P" 2>/dev/null; return 0; }
at_exit stop
sleep 600 &
P=$!
scratch dest memory "tw-$$"
# the first table of stdin: up to the heading of the next ("tasks:", "throttling:")
first_table() { awk '/^ *[a-z_]+:$/ { exit } { print }'; }

# fits WHAT BUDGET ARGS...: the default table of `cgctl ARGS` is at most 80 columns wide
# once every path in it is counted as at most BUDGET characters.  Its width is computed
# from `cgctl -r ARGS` (cells unaligned, blanks escaped): the widest cell of each
# column, two spaces between columns; and the aligned table must be that wide.
fits() {
	what=$1 budget=$2
	shift 2
	cg "$@" -r
	expect_rc 0 "$what, -r"
	raw=$(printf '%s\n' "$OUT" | first_table)
	widths=$(printf '%s\n' "$raw" | awk -v b="$budget" '{
		for (i = 1; i <= NF; i++) {
			gsub(/\\x20/, " ", $i)
			l = length($i)
			if (l > w[i]) w[i] = l
			c = ($i ~ /^\// && l > b) ? b : l
			if (c > cut[i]) cut[i] = c
		}
		if (NF > n) n = NF
	} END {
		for (i = 1; i <= n; i++) { full += w[i]; short += cut[i] }
		print full + 2 * (n - 1), short + 2 * (n - 1)
	}')
	full=${widths% *} short=${widths#* }
	cg "$@"
	expect_rc 0 "$what"
	widest=$(printf '%s\n' "$OUT" | first_table | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }')
	[ "$widest" = "$full" ] && ok || fail "$what: $widest wide, -r says $full: $OUT"
	[ "$(printf '%s\n' "$raw" | grep -c .)" -ge 2 ] && [ "$short" -le 80 ] && ok ||
		fail "$what: $short columns wide with paths cut to $budget:
$OUT"
}

fits "mem where" 30 mem where "$P"
fits "move -n" 16 move --dry-run -c memory --sample 0 "$P" "$dest"
fits "move --dry-run --tree" 13 move --dry-run --tree -c memory --sample 0 "$P" "$dest"
done_testing
