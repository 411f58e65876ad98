#!/usr/bin/env python3
"""Turns the raw profiles bench/profile.sh collects into bench/PROFILE.md.

Inputs in --dir: sim.txt (perf report, flat, --sort dso,sym), e2e.txt (perf report --children,
call graph), massif.out (valgrind massif of a traced `rblnsim run`).
"""
import argparse
import datetime
import os
import platform
import re
import sys

PERF_FLAT = re.compile(r"^\s+([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*)$")
PERF_CHILDREN = re.compile(r"^\s+([\d.]+)%\s+([\d.]+)%\s+\[(.)\]\s+(.*)$")
MASSIF_NODE = re.compile(r"^( *)n(\d+): (\d+) (.*)$")

ALLOCATOR = {"malloc", "_int_malloc", "_int_free", "cfree@GLIBC_2.2.5", "free", "unlink_chunk.constprop.0",
             "malloc_consolidate", "operator new", "operator delete", "_int_realloc", "realloc"}

# The simulator's components, in the order the table lists them.
COMPONENTS = [
    ("host model (eager dispatch, op catalog, compile cache)",
     lambda dso, kind, sym: sym.startswith(("rblnsim::host::", "rblnsim::compiler::", "rblnsim::scenario::"))),
    ("device model (run executor, engines, HBM, command processor)",
     lambda dso, kind, sym: sym.startswith("rblnsim::rebel100::")),
    ("SystemC kernel (scheduler, events, context switches)",
     lambda dso, kind, sym: "libsystemc" in dso or sym.startswith(("sc_core::", "_qt", "sc_cor"))),
    ("allocator (malloc/free)", lambda dso, kind, sym: sym in ALLOCATOR),
    ("OS: page faults on freshly grown buffers", lambda dso, kind, sym: kind == "k"),
    ("text formatting (fmt)", lambda dso, kind, sym: "libfmt" in dso or sym.startswith("fmt::")),
    ("libc memcpy/memcmp/strlen", lambda dso, kind, sym: dso.startswith("libc")),
    ("inlined std containers", lambda dso, kind, sym: sym.startswith("std::")),
]

# check / analyze: where an imported trace's time goes.
TRACE_COMPONENTS = [
    ("importer: reading fields of each event (simdjson on-demand)",
     lambda dso, kind, sym: "libsimdjson" in dso or sym.startswith("simdjson::")),
    ("importer: scanning, windowing, assembling the trace model",
     lambda dso, kind, sym: sym.startswith("rblnsim::trace::")),
    ("analyses (contract rules, launch latency, host forest)",
     lambda dso, kind, sym: sym.startswith(("rblnsim::analysis::", "rblnsim::cli::", "rblnsim::report::"))),
    ("allocator (malloc/free)", lambda dso, kind, sym: sym in ALLOCATOR),
    ("OS: page faults, zeroing, read()", lambda dso, kind, sym: kind == "k"),
    ("libc memcpy/memcmp/strlen", lambda dso, kind, sym: dso.startswith("libc")),
    ("inlined std containers", lambda dso, kind, sym: sym.startswith("std::")),
]

E2E_PHASES = [
    ("simulate: host and device processes", "sc_core::sc_thread_cor_fn"),
    ("simulate: kernel scheduler (main stack)", "rblnsim::sim::Simulation::RunSteps"),
    ("end session: records -> producer capture", "rblnsim::sim::SimulatedRuntime::End"),
    ("producer export (clock fit, sort, C structs)", "rblnsim::abi::ExportBuilder::ExportBuilder"),
    ("bridge: copy out of the export", "rblnsim::bridge::CopyExport"),
    ("bridge: projection into trace events", "rblnsim::bridge::ConvertExport"),
    ("freeing the bridge result", "rblnsim::bridge::BridgeResult::~BridgeResult"),
    ("OS page faults (all phases)", "asm_exc_page_fault"),
]


def machine():
    model, mhz = "unknown CPU", ""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and model == "unknown CPU":
                model = line.split(":", 1)[1].strip()
            if line.startswith("cpu MHz") and not mhz:
                mhz = line.split(":", 1)[1].strip().split(".")[0]
    return f"{model}, {os.cpu_count()} CPUs at {mhz} MHz, Linux {platform.release()}"


def flat_components(path, components=None):
    components = components or COMPONENTS
    totals = {name: 0.0 for name, _ in components}
    totals["other"] = 0.0
    top = []
    with open(path) as f:
        for line in f:
            m = PERF_FLAT.match(line)
            if not m:
                continue
            pct, dso, kind, sym = float(m.group(1)), m.group(2), m.group(3), m.group(4).strip()
            top.append((pct, sym))
            for name, test in components:
                if test(dso, kind, sym):
                    totals[name] += pct
                    break
            else:
                totals["other"] += pct
    return totals, top[:12]


def children_of(path):
    shares = {}
    with open(path) as f:
        for line in f:
            m = PERF_CHILDREN.match(line)
            if m:
                shares.setdefault(m.group(4).strip(), float(m.group(1)))
    return shares


