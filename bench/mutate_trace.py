#!/usr/bin/env python3
"""Breaks a simulated trace in many ways at once, so that comparing rblnsim with the Python
reference on it (bench/smoke_test.sh) exercises every rule's violation path and spreads the
latency percentiles, instead of agreeing on a trace where every count is zero.

Usage: mutate_trace.py IN OUT
Each mutation hits a different launch; device slices of every launch are also delayed by a
launch-dependent 0-999 ns (their flow finishes with them), so no two percentiles coincide.
"""
import copy
import json
import sys

DEVICE_CATS = ("kernel", "gpu_memcpy", "gpu_memset")


def main():
    src, dst = sys.argv[1], sys.argv[2]
    with open(src) as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    markers = [e for e in events if e.get("name") == "rbln_run"]
    by_launch = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in DEVICE_CATS:
            by_launch.setdefault(e["args"]["launch_id"], []).append(e)
    ids = sorted(by_launch)
    if len(ids) < 20:
        sys.exit("mutate_trace.py: needs a trace of at least 20 launches")

    # Launch-dependent delay of the device work; a flow finish follows its slice in the file.
    out, shift = [], None
    for e in events:
        if e.get("ph") == "f" and shift is not None and e.get("ts") == shift[0]:
            e["ts"] = shift[1]
        shift = None
        if e.get("ph") == "X" and e.get("cat") in DEVICE_CATS:
            moved = round(e["ts"] + (e["args"]["launch_id"] * 337 % 1000) / 1000.0, 3)
            shift = (e["ts"], moved)
            e["ts"] = moved
        out.append(e)

    marker_of = {m["args"]["launch_id"]: m for m in markers}
    # device-after-marker: a slice starts 5 µs before its marker.
    first = by_launch[ids[2]][0]
    old_ts, first["ts"] = first["ts"], round(marker_of[ids[2]]["ts"] - 5.0, 3)
    for e in out:
        if e.get("ph") == "f" and e.get("ts") == old_ts and e.get("pid") == first["pid"]:
            e["ts"] = first["ts"]
    # flow-finish: one launch loses its flow finishes.
    anchors = {(d["ts"], d["pid"], d["tid"]) for d in by_launch[ids[4]]}
    out = [e for e in out if not (e.get("ph") == "f" and (e["ts"], e["pid"], e["tid"]) in anchors)]
    # flow-start / flow-unique: a second flow start right after a marker's.
    i = next(i for i, e in enumerate(out) if e.get("ph") == "s")
    out.insert(i + 1, copy.deepcopy(out[i]))
    # device-category: a device slice claims to be a cpu_op (and so stops counting as device work
    # for the latency figures).
    by_launch[ids[6]][0]["cat"] = "cpu_op"
    # marker-per-launch: one launch loses its marker, another's marker its launch_id, a third
    # gets a second marker.
    out = [e for e in out if e is not marker_of[ids[8]]]
    del marker_of[ids[10]]["args"]["launch_id"]
    dup = copy.deepcopy(marker_of[ids[12]])
    dup["ts"] = round(dup["ts"] + 0.5, 3)
    out.insert(out.index(marker_of[ids[12]]) + 1, dup)
    # no-negative-durations and inside-capture-window.
    by_launch[ids[14]][1]["dur"] = -1.0
    by_launch[ids[16]][0]["ts"] = round(by_launch[ids[16]][0]["ts"] + 1e6, 3)
    # device-rows-named: a device slice moves to a row nobody named.
    by_launch[ids[18]][0]["tid"] = 999
    doc["traceEvents"] = out
    with open(dst, "w") as f:
        json.dump(doc, f)


if __name__ == "__main__":
    main()
