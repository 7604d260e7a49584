#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixture tier: the table options of stat, tree, move and mem where (cgctl(1) TABLES):
# -o/--output (any case, order kept, +LIST), --output-all, -n/--noheadings, -b/--bytes,
# -r/--raw; an unknown column is one error line, exit 2, nothing printed or changed.
# --output-all's headers are compared whole: a key renamed in a command but not in
# src/columns.c shows there as an extra column (and its named one as all '-').
. "$top_srcdir/tests/lib.sh"

fixture v1

# -o: these columns, in this order, names in any case; -r: one space apart
cg --root "$ROOT" stat -r -o usage,Path,LIMIT /a /01/02
expect_rc 0 "stat -o"
expect_out "USAGE PATH LIMIT
8MiB /a 64MiB
1MiB /01/02 1MiB" "stat -r -o usage,Path,LIMIT"

# +LIST: the default columns, then LIST; -n: no header line
cg --root "$ROOT" stat -r -n -o +failcnt /01/02
expect_out "/01/02 1MiB 1MiB 2s 400 100 2.5s 3" "stat -r -n -o +failcnt"

# -b: sizes in bytes, times in microseconds; unlimited stays max
cg --root "$ROOT" stat -b -r -n -o path,usage,limit,cpu,throttled / /a
expect_out "/ 268435456 max 961000000 0
/a 8388608 67108864 55000000 15000000" "stat -b"

# aligned (no -r): numbers right-aligned under their header, two spaces apart
cg --root "$ROOT" stat -o path,usage,limit / /a
expect_out "PATH   USAGE  LIMIT
/     256MiB    max
/a      8MiB  64MiB" "stat -o, aligned"

# the default sets
cg --root "$ROOT" stat /a
expect_out_has "PATH  USAGE  LIMIT  CPU  PERIODS  NR-THROTTLED  THROTTLED" "stat default header"
cg --root "$ROOT" tree -r -n /a
expect_out "/a memory,cpu,cpuacct 1 8MiB 64MiB 0.500
/a/b memory,cpu,cpuacct 2 4MiB max 0.200" "tree -r -n (no tree: whole paths)"

