#!/usr/bin/env python3
"""End-to-end tests of the trace-only analyses (`rblnsim analyze`) scored against the simulator's
ground truth (`rblnsim run --truth`). One test per ctest entry:

    analysis_tests.py BUILD_DIR truth SCENARIO.yaml
    analysis_tests.py BUILD_DIR NAME

For a scenario: run it with RBLN_PROFILER=1, analyse its trace, and require every true fallback,
recompile and host round trip found with the right reason, no false signal, the NaN/Inf scan count,
and each launch's trace-only submission latency equal to the truth within 1 ns; `rblnsim check`
must pass too (with --sync for a sync-dispatch scenario)."""
import collections
import json
import os
import re
import sys
import tempfile

import e2e_runner

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = os.path.join(SOURCE, "scenarios")
BUILD = None


def rblnsim(args, env=None, check=True):
    return e2e_runner.run_rblnsim(BUILD, args, env, check)


def strict_json(path):
    def no_constants(name):
        raise ValueError(f"non-standard JSON constant {name}")
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_constant=no_constants)


def run_scenario(scenario, tmp):
    trace = os.path.join(tmp, "trace.json")
    truth = os.path.join(tmp, "truth.json")
    run = rblnsim(["run", scenario, "--trace", trace, "--truth", truth], env={"RBLN_PROFILER": "1"})
    return run, trace, truth


def assert_same(what, want, got):
    want, got = collections.Counter(want), collections.Counter(got)
    missed, false = want - got, got - want
    assert not missed and not false, f"{what}: missed {dict(missed)}, false {dict(false)}"


def test_truth(scenario):
    tmp = tempfile.mkdtemp(prefix="rblnsim-analysis-")
    run, trace, truth_path = run_scenario(scenario, tmp)
    assert "RBLN EXPLAIN" in run.stdout, run.stdout
    report = os.path.join(tmp, "analysis.json")
    plots = os.path.join(tmp, "plots")
    analyze = rblnsim(["analyze", trace, "--truth", truth_path, "--json", report, "--plots", plots],
                      check=False)
    sys.stdout.write(analyze.stdout)
    assert analyze.returncode == 0, f"analyze exited {analyze.returncode}\n{analyze.stderr}"
    assert "ground truth: match" in analyze.stdout, analyze.stdout

    # The same verdict, re-derived here from the two JSON files.
    truth, got = strict_json(truth_path), strict_json(report)
    explain, latency = got["explain"], got["latency"]
    assert_same("fallbacks", [(f["op"], f["reason"], f["shape"]) for f in truth["fallbacks"]],
                [(f["op"], f["reason"], f["shape"]) for f in explain["fallbacks"]])
    assert_same("fallback bytes",
                [(f["op"], f["bytes_to_host"], f["bytes_to_device"]) for f in truth["fallbacks"]],
                [(f["op"], f["bytes_to_host"], f["bytes_to_device"]) for f in explain["fallbacks"]])
    assert_same("recompiles",
                [(r["op"], r["instance"], r["eviction"]) for r in truth["recompiles"]],
                [(r["op"], r["instance"], r["eviction"]) for r in explain["recompiles"]])
    def trip(r):
        return (r["reason"], r["direction"], r["bytes"])
    assert_same("round trips", [trip(r) for r in truth["round_trips"]],
                [trip(r) for r in explain["round_trips"]])
    assert explain["nan_inf_scan"]["count"] == truth["nan_inf_scans"], explain["nan_inf_scan"]
    measured = {l["launch_id"]: l for l in latency["per_launch"]}
    assert len(measured) == len(truth["launches"]), (len(measured), len(truth["launches"]))
    worst = 0
    for launch in truth["launches"]:
        m = measured[launch["launch_id"]]
        assert m["op"] == launch["op"], (m, launch)
        error = abs(m["submission_latency_ns"] - launch["latency_ns"])
        worst = max(worst, error)
        assert error <= 1, (launch, m)
        assert abs(m["marker_start_ns"] - launch["marker_start_ns"]) <= 1, (launch, m)
        assert abs(m["first_device_start_ns"] - launch["first_device_start_ns"]) <= 1, (launch, m)
    assert got["truth"]["passed"] is True
    assert got["truth"]["latency"]["max_abs_error_ns"] == worst
    for name in ("latency_histogram.svg", "queue_length.svg", "device_busy.svg"):
        with open(os.path.join(plots, name), encoding="utf-8") as f:
            assert "<svg" in f.read(), name

    with open(scenario, encoding="utf-8") as f:
        sync = re.search(r"RBLN_RUNTIME_FORCE_SYNC:\s*\"?1\"?", f.read()) is not None
    check = rblnsim(["check", trace] + (["--sync"] if sync else []), check=False)
    assert check.returncode == 0, check.stdout
    print(f"ok {os.path.basename(scenario)}: {len(truth['launches'])} launches, "
          f"max |latency error| {worst} ns, {len(truth['fallbacks'])} fallbacks, "
          f"{len(truth['recompiles'])} recompiles, {len(truth['round_trips'])} round trips")


