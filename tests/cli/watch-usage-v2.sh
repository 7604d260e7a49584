#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: `cgctl watch` of a cgroup v2 without the cpu controller (no cpu.max; a
# systemd unit without a CPU property, issue 27) shows CPU usage from cpu.stat's
# usage_usec, which every v2 cgroup has, and no period counts; with the controller both.
. "$top_srcdir/tests/lib.sh"

fixture v2
d=$ROOT/sys/fs/cgroup/a
rm -f "$d/cpu.max" "$d/cpu.max.burst" "$d/cpu.weight"
printf 'usage_usec 5000\nuser_usec 3000\nsystem_usec 2000\n' >"$d/cpu.stat"
cg --root="$ROOT" --json watch --count 1 -i 10ms /a
expect_rc 0 "watch of a cgroup without cpu.max"
expect_out_has '"usage_usec":0,' "usage of a cgroup without cpu.max"
expect_out_has '"nr_periods":null' "periods of a cgroup without cpu.max"
cg --root="$ROOT" watch --count 1 -i 10ms /a
expect_rc 0 "watch (table) of a cgroup without cpu.max"
row=$(printf '%s\n' "$OUT" | tail -n 1)
case $row in
*" 0.0 "*) ok ;;
*) fail "the table's cpu% of a cgroup without cpu.max: $row" ;;
esac
# with the controller: usage and periods
cg --root="$ROOT" --json watch --count 1 -i 10ms /a/b
expect_rc 0 "watch of a cgroup with cpu.max"
expect_out_has '"nr_periods":0,' "periods of a cgroup with cpu.max"
done_testing
