#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The output contract of cgctl(1) OUTPUT over every command's --json and --tsv, on the
# v1, v2 and hybrid fixtures (tests/cli/json-contract.py says what is checked): one JSON
# document (one per line for watch), snake_case keys in the unit scheme (_bytes _usec
# _ratio _cpus; no _us, _pct, bare cpus), numbers as numbers, unlimited as null (never
# PAGE_COUNTER_MAX, "max" or "-1"), the same keys on v1 and v2 (a null object stands
# for its keys), and one TSV table per invocation.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed"
CHECK="python3 $top_srcdir/tests/cli/json-contract.py"
K="$T_TMP/keys"
mkdir -p "$K"

# The checks are queued and run by one checker at the end (check_queued): a Python start
# costs 30-500 ms, more than the cgctl run it checks, and this test makes ~180 checks.
Q=$T_TMP/queue
: >"$Q"
: >"$Q.want"
qn=0
# queue WANT MODE NAME [KEYS]: check $OUT as `json-contract.py MODE NAME [KEYS]` would;
# WANT is ok (it must pass) or bad (the checker must reject it)
queue() {
	qn=$((qn + 1))
	printf '%s\n' "$OUT" >"$T_TMP/q.$qn"
	printf '%s\t%s\t%s%s\n' "$2" "$3" "$T_TMP/q.$qn" "${4:+	$4}" >>"$Q"
	echo "$1" >>"$Q.want"
}
# check_queued: run the queued checks, one ok or fail each
check_queued() {
	$CHECK batch "$Q" >"$T_TMP/results" 2>&1 ||
		fail "json-contract.py batch: $(cat "$T_TMP/results")"
	[ "$(wc -l <"$T_TMP/results")" = "$(wc -l <"$Q.want")" ] && ok ||
		fail "json-contract.py batch: $(wc -l <"$T_TMP/results") results of" \
			"$(wc -l <"$Q.want") checks: $(cat "$T_TMP/results")"
	paste "$Q.want" "$T_TMP/results" "$Q" | while IFS='	' read -r want res rest; do
		case $want/$res in
		ok/ok | bad/fail) echo ok ;;
		bad/ok) echo "fail checker let through: $(cat "$(echo "$rest" | cut -f3)")" ;;
		*) echo "fail $(echo "$rest" | cut -f1)" ;;
		esac
	done >"$T_TMP/verdicts"
	while read -r v msg; do
		if [ "$v" = ok ]; then ok; else fail "$msg"; fi
	done <"$T_TMP/verdicts"
}

# contract TREE NAME ARGS...: `cgctl --root ROOT --json ARGS` exits 0 (or 8: partial)
# and keeps the contract; its keys go to $K/NAME.TREE.  Then the same with --tsv on a
# fresh copy of the tree (a command that changes the tree runs once per format; one
# that only reads it, on the same copy: a copy is most of this test's CPU time).
# $PREP, if set, is run on each fresh copy.
PREP=""
contract() {
	tree=$1 name=$2
	shift 2
	fixture "$tree"
	[ -z "$PREP" ] || $PREP
	cg --root "$ROOT" --json "$@"
	case $RC in 0 | 8) ok ;; *) fail "$tree: $*: --json exit $RC: $ERR" ;; esac
	queue ok json "$tree: $name --json" "$K/$name.$tree"
	case "$1 ${2:-}" in
	"tree "* | "get "* | "stat "* | "mem show" | "bw show" | "bw predict") ;;
	*) fixture "$tree"
	   [ -z "$PREP" ] || $PREP ;;
	esac
	cg --root "$ROOT" --tsv "$@"
	case $RC in 0 | 8) ok ;; *) fail "$tree: $*: --tsv exit $RC: $ERR" ;; esac
	# (a command that changes something and has nothing to say prints no table)
	[ -z "$OUT" ] && [ "$1" = set ] || queue ok tsv "$tree: $name --tsv"
}

# same NAME TREE TREE: both trees gave NAME the same keys
same() {
	qn=$((qn + 1))
	printf 'same\t%s\t%s\t%s\n' "$1 ($2 / $3)" "$K/$1.$2" "$K/$1.$3" >>"$Q"
	echo ok >>"$Q.want"
}

# fake_task PID CGROUP-LINES: a task of the tree's /proc (tests/cli/move-cli.sh)
fake_task() {
	mkdir -p "$ROOT/proc/$1"
	echo "$1 (t) S 1 $1 $1 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0" >"$ROOT/proc/$1/stat"
	printf "$2" >"$ROOT/proc/$1/cgroup"
}

