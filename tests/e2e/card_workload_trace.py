"""Writes a trace in the layout torch.profiler and torch-rbln produce on an RBLN-CR card of one of
the workloads in WORKLOADS (data/card_mm_softmax.yaml, data/card_bmm_add_linear.yaml), with the
truth of what the script put in. Nothing here comes from the simulator:

  - op names as torch records them under inference_mode: x @ x is aten::matmul around aten::mm,
    softmax is aten::softmax around aten::_softmax, the kernel's frame appears twice (dispatch,
    then the compiled kernel) and each launch sits in the inner one;
    Input Dims list scalar arguments as [] (softmax's dim and half_to_float);
  - the card's rows: device pid 0 "RBLN-CR13 (rbln:0)" with the lanes Neural Engine Clusters,
    Neural DMA, Task DMA and Device Sync; Device Sync slices are no kernel (gpu_user_annotation),
    yet they are device work of their launch;
  - command names in the card's own numbering, not rblnsim's.

`drop_launch` leaves out the N-th profiled launch (0-based), marker and slices, as a lost record
would; `bare_launch` keeps its marker but none of its device slices; `extra_mm` appends one more
x @ x the scenario does not have.
"""
import json

from card_fallback_trace import PID, TID, Card, card_document

DEVICE_PID = 0
LANES = {"nec": 0, "ndma": 1, "tdma": 2, "sync": 3}
LANE_NAMES = {0: "Neural Engine Clusters", 1: "Neural DMA", 2: "Task DMA", 3: "Device Sync"}
CATEGORY = {0: "kernel", 1: "gpu_memcpy", 2: "gpu_memcpy", 3: "gpu_user_annotation"}
HALF = "c10::Half"
# Per launching op: the commands a launch runs, (name, lane, duration in us).
COMMANDS = {
    "aten::mm": [("load_w", "ndma", 2.6), ("load_x", "ndma", 2.4), ("args", "tdma", 0.8),
                 ("gemm_0", "nec", 3.1), ("gemm_1", "nec", 3.0), ("store", "tdma", 0.9),
                 ("barrier", "sync", 0.4)],
    "aten::_softmax": [("load", "tdma", 0.7), ("softmax", "nec", 1.3), ("store", "tdma", 0.6),
                       ("barrier", "sync", 0.3)],
    "aten::bmm": [("load_a", "ndma", 1.1), ("load_b", "ndma", 1.2), ("args", "tdma", 0.5),
                  ("gemm_0", "nec", 1.9), ("store", "tdma", 0.6), ("barrier", "sync", 0.3)],
    "aten::add": [("load", "tdma", 0.9), ("add", "nec", 0.7), ("store", "tdma", 0.5),
                  ("barrier", "sync", 0.2)],
    "aten::linear": [("load_w", "ndma", 1.8), ("load_x", "ndma", 0.9), ("args", "tdma", 0.5),
                     ("gemm_0", "nec", 2.2), ("bias", "nec", 0.4), ("store", "tdma", 0.7),
                     ("barrier", "sync", 0.3)],
}
# Per workload: the profiled calls in order, each (launching op, outer frame or None, Input Dims,
# Input type), and the number of .cpu() downloads after them.
MM = ("aten::mm", "aten::matmul", [[512, 512], [512, 512]], [HALF, HALF])
SOFTMAX = ("aten::_softmax", "aten::softmax", [[8, 64], [], []], [HALF, "Scalar", "Scalar"])
BMM = ("aten::bmm", None, [[4, 64, 128], [4, 128, 64]], [HALF, HALF])
ADD = ("aten::add", None, [[64, 128], [64, 128], []], [HALF, HALF, "Scalar"])
LINEAR = ("aten::linear", None, [[64, 128], [256, 128], [256]], [HALF, HALF, HALF])
WORKLOADS = {
    "mm_softmax": ([MM, SOFTMAX] * 2, 2),
    "bmm_add_linear": ([BMM, ADD, LINEAR, ADD, BMM, LINEAR], 3),
}


def _launch(card, op, instance, truth, keep, slices_kept=True):
    card.launch += 1
    start = card.ts
    t = start + 14.0
    slices = []
    for index, (name, lane, dur) in enumerate(COMMANDS[op]):
        tid = LANES[lane]
        slices.append({"ph": "X", "cat": CATEGORY[tid], "name": f"{instance}_{name}_{index}",
                       "pid": DEVICE_PID, "tid": tid, "ts": round(t, 3), "dur": dur,
                       "args": {"launch_id": card.launch}})
        t += dur + 0.2
    if keep:
        card.events.append({"ph": "X", "cat": "privateuse1_runtime", "name": "rbln launch",
                            "pid": PID, "tid": TID, "ts": round(start, 3), "dur": 0,
                            "args": {"launch_id": card.launch}})
        if not slices_kept:
            slices = []
        card.events.extend(slices)
        truth["launches"].append({"op": op, "device_us": sum(s["dur"] for s in slices),
                                  "slices": len(slices)})
    card.ts += 1.0


def build(drop_launch=None, bare_launch=None, extra_mm=False, workload="mm_softmax"):
    """Returns (trace dict, truth dict) of the profiled window (the warm-up is outside it)."""
    card = Card()
    truth = {"launches": []}
    calls, downloads = WORKLOADS[workload]
    calls = calls + [MM] * extra_mm
    for profiled, (op, outer, dims, types) in enumerate(calls):
        # The kernel's frame twice, as torch-rbln records it: the dispatcher's, then the
        # redispatch to the compiled kernel, which launches; a composite op's frame around both.
        def kernel():
            with card.op(op, dims, types, dur=3):
                with card.op(op, dims, types, dur=60):
                    _launch(card, op, card.launch + 1, truth, keep=profiled != drop_launch,
                            slices_kept=profiled != bare_launch)
        if outer is None:
            kernel()
        else:
            with card.op(outer, dims, types, dur=4):
                kernel()
    for _ in range(downloads):
        card.copy_chain()
    trace = card_document("RBLN-CR13 (rbln:0)", LANE_NAMES, card.events, DEVICE_PID)
    return trace, truth


def write(path, drop_launch=None, bare_launch=None, extra_mm=False, workload="mm_softmax"):
    trace, truth = build(drop_launch, bare_launch, extra_mm, workload)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(trace, f)
    return truth
