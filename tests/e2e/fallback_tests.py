#!/usr/bin/env python3
"""CPU fallbacks as torch-rbln makes them, end to end: TORCH_RBLN_DISABLE_FALLBACK, the fallback
log line, expect: no_fallbacks, the compiled-op LRU, RBLN_FLOAT32_PRECISION, and the trace-only
detector on a card-format trace this file writes itself (card_fallback_trace.py), with the explain
report of that trace pinned as a golden file. One test per ctest entry:

    fallback_tests.py BUILD_DIR NAME"""
import collections
import json
import os
import subprocess
import tempfile

import card_fallback_trace
import e2e_runner

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = os.path.join(SOURCE, "scenarios")
DATA = os.path.join(SOURCE, "tests", "e2e", "data")
GOLDEN = os.path.join(SOURCE, "tests", "golden", "explain_card_trace.txt")
BUILD = None


def rblnsim(args, env=None):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("RBLN", "TORCH_RBLN"))}
    full_env["RBLN_PROFILER"] = "1"
    full_env.update(env or {})
    return subprocess.run([os.path.join(BUILD, "bin", "rblnsim")] + args, env=full_env,
                          capture_output=True, text=True, timeout=300)


def run(scenario, *extra, env=None):
    tmp = tempfile.mkdtemp(prefix="rblnsim-fallback-")
    trace = os.path.join(tmp, "trace.json")
    truth = os.path.join(tmp, "truth.json")
    proc = rblnsim(["run", scenario, "--trace", trace, "--truth", truth] + list(extra), env=env)
    return proc, trace, truth


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_disabled_unsupported_op_fails_as_torch_rbln_does():
    scenario = os.path.join(DATA, "disable_fallback_unsupported.yaml")
    proc, trace, _ = run(scenario)
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    message = ("RuntimeError: The operator `aten::sort` is not implemented for RBLN devices. "
               "To request this op, please contact client_support@rebellions.ai. To enable "
               "fallback to CPU operation, remove 'unsupported_op' from "
               "`TORCH_RBLN_DISABLE_FALLBACK`.")
    assert f"disable_fallback_unsupported.yaml:22:7: {message}" in proc.stderr, proc.stderr
    # The trace of what ran up to the failure is written, and says it is incomplete.
    doc = load(trace)
    assert message in doc["rblnsim_incomplete"], doc.get("rblnsim_incomplete")
    ops = [e["name"] for e in doc["traceEvents"] if e.get("cat") == "cpu_op"]
    assert "aten::add" in ops and "aten::topk" in ops and "aten::sort" in ops, ops
    # topk is pinned to the fallback by name and keeps falling back; nothing after the sort ran.
    assert ops.count("aten::_to_cpu") == 1, ops
    assert "aten::mm" not in ops, ops


def test_disable_fallback_from_the_process_environment():
    scenario = os.path.join(SCENARIOS, "fallback_unsupported.yaml")
    proc, _, _ = run(scenario, env={"TORCH_RBLN_DISABLE_FALLBACK": "compile_error, unsupported_op"})
    assert proc.returncode == 1 and "The operator `aten::sort` is not implemented" in proc.stderr, \
        proc.stderr
    # Other categories leave unsupported ops to the fallback.
    proc, _, _ = run(scenario, env={"TORCH_RBLN_DISABLE_FALLBACK": "compile_error"})
    assert proc.returncode == 0, proc.stderr
    # An unknown category is refused as torch-rbln refuses it, before anything runs.
    proc, trace, _ = run(scenario, env={"TORCH_RBLN_DISABLE_FALLBACK": "unsuported_op"})
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Invalid TORCH_RBLN_DISABLE_FALLBACK option `unsuported_op`, expected one of: all," \
        in proc.stderr, proc.stderr
    assert not os.path.exists(trace)


