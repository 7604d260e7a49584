#!/bin/sh
# Fixture tier: the core commands on v1, v2 and hybrid fixture trees: output in the three
# formats, files written, and nothing else touched.
. "$top_srcdir/tests/lib.sh"

for tree in v1 v2 hybrid; do
	[ -d "$top_srcdir/tests/fixtures/$tree" ] || { fail "fixture $tree missing"; continue; }
	fixture "$tree"
	R="--root=$ROOT"
	case $tree in
	v2) lim=memory.max; mdir=$ROOT/sys/fs/cgroup ;;
	*) lim=memory.limit_in_bytes; mdir=$ROOT/sys/fs/cgroup/memory ;;
	esac

	# tree: every fixture cgroup, parsable JSON, TSV with a header
	cg "$R" tree
	expect_rc 0 "$tree: tree"
	# (drawn as a tree: /a/b is "b" under "a")
	printf '%s\n' "$OUT" | grep -A1 -E '^[|`]-a ' | grep -qE '^[| ] `-b ' && ok ||
		fail "$tree: tree lists /a/b under /a: $OUT"
	cg "$R" --json tree /a
	expect_rc 0 "$tree: tree json"
	[ "$(json_get '[c["path"] for c in j["cgroups"]][:2]')" = "['/a', '/a/b']" ] && ok ||
		fail "$tree: tree json paths: $OUT"
	cg "$R" --tsv tree /a
	[ "$(printf '%s\n' "$OUT" | head -n 1 | cut -f1,2,3)" = "$(printf 'path\thierarchies\tprocs')" ] &&
		ok || fail "$tree: tree tsv header: $OUT"

	# get: the file's value, a JSON number
	want=$(cat "$mdir/a/$lim")
	cg "$R" --json get /a "$lim"
	expect_rc 0 "$tree: get"
	got=$(json_get 'j["files"][0]["value"]')
	case $want in max) want=max ;; esac
	[ "$got" = "$want" ] && ok || fail "$tree: get $lim: $got, file has $want"
	cg "$R" get --raw /a "$lim"
	expect_out "$(cat "$mdir/a/$lim")" "$tree: get --raw"

	# set: writes that file and nothing else
	snapshot before
	cg "$R" set /a "$lim=1048576"
	expect_rc 0 "$tree: set"
	expect_no_out "$tree: set prints nothing"
	[ "$(cat "$mdir/a/$lim")" = 1048576 ] && ok || fail "$tree: set did not write $lim"
	snapshot after
	changed=$(diff "$T_TMP/snap.before" "$T_TMP/snap.after" | grep '^>' | grep -c .)
	[ "$changed" = 1 ] && ok || fail "$tree: set changed $changed files"

	# stat: normalised keys, values from the files
	cg "$R" --json stat /a
	expect_rc 0 "$tree: stat"
	[ "$(json_get 'j["cgroups"][0]["memory"]["limit_bytes"]')" = 1048576 ] && ok ||
		fail "$tree: stat limit: $OUT"
	usage_file=$([ $tree = v2 ] && echo memory.current || echo memory.usage_in_bytes)
	[ "$(json_get 'j["cgroups"][0]["memory"]["usage_bytes"]')" = "$(cat "$mdir/a/$usage_file")" ] &&
		ok || fail "$tree: stat usage: $OUT"
	[ "$(json_get '"nr_throttled" in j["cgroups"][0]["cpu"]')" = True ] && ok ||
		fail "$tree: stat cpu: $OUT"
	cg "$R" --tsv stat /a /a/b
	[ "$(printf '%s\n' "$OUT" | wc -l)" = 3 ] && ok || fail "$tree: stat tsv rows: $OUT"
	cg "$R" stat /a /nope
	expect_rc 8 "$tree: stat partial"
	expect_out_has "/a" "$tree: stat partial still prints /a"

	# create and delete
	cg "$R" create /a/new
	expect_rc 0 "$tree: create"
	[ -f "$mdir/a/new/$lim" ] && ok || fail "$tree: new cgroup has no $lim"
	cg "$R" create -p /a/new/x/y
	expect_rc 0 "$tree: create -p"
	cg "$R" delete /a/new
	expect_rc 5 "$tree: delete with children"
	cg "$R" delete --recursive /a/new
	expect_rc 0 "$tree: delete -r"
	[ ! -e "$mdir/a/new" ] && ok || fail "$tree: /a/new left behind"
	cg "$R" delete -f /a/new
	expect_rc 0 "$tree: delete -f missing"

	# a cgroup with a process is refused and kept; --move-tasks moves it up
	cg "$R" create /a/busy
	pid=$(ls "$ROOT/proc" | grep -E '^[0-9]+$' | head -n 1)
	[ -n "$pid" ] || fail "$tree: fixture has no /proc/PID"
	cg "$R" move --no-plan "$pid" /a/busy
	expect_rc 0 "$tree: attach by move"
	snapshot before
	cg "$R" delete /a/busy
	expect_rc 5 "$tree: delete busy"
	expect_unchanged "$tree: delete busy"
	cg "$R" delete --move-tasks /a/busy
	expect_rc 0 "$tree: delete --move-tasks"
	grep -qx "$pid" "$mdir/a/cgroup.procs" && ok || fail "$tree: task not moved to /a"

	# help and version
	cg "$R" help tree
	expect_rc 0 "$tree: help tree"
	cg "$R" tree --help
	[ "$OUT" = "$("$CGCTL" help tree)" ] && ok || fail "$tree: tree --help differs from help tree"
done
cg --version
expect_out_has "cgctl " "version"
done_testing
