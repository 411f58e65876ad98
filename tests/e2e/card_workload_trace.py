"""Writes a trace in the layout torch.profiler and torch-rbln produce on an RBLN-CR card of one of
the workloads in WORKLOADS (data/card_mm_softmax.yaml, data/card_bmm_add_linear.yaml,
data/card_eager_fallbacks.yaml), with the truth of what the script put in. Nothing here comes from the simulator:

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


class Fallback:
    """An add torch-rbln runs on the CPU: |scans| NaN/Inf scans in the dispatcher's frame (none
    when a check before them decides), then the boxed fallback moving |moved| tensors with
    _to_cpu and uploading the result. |compile_us| > 0: the kernel frame first compiled for that
    long and the compiler gave up (a compile_error fallback, inside the kernel frame)."""

    def __init__(self, dims, dtype, scans, moved, compile_us=0):
        self.op = "aten::add"
        self.dims = dims + [[]]
        self.types = [dtype, dtype, "Scalar"]
        self.scans, self.moved, self.compile_us = scans, moved, compile_us


INT_ADD = Fallback([[64, 128], [64, 128]], "int", scans=0, moved=2)  # dtype-not-fp16 first
NAN_ADD = Fallback([[64, 128], [64, 128]], HALF, scans=2, moved=2)  # n holds NaN
UNALIGNED_ADD = Fallback([[29, 31], [29, 31]], HALF, scans=0, moved=1)  # before any scan
FIRST_ADD = Fallback([[29, 64], [29, 64]], HALF, scans=2, moved=1, compile_us=2500)
# Per workload: the calls in order, the .cpu() downloads after them, and whether device ops scan
# their inputs for NaN/Inf first (TORCH_RBLN_DEPLOY unset).
WORKLOADS = {
    "mm_softmax": ([MM, SOFTMAX] * 2, 2, False),
    "bmm_add_linear": ([BMM, ADD, LINEAR, ADD, BMM, LINEAR], 3, False),
    # The eager workload of a first capture: fp16 mm, an int add, an fp16 add with a NaN input,
    # a first-time 29x31 add, a first-time 29x64 add whose compile fails, fp16 softmax, .cpu().
    "eager_fallbacks": ([MM, INT_ADD, NAN_ADD, UNALIGNED_ADD, FIRST_ADD, SOFTMAX], 2, True),
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


def _fallback(card, call):
    with card.op(call.op, call.dims, call.types, dur=30):
        for _ in range(call.scans):
            card.scan()

        def cpu_path():
            card.to_cpu(call.moved)
            card.ts += 40  # the CPU kernel: redispatchBoxed records no op
            card.copy_chain()  # the result back to the device
        if call.compile_us:
            with card.op(call.op, call.dims, call.types, dur=50):
                card.leaf("rbln::compile", dur=call.compile_us)
                cpu_path()
        else:
            cpu_path()


def build(drop_launch=None, bare_launch=None, extra_mm=False, workload="mm_softmax"):
    """Returns (trace dict, truth dict) of the profiled window (the warm-up is outside it)."""
    card = Card()
    truth = {"launches": [], "fallbacks": []}
    calls, downloads, scanned = WORKLOADS[workload]
    calls = calls + [MM] * extra_mm
    profiled = 0
    for call in calls:
        if isinstance(call, Fallback):
            _fallback(card, call)
            truth["fallbacks"].append(call.op)
            continue
        op, outer, dims, types = call
        keep, slices_kept = profiled != drop_launch, profiled != bare_launch
        profiled += 1

        # The kernel's frame twice, as torch-rbln records it: the dispatcher's (where the NaN/Inf
        # scans of its tensor inputs run), then the redispatch to the compiled kernel, which
        # launches; a composite op's frame around both.
        def kernel():
            with card.op(op, dims, types, dur=3):
                for _ in range(sum(1 for d in dims if d) if scanned else 0):
                    card.scan()
                with card.op(op, dims, types, dur=60):
                    _launch(card, op, card.launch + 1, truth, keep=keep, slices_kept=slices_kept)
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
