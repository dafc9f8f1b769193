#!/usr/bin/python3
# stresschains.py MIN-SHARE < perf-script-output: check the deferred user
# callchains perf recorded of sframe-stress, whose threads dlopen, call
# into and dlclose libsframe-stress-N.so while the samples are taken.
#
# Fails the run if any chain has a frame outside the objects the process
# had mapped (perf's "[unknown]" object), or a frame in stress
# library N that is another library's function (stress_leaf_M or
# stress_mid_M): a chain unwound with wrong or stale data.
#
# Of the other samples with user frames, at least MIN-SHARE percent must
# be complete: their outermost frame is where a process or thread starts
# (_start, _dl_start_user, clone3).  Not counted: samples whose innermost
# frame is in a function without SFrame data (gcc's crt glue such as
# _init or frame_dummy: found with readelf --sframe and nm on each
# object; their share is printed).  Every sample must be joined with its
# deferred chain: one perf could not join (its deferred record never
# came, or was lost) has the cookie, <cpu + 1> | <odd count> << 32, as
# its only user "frame", and fails the run.  Of the samples in a stress
# library's leaf, at least
# MIN-SHARE percent must also have the whole chain
#   stress_leaf_N stress_mid_N stress_work stress_thread.
#
# Copyright (C) 2026 The glibc-sframe authors.
# SPDX-License-Identifier: GPL-2.0
import os
import re
import subprocess
import sys

from callchains import (entry_points, functions_without_sframe,
                        made_up, parse_samples, unjoined, user_frames)

lib_re = re.compile(r"libsframe-stress-(\d+)\.so$")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: stresschains.py MIN-SHARE < perf-script-output")
    min_share = float(sys.argv[1])
    unknown, stale, cookies, uncovered = [], [], 0, 0
    counted = complete = leaf = leaf_full = 0
    no_sframe = {}
    for _, _, frames in parse_samples(sys.stdin):
        user = user_frames(frames)
        if not user:
            continue
        if unjoined(user):
            cookies += 1
            continue
        if made_up(user):
            unknown.append(user)
        for _, sym, obj in user:
            m = lib_re.search(os.path.basename(obj))
            other = re.fullmatch(r"stress_(leaf|mid)_(\d+)", sym)
            if m and other and other.group(2) != m.group(1):
                stale.append(user)
                break
        _, sym, obj = user[0]
        if obj not in no_sframe and os.path.exists(obj):
            no_sframe[obj] = functions_without_sframe(obj)
        if sym in no_sframe.get(obj, ()):
            uncovered += 1
            continue
        counted += 1
        syms = [s for _, s, _ in user]
        if syms[-1] in entry_points:
            complete += 1
        m = re.fullmatch(r"stress_leaf_(\d+)", syms[0])
        if m:
            leaf += 1
            if syms[1:4] == [f"stress_mid_{m.group(1)}", "stress_work",
                             "stress_thread"]:
                leaf_full += 1
    share = 100.0 * complete / counted if counted else 0.0
    leaf_share = 100.0 * leaf_full / leaf if leaf else 0.0
    print(f"samples with user frames: {counted + uncovered + cookies}; "
          f"with a frame outside the mapped objects {len(unknown)}, with "
          f"another library's function {len(stale)}; not joined with their "
          f"deferred chain by perf {cookies}; innermost in a function "
          f"without SFrame data {uncovered} "
          f"({100.0 * uncovered / max(1, counted + uncovered + cookies):.1f} %)"
          f"; of the other {counted}, "
          f"complete {complete} ({share:.1f} %); in a stress library's "
          f"leaf {leaf}, with the whole chain {leaf_full} "
          f"({leaf_share:.1f} %)")
    for what, bad in (("outside the mapped objects", unknown),
                      ("of another library", stale)):
        for frames in bad[:3]:
            print(f"a chain with a frame {what}:")
            for addr, sym, obj in frames:
                print(f"    {addr:x} {sym} ({obj})")
    ok = (counted > 0 and leaf > 0 and not unknown and not stale
          and not cookies and share >= min_share and leaf_share >= min_share)
    print(f"{'PASS' if ok else 'FAIL'}: stress chains: no frame outside the "
          f"mapped objects or of another library, every sample joined with "
          f"its deferred chain, at least {min_share} % complete")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
