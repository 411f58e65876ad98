#!/usr/bin/env python3
"""End-to-end tests of `rblnsim sweep` and `rblnsim merge`: shards (flags, GNU parallel, Slurm and
Kubernetes variables) must cover every point exactly once and merge to the bytes of a
single-process run; resume must run nothing; the library sweeps must show their physics.
ctest runs one test per process: sweep_tests.py BUILD_DIR NAME."""
import csv
import json
import os
import pty
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import e2e_runner

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = os.path.join(SOURCE, "scenarios")
PCIE = os.path.join(SCENARIOS, "pcie_latency_sweep.yaml")  # 10 points
QUEUE = os.path.join(SCENARIOS, "queue_depth_burst.yaml")  # 5 points
PREFILL = os.path.join(SCENARIOS, "prefill_matmul_sweep.yaml")  # 7 points
BUILD = None
SKIPPED = 77  # ctest's SKIP_RETURN_CODE for these tests
# Variables that would change what a sweep selects or runs; every test starts without them.
SCRUBBED = ("RBLN", "TORCH_RBLN", "SLURM_", "JOB_COMPLETION_INDEX")


def binary():
    return os.path.join(BUILD, "bin", "rblnsim")


def clean_env(extra=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith(SCRUBBED)}
    env.update(extra or {})
    return env


