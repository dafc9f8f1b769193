#!/usr/bin/python3
# callchains.py LEAF FRAME... [--min SHARE | --max SHARE] < perf-script-output
#
# Reads `perf script` output and counts the samples whose innermost user
# frame is the function LEAF; of those, the share whose chain continues
# with exactly the frames FRAME... (e.g. sframe_lib_mid main), in order,
# each right after the other.  Prints the counts and checks the share
# against --min (at least) or --max (at most), in percent.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: GPL-2.0
import re
import sys

args = sys.argv[1:]
limit = None
if len(args) >= 2 and args[-2] in ("--min", "--max"):
    limit = (args[-2], float(args[-1]))
    args = args[:-2]
leaf, chain = args[0], args[1:]

frame_re = re.compile(r"^\s+[0-9a-f]+\s+(\S+?)(?:\+0x[0-9a-f]+)?\s+\((.*)\)$")
samples = []
cur = None
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line.strip():
        if cur is not None:
            samples.append(cur)
        cur = None
        continue
    m = frame_re.match(line)
    if m:
        if cur is not None:
            cur.append(m.group(1))
    else:
        cur = []
if cur is not None:
    samples.append(cur)

total = len(samples)
hits = [s for s in samples if s and s[0] == leaf]
full = [s for s in hits if s[1:1 + len(chain)] == chain]
share = 100.0 * len(full) / len(hits) if hits else 0.0
depth = sum(len(s) for s in hits) / len(hits) if hits else 0.0
print(f"samples {total}, in {leaf} {len(hits)}, reaching "
      f"{' -> '.join([leaf] + chain)}: {len(full)} ({share:.1f} %), "
      f"mean depth {depth:.1f}")
if not hits:
    print(f"FAIL: no sample in {leaf}")
    sys.exit(1)
if limit:
    op, value = limit
    ok = share >= value if op == "--min" else share <= value
    print(f"{'PASS' if ok else 'FAIL'}: share {share:.1f} % "
          f"{'>=' if op == '--min' else '<='} {value} %")
    sys.exit(0 if ok else 1)
