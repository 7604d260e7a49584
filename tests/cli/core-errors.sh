#!/bin/sh
# Fixture tier: every bad input of the core commands gets one "cgctl: " line on stderr,
# the documented exit code, nothing on stdout, and leaves the tree byte-identical.
. "$top_srcdir/tests/lib.sh"

for tree in v1 v2 hybrid; do
	[ -d "$top_srcdir/tests/fixtures/$tree" ] || { fail "fixture $tree missing"; continue; }
	fixture "$tree"
	R="--root=$ROOT"
	case $tree in
	v2) lim=memory.max ;;
	*) lim=memory.limit_in_bytes ;;
	esac

	bad_input 2 "$tree: no command" "$R"
	bad_input 2 "$tree: unknown command" "$R" frobnicate /a
	bad_input 2 "$tree: prefix of a command" "$R" cre /a
	bad_input 2 "$tree: unknown global option" --frob "$R" tree
	bad_input 2 "$tree: unknown option" "$R" tree --frob
	bad_input 2 "$tree: json and tsv" "$R" --json --tsv tree
	bad_input 2 "$tree: create without path" "$R" create
	bad_input 2 "$tree: get without file" "$R" get /a
	bad_input 2 "$tree: tree with two paths" "$R" tree /a /b
	bad_input 2 "$tree: path escape get" "$R" get /a/../.. cgroup.procs
	bad_input 2 "$tree: path escape create" "$R" create ../x
	bad_input 2 "$tree: path escape delete" "$R" delete --recursive /a/../../..
	bad_input 2 "$tree: path escape stat" "$R" stat ..
	bad_input 2 "$tree: control character" "$R" create "$(printf '/a/x\ty')"
	bad_input 2 "$tree: file with a slash" "$R" get /a ../a/$lim
	bad_input 2 "$tree: file dot-dot" "$R" get /a ..
	bad_input 2 "$tree: set without =" "$R" set /a "$lim"
	bad_input 2 "$tree: set empty file name" "$R" set /a =5
	bad_input 2 "$tree: create root" "$R" create /
	bad_input 2 "$tree: delete root" "$R" delete --recursive /
	bad_input 4 "$tree: get missing cgroup" "$R" get /nope "$lim"
	bad_input 4 "$tree: get missing file" "$R" get /a memory.nope
	bad_input 4 "$tree: set missing cgroup" "$R" set /nope "$lim=1"
	bad_input 4 "$tree: set missing file" "$R" set /a memory.nope=1
	bad_input 4 "$tree: stat missing cgroup" "$R" stat /nope
	bad_input 4 "$tree: tree missing cgroup" "$R" tree /nope
	bad_input 4 "$tree: delete missing cgroup" "$R" delete /nope
	bad_input 4 "$tree: create missing parent" "$R" create /nope/x
	bad_input 4 "$tree: unknown controller" "$R" create -c frob /x
	bad_input 5 "$tree: create existing" "$R" create /a
	bad_input 5 "$tree: delete with children" "$R" delete /a
	bad_input 2 "$tree: move non-numeric PID" "$R" move abc /a
	bad_input 2 "$tree: move negative PID" "$R" move -- -5 /a
	bad_input 2 "$tree: mem set bad unit" "$R" mem set /a --limit 12Q
	bad_input 2 "$tree: mem set overflow" "$R" mem set /a --limit 99999999999999999999
	bad_input 2 "$tree: bw set bad duration" "$R" bw set /a --quota 5x --period 100ms

	# a write the "kernel" refuses (FILE.errno): exit 1, and an earlier write of the same
	# call is restored, so the tree ends byte-identical
	first=$(ls "$ROOT"/sys/fs/cgroup/*/a/$lim "$ROOT"/sys/fs/cgroup/a/$lim 2>/dev/null | head -n 1)
	echo EINVAL >"$first.errno"
	case $tree in
	v2) other=memory.high ;;
	*) other=memory.soft_limit_in_bytes ;;
	esac
	bad_input 1 "$tree: kernel refuses, earlier write restored" "$R" set /a "$other=4096" "$lim=8192"
	echo EBUSY >"$first.errno"
	bad_input 5 "$tree: kernel busy" "$R" set /a "$lim=8192"
	rm -f "$first.errno"

	# a symlinked cgroup directory is never followed
	d=$(dirname "$first")
	ln -s /tmp "$d/escape"
	bad_input 1 "$tree: symlinked cgroup" "$R" get /a/escape cgroup.procs
	rm -f "$d/escape"
done
done_testing
