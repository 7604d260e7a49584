#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The shell examples of README.md ("## In pipelines") and cgctl(1) ("# EXAMPLES").

  doc-examples.py OUTDIR TOP_SRCDIR

writes each example to OUTDIR/N (its text, as a shell would read it) and prints
"N SOURCE" lines.  README: the indented blocks of the section, one example per
"# comment" line (the comment dropped); cgctl.1.scd: each ``` block.  Used by
tests/cli/readme-pipelines.sh and tests/kernel/readme-pipelines-live.sh, which run
each example where it can run and fail on one they do not know.
"""
import os
import sys


def readme(path):
    out, cur, on = [], None, False
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('## '):
            on = line == '## In pipelines'
            continue
        if not on:
            continue
        if not line.startswith('    '):
            cur = None
            continue
        text = line[4:]
        if text.startswith('#'):
            cur = []
            out.append(cur)
        elif cur is not None:
            cur.append(text)
    return ['\n'.join(x) for x in out if x]


def scd(path):
    out, cur, on = [], None, False
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('# '):
            on = line == '# EXAMPLES'
            continue
        if not on:
            continue
        if line == '```':
            if cur is None:
                cur = []
            else:
                out.append('\n'.join(cur))
                cur = None
        elif cur is not None:
            cur.append(line)
    return out


def main():
    outdir, top = sys.argv[1], sys.argv[2]
    n = 0
    for src, fn in (('README.md', readme), ('man/cgctl.1.scd', scd)):
        for ex in fn(os.path.join(top, src)):
            n += 1
            with open(os.path.join(outdir, str(n)), 'w') as fp:
                fp.write(ex + '\n')
            print(n, src)
    if not n:
        sys.exit('no examples found')


main()