for tree in v1 v2 hybrid; do
	case $tree in
	v2) files="memory.max cpu.max memory.current" set=memory.max=67108864 ;;
	*) files="memory.limit_in_bytes cpu.cfs_quota_us memory.usage_in_bytes"
	   set=memory.limit_in_bytes=67108864 ;;
	esac
	contract $tree tree tree
	contract $tree tree-a tree /a
	# /a/b: unlimited memory; v1 cpu.cfs_quota_us of / is -1
	contract $tree get get /a/b $files
	# the root's v1 cfs_quota_us is -1
	[ $tree = v2 ] || contract $tree get-root get / cpu.cfs_quota_us
	contract $tree stat stat / /a /a/b /01 /01/02
	contract $tree stat-long stat --long / /a /a/b /01 /01/02
	contract $tree mem-show mem show /a/b
	contract $tree bw-show bw show /a
	contract $tree bw-predict bw predict --quota 20ms --threads 2 --online-cpus 2 \
		--duration 1s --timeline
	contract $tree create create /jc /a/jc
	contract $tree create-p create -p /jc/x
	contract $tree delete delete /01/02
	contract $tree set set /a $set
	contract $tree mem-set mem set /a --limit 32M
	contract $tree mem-set-max mem set /a --limit max
done
for name in tree tree-a get stat stat-long mem-show bw-show bw-predict create create-p \
	delete set mem-set mem-set-max; do
	same $name v1 v2
	same $name v1 hybrid
done

# bw set: the bandwidth fixtures (their trees pass the whole-tree checks)
for tree in bw-v1 bw-v2; do
	contract $tree bw-set bw set /a --quota 80ms
	contract $tree bw-set-max bw set /a --unlimited
	contract $tree bw-show-b bw show /a/b
done
same bw-set bw-v1 bw-v2
same bw-set-max bw-v1 bw-v2
same bw-show-b bw-v1 bw-v2

# move: a task of the memory fixtures, moved as a dry run
prep_mem_v1() { fake_task 100 '4:memory:/a\n'; }
prep_mem_v2() { fake_task 100 '0::/a\n'; }
PREP=prep_mem_v1
contract mem-v1 move move --dry-run --no-plan 100 /a/b
PREP=prep_mem_v2
contract mem-v2 move move --dry-run --no-plan 100 /a/b
PREP=""
same move mem-v1 mem-v2

# without --root: the model commands, and watch's lines
cg --json mem predict --anon 4800K --high 4096000 --online-cpus 1 --kernel 6.12 --timeline
queue ok json "mem predict --json"
cg --tsv mem predict --anon 4800K --high 4096000 --online-cpus 1 --kernel 6.12
queue ok tsv "mem predict --tsv"
fixture v2
cg --root "$ROOT" --json watch --count 2 -i 10ms /a
expect_rc 0 "watch --json"
queue ok jsonl "watch --json"
[ "$(printf '%s\n' "$OUT" | wc -l)" = 2 ] && ok || fail "watch --count 2: not 2 lines: $OUT"
cg --root "$ROOT" --tsv watch --count 2 -i 10ms /a
queue ok tsv "watch --tsv"

# one table per invocation where there are several: --tsv=NAME picks it
cg --root "$ROOT" --tsv=cgroups stat /a
expect_rc 0 "--tsv=cgroups"
[ "$(printf '%s\n' "$OUT" | head -1 | cut -f1)" = path ] && ok || fail "--tsv=cgroups: $OUT"
bad_input 2 "--tsv=NAME a command does not have" --root "$ROOT" --tsv=nope stat /a
bad_input 2 "--tsv=NAME of a one-table command" --root "$ROOT" --tsv=x tree
bad_input 2 "--tsv=processes without --tasks" --root "$ROOT" stat --tsv=processes /a

