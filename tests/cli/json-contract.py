#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The output contract of cgctl(1) OUTPUT, checked by tests/cli/json-contract.sh.

  json-contract.py json NAME [KEYS]   stdin is one JSON document (an object)
  json-contract.py jsonl NAME [KEYS]  stdin is one JSON object per line (watch)
  json-contract.py tsv NAME           stdin is one TSV table
  json-contract.py same NAME A B      the key sets A and B (written by json/jsonl) agree
  json-contract.py batch FILE         each line of FILE is one of the above, tab-separated,
                                      with the input's file in place of stdin
                                      (MODE NAME INPUT [KEYS], same NAME A B), in order

Prints one line per violation and exits 1 if there is any; batch prints one line per
line of FILE instead, "ok" or "fail" and the violations, and exits 0 (one Python start
for all checks of a test: each start costs 30-500 ms, the cgctl run it checks ~70 ms).
"""
import json
import re
import sys

KEY = re.compile(r'^[a-z][a-z0-9_]*$')
# unit spellings the scheme replaced: times are _usec, fractions _ratio (0..1), CPU counts
# _cpus, sizes _bytes
BAD_SUFFIX = re.compile(r'(_us|_ms|_ns|_s|_sec|_secs|_seconds|_percent|_pct|_fraction|'
                        r'_frac|_kb|_kib|_mb|_mib|_pages)$')
BAD_KEYS = {'cpus', 'percent', 'fraction', 'seconds', 'time', 'ncpus', 'ncpu'}
INT_STR = re.compile(r'^-?[0-9]+$')
# objects that carry a kernel keyed file's keys verbatim (memory.stat)
VERBATIM = {'stat'}
# the kernel's unlimited: PAGE_COUNTER_MAX pages (LONG_MAX rounded down to a page)
UNLIMITED_MIN = 2**63 - 65536


def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def check_value(p, k, x, errs):
    if k.endswith('_bytes') and x is not None:
        if not (isinstance(x, int) and not isinstance(x, bool)) or (x < 0 and 'delta' not in k):
            errs.add('%s: bytes must be a whole number (>= 0 but for deltas) or null: %r' % (p, x))
    if k.endswith('_usec') and x is not None and not is_num(x):
        errs.add('%s: microseconds must be a number or null: %r' % (p, x))
    if k.endswith('_ratio') and x is not None and not (is_num(x) and 0 <= x <= 1):
        errs.add('%s: a ratio is a number in 0..1 or null: %r' % (p, x))
    if k.endswith('_cpus') and x is not None and not (is_num(x) and x >= 0):
        errs.add('%s: CPUs are a number >= 0 or null: %r' % (p, x))


def walk(v, path, errs, keys):
    """Check @v; record every key path in @keys as path -> 'null' or 'set'."""
    if isinstance(v, dict):
        verbatim = path.split('.')[-1] in VERBATIM
        for k, x in v.items():
            p = path + '.' + k if path else k
            if verbatim:
                if is_num(x) and x >= UNLIMITED_MIN:
                    errs.add('%s: unlimited as a number (%r)' % (p, x))
                continue
            keys[p] = 'set' if x is not None or keys.get(p) == 'set' else 'null'
            if not KEY.match(k):
                errs.add('%s: key is not snake_case' % p)
            if BAD_SUFFIX.search(k) or k in BAD_KEYS:
                errs.add('%s: unit not in the naming scheme (_bytes _usec _ratio _cpus)' % p)
            check_value(p, k, x, errs)
            walk(x, p, errs, keys)
    elif isinstance(v, list):
        for x in v:
            walk(x, path + '[]', errs, keys)
    elif is_num(v):
        if v >= UNLIMITED_MIN:
            errs.add('%s: unlimited as a number (%r)' % (path, v))
    elif isinstance(v, str):
        if v in ('max', 'unlimited') or INT_STR.match(v):
            errs.add('%s: %r: a number or unlimited as a string' % (path, v))


def check_json(text, lines):
    errs, keys = set(), {}
    if not text.strip():
        return {'no JSON document on standard output'}, keys
    if not text.endswith('\n'):
        errs.add('output does not end in a newline')
    docs = text[:-1].split('\n') if lines else [text]
    for d in docs:
        try:
            j = json.loads(d)
        except ValueError as e:
            errs.add('not one JSON document%s: %s' % (' per line' if lines else '', e))
            continue
        if not isinstance(j, dict):
            errs.add('the document is not an object')
        walk(j, '', errs, keys)
    return errs, keys


def check_tsv(text):
    errs = set()
    rows = text.split('\n')
    if not text.endswith('\n'):
        errs.add('output does not end in a newline')
    rows.pop()
    if not rows or not rows[0]:
        return {'no TSV header'}
    if '' in rows:
        errs.add('more than one table (an empty line at row %d)' % rows.index(''))
    n = len(rows[0].split('\t'))
    for i, r in enumerate(rows):
        cells = r.split('\t') if r else []
        if r and len(cells) != n:
            errs.add('row %d has %d cells, the header %d' % (i, len(cells), n))
        for c in cells:
            if INT_STR.match(c) and int(c) >= UNLIMITED_MIN:
                errs.add('row %d: unlimited as a number (%s)' % (i, c))
    return errs


def load_keys(f):
    with open(f) as fp:
        return dict(line.rstrip('\n').split('\t') for line in fp if line.strip())


def covered(p, other):
    """@p is absent from @other: fine if @other has an ancestor of it that is null."""
    parts = p.split('.')
    for i in range(1, len(parts)):
        if other.get('.'.join(parts[:i])) == 'null':
            return True
    return False


def check_same(a, b):
    ka, kb = load_keys(a), load_keys(b)
    errs = set()
    for p in ka:
        if p not in kb and not covered(p, kb):
            errs.add('%s: only in the first' % p)
    for p in kb:
        if p not in ka and not covered(p, ka):
            errs.add('%s: only in the second' % p)
    return errs


def check(mode, args, read):
    """Violations of one check: @args as after MODE NAME, @read() its input."""
    if mode == 'same':
        return check_same(args[0], args[1])
    if mode == 'tsv':
        return check_tsv(read())
    errs, keys = check_json(read(), mode == 'jsonl')
    if args:
        with open(args[0], 'w') as fp:
            fp.write(''.join('%s\t%s\n' % kv for kv in sorted(keys.items())))
    return errs


def read_file(f):
    with open(f) as fp:
        return fp.read()


def batch(f):
    with open(f) as fp:
        jobs = [line.rstrip('\n').split('\t') for line in fp if line.strip()]
    for job in jobs:
        mode, name, args = job[0], job[1], job[2:]
        if mode == 'same':
            errs = check(mode, args, None)
        else:
            errs = check(mode, args[1:], lambda: read_file(args[0]))
        print('fail\t' + '; '.join('%s: %s' % (name, e) for e in sorted(errs))
              if errs else 'ok')
    return 0


def main():
    mode, name = sys.argv[1], sys.argv[2]
    if mode == 'batch':
        return batch(name)
    errs = check(mode, sys.argv[3:], sys.stdin.read)
    for e in sorted(errs):
        print('%s: %s' % (name, e))
    return 1 if errs else 0


sys.exit(main())
