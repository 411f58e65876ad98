#!/usr/bin/env python3
"""End-to-end tests of the rblnsim CLI: run the binary as a user would and check what it prints
and writes. Each test is a function; ctest runs one per process: cli_tests.py BUILD_DIR NAME."""
import hashlib
import json
import os
import re
import tempfile

import e2e_runner

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.path.join(SOURCE, "scenarios", "profile_matmul.yaml")
BUILD = None

SEED_CALLS = {
    "aten::mm": 6, "aten::matmul": 3, "aten::abs": 12, "aten::isinf": 6, "aten::to": 15,
    "aten::_to_copy": 15, "aten::copy_": 21, "aten::_copy_from": 9, "aten::isnan": 6, "aten::ne": 6,
}
SEED_FIRST4 = "['i1_0_W0_args_0_0', 'i1_0_W0_args_0_1', 'i1_0_W0_args_0_2', 'i1_0_W0_mm_0']"


def rblnsim(args, env=None, check=True):
    return e2e_runner.run_rblnsim(BUILD, args, env, check)


def strict_json(path):
    def no_constants(name):
        raise ValueError(f"non-standard JSON constant {name}")
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_constant=no_constants)


def parse_table(stdout):
    """Rows of the key_averages table: name -> list of cells, plus header and footers."""
    lines = stdout.splitlines()
    seps = [i for i, l in enumerate(lines) if re.fullmatch(r"(-+  )+-*\s*", l.rstrip() + "  ")]
    assert len(seps) >= 3, stdout
    header = re.split(r"\s{2,}", lines[seps[0] + 1].strip())
    rows = {}
    for line in lines[seps[1] + 1:seps[2]]:
        cells = re.split(r"\s{2,}", line.strip())
        rows[cells[0]] = dict(zip(header, cells))
    footers = {}
    for line in lines[seps[2] + 1:seps[2] + 3]:
        if ":" in line:
            k, v = line.split(":", 1)
            footers[k.strip()] = v.strip()
    return header, rows, footers


def to_us(text):
    for suffix, scale in (("us", 1.0), ("ms", 1e3), ("s", 1e6)):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * scale
    raise ValueError(text)


def run_seed(extra=None, env=None, trace_name="t.json"):
    tmp = tempfile.mkdtemp(prefix="rblnsim-e2e-")
    trace = os.path.join(tmp, trace_name)
    proc = rblnsim(["run", SEED, "--trace", trace] + (extra or []), env=env)
    return proc, trace


def test_roofline_report():
    """`run --roofline DIR`: a GEMV is HBM-bound near the HBM roof, a large GEMM compute-bound near
    the peak, and the plot is written; a file where the directory should be is refused first."""
    tmp = tempfile.mkdtemp(prefix="rblnsim-cli-")
    rows = {}
    for m in (1, 8192):
        scenario = os.path.join(tmp, f"gemm{m}.yaml")
        with open(scenario, "w", encoding="utf-8") as f:
            f.write(f"""scenario: gemm{m}
seed: 1
env: {{RBLN_PROFILER: "1", TORCH_RBLN_DEPLOY: "ON"}}
workload:
  tensors: {{a: {{shape: [{m}, 8192]}}, w: {{shape: [8192, 8192]}}}}
  warmup: [{{op: mm, inputs: [a, w], out: y}}, {{cpu: y}}]
  profile: [{{op: mm, inputs: [a, w], out: y}}, {{cpu: y}}]
""")
        out = os.path.join(tmp, f"roof{m}")
        proc = rblnsim(["run", scenario, "--trace", os.path.join(tmp, f"t{m}.json"),
                        "--roofline", out], env={"RBLN_PROFILER": "1"})
        assert "RBLN roofline (simulated): peak 1.05 PFLOP/s fp16, HBM 2.70 TB/s" in proc.stdout, \
            proc.stdout
        line = next(l for l in proc.stdout.splitlines() if l.strip().startswith("mm|fp16"))
        rows[m] = line.split()
        with open(os.path.join(out, "roofline.svg"), encoding="utf-8") as f:
            assert "<svg" in f.read()
    assert rows[1][-2] == "hbm", rows[1]
    assert rows[8192][-2] == "compute", rows[8192]
    # "of roof": the GEMV within reach of the HBM slope, the GEMM of the peak.
    assert int(rows[1][-3].rstrip("%")) >= 60 and int(rows[8192][-3].rstrip("%")) >= 90, rows
    blocker = os.path.join(tmp, "file")
    with open(blocker, "w", encoding="utf-8") as f:
        f.write("x")
    proc = rblnsim(["run", SEED, "--trace",
                    os.path.join(tmp, "x.json"), "--roofline", blocker], check=False)
    assert proc.returncode == 2 and "--roofline" in proc.stderr, proc.stderr
    assert not os.path.exists(os.path.join(tmp, "x.json"))


