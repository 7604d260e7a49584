#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: the bad-input catalogue of issue 15, second part (the first,
# tests/cli/bad-input.sh, holds the hand-written rows of the issue's findings).  Every
# option that takes a size, a duration, a number, a PID or a path, in every command,
# meets the malformed values below; every command meets unknown options and missing
# arguments; the PID readers meet malformed standard input; the printers meet a closed
# and a full standard output; and, as root, the writers meet an unprivileged caller.
# Each case is checked for: its exit code (cgctl(1) EXIT STATUS), exactly one line on
# stderr naming the object (the option and the value, the path, the PID, the file) and
# the reason, nothing on stdout, and the fixture tree byte-identical afterwards.
#
# A case: RC TREE PATTERN (grep -E) STDIN (printf format, "-" none) ARGS (sh words),
# separated by $S (the ASCII unit separator: patterns hold '|', values blanks).
. "$top_srcdir/tests/lib.sh"
S=$(printf '\037')

# re S: S as a literal grep -E pattern
re() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; }
# sq S: S as one sh word
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

BAD_SIZES="abc|12Q|1.5.5G|-1|-5M|0x10| 1||1e3|99999999999999999999|1 G|G|+5M|5MM|inf|5M |1KiBB|0.0.1K"
BAD_DURS="abc|1.5.5s|-1ms|0x10ms| 1ms||1e3ms|10x|ms|5 ms|+5ms|inf|99999999999999999h|5msms|nan"
BAD_PIDS="0|abc|1x|99999999999| 1|0x10|+1|1.0|-|1e3|4294967297"
# paths refused before any lookup (exit 2); /nope is looked up (exit 4)
BAD_PATHS="../x|/a/../b|/a/..|..|$(printf '/a\tb')|/$(printf 'n%.0s' $(seq 300))|"

# sizes: OPTION COMMAND... (the option's value goes last)
size_rows() {
	opt=$1 tree=$2
	shift 2
	printf '%s\n' "$BAD_SIZES" | tr '|' '\n' | while IFS= read -r v; do
		printf '2\037%s\037%s: %s (is not a size|is too large)\037-\037%s %s %s\n' "$tree" "$opt" \
			"$(re "'$v'")" "$*" "$opt" "$(sq "$v")"
	done
}

dur_rows() {
	opt=$1 name=$2 tree=$3
	shift 3
	printf '%s\n' "$BAD_DURS" | tr '|' '\n' | while IFS= read -r v; do
		printf '2\037%s\037%s: %s (is not a duration|is not in|longer than|shorter than|is too large|too long)\037-\037%s %s %s\n' \
			"$tree" "$name" "$(re "'$v'")" "$*" "$opt" "$(sq "$v")"
	done
}

