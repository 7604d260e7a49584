#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: `cgctl stat --long` counts task states from /proc when cgroupstats cannot
# be asked (fixtures, v2); `stat --tasks` needs the running kernel and refuses --root.
. "$top_srcdir/tests/lib.sh"

fixture v1
cg --root="$ROOT" --json stat --long /a
expect_rc 0 "stat /a"
# /a holds 4242 (state S in the fixture's /proc) and 4243 (gone: not counted)
[ "$(json_get 'j["cgroups"][0]["tasks"]')" = \
  "{'running': 0, 'sleeping': 1, 'uninterruptible': 0, 'stopped': 0, 'io_wait': None, 'source': 'proc'}" ] &&
	ok || fail "v1 task states: $OUT"
bad_input 6 "stat --tasks with --root" --root="$ROOT" stat --tasks /a
expect_unchanged "stat --tasks with --root"

fixture v2
cg --root="$ROOT" --json stat --long /a
expect_rc 0 "v2 stat /a"
[ "$(json_get 'j["cgroups"][0]["tasks"]["source"]')" = proc ] && ok || fail "v2 source: $OUT"
# the v2 root has no memory.current: its usage is unknown (null), not 0
cg --root="$ROOT" --json stat /
[ "$(json_get 'j["cgroups"][0]["memory"]["usage_bytes"]')" = None ] && ok ||
	fail "v2 root usage: $OUT"
cg --root="$ROOT" --json tree
[ "$(json_get '[r["memory_usage_bytes"] for r in j["cgroups"] if r["path"] == "/"][0]')" = None ] &&
	ok || fail "v2 root usage in tree: $OUT"
done_testing
