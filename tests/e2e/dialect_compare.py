#!/usr/bin/env python3
"""compare, analyze and check read both trace dialects alike. A simulated trace of the seed scenario
in the c-abi dialect is rewritten into the current one the way today's torch-rbln bridge would have
logged the same activities (NPU rows, lanes by kind, a zero-length "rbln launch" marker at the
launch, one flow of the rbln id block per launch reaching every activity); both then pass their own
contract, and compare/analyze see the same launches, commands, device times and latencies.

    dialect_compare.py BUILD_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

import e2e_runner

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(SOURCE, "scenarios", "profile_matmul.yaml")
FLOW_BASE = 0xF0000000
LANE_OF_CAT = {"kernel": 0, "gpu_memcpy": 1, "privateuse1_runtime": 2, "privateuse1_driver": 3}
LANE_NAMES = ["compute", "copy", "host", "collective"]


def to_current(doc):
    """The c-abi trace |doc| as the current bridge lays out the same records."""
    events = doc["traceEvents"]
    markers = [e for e in events if e.get("ph") == "X" and e.get("name") == "rbln_run"]
    flow_of = {m["args"]["launch_id"]: FLOW_BASE + i for i, m in enumerate(markers)}
    device_pids = {e["pid"] for e in events if e.get("ph") == "X" and "categories" in e.get("args", {})}
    lanes = set()
    out = []
    for e in events:
        ph = e.get("ph")
        if ph in ("s", "f") and e.get("cat") == "ac2g":
            continue  # rebuilt below, one flow per launch reaching every activity
        if ph == "M" and e["pid"] in device_pids:
            if e["name"].startswith("thread_"):
                continue
            if e["name"] == "process_name":
                e["args"]["name"] = f"NPU {e['pid']}"
        if ph == "X" and e.get("name") == "rbln_run":
            e["name"] = "rbln launch"
            e["dur"] = 0.0
            e["args"] = {"launch_id": e["args"]["launch_id"]}
            out.append(e)
            out.append({"ph": "s", "id": flow_of[e["args"]["launch_id"]], "pid": e["pid"],
                        "tid": e["tid"], "ts": e["ts"], "cat": "ac2g", "name": "ac2g"})
            continue
        if ph == "X" and e["pid"] in device_pids:
            e["tid"] = LANE_OF_CAT[e["cat"]]
            lanes.add((e["pid"], e["tid"]))
            lid = e.get("args", {}).get("launch_id")
            e["args"] = {} if lid is None else {"launch_id": lid}
            out.append(e)
            if lid in flow_of:
                out.append({"ph": "f", "id": flow_of[lid], "pid": e["pid"], "tid": e["tid"],
                            "ts": e["ts"], "cat": "ac2g", "name": "ac2g", "bp": "e"})
            continue
        out.append(e)
    rows = []
    for pid, tid in sorted(lanes):
        rows.append({"name": "thread_name", "ph": "M", "ts": 0.0, "pid": pid, "tid": tid,
                     "args": {"name": LANE_NAMES[tid]}})
    doc["traceEvents"] = rows + out
    return doc


def rblnsim(build, args, env=None):
    proc = subprocess.run([os.path.join(build, "bin", "rblnsim")] + args, capture_output=True,
                          text=True, timeout=300, env=env)
    return proc.returncode, proc.stdout + proc.stderr


def main():
    build = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="rblnsim-dialects-")
    c_abi = os.path.join(tmp, "c_abi.json")
    current = os.path.join(tmp, "current.json")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RBLN", "TORCH_RBLN"))}
    env["RBLN_PROFILER"] = "1"
    run = ["run", SEED, "--trace", c_abi]
    _, help_text = rblnsim(build, ["run", "--help"], env)
    if re.search(r"^\s*--bridge\b", help_text, re.M):
        run += ["--bridge", "c-abi"]
    rc, out = rblnsim(build, run, env)
    assert rc == 0, out
    with open(c_abi, encoding="utf-8") as f:
        doc = json.load(f)
    with open(current, "w", encoding="utf-8") as f:
        json.dump(to_current(doc), f)

    failures = []
    for path, dialect, extra in ((c_abi, "c-abi", []), (current, "current", ["--min-launches", "3"])):
        rc, out = rblnsim(build, ["check", path] + extra)
        if rc != 0 or f"contract: {dialect} (detected" not in out:
            failures.append(f"check on the {dialect} trace: exit {rc}\n{out}")

    results = {}
    for name, path in (("c-abi", c_abi), ("current", current)):
        report = os.path.join(tmp, name + "_compare.json")
        rc, out = rblnsim(build, ["compare", SEED, path, "--json", report], env)
        if rc != 0:
            failures.append(f"compare on the {name} trace: exit {rc}\n{out}")
            continue
        with open(report, encoding="utf-8") as f:
            results[name] = json.load(f)
        analysis = os.path.join(tmp, name + "_analysis.json")
        rc, out = rblnsim(build, ["analyze", path, "--json", analysis])
        if rc != 0:
            failures.append(f"analyze on the {name} trace: exit {rc}\n{out}")
            continue
        with open(analysis, encoding="utf-8") as f:
            results[name]["analysis"] = json.load(f)["latency"]

    if len(results) == 2:
        a, b = results["c-abi"], results["current"]
        # The c-abi marker lasts the submit call and the current one is zero-length, so host self
        # times and HTA's launch delay differ; everything keyed on launches and devices must not.
        for key in ("launches_matched", "launches_only_hw", "commands_matched", "commands_only_hw",
                    "ops", "latency", "device_events"):
            if a[key] != b[key]:
                failures.append(f"compare {key}: c-abi {a[key]} != current {b[key]}")
        if a["launches_matched"] != 3 or a["commands_matched"] != 18:
            failures.append(f"compare on the c-abi trace: {a['launches_matched']} launches, "
                            f"{a['commands_matched']} commands matched, expected 3 and 18")
        for key in ("launches", "submission_latency_ns", "slices_without_marker"):
            if a["analysis"][key] != b["analysis"][key]:
                failures.append(f"analyze {key}: c-abi {a['analysis'][key]} != current "
                                f"{b['analysis'][key]}")
    if failures:
        print("\n".join(failures))
        return 1
    print("ok: check, compare and analyze agree on both dialects")
    return 0


if __name__ == "__main__":
    # Every temporary under one scratch folder, removed whether the checks pass or fail.
    with e2e_runner.scratch_root("rblnsim-dialects-"):
        status = main()
    sys.exit(status)