def test_decode_step_follows_hbm_bandwidth():
    """A batch-1 decode step streams its weights: its device time falls as HBM bandwidth rises."""
    tmp = tempfile.mkdtemp(prefix="rblnsim-cli-")
    scenario = os.path.join(SOURCE, "scenarios", "decode_step_llama.yaml")
    device = []
    for bandwidth in ("0.6TB/s", "1.2TB/s", "2.4TB/s"):
        metrics = os.path.join(tmp, "m.json")
        rblnsim(["run", scenario, "--trace", os.path.join(tmp, "t.json"), "--metrics", metrics,
                 "--no-expect", "--set", f"device.hbm.bandwidth={bandwidth}"],
                env={"RBLN_PROFILER": "1"})
        with open(metrics, encoding="utf-8") as f:
            device.append(json.load(f)["self_rbln_total_ns"])
    assert device[0] > device[1] > device[2], device
    assert device[0] / device[2] >= 1.5, device


def test_shared_hbm_slows_both_engines():
    """scenarios/shared_hbm_two_gemvs.yaml: a GEMV share and a large add stream from chiplet 0's
    HBM at once and both take longer than alone; the GEMV's shares on the other chiplets, which
    have their stacks to themselves, do not."""
    tmp = tempfile.mkdtemp(prefix="rblnsim-cli-")
    scenario = os.path.join(SOURCE, "scenarios", "shared_hbm_two_gemvs.yaml")
    ratios = {}
    for bandwidth in ("675GB/s", "1.35TB/s"):
        trace = os.path.join(tmp, "t.json")
        rblnsim(["run", scenario, "--trace", trace, "--bridge", "c-abi",
                 "--set", f"device.hbm.bandwidth={bandwidth}"])
        events = strict_json(trace)["traceEvents"]
        launches = sorted({e["args"]["launch_id"] for e in events
                           if e.get("ph") == "X" and e.get("cat") == "kernel"})
        assert len(launches) == 3, launches  # proj, add, both

        def durations(launch, layer):
            out = {}
            for e in events:
                if (e.get("ph") == "X" and e.get("cat") == "kernel"
                        and e["args"].get("launch_id") == launch and e["name"].endswith(layer)):
                    out[e["args"]["categories"].split("chiplet ")[1]] = e["dur"]
            return out
        proj, add, both = launches
        mm_alone, mm_both = durations(proj, "_mm_1"), durations(both, "_mm_1")
        add_alone, add_both = durations(add, "_add_0"), durations(both, "_add_0")
        assert set(mm_alone) == set(mm_both) == {"0", "1", "2", "3"}, (mm_alone, mm_both)
        assert mm_both["0"] >= 1.4 * mm_alone["0"], (mm_alone, mm_both)
        assert add_both["0"] >= 1.2 * add_alone["0"], (add_alone, add_both)
        for chiplet in ("1", "2", "3"):
            assert abs(mm_both[chiplet] - mm_alone[chiplet]) <= 0.02 * mm_alone[chiplet], \
                (chiplet, mm_alone, mm_both)
        ratios[bandwidth] = (mm_alone["0"], add_alone["0"])
    # Both engines are memory-bound: twice the bandwidth, about half the time each.
    slow, fast = ratios["675GB/s"], ratios["1.35TB/s"]
    assert slow[0] / fast[0] >= 1.7 and slow[1] / fast[1] >= 1.7, ratios


