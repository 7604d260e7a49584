#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: under --self, `move` printed FROM and TO as full paths (a systemd session's
# scope: 146 columns on an 80-column terminal), not the "/a/b" form below our own
# cgroup of tree, stat and get.  Now they are; on a terminal a path outside our cgroup
# gives way to fit it, while --json, --tsv and a pipe keep every path whole.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v python3 >/dev/null || skip "needs python3"

# widest: the longest line of $OUT
widest() { printf '%s\n' "$OUT" | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }'; }
# on_term COLS ARGS...: cgctl on a terminal COLS wide (script(1)), output in $OUT
on_term() {
	cols=$1
	shift
	OUT=$(script -qec "stty cols $cols; '$CGCTL' $*" /dev/null </dev/null | tr -d '\r')
}

fixture v2
scope=user.slice/user-1000.slice/user@1000.service/app.slice/app-org.gnome.Terminal.slice/vte-spawn-0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0.scope
other=system.slice/a-service-with-a-rather-long-name-for-a-test-of-widths.service
cg=$ROOT/sys/fs/cgroup
for d in "$scope" "$other"; do
	mkdir -p "$cg/$d"
	cp -a "$cg/01/." "$cg/$d/"
done
echo "0::/$scope" >"$ROOT/proc/self/cgroup"
echo "0::/$scope" >"$ROOT/proc/4242/cgroup"

# below our own cgroup: "/" and "/02", in every format
cg --root="$ROOT" --self --json move --dry-run --no-plan 4242 02
expect_rc 0 "--self --json move"
[ "$(json_get '(j["moves"][0]["from"], j["moves"][0]["to"])')" = "('/', '/02')" ] && ok ||
	fail "--self: from/to not below our own cgroup: $OUT"
cg --root="$ROOT" --self --tsv move --dry-run --no-plan 4242 02
[ "$(printf '%s\n' "$OUT" | sed -n 2p | cut -f2,3)" = "$(printf '/\t/02')" ] && ok ||
	fail "--self --tsv: $OUT"
cg --root="$ROOT" --self move --dry-run --no-plan 4242 02
printf '%s\n' "$OUT" | grep -q '^4242  /  *\/02  ' && ok || fail "--self table: $OUT"
[ "$(widest)" -le 80 ] && ok || fail "--self table $(widest) wide: $OUT"
# without --self: the full paths, as before
cg --root="$ROOT" --json move --dry-run --no-plan 4242 "/$scope/02"
[ "$(json_get '(j["moves"][0]["from"], j["moves"][0]["to"])')" = "('/$scope', '/$scope/02')" ] &&
	ok || fail "full paths without --self: $OUT"

if command -v script >/dev/null 2>&1 && command -v stty >/dev/null 2>&1; then
	on_term 80 "--root '$ROOT' --self move --dry-run --no-plan 4242 02"
	[ "$(widest)" -le 80 ] && ok || fail "--self on 80 columns: $(widest) wide: $OUT"
	printf '%s\n' "$OUT" | grep -q '^4242  /  *\/02  ' && ok || fail "80 columns: $OUT"
	# a source outside our own cgroup: its full path, cut on a terminal to fit it
	echo "0::/$other" >"$ROOT/proc/4242/cgroup"
	on_term 80 "--root '$ROOT' --self move --dry-run --no-plan 4242 02"
	[ "$(widest)" -le 80 ] && ok || fail "a long FROM on 80 columns: $(widest) wide: $OUT"
	on_term 80 "--root '$ROOT' --self --json move --dry-run --no-plan 4242 02"
	[ "$(json_get 'j["moves"][0]["from"]')" = "/$other" ] && ok ||
		fail "--json on a terminal: from cut: $OUT"
	on_term 80 "--root '$ROOT' --self --tsv move --dry-run --no-plan 4242 02"
	printf '%s\n' "$OUT" | grep -q "^4242	/$other	/02	" && ok ||
		fail "--tsv on a terminal: from cut: $OUT"
	# in a pipe every cell is whole
	cg --root="$ROOT" --self move --dry-run --no-plan 4242 02
	printf '%s\n' "$OUT" | grep -q "^4242  /$other  /02 " && ok ||
		fail "in a pipe: from cut: $OUT"
else
	echo "# no script(1) or stty: terminal fitting not checked"
fi
done_testing