def test_compile_error_falls_back_once_compiled_and_is_found_in_the_trace():
    scenario = os.path.join(DATA, "compile_error_fallback.yaml")
    proc, trace, truth = run(scenario)
    assert proc.returncode == 0, proc.stderr
    doc = load(trace)
    ops = [e["name"] for e in doc["traceEvents"] if e.get("cat") == "cpu_op"]
    # One compile for the shape, attempted once: the second call finds the failure cached.
    compiles = [e for e in doc["traceEvents"] if e.get("name") == "rbln::compile"]
    assert len(compiles) == 1, compiles
    assert ops.count("aten::_to_cpu") == 2, ops
    facts = load(truth)
    assert [f["reason"] for f in facts["fallbacks"]] == ["compile error"] * 2, facts["fallbacks"]
    assert [(r["op"], r["failed"]) for r in facts["recompiles"]] == [("aten::add", True)], \
        facts["recompiles"]
    # The trace alone says the same: both fallbacks are compile errors, the compile failed.
    proc = rblnsim(["analyze", trace, "--truth", truth])
    assert proc.returncode == 0, proc.stderr
    assert "ground truth: match" in proc.stdout, proc.stdout
    assert "why: compile error 2" in proc.stdout, proc.stdout
    assert "failed, then ran on the CPU: 1 (compile_error fallbacks)" in proc.stdout, proc.stdout
    # With compile_error disabled the failed compile is torch-rbln's error, at the op's line.
    proc, _, _ = run(scenario, env={"TORCH_RBLN_DISABLE_FALLBACK": "compile_error"})
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert "compile_error_fallback.yaml:20:7: RuntimeError: compiling `aten::add` for RBLN " \
        "failed." in proc.stderr, proc.stderr


def test_fallback_log_line_follows_the_log_level():
    scenario = os.path.join(SCENARIOS, "fallback_unsupported.yaml")
    line = "op ran on CPU instead of RBLN"
    proc, _, _ = run(scenario)  # WARNING by default: the INFO line is not shown
    assert proc.returncode == 0 and line not in proc.stderr, proc.stderr
    proc, _, _ = run(scenario, env={"TORCH_RBLN_LOG_LEVEL": "INFO"})
    logged = [l for l in proc.stderr.splitlines() if line in l]
    assert [l.split("] ", 1)[1] for l in logged] == [
        "`aten::sort` op ran on CPU instead of RBLN", "`aten::gelu` op ran on CPU instead of RBLN",
        "`aten::tanh` op ran on CPU instead of RBLN"], logged
    assert all(l.startswith("[2026-01-01 00:00:") and "][I] `" in l for l in logged), logged


def test_no_fallbacks_expectation():
    proc, _, _ = run(os.path.join(SCENARIOS, "fallback_dtype.yaml"), "--set",
                     "expect.no_fallbacks=true")
    assert proc.returncode == 1, proc.stdout
    assert "FAIL  no_fallbacks (got 2, first aten::add (dtype-not-fp16))" in proc.stdout, \
        proc.stdout
    proc, _, _ = run(os.path.join(SCENARIOS, "profile_matmul.yaml"), "--set",
                     "expect.no_fallbacks=true")
    assert proc.returncode == 0 and "PASS  no_fallbacks (got none)" in proc.stdout, proc.stdout


def test_compiled_op_cache_evicts_by_capacity():
    scenario = os.path.join(SCENARIOS, "recompile_lru.yaml")
    counts = {}
    for capacity in ("1", "2", "3", "2048"):
        proc, _, truth_path = run(scenario, "--set", f"env.TORCH_RBLN_COMPILED_OPS={capacity}")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        recompiles = load(truth_path)["recompiles"]
        counts[capacity] = (len(recompiles), sum(r["eviction"] for r in recompiles))
    # Three shapes cycled twice: a cache of three or more compiles each once; fewer evicts the
    # shape needed next, so every call of the second pass compiles again.
    assert counts == {"1": (6, 3), "2": (6, 3), "3": (3, 0), "2048": (3, 0)}, counts


