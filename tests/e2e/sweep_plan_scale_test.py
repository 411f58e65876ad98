#!/usr/bin/env python3
"""`rblnsim sweep` plans in O(points + document): a 48,000-point sweep of a 2,000-step scenario
(inside every documented limit) is planned, one point run and the summary written in seconds;
before, planning re-loaded the whole document per point and printed nothing for minutes.
Each point's key must still be the hash `rblnsim describe` gives the same resolved scenario.
Usage: sweep_plan_scale_test.py BUILD_DIR BOUND_S (0: no wall-clock bound, for sanitizer builds;
ctest also bounds it with a generous TIMEOUT). Under the sanitizers (RBLNSIM_SANITIZED=1) the
sweep has 4,800 points: the same planning code under their checks, without the scale that only
the optimised build can time."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SCRUBBED = ("RBLN", "TORCH_RBLN", "SLURM_", "JOB_COMPLETION_INDEX")


def main():
    binary = os.path.join(sys.argv[1], "bin", "rblnsim")
    env = {k: v for k, v in os.environ.items() if not k.startswith(SCRUBBED)}
    work = tempfile.mkdtemp(prefix="rblnsim-plan-scale-")
    try:
        lines = ["scenario: plan_scale", "workload:", "  tensors:", "    x: {shape: [8, 8]}",
                 "  profile:"]
        lines += ["    - {op: add, inputs: [x, x], out: y%d}" % (i % 7) for i in range(2000)]
        sanitized = os.environ.get("RBLNSIM_SANITIZED") == "1"
        depths = [str(d) for d in range(1, 5 if sanitized else 41)]
        points_expected = len(depths) * 40 * 30
        latencies = ["%dns" % (100 + i) for i in range(40)]
        submits = ["%dns" % (1000 + i) for i in range(30)]
        lines += ["sweep:", "  params:",
                  "    device.queue.depth: [%s]" % ", ".join(depths),
                  "    device.pcie.latency: [%s]" % ", ".join(latencies),
                  "    host.runtime_submit: [%s]" % ", ".join(submits)]
        scenario = os.path.join(work, "plan_scale.yaml")
        with open(scenario, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        out = os.path.join(work, "out")
        start = time.monotonic()
        # One shard per point runs one point, so the time is the plan's.
        proc = subprocess.run([binary, "sweep", scenario, "--out", out, "--jobs", "1",
                               "--shard-index", "7", "--shard-count", str(points_expected)],
                              env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        seconds = time.monotonic() - start
        assert proc.returncode == 0, proc.stdout + proc.stderr
        with open(os.path.join(out, "sweep.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        points = manifest["points"]
        assert len(points) == points_expected, len(points)
        assert len({p["key"] for p in points}) == points_expected, "point keys must be unique"
        bound_s = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
        assert bound_s == 0 or seconds < bound_s, \
            f"planning {points_expected:,} points took {seconds:.1f} s"
        # Spot-check keys against a full load of the same --set arguments.
        for index in (0, 7, points_expected // 4 + 345, points_expected - 1):
            point = points[index]
            sets = [f"{path}={value}" for path, value in point["params"].items()]
            args = [binary, "describe", scenario, "--json", "--set", "sweep="]
            for s in sets:
                args += ["--set", s]
            described = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
            assert json.loads(described.stdout)["hash"] == point["key"], (index, point)
        print(f"planned {points_expected:,} points of a 2,000-step scenario in {seconds:.2f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
