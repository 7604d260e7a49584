#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every CPU's pageset in this machine's /proc/zoneinfo against the pcp model: batch
# exact, high_min/high_max exact where printed (6.7+), high inside [high_min, high_max].
# Read-only: creates no cgroup and changes no setting.
# run-test: shared (read-only; the pageset invariants hold whatever else runs)
helper="${top_builddir:-.}/tests/helpers/pcp-zoneinfo"
[ -r /proc/zoneinfo ] || { echo "SKIP: no /proc/zoneinfo"; exit 77; }
[ -x "$helper" ] || { echo "SKIP: $helper not built"; exit 77; }
exec "$helper"
