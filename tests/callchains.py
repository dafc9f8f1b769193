#!/usr/bin/python3
# callchains.py --made-up < perf-script-output
# callchains.py --made-up-raw [N] < perf-report-D-output
# callchains.py LEAF FRAME... [--min SHARE | --max SHARE] [--mapped]
#               [--leaf-share SHARE] [--leaf-count N]
#               [--min-whole SHARE] [--in FRAME] [--never FRAME,SPEC]...
#               [--unmapped LO-HI@TIME]
#               < perf-script-output
#
# Reads `perf script` output and counts the samples whose innermost
# frame is LEAF; of those, the share whose chain continues with FRAME...
# in order, each right after the other.  A frame is SYMBOL (in any
# object), SYMBOL@OBJECT (OBJECT: the file name of the object perf
# symbolized it in, or a glob on it, e.g. libc.so*; SYMBOL may be a glob
# too, e.g. _dl_runtime_resolve*), +@OBJECT (one or more frames in
# OBJECT, whatever their symbols), *@OBJECT (zero or more), or $ (the
# chain ends here).  Prints the counts and the mean chain depth, and
# checks the share against --min (at least) or --max (at most), in
# percent.  Counts the samples, whatever their leaf, with a user frame
# outside every mapped object (perf's "[unknown]" object: perf records
# executable mappings only, so a frame in no executable memory, a
# made-up frame); --mapped fails the run if there is one.  --leaf-share
# fails the run if fewer than SHARE percent of all samples are in LEAF
# (the workload must spend its time there); --leaf-count if fewer than
# N samples are in LEAF.  --min-whole fails the run if fewer than SHARE
# percent of all samples with user frames, whatever their leaf, have a
# chain that reaches the thread's first frame (_start, clone3...).
# --in FRAME counts only the samples in LEAF that have a frame matching
# FRAME anywhere in their chain (e.g. a kernel function the samples of
# interest pass through).  --never FRAME,SPEC (repeatable) fails the run
# if any sample, whatever its leaf, that has a frame matching FRAME also
# has one matching SPEC (e.g. samples taken after exec replaced the
# program that still show that program's frames).
# --unmapped
# fails the run if any sample taken after TIME (perf's clock, e.g. perf
# record -k mono) has a frame whose address lies in [LO, HI): an object
# unmapped at TIME.
#
# With --made-up, only that count: the samples with user frames and, of
# their frames, those outside every mapped object; fails if there is
# one (tests/kernel/hostile's profiles, whose programs register
# garbage).  With --made-up-raw, the same of the deferred callchains in
# perf report -D's dump, against the executable mappings its MMAP and
# MMAP2 records show for each pid (tests/kernel/guest-rounds, whose
# profile has a kprobe event, which the guests' perf script cannot
# read); with N, it also fails if there are fewer than N deferred
# callchains or one has no frame (the exec tracepoint's profiles of
# tests/kernel/guest-hostile).  With --late-raw ADDR, of the same dump:
# the samples taken at ADDR (a kprobe on perf's deferred callback: their
# IP within 16 bytes of it) whose user chain the kernel stored at once
# (a request answered from the entry's cached trace, after its deferred
# callback ran) and, of those followed by their thread's deferred
# record, how many carry that record's chain; fails if none does or one
# does not (tests/kernel/guest-rounds).
# Other checks import its parser, parse_samples.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: GPL-2.0
import fnmatch
import os
import re
import shutil
import subprocess
import sys


def frame_matches(spec, frame):
    # The object follows the last @ (perf names PLT stubs f@plt).
    sym, dso = spec.rsplit("@", 1) if "@" in spec else (spec, None)
    name = os.path.basename(frame[2])
    if dso is not None and name != dso and not fnmatch.fnmatchcase(name, dso):
        return False
    return sym in ("+", "*") or fnmatch.fnmatchcase(frame[1], sym)


