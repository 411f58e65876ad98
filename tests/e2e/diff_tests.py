#!/usr/bin/env python3
"""End-to-end tests of `rblnsim diff` on scenario pairs whose truth is known: each pair changes one
thing, and the diff must report exactly the quantities that thing moves and nothing else. One test
per ctest entry:

    diff_tests.py BUILD_DIR NAME
"""
import gzip
import json
import os
import shutil
import tempfile

import card_workload_trace
import e2e_runner

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = os.path.join(SOURCE, "scenarios")
DATA = os.path.join(SOURCE, "tests", "e2e", "data")
BUILD = None

# The ops of torch-rbln's NaN/Inf pre-dispatch scan (rbln-platform.md) and of the downloads it
# makes: what TORCH_RBLN_DEPLOY=ON removes.
SCAN_OPS = {"aten::isinf", "aten::isnan", "aten::abs", "aten::eq", "aten::ne", "aten::logical_or",
            "aten::any", "aten::item", "aten::_local_scalar_dense", "aten::empty"}


def rblnsim(args, env=None, check=True):
    return e2e_runner.run_rblnsim(BUILD, args, env, check)


def trace_of(scenario, name, args=(), env=None):
    path = os.path.join(tempfile.gettempdir(), name + ".json")
    full_env = {"RBLN_PROFILER": "1"}
    full_env.update(env or {})
    # Variants of a scenario: its expect: block holds for the scenario as written only.
    rblnsim(["run", scenario, "--no-expect", "--trace", path] + list(args), env=full_env)
    return path


def diff(base, new, args=(), expect_rc=0):
    out = os.path.join(tempfile.gettempdir(), "diff.json")
    if os.path.exists(out):
        os.remove(out)
    proc = rblnsim(["diff", base, new, "--json", out] + list(args), check=False)
    assert proc.returncode == expect_rc, (proc.returncode, proc.stdout, proc.stderr)
    with open(out, encoding="utf-8") as f:
        return json.load(f), proc.stdout


def changed(report):
    return {m["key"]: m for m in report["metrics"] if m["changed"]}


def changed_ops(report):
    return {op["name"]: op for op in report["operators"] if op["changed"]}


def assert_only(what, keys, allowed):
    extra = {k for k in keys if not any(k == a or k.startswith(a) for a in allowed)}
    assert not extra, f"{what}: unexpected changes {sorted(extra)}"


def assert_device_unchanged(report):
    for m in report["metrics"]:
        if m["key"].startswith(("class[", "lane[", "family[", "device_time", "device_slices")):
            assert not m["changed"], m


def assert_same_launches(report):
    for key in changed(report):
        assert "latency" not in key and "launch_delay" not in key, key
    assert report["alignment"]["paired_latency_changed"] == 0, report["alignment"]


