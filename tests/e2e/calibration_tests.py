#!/usr/bin/env python3
"""`rblnsim compare` and `rblnsim calibrate` against "hardware" traces: simulated runs with hidden,
perturbed parameters, written in the real trace format (the simulator's own trace.json is that
format). calibrate must recover what was perturbed well enough to predict scenarios it was not
fitted on; the held-out errors are computed here from the two trace files, independently of
compare's own matching.

    calibration_tests.py BUILD_DIR NAME"""
import collections
import json
import os
import re
import shutil
import statistics
import tempfile

import card_workload_trace
import e2e_runner

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = os.path.join(SOURCE, "scenarios")
SEED = os.path.join(SCENARIOS, "profile_matmul.yaml")
BUILD = None

# The hidden "card": host costs x1.3 for the cost keys these workloads charge, PCIe latency +40%,
# matmul efficiency -15%, and a device clock drifting 50 ppm.
HOST_KEYS = ["aten::matmul", "aten::mm", "aten::linear", "rbln::kernel", "rbln::graph", "aten::to",
             "aten::_to_copy", "aten::empty_strided", "aten::empty", "aten::copy_",
             "aten::_copy_from", "aten::isinf", "aten::abs", "aten::isnan", "aten::item",
             "aten::_local_scalar_dense", "cpu::kernel"]
DEVICE_ONLY = "device:\n  matmul: {efficiency: 0.7}\n  pcie: {latency: 1260ns}\n"
# Held out: scenarios the fit never saw (a 16x larger matmul, an eager MLP with a CPU fallback
# under sync dispatch, two compiled MLPs under async dispatch).
HELD_OUT = [
    ("profile_matmul.yaml", ["--set", "workload.tensors.x.shape=[2048,2048]"]),
    ("alignment_eager_mlp_sync.yaml", []),
    ("alignment_compiled_mlps_async.yaml", []),
]


def rblnsim(args, env=None, check=True):
    return e2e_runner.run_rblnsim(BUILD, args, env, check)


def simulate(scenario, trace, extra=()):
    # The stand-in "card" traces are written in the c-abi dialect, whose engine lanes carry the
    # per-engine detail these tests look for (the current dialect has one compute lane per NPU);
    # compare and calibrate then simulate through the same seam. Both dialects side by side:
    # check.both_dialects_read_alike.
    rblnsim(["run", scenario, "--trace", trace, "--no-expect", "--bridge", "c-abi"] + list(extra),
            env={"RBLN_PROFILER": "1"})


def hidden_overlay(path):
    costs = json.loads(rblnsim(["describe", SEED, "--json"]).stdout)["host"]["op_costs_ns"]
    lines = [DEVICE_ONLY.rstrip(), "  profiler: {clock_drift_ppm: 50}", "host:", "  op_costs:"]
    lines += [f'    "{key}": {costs[key] * 1.3:.1f}ns' for key in HOST_KEYS]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def launches(path):
    """(launching op, device time ns, submission latency ns) per rbln_run, read from the trace."""
    with open(path, encoding="utf-8") as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]
    host = [e for e in events if e.get("cat") in ("cpu_op", "user_annotation")]
    device = collections.defaultdict(list)
    for e in events:
        if e.get("cat") in ("kernel", "gpu_memcpy"):
            device[e["args"]["launch_id"]].append(e)
    out = []
    for marker in (e for e in events if e["name"] == "rbln_run"):
        around = [h for h in host if (h["pid"], h["tid"]) == (marker["pid"], marker["tid"])
                  and h["ts"] <= marker["ts"] and marker["ts"] + marker["dur"] <= h["ts"] + h["dur"]]
        slices = device[marker["args"]["launch_id"]]
        if slices:
            op = min(around, key=lambda h: h["dur"])["name"]
            out.append((op, 1000 * sum(s["dur"] for s in slices),
                        1000 * (min(s["ts"] for s in slices) - marker["ts"])))
    return out