def chain_matches(specs, frames):
    """True if FRAMES begins with frames matching SPECS."""
    if not specs:
        return True
    if specs[0] == "$":
        return not frames
    if specs[0].startswith("*@"):
        # Zero frames, or one and maybe more.
        return (chain_matches(specs[1:], frames)
                or chain_matches(["+" + specs[0][1:]] + specs[1:], frames))
    if not frames or not frame_matches(specs[0], frames[0]):
        return False
    if specs[0].startswith("+@"):
        # One frame matched; either stop here or take more.
        return (chain_matches(specs[1:], frames[1:])
                or chain_matches(specs, frames[1:]))
    return chain_matches(specs[1:], frames[1:])


# Where a process or thread starts: a complete chain ends there.
entry_points = {"_start", "_dl_start_user", "clone3", "__clone3",
                "__GI___clone3", "thread_start"}


def user_frames(frames):
    # User addresses have the top byte clear on x86_64 and arm64.
    return [f for f in frames if f[0] < 1 << 56]


def unjoined(user):
    """perf printed a deferred-callchain cookie, not a frame: the only
    user entry, outside every mapped object (a real chain's first entry
    is the interrupted instruction), shaped like a cookie."""
    if len(user) != 1 or user[0][2] != "[unknown]":
        return False
    # kernel/unwind/deferred.c: the CPU number + 1 in the low half, a
    # per-CPU count with its lowest bit always set in the high half.
    cookie = user[0][0]
    return (cookie >> 32) & 1 == 1 and 1 <= cookie & 0xffffffff <= 4096


