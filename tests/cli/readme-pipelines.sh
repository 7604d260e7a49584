#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: the shell pipelines of README.md ("In pipelines") and cgctl(1) EXAMPLES
# run as written, extracted from the documents (tests/cli/doc-examples.py), with $PATH
# finding this cgctl and $CGCTL_ROOT a fixture prepared for each: the expected output,
# exit status 0, nothing on stderr.  Those that need live processes (a move with its
# plan, a CPU quota, pidof) run in tests/kernel/readme-pipelines-live.sh; an example
# neither test knows fails here, so that a new one gets run.
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null || skip "python3 is needed"
command -v jq >/dev/null || skip "jq is needed (the examples pipe into it)"
mkdir -p "$T_TMP/bin" "$T_TMP/ex"
ln -s "$CGCTL" "$T_TMP/bin/cgctl"
python3 "$top_srcdir/tests/cli/doc-examples.py" "$T_TMP/ex" "$top_srcdir" >"$T_TMP/list" ||
	fail "no examples extracted"

# run FILE: the example, as sh runs it, below $ROOT; $OUT $ERR $RC
run() {
	OUT=$(cd "$T_TMP" && PATH="$T_TMP/bin:$PATH" CGCTL_ROOT="$ROOT" sh -e "$1" \
		2>"$T_TMP/err")
	RC=$?
	ERR=$(cat "$T_TMP/err")
}
clean() { # clean WHAT: exit 0, nothing on stderr
	expect_rc 0 "$1"
	[ -z "$ERR" ] && ok || fail "$1: stderr: $ERR"
}

# copy_cg FROM TO: a cgroup of the fixture copied under another name in every hierarchy
copy_cg() {
	for d in "$ROOT"/sys/fs/cgroup/*/"$1" "$ROOT/sys/fs/cgroup/$1"; do
		[ -d "$d" ] && cp -a "$d" "${d%/"$1"}/$2"
	done
}

n=0
while read -r i src; do
	f="$T_TMP/ex/$i"
	n=$((n + 1))
	case $(cat "$f") in
	"cgctl tree -rn -o path /batch | cgctl --json stat - |
    jq -r '.cgroups[] | [.path, .cpu.nr_throttled] | @tsv'")
		for tree in v1 v2 hybrid; do
			fixture $tree
			copy_cg a batch	# /batch and /batch/b
			run "$f"
			clean "$src #$i ($tree)"
			[ "$OUT" = "$(printf '/batch\t300\n/batch/b\t700')" ] && ok ||
				fail "$src #$i ($tree): $OUT"
			# issue 29: names with a space (tree -r: sp\x20ace) and a backslash (\x5c;
			# jq @tsv doubles it)
			copy_cg batch/b "batch/sp ace"
			copy_cg batch/b 'batch/back\slash'
			run "$f"
			clean "$src #$i ($tree), names with a blank"
			[ "$OUT" = "$(printf '/batch\t300\n/batch/b\t700\n/batch/back\\\\slash\t700\n/batch/sp ace\t700')" ] &&
				ok || fail "$src #$i ($tree), names with a blank: $OUT"
		done
		# no /batch: the error of tree, and stat of an empty list prints nothing more
		fixture v1
		run "$f"
		[ "$OUT" = "" ] && ok || fail "$src #$i without /batch: $OUT"
		[ "$(printf '%s\n' "$ERR" | grep -c .)" = 1 ] && ok ||
			fail "$src #$i without /batch: not one error line: $ERR" ;;
	"cgctl --self create scratch && cgctl --self stat scratch")
		fixture v2	# our own cgroup: /01 (proc/self/cgroup)
		run "$f"
		clean "$src #$i"
		[ -d "$ROOT/sys/fs/cgroup/01/scratch" ] && ok || fail "$src #$i: not created"
		printf '%s\n' "$OUT" | grep -q '^/scratch ' && ok || fail "$src #$i: $OUT" ;;
	"cgctl get --raw /old cgroup.procs | cgctl move - /new")
		# an empty source: nothing moves, and that is success (the moves themselves:
		# the kernel tier)
		fixture mem-v1
		copy_cg a/b old
		copy_cg a/b new
		: >"$ROOT/sys/fs/cgroup/memory/old/cgroup.procs"
		snapshot before
		run "$f"
		clean "$src #$i, empty /old"
		expect_unchanged "$src #$i, empty /old" ;;
	"cgctl --json move --tree \"\$(pidof -s server)\" /limited | jq .throttling.after" | \
	"cgctl --json move --dry-run 4242 /01 | jq '.moves[0].expected.total_bytes'" | \
	"cgctl create /web
cgctl mem set /web --limit 512M
cgctl --json stat /web | jq '.cgroups[0].memory'")
		ok ;;	# live processes: tests/kernel/readme-pipelines-live.sh
	*)
		fail "$src: an example no test runs (add it here or to the kernel tier):
$(cat "$f")" ;;
	esac
done <"$T_TMP/list"
[ $n -ge 7 ] && ok || fail "only $n examples extracted: $(cat "$T_TMP/list")"
done_testing
