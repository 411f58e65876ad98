#!/usr/bin/env python3
"""`rblnsim check` and `rblnsim analyze` on a trace in the current dialect (NPU rows, lanes by
kind, zero-length "rbln launch" markers, flows of the rbln id block), written here the way Kineto
lays out what today's torch-rbln bridge logs: the untouched trace passes, and every mutation fails
(exit 1) naming the rule of the current contract it broke.

    check_current_mutations.py BUILD_DIR"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import e2e_runner

BASE_NS = 1764547200000000000  # baseTimeNanoseconds
HOST_PID = 4321
NPU_PID = 0
FLOW_BASE = 0xF0000000
LANES = {"compute": 0, "copy": 1, "host": 2}


def us(ns):
    return round(ns / 1000.0, 3)


def meta(name, pid, tid, args):
    return {"name": name, "ph": "M", "ts": 0.0, "pid": pid, "tid": tid, "args": args}


def slice_(cat, name, pid, tid, ts_ns, dur_ns, launch_id=None):
    e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": us(ts_ns),
         "dur": us(dur_ns)}
    if launch_id is not None:
        e["args"] = {"launch_id": launch_id}
    return e


def flow(ph, flow_id, pid, tid, ts_ns):
    e = {"ph": ph, "id": flow_id, "pid": pid, "tid": tid, "ts": us(ts_ns), "cat": "ac2g",
         "name": "ac2g"}
    if ph == "f":
        e["bp"] = "e"
    return e


def valid_trace(launches):
    """Per launch: an ATen op, the marker 5 us in, a copy, a host step and a kernel on NPU 0."""
    events = [meta("process_name", HOST_PID, 0, {"name": "python3"}),
              meta("process_labels", HOST_PID, 0, {"labels": "CPU"}),
              meta("process_sort_index", HOST_PID, 0, {"sort_index": HOST_PID}),
              meta("thread_name", HOST_PID, HOST_PID, {"name": "thread 4321 (python3)"}),
              meta("process_name", NPU_PID, 0, {"name": "NPU 0"}),
              meta("process_labels", NPU_PID, 0, {"labels": ""}),
              meta("process_sort_index", NPU_PID, 0, {"sort_index": 5000000 + NPU_PID})]
    for name, tid in LANES.items():
        events.append(meta("thread_name", NPU_PID, tid, {"name": name}))
        events.append(meta("thread_sort_index", NPU_PID, tid, {"sort_index": tid}))
    for i in range(launches):
        t = 10_000 + i * 50_000
        events.append(slice_("cpu_op", f"aten::linear#{i}", HOST_PID, HOST_PID, t, 20_000))
        events.append(slice_("privateuse1_runtime", "rbln launch", HOST_PID, HOST_PID, t + 5_000, 0,
                             i + 1))
        events.append(flow("s", FLOW_BASE + i, HOST_PID, HOST_PID, t + 5_000))
    for i in range(launches):
        t = 10_000 + i * 50_000
        for cat, name, lane, start, dur in (
                ("gpu_memcpy", f"i1_{i}_W0_args_0_0", "copy", 6_000, 2_000),
                ("privateuse1_runtime", f"prepare_io_{i}", "host", 6_500, 1_000),
                ("kernel", f"i1_{i}_W0_mm_0", "compute", 9_000, 5_000)):
            events.append(slice_(cat, name, NPU_PID, LANES[lane], t + start, dur, i + 1))
            events.append(flow("f", FLOW_BASE + i, NPU_PID, LANES[lane], t + start))
    end = 10_000 + launches * 50_000
    events.append({"ph": "X", "cat": "Trace", "ts": 0.0, "dur": us(end), "pid": "Spans",
                   "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)",
                   "args": {"Op count": 0}})
    events.append({"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "",
                   "ts": us(end)})
    return {"schemaVersion": 1, "deviceProperties": [], "displayTimeUnit": "ms",
            "baseTimeNanoseconds": BASE_NS, "traceEvents": events,
            "traceName": "current_dialect.json"}


def find(doc, pred):
    return [e for e in doc["traceEvents"] if pred(e)]


def named(doc, name):
    return find(doc, lambda e: e.get("name") == name and e.get("ph") == "X")[0]


def finish_of(doc, event):
    """The flow finish Kineto wrote for |event| (same pid/tid/ts)."""
    return find(doc, lambda e: e.get("ph") == "f" and e["pid"] == event["pid"]
                and e["tid"] == event["tid"] and e["ts"] == event["ts"])[0]


def move(doc, event, **fields):
    """Changes |event| and the flow finish anchored on it alike."""
    f = finish_of(doc, event)
    for key, value in fields.items():
        event[key] = value
        if key in ("pid", "tid", "ts"):
            f[key] = value


def remove_marker(doc):
    marker = find(doc, lambda e: e.get("name") == "rbln launch")[0]
    start = find(doc, lambda e: e.get("ph") == "s" and e["ts"] == marker["ts"])[0]
    doc["traceEvents"] = [e for e in doc["traceEvents"] if e is not marker and e is not start]


def wrong_lane(doc):
    move(doc, named(doc, "i1_1_W0_mm_0"), tid=LANES["copy"])


def flow_outside_block(doc):
    for e in doc["traceEvents"]:
        if e.get("cat") == "ac2g" and e["id"] == FLOW_BASE:
            e["id"] = 0xE0000000


def finish_missing(doc):
    f = finish_of(doc, named(doc, "i1_0_W0_mm_0"))
    doc["traceEvents"] = [e for e in doc["traceEvents"] if e is not f]


def finish_on_other_launch(doc):
    finish_of(doc, named(doc, "i1_1_W0_mm_0"))["id"] = FLOW_BASE  # launch 0's flow


def activity_before_marker(doc):
    marker = find(doc, lambda e: e.get("name") == "rbln launch")[1]
    move(doc, named(doc, "i1_1_W0_args_0_0"), ts=round(marker["ts"] - 0.7, 3))


def no_npu_row(doc):
    for e in doc["traceEvents"]:
        if e.get("name") == "process_name" and e["args"]["name"] == "NPU 0":
            e["args"]["name"] = "GPU 0"


def default_gpu_row(doc):
    # Kineto (not CPU-only, no DeviceInfo from any session) names pids 0-15 after the host process.
    doc["traceEvents"][7:7] = [meta("process_name", 0, 0, {"name": "python3"}),
                               meta("process_labels", 0, 0, {"labels": "GPU 0"})]


def window_closes_early(doc):
    kernel = named(doc, "i1_1_W0_mm_0")
    end = round(kernel["ts"] + kernel["dur"] - 1.5, 3)
    for e in doc["traceEvents"]:
        if e.get("name") == "Record Window End":
            e["ts"] = end
        if e.get("cat") == "Trace":
            e["dur"] = end


def marker_outside_op(doc):
    named(doc, "aten::linear#1")["ts"] += 6.0


MUTATIONS = {
    "marker removed": (remove_marker, "one-marker-per-launch"),
    "activity on the wrong lane": (wrong_lane, "activity-on-matching-lane"),
    "flow id outside the block": (flow_outside_block, "flow-start-at-marker"),
    "one finish missing": (finish_missing, "flow-finish-count"),
    "finish on another launch's slice": (finish_on_other_launch, "flow-finish-on-launch"),
    "activity before its marker": (activity_before_marker, "activity-after-marker"),
    "no NPU row": (no_npu_row, "npu-row"),
    "Kineto's default GPU row on the NPU pid": (default_gpu_row, "one-process-name"),
    "device work after the capture window": (window_closes_early, "capture-window"),
    "marker outside its op": (marker_outside_op, "marker-inside-host-op"),
}


def run(build, args):
    rblnsim = os.path.join(build, "bin", "rblnsim")
    proc = subprocess.run([rblnsim] + args, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def write(tmp, name, doc):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def main():
    build = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="rblnsim-current-")
    failures = []

    def expect(what, ok, out):
        if ok:
            print(f"ok {what}")
        else:
            failures.append(f"{what}\n{out}")

    original = valid_trace(2)
    valid = write(tmp, "valid.json", original)
    rc, out = run(build, ["check", valid, "--min-launches", "2"])
    expect("valid trace passes", rc == 0 and "contract: current (detected from the trace)" in out
           and "FAIL" not in out and "N/A" not in out, out)

    for what, (mutate, rule) in MUTATIONS.items():
        doc = copy.deepcopy(original)
        mutate(doc)
        rc, out = run(build, ["check", write(tmp, what.replace(" ", "_") + ".json", doc)])
        expect(f"{what} -> FAIL {rule}", rc == 1 and f"FAIL {rule}:" in out, out)

    rc, out = run(build, ["check", valid, "--min-launches", "3"])
    expect("--min-launches 3 on 2 launches", rc == 1 and "FAIL min-launches:" in out
           and "FAIL kernel-launches:" in out, out)

    rc, out = run(build, ["check", valid, "--launcher-contains", "Torch-Compiled Region"])
    expect("graph mode wants a compiled region around each marker",
           rc == 1 and "FAIL marker-inside-host-op:" in out, out)

    rc, out = run(build, ["check", valid, "--contract", "c-abi"])
    expect("--contract c-abi on a current trace", rc == 1 and "contract: c-abi (forced" in out
           and "FAIL marker-per-launch:" in out, out)

    report = os.path.join(tmp, "empty_report.json")
    rc, out = run(build, ["check", write(tmp, "no_launches.json", valid_trace(0)),
                          "--min-launches", "0", "--json", report])
    vacuous = "N/A flow-ids-unique: " in out and "(n/a: 0 flow starts in the rbln block)" in out
    if rc == 0 and vacuous:
        with open(report, encoding="utf-8") as f:
            rules = {r["id"]: r for r in json.load(f)["rules"]}
        vacuous = rules["no-orphan-finish"]["status"] == "n/a" and rules["npu-row"]["status"] == "pass"
    expect("vacuous rules print n/a", rc == 0 and vacuous, out)

    rc, out = run(build, ["analyze", valid])
    expect("analyze reads current launches", rc == 0 and
           "RBLN launch latency (trace only): 2 launches, 2 with device work" in out and
           "rbln launch start" in out and "after the capture window" not in out, out)

    late = copy.deepcopy(original)
    window_closes_early(late)
    analysis = os.path.join(tmp, "late_analysis.json")
    rc, out = run(build, ["analyze", write(tmp, "late.json", late), "--json", analysis])
    ok = rc == 0 and ("device work after the capture window: 1 of 6 device slices end after it, "
                      "the worst by 1.500us") in out
    if ok:
        with open(analysis, encoding="utf-8") as f:
            window = json.load(f)["capture_window"]
        ok = window["after_window"] == 1 and window["worst_overrun_ns"] == 1500
    expect("analyze reports device work after the window", ok, out)

    if failures:
        print("\n".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    # Every temporary under one scratch folder, removed whether the checks pass or fail.
    with e2e_runner.scratch_root("rblnsim-current-"):
        status = main()
    sys.exit(status)
