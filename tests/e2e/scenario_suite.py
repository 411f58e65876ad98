#!/usr/bin/env python3
"""Every scenario under scenarios/ is a CI test of the profiling stack: it must run with
RBLN_PROFILER=1, its expect: block must pass, and its trace must satisfy the PrivateUse1
contract (`rblnsim check`, with --sync when the scenario dispatches synchronously).

    scenario_suite.py BUILD_DIR SCENARIO.yaml"""
import os
import re
import subprocess
import sys
import tempfile

import e2e_runner


def main():
    build, scenario = sys.argv[1], sys.argv[2]
    rblnsim = os.path.join(build, "bin", "rblnsim")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RBLN", "TORCH_RBLN"))}
    env["RBLN_PROFILER"] = "1"
    tmp = tempfile.mkdtemp(prefix="rblnsim-scenario-")
    trace = os.path.join(tmp, "trace.json")
    run = subprocess.run([rblnsim, "run", scenario, "--trace", trace], env=env, capture_output=True,
                         text=True, timeout=300)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        print(f"FAILED: rblnsim run exited {run.returncode}")
        return 1
    with open(scenario, encoding="utf-8") as f:
        text = f.read()
    sync = re.search(r"RBLN_RUNTIME_FORCE_SYNC:\s*\"?1\"?", text) is not None
    check = subprocess.run([rblnsim, "check", trace] + (["--sync"] if sync else []), env=env,
                           capture_output=True, text=True, timeout=300)
    sys.stdout.write(check.stdout)
    if check.returncode != 0:
        print(f"FAILED: rblnsim check exited {check.returncode}")
        return 1
    print(f"ok {os.path.basename(scenario)}")
    return 0


if __name__ == "__main__":
    # Every temporary under one scratch folder, removed whether the checks pass or fail.
    with e2e_runner.scratch_root("rblnsim-scenario-"):
        status = main()
    sys.exit(status)