def rblnsim(args, env=None, expect=0):
    proc = subprocess.run([binary()] + args, env=clean_env(env), capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    if expect is not None and proc.returncode != expect:
        raise AssertionError(f"rblnsim {args} exited {proc.returncode}, wanted {expect}\n"
                             f"{proc.stdout}\n{proc.stderr}")
    return proc


def sweep(scenario, out, *extra, env=None, expect=0):
    proc = rblnsim(["sweep", scenario, "--out", out] + list(extra), env=env, expect=expect)
    summary = json.loads(proc.stdout.strip().splitlines()[-1]) if expect in (0, 1) else None
    return proc, summary


def merge(out, expect=0):
    return rblnsim(["merge", out], expect=expect)


def tmpdir():
    # Under the test's scratch root (e2e_runner), removed with it.
    return tempfile.mkdtemp(prefix="rblnsim-sweep-")


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def rows(out):
    with open(os.path.join(out, "results.csv"), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def point_keys(out):
    points = os.path.join(out, "points")
    return sorted(n[:-5] for n in os.listdir(points)) if os.path.isdir(points) else []


def test_shards_through_parallel_match_single_process():
    if shutil.which("parallel") is None:
        raise AssertionError("GNU parallel is not installed (tools/setup.sh installs it)")
    single, sharded = tmpdir(), tmpdir()
    _, summary = sweep(PCIE, single, "--jobs", "2")
    assert summary["ran"] == 10 and summary["failed"] == 0, summary
    command = ["parallel", binary(), "sweep", PCIE, "--out", sharded, "--shard-index", "{}",
               "--shard-count", "4", "--jobs", "1", ":::", "0", "1", "2", "3"]
    proc = subprocess.run(command, env=clean_env(), capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summaries = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert sorted(s["shard_index"] for s in summaries) == [0, 1, 2, 3], summaries
    assert sum(s["ran"] for s in summaries) == 10, summaries  # every point exactly once
    assert point_keys(sharded) == point_keys(single)
    merge(single)
    merge(sharded)
    for name in ("results.csv", "results.jsonl", "sweep.json"):
        assert read_bytes(os.path.join(single, name)) == read_bytes(os.path.join(sharded, name)), name
    table = rows(single)
    assert len(table) == 10, table
    assert [r["device.pcie.latency"] for r in table[:4]] == ["100ns", "100ns", "300ns", "300ns"]
    assert [r["env.RBLN_RUNTIME_FORCE_SYNC"] for r in table[:2]] == ["0", "1"]
    # One plot per metric and parameter, each a well-formed SVG.
    plots = os.listdir(os.path.join(single, "plots"))
    assert "latency_p50_ns_vs_device.pcie.latency.svg" in plots, plots
    for name in plots:
        root = ElementTree.parse(os.path.join(single, "plots", name)).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", name


def test_skip_existing_runs_nothing():
    out = tmpdir()
    sweep(QUEUE, out, "--jobs", "2")
    files = [os.path.join(out, d, n) for d in ("points", "logs")
             for n in os.listdir(os.path.join(out, d))]
    before = {f: os.stat(f).st_mtime_ns for f in files}
    proc, summary = sweep(QUEUE, out, "--skip-existing")
    assert summary["ran"] == 0 and summary["skipped"] == 5, summary
    assert "done" not in proc.stderr, proc.stderr
    assert {f: os.stat(f).st_mtime_ns for f in files} == before
    # A lost result is the only point run again.
    lost = sorted(f for f in before if os.sep + "points" + os.sep in f)[0]
    os.remove(lost)
    _, summary = sweep(QUEUE, out, "--skip-existing")
    assert summary["ran"] == 1 and summary["skipped"] == 4, summary
    assert os.path.exists(lost)
    merge(out)
    old_rows = {r["key"]: r for r in rows(out)}
    # Another value on the axis: the old points keep their keys and results (their files only get
    # the new index and point count), and only the new point runs.
    with open(QUEUE, encoding="utf-8") as f:
        text = f.read()
    assert "device.queue.depth: [1, 2, 4, 8, 16]" in text
    extended = os.path.join(tmpdir(), "queue_depth_extended.yaml")
    with open(extended, "w", encoding="utf-8") as f:
        f.write(text.replace("device.queue.depth: [1, 2, 4, 8, 16]",
                             "device.queue.depth: [1, 2, 3, 4, 8, 16]"))
    _, summary = sweep(extended, out, "--skip-existing")
    assert summary["ran"] == 1 and summary["skipped"] == 5, summary
    merge(out)
    new_rows = rows(out)
    assert [r["device.queue.depth"] for r in new_rows] == ["1", "2", "3", "4", "8", "16"]
    for row in new_rows:
        if row["device.queue.depth"] != "3":
            assert row == old_rows[row["key"]], (row, old_rows[row["key"]])


def test_jobs_and_traces_do_not_change_results():
    one, two = tmpdir(), tmpdir()
    sweep(QUEUE, one, "--jobs", "1", "--traces")
    sweep(QUEUE, two, "--jobs", "2")
    merge(one)
    merge(two)
    assert read_bytes(os.path.join(one, "results.csv")) == read_bytes(os.path.join(two, "results.csv"))
    traces = sorted(os.listdir(os.path.join(one, "traces")))
    assert traces == [f"point-{k}.trace.json" for k in point_keys(one)], traces
    assert not os.path.exists(os.path.join(two, "traces"))
    assert os.listdir(os.path.join(two, ".tmp")) == [], os.listdir(os.path.join(two, ".tmp"))


def test_queue_depth_latency_falls():
    out = tmpdir()
    sweep(QUEUE, out)
    merge(out)
    table = rows(out)
    assert [r["device.queue.depth"] for r in table] == ["1", "2", "4", "8", "16"], table
    for metric in ("latency_p50_ns", "latency_p99_ns"):
        values = [float(r[metric]) for r in table]
        assert all(a >= b for a, b in zip(values, values[1:])), (metric, values)
        assert values[-1] < 0.7 * values[0], (metric, values)
    p99 = [float(r["latency_p99_ns"]) for r in table]
    assert p99[0] > p99[1] > p99[2], p99  # the round trip hides gradually


def test_prefill_tflops_rise_toward_peak():
    out = tmpdir()
    sweep(PREFILL, out)
    merge(out)
    table = rows(out)
    sizes = [int(r["workload.tensors.x.shape"].strip("[]").split(",")[0]) for r in table]
    assert sizes == [128, 256, 512, 1024, 2048, 4096, 8192], sizes
    tflops = [float(r["achieved_tflops"]) for r in table]
    assert all(a < b for a, b in zip(tflops, tflops[1:])), tflops
    peak_tflops = 1048.576  # 4 chiplets x 8 engines x 128 x 128 MACs x 2 FLOPs at 1 GHz
    assert 0.5 * peak_tflops < tflops[-1] <= peak_tflops, tflops
    svg = os.path.join(out, "plots", "achieved_tflops_vs_workload.tensors.x.shape.svg")
    root = ElementTree.parse(svg).getroot()
    texts = "".join(root.itertext())
    assert "configured peak" in texts and "(each dim)" in texts, texts


def test_shard_env_fallbacks_select_like_flags():
    # Under the sanitizers, shards 0 and 3 of 4 (the first and the last, both edges of the
    # index arithmetic): the same selection code under their checks, half the sweeps.
    sanitized = os.environ.get("RBLNSIM_SANITIZED") == "1"
    shards = (0, 3) if sanitized else range(4)
    selections = {}
    for k in shards:
        variants = {
            "flags": ([ "--shard-index", str(k), "--shard-count", "4"], {}),
            "slurm": ([], {"SLURM_ARRAY_TASK_ID": str(k), "SLURM_ARRAY_TASK_COUNT": "4"}),
            "slurm_1_based": ([], {"SLURM_ARRAY_TASK_ID": str(k + 1), "SLURM_ARRAY_TASK_MIN": "1",
                                   "SLURM_ARRAY_TASK_COUNT": "4"}),
            "k8s": ([], {"JOB_COMPLETION_INDEX": str(k), "RBLNSIM_SHARD_COUNT": "4"}),
            "k8s_flag_count": (["--shard-count", "4"], {"JOB_COMPLETION_INDEX": str(k)}),
        }
        for name, (args, env) in variants.items():
            out = tmpdir()
            _, summary = sweep(PCIE, out, "--jobs", "2", *args, env=env)
            assert (summary["shard_index"], summary["shard_count"]) == (k, 4), (name, summary)
            selections.setdefault(name, []).append(point_keys(out))
    for name, keys in selections.items():
        assert keys == selections["flags"], (name, keys, selections["flags"])
    flat = [key for shard in selections["flags"] for key in shard]
    assert len(flat) == len(set(flat)), flat  # no point in two shards
    if not sanitized:
        assert len(flat) == 10, flat  # and every point in one


def test_failed_and_missing_points():
    out = tmpdir()
    scenario = os.path.join(out, "hang.yaml")
    with open(scenario, "w", encoding="utf-8") as f:
        f.write("""scenario: hang_sweep
device:
  queue: {command_timeout: 1ms}
env: {TORCH_RBLN_DEPLOY: "ON"}
workload:
  tensors:
    x: {shape: [128, 128], dtype: fp16}
  warmup:
    - {op: mm, inputs: [x, x], out: y}
    - {cpu: y}
  profile:
    - repeat: 2
      steps:
        - {op: mm, inputs: [x, x], out: y}
        - {cpu: y}
sweep:
  params:
    device.faults.hang_command: ["", "i1_1_W0_mm_0", "never_issued"]
    device.queue.depth: [4, 8]
""")
    results = os.path.join(out, "results")
    proc, summary = sweep(scenario, results, "--shard-index", "0", "--shard-count", "2", expect=1)
    assert summary["ran"] == 3 and summary["failed"] == 1, summary
    assert "did not complete" in proc.stderr, proc.stderr
    records = [json.load(open(os.path.join(results, "points", n)))
               for n in os.listdir(os.path.join(results, "points"))]
    failed = [r for r in records if r["status"] == "failed"]
    assert len(failed) == 1 and "did not complete" in failed[0]["error"], failed
    assert failed[0]["params"]["device.faults.hang_command"] == "i1_1_W0_mm_0", failed
    assert all(r["points_total"] == 6 for r in records)
    proc = merge(results, expect=1)
    assert "3 missing" in proc.stderr and "1 failed" in proc.stderr, proc.stderr
    assert "missing point 1 (device.faults.hang_command=, device.queue.depth=8)" in proc.stderr
    assert len(rows(results)) == 2
    # Resume retries the failed point (it fails again) and runs the other shard's points.
    _, summary = sweep(scenario, results, "--skip-existing", expect=1)
    assert summary["skipped"] == 2 and summary["ran"] == 4, summary


def test_bad_input_exits_2():
    out = tmpdir()
    seed = os.path.join(SCENARIOS, "profile_matmul.yaml")
    deploy = os.path.join(SCENARIOS, "deploy_on_off.yaml")
    cases = [
        (["sweep", seed, "--out", out], {}, "no sweep: block"),
        (["sweep", QUEUE, "--out", out, "--shard-index", "4", "--shard-count", "4"], {}, "[0, 4)"),
        (["sweep", QUEUE, "--out", out, "--shard-count", "4"], {}, "without a shard index"),
        (["sweep", QUEUE, "--out", out, "--shard-index", "0", "--shard-count", "0"], {},
         "shard count 0 (from --shard-count)"),
        (["sweep", QUEUE, "--out", out, "--shard-index", "0"], {"RBLNSIM_SHARD_COUNT": "0"},
         "shard count 0 (from RBLNSIM_SHARD_COUNT)"),
        (["sweep", QUEUE, "--out", out, "--set", "device.queue.depth=2"], {}, "overlaps"),
        (["sweep", deploy, "--out", out], {"TORCH_RBLN_DEPLOY": "ON"}, "unset it"),
        (["sweep", QUEUE, "--out", out], {"SLURM_ARRAY_TASK_ID": "x"}, "SLURM_ARRAY_TASK_ID"),
        (["sweep", QUEUE, "--out", out], {"JOB_COMPLETION_INDEX": "1"}, "RBLNSIM_SHARD_COUNT"),
        (["sweep", QUEUE, "--out", out, "--jobs", "0"], {}, "--jobs"),
        (["sweep", QUEUE], {}, "--out"),
        (["merge", out], {}, "no point files"),
        (["merge", os.path.join(out, "absent")], {}, "not a directory"),
    ]
    for args, env, message in cases:
        proc = rblnsim(args, env=env, expect=2)
        assert message in proc.stderr, (args, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1, (args, proc.stderr)
    assert not os.path.exists(os.path.join(out, "points")), os.listdir(out)


def test_progress_bar_on_a_terminal():
    out = tmpdir()
    proc, _ = sweep(QUEUE, out)
    assert "point 5/5 done" in proc.stderr and "\r" not in proc.stderr, proc.stderr
    # With stderr on a terminal the bar is redrawn in place instead.
    try:
        leader, follower = pty.openpty()
    except OSError as error:  # chroots and some CI sandboxes have no pty devices
        print(f"sweep.progress_bar_on_a_terminal: skipped: no pseudo-terminal ({error})")
        sys.exit(SKIPPED)
    child = subprocess.Popen([binary(), "sweep", QUEUE, "--out", tmpdir()], env=clean_env(),
                             stdout=subprocess.DEVNULL, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    assert child.wait(timeout=60) == 0
    text = b"".join(chunks).decode()
    assert "\r[" in text and "5/5 points" in text and "point 1/5 done" not in text, text


def test_escaped_values_are_recorded_exactly():
    """Swept strings with escapes keep them: "e\\nf" is recorded as e, newline, f (JSON escapes it
    again), not as "enf"; single-quoted '' is one quote."""
    work = tmpdir()
    scenario = os.path.join(work, "escapes.yaml")
    with open(scenario, "w", encoding="utf-8") as f:
        f.write('scenario: escapes\nsweep:\n  params:\n'
                '    description: ["e\\nf", "g\\th", "q\\"r", \'it\'\'s\']\n'
                'workload:\n  tensors:\n    x: {shape: [4, 4]}\n  profile:\n    - {cpu: x}\n')
    out = os.path.join(work, "out")
    sweep(scenario, out)
    with open(os.path.join(out, "sweep.json"), encoding="utf-8") as f:
        values = [p["params"]["description"] for p in json.load(f)["points"]]
    assert values == ["e\nf", "g\th", 'q"r', "it's"], values


def main():
    e2e_runner.main(globals(), "rblnsim-sweep-", "sweep.{}: ok")


if __name__ == "__main__":
    main()