catalogue() {
	# ---- sizes ----
	size_rows --limit v1 mem set /a
	size_rows --memsw-limit v1 mem set /a
	size_rows --soft-limit v1 mem set /a
	size_rows --high v2 mem set /a
	size_rows --low v2 mem set /a
	size_rows --min v2 mem set /a
	size_rows --swap-max v2 mem set /a
	size_rows --anon v2 mem predict
	size_rows --file v2 mem predict
	size_rows --rate v2 mem predict --anon 1M
	size_rows --chunk v2 mem predict --file 1M
	size_rows --max v2 mem predict --anon 1M
	# ---- durations ----
	dur_rows --quota --quota bw-v1 bw set /a
	dur_rows --period --period bw-v1 bw set /a
	dur_rows --burst --burst bw-v1 bw set /a
	dur_rows --duration --duration bw-v1 bw predict /a --threads 1
	dur_rows --busy --busy bw-v1 bw predict /a --threads 1
	dur_rows -i --interval v1 watch /a
	dur_rows --sample --sample v1 move 1 /a
	dur_rows --page-time --page-time v2 mem predict --anon 1M
	# ---- PIDs, as arguments ----
	printf '%s\n' "$BAD_PIDS" | tr '|' '\n' | while IFS= read -r v; do
		p=$(re "'$v'")
		case $v in
		-) continue ;;	# "-" is standard input
		esac
		echo "2${S}v1${S}$p is not a PID${S}-${S}move $(sq "$v") /a"
		echo "2${S}v1${S}$p is not a PID${S}-${S}mem where $(sq "$v")"
		echo "2${S}v1${S}$p is not a PID${S}-${S}move --tree $(sq "$v") /a"
		echo "2${S}v1${S}$p is not a PID${S}-${S}move --no-plan $(sq "$v") /a"
	done
	# ---- PIDs on standard input ----
	for input in 'abc\n' '1x\n' '0\n' '99999999999\n' '0x10\n' '+1\n' '1.0\n' '1e3\n' \
		     '4242\\n5x\n' '4242,4243\n' '\001\n' '4242\0\n'; do
		for cmd in "move - /a" "mem where -" "move --no-plan - /a"; do
			printf '2%sv1%sstdin line [0-9]+: %s%s%s%s\n' "$S" "$S" "$S" "$input" "$S" "$cmd"
		done
	done
	# ---- paths ----
	printf '%s\n' "$BAD_PATHS" | tr '|' '\n' | while IFS= read -r v; do
		p=$(re "$v")
		[ -n "$v" ] || p="''"
		case $v in
		*"$(printf '\t')"*) p='/a.tb: ' ;;	# '.': the escaping backslash
		/nnnnnnnnnn*) p='/n+: ' ;;
		esac
		for cmd in stat tree "mem show" "bw show" "watch --count 1" "get %s memory.limit_in_bytes" \
			   "set %s memory.limit_in_bytes=1M" "mem set %s --limit 1M" \
			   "bw set %s --quota 50ms" "delete" "create" "move 1 %s" "bw predict %s --threads 1"; do
			case $cmd in
			*%s*) args=$(printf "$cmd" "$(sq "$v")") ;;
			*) args="$cmd $(sq "$v")" ;;
			esac
			echo "2${S}v1${S}$p${S}-${S}$args"
		done
	done
	for cmd in stat tree "mem show" "bw show" "watch --count 1" "get /nope memory.limit_in_bytes" \
		   "set /nope memory.limit_in_bytes=1M" "mem set /nope --limit 1M" \
		   "bw set /nope --quota 50ms" delete; do
		case $cmd in
		*/nope*) args=$cmd ;;
		*) args="$cmd /nope" ;;
		esac
		echo "4${S}v1${S}/nope: no such cgroup${S}-${S}$args"
	done
	# ---- control files ----
	for f in memory.nope cpu.nope memory.limit_in_bytes.x; do
		echo "4${S}v1${S}$(re "$f"): no such control file${S}-${S}get /a $f"
		echo "4${S}v1${S}$(re "$f"): no such control file${S}-${S}set /a $f=1"
	done
	for f in ../x a/b . .. "" /memory.limit_in_bytes; do
		echo "2${S}v1${S}$(re "'$f'") is not a control file name${S}-${S}get /a $(sq "$f")"
		[ -z "$f" ] ||	# "=1" is below
			echo "2${S}v1${S}$(re "'$f'") is not a control file name${S}-${S}set /a $(sq "$f=1")"
	done
	for a in memory.limit_in_bytes =1 ''; do
		echo "2${S}v1${S}$(re "'$a'"): expected FILE=VALUE${S}-${S}set /a $(sq "$a")"
	done
	# ---- options: unknown, and missing arguments ----
	for cmd in create delete tree get set stat "mem set" "mem show" "mem where" \
		   "mem predict" "bw set" "bw show" "bw predict" "bw record" "bw recommend" \
		   move watch validate; do
		echo "2${S}v1${S}--bogus: unknown option${S}-${S}$cmd --bogus"
		echo "2${S}v1${S}-Z: unknown option${S}-${S}$cmd -Z"
	done
	for c in "mem set /a --limit" "mem set /a --soft-limit" "bw set /a --quota" \
		 "bw set /a --period" "bw predict /a --duration" "watch /a -i" "watch /a --count" \
		 "tree --depth" "move 1 /a --sample" "mem predict --anon" "bw recommend --trace" \
		 "validate --repeat" "create /x -c" "get /a -c" "bw record 1 --output"; do
		o=${c##* }
		echo "2${S}v1${S}$(re "$o"): missing argument${S}-${S}$c"
	done
	echo "2${S}v1${S}unknown command 'bogus'${S}-${S}bogus"
	echo "2${S}v1${S}unknown verb 'bogus'${S}-${S}mem bogus"
	echo "2${S}v1${S}unknown verb 'bogus'${S}-${S}bw bogus"
}

