#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 29: `cgctl validate` shows its long work.  In a pipe each scenario's table comes
# as soon as the scenario is done (it printed everything at the end); on a terminal the
# progress says k/N and the time left and is erased before each table; the human output
# ends with one line counting the n/a figures by reason, naming `--target all` when VM
# kernels are present, wrapped at 80 columns as the tables (it ran to 104); --json is
# still one document.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
require_root
[ -x "$CGCTL" ] || skip "cgctl not built"
command -v python3 >/dev/null || skip "needs python3"
[ -n "$(mount_of cpu)" ] || skip "no v1 cpu hierarchy"
[ -n "$(mount_of memory)" ] || skip "no v1 memory hierarchy"

# 1. a pipe: pcp-lists (instant) is printed while bw-quota-50-1t (2 runs, 2 s) still runs
"$CGCTL" validate --repeat 2 pcp-lists bw-quota-50-1t >"$T_TMP/pipe" 2>"$T_TMP/pipe.err" &
pid=$!
kill_it() { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
at_exit kill_it
i=0
while [ $i -lt 200 ] && ! grep -q '^pcp-lists:' "$T_TMP/pipe" && kill -0 "$pid" 2>/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
if grep -q '^pcp-lists:' "$T_TMP/pipe" && ! grep -q '^bw-quota-50-1t:' "$T_TMP/pipe"; then
	ok
else
	fail "the first scenario's table was not printed before the second ended: $(cat "$T_TMP/pipe")"
fi
wait "$pid"
rc=$?
case $rc in 0 | 7) ok ;; *) fail "validate in a pipe: exit $rc: $(cat "$T_TMP/pipe.err")" ;; esac
grep -q '^bw-quota-50-1t:' "$T_TMP/pipe" && ok || fail "second table missing"
[ "$(grep -c '^# host:' "$T_TMP/pipe")" = 1 ] && ok || fail "one header per target"
grep -q '^validate: 2 scenarios on 1 target' "$T_TMP/pipe" && ok || fail "summary line"

# 2. a terminal: k/N, the time left, erased before the table
if command -v script >/dev/null 2>&1; then
	script -qec "stty cols 80; '$CGCTL' validate --repeat 2 pcp-lists rss-bound" /dev/null \
		</dev/null >"$T_TMP/tty"
	grep -q 'validate: 1/2 pcp-lists: run 1/2' "$T_TMP/tty" && ok ||
		fail "no k/N count on a terminal: $(cat -v "$T_TMP/tty" | head -5)"
	grep -q 'validate: 2/2 rss-bound: run 2/2, about [0-9m]*s left' "$T_TMP/tty" && ok ||
		fail "no time left on a terminal: $(cat -v "$T_TMP/tty" | head -5)"
	# the progress is erased before the header and each table: no progress text in front
	pat=$(printf 'run [0-9]/[0-9][^\r]*\\(# host\\|pcp-lists:\\|rss-bound:\\)')
	if grep -a "$pat" "$T_TMP/tty"; then
		fail "a table starts on the progress line"
	else ok; fi
	grep -q "$(printf '\r\033\\[K# host:')" "$T_TMP/tty" && ok || fail "progress not erased"
else
	echo "# no script(1): the terminal progress is not checked"
fi

# 3. the n/a line: counted by reason, --target all named when VM kernels are present
mkdir "$T_TMP/kernels" "$T_TMP/nokernels"
mkdir "$T_TMP/kernels/6.1"
CGCTL_KERNEL_CACHE=$T_TMP/kernels cg validate --repeat 1 memhigh-anon pcp-lists
na=$(printf '%s\n' "$OUT" | sed -n 's/^validate: .*, \([0-9]*\) n\/a$/\1/p')
if [ -n "$na" ] && [ "$na" -gt 0 ]; then
	# the n/a line is the last, wrapped at 80 columns as the rest: its lines joined
	nal() { printf '%s\n' "$OUT" | sed -n '/^n\/a: [0-9]* figure/,$p' | sed 's/^ *//' | tr '\n' ' ' |
		sed 's/ $//'; }
	line=$(nal)
	long=$(printf '%s\n' "$OUT" | awk 'length($0) > 80')
	[ -z "$long" ] && ok || fail "lines over 80 columns: $long"
	case $line in
	"n/a: $na figure"*": "[0-9]*" "*"\`cgctl validate --target all\`"*) ok ;;
	*) fail "last line: '$line' (n/a: $na)" ;;
	esac
	CGCTL_KERNEL_CACHE=$T_TMP/nokernels cg validate --repeat 1 memhigh-anon pcp-lists
	line=$(nal)
	case $line in
	"n/a: "*"--target all"*) fail "--target all named without VM kernels: $line" ;;
	"n/a: $na figure"*) ok ;;
	*) fail "last line without VM kernels: '$line'" ;;
	esac
else
	echo "# memhigh-anon applies here: the n/a line is not checked"
fi

# 4. --json: one document, no tables
cg --json validate --repeat 1 pcp-lists
if json_get 'j["scenarios"][0]["name"]' >/dev/null 2>&1; then ok; else fail "--json: $OUT"; fi
case $OUT in *"QUANTITY "*) fail "--json printed a table" ;; *) ok ;; esac

done_testing