def test_run_prints_reports():
    tmp = tempfile.mkdtemp(prefix="rblnsim-analysis-")
    run, _, _ = run_scenario(os.path.join(SCENARIOS, "fallback_dtype.yaml"), tmp)
    events = run.stdout.index("device events, for example")
    explain = run.stdout.index("[overhead: ")
    latency = run.stdout.index("RBLN launch latency (trace only)")
    assert events < explain < latency < run.stdout.index("trace written to"), run.stdout
    assert "\n  dispatch/cpu_fallback:  (sum " in run.stdout, run.stdout
    assert "\n    aten::add  2\n    why: dtype-not-fp16 2\n" in run.stdout, run.stdout
    # TORCH_RBLN_LOG_LEVEL=INFO in the scenario: the runtime's line per fallback, on stderr.
    assert run.stderr.count("`aten::add` op ran on CPU instead of RBLN") == 2, run.stderr
    # Without the profiler there are no launches in the trace: no latency report.
    off = rblnsim(["run", os.path.join(SCENARIOS, "fallback_dtype.yaml"), "--no-expect", "--trace",
                   os.path.join(tmp, "off.json")], env={"RBLN_PROFILER": "0"})
    assert "RBLN EXPLAIN" in off.stdout and "RBLN launch latency" not in off.stdout, off.stdout


def test_analyze_check_runs_the_contract_on_the_same_import():
    tmp = tempfile.mkdtemp(prefix="rblnsim-analysis-")
    _, trace, _ = run_scenario(os.path.join(SCENARIOS, "profile_matmul.yaml"), tmp)
    both, alone = os.path.join(tmp, "both.json"), os.path.join(tmp, "check.json")
    one_pass = rblnsim(["analyze", trace, "--check", "--json", both])
    check = rblnsim(["check", trace, "--json", alone])
    analyze = rblnsim(["analyze", trace])
    # The contract's text, then analyze's own report, unchanged.
    assert one_pass.stdout.startswith(check.stdout), (one_pass.stdout, check.stdout)
    assert one_pass.stdout.endswith(analyze.stdout), one_pass.stdout
    report, checked = strict_json(both), strict_json(alone)
    assert report["check"]["passed"] and report["check"]["rules"] == checked["rules"]
    assert "latency" in report and "explain" in report
    # A violated rule fails the pass as check would, with the analyses still printed.
    forced = rblnsim(["analyze", trace, "--check", "--contract", "c-abi"], check=False)
    alone = rblnsim(["check", trace, "--contract", "c-abi"], check=False)
    assert forced.returncode == alone.returncode == 1, (forced.stdout, alone.stdout)
    assert "FAIL" in forced.stdout and "RBLN launch latency" in forced.stdout, forced.stdout
    # Contract flags without --check would do nothing: refused.
    proc = rblnsim(["analyze", trace, "--sync"], check=False)
    assert proc.returncode == 2 and "--check" in proc.stderr, proc.stderr


def test_bad_trace_exit_2():
    tmp = tempfile.mkdtemp(prefix="rblnsim-analysis-")
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w", encoding="utf-8") as f:
        f.write('{"traceEvents": [ {"ph": "X", ')
    for args in (["analyze", bad], ["analyze", os.path.join(tmp, "missing.json")]):
        proc = rblnsim(args, check=False)
        assert proc.returncode == 2, (args, proc.returncode, proc.stderr)
        assert proc.stderr.count("\n") == 1 and proc.stdout == "", proc.stderr
    _, trace, _ = run_scenario(os.path.join(SCENARIOS, "profile_matmul.yaml"), tmp)
    bad_truth = os.path.join(tmp, "truth_bad.json")
    with open(bad_truth, "w", encoding="utf-8") as f:
        f.write('{"launches": 3}')
    proc = rblnsim(["analyze", trace, "--truth", bad_truth], check=False)
    assert proc.returncode == 2 and bad_truth in proc.stderr, proc.stderr


def test_truth_mismatch_exit_1():
    tmp = tempfile.mkdtemp(prefix="rblnsim-analysis-")
    _, trace, _ = run_scenario(os.path.join(SCENARIOS, "profile_matmul.yaml"), tmp)
    other = tempfile.mkdtemp(prefix="rblnsim-analysis-")
    _, _, wrong_truth = run_scenario(os.path.join(SCENARIOS, "fallback_dtype.yaml"), other)
    proc = rblnsim(["analyze", trace, "--truth", wrong_truth], check=False)
    assert proc.returncode == 1, (proc.returncode, proc.stdout)
    assert "ground truth: MISMATCH" in proc.stdout, proc.stdout
    assert "missed: aten::add dtype-not-fp16" in proc.stdout, proc.stdout


def main():
    e2e_runner.main(globals(), "rblnsim-analysis-")


if __name__ == "__main__":
    main()
