#!/usr/bin/env python3
"""`rblnsim check` on a simulated c-abi trace and on mutated copies of it: the untouched trace
passes, and every mutation fails with the rule that names what was broken (exit 1). The
current dialect has its own mutations in check_current_mutations.py.

    check_mutations.py BUILD_DIR"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

import e2e_runner

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def events_of(doc, pred):
    return [e for e in doc["traceEvents"] if pred(e)]


def first_launch(doc):
    marker = events_of(doc, lambda e: e.get("name") == "rbln_run")[0]
    lid = marker["args"]["launch_id"]
    device = events_of(doc, lambda e: e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy")
                       and e.get("args", {}).get("launch_id") == lid)
    return marker, lid, device


def move_before_marker(doc):
    marker, _, device = first_launch(doc)
    device[0]["ts"] = round(marker["ts"] - 5.0, 3)


def delete_flow_finish(doc):
    # The launch's flow finishes go (the contract needs at least one per start).
    _, _, device = first_launch(doc)
    anchors = {(d["ts"], d["pid"], d["tid"]) for d in device}
    doc["traceEvents"] = [e for e in doc["traceEvents"]
                          if not (e.get("ph") == "f" and (e["ts"], e["pid"], e["tid"]) in anchors)]


def duplicate_flow_start(doc):
    events = doc["traceEvents"]
    i = next(i for i, e in enumerate(events) if e.get("ph") == "s")
    events.insert(i + 1, copy.deepcopy(events[i]))


def change_device_category(doc):
    _, _, device = first_launch(doc)
    device[0]["cat"] = "cpu_op"


def remove_marker(doc):
    marker, _, _ = first_launch(doc)
    doc["traceEvents"] = [e for e in doc["traceEvents"] if e is not marker]


def remove_device_row_name(doc):
    _, _, device = first_launch(doc)
    pid = device[0]["pid"]
    doc["traceEvents"] = [e for e in doc["traceEvents"]
                          if not (e.get("ph") == "M" and e.get("name") == "process_name" and e["pid"] == pid)]


MUTATIONS = {
    "device slice moved before its marker": (move_before_marker, "device-after-marker"),
    "flow finish deleted": (delete_flow_finish, "flow-finish"),
    "flow start duplicated": (duplicate_flow_start, ("flow-start", "flow-unique")),
    "device category changed": (change_device_category, "device-category"),
    "marker removed": (remove_marker, "marker-per-launch"),
    "device row name removed": (remove_device_row_name, "device-rows-named"),
}


def check(rblnsim, path):
    proc = subprocess.run([rblnsim, "check", path], capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout


def main():
    build = sys.argv[1]
    rblnsim = os.path.join(build, "bin", "rblnsim")
    tmp = tempfile.mkdtemp(prefix="rblnsim-mutations-")
    trace = os.path.join(tmp, "trace.json")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RBLN", "TORCH_RBLN"))}
    env["RBLN_PROFILER"] = "1"
    run = [rblnsim, "run", os.path.join(SOURCE, "scenarios", "profile_matmul.yaml"), "--trace", trace]
    # These mutations are of the c-abi dialect; where run speaks both, ask for that one.
    usage = subprocess.run([rblnsim, "run", "--help"], capture_output=True, text=True).stdout
    if re.search(r"^\s*--bridge\b", usage, re.M):
        run += ["--bridge", "c-abi"]
    subprocess.run(run, env=env, check=True, capture_output=True, timeout=120)
    rc, out = check(rblnsim, trace)
    assert rc == 0, out
    with open(trace, encoding="utf-8") as f:
        original = json.load(f)
    failures = []
    for what, (mutate, rule) in MUTATIONS.items():
        doc = copy.deepcopy(original)
        mutate(doc)
        path = os.path.join(tmp, what.replace(" ", "_") + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        rc, out = check(rblnsim, path)
        rules = rule if isinstance(rule, tuple) else (rule,)
        named = [r for r in rules if f"FAIL {r}:" in out]
        if rc != 1 or not named:
            failures.append(f"{what}: exit {rc}, expected 'FAIL' of one of {rules}\n{out}")
        else:
            print(f"ok {what} -> FAIL {named[0]}")
    if failures:
        print("\n".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    # Every temporary under one scratch folder, removed whether the checks pass or fail.
    with e2e_runner.scratch_root("rblnsim-mutations-"):
        status = main()
    sys.exit(status)
