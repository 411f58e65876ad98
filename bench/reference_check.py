#!/usr/bin/env python3
"""The way traces are checked without rblnsim: json.load, then plain Python.

The same contract rules as `rblnsim check` (profiler/analysis/contract_checks.cc, rule for rule)
and the launch-latency figures of `rblnsim analyze` (reference_latency.py), so bench/compare.sh
can time both on one file and check that they agree. Standard library only.

Usage: reference_check.py TRACE [--sync] [--json OUT]
"""
import argparse
import json
import sys
from collections import defaultdict

import reference_latency
from reference_trace import (ARGS, CAT, DEVICE_RULE_CATS, DUR, FINISH, HOST_CATS, LAUNCH_ID,
                             LAUNCHER_CATS, MARKER, NAME, PH, PID, START, TID, TS, Trace, int_arg,
                             load)

RULES = ("device-category", "marker-per-launch", "marker-inside-op", "device-after-marker",
         "sync-end-inside-op", "flow-start", "flow-finish", "flow-unique", "device-rows-named",
         "no-negative-durations", "inside-capture-window", "one-process-name")


def is_marker(e):
    return e[CAT] == "privateuse1_runtime" and e[NAME] == MARKER


class LaunchIndex:
    """launch_index.cc: markers, device slices by launch, each marker's enclosing op."""

    def __init__(self, t):
        ev = t.events
        host_rows = {(e[PID], e[TID]) for e in ev if e[CAT] in HOST_CATS}
        self.markers, self.device = [], []
        self.is_marker, self.is_device = set(), set()
        self.markers_by_launch = defaultdict(list)
        self.slices_by_launch = defaultdict(list)
        for i, e in enumerate(ev):
            if is_marker(e):
                self.markers.append(i)
                self.is_marker.add(i)
                lid = int_arg(e[ARGS])
                if lid is not None:
                    self.markers_by_launch[lid].append(i)
                continue
            if not e[PH]:
                continue
            carries = bool(e[ARGS]) and LAUNCH_ID in e[ARGS]
            if not carries and (e[PID], e[TID]) in host_rows:
                continue
            self.device.append(i)
            self.is_device.add(i)
            lid = int_arg(e[ARGS])
            if lid is not None:
                self.slices_by_launch[lid].append(i)
        self.launcher = self._find_launchers(ev)

    def _find_launchers(self, ev):
        rows = defaultdict(list)
        for m in self.markers:
            e = ev[m]
            rows[(e[PID], e[TID])].append((e[TS], True, -e[DUR], m))
        marker_rows = set(rows)
        for i, e in enumerate(ev):
            if e[PH] and e[CAT] in LAUNCHER_CATS and i not in self.is_device:
                key = (e[PID], e[TID])
                if key in marker_rows:
                    rows[key].append((e[TS], False, -e[DUR], i))
        launcher = {}
        for items in rows.values():
            items.sort()
            stack = []
            for ts, marker, _, i in items:
                while stack and ev[stack[-1]][TS] + ev[stack[-1]][DUR] < ts:
                    stack.pop()
                if not marker:
                    stack.append(i)
                    continue
                end = ts + ev[i][DUR]
                for op in reversed(stack):
                    if ev[op][TS] <= ts and end <= ev[op][TS] + ev[op][DUR]:
                        launcher[i] = op
                        break
        return launcher

    def marker_of(self, lid):
        m = self.markers_by_launch.get(lid)
        return m[0] if m else None