def test_float32_precision():
    scenario = os.path.join(SCENARIOS, "fallback_fp32_exact.yaml")
    exact, _, exact_truth = run(scenario)
    device, _, device_truth = run(scenario, "--no-expect", env={"RBLN_FLOAT32_PRECISION": "device"})
    assert exact.returncode == 0 and device.returncode == 0, exact.stderr + device.stderr
    exact_t, device_t = load(exact_truth), load(device_truth)
    assert [f["reason"] for f in exact_t["fallbacks"]] == ["dtype-not-fp16"], exact_t["fallbacks"]
    assert device_t["fallbacks"] == [] and len(device_t["launches"]) == 2, device_t
    # At 16-bit width the fp32 mm computes at the fp16 rate but moves 4-byte elements: its device
    # time is at least the fp16 mm's and far from the 4-pass fp32 cost.
    spans = [l["last_device_end_ns"] - l["first_device_start_ns"] for l in device_t["launches"]]
    fp32, fp16 = spans
    assert fp16 <= fp32 < 2 * fp16, spans


def test_card_trace_fallbacks_found_by_shape_reason_and_direction():
    tmp = tempfile.mkdtemp(prefix="rblnsim-fallback-")
    trace = os.path.join(tmp, "card.json")
    truth = card_fallback_trace.write(trace)
    out = os.path.join(tmp, "analysis.json")
    proc = rblnsim(["analyze", trace, "--json", out])
    assert proc.returncode == 0, proc.stderr
    explain = load(out)["explain"]
    got = [(f["op"], f["reason"], f["shape"]) for f in explain["fallbacks"]]
    want = [(f["op"], f["reason"], f["shape"]) for f in truth["fallbacks"]]
    assert got == want, (got, want)
    # No bytes args on a card: sizes are unknown, directions are not.
    assert explain["bytes_known"] is False
    trips = collections.Counter((r["reason"], r["direction"]) for r in explain["round_trips"])
    downloads = sum(f["downloads"] for f in truth["fallbacks"])
    uploads = sum(f["uploads"] for f in truth["fallbacks"])
    scans = truth["scans"]
    assert trips == {("fallback", "device_to_host"): downloads,
                     ("fallback", "host_to_device"): uploads,
                     ("nan/inf scan", "device_to_host"): scans,
                     ("cpu()", "device_to_host"): truth["user_downloads"]}, trips
    assert explain["nan_inf_scan"]["count"] == scans, explain["nan_inf_scan"]
    got_rc = [(r["op"], r["instance"], r["eviction"]) for r in explain["recompiles"]]
    want_rc = [(r["op"], r["instance"], r["eviction"]) for r in truth["recompiles"]]
    assert got_rc == want_rc, (got_rc, want_rc)


def test_explain_report_golden():
    """The explain report of the card-format trace, in today's explain() layout."""
    tmp = tempfile.mkdtemp(prefix="rblnsim-fallback-")
    trace = os.path.join(tmp, "card.json")
    card_fallback_trace.write(trace)
    proc = rblnsim(["analyze", trace])
    assert proc.returncode == 0, proc.stderr
    start = proc.stdout.index("[overhead: ")
    report = proc.stdout[start:proc.stdout.index("RBLN launch latency")].rstrip("\n") + "\n"
    if os.environ.get("RBLNSIM_UPDATE_GOLDEN") == "1":
        with open(GOLDEN, "w", encoding="utf-8") as f:
            f.write(report)
    with open(GOLDEN, encoding="utf-8") as f:
        golden = f.read()
    assert report == golden, ("explain report differs from tests/golden/explain_card_trace.txt "
                              "(RBLNSIM_UPDATE_GOLDEN=1 regenerates it)\n" + report)


def main():
    e2e_runner.main(globals(), "rblnsim-fallback-")


if __name__ == "__main__":
    main()
