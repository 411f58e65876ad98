"""Submission latency per launch, as `rblnsim analyze` computes it (launch_latency.cc and
device_timeline.cc), in plain Python over a reference_trace.Trace.

Per launch (an rbln_run marker with an integer launch_id; a second marker of one launch_id is
counted and dropped): submission latency = first device start - marker start, launch delay =
first device start - marker end, clipped at 0. Percentiles are nearest-rank.
"""
from collections import defaultdict

from reference_trace import (ARGS, CAT, DUR, KINETO_DEVICE_CATS, LAUNCH_ID, MARKER, NAME, PH, TS,
                             int_arg)

NOT_DEVICE_CATS = frozenset(("cpu_op", "user_annotation", "python_function",
                             "privateuse1_runtime"))
NO_LAUNCHER = "(no launching op)"


def is_device_slice(e):
    if not e[PH] or e[CAT] in NOT_DEVICE_CATS:
        return False
    return e[CAT] in KINETO_DEVICE_CATS or (bool(e[ARGS]) and LAUNCH_ID in e[ARGS])


def percentiles(values):
    """Nearest rank: the value at rank ceil(p/100 * n) of the sorted sample."""
    if not values:
        return {"count": 0, "p50": 0, "p90": 0, "p99": 0, "max": 0}
    values.sort()
    n = len(values)
    at = lambda p: values[max((p * n + 99) // 100, 1) - 1]  # noqa: E731
    return {"count": n, "p50": at(50), "p90": at(90), "p99": at(99), "max": values[-1]}


def analyze(t, ix):
    """The summary figures of LatencyReport. |ix| is the check's LaunchIndex (for launchers)."""
    ev = t.events
    markers_without_id = 0
    by_id = {}  # launch id -> [marker start, marker end, op name]
    duplicates = 0
    for m in ix.markers:
        e = ev[m]
        if not e[PH]:
            continue  # the host forest holds complete markers only
        lid = int_arg(e[ARGS])
        if lid is None:
            markers_without_id += 1
            continue
        op = ix.launcher.get(m)
        row = [e[TS], e[TS] + e[DUR], ev[op][NAME] if op is not None else NO_LAUNCHER]
        kept = by_id.get(lid)
        if kept is None:
            by_id[lid] = row
            continue
        duplicates += 1
        if row[0] < kept[0]:
            by_id[lid] = row  # the earliest marker of a launch_id stays
    first = {}
    slices = defaultdict(int)
    for e in ev:
        if not is_device_slice(e):
            continue
        lid = int_arg(e[ARGS])
        if lid is None:
            continue
        slices[lid] += 1
        if lid not in first or e[TS] < first[lid]:
            first[lid] = e[TS]
    without_marker = sum(n for lid, n in slices.items() if lid not in by_id)

    submission, delay, steps = [], [], []
    per_op = defaultdict(lambda: ([], []))
    for lid, (start, stop, op) in by_id.items():
        f = first.get(lid)
        if f is None:
            continue
        s, d = f - start, max(f - stop, 0)
        submission.append(s)
        delay.append(d)
        per_op[op][0].append(s)
        per_op[op][1].append(d)
        steps.append((start, 1))
        steps.append((f, -1))
    sub = percentiles(submission)
    threshold = sub["p99"]
    outliers = sum(1 for s in submission if s > threshold)
    steps.sort()  # a device start (-1) before a new marker (+1) at equal times
    length = queue_max = 0
    for _, delta in steps:
        length += delta
        queue_max = max(queue_max, length)
    ops = [{"op": op, "submission_latency_ns": percentiles(s), "launch_delay_ns": percentiles(d)}
           for op, (s, d) in per_op.items()]
    ops.sort(key=lambda o: (-o["submission_latency_ns"]["count"], o["op"]))
    return {
        "launches": len(by_id),
        "launches_without_device": sum(1 for lid in by_id if lid not in first),
        "markers_without_launch_id": markers_without_id,
        "duplicate_markers": duplicates,
        "slices_without_marker": without_marker,
        "device_slices": sum(slices.values()),
        "submission_latency_ns": sub,
        "launch_delay_ns": percentiles(delay),
        "outlier_count": outliers,
        "queue_max": queue_max,
        "per_op": ops,
    }