def functions_without_sframe(path):
    """Names of OBJECT's functions that no SFrame FDE covers."""
    out = subprocess.run(["readelf", "--sframe", path], capture_output=True,
                         text=True).stdout
    fdes = [(int(a, 16), int(a, 16) + int(n)) for a, n in re.findall(
        r"func idx \[\d+\]: pc = (0x[0-9a-f]+), size = (\d+) bytes", out)]
    names = set()
    out = subprocess.run(["nm", "--defined-only", path], capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            addr = int(parts[0], 16)
            if not any(lo <= addr < hi for lo, hi in fdes):
                names.add(parts[2])
    return names


frame_re = re.compile(
    r"^\s+([0-9a-f]+)\s+(\S+?)(?:\+0x[0-9a-f]+)?\s+\((.*)\)$")
time_re = re.compile(r"\s(\d+\.\d+):")


def parse_samples(stream):
    """The samples of perf script output: a list of (TIME, HEADER,
    FRAMES), FRAMES innermost first, each (ADDRESS, SYMBOL, OBJECT)."""
    samples = []
    cur = None
    for line in stream:
        line = line.rstrip("\n")
        if not line.strip():
            if cur is not None:
                samples.append(cur)
            cur = None
            continue
        m = frame_re.match(line)
        if m:
            if cur is None:
                sys.exit(f"callchains.py: a frame outside a sample: {line}")
            if m.group(3) == "inlined":
                sys.exit("callchains.py: inlined frames: use perf script "
                         "--no-inline")
            cur[2].append((int(m.group(1), 16), m.group(2), m.group(3)))
        else:
            # A sample's header line.
            if cur is not None:
                samples.append(cur)
            t = time_re.search(" " + line)
            cur = (float(t.group(1)) if t else None, line, [])
    if cur is not None:
        samples.append(cur)
    return samples


def made_up(user):
    """USER's frames outside every mapped object (not a cookie)."""
    if unjoined(user):
        return []
    return [f for f in user if f[2] == "[unknown]"]


mmap_re = re.compile(r"PERF_RECORD_MMAP2? (-?\d+)/-?\d+: \[0x([0-9a-f]+)"
                     r"\(0x([0-9a-f]+)\) @ [^]]*\]: (\S+) ")
deferred_re = re.compile(r"PERF_RECORD_CALLCHAIN_DEFERRED.*?: (\d+)/\d+: ")
entry_re = re.compile(r"^\.\.\.\.\.\s+\d+: ([0-9a-f]+)$")


def made_up_raw(stream):
    """(deferred callchains, their frames, those outside the executable
    mappings of their pid) of perf report -D output.  Every mapping is
    kept to the end: the records are not in time order."""
    text, chains, pid = {}, [], None
    for line in stream:
        m = mmap_re.search(line)
        if m:
            # MMAP2 shows the protection (r-xp), MMAP x or r.
            if m.group(4) == "x" or m.group(4)[2:3] == "x":
                start = int(m.group(2), 16)
                text.setdefault(m.group(1), []).append(
                    (start, start + int(m.group(3), 16)))
            pid = None
            continue
        m = deferred_re.search(line)
        if m:
            pid = m.group(1)
            chains.append((pid, []))
            continue
        m = entry_re.match(line)
        if m and pid is not None:
            chains[-1][1].append(int(m.group(1), 16))
        elif not line.startswith("..."):
            pid = None
    frames = sum(len(c) for _, c in chains)
    bad = [a for p, c in chains for a in c
           if not any(lo <= a < hi for lo, hi in text.get(p, ()))]
    empty = sum(1 for _, c in chains if not c)
    return len(chains), frames, bad, empty


sample_re = re.compile(r"PERF_RECORD_SAMPLE\(.*?\): \d+/(\d+): 0x([0-9a-f]+) ")
deferred_tid_re = re.compile(r"PERF_RECORD_CALLCHAIN_DEFERRED.*?: \d+/(\d+): ")
# perf's context marks (PERF_CONTEXT_*: the top 4095 values), which
# perf report -D names after the value.
CONTEXT_MIN = 2**64 - 4095
CONTEXT_USER = 2**64 - 512
chain_entry_re = re.compile(
    r"^\.\.\.\.\.\s+\d+: ([0-9a-f]+)(?: \(PERF_CONTEXT_\w+\))?$")


def late_raw(stream, addr):
    """(samples at ADDR with a user chain stored at once, those followed
    by their thread's deferred record, those whose chain is not that
    record's) of perf report -D output.  The kprobe event on perf's
    deferred callback samples the task before the callback writes its
    record, in the same CPU's buffer."""
    records, cur = [], None
    for line in stream:
        m = sample_re.search(line)
        if m:
            at = addr <= int(m.group(2), 16) < addr + 16
            cur = ["sample" if at else "other", m.group(1), []]
            records.append(cur)
            continue
        m = deferred_tid_re.search(line)
        if m:
            cur = ["deferred", m.group(1), []]
            records.append(cur)
            continue
        m = chain_entry_re.match(line.rstrip("\n"))
        if m and cur is not None:
            cur[2].append(int(m.group(1), 16))
        elif not line.startswith("..."):
            cur = None
    stored, paired, differ = 0, 0, 0
    for i, (kind, tid, chain) in enumerate(records):
        if kind != "sample" or CONTEXT_USER not in chain:
            continue
        stored += 1
        user = [a for a in chain[chain.index(CONTEXT_USER) + 1:]
                if a < CONTEXT_MIN]
        nxt = next((r for r in records[i + 1:] if r[1] == tid), None)
        if nxt is None or nxt[0] != "deferred":
            continue
        paired += 1
        record = [a for a in nxt[2] if a < CONTEXT_MIN]
        if not user or record[:len(user)] != user:
            differ += 1
    return stored, paired, differ


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--late-raw":
        stored, paired, differ = late_raw(sys.stdin, int(args[1], 16))
        good = paired > 0 and differ == 0
        print(f"{'PASS' if good else 'FAIL'}: samples with a user chain "
              f"stored at once {stored}, followed by their thread's "
              f"deferred record {paired}, with a chain other than the "
              f"record's {differ}")
        sys.exit(0 if good else 1)
    if args[:1] == ["--made-up-raw"] and len(args) <= 2:
        chains, frames, bad, empty = made_up_raw(sys.stdin)
        good = chains and not bad
        least = ""
        if len(args) == 2:
            good = good and chains >= int(args[1]) and not empty
            least = f" (at least {args[1]}), without a frame {empty}"
        print(f"{'PASS' if good else 'FAIL'}: deferred callchains {chains}"
              f"{least}, their frames {frames}, outside the executable "
              f"mappings {len(bad)}"
              + (" (" + " ".join(f"{a:#x}" for a in bad[:8]) + ")"
                 if bad else ""))
        sys.exit(0 if good else 1)
    if args == ["--made-up"]:
        users = [u for u in (user_frames(f) for _, _, f in
                             parse_samples(sys.stdin)) if u]
        frames = sum(len(u) for u in users)
        bad = [f for u in users for f in made_up(u)]
        print(f"{'PASS' if users and not bad else 'FAIL'}: samples with "
              f"user frames {len(users)}, their frames {frames}, outside "
              f"the mapped objects {len(bad)}"
              + (" (" + " ".join(f"{a:#x}" for a, _, _ in bad[:8]) + ")"
                 if bad else ""))
        sys.exit(0 if users and not bad else 1)
    limit = None
    unmapped = None
    mapped = "--mapped" in args
    args = [a for a in args if a != "--mapped"]
    leaf_share = leaf_count = min_whole = inside = None
    never = []
    while len(args) >= 2 and args[-2] in ("--min", "--max", "--unmapped",
                                          "--leaf-share", "--leaf-count",
                                          "--min-whole", "--in", "--never"):
        if args[-2] == "--never":
            if args[-1].count(",") != 1:
                sys.exit(f"callchains.py: bad --never {args[-1]}")
            never.append(args[-1].split(","))
        elif args[-2] == "--in":
            inside = args[-1]
        elif args[-2] == "--min-whole":
            min_whole = float(args[-1])
        elif args[-2] == "--leaf-share":
            leaf_share = float(args[-1])
        elif args[-2] == "--leaf-count":
            leaf_count = int(args[-1])
        elif args[-2] == "--unmapped":
            m = re.fullmatch(r"(0x[0-9a-f]+)-(0x[0-9a-f]+)@([0-9.]+)",
                             args[-1])
            if not m:
                sys.exit(f"callchains.py: bad --unmapped {args[-1]}")
            unmapped = (int(m.group(1), 16), int(m.group(2), 16),
                        float(m.group(3)))
        else:
            limit = (args[-2], float(args[-1]))
        args = args[:-2]
    if not args or any(a.startswith("--") for a in args):
        sys.exit("usage: callchains.py LEAF FRAME... [--min|--max SHARE] "
                 "[--mapped] [--leaf-share SHARE] [--leaf-count N] "
                 "[--min-whole SHARE] [--in FRAME] [--never FRAME,SPEC]... "
                 "[--unmapped LO-HI@TIME]")
    pattern = args
    samples = [(t, f) for t, _, f in parse_samples(sys.stdin)]
    total = len(samples)
    hits = [f for _, f in samples if f and frame_matches(pattern[0], f[0])
            and (inside is None or any(frame_matches(inside, g) for g in f))]
    full = [f for f in hits if chain_matches(pattern, f)]
    share = 100.0 * len(full) / len(hits) if hits else 0.0
    depth = sum(len(f) for f in hits) / len(hits) if hits else 0.0
    where = pattern[0] + (f" through {inside}" if inside else "")
    print(f"samples {total}, in {where} {len(hits)}, reaching "
          f"{' -> '.join(pattern)}: {len(full)} ({share:.1f} %), "
          f"mean depth {depth:.1f}")
    # Every sample, whatever its leaf: how many chains reach the thread's
    # first frame, and how many perf could not join with their deferred
    # chain (there must be none).
    users = [user_frames(f) for _, f in samples]
    users = [u for u in users if u]
    lone = sum(1 for u in users if unjoined(u))
    whole = sum(1 for u in users if u[-1][1] in entry_points)
    made_up_users = [u for u in users if made_up(u)]
    # Samples whose innermost frame is in code without SFrame data (gcc's
    # crt glue such as _init or frame_dummy): their chains cannot start.
    # Found with binutils, which a guest may lack: then not counted.
    glue, no_sframe = 0, {}
    tools = shutil.which("readelf") and shutil.which("nm")
    for u in users if tools else ():
        _, sym, obj = u[0]
        if obj not in no_sframe:
            no_sframe[obj] = (functions_without_sframe(obj)
                              if os.path.exists(obj) else set())
        glue += sym in no_sframe[obj]
    glue = (f"{glue} ({100.0 * glue / max(1, len(users)):.1f} %)" if tools
            else "not counted (no readelf)")
    print(f"all samples with user frames {len(users)}: reaching the "
          f"thread's first frame {whole} "
          f"({100.0 * whole / max(1, len(users)):.1f} %), not joined with "
          f"their deferred chain {lone}, innermost in code without SFrame "
          f"data {glue}, with a frame outside the mapped objects "
          f"{len(made_up_users)} "
          f"({100.0 * len(made_up_users) / max(1, len(users)):.1f} %)")
    ok = True
    # Every sample must have its user chain: the kernel answers every
    # request for a deferred unwind, also when the task exits first.
    if lone:
        print(f"FAIL: {lone} samples without their user chain (perf has "
              f"only the deferred unwind's cookie)")
        ok = False
    if not hits:
        print(f"FAIL: no sample in {where}")
        ok = False
    for frame, spec in never:
        through = [f for _, f in samples
                   if any(frame_matches(frame, g) for g in f)]
        bad = [f for f in through if any(frame_matches(spec, g) for g in f)]
        print(f"{'PASS' if not bad else 'FAIL'}: samples through {frame}: "
              f"{len(through)}, with a frame in {spec}: {len(bad)}")
        ok = ok and not bad
    if min_whole is not None:
        share_whole = 100.0 * whole / max(1, len(users))
        good = users and share_whole >= min_whole
        print(f"{'PASS' if good else 'FAIL'}: {share_whole:.1f} % of all "
              f"samples reach the thread's first frame, at least "
              f"{min_whole} %")
        ok = ok and good
    if leaf_share is not None:
        in_leaf = 100.0 * len(hits) / max(1, total)
        good = in_leaf >= leaf_share
        print(f"{'PASS' if good else 'FAIL'}: {in_leaf:.1f} % of the samples "
              f"in {where}, at least {leaf_share} %")
        ok = ok and good
    if leaf_count is not None:
        good = len(hits) >= leaf_count
        print(f"{'PASS' if good else 'FAIL'}: {len(hits)} samples in "
              f"{where}, at least {leaf_count}")
        ok = ok and good
    if mapped and made_up_users:
        print(f"FAIL: {len(made_up_users)} samples with a frame outside the "
              f"mapped objects, e.g. " + " ".join(
                  f"{a:#x}" for a, _, _ in made_up(made_up_users[0])))
        ok = False
    if unmapped:
        lo, hi, when = unmapped
        later = [f for t, f in samples if t is not None and t > when]
        bad = [f for f in later if any(lo <= a < hi for a, _, _ in f)]
        # The check means something only if the leaf ran again after TIME
        # and, where chains are expected (--min), they were unwound.
        again = [f for f in later if f and frame_matches(pattern[0], f[0])]
        if limit and limit[0] == "--min":
            again = [f for f in again if chain_matches(pattern, f)]
        print(f"samples after {when:.6f}: {len(later)}, in {pattern[0]}"
              f"{' with the full chain' if limit and limit[0] == '--min' else ''}"
              f": {len(again)}, with a frame in the unmapped range "
              f"{lo:#x}-{hi:#x}: {len(bad)}")
        if not again or bad:
            print("FAIL: " + ("no such sample after that time" if not again else
                              "frames resolved into an unmapped object"))
            ok = False
    if limit and hits:
        op, value = limit
        good = share >= value if op == "--min" else share <= value
        print(f"{'PASS' if good else 'FAIL'}: share {share:.1f} % "
              f"{'>=' if op == '--min' else '<='} {value} %")
        ok = ok and good
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
