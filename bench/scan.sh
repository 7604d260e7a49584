#!/bin/sh
# bench/scan.sh: page inventory of a 1 GiB task (4 KiB pages, then 2 MiB THP) against
# the page-types per-page method and the pagemap-only floor, measured in the same run.
b="${top_builddir:-.}/bench/scan"
"$b" || exit $?
"$b" --thp