# tree draws PATH as a tree (lsblk's NAME): each cgroup under its parent by its name,
# the top row whole; with PATH elsewhere than first, and without PATH, flat
cg --root "$ROOT" tree -o path,procs /
expect_out "PATH                       PROCS
/                              3
|-01                           1
| \`-02                         0
|-a                            1
| \`-b                          2
\`-ro                           0
  |-cpu.cfs_quota_us           -
  \`-memory.limit_in_bytes      -" "tree -o path,procs"
cg --root "$ROOT" tree -o procs,path -n /a
expect_out "    1  /a
    2  \`-b" "tree -o procs,path -n /a"
cg --root "$ROOT" tree -o procs,usage /a
expect_out "PROCS  USAGE
    1   8MiB
    2   4MiB" "tree without PATH"
# a sibling whose name extends another's ("/a-x" sorts between /a and /a/b) is no child
cp -a "$ROOT/sys/fs/cgroup/memory/a/b" "$ROOT/sys/fs/cgroup/memory/a-x"
cg --root "$ROOT" tree -c memory -o path /
expect_out "PATH
/
|-01
| \`-02
|-a
| \`-b
|-a-x
\`-ro
  \`-memory.limit_in_bytes" "tree: /a-x beside /a"
rm -rf "$ROOT/sys/fs/cgroup/memory/a-x"
cg --root "$ROOT" move --dry-run --no-plan -r 4242 /a
expect_out "PID FROM TO EXPECTED OBSERVED VERDICT NOTE
4242 /a /a - - n/a no\\x20plan\\x20(--no-plan)" "move --dry-run -r (blanks escaped)"
cg --root "$ROOT" move --dry-run --no-plan --noheadings -o pid,verdict 4242 /a
expect_out "4242  n/a" "move --noheadings"

# --output-all: every column, known names only (see the top)
header() { printf '%s\n' "$OUT" | head -n 1 | tr -s ' ' ' ' | sed 's/^ //'; }
cg --root "$ROOT" stat --output-all /a
[ "$(header)" = "PATH USAGE LIMIT FAILCNT MAX-USAGE MEMSW MEMSW-LIMIT SWAP SWAP-LIMIT \
HIGH LOW-EVENTS HIGH-EVENTS MAX-EVENTS OOM OOM-KILL SOME-AVG10 SOME-AVG60 SOME-AVG300 \
SOME-STALL FULL-AVG10 FULL-AVG60 FULL-AVG300 FULL-STALL CPU QUOTA PERIOD BURST-LIMIT PERIODS NR-THROTTLED THROTTLED \
THROTTLED-LOCAL BURSTS BURST-TIME RUNNING SLEEPING UNINTERRUPTIBLE STOPPED IO-WAIT \
STATES-FROM" ] && ok || fail "stat --output-all: $(header)"
cg --root "$ROOT" stat --long /a
[ "$(header)" = "$(cg --root "$ROOT" stat --output-all /a; header)" ] && ok ||
	fail "stat --long is not every column: $(header)"
cg --root "$ROOT" stat --long -o path,quota /a
expect_out "PATH  QUOTA
/a     50ms" "stat --long -o"
cg --root "$ROOT" tree --output-all /a
[ "$(header)" = "PATH HIERARCHIES PROCS USAGE LIMIT CPU-LIMIT" ] && ok ||
	fail "tree --output-all: $(header)"
cg --root "$ROOT" move --dry-run --no-plan --tree --output-all 4242 /a
[ "$(header)" = "PID FROM TO PROCS ELSEWHERE MOVED ALREADY VANISHED FAILED PASSES FORKS \
STOPPED CONNECTOR ELAPSED MOVES-CHARGE EXP-ANON EXP-FILE EXP-SHMEM EXP-SWAP EXPECTED \
STAYS FROM-DELTA OBSERVED VERDICT NOTE" ] && ok || fail "move --output-all: $(header)"
# (move: -n was --dry-run, now refused; the header stays)
cg --root "$ROOT" move --dry-run --no-plan --tree -r 4242 /a
[ "$(printf '%s\n' "$OUT" | wc -l)" = 2 ] && ok || fail "move --dry-run -r: $OUT"

# errors: one line naming the column, exit 2, nothing printed, nothing moved
bad_input 2 "unknown column" --root "$ROOT" stat -o path,bogus /a
case $ERR in
"cgctl: stat: --output: unknown column 'bogus' (columns: PATH,UNIT,USAGE,"*) ok ;;
*) fail "unknown column message: $ERR" ;;
esac
bad_input 2 "unknown column, tree" --root "$ROOT" tree -o PATH,FAILCNT
expect_err_line "tree -o FAILCNT"
bad_input 2 "unknown column, move" --root "$ROOT" move --no-plan -o nope 4242 /01
case $ERR in *"'nope'"*) ok ;; *) fail "move: $ERR" ;; esac
bad_input 2 "unknown column, mem where" --root "$ROOT" mem where -o nope 4242
bad_input 2 "empty column name" --root "$ROOT" stat -o path,,usage /a
case $ERR in *"empty column name"*) ok ;; *) fail "empty name: $ERR" ;; esac
bad_input 2 "-o and --output-all" --root "$ROOT" stat -o path --output-all /a
bad_input 2 "-o with --json" --root "$ROOT" --json stat -o path /a
bad_input 2 "-n with --tsv" --root "$ROOT" stat --tsv -n /a
bad_input 2 "-b with --json" --root "$ROOT" tree -b --json

# JSON and TSV are not touched by the table code
cg --root "$ROOT" --tsv stat /a
[ "$(header | tr '\t' ' ')" = "path memory.usage_bytes memory.limit_bytes memory.failcnt \
cpu.usage_usec cpu.nr_periods cpu.nr_throttled cpu.throttled_usec cpu.nr_bursts \
cpu.burst_usec" ] && ok || fail "tsv header: $OUT"
done_testing
