#!/usr/bin/env python3
"""Collects bench/compare.sh's measurements into one JSON and checks that rblnsim and the Python
reference agree on the figures both compute; exits 1, listing every difference, if they do not.

Inputs are the `/usr/bin/time -v` reports of each process and the JSON each tool wrote:
`rblnsim check --json`, `rblnsim analyze --json` and `reference_check.py --json`.
"""
import argparse
import json
import sys
from datetime import datetime, timezone


def read_time(path):
    """Wall seconds, peak RSS bytes and exit status from a `/usr/bin/time -v` report."""
    wall_s = rss_bytes = status = None
    cpu_s = 0.0
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().rpartition(": ")
            if key.startswith("Elapsed (wall clock) time"):
                seconds = 0.0
                for part in value.split(":"):
                    seconds = seconds * 60 + float(part)
                wall_s = seconds
            elif key == "Maximum resident set size (kbytes)":
                rss_bytes = int(value) * 1024
            elif key in ("User time (seconds)", "System time (seconds)"):
                cpu_s += float(value)
            elif key == "Exit status":
                status = int(value)
    if wall_s is None or rss_bytes is None:
        sys.exit(f"{path}: not a /usr/bin/time -v report")
    return {"wall_s": wall_s, "cpu_s": cpu_s, "max_rss_bytes": rss_bytes, "exit_status": status}


def figures_of_rblnsim(check, analyze):
    lat = analyze["latency"]
    out = {f"rule {r['id']}": (None if r["status"] == "skip" else r["violation_count"])
           for r in check["rules"]}
    out["passed"] = check["passed"]
    for key in ("launches", "launches_without_device", "markers_without_launch_id",
                "duplicate_markers", "slices_without_marker"):
        out[key] = lat[key]
    out["device_slices"] = (sum(l["device_slices"] for l in lat["per_launch"]) +
                            lat["slices_without_marker"])
    for series in ("submission_latency_ns", "launch_delay_ns"):
        for p, v in lat[series].items():
            out[f"{series} {p}"] = v
    out["outliers above p99"] = lat["outliers"]["count"]
    out["queue max"] = lat["queue"]["max"]
    for op in lat["per_op"]:
        out[f"op {op['op']} launches"] = op["submission_latency_ns"]["count"]
        out[f"op {op['op']} submission p50"] = op["submission_latency_ns"]["p50"]
    return out


def figures_of_reference(ref):
    lat = ref["latency"]
    out = {f"rule {rule}": count for rule, count in ref["rules"].items()}
    out["passed"] = ref["passed"]
    for key in ("launches", "launches_without_device", "markers_without_launch_id",
                "duplicate_markers", "slices_without_marker", "device_slices"):
        out[key] = lat[key]
    for series in ("submission_latency_ns", "launch_delay_ns"):
        for p, v in lat[series].items():
            out[f"{series} {p}"] = v
    out["outliers above p99"] = lat["outlier_count"]
    out["queue max"] = lat["queue_max"]
    for op in lat["per_op"]:
        out[f"op {op['op']} launches"] = op["submission_latency_ns"]["count"]
        out[f"op {op['op']} submission p50"] = op["submission_latency_ns"]["p50"]
    return out