def test_trace_against_itself_has_no_differences():
    trace = trace_of(os.path.join(SCENARIOS, "profile_matmul.yaml"), "seed")
    report, out = diff(trace, trace)
    assert not report["differences"], out
    assert not changed(report) and not report["hidden"] and not report["alignment"]["stretches"]
    assert "no differences" in out, out
    # Gzip is read alike, and the gate passes on zero limits.
    gz = trace + ".gz"
    with open(trace, "rb") as src, gzip.open(gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    report, out = diff(trace, gz, ["--fail-on", "latency.p99:+0,self_cpu:+0,fallbacks:+0"])
    assert not report["differences"] and report["gate"]["passed"], out


def test_host_cost_moves_only_self_cpu():
    loop = os.path.join(DATA, "diff_mm_loop.yaml")
    base = trace_of(loop, "base", ["--set", "host.op_costs={aten::mm: 6us}"])
    new = trace_of(loop, "new", ["--set", "host.op_costs={aten::mm: 7us}"])
    report, out = diff(base, new)
    ops = changed_ops(report)
    assert set(ops) == {"aten::mm"}, (sorted(ops), out)
    mm = ops["aten::mm"]
    grew = mm["new"]["self_cpu_ns"] - mm["base"]["self_cpu_ns"]
    # 1 us more per costed call: a whole number of microseconds, at least one per launch.
    assert grew > 0 and grew % 1000 == 0 and grew >= 8000, mm
    assert mm["base"]["calls"] == mm["new"]["calls"] and mm["base"]["device_ns"] == mm["new"]["device_ns"]
    metrics = changed(report)
    assert metrics["self_cpu"]["delta"] == grew and metrics["host_time"]["delta"] == grew, metrics
    # The host running longer lets the device idle longer waiting for it; nothing else moves.
    assert_only("host cost", metrics, {"op[aten::mm].self_cpu", "op[aten::mm].cpu_total", "self_cpu",
                                       "host_time", "wall", "idle.host_wait"})
    assert_same_launches(report)
    assert_device_unchanged(report)
    assert not report["hidden"] and not report["alignment"]["stretches"]
    # A self-CPU gate sees it, a latency gate does not.
    _, out = diff(base, new, ["--fail-on", "op[aten::mm].self_cpu:+5us"], expect_rc=1)
    assert "FAIL" in out and "op[aten::mm].self_cpu:+5us" in out, out
    diff(base, new, ["--fail-on", f"op[aten::mm].self_cpu:+{grew}ns"])
    diff(base, new, ["--fail-on", "latency.p99:+0"])


def test_pcie_latency_moves_only_latency():
    loop = os.path.join(DATA, "diff_mm_loop.yaml")
    base = trace_of(loop, "base")
    new = trace_of(loop, "new", ["--set", "device.pcie.latency=2us"])
    report, out = diff(base, new)
    assert not changed_ops(report), (changed_ops(report), out)
    metrics = changed(report)
    assert_only("pcie latency", metrics, {"latency.", "launch_delay.", "op[aten::mm].latency.",
                                          "op[aten::mm].launch_delay.", "idle.host_wait",
                                          "paired_launches.latency_changed"})
    # The doorbell crosses PCIe once per launch: every launch is later by the same amount.
    step = metrics["latency.p50"]["delta"]
    assert step > 0 and metrics["latency.max"]["delta"] == step, metrics
    assert report["alignment"]["paired_latency_changed"] == 8, report["alignment"]
    assert_device_unchanged(report)
    assert not report["hidden"]
    diff(base, new, ["--fail-on", "latency.p99:+10%"], expect_rc=1)
    diff(base, new, ["--fail-on", "latency.p99:+50%"])


def test_added_fallback_fails_the_gate_naming_op_and_reason():
    scenario = os.path.join(SCENARIOS, "fallback_fp32_exact.yaml")
    base = trace_of(scenario, "base", env={"RBLN_FLOAT32_PRECISION": "device"})
    new = trace_of(scenario, "new", env={"RBLN_FLOAT32_PRECISION": "exact"})
    report, out = diff(base, new, ["--fail-on", "fallbacks:+0"], expect_rc=1)
    fallbacks = [h for h in report["hidden"] if h["kind"] == "fallback"]
    assert fallbacks == [{"kind": "fallback", "op": "aten::mm", "reason": "dtype-not-fp16",
                          "base": 0, "new": 1}], report["hidden"]
    assert not report["gate"]["passed"] and report["gate"]["rules"][0]["violated"]
    assert "FAIL" in out and "fallbacks:+0" in out and "dtype-not-fp16" in out, out
    # The fallback's download and CPU kernel are ops the base does not run: an unmatched stretch.
    assert report["alignment"]["stretches"], report["alignment"]
    assert changed(report)["fallbacks"]["delta"] == 1
    # One launch fewer: the fp32 mm no longer runs on the device.
    assert changed(report)["launches"]["delta"] == -1, changed(report).get("launches")


def test_deploy_removes_the_scan_rows():
    scenario = os.path.join(SCENARIOS, "profile_matmul.yaml")
    base = trace_of(scenario, "base", env={"TORCH_RBLN_DEPLOY": "OFF"})
    new = trace_of(scenario, "new", env={"TORCH_RBLN_DEPLOY": "ON"})
    report, out = diff(base, new)
    removed = {op["name"] for op in report["operators"] if op["in_base"] and not op["in_new"]}
    added = {op["name"] for op in report["operators"] if op["in_new"] and not op["in_base"]}
    assert {"aten::isinf", "aten::isnan"} <= removed and removed <= SCAN_OPS, (removed, out)
    assert not added, added
    assert "removed" in out, out
    assert [h["kind"] for h in report["hidden"]] == ["nan/inf scan"], report["hidden"]
    assert report["hidden"][0]["op"] == "aten::mm" and report["hidden"][0]["new"] == 0
    assert changed(report)["scans"]["delta"] == -6
    stretches = report["alignment"]["stretches"]
    assert len(stretches) == 3 and all(s["new_count"] == 0 for s in stretches), stretches
    assert_device_unchanged(report)
    assert_same_launches(report)


def test_queue_depth_moves_latency_and_the_ring_wait():
    scenario = os.path.join(SCENARIOS, "queue_depth_burst.yaml")
    deep = trace_of(scenario, "deep", ["--set", "device.queue.depth=4"])
    shallow = trace_of(scenario, "shallow", ["--set", "device.queue.depth=1"])
    report, out = diff(deep, shallow)
    metrics = changed(report)
    assert metrics["latency.p50"]["delta"] > 0, out
    # The host waits for the ring inside the launching op (the current dialect's marker has no
    # length), so only that op's self time grows; the device runs the same commands.
    assert set(changed_ops(report)) == {"aten::add"}, changed_ops(report)
    assert_only("queue depth", metrics, {"latency.", "launch_delay.", "op[aten::add].", "idle.",
                                         "paired_launches.", "self_cpu", "host_time", "wall"})
    assert_device_unchanged(report)
    assert not report["hidden"] and not report["alignment"]["stretches"]
    assert report["alignment"]["paired_launches"] == 48


def test_dialects_differ_only_in_layout():
    scenario = os.path.join(SCENARIOS, "queue_depth_burst.yaml")
    current = trace_of(scenario, "current", ["--bridge", "current"])
    cabi = trace_of(scenario, "cabi", ["--bridge", "c-abi"])
    report, out = diff(current, cabi, ["--fail-on", "launch_delay.p99:+0,latency.p99:+0"])
    assert report["base"]["dialect"] == "current" and report["new"]["dialect"] == "c-abi"
    assert not report["differences"], out
    assert "the dialects differ" in out and "no differences" in out, out
    # The launch delay is layout (rbln_run spans the submit call): reported, never compared.
    delay = [m for m in report["metrics"] if m["key"] == "launch_delay.p99"][0]
    assert delay["base"] != delay["new"] and not delay["comparable"], delay
    gate = report["gate"]
    assert gate["passed"] and gate["not_comparable"] == 1, gate


def test_card_format_traces():
    """Traces in the layout of a card (torch's op names, the card's lanes and command numbering,
    no simulator args), written by card_workload_trace.py: diff reads them like its own."""
    tmp = tempfile.gettempdir()
    card, extra, dropped = (os.path.join(tmp, n + ".json") for n in ("card", "extra", "dropped"))
    card_workload_trace.write(card)
    card_workload_trace.write(extra, extra_mm=True)
    card_workload_trace.write(dropped, drop_launch=1)  # the first softmax's launch is lost
    report, out = diff(card, card)
    assert not report["differences"], out
    # One more x @ x: its frames and its launch are a new-only stretch at the end; the device
    # rows of its lanes grow; the gate on launches catches it.
    report, out = diff(card, extra, ["--fail-on", "launches:+0"], expect_rc=1)
    stretches = report["alignment"]["stretches"]
    assert len(stretches) == 1 and stretches[0]["base_count"] == 0, stretches
    # (Where a stretch starts is one of the equally long alignments when its ends repeat: here a
    # launch ends both the call before it and the stretch.)
    assert sorted(stretches[0]["new_ops"]) == sorted(
        ["aten::matmul", "aten::mm", "aten::mm", "(launch)"]), stretches
    metrics = changed(report)
    assert metrics["launches"]["delta"] == 1 and metrics["op[aten::mm].calls"]["delta"] == 1
    assert metrics["class[compute].device_time"]["delta"] > 0, metrics
    assert report["alignment"]["paired_launches"] == 4, report["alignment"]
    # A lost launch: its marker is a base-only element inside a matched softmax; the other
    # launches still pair.
    report, out = diff(card, dropped)
    stretches = report["alignment"]["stretches"]
    assert [s["base_ops"] for s in stretches] == [["(launch)"]], stretches
    assert stretches[0]["after"] == "aten::_softmax" and stretches[0]["new_count"] == 0
    assert report["alignment"]["paired_launches"] == 3
    assert changed(report)["op[aten::_softmax].launches"]["delta"] == -1


def test_markdown_and_plots():
    scenario = os.path.join(SCENARIOS, "profile_matmul.yaml")
    base = trace_of(scenario, "base", env={"TORCH_RBLN_DEPLOY": "OFF"})
    new = trace_of(scenario, "new", env={"TORCH_RBLN_DEPLOY": "ON"})
    md = os.path.join(tempfile.gettempdir(), "diff.md")
    plots = os.path.join(tempfile.gettempdir(), "plots")
    proc = rblnsim(["diff", base, new, "--markdown", md, "--plots", plots, "--fail-on",
                    "scans:-1"], check=False)
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    with open(md, encoding="utf-8") as f:
        text = f.read()
    assert text.startswith("## rblnsim diff: gate failed"), text[:200]
    assert "| FAIL | scans:-1 |" in text and "### Operators" in text, text
    for name in ("op_delta.svg", "latency_cdf.svg", "device_classes.svg"):
        with open(os.path.join(plots, name), encoding="utf-8") as f:
            svg = f.read()
        assert svg.startswith("<svg") or svg.startswith("<?xml"), name
    with open(os.path.join(plots, "op_delta.svg"), encoding="utf-8") as f:
        assert "aten::isinf" in f.read()


def test_outputs_are_deterministic():
    scenario = os.path.join(SCENARIOS, "profile_matmul.yaml")
    base = trace_of(scenario, "base")
    new = trace_of(scenario, "new", env={"TORCH_RBLN_DEPLOY": "ON"})
    outs = []
    for i in range(2):
        path = os.path.join(tempfile.gettempdir(), f"d{i}.json")
        md = os.path.join(tempfile.gettempdir(), f"d{i}.md")
        proc = rblnsim(["diff", base, new, "--json", path, "--markdown", md])

        # Each run names its own output files; nothing else may differ. Whole paths are replaced:
        # the scratch directory's random name may itself hold "d0" or "d1".
        def same_names(text):
            return text.replace(path.encode(), b"OUT.json").replace(md.encode(), b"OUT.md")

        with open(path, "rb") as f, open(md, "rb") as g:
            outs.append(tuple(same_names(x) for x in (proc.stdout.encode(), f.read(), g.read())))
    assert outs[0] == outs[1]


def test_bad_input_exit_2_without_output():
    trace = trace_of(os.path.join(SCENARIOS, "profile_matmul.yaml"), "seed")
    tmp = tempfile.gettempdir()
    truncated = os.path.join(tmp, "truncated.json")
    with open(trace, "rb") as src, open(truncated, "wb") as dst:
        dst.write(src.read()[:5000])
    out = os.path.join(tmp, "never.json")
    cases = [
        ([trace, os.path.join(tmp, "missing.json")], "missing.json"),
        ([trace, truncated], "byte"),
        ([trace, trace, "--fail-on", "latency.p99"], "--fail-on 'latency.p99'"),
        ([trace, trace, "--fail-on", "op[aten::nope].self_cpu:+1%"], "aten::nope"),
        ([trace, trace, "--fail-on", "fallbacks:+1ms"], "not a time"),
    ]
    for args, needle in cases:
        proc = rblnsim(["diff"] + args + ["--json", out], check=False)
        assert proc.returncode == 2, (args, proc.returncode, proc.stderr)
        assert needle in proc.stderr and proc.stderr.count("\n") == 1, (args, proc.stderr)
        assert not os.path.exists(out), args
    # An output naming an input is refused before anything is read or written.
    size = os.path.getsize(trace)
    proc = rblnsim(["diff", trace, trace, "--markdown", trace], check=False)
    assert proc.returncode == 2 and "--markdown" in proc.stderr, proc.stderr
    assert os.path.getsize(trace) == size


def main():
    e2e_runner.main(globals(), "rblnsim-diff-")


if __name__ == "__main__":
    main()
