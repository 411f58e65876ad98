#!/usr/bin/env python3
"""Capture a scenario's workload on a real RBLN-CR card, for `rblnsim compare` and `calibrate`.

    RBLN_PROFILER=1 python3 tools/capture/capture.py scenarios/profile_matmul.yaml --out cap/
    python3 tools/capture/capture.py scenarios/profile_matmul.yaml --dry-run   # print the program

The scenario is resolved by the rblnsim binary (`rblnsim describe --json`: overlays, --set and
validation stay in one place), turned into the equivalent eager torch-rbln program (tensors on
device "rbln", ops as torch calls, `repeat` as for loops, graphs as torch.compile(backend="rbln")
modules) and run under torch.profiler with activities [CPU, PrivateUse1]. DIR gets trace.json (the
Chrome trace), metadata.json (versions, card, environment, scenario hash) and program.py (what ran).

Needs Python >= 3.10 and, except for --dry-run, torch and torch_rbln; nothing else.
"""
import os
import sys

# The RBLN runtime reads RBLN_PROFILER once, when it starts; setting it later records no device
# activity. Read it here, at import time and before anything imports torch, so the check below
# sees exactly what the runtime will see.
_RBLN_PROFILER_AT_START = os.environ.get("RBLN_PROFILER", "")

import argparse  # noqa: E402  (after the environment check on purpose)
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402

sys.dont_write_bytecode = True  # leave no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_gen import generate_program  # noqa: E402

_SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))


def _fail(message, code=2):
    """Bad input or environment: one line on stderr, nothing written."""
    sys.stderr.write(f"capture.py: {message}\n")
    sys.exit(code)


def _find_rblnsim(explicit):
    if explicit:
        if not os.access(explicit, os.X_OK):
            _fail(f"--rblnsim {explicit}: not an executable file")
        return explicit
    on_path = shutil.which("rblnsim")
    if on_path:
        return on_path
    built = os.path.normpath(os.path.join(_SCRIPT_DIR, "..", "..", "build", "bin", "rblnsim"))
    if os.access(built, os.X_OK):
        return built
    _fail("rblnsim not found: put it on PATH, pass --rblnsim PATH, or build it (make) so that "
          f"{built} exists")
    return None


def _describe(rblnsim, scenario, sets, overlays):
    args = [rblnsim, "describe", scenario, "--json"]
    for value in sets:
        args += ["--set", value]
    for overlay in overlays:
        args += ["--overlay", overlay]
    try:
        proc = subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)
    except OSError as error:
        _fail(f"cannot run {rblnsim}: {error}")
    if proc.returncode != 0:
        lines = (proc.stderr.strip() or f"rblnsim describe exited {proc.returncode}").splitlines()
        _fail(lines[-1])
    return json.loads(proc.stdout)


def _parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Capture a scenario's workload on an RBLN-CR card under torch.profiler.")
    parser.add_argument("scenario", help="scenario YAML file")
    parser.add_argument("--out", help="output directory (trace.json, metadata.json, program.py)")
    parser.add_argument("--rblnsim", help="the rblnsim binary (default: PATH, then build/bin)")
    parser.add_argument("--set", dest="sets", action="append", default=[],
                        help="override a scenario key, as rblnsim run --set path=value")
    parser.add_argument("--overlay", dest="overlays", action="append", default=[],
                        help="layer a YAML overlay over the scenario, as rblnsim run --overlay")
    parser.add_argument("--point", type=int,
                        help="capture sweep point N (0-based) of a scenario with a sweep: section")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the generated torch program and exit; torch is not imported")
    args = parser.parse_args(argv)
    if not args.dry_run and not args.out:
        parser.error("--out DIR is required unless --dry-run is given")
    return args


def main(argv):
    args = _parse_args(argv)
    if not args.dry_run and _RBLN_PROFILER_AT_START != "1":
        _fail("RBLN_PROFILER=1 was not set when the process started, so the runtime would record "
              "no device activity; run: RBLN_PROFILER=1 python3 " + " ".join([sys.argv[0]] + argv))
    rblnsim = _find_rblnsim(args.rblnsim)
    described = _describe(rblnsim, args.scenario, args.sets, args.overlays)
    sets = list(args.sets)
    if args.point is not None:
        points = described.get("sweep_points", [])
        if not 0 <= args.point < len(points):
            _fail(f"--point {args.point}: the scenario has {len(points)} sweep points")
        sets += points[args.point]
        described = _describe(rblnsim, args.scenario, sets, args.overlays)
    program = generate_program(described, sets=sets, overlays=args.overlays)
    if args.dry_run:
        sys.stdout.write(program)
        return 0

    os.makedirs(args.out, exist_ok=True)
    program_path = os.path.join(args.out, "program.py")
    temporary = program_path + f".tmp-{os.getpid()}"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(program)
    os.replace(temporary, program_path)
    # Run in this process: it was started with RBLN_PROFILER=1 and has not imported torch yet.
    code = compile(program, program_path, "exec")
    try:
        exec(code, {"__name__": "__main__", "__file__": program_path, "OUT_DIR": args.out})  # noqa: S102
    except ImportError as error:
        _fail(f"{error}: a capture needs torch and torch_rbln (--dry-run does not)")
    trace = os.path.join(args.out, "trace.json")
    print(f"\nnext: {rblnsim} check {trace}")
    print(f"      {rblnsim} compare {args.scenario} {trace} --plots {args.out}/plots")
    print(f"      {rblnsim} calibrate {args.scenario} {trace} --out {args.out}/overlay.yaml")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