# snap NAME: every entry of $ROOT with its size, mode and mtime in ns (a write of the same
# bytes changes it too); cheaper than lib.sh's checksums for 600 cases, and each tree is
# compared with its pristine source by diff -r when its block of cases ends (pristine).
snap() { (cd "$ROOT" && find . -printf '%p %s %m %T@\n' | sort) >"$T_TMP/snap.$1"; }
pristine() {
	[ -n "$cur" ] || return 0
	diff -r "$top_srcdir/tests/fixtures/$cur" "$ROOT" >"$T_TMP/diff" 2>&1 && ok ||
		fail "$cur: tree differs from the fixture: $(head -3 "$T_TMP/diff")"
}

rows=0 run=0
catalogue | awk 'NF' >"$T_TMP/rows"
cur=""
while IFS=$S read -r want tree pat input args; do
	rows=$((rows + 1))
	if [ "$tree" != "$cur" ]; then
		pristine
		fixture "$tree"
		cur=$tree
		snap before
	fi
	eval "set -- $args"
	desc="case $rows ($tree: $args)"
	if [ "$input" = - ]; then
		cg --root="$ROOT" "$@"
	else
		printf "$input" | "$CGCTL" --root="$ROOT" "$@" >"$T_TMP/out" 2>"$T_TMP/err"
		RC=$? OUT=$(cat "$T_TMP/out") ERR=$(cat "$T_TMP/err")
	fi
	run=$((run + 1))
	expect_rc "$want" "$desc"
	expect_err_line "$desc"
	printf '%s\n' "$ERR" | grep -Eq -- "$pat" && ok || fail "$desc: stderr '$ERR' lacks /$pat/"
	expect_no_out "$desc"
	snap after
	if cmp -s "$T_TMP/snap.before" "$T_TMP/snap.after"; then
		ok
	else
		fail "$desc: tree changed: $(diff "$T_TMP/snap.before" "$T_TMP/snap.after" | head -3)"
		cur=""
	fi
done <"$T_TMP/rows"
pristine

# ---- standard output closed or full: one line, exit 1, nothing changed ----
fixture v1
snapshot before
for args in "tree" "stat /a" "get /a memory.limit_in_bytes" "--json tree" "--tsv stat /a" \
	    "mem show /a" "bw show /a" "get --raw /a memory.stat"; do
	for how in closed full; do
		rows=$((rows + 1))
		eval "set -- $args"
		if [ $how = closed ]; then
			"$CGCTL" --root="$ROOT" "$@" >&- 2>"$T_TMP/err"
		else
			"$CGCTL" --root="$ROOT" "$@" >/dev/full 2>"$T_TMP/err"
		fi
		RC=$? ERR=$(cat "$T_TMP/err") OUT=""
		desc="stdout $how: $args"
		expect_rc 1 "$desc"
		expect_err_line "$desc"
		case $how in
		closed) pat='standard output: write error: bad file descriptor' ;;
		full) pat='standard output: write error: no space left on device' ;;
		esac
		printf '%s\n' "$ERR" | grep -q -- "$pat" && ok || fail "$desc: '$ERR'"
		expect_unchanged "$desc"
	done
done

# ---- an unprivileged caller: exit 3, the file named, nothing changed ----
if [ "$(id -u)" = 0 ] && ! nobody_runs_cgctl; then
	echo "bad-input-matrix: unprivileged rows not run: user nobody cannot run $CGCTL"
elif [ "$(id -u)" = 0 ]; then
	fixture v1
	chmod 755 "$T_TMP"
	chmod -R a+rX "$ROOT"
	snapshot before
	for args in "set /a memory.limit_in_bytes=16M" "mem set /a --limit 16M" \
		    "mem set /a --soft-limit 8M" "set /a memory.swappiness=10" "create /x" \
		    "delete /01/02" "set /a cpu.shares=512" "mem set /a --limit 1G --memsw-limit 2G"; do
		rows=$((rows + 1))
		eval "set -- $args"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$CGCTL" --root="$ROOT" "$@" \
			>"$T_TMP/out" 2>"$T_TMP/err" </dev/null
		RC=$? OUT=$(cat "$T_TMP/out") ERR=$(cat "$T_TMP/err")
		desc="non-root: $args"
		expect_rc 3 "$desc"
		expect_err_line "$desc"
		printf '%s\n' "$ERR" | grep -Eq 'ermission denied|not permitted|Read-only' && ok ||
			fail "$desc: '$ERR'"
		expect_no_out "$desc"
		expect_unchanged "$desc"
	done
	chmod 700 "$T_TMP"
fi

[ "$rows" -ge 400 ] && ok || fail "only $rows cases"
echo "bad-input-matrix: $rows cases"
done_testing