def errors(sim_trace, hw_trace):
    """Worst per-op error of the mean device time per launch, and the median-latency error (%)."""
    sim, hw = launches(sim_trace), launches(hw_trace)
    assert sorted(op for op, _, _ in sim) == sorted(op for op, _, _ in hw), (sim, hw)
    worst = 0.0
    for op in {op for op, _, _ in hw}:
        s = statistics.mean(d for o, d, _ in sim if o == op)
        h = statistics.mean(d for o, d, _ in hw if o == op)
        worst = max(worst, abs(s - h) / h * 100)
    s = statistics.median(lat for _, _, lat in sim)
    h = statistics.median(lat for _, _, lat in hw)
    return worst, abs(s - h) / h * 100


def p90_error(sim_trace, hw_trace):
    """The 90th-percentile launch-latency error (%), nearest rank on both sides."""
    def p90(values):
        ordered = sorted(values)
        return ordered[max(0, -(-len(ordered) * 9 // 10) - 1)]
    s = p90(lat for _, _, lat in launches(sim_trace))
    h = p90(lat for _, _, lat in launches(hw_trace))
    return abs(s - h) / h * 100


def compare_json(tmp, scenario, trace, extra=()):
    out = os.path.join(tmp, "compare.json")
    rblnsim(["compare", scenario, trace, "--json", out] + list(extra))
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def test_compare_self_has_no_differences():
    for name in ("profile_matmul", "alignment_eager_mlp_sync", "alignment_compiled_mlps_async"):
        with tempfile.TemporaryDirectory(prefix="rblnsim-calib-") as tmp:
            scenario = os.path.join(SCENARIOS, name + ".yaml")
            trace = os.path.join(tmp, "trace.json")
            simulate(scenario, trace)
            result = compare_json(tmp, scenario, trace, ["--plots", os.path.join(tmp, "plots")])
            assert result["differences"] == [], (name, result["differences"])
            assert result["launches_only_sim"] == result["launches_only_hw"] == 0, result
            # The capture's import report: every event read, none skipped.
            assert result["import"]["events_read"] > 0 and result["import"]["skipped_events"] == 0, \
                result["import"]
            assert result["commands_only_sim"] == result["commands_only_hw"] == 0, result
            assert result["commands_matched"] == result["device_events"]["hw"] > 0, result
            for plot in ("device_time_per_op.svg", "device_time_per_launch.svg", "latency_cdf.svg"):
                with open(os.path.join(tmp, "plots", plot), encoding="utf-8") as f:
                    assert f.read().lstrip().startswith("<"), plot


def test_compare_reports_the_perturbed_quantities():
    with tempfile.TemporaryDirectory(prefix="rblnsim-calib-") as tmp:
        overlay = os.path.join(tmp, "card.yaml")
        with open(overlay, "w", encoding="utf-8") as f:
            f.write(DEVICE_ONLY)
        trace = os.path.join(tmp, "card.json")
        simulate(SEED, trace, ["--overlay", overlay])
        result = compare_json(tmp, SEED, trace)
        kinds = collections.defaultdict(set)
        for d in result["differences"]:
            kinds[d["kind"]].add(d["what"])
        # Matmul commands and their op got slower, submission got later; nothing else moved.
        assert set(kinds) == {"device_time_op", "device_time_class", "latency"}, result["differences"]
        assert kinds["device_time_class"] == {"Neural Engine Clusters"}, kinds
        assert kinds["device_time_op"] == {"aten::mm"}, kinds
        assert result["latency"]["hw"]["p50_ns"] > result["latency"]["sim"]["p50_ns"], result["latency"]


def test_compare_matches_renamed_commands_by_position():
    with tempfile.TemporaryDirectory(prefix="rblnsim-calib-") as tmp:
        trace = os.path.join(tmp, "card.json")
        # Another "release" names the commands differently: rel2_1_0_mm1 for i1_0_W0_mm_1.
        simulate(SEED, trace, ["--set", "naming.command_template=rel2_{instance}_{sequence}_{layer}{command}"])
        result = compare_json(tmp, SEED, trace)
        assert {d["kind"] for d in result["differences"]} == {"event_names"}, result["differences"]
        assert result["commands_matched"] == 18 and result["commands_only_hw"] == 0, result
        assert all(abs(c["error_pct"]) < 0.1 for c in result["classes"]), result["classes"]


def test_compare_reports_fallbacks_and_recompiles():
    with tempfile.TemporaryDirectory(prefix="rblnsim-calib-") as tmp:
        scenario = os.path.join(SCENARIOS, "fallback_dtype.yaml")
        trace = os.path.join(tmp, "card.json")
        simulate(scenario, trace)  # fp32 inputs: aten::add falls back to the CPU twice
        # The model's version of the workload with fp16 inputs: add runs (and compiles) on device.
        fp16 = ["--set", "workload.tensors.a.dtype=fp16", "--set", "workload.tensors.b.dtype=fp16"]
        result = compare_json(tmp, scenario, trace, fp16)
        found = {(d["kind"], d["what"]): (d["sim"], d["hw"]) for d in result["differences"]}
        assert found[("fallbacks", "aten::add")] == (0, 2), found
        assert found[("recompiles", "aten::add")] == (1, 0), found
        assert found[("launches", "aten::add")] == (2, 0), found
        assert result["fallbacks"] == [{"name": "aten::add", "sim": 0, "hw": 2}], result["fallbacks"]


def test_calibrate_predicts_held_out_scenarios():
    with tempfile.TemporaryDirectory(prefix="rblnsim-calib-") as tmp:
        hidden = os.path.join(tmp, "hidden", "card.yaml")
        os.makedirs(os.path.dirname(hidden))
        hidden_overlay(hidden)
        card = os.path.join(tmp, "card.json")
        simulate(SEED, card, ["--overlay", hidden])
        fitted = os.path.join(tmp, "fitted.yaml")
        proc = rblnsim(["calibrate", SEED, card, "--out", fitted])
        print(proc.stdout)
        assert "error before:" in proc.stdout and "error after:" in proc.stdout, proc.stdout
        assert re.search(r"convergence \(.*\): [0-9.]+ -> [0-9.]+ -> [0-9.]+; the last round", proc.stdout), \
            proc.stdout
        with open(fitted, encoding="utf-8") as f:
            first = f.read()
        assert first.startswith("# rblnsim calibrate:"), first
        rblnsim(["calibrate", SEED, card, "--out", fitted])  # deterministic: same overlay again
        with open(fitted, encoding="utf-8") as f:
            assert f.read() == first
        for name, extra in HELD_OUT:
            scenario = os.path.join(SCENARIOS, name)
            hw = os.path.join(tmp, "held_hw.json")
            simulate(scenario, hw, extra + ["--overlay", hidden])
            before, after = os.path.join(tmp, "before.json"), os.path.join(tmp, "after.json")
            simulate(scenario, before, extra)
            simulate(scenario, after, extra + ["--overlay", fitted])
            device_before, latency_before = errors(before, hw)
            device_after, latency_after = errors(after, hw)
            print(f"held out {name} {' '.join(extra)}: device time per op {device_before:.2f}% -> "
                  f"{device_after:.2f}%, median submission latency {latency_before:.2f}% -> "
                  f"{latency_after:.2f}%")
            tail_after = p90_error(after, hw)
            print(f"  p90 submission latency after: {tail_after:.2f}%")
            assert device_after < 5.0, (name, device_after)
            assert latency_after < 5.0, (name, latency_after)
            assert tail_after < 5.0, (name, tail_after)
            # The perturbation is visible before calibration, and calibration removes most of it.
            assert latency_before > 4.0 and latency_after < latency_before / 4, (latency_before, latency_after)
            assert device_after <= max(0.5, device_before / 4), (device_before, device_after)
            if extra:  # the 2048x2048 matmul: compute-bound, so matmul efficiency shows in full
                assert device_before > 5.0, device_before
            result = compare_json(tmp, scenario, hw, extra + ["--overlay", fitted])
            assert result["error"]["op_device_max_pct"] < 5.0, result["error"]
        # The larger matmul is where the efficiency shows: the fit must have found it.
        found = re.search(r"matmul: \{efficiency: ([0-9.]+)", first)
        assert found and abs(float(found.group(1)) - 0.7) < 0.7 * 0.02, first


def test_calibrate_says_when_the_card_beats_the_models_peak():
    """A card 30% faster than the model's matmul peak: the fit goes above 1 and says so."""
    big = ["--set", "workload.tensors.x.shape=[4096,4096]"]  # compute-bound at the peak
    with tempfile.TemporaryDirectory(prefix="rblnsim-calib-") as tmp:
        card = os.path.join(tmp, "card.json")
        simulate(SEED, card, big + ["--set", "device.matmul.efficiency=1.3"])
        fitted = os.path.join(tmp, "fitted.yaml")
        proc = rblnsim(["calibrate", SEED, card, "--out", fitted] + big)
        assert re.search(r"the card beats the model's peak on matmul by [0-9.]+%", proc.stdout), \
            proc.stdout
        with open(fitted, encoding="utf-8") as f:
            found = re.search(r"matmul: \{efficiency: ([0-9.]+)", f.read())
        assert found and abs(float(found.group(1)) - 1.3) < 1.3 * 0.03, proc.stdout


def overlay_value(text, mapping, key):
    """The value of |key| in the overlay's |mapping| (host.op_costs and the like), in ns."""
    found = re.search(rf'  {mapping}:\n(?:    .*\n)*?    "{re.escape(key)}": ([0-9.]+)ns', text)
    assert found, (mapping, key, text)
    return float(found.group(1))


def test_calibrate_recovers_per_call_host_costs():
    """A card whose add costs 14 us + 0.06 ns per element (the model: 5 us flat) and whose compile
    takes 40 ms (the model: 250 ms), with a first call that compiled inside the window: one
    calibrate with defaults recovers the fixed part, the slope and the compile time."""
    scenario = os.path.join(SOURCE, "tests", "e2e", "data", "host_cost_shapes.yaml")
    hidden = ["--set", "host.op_costs.aten::add=14us",
              "--set", "host.op_costs_per_element.aten::add=0.06ns", "--set", "host.compile=40ms"]
    with tempfile.TemporaryDirectory(prefix="rblnsim-calib-") as tmp:
        card = os.path.join(tmp, "card.json")
        simulate(scenario, card, hidden)
        fitted = os.path.join(tmp, "fitted.yaml")
        proc = rblnsim(["calibrate", scenario, card, "--out", fitted])
        with open(fitted, encoding="utf-8") as f:
            overlay = f.read()
        fixed = overlay_value(overlay, "op_costs", "aten::add")
        slope = overlay_value(overlay, "op_costs_per_element", "aten::add")
        compile_ns = float(re.search(r"compile: ([0-9.]+)ns", overlay).group(1))
        assert abs(fixed - 14000) <= 14000 * 0.02, (fixed, proc.stdout)
        assert abs(slope - 0.06) <= 0.06 * 0.02, (slope, proc.stdout)
        assert abs(compile_ns - 40e6) <= 40e6 * 0.01, (compile_ns, proc.stdout)
        assert "host.op_costs_per_element.aten::add" in proc.stdout, proc.stdout
        # The fitted run's add frames match the card's call by call, the compiled one included.
        result = compare_json(tmp, scenario, card, ["--overlay", fitted])
        ops = {h["name"]: h for h in result["host_ops"]}
        add = ops["aten::add"]
        assert abs(add["sim_self_ns"] - add["hw_self_ns"]) <= 0.02 * add["hw_self_ns"], add


def card_lines_up(tmp, scenario, card, truth):
    """compare of a card_workload_trace.py trace: every launch pairs, and the captured figures are
    the trace's own (per op, per lane, every device slice counted). Returns the compare JSON."""
    result = compare_json(tmp, scenario, card)
    launches = len(truth["launches"])
    assert (result["launches_matched"], result["launches_only_sim"],
            result["launches_only_hw"]) == (launches, 0, 0), result
    # Every device slice counts, Device Sync included, as the device time sums them.
    assert result["device_events"]["hw"] == sum(l["slices"] for l in truth["launches"])
    by_op = collections.defaultdict(list)
    for launch in truth["launches"]:
        by_op[launch["op"]].append(launch["device_us"] * 1000)
    ops = {o["op"]: o for o in result["ops"]}
    assert set(ops) == set(by_op), ops
    for op, times in by_op.items():
        assert ops[op]["hw_launches"] == ops[op]["matched"] == len(times), ops[op]
        expected = statistics.mean(times)
        assert abs(ops[op]["hw_device_ns"] - expected) <= 0.001 * expected, (op, ops[op])
    # Per lane, the card's device time is the trace's own: every slice summed, by the lane's
    # thread name.
    with open(card, encoding="utf-8") as f:
        doc = json.load(f)
    names = {e["tid"]: e["args"]["name"] for e in doc["traceEvents"]
             if e.get("ph") == "M" and e["name"] == "thread_name" and e["pid"] == 0}
    direct = collections.Counter()
    for e in doc["traceEvents"]:
        if e.get("ph") == "X" and e["pid"] == 0:
            direct[names[e["tid"]]] += e["dur"] * 1000
    lanes = {l["lane"]: l["hw_ns"] for l in result["lanes"] if l["hw_slices"]}
    assert set(lanes) == set(direct), (lanes, direct)
    for lane, ns in direct.items():
        assert abs(lanes[lane] - ns) <= 0.001 * ns, (lane, lanes[lane], ns)
    # Commands pair within an engine kind, and the card's lane names the class: no DMA is set
    # against a compute command. The simulator has no Device Sync commands: those stay
    # captured only.
    kinds = {c["class"]: c["kind"] for c in result["classes"]}
    assert kinds == {"Neural Engine Clusters": "matmul", "Neural DMA": "dma",
                     "Task DMA": "dma"}, kinds
    assert result["commands_only_hw"] >= launches, result
    # The host model's call tree is torch's: every op is called as often on both sides.
    calls = {h["name"]: (h["sim_calls"], h["hw_calls"]) for h in result["host_ops"]}
    assert all(sim == hw for sim, hw in calls.values()), calls
    return result, by_op, calls


def test_a_second_card_workload_lines_up():
    """bmm, add and a linear with a bias, each launching from its own frame, twice each in an
    interleaved order: the same checks as the matmul/softmax card trace."""
    scenario = os.path.join(SOURCE, "tests", "e2e", "data", "card_bmm_add_linear.yaml")
    with tempfile.TemporaryDirectory(prefix="rblnsim-card-") as tmp:
        card = os.path.join(tmp, "card.json")
        truth = card_workload_trace.write(card, workload="bmm_add_linear")
        _, by_op, calls = card_lines_up(tmp, scenario, card, truth)
        assert sorted(by_op) == ["aten::add", "aten::bmm", "aten::linear"], by_op
        assert calls["aten::linear"] == (4, 4), calls
        # A lost add launch is named, and only the adds lose a pair.
        dropped = os.path.join(tmp, "dropped.json")
        card_workload_trace.write(dropped, drop_launch=3, workload="bmm_add_linear")
        proc = rblnsim(["compare", scenario, dropped])
        assert "Launches only simulated: aten::add x1" in proc.stdout, proc.stdout
        result = compare_json(tmp, scenario, dropped)
        ops = {o["op"]: o for o in result["ops"]}
        assert [ops[op]["matched"] for op in ("aten::add", "aten::bmm", "aten::linear")] == \
            [1, 2, 2], ops


def test_the_eager_workload_of_a_first_capture_lines_up():
    """The capture a new user makes first: fp16 mm and softmax on the device between an int add, a
    NaN add, a first-time 29x31 add and a 29x64 add whose compile fails, every device op scanning
    its inputs. Launches, commands, lanes and every host op line up; each side finds the same four
    fallbacks and the failed compile, and the card's 2.5 ms compile is fitted apart from the add."""
    scenario = os.path.join(SOURCE, "tests", "e2e", "data", "card_eager_fallbacks.yaml")
    with tempfile.TemporaryDirectory(prefix="rblnsim-card-") as tmp:
        card = os.path.join(tmp, "card.json")
        truth = card_workload_trace.write(card, workload="eager_fallbacks")
        result, by_op, calls = card_lines_up(tmp, scenario, card, truth)
        assert sorted(by_op) == ["aten::_softmax", "aten::mm"], by_op
        assert calls["aten::isinf"] == (7, 7) and calls["rbln::compile"] == (1, 1), calls
        # compare lists fallbacks and recompiles found in one run only: none. The card's own
        # findings, each of the four causes once:
        assert result["fallbacks"] == [] and result["recompiles"] == [], result
        analyzed = rblnsim(["analyze", card]).stdout
        assert f"aten::add  {len(truth['fallbacks'])}" in analyzed, analyzed
        assert ("why: dtype-not-fp16 1, nan/inf input 1, last dim not a multiple of 64 1, "
                "compile error 1") in analyzed, analyzed
        assert "failed, then ran on the CPU: 1" in analyzed, analyzed
        fitted = os.path.join(tmp, "fitted.yaml")
        proc = rblnsim(["calibrate", scenario, card, "--out", fitted])
        with open(fitted, encoding="utf-8") as f:
            compile_ns = float(re.search(r"compile: ([0-9.]+)ns", f.read()).group(1))
        assert abs(compile_ns - 2.5e6) <= 2.5e6 * 0.01, (compile_ns, proc.stdout)


def test_a_card_format_trace_with_torch_names_lines_up():
    """A card-format trace written by card_workload_trace.py (torch's op names: aten::mm inside
    aten::matmul, aten::_softmax inside aten::softmax; the card's lanes, Device Sync slices that
    are no kernel) lines up launch by launch, and its figures are the trace's own."""
    scenario = os.path.join(SOURCE, "tests", "e2e", "data", "card_mm_softmax.yaml")
    with tempfile.TemporaryDirectory(prefix="rblnsim-card-") as tmp:
        card = os.path.join(tmp, "card.json")
        truth = card_workload_trace.write(card)
        _, by_op, calls = card_lines_up(tmp, scenario, card, truth)
        assert calls["aten::_softmax"] == (4, 4) and calls["aten::softmax"] == (2, 2), calls

        # A launch the card lost is named, and only its own op loses a pair.
        dropped = os.path.join(tmp, "dropped.json")
        card_workload_trace.write(dropped, drop_launch=1)  # the first softmax
        proc = rblnsim(["compare", scenario, dropped])
        assert "Launches only simulated: aten::_softmax x1" in proc.stdout, proc.stdout
        result = compare_json(tmp, scenario, dropped)
        ops = {o["op"]: o for o in result["ops"]}
        assert ops["aten::mm"]["matched"] == 2 and ops["aten::_softmax"]["matched"] == 1, ops

        # An extra launch is named as captured only; a launch without slices is counted, not 0 us.
        odd = os.path.join(tmp, "odd.json")
        card_workload_trace.write(odd, bare_launch=2, extra_mm=True)  # the second mm is bare
        proc = rblnsim(["compare", scenario, odd])
        assert "Launches only captured: aten::mm x1" in proc.stdout, proc.stdout
        assert "Launches without device slices (left out of device time): captured aten::mm x1" \
            in proc.stdout, proc.stdout
        result = compare_json(tmp, scenario, odd)
        ops = {o["op"]: o for o in result["ops"]}
        assert ops["aten::mm"]["hw_without_device"] == 1, ops
        assert abs(ops["aten::mm"]["hw_device_ns"] - by_op["aten::mm"][0]) <= 1, ops["aten::mm"]


def test_a_trace_of_another_workload_is_refused():
    """compare and calibrate refuse a trace whose launches (op and input shapes) do not fit the
    scenario, with or without metadata.json, unless --force; calibrate then writes no overlay."""
    with tempfile.TemporaryDirectory(prefix="rblnsim-calib-") as tmp:
        other = os.path.join(tmp, "other.json")
        simulate(os.path.join(SCENARIOS, "fallback_dtype.yaml"), other)  # mm on 128x128, twice
        proc = rblnsim(["compare", SEED, other], check=False)
        assert proc.returncode == 2, (proc.returncode, proc.stdout)
        assert "does not look like a run of this scenario" in proc.stderr, proc.stderr
        assert "simulated {aten::mm [[512,512],[512,512]] 3}" in proc.stderr, proc.stderr
        assert "captured {aten::mm [[128,128],[128,128]] 2}" in proc.stderr, proc.stderr
        assert rblnsim(["compare", SEED, other, "--force"], check=False).returncode == 0
        overlay = os.path.join(tmp, "overlay.yaml")
        proc = rblnsim(["calibrate", SEED, other, "--out", overlay], check=False)
        assert proc.returncode == 2 and not os.path.exists(overlay), (proc.returncode, proc.stderr)
        # The same workload with one launch missing still compares: it is reported, not refused.
        same = os.path.join(tmp, "same.json")
        simulate(SEED, same, ["--set", "workload.profile.0.repeat=2"])
        proc = rblnsim(["compare", SEED, same], check=False)
        assert proc.returncode == 0, proc.stderr


def test_bad_inputs_exit_2():
    with tempfile.TemporaryDirectory(prefix="rblnsim-calib-") as tmp:
        trace = os.path.join(tmp, "trace.json")
        simulate(SEED, trace)
        host_only = os.path.join(tmp, "host_only.json")
        rblnsim(["run", SEED, "--trace", host_only, "--no-expect"])  # RBLN_PROFILER unset
        broken = os.path.join(tmp, "broken.json")
        with open(broken, "w", encoding="utf-8") as f:
            f.write('{"traceEvents": [{"ph": "X", "ts": ')
        out = os.path.join(tmp, "out")
        cases = [
            (["compare", SEED, os.path.join(tmp, "missing.json"), "--json", out], "missing.json"),
            (["compare", SEED, broken, "--json", out], "broken.json"),
            (["compare", SEED, trace, "--json", out, "--set", "device.queue.dept=3"], "dept"),
            (["compare", SEED, trace, "--json", os.path.join(tmp, "no", "dir", "x.json")], "no/dir"),
            (["calibrate", SEED, broken, "--out", out], "broken.json"),
            (["calibrate", SEED, host_only, "--out", out], "no rbln_run launch"),
            (["calibrate", SEED, trace], "--out"),
            (["describe", SEED, "--json", "--set", "device.queue.depth=x"], "device.queue.depth"),
        ]
        # A metadata.json beside the trace whose fields have the wrong type is refused, not ignored.
        for field, value, needle in (("card_name", 5, "card_name is not a string"),
                                     ("sets", ["a", 1], "sets is not an array of strings"),
                                     ("env", ["RBLN_PROFILER"], "env is not an object")):
            card = os.path.join(tmp, "card-" + field)
            os.mkdir(card)
            shutil.copyfile(trace, os.path.join(card, "trace.json"))
            with open(os.path.join(card, "metadata.json"), "w", encoding="utf-8") as f:
                json.dump({field: value}, f)
            cases.append((["compare", SEED, os.path.join(card, "trace.json"), "--json", out], needle))
        for args, needle in cases:
            proc = rblnsim(args, check=False)
            assert proc.returncode == 2, (args, proc.returncode, proc.stderr)
            assert needle in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, (args, proc.stderr)
            assert not os.path.exists(out), args


def main():
    e2e_runner.main(globals(), "rblnsim-calib-")


if __name__ == "__main__":
    main()