def check(t, sync=False):
    """{rule id: violation count, or None when skipped}."""
    ev, flow = t.events, t.flow
    ix = LaunchIndex(t)
    n = dict.fromkeys(RULES, 0)
    end = lambda e: e[TS] + e[DUR]  # noqa: E731
    n["device-category"] = sum(1 for i in ix.device if ev[i][CAT] not in DEVICE_RULE_CATS)

    v = sum(1 for m in ix.markers if int_arg(ev[m][ARGS]) is None)
    v += sum(len(ms) - 1 for ms in ix.markers_by_launch.values())
    v += sum(1 for lid in ix.slices_by_launch if lid not in ix.markers_by_launch)
    v += sum(1 for i in ix.device
             if ev[i][ARGS] and LAUNCH_ID in ev[i][ARGS] and int_arg(ev[i][ARGS]) is None)
    n["marker-per-launch"] = v
    n["marker-inside-op"] = sum(1 for m in ix.markers if m not in ix.launcher)

    v = 0
    for lid, slices in ix.slices_by_launch.items():
        m = ix.marker_of(lid)
        if m is not None:
            v += sum(1 for i in slices if ev[i][TS] < ev[m][TS])
    n["device-after-marker"] = v

    if sync:
        v = 0
        for lid, slices in ix.slices_by_launch.items():
            m = ix.marker_of(lid)
            op = ix.launcher.get(m) if m is not None else None
            if op is not None:
                v += sum(1 for i in slices if end(ev[i]) > end(ev[op]))
        n["sync-end-inside-op"] = v
    else:
        n["sync-end-inside-op"] = None

    starts, finishes = defaultdict(list), defaultdict(int)
    for i, (fid, role) in flow.items():
        if role == START:
            starts[fid].append(i)
        else:
            finishes[fid] += 1
    for lst in starts.values():
        lst.sort()
    orphan_starts = sum(1 for o in t.orphans if o[0] == START)
    orphan_finishes = len(t.orphans) - orphan_starts
    v = sum(1 for m in ix.markers if flow.get(m, (0, 0))[1] != START)
    v += sum(1 for i, (_, role) in flow.items() if role == START and i not in ix.is_marker)
    n["flow-start"] = v + orphan_starts

    v = sum(1 for fid in starts if fid not in finishes)
    for i, (fid, role) in flow.items():
        if role != FINISH:
            continue
        lst = starts.get(fid)
        if lst is None or i not in ix.is_device:
            v += 1
            continue
        start = lst[0]
        for s in lst:
            if s in ix.is_marker:
                start = s
        want = int_arg(ev[start][ARGS])
        if want is not None and int_arg(ev[i][ARGS]) != want:
            v += 1
    n["flow-finish"] = v + orphan_finishes
    n["flow-unique"] = sum(len(lst) - 1 for lst in starts.values() if len(lst) > 1)

    v, pids, rows = 0, set(), set()
    for i in ix.device:
        e = ev[i]
        if e[PID] not in pids:
            pids.add(e[PID])
            v += not t.process_names.get(e[PID])
        if (e[PID], e[TID]) not in rows:
            rows.add((e[PID], e[TID]))
            v += not t.thread_names.get((e[PID], e[TID]))
    n["device-rows-named"] = v
    n["no-negative-durations"] = sum(1 for e in ev if e[DUR] < 0)
    begin, stop = t.capture_start, t.capture_end
    if begin == 0 and stop == 0:
        n["inside-capture-window"] = 0
    else:
        n["inside-capture-window"] = sum(1 for e in ev if e[TS] < begin or end(e) > stop)
    n["one-process-name"] = sum(1 for names in t.process_name_sets.values() if len(names) > 1)
    return n, ix


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--sync", action="store_true")
    parser.add_argument("--json")
    args = parser.parse_args()
    t = Trace(load(args.trace))
    rules, ix = check(t, args.sync)
    latency = reference_latency.analyze(t, ix)
    for rule in RULES:
        count = rules[rule]
        status = "SKIP" if count is None else "PASS" if count == 0 else "FAIL"
        print(f"{status} {rule}" + (f" ({count} violations)" if count else ""))
    passed = all(not c for c in rules.values())
    print("overall:", "PASS" if passed else "FAIL")
    print(json.dumps(latency, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"passed": passed, "rules": rules, "latency": latency}, f, indent=1)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