def diff_findings(report):
    """What is wrong with `rblnsim diff`'s report of the pair (a slower doorbell is the only
    change, so submission latency moves and operators, hidden work and device time do not)."""
    problems = []
    changed = {m["key"] for m in report["metrics"] if m["changed"]}
    if "latency.p50" not in changed:
        problems.append("latency.p50 did not move")
    for key in changed:
        if key.startswith(("op[", "class[", "lane[", "family[", "device_time", "fallbacks",
                           "recompiles", "round_trips", "scans")) and "latency" not in key \
                and "launch_delay" not in key:
            problems.append(f"{key} moved")
    if report["alignment"]["stretches"]:
        problems.append("unmatched stretches in a pair of the same program")
    return problems


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dir", required=True, help="compare.sh's work directory")
    p.add_argument("--figures-only", action="store_true",
                   help="only check the agreement (no timings, no output file)")
    p.add_argument("--trace-bytes", type=int)
    p.add_argument("--trace-launches", type=int)
    p.add_argument("--sim-launches", type=int)
    p.add_argument("--sim-trace-bytes", type=int)
    p.add_argument("--pair-bytes", type=int, help="the second trace of the diff pair")
    p.add_argument("--out")
    a = p.parse_args()
    d = a.dir
    load = lambda name: json.load(open(f"{d}/{name}"))  # noqa: E731
    mine = figures_of_rblnsim(load("check.json"), load("analyze.json"))
    theirs = figures_of_reference(load("reference.json"))
    rows = [[k, mine.get(k), theirs.get(k)] for k in sorted(set(mine) | set(theirs))]
    differences = [r for r in rows if r[1] != r[2]]
    if a.figures_only:
        for name, m, t in differences:
            print(f"  {name}: rblnsim {m}, python {t}", file=sys.stderr)
        nonzero = sum(1 for _, m, _ in rows if m not in (0, None, True, False))
        print(f"compare: {len(rows) - len(differences)} of {len(rows)} figures agree "
              f"({nonzero} non-zero)")
        return 1 if differences else 0
    if None in (a.trace_bytes, a.trace_launches, a.sim_launches, a.sim_trace_bytes, a.out):
        p.error("--trace-bytes, --trace-launches, --sim-launches, --sim-trace-bytes and --out "
                "are required")

    check_t, analyze_t, python_t = (read_time(f"{d}/{n}.time") for n in ("check", "analyze",
                                                                             "python"))
    diff_t = read_time(f"{d}/diff.time")
    onepass_t = read_time(f"{d}/onepass.time")
    jsonload_t = read_time(f"{d}/jsonload.time")
    untraced_t = read_time(f"{d}/untraced.time")
    sim_t = read_time(f"{d}/sim.time")
    diff_problems = diff_findings(load("diff.json"))
    rblnsim_wall = check_t["wall_s"] + analyze_t["wall_s"]
    result = {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "trace_bytes": a.trace_bytes,
        "trace_launches": a.trace_launches,
        "trace_passes_checks": mine["passed"],
        "sim_run": dict(sim_t, launches=a.sim_launches, trace_bytes=a.sim_trace_bytes,
                        untraced=untraced_t,
                        vs_untraced=sim_t["wall_s"] / untraced_t["wall_s"]
                        if untraced_t["wall_s"] > 0 else None),
        "json_load": jsonload_t,
        "rblnsim": {"check": check_t, "analyze": analyze_t, "wall_s": rblnsim_wall,
                    "max_rss_bytes": max(check_t["max_rss_bytes"], analyze_t["max_rss_bytes"])},
        "onepass": dict(onepass_t, speedup=python_t["wall_s"] / onepass_t["wall_s"]
                        if onepass_t["wall_s"] > 0 else None,
                        vs_json_load=jsonload_t["wall_s"] / onepass_t["wall_s"]
                        if onepass_t["wall_s"] > 0 else None),
        "python": python_t,
        "speedup": python_t["wall_s"] / rblnsim_wall if rblnsim_wall > 0 else None,
        "rss_ratio": python_t["max_rss_bytes"] / max(check_t["max_rss_bytes"],
                                                     analyze_t["max_rss_bytes"]),
        "agreement": {"figures": rows, "differences": differences, "ok": not differences},
        "diff": dict(diff_t, pair_bytes=a.pair_bytes,
                     vs_two_analyze=diff_t["wall_s"] / (2 * analyze_t["wall_s"])
                     if analyze_t["wall_s"] > 0 else None,
                     rss_vs_analyze=diff_t["max_rss_bytes"] / analyze_t["max_rss_bytes"],
                     problems=diff_problems),
    }
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    if differences:
        print("compare: rblnsim and the Python reference disagree:", file=sys.stderr)
        for name, m, t in differences:
            print(f"  {name}: rblnsim {m}, python {t}", file=sys.stderr)
        return 1
    if diff_problems:
        print(f"compare: rblnsim diff misreported the pair: {diff_problems}", file=sys.stderr)
        return 1
    print(f"compare: {len(rows)} figures agree; rblnsim check+analyze {rblnsim_wall:.2f} s, "
          f"python {python_t['wall_s']:.2f} s ({result['speedup']:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
