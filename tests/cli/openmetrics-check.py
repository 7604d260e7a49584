#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check that a file is one OpenMetrics exposition as cgctl writes it.

  openmetrics-check.py FILE

Prints "ok FAMILIES SAMPLES", or what is wrong ("; "-separated): HELP and TYPE before a
family's samples, each family's samples together, counters' samples *_total, label
values escaped, values numbers or +Inf, no timestamps, "# EOF" last and only there.
Used by tests/cli/stat-openmetrics.sh and tests/cli/watch-openmetrics.sh.
"""
import re
import sys

lines = open(sys.argv[1]).read().split("\n")
bad = []
if len(lines) < 2 or lines[-1] != "" or lines[-2] != "# EOF":
    bad.append("no '# EOF' last")
lines = lines[:-2]
if "# EOF" in lines:
    bad.append("'# EOF' before the end (line %d)" % (lines.index("# EOF") + 1))
seen, cur, kind, samples = set(), None, {}, 0
# (a sample with a timestamp has a third field: not matched)
# (systemd hosts: the unit that owns the cgroup as a second label, escaped as cgroup's)
sample = re.compile(r'^([a-z_]+)\{cgroup="((?:[^"\\\n]|\\.)*)"'
                    r'(?:,unit="(?:[^"\\\n]|\\.)*")?(,[a-z]+="[a-z_]+")?\} '
                    r'(\+Inf|-?[0-9.e+-]+)$')
for i, l in enumerate(lines):
    m = re.match(r"^# (HELP|TYPE) ([a-z_]+) (.+)$", l)
    if m:
        name = m.group(2)
        if m.group(1) == "HELP":
            if name in seen:
                bad.append("family %s split (line %d)" % (name, i + 1))
            seen.add(name)
            cur = name
        elif m.group(3) not in ("counter", "gauge") or name != cur:
            bad.append("bad TYPE line %d: %s" % (i + 1, l))
        else:
            kind[name] = m.group(3)
        continue
    m = sample.match(l)
    if not m:
        bad.append("line %d not a sample: %r" % (i + 1, l))
        continue
    samples += 1
    want = (cur or "") + ("_total" if kind.get(cur) == "counter" else "")
    if m.group(1) != want:
        bad.append("line %d: %s in family %s" % (i + 1, m.group(1), cur))
    try:
        float(m.group(4).replace("+Inf", "inf"))
    except ValueError:
        bad.append("line %d: value %r" % (i + 1, m.group(4)))
print("; ".join(bad) if bad else "ok %d %d" % (len(seen), samples))
