#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: on a host whose PID 1 is systemd (below --root: the directory
# run/systemd/system, as sd_booted() decides), stat, tree, watch --openmetrics and their
# JSON name the unit that owns each cgroup (issue 27): a UNIT column, a "unit" key, a
# unit label.  A name with systemd's escape prints as written ("\x2d", not the table
# encoding's "\x5cx2d") and can be pasted back.  Without systemd: no column, no key, no
# label (the other fixture tests keep every byte of that).
. "$top_srcdir/tests/lib.sh"

fixture v2
cg=$ROOT/sys/fs/cgroup
esc='system-serial\x2dgetty.slice'
# cgroups as systemd names them, each a copy of /a/b (a leaf)
for d in system.slice system.slice/hog.service "system.slice/$esc"; do
	cp -a "$cg/a/b" "$cg/$d"
done

# without systemd: nothing of it
cg --root="$ROOT" tree /system.slice
expect_rc 0 "tree without systemd"
case $(printf '%s\n' "$OUT" | head -n 1) in
*UNIT*) fail "tree without systemd has a UNIT column: $OUT" ;;
*) ok ;;
esac
cg --root="$ROOT" --json stat /system.slice/hog.service
case $OUT in *'"unit"'*) fail "stat --json without systemd: $OUT" ;; *) ok ;; esac
cg --root="$ROOT" stat --openmetrics /system.slice/hog.service
case $OUT in *'unit="'*) fail "stat --openmetrics without systemd: $OUT" ;; *) ok ;; esac

mkdir -p "$ROOT/run/systemd/system"
cg --root="$ROOT" tree /system.slice
expect_rc 0 "tree with systemd"
hdr=$(printf '%s\n' "$OUT" | head -n 1 | tr -s ' ' ' ')
case $hdr in
"PATH UNIT HIERARCHIES"*) ok ;;
*) fail "tree's header with systemd: $hdr" ;;
esac
case $OUT in
*"$esc  "*"$esc"*) ok ;;
*) fail "tree does not print $esc as written: $OUT" ;;
esac
case $OUT in *x5c*) fail "tree encodes the backslash: $OUT" ;; *) ok ;; esac
case $OUT in *"hog.service  "*"hog.service"*) ok ;; *) fail "tree's hog.service: $OUT" ;; esac
# pasted back
cg --root="$ROOT" --json stat "/system.slice/$esc"
expect_rc 0 "stat of the pasted name"
expect_out_has '"unit":"system-serial\\x2dgetty.slice"' "stat's unit of $esc"
cg --root="$ROOT" stat /system.slice/hog.service
expect_rc 0 "stat with systemd"
hdr=$(printf '%s\n' "$OUT" | head -n 1 | tr -s ' ' ' ')
case $hdr in "PATH UNIT USAGE"*) ok ;; *) fail "stat's header with systemd: $hdr" ;; esac
expect_out_has "/system.slice/hog.service  hog.service" "stat's UNIT cell"
cg --root="$ROOT" --json tree /system.slice
expect_out_has '"path":"/system.slice","unit":"system.slice"' "tree's unit of a slice"
cg --root="$ROOT" stat --openmetrics /system.slice/hog.service
expect_out_has 'cgctl_memory_usage_bytes{cgroup="/system.slice/hog.service",unit="hog.service"}' \
	"stat --openmetrics's unit label"
if command -v python3 >/dev/null; then
	printf '%s\n' "$OUT" >"$T_TMP/om"
	chk=$(python3 "$top_srcdir/tests/cli/openmetrics-check.py" "$T_TMP/om")
	case $chk in
	"ok "*) ok ;;
	*) fail "stat --openmetrics with a unit label: $chk" ;;
	esac
fi
cg --root="$ROOT" watch --openmetrics --count 1 /system.slice/hog.service
expect_out_has ',unit="hog.service"}' "watch --openmetrics's unit label"
# -r keeps libsmartcols' encoding: cells split unambiguously
cg --root="$ROOT" tree -r -o path "/system.slice/$esc"
expect_out "PATH
/system.slice/system-serial\\x5cx2dgetty.slice" "tree -r encodes the backslash of \\x"
done_testing