# TSV reaches what JSON has: move's throttling object (--tsv=throttle, a one-row table
# of its keys) and bw predict's timeline (--tsv=timeline, one row per period)
for tree in v1 v2; do
	fixture $tree
	cg --root "$ROOT" --json move --dry-run --sample 0 4242 /a
	want=$(json_get 'j["throttling"]["cgroup"], j["throttling"]["quota_usec"], j["throttling"]["limit_cpus"]')
	[ "$want" = "/a 50000 0.5" ] && ok || fail "$tree: move throttling: $OUT"
	cg --root "$ROOT" --tsv=throttle move --dry-run --sample 0 4242 /a
	expect_rc 0 "$tree: --tsv=throttle"
	queue ok tsv "$tree: move --tsv=throttle"
	[ "$(printf '%s\n' "$OUT" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR == 2 { print $c["throttling.cgroup"], $c["throttling.quota_usec"], $c["throttling.limit_cpus"] }')" = \
		"$want" ] && ok || fail "$tree: --tsv=throttle has not JSON's throttling: $OUT"
	cg --root "$ROOT" --tsv=moves move --dry-run --sample 0 4242 /a
	[ "$(printf '%s\n' "$OUT" | head -1 | cut -f1)" = pid ] && ok || fail "$tree: --tsv=moves: $OUT"
done
# --tsv=throttle has the 25 columns of cgctl-move(1) whatever was measured, "-" where
# nothing was: limited but not sampled (--sample 0), not limited, nothing looked at
# (--no-plan; no cpu hierarchy)
cols=$(sed -n '/^throttling\.cgroup /,/^```/p' "$top_srcdir/man/cgctl-move.1.scd" |
	grep -v '^```' | tr ' ' '\n' | grep . | tr '\n' '\t' | sed 's/\t$//')
[ "$(printf '%s' "$cols" | tr '\t' '\n' | wc -l)" = 24 ] && ok ||
	fail "cgctl-move(1) does not list 25 --tsv=throttle columns: $cols"
# throttle_row NAME WANT-CELLS ARGS...: `cgctl --tsv=throttle ARGS` prints the documented
# header and one row whose cells, "-" or not, are WANT-CELLS ("v" a value, "-" none)
throttle_row() {
	name=$1 want=$2
	shift 2
	cg --root "$ROOT" --tsv=throttle "$@"
	expect_rc 0 "--tsv=throttle: $name"
	[ "$(printf '%s\n' "$OUT" | head -1)" = "$cols" ] && ok ||
		fail "--tsv=throttle: $name: header $(printf '%s\n' "$OUT" | head -1)"
	got=$(printf '%s\n' "$OUT" | awk -F'\t' 'NR == 2 {
		for (i = 1; i <= NF; i++) printf "%s", ($i == "-" ? "-" : "v") }')
	[ "$got" = "$want" ] && ok || fail "--tsv=throttle: $name: cells $got, want $want: $OUT"
	[ "$(printf '%s\n' "$OUT" | wc -l)" = 2 ] && ok || fail "--tsv=throttle: $name: $OUT"
}
none=-------------------------
fixture v2
throttle_row "limited, --sample 0" vvvvvvvv----------------- move --dry-run --sample 0 4242 /a
throttle_row "--no-plan" $none move --dry-run --no-plan 4242 /a
printf '0::/01\n' >"$ROOT/proc/4242/cgroup"	# (already there: no move to fail)
throttle_row "not limited" vvvvv--v----------------- move --dry-run 4242 /01
fixture mem-v1
fake_task 100 '4:memory:/a\n'
throttle_row "no cpu hierarchy" $none move --dry-run --no-plan 100 /a/b
bp="bw predict --quota 20ms --threads 2 --online-cpus 2 --duration 500ms"
cg --json $bp --timeline
want=$(json_get '"\n".join("\t".join(str(v).lower() for v in r.values()) for r in j["timeline"])')
keys=$(json_get '"\t".join(j["timeline"][0].keys())')
cg --tsv=timeline $bp
expect_rc 0 "--tsv=timeline"
queue ok tsv "bw predict --tsv=timeline"
[ "$OUT" = "$(printf '%s\n%s' "$keys" "$want")" ] && ok ||
	fail "--tsv=timeline is not JSON's timeline: $OUT"
cg --tsv=summary $bp --timeline
[ "$(printf '%s\n' "$OUT" | head -1 | cut -f1)" = settings.quota_usec ] && ok ||
	fail "--tsv=summary: $OUT"

# the checker itself fails on what it is there to catch
bad() {
	OUT=$2
	queue bad "$1" selftest
}
bad json '{"limit_bytes":9223372036854771712}'
bad json '{"value":"-1"}'
bad json '{"value":"max"}'
bad json '{"quota_us":5}'
bad json '{"cpus":2}'
bad json '{"throttled_ratio":25}'
bad json '{"a":1}{"b":2}'
bad json '{"limit_bytes":"64M"}'
bad tsv "$(printf 'a\tb\n1\t2\n\nc\n3')"
bad tsv "$(printf 'a\tb\n1\n')"

check_queued
done_testing