def test_seed_table():
    """The seed reproduction is the same through both seams: table rows, calls, the Self RBLN
    total and the device-events line; each trace is in its own dialect."""
    outputs = {}
    for bridge in ("current", "c-abi"):
        proc, trace = run_seed(["--bridge", bridge], env={"RBLN_PROFILER": "1"})
        seed_table_holds(proc)
        events = strict_json(trace)["traceEvents"]
        markers = {e["name"] for e in events if e.get("cat") == "privateuse1_runtime"}
        rows = {e["args"]["name"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"}
        if bridge == "current":
            assert markers == {"rbln launch"} and "NPU 0" in rows, (markers, rows)
        else:
            assert markers == {"rbln_run"} and not any(r.startswith("NPU ") for r in rows), (markers, rows)
        # Status, table and device events; the reports after them name each dialect's marker.
        head = proc.stdout[:proc.stdout.index("device events, for example")]
        outputs[bridge] = head.splitlines()
    assert outputs["current"] == outputs["c-abi"], "\n".join(
        a + "  !=  " + b for a, b in zip(outputs["current"], outputs["c-abi"]) if a != b)
    # The default is today's dialect; the scenario key chooses too, and the flag wins over it.
    proc, trace = run_seed(env={"RBLN_PROFILER": "1"})
    assert any(e.get("name") == "rbln launch" for e in strict_json(trace)["traceEvents"])
    proc, trace = run_seed(["--set", "workload.bridge=c-abi"], env={"RBLN_PROFILER": "1"})
    assert any(e.get("name") == "rbln_run" for e in strict_json(trace)["traceEvents"])
    proc, trace = run_seed(["--set", "workload.bridge=c-abi", "--bridge", "current"],
                           env={"RBLN_PROFILER": "1"})
    assert any(e.get("name") == "rbln launch" for e in strict_json(trace)["traceEvents"])


def seed_table_holds(proc):
    header, rows, footers = parse_table(proc.stdout)
    assert "Self RBLN" in header and "RBLN total" in header, header
    assert list(rows) == list(SEED_CALLS), list(rows)
    for name, calls in SEED_CALLS.items():
        assert int(rows[name]["# of Calls"]) == calls, (name, rows[name])
    total = to_us(footers["Self RBLN time total"])
    assert abs(total - 36.959) <= 0.1 * 36.959, total
    assert f"18 device events, for example: {SEED_FIRST4}" in proc.stdout, proc.stdout
    assert "device profiler: active" in proc.stdout


def test_without_profiler():
    proc, trace = run_seed(["--no-expect"])
    header, rows, footers = parse_table(proc.stdout)
    assert not any("RBLN" in h for h in header), header
    assert "Self RBLN time total" not in footers
    assert "0 device events, for example: []" in proc.stdout
    assert "RBLN_PROFILER=1 was not set when the profiling session was configured" in proc.stdout
    events = strict_json(trace)["traceEvents"]
    assert not any(e.get("name") in ("rbln_run", "rbln launch") for e in events)
    proc, _ = run_seed(["--no-expect", "--bridge", "c-abi"])
    assert "RBLN_PROFILER=1 was not set when the runtime started" in proc.stdout


def test_atom_is_host_only():
    proc, trace = run_seed(["--set", "device.variant=atom", "--no-expect"], env={"RBLN_PROFILER": "1"})
    assert "0 device events" in proc.stdout
    events = strict_json(trace)["traceEvents"]
    assert all(e.get("cat") in ("cpu_op", "user_annotation", "Trace", None) for e in events), \
        {e.get("cat") for e in events}
    assert "ATOM" in proc.stdout


def test_deploy_removes_the_scan():
    proc, _ = run_seed(["--no-expect"], env={"RBLN_PROFILER": "1", "TORCH_RBLN_DEPLOY": "ON"})
    _, rows, _ = parse_table(proc.stdout)
    for op in ("aten::abs", "aten::isinf", "aten::isnan", "aten::ne"):
        assert op not in rows, rows.keys()
    assert "18 device events" in proc.stdout


def contract_violations(doc, sync=False):
    """The PrivateUse1 contract of torch-rbln's alignment test, checked independently in Python."""
    events = doc["traceEvents"]
    xs = [e for e in events if e.get("ph") == "X"]
    cpu = [e for e in xs if e.get("cat") in ("cpu_op", "user_annotation")]
    markers = [e for e in xs if e.get("name") == "rbln_run"]
    device = [e for e in xs if e.get("cat") in ("kernel", "gpu_memcpy")]
    problems = []
    by_launch = {}
    for m in markers:
        lid = m.get("args", {}).get("launch_id")
        if lid in by_launch:
            problems.append(f"two markers for launch {lid}")
        by_launch[lid] = m
        inside = [c for c in cpu if c["pid"] == m["pid"] and c["tid"] == m["tid"]
                  and float(c["ts"]) <= float(m["ts"]) and float(m["ts"]) + float(m["dur"]) <= float(c["ts"]) + float(c["dur"])]
        if not inside:
            problems.append(f"marker {lid} is inside no cpu_op")
    for d in device:
        lid = d.get("args", {}).get("launch_id")
        m = by_launch.get(lid)
        if m is None:
            problems.append(f"device slice {d['name']} has no marker")
            continue
        if float(d["ts"]) < float(m["ts"]):
            problems.append(f"device slice {d['name']} starts before its marker")
    starts = [e for e in events if e.get("ph") == "s"]
    finishes = [e for e in events if e.get("ph") == "f"]
    ids = [s["id"] for s in starts]
    if len(ids) != len(set(ids)):
        problems.append("duplicate flow starts")
    if len(starts) != len(markers):
        problems.append(f"{len(starts)} flow starts for {len(markers)} markers")
    start_ids = set(ids)
    for f in finishes:
        if f["id"] not in start_ids:
            problems.append(f"orphan flow finish {f['id']}")
    return problems


def test_trace_contract_and_structure():
    # The c-abi dialect, checked independently of rblnsim's own checker (which the scenario
    # suite runs on the default, current dialect).
    _, trace = run_seed(["--bridge", "c-abi"], env={"RBLN_PROFILER": "1"})
    doc = strict_json(trace)
    keys = list(doc)
    assert keys[0] == "schemaVersion" and keys[-1] == "traceName", keys
    for k in ("deviceProperties", "displayTimeUnit", "baseTimeNanoseconds", "traceEvents"):
        assert k in doc, k
    assert keys.index("baseTimeNanoseconds") < keys.index("traceEvents")
    for e in doc["traceEvents"]:
        for field in ("ts", "dur"):
            if field in e and isinstance(e[field], (int, float)):
                raw = json.dumps(e[field])
                assert re.fullmatch(r"-?\d+(\.\d{1,3})?", raw), (field, raw)
    markers = [e for e in doc["traceEvents"] if e.get("name") == "rbln_run"]
    assert len(markers) == 3, len(markers)
    assert all(m["cat"] == "privateuse1_runtime" for m in markers)
    names = {e["pid"]: e["args"]["name"] for e in doc["traceEvents"] if e.get("name") == "process_name"}
    device_pids = {e["pid"] for e in doc["traceEvents"] if e.get("cat") in ("kernel", "gpu_memcpy")}
    assert device_pids and all(names.get(p) for p in device_pids), (device_pids, names)
    problems = contract_violations(doc)
    assert not problems, problems


def test_trace_contract_sync_dispatch():
    _, trace = run_seed(["--bridge", "c-abi"], env={"RBLN_PROFILER": "1", "RBLN_RUNTIME_FORCE_SYNC": "1"})
    doc = strict_json(trace)
    assert not contract_violations(doc)
    # With sync dispatch the device work ends inside the launching op.
    events = doc["traceEvents"]
    cpu = [e for e in events if e.get("ph") == "X" and e.get("cat") == "cpu_op"]
    markers = {e["args"]["launch_id"]: e for e in events if e.get("name") == "rbln_run"}
    for d in (e for e in events if e.get("cat") in ("kernel", "gpu_memcpy")):
        m = markers[d["args"]["launch_id"]]
        launcher = min((c for c in cpu if c["ts"] <= m["ts"] and m["ts"] + m["dur"] <= c["ts"] + c["dur"]),
                       key=lambda c: c["dur"])
        assert d["ts"] + d["dur"] <= launcher["ts"] + launcher["dur"] + 0.0005, (d, launcher)


def test_attributed_mode():
    proc, _ = run_seed(["--attribution", "attributed"], env={"RBLN_PROFILER": "1"})
    _, rows, footers = parse_table(proc.stdout)
    assert to_us(rows["aten::mm"]["Self RBLN"]) > 0, rows["aten::mm"]
    cpu_rows = [r for n, r in rows.items() if n.startswith("aten::")]
    per_op = sum(to_us(r["Self RBLN"]) for r in cpu_rows)
    assert abs(per_op - to_us(footers["Self RBLN time total"])) < 0.002, (per_op, footers)


def test_golden_stdout():
    proc, _ = run_seed(env={"RBLN_PROFILER": "1"}, trace_name="golden.json")
    out = re.sub(r"trace written to \S+", "trace written to TRACE", proc.stdout)
    golden_path = os.path.join(SOURCE, "tests", "golden", "profile_matmul.stdout")
    if os.environ.get("RBLNSIM_UPDATE_GOLDEN") == "1":
        with open(golden_path, "w", encoding="utf-8") as f:
            f.write(out)
    with open(golden_path, encoding="utf-8") as f:
        golden = f.read()
    assert out == golden, "stdout differs from tests/golden/profile_matmul.stdout " \
                          "(RBLNSIM_UPDATE_GOLDEN=1 regenerates it)\n" + out


def test_no_trace_prints_the_same_and_writes_nothing():
    traced, _ = run_seed(env={"RBLN_PROFILER": "1"})
    tmp = tempfile.mkdtemp(prefix="rblnsim-e2e-")
    os.chdir(tmp)  # where the default trace.json would go
    untraced = rblnsim(["run", SEED, "--no-trace"], env={"RBLN_PROFILER": "1"})
    assert os.listdir(tmp) == [], os.listdir(tmp)
    expected = re.sub(r"\ntrace written to \S+ \(\d+ events\)\n", "", traced.stdout)
    assert expected != traced.stdout
    assert untraced.stdout == expected, untraced.stdout
    both = rblnsim(["run", SEED, "--no-trace", "--trace", os.path.join(tmp, "t.json")],
                   check=False)
    assert both.returncode == 2 and both.stderr.count("\n") == 1, both.stderr
    assert "--no-trace" in both.stderr and os.listdir(tmp) == []


def test_deterministic_trace():
    # traceName records the path, as Kineto does, so every run writes to the same path.
    tmp = tempfile.mkdtemp(prefix="rblnsim-e2e-")
    trace = os.path.join(tmp, "same.json")
    digests, outputs = set(), set()
    for _ in range(3):
        proc = rblnsim(["run", SEED, "--trace", trace], env={"RBLN_PROFILER": "1"})
        outputs.add(proc.stdout)
        with open(trace, "rb") as f:
            digests.add(hashlib.sha256(f.read()).hexdigest())
    assert len(digests) == 1, digests
    assert len(outputs) == 1


def test_bad_inputs_exit_2():
    missing = rblnsim(["run", "/nonexistent/scenario.yaml"], check=False)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1, missing.stderr
    assert "/nonexistent/scenario.yaml" in missing.stderr
    tmp = tempfile.mkdtemp(prefix="rblnsim-e2e-")
    target = os.path.join(tmp, "no", "such", "dir", "t.json")
    unwritable = rblnsim(["run", SEED, "--trace", target], check=False)
    assert unwritable.returncode == 2 and unwritable.stderr.count("\n") == 1, unwritable.stderr
    assert not os.path.exists(target)
    bad_sort = rblnsim(["run", SEED, "--sort-by", "self_rbln_time_total", "--trace",
                        os.path.join(tmp, "x.json")], check=False)
    assert bad_sort.returncode == 2 and not os.path.exists(os.path.join(tmp, "x.json")), bad_sort.stderr
    bad_flag = rblnsim(["run", SEED, "--row-limit", "many"], check=False)
    assert bad_flag.returncode == 2, bad_flag.stderr


def test_expect_block_decides_the_exit_status():
    ok = rblnsim(["run", SEED, "--trace", os.path.join(tempfile.mkdtemp(), "t.json")],
                 env={"RBLN_PROFILER": "1"})
    assert "PASS  device_events == 18" in ok.stdout and "FAIL" not in ok.stdout, ok.stdout
    off = rblnsim(["run", SEED, "--trace", os.path.join(tempfile.mkdtemp(), "t.json")], check=False)
    assert off.returncode == 1, off.returncode
    assert "FAIL  device_events == 18 (got 0)" in off.stdout, off.stdout


def test_help():
    for args in (["--help"], ["run", "--help"]):
        proc = rblnsim(args)
        assert "Usage" in proc.stdout or "usage" in proc.stdout.lower(), proc.stdout


def main():
    e2e_runner.main(globals(), "rblnsim-cli-")


if __name__ == "__main__":
    main()