def massif_peak(path):
    lines = open(path).read().split("\n")
    starts = [i for i, line in enumerate(lines) if line == "heap_tree=peak"]
    if not starts:
        sys.exit("profile_md: massif output has no peak snapshot")
    nodes = []  # (depth, bytes, description)
    for line in lines[starts[0] + 1:]:
        m = MASSIF_NODE.match(line)
        if not m:
            break
        nodes.append((len(m.group(1)), int(m.group(3)), m.group(4)))
    total = nodes[0][1]
    by_function = {}

    def owner(description):
        # The first project function on the allocating stack names the allocation.
        m = re.search(r"(rblnsim::(?:[A-Za-z0-9_~]+::|\(anonymous namespace\)::)*[A-Za-z0-9_~]+)"
                      r"(?:\(|\s|$)", description)
        if not m or "std::" in description.split(m.group(1))[0][-40:]:
            return None
        return m.group(1)

    def walk(index):
        depth, size, description = nodes[index]
        name = owner(description)
        child = index + 1
        children = []
        while child < len(nodes) and nodes[child][0] > depth:
            if nodes[child][0] == depth + 1:
                children.append(child)
            child += 1
        if name is not None or not children:
            key = name or "(outside the project: libraries, start-up)"
            by_function[key] = by_function.get(key, 0) + size
            return
        for c in children:
            walk(c)
        rest = size - sum(nodes[c][1] for c in children)
        if rest > 0:
            by_function["(below massif's threshold)"] = by_function.get("(below massif's threshold)", 0) + rest

    for i, node in enumerate(nodes):
        if node[0] == 1:
            walk(i)
    return total, sorted(by_function.items(), key=lambda kv: -kv[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--launches", type=int, required=True)
    args = parser.parse_args()

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print("# Profiles\n")
    print(f"Generated by `make profile` (bench/profile.sh) on {now}.  ")
    print(f"Machine: {machine()}; load average at the end: {os.getloadavg()[0]:.2f}.\n")

    totals, top = flat_components(os.path.join(args.dir, "sim.txt"))
    print("## Simulator alone: BM_Matmul512/100000 (perf, self time)\n")
    print("| component | share of samples |\n|---|---|")
    for name, pct in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"| {name} | {pct:.1f}% |")
    print("\nReading: the kernel share is what the loosely-timed model leaves (about ten context "
          "switches per launch: host sync, command-processor fetch and decode, task manager, "
          "completer). What remains is plain C++ per launch: the eager dispatch chain (op traits, "
          "shape inference, compile-cache key, host spans), the run executor's event list, and "
          "first-touch page faults of the session buffers that grow every session. Closing the "
          "gap for small programs means replaying a memoised dispatch plan for a repeated op "
          "(same op, same input signature) instead of re-deriving it, and recycling the "
          "session buffers between sessions.")
    print("\nHottest symbols:\n")
    print("| self | symbol |\n|---|---|")
    for pct, sym in top:
        print(f"| {pct:.2f}% | `{sym[:110]}` |")

    shares = children_of(os.path.join(args.dir, "e2e.txt"))
    print("\n## End to end: BM_EndToEnd512/100000 (perf, time including callees)\n")
    print("| phase | share of samples |\n|---|---|")
    for label, symbol in E2E_PHASES:
        print(f"| {label} | {shares.get(symbol, 0.0):.1f}% |")

    print("\nReading: after the simulation, every slice is materialised three more times — the "
          "producer capture, the bridge's deep copy of the export (the C-ABI contract: nothing "
          "may be kept past the sink call), and a trace::Event with its own name string and a "
          "vector of five args — and the result is freed again. Allocation, first-touch page "
          "faults and freeing dominate; the per-slice cost grows with the session as the working "
          "set outgrows the caches. Closing it needs a compact event representation (names and "
          "arg keys interned, args in one pool per trace) that the bridge fills in one pass.")
    trace_mb = int(open(os.path.join(args.dir, "big.bytes")).read()) / 1e6
    for command in ("check", "analyze"):
        totals, top = flat_components(os.path.join(args.dir, f"{command}.txt"), TRACE_COMPONENTS)
        print(f"\n## `rblnsim {command}` on a {trace_mb:,.0f} MB simulated trace (perf, self time)\n")
        print("| component | share of samples |\n|---|---|")
        for name, pct in sorted(totals.items(), key=lambda kv: -kv[1]):
            print(f"| {name} | {pct:.1f}% |")
        print("\n| self | hottest symbols |\n|---|---|")
        for pct, sym in top[:6]:
            print(f"| {pct:.2f}% | `{sym[:110]}` |")
    print("\nReading: both commands spend most of their time importing — each imports the file "
          "again — and the rules and analyses themselves are a small share. The importer reads "
          "the text through a sliding window and keeps only the args a command needs; what "
          "remains is per-event work: one simdjson on-demand pass per event, an Event of 144 "
          "bytes plus its name string built per event (most of the page zeroing), and the "
          "analyses' passes over that model. What would close the gap: the compact event "
          "columns described below (a fraction of the bytes to write and to read back), one "
          "simdjson pass over a whole window instead of one per event, and parsing on the second "
          "core while the first builds the model.")

    total, owners = massif_peak(os.path.join(args.dir, "massif.out"))
    print(f"\n## Memory: `rblnsim run` of {args.launches} launches with --trace (massif, peak heap)\n")
    print(f"Peak heap {total / 1e6:.1f} MB = {total / args.launches / 1e3:.2f} kB per launch "
          f"(ten trace events and six device commands each).\n")
    print("| allocated under | MB at the peak | share |\n|---|---|---|")
    for name, size in owners[:12]:
        print(f"| `{name}` | {size / 1e6:.1f} | {100.0 * size / total:.1f}% |")
    print("\nReading: `rblnsim run` holds the whole trace model at once — host and device events "
          "with their args — and computes key_averages, the trace reports and the writer's "
          "output from it, so the peak grows by a fixed amount per launch. A 10^6-launch run at "
          "the per-launch figure above does not fit 2 GB. What would: the compact event "
          "representation above, the writer fed in batches as the bridge produces events, and "
          "key_averages and the launch-latency analysis aggregated in the same single pass, so "
          "only per-name aggregates and per-launch records stay resident.")


if __name__ == "__main__":
    main()
